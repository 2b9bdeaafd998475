/* cuzk bench: the proving benchmark on the built-in storage-proof-shaped
 * circuit, or with --arith the BLS12-381 arithmetic micro-benchmarks.
 *
 * J jobs of N partitions go to the engine at once (auto-sized stages, the
 * backend --backend picks: auto is the GPUs when the build has CUDA and the
 * machine a GPU, else the CPU); the engine's finalizers verify every proof.
 * The engine's timing log then becomes, through the trace library, a
 * Perfetto trace, an SVG and an HTML timeline and a summary, all in the
 * output folder, and each partition's life is split into work, waiting and
 * the engine's own overhead (bench/suite_engine.h). JSON lines on stdout
 * (and in the folder), a human table on stderr. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "circuits/circuit.h"
#include "circuits/porep_like.h"
#include "cli/args.h"
#include "cli/builtin.h"
#include "cli/commands.h"
#include "cli/engine_run.h"
#include "engine/engine.h"
#include "suite.h"
#include "suite_engine.h"
#include "trace/export.h"
#include "trace/summary.h"
#include "trace/trace.h"
#include "util/byte_size.h"
#include "util/parallel.h"

#define BENCH_DEFAULT_LOG 19
#define BENCH_DEFAULT_JOBS 4
#define BENCH_DEFAULT_PARTITIONS 4
#define BENCH_MAX_JOBS 10000

typedef struct bench_args {
    builtin_opts o; /* o.partitions: per job; o.out_path: the output folder */
    unsigned jobs;  /* --jobs */
    unsigned synth_workers, workers_per_device; /* 0: the engine's auto sizes */
    bool params_given;                          /* --params: never overwritten */
    bool dev_params;          /* --params dev:SEED: made in memory at load, no file */
    formats_check check;      /* --check: the parameter file's point checks at load */
    uint64_t device_budget;   /* --device-budget: engine.device_budget */
    uint64_t buffer_budget;   /* --buffer-budget: engine.buffer_budget (0: auto) */
    engine_abc_eval abc_eval; /* --abc-eval: engine.abc_eval */
} bench_args;

static void bench_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk bench [--log-constraints K] [--jobs J] [--partitions N] [--arity 2|8]\n"
            "                  [--threads T] [--seed S] [--params FILE] [--no-verify]\n"
            "                  [--backend auto|cpu|cuda] [--out DIR] [--synth-workers S]\n"
            "                  [--workers-per-device W] [--event-log FILE]\n"
            "                  [--check none|curve|subgroup] [--device-budget BYTES]\n"
            "                  [--abc-eval auto|synthesis|backend] [--buffer-budget BYTES]\n"
            "                  [--fixed-blinding R,S (tests only)]\n"
            "       cuzk bench --arith [--scale X]\n"
            "  Submits J jobs (default %d) of N partitions each (default %d) of the built-in\n"
            "  storage-proof-shaped circuit of about 2^K constraints (default K = %d) to the\n"
            "  proving engine at once; the engine verifies every proof. Writes the engine's\n"
            "  timing log, a Perfetto trace, SVG and HTML timelines and the summary to DIR\n"
            "  (default %s/bench),\n"
            "  prints JSON lines on stdout (throughput, seconds per partition, device busy %%,\n"
            "  engine overhead per partition, per-phase p50/p95) and a table on stderr.\n"
            "  Partition i of job j uses seed S + j*N + i.\n"
            "  Parameters are made on the first run and cached in %s;\n"
            "  --params dev:SEED makes development parameters in memory at load instead\n"
            "  (from SEED, on the GPU with the CUDA backend; no file is written).\n"
            "  --check picks the parameter file's point checks at load (default curve;\n"
            "  subgroup runs the proving key's tests on the GPU with the CUDA backend).\n"
            "  --device-budget (e.g. 16G) is engine.device_budget: a GPU keeps at most that\n"
            "  much of the circuit and streams the parameters that do not fit.\n"
            "  --abc-eval is engine.abc_eval: synthesis evaluates a, b, c on the host (for a\n"
            "  budget the constraint system does not fit), backend on the device.\n"
            "  --buffer-budget (e.g. 40G) is engine.buffer_budget: the host memory of the\n"
            "  partitions in flight (default RAM/4).\n"

            "  --arith benchmarks the field, curve and pairing arithmetic instead.\n",
            BENCH_DEFAULT_JOBS, BENCH_DEFAULT_PARTITIONS, BENCH_DEFAULT_LOG, cli_cache_dir(),
            cli_cache_dir());
}

/* Codes of bench's own options, after the built-in circuit's. */
enum {
    OPT_JOBS = BUILTIN_OPT_END,
    OPT_SYNTH_WORKERS,
    OPT_WORKERS_PER_DEVICE,
    OPT_ARITH,
    OPT_SCALE,
    OPT_CHECK,
    OPT_DEVICE_BUDGET,
    OPT_ABC_EVAL,
    OPT_BUFFER_BUDGET,
};

/* Both forms' options: a word is read alike whichever form it ends in. */
static const struct option bench_options[] = {
    {"help", no_argument, NULL, 'h'},
    CLI_COMMON_OPTIONS,
    BUILTIN_OPTIONS,
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"synth-workers", required_argument, NULL, OPT_SYNTH_WORKERS},
    {"workers-per-device", required_argument, NULL, OPT_WORKERS_PER_DEVICE},
    {"arith", no_argument, NULL, OPT_ARITH},
    {"scale", required_argument, NULL, OPT_SCALE},
    {"check", required_argument, NULL, OPT_CHECK},
    {"device-budget", required_argument, NULL, OPT_DEVICE_BUDGET},
    {"abc-eval", required_argument, NULL, OPT_ABC_EVAL},
    {"buffer-budget", required_argument, NULL, OPT_BUFFER_BUDGET},
    {0},
};

static int arith(int argc, char **argv)
{
    double scale = 1.0;
    cli_args a;
    cli_args_start(&a, "bench", argc, argv, bench_options);
    for (int code; (code = cli_args_next(&a)) != CLI_ARGS_END;) {
        if (code == 'h') {
            bench_usage(stdout);
            return CLI_EXIT_OK;
        }
        if (code == CLI_ARGS_BAD)
            return CLI_EXIT_USAGE;
        if (code == OPT_ARITH)
            continue;
        if (code != OPT_SCALE) {
            cli_error("bench: '%s' does not go with --arith", cli_args_word(&a));
            return CLI_EXIT_USAGE;
        }
        char *end;
        scale = strtod(a.value, &end);
        if (*end || scale <= 0) {
            cli_error("bench: --scale wants a positive number, got '%s'", a.value);
            return CLI_EXIT_USAGE;
        }
    }
    fprintf(stderr, "cuzk bench: BLS12-381 arithmetic on %s (one thread)\n", bench_cpu_name());
    return bench_arith_run(stdout, scale) ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

/* ------------------------------------------------------- the engine's run */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The JSON lines go to stdout and to bench.jsonl in the output folder. */
typedef struct json_out {
    FILE *file;
} json_out;

static void emit(json_out *jo, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(json_out *jo, const char *fmt, ...)
{
    va_list ap, copy;
    va_start(ap, fmt);
    va_copy(copy, ap);
    vfprintf(stdout, fmt, ap);
    if (jo->file)
        vfprintf(jo->file, fmt, copy);
    va_end(copy);
    va_end(ap);
}

/* Every file of the output folder. */
typedef struct bench_paths {
    char dir[2048];
    char events[2304], perfetto[2304], svg[2304], html[2304], summary_txt[2304], summary_json[2304],
        results[2304], proofs[2304];
} bench_paths;

static int make_out_dir(const builtin_opts *o, bench_paths *p)
{
    if (o->out_path)
        snprintf(p->dir, sizeof(p->dir), "%s", o->out_path);
    else
        snprintf(p->dir, sizeof(p->dir), "%s/bench", cli_cache_dir());
    if (cli_make_dirs(p->dir) != 0) {
        cli_error("bench: cannot create the output folder %s: %s", p->dir, strerror(errno));
        return CLI_EXIT_FAILURE;
    }
    if (o->common.event_log) /* --event-log: the timing log goes there instead */
        snprintf(p->events, sizeof(p->events), "%s", o->common.event_log);
    else
        snprintf(p->events, sizeof(p->events), "%s/events.jsonl", p->dir);
    snprintf(p->perfetto, sizeof(p->perfetto), "%s/trace.json", p->dir);
    snprintf(p->svg, sizeof(p->svg), "%s/timeline.svg", p->dir);
    snprintf(p->html, sizeof(p->html), "%s/timeline.html", p->dir);
    snprintf(p->summary_txt, sizeof(p->summary_txt), "%s/summary.txt", p->dir);
    snprintf(p->summary_json, sizeof(p->summary_json), "%s/summary.json", p->dir);
    snprintf(p->results, sizeof(p->results), "%s/bench.jsonl", p->dir);
    snprintf(p->proofs, sizeof(p->proofs), "%s/proofs.bin", p->dir);
    return CLI_EXIT_OK;
}

/* Development parameters for the circuit, written to o->params_path. */
static int make_params(const builtin_opts *o)
{
    r1cs_t r;
    int rc = builtin_compile_circuit(o, &r);
    if (rc != CLI_EXIT_OK)
        return rc;
    groth16_params_t params;
    rc = builtin_make_params(o, &r, &params);
    if (rc == CLI_EXIT_OK)
        groth16_params_free(&params);
    r1cs_free(&r);
    return rc;
}

/* An engine with the circuit registered and loaded (compiled, parameters
 * read, made resident on the backend). */
static cuzk_status start_engine(engine_t **out, const bench_args *a, const char *events, char *msg,
                                size_t msg_len)
{
    const builtin_opts *o = &a->o;
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend = o->common.backend;
    cfg.device_threads = o->common.threads;
    cfg.load_threads = o->common.threads;
    cfg.synth_workers = a->synth_workers;
    cfg.expected_log_rows = o->log_constraints; /* the synthesis pool's auto split */
    if (a->workers_per_device)
        cfg.workers_per_device = a->workers_per_device;
    cfg.verify = o->common.verify;
    cfg.device_budget = a->device_budget;
    cfg.abc_eval = a->abc_eval;
    cfg.buffer_budget = a->buffer_budget;
    cfg.event_log = events;
    cfg.quiet = true; /* the backend and why are printed below */
    engine_t *e;
    cuzk_status st = engine_create(&e, &cfg, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    circuit_spec spec = {.name = o->name,
                         .kind = CIRCUIT_BUILTIN,
                         .shape = o->shape,
                         .params_path = o->params_path,
                         .check = a->check};
    if ((st = engine_register(e, &spec, msg, msg_len)) != CUZK_OK ||
        (st = engine_preload(e, o->name, msg, msg_len)) != CUZK_OK) {
        engine_destroy(e);
        return st;
    }
    *out = e;
    return CUZK_OK;
}

/* The engine, loaded; parameters made first when missing, and again when
 * the cached ones cannot be used (a stale or damaged cache file; a file
 * given with --params is never overwritten). */
static int open_engine(engine_t **e, const bench_args *a, const char *events, bool *made,
                       double *load_s)
{
    const builtin_opts *o = &a->o;
    double t0 = cli_now();
    *made = false;
    int rc;
    if (a->dev_params) {
        fprintf(stderr,
                "cuzk bench: development parameters %s, made in memory at load: "
                "NOT FOR PRODUCTION (the seed is the toxic waste)\n",
                o->params_path);
    } else if (access(o->params_path, R_OK) != 0) {
        if ((rc = make_params(o)) != CLI_EXIT_OK)
            return rc;
        *made = true;
    }
    char msg[512] = "";
    cuzk_status st = start_engine(e, a, events, msg, sizeof(msg));
    if (st != CUZK_OK && !*made && !a->params_given && st != CUZK_ERR_UNSUPPORTED) {
        fprintf(stderr, "cuzk bench: %s cannot be used (%s); making new parameters\n",
                o->params_path, msg);
        if ((rc = make_params(o)) != CLI_EXIT_OK)
            return rc;
        *made = true;
        st = start_engine(e, a, events, msg, sizeof(msg));
    }
    if (st != CUZK_OK) {
        cli_error("bench: %s", msg[0] ? msg : cuzk_status_str(st));
        bool input = st == CUZK_ERR_CORRUPT || st == CUZK_ERR_IO || a->params_given;
        return input ? CLI_EXIT_BAD_INPUT : CLI_EXIT_FAILURE;
    }
    *load_s = cli_now() - t0;
    return CLI_EXIT_OK;
}

typedef struct job_result {
    uint64_t id;
    engine_job_info info;
} job_result;

/* Every job's proof, job after job (192 bytes a partition), into path:
 * the bench's proofs can be checked and compared with other doors'. */
static int save_proofs(engine_t *e, const bench_args *a, const job_result *jobs, const char *path,
                       char *failure, size_t failure_len)
{
    size_t per_job = (size_t)a->o.partitions * GROTH16_PROOF_BYTES, len = 0;
    uint8_t *all = malloc(per_job * a->jobs);
    if (!all) {
        snprintf(failure, failure_len, "out of memory for the proofs");
        return CLI_EXIT_FAILURE;
    }
    for (unsigned j = 0; j < a->jobs; j++)
        if (engine_job_proof(e, jobs[j].id, all + (size_t)j * per_job, per_job, &len) != CUZK_OK ||
            len != per_job) {
            snprintf(failure, failure_len, "the proof of job %u cannot be read back", j + 1);
            free(all);
            return CLI_EXIT_FAILURE;
        }
    char msg[256] = "";
    cuzk_status st = formats_save(path, all, per_job * a->jobs, msg, sizeof(msg));
    free(all);
    if (st != CUZK_OK) {
        snprintf(failure, failure_len, "cannot write the proofs: %s",
                 msg[0] ? msg : cuzk_status_str(st));
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

/* Submits every job at once, then waits for each; the first failure's
 * message goes to *failure. */
static int run_jobs(engine_t *e, const bench_args *a, job_result *jobs, double *wall_s,
                    char *failure, size_t failure_len)
{
    const builtin_opts *o = &a->o;
    char msg[512] = "";
    fr_t *blind_r = NULL, *blind_s = NULL;
    int brc = cli_engine_blinding(&o->common, CURVE_BLS12_381, o->partitions, &blind_r, &blind_s);
    if (brc != CLI_EXIT_OK)
        return brc;
    double t0 = cli_now();
    for (unsigned j = 0; j < a->jobs; j++) {
        engine_job_spec js = {.circuit = o->name,
                              .priority = ENGINE_PRIORITY_NORMAL,
                              .partitions = o->partitions,
                              .seed = o->seed + (uint64_t)j * o->partitions,
                              .timeout_s = -1,
                              .r = blind_r,
                              .s = blind_s};
        cuzk_status st = engine_submit(e, &js, &jobs[j].id, msg, sizeof(msg));
        if (st != CUZK_OK) {
            cli_error("bench: submitting job %u: %s", j + 1, msg[0] ? msg : cuzk_status_str(st));
            free(blind_r);
            free(blind_s);
            return CLI_EXIT_FAILURE;
        }
    }
    free(blind_r);
    free(blind_s);
    int rc = CLI_EXIT_OK;
    for (unsigned j = 0; j < a->jobs; j++) {
        engine_state state;
        engine_wait(e, jobs[j].id, -1, &state);
        engine_job_status(e, jobs[j].id, &jobs[j].info, NULL, 0);
        const engine_job_info *in = &jobs[j].info;
        double after = (double)(in->finish_ns - in->submit_ns) / 1e9;
        if (state == ENGINE_STATE_DONE) {
            fprintf(stderr,
                    "cuzk bench: job %llu done: %u partitions %s, %.2f s after "
                    "submission\n",
                    (unsigned long long)in->id, in->partitions_done,
                    o->common.verify ? "proved and verified" : "proved (not verified)", after);
        } else {
            fprintf(stderr, "cuzk bench: job %llu %s after %.2f s: %s\n",
                    (unsigned long long)in->id, engine_state_name(state), after, in->message);
            if (rc == CLI_EXIT_OK)
                snprintf(failure, failure_len, "job %llu %s: %s", (unsigned long long)in->id,
                         engine_state_name(state), in->message);
            rc = CLI_EXIT_FAILURE;
        }
    }
    *wall_s = cli_now() - t0;
    return rc;
}

typedef enum output_kind {
    OUT_PERFETTO,
    OUT_SVG,
    OUT_HTML,
    OUT_SUMMARY_TEXT,
    OUT_SUMMARY_JSON
} output_kind;

static bool write_output(output_kind kind, const char *path, const trace *t, const trace_summary *s)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("bench: cannot create %s: %s", path, strerror(errno));
        return false;
    }
    cuzk_status st = CUZK_OK;
    switch (kind) {
    case OUT_PERFETTO:
        st = trace_write_perfetto(f, t);
        break;
    case OUT_SVG:
        st = trace_write_svg(f, t, s, NULL, NULL);
        break;
    case OUT_HTML:
        st = trace_write_html(f, t, s, NULL);
        break;
    case OUT_SUMMARY_TEXT:
        trace_summary_print(f, t, s);
        break;
    case OUT_SUMMARY_JSON:
        st = trace_summary_write_json(f, t, s);
        break;
    }
    int err = errno;
    bool closed = fclose(f) == 0;
    if (st != CUZK_OK || !closed) {
        cli_error("bench: cannot write %s: %s", path,
                  st != CUZK_OK && st != CUZK_ERR_IO ? cuzk_status_str(st) : strerror(err));
        return false;
    }
    return true;
}

/* Mean, p50 and p95 in milliseconds of one piece of the partitions' lives. */
typedef struct piece_stats {
    double mean, p50, p95;
} piece_stats;

static piece_stats piece_of(const bench_engine_report *r, size_t offset, double *scratch)
{
    piece_stats ps = {0};
    for (size_t i = 0; i < r->count; i++) {
        uint64_t ns;
        memcpy(&ns, (const char *)&r->parts[i] + offset, sizeof(ns));
        scratch[i] = (double)ns / 1e6;
        ps.mean += scratch[i];
    }
    if (r->count)
        ps.mean /= (double)r->count;
    ps.p50 = bench_quantile(scratch, r->count, 0.5);
    ps.p95 = bench_quantile(scratch, r->count, 0.95);
    return ps;
}

/* The pieces a partition's life is cut into (suite_engine.h). */
static const struct {
    const char *name, *what;
    size_t offset;
} PIECES[] = {
    {"admission", "admission (queue_wait)", offsetof(bench_partition_timing, admission_ns)},
    {"synthesis", "synthesis (witness, a b c)", offsetof(bench_partition_timing, synth_ns)},
    {"device_wait", "waiting for the device", offsetof(bench_partition_timing, device_wait_ns)},
    {"prove", "prove (backend)", offsetof(bench_partition_timing, prove_ns)},
    {"finalizer_wait", "waiting for a finalizer",
     offsetof(bench_partition_timing, finalizer_wait_ns)},
    {"finalize", "finalize (assemble, verify)", offsetof(bench_partition_timing, finalize_ns)},
    {"engine_overhead", "engine overhead", offsetof(bench_partition_timing, overhead_ns)},
};
enum { PIECE_COUNT = sizeof(PIECES) / sizeof(PIECES[0]) };

/* The index of job id among the submitted ones (its seeds start there). */
static unsigned job_index(const job_result *jobs, unsigned n, uint64_t id)
{
    for (unsigned j = 0; j < n; j++)
        if (jobs[j].id == id)
            return j;
    return 0;
}

/* Everything the log says: the files, the JSON lines and the table. */
static int report(const bench_args *a, const bench_paths *paths, const engine_stats *stats,
                  const job_result *jobs, double wall_s, double load_s, bool made_params,
                  bool jobs_ok)
{
    const builtin_opts *o = &a->o;
    char msg[512] = "";
    trace *t = NULL;
    cuzk_status st = trace_read_file(&t, paths->events, false, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_error("bench: reading the timing log: %s", msg);
        return CLI_EXIT_FAILURE;
    }
    if (t->malformed)
        cli_error("bench: %s: %zu malformed lines (the first at line %u: %s)", paths->events,
                  t->malformed, t->issues[0].line, t->issues[0].text);
    trace_summary *s = NULL;
    bench_engine_report rep;
    if (trace_summarize(&s, t, NULL) != CUZK_OK || bench_engine_analyze(&rep, t) != CUZK_OK) {
        trace_summary_free(s);
        trace_free(t);
        cli_error("out of memory");
        return CLI_EXIT_FAILURE;
    }
    bool ok = write_output(OUT_PERFETTO, paths->perfetto, t, s) &&
              write_output(OUT_SVG, paths->svg, t, s) &&
              write_output(OUT_HTML, paths->html, t, s) &&
              write_output(OUT_SUMMARY_TEXT, paths->summary_txt, t, s) &&
              write_output(OUT_SUMMARY_JSON, paths->summary_json, t, s);
    json_out jo = {.file = fopen(paths->results, "w")};
    if (!jo.file) {
        cli_error("bench: cannot create %s: %s", paths->results, strerror(errno));
        ok = false;
    }

    fputc('\n', stderr);
    trace_summary_print(stderr, t, s);

    unsigned total = a->jobs * o->partitions;
    unsigned threads = o->common.threads ? o->common.threads : parallel_cpu_count();
    size_t verified = 0;
    for (size_t i = 0; i < rep.count; i++) {
        const bench_partition_timing *p = &rep.parts[i];
        verified += p->verified;
        unsigned j = job_index(jobs, a->jobs, p->job);
        emit(&jo,
             "{\"bench\":\"prove\",\"mode\":\"engine\",\"circuit\":\"%s\",\"job\":%llu,"
             "\"partition\":%u,\"seed\":%llu,\"device\":%d,\"witness_s\":%.4f,\"prove_s\":%.4f,"
             "\"verify_s\":%.4f,\"latency_s\":%.4f,\"engine_overhead_ms\":%.4f,\"verified\":%s}\n",
             o->name, (unsigned long long)p->job, p->partition,
             (unsigned long long)(o->seed + (uint64_t)j * o->partitions + p->partition), p->device,
             (double)p->synth_ns / 1e9, (double)p->prove_ns / 1e9, (double)p->verify_ns / 1e9,
             (double)(p->done_ns - p->submit_ns) / 1e9, (double)p->overhead_ns / 1e6,
             p->verified ? "true" : "false");
    }
    for (size_t i = 0; i < s->phase_count; i++) {
        const trace_phase_stat *ph = &s->phases[i];
        emit(&jo,
             "{\"bench\":\"prove_phase\",\"phase\":\"%s\",\"cat\":\"%s\",\"partitions\":%zu,"
             "\"p50_ms\":%.4f,\"p95_ms\":%.4f,\"max_ms\":%.4f,\"mean_ms\":%.4f,\"total_s\":%.4f}\n",
             t->phase_names[ph->phase], trace_cat_name(ph->cat), ph->partitions, ph->p50_ms,
             ph->p95_ms, ph->max_ms, ph->mean_ms, ph->total_s);
    }

    double *scratch = malloc((rep.count ? rep.count : 1) * sizeof(double));
    piece_stats pieces[PIECE_COUNT] = {{0}};
    double latency_mean = 0;
    for (int k = 0; k < PIECE_COUNT && scratch; k++)
        pieces[k] = piece_of(&rep, PIECES[k].offset, scratch);
    for (size_t i = 0; i < rep.count; i++)
        latency_mean += (double)(rep.parts[i].done_ns - rep.parts[i].submit_ns) / 1e6;
    if (rep.count)
        latency_mean /= (double)rep.count;
    free(scratch);
    bench_overhead_stats ov;
    bench_overhead_stats_of(&rep, false, &ov);
    emit(&jo, "{\"bench\":\"prove_split\",\"partitions\":%zu", rep.count);
    for (int k = 0; k < PIECE_COUNT; k++)
        emit(&jo, ",\"%s_ms\":{\"mean\":%.4f,\"p50\":%.4f,\"p95\":%.4f}", PIECES[k].name,
             pieces[k].mean, pieces[k].p50, pieces[k].p95);
    emit(&jo,
         ",\"engine_overhead_parts_ms\":{\"acquire\":%.4f,\"prove_handoff\":%.4f,"
         "\"finalize_handoff\":%.4f,\"completion\":%.4f}}\n",
         ov.acquire_ms, ov.prove_handoff_ms, ov.finalize_handoff_ms, ov.completion_ms);

    /* A device's idle time between its first and last kernel span, per
     * partition it proved: what the hand-offs cost the critical path. */
    double busy_active = 0, busy_wall = 0, idle_per_partition = 0;
    for (size_t d = 0; d < rep.device_count; d++) {
        const bench_device_busy *b = &rep.devices[d];
        double active = (double)(b->last_ns - b->first_ns) / 1e9;
        double pct = active > 0 ? 100.0 * (double)b->busy_ns / 1e9 / active : 0;
        double pct_wall = rep.wall_ns ? 100.0 * (double)b->busy_ns / (double)rep.wall_ns : 0;
        double idle_ms = (double)(b->last_ns - b->first_ns - b->busy_ns) / 1e6;
        double idle_pp = b->partitions ? idle_ms / b->partitions : 0;
        busy_active += pct / (double)rep.device_count;
        busy_wall += pct_wall / (double)rep.device_count;
        idle_per_partition += idle_pp / (double)rep.device_count;
        emit(&jo,
             "{\"bench\":\"prove_device\",\"device\":\"%s%d\",\"partitions\":%u,"
             "\"busy_s\":%.4f,\"active_s\":%.4f,\"busy_pct\":%.2f,\"busy_pct_of_wall\":%.2f,"
             "\"idle_ms_per_partition\":%.4f}\n",
             stats->backend, b->device, b->partitions, (double)b->busy_ns / 1e9, active, pct,
             pct_wall, idle_pp);
    }

    /* The steady state: the interval between proofs once the pipeline is
     * full (the first quarter of the partitions left out), against the
     * kernel time per partition shared by the devices. Equal means the
     * pipeline hides every CPU stage and copy. */
    if (rep.count >= 8 && rep.device_count > 0) {
        uint64_t *done = malloc(rep.count * sizeof(uint64_t));
        if (done) {
            for (size_t i = 0; i < rep.count; i++)
                done[i] = rep.parts[i].done_ns;
            qsort(done, rep.count, sizeof(uint64_t), cmp_u64);
            size_t k = rep.count / 4, m = rep.count - 1 - k;
            double steady_ms = (double)(done[rep.count - 1] - done[k]) / 1e6 / (double)m;
            uint64_t busy = 0, parts = 0;
            for (size_t d = 0; d < rep.device_count; d++) {
                busy += rep.devices[d].busy_ns;
                parts += rep.devices[d].partitions;
            }
            double kernel_ms = parts ? (double)busy / 1e6 / (double)parts : 0;
            double ideal_ms = kernel_ms / (double)rep.device_count;
            emit(&jo,
                 "{\"bench\":\"prove_steady\",\"intervals\":%zu,\"steady_ms_per_partition\":%.3f,"
                 "\"kernel_ms_per_partition\":%.3f,\"devices\":%zu,\"ideal_ms_per_partition\":%.3f,"
                 "\"pipeline_efficiency_pct\":%.2f}\n",
                 m, steady_ms, kernel_ms, rep.device_count, ideal_ms,
                 steady_ms > 0 ? 100.0 * ideal_ms / steady_ms : 0);
            fprintf(stderr,
                    "steady state: a proof every %.3f ms (the last %zu intervals); kernel time "
                    "%.3f ms per partition on %zu device(s) = %.3f ms; efficiency %.2f %%\n",
                    steady_ms, m, kernel_ms, rep.device_count, ideal_ms,
                    steady_ms > 0 ? 100.0 * ideal_ms / steady_ms : 0);
            free(done);
        }
    }

    double lat[BENCH_MAX_JOBS];
    size_t nlat = 0;
    for (unsigned j = 0; j < a->jobs; j++)
        if (jobs[j].info.state == ENGINE_STATE_DONE)
            lat[nlat++] = (double)(jobs[j].info.finish_ns - jobs[j].info.submit_ns) / 1e9;
    double lat50 = bench_quantile(lat, nlat, 0.5), lat95 = bench_quantile(lat, nlat, 0.95);
    double per_hour = wall_s > 0 ? 3600.0 * (double)s->partitions_done / wall_s : 0;
    bool all_verified = jobs_ok && o->common.verify && verified == total;
    uint64_t constraints = 0, aux = 0;
    porep_like_count(&o->shape, &constraints, &aux);
    constraints += porep_like_num_inputs(&o->shape) + 1; /* bellman's input rows */
    emit(&jo,
         "{\"bench\":\"prove_summary\",\"mode\":\"engine\",\"circuit\":\"%s\",\"constraints\":%llu,"
         "\"log_domain\":%u,\"jobs\":%u,\"partitions_per_job\":%u,\"partitions\":%u,"
         "\"partitions_done\":%llu,\"backend\":\"%s\",\"devices\":%u,\"cpu_fallback\":%s,"
         "\"workers_per_device\":%u,"
         "\"synth_workers\":%u,\"synth_threads\":%u,\"synth_latency_p50_s\":%.4f,"
         "\"synth_latency_p90_s\":%.4f,\"synth_partitions_per_s\":%.4f,"
         "\"synth_capacity_per_s\":%.4f,\"finalizers\":%u,\"queue_bound\":%u,\"threads\":%u,"
         "\"setup_or_load_s\":%.3f,\"params\":\"%s\",\"check\":\"%s\",\"wall_s\":%.3f,"
         "\"partition_proofs_per_hour\":%.1f,\"seconds_per_partition\":%.4f,"
         "\"device_busy_pct\":%.2f,\"device_busy_pct_of_wall\":%.2f,"
         "\"device_idle_ms_per_partition\":%.4f,\"engine_overhead_ms_per_partition\":%.4f,\"engine_"
         "overhead_p50_ms\":%.4f,"
         "\"engine_overhead_p95_ms\":%.4f,\"engine_overhead_max_ms\":%.4f,"
         "\"partition_latency_mean_s\":%.6f,\"job_latency_p50_s\":%.3f,\"job_latency_p95_s\":%.3f,"
         "\"partitions_verified\":%zu,\"verified\":%s,\"out_dir\":\"%s\",\"cpu\":\"%s\","
         "\"commit\":\"%s\"}\n",
         o->name, (unsigned long long)constraints, o->log_constraints, a->jobs, o->partitions,
         total, (unsigned long long)s->partitions_done, stats->backend, stats->devices,
         stats->cpu_fallback ? "true" : "false", stats->workers_per_device, stats->synth_workers,
         stats->synth_threads, s->synthesis.p50_ms / 1e3, s->synthesis.p90_ms / 1e3,
         s->synthesis.per_s, s->synthesis.capacity_per_s, stats->finalizers, stats->queue_bound,
         threads, load_s,
         a->dev_params ? "dev"
         : made_params ? "made"
                       : "loaded",
         a->check == FORMATS_CHECK_SUBGROUP ? "subgroup"
         : a->check == FORMATS_CHECK_CURVE  ? "curve"
                                            : "none",
         wall_s, per_hour, s->partitions_done ? wall_s / (double)s->partitions_done : 0.0,
         busy_active, busy_wall, idle_per_partition, ov.mean_ms, ov.p50_ms, ov.p95_ms, ov.max_ms,
         latency_mean / 1e3, lat50, lat95, verified, all_verified ? "true" : "false", paths->dir,
         bench_cpu_name(), CUZK_GIT_COMMIT);
    fflush(stdout);
    if (jo.file && fclose(jo.file) != 0) {
        cli_error("bench: cannot write %s", paths->results);
        ok = false;
    }

    /* The table. */
    fprintf(stderr, "\nwhere a partition's life went (ms)     mean        p50        p95\n");
    for (int k = 0; k < PIECE_COUNT; k++)
        fprintf(stderr, "  %-32s %10.3f %10.3f %10.3f\n", PIECES[k].what, pieces[k].mean,
                pieces[k].p50, pieces[k].p95);
    fprintf(stderr, "  %-32s %10.3f\n", "submission to proof, in all", latency_mean);
    fprintf(stderr,
            "  engine overhead, mean parts: buffers %.4f, to the device %.4f, to a finalizer "
            "%.4f, job completion %.4f\n",
            ov.acquire_ms, ov.prove_handoff_ms, ov.finalize_handoff_ms, ov.completion_ms);
    for (size_t d = 0; d < rep.device_count; d++) {
        const bench_device_busy *b = &rep.devices[d];
        double active = (double)(b->last_ns - b->first_ns) / 1e9;
        fprintf(stderr,
                "%s%d: busy %.2f %% of its first to last kernel span (%.2f s), %.2f %% of the "
                "wall time; %u partitions, idle %.4f ms per partition\n",
                stats->backend, b->device,
                active > 0 ? 100.0 * (double)b->busy_ns / 1e9 / active : 0, active,
                rep.wall_ns ? 100.0 * (double)b->busy_ns / (double)rep.wall_ns : 0, b->partitions,
                b->partitions
                    ? (double)(b->last_ns - b->first_ns - b->busy_ns) / 1e6 / b->partitions
                    : 0.0);
    }
    fprintf(stderr,
            "%llu of %u partitions (%u jobs x %u) in %.2f s: %.0f partition proofs per hour, "
            "%.3f s per partition; %zu verified\n",
            (unsigned long long)s->partitions_done, total, a->jobs, o->partitions, wall_s, per_hour,
            s->partitions_done ? wall_s / (double)s->partitions_done : 0.0, verified);
    fprintf(stderr, "engine overhead: %.4f ms per partition (p50 %.4f, p95 %.4f, max %.4f)\n",
            ov.mean_ms, ov.p50_ms, ov.p95_ms, ov.max_ms);
    fprintf(stderr,
            "synthesis: %.3f s per partition (p50; p90 %.3f s) on %u worker%s x %u threads; "
            "%.3f partitions/s over the run, %.3f/s with every worker busy\n",
            s->synthesis.p50_ms / 1e3, s->synthesis.p90_ms / 1e3, stats->synth_workers,
            stats->synth_workers == 1 ? "" : "s", stats->synth_threads, s->synthesis.per_s,
            s->synthesis.capacity_per_s);
    if (rep.skipped)
        fprintf(stderr,
                "cuzk bench: %zu partitions had more than one attempt or did not finish; "
                "the split leaves them out\n",
                rep.skipped);
    fprintf(stderr,
            "outputs in %s: events.jsonl (timing log), trace.json (Perfetto), timeline.svg, "
            "timeline.html, summary.txt, summary.json, bench.jsonl, proofs.bin\n",
            paths->dir);
    bench_engine_report_free(&rep);
    trace_summary_free(s);
    trace_free(t);
    return ok ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}

static int bench_engine_run(bench_args *a)
{
    builtin_opts *o = &a->o;
    bench_paths paths;
    int rc = make_out_dir(o, &paths);
    if (rc != CLI_EXIT_OK)
        return rc;
    unsigned threads = o->common.threads ? o->common.threads : parallel_cpu_count();
    fprintf(stderr,
            "cuzk bench: %s, %u jobs x %u partitions through the engine, %u host threads (%s)\n",
            o->name, a->jobs, o->partitions, threads, bench_cpu_name());
    engine_t *e = NULL;
    bool made = false;
    double load_s = 0;
    if ((rc = open_engine(&e, a, paths.events, &made, &load_s)) != CLI_EXIT_OK)
        return rc;
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    fprintf(stderr, "cuzk bench: %s backend%s%s\n", stats.backend,
            stats.backend_note[0] ? ": " : "", stats.backend_note);
    fprintf(stderr,
            "cuzk bench: domain 2^%u; %u synthesis worker%s x %u thread%s, %u device%s x %u "
            "prover workers%s, %u finalizer%s, queue bound %u; circuit and parameters %.2f s "
            "(%s)\n",
            o->log_constraints, stats.synth_workers, stats.synth_workers == 1 ? "" : "s",
            stats.synth_threads, stats.synth_threads == 1 ? "" : "s", stats.devices,
            stats.devices == 1 ? "" : "s", stats.workers_per_device,
            stats.cpu_fallback ? " (and the CPU for retries)" : "", stats.finalizers,
            stats.finalizers == 1 ? "" : "s", stats.queue_bound, load_s,
            a->dev_params     ? "development parameters made in memory"
            : made            ? "made and cached"
            : a->params_given ? "loaded"
                              : "loaded from cache");
    engine_circuit_info info;
    if (engine_circuit_info_of(e, o->name, &info) == CUZK_OK && info.placement[0])
        fprintf(stderr, "cuzk bench: %s\n", info.placement);

    job_result *jobs = calloc(a->jobs, sizeof(job_result));
    if (!jobs) {
        engine_destroy(e);
        cli_error("out of memory");
        return CLI_EXIT_FAILURE;
    }
    char failure[512] = "";
    double wall_s = 0;
    int jobs_rc = run_jobs(e, a, jobs, &wall_s, failure, sizeof(failure));
    if (jobs_rc == CLI_EXIT_OK)
        jobs_rc = save_proofs(e, a, jobs, paths.proofs, failure, sizeof(failure));
    engine_get_stats(e, &stats, NULL, 0);
    engine_destroy(e); /* joins the workers and flushes the timing log */
    rc = report(a, &paths, &stats, jobs, wall_s, load_s, made, jobs_rc == CLI_EXIT_OK);
    free(jobs);
    if (jobs_rc != CLI_EXIT_OK) {
        if (failure[0])
            cli_error("bench: %s", failure);
        return jobs_rc;
    }
    return rc;
}

/* ------------------------------------------------------------ the command */

static bool parse_count(const char *option, const char *value, unsigned long long max,
                        unsigned *out)
{
    unsigned long long v;
    if (!cli_parse_uint(option, value, max, &v))
        return false;
    if (v == 0) {
        cli_error("%s must be at least 1", option);
        return false;
    }
    *out = (unsigned)v;
    return true;
}

int cli_bench(int argc, char **argv)
{
    if (cli_args_has(argc, argv, bench_options, OPT_ARITH))
        return arith(argc, argv);
    bench_args b = {.jobs = BENCH_DEFAULT_JOBS, .check = FORMATS_CHECK_CURVE};
    builtin_opts *o = &b.o;
    builtin_opts_init(o, BENCH_DEFAULT_LOG);
    o->partitions = BENCH_DEFAULT_PARTITIONS;
    cli_args a;
    cli_args_start(&a, "bench", argc, argv, bench_options);
    for (int code; (code = cli_args_next(&a)) != CLI_ARGS_END;) {
        if (code == 'h') {
            bench_usage(stdout);
            return CLI_EXIT_OK;
        }
        if (code == CLI_ARGS_BAD)
            return CLI_EXIT_USAGE;
        unsigned *count = code == OPT_JOBS                 ? &b.jobs
                          : code == OPT_SYNTH_WORKERS      ? &b.synth_workers
                          : code == OPT_WORKERS_PER_DEVICE ? &b.workers_per_device
                                                           : NULL;
        if (count) {
            if (!parse_count(a.option, a.value, count == &b.jobs ? BENCH_MAX_JOBS : 256, count))
                return CLI_EXIT_USAGE;
            continue;
        }
        if (code == OPT_DEVICE_BUDGET || code == OPT_BUFFER_BUDGET) {
            uint64_t *bytes = code == OPT_DEVICE_BUDGET ? &b.device_budget : &b.buffer_budget;
            if (!parse_byte_size(a.value, bytes)) {
                cli_error("bench: %s wants a byte count (e.g. 16G), got '%s'", a.option, a.value);
                return CLI_EXIT_USAGE;
            }
            continue;
        }
        if (code == OPT_ABC_EVAL) {
            if (!engine_abc_eval_parse(a.value, &b.abc_eval)) {
                cli_error("bench: --abc-eval wants auto, synthesis or backend, got '%s'", a.value);
                return CLI_EXIT_USAGE;
            }
            continue;
        }
        if (code == OPT_CHECK) {
            if (!strcmp(a.value, "none"))
                b.check = FORMATS_CHECK_NONE;
            else if (!strcmp(a.value, "curve"))
                b.check = FORMATS_CHECK_CURVE;
            else if (!strcmp(a.value, "subgroup"))
                b.check = FORMATS_CHECK_SUBGROUP;
            else {
                cli_error("bench: --check wants none, curve or subgroup, got '%s'", a.value);
                return CLI_EXIT_USAGE;
            }
            continue;
        }
        if (code == CLI_ARG || code == OPT_SCALE) {
            cli_error(code == CLI_ARG ? "bench: unknown argument '%s'"
                                      : "bench: %s goes with --arith",
                      cli_args_word(&a));
            bench_usage(stderr);
            return CLI_EXIT_USAGE;
        }
        if (code == BUILTIN_OPT_PARAMS)
            b.params_given = true;
        if (builtin_option(o, code, a.value) < 0)
            return CLI_EXIT_USAGE;
    }
    if ((unsigned long long)b.jobs * o->partitions > 1000000) {
        cli_error("bench: at most 10^6 partitions in all");
        return CLI_EXIT_USAGE;
    }
    int rc = builtin_resolve(o);
    if (rc != CLI_EXIT_OK)
        return rc;
    uint64_t dev_seed;
    char why[256] = "";
    int dev = circuit_params_dev(o->params_path, &dev_seed, why, sizeof(why));
    if (dev < 0) {
        cli_error("bench: --params %s", why);
        return CLI_EXIT_USAGE;
    }
    b.dev_params = dev > 0;
    return bench_engine_run(&b);
}
