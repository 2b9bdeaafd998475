/* NTT and Groth16 quotient timings on the CPU, one JSON line per
 * (size, kind, thread count).
 *
 * Usage: bench_ntt [LOG_MIN [LOG_MAX]] [--threads T[,T...]] [--runs R]
 *                  [--order NN|NR|RN|RR]
 * Defaults: sizes 2^16 .. 2^20; threads 1 and all CPUs; runs 7 after one
 * warm-up run up to 2^17, 3 without warm-up above (the buffers are already
 * faulted in by the copies before each run); order NN (the natural-order transform,
 * bit reversal included). "h" is poly_compute_h: seven transforms, three
 * scaling passes, one bit reversal over three n-element vectors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/fr.h"
#include "poly/domain.h"
#include "poly/ntt.h"
#include "poly/quotient.h"
#include "suite.h"
#include "util/parallel.h"

#define BENCH_MAX_THREAD_COUNTS 8
#define BENCH_MAX_RUNS 64

typedef enum bench_kind {
    BENCH_FORWARD,
    BENCH_INVERSE,
    BENCH_COSET_FORWARD,
    BENCH_COSET_INVERSE,
    BENCH_H,
    BENCH_KIND_COUNT
} bench_kind;

static const char *const bench_kind_name[BENCH_KIND_COUNT] = {"forward", "inverse", "coset_forward",
                                                              "coset_inverse", "h"};
static const char *const bench_order_name[] = {"NN", "NR", "RN", "RR"};

static int bench_cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void bench_usage(void)
{
    fprintf(stderr, "usage: bench_ntt [LOG_MIN [LOG_MAX]] [--threads T[,T...]] [--runs R] "
                    "[--order NN|NR|RN|RR]\n");
}

int main(int argc, char **argv)
{
    unsigned log_min = 16, log_max = 20, runs_arg = 0, nthreads = 0;
    unsigned thread_counts[BENCH_MAX_THREAD_COUNTS];
    ntt_order order = NTT_NN;
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            char *p = argv[++i];
            while (*p && nthreads < BENCH_MAX_THREAD_COUNTS) {
                thread_counts[nthreads++] = (unsigned)strtoul(p, &p, 10);
                if (*p == ',')
                    p++;
            }
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs_arg = (unsigned)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--order") == 0 && i + 1 < argc) {
            const char *o = argv[++i];
            int found = 0;
            for (int k = 0; k < 4; k++)
                if (strcmp(o, bench_order_name[k]) == 0) {
                    order = (ntt_order)k;
                    found = 1;
                }
            if (!found) {
                bench_usage();
                return 2;
            }
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
    if (nthreads == 0) {
        thread_counts[nthreads++] = 1;
        if (parallel_cpu_count() > 1)
            thread_counts[nthreads++] = parallel_cpu_count();
    }
    if (log_min > log_max || log_max > 30 || runs_arg > BENCH_MAX_RUNS) {
        bench_usage();
        return 2;
    }

    rng_t rng;
    rng_seed(&rng, 0x6e7474u);
    int status = 0;
    for (unsigned k = log_min; k <= log_max; k++) {
        domain_t d;
        if (domain_init_log(&d, k, DOMAIN_ROOTS_BELLMAN, 0) != CUZK_OK) {
            fprintf(stderr, "bench_ntt: cannot build the 2^%u domain\n", k);
            return 1;
        }
        size_t n = d.n, bytes = n * sizeof(fr_t);
        fr_t *src[3], *buf[3];
        for (int v = 0; v < 3; v++) {
            src[v] = malloc(bytes);
            buf[v] = malloc(bytes);
            if (!src[v] || !buf[v]) {
                fprintf(stderr, "bench_ntt: out of memory at 2^%u\n", k);
                return 1;
            }
        }
        /* a, b random and c = a b: a satisfied system, so h is checked too. */
        for (size_t i = 0; i < n; i++) {
            fr_random(&src[0][i], &rng);
            fr_random(&src[1][i], &rng);
            fr_mul(&src[2][i], &src[0][i], &src[1][i]);
        }
        unsigned runs = runs_arg ? runs_arg : (k <= 17 ? 7 : 3);
        for (unsigned ti = 0; ti < nthreads; ti++) {
            unsigned t = parallel_threads(thread_counts[ti]);
            for (int kind = 0; kind < BENCH_KIND_COUNT; kind++) {
                double ms[BENCH_MAX_RUNS];
                unsigned warm = k <= 17 ? 1 : 0;
                for (unsigned r = 1 - warm; r <= runs; r++) { /* run 0 warms up */
                    for (int v = 0; v < (kind == BENCH_H ? 3 : 1); v++)
                        memcpy(buf[v], src[v], bytes);
                    uint64_t t0 = bench_now_ns();
                    switch ((bench_kind)kind) {
                    case BENCH_FORWARD:
                        ntt_transform(buf[0], &d, order, NTT_FORWARD, NTT_STANDARD, t);
                        break;
                    case BENCH_INVERSE:
                        ntt_transform(buf[0], &d, order, NTT_INVERSE, NTT_STANDARD, t);
                        break;
                    case BENCH_COSET_FORWARD:
                        ntt_transform(buf[0], &d, order, NTT_FORWARD, NTT_COSET, t);
                        break;
                    case BENCH_COSET_INVERSE:
                        ntt_transform(buf[0], &d, order, NTT_INVERSE, NTT_COSET, t);
                        break;
                    case BENCH_H:
                        poly_compute_h(buf[0], buf[1], buf[2], n, &d, POLY_H_COSET_GENERATOR, t);
                        break;
                    case BENCH_KIND_COUNT:
                        break;
                    }
                    uint64_t t1 = bench_now_ns();
                    if (r > 0)
                        ms[r - 1] = (double)(t1 - t0) / 1e6;
                    if (kind == BENCH_H && !poly_h_top_is_zero(buf[0], &d)) {
                        fprintf(stderr, "bench_ntt: h self-check failed at 2^%u\n", k);
                        status = 1;
                    }
                }
                qsort(ms, runs, sizeof(double), bench_cmp_double);
                double median = runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
                printf("{\"bench\":\"ntt\",\"kind\":\"%s\",\"log_n\":%u,\"threads\":%u,"
                       "\"order\":\"%s\",\"median_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f,"
                       "\"runs\":%u,\"commit\":\"%s\"}\n",
                       bench_kind_name[kind], k, t,
                       kind == BENCH_H ? "NN" : bench_order_name[order], median, ms[0],
                       ms[runs - 1], runs, CUZK_GIT_COMMIT);
                fflush(stdout);
            }
        }
        for (int v = 0; v < 3; v++) {
            free(src[v]);
            free(buf[v]);
        }
        domain_free(&d);
    }
    return status;
}
