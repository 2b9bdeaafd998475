#!/usr/bin/env bash
# cuzk prove / verify on the circom fixture, checked by snarkjs itself:
# our proof must pass `snarkjs groth16 verify`, a tampered one must fail
# there and here, and bad inputs must give the documented exit codes.
# Usage: test_cli_circom.sh path/to/cuzk
set -u
cuzk=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
fix=$root/tests/fixtures/circom
snarkjs_cli=$root/tools/fixtures/node_modules/snarkjs/build/cli.cjs
. "$root/tests/cli/lib.sh"
if ! command -v node >/dev/null; then
    # A machine without Node.js (the GPU machine) cannot run the judge.
    echo "SKIP: node is not installed, so snarkjs cannot check the proofs here"
    exit 77
fi
if [ ! -f "$snarkjs_cli" ]; then
    echo "FAIL: snarkjs is not installed (scripts/test.sh installs it into tools/fixtures)"
    exit 1
fi

check "prove" 0 "$cuzk" prove "$fix/chain_bls12381.zkey" "$fix/chain_bls12381.wtns" \
    "$tmp/proof.json" "$tmp/public.json"
check "snarkjs accepts our proof" 0 node "$snarkjs_cli" groth16 verify \
    "$fix/verification_key_bls12381.json" "$tmp/public.json" "$tmp/proof.json"
check "cuzk accepts our proof" 0 "$cuzk" verify "$fix/verification_key_bls12381.json" \
    "$tmp/public.json" "$tmp/proof.json"
check "cuzk accepts snarkjs's proof" 0 "$cuzk" verify "$fix/verification_key_bls12381.json" \
    "$fix/public_bls12381.json" "$fix/proof_bls12381.json"
# The same proof against other public inputs: both verifiers must refuse it.
sed -e '0,/"[0-9]*"/s//"12345"/' "$tmp/public.json" >"$tmp/public_bad.json"
if cmp -s "$tmp/public.json" "$tmp/public_bad.json"; then
    echo "FAIL: could not alter public.json"
    failed=$((failed + 1))
fi
check "snarkjs refuses a wrong input" 1 node "$snarkjs_cli" groth16 verify \
    "$fix/verification_key_bls12381.json" "$tmp/public_bad.json" "$tmp/proof.json"
check "cuzk refuses a wrong input" 1 "$cuzk" verify "$fix/verification_key_bls12381.json" \
    "$tmp/public_bad.json" "$tmp/proof.json"
# Bad inputs: exit 3 with a message naming the file. (BN254 keys are
# proved: test_cli_bn254.sh.)
check "missing witness" 3 "$cuzk" prove "$fix/chain_bls12381.zkey" "$tmp/none.wtns" \
    "$tmp/p.json" "$tmp/q.json"
grep -q "none.wtns" "$tmp/out" || { echo "FAIL: file not named"; failed=$((failed + 1)); }
head -c 1000 "$fix/chain_bls12381.zkey" >"$tmp/short.zkey"
check "truncated key" 3 "$cuzk" prove "$tmp/short.zkey" "$fix/chain_bls12381.wtns" \
    "$tmp/p.json" "$tmp/q.json"
check "witness of another circuit" 3 "$cuzk" prove "$fix/chain_bls12381.zkey" \
    "$fix/manypub_bls12381.wtns" "$tmp/p.json" "$tmp/q.json"
said "different circuits"
# The curve comes from the files; files of two curves never make a proof.
rm -f "$tmp/p.json"
said_both() { said "$@" bn128 bls12381 "different curves"; }
check "bn128 witness, bls12381 key" 3 "$cuzk" prove "$fix/chain_bls12381.zkey" \
    "$fix/chain_bn128.wtns" "$tmp/p.json" "$tmp/q.json"
said_both chain_bn128.wtns chain_bls12381.zkey
check "bls12381 witness, bn128 key" 3 "$cuzk" prove "$fix/chain_bn128.zkey" \
    "$fix/chain_bls12381.wtns" "$tmp/p.json" "$tmp/q.json"
said_both chain_bls12381.wtns chain_bn128.zkey
check "a bn128 witness second" 3 "$cuzk" prove "$fix/chain_bls12381.zkey" \
    "$fix/chain_bls12381.wtns" "$tmp/p.json" "$tmp/q.json" \
    "$fix/chain_bn128.wtns" "$tmp/p2.json" "$tmp/q2.json"
said_both chain_bn128.wtns chain_bls12381.zkey
[ ! -e "$tmp/p.json" ] || { echo "FAIL: a proof was written beside a mixed-curve witness"; failed=$((failed + 1)); }
# A prime of neither curve (r's low byte 01 -> 03; the wtns header's prime
# starts at byte 28: 12 bytes of file header, 12 of section header, n8).
cp "$fix/chain_bls12381.wtns" "$tmp/odd.wtns"
printf '\003' | dd of="$tmp/odd.wtns" bs=1 seek=28 conv=notrunc status=none
check "unknown prime" 3 "$cuzk" prove "$fix/chain_bls12381.zkey" "$tmp/odd.wtns" \
    "$tmp/p.json" "$tmp/q.json"
said odd.wtns 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000003 \
    "neither BN254's nor BLS12-381's"
echo '{"pi_a": [' >"$tmp/broken.json"
check "malformed proof.json" 3 "$cuzk" verify "$fix/verification_key_bls12381.json" \
    "$tmp/public.json" "$tmp/broken.json"
check "usage" 2 "$cuzk" prove "$fix/chain_bls12381.zkey"
finish
