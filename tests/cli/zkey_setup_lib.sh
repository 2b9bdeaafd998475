# The common part of test_cli_zkey_setup.sh and test_cli_zkey_setup_bn254.sh,
# sourced by both after they set cuzk (the binary): snarkjs_checks.sh's
# folders, counts and checks, and said and changed_public (the last entry).
# shellcheck shell=bash
. "$(dirname "$0")/snarkjs_checks.sh"
said() { # name, pattern: the last command's output matches
    if grep -q -- "$2" "$tmp/out"; then
        passed=$((passed + 1))
    else
        fail "$1: no '$2' in the output"
        sed 's/^/    /' "$tmp/out"
    fi
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
