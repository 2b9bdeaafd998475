/* The proving engine under load: J jobs of N partitions of the built-in
 * storage-proof-shaped circuit at 2^K constraints, all submitted at once,
 * proved through the pipeline (synthesis workers, prover workers per
 * device, finalizers), every proof verified by the engine.
 *
 * JSON lines on stdout:
 *   {"bench":"engine", ... "wall_s", "partition_proofs_per_hour", job latency p50/p95}
 *   {"bench":"engine_phase","phase":"msm_h","count":..,"p50_ms":..,"p95_ms":..,"sum_s":..}
 *     one per phase, from the event log (--events PATH keeps it)
 *   {"bench":"engine_overhead","mode":"pipelined", ...} the engine's own
 *     overhead per partition, from the event log (bench/suite_engine.h)
 *   {"bench":"engine_overhead","mode":"isolated", ...} with --isolated: the
 *     same number of partitions through a fresh engine one at a time (one
 *     job of one partition, waited for before the next), so nothing is
 *     waited for and life minus work is the engine's overhead; also the
 *     caller's view (engine_submit to engine_wait's return, minus the work)
 *   {"bench":"engine_baseline", ...} with --baseline: the same partitions
 *     proved one after another with the CPU prover (`cuzk bench --sequential`)
 *
 * Usage: bench_engine [--log-constraints K] [--jobs J] [--partitions N]
 *                     [--threads T] [--synth-workers S] [--workers-per-device W]
 *                     [--params FILE] [--events PATH] [--no-verify] [--baseline]
 *                     [--isolated] [--backend auto|cpu|cuda]
 * The engine's overhead on a tiny circuit:
 *   bench_engine --log-constraints 10 --jobs 16 --partitions 8 --isolated
 * Defaults: K = 12, J = 4, N = 4, the CPU backend, about 30 s on 2 cores with --baseline.
 * Parameters are made once and kept in the CLI's cache folder
 * ($CUZK_CACHE_DIR, else $XDG_CACHE_HOME/cuzk, else ~/.cache/cuzk). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "circuits/builtin.h"
#include "engine/engine.h"
#include "formats/bellman_params.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/verifier.h"
#include "suite.h"
#include "suite_engine.h"
#include "trace/trace.h"
#include "util/parallel.h"

typedef struct opts {
    unsigned log_k, jobs, partitions, threads, synth_workers, workers_per_device;
    const char *params, *events;
    backend_kind backend;
    bool verify, baseline, isolated;
} opts;

static void die(const char *what, cuzk_status st, const char *msg)
{
    fprintf(stderr, "bench_engine: %s: %s%s%s\n", what, cuzk_status_str(st),
            msg && *msg ? ": " : "", msg ? msg : "");
    exit(1);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: bench_engine [--log-constraints K] [--jobs J] [--partitions N]\n"
            "                    [--threads T] [--synth-workers S] [--workers-per-device W]\n"
            "                    [--params FILE] [--events PATH] [--no-verify] [--baseline]\n"
            "                    [--isolated] [--backend auto|cpu|cuda]\n");
    exit(2);
}

static unsigned parse_uint(const char *s, unsigned lo, unsigned hi)
{
    char *end;
    unsigned long v = s ? strtoul(s, &end, 10) : 0;
    if (!s || *end || v < lo || v > hi)
        usage();
    return (unsigned)v;
}

static void parse(opts *o, int argc, char **argv)
{
    *o = (opts){.log_k = 12, .jobs = 4, .partitions = 4, .backend = BACKEND_CPU, .verify = true};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--no-verify")) {
            o->verify = false;
            continue;
        }
        if (!strcmp(a, "--baseline")) {
            o->baseline = true;
            continue;
        }
        if (!strcmp(a, "--isolated")) {
            o->isolated = true;
            continue;
        }
        if (!v)
            usage();
        if (!strcmp(a, "--log-constraints"))
            o->log_k = parse_uint(v, 10, 27);
        else if (!strcmp(a, "--jobs"))
            o->jobs = parse_uint(v, 1, 100000);
        else if (!strcmp(a, "--partitions"))
            o->partitions = parse_uint(v, 1, 100000);
        else if (!strcmp(a, "--threads"))
            o->threads = parse_uint(v, 1, 4096);
        else if (!strcmp(a, "--synth-workers"))
            o->synth_workers = parse_uint(v, 1, 256);
        else if (!strcmp(a, "--workers-per-device"))
            o->workers_per_device = parse_uint(v, 1, 64);
        else if (!strcmp(a, "--params"))
            o->params = v;
        else if (!strcmp(a, "--events"))
            o->events = v;
        else if (!strcmp(a, "--backend")) {
            if (!backend_kind_parse(v, &o->backend))
                usage();
        } else
            usage();
        i++;
    }
}

/* The cache folder of the CLI (cli/builtin.c), so both share parameters. */
static void default_params_path(char *out, size_t len, const char *name)
{
    const char *env = getenv("CUZK_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");
    char dir[3072];
    if (env && *env)
        snprintf(dir, sizeof(dir), "%s", env);
    else if (xdg && *xdg)
        snprintf(dir, sizeof(dir), "%s/cuzk", xdg);
    else if (home && *home)
        snprintf(dir, sizeof(dir), "%s/.cache/cuzk", home);
    else
        snprintf(dir, sizeof(dir), ".cuzk-cache");
    for (char *p = dir + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0755);
            *p = '/';
        }
    }
    mkdir(dir, 0755);
    snprintf(out, len, "%s/%s.params", dir, name);
}

/* Makes development parameters when the file is missing or does not fit. */
static void ensure_params(const char *path, const r1cs_t *r)
{
    char msg[512] = "";
    groth16_params_t p;
    if (access(path, R_OK) == 0 &&
        bellman_params_load(&p, path, FORMATS_CHECK_NONE, 0, msg, sizeof(msg)) == CUZK_OK) {
        groth16_circuit_t c;
        cuzk_status st = groth16_circuit_init(&c, r, &p, 0, msg, sizeof(msg));
        groth16_circuit_free(&c);
        groth16_params_free(&p);
        if (st == CUZK_OK)
            return;
    }
    fprintf(stderr, "bench_engine: making DEVELOPMENT parameters at %s\n", path);
    rng_t rng;
    cuzk_status st = rng_seed_secure(&rng);
    groth16_setup_opts so = {0};
    if (st == CUZK_OK)
        st = groth16_setup_dev(&p, r, &rng, &so);
    rng_wipe(&rng);
    if (st != CUZK_OK)
        die("setup", st, NULL);
    if ((st = bellman_params_save(&p, path, msg, sizeof(msg))) != CUZK_OK)
        die("saving the parameters", st, msg);
    groth16_params_free(&p);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The q-quantile (nearest rank) of v[0..n), sorted in place. */
static double quantile(double *v, size_t n, double q)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof(double), cmp_double);
    size_t k = (size_t)(q * (double)n + 0.999999);
    return v[k == 0 ? 0 : (k > n ? n - 1 : k - 1)];
}

enum { NUM_PHASES = PHASE_COUNT };
#define PHASES(p) proof_phase_name((proof_phase)(p))

/* Per-phase p50/p95 from the event log. */
static void phase_lines(const char *events, const char *name)
{
    FILE *f = fopen(events, "r");
    if (!f) {
        fprintf(stderr, "bench_engine: cannot read %s: %s\n", events, strerror(errno));
        return;
    }
    double *ms[NUM_PHASES] = {0};
    size_t n[NUM_PHASES] = {0}, cap[NUM_PHASES] = {0};
    char line[4096];
    while (fgets(line, sizeof(line), f)) {
        json_t *o = json_loads(line, 0, NULL);
        const char *type = o ? json_string_value(json_object_get(o, "type")) : NULL;
        const char *ph = o ? json_string_value(json_object_get(o, "name")) : NULL;
        for (int p = 0; type && ph && !strcmp(type, "span") && p < NUM_PHASES; p++) {
            if (strcmp(ph, PHASES(p)))
                continue;
            if (n[p] == cap[p]) {
                cap[p] = cap[p] ? 2 * cap[p] : 64;
                ms[p] = realloc(ms[p], cap[p] * sizeof(double));
            }
            double s = (double)json_integer_value(json_object_get(o, "start_ns"));
            double e = (double)json_integer_value(json_object_get(o, "end_ns"));
            ms[p][n[p]++] = (e - s) / 1e6;
        }
        json_decref(o);
    }
    fclose(f);
    for (int p = 0; p < NUM_PHASES; p++) {
        if (!n[p])
            continue; /* a phase this backend and circuit do not have */
        double sum = 0;
        for (size_t i = 0; i < n[p]; i++)
            sum += ms[p][i];
        double p50 = quantile(ms[p], n[p], 0.5), p95 = quantile(ms[p], n[p], 0.95);
        printf("{\"bench\":\"engine_phase\",\"circuit\":\"%s\",\"phase\":\"%s\",\"count\":%zu,"
               "\"p50_ms\":%.3f,\"p95_ms\":%.3f,\"sum_s\":%.3f}\n",
               name, PHASES(p), n[p], p50, p95, sum / 1e3);
        fprintf(stderr, "  %-10s %6zu spans  p50 %9.2f ms  p95 %9.2f ms\n", PHASES(p), n[p], p50,
                p95);
        free(ms[p]);
    }
}

/* The engine's overhead per partition from an event log (suite_engine.h);
 * caller_ms (NULL: none) gives each job's wall time as the caller saw it,
 * by job id from first_job, for the caller's view of the overhead. */
static void overhead_line(const char *events, const char *mode, const char *name,
                          bool with_admission, const double *caller_ms, uint64_t first_job)
{
    trace *t = NULL;
    char msg[256] = "";
    cuzk_status st = trace_read_file(&t, events, true, msg, sizeof(msg));
    if (st != CUZK_OK)
        die("reading the event log", st, msg);
    bench_engine_report rep;
    bench_overhead_stats ov;
    if ((st = bench_engine_analyze(&rep, t)) != CUZK_OK)
        die("the event log", st, NULL);
    if (!bench_overhead_stats_of(&rep, with_admission, &ov))
        die("the event log", CUZK_ERR_INVALID_ARGUMENT, "no complete partition");
    /* The caller's view: submit to wait's return, less the partition's work. */
    double caller_mean = 0, caller_p95 = 0;
    double *v = caller_ms ? malloc(rep.count * sizeof(double)) : NULL;
    for (size_t i = 0; v && i < rep.count; i++) {
        const bench_partition_timing *p = &rep.parts[i];
        double work_ms = (double)(p->synth_ns + p->prove_ns + p->finalize_ns) / 1e6;
        v[i] = caller_ms[p->job - first_job] - work_ms;
        caller_mean += v[i] / (double)rep.count;
    }
    if (v)
        caller_p95 = bench_quantile(v, rep.count, 0.95);
    free(v);
    printf("{\"bench\":\"engine_overhead\",\"mode\":\"%s\",\"circuit\":\"%s\",\"partitions\":%zu,"
           "\"skipped\":%zu,\"overhead_ms\":{\"mean\":%.4f,\"p50\":%.4f,\"p95\":%.4f,\"max\":%.4f},"
           "\"parts_ms\":{\"admission\":%.4f,\"acquire\":%.4f,\"prove_handoff\":%.4f,"
           "\"finalize_handoff\":%.4f,\"completion\":%.4f},\"admission_counted\":%s",
           mode, name, rep.count, rep.skipped, ov.mean_ms, ov.p50_ms, ov.p95_ms, ov.max_ms,
           ov.admission_ms, ov.acquire_ms, ov.prove_handoff_ms, ov.finalize_handoff_ms,
           ov.completion_ms, with_admission ? "true" : "false");
    if (caller_ms)
        printf(",\"caller_overhead_ms\":{\"mean\":%.4f,\"p95\":%.4f}", caller_mean, caller_p95);
    printf(",\"cpu\":\"%s\",\"commit\":\"%s\"}\n", bench_cpu_name(), CUZK_GIT_COMMIT);
    fflush(stdout);
    fprintf(stderr,
            "bench_engine: %s: engine overhead %.4f ms per partition (p50 %.4f, p95 %.4f, max "
            "%.4f) over %zu partitions\n",
            mode, ov.mean_ms, ov.p50_ms, ov.p95_ms, ov.max_ms, rep.count);
    if (caller_ms)
        fprintf(stderr, "bench_engine: %s: as the caller sees it: %.4f ms (p95 %.4f)\n", mode,
                caller_mean, caller_p95);
    bench_engine_report_free(&rep);
    trace_free(t);
}

/* The partitions through a fresh engine one at a time: one job of one
 * partition, waited for before the next is submitted. */
static void isolated(const opts *o, const char *path, const char *name,
                     const porep_like_params *shape)
{
    char events[64];
    snprintf(events, sizeof(events), "/tmp/cuzk-bench-isolated-XXXXXX");
    int fd = mkstemp(events);
    if (fd < 0)
        die("a temporary event log", CUZK_ERR_IO, strerror(errno));
    close(fd);
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend = o->backend;
    cfg.device_threads = o->threads;
    cfg.synth_workers = o->synth_workers;
    if (o->workers_per_device)
        cfg.workers_per_device = o->workers_per_device;
    cfg.verify = o->verify;
    cfg.event_log = events;
    cfg.quiet = true;
    engine_t *e;
    char msg[512] = "";
    cuzk_status st = engine_create(&e, &cfg, msg, sizeof(msg));
    circuit_spec spec = {.name = name,
                                .kind = CIRCUIT_BUILTIN,
                                .shape = *shape,
                                .params_path = path,
                                .check = FORMATS_CHECK_CURVE};
    if (st != CUZK_OK || (st = engine_register(e, &spec, msg, sizeof(msg))) != CUZK_OK ||
        (st = engine_preload(e, name, msg, sizeof(msg))) != CUZK_OK)
        die("the isolated engine", st, msg);
    unsigned total = o->jobs * o->partitions;
    double *caller_ms = calloc(total, sizeof(double));
    uint64_t first = 0;
    for (unsigned i = 0; i < total && caller_ms; i++) {
        engine_job_spec js = {.circuit = name,
                              .priority = ENGINE_PRIORITY_NORMAL,
                              .partitions = 1,
                              .seed = 1 + (uint64_t)i};
        uint64_t id, t0 = bench_now_ns();
        engine_state state;
        if ((st = engine_submit(e, &js, &id, msg, sizeof(msg))) != CUZK_OK)
            die("submit", st, msg);
        engine_wait(e, id, -1, &state);
        caller_ms[i] = (double)(bench_now_ns() - t0) / 1e6;
        if (state != ENGINE_STATE_DONE)
            die("an isolated partition", CUZK_ERR_INVALID_ARGUMENT, engine_state_name(state));
        if (i == 0)
            first = id;
    }
    if (!caller_ms)
        die("isolated", CUZK_ERR_OUT_OF_MEMORY, NULL);
    engine_destroy(e);
    overhead_line(events, "isolated", name, true, caller_ms, first);
    free(caller_ms);
    unlink(events);
}

/* The same partitions one after another (cuzk bench's loop). */
static void baseline(const opts *o, const r1cs_t *r, const char *path, const char *name)
{
    char msg[512] = "";
    groth16_params_t p;
    cuzk_status st =
        bellman_params_load(&p, path, FORMATS_CHECK_CURVE, o->threads, msg, sizeof(msg));
    if (st != CUZK_OK)
        die("loading the parameters", st, msg);
    groth16_circuit_t c;
    groth16_pvk_t pvk;
    if ((st = groth16_circuit_init(&c, r, &p, o->threads, msg, sizeof(msg))) != CUZK_OK ||
        (st = groth16_prepare_vk(&pvk, &p.vk)) != CUZK_OK)
        die("preparing", st, msg);
    uint64_t nv = r1cs_num_vars(r), ni = r->num_inputs - 1;
    fr_t *w = malloc(sizeof(fr_t) * nv);
    void *scratch = malloc(groth16_prover_scratch_bytes(&c));
    rng_t rng;
    if (!w || !scratch || rng_seed_secure(&rng) != CUZK_OK)
        die("baseline", CUZK_ERR_OUT_OF_MEMORY, NULL);
    porep_like_params shape;
    porep_like_params_for_constraints(&shape, o->log_k, 8);
    unsigned total = o->jobs * o->partitions;
    uint64_t t0 = bench_now_ns();
    for (unsigned i = 0; i < total; i++) {
        groth16_proof_t proof;
        if ((st = builtin_witness(w, nv, &shape, 1 + i, o->threads)) != CUZK_OK ||
            (st = groth16_prove(&proof, &c, w, &rng, scratch, o->threads, NULL)) != CUZK_OK ||
            (o->verify && (st = groth16_verify(&pvk, &proof, w + 1, ni)) != CUZK_OK))
            die("baseline proof", st, NULL);
    }
    double wall = (double)(bench_now_ns() - t0) / 1e9;
    printf("{\"bench\":\"engine_baseline\",\"circuit\":\"%s\",\"partitions\":%u,\"wall_s\":%.3f,"
           "\"partition_proofs_per_hour\":%.1f,\"verify\":%s}\n",
           name, total, wall, 3600.0 * total / wall, o->verify ? "true" : "false");
    fprintf(stderr, "bench_engine: sequential: %u partitions in %.2f s, %.0f per hour\n", total,
            wall, 3600.0 * total / wall);
    free(w);
    free(scratch);
    rng_wipe(&rng);
    groth16_pvk_free(&pvk);
    groth16_circuit_free(&c);
    groth16_params_free(&p);
}

int main(int argc, char **argv)
{
    opts o;
    parse(&o, argc, argv);
    porep_like_params shape;
    if (porep_like_params_for_constraints(&shape, o.log_k, 8) != CUZK_OK)
        die("shape", CUZK_ERR_INVALID_ARGUMENT, "no built-in circuit of that size");
    char name[128], path[4096], events[4096];
    builtin_name(name, sizeof(name), &shape);
    if (o.params)
        snprintf(path, sizeof(path), "%s", o.params);
    else
        default_params_path(path, sizeof(path), name);
    r1cs_t r;
    cuzk_status st = builtin_compile(&r, &shape, o.threads);
    if (st != CUZK_OK)
        die("compiling the circuit", st, NULL);
    ensure_params(path, &r);
    if (o.events) {
        snprintf(events, sizeof(events), "%s", o.events);
    } else {
        snprintf(events, sizeof(events), "/tmp/cuzk-bench-engine-XXXXXX");
        int fd = mkstemp(events);
        if (fd < 0)
            die("a temporary event log", CUZK_ERR_IO, strerror(errno));
        close(fd);
    }

    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend = o.backend;
    cfg.device_threads = o.threads;
    cfg.synth_workers = o.synth_workers;
    if (o.workers_per_device)
        cfg.workers_per_device = o.workers_per_device;
    cfg.verify = o.verify;
    cfg.event_log = events;
    engine_t *e;
    char msg[512] = "";
    if ((st = engine_create(&e, &cfg, msg, sizeof(msg))) != CUZK_OK)
        die("engine", st, msg);
    circuit_spec spec = {.name = name,
                                .kind = CIRCUIT_BUILTIN,
                                .shape = shape,
                                .params_path = path,
                                .check = FORMATS_CHECK_CURVE};
    uint64_t t_load = bench_now_ns();
    if ((st = engine_register(e, &spec, msg, sizeof(msg))) != CUZK_OK ||
        (st = engine_preload(e, name, msg, sizeof(msg))) != CUZK_OK)
        die("loading the circuit", st, msg);
    double load_s = (double)(bench_now_ns() - t_load) / 1e9;
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    fprintf(stderr,
            "bench_engine: %s, 2^%u domain, %u jobs x %u partitions; %u synthesis workers, "
            "%u devices x %u workers, %u finalizers; loaded in %.2f s\n",
            name, o.log_k, o.jobs, o.partitions, stats.synth_workers, stats.devices,
            stats.workers_per_device, stats.finalizers, load_s);

    uint64_t *ids = calloc(o.jobs, sizeof(uint64_t));
    double *lat = calloc(o.jobs, sizeof(double));
    uint64_t t0 = bench_now_ns();
    for (unsigned j = 0; j < o.jobs; j++) {
        engine_job_spec js = {.circuit = name,
                              .priority = ENGINE_PRIORITY_NORMAL,
                              .partitions = o.partitions,
                              .seed = 1 + (uint64_t)j * o.partitions};
        if ((st = engine_submit(e, &js, &ids[j], msg, sizeof(msg))) != CUZK_OK)
            die("submit", st, msg);
    }
    int failed = 0;
    for (unsigned j = 0; j < o.jobs; j++) {
        engine_state s;
        engine_job_info info;
        engine_wait(e, ids[j], -1, &s);
        engine_job_status(e, ids[j], &info, NULL, 0);
        if (s != ENGINE_STATE_DONE) {
            fprintf(stderr, "bench_engine: job %llu %s: %s\n", (unsigned long long)ids[j],
                    engine_state_name(s), info.message);
            failed = 1;
        }
        lat[j] = (double)(info.finish_ns - info.submit_ns) / 1e9;
    }
    double wall = (double)(bench_now_ns() - t0) / 1e9;
    engine_get_stats(e, &stats, NULL, 0);
    engine_destroy(e);
    unsigned total = o.jobs * o.partitions;
    double per_hour = 3600.0 * total / wall;
    double l50 = quantile(lat, o.jobs, 0.5), l95 = quantile(lat, o.jobs, 0.95);
    printf("{\"bench\":\"engine\",\"circuit\":\"%s\",\"log_domain\":%u,\"constraints\":%llu,"
           "\"jobs\":%u,\"partitions\":%u,\"backend\":\"%s\",\"devices\":%u,"
           "\"workers_per_device\":%u,\"synth_workers\":%u,\"threads\":%u,\"verify\":%s,"
           "\"load_s\":%.3f,\"wall_s\":%.3f,\"partition_proofs_per_hour\":%.1f,"
           "\"job_latency_p50_s\":%.3f,\"job_latency_p95_s\":%.3f,\"buffer_peak_bytes\":%llu,"
           "\"cpu\":\"%s\",\"commit\":\"%s\"}\n",
           name, o.log_k, (unsigned long long)r.num_constraints, o.jobs, o.partitions,
           stats.backend, stats.devices, stats.workers_per_device, stats.synth_workers,
           o.threads ? o.threads : parallel_cpu_count(), o.verify ? "true" : "false", load_s, wall,
           per_hour, l50, l95, (unsigned long long)stats.buffer_peak, bench_cpu_name(),
           CUZK_GIT_COMMIT);
    fprintf(stderr,
            "bench_engine: %u partitions in %.2f s, %.0f per hour; job latency p50 %.2f s\n", total,
            wall, per_hour, l50);
    phase_lines(events, name);
    fflush(stdout);
    overhead_line(events, "pipelined", name, false, NULL, 0);
    if (!o.events)
        unlink(events);
    if (o.isolated)
        isolated(&o, path, name, &shape);
    if (o.baseline)
        baseline(&o, &r, path, name);
    free(ids);
    free(lat);
    r1cs_free(&r);
    return failed;
}
