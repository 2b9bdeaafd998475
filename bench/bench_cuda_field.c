/* Device field multiplication throughput: one JSON line per operation
 * (fp_mul, fp_sqr, fr_mul, fr_sqr, fp2_mul, fp2_sqr), from the median of
 * several timed launches of the dependent-chain kernel (each thread keeps
 * x ← x·y, or x ← x², in registers; field_test.h).
 *
 * Usage: bench_cuda_field [--iters N] [--runs R] [--waves W]
 * Defaults: 1024 operations per thread, 5 runs, 4 × (SMs · 1024) threads.
 * Without CUDA, or without a GPU, prints one line and exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.h"
#include "cuda/field_test.h"
#endif

#ifdef CUZK_HAVE_CUDA

#define BENCH_MAX_RUNS 64

static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

/* The name without characters that would need escaping in JSON. */
static void json_safe(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++)
        if (*r != '"' && *r != '\\' && (unsigned char)*r >= 0x20)
            *w++ = *r;
    *w = 0;
}

static int bench_one(const cuda_device_info *info, const char *name, cuda_field field,
                     cuda_field_op op, size_t n_threads, int iters, int runs)
{
    float ms[BENCH_MAX_RUNS];
    for (int r = 0; r < runs; r++) {
        cuzk_status st = cuda_field_throughput(field, op, n_threads, iters, &ms[r]);
        if (st != CUZK_OK) {
            fprintf(stderr, "bench_cuda_field: %s: %s (%s)\n", name, cuzk_status_str(st),
                    cuda_field_last_error());
            return 1;
        }
    }
    qsort(ms, (size_t)runs, sizeof(float), cmp_float);
    const double med_ms = ms[runs / 2];
    const double ops = (double)n_threads * (double)iters;
    const double per_sec = med_ms > 0 ? ops / (med_ms * 1e-3) : 0.0;
    const double ns_per_sm = per_sec > 0 ? 1e9 * info->sm_count / per_sec : 0.0;
    printf("{\"bench\":\"cuda_field\",\"op\":\"%s\",\"muls_per_sec\":%.4e,"
           "\"ns_per_mul_per_sm\":%.3f,\"ms\":%.3f,\"threads\":%zu,\"iters\":%d,\"runs\":%d,"
           "\"device\":\"%s\",\"sm_count\":%d,\"commit\":\"%s\"}\n",
           name, per_sec, ns_per_sm, med_ms, n_threads, iters, runs, info->name, info->sm_count,
           CUZK_GIT_COMMIT);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    int iters = 1024, runs = 5, waves = 4;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
            iters = atoi(argv[++i]);
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--waves") == 0 && i + 1 < argc)
            waves = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_cuda_field [--iters N] [--runs R] [--waves W]\n");
            return 2;
        }
    }
    if (iters < 1 || runs < 1 || runs > BENCH_MAX_RUNS || waves < 1) {
        fprintf(stderr, "bench_cuda_field: need iters >= 1, 1 <= runs <= %d, waves >= 1\n",
                BENCH_MAX_RUNS);
        return 2;
    }
    const char *why = "unknown reason";
    if (cuda_device_count(&why) == 0) {
        printf("bench_cuda_field: no CUDA device (%s); nothing measured\n", why);
        return 0;
    }
    cuda_device_info info;
    if (cuda_device_query(0, &info) != 0) {
        fprintf(stderr, "bench_cuda_field: cannot query device 0\n");
        return 1;
    }
    json_safe(info.name);
    /* 1024 threads are resident per SM at the chain kernels' register use
     * (<= 64 registers, blocks of 256); several full waves hide the tail. */
    const size_t n_threads = (size_t)info.sm_count * 1024u * (size_t)waves;
    static const struct {
        const char *name;
        cuda_field field;
        cuda_field_op op;
    } cases[] = {
        {"fp_mul", CUDA_FIELD_FP, CUDA_FIELD_MUL},   {"fp_sqr", CUDA_FIELD_FP, CUDA_FIELD_SQR},
        {"fr_mul", CUDA_FIELD_FR, CUDA_FIELD_MUL},   {"fr_sqr", CUDA_FIELD_FR, CUDA_FIELD_SQR},
        {"fp2_mul", CUDA_FIELD_FP2, CUDA_FIELD_MUL}, {"fp2_sqr", CUDA_FIELD_FP2, CUDA_FIELD_SQR},
    };
    int status = 0;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
        status |=
            bench_one(&info, cases[c].name, cases[c].field, cases[c].op, n_threads, iters, runs);
    return status;
}

#else

int main(void)
{
    printf("bench_cuda_field: built without CUDA; nothing measured\n");
    return 0;
}

#endif
