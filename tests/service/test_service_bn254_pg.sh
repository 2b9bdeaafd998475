#!/usr/bin/env bash
# test_service_bn254.sh's circuits of both curves side by side, with the
# job store in PostgreSQL (a real server, tests/store/pg_test_server.sh):
# the host claims the partitions of both curves' jobs from the shared
# queue and writes 256-byte BN254 proofs next to 192-byte BLS12-381 ones;
# killed (SIGKILL) under a BN254 job and started again on the same
# database, it answers every job's same bytes and files, and the killed
# job finishes (its expired leases claimed again). Without PostgreSQL's
# binaries it fails.
# Usage: test_service_bn254_pg.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bn254_lib.sh"
pg_serve_setup
bn254_config "$tmp/serve.ini"
serve() { start_server "$tmp/serve$1.log" --config "$tmp/serve.ini" --store "$PG_URL"; }
serve 1
expect "the log names the store" "$tmp/serve1.log" "job store in PostgreSQL"
bn254_side_by_side
stop_server 9 # under the job of sixteen partitions

serve 2
bn254_after_restart
stop_server TERM
is "server exit code after the restart" "$server_rc" 0
finish
