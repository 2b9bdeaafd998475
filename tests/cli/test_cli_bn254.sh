#!/usr/bin/env bash
# BN254 (circom's default curve, snarkjs's "bn128") at the command line:
# cuzk verify accepts snarkjs's proofs of the chain fixture and refuses a
# tampered public input, proofs and keys of two curves are refused naming
# both files, and (with Node.js) a proof snarkjs makes now passes cuzk
# verify while snarkjs and cuzk both refuse it with another public input.
# cuzk prove proves BN254 keys (fixed r and s give one proof), refuses a
# witness of the other curve naming both files, and a key whose prime is
# neither curve's naming the file and the prime (test_cli_interop_bn254.sh
# runs snarkjs on cuzk's BN254 proofs).
# Usage: test_cli_bn254.sh path/to/cuzk
set -u
cuzk=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
fix=$root/tests/fixtures/circom
snarkjs_cli=$root/tools/fixtures/node_modules/snarkjs/build/cli.cjs
. "$root/tests/cli/lib.sh"
tamper() { # public.json with its first value changed
    sed -e '0,/"[0-9]*"/s//"12345"/' "$1" >"$2"
    cmp -s "$1" "$2" && { echo "FAIL: could not alter $1"; failed=$((failed + 1)); }
}

vk=$fix/verification_key_bn128.json
check "snarkjs's bn128 proof" 0 "$cuzk" verify "$vk" "$fix/public_bn128.json" "$fix/proof_bn128.json"
said "OK"
tamper "$fix/public_bn128.json" "$tmp/public_bad.json"
check "a tampered public input" 1 "$cuzk" verify "$vk" "$tmp/public_bad.json" "$fix/proof_bn128.json"
said "INVALID"
check "a bn128 proof, a bls12381 key" 3 "$cuzk" verify "$fix/verification_key_bls12381.json" \
    "$fix/public_bn128.json" "$fix/proof_bn128.json"
said proof_bn128.json verification_key_bls12381.json "different curves"
check "a bls12381 proof, a bn128 key" 3 "$cuzk" verify "$vk" "$fix/public_bls12381.json" \
    "$fix/proof_bls12381.json"
said proof_bls12381.json verification_key_bn128.json "different curves"
# A proof without "curve" (rapidsnark's form) is read as the key's curve.
sed -e '/"curve"/d' -e 's/"protocol": "groth16",/"protocol": "groth16"/' "$fix/proof_bn128.json" >"$tmp/nocurve.json"
check "a bn128 proof without curve" 0 "$cuzk" verify "$vk" "$fix/public_bn128.json" "$tmp/nocurve.json"
# Proving: the curve comes from the key.
check "bn128 prove" 0 "$cuzk" prove --quiet --backend cpu "$fix/chain_bn128.zkey" \
    "$fix/chain_bn128.wtns" "$tmp/p.json" "$tmp/q.json"
check "cuzk accepts its bn128 proof" 0 "$cuzk" verify "$vk" "$tmp/q.json" "$tmp/p.json"
grep -q '"curve": "bn128"' "$tmp/p.json" || { echo "FAIL: no bn128 curve in the proof"; failed=$((failed + 1)); }
cmp -s "$tmp/q.json" "$fix/public_bn128.json" || {
    echo "FAIL: public.json differs from snarkjs's"
    failed=$((failed + 1))
}
tamper "$tmp/q.json" "$tmp/q_bad.json"
check "cuzk refuses its proof, input changed" 1 "$cuzk" verify "$vk" "$tmp/q_bad.json" "$tmp/p.json"
# Fixed r and s (tests only): the same proof twice; a value of the curve
# (below BN254's r, above nothing of BLS12-381's) is taken.
for k in 1 2; do
    check "fixed blinding $k" 0 "$cuzk" prove --quiet --fixed-blinding 7,21888242871839275222246405745257275088548364400416034343698204186575808495616 \
        "$fix/chain_bn128.zkey" "$fix/chain_bn128.wtns" "$tmp/f$k.json" "$tmp/g$k.json"
done
cmp -s "$tmp/f1.json" "$tmp/f2.json" || { echo "FAIL: fixed blinding, two proofs"; failed=$((failed + 1)); }
check "fixed blinding's proof verifies" 0 "$cuzk" verify "$vk" "$tmp/g1.json" "$tmp/f1.json"
check "blinding above bn254's r" 2 "$cuzk" prove --quiet --fixed-blinding 7,21888242871839275222246405745257275088548364400416034343698204186575808495617 \
    "$fix/chain_bn128.zkey" "$fix/chain_bn128.wtns" "$tmp/f3.json" "$tmp/g3.json"
# Mixed curves: never a proof.
check "a bn128 witness, a bls12381 key" 3 "$cuzk" prove "$fix/chain_bls12381.zkey" \
    "$fix/chain_bn128.wtns" "$tmp/m.json" "$tmp/n.json"
said chain_bn128.wtns chain_bls12381.zkey bn128 bls12381 "different curves"
check "a bls12381 witness, a bn128 key" 3 "$cuzk" prove "$fix/chain_bn128.zkey" \
    "$fix/chain_bls12381.wtns" "$tmp/m.json" "$tmp/n.json"
said chain_bls12381.wtns chain_bn128.zkey "different curves"
[ ! -e "$tmp/m.json" ] || { echo "FAIL: a mixed-curve proof was written"; failed=$((failed + 1)); }
# A key whose base field is neither curve's: the lowest byte of q (section 2
# starts at byte 28 after the 4-byte protocol section; q at byte 44) changed.
cp "$fix/chain_bn128.zkey" "$tmp/odd.zkey"
[ "$(od -An -tu4 -j 12 -N 20 "$tmp/odd.zkey" | tr -s ' \n' ' ' | sed 's/ *$//')" = " 1 4 0 1 2" ] ||
    { echo "FAIL: section 2 of chain_bn128.zkey is not where this test expects it"; failed=$((failed + 1)); }
printf '\106' | dd of="$tmp/odd.zkey" bs=1 seek=44 conv=notrunc 2>/dev/null
check "a zkey of another prime" 3 "$cuzk" prove "$tmp/odd.zkey" "$fix/chain_bn128.wtns" \
    "$tmp/m.json" "$tmp/n.json"
said odd.zkey 30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd46

if ! command -v node >/dev/null || [ ! -f "$snarkjs_cli" ]; then
    echo "SKIP (live snarkjs part): node or snarkjs is not installed (cd tools/fixtures && npm ci)"
else
    check "snarkjs proves" 0 node "$snarkjs_cli" groth16 prove "$fix/chain_bn128.zkey" \
        "$fix/chain_bn128.wtns" "$tmp/proof.json" "$tmp/public.json"
    check "cuzk accepts snarkjs's new proof" 0 "$cuzk" verify "$vk" "$tmp/public.json" "$tmp/proof.json"
    tamper "$tmp/public.json" "$tmp/public_bad2.json"
    check "snarkjs refuses a wrong input" 1 node "$snarkjs_cli" groth16 verify "$vk" \
        "$tmp/public_bad2.json" "$tmp/proof.json"
    check "cuzk refuses a wrong input" 1 "$cuzk" verify "$vk" "$tmp/public_bad2.json" "$tmp/proof.json"
fi
finish
