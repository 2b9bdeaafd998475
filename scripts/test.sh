#!/usr/bin/env bash
# The test command: installs what is missing, builds the release and the
# sanitizer (ASan + UBSan) flavours, and runs every test in both.
# GPU tests report themselves skipped on machines without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-snarkjs
status=0
for flavour in release sanitize; do
    echo "== cuzk tests: $flavour build =="
    scripts/build.sh "$flavour"
    (cd "build/$flavour" && ctest --output-on-failure -j"$(nproc)") || status=1
done
exit $status
