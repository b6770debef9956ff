#!/usr/bin/env bash
# Issue 47's three style rules against the plain conversion: one geoconv binary, the two
# runs in turn N times, each timed in nanoseconds (`date +%s%N`) around /usr/bin/time (user,
# system, peak RSS). Prints a line a run ("plain|rules MS USER SYS KB") and, at the end, the
# medians and their ratio.
#
#   scripts/bench/rules.sh kml|geojson [N] [file|stdout]     (defaults: 15, file)
#   GEOCONV=…  (default .build/release/geoconv)   INPUT=…  (default bench-out/data/points_1m.geojson)
#
# "file" writes /tmp/geoconv-rules.EXT, removed and synced before each run (so that a run
# does not meet the kernel writing back the one before); "stdout" writes to /dev/null.
set -uo pipefail
cd "$(dirname "$0")/../.."
ext=${1:?kml or geojson}
n=${2:-15}
to=${3:-file}
bin=${GEOCONV:-$PWD/.build/release/geoconv}
input=${INPUT:-bench-out/data/points_1m.geojson}
out=/tmp/geoconv-rules.$ext
times=$(mktemp)
trap 'rm -f "$times" "$out"' EXIT
rules=(--style "id < 300000: marker-color=red" --style "id >= 300000 AND id < 600000: marker-color=blue"
    --style "id >= 600000: marker-color=green icon-scale=1.2")
declare -a plain=() styled=()
for _ in $(seq "$n"); do
    for mode in plain rules; do
        args=()
        [ "$mode" = rules ] && args=("${rules[@]}")
        if [ "$to" = file ]; then
            rm -f "$out"
            sync
            start=$(date +%s%N)
            /usr/bin/time -o "$times" -f '%U %S %M' "$bin" "$input" "$out" "${args[@]}" 2>/dev/null
        else
            start=$(date +%s%N)
            /usr/bin/time -o "$times" -f '%U %S %M' "$bin" "$input" - --to "$ext" "${args[@]}" >/dev/null 2>&1
        fi
        end=$(date +%s%N)
        ms=$(((end - start) / 1000000))
        echo "$mode $ms $(cat "$times")"
        if [ "$mode" = plain ]; then plain+=("$ms"); else styled+=("$ms"); fi
    done
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
p=$(median "${plain[@]}")
r=$(median "${styled[@]}")
printf 'median plain %d ms, rules %d ms, rules/plain %.3f\n' "$p" "$r" "$(echo "$r / $p" | bc -l)"
