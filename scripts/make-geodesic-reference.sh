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

# The inverse problem in full, and the direct problem, for Karney's algorithms written in
# Swift (GeoConvGeometry): azimuths and S12 (the area between the geodesic and the equator)
# besides the distance, on the same pairs plus short, meridional, equatorial and exactly
# antipodal ones; the direct problem from each pair's first point and azimuth.
python3 - > /tmp/geoconv-more-pairs.txt <<'PY'
import random
r = random.Random(20261127)
for i in range(1000):
    kind = i % 4
    lat1, lon1 = r.uniform(-90, 90), r.uniform(-180, 180)
    if kind == 0:  # short: up to about a kilometre
        lat2, lon2 = lat1 + r.uniform(-0.01, 0.01), lon1 + r.uniform(-0.01, 0.01)
        lat2 = max(-90, min(90, lat2))
    elif kind == 1:  # along a meridian
        lat2, lon2 = r.uniform(-90, 90), r.choice([lon1, lon1 + 180 if lon1 < 0 else lon1 - 180])
    elif kind == 2:  # along the equator
        lat1, lat2, lon2 = 0.0, 0.0, r.uniform(-180, 180)
    else:  # exactly antipodal, or nearly on the equator
        lat2, lon2 = -lat1, lon1 + 180 if lon1 < 0 else lon1 - 180
        if i % 8 == 7:
            lat1, lat2 = r.uniform(-0.001, 0.001), r.uniform(-0.001, 0.001)
    print("%.12f %.12f %.12f %.12f" % (lat1, lon1, lat2, lon2))
PY
cat /tmp/geoconv-pairs.txt /tmp/geoconv-more-pairs.txt > /tmp/geoconv-all-pairs.txt
{
  echo "# lat1 lon1 lat2 lon2 azi1 azi2 s12_m S12_m2 — from GeodSolve -i -f -p 9 ($(GeodSolve --version 2>&1 | head -n 1)); scripts/make-geodesic-reference.sh"
  GeodSolve -i -f -p 9 < /tmp/geoconv-all-pairs.txt | awk '{print $1, $2, $4, $5, $3, $6, $7, $12}'
} > testdata/geodesic/inverse.tsv
{
  echo "# lat1 lon1 azi1 s12_m lat2 lon2 azi2 — from GeodSolve -f -p 9 ($(GeodSolve --version 2>&1 | head -n 1)); scripts/make-geodesic-reference.sh"
  awk 'NR > 1 {print $1, $2, $5, $7}' testdata/geodesic/inverse.tsv | GeodSolve -f -p 9 | awk '{print $1, $2, $3, $7, $4, $5, $6}'
} > testdata/geodesic/direct.tsv

# Polygon areas (Planimeter): random triangles and quadrilaterals of every size, rings
# around a pole, and rings crossing the antimeridian; one polygon per line, "lat lon" pairs
# then the area in m² (counter-clockwise positive).
python3 - > /tmp/geoconv-polygons.txt <<'PY'
import random
r = random.Random(202611271)
for i in range(300):
    kind = i % 3
    n = r.choice([3, 4, 5])
    if kind == 0:  # anywhere, any size
        size = r.choice([0.001, 0.1, 5, 40])
        lat, lon = r.uniform(-80, 80), r.uniform(-180, 180)
        pts = [(max(-90, min(90, lat + r.uniform(-size, size))), lon + r.uniform(-size, size)) for _ in range(n)]
    elif kind == 1:  # around a pole
        lat = r.choice([-1, 1]) * r.uniform(60, 89)
        pts = [(lat + r.uniform(-0.5, 0.5), -180 + 360 * k / n + r.uniform(0, 10)) for k in range(n)]
    else:  # across the antimeridian
        lat = r.uniform(-60, 60)
        pts = [(lat + r.uniform(-2, 2), 180 + r.uniform(-2, 2)) for _ in range(n)]
    print(";".join("%.9f %.9f" % (a, ((b + 180) % 360) - 180) for a, b in pts))
PY
{
  echo "# polygon vertices \"lat lon;lat lon;…\" then the area in m² — from Planimeter -p 9 ($(Planimeter --version 2>&1 | head -n 1)); scripts/make-geodesic-reference.sh"
  while IFS= read -r polygon; do
    area=$(echo "$polygon" | tr ';' '\n' | Planimeter -p 9 | awk '{print $3}')
    echo "$polygon $area"
  done < /tmp/geoconv-polygons.txt
} > testdata/geodesic/polygons.tsv
wc -l testdata/geodesic/inverse.tsv testdata/geodesic/direct.tsv testdata/geodesic/polygons.tsv
