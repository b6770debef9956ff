#!/usr/bin/env bash
# GeoParquet: geoconv beside geopandas and DuckDB in the same run, whole process (wall
# seconds and peak RSS from /usr/bin/time), the median of REPEAT alternated runs.
#
#   scripts/bench/geoparquet.sh [DATA_DIR]        (default bench-out/data)
#   ONLY=m,o scripts/bench/geoparquet.sh          only those rows (default: m,n,o)
#   NO_BUILD=1 REPEAT=1 …                         as scripts/bench/points.sh
#
# Rows: m the shared generator's 1 M points (GeoJSON) → GeoParquet, against geopandas
# (read_file, then to_parquet: what a Python user types); n the same points as GeoJSONSeq
# → Parquet, against DuckDB's COPY … TO 'x.parquet' from read_json (DuckDB writes the
# geometry as a JSON struct, not WKB: the anchor is its speed at writing Parquet at all);
# o few big features (features_200mb.geojson) → GeoParquet, against geopandas.
# ratio = anchor s / geoconv s (> 1: geoconv is faster).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-bench-out/data}
ONLY=${ONLY:-m,n,o}
REPEAT=${REPEAT:-3}
OUT=${GEOCONV_BENCH_OUT:-bench-out/geoparquet}
mkdir -p "$DATA" "$OUT"
want() { [[ ",$ONLY," == *",$1,"* ]]; }
python3 -c "import geopandas, pyarrow, duckdb" 2>/dev/null || python3 -m pip install -q geopandas pyarrow duckdb
P1M=$DATA/points_1m.geojson
BIG=$DATA/features_200mb.geojson
[ -s "$P1M" ] || python3 ../shared/bench/gen_data.py --out "$DATA" --only points
if want o && [ ! -s "$BIG" ]; then python3 ../shared/bench/gen_data.py --out "$DATA" --only features; fi
[ -n "${NO_BUILD:-}" ] || swift build -c release >/dev/null
GEOCONV=.build/release/geoconv
SEQ=$DATA/points_1m.geojsonl
[ -s "$SEQ" ] || "$GEOCONV" "$P1M" "$SEQ" --quiet
source scripts/bench/measure.sh
GEOPANDAS='import sys, geopandas; geopandas.read_file(sys.argv[1]).to_parquet(sys.argv[2])'
DUCKDB='import sys, duckdb; duckdb.sql(f"COPY (SELECT * FROM read_json(\x27{sys.argv[1]}\x27)) TO \x27{sys.argv[2]}\x27 (FORMAT parquet)")'
echo "# $(date -u '+%F %T UTC'); $(nproc) cores; $("$GEOCONV" --version); geopandas $(python3 -c 'import geopandas, pyogrio; print(geopandas.__version__, "(pyogrio", pyogrio.__version__ + ", GDAL", pyogrio.__gdal_version_string__ + ")")'); duckdb $(python3 -c 'import duckdb; print(duckdb.__version__)'); median of $REPEAT alternated runs"
echo
echo "| task | input | geoconv s | geoconv MB | anchor s | anchor MB | ratio |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
want m && run "m. points → GeoParquet (geopandas)" "$P1M" "$GEOCONV" "$P1M" "$OUT/g.parquet" --quiet :: python3 -c "$GEOPANDAS" "$P1M" "$OUT/o.parquet"
want n && run "n. points GeoJSONSeq → Parquet (DuckDB COPY)" "$SEQ" "$GEOCONV" "$SEQ" "$OUT/g.parquet" --quiet :: python3 -c "$DUCKDB" "$SEQ" "$OUT/o.parquet"
want o && run "o. few big features → GeoParquet (geopandas)" "$BIG" "$GEOCONV" "$BIG" "$OUT/g.parquet" --quiet :: python3 -c "$GEOPANDAS" "$BIG" "$OUT/o.parquet"
true
