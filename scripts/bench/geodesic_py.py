"""WGS84 line lengths with pyproj.Geod.line_length and geographiclib's Geodesic.Inverse, on
the same paths geoconv-bench measures (polylines_5m_raw.jsonl)."""
import json, sys, time, importlib.metadata
from pyproj import Geod
from geographiclib.geodesic import Geodesic

paths = [json.loads(l) for l in open(sys.argv[1])]
segments = sum(len(p) - 1 for p in paths)
geod = Geod(ellps="WGS84")

t = time.perf_counter(); total = 0.0
for p in paths:
    total += geod.line_length([c[1] for c in p], [c[0] for c in p])
dt = time.perf_counter() - t
print(json.dumps({"tool": "pyproj.Geod " + importlib.metadata.version("pyproj"), "task": "wgs84-line-length", "segments": segments,
                  "best_s": dt, "segments_per_s": segments / dt, "total_m": total}))

# geographiclib is pure Python: measure a tenth of the paths and report the rate.
subset = paths[: max(1, len(paths) // 10)]
n = sum(len(p) - 1 for p in subset)
g = Geodesic.WGS84
t = time.perf_counter(); total = 0.0
for p in subset:
    for a, b in zip(p, p[1:]):
        total += g.Inverse(a[0], a[1], b[0], b[1], Geodesic.DISTANCE)["s12"]
dt = time.perf_counter() - t
print(json.dumps({"tool": "geographiclib " + importlib.metadata.version("geographiclib"), "task": "wgs84-line-length (1/10 of the paths)",
                  "segments": n, "best_s": dt, "segments_per_s": n / dt, "total_m": total}))
