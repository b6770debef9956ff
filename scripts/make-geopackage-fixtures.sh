#!/usr/bin/env bash
# Regenerates the GeoPackage fixtures in testdata/geopackage/ with GDAL's ogr2ogr, from the
# GeoJSON we wrote in testdata/flatgeobuf/source/ and the CSV in testdata/geopackage/source/:
# places.gpkg holds three tables in this order: places (polygons with holes, a MultiPolygon, a
# feature without geometry, text, reals, integers, booleans, nulls), trail (lines with
# altitudes) and visits (an attribute table: no geometry; a date, an empty count, booleans).
# two-crs.gpkg holds places in EPSG:4326 and again in EPSG:25832.
#   scripts/make-geopackage-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/../testdata/geopackage"
rm -f places.gpkg two-crs.gpkg
ogr2ogr -f GPKG places.gpkg ../flatgeobuf/source/places.geojson -nln places
ogr2ogr -f GPKG -update places.gpkg ../flatgeobuf/source/trail.geojson -nln trail -dim XYZ
ogr2ogr -f GPKG -update places.gpkg source/visits.csv -nln visits -oo AUTODETECT_TYPE=YES
ogr2ogr -f GPKG two-crs.gpkg ../flatgeobuf/source/places.geojson -nln wgs84
ogr2ogr -f GPKG -update two-crs.gpkg ../flatgeobuf/source/places.geojson -nln utm -t_srs EPSG:25832
# (Small pages, then VACUUM: the same database in a tenth of the bytes, so that the fixtures
# stay small enough for the byte-at-a-time checks.)
for file in places.gpkg two-crs.gpkg; do
    python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); db.execute("PRAGMA page_size = 512"); db.execute("VACUUM"); db.close()' "$file"
done
ls -l
