#!/usr/bin/env bash
# Builds rapidsnark's standalone prover (https://github.com/iden3/rapidsnark,
# the C++ and x86-64 assembly BN254 prover circom users run) for the
# side-by-side runs of bench/snarkjs_compare.sh (CURVE=bn128), from a
# checkout of its source kept outside this repository:
#
#   bench/build_rapidsnark.sh SRC [BUILD]
#
# SRC: a rapidsnark checkout with its submodules (depends/ffiasm,
# depends/circom_runtime, depends/json: `git submodule update --init`).
# BUILD: the build folder (default build/rapidsnark), so that the prover
# lands where snarkjs_compare.sh looks for it by default:
# build/rapidsnark/src/prover. Uses Debian's GMP instead of rapidsnark's
# own download of it (build_gmp.sh), and installs the Debian packages the
# build needs (libgmp-dev, nasm, libsodium-dev, cmake, g++) when they are
# missing and apt-get can run. Prints the prover's path and the source's
# commit on success.
set -euo pipefail

usage() {
    echo "usage: bench/build_rapidsnark.sh SRC [BUILD]" >&2
    exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
src=$(cd "$1" 2>/dev/null && pwd) || {
    echo "build_rapidsnark: $1: no such folder" >&2
    exit 2
}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$root/build/rapidsnark}

[ -f "$src/CMakeLists.txt" ] && [ -d "$src/src" ] || {
    echo "build_rapidsnark: $src does not look like a rapidsnark checkout (no CMakeLists.txt or src/)" >&2
    exit 2
}
for sub in depends/ffiasm depends/circom_runtime depends/json; do
    if [ -z "$(ls -A "$src/$sub" 2>/dev/null)" ]; then
        echo "build_rapidsnark: $src/$sub is empty: run 'git submodule update --init' in $src" >&2
        exit 2
    fi
done

missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v nasm >/dev/null 2>&1 || missing+=(nasm)
[ -f /usr/include/gmp.h ] || [ -f /usr/include/x86_64-linux-gnu/gmp.h ] || missing+=(libgmp-dev)
[ -f /usr/include/sodium.h ] || missing+=(libsodium-dev)
if [ ${#missing[@]} -gt 0 ]; then
    echo "build_rapidsnark: installing ${missing[*]}" >&2
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2 || {
        echo "build_rapidsnark: could not install ${missing[*]}; install them and run again" >&2
        exit 1
    }
fi

# Release with its assembly field code; GMP from the system (its CMake file
# falls back to the system's gmp.h and libgmp when depends/gmp/package is
# absent, which it says in two warnings).
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DUSE_ASM=ON >&2
cmake --build "$build" --target prover -j"$(nproc)" >&2
prover=$build/src/prover
[ -x "$prover" ] || {
    echo "build_rapidsnark: the build ended without $prover" >&2
    exit 1
}
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "build_rapidsnark: $prover (rapidsnark $commit)" >&2
echo "$prover"
