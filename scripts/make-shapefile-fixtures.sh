#!/usr/bin/env bash
# Regenerates the shapefile fixtures in testdata/shapefile/ from the GeoJSON we wrote in
# testdata/shapefile/source/, with GDAL's ogr2ogr (the producer most shapefiles come from):
# parcels (polygons with holes, a MultiPolygon, a null shape; UTF-8 with a .cpg), roads
# (PolyLineZ), stops (points in CP1252 with a .cpg saying so), stops-ldid (the same with no
# .cpg: the DBF's language driver id says CP1252), and both.zip (parcels and roads zipped).
#   scripts/make-shapefile-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/../testdata/shapefile"
rm -f parcels.* roads.* stops.* stops-ldid.* both.zip
ogr2ogr -f "ESRI Shapefile" parcels.shp source/parcels.geojson -nlt POLYGON -lco ENCODING=UTF-8
ogr2ogr -f "ESRI Shapefile" roads.shp source/roads.geojson -nlt MULTILINESTRING25D
ogr2ogr -f "ESRI Shapefile" stops.shp source/stops.geojson -lco ENCODING=CP1252
ogr2ogr -f "ESRI Shapefile" stops-ldid.shp source/stops.geojson -lco ENCODING=CP1252
rm stops-ldid.cpg
# Language driver id 0x03 (code page 1252) at byte 29 of the DBF header, as dBase writes it.
printf '\x03' | dd of=stops-ldid.dbf bs=1 seek=29 conv=notrunc status=none
zip -q -X both.zip parcels.shp parcels.shx parcels.dbf parcels.prj parcels.cpg roads.shp roads.shx roads.dbf roads.prj
ls -l
