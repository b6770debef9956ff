"""shapely 2.x on the same WKT lines geoconv-bench uses: from_wkt, to_wkt, to_wkb, from_wkb."""
import json, sys, time, importlib.metadata
import numpy as np
import shapely

path = sys.argv[1]
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
lines = [l for l in open(path, encoding="utf-8").read().split("\n") if l]
arr = np.array(lines, dtype=object)
nbytes = sum(len(l) for l in lines)
tool = "shapely " + importlib.metadata.version("shapely")

def best(fn):
    times = []
    out = None
    for _ in range(repeats):
        t = time.perf_counter(); out = fn(); times.append(time.perf_counter() - t)
    return min(times), out

def report(task, t, size):
    print(json.dumps({"tool": tool, "task": task, "geometries": len(lines), "bytes": size, "best_s": t,
                      "geometries_per_s": len(lines) / t, "mb_per_s": size / t / 1e6}))

t, geoms = best(lambda: shapely.from_wkt(arr))
report("wkt-parse", t, nbytes)
t, texts = best(lambda: shapely.to_wkt(geoms, rounding_precision=-1))
report("wkt-write", t, sum(len(x) for x in texts))
t, wkbs = best(lambda: shapely.to_wkb(geoms))
report("wkb-write", t, sum(len(x) for x in wkbs))
t, _ = best(lambda: shapely.from_wkb(wkbs))
report("wkb-parse", t, sum(len(x) for x in wkbs))
