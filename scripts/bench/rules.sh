#!/usr/bin/env bash
# Issue 47's three style rules against the plain conversion: one geoconv binary, the two
# runs in turn N times, each timed in nanoseconds (`date +%s%N`) around GNU time (user,
# system, peak RSS). Prints a line a run ("plain|rules MS USER SYS KB") and, at the end, the
# medians and their ratio; scripts/bench/rules_pool.py pools the lines of several series.
# Linux only (GNU date and time).
#
#   scripts/bench/rules.sh kml|geojson [N] [file|stdout]     (defaults: 15, file)
#   GEOCONV=…  (default .build/release/geoconv)   INPUT=…  (default bench-out/data/points_1m.geojson)
#
# "file" writes a file, removed and synced before each run (so that a run does not meet the
# kernel writing back the one before); "stdout" writes to /dev/null.
set -uo pipefail
cd "$(dirname "$0")/../.."
ext=${1:?kml or geojson}
n=${2:-15}
to=${3:-file}
bin=${GEOCONV:-$PWD/.build/release/geoconv}
input=${INPUT:-bench-out/data/points_1m.geojson}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out.$ext
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
            /usr/bin/time -o "$work/time" -f '%U %S %M' "$bin" "$input" "$out" ${args[@]+"${args[@]}"} 2>"$work/err"
        else
            start=$(date +%s%N)
            /usr/bin/time -o "$work/time" -f '%U %S %M' "$bin" "$input" - --to "$ext" ${args[@]+"${args[@]}"} \
                >/dev/null 2>"$work/err"
        fi
        status=$?
        end=$(date +%s%N)
        if [ $status -ne 0 ]; then
            echo "rules.sh: the $mode run failed (exit $status):" >&2
            tail -3 "$work/err" >&2
            exit 1
        fi
        ms=$(((end - start) / 1000000))
        echo "$mode $ms $(tail -1 "$work/time")"
        if [ "$mode" = plain ]; then plain+=("$ms"); else styled+=("$ms"); fi
    done
done
median() {
    printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1}
        END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'
}
p=$(median "${plain[@]}")
r=$(median "${styled[@]}")
awk -v p="$p" -v r="$r" 'BEGIN {printf "median plain %.1f ms, rules %.1f ms, rules/plain %.3f\n", p, r, r / p}'
