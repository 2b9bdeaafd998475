#!/usr/bin/env bash
# Streamed witnesses kept in a shared spill folder (server.witness_spill_dir,
# docs/CLUSTER.md) by two cuzk serve hosts on one PostgreSQL database
# (tests/store/pg_test_server.sh): through host 1, a witness above
# server.witness_inline_max is written to the folder (the very bytes the
# client sent) and its row names it, with no values in the database,
# while a small one is stored inline; host 1 is then frozen before it
# claims them (a queue of its own critical work holds its room), and host
# 2, which has another witness folder, opens the spilled file and proves
# it: both proofs verify, and the file is gone once the job is done. A
# job whose spilled file is deleted before any host claims it fails,
# naming the file, after its retries, and its other partition's file goes
# with it; so does one whose file is damaged; a cancel removes a job's
# files at once; a spill folder that cannot be written refuses the
# submission naming it, recording nothing; a host's start sweeps the file
# of a final job whose host died before removing it, and the orphaned
# files no row names (an hour old, named as spills are), leaving every
# other file, a live job's old ones among them; the SQLite store spills
# nothing.
# Without PostgreSQL's binaries it fails, as its siblings do.
# Usage: test_service_pg_spill.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
pg_serve_setup
q() { psql "$PG_URL" -Atc "$1" 2>>"$tmp/psql.err"; }
spill=$tmp/spill
mkdir -p "$spill" "$tmp/wit"
manypub=$fixtures/manypub_bls12381.wtns # 2444 bytes: above the 2K threshold
chain=$fixtures/chain_bls12381.wtns     # 1324 bytes: below it
common=(--store "$PG_URL" --witness-spill-dir "$spill" --set server.witness_inline_max=2K
    --set "circuit manypub.kind=zkey" --set "circuit manypub.zkey=$fixtures/manypub_bls12381.zkey")
declare -A pid
# launch N CONFIG [ARGS...]: host hN on its own socket, ready when it returns.
launch() {
    local n=$1 config=$2
    shift 2
    "$cuzk" serve --config "$config" --socket "$tmp/h$n.sock" --set "server.cluster_host=h$n" \
        "${common[@]}" "$@" >"$tmp/h$n.log" 2>&1 &
    pid[$n]=$!
    server_pids+=("$!")
    host_ready "$n" "${pid[$n]}"
}
submit() { # NAME COMMAND...: through host 1; the job's id in $id
    check "$1" 0 at 1 "$cuzk" submit "${@:2}"
    id=$(cat "$tmp/out")
}
spilled_files() { find "$spill" -type f | sort; }
# gone NAME FILE...: the files vanish within a few seconds (the host that
# makes a job final removes them right after its commit).
gone() {
    local name=$1 f left
    shift
    for _ in $(seq 1 100); do
        left=
        for f in "$@"; do [ -e "$f" ] && left=$f; done
        [ -z "$left" ] && break
        sleep 0.05
    done
    if [ -z "$left" ]; then pass; else fail "$name: $left is still there"; fi
}

# Host 1 takes the submissions; its room (one synthesis, one prover, a
# queue bound of 1) is held by a critical job of its own circuit p10,
# which host 2 lacks, so it claims none of the jobs below before it is
# frozen.
launch 1 "$tmp/serve.ini" --queue-bound 1
expect "host 1 logs its spill folder" "$tmp/h1.log" "streamed witnesses over 2048 bytes are kept in $spill"
submit "a critical job holds host 1" --circuit p10 --partitions 200 --seed 1 --priority critical
blocker=$id
submit "a witness above the threshold" --circuit manypub --witness-stream "$manypub"
big=$id
submit "a witness below it" --circuit chain --witness-stream "$chain"
small=$id
submit "a job of two spilled witnesses" --circuit manypub --witness-stream "$manypub" \
    --witness-stream "$manypub"
broken=$id
submit "a job whose file will be damaged" --circuit manypub --witness-stream "$manypub"
damaged=$id
submit "a job to cancel" --circuit manypub --witness-stream "$manypub"
cancelled=$id
cancel_file=$(q "SELECT wtns_path FROM partitions WHERE job = '$cancelled'")
check "cancel it" 0 at 1 "$cuzk" cancel "$cancelled"
kill -STOP "${pid[1]}"
if [ -n "$cancel_file" ] && [ ! -e "$cancel_file" ]; then pass; else
    fail "the cancelled job's spilled witness '$cancel_file' was not removed by the cancel"
fi
is "host 1 claimed none of them before it was frozen (else this test's order failed)" \
    "$(q "SELECT count(*) FROM partitions WHERE job IN ('$big', '$small', '$broken', '$damaged')
          AND claims > 0")" 0

# The rows: the big witness by reference, the small one inline.
is "the big witness's row names a file in the spill folder, no values" \
    "$(q "SELECT wtns_path LIKE '$spill/$big-0-%.wtns' AND witness IS NULL AND spilled
          FROM partitions WHERE job = '$big'")" t
big_file=$(q "SELECT wtns_path FROM partitions WHERE job = '$big'")
check "the spilled file holds the bytes streamed" 0 cmp "$manypub" "$big_file"
if [ "$(stat -c %a "$big_file")" = 600 ]; then pass; else
    fail "the spilled file's mode is $(stat -c %a "$big_file"), not 600"
fi
is "the small witness is inline" \
    "$(q "SELECT wtns_path IS NULL AND witness IS NOT NULL AND NOT spilled
          FROM partitions WHERE job = '$small'")" t
is "five witnesses were spilled, the cancel removed one: four left" "$(spilled_files | wc -l)" 4
if find "$spill" -name '.*' | grep -q .; then fail "a temporary file was left"; else pass; fi
mapfile -t broken_files < <(q "SELECT wtns_path FROM partitions WHERE job = '$broken' ORDER BY idx")
is "the two-witness job spilled both" "${#broken_files[@]}" 2
rm -f "${broken_files[0]}"
damaged_file=$(q "SELECT wtns_path FROM partitions WHERE job = '$damaged'")
truncate -s 100 "$damaged_file"

# Host 2 lacks p10 and has a witness folder of its own: it opens the
# spilled files beneath the spill folder regardless. The files are made
# two hours old first: the orphan sweep at its start must keep them, as
# their jobs are live.
touch -d '2 hours ago' "$big_file" "${broken_files[1]}" "$damaged_file"
cat >"$tmp/h2.ini" <<EOF
[engine]
backend = cpu
synth_workers = 1
workers_per_device = 1
[server]
cluster_lease_s = 2
witness_dir = $tmp/wit
[circuit chain]
kind = zkey
zkey = $fixtures/chain_bls12381.zkey
EOF
launch 2 "$tmp/h2.ini"
if grep -q "from the spill folder" "$tmp/h2.log"; then
    fail "host 2's start removed a live job's spilled file: $(grep "from the spill folder" "$tmp/h2.log")"
else pass; fi
check "the spilled job is proved by host 2" 0 at 2 "$cuzk" await "$big" --timeout 60 \
    --proof-out "$tmp/big.json" --public-out "$tmp/big-public.json"
check "its proof verifies" 0 "$cuzk" verify "$fixtures/manypub_verification_key_bls12381.json" \
    "$tmp/big-public.json" "$tmp/big.json"
check "the inline job is proved" 0 at 2 "$cuzk" await "$small" --timeout 60 \
    --proof-out "$tmp/small.json" --public-out "$tmp/small-public.json"
check "its proof verifies" 0 "$cuzk" verify "$fixtures/verification_key_bls12381.json" \
    "$tmp/small-public.json" "$tmp/small.json"
is "host 2 proved both" \
    "$(q "SELECT count(*) FROM partitions WHERE job IN ('$big', '$small') AND host = 'h2'")" 2
gone "the done job's spilled file is removed" "$big_file"
is "and its row forgets it" "$(q "SELECT count(*) FROM partitions WHERE job = '$big'
                                  AND (wtns_path IS NOT NULL OR spilled)")" 0

# The job whose file was deleted: its partition fails on every try,
# naming the file, then the job fails; its other file goes with it.
check "the job with a deleted file fails" 1 at 2 "$cuzk" await "$broken" --timeout 60
expect "failed" "$tmp/out" '"state":"failed"'
expect "after its retries" "$tmp/out" "partition 0 failed 3 times"
expect "naming the file" "$tmp/out" "spilled witness ${broken_files[0]} cannot be opened"
expect "and why" "$tmp/out" "No such file or directory"
gone "the failed job's other spilled file is removed" "${broken_files[1]}"
check "the job with a damaged file fails" 1 at 2 "$cuzk" await "$damaged" --timeout 60
expect "naming the file" "$tmp/out" "spilled witness $damaged_file is damaged"
gone "the damaged file is removed with its failed job" "$damaged_file"
is "the spill folder is empty" "$(spilled_files | wc -l)" 0

# A spill folder that cannot be written (gone): the submission is refused
# naming the folder and the cause, and nothing is recorded.
kill -CONT "${pid[1]}"
check "cancel the critical job" 0 at 2 "$cuzk" cancel "$blocker"
jobs_before=$(q "SELECT count(*) FROM jobs")
mv "$spill" "$tmp/spill.away"
check "a submission whose witness cannot be spilled" 1 at 1 "$cuzk" submit --circuit manypub \
    --witness-stream "$manypub"
expect "is refused naming the folder" "$tmp/err" "spill folder $spill (server.witness_spill_dir)"
expect "and the cause" "$tmp/err" "No such file or directory"
is "nothing was recorded" "$(q "SELECT count(*) FROM jobs")" "$jobs_before"
mv "$tmp/spill.away" "$spill"
is "nothing was left in the folder" "$(find "$spill" | wc -l)" 1
check "a small witness is still taken inline" 0 at 1 "$cuzk" submit --circuit chain \
    --witness-stream "$chain" --wait
for n in 1 2; do
    kill -TERM "${pid[$n]}"
    { wait "${pid[$n]}"; } 2>/dev/null
    is "host $n exits 0" "$?" 0
done

# A final job whose host died before it removed its spilled file (made
# here by hand while no host runs): the next host to start sweeps it.
orphan=$spill/0123456789abcdef0123456789abcdef-0-0000000000000000.wtns
cp "$manypub" "$orphan"
q "INSERT INTO jobs (id, circuit, priority, partitions, timeout_s, state, submitted_at,
                     finished_at, message)
   VALUES ('0123456789abcdef0123456789abcdef', 'manypub', 2, 1, 0, 6, 1, 1, 'cancelled');
   INSERT INTO partitions (job, idx, seed, wtns_path, state, spilled, circuit)
   VALUES ('0123456789abcdef0123456789abcdef', 0, 0, '$orphan', 6, true, 'manypub')" >/dev/null
# Orphans (a host stopped between writing a job's files and committing
# the job): named as spills are, no row naming them. Two hours old, they
# go at the next host's start, the temporary file of a write that never
# ended too. Kept: a fresh one (its job may be committing on another host
# right now), files of other names (upper-case hex is none of the
# spiller's), a link, and the old files of a job still queued (of a
# circuit no host has): one by its job's row, one (its name carries a job
# with no row) by the partition that names it.
dead=fedcba9876543210fedcba9876543210
queued=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
old_orphan=$spill/$dead-0-0123456789abcdef.wtns
old_part=$spill/.$dead-1-0123456789abcdef.wtns.part
fresh_orphan=$spill/00112233445566778899aabbccddeeff-0-0123456789abcdef.wtns
unrelated=$spill/notes.txt
upper=$spill/FEDCBA9876543210FEDCBA9876543210-0-0123456789abcdef.wtns
link=$spill/$dead-2-0123456789abcdef.wtns
live=$spill/$queued-0-0123456789abcdef.wtns
live_by_path=$spill/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb-0-0123456789abcdef.wtns
for f in "$old_orphan" "$old_part" "$fresh_orphan" "$unrelated" "$upper" "$live" "$live_by_path"; do
    cp "$manypub" "$f"
done
ln -s "$unrelated" "$link"
touch -h -d '2 hours ago' "$old_orphan" "$old_part" "$unrelated" "$upper" "$link" "$live" \
    "$live_by_path"
q "INSERT INTO jobs (id, circuit, priority, partitions, timeout_s, state, submitted_at, message)
   VALUES ('$queued', 'nowhere', 2, 2, 0, 0, 1, '');
   INSERT INTO partitions (job, idx, seed, wtns_path, state, spilled, circuit)
   VALUES ('$queued', 0, 0, '$live', 0, true, 'nowhere'),
          ('$queued', 1, 0, '$live_by_path', 0, true, 'nowhere')" >/dev/null
launch 2 "$tmp/h2.ini"
gone "a host's start sweeps the file of a final job" "$orphan"
is "and forgets its path" "$(q "SELECT count(*) FROM partitions WHERE spilled
                                AND job = '0123456789abcdef0123456789abcdef'")" 0
for f in "$old_orphan" "$old_part"; do
    if [ ! -e "$f" ]; then pass; else fail "the orphan $f is still there"; fi
done
expect "the removal is logged" "$tmp/h2.log" "removed $old_orphan from the spill folder"
expect "so is the temporary file's" "$tmp/h2.log" "removed $old_part from the spill folder"
for f in "$fresh_orphan" "$unrelated" "$upper" "$live" "$live_by_path"; do
    if [ -f "$f" ]; then pass; else fail "the sweep removed $f, which it must keep"; fi
done
if [ -L "$link" ]; then pass; else fail "the sweep removed the link $link"; fi
is "the queued job's rows still name its files" \
    "$(q "SELECT count(*) FROM partitions WHERE job = '$queued' AND spilled")" 2
kill -TERM "${pid[2]}"
{ wait "${pid[2]}"; } 2>/dev/null
q "DELETE FROM jobs WHERE id = '$queued'" >/dev/null
rm -f "$fresh_orphan" "$unrelated" "$upper" "$link" "$live" "$live_by_path"

# The SQLite store keeps every streamed witness in its file: the spill
# folder is not used, and the log says so.
start_server "$tmp/sqlite.log" --config "$tmp/serve.ini" --witness-spill-dir "$spill" \
    --set server.witness_inline_max=0 --set "circuit manypub.kind=zkey" \
    --set "circuit manypub.zkey=$fixtures/manypub_bls12381.zkey"
expect "the SQLite server says the folder is not used" "$tmp/sqlite.log" \
    "server.witness_spill_dir is not used"
check "a big witness on SQLite" 0 "$cuzk" submit --circuit manypub --witness-stream "$manypub" \
    --wait --proof-out "$tmp/sq.json" --public-out "$tmp/sq-public.json"
check "its proof verifies" 0 "$cuzk" verify "$fixtures/manypub_verification_key_bls12381.json" \
    "$tmp/sq-public.json" "$tmp/sq.json"
is "nothing was spilled" "$(find "$spill" | wc -l)" 1
stop_server TERM

check "a missing spill folder fails the start" 1 "$cuzk" serve --config "$tmp/serve.ini" \
    --store "$PG_URL" --witness-spill-dir "$tmp/nowhere"
expect "naming the key" "$tmp/err" "[server] witness_spill_dir $tmp/nowhere"
check "a relative one too" 3 "$cuzk" serve --config "$tmp/serve.ini" --store "$PG_URL" \
    --witness-spill-dir spill
expect "saying it must be absolute" "$tmp/err" "witness_spill_dir must be an absolute path"
finish
