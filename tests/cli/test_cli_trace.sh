#!/usr/bin/env bash
# cuzk trace through the binary: the summary names the planted copy under
# the planted dip, every output is written and parses (JSON, XML), malformed
# lines are reported with their numbers (refused with --strict), the exit
# codes (0 done, 1 an output not written, 2 usage, 3 unreadable or, with
# --strict, malformed log), and a generated log of 10^5 spans.
# Usage: test_cli_trace.sh path/to/cuzk
set -u
cuzk=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
fix=$root/tests/fixtures/trace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
check() { # name, expected exit code, command...
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name: exit $got, expected $want"
        sed 's/^/    /' "$tmp/out" "$tmp/err"
    fi
}
expect() { # name, file, fixed string that must be in it
    if grep -qF -- "$3" "$2"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $1: '$3' not in $(basename "$2")"
        sed 's/^/    /' "$2" | head -40
    fi
}

# The summary (the default output).
check "summary" 0 "$cuzk" trace "$fix/dip.jsonl"
expect "dip names the copy" "$tmp/out" "download (copy) job 7 partition 3 on dev0-w1: 30.000 ms"
expect "busy %" "$tmp/out" "gpu0: busy 86.0 %"
check "gaps" 0 "$cuzk" trace "$fix/gaps.jsonl"
expect "three gaps" "$tmp/out" "idle gaps over 5 ms: 3"
expect "failed job" "$tmp/out" "job 2 (porep-32g) failed at 0.112 s: out of memory on device 0"
check "--gap-ms" 0 "$cuzk" trace "$fix/gaps.jsonl" --gap-ms 2
expect "four gaps" "$tmp/out" "idle gaps over 2 ms: 4"
check "--dip-threshold" 0 "$cuzk" trace "$fix/dip.jsonl" --dip-threshold 10
expect "no dip" "$tmp/out" "sm_util dips below 10: 0"

# Every output.
check "all outputs" 0 "$cuzk" trace "$fix/dip.jsonl" --perfetto "$tmp/p.json" \
    --svg "$tmp/t.svg" --html "$tmp/t.html" --json-summary "$tmp/s.json" --summary
expect "--summary with outputs" "$tmp/out" "sm_util dips below 50: 1"
for f in p.json t.svg t.html s.json; do
    if [ -s "$tmp/$f" ]; then passed=$((passed + 1)); else
        failed=$((failed + 1))
        echo "FAIL: $f not written"
    fi
done
expect "perfetto events" "$tmp/p.json" '"traceEvents":['
expect "svg root" "$tmp/t.svg" '<svg xmlns="http://www.w3.org/2000/svg"'
expect "html embeds the svg" "$tmp/t.html" '<svg xmlns="http://www.w3.org/2000/svg"'
if grep -qiE '<script|href=|src=' "$tmp/t.svg" "$tmp/t.html"; then
    failed=$((failed + 1))
    echo "FAIL: the timeline refers to something outside itself"
else
    passed=$((passed + 1))
fi
# python3 and xmllint are installed by scripts/install-deps.sh: without
# them these checks fail rather than vanish.
if ! command -v python3 >/dev/null; then
    failed=$((failed + 1))
    echo "FAIL: python3 is missing: the Perfetto and JSON checks cannot run (scripts/install-deps.sh)"
else
    check "perfetto parses" 0 python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
x = [e for e in ev if e["ph"] == "X"]
assert len(x) == 4, len(x)
for e in x:
    for k in ("name", "cat", "pid", "tid", "ts", "dur", "args"):
        assert k in e, k
    for k in ("job", "partition", "circuit", "bytes"):
        assert k in e["args"], k
assert any(e["ph"] == "C" for e in ev)
assert any(e["ph"] == "M" and e["name"] == "thread_name" for e in ev)
' "$tmp/p.json"
    check "json summary parses" 0 python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
dip = d["devices"][0]["dips"][0]
assert dip["overlaps"][0]["phase"] == "download", dip
assert d["jobs"]["done"] == 1
' "$tmp/s.json"
fi
if ! command -v xmllint >/dev/null; then
    failed=$((failed + 1))
    echo "FAIL: xmllint is missing: the SVG and HTML checks cannot run (scripts/install-deps.sh)"
else
    check "svg is XML" 0 xmllint --noout "$tmp/t.svg"
    check "html is XML too" 0 xmllint --noout "$tmp/t.html"
fi
check "json summary on stdout" 0 "$cuzk" trace "$fix/gaps.jsonl" --json-summary -
expect "stdout json" "$tmp/out" '"by_cause_ms"'

# Malformed lines: reported with their numbers and skipped, or refused.
check "malformed skipped" 0 "$cuzk" trace "$fix/malformed.jsonl"
expect "line 3 reported" "$tmp/err" "malformed.jsonl:3: not JSON"
expect "line 7 reported" "$tmp/err" "malformed.jsonl:7: span ends before it starts"
expect "count in summary" "$tmp/out" "8 malformed lines skipped"
check "malformed --strict" 3 "$cuzk" trace "$fix/malformed.jsonl" --strict
expect "strict names the line" "$tmp/err" "line 3:"
check "unknown types and fields" 0 "$cuzk" trace "$fix/unknown.jsonl" --strict
check "empty" 0 "$cuzk" trace "$fix/empty.jsonl" --svg "$tmp/e.svg"
check "empty --strict" 3 "$cuzk" trace "$fix/empty.jsonl" --strict
check "missing log" 3 "$cuzk" trace "$tmp/none.jsonl"
expect "missing log named" "$tmp/err" "none.jsonl"
check "a directory" 3 "$cuzk" trace "$tmp"

# Usage and output errors.
check "no log" 2 "$cuzk" trace
check "unknown option" 2 "$cuzk" trace "$fix/dip.jsonl" --frobnicate
check "bad --gap-ms" 2 "$cuzk" trace "$fix/dip.jsonl" --gap-ms fast
check "negative --gap-ms" 2 "$cuzk" trace "$fix/dip.jsonl" --gap-ms -1
check "missing value" 2 "$cuzk" trace "$fix/dip.jsonl" --svg
check "narrow --width" 2 "$cuzk" trace "$fix/dip.jsonl" --width 10
check "two logs" 2 "$cuzk" trace "$fix/dip.jsonl" "$fix/gaps.jsonl"
check "help" 0 "$cuzk" trace --help
expect "help text" "$tmp/out" "usage: cuzk trace LOG.jsonl"
check "unwritable output" 1 "$cuzk" trace "$fix/dip.jsonl" --svg "$tmp/no/such/dir/t.svg"
expect "output named" "$tmp/err" "t.svg"

# 10^5 spans: 8 per partition on 4 devices, and their counters.
awk 'BEGIN {
    print "{\"type\":\"meta\",\"clock\":\"monotonic\",\"t0_ns\":0,\"pid\":1,\"host\":\"h\",\"version\":\"v\"}"
    split("upload h msm_h msm_l msm_a msm_b_g1 msm_b_g2 download", ph, " ")
    for (p = 0; p < 12500; p++) {
        d = p % 4; t = int(p / 4) * 5000000
        for (k = 1; k <= 8; k++) {
            cat = (k == 1 || k == 8) ? "copy" : "gpu"
            printf "{\"type\":\"span\",\"name\":\"%s\",\"cat\":\"%s\",\"job\":%d,\"partition\":%d,\"circuit\":\"c\",\"worker\":\"dev%d-w0\",\"device\":%d,\"start_ns\":%d,\"end_ns\":%d,\"bytes\":0}\n", ph[k], cat, int(p / 10), p % 10, d, d, t + (k - 1) * 500000, t + k * 500000
        }
        printf "{\"type\":\"counter\",\"name\":\"sm_util\",\"device\":%d,\"ts_ns\":%d,\"value\":%d}\n", d, t, 50 + p % 50
    }
}' >"$tmp/big.jsonl"
start=$(date +%s)
check "10^5 spans" 0 "$cuzk" trace "$tmp/big.jsonl" --perfetto "$tmp/big.json" \
    --svg "$tmp/big.svg" --html "$tmp/big.html" --summary
elapsed=$(($(date +%s) - start))
expect "10^5 spans read" "$tmp/out" "100000 spans"
echo "10^5 spans: ${elapsed} s; SVG $(wc -c <"$tmp/big.svg") bytes"
if [ "$(wc -c <"$tmp/big.svg")" -gt 8000000 ]; then
    failed=$((failed + 1))
    echo "FAIL: the SVG of 10^5 spans is over 8 MB"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
