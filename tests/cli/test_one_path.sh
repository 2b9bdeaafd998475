#!/usr/bin/env bash
# One path: with r and s fixed, every door gives the same proof bit for bit.
#
#   zkey (the circom chain fixture):  cuzk prove --fixed-blinding, the
#     service (submit with "blinding", await --proof-out p.json
#     --public-out pub.json, and the bellman bytes), and the C API
#     (api_prove_fixed, beside the cuzk binary): proof.json, public.json
#     and the 192 bytes identical; snarkjs accepts the proof.
#   built-in circuit, 2^12 constraints, 2 partitions, seeds 7 and 8:
#     cuzk prove --builtin, cuzk bench (its proofs.bin), the service and
#     the C API: the 2 x 192 bytes identical; cuzk verify accepts them.
#   Without --fixed-blinding two runs of cuzk prove differ (fresh r, s).
#   The service refuses bad blinding values with 400 naming the field
#   (its refusal without server.insecure_fixed_blinding, 403, is in
#   tests/service/test_service_control.sh).
#
# A cuzk built without the service (no `serve` command) skips the service's
# part, as does a machine without node and snarkjs the snarkjs check; the
# rest runs, and the test then exits 77 (skipped) unless something failed.
# Usage: test_one_path.sh path/to/cuzk (the build folder is its folder)
set -u
cuzk=$1
build=$(cd "$(dirname "$1")" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
# The service tests' helpers (scratch folder, checks, a real cuzk serve);
# they need nothing of the service until start_server.
source "$root/tests/service/lib.sh"
api=$build/api_prove_fixed
snarkjs_cli=$root/tools/fixtures/node_modules/snarkjs/build/cli.cjs
zkey=$fixtures/chain_bls12381.zkey
wtns=$fixtures/chain_bls12381.wtns
vk=$fixtures/verification_key_bls12381.json
R=12345
S=67890
skipped=()

# same NAME A B: both files exist, are not empty and are equal byte for byte.
same() {
    if [ -s "$2" ] && [ -s "$3" ] && cmp -s "$2" "$3"; then pass; else
        fail "$1: $(basename "$2") and $(basename "$3") differ (or one is missing)"
        cmp "$2" "$3" 2>&1 | sed 's/^/    /'
    fi
}

have_service=0
if "$cuzk" serve --help >/dev/null 2>&1; then have_service=1; else
    echo "SKIP (service part): this cuzk has no serve command (built with CUZK_SERVICE=OFF)"
    skipped+=(service)
fi
if [ ! -x "$api" ]; then
    fail "the C API's program $api is missing (it is built with cuzk)"
fi

mkdir -p "$tmp/z" "$tmp/b"
check "setup, 2^12" 0 "$cuzk" setup --log-constraints 12 --params "$tmp/k12.params"

# ------------------------------------------------ the doors, zkey
check "cuzk prove, zkey" 0 "$cuzk" prove --backend cpu --fixed-blinding "$R,$S" "$zkey" \
    "$wtns" "$tmp/z/prove.json" "$tmp/z/prove_public.json"
expect "cuzk prove warns" "$tmp/err" "reveal the witness"
check "the C API, zkey" 0 "$api" zkey "$zkey" "$wtns" "$R" "$S" "$tmp/z/api.json" \
    "$tmp/z/api.bin"
is "the C API's bellman bytes" "$(stat -c %s "$tmp/z/api.bin" 2>/dev/null)" 192

# ------------------------------------------------ the doors, built-in
check "cuzk prove --builtin" 0 "$cuzk" prove --builtin --backend cpu --log-constraints 12 \
    --params "$tmp/k12.params" --partitions 2 --seed 7 --fixed-blinding "$R,$S" \
    --out "$tmp/b/prove.bin"
is "2 x 192 bytes" "$(stat -c %s "$tmp/b/prove.bin" 2>/dev/null)" 384
check "cuzk verify accepts them" 0 "$cuzk" verify --builtin --log-constraints 12 \
    --params "$tmp/k12.params" --seed 7 "$tmp/b/prove.bin"
check "cuzk bench" 0 "$cuzk" bench --backend cpu --log-constraints 12 \
    --params "$tmp/k12.params" --jobs 1 --partitions 2 --seed 7 --fixed-blinding "$R,$S" \
    --out "$tmp/b/bench"
check "the C API, built-in" 0 "$api" builtin 12 "$tmp/k12.params" 2 7 "$R" "$S" \
    "$tmp/b/api.bin"

# ------------------------------------------------ the service
if [ $have_service -eq 1 ]; then
    cat >"$tmp/serve.ini" <<EOF
[engine]
backend = cpu
[server]
socket = $tmp/s.sock
insecure_fixed_blinding = true
[circuit chain]
kind = zkey
zkey = $zkey
[circuit k12]
kind = builtin
log_constraints = 12
params = $tmp/k12.params
EOF
    start_server "$tmp/serve.log" --config "$tmp/serve.ini"
    expect "the server warns at start" "$tmp/serve.log" "insecure_fixed_blinding"
    check "submit the witness with the blinding" 0 "$cuzk" submit --circuit chain \
        --witness "$wtns" --fixed-blinding "$R,$S"
    id=$(cat "$tmp/out")
    check "await, snarkjs files" 0 "$cuzk" await "$id" --proof-out "$tmp/z/service.json" \
        --public-out "$tmp/z/service_public.json"
    check "await, bellman bytes" 0 "$cuzk" await "$id" --proof-out "$tmp/z/service.bin"
    check "submit the built-in job with the blinding" 0 "$cuzk" submit --circuit k12 \
        --partitions 2 --seed 7 --fixed-blinding "$R,$S" --wait --proof-out "$tmp/b/service.bin"

    # Bad values, each refused naming its field; nothing else is wrong.
    bad_blinding() { # name, field, text, blinding JSON
        check "$1" 1 "$cuzk" api POST /v1/jobs \
            --data "{\"circuit\":\"k12\",\"partitions\":1,\"blinding\":$4}"
        expect "$1: status" "$tmp/err" "HTTP 400"
        expect "$1: field" "$tmp/out" "\"field\":\"$2\""
        expect "$1: message" "$tmp/out" "$3"
    }
    order=52435875175126190479447740508185965837690552500527637822603658699938581184513
    bad_blinding "blinding not an object" blinding "wants an object" '"1,2"'
    bad_blinding "r not decimal" blinding.r "got '12a'" '{"r":"12a","s":"1"}'
    bad_blinding "r a number" blinding.r "got an integer" '{"r":1,"s":"1"}'
    bad_blinding "s not below r" blinding.s "not below the group order" \
        "{\"r\":\"1\",\"s\":\"$order\"}"
    bad_blinding "s missing" blinding.s "'blinding.s' is missing" '{"r":"1"}'
    bad_blinding "unknown key" blinding.t "unknown field 'blinding.t'" \
        '{"r":"1","s":"2","t":"3"}'
    check "--fixed-blinding wants R,S" 2 "$cuzk" submit --circuit k12 --partitions 1 \
        --fixed-blinding 12345
    check "--fixed-blinding with a streamed witness" 2 "$cuzk" submit --circuit chain \
        --witness-stream "$wtns" --fixed-blinding "$R,$S"
    stop_server TERM
    is "server exit code" "$server_rc" 0
fi

# ------------------------------------------------ the comparisons
same "zkey: cuzk prove = C API (proof.json)" "$tmp/z/prove.json" "$tmp/z/api.json"
same "built-in: cuzk prove = cuzk bench" "$tmp/b/prove.bin" "$tmp/b/bench/proofs.bin"
same "built-in: cuzk prove = C API" "$tmp/b/prove.bin" "$tmp/b/api.bin"
if [ $have_service -eq 1 ]; then
    same "zkey: cuzk prove = service (proof.json)" "$tmp/z/prove.json" "$tmp/z/service.json"
    same "zkey: cuzk prove = service (public.json)" "$tmp/z/prove_public.json" \
        "$tmp/z/service_public.json"
    same "zkey: C API = service (bellman bytes)" "$tmp/z/api.bin" "$tmp/z/service.bin"
    same "built-in: cuzk prove = service" "$tmp/b/prove.bin" "$tmp/b/service.bin"
fi

# The proof is a valid one, for snarkjs too.
check "cuzk verify accepts the zkey proof" 0 "$cuzk" verify "$vk" "$tmp/z/prove_public.json" \
    "$tmp/z/prove.json"
if command -v node >/dev/null && [ -f "$snarkjs_cli" ]; then
    check "snarkjs accepts the zkey proof" 0 node "$snarkjs_cli" groth16 verify "$vk" \
        "$tmp/z/prove_public.json" "$tmp/z/prove.json"
else
    echo "SKIP (snarkjs check): node or snarkjs missing (tools/fixtures/node_modules)"
    skipped+=(snarkjs)
fi

# ------------------------------------------------ fresh r, s differ
check "cuzk prove, fresh r, s (1)" 0 "$cuzk" prove --backend cpu "$zkey" "$wtns" \
    "$tmp/z/fresh1.json" "$tmp/z/fresh1_public.json"
check "cuzk prove, fresh r, s (2)" 0 "$cuzk" prove --backend cpu "$zkey" "$wtns" \
    "$tmp/z/fresh2.json" "$tmp/z/fresh2_public.json"
if [ -s "$tmp/z/fresh1.json" ] && ! cmp -s "$tmp/z/fresh1.json" "$tmp/z/fresh2.json" &&
    ! cmp -s "$tmp/z/fresh1.json" "$tmp/z/prove.json"; then pass; else
    fail "without --fixed-blinding two proofs are the same (or equal the fixed one)"
fi
same "fresh r, s: the same public values" "$tmp/z/fresh1_public.json" \
    "$tmp/z/prove_public.json"

finish || exit 1
if [ ${#skipped[@]} -gt 0 ]; then
    echo "skipped: ${skipped[*]}"
    exit 77
fi
exit 0
