#!/usr/bin/env bash
# Regenerates testdata/geodesic/reference.tsv: 3,000 point pairs (random, near-antipodal and
# polar) with the WGS84 geodesic distance from GeographicLib's GeodSolve and the rhumb
# distance from RhumbSolve (Debian's geographiclib-tools), 9 decimals.
#   scripts/make-geodesic-reference.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v GeodSolve >/dev/null || { apt-get update -q >/dev/null; apt-get install -y -q geographiclib-tools >/dev/null; }
python3 - > /tmp/geoconv-pairs.txt <<'PY'
import random
r = random.Random(20261122)
for i in range(3000):
    kind = i % 3
    lat1, lon1 = r.uniform(-90, 90), r.uniform(-180, 180)
    if kind == 0:
        lat2, lon2 = r.uniform(-90, 90), r.uniform(-180, 180)
    elif kind == 1:  # near-antipodal
        lat2 = -lat1 + r.uniform(-0.5, 0.5)
        lon2 = lon1 + 180 + r.uniform(-0.5, 0.5)
        lon2 = (lon2 + 180) % 360 - 180
        lat2 = max(-90, min(90, lat2))
    else:  # polar
        lat1 = r.choice([-1, 1]) * r.uniform(85, 90)
        lat2 = r.choice([-1, 1]) * r.uniform(80, 90)
        lon2 = r.uniform(-180, 180)
    print("%.12f %.12f %.12f %.12f" % (lat1, lon1, lat2, lon2))
PY
GeodSolve -i -p 9 < /tmp/geoconv-pairs.txt | awk '{print $3}' > /tmp/geoconv-geod.txt
RhumbSolve -i -p 9 < /tmp/geoconv-pairs.txt | awk '{print $2}' > /tmp/geoconv-rhumb.txt
{
  echo "# lat1 lon1 lat2 lon2 geodesic_m rhumb_m — from GeodSolve -i -p 9 and RhumbSolve -i -p 9 ($(GeodSolve --version 2>&1 | head -n 1)); scripts/make-geodesic-reference.sh"
  paste -d ' ' /tmp/geoconv-pairs.txt /tmp/geoconv-geod.txt /tmp/geoconv-rhumb.txt
} > testdata/geodesic/reference.tsv
wc -l testdata/geodesic/reference.tsv
