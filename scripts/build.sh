#!/usr/bin/env bash
# Configures and builds one flavour: release (default) or sanitize.
# Usage: scripts/build.sh [release|sanitize]
set -euo pipefail
cd "$(dirname "$0")/.."
flavour=${1:-release}
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
case "$flavour" in
release) args=(-DCMAKE_BUILD_TYPE=Release) ;;
# The CUDA sources are compiled once, by the release flavour.
sanitize) args=(-DCMAKE_BUILD_TYPE=Debug -DCUZK_SANITIZE=ON -DCUZK_CUDA=OFF) ;;
*) echo "scripts/build.sh: unknown flavour '$flavour' (release|sanitize)" >&2; exit 2 ;;
esac
cmake -S . -B "build/$flavour" "${args[@]}" >/dev/null
cmake --build "build/$flavour" -j"$(nproc)"
