#!/usr/bin/env bash
# GeoJSON and KML conversions: geoconv side by side with ogr2ogr (GDAL) in the same run,
# on the shared generator's FeatureCollections and styled KML (~10 MB and ~200 MB).
#
#   scripts/bench/geojson.sh [DATA_DIR] [geojson|kml|all]   (defaults: bench-out/data, all)
#
# Prints one line per run: tool, task, input size, wall seconds, MB/s, peak RSS; and the
# ratio. Needs gdal-bin (installed through apt when missing and running as root).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-bench-out/data}
WHAT=${2:-all}
OUT=bench-out/geojson
mkdir -p "$DATA" "$OUT"
if [ ! -s "$DATA/features_200mb.geojson" ]; then
    python3 ../shared/bench/gen_data.py --out "$DATA" --only features
fi
if ! command -v ogr2ogr >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gdal-bin >/dev/null
fi
swift build -c release >/dev/null
GEOCONV=.build/release/geoconv
echo "# $(date -u +%F) $(nproc) cores; $("$GEOCONV" --version); $(ogr2ogr --version)"

run() { # TOOL TASK INPUT OUTPUT COMMAND...
    local tool=$1 task=$2 input=$3 output=$4; shift 4
    rm -f "$output"
    local stats
    /usr/bin/time -o "$OUT/time.txt" -f "%e %M" "$@" >/dev/null 2>"$OUT/stderr.txt"
    stats=$(tail -n 1 "$OUT/time.txt")
    local wall=${stats% *} rss=${stats#* }
    local bytes
    bytes=$(stat -c %s "$input")
    awk -v t="$tool" -v k="$task" -v b="$bytes" -v w="$wall" -v r="$rss" -v o="$output" 'BEGIN {
        printf "%-8s %-28s %7.1f MB  %7.2f s  %7.1f MB/s  peak %6.1f MB  -> %s\n", t, k, b/1e6, w, (w > 0 ? b/1e6/w : 0), r/1024, o }'
}

for size in 10mb 200mb; do
    in="$DATA/features_$size.geojson"
    kml="$DATA/features_$size.kml"
    if [ "$WHAT" != kml ]; then
        run cat     "read once ($size)"            "$in" /dev/null sh -c "cat '$in' > /dev/null"
        run geoconv "GeoJSON -> GeoJSONSeq ($size)" "$in" "$OUT/g_$size.geojsonl" "$GEOCONV" "$in" "$OUT/g_$size.geojsonl" --quiet
        run ogr2ogr "GeoJSON -> GeoJSONSeq ($size)" "$in" "$OUT/o_$size.geojsonl" ogr2ogr -f GeoJSONSeq "$OUT/o_$size.geojsonl" "$in"
        run geoconv "GeoJSON -> GeoJSON ($size)"    "$in" "$OUT/g_$size.geojson" "$GEOCONV" "$in" "$OUT/g_$size.geojson" --quiet
        run ogr2ogr "GeoJSON -> GeoJSON ($size)"    "$in" "$OUT/o_$size.geojson" ogr2ogr -f GeoJSON -lco RFC7946=YES "$OUT/o_$size.geojson" "$in"
    fi
    if [ "$WHAT" != geojson ]; then
        run geoconv "KML -> GeoJSON ($size)"        "$kml" "$OUT/gk_$size.geojson" "$GEOCONV" "$kml" "$OUT/gk_$size.geojson" --quiet
        run ogr2ogr "KML -> GeoJSON ($size)"        "$kml" "$OUT/ok_$size.geojson" ogr2ogr -f GeoJSON "$OUT/ok_$size.geojson" "$kml"
        run geoconv "GeoJSON -> KML ($size)"        "$in" "$OUT/gk_$size.kml" "$GEOCONV" "$in" "$OUT/gk_$size.kml" --quiet
        run ogr2ogr "GeoJSON -> KML ($size)"        "$in" "$OUT/ok_$size.kml" ogr2ogr -f KML "$OUT/ok_$size.kml" "$in"
    fi
done
