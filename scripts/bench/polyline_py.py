"""The Python `polyline` package on the same data geoconv-bench uses, same JSON lines."""
import json, sys, time
import importlib.metadata
import polyline

TOOL = "python-polyline " + importlib.metadata.version("polyline")

encoded_path, raw_path = sys.argv[1], sys.argv[2]
repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
lines = open(encoded_path, encoding="ascii").read().split("\n")
lines = [l for l in lines if l]
nbytes = sum(len(l) for l in lines)
paths = [json.loads(l) for l in open(raw_path, encoding="ascii")]
points = sum(len(p) for p in paths)

def best(fn):
    times = []
    for _ in range(repeats):
        t = time.perf_counter(); fn(); times.append(time.perf_counter() - t)
    return min(times)

def decode_all():
    n = 0
    for l in lines:
        n += len(polyline.decode(l))
    assert n == points, (n, points)

def encode_all():
    n = 0
    for p in paths:
        n += len(polyline.encode(p))
    assert n == nbytes, (n, nbytes)

for task, fn in (("polyline-decode", decode_all), ("polyline-encode", encode_all)):
    t = best(fn)
    print(json.dumps({"tool": TOOL,
                      "task": task, "points": points, "bytes": nbytes, "best_s": t,
                      "points_per_s": points / t, "mb_per_s": nbytes / t / 1e6}))
