#!/usr/bin/env bash
# How well GeographicLib agrees with itself on S12 (the area between a geodesic and the
# equator) for nearly antipodal edges: PROJ's geod_geninverse (GeographicLib 2's series, the
# same as GeodSolve) against GeodSolve -E (GeographicLib's exact solution, elliptic integrals),
# 2,000 random pairs within 0.01° of antipodal. The figures are in docs/library.md.
#   scripts/bench/geodesic-antipodal-area.sh
set -euo pipefail
command -v GeodSolve >/dev/null || { apt-get update -q >/dev/null; apt-get install -y -q geographiclib-tools >/dev/null; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cat > "$work/s12.c" <<'C'
#include <geodesic.h>
#include <stdio.h>
int main(void) {
    struct geod_geodesic g;
    geod_init(&g, 6378137, 1 / 298.257223563);
    double lat1, lon1, lat2, lon2;
    while (scanf("%lf %lf %lf %lf", &lat1, &lon1, &lat2, &lon2) == 4) {
        double s12, azi1, azi2, S12;
        geod_geninverse(&g, lat1, lon1, lat2, lon2, &s12, &azi1, &azi2, 0, 0, 0, &S12);
        printf("%.6f\n", S12);
    }
    return 0;
}
C
cc -O2 "$work/s12.c" -o "$work/s12" $(pkg-config --cflags --libs proj) -lm
python3 - > "$work/pairs.txt" <<'PY'
import random
r = random.Random(5)
for i in range(2000):
    lat1, lon1 = r.uniform(-90, 90), r.uniform(-180, 180)
    lat2 = max(-90, min(90, -lat1 + r.uniform(-0.01, 0.01)))
    print("%.17g %.17g %.17g %.17g" % (lat1, lon1, lat2, lon1 + 180 + r.uniform(-0.01, 0.01)))
PY
"$work/s12" < "$work/pairs.txt" > "$work/proj.txt"
GeodSolve -E -i -f -p 12 < "$work/pairs.txt" | awk '{print $12}' > "$work/exact.txt"
echo "PROJ $(pkg-config --modversion proj) geod_geninverse vs $(GeodSolve --version 2>&1 | head -n 1) -E, S12 of 2,000 nearly antipodal edges:"
paste "$work/proj.txt" "$work/exact.txt" | awk '
    function abs(x) { return x < 0 ? -x : x }
    { d = abs($1 - $2); if (d > worst) worst = d; if (d > 0.1) over++; sum += d }
    END { printf "  largest difference %.2f m², mean %.3f m², %d of %d over 0.1 m²\n", worst, sum / NR, over, NR }'
