#!/usr/bin/env bash
# GeoPackage and FlatGeobuf: geoconv beside ogr2ogr in the same run, whole process (wall
# seconds and peak RSS from /usr/bin/time), the median of REPEAT alternated runs.
#
#   scripts/bench/exchange.sh [DATA_DIR]       (default bench-out/data)
#   ONLY=p,q scripts/bench/exchange.sh         only those rows (default: p,q,r,s,t,u,v,w)
#   NO_BUILD=1 REPEAT=1 …                      as scripts/bench/points.sh
#
# Rows: p the shared generator's 1 M points GeoJSON → GeoPackage and q → FlatGeobuf (both
# with their spatial index, the default of both tools); r, s those outputs (ogr2ogr's, so
# that both tools read the same file) → GeoJSON; t-w the same four for the polygon set of
# scripts/bench/tabular.sh (parcels.geojson, made by scripts/bench/gen_parcels.py and
# ogr2ogr). ratio = ogr2ogr s / geoconv s (> 1: geoconv is faster).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-bench-out/data}
ONLY=${ONLY:-p,q,r,s,t,u,v,w}
REPEAT=${REPEAT:-3}
OUT=${GEOCONV_BENCH_OUT:-bench-out/exchange}
mkdir -p "$DATA" "$OUT"
want() { [[ ",$ONLY," == *",$1,"* ]]; }
if ! command -v ogr2ogr >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gdal-bin >/dev/null
fi
P1M=$DATA/points_1m.geojson
PARCELS=$DATA/parcels.geojson
if want p || want q || want r || want s; then
    [ -s "$P1M" ] || python3 ../shared/bench/gen_data.py --out "$DATA" --only points
fi
if (want t || want u || want v || want w) && [ ! -s "$PARCELS" ]; then
    python3 scripts/bench/gen_parcels.py "${PARCELS_COUNT:-180000}" > "$DATA/parcels.geojsonl"
    ogr2ogr -f GeoJSON "$PARCELS" "$DATA/parcels.geojsonl"
    rm -f "$DATA/parcels.geojsonl"
fi
made_by_gdal() { # INPUT FORMAT OUTPUT: ogr2ogr's copy, made once, for the reading rows
    [ -s "$3" ] || ogr2ogr -f "$2" "$3" "$1"
}
if want r; then made_by_gdal "$P1M" GPKG "$DATA/points_1m.gpkg"; fi
if want s; then made_by_gdal "$P1M" FlatGeobuf "$DATA/points_1m.fgb"; fi
if want v; then made_by_gdal "$PARCELS" GPKG "$DATA/parcels.gpkg"; fi
if want w; then made_by_gdal "$PARCELS" FlatGeobuf "$DATA/parcels.fgb"; fi
[ -n "${NO_BUILD:-}" ] || swift build -c release >/dev/null
GEOCONV=.build/release/geoconv
source scripts/bench/measure.sh
echo "# $(date -u '+%F %T UTC'); $(nproc) cores; $("$GEOCONV" --version); $(ogr2ogr --version);" \
    "median of $REPEAT alternated runs"
echo
echo "| task | input | geoconv s | geoconv MB | ogr2ogr s | ogr2ogr MB | ratio |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
write() { # ROW INPUT FORMAT EXTENSION
    run "$1" "$2" "$GEOCONV" "$2" "$OUT/g.$4" --quiet :: ogr2ogr -f "$3" "$OUT/o.$4" "$2"
}
back() { # ROW INPUT
    run "$1" "$2" "$GEOCONV" "$2" "$OUT/g.geojson" --quiet :: ogr2ogr -f GeoJSON "$OUT/o.geojson" "$2"
}
want p && write "p. GeoJSON (1 M points) → GeoPackage" "$P1M" GPKG gpkg
want q && write "q. GeoJSON (1 M points) → FlatGeobuf" "$P1M" FlatGeobuf fgb
want r && back "r. GeoPackage (1 M points, ogr2ogr's) → GeoJSON" "$DATA/points_1m.gpkg"
want s && back "s. FlatGeobuf (1 M points, ogr2ogr's) → GeoJSON" "$DATA/points_1m.fgb"
want t && write "t. GeoJSON (polygons) → GeoPackage" "$PARCELS" GPKG gpkg
want u && write "u. GeoJSON (polygons) → FlatGeobuf" "$PARCELS" FlatGeobuf fgb
want v && back "v. GeoPackage (polygons, ogr2ogr's) → GeoJSON" "$DATA/parcels.gpkg"
want w && back "w. FlatGeobuf (polygons, ogr2ogr's) → GeoJSON" "$DATA/parcels.fgb"
true
