#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/fuzz_*.c) with clang, everything
# under ASan + UBSan, and runs each for a bounded time on a copy of its
# committed corpus (fuzz/corpus/NAME, with fuzz/NAME.dict when there is
# one), so that runs do not grow the committed corpus. Fails when any
# harness finds a crash, a leak, undefined behaviour, a timeout or an
# oversized allocation; its input is kept in build/fuzz/crashes/.
# Prints each harness's executions and coverage (libFuzzer's cov and ft).
# Usage: scripts/fuzz.sh [seconds-per-harness] [NAME...]   (NAME: e.g. zkey)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
[ $# -gt 0 ] && shift
CC=clang cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=Debug -DCUZK_FUZZ=ON -DCUZK_CUDA=OFF \
    >/dev/null
cmake --build build/fuzz -j"$(nproc)" --target fuzzers
if [ $# -gt 0 ]; then
    names=("$@")
else
    names=()
    for src in fuzz/fuzz_*.c; do
        name=$(basename "$src" .c)
        names+=("${name#fuzz_}")
    done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
crashes=build/fuzz/crashes
mkdir -p "$crashes"
status=0
summary=()
for name in "${names[@]}"; do
    bin=build/fuzz/fuzz_$name
    [ -x "$bin" ] || { echo "fuzz: no harness build/fuzz/fuzz_$name" >&2; status=1; continue; }
    mkdir -p "$work/$name"
    [ -d "fuzz/corpus/$name" ] && cp -r "fuzz/corpus/$name/." "$work/$name/"
    args=(-max_total_time="$seconds" -print_final_stats=1 -timeout=30 -rss_limit_mb=2048
          -malloc_limit_mb=512 -artifact_prefix="$crashes/$name-")
    [ -f "fuzz/$name.dict" ] && args+=(-dict="fuzz/$name.dict")
    echo "== fuzz: $name, ${seconds}s =="
    rc=0
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$bin" "${args[@]}" "$work/$name" \
        >"$work/$name.log" 2>&1 || rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log" | tail -1 || true)
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$work/$name.log" | tail -1 || true)
    line="$name: ${execs:-?} executions, ${cov:-no coverage line}"
    if [ $rc -ne 0 ]; then
        tail -n 60 "$work/$name.log"
        line="$line: FAILED (exit $rc; input in $crashes/)"
        status=1
    fi
    echo "$line"
    summary+=("$line")
done
echo "== fuzz summary (${seconds}s each) =="
printf '%s\n' "${summary[@]}"
exit $status
