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
 * Usage: bench_circuit [--min-log L] [--max-log L] [--arity 2|8] [--runs N]
 *                      [--seed S]     (defaults 12..18, arity 2, 1 run) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/porep_like.h"
#include "gadgets/cs.h"
#include "r1cs/density.h"
#include "r1cs/witness.h"
#include "suite.h"

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

int main(int argc, char **argv)
{
    int min_log = 12, max_log = 18, runs = 1;
    unsigned arity = 2;
    uint64_t seed = 1;
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
        else {
            fprintf(stderr,
                    "usage: %s [--min-log L] [--max-log L] [--arity 2|8] [--runs N] [--seed S]\n",
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
    }
    free(t_full), free(t_shape), free(t_wit);
    return 0;
}
