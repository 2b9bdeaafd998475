#!/usr/bin/env bash
# make_chain_circuit's files judged by snarkjs: `snarkjs r1cs info` reads the
# counts the generator reports, `snarkjs wtns check` accepts every witness
# and refuses a tampered one. When this cuzk has `cuzk setup --r1cs`, the
# circuit also gets a development key, cuzk proves the witness list, and
# `snarkjs groth16 verify` accepts every proof, whose public.json holds the
# witness's output.
# Usage: test_chain_circuit.sh path/to/cuzk (make_chain_circuit is built
# beside it).
set -u
# Absolute: the proofs are made from another folder.
cuzk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
gen=$(dirname "$cuzk")/make_chain_circuit
root=$(cd "$(dirname "$0")/../.." && pwd)
snarkjs_cli=$root/tools/fixtures/node_modules/snarkjs/build/cli.cjs
if ! command -v node >/dev/null; then
    echo "SKIP: node is not installed, so snarkjs cannot judge the files here"
    exit 77
fi
if [ ! -f "$snarkjs_cli" ]; then
    echo "SKIP: snarkjs is not installed in tools/fixtures/node_modules (scripts/test.sh installs it)"
    exit 77
fi
if [ ! -x "$gen" ]; then
    echo "FAIL: no make_chain_circuit beside $cuzk"
    exit 1
fi
snarkjs() { node "$snarkjs_cli" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}
check() { # name, expected exit code, command...
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>&1
    local got=$?
    if [ "$got" -eq "$want" ]; then
        ok
    else
        bad "$name: exit $got, expected $want"
        sed 's/^/    /' "$tmp/out"
    fi
}
json_field() { # file, key: a number field of a one-line JSON object
    sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p" "$1"
}

d=$tmp/chain
n=3
check "make_chain_circuit" 0 "$gen" --log-constraints 10 --out "$d" --witnesses $n
cp "$tmp/out" "$tmp/gen.json"
constraints=$(json_field "$tmp/gen.json" constraints)
wires=$(json_field "$tmp/gen.json" wires)
if [ -n "$constraints" ] && [ "$constraints" -le $((1024 - 2)) ] && [ "$constraints" -gt 512 ]; then
    ok
else
    bad "constraints '$constraints' not in (512, 1022]"
fi

check "snarkjs r1cs info" 0 snarkjs r1cs info "$d/chain.r1cs"
info=$(sed 's/\x1b\[[0-9;]*m//g' "$tmp/out")
for want in "Curve: bls12-381" "# of Wires: $wires" "# of Constraints: $constraints" \
    "# of Private Inputs: 1" "# of Public Inputs: 0" "# of Outputs: 1"; do
    if grep -qF "$want" <<<"$info"; then ok; else bad "snarkjs r1cs info does not say '$want'"; fi
done

for i in $(seq 0 $((n - 1))); do
    check "snarkjs wtns check chain-$i.wtns" 0 snarkjs wtns check "$d/chain.r1cs" "$d/chain-$i.wtns"
done
cmp -s "$d/chain-0.wtns" "$d/chain-1.wtns" && bad "witnesses 0 and 1 are the same"
# One internal value changed: snarkjs must find the broken constraint.
cp "$d/chain-0.wtns" "$tmp/bad.wtns"
off=$((12 + 12 + 40 + 12 + 32 * (wires / 2)))
byte=$(od -An -tu1 -j "$off" -N1 "$tmp/bad.wtns" | tr -d ' ')
printf '%b' "\\0$(printf '%03o' $(((byte + 1) % 128)))" |
    dd of="$tmp/bad.wtns" bs=1 seek="$off" conv=notrunc status=none
cmp -s "$d/chain-0.wtns" "$tmp/bad.wtns" && bad "could not alter the witness"
check "snarkjs refuses a tampered witness" 1 snarkjs wtns check "$d/chain.r1cs" "$tmp/bad.wtns"

lines=$(wc -l <"$d/witnesses.txt")
if [ "$lines" -eq $n ]; then ok; else bad "witnesses.txt has $lines lines, expected $n"; fi
read -r w0 p0 q0 <"$d/witnesses.txt"
if [ "$w0" = "$d/chain-0.wtns" ] && [ "$p0" = "$d/proof-0.json" ] && [ "$q0" = "$d/public-0.json" ]; then
    ok
else
    bad "witnesses.txt line 1 is '$w0 $p0 $q0'"
fi

if "$cuzk" setup --help 2>&1 | grep -q -- --r1cs; then
    check "cuzk setup --r1cs" 0 "$cuzk" setup --r1cs "$d/chain.r1cs" --zkey "$d/chain.zkey" --quiet
    check "snarkjs exports the key's verification key" 0 snarkjs zkey export verificationkey \
        "$d/chain.zkey" "$d/vk.json"
    # From another folder: the list's paths are absolute.
    check "cuzk prove --witness-list" 0 bash -c "cd / && '$cuzk' prove \
        --witness-list '$d/witnesses.txt' '$d/chain.zkey'"
    for i in $(seq 0 $((n - 1))); do
        check "snarkjs verifies proof $i" 0 snarkjs groth16 verify "$d/vk.json" \
            "$d/public-$i.json" "$d/proof-$i.json"
        check "snarkjs wtns export json $i" 0 snarkjs wtns export json "$d/chain-$i.wtns" \
            "$tmp/w$i.json"
        out=$(tr -d ' \n' <"$tmp/w$i.json" | sed -n 's/^\["1","\([0-9]*\)".*/\1/p')
        pub=$(tr -d ' \n' <"$d/public-$i.json")
        if [ -n "$out" ] && [ "$pub" = "[\"$out\"]" ]; then
            ok
        else
            bad "public-$i.json is $pub, the witness's output $out"
        fi
    done
else
    echo "note: this cuzk has no 'setup --r1cs'; the files are checked, no proof made"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
