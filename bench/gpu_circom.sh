#!/usr/bin/env bash
# circom-shaped proving on the GPU machine, which has no Node.js (no circom,
# no snarkjs) and no network: the circuits and witnesses are made there by
# make_chain_circuit (a chain of Poseidon hashes filling a 2^K snarkjs
# domain, one public output), the key by `cuzk setup --r1cs` (a development
# key in snarkjs's layout). For each size:
#   setup     `cuzk setup --r1cs`, wall time
#   one-shot  `cuzk prove --backend cuda` of one witness, wall time of the
#             whole command (reading the key included), as a user runs it
#   steady    `cuzk prove --backend cuda --witness-list` of N witnesses (N
#             different inputs) with the engine's event log; two rates:
#               proofs_per_s_events: from the log's "done" times, the
#                 proofs after the first SKIP over the time between the
#                 SKIP-th and the last (the pipeline full);
#               proofs_per_s_wall: N over cuzk's own "N proofs X s" figure,
#                 i.e. the command's time minus reading the key.
# cuzk verifies every proof before writing it (no --no-verify here), and
# the script checks that every proof file was written.
#
#   bench/gpu_circom.sh                    # standalone; BUILD=build/gpu
#   CUZK_GPU_AFTER=bench/gpu_circom.sh bench/gpu.sh   # after gpu.sh's run
#   CUZK_GPU_TARGETS="cuzk_cli make_chain_circuit" CUZK_GPU_TESTS=none \
#   CUZK_GPU_BENCHES=' ' CUZK_GPU_AFTER=bench/gpu_circom.sh bench/gpu.sh  # this alone
#
# Writes one JSON line per size to $OUT/circom.jsonl (and the generator's
# line before it), the event logs to $OUT/circom-events.tar.gz; progress on
# stdout. The large files (about 1.2 GB of witnesses and 0.8 GB of key at
# 2^20) go to $CUZK_CIRCOM_WORK and are removed after each size. Budget: a
# few minutes on an H200 with 16 cores at 2^20 (estimated: setup and key
# reading dominate).
#
# Environment: BUILD (the build folder holding cuzk and make_chain_circuit;
# default build/gpu), OUT (default ./gpu-out), CUZK_CIRCOM_SIZES (the K
# values; default "20"; 16 and 18 are cheap additions), CUZK_CIRCOM_WITNESSES
# (default 32), CUZK_CIRCOM_SKIP (proofs left out of the steady rate;
# default 4), CUZK_CIRCOM_BACKEND (default cuda), CUZK_CIRCOM_WORK (default
# $BUILD/circom-chain), CUZK_CIRCOM_KEEP=1 (keep the large files),
# CUZK_COMMIT (the commit written into the JSON lines).
# Exits non-zero when a step failed.
set -uo pipefail
export LC_ALL=C # decimal points in $EPOCHREALTIME and awk
cd "$(dirname "$0")/.." || exit 2

BUILD=${BUILD:-build/gpu}
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "gpu_circom.sh: no build folder ${BUILD}" >&2; exit 2; }
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
read -r -a sizes <<<"${CUZK_CIRCOM_SIZES:-20}"
nwit=${CUZK_CIRCOM_WITNESSES:-32}
skip=${CUZK_CIRCOM_SKIP:-4}
backend=${CUZK_CIRCOM_BACKEND:-cuda}
work=${CUZK_CIRCOM_WORK:-$BUILD/circom-chain}
cuzk=$BUILD/cuzk
gen=$BUILD/make_chain_circuit
commit=${CUZK_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
jsonl=$OUT/circom.jsonl

say() { printf '== gpu_circom.sh: %s\n' "$*"; }

# run_timed LOG command...: stdout and stderr to LOG; sets wall_s (seconds)
# and rss_kb (peak resident set, 0 without /usr/bin/time).
run_timed() {
    local log=$1 t0=$EPOCHREALTIME rc
    shift
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -o "$log.rss" -f '%M' "$@" >"$log" 2>&1
        rc=$?
        rss_kb=$(tail -n 1 "$log.rss" 2>/dev/null)
        [[ "$rss_kb" =~ ^[0-9]+$ ]] || rss_kb=0
    else
        "$@" >"$log" 2>&1
        rc=$?
        rss_kb=0
    fi
    wall_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
    return "$rc"
}

# From cuzk prove's timing line ("...; key 1.234 s, 32 proofs 5.678 s").
key_s() { sed -n 's/^cuzk prove:.* key \([0-9.]*\) s.*/\1/p' "$1" | tail -n 1; }
proofs_s() { sed -n 's/^cuzk prove:.* proofs\{0,1\} \([0-9.]*\) s.*/\1/p' "$1" | tail -n 1; }
backend_of() { sed -n 's/^cuzk prove:.*signals, \([a-z]*\) backend.*/\1/p' "$1" | tail -n 1; }

# The jobs' "done" times from an event log (docs/TRACE.md), sorted: then
# "count rate" with rate the proofs after the first $skip over the time
# from the $skip-th to the last ("null" when too few proofs).
events_rate() {
    awk '/"type":"job"/ && /"state":"done"/ {
            if (match($0, /"ts_ns":[0-9]+/)) print substr($0, RSTART + 8, RLENGTH - 8)
        }' "$1" | sort -n | awk -v s="$skip" '{ t[NR] = $1 } END {
            if (NR > s + 1 && s >= 1 && t[NR] > t[s])
                printf "%d %.3f\n", NR, (NR - s) / ((t[NR] - t[s]) / 1e9)
            else
                printf "%d null\n", NR
        }'
}

fail() {
    say "FAILED: $*"
    [ -n "${log:-}" ] && [ -f "$log" ] && tail -n 30 "$log" | sed 's/^/    /'
    status=1
}

status=0
[ -x "$cuzk" ] || { say "FAILED: no $cuzk"; exit 1; }
[ -x "$gen" ] || { say "FAILED: no $gen"; exit 1; }
if ! "$cuzk" setup --help 2>&1 | grep -q -- --r1cs; then
    say "FAILED: this cuzk has no 'setup --r1cs' (development keys for .r1cs files)"
    exit 1
fi
: >"$jsonl"
mkdir -p "$work" "$work/events" || exit 1
say "sizes ${sizes[*]}, $nwit witnesses, backend $backend, $(nproc) cores; work in $work"

for k in "${sizes[@]}"; do
    d=$work/k$k
    rm -rf "$d" && mkdir -p "$d" || exit 1
    log=$d/gen.log
    say "2^$k: circuit and $nwit witnesses"
    if ! run_timed "$log" "$gen" --log-constraints "$k" --out "$d" --witnesses "$nwit"; then
        fail "2^$k: make_chain_circuit"
        continue
    fi
    gen_s=$wall_s
    grep '^{' "$log" | sed -E "s/\"commit\":\"[^\"]*\"/\"commit\":\"$commit\"/" >>"$jsonl"
    constraints=$(sed -n 's/.*"constraints":\([0-9]*\).*/\1/p' "$log")
    say "2^$k: $constraints constraints, made in $gen_s s"

    log=$d/setup.log
    if ! run_timed "$log" "$cuzk" setup --r1cs "$d/chain.r1cs" --zkey "$d/chain.zkey"; then
        fail "2^$k: cuzk setup --r1cs"
        continue
    fi
    setup_s=$wall_s setup_rss=$rss_kb
    zkey_bytes=$(stat -c %s "$d/chain.zkey")
    say "2^$k: setup $setup_s s, key $zkey_bytes bytes"

    log=$d/one.log
    if ! run_timed "$log" "$cuzk" prove --backend "$backend" "$d/chain.zkey" "$d/chain-0.wtns" \
        "$d/one-proof.json" "$d/one-public.json"; then
        fail "2^$k: one-shot cuzk prove"
        continue
    fi
    one_s=$wall_s one_rss=$rss_kb one_key=$(key_s "$log") one_proof=$(proofs_s "$log")
    used=$(backend_of "$log")
    cat "$log"

    log=$d/steady.log
    events=$work/events/k$k.jsonl
    if ! run_timed "$log" "$cuzk" prove --backend "$backend" --event-log "$events" \
        --witness-list "$d/witnesses.txt" "$d/chain.zkey"; then
        fail "2^$k: cuzk prove --witness-list"
        continue
    fi
    steady_s=$wall_s steady_rss=$rss_kb steady_key=$(key_s "$log") steady_proofs=$(proofs_s "$log")
    cat "$log"
    missing=0
    for i in $(seq 0 $((nwit - 1))); do
        [ -s "$d/proof-$i.json" ] && [ -s "$d/public-$i.json" ] || missing=$((missing + 1))
    done
    verified=true # cuzk checks each proof before it writes it, and exits 1 if one fails
    [ "$missing" -eq 0 ] || { verified=false; fail "2^$k: $missing of $nwit proofs not written"; }
    read -r done_count ev_rate < <(events_rate "$events")
    [ "$done_count" -eq "$nwit" ] || fail "2^$k: the event log has $done_count proofs done, not $nwit"
    wall_rate=$(awk -v n="$nwit" -v s="${steady_proofs:-0}" 'BEGIN {
        if (s > 0) printf "%.3f", n / s; else printf "null" }')

    {
        printf '{"bench":"gpu_circom","log_constraints":%d,"constraints":%s,"public":1,' "$k" \
            "${constraints:-null}"
        printf '"witnesses":%d,"backend":"%s","cores":%d,"gen_s":%s,"setup_s":%s,' "$nwit" \
            "${used:-unknown}" "$(nproc)" "$gen_s" "$setup_s"
        printf '"setup_rss_kb":%s,"zkey_bytes":%s,"oneshot_wall_s":%s,"oneshot_key_s":%s,' \
            "$setup_rss" "$zkey_bytes" "$one_s" "${one_key:-null}"
        printf '"oneshot_proof_s":%s,"oneshot_rss_kb":%s,"steady_wall_s":%s,"steady_key_s":%s,' \
            "${one_proof:-null}" "$one_rss" "$steady_s" "${steady_key:-null}"
        printf '"steady_proofs_s":%s,"steady_rss_kb":%s,"proofs_per_s_wall":%s,' \
            "${steady_proofs:-null}" "$steady_rss" "$wall_rate"
        printf '"proofs_per_s_events":%s,"events_skip":%d,"verified":%s,"commit":"%s"}\n' \
            "$ev_rate" "$skip" "$verified" "$commit"
    } >>"$jsonl"
    say "2^$k: setup $setup_s s; one proof $one_s s wall (key ${one_key:-?} s);" \
        "$nwit proofs: $wall_rate/s after the key, $ev_rate/s steady (event log)"
    [ "${CUZK_CIRCOM_KEEP:-0}" = 1 ] || rm -rf "$d"
done

tar -czf "$OUT/circom-events.tar.gz" -C "$work" events 2>/dev/null || true
[ "${CUZK_CIRCOM_KEEP:-0}" = 1 ] || { rm -rf "$work/events" && rmdir "$work" 2>/dev/null; }
say "results"
cat "$jsonl"
if [ "$status" -eq 0 ]; then say "OK"; else say "FAILED (see above)"; fi
exit "$status"
