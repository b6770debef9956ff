#!/usr/bin/env bash
# Scale: ~1 GB inputs in GeoJSON, GeoJSONSeq, KML and WKT, converted with peak memory
# recorded (the aim: under 64 MB whatever the size), and --jobs 1 against --jobs 2 on the
# line-delimited ones.
#
#   scripts/bench/scale.sh [DATA_DIR]      (default bench-out/scale; ~6 GB of disk)
#
# The data is the shared generator's at --scale 5 (features ~1 GB as GeoJSON and KML,
# WKT doubled to ~1 GB); the GeoJSONSeq input is made from the GeoJSON by geoconv itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-bench-out/scale}
OUT=bench-out/scale-results
mkdir -p "$DATA" "$OUT"
if [ ! -s "$DATA/features_200mb.geojson" ] || [ ! -s "$DATA/geometries_100mb.wkt" ]; then
    python3 ../shared/bench/gen_data.py --out "$DATA" --only features,wkt --scale 5
fi
swift build -c release >/dev/null
GEOCONV=.build/release/geoconv
[ -s "$DATA/features_1gb.geojsonl" ] || "$GEOCONV" "$DATA/features_200mb.geojson" "$DATA/features_1gb.geojsonl" --quiet
[ -s "$DATA/geometries_1gb.wkt" ] || cat "$DATA/geometries_100mb.wkt" "$DATA/geometries_100mb.wkt" > "$DATA/geometries_1gb.wkt"
echo "# $(date -u +%F) $(nproc) cores; $("$GEOCONV" --version)"

run() { # TASK INPUT OUTPUT ARGS...
    local task=$1 input=$2 output=$3; shift 3
    rm -f "$output"
    /usr/bin/time -o "$OUT/time.txt" -f "%e %M" "$GEOCONV" "$input" "$output" --quiet "$@" >/dev/null 2>"$OUT/stderr.txt" \
        || { echo "FAILED: $task"; cat "$OUT/stderr.txt"; exit 1; }
    local stats wall rss bytes
    stats=$(tail -n 1 "$OUT/time.txt"); wall=${stats% *}; rss=${stats#* }
    bytes=$(stat -c %s "$input")
    awk -v k="$task" -v b="$bytes" -v w="$wall" -v r="$rss" 'BEGIN {
        printf "| %-40s | %7.0f MB | %7.2f s | %6.1f MB/s | %6.1f MB |\n", k, b/1e6, w, (w > 0 ? b/1e6/w : 0), r/1024 }'
    rm -f "$output"
}

echo "| conversion | input | wall | throughput | peak RSS |"
echo "| --- | --- | --- | --- | --- |"
run "GeoJSON → KML"                      "$DATA/features_200mb.geojson" "$OUT/out.kml"
run "KML → GeoJSON"                      "$DATA/features_200mb.kml"     "$OUT/out.geojson"
run "GeoJSON → GeoJSONSeq"               "$DATA/features_200mb.geojson" "$OUT/out.geojsonl"
for jobs in 1 2; do
    run "GeoJSONSeq → GeoJSONSeq --jobs $jobs" "$DATA/features_1gb.geojsonl" "$OUT/out.geojsonl" --jobs "$jobs"
    run "GeoJSONSeq → WKT --jobs $jobs"        "$DATA/features_1gb.geojsonl" "$OUT/out.wkt" --jobs "$jobs"
    run "WKT → GeoJSONSeq --jobs $jobs"        "$DATA/geometries_1gb.wkt"    "$OUT/out.geojsonl" --jobs "$jobs"
done
