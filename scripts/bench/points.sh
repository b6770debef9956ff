#!/usr/bin/env bash
# Points and POIs: geoconv beside its anchors in the same run, whole process (wall seconds and
# peak RSS from /usr/bin/time): ogr2ogr (GDAL) for conversions, pysupercluster for clustering,
# on the shared generator's 1 M small Points, on property-heavy Points (gen_props.py, ~100
# properties each) and, so that nothing regresses, on the 200 MB features.
#
#   scripts/bench/points.sh [DATA_DIR]          (default bench-out/data)
#   ONLY=a,d scripts/bench/points.sh            only those rows (default: a,b,c,d,e,f,g,h)
#   NO_BUILD=1 scripts/bench/points.sh          use the existing .build/release/geoconv
#   REPEAT=1 scripts/bench/points.sh            one measurement per command (default 3: each
#                                               row runs geoconv and its anchor alternately
#                                               REPEAT times and reports the median wall time
#                                               of each and the largest peak RSS)
#
# Rows: a-c points_1m GeoJSON -> GeoJSONSeq, GeoJSON -> KML, KML (ogr2ogr's) -> GeoJSON;
# d `geoconv info` (no anchor; ratio = info / row a's convert); e cluster at zoom 10 against
# pysupercluster indexed to zoom 10; f --all-zooms 0-16 against pysupercluster's clusters at
# every zoom 0-16 (both: JSON load + index + clusters); g the property-heavy points' three
# conversions; h features_200mb's. ratio = anchor s / geoconv s (> 1: geoconv is faster).
# Missing inputs are generated (only those the chosen rows need). Needs gdal-bin (installed
# through apt when missing and running as root) and pysupercluster in
# ${GEOCONV_BENCH_VENV:-bench-out/venv} (installed with ../shared/bench/setup_anchors.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-bench-out/data}
VENV=${GEOCONV_BENCH_VENV:-bench-out/venv}
ONLY=${ONLY:-a,b,c,d,e,f,g,h}
REPEAT=${REPEAT:-3}
OUT=${GEOCONV_BENCH_OUT:-bench-out/points}
mkdir -p "$DATA" "$OUT"
want() { [[ ",$ONLY," == *",$1,"* ]]; }

if ! command -v ogr2ogr >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gdal-bin >/dev/null
fi
to_kml() { # GEOJSON KML: ogr2ogr's KML of a GeoJSON, made once
    [ -s "$2" ] && return
    rm -f "$2.tmp.kml"
    ogr2ogr -f KML "$2.tmp.kml" "$1" && mv "$2.tmp.kml" "$2"
}
P1M=$DATA/points_1m.geojson
PROPS=$DATA/points_props.geojson
F200=$DATA/features_200mb.geojson
if want a || want b || want c || want d || want e || want f; then
    [ -s "$P1M" ] || python3 ../shared/bench/gen_data.py --out "$DATA" --only points
fi
if want c; then to_kml "$P1M" "$DATA/points_1m.kml"; fi
if want g; then
    if [ ! -s "$PROPS" ]; then
        python3 scripts/bench/gen_props.py --count "${PROPS_COUNT:-50000}" --out "$PROPS.tmp" && mv "$PROPS.tmp" "$PROPS"
    fi
    to_kml "$PROPS" "$DATA/points_props.kml"
fi
if want h && { [ ! -s "$F200" ] || [ ! -s "$DATA/features_200mb.kml" ]; }; then
    python3 ../shared/bench/gen_data.py --out "$DATA" --only features
fi
if want e || want f; then
    [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
    if ! "$VENV/bin/python" -c 'import pysupercluster' 2>/dev/null; then
        bash ../shared/bench/setup_anchors.sh "$VENV" >/dev/null 2>&1 || true
    fi
    "$VENV/bin/python" -c 'import pysupercluster, numpy' || { echo "no pysupercluster in $VENV"; exit 1; }
fi
[ -n "${NO_BUILD:-}" ] || swift build -c release >/dev/null
GEOCONV=.build/release/geoconv
echo "# $(date -u '+%F %T UTC'); $(nproc) cores; $("$GEOCONV" --version); $(ogr2ogr --version); median of $REPEAT alternated runs"

source scripts/bench/measure.sh
repeated() { # COMMAND...: measure REPEAT times; WALL = median, RSS = largest
    local walls=() rsss=() k
    for ((k = 0; k < REPEAT; k++)); do measure "$@"; walls+=("$WALL"); rsss+=("$RSS"); done
    WALL=$(median "${walls[@]}"); RSS=$(largest "${rsss[@]}")
}
convert() { # TASK INPUT EXT OGR_DRIVER: geoconv IN $OUT/g.EXT against ogr2ogr -f DRIVER $OUT/o.EXT IN
    run "$1" "$2" "$GEOCONV" "$2" "$OUT/g.$3" --quiet :: ogr2ogr -f "$4" "$OUT/o.$3" "$2"
}

echo
echo "| task | input | geoconv s | geoconv MB | anchor s | anchor MB | ratio |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
A_WALL=
if want a; then
    convert "a. GeoJSON → GeoJSONSeq (ogr2ogr)" "$P1M" geojsonl GeoJSONSeq
    A_WALL=$GEOCONV_WALL
fi
want b && convert "b. GeoJSON → KML (ogr2ogr)" "$P1M" kml KML
want c && convert "c. KML (ogr2ogr's) → GeoJSON (ogr2ogr)" "$DATA/points_1m.kml" geojson GeoJSON
if want d; then
    if [ -z "$A_WALL" ]; then   # row a not run: time its geoconv convert now, same run
        repeated "$GEOCONV" "$P1M" "$OUT/g.geojsonl" --quiet; A_WALL=$WALL
    fi
    repeated "$GEOCONV" info "$P1M"
    awk -v i="$(label "$P1M")" -v w="$WALL" -v r="$RSS" -v c="$A_WALL" 'BEGIN {
        printf "| d. geoconv info | %s | %.2f | %.1f | — | — | %.2f info / convert (%.2f s) |\n", i, w, r, (c > 0 ? w / c : 0), c }'
fi
CPY=scripts/bench/cluster_points_py.py
want e && run "e. cluster --zoom 10 (pysupercluster index 0-10 + zoom 10)" "$P1M" \
    "$GEOCONV" cluster "$P1M" "$OUT/g.geojson" --zoom 10 :: "$VENV/bin/python" "$CPY" "$P1M" 10 10
want f && run "f. cluster --all-zooms 0-16 (pysupercluster index + zooms 0-16)" "$P1M" \
    "$GEOCONV" cluster "$P1M" "$OUT/g.geojson" --all-zooms --zoom 16 :: "$VENV/bin/python" "$CPY" "$P1M" all 16
if want g; then
    convert "g. props GeoJSON → GeoJSONSeq (ogr2ogr)" "$PROPS" geojsonl GeoJSONSeq
    convert "g. props GeoJSON → KML (ogr2ogr)" "$PROPS" kml KML
    convert "g. props KML (ogr2ogr's) → GeoJSON (ogr2ogr)" "$DATA/points_props.kml" geojson GeoJSON
fi
if want h; then
    convert "h. GeoJSON → GeoJSONSeq (ogr2ogr)" "$F200" geojsonl GeoJSONSeq
    convert "h. KML → GeoJSON (ogr2ogr)" "$DATA/features_200mb.kml" geojson GeoJSON
    convert "h. GeoJSON → KML (ogr2ogr)" "$F200" kml KML
fi
