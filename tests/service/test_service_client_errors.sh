#!/usr/bin/env bash
# cuzk serve and its client when things go wrong: `cuzk await` exits 4
# when the server dies under it; a --config that is a folder and
# max_wait_s = 0 stop the start (exit 3), and a server with a tiny await
# cap is not polled in a tight loop; a second cancel of a job that is
# stopping is answered as the first, one of a final job 409 naming its
# state; --proof-out into a device fails loudly and leaves the device;
# without XDG_RUNTIME_DIR the socket lies in a private folder of its own,
# and a folder or socket of someone else is not used.
# Usage: test_service_client_errors.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
make_params
write_config "$tmp/serve.ini" "synth_workers = 1
workers_per_device = 1
queue_bound = 1"

# ------------------------------------------------ configuration
check "--config naming a folder" 3 timeout 10 "$cuzk" serve --config "$tmp"
expect "the folder: says so" "$tmp/err" "a folder"
check "max_wait_s = 0" 3 timeout 10 "$cuzk" serve --config "$tmp/serve.ini" \
    --set server.max_wait_s=0
expect "max_wait_s: names the key" "$tmp/err" "max_wait_s"

# ------------------------------------------------ await against a tiny cap
start_server "$tmp/poll.log" --config "$tmp/serve.ini" --max-wait 0.01
check "a long job" 0 "$cuzk" submit --circuit p10 --partitions 200 --seed 1
long=$(cat "$tmp/out")
check "await for 1 s" 5 "$cuzk" await "$long" --timeout 1
polls=$(grep -c "GET /v1/jobs/$long/await" "$tmp/poll.log")
echo "await asked $polls times in 1 s"
if [ "$polls" -le 12 ]; then pass; else fail "await polled $polls times in 1 s"; fi

# ------------------------------------------------ cancel twice
# Both cancels in one connection, a moment apart: the job is still
# stopping (its running partition ends at its next boundary) or final.
curl -s --unix-socket "$tmp/s.sock" -X POST "http://x/v1/jobs/$long/cancel" \
    -o "$tmp/first" -w '%{http_code}\n' \
    --next -s --unix-socket "$tmp/s.sock" -X POST "http://x/v1/jobs/$long/cancel" \
    -o "$tmp/second" -w '%{http_code}\n' >"$tmp/codes"
is "the first cancel" "$(sed -n 1p "$tmp/codes")" 200
second=$(sed -n 2p "$tmp/codes")
case "$second" in
200) pass ;;
409) expect "a second cancel of a final job names its state" "$tmp/second" "already cancelled" ;;
*) fail "the second cancel answered $second: $(cat "$tmp/second")" ;;
esac
if grep -qE 'already (queued|synthesizing|proving|finalizing|stopping)' "$tmp/second"; then
    fail "the second cancel says: $(cat "$tmp/second")"
else pass; fi
"$cuzk" await "$long" --timeout 30 >/dev/null 2>&1
check "a cancel of the cancelled job" 1 "$cuzk" cancel "$long"
expect "409" "$tmp/err" "HTTP 409"
expect "names its state" "$tmp/err" "already cancelled"

# ------------------------------------------------ --proof-out into a device
check "a small job" 0 "$cuzk" submit --circuit p10 --partitions 1 --seed 3 --wait
small=$(field id <"$tmp/out")
# As root, a node of our own stands in for /dev/full: a client that
# renames over its target would replace the machine's.
full=/dev/full
if [ "$(id -u)" -eq 0 ]; then
    full=$tmp/full
    mknod "$full" c 1 7
fi
check "--proof-out into the full device" 1 "$cuzk" await "$small" --proof-out "$full"
expect "says what is wrong" "$tmp/err" "$full"
if [ -c "$full" ]; then pass; else fail "$full is no longer a device"; fi
ln -s "$tmp/victim" "$tmp/link.bin"
echo precious >"$tmp/victim"
check "--proof-out onto a symbolic link" 1 "$cuzk" await "$small" --proof-out "$tmp/link.bin"
if [ -L "$tmp/link.bin" ] && [ "$(cat "$tmp/victim")" = precious ]; then pass; else
    fail "the link or its target was replaced"
fi
check "--proof-out into a file" 0 "$cuzk" await "$small" --proof-out "$tmp/p.bin"
is "192 bytes" "$(stat -c %s "$tmp/p.bin")" 192

# ------------------------------------------------ the server dies under await
# A server of the default cap, so that the kill lands inside a long poll.
stop_server_within 10 TERM
start_server "$tmp/die.log" --config "$tmp/serve.ini"
check "another long job" 0 "$cuzk" submit --circuit p10 --partitions 200 --seed 9
"$cuzk" await "$(cat "$tmp/out")" --timeout 60 >"$tmp/await.out" 2>"$tmp/await.err" &
waiter=$!
sleep 1
kill -9 "$server_pid"
wait "$server_pid" 2>/dev/null
wait "$waiter"
is "await exits 4 when the server dies" "$?" 4
sed 's/^/    await: /' "$tmp/await.err"

# ------------------------------------------------ the default socket
cat >"$tmp/nosock.ini" <<EOF2
[engine]
backend = cpu
EOF2
uid=$(id -u)
mkdir -p "$tmp/t"
default_env=(env -u XDG_RUNTIME_DIR -u CUZK_SOCKET "TMPDIR=$tmp/t")
"${default_env[@]}" "$cuzk" serve --config "$tmp/nosock.ini" >"$tmp/default.log" 2>&1 &
server_pid=$!
server_pids+=("$server_pid")
for _ in $(seq 1 100); do
    [ -S "$tmp/t/cuzk-$uid/cuzk.sock" ] && break
    sleep 0.05
done
if [ -S "$tmp/t/cuzk-$uid/cuzk.sock" ]; then pass; else
    fail "no socket in a folder of its own: $(ls -la "$tmp/t")"
    sed 's/^/    /' "$tmp/default.log"
fi
is "the folder is private" "$(stat -c %a "$tmp/t/cuzk-$uid" 2>/dev/null)" 700
check "the client finds it" 0 "${default_env[@]}" "$cuzk" status
stop_server_within 10 TERM
mkdir -p "$tmp/t2/cuzk-$uid"
chmod 755 "$tmp/t2/cuzk-$uid"
check "a folder others may enter is refused" 1 timeout 10 env -u XDG_RUNTIME_DIR \
    "TMPDIR=$tmp/t2" "$cuzk" serve --config "$tmp/nosock.ini"
expect "says it is not private" "$tmp/err" "not private"
if [ "$uid" -eq 0 ] && id nobody >/dev/null 2>&1; then
    # A stale socket of another user at the configured path is left alone.
    python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" \
        "$tmp/other.sock"
    chown nobody "$tmp/other.sock"
    check "another user's socket is not reused" 1 timeout 10 "$cuzk" serve \
        --config "$tmp/serve.ini" --socket "$tmp/other.sock"
    expect "says whose" "$tmp/err" "not ours"
    if [ -S "$tmp/other.sock" ]; then pass; else fail "another user's socket was removed"; fi
    mkdir -p "$tmp/t3/cuzk-$uid"
    chmod 700 "$tmp/t3/cuzk-$uid"
    chown nobody "$tmp/t3/cuzk-$uid"
    check "another user's folder is refused" 1 timeout 10 env -u XDG_RUNTIME_DIR \
        "TMPDIR=$tmp/t3" "$cuzk" serve --config "$tmp/nosock.ini"
    expect "another user's folder: not private" "$tmp/err" "not private"
else
    echo "SKIPPED (visibly): the cases of another user's socket and folder need root"
fi
finish
