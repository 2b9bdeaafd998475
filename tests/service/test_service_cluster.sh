#!/usr/bin/env bash
# Three cuzk serve hosts on one PostgreSQL database (docs/CLUSTER.md),
# against a real server (tests/store/pg_test_server.sh), with a short
# lease: two hosts starting at once on the empty database apply each
# migration once; 30 jobs of mixed priorities submitted through the three
# hosts are each answered by every live host with the same proof, which
# verifies for its seeds; a host killed with SIGKILL while it holds leases
# loses them, and its partitions are proved by the others; PostgreSQL
# restarted mid-run loses nothing; a host whose circuits lack a job's
# circuit never proves it; a partition failing everywhere is tried three
# times, then fails its job with the reason; status and metrics show the
# hosts and the store's outage, across which a job's proofs are kept; a
# cancel on one host stops the host proving the job within a second;
# SIGTERM drains a host (it finishes what it claimed, claims nothing
# new). Without PostgreSQL's binaries it fails.
# Usage: test_service_cluster.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
pg_serve_setup "shutdown_grace_s = 60"
q() { psql "$PG_URL" -Atc "$1" 2>>"$tmp/psql.err"; }
declare -A pid
# launch N [ARGS...]: host hN on its own socket, in the background.
launch() {
    local n=$1
    shift
    "$cuzk" serve --config "$tmp/serve.ini" --socket "$tmp/h$n.sock" --store "$PG_URL" \
        --set "server.cluster_host=h$n" "$@" >"$tmp/h$n.log" 2>&1 &
    pid[$n]=$!
    server_pids+=("$!")
}
ready() { host_ready "$1" "${pid[$1]}"; }
# A second circuit that hosts 1 and 2 have and host 3 lacks.
other=(--set "circuit other.kind=builtin" --set "circuit other.log_constraints=10"
    --set "circuit other.params=$tmp/k10.params")

# Two hosts at once on the empty database.
launch 1 "${other[@]}"
launch 2 "${other[@]}"
ready 1
ready 2
is "the migrations applied once each" \
    "$(q 'SELECT count(*) = count(DISTINCT version) AND min(version) = 1 AND count(*) = max(version) FROM cuzk_schema')" t
launch 3
ready 3

# 30 jobs of 2 partitions, mixed priorities, through the three hosts; the
# last three are of the circuit host 3 lacks. Mid-run, host 2 is killed
# while it holds leases (then its share goes to host 3), and PostgreSQL
# is restarted.
prios=(critical high normal low)
ids=()
held=
for i in $(seq 0 29); do
    h=$((i % 3 + 1)) circuit=p10
    if [ "$i" -ge 27 ]; then h=$((i % 2 + 1)) circuit=other; fi
    if [ "$h" = 2 ] && [ -n "$held" ]; then h=$((i >= 27 ? 1 : 3)); fi
    at $h "$cuzk" submit --circuit $circuit --partitions 2 --seed $((10 * i + 1)) \
        --priority "${prios[$((i % 4))]}" >"$tmp/out" 2>"$tmp/err" ||
        { fail "submit $i through h$h"; cat "$tmp/err"; }
    ids+=("$(cat "$tmp/out")")
    if [ "$i" -ge 6 ] && [ -z "$held" ]; then
        # (stopped first: what it holds is read while it can write nothing)
        kill -STOP "${pid[2]}"
        held=$(q "SELECT string_agg(quote_literal(job || ':' || idx), ',') FROM partitions
                  WHERE host = 'h2' AND proof IS NULL AND lease_until IS NOT NULL")
        if [ -n "$held" ]; then
            # the job it holds, seen from host 1: running, on h2, claimed
            hid=$(q "SELECT job FROM partitions WHERE host = 'h2' AND proof IS NULL
                     AND lease_until IS NOT NULL LIMIT 1")
            at 1 "$cuzk" status "$hid" >"$tmp/view" 2>&1
            is "a leased job shows running" "$(field state <"$tmp/view" | tr -d " ")" proving
            expect "its partition's host shows" "$tmp/view" '"h2"'
            if [ "$(field attempts <"$tmp/view" | tr -d " ")" -ge 1 ]; then pass; else
                fail "a claimed job shows no attempts: $(cat "$tmp/view")"
            fi
            kill -9 "${pid[2]}"
        else
            kill -CONT "${pid[2]}"
        fi
    fi
    if [ "$i" = 18 ]; then
        "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
            -m fast restart >/dev/null 2>&1 || fail "PostgreSQL did not restart"
    fi
done
if [ -n "$held" ]; then pass; else fail "host h2 never held a lease while jobs came"; fi

# Every job answered by hosts 1 and 3 alike, with proofs that verify.
for i in $(seq 0 29); do
    id=${ids[$i]}
    for h in 1 3; do
        # (an answer refused while the database was away is asked again)
        for _ in 1 2 3 4 5; do
            at $h "$cuzk" await "$id" --proof-out "$tmp/p$i-$h.bin" >"$tmp/out" 2>"$tmp/err" && break
            sleep 1
        done
    done
    check "job $i answered the same by h1 and h3" 0 cmp "$tmp/p$i-1.bin" "$tmp/p$i-3.bin"
    verify_seeds "job $i verifies" $((10 * i + 1)) "$tmp/p$i-1.bin" 2
done
is "every job done" "$(q 'SELECT count(*) FROM jobs WHERE state <> 4')" 0
is "h2's leased partitions proved by others" \
    "$(q "SELECT count(*) FROM partitions WHERE job || ':' || idx IN (${held:-''})
          AND (proof IS NULL OR host = 'h2')")" 0
is "h3 never proved the circuit it lacks" \
    "$(q "SELECT count(*) FROM partitions p JOIN jobs j ON j.id = p.job
          WHERE j.circuit = 'other' AND p.host = 'h3'")" 0
if [ "$(q "SELECT count(*) FROM partitions WHERE host = 'h3'")" -gt 0 ]; then pass; else
    fail "h3 proved nothing"
fi

# A partition that fails on every host: tried cluster_retries (3) times,
# on any host, then its job fails saying why.
cp "$fixtures/chain_bls12381.wtns" "$tmp/bad.wtns"
head -c 32 /dev/zero | tr '\0' '\377' |
    dd of="$tmp/bad.wtns" bs=1 seek=$((76 + 32)) conv=notrunc 2>/dev/null
check "submit a corrupted witness" 0 at 1 "$cuzk" submit --circuit chain \
    --witness "$tmp/bad.wtns" --witness "$fixtures/chain_bls12381.wtns"
bad=$(cat "$tmp/out")
check "it fails" 1 at 3 "$cuzk" await "$bad" --timeout 60
expect "failed" "$tmp/out" '"state":"failed"'
expect "after three tries" "$tmp/out" "partition 0 failed 3 times"
expect "saying why" "$tmp/out" "synthesis failed"
is "three failures recorded" "$(q "SELECT failures FROM partitions WHERE job = '$bad' AND idx = 0")" 3

# The cluster in status and metrics: h1 and h3 alive, h2 not.
check "status" 0 at 1 "$cuzk" api GET /v1/status
expect "status names the host" "$tmp/out" '"host":"h1"'
expect "status: h2 is dead" "$tmp/out" '{"host":"h2","alive":false'
expect "status: h3 is alive" "$tmp/out" '{"host":"h3","alive":true'
check "metrics" 0 at 3 "$cuzk" api GET /metrics
expect "metrics: the store is up" "$tmp/out" "cuzk_cluster_store_up 1"
expect "metrics: two hosts alive" "$tmp/out" "cuzk_cluster_hosts_alive 2"

# The database away while a job is proved: reported, its proofs kept
# and written when it is back.
at 3 "$cuzk" submit --circuit p10 --partitions 12 --seed 3000 >"$tmp/out" 2>"$tmp/err"
away=$(cat "$tmp/out")
for _ in $(seq 1 200); do # (until it is under way)
    [ -n "$(q "SELECT 1 FROM partitions WHERE job = '$away'
               AND (lease_until IS NOT NULL OR proof IS NOT NULL) LIMIT 1")" ] && break
    sleep 0.025
done
"${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -w -m fast stop >/dev/null 2>&1
sleep 2
check "metrics with the database away" 0 at 3 "$cuzk" api GET /metrics
expect "metrics: the store is down" "$tmp/out" "cuzk_cluster_store_up 0"
check "status with the database away" 0 at 3 "$cuzk" api GET /v1/status
expect "status: the store is down" "$tmp/out" '"store_up":false'
"${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 start \
    -o "-c listen_addresses='' -c unix_socket_directories=$PG_DIR -c fsync=off" >/dev/null 2>&1 ||
    fail "PostgreSQL did not start again"
sleep 2
check "metrics with the database back" 0 at 3 "$cuzk" api GET /metrics
expect "metrics: the store is up again" "$tmp/out" "cuzk_cluster_store_up 1"
check "the job proved across the outage" 0 at 1 "$cuzk" await "$away" --proof-out "$tmp/away.bin"
verify_seeds "it verifies" 3000 "$tmp/away.bin" 12

# A cancel on h3 of a job h1 proves: h1 stops within a second.
at 1 "$cuzk" submit --circuit other --partitions 40 --seed 5000 >"$tmp/out" 2>"$tmp/err"
long=$(cat "$tmp/out")
for _ in $(seq 1 200); do
    [ "$(q "SELECT count(*) FROM partitions WHERE job = '$long' AND proof IS NOT NULL")" -gt 0 ] &&
        break
    sleep 0.05
done
check "cancel through h3" 0 at 3 "$cuzk" cancel "$long"
sleep 1
check "h1's status" 0 at 1 "$cuzk" api GET /v1/status
expect "h1 stopped proving it within a second" "$tmp/out" '"in_flight":0'
check "await it on h1" 0 at 1 "$cuzk" api GET "/v1/jobs/$long"
expect "cancelled" "$tmp/out" '"state":"cancelled"'

# SIGTERM drains h1: what it claimed it proves, then it leaves; h3 proves
# the rest.
at 1 "$cuzk" submit --circuit p10 --partitions 12 --seed 7000 >"$tmp/out" 2>"$tmp/err"
drained=$(cat "$tmp/out")
mine=
for _ in $(seq 1 200); do
    mine=$(q "SELECT string_agg(quote_literal(job || ':' || idx), ',') FROM partitions
              WHERE host = 'h1' AND proof IS NULL AND lease_until IS NOT NULL")
    [ -n "$mine" ] && break
    sleep 0.025
done
if [ -n "$mine" ]; then pass; else fail "h1 never held a lease of the drained job"; fi
kill -TERM "${pid[1]}"
{ wait "${pid[1]}"; } 2>/dev/null
is "h1 exits 0 after its drain" "$?" 0
check "the drained job finishes" 0 at 3 "$cuzk" await "$drained" --proof-out "$tmp/drained.bin"
verify_seeds "the drained job verifies" 7000 "$tmp/drained.bin" 12
is "h1 proved what it had claimed" \
    "$(q "SELECT count(*) FROM partitions WHERE job || ':' || idx IN (${mine:-''})
          AND host <> 'h1'")" 0
is "h1 left the hosts table" "$(q "SELECT count(*) FROM hosts WHERE host = 'h1'")" 0
finish
