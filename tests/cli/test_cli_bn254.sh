#!/usr/bin/env bash
# BN254 (circom's default curve, snarkjs's "bn128") at the command line:
# cuzk verify accepts snarkjs's proofs of the chain fixture and refuses a
# tampered public input, proofs and keys of two curves are refused naming
# both files, and (with Node.js) a proof snarkjs makes now passes cuzk
# verify while snarkjs and cuzk both refuse it with another public input.
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
# Proving on BN254 is not built yet: refused, never a wrong proof.
check "bn128 prove refused" 3 "$cuzk" prove "$fix/chain_bn128.zkey" "$fix/chain_bn128.wtns" \
    "$tmp/p.json" "$tmp/q.json"
said chain_bn128.zkey bn128
[ ! -e "$tmp/p.json" ] || { echo "FAIL: a bn128 proof was written"; failed=$((failed + 1)); }

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
