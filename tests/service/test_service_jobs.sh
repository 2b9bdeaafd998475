#!/usr/bin/env bash
# cuzk serve end to end over its real Unix socket: jobs of mixed priorities
# with one synthesis worker (a CRITICAL job submitted behind NORMAL ones
# starts before the NORMAL partitions still queued, read from the event
# log), every proof verified independently with cuzk verify and tied to its
# job (another job's seeds refuse it), a witness streamed in the body,
# status, list, metrics, and a SIGTERM with jobs in flight: every job
# reaches a final state, the awaiting client returns, the socket file is
# gone and the server exits 0.
# Usage: test_service_jobs.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
make_params
write_config "$tmp/serve.ini" "synth_workers = 1
workers_per_device = 1
queue_bound = 1
event_log = $tmp/events.jsonl"
start_server "$tmp/serve.log" --config "$tmp/serve.ini"

# ------------------------------------------------ priorities and proofs
normal_ids=()
for j in 0 1 2 3; do
    check "submit normal $j" 0 "$cuzk" submit --circuit p10 --partitions 3 --seed $((100 * j + 1))
    normal_ids+=("$(cat "$tmp/out")")
done
check "submit critical" 0 "$cuzk" submit --circuit p10 --partitions 2 --seed 9001 \
    --priority critical
crit=$(cat "$tmp/out")
for j in 0 1 2 3; do
    check "await normal $j" 0 "$cuzk" await "${normal_ids[$j]}" --proof-out "$tmp/n$j.bin"
    expect "normal $j done" "$tmp/out" '"state":"done"'
done
check "await critical" 0 "$cuzk" await "$crit" --proof-out "$tmp/crit.bin"
expect "critical is critical" "$tmp/out" '"priority":"critical"'
for j in 0 1 2 3; do
    check "verify normal $j" 0 "$cuzk" verify --builtin --log-constraints 10 \
        --params "$tmp/k10.params" --seed $((100 * j + 1)) "$tmp/n$j.bin"
    expect "3 proofs" "$tmp/out" "3 partition proofs are valid"
done
check "verify critical" 0 "$cuzk" verify --builtin --log-constraints 10 \
    --params "$tmp/k10.params" --seed 9001 "$tmp/crit.bin"
# A proof belongs to its job: job 1's proof does not verify for job 2's seeds.
check "proof of another job" 1 "$cuzk" verify --builtin --log-constraints 10 \
    --params "$tmp/k10.params" --seed 101 "$tmp/n0.bin"

# Start order from the event log: the synthesis start of a partition is
# the end of its queue_wait span. After the CRITICAL job was queued (T), no
# NORMAL partition may start before the CRITICAL ones are all started,
# except at most one the single synthesis worker was picking at T; and
# some NORMAL partitions start after them (the CRITICAL job overtook).
awk -v label="$crit" '
function val(s, k,   i, v) {
    i = index(s, "\"" k "\":"); if (!i) return "";
    v = substr(s, i + length(k) + 3); sub(/[,}].*/, "", v); gsub(/"/, "", v); return v
}
/"type":"job"/ && val($0, "label") == label && val($0, "state") == "queued" {
    t = val($0, "ts_ns") + 0; crit = val($0, "job")
}
/"name":"queue_wait"/ { n++; job[n] = val($0, "job"); start[n] = val($0, "end_ns") + 0 }
END {
    last = 0; first = 0; cnt = 0
    for (i = 1; i <= n; i++) if (job[i] == crit) { cnt++; if (start[i] > last) last = start[i] }
    early = 0; later = 0
    for (i = 1; i <= n; i++) if (job[i] != crit && start[i] > t && start[i] < last) early++
    for (i = 1; i <= n; i++) if (job[i] != crit && start[i] > last) later++
    printf "critical_starts=%d normal_starts_between=%d normal_starts_after=%d total_starts=%d\n",
           cnt, early, later, n
    exit !(t > 0 && cnt == 2 && n == 14 && early <= 1 && later >= 1)
}' "$tmp/events.jsonl" >"$tmp/order" 2>&1
rc=$?
echo "start order: $(cat "$tmp/order")"
if [ $rc -eq 0 ]; then pass; else fail "priority order"; fi

# ------------------------------------------------ a witness in the body
check "stream a witness" 0 "$cuzk" submit --circuit chain --witness-stream \
    "$fixtures/chain_bls12381.wtns" --witness-stream "$fixtures/chain_bls12381.wtns" --wait
expect "streamed job done" "$tmp/out" '"partitions_done":2'
check "witness by path" 0 "$cuzk" submit --circuit chain --witness \
    "$fixtures/chain_bls12381.wtns" --priority high --wait
expect "path job done" "$tmp/out" '"state":"done"'

# ------------------------------------------------ status, list, metrics
check "status" 0 "$cuzk" status
expect "status names the backend" "$tmp/out" '"name": "cpu"'
expect "status shows p10 resident" "$tmp/out" '"resident": true'
expect "status has queues" "$tmp/out" '"queues"'
expect "status has memory" "$tmp/out" '"buffer_budget"'
check "list jobs" 0 "$cuzk" jobs --json
is "jobs listed" "$(grep -o '"id":' "$tmp/out" | wc -l)" 7
check "list done p10 jobs" 0 "$cuzk" jobs --state done --circuit p10 --json
is "done p10 jobs" "$(grep -o '"id":' "$tmp/out" | wc -l)" 5
check "job by id" 0 "$cuzk" api GET "/v1/jobs/$crit"
expect "job has partition states" "$tmp/out" '"partition_states":["done","done"]'
is "job's proof hex is 2 x 192 bytes" "$(field proof <"$tmp/out" | tr -d '\n' | wc -c)" 768
check "metrics" 0 "$cuzk" api GET /metrics
expect "jobs counter" "$tmp/out" 'cuzk_jobs_total{circuit="p10",state="done"} 5'
expect "partitions counter" "$tmp/out" 'cuzk_partitions_total{circuit="p10",state="done"} 14'
expect "zkey partitions" "$tmp/out" 'cuzk_partitions_total{circuit="chain",state="done"} 3'
expect "phase histogram" "$tmp/out" 'cuzk_phase_seconds_count{circuit="p10",phase="msm_h"} 14'
expect "job histogram" "$tmp/out" 'cuzk_job_seconds_count{circuit="p10",state="done"} 5'
expect "queue depth" "$tmp/out" 'cuzk_queue_depth{queue="queued"} 0'
expect "resident bytes" "$tmp/out" 'cuzk_circuit_resident{circuit="p10"} 1'
busy=$(sed -n 's/^cuzk_device_busy_seconds_total{device="0"} //p' "$tmp/out")
if awk -v b="${busy:-0}" 'BEGIN { exit !(b > 0) }'; then pass; else fail "device busy: '$busy'"; fi

# ------------------------------------------------ shutdown with jobs in flight
check "submit long job" 0 "$cuzk" submit --circuit p10 --partitions 40 --seed 5000
long=$(cat "$tmp/out")
check "submit queued job" 0 "$cuzk" submit --circuit p10 --partitions 2 --seed 6000
queued=$(cat "$tmp/out")
"$cuzk" await "$long" >"$tmp/await.out" 2>&1 &
await_pid=$!
sleep 0.5
stop_server TERM
is "server exit code after SIGTERM" "$server_rc" 0
wait "$await_pid"
is "the waiting client saw the job end (exit 1: cancelled)" "$?" 1
expect "awaited job cancelled" "$tmp/await.out" '"state":"cancelled"'
expect "says why" "$tmp/await.out" "engine shut down"
if [ -e "$tmp/s.sock" ]; then fail "the socket file is left behind"; else pass; fi
# Every job queued in the log has a final line.
for id in "${normal_ids[@]}" "$crit" "$long" "$queued"; do
    if grep -q "\"type\":\"job\",\"job\":[0-9]*,\"label\":\"$id\",.*\"state\":\"\(done\|failed\|cancelled\)\"" \
        "$tmp/events.jsonl"; then pass; else fail "job $id has no final state in the log"; fi
done
expect "shutdown logged" "$tmp/serve.log" "SIGTERM: shutting down"

# A restart on the same socket leaves no stale file; on another state
# folder it starts clean (test_service_restart.sh: on the same one).
start_server "$tmp/serve2.log" --config "$tmp/serve.ini" --set engine.event_log= \
    --state-dir "$tmp/other-state"
check "jobs after restart" 0 "$cuzk" jobs --json
is "no jobs after restart" "$(cat "$tmp/out")" '{"jobs":[]}'
stop_server INT
is "exit code after SIGINT" "$server_rc" 0
finish
