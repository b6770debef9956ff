#!/usr/bin/env bash
# CSV, Shapefile and selection: geoconv beside ogr2ogr in the same run, whole process (wall
# seconds and peak RSS from /usr/bin/time), the median of REPEAT alternated runs.
#
#   scripts/bench/tabular.sh [DATA_DIR]        (default bench-out/data)
#   ONLY=i,k scripts/bench/tabular.sh          only those rows (default: i,j,k,l,m,n,o)
#   NO_BUILD=1 REPEAT=1 …                      as scripts/bench/points.sh
#
# Rows: i the shared generator's 1 M points as a CSV (X,Y columns and the id, written by
# ogr2ogr -lco GEOMETRY=AS_XY) → GeoJSON; j the same with --where "id < 500000" against
# row i's plain conversion (the selection's cost; and against ogr2ogr -where); k a polygon
# shapefile of at least 100 MB (scripts/bench/gen_parcels.py, made by ogr2ogr) → GeoJSON;
# l the same → KML; m the 1 M points GeoJSON → Shapefile; n the polygons (as GeoJSON) →
# Shapefile; o 1 M typed rows of eight columns (id, name, lat, lon, pop, score, kind, open;
# scripts/bench/gen_typed_csv.py) → GeoJSON. ratio = ogr2ogr s / geoconv s (> 1: geoconv is faster).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-bench-out/data}
ONLY=${ONLY:-i,j,k,l,m,n,o}
REPEAT=${REPEAT:-3}
OUT=${GEOCONV_BENCH_OUT:-bench-out/tabular}
mkdir -p "$DATA" "$OUT"
want() { [[ ",$ONLY," == *",$1,"* ]]; }
if ! command -v ogr2ogr >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gdal-bin >/dev/null
fi
P1M=$DATA/points_1m.geojson
CSV=$DATA/points_1m.csv
SHP=$DATA/parcels.shp
if want i || want j; then
    [ -s "$P1M" ] || python3 ../shared/bench/gen_data.py --out "$DATA" --only points
    [ -s "$CSV" ] || { ogr2ogr -f CSV "$CSV.tmp.csv" "$P1M" -lco GEOMETRY=AS_XY && mv "$CSV.tmp.csv" "$CSV"; }
fi
PARCELS_JSON=$DATA/parcels.geojson
TYPED=$DATA/typed_1m.csv
if (want k || want l || want n) && { [ ! -s "$SHP" ] || [ ! -s "$PARCELS_JSON" ]; }; then
    [ -s "$DATA/parcels.geojsonl" ] || python3 scripts/bench/gen_parcels.py "${PARCELS:-180000}" > "$DATA/parcels.geojsonl"
    [ -s "$SHP" ] || ogr2ogr -f "ESRI Shapefile" "$SHP" "$DATA/parcels.geojsonl" -nlt POLYGON -lco ENCODING=UTF-8
    [ -s "$PARCELS_JSON" ] || ogr2ogr -f GeoJSON "$PARCELS_JSON" "$DATA/parcels.geojsonl"
    rm -f "$DATA/parcels.geojsonl"
fi
if want m; then [ -s "$P1M" ] || python3 ../shared/bench/gen_data.py --out "$DATA" --only points; fi
if want o && [ ! -s "$TYPED" ]; then python3 scripts/bench/gen_typed_csv.py 1000000 > "$TYPED.tmp" && mv "$TYPED.tmp" "$TYPED"; fi
[ -n "${NO_BUILD:-}" ] || swift build -c release >/dev/null
GEOCONV=.build/release/geoconv
source scripts/bench/measure.sh
echo "# $(date -u '+%F %T UTC'); $(nproc) cores; $("$GEOCONV" --version); $(ogr2ogr --version); median of $REPEAT alternated runs"
echo
echo "| task | input | geoconv s | geoconv MB | ogr2ogr s | ogr2ogr MB | ratio |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
XY=(-oo X_POSSIBLE_NAMES=X -oo Y_POSSIBLE_NAMES=Y -oo AUTODETECT_TYPE=YES)
I_WALL=
if want i; then
    run "i. CSV (1 M points) → GeoJSON" "$CSV" "$GEOCONV" "$CSV" "$OUT/g.geojson" --quiet :: ogr2ogr -f GeoJSON "$OUT/o.geojson" "$CSV" "${XY[@]}"
    I_WALL=$GEOCONV_WALL
fi
if want j; then
    run "j. CSV → GeoJSON --where \"id < 500000\"" "$CSV" "$GEOCONV" "$CSV" "$OUT/g.geojson" --quiet --where "id < 500000" \
        :: ogr2ogr -f GeoJSON "$OUT/o.geojson" "$CSV" "${XY[@]}" -where "id < 500000"
    if [ -n "$I_WALL" ]; then
        awk -v w="$GEOCONV_WALL" -v p="$I_WALL" 'BEGIN { printf "| j′. --where cost | | %.2f | | %.2f (plain, row i) | | %+.0f %% |\n", w, p, (w / p - 1) * 100 }'
    fi
fi
want k && run "k. Shapefile (polygons) → GeoJSON" "$SHP" "$GEOCONV" "$SHP" "$OUT/g.geojson" --quiet :: ogr2ogr -f GeoJSON "$OUT/o.geojson" "$SHP"
want l && run "l. Shapefile (polygons) → KML" "$SHP" "$GEOCONV" "$SHP" "$OUT/g.kml" --quiet :: ogr2ogr -f KML "$OUT/o.kml" "$SHP"
SHP_OUT=(-f "ESRI Shapefile" -lco ENCODING=UTF-8)
want m && run "m. GeoJSON (1 M points) → Shapefile" "$P1M" "$GEOCONV" "$P1M" "$OUT/g.shp" --quiet \
    :: ogr2ogr "${SHP_OUT[@]}" "$OUT/o.shp" "$P1M"
want n && run "n. GeoJSON (polygons) → Shapefile" "$PARCELS_JSON" "$GEOCONV" "$PARCELS_JSON" "$OUT/g.shp" --quiet \
    :: ogr2ogr "${SHP_OUT[@]}" "$OUT/o.shp" "$PARCELS_JSON" -nlt POLYGON
want o && run "o. CSV (1 M typed rows, 8 columns) → GeoJSON" "$TYPED" "$GEOCONV" "$TYPED" "$OUT/g.geojson" --quiet \
    :: ogr2ogr -f GeoJSON "$OUT/o.geojson" "$TYPED" -oo X_POSSIBLE_NAMES=lon -oo Y_POSSIBLE_NAMES=lat -oo AUTODETECT_TYPE=YES
true
