#!/usr/bin/env python3
"""Writes testdata/geoparquet/*.parquet with other tools, from geoconv's own fixture
(testdata/geoparquet/source.geojson) and values made here, so that the tests read what
pyarrow and geopandas write without a Python in the test run:

  geopandas-snappy.parquet   geopandas.to_parquet defaults (snappy, dictionary, page v1)
  geopandas-zstd-bbox.parquet   zstd, write_covering_bbox=True (GeoParquet 1.1)
  pyarrow-v2-gzip-plain.parquet data page v2, gzip, no dictionary
  pyarrow-types.parquet      dates, timestamps, decimals, small and unsigned integers,
                             float32, binary, UUID-sized fixed binary, a struct, a list,
                             a null column; one WKB geometry column with geo metadata
  duckdb-native-utm.parquet  Parquet's own GEOMETRY logical type (no geo metadata), its CRS
                             UTM 33N as inline PROJJSON (DuckDB 1.4+ writes so): a polygon
                             with a hole
  duckdb-native-crs84.parquet   the same type with no CRS (OGC:CRS84)
  pyarrow-lists-v1.parquet   lists (of text, of integers, with null and empty ones and null
  pyarrow-lists-v2.parquet   elements), a map, a list of structs, a list of lists, and a
                             struct holding a list, a map and a list of structs;
                             pages of 256 bytes, row groups of 25 (v1 snappy, v2 plain)
  pyarrow-legacy-list.parquet   a list under pyarrow's older level names (`list.item`)

  pip install pyarrow geopandas duckdb && python3 scripts/make-geoparquet-fixtures.py
  python3 scripts/make-geoparquet-fixtures.py lists      (the list fixtures alone: pyarrow)
"""
import datetime
import decimal
import json
import os

import sys

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "geoparquet")


def main():
    import geopandas
    import shapely
    frame = geopandas.read_file(os.path.join(HERE, "source.geojson"))
    frame.to_parquet(os.path.join(HERE, "geopandas-snappy.parquet"))
    frame.to_parquet(os.path.join(HERE, "geopandas-zstd-bbox.parquet"), compression="zstd", write_covering_bbox=True)
    table = pq.read_table(os.path.join(HERE, "geopandas-snappy.parquet"))
    pq.write_table(table, os.path.join(HERE, "pyarrow-v2-gzip-plain.parquet"), data_page_version="2.0",
                   compression="gzip", use_dictionary=False)
    types = pa.table({
        "day": pa.array([datetime.date(2024, 1, 1), None, datetime.date(1969, 12, 31)], pa.date32()),
        "utc": pa.array([datetime.datetime(2024, 1, 1, 12, 30, 5, 123000), None, datetime.datetime(1970, 1, 1)],
                        pa.timestamp("ms", tz="UTC")),
        "local": pa.array([datetime.datetime(2024, 2, 29, 23, 59, 59, 999999), None, None], pa.timestamp("us")),
        "amount": pa.array([decimal.Decimal("12.345"), decimal.Decimal("-0.005"), None], pa.decimal128(10, 3)),
        "small": pa.array([-128, 0, 127], pa.int8()),
        "unsigned": pa.array([65535, 0, None], pa.uint16()),
        "big_unsigned": pa.array([2**64 - 1, 1, None], pa.uint64()),
        "single": pa.array([0.5, -1.25, None], pa.float32()),
        "blob": pa.array([b"\x00\xff", None, b""], pa.binary()),
        "uuid": pa.array([bytes(range(16)), None, bytes(16)], pa.binary(16)),
        "address": pa.array([{"city": "Paris", "zip": 75001}, None, {"city": None, "zip": 13001}],
                            pa.struct([("city", pa.string()), ("zip", pa.int32())])),
        "tags": pa.array([["a", "b"], [], None], pa.list_(pa.string())),
        "nothing": pa.array([None, None, None], pa.null()),
        "geometry": pa.array([shapely.to_wkb(shapely.Point(1, 2)), None, shapely.to_wkb(shapely.LineString([(0, 0), (1, 1)]))],
                             pa.binary()),
    })
    geo = {"version": "1.0.0", "primary_column": "geometry",
           "columns": {"geometry": {"encoding": "WKB", "geometry_types": ["Point", "LineString"]}}}
    types = types.replace_schema_metadata({"geo": json.dumps(geo)})
    pq.write_table(types, os.path.join(HERE, "pyarrow-types.parquet"))
    native()


def native():
    import subprocess
    import duckdb
    projjson = subprocess.run(["projinfo", "EPSG:32633", "-o", "PROJJSON", "-q"], check=True,
                              capture_output=True, text=True).stdout.replace("'", "''")
    polygon = ("POLYGON((500000 4000000,510000 4000000,510000 4010000,500000 4010000,500000 4000000),"
               "(502000 4002000,502000 4004000,504000 4004000,504000 4002000,502000 4002000))")
    con = duckdb.connect()
    con.sql(f"copy (select 1 as id, 'Lake' as NAME, '{polygon}'::GEOMETRY('{projjson}') as geom) "
            f"to '{os.path.join(HERE, 'duckdb-native-utm.parquet')}' (format parquet, geoparquet_version 'NONE')")
    con.sql(f"copy (select 2 as id, 'POINT(10.5 59.9)'::GEOMETRY as geom) "
            f"to '{os.path.join(HERE, 'duckdb-native-crs84.parquet')}' (format parquet, geoparquet_version 'NONE')")


def lists():
    rows = 40
    point = bytes.fromhex("0101000000000000000000f03f0000000000000040")  # POINT (1 2)
    table = pa.table({
        "id": pa.array(range(rows), pa.int32()),
        "tags": pa.array([None if i % 7 == 3 else [f"t{i}"] * (i % 4) + ([None] if i % 5 == 1 else [])
                          for i in range(rows)], pa.list_(pa.string())),
        "sizes": pa.array([[i, -i, 2**40] if i % 3 else [] for i in range(rows)], pa.list_(pa.int64())),
        "attrs": pa.array([None if i % 6 == 5 else [(f"k{j}", None if j == 1 else i * 10 + j) for j in range(i % 3)]
                           for i in range(rows)], pa.map_(pa.string(), pa.int32())),
        "stops": pa.array([[{"at": i, "name": None if i % 3 == 0 else "a"}] + ([None] if i % 4 == 0 else [])
                           for i in range(rows)],
                          pa.list_(pa.struct([("at", pa.int32()), ("name", pa.string())]))),
        "grid": pa.array([[[i], [i, i]] for i in range(rows)], pa.list_(pa.list_(pa.int32()))),
        # A struct holding a list, a map and a list of structs (Overture's `names` has that shape).
        "place": pa.array([None if i % 8 == 7 else {"city": f"c{i}", "tags": [f"p{i}"] * (i % 2),
                                                    "common": [("en", f"e{i}")], "rules": [{"v": "x"}]}
                           for i in range(rows)],
                          pa.struct([("city", pa.string()), ("tags", pa.list_(pa.string())),
                                     ("common", pa.map_(pa.string(), pa.string())),
                                     ("rules", pa.list_(pa.struct([("v", pa.string())])))])),
        "geometry": pa.array([point] * rows, pa.binary()),
    })
    geo = {"version": "1.0.0", "primary_column": "geometry",
           "columns": {"geometry": {"encoding": "WKB", "geometry_types": ["Point"]}}}
    table = table.replace_schema_metadata({"geo": json.dumps(geo)})
    pq.write_table(table, os.path.join(HERE, "pyarrow-lists-v1.parquet"), data_page_size=256, row_group_size=25)
    pq.write_table(table, os.path.join(HERE, "pyarrow-lists-v2.parquet"), data_page_size=256, row_group_size=25,
                   data_page_version="2.0", compression="none", use_dictionary=False)
    # pyarrow's older names for a list's levels (`list.item`, not `list.element`).
    legacy = pa.table({"id": pa.array([1, 2], pa.int32()), "legacy": pa.array([[1, 2], []], pa.list_(pa.int32()))})
    pq.write_table(legacy, os.path.join(HERE, "pyarrow-legacy-list.parquet"), use_compliant_nested_type=False)


if __name__ == "__main__":
    if sys.argv[1:] == ["lists"]:
        lists()
    else:
        main()
        lists()
