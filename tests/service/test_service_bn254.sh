#!/usr/bin/env bash
# cuzk serve with circuits of both curves side by side: the circom chain
# fixture keyed over BN254 (chain254, in the configuration file) and the
# Poseidon fixture over BN254 (poseidon254, registered over the API) next
# to the chain over BLS12-381 (chain) and the built-in BLS12-381 circuit
# (p10). Jobs of all three run at once; every proof is checked by cuzk
# verify and, where node and snarkjs are installed, by `snarkjs groth16
# verify` (skipped visibly otherwise). The BN254 job's bellman-format
# proof is 2 x 256 bytes, its snarkjs files say "bn128"; circuits, jobs
# and metrics name each circuit's curve. A witness of the other curve,
# streamed or by path, is refused at submission naming the witness and
# both curves. After a restart the jobs' proofs come from the job store
# (SQLite here; test_service_bn254_pg.sh runs the same on PostgreSQL)
# byte for byte as before.
# Usage: test_service_bn254.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/bn254_lib.sh"

make_params
write_config "$tmp/serve.ini" ""
bn254_config "$tmp/serve.ini"
serve() { start_server "$tmp/serve$1.log" --config "$tmp/serve.ini"; }
serve 1
bn254_side_by_side
stop_server TERM
is "server exit code" "$server_rc" 0

# Restarted: the finished jobs are answered from the store.
serve 2
bn254_after_restart
stop_server TERM
is "server exit code after the restart" "$server_rc" 0
finish
