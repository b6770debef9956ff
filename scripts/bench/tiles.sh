#!/usr/bin/env bash
# Tile rendering beside Mapnik (Debian's python3-mapnik, the renderer behind OpenStreetMap's
# tiles), in the same run, whole process (wall seconds and peak RSS from /usr/bin/time):
# the shared generator's features_10mb.geojson (702 points, 276 lines, 223 polygons) drawn
# into 256-pixel PNG tiles for zooms 0-12. Both draw the same style — lines 2 px #ff0000,
# polygons #00ff00 at 50 % with the line as outline (a styled copy of the file), points as
# each renderer's marker (geoconv: the SDK's 27 x 43 pin; Mapnik: a 10 px dot) — and the same
# tiles: geoconv draws only tiles where something is drawn, and Mapnik is given that list.
#
#   scripts/bench/tiles.sh [DATA_DIR]          (default bench-out/data)
#   NO_BUILD=1 scripts/bench/tiles.sh          use the existing .build/release/geoconv
#
# Prints tiles, seconds, tiles per second and peak MB for geoconv (default --jobs, and
# --jobs 1) and Mapnik (one thread, as its script runs).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-bench-out/data}
OUT=${GEOCONV_BENCH_OUT:-bench-out/tiles}
mkdir -p "$DATA" "$OUT"
if ! /usr/bin/python3 -c "import mapnik" 2>/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-mapnik >/dev/null
fi
F10=$DATA/features_10mb.geojson
[ -s "$F10" ] || python3 ../shared/bench/gen_data.py --out "$DATA" --only features
[ -n "${NO_BUILD:-}" ] || swift build -c release 2>&1 | grep -E "error|Compiling|Build complete" | tail -1
STYLED=$OUT/features_10mb_styled.geojson
python3 - "$F10" "$STYLED" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["features"]:
    if f["geometry"] and f["geometry"]["type"] != "Point":
        f["properties"].update({"stroke": "#ff0000", "stroke-width": 2, "fill": "#00ff00", "fill-opacity": 0.5})
json.dump(d, open(sys.argv[2], "w"))
PY
timed() { # LABEL COMMAND…: "LABEL seconds peakKB"
    local label=$1; shift
    local t
    t=$( { /usr/bin/time -f '%e %M' "$@" >/dev/null 2>"$OUT/last.err"; } 2>&1 | tail -1 )
    tail -1 "$OUT/last.err" | grep -E '^[0-9.]+ [0-9]+$' >/dev/null && t=$(tail -1 "$OUT/last.err")
    echo "$label $t"
}
rm -rf "$OUT/geoconv" "$OUT/geoconv-1" "$OUT/mapnik"
g=$(timed geoconv .build/release/geoconv tiles render "$STYLED" "$OUT/geoconv" --zoom 0-12)
g1=$(timed geoconv-1 .build/release/geoconv tiles render "$STYLED" "$OUT/geoconv-1" --zoom 0-12 --jobs 1)
(cd "$OUT/geoconv" && find . -name '*.png' | sed 's|^\./||; s|\.png$||' | sort) > "$OUT/tiles.txt"
n=$(wc -l < "$OUT/tiles.txt")
m=$(timed mapnik /usr/bin/python3 ../shared/bench/mapnik_tiles.py "$STYLED" "$OUT/tiles.txt" "$OUT/mapnik")
echo "| renderer | tiles | s | tiles/s | peak MB | Mapnik s / this s |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
ms=$(echo "$m" | awk '{print $2}')
for row in "$g" "$g1" "$m"; do
    echo "$row" | awk -v n="$n" -v ms="$ms" '{ printf "| %s | %d | %.2f | %.0f | %.1f | %.2f |\n", $1, n, $2, n / $2, $3 / 1024, ms / $2 }'
done
