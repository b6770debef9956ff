#!/usr/bin/env bash
# WKT / WKB throughput: geoconv side by side with shapely 2.x (in-process, best of 3) and
# ogr2ogr reading the same geometries as a WKT CSV, in the same run, on the shared ~100 MB
# WKT file (one geometry per line).
#
#   scripts/bench/wkt.sh [DATA_DIR]      (default: bench-out/data)
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-bench-out/data}
VENV=${GEOCONV_BENCH_VENV:-bench-out/venv}
OUT=bench-out/wkt
mkdir -p "$DATA" "$OUT"
[ -s "$DATA/geometries_100mb.wkt" ] || python3 ../shared/bench/gen_data.py --out "$DATA" --only wkt
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -c 'import shapely' 2>/dev/null || "$VENV/bin/pip" install -q shapely numpy
swift build -c release --package-path Benchmarks >/dev/null
swift build -c release >/dev/null
IN="$DATA/geometries_100mb.wkt"

echo "== in-process (best of 3)"
/usr/bin/time -f '{"tool":"geoconv-bench process","peak_rss_kb":%M}' Benchmarks/.build/release/GeoConvBench wkt "$IN" 3
/usr/bin/time -f '{"tool":"shapely process","peak_rss_kb":%M}' "$VENV/bin/python" scripts/bench/wkt_py.py "$IN" 3

echo "== whole file"
# ogr2ogr reads WKT from a CSV column (GDAL needs at least two columns): id,"WKT".
{ echo "id,WKT"; awk '{ gsub(/"/, "\"\""); print NR ",\"" $0 "\"" }' "$IN"; } > "$OUT/geometries.csv"
/usr/bin/time -f '{"tool":"geoconv convert .wkt -> .geojsonl","peak_rss_kb":%M,"wall_s":%e}' \
    .build/release/geoconv "$IN" "$OUT/g.geojsonl" --quiet
/usr/bin/time -f '{"tool":"ogr2ogr CSV(WKT) -> GeoJSONSeq","peak_rss_kb":%M,"wall_s":%e}' \
    ogr2ogr -f GeoJSONSeq "$OUT/o.geojsonl" "$OUT/geometries.csv" -oo GEOM_POSSIBLE_NAMES=WKT -oo KEEP_GEOM_COLUMNS=NO
/usr/bin/time -f '{"tool":"geoconv convert .wkt -> .wkt","peak_rss_kb":%M,"wall_s":%e}' \
    .build/release/geoconv "$IN" "$OUT/g.wkt" --quiet
echo "input bytes: $(stat -c %s "$IN")"
