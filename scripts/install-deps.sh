#!/usr/bin/env bash
# Installs the Debian 12 packages cuzk builds and tests with, when missing.
# Safe to run again: it installs nothing that is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libcmocka-dev libjansson-dev git
          libmicrohttpd-dev libinih-dev libcurl4-openssl-dev libsqlite3-dev
          # the PostgreSQL job store, and the server its tests start
          libpq-dev postgresql
          # the tests' checks of JSON (Perfetto traces) and raw HTTP, and of
          # the SVG and HTML timelines
          python3 libxml2-utils
          # the fuzz harnesses (scripts/fuzz.sh): clang and its libFuzzer
          clang libclang-rt-14-dev)
# node and npm run snarkjs, the independent verifier the tests check our proofs with
command -v node >/dev/null 2>&1 || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "cuzk: installing ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "cuzk: nvcc found: the CUDA backend will be built"
else
    echo "cuzk: nvcc not found: building without the CUDA backend (the CPU backend is used)"
fi

# snarkjs (pinned in tools/fixtures/package-lock.json) into a local folder.
if [ "${1:-}" = "--with-snarkjs" ] && [ ! -f tools/fixtures/node_modules/snarkjs/build/cli.cjs ]; then
    echo "cuzk: installing snarkjs into tools/fixtures/node_modules"
    (cd tools/fixtures && npm ci --no-audit --no-fund --loglevel=error)
fi
