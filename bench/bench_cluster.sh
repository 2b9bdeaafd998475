#!/usr/bin/env bash
# bench_cluster (what sharing the queue costs per partition, and the
# leases per second the queue sustains) against a PostgreSQL started for
# it (tests/store/pg_test_server.sh) with fsync on, as a production
# server runs. Prints bench_cluster's JSON lines.
# Usage: bench/bench_cluster.sh path/to/bench_cluster [--partitions N]
set -u
bench=$1
shift
export PG_FSYNC=on
source "$(dirname "$0")/../tests/store/pg_test_server.sh"
trap pg_stop EXIT
pg_start
"$bench" --pg "$PG_URL" "$@"
