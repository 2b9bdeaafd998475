# Shared by tests/cli/test_*.sh that count checks of cuzk's exit codes and
# messages: a scratch folder ($tmp, removed at exit), the counts, check,
# said and finish. The sourcing script sets cuzk first.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
# check NAME WANT_EXIT COMMAND...: stdout and stderr go to $tmp/out.
check() {
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
# said WORDS...: the last check's output holds every one of them.
said() {
    for w in "$@"; do
        grep -qF -- "$w" "$tmp/out" || {
            echo "FAIL: '$w' missing from: $(cat "$tmp/out")"
            failed=$((failed + 1))
        }
    done
}
# The counts, and the exit status of the test.
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
