#!/usr/bin/env bash
# The command lines of the client commands and of cuzk serve (getopt_long):
# every --help exits 0 with its usage on stdout; a bad command line exits
# 2 with a message naming what is wrong (an option unknown, ambiguous,
# given a value it does not take or missing its own, a stray argument, a
# bad value); accepted forms
# (--opt=value, unique prefixes, options after arguments, "--") get past
# the parsing, which shows as exit 4 against a socket nobody listens on.
# Usage: test_service_cli.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
export CUZK_SOCKET=$tmp/nobody.sock

for c in submit await status cancel jobs circuit api serve; do
    check "$c --help" 0 "$cuzk" $c --help
    expect "$c usage" "$tmp/out" "usage: cuzk $c"
    check "$c -h" 0 "$cuzk" $c -h
done
check "await --help lists the snarkjs options" 0 "$cuzk" await --help
expect "--public-out" "$tmp/out" "--public-out FILE"
expect "--format" "$tmp/out" "--format bellman|snarkjs"

# bad command lines: exit 2, the message names the culprit
bad() { # name, text the message must hold, arguments...
    local name=$1 text=$2
    shift 2
    check "$name" 2 "$cuzk" "$@"
    expect "$name: message" "$tmp/err" "$text"
}
J=0123456789abcdef0123456789abcdef # a job id's shape
bad "unknown option" "unknown option '--frob'" submit --circuit c --frob
bad "unknown short option" "unknown option '-x'" await -x $J
bad "ambiguous prefix" "more than one option" submit --circuit c --wit a
bad "value for a flag" "takes no value" submit --circuit c --wait=yes
bad "missing value" "--timeout wants a value" await $J --timeout
bad "bad seconds" "--timeout wants seconds" await $J --timeout=-3
bad "stray argument" "unexpected 'x'" submit --circuit c x
bad "second job id" "unexpected '2'" await $J 2
bad "no job id" "which job" await
bad "numeric job id" "not a job id (32 hex digits" await 3
bad "short job id" "not a job id (32 hex digits" cancel 0123abc
bad "status argument" "'x' is not a job id" status x
bad "status two" "at most one job id" status $J $J
bad "cancel two" "give one job id" cancel $J 2
bad "jobs argument" "unexpected 'x'" jobs x
bad "circuit verb" "list, show NAME" circuit frob
bad "api path" "give METHOD and PATH" api GET
bad "api third" "unexpected 'x'" api GET /v1/status x
bad "bad partitions" "--partitions wants" submit --circuit c --partitions=lots
bad "no circuit" "--circuit is missing" submit --partitions 2
bad "serve unknown" "unknown option '--frob'" serve --frob
bad "serve stray" "unexpected 'x'" serve x
bad "serve missing value" "--retries wants a value" serve --retries
bad "serve bad value" "command line (--retries)" serve --retries lots
bad "serve flag with value" "takes no value" serve --insecure-no-token=yes
bad "serve ambiguous" "more than one option" serve --re 3

# accepted forms reach the (absent) server: exit 4
check "--opt=value" 4 "$cuzk" await $J --timeout=1
check "options after arguments" 4 "$cuzk" jobs --json --state=done
check "unique prefix" 4 "$cuzk" submit --circ c --prio high --seed 1 --part 2
check "-- ends the options" 4 "$cuzk" api GET -- /v1/status
check "--socket=PATH" 4 "$cuzk" status --socket="$tmp/other.sock"
expect "the socket given" "$tmp/err" "$tmp/other.sock"
finish
