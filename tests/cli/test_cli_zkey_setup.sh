#!/usr/bin/env bash
# cuzk setup --r1cs --zkey: development snarkjs keys for the circom fixtures
# (chain, poseidon, manypub in tests/fixtures/circom), judged by snarkjs:
#  - `snarkjs zkey export verificationkey` reads the key;
#  - cuzk's proof with it passes `snarkjs groth16 verify`;
#  - snarkjs's own proof with it (`snarkjs groth16 prove`) passes snarkjs
#    and `cuzk verify`, with the same public values as cuzk's;
#  - a changed public value is refused by both verifiers;
#  - `snarkjs zkey contribute` on it gives a key that still proves;
#  - two setups give two keys; the development warning is always printed;
#  - bad input files exit 3 naming the file, bad command lines exit 2.
# test_cli_zkey_setup_bn254.sh does the same for the BN254 fixtures.
# Without node or snarkjs the cuzk-only checks run and the test reports a
# skip (exit 77).
# Usage: test_cli_zkey_setup.sh path/to/cuzk
set -u
cuzk=$1
. "$(dirname "$0")/zkey_setup_lib.sh"

check "help" 0 "$cuzk" setup --help
said "help" "--r1cs circuit.r1cs --zkey circuit.zkey"
said "help" "DEVELOPMENT"

for c in chain poseidon manypub; do
    r1cs=$fix/${c}_bls12381.r1cs
    wtns=$fix/${c}_bls12381.wtns
    d=$tmp/$c
    mkdir -p "$d"
    check "$c: setup" 0 "$cuzk" setup --r1cs "$r1cs" --zkey "$d/k.zkey" --threads 2
    said "$c: setup warns" "DEVELOPMENT key for .*not for production"
    said "$c: setup reports" "wrote $d/k.zkey"
    ls -A "$d" | grep -q '^\.k\.zkey\.' && fail "$c: temporary file left behind"
    snarkjs "$c: snarkjs exports the verification key" 0 zkey export verificationkey \
        "$d/k.zkey" "$d/vk.json"
    if [ $have_snarkjs -eq 1 ]; then
        grep -q '"curve": "bls12381"' "$d/vk.json" || fail "$c: vk.json is not for bls12381"
    fi
    check "$c: cuzk prove" 0 "$cuzk" prove --quiet "$d/k.zkey" "$wtns" "$d/proof.json" \
        "$d/public.json"
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
        check "$c: cuzk accepts snarkjs's proof" 0 "$cuzk" verify "$d/vk.json" "$d/pub2.json" \
            "$d/p2.json"
        check "$c: cuzk accepts its own proof" 0 "$cuzk" verify "$d/vk.json" "$d/public.json" \
            "$d/proof.json"
        check "$c: cuzk refuses a changed public value" 1 "$cuzk" verify "$d/vk.json" \
            "$d/bad.json" "$d/p2.json"
        same_values "$d/public.json" "$d/pub2.json" || fail "$c: public values differ"
    fi
done

# A contribution on top of a cuzk key: snarkjs re-randomizes δ, the key
# still proves and verifies.
d=$tmp/chain
snarkjs "snarkjs zkey contribute" 0 zkey contribute "$d/k.zkey" "$d/k2.zkey" -e=cuzk-test \
    --name=test
if [ $have_snarkjs -eq 1 ]; then
    check "contributed key: cuzk prove" 0 "$cuzk" prove --quiet "$d/k2.zkey" \
        "$fix/chain_bls12381.wtns" "$d/proof2.json" "$d/public2.json"
    snarkjs "contributed key: export" 0 zkey export verificationkey "$d/k2.zkey" "$d/vk2.json"
    snarkjs "contributed key: snarkjs verify" 0 groth16 verify "$d/vk2.json" "$d/public2.json" \
        "$d/proof2.json"
fi

# Fresh toxic waste each time; --quiet keeps only the warning.
check "second setup, quiet" 0 "$cuzk" setup --quiet --r1cs "$fix/chain_bls12381.r1cs" \
    --zkey "$tmp/again.zkey"
said "quiet setup still warns" "DEVELOPMENT"
[ "$(wc -l <"$tmp/out")" -eq 1 ] || fail "--quiet printed more than the warning"
cmp -s "$tmp/chain/k.zkey" "$tmp/again.zkey" && fail "two setups gave the same key"
[ "$(stat -c %s "$tmp/chain/k.zkey")" = "$(stat -c %s "$tmp/again.zkey")" ] ||
    fail "two setups of one circuit gave keys of different sizes"

# Bad input files: exit 3, the file named, no key written.
check "missing r1cs" 3 "$cuzk" setup --r1cs "$tmp/none.r1cs" --zkey "$tmp/x.zkey"
said "missing r1cs named" "none.r1cs"
head -c 3000 "$fix/chain_bls12381.r1cs" >"$tmp/short.r1cs"
check "truncated r1cs" 3 "$cuzk" setup --r1cs "$tmp/short.r1cs" --zkey "$tmp/x.zkey"
said "truncated r1cs named" "short.r1cs"
check "witness for the r1cs" 3 "$cuzk" setup --r1cs "$fix/chain_bls12381.wtns" \
    --zkey "$tmp/x.zkey"
said "witness named" "chain_bls12381.wtns"
[ -e "$tmp/x.zkey" ] && fail "a key was written from bad input"
# An unwritable destination: the setup fails (exit 1), naming it.
check "unwritable key" 1 "$cuzk" setup --r1cs "$fix/chain_bls12381.r1cs" \
    --zkey "$tmp/no/such/dir/x.zkey"
said "unwritable key named" "no/such/dir/x.zkey"
# Bad command lines: exit 2.
check "--r1cs alone" 2 "$cuzk" setup --r1cs "$fix/chain_bls12381.r1cs"
check "--zkey without a file" 2 "$cuzk" setup --r1cs "$fix/chain_bls12381.r1cs" --zkey
check "--r1cs with --builtin" 2 "$cuzk" setup --builtin --r1cs "$fix/chain_bls12381.r1cs" \
    --zkey "$tmp/x.zkey"
check "unknown option" 2 "$cuzk" setup --r1cs "$fix/chain_bls12381.r1cs" --zkey "$tmp/x.zkey" \
    --params p
check "bad --threads" 2 "$cuzk" setup --r1cs "$fix/chain_bls12381.r1cs" --zkey "$tmp/x.zkey" \
    --threads lots
# The built-in setup is still there.
check "setup --builtin" 0 "$cuzk" setup --builtin --log-constraints 10 --params "$tmp/b.params" \
    --quiet

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] || exit 1
if [ $have_snarkjs -eq 0 ]; then
    echo "SKIP: node or snarkjs missing ($snarkjs_cli): the snarkjs checks did not run"
    exit 77
fi
exit 0
