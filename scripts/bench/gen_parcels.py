#!/usr/bin/env python3
"""Polygons for the shapefile benchmark: PARCELS parcels (irregular rings of 30-50 vertices,
one in ten with a hole) with five properties, as GeoJSON text sequence on standard output,
deterministic. ogr2ogr makes the shapefile from it (scripts/bench/tabular.sh)."""
import json, math, random, sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 180_000
r = random.Random(32)
kinds = ["residential", "commercial", "park", "industrial", "farmland", "école", "Straße"]
for i in range(count):
    cx, cy = r.uniform(-170, 170), r.uniform(-60, 70)
    size = r.uniform(0.001, 0.02)
    n = r.randint(30, 50)
    ring = []
    for k in range(n):
        a = 2 * math.pi * k / n
        d = size * r.uniform(0.7, 1.0)
        ring.append([round(cx + d * math.cos(a), 7), round(cy + d * math.sin(a), 7)])
    ring.append(ring[0])
    rings = [ring]
    if i % 10 == 0:
        h = [[round(cx + size * 0.3 * math.cos(-2 * math.pi * k / 8), 7), round(cy + size * 0.3 * math.sin(-2 * math.pi * k / 8), 7)] for k in range(8)]
        rings.append(h + [h[0]])
    props = {"parcel_id": i, "kind": kinds[i % len(kinds)], "area_m2": round(r.uniform(50, 50000), 2),
             "owner": "owner %d" % r.randint(1, 99999), "assessed": r.randint(1000, 9000000)}
    sys.stdout.write(json.dumps({"type": "Feature", "properties": props,
                                 "geometry": {"type": "Polygon", "coordinates": rings}}, ensure_ascii=False) + "\n")
