#!/usr/bin/env bash
# A soak with a ledger: three clients submit (each with an idempotency
# key, resubmitting after a lost answer), cancel about one job in four,
# and write down every id a submit returned, while the server is killed
# with SIGKILL and restarted on its job store three times. Afterwards every
# id in the ledger must end, for its client, in exactly one of
#   done       with a proof that verifies for its own seeds,
#   failed     with a reason,
#   cancelled  (only a job its client asked to cancel);
# none lost (a 404), none answered with another job's proof, no id given
# twice. The ledger's totals are printed.
# Usage: test_service_soak.sh path/to/cuzk [SECONDS]
#   SECONDS (or $CUZK_SOAK_SECONDS): how long the clients run (default 20;
#   test_service_soak_long, under the ctest label soak, runs it for 600).
set -u
cuzk=$1
seconds=${2:-${CUZK_SOAK_SECONDS:-20}}
source "$(dirname "$0")/lib.sh"
make_params
# Finished jobs are kept (engine.keep_finished, 1024 by default) far
# beyond what the clients submit: past it, a finished job that nobody
# fetched expires at a restart (a 404, as promised), which the ten-minute
# run's thousands of jobs reached.
write_config "$tmp/serve.ini" "synth_workers = 2
workers_per_device = 1
keep_finished = 1000000"
state="$tmp/soak-state"
serve() { start_server "$tmp/serve$1.log" --config "$tmp/serve.ini" --state-dir "$state"; }

# client K END: jobs until the clock passes END; ledger lines "ID SEED PARTS",
# cancel requests "ID" in cancels.K, unexpected answers in errors.K.
client() {
    local k=$1 end=$2 n=0 id rc seed parts
    : >"$tmp/ledger.$k"
    : >"$tmp/cancels.$k"
    : >"$tmp/errors.$k"
    while [ "$(date +%s)" -lt "$end" ]; do
        sleep "0.$((3 + RANDOM % 4))" # a few jobs a second: the ledger is checked one by one
        n=$((n + 1))
        seed=$((k * 1000000 + n * 10))
        parts=$((1 + RANDOM % 3))
        rc=4
        # Exit 4: the server is down or died mid-answer; the key makes the
        # retry return the job the lost answer named, if it was made.
        for _ in $(seq 1 600); do
            id=$("$cuzk" submit --circuit p10 --partitions "$parts" --seed "$seed" \
                --priority "$(shuf -n1 -e low normal high)" --key "soak-$k-$n" 2>"$tmp/submit_err.$k")
            rc=$?
            [ "$rc" -ne 4 ] && break
            sleep 0.1
        done
        if [ "$rc" -ne 0 ]; then
            echo "submit $n: exit $rc: $(cat "$tmp/submit_err.$k")" >>"$tmp/errors.$k"
            continue
        fi
        echo "$id $seed $parts" >>"$tmp/ledger.$k"
        if [ $((RANDOM % 4)) -eq 0 ]; then
            echo "$id" >>"$tmp/cancels.$k"
            for _ in $(seq 1 600); do
                "$cuzk" cancel "$id" >/dev/null 2>&1
                [ $? -ne 4 ] && break
                sleep 0.1
            done
        fi
    done
}

serve 0
end=$(($(date +%s) + seconds))
for k in 1 2 3; do client "$k" "$end" & done
client_pids=$(jobs -p)
# Three kills, spread over the run, each followed by a restart.
for r in 1 2 3; do
    sleep "$(awk -v s="$seconds" 'BEGIN { printf "%.1f", s / 4 }')"
    stop_server KILL
    sleep 0.5
    serve "$r"
done
for pid in $client_pids; do wait "$pid"; done

cat "$tmp"/ledger.[123] >"$tmp/ledger"
cat "$tmp"/cancels.[123] >"$tmp/cancels"
total=$(wc -l <"$tmp/ledger")
if [ "$total" -ge 10 ]; then pass; else fail "only $total jobs in the ledger"; fi
is "no id given twice" "$(cut -d' ' -f1 "$tmp/ledger" | sort | uniq -d | wc -l)" 0
if grep -q . "$tmp"/errors.[123]; then
    fail "unexpected client errors:"
    sed 's/^/    /' "$tmp"/errors.[123] | head -20
else pass; fi

done_n=0 failed_n=0 cancelled_n=0
while read -r id seed parts; do
    "$cuzk" await "$id" --timeout 300 --proof-out "$tmp/p.bin" >"$tmp/job.json" 2>"$tmp/err"
    rc=$?
    st=$(field state <"$tmp/job.json")
    case "$rc:$st" in
    0:done)
        done_n=$((done_n + 1))
        check "job $id verifies for its seeds" 0 "$cuzk" verify --builtin --log-constraints 10 \
            --params "$tmp/k10.params" --seed "$seed" "$tmp/p.bin"
        if [ "$parts" -eq 1 ]; then
            expect "job $id: its proof" "$tmp/out" "1 partition proof is valid"
        else
            expect "job $id: $parts proofs" "$tmp/out" "$parts partition proofs are valid"
        fi
        ;;
    1:failed)
        failed_n=$((failed_n + 1))
        if [ -n "$(field message <"$tmp/job.json")" ]; then pass; else
            fail "job $id failed without a reason"
        fi
        ;;
    1:cancelled)
        cancelled_n=$((cancelled_n + 1))
        if grep -qx "$id" "$tmp/cancels"; then pass; else
            fail "job $id was cancelled, but its client never asked"
        fi
        ;;
    *)
        fail "job $id ($seed, $parts partitions) ended as exit $rc, state '$st'"
        sed 's/^/    /' "$tmp/job.json" "$tmp/err" | head -5
        ;;
    esac
done <"$tmp/ledger"
echo "ledger: $total jobs over $seconds s and 3 kills: $done_n done (verified)," \
    "$failed_n failed, $cancelled_n cancelled ($(wc -l <"$tmp/cancels") cancels asked)"
is "every job accounted for" "$((done_n + failed_n + cancelled_n))" "$total"
stop_server TERM
finish
