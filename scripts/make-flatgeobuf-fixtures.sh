#!/usr/bin/env bash
# Regenerates the FlatGeobuf fixtures in testdata/flatgeobuf/ from the GeoJSON we wrote in
# testdata/flatgeobuf/source/, with GDAL's ogr2ogr: places (polygons with holes, a
# MultiPolygon, a feature without geometry, text, reals, integers, booleans, nulls; with the
# packed R-tree; GDAL leaves out the feature without geometry) and trail (a LineString and a
# MultiLineString with altitudes: geometry type Unknown with Z, written without an index).
#   scripts/make-flatgeobuf-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/../testdata/flatgeobuf"
rm -f places.fgb trail.fgb
ogr2ogr -f FlatGeobuf places.fgb source/places.geojson
ogr2ogr -f FlatGeobuf trail.fgb source/trail.geojson -dim XYZ -lco SPATIAL_INDEX=NO
ls -l
