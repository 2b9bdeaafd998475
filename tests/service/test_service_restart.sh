#!/usr/bin/env bash
# cuzk serve across restarts, with its job store (server.state_dir): jobs
# done, running, queued and submitted with an idempotency key when the
# server is killed with SIGKILL; after a restart on the same folder, each
# old id answers its own job with a proof that verifies for its inputs (a
# done one bit for bit the proof answered before), the running job goes on
# from its unfinished partitions, a queued streamed witness runs from the
# store, a witness path relative to the witness folder reads that file, a queued job whose witness file is gone fails "interrupted by a
# restart", a cancelled one stays cancelled, the key gives the same job,
# and an unknown or numeric id is a 404. A job cancelled by a SIGTERM shutdown
# runs again at the next start; five submits with one key at once make one
# job; finished jobs past engine.keep_finished expire at start (404); a
# job whose stored row was damaged answers failed, saying so.
# Usage: test_service_restart.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
make_params
write_config "$tmp/serve.ini" "synth_workers = 1
workers_per_device = 1
queue_bound = 1"
state="$tmp/jobs-state"
mkdir "$tmp/wit"
serve() {
    start_server "$tmp/serve$1.log" --config "$tmp/serve.ini" --state-dir "$state" \
        --witness-dir "$tmp/wit"
}
partitions_done() { "$cuzk" api GET "/v1/jobs/$1" | field partitions_done; }

serve 1
if [ -f "$state/jobs.sqlite" ]; then pass; else fail "no $state/jobs.sqlite"; fi
is "the state folder is private" "$(stat -c %a "$state")" 700

# Jobs done before the kill: the built-in circuit, and a streamed witness
# (snarkjs's files).
check "submit a short job" 0 "$cuzk" submit --circuit p10 --partitions 2 --seed 1
done_id=$(cat "$tmp/out")
if [[ $done_id =~ ^[0-9a-f]{32}$ ]]; then pass; else fail "id '$done_id' is not 32 hex digits"; fi
check "await it" 0 "$cuzk" await "$done_id" --proof-out "$tmp/done1.bin"
check "a streamed witness, done" 0 "$cuzk" submit --circuit chain --witness-stream \
    "$fixtures/chain_bls12381.wtns" --wait --proof-out "$tmp/c1.json" --public-out "$tmp/p1.json"
chain_done=$(sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' "$tmp/out")

# A long job, running at the kill; two behind it, queued: one with a key,
# one whose witness file goes away.
check "submit a long job" 0 "$cuzk" submit --circuit p10 --partitions 60 --seed 1000
long=$(cat "$tmp/out")
check "submit with a key" 0 "$cuzk" submit --circuit p10 --partitions 3 --seed 2000 --key k-1
keyed=$(cat "$tmp/out")
check "submit with the key again" 0 "$cuzk" submit --circuit p10 --partitions 3 --seed 2000 \
    --key k-1
is "the same key gives the same job" "$(cat "$tmp/out")" "$keyed"
check "jobs lists the keyed job once" 0 "$cuzk" api GET /v1/jobs
is "one job per key" "$(grep -o "$keyed" "$tmp/out" | wc -l)" 1
check "a streamed witness, queued" 0 "$cuzk" submit --circuit chain --witness-stream \
    "$fixtures/chain_bls12381.wtns"
streamed=$(cat "$tmp/out")
check "a job cancelled before the kill" 0 "$cuzk" submit --circuit p10 --partitions 5 --seed 4000
cancelled=$(cat "$tmp/out")
check "cancel it" 0 "$cuzk" cancel "$cancelled"
cp "$fixtures/chain_bls12381.wtns" "$tmp/wit/gone.wtns"
check "submit a witness file" 0 "$cuzk" submit --circuit chain --witness "$tmp/wit/gone.wtns"
gone=$(cat "$tmp/out")
# A path relative to the witness folder: the same file after the restart.
cp "$fixtures/chain_bls12381.wtns" "$tmp/wit/kept.wtns"
check "submit a relative witness path" 0 "$cuzk" api POST /v1/jobs \
    --data '{"circuit":"chain","witness_paths":["kept.wtns"]}'
relative=$(field id <"$tmp/out")
for _ in $(seq 1 400); do
    [ "$(partitions_done "$long")" -ge 3 ] 2>/dev/null && break
    sleep 0.05
done
before=$(partitions_done "$long")
if [ "$before" -ge 3 ] && [ "$before" -lt 60 ]; then pass; else
    fail "the long job should be running with some partitions done, has $before"
fi
stop_server KILL
rm "$tmp/wit/gone.wtns"

serve 2
expect "the restart resumes the long job" "$tmp/serve2.log" "job $long resumed"
check "a second server on the folder is refused" 1 timeout 20 "$cuzk" serve \
    --config "$tmp/serve.ini" --state-dir "$state" --socket "$tmp/second.sock"
expect "it says why" "$tmp/err" "in use by another cuzk serve"
left=$(sed -n "s/.*job $long resumed: \([0-9]*\) of 60.*/\1/p" "$tmp/serve2.log")
if [ -n "$left" ] && [ "$left" -lt 60 ]; then pass; else
    fail "the long job should go on from its unfinished partitions ($left of 60 left)"
fi
check "await the done job after the restart" 0 "$cuzk" await "$done_id" \
    --proof-out "$tmp/done2.bin"
check "its proof is the one answered before" 0 cmp "$tmp/done1.bin" "$tmp/done2.bin"
verify_seeds "verify the done job" 1 "$tmp/done2.bin" 2
check "await the long job" 0 "$cuzk" await "$long" --proof-out "$tmp/long.bin"
verify_seeds "verify the long job" 1000 "$tmp/long.bin" 60
check "await the keyed job" 0 "$cuzk" await "$keyed" --proof-out "$tmp/keyed.bin"
verify_seeds "verify the keyed job" 2000 "$tmp/keyed.bin" 3
check "the keyed job's proof is not another's" 1 "$cuzk" verify --builtin --log-constraints 10 \
    --params "$tmp/k10.params" --seed 1000 "$tmp/keyed.bin"
check "await the job whose witness is gone" 1 "$cuzk" await "$gone"
expect "it failed" "$tmp/out" '"state":"failed"'
expect "interrupted by a restart" "$tmp/out" "interrupted by a restart"
check "the streamed job resumed from its stored witness" 0 "$cuzk" await "$streamed" \
    --proof-out "$tmp/c2.json" --public-out "$tmp/p2.json"
check "its public signals are the witness's" 0 cmp "$tmp/p1.json" "$tmp/p2.json"
same_answer "the streamed job done before" "$chain_done" "$tmp/c1.json" "$tmp/p1.json"
check "the relative witness path after the restart" 0 "$cuzk" await "$relative" \
    --proof-out "$tmp/c4.json" --public-out "$tmp/p4.json"
check "its public signals are its witness's" 0 cmp "$tmp/p1.json" "$tmp/p4.json"
check "the cancelled job stays cancelled" 1 "$cuzk" await "$cancelled"
expect "cancelled" "$tmp/out" '"state":"cancelled"'
check "status of an old job" 0 "$cuzk" status "$done_id"
expect "status: the job" "$tmp/out" "\"id\": \"$done_id\""
check "the list has the old jobs" 0 "$cuzk" jobs --json
for old in "$done_id" "$long" "$keyed" "$gone" "$streamed" "$cancelled" "$relative"; do
    expect "listed: $old" "$tmp/out" "$old"
done
check "the key after the restart" 0 "$cuzk" submit --circuit p10 --partitions 3 --seed 2000 \
    --key k-1
is "still the same job" "$(cat "$tmp/out")" "$keyed"

# Ids the server never gave, or the old numeric ones: 404, never a job.
check "an unknown id" 1 "$cuzk" await 0123456789abcdef0123456789abcdef
expect "404" "$tmp/err" "HTTP 404"
expect "says no such job" "$tmp/err" "no job 0123456789abcdef0123456789abcdef"
check "a numeric id" 1 "$cuzk" api GET /v1/jobs/3
expect "numeric: not a job id" "$tmp/out" "not a job id"
check "a new job" 0 "$cuzk" submit --circuit p10 --partitions 1 --seed 7
new=$(cat "$tmp/out")
for old in "$done_id" "$long" "$keyed" "$gone"; do
    if [ "$new" != "$old" ]; then pass; else fail "a new job got the old id $old"; fi
done
# Keyed submissions at once: one job.
submitters=()
for i in 1 2 3 4 5; do
    "$cuzk" submit --circuit p10 --partitions 1 --seed 8 --key together >"$tmp/k$i.out" 2>&1 &
    submitters+=($!)
done
wait "${submitters[@]}"
ids=$(cat "$tmp"/k[1-5].out | sort -u)
if [[ $ids =~ ^[0-9a-f]{32}$ ]]; then pass; else fail "five submits with one key gave: $ids"; fi
check "bad key" 1 "$cuzk" submit --circuit p10 --partitions 1 --key "a b"
expect "bad key: 400" "$tmp/err" "Idempotency-Key"

# A job the SIGTERM shutdown cancels runs again at the next start.
check "submit before a shutdown" 0 "$cuzk" submit --circuit p10 --partitions 30 --seed 3000
term=$(cat "$tmp/out")
for _ in $(seq 1 400); do
    [ "$(partitions_done "$term")" -ge 1 ] 2>/dev/null && break
    sleep 0.05
done
stop_server TERM
is "clean exit" "$server_rc" 0
serve 3
check "await it after the restart" 0 "$cuzk" await "$term" --proof-out "$tmp/term.bin"
verify_seeds "verify it" 3000 "$tmp/term.bin" 30
stop_server TERM

# A stored row damaged while the server is down (a partition count out of
# range, and a running job's state out of range): each job answers failed
# with the reason, never a hang, a 404 or another job's proof.
need_python
python3 - "$state/jobs.sqlite" "$keyed" "$long" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE jobs SET partitions = -1 WHERE id = ?", (sys.argv[2],))
db.execute("UPDATE jobs SET state = 99 WHERE id = ?", (sys.argv[3],))
db.commit()
PY
start_server "$tmp/serve3b.log" --config "$tmp/serve.ini" --state-dir "$state" \
    --witness-dir "$tmp/wit"
for id in "$keyed" "$long"; do
    check "a damaged row's job is answered" 0 "$cuzk" api GET "/v1/jobs/$id"
    is "a damaged row's job is failed" "$(field state <"$tmp/out")" failed
    expect "a damaged row's job says why" "$tmp/out" "stored row is damaged"
    check "await a damaged row's job" 1 "$cuzk" await "$id"
    expect "await says why" "$tmp/out" "damaged"
done
check "the job before them still answers" 0 "$cuzk" await "$term"
stop_server TERM

# Expiry at start: with engine.keep_finished = 1 only the newest finished
# job stays (the one just awaited); an older one is a 404, never another.
start_server "$tmp/serve4.log" --config "$tmp/serve.ini" --state-dir "$state" \
    --witness-dir "$tmp/wit" --keep-finished 1
check "the newest finished job stays" 0 "$cuzk" await "$term"
check "an expired job" 1 "$cuzk" await "$done_id"
expect "expired: 404" "$tmp/err" "HTTP 404"
stop_server TERM
is "clean exit at the end" "$server_rc" 0
finish
