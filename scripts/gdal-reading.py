#!/usr/bin/python3
"""GDAL's reading of files, for geoconv's differential check (GDALDifferentialTests).

  /usr/bin/python3 scripts/gdal-reading.py FILE... > reading.json

Prints one JSON object: for each file, {"error": "..."} when GDAL does not open it, else
{"driver": name, "layers": [{"name", "features": [{"fields": [[name, value], ...],
"geometry": hex ISO WKB or null}]}]}. Geometries are in WGS84 longitude/latitude (reprojected
from the layer's CRS, traditional GIS axis order), exact doubles in WKB. Field values: integers
and reals as JSON numbers (reals exact), booleans (GDAL's boolean subtype), JSON (its JSON
subtype, parsed), text, lists, dates and times in ISO 8601 (GDAL prints them
2015/07/31 17:00:00+00); null fields null, unset fields left out. A test tool (python3-gdal comes with gdal-bin), not a dependency.

CSV is opened with the column names geoconv recognises (docs/formats/csv.md) as open options,
so that both read the same columns as the geometry: X_POSSIBLE_NAMES, Y_POSSIBLE_NAMES,
GEOM_POSSIBLE_NAMES, KEEP_GEOM_COLUMNS=NO, AUTODETECT_TYPE=YES.
"""
import json
import math
import sys

from osgeo import gdal, ogr, osr

gdal.UseExceptions()
gdal.SetConfigOption("CPL_LOG", "/dev/null")
gdal.PushErrorHandler("CPLQuietErrorHandler")

CSV_OPTIONS = [
    "X_POSSIBLE_NAMES=lon,lng,long,longitude,x",
    "Y_POSSIBLE_NAMES=lat,latitude,y",
    "GEOM_POSSIBLE_NAMES=WKT,geometry,geom,the_geom",
    "KEEP_GEOM_COLUMNS=NO",
    "AUTODETECT_TYPE=YES",
]


def wgs84():
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return srs


def iso8601(feature, index, kind):
    """A date, time or date-time field in ISO 8601 (GDAL prints them 2015/07/31 17:00:00+00)."""
    year, month, day, hour, minute, second, zone = feature.GetFieldAsDateTime(index)
    whole = int(second)
    seconds = "%02d" % whole if second == whole else ("%06.3f" % second).rstrip("0")
    clock = "%02d:%02d:%s" % (hour, minute, seconds)
    if zone == 100:
        suffix = "Z"
    elif zone > 1:
        offset = (zone - 100) * 15
        suffix = "%s%02d:%02d" % ("+" if offset >= 0 else "-", abs(offset) // 60, abs(offset) % 60)
    else:
        suffix = ""
    date = "%04d-%02d-%02d" % (year, month, day)
    if kind == ogr.OFTDate:
        return date
    if kind == ogr.OFTTime:
        return clock
    return date + "T" + clock + suffix


def field_value(feature, index, defn):
    kind = defn.GetType()
    subtype = defn.GetSubType()
    if subtype == ogr.OFSTBoolean and kind == ogr.OFTInteger:
        return feature.GetFieldAsInteger(index) != 0
    if subtype == ogr.OFSTJSON and kind == ogr.OFTString:
        text = feature.GetFieldAsString(index)
        try:
            return json.loads(text)
        except ValueError:
            return text
    if kind in (ogr.OFTDate, ogr.OFTTime, ogr.OFTDateTime):
        return iso8601(feature, index, kind)
    if kind == ogr.OFTInteger or kind == ogr.OFTInteger64:
        return feature.GetFieldAsInteger64(index)
    if kind == ogr.OFTReal:
        value = feature.GetFieldAsDouble(index)
        return value if math.isfinite(value) else str(value)  # JSON has no NaN
    if kind == ogr.OFTIntegerList:
        return feature.GetFieldAsIntegerList(index)
    if kind == ogr.OFTInteger64List:
        return feature.GetFieldAsInteger64List(index)
    if kind == ogr.OFTRealList:
        return feature.GetFieldAsDoubleList(index)
    if kind == ogr.OFTStringList:
        return feature.GetFieldAsStringList(index)
    if kind == ogr.OFTBinary:
        return feature.GetFieldAsBinary(index).hex()
    return feature.GetFieldAsString(index)


def read(path):
    options = CSV_OPTIONS if path.lower().endswith((".csv", ".tsv")) else []
    try:
        dataset = gdal.OpenEx(path, gdal.OF_VECTOR | gdal.OF_READONLY, open_options=options)
    except RuntimeError as error:
        return {"error": str(error)}
    if dataset is None:
        return {"error": "not opened"}
    target = wgs84()
    layers = []
    for layer_index in range(dataset.GetLayerCount()):
        layer = dataset.GetLayer(layer_index)
        source = layer.GetSpatialRef()
        transform = None
        if source is not None:
            source.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
            if not (source.IsGeographic() and source.GetAuthorityCode(None) == "4326"):
                try:
                    transform = osr.CoordinateTransformation(source, target)
                except RuntimeError:
                    transform = None
        definition = layer.GetLayerDefn()
        features = []
        layer.ResetReading()
        for feature in layer:
            fields = []
            for index in range(definition.GetFieldCount()):
                defn = definition.GetFieldDefn(index)
                if not feature.IsFieldSet(index):
                    continue
                value = None if feature.IsFieldNull(index) else field_value(feature, index, defn)
                fields.append([defn.GetName(), value])
            geometry = feature.GetGeometryRef()
            wkb = None
            if geometry is not None:
                geometry = geometry.Clone()
                if transform is not None:
                    try:
                        geometry.Transform(transform)
                    except RuntimeError:
                        pass
                wkb = geometry.ExportToIsoWkb().hex()
            features.append({"fields": fields, "geometry": wkb})
        layers.append({"name": layer.GetName(), "features": features})
    return {"driver": dataset.GetDriver().ShortName, "layers": layers}


def clean(value):
    """The value with text that is not Unicode (lone surrogates from undecodable bytes) made
    valid, U+FFFD for each bad byte, as geoconv reads such bytes."""
    if isinstance(value, str):
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    if isinstance(value, list):
        return [clean(item) for item in value]
    if isinstance(value, dict):
        return {key: clean(item) for key, item in value.items()}
    return value


def read_apart(path):
    """`read(path)` in a child process: GDAL crashes on some damaged files (a shapefile
    cut short), and that crash is that file's answer."""
    import os
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(reader)
        try:
            text = json.dumps(clean(read(path)), allow_nan=False)
        except Exception as error:  # one file's failure is that file's answer
            text = json.dumps({"error": str(error)})
        with os.fdopen(writer, "w") as out:
            out.write(text)
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader) as source:
        text = source.read()
    _, status = os.waitpid(child, 0)
    if status != 0 or not text:
        return {"error": "GDAL crashed reading it (status %d)" % status}
    return json.loads(text)


def main():
    result = {path: read_apart(path) for path in sys.argv[1:]}
    json.dump(result, sys.stdout, allow_nan=False)


if __name__ == "__main__":
    main()
