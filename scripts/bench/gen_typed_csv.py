#!/usr/bin/env python3
"""Deterministic CSV of typed rows, the shape of a city or POI table:
id, name, lat, lon, pop, score, kind, open (integer, text, real, real, integer, real, text,
boolean). Standard library only.

    gen_typed_csv.py COUNT > typed.csv
"""
import random
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
rng = random.Random(20261129)
kinds = ["city", "town", "village", "hamlet", "suburb"]
syllables = ["ka", "lo", "mi", "ne", "ra", "to", "vu", "san", "ber", "gor", "del", "fi"]
out = sys.stdout
out.write("id,name,lat,lon,pop,score,kind,open\n")
for i in range(count):
    name = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))).capitalize()
    if rng.random() < 0.05:
        name = '"' + name + ', ' + rng.choice(syllables).capitalize() + '"'
    lat = rng.uniform(-60, 70)
    lon = rng.uniform(-180, 180)
    out.write(f"{i},{name},{lat:.6f},{lon:.6f},{rng.randint(0, 5_000_000)},{rng.uniform(0, 100):.2f},"
              f"{rng.choice(kinds)},{'true' if rng.random() < 0.5 else 'false'}\n")
