#!/usr/bin/env bash
# WGS84 geodesics: geoconv's Swift (Karney 2013) beside PROJ's C in one process, then pyproj.Geod and geographiclib, in
# the same run, on the ~5 M points of the shared polyline data set.
#   scripts/bench/geodesic.sh [DATA_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-bench-out/data}
VENV=${GEOCONV_BENCH_VENV:-bench-out/venv}
mkdir -p "$DATA"
[ -s "$DATA/polylines_5m_raw.jsonl" ] || python3 ../shared/bench/gen_data.py --out "$DATA" --only polyline
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -c 'import pyproj, geographiclib' 2>/dev/null || "$VENV/bin/pip" install -q pyproj geographiclib
swift build -c release --package-path Benchmarks >/dev/null
Benchmarks/.build/release/GeoConvBench geodesic "$DATA/polylines_5m_raw.jsonl" 5
"$VENV/bin/python" scripts/bench/geodesic_py.py "$DATA/polylines_5m_raw.jsonl"
