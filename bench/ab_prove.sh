#!/usr/bin/env bash
# Two cuzk binaries, one .zkey and .wtns: `cuzk prove` run alternately by
# each (so both see the same machine state), RUNS times (default 10), and
# one JSON line with the median wall time of each and their ratio. For
# comparing a change with the build before it on a loaded machine.
#
#   bench/ab_prove.sh OLD_CUZK NEW_CUZK circuit.zkey witness.wtns [extra cuzk prove options]
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 OLD_CUZK NEW_CUZK circuit.zkey witness.wtns [options]" >&2; exit 2; }
old=$1 new=$2 zkey=$3 wtns=$4
shift 4
runs=${RUNS:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TIMEFORMAT=%R
for i in $(seq "$runs"); do
    for which in old new; do
        bin=${!which}
        t=$({ time "$bin" prove --quiet "$@" "$zkey" "$wtns" "$tmp/p.json" "$tmp/q.json" \
            >/dev/null 2>"$tmp/err"; } 2>&1) || { cat "$tmp/err" >&2; exit 1; }
        echo "$t" >>"$tmp/$which"
    done
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mo=$(median "$tmp/old")
mn=$(median "$tmp/new")
awk -v o="$mo" -v n="$mn" -v r="$runs" -v z="$zkey" -v l="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
    printf "{\"bench\":\"ab_prove\",\"zkey\":\"%s\",\"runs\":%d,\"old_median_s\":%.3f,", z, r, o
    printf "\"new_median_s\":%.3f,\"ratio\":%.3f,\"load\":%s}\n", n, n / o, l }'
