# Shared by the benchmark scripts (sourced): whole-process timing with /usr/bin/time, the
# median of REPEAT runs alternated between geoconv and its anchor, one table row per task.
# Needs OUT (a folder for outputs and timings) and REPEAT.

measure() { # COMMAND...: sets WALL (s) and RSS (MB) of the whole process
    sync  # earlier outputs' writeback must not land in this run's time
    /usr/bin/time -o "$OUT/time.txt" -f '%e %M' "$@" >"$OUT/stdout.txt" 2>"$OUT/stderr.txt" \
        || { echo "FAILED: $*"; cat "$OUT/stderr.txt"; exit 1; }
    local stats
    stats=$(tail -n 1 "$OUT/time.txt")
    WALL=${stats% *}
    RSS=$(awk -v k="${stats#* }" 'BEGIN { printf "%.1f", k / 1024 }')
}
label() { # FILE: name (size); a shapefile counts its .shp and .dbf
    local bytes
    bytes=$(stat -c %s "$1")
    [[ "$1" == *.shp ]] && bytes=$((bytes + $(stat -c %s "${1%.shp}.dbf")))
    awk -v n="$(basename "$1")" -v b="$bytes" 'BEGIN { printf "%s (%.0f MB)", n, b / 1e6 }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
largest() { printf '%s\n' "$@" | sort -g | tail -n 1; }
run() { # TASK INPUT GEOCONV_COMMAND... :: ANCHOR_COMMAND...   (outputs go to $OUT/g.* and $OUT/o.*)
    local task=$1 input=$2; shift 2
    local geoconv=()
    while [ "$1" != :: ]; do geoconv+=("$1"); shift; done
    shift
    local gws=() grs=() aws=() ars=() k
    for ((k = 0; k < REPEAT; k++)); do
        rm -f "$OUT"/g.* "$OUT"/g_* "$OUT"/o.*
        measure "${geoconv[@]}"; gws+=("$WALL"); grs+=("$RSS")
        rm -f "$OUT"/g.* "$OUT"/g_*
        measure "$@"; aws+=("$WALL"); ars+=("$RSS")
    done
    local gw gr aw ar
    gw=$(median "${gws[@]}"); gr=$(largest "${grs[@]}"); aw=$(median "${aws[@]}"); ar=$(largest "${ars[@]}")
    GEOCONV_WALL=$gw
    awk -v k="$task" -v i="$(label "$input")" -v gw="$gw" -v gr="$gr" -v aw="$aw" -v ar="$ar" 'BEGIN {
        printf "| %s | %s | %.2f | %.1f | %.2f | %.1f | %.2f |\n", k, i, gw, gr, aw, ar, (gw > 0 ? aw / gw : 0) }'
}
