#!/usr/bin/env bash
# cuzk setup / prove / verify / bench on the built-in circuit, end to end
# through the binary: proofs of several partitions verify, the wrong public
# inputs or a damaged file are refused, and the documented exit codes hold.
# Usage: test_cli_builtin.sh path/to/cuzk
set -u
cuzk=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUZK_CACHE_DIR=$tmp/cache
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
expect_text() { # name, text
    if grep -q -- "$2" "$tmp/out"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $1: output lacks '$2'"
        sed 's/^/    /' "$tmp/out"
    fi
}
K=(--log-constraints 12)

check "prove without parameters" 3 "$cuzk" prove --builtin "${K[@]}" --out "$tmp/p.bin"
expect_text "names the setup command" "cuzk setup"
check "setup" 0 "$cuzk" setup "${K[@]}" --params "$tmp/k12.params"
expect_text "setup says development" "not for production"
check "prove 3 partitions" 0 "$cuzk" prove --builtin "${K[@]}" --params "$tmp/k12.params" \
    --partitions 3 --seed 7 --out "$tmp/p.bin"
size=$(stat -c %s "$tmp/p.bin")
if [ "$size" -eq 576 ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: proof file is $size bytes, expected 3 x 192"; fi
check "verify" 0 "$cuzk" verify --builtin "${K[@]}" --params "$tmp/k12.params" --seed 7 "$tmp/p.bin"
expect_text "verify says OK" "OK: 3 partition proofs are valid"
check "verify with other inputs" 1 "$cuzk" verify --builtin "${K[@]}" --params "$tmp/k12.params" \
    --seed 8 "$tmp/p.bin"
expect_text "verify says INVALID" "INVALID"
# one partition's proof replaced by another's: only that one fails
dd if="$tmp/p.bin" of="$tmp/swap.bin" bs=192 count=1 2>/dev/null
dd if="$tmp/p.bin" bs=192 count=2 2>/dev/null >>"$tmp/swap.bin"
check "verify a swapped partition" 1 "$cuzk" verify --builtin "${K[@]}" \
    --params "$tmp/k12.params" --seed 7 "$tmp/swap.bin"
expect_text "names the bad partitions" "partition 1 2 do not verify"
head -c 500 "$tmp/p.bin" >"$tmp/short.bin"
check "truncated proof file" 3 "$cuzk" verify --builtin "${K[@]}" --params "$tmp/k12.params" \
    --seed 7 "$tmp/short.bin"
printf '\xff' | dd of="$tmp/p.bin" bs=1 seek=0 conv=notrunc 2>/dev/null
check "damaged proof" 3 "$cuzk" verify --builtin "${K[@]}" --params "$tmp/k12.params" \
    --seed 7 "$tmp/p.bin"
check "parameters of another size" 3 "$cuzk" prove --builtin --log-constraints 13 \
    --params "$tmp/k12.params" --out "$tmp/p13.bin"
expect_text "says it does not fit" "does not fit"
head -c 3000 "$tmp/k12.params" >"$tmp/bad.params"
check "truncated parameters" 3 "$cuzk" prove --builtin "${K[@]}" --params "$tmp/bad.params" \
    --out "$tmp/p.bin"
check "bad option value" 2 "$cuzk" prove --builtin --log-constraints 99 --out "$tmp/p.bin"
check "bench makes and caches parameters" 0 "$cuzk" bench "${K[@]}" --jobs 1 --partitions 2
expect_text "bench made parameters" "made and cached"
check "bench again loads them" 0 "$cuzk" bench "${K[@]}" --jobs 1 --partitions 2
expect_text "bench loaded parameters" "loaded from cache"
"$cuzk" bench "${K[@]}" --jobs 1 --partitions 2 2>/dev/null >"$tmp/bench.jsonl"
# Every proof line says it was verified: a missing field is a failure too.
if [ "$(grep -c '"bench":"prove"' "$tmp/bench.jsonl")" -eq 2 ] &&
    [ "$(grep '"bench":"prove"' "$tmp/bench.jsonl" | grep -c '"verified":true')" -eq 2 ] &&
    grep -q '"bench":"prove_summary"' "$tmp/bench.jsonl"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "FAIL: bench JSON lines"
    cat "$tmp/bench.jsonl"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
