#!/usr/bin/env bash
# cuzk bench through the engine, end to end on the smallest built-in circuit
# (2^10, 2 jobs x 2 partitions, CPU backend): the output folder holds the
# timing log, the Perfetto trace, the SVG and HTML timelines, the summaries
# and the JSON lines, and they agree with each other (every partition in
# every file, every proof verified, a partition's life split into pieces
# that add up to it, throughput = partitions / wall); a job that fails (its
# proofs do not verify with swapped parameter points) makes the command
# exit 1 with the job's message; bad counts are usage errors.
# Usage: test_cli_bench.sh path/to/cuzk
set -u
cuzk=$1
if ! command -v node >/dev/null; then
    echo "SKIPPED: node is needed to check the JSON outputs (scripts/install-deps.sh installs it)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUZK_CACHE_DIR=$tmp/cache
passed=0
failed=0
check() { # name, expected exit code, command...
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    local got=$?
    if [ "$got" -eq "$want" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name: exit $got, expected $want"
        sed 's/^/    /' "$tmp/stdout" "$tmp/stderr" | tail -60
    fi
}
expect() { # name, file, fixed string that must be in it
    if grep -qF -- "$3" "$2"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $1: '$3' not in $(basename "$2")"
        sed 's/^/    /' "$2" | tail -40
    fi
}

out=$tmp/out
check "bench through the engine" 0 "$cuzk" bench --log-constraints 10 --jobs 2 --partitions 2 \
    --backend cpu --seed 5 --out "$out"
cp "$tmp/stdout" "$tmp/bench.stdout"
expect "says where the outputs are" "$tmp/stderr" "outputs in $out"
expect "made the parameters" "$tmp/stderr" "made and cached"
expect "the table" "$tmp/stderr" "engine overhead:"
expect "the trace summary" "$tmp/stderr" "jobs: 2 (2 done, 0 failed, 0 cancelled, 0 unfinished); 4 partitions done"
for f in events.jsonl trace.json timeline.svg timeline.html summary.txt summary.json bench.jsonl; do
    if [ -s "$out/$f" ]; then passed=$((passed + 1)); else
        failed=$((failed + 1))
        echo "FAIL: $f not written"
    fi
done
expect "summary text" "$out/summary.txt" "4 partitions done"
expect "svg root" "$out/timeline.svg" '<svg xmlns="http://www.w3.org/2000/svg"'
expect "svg has the provers' lanes" "$out/timeline.svg" "dev0-w"
# xmllint is installed by scripts/install-deps.sh: without it the check
# fails rather than vanishes.
if ! command -v xmllint >/dev/null; then
    failed=$((failed + 1))
    echo "FAIL: xmllint is missing: the SVG and HTML checks cannot run (scripts/install-deps.sh)"
else
    check "svg is XML" 0 xmllint --noout "$out/timeline.svg"
    check "html is XML" 0 xmllint --noout "$out/timeline.html"
fi
if cmp -s "$tmp/bench.stdout" "$out/bench.jsonl"; then passed=$((passed + 1)); else
    failed=$((failed + 1))
    echo "FAIL: bench.jsonl differs from the JSON lines on stdout"
fi

# Every file agrees on the four partitions.
check "outputs agree" 0 node -e '
const fs = require("fs");
const dir = process.argv[1];
const assert = (c, what) => { if (!c) { console.error("assertion failed: " + what); process.exit(1); } };
const lines = (f) => fs.readFileSync(dir + "/" + f, "utf8").split("\n").filter((l) => l.trim());
const key = (j, p) => j + "/" + p;
const near = (a, b, tol) => Math.abs(a - b) <= tol;

// The timing log: a meta line, two jobs done, every phase of every partition.
const ev = lines("events.jsonl").map((l) => JSON.parse(l));
assert(ev[0].type === "meta", "the log starts with a meta line");
const done = ev.filter((e) => e.type === "job" && e.state === "done");
assert(done.length === 2, "two jobs done, got " + done.length);
const phases = {};
for (const e of ev.filter((e) => e.type === "span")) {
    assert(e.end_ns >= e.start_ns, "span ends after it starts");
    (phases[key(e.job, e.partition)] ??= new Set()).add(e.name);
}
const parts = Object.keys(phases).sort();
assert(parts.length === 4, "four partitions in the log, got " + parts.join(","));
for (const p of parts)
    for (const n of ["queue_wait", "synthesize", "eval_abc", "h", "msm_h", "msm_l", "msm_a",
                     "msm_b_g1", "msm_b_g2", "assemble", "verify", "finalize"])
        assert(phases[p].has(n), "partition " + p + " has " + n);

// The Perfetto trace: complete events for each partition, verify among them.
const tr = JSON.parse(fs.readFileSync(dir + "/trace.json", "utf8"));
const x = tr.traceEvents.filter((e) => e.ph === "X");
const inTrace = new Set(x.map((e) => key(e.args.job, e.args.partition)));
assert([...inTrace].sort().join() === parts.join(), "the trace has the log partitions");
for (const p of parts)
    assert(x.some((e) => e.name === "verify" && key(e.args.job, e.args.partition) === p),
           "the trace shows partition " + p + " verified");
assert(x.length === ev.filter((e) => e.type === "span").length, "one event per span");

// The JSON summary.
const sum = JSON.parse(fs.readFileSync(dir + "/summary.json", "utf8"));
assert(sum.jobs.done === 2 && sum.jobs.failed === 0, "summary: two jobs done");

// The bench lines.
const b = lines("bench.jsonl").map((l) => JSON.parse(l));
const prove = b.filter((o) => o.bench === "prove");
assert(prove.length === 4, "four prove lines");
assert(prove.every((o) => o.verified === true && o.mode === "engine"), "every proof verified");
assert(prove.map((o) => key(o.job, o.partition)).sort().join() === parts.join(),
       "prove lines name the log partitions");
assert(prove.map((o) => o.seed).sort().join() === "5,6,7,8", "seeds S + j*N + i");
const s = b.find((o) => o.bench === "prove_summary");
assert(s && s.partitions === 4 && s.partitions_done === 4 && s.jobs === 2 &&
       s.partitions_per_job === 2, "summary counts");
assert(s.partitions_verified === 4 && s.verified === true, "summary: every proof verified");
assert(s.backend === "cpu" && s.log_domain === 10, "backend and size");
assert(near(s.partition_proofs_per_hour, 3600 * 4 / s.wall_s, 0.01 * s.partition_proofs_per_hour + 1),
       "proofs per hour = 4 / wall");
assert(near(s.seconds_per_partition * 4, s.wall_s, 0.002), "seconds per partition = wall / 4");
assert(s.device_busy_pct > 0 && s.device_busy_pct <= 100, "device busy %");
assert(s.engine_overhead_ms_per_partition >= 0 && isFinite(s.engine_overhead_ms_per_partition),
       "overhead is a number");
const meanOverhead = prove.reduce((a, o) => a + o.engine_overhead_ms, 0) / 4;
assert(near(meanOverhead, s.engine_overhead_ms_per_partition, 0.001), "overhead = mean of partitions");
assert(s.engine_overhead_p95_ms >= s.engine_overhead_p50_ms &&
       s.engine_overhead_max_ms >= s.engine_overhead_p95_ms, "overhead quantiles ordered");
// The synthesis pool: the latency of a partition is its synthesize and eval_abc
// spans, which follow each other, so its figures are the quantiles (type 7)
// of the prove lines witness_s, computed by other code from the same log.
const ws = prove.map((o) => o.witness_s).sort((x, y) => x - y);
const q7 = (v, p) => {
    const r = p * (v.length - 1), i = Math.floor(r);
    return i + 1 < v.length ? v[i] + (r - i) * (v[i + 1] - v[i]) : v[i];
};
assert(s.synth_workers >= 1 && s.synth_threads >= 1, "synthesis pool sizes");
assert(near(s.synth_latency_p50_s, q7(ws, 0.5), 0.0003), "synthesis p50 = witness_s p50");
assert(near(s.synth_latency_p90_s, q7(ws, 0.9), 0.0003), "synthesis p90 = witness_s p90");
assert(s.synth_partitions_per_s > 0 && s.synth_partitions_per_s <= s.synth_capacity_per_s * 1.001,
       "synthesis rate, at most the pool capacity");
const dev = b.filter((o) => o.bench === "prove_device");
assert(dev.length === 1 && dev[0].device === "cpu0" && dev[0].partitions === 4, "one device, four partitions");
assert(near(dev[0].busy_pct, s.device_busy_pct, 0.01), "device line = summary");
assert(dev[0].idle_ms_per_partition >= 0 &&
       near(dev[0].idle_ms_per_partition, s.device_idle_ms_per_partition, 0.001), "device idle");
// idle = (active - busy) / partitions
assert(near(dev[0].idle_ms_per_partition * 4, (dev[0].active_s - dev[0].busy_s) * 1000, 0.2),
       "idle per partition from the busy time");
// The pieces of a life add up to it (means, in ms).
const split = b.find((o) => o.bench === "prove_split");
const pieces = ["admission", "synthesis", "device_wait", "prove", "finalizer_wait", "finalize",
                "engine_overhead"].reduce((a, n) => a + split[n + "_ms"].mean, 0);
assert(near(pieces, s.partition_latency_mean_s * 1000, 0.01), "pieces " + pieces + " ms vs life " +
       s.partition_latency_mean_s * 1000 + " ms");
const o = split.engine_overhead_parts_ms;
assert(near(o.acquire + o.prove_handoff + o.finalize_handoff + o.completion,
            split.engine_overhead_ms.mean, 0.001), "overhead parts add up");
// Per-phase lines for every phase of the log, each over four partitions.
const ph = b.filter((o) => o.bench === "prove_phase");
for (const n of ["synthesize", "msm_h", "verify", "finalize"]) {
    const l = ph.find((o) => o.phase === n);
    assert(l && l.partitions === 4 && l.p95_ms >= l.p50_ms, "phase line " + n);
}
' "$out"

# Development parameters made in memory at load: no file is written, the
# note says they are not for production, every proof verifies.
rm -rf "$tmp/cache"
check "bench with dev:1" 0 "$cuzk" bench --log-constraints 10 --jobs 1 --partitions 2 \
    --backend cpu --params dev:1 --out "$tmp/dev"
expect "the loud note" "$tmp/stderr" "development parameters dev:1, made in memory at load: NOT FOR PRODUCTION"
expect "dev params verified" "$tmp/stdout" '"partitions_verified":2'
expect "dev params named" "$tmp/stdout" '"params":"dev"'
if ls "$tmp"/cache/*.params >/dev/null 2>&1 || [ -e dev:1 ]; then
    failed=$((failed + 1))
    echo "FAIL: bench --params dev:1 wrote a parameter file"
else
    passed=$((passed + 1))
fi
check "a bad dev: seed" 2 "$cuzk" bench --log-constraints 10 --backend cpu --params dev:x1
expect "the bad seed's message" "$tmp/stderr" "params 'dev:x1': development parameters are \"dev:SEED\""

# A job that fails: parameters whose first two H points are swapped load
# fine, but no proof made with them verifies; the engine retries, then
# fails the job, and the bench says so.
check "parameters for the failure" 0 "$cuzk" setup --log-constraints 10 --params "$tmp/bad.params"
check "swap two H points" 0 node -e '
const fs = require("fs");
const f = process.argv[1];
const d = fs.readFileSync(f);
// verifying key: alpha_g1, beta_g1 (96 each), beta_g2, gamma_g2 (192), delta_g1 (96),
// delta_g2 (192), then the IC count and points (96 each); then the H count and points
let at = 96 + 96 + 192 + 192 + 96 + 192;
at += 4 + 96 * d.readUInt32BE(at);
const h = at + 4;
if (d.readUInt32BE(at) < 2) process.exit(1);
const first = Buffer.from(d.subarray(h, h + 96));
d.copy(d, h, h + 96, h + 192);
first.copy(d, h + 96);
fs.writeFileSync(f, d);
' "$tmp/bad.params"
check "a failed job fails the bench" 1 "$cuzk" bench --log-constraints 10 --jobs 2 --partitions 1 \
    --backend cpu --params "$tmp/bad.params" --out "$tmp/bad"
expect "names the job and why" "$tmp/stderr" "the proof does not verify"
expect "the error line" "$tmp/stderr" "cuzk: error: bench: job 1 failed: partition 0 failed on cpu device 0"
if grep -q '"verified":true' "$tmp/stdout"; then
    failed=$((failed + 1))
    echo "FAIL: a failed run claims verified proofs"
    cat "$tmp/stdout"
else
    passed=$((passed + 1))
fi
expect "the log is still written" "$tmp/bad/events.jsonl" '"state":"failed"'

# Usage errors.
check "zero jobs" 2 "$cuzk" bench --jobs 0
check "jobs without a value" 2 "$cuzk" bench --jobs
check "unknown option" 2 "$cuzk" bench --frobnicate
check "an unknown a, b, c evaluation place" 2 "$cuzk" bench --abc-eval gpu
check "a buffer budget that is no byte count" 2 "$cuzk" bench --buffer-budget lots
# --buffer-budget reaches the engine: a partition's buffers do not fit 1 KiB.
check "a buffer budget below one partition" 1 "$cuzk" bench --log-constraints 10 --jobs 1 \
    --partitions 1 --backend cpu --buffer-budget 1K --out "$tmp/small-buffers"
expect "the buffer budget's refusal" "$tmp/stderr" "the buffer budget is 1024"
check "too small a circuit" 2 "$cuzk" bench --log-constraints 9

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
