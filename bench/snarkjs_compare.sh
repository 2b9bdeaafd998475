#!/usr/bin/env bash
# cuzk prove against snarkjs groth16 prove on the same circom circuits,
# BLS12-381 or BN254 (CURVE=bn128, circom's default): chains of circomlib
# Poseidon(2) hashes (240 constraints each) filling a 2^k domain, the
# circuits of docs/PERF.md's snarkjs anchors.
#
#   bench/snarkjs_compare.sh [k ...]            # default: 12 14
#   CURVE=bn128 bench/snarkjs_compare.sh 12 14  # the same over BN254
#   CURVE=bn128 KEY=cuzk bench/snarkjs_compare.sh 20   # the key from cuzk setup
#
# For each k: floor((2^k - 3) / 240) hashes (17 at 2^12: 4,080 constraints;
# 68 at 2^14: 16,320; 273 at 2^16: 65,520; 4,369 at 2^20: 1,048,560), one
# public output. Up to 2^18 circom compiles the whole chain (--O2) and its
# wasm makes the witness; past 2^18 circom2 (the WebAssembly circom, 4 GiB of
# memory, about 1 MB per hash at --O2) cannot, so circom compiles one hash
# alone (link.circom: out = Poseidon(hin, x)) and bench/circom_chain_join.js
# joins that system and its witness into the chain: the same constraints
# (240 a hash, nothing left to simplify across hashes) and the same output,
# the wires in another order (checked at 2^12 against the whole chain: 4,080
# constraints, 4,082 wires, the same public output). Both provers
# get the same .zkey and .wtns; each command runs RUNS times (default 3) and
# its median wall time is reported, the whole command as a user runs it
# (cuzk's includes reading the key and its own check of the proof). Every
# proof of both is then checked with `snarkjs groth16 verify`.
#
# With CURVE=bn128 the same runs also time rapidsnark's standalone prover
# (`prover circuit.zkey witness.wtns proof.json public.json`, iden3's C++
# and assembly BN254 prover, https://github.com/iden3/rapidsnark), built
# from a checkout kept outside this repository by
# `bench/build_rapidsnark.sh SRC`; $RAPIDSNARK names the binary (default
# build/rapidsnark/src/prover, where that script puts it). Each run proves with snarkjs, cuzk and
# rapidsnark in turn, so cuzk and rapidsnark run back to back under the
# same load; rapidsnark's proofs are checked with `snarkjs groth16 verify`
# too. Without the binary the script says so and times the other two.
# Prints one JSON line per size on stdout; progress on stderr.
#
# Everything is built under $CUZK_BENCH_DIR (default .cache/snarkjs_compare,
# not committed) and kept for the next run. The slow step is snarkjs's
# `powersoftau prepare phase2` for the largest k, mostly on one core: 34 s
# of CPU at 2^10, 13 min at 2^14 (25 min wall on a busy 2-core machine),
# 20 min or more at 2^16; keys and witnesses then take a minute or two.
#
# KEY=cuzk makes the key with `cuzk setup --r1cs` instead (a development
# key from random toxic waste, in snarkjs's format; no powers of tau), which
# snarkjs, cuzk and rapidsnark then all prove with, and `snarkjs zkey export
# verificationkey` gives the vk.json every proof is checked against: the way
# to 2^18 and beyond, where the powers of tau would take hours on 2 cores.
# The key is kept beside the circuit as chain_cuzk.zkey (its setup time in
# the JSON line as cuzk_setup_s when this run made it, else null); the
# circuit and witness are shared with KEY=snarkjs (the default).
# Environment: CUZK (binary; default build/release/cuzk), RUNS, THREADS
# (cuzk --threads; default nproc; snarkjs uses every core), CUZK_BENCH_DIR,
# CURVE (bls12381, the default, or bn128), KEY (snarkjs, the default, or
# cuzk), RAPIDSNARK.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cuzk=${CUZK:-$root/build/release/cuzk}
runs=${RUNS:-3}
threads=${THREADS:-$(nproc)}
dir=${CUZK_BENCH_DIR:-$root/.cache/snarkjs_compare}
curve=${CURVE:-bls12381}
case "$curve" in
bls12381) ptcurve=bls12-381 tag="" ;;
bn128) ptcurve=bn128 tag=bn128_ ;; # files and folders apart from BLS12-381's
*) echo "snarkjs_compare: CURVE must be bls12381 or bn128 (got '$curve')" >&2; exit 2 ;;
esac
key_from=${KEY:-snarkjs}
case "$key_from" in
snarkjs | cuzk) ;;
*) echo "snarkjs_compare: KEY must be snarkjs or cuzk (got '$key_from')" >&2; exit 2 ;;
esac
rapidsnark=${RAPIDSNARK:-$root/build/rapidsnark/src/prover}
tools=$root/tools/fixtures
[ $# -eq 0 ] && set -- 12 14
log() { echo "snarkjs_compare: $*" >&2; }

[ -x "$cuzk" ] || { log "no cuzk binary at $cuzk (scripts/build.sh release)"; exit 1; }
with_rapidsnark=0
if [ "$curve" = bn128 ]; then
    if [ -x "$rapidsnark" ]; then
        with_rapidsnark=1
        log "rapidsnark: $rapidsnark"
    else
        log "SKIPPING rapidsnark: no prover binary at $rapidsnark (set RAPIDSNARK to the"
        log "  'prover' of a build of https://github.com/iden3/rapidsnark: bench/build_rapidsnark.sh SRC)"
    fi
fi
if [ ! -f "$tools/node_modules/snarkjs/build/cli.cjs" ] ||
    [ ! -f "$tools/node_modules/circomlib/circuits/poseidon.circom" ] ||
    [ ! -f "$tools/node_modules/circom2/cli.js" ]; then
    log "installing snarkjs, circom2 and circomlib into tools/fixtures/node_modules"
    (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
snarkjs() { node "$tools/node_modules/snarkjs/build/cli.cjs" "$@"; }
circom() { node "$tools/node_modules/circom2/cli.js" "$@"; }
mkdir -p "$dir"
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)

kmax=0
for k in "$@"; do
    case "$k" in
    1[0-9] | 2[0-4]) ;;
    *) log "size must be a power of two exponent, 10..24 (got '$k')"; exit 2 ;;
    esac
    [ "$k" -gt "$kmax" ] && kmax=$k
done

# One powers of tau of the curve per size, the smallest one present that is
# large enough serving every smaller circuit (none with KEY=cuzk).
ptau=""
[ "$key_from" = cuzk ] && ptau=none
for p in $(seq "$kmax" 24); do
    [ -n "$ptau" ] && break
    if [ -f "$dir/${tag}pot${p}_final.ptau" ]; then ptau=$dir/${tag}pot${p}_final.ptau; break; fi
done
if [ -z "$ptau" ]; then
    log "powers of tau 2^$kmax (prepare phase2 is slow)"
    t0=$SECONDS
    pot=$dir/${tag}pot$kmax
    snarkjs powersoftau new "$ptcurve" "$kmax" "${pot}_0.ptau" >&2
    snarkjs powersoftau contribute "${pot}_0.ptau" "${pot}_1.ptau" \
        --name="cuzk bench" -e="cuzk bench phase 1 entropy" >&2
    snarkjs powersoftau prepare phase2 "${pot}_1.ptau" "${pot}_final.ptau.tmp" >&2
    mv "${pot}_final.ptau.tmp" "${pot}_final.ptau"
    rm -f "${pot}_0.ptau" "${pot}_1.ptau"
    ptau=${pot}_final.ptau
    log "powers of tau 2^$kmax took $((SECONDS - t0)) s"
fi

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# "wall cpu": wall time and user+system CPU time in seconds of a command (its
# output to $d/last.log); the CPU time is the steadier figure on a busy machine.
timed() {
    local t0=$EPOCHREALTIME cpu
    # `times` here, in the subshell that ran the command, not in a pipeline
    cpu=$("$@" >"$d/last.log" 2>&1 || exit 1; times) || {
        cat "$d/last.log" >&2
        return 1
    }
    cpu=${cpu##*$'\n'} # the second line: the children's user and system time
    awk -v a="$t0" -v b="$EPOCHREALTIME" -v t="$cpu" 'BEGIN {
        split(t, c, /[ ms]+/)
        printf "%.3f %.3f\n", b - a, c[1] * 60 + c[2] + c[3] * 60 + c[4] }'
}

for k in "$@"; do
    hashes=$((((1 << k) - 3) / 240))
    d=$dir/${tag}k$k
    # "done": the circuit, the witness and snarkjs's key; "circuit.done": the
    # circuit and the witness (a KEY=cuzk run's)
    if [ ! -f "$d/done" ] && [ ! -f "$d/circuit.done" ]; then
        log "2^$k: circuit of $hashes Poseidon(2) hashes, witness"
        rm -rf "$d"
        mkdir -p "$d"
        echo '{ "x": "3141592653589793238462643383279" }' >"$d/input.json"
        if [ "$k" -le 18 ]; then
            cat >"$d/chain.circom" <<EOF
pragma circom 2.0.0;
include "circomlib/circuits/poseidon.circom";
// $hashes chained Poseidon(2) hashes: h = Poseidon(h, x), x private.
template PoseidonChain(n) {
    signal input x;
    signal output out;
    component h[n];
    for (var i = 0; i < n; i++) {
        h[i] = Poseidon(2);
        h[i].inputs[0] <== i == 0 ? x : h[i - 1].out;
        h[i].inputs[1] <== x;
    }
    out <== h[n - 1].out;
}
component main = PoseidonChain($hashes);
EOF
            circom "$d/chain.circom" --r1cs --wasm --O2 --prime "$curve" -l "$tools/node_modules" \
                -o "$d" >&2
            snarkjs wtns calculate "$d/chain_js/chain.wasm" "$d/input.json" "$d/chain.wtns" >&2
        else
            # past 2^18, too large for circom2 whole: one hash compiled alone,
            # its system and witness joined $hashes times (circom_chain_join.js)
            cat >"$d/link.circom" <<EOF
pragma circom 2.0.0;
include "circomlib/circuits/poseidon.circom";
// One link of the chain: out = Poseidon(hin, x), x and hin private.
template Link() {
    signal input x;
    signal input hin;
    signal output out;
    component h = Poseidon(2);
    h.inputs[0] <== hin;
    h.inputs[1] <== x;
    out <== h.out;
}
component main = Link();
EOF
            circom "$d/link.circom" --r1cs --wasm --O2 --prime "$curve" -l "$tools/node_modules" \
                -o "$d" >&2
            node "$root/bench/circom_chain_join.js" "$d" "$hashes" 3141592653589793238462643383279 \
                "$d/chain.r1cs" "$d/chain.wtns" >&2
        fi
        touch "$d/circuit.done"
    fi
    if [ "$key_from" = snarkjs ] && [ ! -f "$d/done" ]; then
        log "2^$k: snarkjs key"
        snarkjs groth16 setup "$d/chain.r1cs" "$ptau" "$d/chain_0.zkey" >&2
        snarkjs zkey contribute "$d/chain_0.zkey" "$d/chain.zkey" --name="cuzk bench" \
            -e="cuzk bench phase 2 entropy" >&2
        snarkjs zkey export verificationkey "$d/chain.zkey" "$d/vk.json" >&2
        rm -f "$d/chain_0.zkey"
        touch "$d/done"
    fi
    setup_s=null
    if [ "$key_from" = cuzk ]; then
        zkey=$d/chain_cuzk.zkey vk=$d/vk_cuzk.json
        if [ ! -f "$d/cuzk_key.done" ]; then
            log "2^$k: cuzk setup --r1cs (a development key)"
            t0=$EPOCHREALTIME
            "$cuzk" setup --threads "$threads" --r1cs "$d/chain.r1cs" --zkey "$zkey" >&2
            setup_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
            log "2^$k: cuzk setup took $setup_s s"
            snarkjs zkey export verificationkey "$zkey" "$vk" >&2
            touch "$d/cuzk_key.done"
        fi
    else
        zkey=$d/chain.zkey vk=$d/vk.json
    fi
    # nConstraints from the r1cs header (section 1), without loading the
    # constraints as `snarkjs r1cs info` does (past node's heap at 2^20)
    constraints=$(node -e 'const f = require("fs"), fd = f.openSync(process.argv[1], "r");
        const rd = (n, at) => { const b = Buffer.alloc(n); f.readSync(fd, b, 0, n, at); return b; };
        let at = 12;
        for (;;) {
            const h = rd(12, at), size = Number(h.readBigUInt64LE(4));
            if (h.readUInt32LE(0) === 1) {
                const n8 = rd(4, at + 12).readUInt32LE(0);
                console.log(rd(4, at + 12 + 4 + n8 + 24).readUInt32LE(0));
                break;
            }
            at += 12 + size;
        }' "$d/chain.r1cs")
    load=$(cut -d' ' -f1 /proc/loadavg)
    log "2^$k: $constraints constraints, $key_from's key; load $load; $runs runs of each prover"
    s_wall=() s_cpu=() c_wall=() c_cpu=() c_key=() c_prove=() r_wall=() r_cpu=()
    for i in $(seq "$runs"); do
        read -r w u < <(timed snarkjs groth16 prove "$zkey" "$d/chain.wtns" \
            "$d/s_proof$i.json" "$d/s_public$i.json")
        [ -n "${u:-}" ] || exit 1
        s_wall+=("$w") s_cpu+=("$u")
        read -r w u < <(timed "$cuzk" prove --threads "$threads" "$zkey" "$d/chain.wtns" \
            "$d/c_proof$i.json" "$d/c_public$i.json")
        [ -n "${u:-}" ] || exit 1
        c_wall+=("$w") c_cpu+=("$u")
        # reading the key, and the proving phase alone, from cuzk's timing line
        c_key+=("$(sed -n 's/.* key \([0-9.]*\) s.*/\1/p' "$d/last.log")")
        c_prove+=("$(sed -n 's/.* proofs\{0,1\} \([0-9.]*\) s.*/\1/p' "$d/last.log")")
        unset w u
        if [ "$with_rapidsnark" = 1 ]; then
            read -r w u < <(timed "$rapidsnark" "$zkey" "$d/chain.wtns" \
                "$d/r_proof$i.json" "$d/r_public$i.json")
            [ -n "${u:-}" ] || exit 1
            r_wall+=("$w") r_cpu+=("$u")
            unset w u
        fi
    done
    for i in $(seq "$runs"); do
        provers=(s c)
        [ "$with_rapidsnark" = 1 ] && provers+=(r)
        for who in "${provers[@]}"; do
            snarkjs groth16 verify "$vk" "$d/${who}_public$i.json" "$d/${who}_proof$i.json" \
                >"$d/verify.log" 2>&1 || {
                cat "$d/verify.log" >&2
                log "2^$k: snarkjs refuses proof $who$i"
                exit 1
            }
        done
        cmp -s "$d/s_public$i.json" "$d/c_public$i.json" || { log "public.json differ"; exit 1; }
        # rapidsnark writes its public.json without snarkjs's spacing: compare the values
        if [ "$with_rapidsnark" = 1 ]; then
            node -e 'const f = require("fs"), r = (p) => JSON.stringify(JSON.parse(f.readFileSync(p)));
                process.exit(r(process.argv[1]) === r(process.argv[2]) ? 0 : 1)' \
                "$d/s_public$i.json" "$d/r_public$i.json" || { log "rapidsnark's public.json differs"; exit 1; }
        fi
    done
    med() { printf '%s\n' "$@" | median; }
    log "2^$k: snarkjs wall ${s_wall[*]} s, cpu ${s_cpu[*]} s"
    log "2^$k: cuzk wall ${c_wall[*]} s, cpu ${c_cpu[*]} s (key ${c_key[*]} s, proving phase ${c_prove[*]} s)"
    r_med=null r_cpu_med=null
    if [ "$with_rapidsnark" = 1 ]; then
        log "2^$k: rapidsnark wall ${r_wall[*]} s, cpu ${r_cpu[*]} s"
        r_med=$(med "${r_wall[@]}") r_cpu_med=$(med "${r_cpu[@]}")
    fi
    awk -v n="$constraints" -v k="$k" -v s="$(med "${s_wall[@]}")" -v c="$(med "${c_wall[@]}")" \
        -v su="$(med "${s_cpu[@]}")" -v cu="$(med "${c_cpu[@]}")" -v ck="$(med "${c_key[@]}")" \
        -v cp="$(med "${c_prove[@]}")" -v t="$threads" -v runs="$runs" -v curve="$curve" \
        -v load="$load" -v load2="$(cut -d' ' -f1 /proc/loadavg)" -v commit="$commit" \
        -v r="$r_med" -v ru="$r_cpu_med" -v key="$key_from" -v setup="$setup_s" 'BEGIN {
        printf "{\"bench\":\"snarkjs_compare\",\"curve\":\"%s\",\"constraints\":%d,\"domain\":%d,", curve, n, 2 ^ k
        printf "\"key\":\"%s\",\"cuzk_setup_s\":%s,", key, setup
        printf "\"snarkjs_s\":%.3f,\"cuzk_s\":%.3f,\"speedup\":%.1f,", s, c, s / c
        printf "\"snarkjs_cpu_s\":%.3f,\"cuzk_cpu_s\":%.3f,", su, cu
        if (curve == "bn128") {
            # rapidsnark_over_cuzk > 1: cuzk is faster
            if (r == "null") printf "\"rapidsnark_s\":null,\"rapidsnark_cpu_s\":null,\"rapidsnark_over_cuzk\":null,"
            else printf "\"rapidsnark_s\":%.3f,\"rapidsnark_cpu_s\":%.3f,\"rapidsnark_over_cuzk\":%.2f,", r, ru, r / c
        }
        printf "\"cuzk_key_s\":%.3f,\"cuzk_prove_phase_s\":%.3f,", ck, cp
        printf "\"threads\":%d,\"runs\":%d,\"load1\":[%s,%s],\"commit\":\"%s\"}\n",
            t, runs, load, load2, commit }'
done
