"""pysupercluster on the same 1 M markers: index, then clusters at zoom 10 and at every zoom 0–16."""
import json, sys, time
import numpy as np
import pysupercluster

features = json.load(open(sys.argv[1]))["features"]
points = np.array([f["geometry"]["coordinates"] for f in features], dtype=np.float64)
t = time.perf_counter()
index = pysupercluster.SuperCluster(points, min_zoom=0, max_zoom=16, radius=100, extent=256)
index_s = time.perf_counter() - t
print(json.dumps({"tool": "pysupercluster", "task": "index 1M markers", "markers": len(points), "seconds": index_s}))
t = time.perf_counter()
clusters = index.getClusters(top_left=(-180, 85), bottom_right=(180, -85), zoom=10)
print(json.dumps({"tool": "pysupercluster", "task": "cluster at zoom 10", "clusters": len(clusters), "seconds": time.perf_counter() - t}))
t = time.perf_counter()
total = sum(len(index.getClusters(top_left=(-180, 85), bottom_right=(180, -85), zoom=z)) for z in range(17))
all_s = time.perf_counter() - t
print(json.dumps({"tool": "pysupercluster", "task": "cluster zooms 0-16", "clusters": total, "seconds": all_s, "index_plus_all_s": index_s + all_s}))
