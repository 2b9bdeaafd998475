#!/usr/bin/env bash
# The throughput of 1, 2 and 4 cuzk serve hosts on the CPU backend sharing
# one PostgreSQL queue (docs/CLUSTER.md), all on this machine, the cores
# split evenly between the hosts (each host's prover and synthesis get
# max(1, cores / hosts) threads: past the core count, hosts share cores).
# Beside them, one host on its own SQLite store with all the cores: the
# same machine without the cluster.
#
# Per run: a fresh database, the hosts started and ready, then JOBS jobs of
# PARTITIONS partitions of the built-in circuit at 2^LOG submitted through
# the hosts in turn and awaited; the time from the first submit to the
# last proof. One JSON line per run:
#   {"bench":"cluster_scaling","store":"postgresql","hosts":H,"threads_per_host":T,
#    "log_constraints":LOG,"partitions":N,"seconds":..,"partitions_per_s":..}
# With the cores fixed, linear scaling means the same partitions per
# second for every host count (the cluster costs nothing); with a core
# per host it would mean H times one host's.
#
# Usage: bench/bench_cluster_scaling.sh path/to/cuzk [--log 14] [--jobs 8]
#        [--partitions 2] [--hosts "1 2 4"] [--cores N]
set -u
cuzk=$(realpath "$1")
shift
log=14 jobs=8 parts=2 host_counts="1 2 4" cores=$(nproc)
while [ $# -ge 2 ]; do
    case $1 in
    --log) log=$2 ;;
    --jobs) jobs=$2 ;;
    --partitions) parts=$2 ;;
    --hosts) host_counts=$2 ;;
    --cores) cores=$2 ;;
    *) echo "bench_cluster_scaling: unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done
source "$(dirname "$0")/../tests/store/pg_test_server.sh"
work=$(mktemp -d /tmp/cuzk-scaling-XXXXXX)
chmod 755 "$work"
pids=()
stop_hosts() {
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    pids=()
}
trap 'stop_hosts; pg_stop; rm -rf "$work"' EXIT
pg_start
"$cuzk" setup --log-constraints "$log" --params "$work/k.params" >/dev/null ||
    { echo "bench_cluster_scaling: cuzk setup failed" >&2; exit 1; }

now() { date +%s.%N; }

# config PATH THREADS: one host's configuration.
config() {
    cat >"$1" <<EOF
[engine]
backend = cpu
cpu_devices = 1
device_threads = $2
synth_workers = 1
synth_threads = $2
workers_per_device = 1
[circuit k]
kind = builtin
log_constraints = $log
params = $work/k.params
EOF
}

# run STORE HOSTS: starts the hosts, proves the jobs, prints the line.
run() {
    local store=$1 hosts=$2 threads=$((cores / $2))
    [ "$threads" -ge 1 ] || threads=1
    local where=()
    if [ "$store" = postgresql ]; then
        local db="scale$hosts"
        "${PG_AS[@]}" "$PG_BIN/createdb" -h "$PG_DIR" -U cuzk "$db" || exit 1
        where=(--store "postgresql:///$db?host=$PG_DIR&user=cuzk")
    else
        where=(--set "server.state_dir=$work/state-sqlite")
    fi
    config "$work/h.ini" "$threads"
    for h in $(seq 1 "$hosts"); do
        "$cuzk" serve --config "$work/h.ini" --socket "$work/h$h.sock" "${where[@]}" \
            --set "server.cluster_host=h$h" >"$work/h$h.log" 2>&1 &
        pids+=("$!")
    done
    for h in $(seq 1 "$hosts"); do
        local up=
        for _ in $(seq 1 600); do
            if CUZK_SOCKET=$work/h$h.sock "$cuzk" api GET /v1/health >/dev/null 2>&1; then
                up=1
                break
            fi
            kill -0 "${pids[$((h - 1))]}" 2>/dev/null || break
            sleep 0.1
        done
        [ -n "$up" ] || { echo "bench_cluster_scaling: host h$h did not start:" >&2;
            cat "$work/h$h.log" >&2; exit 1; }
    done
    local t0 ids=() i
    t0=$(now)
    for i in $(seq 0 $((jobs - 1))); do
        local h=$((i % hosts + 1))
        ids+=("$(CUZK_SOCKET=$work/h$h.sock "$cuzk" submit --circuit k --partitions "$parts" \
            --seed $((i * parts + 1)))") || exit 1
    done
    for i in $(seq 0 $((jobs - 1))); do
        local h=$((i % hosts + 1))
        CUZK_SOCKET=$work/h$h.sock "$cuzk" await "${ids[$i]}" --proof-out "$work/p$i.bin" \
            >/dev/null || { echo "bench_cluster_scaling: job $i failed" >&2; exit 1; }
    done
    local t1
    t1=$(now)
    stop_hosts
    for i in $(seq 0 $((jobs - 1))); do
        "$cuzk" verify --builtin --log-constraints "$log" --params "$work/k.params" \
            --seed $((i * parts + 1)) "$work/p$i.bin" >/dev/null ||
            { echo "bench_cluster_scaling: job $i's proof does not verify" >&2; exit 1; }
    done
    awk -v s="$store" -v h="$hosts" -v t="$threads" -v l="$log" -v n=$((jobs * parts)) \
        -v a="$t0" -v b="$t1" 'BEGIN {
        printf "{\"bench\":\"cluster_scaling\",\"store\":\"%s\",\"hosts\":%d,\"threads_per_host\":%d,", s, h, t
        printf "\"log_constraints\":%d,\"partitions\":%d,\"seconds\":%.2f,\"partitions_per_s\":%.3f}\n", l, n, b - a, n / (b - a)
    }'
}

run sqlite 1
for h in $host_counts; do run postgresql "$h"; done
