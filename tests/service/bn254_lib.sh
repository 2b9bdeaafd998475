# Shared by test_service_bn254.sh and test_service_bn254_pg.sh, sourced
# after lib.sh: bn254_config adds BN254 circuits (chain254, poseidon254) to
# a configuration of write_config's (p10 and chain, BLS12-381's); with a
# server running on it, bn254_side_by_side registers one more BN254
# circuit over the API (chain254api), runs jobs of every circuit, and
# leaves a BN254 job of sixteen partitions running (bn_k) for the caller to
# kill the server under; on a server started again on the same job store,
# bn254_after_restart checks the same answers and that job finished from
# the store.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
snarkjs_cli=$root/tools/fixtures/node_modules/snarkjs/build/cli.cjs
have_snarkjs=0
command -v node >/dev/null && [ -f "$snarkjs_cli" ] && have_snarkjs=1
[ $have_snarkjs -eq 1 ] || echo "note: node or snarkjs missing: the snarkjs checks are skipped"
w254=$fixtures/chain_bn128.wtns
w381=$fixtures/chain_bls12381.wtns
vk254=$fixtures/verification_key_bn128.json
vk381=$fixtures/verification_key_bls12381.json

same_values() { # two JSON arrays of decimal strings, whitespace ignored
    [ -f "$1" ] && [ -f "$2" ] && [ "$(tr -d ' \t\r\n' <"$1")" = "$(tr -d ' \t\r\n' <"$2")" ]
}
# verify_both NAME VK PUBLIC PROOF: cuzk verify accepts the proof, and so
# does snarkjs when it is installed.
verify_both() {
    check "$1: cuzk verify" 0 "$cuzk" verify "$2" "$3" "$4"
    expect "$1: cuzk says OK" "$tmp/out" "OK"
    if [ $have_snarkjs -eq 1 ]; then
        check "$1: snarkjs groth16 verify" 0 node "$snarkjs_cli" groth16 verify "$2" "$3" "$4"
        expect "$1: snarkjs says OK" "$tmp/out" "OK"
    else
        echo "SKIPPED: $1: snarkjs groth16 verify (node or snarkjs missing)"
    fi
}
job_id() { sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' "$tmp/out" | head -1; }

bn254_config() { # path
    printf '[circuit chain254]\nkind = zkey\nzkey = %s\n' "$fixtures/chain_bn128.zkey" >>"$1"
    printf '[circuit poseidon254]\nkind = zkey\nzkey = %s\n' "$fixtures/poseidon_bn128.zkey" \
        >>"$1"
}

bn254_side_by_side() {
    check "register a BN254 circuit over the API" 0 "$cuzk" api POST /v1/circuits \
        --data "{\"name\": \"chain254api\", \"kind\": \"zkey\", \"zkey\": \"$fixtures/chain_bn128.zkey\"}"
    expect "registered with its curve" "$tmp/out" '"curve":"bn128"'
    check "the BN254 circuit's view" 0 "$cuzk" api GET /v1/circuits/chain254
    expect "its curve" "$tmp/out" '"curve":"bn128"'
    expect "its proof size" "$tmp/out" '"proof_bytes":256'
    check "the BLS12-381 circuit's view" 0 "$cuzk" api GET /v1/circuits/chain
    expect "its curve" "$tmp/out" '"curve":"bls12381"'
    expect "its proof size" "$tmp/out" '"proof_bytes":192'

    # Jobs of both curves queued together, then awaited.
    check "BN254: two streamed witnesses" 0 "$cuzk" submit --circuit chain254 \
        --witness-stream "$w254" --witness-stream "$w254"
    bn_a=$(cat "$tmp/out")
    check "BLS12-381 zkey job" 0 "$cuzk" submit --circuit chain --witness-stream "$w381"
    bls_c=$(cat "$tmp/out")
    check "BN254: a witness by path" 0 "$cuzk" submit --circuit chain254 --witness "$w254"
    bn_b=$(cat "$tmp/out")
    check "built-in job" 0 "$cuzk" submit --circuit p10 --partitions 2 --seed 5
    bls_d=$(cat "$tmp/out")
    check "BN254 job of the API's circuit" 0 "$cuzk" submit --circuit chain254api \
        --witness-stream "$w254"
    bn_p=$(cat "$tmp/out")
    check "BN254 Poseidon job" 0 "$cuzk" submit --circuit poseidon254 \
        --witness-stream "$fixtures/poseidon_bn128.wtns"
    bn_q=$(cat "$tmp/out")

    mkdir -p "$tmp/a" "$tmp/b" "$tmp/c"
    check "await the BN254 job" 0 "$cuzk" await "$bn_a" --proof-out "$tmp/a/p.json" \
        --public-out "$tmp/a/pub.json"
    for i in 0 1; do
        verify_both "BN254 partition $i" "$vk254" "$tmp/a/pub-$i.json" "$tmp/a/p-$i.json"
        expect "BN254 partition $i says bn128" "$tmp/a/p-$i.json" '"curve": "bn128"'
    done
    if same_values "$tmp/a/pub-0.json" "$fixtures/public_bn128.json"; then pass; else
        fail "the BN254 job's public.json is not snarkjs's of the same witness"
    fi
    check "the BN254 job's bellman bytes" 0 "$cuzk" await "$bn_a" --proof-out "$tmp/a/p.bin"
    is "2 x 256 bytes" "$(stat -c %s "$tmp/a/p.bin")" 512
    check "the BN254 job's view" 0 "$cuzk" api GET "/v1/jobs/$bn_a"
    expect "names its curve" "$tmp/out" '"curve":"bn128"'
    check "await the BN254 job by path" 0 "$cuzk" await "$bn_b" --proof-out "$tmp/b/proof.json" \
        --public-out "$tmp/b/public.json"
    verify_both "BN254 by path" "$vk254" "$tmp/b/public.json" "$tmp/b/proof.json"
    check "await the BLS12-381 zkey job" 0 "$cuzk" await "$bls_c" \
        --proof-out "$tmp/c/proof.json" --public-out "$tmp/c/public.json"
    verify_both "BLS12-381 zkey job" "$vk381" "$tmp/c/public.json" "$tmp/c/proof.json"
    expect "it says bls12381" "$tmp/c/proof.json" '"curve": "bls12381"'
    check "the BLS12-381 job's view" 0 "$cuzk" api GET "/v1/jobs/$bls_c"
    expect "names its curve" "$tmp/out" '"curve":"bls12381"'
    check "await the built-in job" 0 "$cuzk" await "$bls_d" --proof-out "$tmp/d.bin"
    is "2 x 192 bytes" "$(stat -c %s "$tmp/d.bin")" 384
    verify_seeds "the built-in job" 5 "$tmp/d.bin" 2
    check "await the API circuit's job" 0 "$cuzk" await "$bn_p" --proof-out "$tmp/p.json" \
        --public-out "$tmp/p-pub.json"
    verify_both "the API circuit's job" "$vk254" "$tmp/p-pub.json" "$tmp/p.json"
    check "await the Poseidon job" 0 "$cuzk" await "$bn_q" --proof-out "$tmp/q.json" \
        --public-out "$tmp/q-pub.json"
    verify_both "the Poseidon job" "$fixtures/poseidon_verification_key_bn128.json" \
        "$tmp/q-pub.json" "$tmp/q.json"

    # Status and metrics say each circuit's curve.
    check "status" 0 "$cuzk" api GET /v1/status
    expect "status names bn128" "$tmp/out" '"name":"chain254"'
    expect "status names bn128" "$tmp/out" '"curve":"bn128"'
    check "metrics" 0 "$cuzk" api GET /metrics
    expect "metrics: chain254's curve" "$tmp/out" \
        'cuzk_circuit_info{circuit="chain254",curve="bn128",kind="zkey"} 1'
    expect "metrics: chain's curve" "$tmp/out" \
        'cuzk_circuit_info{circuit="chain",curve="bls12381",kind="zkey"} 1'
    expect "metrics: p10's curve" "$tmp/out" \
        'cuzk_circuit_info{circuit="p10",curve="bls12381",kind="builtin"} 1'

    # Witnesses of the other curve are refused at submission, named.
    check "a BLS12-381 witness streamed to the BN254 circuit" 1 "$cuzk" submit \
        --circuit chain254 --witness-stream "$w381"
    expect "names the witness and both curves" "$tmp/err" \
        "witness 0 of the body is for the bls12381 curve, but circuit 'chain254' is on bn128"
    check "a BLS12-381 witness by path to the BN254 circuit" 1 "$cuzk" submit \
        --circuit chain254 --witness "$w381"
    expect "names the file and both curves" "$tmp/err" \
        "witness $w381 is for the bls12381 curve, but circuit 'chain254' is on bn128"
    check "a BN254 witness by path to the BLS12-381 circuit" 1 "$cuzk" api POST /v1/jobs \
        --data "{\"circuit\": \"chain\", \"witness_paths\": [\"$w381\", \"$w254\"]}"
    expect "names the entry" "$tmp/out" '"field":"witness_paths[1]"'
    expect "and the curves" "$tmp/out" "is for the bn128 curve, but circuit 'chain' is on bls12381"

    # Left running: sixteen Poseidon partitions, the server killed under
    # them (usually some proved and stored, some not; either way the job
    # must finish with every partition valid).
    local streams=()
    for _ in $(seq 16); do streams+=(--witness-stream "$fixtures/poseidon_bn128.wtns"); done
    check "a longer BN254 job" 0 "$cuzk" submit --circuit poseidon254 "${streams[@]}"
    bn_k=$(cat "$tmp/out")
    sleep 0.1
}

bn254_after_restart() {
    check "the BN254 job after the restart" 0 "$cuzk" await "$bn_a" --proof-out "$tmp/a/p2.bin"
    check "its bytes are the same" 0 cmp "$tmp/a/p.bin" "$tmp/a/p2.bin"
    check "its snarkjs files" 0 "$cuzk" await "$bn_a" --proof-out "$tmp/a/q.json" \
        --public-out "$tmp/a/qub.json"
    for i in 0 1; do
        check "partition $i: the same proof.json" 0 cmp "$tmp/a/p-$i.json" "$tmp/a/q-$i.json"
        check "partition $i: the same public.json" 0 cmp "$tmp/a/pub-$i.json" "$tmp/a/qub-$i.json"
    done
    check "the BN254 job's view from the store" 0 "$cuzk" api GET "/v1/jobs/$bn_a"
    expect "names its curve" "$tmp/out" '"curve":"bn128"'
    same_answer "the BLS12-381 zkey job after the restart" "$bls_c" "$tmp/c/proof.json" \
        "$tmp/c/public.json"
    mkdir -p "$tmp/k"
    check "the BN254 job the kill interrupted finishes" 0 "$cuzk" await "$bn_k" \
        --proof-out "$tmp/k/p.json" --public-out "$tmp/k/pub.json"
    for i in $(seq 0 15); do
        verify_both "the interrupted job's partition $i" \
            "$fixtures/poseidon_verification_key_bn128.json" "$tmp/k/pub-$i.json" "$tmp/k/p-$i.json"
    done
    check "a new BN254 job on the restarted server" 0 "$cuzk" submit --circuit chain254 \
        --witness-stream "$w254" --wait --proof-out "$tmp/e.json" --public-out "$tmp/e-pub.json"
    verify_both "the new BN254 job" "$vk254" "$tmp/e-pub.json" "$tmp/e.json"
}
