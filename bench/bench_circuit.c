/* Synthesis of the built-in PoRep-shaped circuit (src/circuits/porep_like.h)
 * at 2^k constraints: how fast constraints and witnesses are produced, and
 * the shape of what comes out: nonzeros per matrix, the share of aux
 * variables the A and B queries need (a_aux_density, b_aux_density: PoRep's
 * are 99.7 % and 25.4 %), the share of witness values that are 0 or 1.
 *
 * One JSON line per size:
 *   {"bench":"circuit_synthesis","log_constraints":k,"constraints":n,
 *    "nnz_a":..,"nnz_b":..,"nnz_c":..,"frac_01_witness":..,"synth_ms":..,...}
 * synth_ms: shape and witness together into one builder (what a test or a
 * first proof does); shape_ms: constraints only (setup); witness_ms: values
 * only (each later proof: the compiled matrices exist); compile_ms: the
 * builder's compile. Times are medians over the runs, one thread.
 *
 * Then, per size and per thread count of --threads, the paths the prover
 * takes, which synthesize the challenges in parallel (porep_like.h):
 *   {"bench":"circuit_parallel","log_constraints":k,"challenges":K,"threads":t,
 *    "witness_ms":..,"shape_ms":..,"witness_speedup":..,"shape_speedup":..,
 *    "witness_identical":true,"shape_identical":true,...}
 * witness_ms: porep_like_witness (in place, each thread its challenges'
 * slice of w); shape_ms: porep_like_synthesize_shape (challenges as blocks
 * on t threads, joined in order); the speedups are against the same call
 * on one thread, and *_identical compare the result with one thread's.
 *
 * Usage: bench_circuit [--min-log L] [--max-log L] [--arity 2|8] [--runs N]
 *                      [--seed S] [--threads T1,T2,..] [--parallel-only]
 *   (defaults 12..18, arity 2, 1 run, threads 1,2,4,8 capped at the CPUs;
 *    --parallel-only skips the first line's one-builder measures) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/porep_like.h"
#include "gadgets/cs.h"
#include "r1cs/density.h"
#include "r1cs/witness.h"
#include "suite.h"
#include "util/parallel.h"

#define MAX_THREAD_COUNTS 16

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void check(cuzk_status st, const char *what)
{
    if (st != CUZK_OK) {
        fprintf(stderr, "bench_circuit: %s: %s\n", what, cuzk_status_str(st));
        exit(1);
    }
}

/* Synthesizes once with the given flags; returns the time in ms and, for
 * SHAPE|VALUES, leaves the builder in *keep (else frees it). */
static double synth_once(const porep_like_params *p, unsigned flags, uint64_t seed,
                         r1cs_builder **keep)
{
    r1cs_builder *b;
    check(r1cs_builder_new(&b, flags), "builder");
    uint64_t t0 = bench_now_ns();
    check(porep_like_synthesize(b, flags, p, seed), "synthesis");
    double ms = (double)(bench_now_ns() - t0) / 1e6;
    if (keep)
        *keep = b;
    else
        r1cs_builder_free(b);
    return ms;
}

/* The shape on `threads` threads, compiled (one thread: the compile is
 * not what is measured); *ms is the synthesis and join alone. */
static void shape_threads(r1cs_t *out, const porep_like_params *p, unsigned threads, double *ms)
{
    r1cs_builder *b;
    check(r1cs_builder_new(&b, R1CS_BUILD_SHAPE), "builder");
    uint64_t t0 = bench_now_ns();
    check(porep_like_synthesize_shape(b, p, threads), "shape synthesis");
    *ms = (double)(bench_now_ns() - t0) / 1e6;
    check(r1cs_builder_compile(out, b, 1), "compile");
    r1cs_builder_free(b);
}

static bool same_system(const r1cs_t *x, const r1cs_t *y)
{
    if (x->num_constraints != y->num_constraints || x->num_inputs != y->num_inputs ||
        x->num_aux != y->num_aux || x->num_coeffs != y->num_coeffs ||
        x->coeff_width != y->coeff_width ||
        memcmp(x->coeffs, y->coeffs, x->num_coeffs * sizeof(fr_t)))
        return false;
    const r1cs_matrix *mx[3] = {&x->a, &x->b, &x->c}, *my[3] = {&y->a, &y->b, &y->c};
    for (int k = 0; k < 3; k++)
        if (mx[k]->nnz != my[k]->nnz ||
            memcmp(mx[k]->row_ptr, my[k]->row_ptr, (x->num_constraints + 1) * sizeof(uint64_t)) ||
            memcmp(mx[k]->col, my[k]->col, mx[k]->nnz * sizeof(uint32_t)) ||
            memcmp(mx[k]->coeff, my[k]->coeff, mx[k]->nnz * x->coeff_width))
            return false;
    return true;
}

/* Both parallel paths on t threads, medians over the runs; the witness
 * into w, the last run's system into *sys. */
static void measure(const porep_like_params *p, uint64_t seed, int runs, unsigned t, fr_t *w,
                    uint64_t n, r1cs_t *sys, double *tw, double *ts, double *w_ms, double *s_ms)
{
    for (int r = 0; r < runs; r++) {
        uint64_t t0 = bench_now_ns();
        check(porep_like_witness(w, n, p, seed, t), "witness");
        tw[r] = (double)(bench_now_ns() - t0) / 1e6;
        r1cs_free(sys);
        shape_threads(sys, p, t, &ts[r]);
    }
    *w_ms = median(tw, runs);
    *s_ms = median(ts, runs);
}

/* The parallel paths at one size: one thread first (the reference for the
 * speedups and the comparison), then a line per thread count. */
static void bench_parallel_paths(int k, const porep_like_params *p, uint64_t seed, int runs,
                                 const unsigned *threads, int nthreads, double *tw, double *ts)
{
    uint64_t cons, aux;
    check(porep_like_count(p, &cons, &aux), "count");
    uint64_t n = 1 + porep_like_num_inputs(p) + aux;
    fr_t *w1 = malloc(n * sizeof(fr_t)), *wt = malloc(n * sizeof(fr_t));
    if (!w1 || !wt)
        check(CUZK_ERR_OUT_OF_MEMORY, "witness buffers");
    /* touched once, as the engine's pooled buffers are: page faults are
     * not what is measured */
    memset(w1, 0, n * sizeof(fr_t));
    memset(wt, 0, n * sizeof(fr_t));
    r1cs_t ref = {0}, sys = {0};
    double base_w, base_s, w_ms, s_ms;
    measure(p, seed, runs, 1, w1, n, &ref, tw, ts, &base_w, &base_s);
    for (int i = 0; i < nthreads; i++) {
        unsigned t = threads[i];
        if (t == 1)
            w_ms = base_w, s_ms = base_s;
        else
            measure(p, seed, runs, t, wt, n, &sys, tw, ts, &w_ms, &s_ms);
        bool w_same = t == 1 || memcmp(wt, w1, n * sizeof(fr_t)) == 0;
        bool s_same = t == 1 || same_system(&sys, &ref);
        printf("{\"bench\":\"circuit_parallel\",\"log_constraints\":%d,\"constraints\":%llu,"
               "\"challenges\":%u,\"parents\":%u,\"threads\":%u,\"cpus\":%u,"
               "\"witness_ms\":%.2f,\"shape_ms\":%.2f,\"witness_speedup\":%.2f,"
               "\"shape_speedup\":%.2f,\"witness_identical\":%s,\"shape_identical\":%s,"
               "\"runs\":%d,\"commit\":\"%s\"}\n",
               k, (unsigned long long)cons, p->challenges, p->parents, t, parallel_cpu_count(),
               w_ms, s_ms, base_w / w_ms, base_s / s_ms, w_same ? "true" : "false",
               s_same ? "true" : "false", runs, CUZK_GIT_COMMIT);
        fflush(stdout);
        if (!w_same || !s_same) {
            fprintf(stderr, "bench_circuit: 2^%d on %u threads differs from one thread\n", k, t);
            exit(1);
        }
    }
    r1cs_free(&ref), r1cs_free(&sys);
    free(w1), free(wt);
}

/* "1,2,4" into threads[]; false on anything else. */
static bool parse_threads(const char *s, unsigned *threads, int *n)
{
    *n = 0;
    while (*s) {
        char *end;
        unsigned long t = strtoul(s, &end, 10);
        if (end == s || t < 1 || t > 4096 || *n == MAX_THREAD_COUNTS)
            return false;
        threads[(*n)++] = (unsigned)t;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return *n > 0;
}

int main(int argc, char **argv)
{
    int min_log = 12, max_log = 18, runs = 1, nthreads = 0;
    unsigned arity = 2, threads[MAX_THREAD_COUNTS];
    uint64_t seed = 1;
    bool parallel_only = false;
    for (unsigned t = 1; t <= 8 && t <= parallel_cpu_count(); t *= 2)
        threads[nthreads++] = t;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--min-log") == 0)
            min_log = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--max-log") == 0)
            max_log = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--arity") == 0)
            arity = (unsigned)atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)
            seed = strtoull(argv[++i], NULL, 0);
        else if (i + 1 < argc && strcmp(argv[i], "--threads") == 0) {
            if (!parse_threads(argv[++i], threads, &nthreads)) {
                fprintf(stderr, "bench_circuit: --threads %s: want up to %d counts like 1,2,4\n",
                        argv[i], MAX_THREAD_COUNTS);
                return 2;
            }
        } else if (strcmp(argv[i], "--parallel-only") == 0)
            parallel_only = true;
        else {
            fprintf(stderr,
                    "usage: %s [--min-log L] [--max-log L] [--arity 2|8] [--runs N] [--seed S] "
                    "[--threads T1,T2,..] [--parallel-only]\n",
                    argv[0]);
            return 2;
        }
    }
    if (min_log < 10 || max_log > 27 || min_log > max_log || runs < 1 || runs > 1000 ||
        (arity != 2 && arity != 8)) {
        fprintf(stderr, "bench_circuit: sizes 2^10..2^27, arity 2 or 8, runs 1..1000\n");
        return 2;
    }
    double *t_full = malloc((size_t)runs * sizeof(double));
    double *t_shape = malloc((size_t)runs * sizeof(double));
    double *t_wit = malloc((size_t)runs * sizeof(double));
    if (!t_full || !t_shape || !t_wit)
        return 1;
    for (int k = min_log; k <= max_log; k++) {
        porep_like_params p;
        check(porep_like_params_for_constraints(&p, (size_t)k, arity), "parameters");
        if (parallel_only) {
            bench_parallel_paths(k, &p, seed, runs, threads, nthreads, t_wit, t_shape);
            continue;
        }
        r1cs_builder *b = NULL;
        for (int r = 0; r < runs; r++) {
            r1cs_builder *keep = NULL;
            t_full[r] = synth_once(&p, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES, seed, &keep);
            if (b)
                r1cs_builder_free(keep);
            else
                b = keep;
            t_shape[r] = synth_once(&p, R1CS_BUILD_SHAPE, seed, NULL);
            t_wit[r] = synth_once(&p, R1CS_BUILD_VALUES, seed, NULL);
        }
        r1cs_t sys;
        fr_t *w;
        uint64_t n;
        uint64_t t0 = bench_now_ns();
        check(gcs_compile_with_witness(b, &sys, &w, &n, 1), "compile");
        double compile_ms = (double)(bench_now_ns() - t0) / 1e6;
        uint64_t bad;
        if (!r1cs_is_satisfied(&sys, w, &bad, 0)) {
            fprintf(stderr, "bench_circuit: 2^%d: the witness does not satisfy row %llu\n", k,
                    (unsigned long long)bad);
            return 1;
        }
        r1cs_value_counts vc;
        r1cs_witness_classify(NULL, &vc, w, (size_t)n, 0);
        r1cs_density_t dens;
        check(r1cs_density(&dens, &sys, 0), "density");
        double a_aux = (double)dens.a_aux_count / (double)sys.num_aux;
        double b_aux = (double)dens.b_aux_count / (double)sys.num_aux;
        r1cs_density_free(&dens);
        double full_ms = median(t_full, runs), shape_ms = median(t_shape, runs);
        double wit_ms = median(t_wit, runs);
        double rows = (double)sys.num_constraints;
        printf("{\"bench\":\"circuit_synthesis\",\"log_constraints\":%d,\"constraints\":%llu,"
               "\"aux\":%llu,\"inputs\":%llu,\"challenges\":%u,\"depth\":%u,\"arity\":%u,"
               "\"parents\":%u,\"sha_label\":%s,\"nnz_a\":%llu,\"nnz_b\":%llu,\"nnz_c\":%llu,"
               "\"nnz_per_row_a\":%.3f,\"nnz_per_row_b\":%.3f,\"nnz_per_row_c\":%.3f,"
               "\"a_aux_density\":%.4f,\"b_aux_density\":%.4f,"
               "\"frac_01_witness\":%.4f,\"synth_ms\":%.2f,\"shape_ms\":%.2f,\"witness_ms\":%.2f,"
               "\"compile_ms\":%.2f,\"constraints_per_s\":%.0f,\"witness_constraints_per_s\":%.0f,"
               "\"runs\":%d,\"commit\":\"%s\"}\n",
               k, (unsigned long long)sys.num_constraints, (unsigned long long)sys.num_aux,
               (unsigned long long)sys.num_inputs, p.challenges, p.depth, p.arity, p.parents,
               p.sha_label ? "true" : "false", (unsigned long long)sys.a.nnz,
               (unsigned long long)sys.b.nnz, (unsigned long long)sys.c.nnz,
               (double)sys.a.nnz / rows, (double)sys.b.nnz / rows, (double)sys.c.nnz / rows, a_aux,
               b_aux, (double)(vc.zero + vc.one) / (double)n, full_ms, shape_ms, wit_ms, compile_ms,
               rows / (full_ms / 1e3), rows / (wit_ms / 1e3), runs, CUZK_GIT_COMMIT);
        fflush(stdout);
        free(w);
        r1cs_free(&sys);
        r1cs_builder_free(b);
        bench_parallel_paths(k, &p, seed, runs, threads, nthreads, t_wit, t_shape);
    }
    free(t_full), free(t_shape), free(t_wit);
    return 0;
}
