#!/usr/bin/env bash
# cuzk serve with circuits of both curves side by side: the circom chain
# and Poseidon fixtures keyed over BN254 (chain254, poseidon254, in the
# configuration file; chain254api, the chain again, registered over the
# API) next to the chain over BLS12-381 (chain) and the built-in
# BLS12-381 circuit (p10). Jobs of all of them run at once; every proof is
# checked by cuzk verify and, where node and snarkjs are installed, by
# `snarkjs groth16 verify` (skipped visibly otherwise). The BN254 job's
# bellman-format proof is 2 x 256 bytes, its snarkjs files say "bn128";
# circuits, jobs, status and metrics name each circuit's curve. A witness
# of the other curve, streamed or by path, is refused at submission naming
# the witness and both curves. The server is killed (SIGKILL) under a
# BN254 job of sixteen partitions; started again on its job store (SQLite
# here; test_service_bn254_pg.sh runs the same on PostgreSQL), it answers
# the finished jobs byte for byte as before, and the killed job finishes
# from what the store kept, every partition verified.
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
stop_server 9 # under the job of sixteen partitions

# Restarted: the finished jobs are answered from the store.
serve 2
bn254_after_restart
stop_server TERM
is "server exit code after the restart" "$server_rc" 0
finish
