#!/usr/bin/env bash
# The test command: installs what is missing, builds the release and the
# sanitizer (ASan + UBSan) flavours, runs every test in both, then runs
# every fuzz harness for a bounded time (about 5 minutes in all).
# GPU tests report themselves skipped on machines without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-snarkjs
status=0
for flavour in release sanitize; do
    echo "== cuzk tests: $flavour build =="
    scripts/build.sh "$flavour"
    # -LE soak: the ten-minute soak (ctest -L soak) is not part of the run
    (cd "build/$flavour" && ctest --output-on-failure -j"$(nproc)" -LE soak) || status=1
done
echo "== cuzk tests: fuzzing =="
harnesses=$(ls fuzz/fuzz_*.c | wc -l)
scripts/fuzz.sh $((300 / harnesses)) || status=1
exit $status
