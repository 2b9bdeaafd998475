/* Development parameters for the built-in circuit, phase by phase, and the
 * load of a bellman file of them: one JSON line per step.
 *
 * Usage: bench_setup_dev LOG_CONSTRAINTS [--threads T] [--no-load] [--no-points]
 *
 * Steps: "shape" (builtin_compile: synthesis and compilation), then the
 * setup's phases (groth16_setup_times: domain and densities, Lagrange
 * basis, column sums, scalars, CPU tables, fixed-base products; on the CPU,
 * rng_seed_chacha(1)), then, unless --no-load, the parameters saved to a
 * temporary file and loaded back (bellman_params_load) with curve checks
 * and with subgroup checks. Also prints the counts (points per query) so
 * the times extrapolate per point. --no-points times everything but the
 * fixed-base products (they are handed to callbacks that write the point
 * at infinity; a GPU makes them in the product), and implies --no-load. */

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "circuits/builtin.h"
#include "formats/bellman_params.h"
#include "groth16/setup.h"
#include "util/parallel.h"
#include "util/rng.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* cpu_s: the process's CPU seconds (all threads), which a shared machine's
 * load does not inflate: cpu_s / cores is the step's time on idle cores
 * when it scales. */
static void line(unsigned log_n, unsigned threads, const char *step, double s, double cpu_s)
{
    printf("{\"bench\":\"setup_dev\",\"log_constraints\":%u,\"threads\":%u,\"step\":\"%s\","
           "\"seconds\":%.3f,\"cpu_s\":%.3f}\n",
           log_n, threads, step, s, cpu_s);
    fflush(stdout);
}

/* Stand-ins for the fixed-base products (--no-points). */
static cuzk_status skip_g1(void *ctx, g1_affine_t *out, const fr_t *scalars, size_t n, char *msg,
                           size_t msg_len)
{
    (void)ctx, (void)scalars, (void)msg, (void)msg_len;
    for (size_t i = 0; i < n; i++)
        g1_affine_set_infinity(&out[i]);
    return CUZK_OK;
}

static cuzk_status skip_g2(void *ctx, g2_affine_t *out, const fr_t *scalars, size_t n, char *msg,
                           size_t msg_len)
{
    (void)ctx, (void)scalars, (void)msg, (void)msg_len;
    for (size_t i = 0; i < n; i++)
        g2_affine_set_infinity(&out[i]);
    return CUZK_OK;
}

static int load(unsigned log_n, unsigned threads, const char *path, formats_check check,
                const char *step)
{
    groth16_params_t p;
    char msg[512] = "";
    double t0 = now(), c0 = cpu_now();
    cuzk_status st = bellman_params_load(&p, path, check, threads, msg, sizeof(msg));
    if (st != CUZK_OK) {
        fprintf(stderr, "bench_setup_dev: loading %s: %s\n", path, msg);
        return 1;
    }
    line(log_n, threads, step, now() - t0, cpu_now() - c0);
    groth16_params_free(&p);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_setup_dev LOG_CONSTRAINTS [--threads T] [--no-load]\n");
        return 2;
    }
    unsigned log_n = (unsigned)atoi(argv[1]), threads = 0;
    int do_load = 1, do_points = 1;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-load"))
            do_load = 0;
        else if (!strcmp(argv[i], "--no-points"))
            do_load = do_points = 0;
        else {
            fprintf(stderr, "bench_setup_dev: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    threads = parallel_threads(threads);
    porep_like_params shape;
    if (porep_like_params_for_constraints(&shape, log_n, 8) != CUZK_OK) {
        fprintf(stderr, "bench_setup_dev: no built-in circuit of 2^%u constraints\n", log_n);
        return 2;
    }
    double t0 = now(), c0 = cpu_now();
    r1cs_t r;
    if (builtin_compile(&r, &shape, threads) != CUZK_OK) {
        fprintf(stderr, "bench_setup_dev: cannot build the circuit\n");
        return 1;
    }
    line(log_n, threads, "shape", now() - t0, cpu_now() - c0);
    printf("{\"bench\":\"setup_dev\",\"log_constraints\":%u,\"constraints\":%llu,"
           "\"vars\":%llu,\"nnz\":%llu}\n",
           log_n, (unsigned long long)r.num_constraints, (unsigned long long)r1cs_num_vars(&r),
           (unsigned long long)(r.a.nnz + r.b.nnz + r.c.nnz));

    rng_t rng;
    rng_seed_chacha(&rng, 1);
    groth16_setup_times tm, tc;
    groth16_fixed_base_ops skip = {.g1 = skip_g1, .g2 = skip_g2};
    groth16_setup_opts so = {
        .threads = threads, .times = &tm, .cpu_times = &tc, .fixed_base = do_points ? NULL : &skip};
    groth16_params_t p;
    t0 = now();
    c0 = cpu_now();
    if (groth16_setup_dev(&p, &r, &rng, &so) != CUZK_OK) {
        fprintf(stderr, "bench_setup_dev: the setup failed\n");
        return 1;
    }
    double total = now() - t0, total_cpu = cpu_now() - c0;
    line(log_n, threads, "domain", tm.domain, tc.domain);
    line(log_n, threads, "lagrange", tm.lagrange, tc.lagrange);
    line(log_n, threads, "columns", tm.columns, tc.columns);
    line(log_n, threads, "scalars", tm.scalars, tc.scalars);
    line(log_n, threads, "tables", tm.tables, tc.tables);
    line(log_n, threads, "points", tm.points, tc.points);
    line(log_n, threads, "setup", total, total_cpu);
    printf("{\"bench\":\"setup_dev\",\"log_constraints\":%u,\"h\":%zu,\"l\":%zu,\"a\":%zu,"
           "\"b_g1\":%zu,\"b_g2\":%zu}\n",
           log_n, p.num_h, p.num_l, p.num_a, p.num_b_g1, p.num_b_g2);
    int rc = 0;
    if (do_load) {
        char path[] = "/tmp/bench-setup-dev-XXXXXX";
        int fd = mkstemp(path);
        char msg[512] = "";
        if (fd < 0 || bellman_params_save(&p, path, msg, sizeof(msg)) != CUZK_OK) {
            fprintf(stderr, "bench_setup_dev: cannot save the parameters: %s\n", msg);
            rc = 1;
        } else {
            rc = load(log_n, threads, path, FORMATS_CHECK_CURVE, "load_curve") ||
                 load(log_n, threads, path, FORMATS_CHECK_SUBGROUP, "load_subgroup");
        }
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
    }
    groth16_params_free(&p);
    r1cs_free(&r);
    return rc;
}
