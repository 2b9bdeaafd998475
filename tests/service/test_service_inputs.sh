#!/usr/bin/env bash
# cuzk serve and the files clients name. A FIFO given as a witness, a zkey
# (over the API or in the configuration) is refused at once, never waited
# on, and SIGTERM still stops the server. Circuit names follow the [circuit
# NAME] rule, and what a client sends reaches the log escaped (no forged
# lines). Circuit files registered over TCP are confined to
# server.circuit_dir like witnesses (403 outside, whether they exist or
# not; without the folder, refused over TCP). A witness in the witness
# folder is the file that was checked: swapping it for a link after the
# submission changes nothing.
# Usage: test_service_inputs.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
make_params
write_config "$tmp/serve.ini" "synth_workers = 1
workers_per_device = 1
queue_bound = 1"
printf 'test-token-0123456789abcdef\n' >"$tmp/token"
chmod 600 "$tmp/token"
wtns=$fixtures/chain_bls12381.wtns
zkey=$fixtures/chain_bls12381.zkey
mkdir -p "$tmp/wit" "$tmp/circ" "$tmp/outside"
mkfifo "$tmp/fifo.wtns" "$tmp/fifo.zkey" "$tmp/wit/fifo.wtns"
cp "$zkey" "$tmp/circ/chain.zkey"
cp "$zkey" "$tmp/outside/chain.zkey"
# A witness that does not parse: the first 100 bytes of a good one.
head -c 100 "$wtns" >"$tmp/outside/broken.wtns"

# ------------------------------------------------ FIFOs (no folders)
start_server "$tmp/plain.log" --config "$tmp/serve.ini" --tcp 127.0.0.1:0 \
    --token-file "$tmp/token"
tcp=(--url "http://127.0.0.1:$(tcp_port "$tmp/plain.log")" --token-file "$tmp/token")
check "a FIFO as witness path is refused" 1 timeout 10 "$cuzk" api POST /v1/jobs \
    --data "{\"circuit\":\"chain\",\"witness_paths\":[\"$tmp/fifo.wtns\"]}"
expect "the FIFO witness: 400" "$tmp/err" "HTTP 400"
expect "the FIFO witness: says so" "$tmp/out" "a FIFO"
check "a FIFO as zkey is refused" 1 timeout 10 "$cuzk" api POST /v1/circuits \
    --data "{\"name\":\"fifo\",\"kind\":\"zkey\",\"zkey\":\"$tmp/fifo.zkey\",\"preload\":true}"
expect "the FIFO zkey: 400" "$tmp/err" "HTTP 400"
expect "the FIFO zkey: says so" "$tmp/out" "a FIFO"
check "a job after them is proved" 0 timeout 30 "$cuzk" submit --circuit chain \
    --witness "$wtns" --wait
expect "the job after them: done" "$tmp/out" '"state":"done"'

# ------------------------------------------------ names and the log
check "a name with a newline" 1 "$cuzk" api POST /v1/circuits \
    --data "{\"name\":\"x\\nFORGED\",\"kind\":\"zkey\",\"zkey\":\"$zkey\"}"
expect "the name: 400" "$tmp/err" "HTTP 400"
expect "the name: field" "$tmp/out" '"field":"name"'
check "a name with a slash" 1 "$cuzk" api POST /v1/circuits \
    --data "{\"name\":\"a/b\",\"kind\":\"zkey\",\"zkey\":\"$zkey\"}"
expect "the slash: field" "$tmp/out" '"field":"name"'
check "a name by the rule" 0 "$cuzk" api POST /v1/circuits \
    --data "{\"name\":\"ok-1.x_y\",\"kind\":\"zkey\",\"zkey\":\"$zkey\"}"
check "a path with an encoded newline" 1 "$cuzk" api GET "/v1/nope%0AFORGED%20line"
if grep -q '^FORGED' "$tmp/plain.log"; then
    fail "a client forged a log line"
    grep -n 'FORGED' "$tmp/plain.log" | sed 's/^/    /'
else pass; fi
expect "the newline is logged escaped" "$tmp/plain.log" 'nope\x0aFORGED line'

# ------------------------------------------------ circuit files over TCP
check "a circuit file over TCP without circuit_dir" 1 "$cuzk" api "${tcp[@]}" \
    POST /v1/circuits --data "{\"name\":\"t1\",\"kind\":\"zkey\",\"zkey\":\"$zkey\"}"
expect "no circuit_dir: 403" "$tmp/err" "HTTP 403"
expect "no circuit_dir: names the key" "$tmp/out" "server.circuit_dir"
check "...nor a missing one (no existence oracle)" 1 "$cuzk" api "${tcp[@]}" \
    POST /v1/circuits --data "{\"name\":\"t2\",\"kind\":\"zkey\",\"zkey\":\"$tmp/nope.zkey\"}"
expect "a missing one: 403 too" "$tmp/err" "HTTP 403"
stop_server_within 10 TERM
is "a clean exit after the FIFOs" "$server_rc" 0

# A circuit of the configuration file whose zkey is a FIFO stops the start
# (exit 3) instead of hanging it.
cat >"$tmp/fifo.ini" <<EOF2
[server]
socket = $tmp/s.sock
[circuit f]
kind = zkey
zkey = $tmp/fifo.zkey
EOF2
check "a FIFO zkey in the configuration" 3 timeout 10 "$cuzk" serve --config "$tmp/fifo.ini"
expect "the configuration's FIFO: says so" "$tmp/err" "a FIFO"

# ------------------------------------------------ with both folders
start_server "$tmp/dirs.log" --config "$tmp/serve.ini" --tcp 127.0.0.1:0 \
    --token-file "$tmp/token" --witness-dir "$tmp/wit" --circuit-dir "$tmp/circ"
expect "the circuit folder is logged" "$tmp/dirs.log" "must lie in $tmp/circ"
tcp=(--url "http://127.0.0.1:$(tcp_port "$tmp/dirs.log")" --token-file "$tmp/token")
register() { # NAME ZKEY [client options]
    local name=$1 file=$2
    shift 2
    "$cuzk" api "$@" POST /v1/circuits \
        --data "{\"name\":\"$name\",\"kind\":\"zkey\",\"zkey\":\"$file\",\"preload\":true}" \
        >"$tmp/out" 2>"$tmp/err"
}
register c1 chain.zkey "${tcp[@]}"
is "inside, relative, over TCP" "$?" 0
register c2 "$tmp/outside/chain.zkey" "${tcp[@]}"
is "outside, absolute: refused" "$?" 1
expect "outside: 403" "$tmp/err" "HTTP 403"
expect "outside: names the key" "$tmp/out" '"field":"zkey"'
register c3 ../outside/chain.zkey "${tcp[@]}"
expect "../ outside: 403" "$tmp/err" "HTTP 403"
register c4 ../outside/missing.zkey "${tcp[@]}"
expect "../ to a missing file: 403 as well" "$tmp/err" "HTTP 403"
register c5 missing.zkey "${tcp[@]}"
expect "missing inside: 400" "$tmp/err" "HTTP 400"
ln -s "$tmp/outside/chain.zkey" "$tmp/circ/out-link.zkey"
register c6 out-link.zkey "${tcp[@]}"
expect "a link inside pointing out: 403" "$tmp/err" "HTTP 403"
register c7 "$tmp/outside/chain.zkey"
expect "the Unix socket is confined too" "$tmp/err" "HTTP 403"
check "a job of the confined circuit" 0 "$cuzk" submit "${tcp[@]}" --circuit c1 \
    --witness-stream "$wtns" --wait
check "evicted and loaded again" 0 "$cuzk" circuit evict c1
check "...proves again" 0 "$cuzk" submit --circuit c1 --witness-stream "$wtns" --wait

check "a FIFO in the witness folder" 1 timeout 10 "$cuzk" api POST /v1/jobs \
    --data '{"circuit":"chain","witness_paths":["fifo.wtns"]}'
expect "the FIFO in the folder: 400" "$tmp/err" "HTTP 400"

# The checked file is the file proved: a job waits behind a long one; its
# witness is then swapped for a link to a broken file outside the folder.
cp "$wtns" "$tmp/wit/w.wtns"
check "a long job" 0 "$cuzk" submit --circuit p10 --partitions 100 --seed 1
long=$(cat "$tmp/out")
check "a witness job behind it" 0 "$cuzk" api POST /v1/jobs \
    --data '{"circuit":"chain","witness_paths":["w.wtns"]}'
swapped=$(field id <"$tmp/out")
mv "$tmp/wit/w.wtns" "$tmp/wit/w.old"
ln -s "$tmp/outside/broken.wtns" "$tmp/wit/w.wtns"
check "cancel the long job" 0 "$cuzk" cancel "$long"
check "the witness job is proved from the file checked" 0 "$cuzk" await "$swapped" --timeout 60
expect "the swapped witness: done" "$tmp/out" '"state":"done"'
stop_server_within 10 TERM
is "a clean exit with the folders" "$server_rc" 0
finish
