#!/usr/bin/env bash
# The command lines of cuzk setup, prove, verify, bench and trace, in each
# of their forms (getopt_long through cli/args.h):
#  - --help and -h exit 0 with the usage on stdout and nothing on stderr;
#  - a bad command line exits 2 with a message naming the culprit: an
#    unknown or ambiguous option, a missing value, a value given to an
#    option that takes none, an option of the other form, a stray
#    argument, a bad value;
#  - accepted forms (--opt=value, unique prefixes, -q, options after the
#    files, "--") get past the parsing, which shows as the exit code of a
#    missing input file (3) or of an output that cannot be made (1), with
#    the value named in the message; nothing is proved.
# Usage: test_cli_args.sh path/to/cuzk
set -u
cuzk=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
circom=$root/tests/fixtures/circom
traces=$root/tests/fixtures/trace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUZK_CACHE_DIR=$tmp/cache
none=$tmp/none
passed=0
failed=0
check() { # name, expected exit code, command...
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name: exit $got, expected $want"
        sed 's/^/    out: /' "$tmp/out" | head -20
        sed 's/^/    err: /' "$tmp/err" | head -20
    fi
}
expect() { # name, file, fixed string that must be in it
    if grep -qF -- "$3" "$2"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $1: '$3' not in $(basename "$2")"
        sed 's/^/    /' "$2" | head -20
    fi
}
help() { # name, command word, arguments...: the usage on stdout, exit 0
    local name=$1 command=$2
    check "$name" 0 "$cuzk" "${@:3}"
    expect "$name: usage" "$tmp/out" "usage: cuzk $command"
    if [ -s "$tmp/err" ]; then
        failed=$((failed + 1))
        echo "FAIL: $name: something on stderr"
        sed 's/^/    /' "$tmp/err"
    fi
}
bad() { # name, text the message must hold, arguments...: exit 2
    local name=$1 text=$2
    shift 2
    check "$name" 2 "$cuzk" "$@"
    expect "$name: message" "$tmp/err" "$text"
}
parsed() { # name, exit code, text the message must hold, arguments...
    local name=$1 want=$2 text=$3
    shift 3
    check "$name" "$want" "$cuzk" "$@"
    expect "$name: message" "$tmp/err" "$text"
}

# --help, in every form.
for c in setup prove verify bench trace; do
    help "$c --help" $c $c --help
    help "$c -h" $c $c -h
done
help "prove --builtin --help" prove prove --builtin --log-constraints 12 --help
help "prove: -h among short options" prove prove -qh
help "verify --builtin --help" verify verify --builtin -h
help "setup --r1cs --help" setup setup --r1cs r --zkey z --help
help "setup: --help wins wherever it stands" setup setup --frob --help
help "bench --arith --help" bench bench --arith --help
help "trace: --help after the log" trace trace "$traces/dip.jsonl" --help

# prove, the circom form.
W=$circom/chain_bls12381.wtns
files=("$none.zkey" "$W" "$tmp/p.json" "$tmp/q.json")
bad "prove: unknown option" "prove: unknown option '--frob'" prove --frob "${files[@]}"
bad "prove: unknown short option" "prove: unknown option '-x'" prove -x "${files[@]}"
bad "prove: missing value" "--threads wants a value" prove "${files[@]}" --threads
bad "prove: --witness-list without a file" "--witness-list wants a value" prove --witness-list
bad "prove: a flag given a value" "'--no-verify=yes': the option takes no value" \
    prove --no-verify=yes "${files[@]}"
bad "prove: --quiet given a value" "'--quiet=1': the option takes no value" \
    prove --quiet=1 "${files[@]}"
bad "prove: --help given a value" "'--help=1': the option takes no value" prove --help=1
bad "prove: ambiguous prefix" "'--b' is the start of more than one option" \
    prove --b cpu "${files[@]}"
bad "prove: a built-in option" "prove: --seed goes with --builtin" prove --seed 3 "${files[@]}"
bad "prove: bad --threads" "--threads wants a whole number" prove --threads=lots "${files[@]}"
bad "prove: bad --backend" "--backend wants auto, cpu or cuda" prove --backend=gpu "${files[@]}"
bad "prove: empty --event-log" "--event-log wants a file" prove --event-log= "${files[@]}"
bad "prove: bad --fixed-blinding" "--fixed-blinding wants R,S" \
    prove --fixed-blinding 5 "${files[@]}"
bad "prove: three files" "want circuit.zkey, then" prove "$none.zkey" "$W" "$tmp/p.json"
bad "prove: a witness short" "want circuit.zkey, then" prove "${files[@]}" "$W" "$tmp/p2.json"
bad "prove: --witness-list and files" "with --witness-list, give the key alone" \
    prove --witness-list "$none.list" "$none.zkey" "$W"

parsed "prove: one witness" 3 "none.zkey" prove "${files[@]}"
parsed "prove: two witnesses, options after them, =, -q" 3 "none.zkey" \
    prove "${files[@]}" "$W" "$tmp/p2.json" "$tmp/q2.json" --threads=2 -q --backend=cpu \
    --no-verify --check-subgroup --event-log="$tmp/events.jsonl" --fixed-blinding=1,2
parsed "prove: unique prefixes" 3 "none.zkey" \
    prove --thr 2 --ba cpu --no-v --check-s --qui "${files[@]}"
parsed "prove: -- ends the options" 3 "-none.zkey" \
    prove -q -- -none.zkey "$W" "$tmp/p.json" "$tmp/q.json"
parsed "prove --witness-list=FILE" 3 "none.list" prove --witness-list="$none.list" "$none.zkey"
parsed "prove --witness-l FILE" 3 "none.list" prove "$none.zkey" --witness-l "$none.list"

# prove, the built-in circuit's form.
bad "prove --builtin: a stray argument" "prove: unknown argument 'x'" \
    prove --builtin --out "$tmp/p.bin" x
bad "prove --builtin: --witness-list" "--witness-list does not go with --builtin" \
    prove --builtin --out "$tmp/p.bin" --witness-list l
bad "prove --builtin: unknown option" "prove: unknown option '--frob'" prove --builtin --frob
bad "prove --builtin: missing value" "--out wants a value" prove --builtin --out
bad "prove --builtin: --log-constraints" "between 10 and 27" \
    prove --builtin --log-constraints=9 --out "$tmp/p.bin"
bad "prove --builtin: --arity" "--arity must be 2 or 8" \
    prove --builtin --arity=4 --out "$tmp/p.bin"
bad "prove --builtin: --partitions" "--partitions must be at least 1" \
    prove --builtin --partitions 0 --out "$tmp/p.bin"
bad "prove --builtin: --seed" "--seed wants a number" prove --builtin --seed=-1 --out "$tmp/p.bin"
bad "prove --builtin: no --out" "needs --out FILE" prove --builtin --params "$none.params"
parsed "prove --builtin: every option, =" 3 "no parameters at $none.params" \
    prove --builtin --log-constraints=12 --arity=2 --seed=5 --partitions=3 \
    --params="$none.params" --out="$tmp/p.bin" --threads=1 --backend=cpu -q --no-verify \
    --check-subgroup --event-log="$tmp/events.jsonl" --fixed-blinding=1,2
parsed "prove --builtin last, prefixes" 3 "run \`cuzk setup --log-constraints 13\` first" \
    prove --out "$tmp/p.bin" --para "$none.params" --log-c 13 --built

# setup, both forms.
bad "setup: unknown option" "setup: unknown option '--frob'" setup --frob
bad "setup: missing value" "--zkey wants a value" setup --r1cs r --zkey
bad "setup: --r1cs alone" "--r1cs and --zkey go together" setup --r1cs=r
bad "setup: a built-in option with --r1cs" "'--params' does not go with --r1cs/--zkey" \
    setup --r1cs r --zkey z --params p
bad "setup: a stray argument with --r1cs" "'x' does not go with --r1cs/--zkey" \
    setup --r1cs r --zkey z x
bad "setup: both forms" "two different setups" setup --builtin --r1cs r --zkey z
bad "setup: bad --threads" "--threads wants a whole number" setup --r1cs r --zkey z --threads lots
bad "setup --builtin: a stray argument" "setup: unknown argument 'x'" setup --builtin x
bad "setup --builtin: missing value" "--params wants a value" setup --params
bad "setup --builtin: --log-constraints" "between 10 and 27" setup --log-constraints 9
parsed "setup --r1cs= --zkey=" 3 "none.r1cs" \
    setup --r1cs="$none.r1cs" --zkey="$tmp/x.zkey" --threads=2 -q
parsed "setup: prefixes, options in any order" 3 "none.r1cs" \
    setup --zk "$tmp/x.zkey" --qui --r1 "$none.r1cs"
# The smallest built-in setup is quick; its parameters cannot be written.
parsed "setup --builtin, =" 1 "cannot write /dev/null/x.params" \
    setup --log-constraints=10 --arity=8 --params=/dev/null/x.params --builtin -q

# verify, both forms.
VK=$circom/verification_key_bls12381.json
PUB=$circom/public_bls12381.json
PROOF=$circom/proof_bls12381.json
bad "verify: unknown option" "verify: unknown option '--frob'" verify --frob "$VK" "$PUB" "$PROOF"
bad "verify: missing value" "--threads wants a value" verify "$VK" "$PUB" "$PROOF" --threads
bad "verify: a fourth file" "verify: unexpected argument 'x'" verify "$VK" "$PUB" "$PROOF" x
bad "verify: a built-in option" "verify: --seed goes with --builtin" \
    verify --seed 1 "$VK" "$PUB" "$PROOF"
check "verify: two files" 2 "$cuzk" verify "$VK" "$PUB"
expect "verify: two files: usage" "$tmp/err" "usage: cuzk verify"
bad "verify --builtin: a second file" "verify: unexpected argument" \
    verify --builtin "$tmp/a.bin" "$tmp/b.bin"
bad "verify --builtin: missing value" "--seed wants a value" verify --builtin "$tmp/a.bin" --seed
bad "verify --builtin: unknown option" "verify: unknown option '--frob'" \
    verify --builtin --frob "$tmp/a.bin"
check "verify --builtin: no file" 2 "$cuzk" verify --builtin
parsed "verify: options after the files, =" 3 "none.json" \
    verify "$none.json" "$PUB" "$PROOF" --threads=2 --quiet --check-s
parsed "verify --builtin, =" 3 "none.params" \
    verify --builtin --params="$none.params" --seed=4 --log-constraints 12 --arity=2 "$tmp/p.bin"
parsed "verify, --builtin last" 3 "none.params" verify "$tmp/p.bin" --para "$none.params" --bui

# bench, both forms. Without --arith the output folder cannot be made:
# exit 1 before any proof.
bad "bench: unknown option" "bench: unknown option '--frobnicate'" bench --frobnicate
bad "bench: missing value" "--jobs wants a value" bench --jobs
bad "bench: zero jobs" "--jobs must be at least 1" bench --jobs=0
bad "bench: too many workers" "--workers-per-device wants a whole number up to 256" \
    bench --workers-per-device 257
bad "bench: a stray argument" "bench: unknown argument 'x'" bench x
bad "bench: --scale without --arith" "bench: --scale goes with --arith" bench --scale 2
bad "bench: too many partitions" "at most 10^6 partitions" bench --jobs 10000 --partitions 101
bad "bench --arith: another option" "bench: '--jobs' does not go with --arith" \
    bench --arith --jobs 2
bad "bench --arith: a stray argument" "bench: 'x' does not go with --arith" bench --arith x
bad "bench --arith: missing value" "--scale wants a value" bench --arith --scale
bad "bench --arith: bad --scale" "--scale wants a positive number, got '0'" \
    bench --arith --scale=0
parsed "bench: every option, =" 1 "cannot create the output folder /dev/null/x" \
    bench --log-constraints=10 --jobs=1 --partitions=1 --arity=8 --seed=3 --threads=2 \
    --synth-workers=1 --workers-per-device=1 --backend=cpu --no-verify \
    --event-log="$tmp/events.jsonl" --params="$none.params" --out=/dev/null/x --builtin
parsed "bench: prefixes" 1 "cannot create the output folder /dev/null/y" \
    bench --log-c 10 --jo 1 --synth 1 --workers 1 --ou /dev/null/y
parsed "bench --scale= --arith" 0 "BLS12-381 arithmetic" bench --scale=0.001 --arith
expect "bench --arith: JSON lines" "$tmp/out" '"bench":"arith"'

# trace (no proving: the whole command runs).
T=$traces/gaps.jsonl
bad "trace: unknown option" "trace: unknown option '--frob'" trace "$T" --frob
bad "trace: missing value" "--perfetto wants a value" trace "$T" --perfetto
bad "trace: a flag given a value" "'--strict=1': the option takes no value" trace "$T" --strict=1
bad "trace: ambiguous prefix" "'--s' is the start of more than one option" trace "$T" --s
bad "trace: bad --gap-ms" "trace: --gap-ms wants a non-negative number, got '-1'" \
    trace "$T" --gap-ms=-1
bad "trace: bad --dip-below" "trace: --dip-below wants a non-negative number" \
    trace "$T" --dip-below x
bad "trace: narrow" "--width wants at least" trace "$T" --width=10
bad "trace: two logs" "one log at a time" trace "$T" "$T"
bad "trace: no log" "which log?" trace --summary
check "trace --gap-ms=2" 0 "$cuzk" trace --gap-ms=2 "$T"
expect "trace --gap-ms=2: four gaps" "$tmp/out" "idle gaps over 2 ms: 4"
check "trace --dip (both names' prefix)" 0 "$cuzk" trace "$traces/dip.jsonl" --dip 10
expect "trace --dip 10: no dip" "$tmp/out" "sm_util dips below 10: 0"
check "trace --json-summary=-" 0 "$cuzk" trace --json-summary=- --su "$T"
expect "trace: the JSON summary" "$tmp/out" '"by_cause_ms"'
expect "trace: --su is --summary" "$tmp/out" "idle gaps over 5 ms: 3"
parsed "trace: -- ends the options" 3 "-none.jsonl" trace --strict -- -none.jsonl

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
