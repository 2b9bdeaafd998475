#!/usr/bin/env bash
# Loading a bellman parameter file on the GPU machine: the built-in circuit's
# development parameters at 2^K (default 24) are made by `cuzk setup
# --builtin` (fixed-base products on the GPU) and written to a file there,
# then `cuzk bench` loads that file once per point check (curve, then
# subgroup: with the CUDA backend the proving key's subgroup tests run on
# the device as its points are uploaded) and proves one job of a few
# partitions with it, every proof verified. The figure is the bench's
# setup_or_load_s: the file read and checked, the circuit compiled, the
# parameters made resident and warmed up.
#
#   CUZK_GPU_TARGETS=cuzk_cli CUZK_GPU_TESTS=none CUZK_GPU_BENCHES=' ' \
#   CUZK_GPU_AFTER=bench/gpu_load.sh bench/gpu.sh
#
# Writes $OUT/load.jsonl: one line for the setup (its wall time and the
# file's size), then the bench's prove_summary line per check. The file
# (about 10 GB at 2^24) goes to $CUZK_LOAD_WORK and is removed at the end.
#
# Environment: BUILD (default build/gpu), OUT (default ./gpu-out),
# CUZK_LOAD_LOG (K, default 24), CUZK_LOAD_PARTITIONS (default 2),
# CUZK_LOAD_CHECKS (default "curve subgroup"), CUZK_LOAD_WORK (default
# $BUILD/load-params), CUZK_COMMIT (the commit written into the lines).
set -uo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2

BUILD=${BUILD:-build/gpu}
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "gpu_load.sh: no build folder ${BUILD}" >&2; exit 2; }
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
log=${CUZK_LOAD_LOG:-24}
parts=${CUZK_LOAD_PARTITIONS:-2}
read -r -a checks <<<"${CUZK_LOAD_CHECKS:-curve subgroup}"
work=${CUZK_LOAD_WORK:-$BUILD/load-params}
cuzk=$BUILD/cuzk
commit=${CUZK_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
jsonl=$OUT/load.jsonl
status=0

say() { printf '== gpu_load.sh: %s\n' "$*"; }

[ -x "$cuzk" ] || { say "FAILED: $cuzk was not built"; exit 1; }
mkdir -p "$work" || exit 2
params=$work/builtin-$log.params
: >"$jsonl"

say "setup --builtin --log-constraints $log (GPU fixed-base products) -> $params"
t0=$EPOCHREALTIME
if ! "$cuzk" setup --builtin --log-constraints "$log" --params "$params" --backend cuda \
    2>&1 | grep -v '% of' | tee "$OUT/load-setup.txt"; then
    :
fi
setup_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
if [ ! -s "$params" ]; then
    say "FAILED: no parameter file"
    exit 1
fi
bytes=$(stat -c %s "$params")
printf '{"bench":"load_setup","log_constraints":%s,"setup_wall_s":%s,"params_bytes":%s,"commit":"%s"}\n' \
    "$log" "$setup_s" "$bytes" "$commit" | tee -a "$jsonl"

for chk in "${checks[@]}"; do
    say "bench --params $params --check $chk (1 job, $parts partitions)"
    if "$cuzk" bench --log-constraints "$log" --params "$params" --check "$chk" --jobs 1 \
        --partitions "$parts" --backend cuda --out "$work/bench-$chk" >"$OUT/load-$chk.out" \
        2>"$OUT/load-$chk.err"; then
        grep '"bench":"prove_summary"' "$OUT/load-$chk.out" |
            sed -E "s/\"commit\":\"[^\"]*\"/\"commit\":\"$commit\"/" | tee -a "$jsonl"
    else
        say "FAILED: bench --check $chk"
        tail -n 20 "$OUT/load-$chk.err"
        status=1
    fi
    grep -E 'cuzk bench: domain|load' "$OUT/load-$chk.err" | head -n 5
done
rm -rf "$work"
exit "$status"
