#!/usr/bin/env bash
# Before and after a change: two geoconv binaries run alternately on the shared generator's
# data, whole process (/usr/bin/time), median wall seconds of REPEAT runs and the largest
# peak RSS of each, with their outputs compared byte for byte.
#
#   OLD=/path/to/old/geoconv scripts/bench/ab.sh [DATA_DIR]     (default bench-out/data)
#   NEW=…  (default .build/release/geoconv)   REPEAT=5  (default 3)
#
# Build the old binary in a worktree: git worktree add ../old <commit> && (cd ../old &&
# swift build -c release --product geoconv). Inputs come from ../shared/bench/gen_data.py;
# points_1m.kml is made with ogr2ogr when missing.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OLD:?set OLD to the geoconv binary to compare with}"
NEW=${NEW:-$PWD/.build/release/geoconv}
D=${1:-bench-out/data}
O=${GEOCONV_BENCH_OUT:-bench-out/ab}; mkdir -p $O
REPEAT=${REPEAT:-3}
[ -s $D/points_1m.kml ] || ogr2ogr -f KML $D/points_1m.kml $D/points_1m.geojson
row() { # name, then args with OUT placeholder
  name=$1; shift
  declare -a to=() tn=() mo=() mn=()
  for r in $(seq $REPEAT); do
    for which in old new; do
      bin=$OLD; [ $which = new ] && bin=$NEW
      args=("${@//OUT/$O/$which.$name}")
      /usr/bin/time -f '%e %M' -o $O/t "$bin" "${args[@]}" > /dev/null 2>$O/err.$which || { echo "$name $which FAILED"; cat $O/err.$which | tail -2; }
      read s kb < $O/t
      if [ $which = old ]; then to+=($s); mo+=($kb); else tn+=($s); mn+=($kb); fi
    done
  done
  med() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($#+1)/2 ))p"; }
  max() { printf '%s\n' "$@" | sort -n | tail -1; }
  so=$(med "${to[@]}"); sn=$(med "${tn[@]}")
  same=""
  if [ -e "$O/old.$name" ] && ! cmp -s "$O/old.$name" "$O/new.$name"; then same=" OUTPUT DIFFERS"; fi
  printf '%-40s old %6.2f s %8d KB | new %6.2f s %8d KB | new/old %.2f%s\n' "$name" "$so" "$(max "${mo[@]}")" "$sn" "$(max "${mn[@]}")" "$(echo "$sn / $so" | bc -l)" "$same"
}
row a-points-geojsonseq $D/points_1m.geojson OUT.geojsons
row b-points-kml $D/points_1m.geojson OUT.kml
row c-points-kml-geojson $D/points_1m.kml OUT.geojson
row d-points-info info $D/points_1m.geojson
row e-points-cluster cluster $D/points_1m.geojson OUT.geojson --zoom 10
row a1-points-geojsonseq-jobs1 $D/points_1m.geojson OUT.geojsons --jobs 1
row b1-points-kml-jobs1 $D/points_1m.geojson OUT.kml --jobs 1
row h-features200-kml-geojson $D/features_200mb.kml OUT.geojson
row h-features200-geojson-kml $D/features_200mb.geojson OUT.kml
row i-wkt100-geojsonseq $D/geometries_100mb.wkt OUT.geojsons
row j-polylines-geojsonseq $D/polylines_5m.txt OUT.geojsons --from polyline
