#!/usr/bin/env bash
# cuzk serve speaks circom, checked by snarkjs itself: the chain fixture
# registered over the API; a job of two partitions with two different
# witnesses (streamed, then read by the server in the other order) awaited
# with --proof-out p.json --public-out pub.json gives p-0.json/pub-0.json
# and p-1.json/pub-1.json, which `snarkjs groth16 verify` accepts with the
# verification key snarkjs exports from the zkey now; each pair holds its
# own witness's public values (snarkjs refuses a proof with the other
# partition's public file, or with one value changed); one partition keeps
# the names as given; GET .../proof?format=snarkjs has the documented shape
# and the files' contents, format=bellman the bytes given without a format,
# format=nonsense 400 naming it, a failed job 409, a built-in job the same
# envelope; bad combinations of the new options are usage errors (exit 2)
# and an unwritable target fails (exit 1) leaving no temporary behind.
# Skipped (exit 77) without node and snarkjs in tools/fixtures/node_modules.
# Usage: test_service_snarkjs.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
snarkjs_cli=$root/tools/fixtures/node_modules/snarkjs/build/cli.cjs
if ! command -v node >/dev/null || [ ! -f "$snarkjs_cli" ]; then
    echo "SKIPPED: node or snarkjs missing (cd tools/fixtures && npm ci)"
    exit 77
fi
if ! command -v curl >/dev/null; then
    echo "SKIPPED: curl missing"
    exit 77
fi
snarkjs() { node "$snarkjs_cli" "$@"; }
# api_curl PATH: the answer's body into $tmp/body, its status printed.
api_curl() {
    curl -s -o "$tmp/body" -w '%{http_code}' --unix-socket "$tmp/s.sock" "http://cuzk$1"
}
same_values() { # two JSON arrays of decimal strings, whitespace ignored
    [ -f "$1" ] && [ -f "$2" ] && [ "$(tr -d ' \t\r\n' <"$1")" = "$(tr -d ' \t\r\n' <"$2")" ]
}
w1=$fixtures/chain_bls12381.wtns
w2=$fixtures/chain_bls12381_2.wtns
zkey=$fixtures/chain_bls12381.zkey

make_params
write_config "$tmp/serve.ini" ""
start_server "$tmp/serve.log" --config "$tmp/serve.ini"
check "register the zkey circuit" 0 "$cuzk" api POST /v1/circuits \
    --data "{\"name\": \"circom\", \"kind\": \"zkey\", \"zkey\": \"$zkey\"}"
expect "registered" "$tmp/out" '"kind":"zkey"'
check "snarkjs exports the verification key" 0 snarkjs zkey export verificationkey "$zkey" \
    "$tmp/vk.json"

# ------------------------------------------------ two partitions, streamed
mkdir -p "$tmp/a"
check "submit two witnesses" 0 "$cuzk" submit --circuit circom --witness-stream "$w1" \
    --witness-stream "$w2"
ida=$(cat "$tmp/out")
check "await with snarkjs files" 0 "$cuzk" await "$ida" --proof-out "$tmp/a/p.json" \
    --public-out "$tmp/a/pub.json"
is "one file per partition, no temporaries" "$(cd "$tmp/a" && echo *)" \
    "p-0.json p-1.json pub-0.json pub-1.json"
for i in 0 1; do
    check "snarkjs accepts partition $i" 0 snarkjs groth16 verify "$tmp/vk.json" \
        "$tmp/a/pub-$i.json" "$tmp/a/p-$i.json"
    expect "snarkjs says OK ($i)" "$tmp/out" "OK"
    check "cuzk verify accepts partition $i" 0 "$cuzk" verify "$tmp/vk.json" \
        "$tmp/a/pub-$i.json" "$tmp/a/p-$i.json"
done
# Partition 0 is the first witness: its public values are snarkjs's own.
if same_values "$tmp/a/pub-0.json" "$fixtures/public_bls12381.json"; then pass; else
    fail "pub-0.json differs from snarkjs's public.json of the same witness"
fi
if same_values "$tmp/a/pub-0.json" "$tmp/a/pub-1.json"; then
    fail "the two partitions have the same public values"
else pass; fi
# Tampered: the other partition's public file, one value changed.
check "snarkjs refuses proof 0 with public 1" 1 snarkjs groth16 verify "$tmp/vk.json" \
    "$tmp/a/pub-1.json" "$tmp/a/p-0.json"
sed -e '0,/"[0-9]*"/s//"12345"/' "$tmp/a/pub-1.json" >"$tmp/bad_pub.json"
if cmp -s "$tmp/a/pub-1.json" "$tmp/bad_pub.json"; then fail "could not alter pub-1.json"; fi
check "snarkjs refuses a changed public value" 1 snarkjs groth16 verify "$tmp/vk.json" \
    "$tmp/bad_pub.json" "$tmp/a/p-1.json"

# ------------------------------------------------ the JSON view
is "format=snarkjs answers 200" "$(api_curl "/v1/jobs/$ida/proof?format=snarkjs")" 200
cp "$tmp/body" "$tmp/view.json"
# The envelope's shape, exactly, and each entry equal to the files written.
cat >"$tmp/shape.js" <<'JS'
const fs = require("fs");
const [view, dir, id] = process.argv.slice(2);
const v = JSON.parse(fs.readFileSync(view, "utf8"));
const eq = (a, b, what) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(what + ": " + JSON.stringify(a));
};
const dec = (s) => typeof s === "string" && /^(0|[1-9][0-9]*)$/.test(s);
eq(Object.keys(v), ["id", "circuit", "partitions"], "envelope keys");
eq(v.id, id, "id");
eq(v.circuit, "circom", "circuit");
eq(v.partitions.length, 2, "partitions");
v.partitions.forEach((e, i) => {
    eq(Object.keys(e), ["proof", "public"], "entry keys");
    const p = e.proof;
    eq(Object.keys(p), ["pi_a", "pi_b", "pi_c", "protocol", "curve"], "proof keys");
    eq([p.protocol, p.curve], ["groth16", "bls12381"], "protocol and curve");
    for (const g1 of [p.pi_a, p.pi_c])
        if (g1.length !== 3 || !g1.every(dec) || g1[2] !== "1") throw new Error("G1 " + g1);
    if (p.pi_b.length !== 3 || !p.pi_b.every((c) => c.length === 2 && c.every(dec)))
        throw new Error("G2 " + p.pi_b);
    eq(p.pi_b[2], ["1", "0"], "G2 z");
    if (e.public.length !== 4 || !e.public.every(dec)) throw new Error("public " + e.public);
    eq(p, JSON.parse(fs.readFileSync(`${dir}/p-${i}.json`, "utf8")), `proof ${i} vs file`);
    eq(e.public, JSON.parse(fs.readFileSync(`${dir}/pub-${i}.json`, "utf8")), `public ${i}`);
});
JS
check "the view's shape, and the files' contents" 0 node "$tmp/shape.js" "$tmp/view.json" \
    "$tmp/a" "$ida"
is "format=bellman answers 200" "$(api_curl "/v1/jobs/$ida/proof?format=bellman")" 200
cp "$tmp/body" "$tmp/bellman.bin"
is "no format answers 200" "$(api_curl "/v1/jobs/$ida/proof")" 200
if cmp -s "$tmp/body" "$tmp/bellman.bin"; then pass; else fail "format=bellman differs"; fi
is "2 x 192 bytes" "$(stat -c %s "$tmp/body")" 384
is "format=nonsense is 400" "$(api_curl "/v1/jobs/$ida/proof?format=nonsense")" 400
expect "names the format" "$tmp/body" "got 'nonsense'"
expect "names the field" "$tmp/body" '"field":"format"'
is "an unknown job is 404" "$(api_curl "/v1/jobs/999999/proof?format=snarkjs")" 404

# ------------------------------------------------ by path, the other order
mkdir -p "$tmp/b"
check "submit --wait, witnesses by path" 0 "$cuzk" submit --circuit circom --witness "$w2" \
    --witness "$w1" --wait --proof-out "$tmp/b/proof.json" --public-out "$tmp/b/public.json"
is "files of submit --wait" "$(cd "$tmp/b" && echo *)" \
    "proof-0.json proof-1.json public-0.json public-1.json"
if same_values "$tmp/b/public-0.json" "$tmp/a/pub-1.json" &&
    same_values "$tmp/b/public-1.json" "$tmp/a/pub-0.json"; then pass; else
    fail "partition order: public-0/1 are not the second and first witness's"
fi
for i in 0 1; do
    check "snarkjs accepts submit --wait's partition $i" 0 snarkjs groth16 verify \
        "$tmp/vk.json" "$tmp/b/public-$i.json" "$tmp/b/proof-$i.json"
done

# ------------------------------------------------ one partition; --format
mkdir -p "$tmp/c"
check "one partition" 0 "$cuzk" submit --circuit circom --witness-stream "$w2" --wait \
    --proof-out "$tmp/c/proof.json" --public-out "$tmp/c/public.json"
idc=$(sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' "$tmp/out")
is "one partition keeps the names" "$(cd "$tmp/c" && echo *)" "proof.json public.json"
check "snarkjs accepts it" 0 snarkjs groth16 verify "$tmp/vk.json" "$tmp/c/public.json" \
    "$tmp/c/proof.json"
check "--format snarkjs, proofs only" 0 "$cuzk" await "$idc" --format=snarkjs \
    --proof-out "$tmp/c/only.json"
if cmp -s "$tmp/c/only.json" "$tmp/c/proof.json"; then pass; else fail "proof.json differs"; fi
check "--proof-out alone is bellman" 0 "$cuzk" await "$idc" --proof-out "$tmp/c/p.bin"
is "192 bytes" "$(stat -c %s "$tmp/c/p.bin")" 192

# ------------------------------------------------ errors
check "--format bellman with --public-out" 2 "$cuzk" await "$idc" --format bellman \
    --public-out "$tmp/x.json"
check "unknown --format" 2 "$cuzk" await "$idc" --format xml --proof-out "$tmp/x.json"
expect "names it" "$tmp/err" "got 'xml'"
check "--format without a file" 2 "$cuzk" await "$idc" --format snarkjs
check "--public-out without --wait" 2 "$cuzk" submit --circuit circom --witness-stream "$w1" \
    --public-out "$tmp/x.json"
check "unwritable target" 1 "$cuzk" await "$idc" --proof-out "$tmp/none/p.json" \
    --public-out "$tmp/c/q.json"
expect "says which file" "$tmp/err" "$tmp/none/p.json"
is "nothing left behind" "$(cd "$tmp/c" && ls -A | tr "\n" " ")" "only.json p.bin proof.json public.json "
# A failed job (a witness value >= r, read at synthesis) has no proof.
cp "$w1" "$tmp/bad.wtns"
head -c 32 /dev/zero | tr '\0' '\377' |
    dd of="$tmp/bad.wtns" bs=1 seek=$((76 + 32)) conv=notrunc 2>/dev/null
check "submit a failing job" 0 "$cuzk" submit --circuit circom --witness "$tmp/bad.wtns"
bad=$(cat "$tmp/out")
check "it fails" 1 "$cuzk" await "$bad" --timeout 20 --proof-out "$tmp/f.json" \
    --public-out "$tmp/fp.json"
is "a failed job's view is 409" "$(api_curl "/v1/jobs/$bad/proof?format=snarkjs")" 409

# ------------------------------------------------ a built-in circuit
check "built-in job" 0 "$cuzk" submit --circuit p10 --partitions 2 --seed 3 --wait \
    --proof-out "$tmp/p10.bin"
idp=$(sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' "$tmp/out")
check "its bellman proof verifies" 0 "$cuzk" verify --builtin --log-constraints 10 \
    --params "$tmp/k10.params" --seed 3 "$tmp/p10.bin"
is "built-in format=snarkjs is 200" "$(api_curl "/v1/jobs/$idp/proof?format=snarkjs")" 200
check "built-in view is JSON of two partitions" 0 node -e '
    const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (v.circuit !== "p10" || v.partitions.length !== 2 ||
        v.partitions.some((e) => e.proof.curve !== "bls12381" || !e.public.length))
        process.exit(1);' "$tmp/body"

stop_server TERM
is "server exit code" "$server_rc" 0
finish
