# The common part of the CLI tests judged by snarkjs (interop_lib.sh,
# zkey_setup_lib.sh), sourced after the test sets cuzk: the repository root,
# the circom fixtures' folder, snarkjs when node has it (have_snarkjs), a
# scratch folder ($tmp, removed at exit), the counts (passed, failed,
# skipped), and fail, check, snarkjs (skipped without node) and same_values.
# shellcheck shell=bash
root=$(cd "$(dirname "$0")/../.." && pwd)
fix=$root/tests/fixtures/circom
snarkjs_cli=$root/tools/fixtures/node_modules/snarkjs/build/cli.cjs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
skipped=0
have_snarkjs=0
command -v node >/dev/null && [ -f "$snarkjs_cli" ] && have_snarkjs=1

fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}
check() { # name, expected exit code, command...
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>&1
    local got=$?
    if [ "$got" -eq "$want" ]; then
        passed=$((passed + 1))
    else
        fail "$name: exit $got, expected $want"
        sed 's/^/    /' "$tmp/out"
    fi
}
snarkjs() { # name, expected exit code, snarkjs arguments...
    local name=$1 want=$2
    shift 2
    if [ $have_snarkjs -eq 1 ]; then
        check "$name" "$want" node "$snarkjs_cli" "$@"
    else
        skipped=$((skipped + 1))
    fi
}
same_values() { # two JSON arrays of decimal strings, whitespace ignored
    [ -f "$1" ] && [ -f "$2" ] && [ "$(tr -d ' \t\r\n' <"$1")" = "$(tr -d ' \t\r\n' <"$2")" ]
}
