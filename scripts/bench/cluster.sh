#!/usr/bin/env bash
# Marker clustering: geoconv's MarkerClusterer beside pysupercluster, same run, on the
# shared generator's 1 M clustered points. Installs pysupercluster with the build fix the
# shared setup script applies.
#   scripts/bench/cluster.sh [DATA_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-bench-out/data}
VENV=${GEOCONV_BENCH_VENV:-bench-out/venv}
mkdir -p "$DATA"
[ -s "$DATA/points_1m.geojson" ] || python3 ../shared/bench/gen_data.py --out "$DATA" --only points
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
if ! "$VENV/bin/python" -c 'import pysupercluster' 2>/dev/null; then
    bash ../shared/bench/setup_anchors.sh "$VENV" >/dev/null 2>&1 || true
fi
swift build -c release --package-path Benchmarks >/dev/null
/usr/bin/time -f '{"tool":"geoconv process","peak_rss_kb":%M}' Benchmarks/.build/release/GeoConvBench cluster "$DATA/points_1m.geojson"
/usr/bin/time -f '{"tool":"pysupercluster process","peak_rss_kb":%M}' "$VENV/bin/python" scripts/bench/cluster_py.py "$DATA/points_1m.geojson"
