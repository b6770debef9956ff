"""pysupercluster as a whole job, the anchor for `geoconv cluster` in points.sh: load the GeoJSON
with json, index, then clusters at one zoom or at every zoom 0..MAXZOOM.

    cluster_points_py.py IN.geojson ZOOM|all MAXZOOM

Same parameters as cluster_py.py (radius 100, extent 256). Prints one JSON line of counts and
stage timings (stdout), nothing big.
"""
import json, sys, time
import numpy as np
import pysupercluster

path, which, max_zoom = sys.argv[1], sys.argv[2], int(sys.argv[3])
zooms = range(max_zoom + 1) if which == "all" else [int(which)]
t0 = time.perf_counter()
with open(path, encoding="utf-8") as f:
    features = json.load(f)["features"]
points = np.array([f["geometry"]["coordinates"][:2] for f in features], dtype=np.float64)
del features
t1 = time.perf_counter()
index = pysupercluster.SuperCluster(points, min_zoom=0, max_zoom=max_zoom, radius=100, extent=256)
t2 = time.perf_counter()
clusters = sum(len(index.getClusters(top_left=(-180, 90), bottom_right=(180, -90), zoom=z)) for z in zooms)
t3 = time.perf_counter()
print(json.dumps({"tool": "pysupercluster", "markers": len(points), "zooms": "%d-%d" % (zooms[0], zooms[-1]),
                  "clusters": clusters, "load_s": round(t1 - t0, 3), "index_s": round(t2 - t1, 3),
                  "clusters_s": round(t3 - t2, 3), "total_s": round(t3 - t0, 3)}))
