#!/usr/bin/env bash
# CI's Spark run: scripts/spark/convert.py on local[2] over a small sample built from
# testdata/ (line files sharded through RDD.pipe and checked byte for byte against one
# geoconv run; KML, KMZ, GPX, GeoJSON, CSV, Shapefile and GeoParquet files one task each)
# plus 20,000 generated GeoJSONSeq points. Two runs: to GeoJSONSeq, then to WKT with a bad
# line in a copy of the points and a truncated KML added, which must fail with geoconv's
# file:line:column while the rest converts. Timings: docs/scaling.md.
#
#   scripts/spark/sample.sh [GEOCONV]      (default $GEOCONV, else .build/debug/geoconv)
set -euo pipefail
cd "$(dirname "$0")/../.."
GEOCONV=$(realpath "${1:-${GEOCONV:-.build/debug/geoconv}}")
CONVERT=scripts/spark/convert.py
PARTITIONS=4
seconds() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
in=$work/in
mkdir -p "$in"

# Setup (the first run installs PySpark from PyPI, and Java if missing): timed apart.
start=$(date +%s%N)
python3 "$CONVERT" --setup-only
echo "== setup (PySpark, Java): $(seconds "$start") s"

# Line-delimited inputs: sharded through RDD.pipe.
cp testdata/polyline/sydney.polyline testdata/crs/web-mercator.wkt "$in"/
"$GEOCONV" testdata/geojson/markers.geojson "$in/markers-rs.geojsons" --quiet   # RFC 8142 RS records
"$GEOCONV" testdata/crs/web-mercator.wkt "$in/mercator.wkbhex" --quiet
python3 - "$in/generated-points.geojsonl" <<'EOF'
import json, random, sys
random.seed(42)
with open(sys.argv[1], "w") as out:
    for i in range(20000):
        point = [round(random.uniform(-180, 180), 6), round(random.uniform(-85, 85), 6)]
        feature = {"type": "Feature", "properties": {"id": i, "name": f"stop {i}"},
                   "geometry": {"type": "Point", "coordinates": point}}
        out.write(json.dumps(feature, separators=(",", ":")) + "\n")
EOF
# Whole files: one task each.
cp testdata/kml/trails.kml testdata/kml/icon.kmz testdata/gpx/hike.gpx testdata/geojson/markers.geojson \
   testdata/csv/points.csv testdata/shapefile/stops.* "$in"/
if "$GEOCONV" formats | grep '^geoparquet' >/dev/null; then   # (grep -q could cut the pipe)
    "$GEOCONV" testdata/selection/places.geojson "$in/places-table.parquet" --quiet
fi
inputs=$(find "$in" -type f ! -name '*.shx' ! -name '*.dbf' ! -name '*.prj' ! -name '*.cpg' | wc -l)
echo "== sample: $inputs inputs, $(du -sh "$in" | cut -f1); geoconv: $GEOCONV"

run() { # NAME EXPECTED_STATUS ARGS... : runs convert.py, times it, checks its exit status
    local name=$1 expected=$2 status; shift 2
    start=$(date +%s%N)
    set +e
    python3 "$CONVERT" "$in" "$work/$name" --geoconv "$GEOCONV" --master 'local[2]' \
        --partitions "$PARTITIONS" --check "$@" 2>&1 | tee "$work/$name.log"
    status=${PIPESTATUS[0]}
    set -e
    echo "== $name: exit $status (expected $expected), $(seconds "$start") s"
    [ "$status" -eq "$expected" ] || { echo "error: $name: convert.py exited $status" >&2; exit 1; }
}

run geojsonseq 0 --to geojsonseq
[ "$(ls "$work/geojsonseq" | wc -l)" -eq "$inputs" ] || { echo "error: not every input converted" >&2; exit 1; }

# To WKT, with a bad line 20,001 in a copy of the points (in the last partition: its
# location must be the whole file's) and a KML cut short: both must fail with geoconv's
# located message, and the others convert (--keep-going).
cp "$in/generated-points.geojsonl" "$in/generated-bad.geojsonl"
echo '{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,"x"]}}' >> "$in/generated-bad.geojsonl"
head -c 700 testdata/kml/trails.kml > "$in/trails-cut.kml"
run wkt 1 --to wkt --keep-going
for where in "generated-bad.geojsonl:20001:79 " "trails-cut.kml:9:40: error"; do
    grep -q "$where" "$work/wkt.log" || { echo "error: no message at $where" >&2; exit 1; }
done
[ "$(ls "$work/wkt" | wc -l)" -eq "$inputs" ] || { echo "error: not every good input converted" >&2; exit 1; }
echo "== Spark sample: both runs as expected"
