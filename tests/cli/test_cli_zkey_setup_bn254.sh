#!/usr/bin/env bash
# cuzk setup --r1cs --zkey on the BN254 circom fixtures (chain, poseidon,
# manypub compiled for bn128 in tests/fixtures/circom): the key's curve is
# the .r1cs file's, with no flag.
#  - without snarkjs: the setup says it made a bn128 key; `cuzk prove` with
#    it writes a bn128 proof (checked by one pairing before it is written)
#    and the public values snarkjs's fixture lists for the same witness; a
#    witness that breaks a constraint is refused; --backend auto and cpu
#    make the key, --backend cuda is refused (the GPU's fixed-base products
#    are BLS12-381's);
#  - with snarkjs: `snarkjs zkey export verificationkey` reads the key (a
#    bn128 vk); cuzk's proof passes `snarkjs groth16 verify` and `cuzk
#    verify`; `snarkjs groth16 prove` with the key gives a proof that both
#    accept, with cuzk's public values; a changed public value is refused by
#    both verifiers; `snarkjs zkey contribute` on the key still proves.
# Without node or snarkjs the cuzk-only checks run and the test reports a
# skip (exit 77), as test_cli_zkey_setup.sh does for BLS12-381.
# Usage: test_cli_zkey_setup_bn254.sh path/to/cuzk
set -u
cuzk=$1
. "$(dirname "$0")/zkey_setup_lib.sh"
# The public.json of snarkjs's fixture proof of circuit $1.
fixture_public() {
    if [ "$1" = chain ]; then echo "$fix/public_bn128.json"; else echo "$fix/$1_public_bn128.json"; fi
}

for c in chain poseidon manypub; do
    r1cs=$fix/${c}_bn128.r1cs
    wtns=$fix/${c}_bn128.wtns
    d=$tmp/$c
    mkdir -p "$d"
    check "$c: setup" 0 "$cuzk" setup --r1cs "$r1cs" --zkey "$d/k.zkey" --threads 2
    said "$c: setup warns" "DEVELOPMENT key for .*not for production"
    said "$c: setup reports a bn128 key" "wrote $d/k.zkey: bn128, "
    ls -A "$d" | grep -q '^\.k\.zkey\.' && fail "$c: temporary file left behind"
    check "$c: cuzk prove" 0 "$cuzk" prove --quiet "$d/k.zkey" "$wtns" "$d/proof.json" \
        "$d/public.json"
    grep -q '"curve": "bn128"' "$d/proof.json" || fail "$c: proof.json is not for bn128"
    same_values "$d/public.json" "$(fixture_public "$c")" ||
        fail "$c: public.json differs from snarkjs's for the same witness"
    snarkjs "$c: snarkjs exports the verification key" 0 zkey export verificationkey \
        "$d/k.zkey" "$d/vk.json"
    if [ $have_snarkjs -eq 1 ]; then
        grep -q '"curve": "bn128"' "$d/vk.json" || fail "$c: vk.json is not for bn128"
    fi
    snarkjs "$c: snarkjs accepts cuzk's proof" 0 groth16 verify "$d/vk.json" "$d/public.json" \
        "$d/proof.json"
    [ $have_snarkjs -eq 1 ] && said "$c: snarkjs says OK" "OK"
    changed_public "$d/public.json" "$d/bad.json"
    snarkjs "$c: snarkjs refuses a changed public value" 1 groth16 verify "$d/vk.json" \
        "$d/bad.json" "$d/proof.json"
    # snarkjs's own prover with the cuzk-made key.
    snarkjs "$c: snarkjs prove" 0 groth16 prove "$d/k.zkey" "$wtns" "$d/p2.json" "$d/pub2.json"
    snarkjs "$c: snarkjs accepts its proof" 0 groth16 verify "$d/vk.json" "$d/pub2.json" \
        "$d/p2.json"
    if [ $have_snarkjs -eq 1 ]; then
        check "$c: cuzk accepts its own proof" 0 "$cuzk" verify "$d/vk.json" "$d/public.json" \
            "$d/proof.json"
        check "$c: cuzk refuses its proof, public value changed" 1 "$cuzk" verify "$d/vk.json" \
            "$d/bad.json" "$d/proof.json"
        check "$c: cuzk accepts snarkjs's proof" 0 "$cuzk" verify "$d/vk.json" "$d/pub2.json" \
            "$d/p2.json"
        check "$c: cuzk refuses snarkjs's proof, public value changed" 1 "$cuzk" verify \
            "$d/vk.json" "$d/bad.json" "$d/p2.json"
        same_values "$d/public.json" "$d/pub2.json" || fail "$c: public values differ"
    fi
done

# A witness that breaks a constraint (the first output's lowest byte
# changed): cuzk prove refuses to write its proof (exit 1).
d=$tmp/chain
cp "$fix/chain_bn128.wtns" "$tmp/bad.wtns"
# section 2 starts after the 12-byte file header, the 12-byte header of
# section 1 (n8, the prime, the count: 40 bytes) and the 12-byte header of
# section 2; wire 1 follows wire 0 (ONE), 32 bytes each
off=$((12 + 12 + 40 + 12 + 32))
byte=$(od -An -tu1 -j $off -N1 "$tmp/bad.wtns" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of="$tmp/bad.wtns" bs=1 seek=$off conv=notrunc \
    2>/dev/null
cmp -s "$fix/chain_bn128.wtns" "$tmp/bad.wtns" && fail "could not change the witness"
check "chain: unsatisfied witness refused" 1 "$cuzk" prove --quiet "$d/k.zkey" "$tmp/bad.wtns" \
    "$tmp/p.json" "$tmp/q.json"

# A contribution on top of a cuzk key: snarkjs re-randomizes δ, the key
# still proves and verifies.
snarkjs "snarkjs zkey contribute" 0 zkey contribute "$d/k.zkey" "$d/k2.zkey" -e=cuzk-test \
    --name=test
if [ $have_snarkjs -eq 1 ]; then
    check "contributed key: cuzk prove" 0 "$cuzk" prove --quiet "$d/k2.zkey" \
        "$fix/chain_bn128.wtns" "$d/proof2.json" "$d/public2.json"
    snarkjs "contributed key: export" 0 zkey export verificationkey "$d/k2.zkey" "$d/vk2.json"
    snarkjs "contributed key: snarkjs verify" 0 groth16 verify "$d/vk2.json" "$d/public2.json" \
        "$d/proof2.json"
    check "contributed key: cuzk verify" 0 "$cuzk" verify "$d/vk2.json" "$d/public2.json" \
        "$d/proof2.json"
fi

# Fresh toxic waste each time; --backend auto and cpu make the key on the
# CPU; --backend cuda is refused before anything is written.
check "setup, --backend cpu, quiet" 0 "$cuzk" setup --quiet --backend cpu \
    --r1cs "$fix/chain_bn128.r1cs" --zkey "$tmp/again.zkey"
said "quiet setup still warns" "DEVELOPMENT"
[ "$(wc -l <"$tmp/out")" -eq 1 ] || fail "--quiet printed more than the warning"
cmp -s "$tmp/chain/k.zkey" "$tmp/again.zkey" && fail "two setups gave the same key"
[ "$(stat -c %s "$tmp/chain/k.zkey")" = "$(stat -c %s "$tmp/again.zkey")" ] ||
    fail "two setups of one circuit gave keys of different sizes"
check "setup, --backend auto" 0 "$cuzk" setup --backend auto --r1cs "$fix/chain_bn128.r1cs" \
    --zkey "$tmp/auto.zkey"
said "--backend auto: the points on the CPU" "wrote $tmp/auto.zkey: bn128, "
grep -q "on the GPU" "$tmp/out" && fail "--backend auto claimed the GPU for a bn128 key"
check "setup, --backend cuda" 2 "$cuzk" setup --backend cuda --r1cs "$fix/chain_bn128.r1cs" \
    --zkey "$tmp/cuda.zkey"
said "--backend cuda refused" "--backend cuda makes the points of BLS12-381 keys only"
said "--backend cuda names the file and curve" "chain_bn128.r1cs is a circuit over bn128"
[ -e "$tmp/cuda.zkey" ] && fail "--backend cuda wrote a bn128 key"

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] || exit 1
if [ $have_snarkjs -eq 0 ]; then
    echo "SKIP: node or snarkjs missing ($snarkjs_cli): the snarkjs checks did not run"
    exit 77
fi
exit 0
