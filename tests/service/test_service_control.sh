#!/usr/bin/env bash
# cuzk serve end to end, the control paths: cancelling queued and running
# jobs, evicting parameters in use (refused) and idle (freed, reloaded on
# demand), a corrupted witness failing only its job, clients killed in the
# middle of a request or a long poll (the server stays healthy and exits
# clean), malformed, wrong and oversized requests (4xx with a JSON error
# naming the field; a fixed blinding on a server that does not allow it:
# 403 naming the key that would), TCP with a bearer token, await timeouts, and the
# socket file across restarts: a stale one is replaced, a live server's is
# not, a file that is not a socket is left alone.
# Usage: test_service_control.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
make_params
write_config "$tmp/serve.ini" "synth_workers = 1
workers_per_device = 1
queue_bound = 1"
start_server "$tmp/serve.log" --config "$tmp/serve.ini" --set server.max_json_bytes=4096 \
    --set server.max_body_bytes=64K

section_start=$(date +%s%N)
section() { # prints how long the previous section took
    local now
    now=$(date +%s%N)
    echo "section took $(((now - section_start) / 1000000)) ms; next: $1"
    section_start=$now
}
state_of() { "$cuzk" api GET "/v1/jobs/$1" | field state; }
wait_running() { # id: until it is synthesizing, proving or finalizing (up to 20 s)
    for _ in $(seq 1 400); do
        case "$(state_of "$1")" in synthesizing | proving | finalizing) return 0 ;; esac
        sleep 0.05
    done
    return 1
}

# ------------------------------------------------ cancel queued and running
section "cancel queued and running"
check "submit long job" 0 "$cuzk" submit --circuit p10 --partitions 200 --seed 1
running=$(cat "$tmp/out")
check "submit a job behind it" 0 "$cuzk" submit --circuit p10 --partitions 2 --seed 500
queued=$(cat "$tmp/out")
if wait_running "$running"; then pass; else fail "the long job never ran"; fi
is "the second job waits" "$(state_of "$queued")" queued

# Parameters in use cannot be evicted.
check "evict in use" 1 "$cuzk" circuit evict p10
expect "evict refused with the reason" "$tmp/err" "in use by 2 unfinished jobs"
expect "evict refused is a conflict" "$tmp/err" "HTTP 409"

check "cancel the queued job" 0 "$cuzk" cancel "$queued"
expect "cancelled at once" "$tmp/out" '"state":"cancelled"'
check "cancel the running job" 0 "$cuzk" cancel "$running"
check "await the running job" 1 "$cuzk" await "$running" --timeout 20
expect "running job cancelled" "$tmp/out" '"state":"cancelled"'
expect "cancel reason" "$tmp/out" "cancelled by request"
done_parts=$(field partitions_done <"$tmp/out")
if [ "${done_parts:-200}" -lt 200 ]; then pass; else fail "the running job finished anyway"; fi
check "cancel again" 1 "$cuzk" cancel "$running"
expect "cancelling a finished job is a conflict" "$tmp/err" "HTTP 409"
check "cancel an unknown job" 1 "$cuzk" cancel 0123456789abcdef0123456789abcdef
expect "unknown job is 404" "$tmp/err" "HTTP 404"

# Idle parameters are evicted, and reloaded by the next job.
check "evict idle" 0 "$cuzk" circuit evict p10
expect "evicted" "$tmp/out" '"resident":false'
check "job after evict" 0 "$cuzk" submit --circuit p10 --partitions 1 --seed 77 --wait \
    --proof-out "$tmp/after.bin"
check "verify after reload" 0 "$cuzk" verify --builtin --log-constraints 10 \
    --params "$tmp/k10.params" --seed 77 "$tmp/after.bin"
check "circuit show" 0 "$cuzk" circuit show p10
expect "reloaded" "$tmp/out" '"loads":2'
check "preload" 0 "$cuzk" circuit preload chain
expect "preloaded" "$tmp/out" '"resident":true'

# ------------------------------------------------ a corrupted witness
section "a corrupted witness"
# The chain witness: a 12-byte header, section 1 (12 + 40 bytes), section
# 2's header (12), then 32-byte values. Value 1 set to all ones is >= r.
cp "$fixtures/chain_bls12381.wtns" "$tmp/bad.wtns"
head -c 32 /dev/zero | tr '\0' '\377' |
    dd of="$tmp/bad.wtns" bs=1 seek=$((76 + 32)) conv=notrunc 2>/dev/null
check "submit good 1" 0 "$cuzk" submit --circuit chain --witness "$fixtures/chain_bls12381.wtns"
good1=$(cat "$tmp/out")
check "submit corrupted" 0 "$cuzk" submit --circuit chain --witness "$tmp/bad.wtns" \
    --witness "$fixtures/chain_bls12381.wtns"
bad=$(cat "$tmp/out")
check "submit good 2" 0 "$cuzk" submit --circuit chain --witness "$fixtures/chain_bls12381.wtns"
good2=$(cat "$tmp/out")
check "corrupted job fails" 1 "$cuzk" await "$bad" --timeout 20
expect "failed" "$tmp/out" '"state":"failed"'
expect "names the partition and stage" "$tmp/out" "partition 0: synthesis failed"
check "good job 1 done" 0 "$cuzk" await "$good1" --timeout 20
check "good job 2 done" 0 "$cuzk" await "$good2" --timeout 20
check "corrupted witness streamed" 1 "$cuzk" submit --circuit chain --witness-stream "$tmp/bad.wtns"
expect "refused at submission" "$tmp/err" "HTTP 400"
expect "names the witness" "$tmp/err" "witness 0 of the body"
head -c 500 "$fixtures/chain_bls12381.wtns" >"$tmp/short.wtns"
check "truncated witness streamed" 1 "$cuzk" submit --circuit chain --witness-stream "$tmp/short.wtns"
expect "says where it ends" "$tmp/err" "runs past the body's end"

# ------------------------------------------------ malformed and oversized
section "malformed and oversized"
api_fails() { # name, status, field-or-empty, text, api args...
    local name=$1 status=$2 fld=$3 text=$4
    shift 4
    check "$name" 1 "$cuzk" api "$@"
    expect "$name: status" "$tmp/err" "HTTP $status"
    expect "$name: message" "$tmp/out" "$text"
    [ -n "$fld" ] && expect "$name: field" "$tmp/out" "\"field\":\"$fld\""
}
api_fails "malformed JSON" 400 "" "malformed JSON at line 1" POST /v1/jobs --data '{"circuit":'
api_fails "not an object" 400 "" "a JSON object is expected" POST /v1/jobs --data '[1,2]'
api_fails "unknown field" 400 colour "unknown field 'colour'" POST /v1/jobs \
    --data '{"circuit":"p10","partitions":1,"colour":"red"}'
api_fails "wrong type" 400 partitions "wants an integer from 1 to 65536, got a string" \
    POST /v1/jobs --data '{"circuit":"p10","partitions":"3"}'
api_fails "out of range" 400 partitions "got 0" POST /v1/jobs \
    --data '{"circuit":"p10","partitions":0}'
api_fails "bad priority" 400 priority "critical, high, normal or low" POST /v1/jobs \
    --data '{"circuit":"p10","partitions":1,"priority":"urgent"}'
api_fails "unknown circuit" 400 circuit "no circuit named 'nope'" POST /v1/jobs \
    --data '{"circuit":"nope","partitions":1}'
api_fails "missing circuit" 400 circuit "'circuit' is missing" POST /v1/jobs \
    --data '{"partitions":1}'
api_fails "duplicate key" 400 "" "duplicate object key" POST /v1/jobs \
    --data '{"circuit":"p10","circuit":"p10","partitions":1}'
api_fails "seed and seeds" 400 seed "one of 'seed', 'seeds'" POST /v1/jobs \
    --data '{"circuit":"p10","seed":1,"seeds":[2]}'
api_fails "bad seeds entry" 400 'seeds[1]' "wants an integer >= 0" POST /v1/jobs \
    --data '{"circuit":"p10","seeds":[1,"x"]}'
api_fails "seed for a zkey circuit" 400 "" "" POST /v1/jobs --data '{"circuit":"chain","partitions":1}'
api_fails "witness file missing" 400 "witness_paths[0]" "cannot read /nonexistent.wtns" POST /v1/jobs \
    --data '{"circuit":"chain","witness_paths":["/nonexistent.wtns"]}'
api_fails "fixed blinding, not allowed" 403 blinding "server.insecure_fixed_blinding = true" \
    POST /v1/jobs --data '{"circuit":"p10","partitions":1,"blinding":{"r":"1","s":"2"}}'
check "cuzk submit --fixed-blinding, not allowed" 1 "$cuzk" submit --circuit p10 --partitions 1 \
    --fixed-blinding 1,2
expect "names the key that allows it" "$tmp/err" "cuzk serve --insecure-fixed-blinding"
api_fails "wrong content type" 415 "" "not accepted" POST /v1/jobs --content-type text/plain \
    --data '{"circuit":"p10","partitions":1}'
api_fails "unknown query" 400 colour "unknown query argument 'colour'" GET "/v1/jobs?colour=1"
api_fails "bad await timeout" 400 timeout_s "seconds >= 0" GET "/v1/jobs/$good1/await?timeout_s=-1"
api_fails "unknown route" 404 "" "no endpoint /v2/jobs" GET /v2/jobs
api_fails "bad job id" 404 "" "not a job id" GET /v1/jobs/abc
api_fails "wrong method" 405 "" "allowed: GET" DELETE /v1/status
api_fails "proof of an unfinished job" 409 "" "a proof exists only when it is done" \
    GET "/v1/jobs/$bad/proof"
api_fails "register bad kind" 400 kind "builtin or zkey" POST /v1/circuits \
    --data '{"name":"x","kind":"plonk"}'
api_fails "register duplicate" 409 name "already registered" POST /v1/circuits \
    --data "{\"name\":\"chain\",\"kind\":\"zkey\",\"zkey\":\"$fixtures/chain_bls12381.zkey\"}"
head -c 5000 /dev/zero | tr '\0' ' ' >"$tmp/big.json"
api_fails "oversized JSON body" 413 "" "larger than the limit of 4096 bytes" POST /v1/jobs \
    --data-file "$tmp/big.json"
api_fails "oversized chunked body" 413 "" "larger than the limit of 4096 bytes" POST /v1/jobs \
    --data-file - <"$tmp/big.json"
head -c 70000 /dev/zero >"$tmp/big.bin"
api_fails "oversized witness stream" 413 "" "limit of 65536 bytes" POST "/v1/jobs?circuit=chain" \
    --content-type application/octet-stream --data-file "$tmp/big.bin"
check "oversized header" 1 "$cuzk" api GET /v1/status --header "X-Pad: $(head -c 20000 /dev/zero | tr '\0' a)"
expect "oversized header is 431" "$tmp/err" "HTTP 431"
check "register a circuit" 0 "$cuzk" api POST /v1/circuits \
    --data "{\"name\":\"chain2\",\"kind\":\"zkey\",\"zkey\":\"$fixtures/chain_bls12381.zkey\",\"preload\":true}"
expect "registered and loaded" "$tmp/out" '"resident":true'

# ------------------------------------------------ clients that vanish
section "clients that vanish"
# Half a chunked JSON body from a pipe that stays open, then the client is
# killed.
mkfifo "$tmp/body"
"$cuzk" api POST /v1/jobs --data-file - <"$tmp/body" >/dev/null 2>&1 &
body_pid=$!
exec 3>"$tmp/body"
printf '{"circuit":"p10","part' >&3
# A long poll on a long job, then that client is killed.
check "submit for a long poll" 0 "$cuzk" submit --circuit p10 --partitions 100 --seed 3
polled=$(cat "$tmp/out")
"$cuzk" await "$polled" >/dev/null 2>&1 &
await_pid=$!
sleep 0.5
kill -9 "$await_pid" "$body_pid"
{ wait "$await_pid" "$body_pid"; } 2>/dev/null
exec 3>&-
check "health after the clients left" 0 "$cuzk" api GET /v1/health
check "cancel the polled job" 0 "$cuzk" cancel "$polled"
check "a job after the clients left" 0 "$cuzk" submit --circuit p10 --partitions 1 --seed 11 \
    --wait --proof-out "$tmp/later.bin"
check "its proof verifies" 0 "$cuzk" verify --builtin --log-constraints 10 \
    --params "$tmp/k10.params" --seed 11 "$tmp/later.bin"
for _ in $(seq 1 100); do
    grep -q "ended before it was answered" "$tmp/serve.log" && break
    sleep 0.05
done
expect "the dropped request is logged" "$tmp/serve.log" "ended before it was answered"

# ------------------------------------------------ await timeouts, unreachable
section "await timeouts, unreachable"
check "submit for a timeout" 0 "$cuzk" submit --circuit p10 --partitions 100 --seed 4
slow=$(cat "$tmp/out")
check "await times out" 5 "$cuzk" await "$slow" --timeout 0.3
expect "timed out flag" "$tmp/out" '"timed_out":true'
start=$(date +%s%N)
check "server caps a long poll" 0 "$cuzk" api GET "/v1/jobs/$slow/await?timeout_s=0.2"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
if [ "$elapsed_ms" -lt 5000 ]; then pass; else fail "a 0.2 s await took $elapsed_ms ms"; fi
check "cancel it" 0 "$cuzk" cancel "$slow"
check "unreachable" 4 "$cuzk" status --socket "$tmp/nothing.sock"

# ------------------------------------------------ sockets across restarts
section "sockets across restarts"
check "a second server on the same socket" 1 "$cuzk" serve --config "$tmp/serve.ini"
expect "says another server answers" "$tmp/err" "another server is answering on $tmp/s.sock"
check "the first still answers" 0 "$cuzk" api GET /v1/health
stop_server TERM
is "clean exit" "$server_rc" 0
if [ -e "$tmp/s.sock" ]; then fail "socket file left after SIGTERM"; else pass; fi
start_server "$tmp/serve2.log" --config "$tmp/serve.ini"
stop_server KILL
if [ -S "$tmp/s.sock" ]; then pass; else fail "SIGKILL should leave the socket file"; fi
start_server "$tmp/serve3.log" --config "$tmp/serve.ini" --state-dir "$tmp/fresh-state"
pass # a stale socket file is replaced
check "fresh server answers" 0 "$cuzk" jobs --json
is "and has no jobs (a fresh state folder)" "$(cat "$tmp/out")" '{"jobs":[]}'
stop_server TERM
is "clean exit again" "$server_rc" 0
echo "not a socket" >"$tmp/s.sock"
check "a file that is not a socket" 1 "$cuzk" serve --config "$tmp/serve.ini"
expect "is left alone" "$tmp/err" "is not a socket; not touching it"
is "the file is intact" "$(cat "$tmp/s.sock")" "not a socket"
rm -f "$tmp/s.sock"

# ------------------------------------------------ configuration errors
section "configuration errors"
printf '[engine]\nretries = 1\nsynth_wrkers = 2\n' >"$tmp/bad.ini"
check "unknown key in the file" 3 "$cuzk" serve --config "$tmp/bad.ini"
expect "names file, line and key" "$tmp/err" "$tmp/bad.ini:3: [engine] unknown key 'synth_wrkers'"
check "bad value on the command line" 2 "$cuzk" serve --config "$tmp/serve.ini" --retries lots
expect "names the flag and key" "$tmp/err" "command line (--retries): [engine] key 'retries'"
check "TCP without a token" 3 "$cuzk" serve --config "$tmp/serve.ini" --tcp 127.0.0.1:0
expect "says why" "$tmp/err" "'tcp' needs 'token_file'"

# ------------------------------------------------ TCP with a bearer token
section "TCP with a bearer token"
printf 'test-token-0123456789abcdef\n' >"$tmp/token"
chmod 600 "$tmp/token"
printf 'wrong-token-0123456789abcdef\n' >"$tmp/wrong"
chmod 600 "$tmp/wrong"
start_server "$tmp/tcp.log" --config "$tmp/serve.ini" --tcp 127.0.0.1:0 --token-file "$tmp/token"
port=$(sed -n 's/.*listening on tcp:127.0.0.1:\([0-9]*\).*/\1/p' "$tmp/tcp.log")
url=http://127.0.0.1:$port
check "TCP with the token" 0 "$cuzk" status --url "$url" --token-file "$tmp/token"
check "TCP without a token" 1 "$cuzk" status --url "$url"
expect "401 without" "$tmp/err" "HTTP 401"
check "TCP with a wrong token" 1 "$cuzk" status --url "$url" --token-file "$tmp/wrong"
expect "401 wrong" "$tmp/err" "the bearer token is wrong"
check "a job over TCP" 0 "$cuzk" submit --url "$url" --token-file "$tmp/token" --circuit p10 \
    --seeds 21,22 --wait --proof-out "$tmp/tcp.bin"
check "its proof verifies" 0 "$cuzk" verify --builtin --log-constraints 10 \
    --params "$tmp/k10.params" --seed 21 "$tmp/tcp.bin"
check "the socket needs no token" 0 "$cuzk" api GET /v1/status
stop_server TERM
is "clean exit with TCP" "$server_rc" 0
finish
