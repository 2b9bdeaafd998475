# Interop with snarkjs in both directions, on every circom fixture of one
# curve (chain, poseidon, manypub in tests/fixtures/circom), sourced by
# test_cli_interop.sh (BLS12-381) and test_cli_interop_bn254.sh (BN254,
# circom's default curve), which set first
#   cuzk   the binary
#   tag    the fixtures' curve suffix: bls12381 or bn128
#   r      the curve's group order, in decimal
# Checks:
#  - cuzk's proof passes `snarkjs groth16 verify`, and cuzk's public.json
#    holds the same values as snarkjs's;
#  - the committed snarkjs proof passes `cuzk verify`;
#  - live: `snarkjs groth16 prove` run now on the fixture key and witness,
#    then `cuzk verify` on its output;
#  - a changed public input is refused by both verifiers;
#  - files of different circuits, or of the wrong kind, are refused (exit 3).
# Checks that need node and snarkjs are counted as skipped without them
# (test_cli_circom.sh fails in that case, so CI cannot skip them silently).
set -u
. "$(dirname "$0")/snarkjs_checks.sh"
[ $have_snarkjs -eq 1 ] || echo "note: node or snarkjs missing: snarkjs checks skipped"

# set_public IN OUT INDEX VALUE: public.json with entry INDEX (0-based)
# replaced by the decimal string VALUE.
set_public() {
    awk -v k="$2" -v v="$3" 'BEGIN { i = -1 }
        /"[0-9]+"/ { i++; if (i == k) sub(/"[0-9]+"/, "\"" v "\"") } { print }' "$1"
}
# changed_public IN OUT INDEX: entry INDEX replaced by another value.
changed_public() {
    local old
    old=$(grep -o '"[0-9]*"' "$1" | sed -n "$(($3 + 1))p")
    if [ "$old" = '"1"' ]; then set_public "$1" "$3" 2; else set_public "$1" "$3" 1; fi >"$2"
    cmp -s "$1" "$2" && fail "could not change entry $3 of $1"
}
# Fixture paths of circuit $1 into zkey, wtns, vk, sproof, spub.
files() {
    zkey=$fix/$1_$tag.zkey
    wtns=$fix/$1_$tag.wtns
    if [ "$1" = chain ]; then
        vk=$fix/verification_key_$tag.json
        sproof=$fix/proof_$tag.json
        spub=$fix/public_$tag.json
    else
        vk=$fix/$1_verification_key_$tag.json
        sproof=$fix/$1_proof_$tag.json
        spub=$fix/$1_public_$tag.json
    fi
}

circuits="chain poseidon manypub"
for c in $circuits; do
    files "$c"
    d=$tmp/$c
    mkdir -p "$d"
    # cuzk → snarkjs
    check "$c: cuzk prove" 0 "$cuzk" prove --quiet "$zkey" "$wtns" "$d/proof.json" "$d/public.json"
    same_values "$d/public.json" "$spub" || fail "$c: public.json differs from snarkjs's"
    check "$c: cuzk accepts its proof" 0 "$cuzk" verify "$vk" "$d/public.json" "$d/proof.json"
    snarkjs "$c: snarkjs accepts cuzk's proof" 0 groth16 verify "$vk" "$d/public.json" "$d/proof.json"
    # snarkjs → cuzk: the committed proof, and one made now.
    check "$c: cuzk accepts snarkjs's committed proof" 0 "$cuzk" verify "$vk" "$spub" "$sproof"
    snarkjs "$c: snarkjs prove (live)" 0 groth16 prove "$zkey" "$wtns" "$d/sproof.json" "$d/spub.json"
    if [ $have_snarkjs -eq 1 ]; then
        check "$c: cuzk accepts snarkjs's live proof" 0 "$cuzk" verify "$vk" "$d/spub.json" \
            "$d/sproof.json"
        same_values "$d/spub.json" "$spub" || fail "$c: live public.json differs"
    fi
    # A changed public value (the last one: a public input) is refused by both.
    n=$(grep -c '"[0-9]*"' "$spub")
    changed_public "$d/public.json" "$d/bad.json" $((n - 1))
    check "$c: cuzk refuses its proof, input changed" 1 "$cuzk" verify "$vk" "$d/bad.json" \
        "$d/proof.json"
    snarkjs "$c: snarkjs refuses cuzk's proof, input changed" 1 groth16 verify "$vk" \
        "$d/bad.json" "$d/proof.json"
    check "$c: cuzk refuses snarkjs's proof, input changed" 1 "$cuzk" verify "$vk" "$d/bad.json" \
        "$sproof"
done

# manypub: every kind of public value is bound, outputs and inputs alike,
# including input a[39] (entry 55), which no constraint uses.
files manypub
for k in 0 15 16 30 54 55; do
    changed_public "$spub" "$tmp/bad.json" "$k"
    check "manypub: entry $k changed" 1 "$cuzk" verify "$vk" "$tmp/bad.json" "$sproof"
done
# A value written as itself plus r (a[0] = 0 at entry 16, written as r): both
# refuse it rather than reduce it.
[ "$(grep -o '"[0-9]*"' "$spub" | sed -n 17p)" = '"0"' ] || fail "manypub: entry 16 is not 0"
set_public "$spub" 16 "$r" >"$tmp/alias.json"
check "manypub: cuzk refuses a value >= r" 3 "$cuzk" verify "$vk" "$tmp/alias.json" "$sproof"
snarkjs "manypub: snarkjs refuses a value >= r" 1 groth16 verify "$vk" "$tmp/alias.json" "$sproof"

# A witness that does not satisfy the circuit: cuzk prove refuses it (exit
# 1); with --no-verify the proof is written, and both verifiers refuse it.
files poseidon
cp "$wtns" "$tmp/bad.wtns"
size=$(stat -c %s "$tmp/bad.wtns")
# the last signal's lowest byte (values are 32-byte little-endian integers)
byte=$(od -An -tu1 -j $((size - 32)) -N1 "$tmp/bad.wtns" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 1)))" |
    dd of="$tmp/bad.wtns" bs=1 seek=$((size - 32)) conv=notrunc 2>/dev/null
cmp -s "$wtns" "$tmp/bad.wtns" && fail "could not change the witness"
check "poseidon: unsatisfied witness refused" 1 "$cuzk" prove --quiet "$zkey" "$tmp/bad.wtns" \
    "$tmp/p.json" "$tmp/q.json"
check "poseidon: --no-verify writes it" 0 "$cuzk" prove --quiet --no-verify "$zkey" \
    "$tmp/bad.wtns" "$tmp/p.json" "$tmp/q.json"
check "poseidon: cuzk refuses that proof" 1 "$cuzk" verify "$vk" "$tmp/q.json" "$tmp/p.json"
snarkjs "poseidon: snarkjs refuses that proof" 1 groth16 verify "$vk" "$tmp/q.json" "$tmp/p.json"

# Files of different circuits. Each circuit has its own number of public
# values (chain 4, poseidon 2, manypub 56), so these are refused as bad
# input (exit 3) before any pairing; a proof of another circuit with the
# right public values is a valid file but an invalid proof (exit 1).
set -- $circuits
prev=$3
for c in $circuits; do
    files "$prev"
    owtns=$wtns ovk=$vk osproof=$sproof ospub=$spub
    files "$c"
    check "$c key, $prev witness" 3 "$cuzk" prove "$zkey" "$owtns" "$tmp/p.json" "$tmp/q.json"
    check "$c vk, $prev public values" 3 "$cuzk" verify "$vk" "$ospub" "$osproof"
    check "$c vk and public values, $prev proof" 1 "$cuzk" verify "$vk" "$spub" "$osproof"
    check "$c: $prev vk" 3 "$cuzk" verify "$ovk" "$spub" "$sproof"
    prev=$c
done
# Files of the wrong kind, or in the wrong order.
files poseidon
check "witness and key swapped" 3 "$cuzk" prove "$wtns" "$zkey" "$tmp/p.json" "$tmp/q.json"
check "r1cs for the key" 3 "$cuzk" prove "$fix/poseidon_$tag.r1cs" "$wtns" "$tmp/p.json" \
    "$tmp/q.json"
check "vk and proof swapped" 3 "$cuzk" verify "$sproof" "$spub" "$vk"
check "public and proof swapped" 3 "$cuzk" verify "$vk" "$sproof" "$spub"
check "zkey for the vk" 3 "$cuzk" verify "$zkey" "$spub" "$sproof"
# A PLONK key (the protocol field of section 1, at byte 24 of the fixture,
# set to 2): refused by name.
cp "$zkey" "$tmp/plonk.zkey"
[ "$(od -An -tu4 -j 12 -N 16 "$tmp/plonk.zkey" | tr -s ' ')" = " 1 4 0 1" ] ||
    fail "section 1 of $zkey is not where this test expects it"
printf '\002' | dd of="$tmp/plonk.zkey" bs=1 seek=24 conv=notrunc 2>/dev/null
check "PLONK key refused" 3 "$cuzk" prove "$tmp/plonk.zkey" "$wtns" "$tmp/p.json" "$tmp/q.json"
grep -qi "plonk" "$tmp/out" || fail "PLONK not named in the message"

echo "$tag: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
