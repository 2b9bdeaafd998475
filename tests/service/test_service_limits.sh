#!/usr/bin/env bash
# cuzk serve's bounds. Queued work: past server.max_queued_jobs,
# _partitions or _bytes a submission is answered 429 with Retry-After, and
# a job's share comes back once it is final; a cancelled job of 65536
# partitions gives its memory back. Connections: clients that connect to
# the TCP port and send nothing do not take every slot (a per-address
# bound, a share for connections not yet authenticated) and are closed at
# the header deadline; each of the two bounds is also tested alone, with
# the deadline out of reach, so that neither hides the other's absence. A request with two Authorization or Content-Length
# headers is refused (400), whatever their values.
# Usage: test_service_limits.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
need_python
make_params
write_config "$tmp/serve.ini" "synth_workers = 1
workers_per_device = 1
queue_bound = 1"
printf 'test-token-0123456789abcdef\n' >"$tmp/token"
chmod 600 "$tmp/token"

# raw_request HOST PORT|unix:PATH REQUEST: sends REQUEST (with \r\n) as is
# and prints the status line of the answer.
raw_request() {
    python3 - "$@" <<'PY'
import socket, sys
target, request = sys.argv[2], sys.argv[3].encode().decode('unicode_escape').encode()
if target.startswith('unix:'):
    s = socket.socket(socket.AF_UNIX); s.connect(target[5:])
else:
    s = socket.create_connection((sys.argv[1], int(target)))
s.settimeout(10)
s.sendall(request)
data = b''
try:
    while b'\r\n' not in data:
        chunk = s.recv(4096)
        if not chunk: break
        data += chunk
except socket.timeout:
    pass
print(data.split(b'\r\n')[0].decode(errors='replace') or 'NO ANSWER')
PY
}

# ------------------------------------------------ queued work
start_server "$tmp/q.log" --config "$tmp/serve.ini" --set server.max_queued_jobs=2 \
    --set server.max_queued_partitions=300 --set server.max_queued_bytes=250K
submit_raw() { # JSON: prints the HTTP status; the headers go to $tmp/headers
    curl -s -o "$tmp/out" -D "$tmp/headers" -w '%{http_code}' --unix-socket "$tmp/s.sock" \
        -H 'Content-Type: application/json' --data "$1" http://x/v1/jobs
}
is "a job of 200 partitions" "$(submit_raw '{"circuit":"p10","partitions":200,"seed":1}')" 201
a=$(field id <"$tmp/out")
is "a second one of 10" "$(submit_raw '{"circuit":"p10","partitions":10,"seed":1}')" 201
b=$(field id <"$tmp/out")
is "a third job passes max_queued_jobs" "$(submit_raw '{"circuit":"p10","partitions":1}')" 429
expect "429 has Retry-After" "$tmp/headers" "Retry-After:"
expect "429 names the bound" "$tmp/out" "max_queued_jobs"
check "cancel the second" 0 "$cuzk" cancel "$b"
check "await it" 1 "$cuzk" await "$b" --timeout 20
is "past max_queued_partitions" "$(submit_raw '{"circuit":"p10","partitions":150}')" 429
expect "names the partitions bound" "$tmp/out" "max_queued_partitions"
is "past max_queued_bytes" "$(submit_raw '{"circuit":"p10","partitions":60}')" 429
expect "names the bytes bound" "$tmp/out" "max_queued_bytes"
is "within every bound" "$(submit_raw '{"circuit":"p10","partitions":40,"seed":3}')" 201
c=$(field id <"$tmp/out")
check "cancel the rest" 0 "$cuzk" cancel "$a"
check "cancel c" 0 "$cuzk" cancel "$c"
"$cuzk" await "$a" --timeout 20 >/dev/null 2>&1
"$cuzk" await "$c" --timeout 20 >/dev/null 2>&1
is "every share came back" "$(submit_raw '{"circuit":"p10","partitions":240,"seed":5}')" 201
check "cancel it" 0 "$cuzk" cancel "$(field id <"$tmp/out")"
stop_server_within 20 TERM

# A cancelled job of 65536 partitions holds ~50 MB of partition records in
# the engine; once final, they are given back (six in a row would hold
# 300 MB otherwise).
# Under AddressSanitizer freed memory waits in a quarantine first: off for
# this server, so that what is freed leaves the resident set as it does
# without it.
saved_asan=${ASAN_OPTIONS-}
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
start_server "$tmp/mem.log" --config "$tmp/serve.ini"
export ASAN_OPTIONS=$saved_asan
rss() { awk '/^VmRSS/ {print $2}' "/proc/$server_pid/status"; }
big_cycle() {
    check "a job of 65536 partitions" 0 "$cuzk" submit --circuit p10 --partitions 65536
    local id
    id=$(cat "$tmp/out")
    check "cancel it" 0 "$cuzk" cancel "$id"
    "$cuzk" await "$id" --timeout 60 >/dev/null 2>&1
}
big_cycle
first=$(rss)
for _ in 1 2 3 4 5; do big_cycle; done
last=$(rss)
echo "resident: $first KiB after one cancelled job of 65536 partitions, $last KiB after six"
if [ $((last - first)) -lt 100000 ]; then pass; else
    fail "cancelled jobs keep their memory: $first KiB, then $last KiB"
fi
stop_server_within 20 TERM

# ------------------------------------------------ duplicated headers
start_server "$tmp/h.log" --config "$tmp/serve.ini" --tcp 127.0.0.1:0 --token-file "$tmp/token"
port=$(tcp_port "$tmp/h.log")
auth='Authorization: Bearer test-token-0123456789abcdef'
is "one Authorization: answered" \
    "$(raw_request 127.0.0.1 "$port" "GET /v1/health HTTP/1.1\r\nHost: x\r\n$auth\r\nConnection: close\r\n\r\n")" \
    "HTTP/1.1 200 OK"
is "two Authorization headers, both right: 400" \
    "$(raw_request 127.0.0.1 "$port" "GET /v1/health HTTP/1.1\r\nHost: x\r\n$auth\r\n$auth\r\nConnection: close\r\n\r\n")" \
    "HTTP/1.1 400 Bad Request"
is "a wrong and a right Authorization: 400" \
    "$(raw_request 127.0.0.1 "$port" "GET /v1/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nope\r\n$auth\r\nConnection: close\r\n\r\n")" \
    "HTTP/1.1 400 Bad Request"
body='{"circuit":"p10","partitions":1}'
is "two equal Content-Length headers: 400" \
    "$(raw_request - "unix:$tmp/s.sock" "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${#body}\r\nContent-Length: ${#body}\r\nConnection: close\r\n\r\n$body")" \
    "HTTP/1.1 400 Bad Request"
is "two different Content-Length headers: 400" \
    "$(raw_request - "unix:$tmp/s.sock" "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: ${#body}\r\nConnection: close\r\n\r\n$body")" \
    "HTTP/1.1 400 Bad Request"
stop_server_within 10 TERM

# ------------------------------------------------ each bound on silent connections alone
# hold_silent PORT ADDR:COUNT...: opens COUNT connections from each loopback
# ADDR, one after another, that send nothing; after a while prints how many
# of each address the server still holds ("held ADDR N"), then the status
# line of an authenticated request from 127.0.0.1 made while they are held
# ("auth STATUS-LINE"); then closes them.
hold_silent() {
    python3 - "$@" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
conns = []
for spec in sys.argv[2:]:
    addr, n = spec.split(':')
    for _ in range(int(n)):
        s = socket.socket()
        s.bind((addr, 0))
        s.connect(('127.0.0.1', port))
        conns.append((addr, s))
        time.sleep(0.05)
time.sleep(1.5)
held = {}
for addr, s in conns:
    s.settimeout(0.2)
    try:
        alive = s.recv(1) != b''  # b'': the server closed it
    except socket.timeout:
        alive = True
    except OSError:
        alive = False
    held[addr] = held.get(addr, 0) + alive
for addr in sorted(held):
    print('held %s %d' % (addr, held[addr]))
r = socket.create_connection(('127.0.0.1', port))
r.settimeout(10)
r.sendall(b'GET /v1/health HTTP/1.1\r\nHost: x\r\n'
          b'Authorization: Bearer test-token-0123456789abcdef\r\nConnection: close\r\n\r\n')
data = b''
try:
    while b'\r\n' not in data:
        chunk = r.recv(4096)
        if not chunk:
            break
        data += chunk
except OSError:
    pass
print('auth ' + (data.split(b'\r\n')[0].decode(errors='replace') or 'NO ANSWER'))
for _, s in conns:
    s.close()
PY
}

# The per-address bound alone: six silent connections from 127.0.0.2 and
# one from 127.0.0.3, with room for all of them otherwise (16 slots, 16 for
# connections not yet authenticated, a deadline far away): 127.0.0.2 keeps
# 3, 127.0.0.3 its one, and an authenticated client is answered.
start_server "$tmp/pa.log" --config "$tmp/serve.ini" --tcp 127.0.0.1:0 --token-file "$tmp/token" \
    --set server.max_connections=16 --set server.max_connections_per_address=3 \
    --set server.max_unauthenticated=16 --set server.header_timeout_s=30
port=$(tcp_port "$tmp/pa.log")
hold_silent "$port" 127.0.0.2:6 127.0.0.3:1 >"$tmp/pa.out" 2>&1
expect "one address holds at most max_connections_per_address" "$tmp/pa.out" "held 127.0.0.2 3"
expect "another address is not held to the first's share" "$tmp/pa.out" "held 127.0.0.3 1"
expect "an authenticated client is answered beside them" "$tmp/pa.out" "auth HTTP/1.1 200 OK"
stop_server_within 10 TERM

# The slots kept for authenticated clients alone: no per-address bound and
# the deadline far away; six silent connections from one address on a
# server of six slots, three of them for connections not yet
# authenticated. Each newcomer past the three closes the oldest silent
# one, so three are held, and an authenticated client still gets a slot.
start_server "$tmp/ua.log" --config "$tmp/serve.ini" --tcp 127.0.0.1:0 --token-file "$tmp/token" \
    --set server.max_connections=6 --set server.max_connections_per_address=0 \
    --set server.max_unauthenticated=3 --set server.header_timeout_s=30
port=$(tcp_port "$tmp/ua.log")
hold_silent "$port" 127.0.0.2:6 >"$tmp/ua.out" 2>&1
expect "silent connections hold at most max_unauthenticated slots" "$tmp/ua.out" "held 127.0.0.2 3"
expect "the slots kept for authenticated clients answer" "$tmp/ua.out" "auth HTTP/1.1 200 OK"
stop_server_within 10 TERM

# ------------------------------------------------ connections that send nothing
start_server "$tmp/c.log" --config "$tmp/serve.ini" --tcp 127.0.0.1:0 --token-file "$tmp/token" \
    --set server.max_connections=8 --set server.max_connections_per_address=4 \
    --set server.header_timeout_s=1
port=$(tcp_port "$tmp/c.log")
tcp=(--url "http://127.0.0.1:$port" --token-file "$tmp/token")
# Sixteen silent connections (twice the slots) from 127.0.0.2 (a loopback address of its own);
# each reports how long the server kept it.
python3 - "$port" >"$tmp/silent.out" 2>&1 <<'PY' &
import socket, sys, time, threading
port = int(sys.argv[1])
results = []
def hold():
    s = socket.socket()
    s.bind(('127.0.0.2', 0))
    t0 = time.time()
    try:
        s.connect(('127.0.0.1', port))
        s.settimeout(15)
        s.recv(1)  # b'' when the server closes it
    except Exception:
        pass
    results.append(time.time() - t0)
threads = [threading.Thread(target=hold) for _ in range(16)]
for t in threads: t.start()
for t in threads: t.join()
print('longest %.1f' % max(results))
PY
silent=$!
sleep 1
check "an authenticated client gets through the silent ones" 0 timeout 5 "$cuzk" status "${tcp[@]}"
wait "$silent"
longest=$(sed -n 's/longest //p' "$tmp/silent.out")
echo "the silent connections were held up to ${longest:-?} s"
if awk -v t="${longest:-99}" 'BEGIN { exit !(t < 5) }'; then pass; else
    fail "silent connections were not closed at the header deadline (held ${longest:-?} s)"
    sed 's/^/    /' "$tmp/silent.out"
fi
check "still healthy" 0 "$cuzk" status "${tcp[@]}"
stop_server_within 10 TERM
finish
