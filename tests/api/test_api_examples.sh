#!/usr/bin/env bash
# The installed library as a user gets it: `cmake --install` of this build
# into a temporary prefix (every file in its place, cuzk.pc and the systemd
# unit naming that prefix), cuzk.h compiling on its own (C11 -pedantic, and
# C++), both examples built with pkg-config against the shared library and
# prove_zkey also against the static one, run on the circom fixture, and
# their proofs checked by the examples themselves and by snarkjs.
# Without node or snarkjs the rest still runs; the test then exits 77.
# Usage: test_api_examples.sh path/to/cuzk (the build folder is its folder)
set -u
build=$(cd "$(dirname "$1")" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
fix=$root/tests/fixtures/circom
snarkjs_cli=$root/tools/fixtures/node_modules/snarkjs/build/cli.cjs
for tool in cmake pkg-config make cc readelf; do
    command -v $tool >/dev/null || { echo "SKIPPED: $tool is needed"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
check() { # name, expected exit code, command...
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>&1
    local got=$?
    if [ "$got" -eq "$want" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name: exit $got, expected $want"
        sed 's/^/    /' "$tmp/out"
    fi
}
expect() { # name, condition...
    local name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name"
    fi
}

prefix=$tmp/prefix
check "cmake --install" 0 cmake --install "$build" --prefix "$prefix"
pc=$(find "$prefix" -name cuzk.pc | head -1)
expect "cuzk.pc installed" test -n "$pc"
[ -n "$pc" ] || { echo "FAIL: nothing to build against"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(pkg-config --variable=libdir cuzk)
expect "libdir inside the prefix" test "${libdir#"$prefix"/}" != "$libdir"
expect "the shared library and its links" test -f "$(readlink -f "$libdir/libcuzk.so")" \
    -a -L "$libdir/libcuzk.so"
soname=$(readelf -d "$libdir/libcuzk.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
expect "the SONAME link" test -n "$soname" -a -e "$libdir/$soname"
expect "the static library" test -f "$libdir/libcuzk.a"
expect "the headers" test -f "$prefix/include/cuzk/cuzk.h" -a -f "$prefix/include/cuzk/status.h"
expect "the CLI" test -x "$prefix/bin/cuzk"
check "the installed CLI runs" 0 "$prefix/bin/cuzk" version
unit=$(find "$prefix" -name cuzk.service | head -1)
expect "the systemd unit" test -n "$unit"
expect "the unit starts the installed CLI" grep -qx \
    "ExecStart=$prefix/bin/cuzk serve --config /etc/cuzk/serve.ini" "${unit:-/dev/null}"
if command -v systemd-analyze >/dev/null && [ -n "$unit" ]; then
    check "systemd-analyze verify accepts the unit" 0 systemd-analyze verify "$unit"
fi
expect "cuzk.pc names the version" test "$(pkg-config --modversion cuzk)" = \
    "$(sed -n 's/^project(cuzk VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"

# A library built with the sanitizers wants them in its programs too.
extra=
if readelf -d "$libdir/libcuzk.so" | grep -q 'libasan'; then
    extra="-fsanitize=address,undefined"
fi
# The header alone: only standard headers and cuzk/status.h behind it.
printf '#include <cuzk/cuzk.h>\nint main(void) { return cuzk_api_version() == 0; }\n' \
    >"$tmp/alone.c"
check "cuzk.h compiles alone (C11, pedantic)" 0 cc -std=c11 -pedantic -Wall -Wextra -Werror \
    $extra $(pkg-config --cflags cuzk) -c -o "$tmp/alone.o" "$tmp/alone.c"
if command -v c++ >/dev/null; then
    check "cuzk.h compiles as C++" 0 c++ -std=c++11 -pedantic -Wall -Wextra -Werror \
        $(pkg-config --cflags cuzk) -fsyntax-only -x c++ "$tmp/alone.c"
fi

check "build the examples (shared)" 0 make -C "$root/examples" OUT="$tmp/shared" \
    EXTRA_CFLAGS="$extra"
check "build prove_zkey (static)" 0 make -C "$root/examples" OUT="$tmp/static" STATIC=1 \
    EXTRA_CFLAGS="$extra" "$tmp/static/prove_zkey"
if [ -x "$tmp/shared/prove_zkey" ]; then
    expect "the shared example loads the installed library" \
        grep -q "$libdir/$soname" <(ldd "$tmp/shared/prove_zkey")
fi
if [ -x "$tmp/static/prove_zkey" ]; then
    expect "the static example does not load libcuzk.so" \
        test -z "$(ldd "$tmp/static/prove_zkey" | grep libcuzk)"
fi

zkey=$fix/chain_bls12381.zkey
wtns=$fix/chain_bls12381.wtns
vk=$fix/verification_key_bls12381.json
check "prove_zkey (shared)" 0 "$tmp/shared/prove_zkey" "$zkey" "$wtns" "$tmp/p1.json" \
    "$tmp/u1.json" "$vk"
grep -q '^OK' "$tmp/out" || { echo "FAIL: prove_zkey said no OK"; failed=$((failed + 1)); }
check "prove_zkey (static)" 0 "$tmp/static/prove_zkey" "$zkey" "$wtns" "$tmp/p2.json" \
    "$tmp/u2.json" "$vk"
check "prove_assignments, 3 partitions" 0 "$tmp/shared/prove_assignments" "$zkey" "$wtns" \
    "$tmp/p3.json" "$tmp/u3.json" 3
grep -q '^OK: 3 partition proofs' "$tmp/out" ||
    { echo "FAIL: prove_assignments said no OK"; failed=$((failed + 1)); }
# Wrong input: a witness of another circuit, named in the message.
check "prove_zkey refuses another circuit's witness" 1 "$tmp/shared/prove_zkey" "$zkey" \
    "$fix/poseidon_bls12381.wtns" "$tmp/p4.json" "$tmp/u4.json"
grep -q 'poseidon_bls12381.wtns' "$tmp/out" ||
    { echo "FAIL: the witness is not named"; failed=$((failed + 1)); }
check "prove_assignments refuses another circuit's witness" 1 \
    "$tmp/shared/prove_assignments" "$zkey" "$fix/poseidon_bls12381.wtns" "$tmp/p5.json" \
    "$tmp/u5.json"

skipped=0
if command -v node >/dev/null && [ -f "$snarkjs_cli" ]; then
    for i in 1 2 3; do
        check "snarkjs accepts proof $i" 0 node "$snarkjs_cli" groth16 verify "$vk" \
            "$tmp/u$i.json" "$tmp/p$i.json"
    done
    sed -e '0,/"[0-9]*"/s//"12345"/' "$tmp/u1.json" >"$tmp/u1_bad.json"
    check "snarkjs refuses the proof for another input" 1 node "$snarkjs_cli" groth16 verify \
        "$vk" "$tmp/u1_bad.json" "$tmp/p1.json"
else
    echo "note: node or snarkjs missing (tools/fixtures/node_modules): snarkjs checks skipped"
    skipped=1
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ] || exit 1
[ $skipped -eq 0 ] || exit 77
exit 0
