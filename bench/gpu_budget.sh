#!/usr/bin/env bash
# The engine under a device budget (engine.device_budget, `cuzk bench
# --device-budget`): parameters that do not fit stay in host memory and are
# streamed to the GPU for every partition. For the cards farms own (16-32
# GB) measured on a larger one.
#
#   CUZK_GPU_TARGETS=cuzk_cli CUZK_GPU_TESTS=none CUZK_GPU_BENCHES=' ' \
#   CUZK_GPU_AFTER=bench/gpu_budget.sh bench/gpu.sh
#
# For each "LOG:BUDGET" of CUZK_BUDGET_RUNS (BUDGET 0: no budget), one job
# of CUZK_BUDGET_PARTITIONS partitions of the built-in circuit at 2^LOG
# with development parameters made in memory (dev:1), every partition
# verified; its prove_summary line (with "device_budget") is appended to
# $OUT/budget.jsonl, and a refusal (the budget below what a partition
# needs) is written as a line with the message, which itemizes the fixed
# needs. BUDGET "auto" (after a refused run at a smaller LOG) scales that
# refusal's fixed needs by 2^(LOG - refused LOG) and adds CUZK_BUDGET_SLACK
# (default 4G) for points kept resident.
# Environment: BUILD, OUT, CUZK_BUDGET_RUNS (default "24:0 24:6G 24:1G
# 27:auto"), CUZK_BUDGET_PARTITIONS (default 6), CUZK_BUDGET_TIMEOUT
# (seconds a run may take, default 200), CUZK_COMMIT.
set -uo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build/gpu}
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "gpu_budget.sh: no build folder" >&2; exit 2; }
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
runs=${CUZK_BUDGET_RUNS:-24:0 24:6G 24:1G 27:auto}
parts=${CUZK_BUDGET_PARTITIONS:-6}
limit=${CUZK_BUDGET_TIMEOUT:-200}
slack=${CUZK_BUDGET_SLACK:-4G}
commit=${CUZK_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
jsonl=$OUT/budget.jsonl
work=$(mktemp -d)
status=0
refused_log="" refused_fixed=0
say() { printf '== gpu_budget.sh: %s\n' "$*"; }
bytes_of() { # 6G -> bytes
    local v=$1
    case "$v" in
    *G) echo $((${v%G} << 30)) ;;
    *M) echo $((${v%M} << 20)) ;;
    *) echo "$v" ;;
    esac
}
: >"$jsonl"
for r in $runs; do
    log=${r%%:*} budget=${r#*:}
    if [ "$budget" = auto ]; then
        if [ -z "$refused_log" ]; then
            say "2^$log: no refusal to scale from; skipped"
            continue
        fi
        budget=$((refused_fixed << (log - refused_log)))
        budget=$((budget + $(bytes_of "$slack")))
    else
        budget=$(bytes_of "$budget")
    fi
    say "2^$log, device budget $budget bytes, 1 job x $parts partitions"
    err=$work/err-$log-$budget.txt
    timeout "$limit" "$BUILD/cuzk" bench --log-constraints "$log" --jobs 1 --partitions "$parts" \
        --params dev:1 --backend cuda --device-budget "$budget" --out "$work/b-$log-$budget" \
        >"$work/out.txt" 2>"$err"
    rc=$?
    if [ "$rc" -eq 0 ]; then
        grep '"bench":"prove_summary"' "$work/out.txt" |
            sed -E "s/\"commit\":\"[^\"]*\"/\"device_budget\":$budget,\"commit\":\"$commit\"/" |
            tee -a "$jsonl"
        grep -E '^cuda0|partitions \(|^synthesis' "$err" | head -n 4
        # the phases per partition, for the streamed MSMs' cost
        "$BUILD/cuzk" trace "$work/b-$log-$budget/events.jsonl" --summary 2>/dev/null |
            sed -n '/^phases/,/^$/p' | tee -a "$OUT/budget-phases.txt"
    else
        why=$(grep -o 'the device budget.*' "$err" | head -n 1)
        if [ -n "$why" ]; then
            say "2^$log refused: $why"
            fixed=$(sed -n 's/.*needs on the device: \([0-9]*\) bytes.*and \([0-9]*\) for streaming.*/\1 \2/p' "$err" | head -n 1)
            refused_log=$log
            refused_fixed=$(awk -v f="$fixed" 'BEGIN { split(f, a, " "); print a[1] }')
            printf '{"bench":"budget_refused","log_constraints":%s,"device_budget":%s,"message":"%s","commit":"%s"}\n' \
                "$log" "$budget" "$(printf '%s' "$why" | sed 's/"/\\"/g')" "$commit" | tee -a "$jsonl"
        else
            say "FAILED: 2^$log budget $budget (exit $rc)"
            tail -n 15 "$err"
            status=1
        fi
    fi
done
rm -rf "$work"
exit "$status"
