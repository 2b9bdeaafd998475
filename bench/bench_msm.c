/* CPU MSM timings, one JSON line per (group, kind, size, thread count).
 *
 * Usage: bench_msm [g1|g2|all|bn254_g1] [LOG_MIN [LOG_MAX]] [--threads T[,T...]]
 *                  [--runs R] [--kind random|01|split[,...]] [--window C]
 *                  [--buckets auto|xyzz|affine] [--batch B] [--endo auto|on|off]
 * Defaults: both groups of BLS12-381, G1 at 2^12 .. 2^16 and G2 at 2^10 ..
 * 2^14; bn254_g1 times BN254's G1 alone, at G1's sizes (sizes given on the
 * command line apply to the groups named); threads 1 and all
 * CPUs; every kind; 5 runs up to 2^14 points, 3 above, after one warm-up.
 * Kinds:
 *   random  msm_g1 / msm_g2, scalars uniform in [0, r);
 *   01      msm_*_split, scalars 0 or 1 (half each);
 *   split   msm_*_split, witness-like: 45 % zero, 45 % one, 10 % random.
 * --window C times random scalars through msm_*_raw_window with c = C (to
 * check the window the cost model picks; "c" in the output is the window
 * used by the Pippenger pass). --buckets and --batch time random scalars
 * through msm_*_raw_tuned with that bucket representation and affine batch
 * size (to measure the size at which the affine path pays off and its
 * batch size; "c" stays the window of the automatic choice). --endo forces
 * the endomorphism split of the scalars on or off the same way. Each
 * result is checked: the points have known discrete logs (P_i = [a_i]G), so
 * Σ [k_i]P_i = [Σ k_i·a_i]G. */

#ifndef BG_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msm/bn254_msm.h"
#include "msm/msm.h"
#include "suite.h"
#include "util/parallel.h"

#define BENCH_MAX_THREAD_COUNTS 8
#define BENCH_MAX_RUNS 64

typedef enum bench_kind { BENCH_RANDOM, BENCH_01, BENCH_SPLIT, BENCH_KIND_COUNT } bench_kind;
static const char *const bench_kind_name[BENCH_KIND_COUNT] = {"random", "01", "split"};

typedef struct bench_opts {
    unsigned log_min, log_max, runs, window;
    msm_tuning tuning;
    int tuned;
    unsigned threads[BENCH_MAX_THREAD_COUNTS], nthreads;
    int kinds[BENCH_KIND_COUNT];
} bench_opts;

static int bench_cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void bench_print(const char *group, const char *kind, unsigned lg, unsigned threads,
                        unsigned c, double *ms, unsigned runs)
{
    qsort(ms, runs, sizeof(double), bench_cmp_double);
    double median = runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
    printf("{\"bench\":\"msm_cpu\",\"group\":\"%s\",\"kind\":\"%s\",\"log_n\":%u,"
           "\"threads\":%u,\"c\":%u,\"median_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f,"
           "\"runs\":%u,\"commit\":\"%s\"}\n",
           group, kind, lg, threads, c, median, ms[0], ms[runs - 1], runs, CUZK_GIT_COMMIT);
    fflush(stdout);
}

#define BG_(name) g1_##name
#define BM_(suffix) msm_g1##suffix
#define BG_GEN G1_GENERATOR
#define BG_NAME "g1"
#define BS_(name) fr_##name
#define BS_T fr_t
#define BS_ONE FR_ONE
#define BS_ZERO FR_ZERO
#include "bench_msm.c"
#undef BG_
#undef BM_
#undef BG_GEN
#undef BG_NAME

#define BG_(name) g2_##name
#define BM_(suffix) msm_g2##suffix
#define BG_GEN G2_GENERATOR
#define BG_NAME "g2"
#include "bench_msm.c"
#undef BG_
#undef BM_
#undef BG_GEN
#undef BG_NAME
#undef BS_
#undef BS_T
#undef BS_ONE
#undef BS_ZERO

#define BG_(name) bn254_g1_##name
#define BM_(suffix) bn254_msm_g1##suffix
#define BG_GEN BN254_G1_GENERATOR
#define BG_NAME "bn254_g1"
#define BS_(name) bn254_fr_##name
#define BS_T bn254_fr_t
#define BS_ONE BN254_FR_ONE
#define BS_ZERO BN254_FR_ZERO
#include "bench_msm.c"

static void bench_usage(void)
{
    fprintf(stderr,
            "usage: bench_msm [g1|g2|all|bn254_g1] [LOG_MIN [LOG_MAX]] [--threads T[,T...]] "
            "[--runs R] [--kind random|01|split[,...]] [--window C] "
            "[--buckets auto|xyzz|affine] [--batch B] [--endo auto|on|off]\n");
}

int main(int argc, char **argv)
{
    bench_opts o = {0};
    int do_g1 = 1, do_g2 = 1, do_bn254_g1 = 0, positional = 0, any_kind = 0;
    unsigned log_min = 0, log_max = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            char *p = argv[++i];
            while (*p && o.nthreads < BENCH_MAX_THREAD_COUNTS) {
                o.threads[o.nthreads++] = (unsigned)strtoul(p, &p, 10);
                if (*p == ',')
                    p++;
            }
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            o.runs = (unsigned)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--window") == 0 && i + 1 < argc) {
            o.window = (unsigned)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--buckets") == 0 && i + 1 < argc) {
            const char *b = argv[++i];
            o.tuned = 1;
            if (strcmp(b, "auto") == 0)
                o.tuning.buckets = MSM_BUCKETS_AUTO;
            else if (strcmp(b, "xyzz") == 0)
                o.tuning.buckets = MSM_BUCKETS_XYZZ;
            else if (strcmp(b, "affine") == 0)
                o.tuning.buckets = MSM_BUCKETS_AFFINE;
            else {
                bench_usage();
                return 2;
            }
        } else if (strcmp(argv[i], "--endo") == 0 && i + 1 < argc) {
            const char *e = argv[++i];
            o.tuned = 1;
            if (strcmp(e, "auto") == 0)
                o.tuning.endo = MSM_ENDO_AUTO;
            else if (strcmp(e, "on") == 0)
                o.tuning.endo = MSM_ENDO_ON;
            else if (strcmp(e, "off") == 0)
                o.tuning.endo = MSM_ENDO_OFF;
            else {
                bench_usage();
                return 2;
            }
        } else if (strcmp(argv[i], "--batch") == 0 && i + 1 < argc) {
            o.tuned = 1;
            o.tuning.batch = (unsigned)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc) {
            char *list = argv[++i];
            for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
                int found = 0;
                for (int k = 0; k < BENCH_KIND_COUNT; k++)
                    if (strcmp(tok, bench_kind_name[k]) == 0) {
                        o.kinds[k] = found = any_kind = 1;
                    }
                if (!found) {
                    bench_usage();
                    return 2;
                }
            }
        } else if (strcmp(argv[i], "g1") == 0 || strcmp(argv[i], "g2") == 0 ||
                   strcmp(argv[i], "all") == 0) {
            do_g1 = argv[i][1] != '2';
            do_g2 = argv[i][1] != '1';
            do_bn254_g1 = 0;
        } else if (strcmp(argv[i], "bn254_g1") == 0) {
            do_g1 = do_g2 = 0;
            do_bn254_g1 = 1;
        } else if (argv[i][0] != '-' && positional < 2) {
            unsigned v = (unsigned)strtoul(argv[i], NULL, 10);
            if (positional++ == 0)
                log_min = log_max = v;
            else
                log_max = v;
        } else {
            bench_usage();
            return 2;
        }
    }
    if (!any_kind)
        for (int k = 0; k < BENCH_KIND_COUNT; k++)
            o.kinds[k] = 1;
    if (o.nthreads == 0) {
        o.threads[o.nthreads++] = 1;
        if (parallel_cpu_count() > 1)
            o.threads[o.nthreads++] = parallel_cpu_count();
    }
    if (log_min > log_max || log_max > 26 || o.runs > BENCH_MAX_RUNS ||
        (o.window && (o.window < 4 || o.window > 20))) {
        bench_usage();
        return 2;
    }
    int status = 0;
    if (do_g1) {
        o.log_min = positional ? log_min : 12;
        o.log_max = positional ? log_max : 16;
        status |= g1_bench(&o);
    }
    if (do_g2) {
        o.log_min = positional ? log_min : 10;
        o.log_max = positional ? log_max : 14;
        status |= g2_bench(&o);
    }
    if (do_bn254_g1) {
        o.log_min = positional ? log_min : 12;
        o.log_max = positional ? log_max : 16;
        status |= bn254_g1_bench(&o);
    }
    return status;
}

#else /* ------------------------------------------- one group (BG_, BM_) */

static void BG_(bench_scalars)(BS_T *k, size_t n, bench_kind kind, rng_t *rng)
{
    for (size_t i = 0; i < n; i++) {
        unsigned x = (unsigned)(rng_u64(rng) % 100);
        if (kind == BENCH_RANDOM || (kind == BENCH_SPLIT && x >= 90))
            BS_(random)(&k[i], rng);
        else
            k[i] = (x % 2) ? BS_ONE : BS_ZERO;
    }
}

/* 2^log_max points a chain of additions apart, with their discrete logs. */
static int BG_(bench_points)(BG_(affine_t) * p, BS_T *a, size_t n, rng_t *rng)
{
    BG_(jac_t) *j = malloc(sizeof(BG_(jac_t)) * n);
    if (!j)
        return 1;
    BG_(jac_t) g, step[8], acc;
    BS_T b[8], x;
    uint64_t raw[4];
    BG_(jac_from_affine)(&g, &BG_GEN);
    for (int i = 0; i < 8; i++) {
        BS_(random)(&b[i], rng);
        BS_(to_raw)(raw, &b[i]);
        BG_(jac_mul_var)(&step[i], &g, raw);
    }
    BS_(random)(&x, rng);
    BS_(to_raw)(raw, &x);
    BG_(jac_mul_var)(&acc, &g, raw);
    for (size_t i = 0; i < n; i++) {
        j[i] = acc;
        a[i] = x;
        BG_(jac_add_var)(&acc, &acc, &step[i % 8]);
        BS_(add)(&x, &x, &b[i % 8]);
    }
    BG_(jac_batch_to_affine)(p, j, n);
    free(j);
    return 0;
}

static int BG_(bench_check)(const BG_(jac_t) * got, const BS_T *a, const BS_T *k, size_t n)
{
    BS_T s = BS_ZERO, t;
    for (size_t i = 0; i < n; i++) {
        BS_(mul)(&t, &k[i], &a[i]);
        BS_(add)(&s, &s, &t);
    }
    uint64_t raw[4];
    BG_(jac_t) g, want;
    BS_(to_raw)(raw, &s);
    BG_(jac_from_affine)(&g, &BG_GEN);
    BG_(jac_mul_var)(&want, &g, raw);
    return BG_(jac_eq)(got, &want) ? 0 : 1;
}

static int BG_(bench)(const bench_opts *o)
{
    size_t nmax = (size_t)1 << o->log_max;
    BG_(affine_t) *p = malloc(sizeof(BG_(affine_t)) * nmax);
    BS_T *a = malloc(sizeof(BS_T) * nmax), *k = malloc(sizeof(BS_T) * nmax);
    uint64_t(*raw)[4] = malloc(sizeof(uint64_t[4]) * nmax);
    rng_t rng;
    rng_seed(&rng, 0x6d736dU);
    if (!p || !a || !k || !raw || BG_(bench_points)(p, a, nmax, &rng)) {
        fprintf(stderr, "bench_msm: out of memory\n");
        return 1;
    }
    int status = 0;
    for (unsigned lg = o->log_min; lg <= o->log_max; lg++) {
        size_t n = (size_t)1 << lg;
        unsigned runs = o->runs ? o->runs : (lg <= 14 ? 5 : 3);
        for (int kind = 0; kind < BENCH_KIND_COUNT; kind++) {
            if (!o->kinds[kind] || ((o->window || o->tuned) && kind != BENCH_RANDOM))
                continue;
            BG_(bench_scalars)(k, n, (bench_kind)kind, &rng);
            size_t others = 0;
            for (size_t i = 0; i < n; i++) {
                BS_(to_raw)(raw[i], &k[i]);
                others += !BS_(is_zero)(&k[i]) && !BS_(is_one)(&k[i]);
            }
            for (unsigned ti = 0; ti < o->nthreads; ti++) {
                unsigned t = parallel_threads(o->threads[ti]);
                double ms[BENCH_MAX_RUNS];
                for (unsigned r = 0; r <= runs; r++) { /* run 0 warms up */
                    BG_(jac_t) out;
                    cuzk_status st;
                    uint64_t t0 = bench_now_ns();
                    if (o->tuned) {
                        msm_tuning tuning = o->tuning;
                        tuning.window = o->window;
                        st = BM_(_raw_tuned)(&out, p, (const uint64_t(*)[4])raw, n, t, &tuning);
                    } else if (o->window)
                        st = BM_(_raw_window)(&out, p, (const uint64_t(*)[4])raw, n, t, o->window);
                    else if (kind == BENCH_RANDOM)
                        st = BM_()(&out, p, k, n, t);
                    else
                        st = BM_(_split)(&out, p, k, n, t);
                    uint64_t t1 = bench_now_ns();
                    if (r > 0)
                        ms[r - 1] = (double)(t1 - t0) / 1e6;
                    else if (st != CUZK_OK || BG_(bench_check)(&out, a, k, n)) {
                        fprintf(stderr, "bench_msm: %s %s 2^%u: wrong result\n", BG_NAME,
                                bench_kind_name[kind], lg);
                        status = 1;
                    }
                }
                unsigned c = o->window ? o->window : BM_(_window_bits)(others ? others : 1, t);
                if (kind == BENCH_RANDOM && !o->window)
                    c = BM_(_window_bits)(n, t);
                bench_print(BG_NAME, bench_kind_name[kind], lg, t, c, ms, runs);
            }
        }
    }
    free(p);
    free(a);
    free(k);
    free(raw);
    return status;
}

#endif
