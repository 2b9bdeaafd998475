# The common part of test_cli_zkey_setup.sh and test_cli_zkey_setup_bn254.sh,
# sourced by both after they set cuzk (the binary): the fixtures' folder,
# snarkjs when node has it, a temporary folder, the counters, and the
# checks (check, snarkjs, said, same_values, changed_public).
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
said() { # name, pattern: the last command's output matches
    if grep -q -- "$2" "$tmp/out"; then
        passed=$((passed + 1))
    else
        fail "$1: no '$2' in the output"
        sed 's/^/    /' "$tmp/out"
    fi
}
same_values() { # two JSON arrays of decimal strings, whitespace ignored
    [ -f "$1" ] && [ -f "$2" ] && [ "$(tr -d ' \t\r\n' <"$1")" = "$(tr -d ' \t\r\n' <"$2")" ]
}
# changed_public IN OUT: the last entry replaced by another value.
changed_public() {
    awk 'BEGIN { n = 0 } /"[0-9]+"/ { n++ } { line[NR] = $0 } END {
        k = 0
        for (i = 1; i <= NR; i++) {
            s = line[i]
            if (s ~ /"[0-9]+"/ && ++k == n) {
                if (s ~ /"1"/) sub(/"1"/, "\"2\"", s); else sub(/"[0-9]+"/, "\"1\"", s)
            }
            print s
        }
    }' "$1" >"$2"
    cmp -s "$1" "$2" && fail "could not change $1"
}
