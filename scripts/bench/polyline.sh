#!/usr/bin/env bash
# Encoded-polyline throughput: geoconv side by side with the Python `polyline` package, in
# the same run, on the shared generator's ~5 M-point data set.
#
#   scripts/bench/polyline.sh [DATA_DIR]      (default: bench-out/data)
#
# Needs python3 and the Swift toolchain; creates bench-out/venv with `polyline` from PyPI,
# generates the data with ../shared/bench/gen_data.py when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-bench-out/data}
VENV=${GEOCONV_BENCH_VENV:-bench-out/venv}
REPEATS=${REPEATS:-5}
mkdir -p "$DATA" bench-out

if [ ! -s "$DATA/polylines_5m.txt" ]; then
    python3 ../shared/bench/gen_data.py --out "$DATA" --only polyline
fi
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c 'import polyline' 2>/dev/null || "$VENV/bin/pip" install -q polyline

swift build -c release --package-path Benchmarks >/dev/null
swift build -c release >/dev/null
BENCH=Benchmarks/.build/release/GeoConvBench
GEOCONV=.build/release/geoconv


echo "== in-process codec throughput (best of $REPEATS; Python best of 3)"
/usr/bin/time -f '{"tool":"geoconv-bench process","peak_rss_kb":%M}' \
    "$BENCH" polyline "$DATA/polylines_5m.txt" "$DATA/polylines_5m_raw.jsonl" "$REPEATS"
/usr/bin/time -f '{"tool":"python process","peak_rss_kb":%M}' \
    "$VENV/bin/python" scripts/bench/polyline_py.py "$DATA/polylines_5m.txt" "$DATA/polylines_5m_raw.jsonl" 3

echo "== whole-file conversion, streaming (re-encode precision 5 -> 6)"
cp "$DATA/polylines_5m.txt" bench-out/polylines_5m.polyline
/usr/bin/time -f '{"tool":"geoconv convert .polyline -> .polyline6","peak_rss_kb":%M,"wall_s":%e}' \
    "$GEOCONV" bench-out/polylines_5m.polyline bench-out/polylines_5m.polyline6
/usr/bin/time -f '{"tool":"geoconv polyline decode > /dev/null (csv text out)","peak_rss_kb":%M,"wall_s":%e}' \
    sh -c "$GEOCONV polyline decode < '$DATA/polylines_5m.txt' > /dev/null"
/usr/bin/time -f '{"tool":"cat (reading the input once)","peak_rss_kb":%M,"wall_s":%e}' \
    sh -c "cat '$DATA/polylines_5m.txt' > /dev/null"
