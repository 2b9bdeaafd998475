#!/usr/bin/env bash
# cuzk serve with its job store in PostgreSQL (--store postgresql://...),
# against a real server (tests/store/pg_test_server.sh): a job proved and
# a running one and streamed witnesses (one done, one queued), the server
# killed with SIGKILL; after a restart on the same database the old ids
# answer their own proofs, which verify, the running one finishing and
# the queued streamed one running from its stored witness (the killed
# server's leases run out: a short lease here); the SQLite file is not
# made; a second server on the database is accepted and answers the same
# jobs; an --store that is not a postgresql:// URL, or
# a server that cannot be reached, fails the start naming it without the
# password. Without PostgreSQL's binaries it fails.
# Usage: test_service_pg.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
pg_serve_setup
serve() { start_server "$tmp/serve$1.log" --config "$tmp/serve.ini" --store "$PG_URL"; }

serve 1
expect "the log names the store" "$tmp/serve1.log" "job store in PostgreSQL"
check "submit a short job" 0 "$cuzk" submit --circuit p10 --partitions 2 --seed 1 --key pg-1
done_id=$(cat "$tmp/out")
check "await it" 0 "$cuzk" await "$done_id" --proof-out "$tmp/done1.bin"
check "a streamed witness, done" 0 "$cuzk" submit --circuit chain --witness-stream \
    "$fixtures/chain_bls12381.wtns" --wait --proof-out "$tmp/c1.json" --public-out "$tmp/p1.json"
chain_done=$(sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' "$tmp/out")
check "submit a longer job" 0 "$cuzk" submit --circuit p10 --partitions 12 --seed 100
long=$(cat "$tmp/out")
check "a streamed witness, queued" 0 "$cuzk" submit --circuit chain --witness-stream \
    "$fixtures/chain_bls12381.wtns"
streamed=$(cat "$tmp/out")
sleep 0.3
stop_server 9

serve 2
check "the done job after the kill" 0 "$cuzk" await "$done_id" --proof-out "$tmp/done2.bin"
if cmp -s "$tmp/done1.bin" "$tmp/done2.bin"; then pass; else
    fail "the done job's proof changed across the restart"
fi
verify_seeds "the done job verifies" 1 "$tmp/done2.bin" 2
check "the key gives the same job" 0 "$cuzk" submit --circuit p10 --partitions 2 --seed 1 \
    --key pg-1
is "same id" "$(cat "$tmp/out")" "$done_id"
check "the running job finishes" 0 "$cuzk" await "$long" --proof-out "$tmp/long.bin"
verify_seeds "the running job verifies" 100 "$tmp/long.bin" 12
same_answer "the streamed job done before" "$chain_done" "$tmp/c1.json" "$tmp/p1.json"
check "the queued streamed job runs from its stored witness" 0 "$cuzk" await "$streamed" \
    --proof-out "$tmp/c3.json" --public-out "$tmp/p3.json"
check "its public signals are the witness's" 0 cmp "$tmp/p1.json" "$tmp/p3.json"
if ls "$XDG_STATE_HOME"/cuzk/jobs.sqlite >/dev/null 2>&1; then
    fail "a SQLite store was made"
else pass; fi

# A second server on the database, on its own socket: one queue, so it
# answers the first's jobs.
first=$server_pid
CUZK_SOCKET=$tmp/s2.sock start_server "$tmp/serve3.log" --config "$tmp/serve.ini" \
    --socket "$tmp/s2.sock" --store "$PG_URL" --set server.cluster_max_queued=3
check "the second server answers the first's job" 0 env CUZK_SOCKET="$tmp/s2.sock" \
    "$cuzk" await "$done_id" --proof-out "$tmp/done3.bin"
check "with the same proof" 0 cmp "$tmp/done1.bin" "$tmp/done3.bin"
# Its bound on the shared queue (3 partitions; the queue is empty now): a
# job of 4 is refused saying why, one of 3 is taken.
check "a job past the shared queue's bound is refused" 1 env CUZK_SOCKET="$tmp/s2.sock" \
    "$cuzk" submit --circuit p10 --partitions 4 --seed 300
expect "saying the queue is full" "$tmp/err" "the shared queue is full"
expect "and its bound" "$tmp/err" "server.cluster_max_queued) is 3"
check "a job within it is taken" 0 env CUZK_SOCKET="$tmp/s2.sock" \
    "$cuzk" submit --circuit p10 --partitions 3 --seed 300 --wait --proof-out "$tmp/b.bin"
verify_seeds "and proved" 300 "$tmp/b.bin" 3
stop_server TERM
server_pid=$first
stop_server TERM

check "not a postgresql:// URL" 1 "$cuzk" serve --config "$tmp/serve.ini" --store mysql://x/y
expect "it says so" "$tmp/err" "postgresql://"
check "an unreachable server" 1 "$cuzk" serve --config "$tmp/serve.ini" \
    --store "postgresql://cuzk:s3cret@/cuzk?host=$tmp/none&connect_timeout=2"
expect "it names the server" "$tmp/err" "host=$tmp/none"
if grep -q s3cret "$tmp/err"; then fail "the password is in the message"; else pass; fi
finish
