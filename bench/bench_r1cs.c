/* R1CS benchmarks on a synthetic system shaped like a PoRep partition
 * (ANCHORS.md): nonzeros per row A 2.4, B 1.0, C 2.2; columns near the
 * row's own variables, as synthesis allocates them; coefficients mostly 1,
 * some -1 and powers of two; 90 % of witness values 0 or 1.
 *
 * Prints JSON lines: r1cs_eval (a, b, c together) per thread count,
 * r1cs_density, r1cs_classify, r1cs_file_write / r1cs_file_read with MB/s.
 *
 * Usage: bench_r1cs [--min-log L] [--max-log L] [--runs N] [--threads T]
 *   rows 2^min-log .. 2^max-log (default 16..20); T = 0: 1 and all CPUs. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "r1cs/density.h"
#include "r1cs/file.h"
#include "r1cs/r1cs.h"
#include "r1cs/witness.h"
#include "suite.h"
#include "util/parallel.h"

static rng_t rng;

static uint64_t rnd(uint64_t n)
{
    return rng_u64(&rng) % n;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "bench_r1cs: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

/* Row i's terms: distinct columns near variable i (plus an occasional far
 * one), sorted, written at col[k..]. Returns the count. */
static unsigned gen_row(uint32_t *col, uint16_t *coeff, unsigned n, uint64_t i, uint64_t nv,
                        unsigned num_pow2)
{
    unsigned got = 0;
    while (got < n) {
        uint64_t c = rnd(10) == 0 ? rnd(nv) : (i + nv - rnd(64)) % nv;
        bool dup = false;
        for (unsigned j = 0; j < got; j++)
            dup |= col[j] == c;
        if (dup)
            continue;
        unsigned j = got++;
        for (; j > 0 && col[j - 1] > c; j--)
            col[j] = col[j - 1];
        col[j] = (uint32_t)c;
    }
    for (unsigned j = 0; j < n; j++) {
        uint64_t k = rnd(100);
        coeff[j] = k < 85   ? R1CS_COEFF_ONE
                   : k < 90 ? R1CS_COEFF_MINUS_ONE
                            : (uint16_t)(2 + rnd(num_pow2));
    }
    return n;
}

static void gen_system(r1cs_t *r, uint64_t rows)
{
    memset(r, 0, sizeof(*r));
    r->num_constraints = rows;
    r->num_inputs = 329; /* ONE + PoRep's 328 public inputs */
    r->num_aux = rows > r->num_inputs ? rows - r->num_inputs + rows / 1000 : 1;
    uint64_t nv = r1cs_num_vars(r);
    enum { POW2 = 253 }; /* 2^1 .. 2^253: packing bits into field elements */
    r->coeff_width = 2;
    r->num_coeffs = 2 + POW2;
    r->coeffs = xmalloc(r->num_coeffs * sizeof(fr_t));
    r->coeffs[0] = FR_ONE;
    fr_neg(&r->coeffs[1], &FR_ONE);
    fr_from_u64(&r->coeffs[2], 2);
    for (unsigned k = 3; k < r->num_coeffs; k++)
        fr_add(&r->coeffs[k], &r->coeffs[k - 1], &r->coeffs[k - 1]);
    /* tenths of a nonzero per row: A 2.4, B 1.0, C 2.2 */
    static const unsigned base[3] = {2, 1, 2}, extra_tenths[3] = {4, 0, 2};
    r1cs_matrix *ms[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3; k++) {
        r1cs_matrix *m = ms[k];
        uint64_t cap = rows * (base[k] + 1);
        m->row_ptr = xmalloc((rows + 1) * sizeof(uint64_t));
        m->col = xmalloc(cap * sizeof(uint32_t));
        m->coeff = xmalloc(cap * sizeof(uint16_t));
        m->row_ptr[0] = 0;
        uint64_t nnz = 0;
        for (uint64_t i = 0; i < rows; i++) {
            unsigned n = base[k] + (rnd(10) < extra_tenths[k]);
            nnz += gen_row(m->col + nnz, (uint16_t *)m->coeff + nnz, n, i, nv, POW2);
            m->row_ptr[i + 1] = nnz;
        }
        m->nnz = nnz;
    }
}

static void gen_witness(fr_t *w, uint64_t n)
{
    w[0] = FR_ONE;
    for (uint64_t i = 1; i < n; i++) {
        uint64_t k = rnd(100);
        if (k < 45)
            w[i] = FR_ZERO;
        else if (k < 90)
            w[i] = FR_ONE;
        else
            fr_random(&w[i], &rng);
    }
}

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

static double ms_since(uint64_t t0)
{
    return (double)(bench_now_ns() - t0) / 1e6;
}

int main(int argc, char **argv)
{
    int min_log = 16, max_log = 20, runs = 5;
    unsigned threads_arg = 0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--min-log") == 0)
            min_log = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--max-log") == 0)
            max_log = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--threads") == 0)
            threads_arg = (unsigned)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--min-log L] [--max-log L] [--runs N] [--threads T]\n",
                    argv[0]);
            return 2;
        }
    }
    if (min_log < 4 || max_log > 30 || min_log > max_log || runs < 1 || runs > 1000) {
        fprintf(stderr, "bench_r1cs: sizes 2^4..2^30, runs 1..1000\n");
        return 2;
    }
    rng_seed(&rng, 20261129);
    unsigned all = parallel_cpu_count();
    unsigned thread_set[2] = {1, all};
    int nsets = all > 1 ? 2 : 1;
    if (threads_arg) {
        thread_set[0] = threads_arg;
        nsets = 1;
    }
    double *t = xmalloc((size_t)runs * sizeof(double));
    int status = 0;
    for (int lg = min_log; lg <= max_log; lg++) {
        uint64_t rows = 1ull << lg;
        r1cs_t r;
        gen_system(&r, rows);
        uint64_t nv = r1cs_num_vars(&r);
        fr_t *w = xmalloc(nv * sizeof(fr_t));
        gen_witness(w, nv);
        fr_t *a = xmalloc(rows * sizeof(fr_t)), *b = xmalloc(rows * sizeof(fr_t)),
             *c = xmalloc(rows * sizeof(fr_t));
        char msg[256];
        if (r1cs_validate(&r, 0, msg, sizeof(msg)) != CUZK_OK) {
            fprintf(stderr, "bench_r1cs: generated system invalid: %s\n", msg);
            return 1;
        }
        uint64_t nnz = r.a.nnz + r.b.nnz + r.c.nnz;
        for (int s = 0; s < nsets; s++) {
            r1cs_eval(&r, w, a, b, c, thread_set[s]); /* warm-up: page in a, b, c */
            for (int i = 0; i < runs; i++) {
                uint64_t t0 = bench_now_ns();
                r1cs_eval(&r, w, a, b, c, thread_set[s]);
                t[i] = ms_since(t0);
            }
            double med = median(t, runs);
            printf("{\"bench\":\"r1cs_eval\",\"rows\":%llu,\"nnz\":%llu,\"threads\":%u,"
                   "\"median_ms\":%.3f,\"ns_per_nnz\":%.2f,\"runs\":%d,\"commit\":\"%s\"}\n",
                   (unsigned long long)rows, (unsigned long long)nnz, thread_set[s], med,
                   med * 1e6 / (double)nnz, runs, CUZK_GIT_COMMIT);
            fflush(stdout);
        }
        unsigned tmax = thread_set[nsets - 1];
        for (int i = 0; i < runs; i++) {
            r1cs_density_t d;
            uint64_t t0 = bench_now_ns();
            if (r1cs_density(&d, &r, tmax) != CUZK_OK)
                return 1;
            t[i] = ms_since(t0);
            r1cs_density_free(&d);
        }
        printf("{\"bench\":\"r1cs_density\",\"rows\":%llu,\"threads\":%u,\"median_ms\":%.3f,"
               "\"runs\":%d,\"commit\":\"%s\"}\n",
               (unsigned long long)rows, tmax, median(t, runs), runs, CUZK_GIT_COMMIT);
        uint8_t *cls = xmalloc(nv);
        for (int i = 0; i < runs; i++) {
            r1cs_value_counts counts;
            uint64_t t0 = bench_now_ns();
            r1cs_witness_classify(cls, &counts, w, nv, tmax);
            t[i] = ms_since(t0);
        }
        free(cls);
        printf("{\"bench\":\"r1cs_classify\",\"vars\":%llu,\"threads\":%u,\"median_ms\":%.3f,"
               "\"runs\":%d,\"commit\":\"%s\"}\n",
               (unsigned long long)nv, tmax, median(t, runs), runs, CUZK_GIT_COMMIT);

        /* File: written with fsync (so the time includes reaching the disk),
         * read back from the page cache (the restart case: a file written or
         * read recently). Read includes full validation. */
        char path[64];
        snprintf(path, sizeof(path), "/tmp/bench_r1cs_%d.r1cs", (int)getpid());
        double wt[3], rt[3];
        int fruns = runs < 3 ? runs : 3;
        long bytes = 0;
        for (int i = 0; i < fruns && status == 0; i++) {
            uint64_t t0 = bench_now_ns();
            if (r1cs_save(&r, path, msg, sizeof(msg)) != CUZK_OK) {
                fprintf(stderr, "bench_r1cs: %s\n", msg);
                status = 1;
                break;
            }
            wt[i] = ms_since(t0);
            r1cs_t back;
            t0 = bench_now_ns();
            if (r1cs_load(&back, path, tmax, msg, sizeof(msg)) != CUZK_OK) {
                fprintf(stderr, "bench_r1cs: %s\n", msg);
                status = 1;
                break;
            }
            rt[i] = ms_since(t0);
            if (back.a.nnz != r.a.nnz || back.c.col[back.c.nnz - 1] != r.c.col[r.c.nnz - 1]) {
                fprintf(stderr, "bench_r1cs: the file did not round-trip\n");
                status = 1;
            }
            r1cs_free(&back);
            FILE *f = fopen(path, "rb");
            if (f) {
                fseek(f, 0, SEEK_END);
                bytes = ftell(f);
                fclose(f);
            }
        }
        remove(path);
        if (status == 0) {
            double wm = median(wt, fruns), rm = median(rt, fruns);
            printf("{\"bench\":\"r1cs_file_write\",\"rows\":%llu,\"bytes\":%ld,\"median_ms\":%.3f,"
                   "\"mb_per_s\":%.1f,\"runs\":%d,\"commit\":\"%s\"}\n",
                   (unsigned long long)rows, bytes, wm, (double)bytes / 1e3 / wm, fruns,
                   CUZK_GIT_COMMIT);
            printf("{\"bench\":\"r1cs_file_read\",\"rows\":%llu,\"bytes\":%ld,\"threads\":%u,"
                   "\"median_ms\":%.3f,\"mb_per_s\":%.1f,\"runs\":%d,\"commit\":\"%s\"}\n",
                   (unsigned long long)rows, bytes, tmax, rm, (double)bytes / 1e3 / rm, fruns,
                   CUZK_GIT_COMMIT);
        }
        fflush(stdout);
        free(a);
        free(b);
        free(c);
        free(w);
        r1cs_free(&r);
        if (status)
            break;
    }
    free(t);
    return status;
}
