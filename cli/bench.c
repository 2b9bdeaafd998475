/* cuzk bench: the proving benchmark on the built-in storage-proof-shaped
 * circuit (parameters made once and cached, N partitions proved and
 * verified, a per-phase table), or with --arith the BLS12-381 arithmetic
 * micro-benchmarks. JSON lines on stdout, the table on stderr.
 *
 * The partitions run one after another on the backend --backend picks
 * (auto: the GPUs when the build has CUDA and the machine a GPU, else the
 * CPU); the pipelined engine takes this command over as it lands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/commands.h"
#include "suite.h"
#include "util/parallel.h"

#define BENCH_DEFAULT_LOG 19
#define BENCH_DEFAULT_PARTITIONS 16

static void bench_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk bench [--log-constraints K] [--partitions N] [--arity 2|8]\n"
            "                  [--threads T] [--seed S] [--params FILE] [--no-verify]\n"
            "                  [--backend auto|cpu|cuda]\n"
            "       cuzk bench --arith [--scale X]\n"
            "  Proves N partitions (default %d) of the built-in storage-proof-shaped\n"
            "  circuit of about 2^K constraints (default K = %d), verifying each, and prints\n"
            "  a per-phase table (stderr) and JSON lines (stdout). Parameters are made on\n"
            "  the first run and cached in %s.\n"
            "  --arith benchmarks the field, curve and pairing arithmetic instead.\n",
            BENCH_DEFAULT_PARTITIONS, BENCH_DEFAULT_LOG, cli_cache_dir());
}

static int arith(int argc, char **argv)
{
    double scale = 1.0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--arith"))
            continue;
        if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
            char *end;
            scale = strtod(argv[++i], &end);
            if (*end || scale <= 0) {
                cli_error("bench: --scale wants a positive number, got '%s'", argv[i]);
                return CLI_EXIT_USAGE;
            }
        } else {
            cli_error("bench: unknown argument '%s' with --arith", argv[i]);
            return CLI_EXIT_USAGE;
        }
    }
    fprintf(stderr, "cuzk bench: BLS12-381 arithmetic on %s (one thread)\n", bench_cpu_name());
    return bench_arith_run(stdout, scale) ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Rows of the table: witness, the prover's phases, verify, total. */
enum { ROW_WITNESS = 0, ROW_PHASE0 = 1, ROW_VERIFY = ROW_PHASE0 + GROTH16_PHASE_COUNT, ROW_TOTAL,
       ROW_COUNT };

static const char *row_name(int row)
{
    if (row == ROW_WITNESS)
        return "witness";
    if (row == ROW_VERIFY)
        return "verify";
    if (row == ROW_TOTAL)
        return "total";
    return groth16_phase_name((groth16_phase)(row - ROW_PHASE0));
}

int cli_bench(int argc, char **argv)
{
    builtin_opts o;
    builtin_opts_init(&o, BENCH_DEFAULT_LOG);
    o.partitions = BENCH_DEFAULT_PARTITIONS;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--arith"))
            return arith(argc, argv);
    for (int i = 1; i < argc;) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            bench_usage(stdout);
            return CLI_EXIT_OK;
        }
        int r = builtin_option(argc, argv, &i, &o);
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (r == 0) {
            cli_error("bench: unknown argument '%s'", argv[i]);
            bench_usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    int rc = builtin_resolve(&o);
    if (rc != CLI_EXIT_OK)
        return rc;
    unsigned threads = o.common.threads ? o.common.threads : parallel_cpu_count();
    fprintf(stderr, "cuzk bench: %s, %u partitions, %u host threads (%s)\n", o.name,
            o.partitions, threads, bench_cpu_name());

    builtin_prover bp;
    double t_open = cli_now();
    if ((rc = builtin_prover_open(&bp, &o, true)) != CLI_EXIT_OK)
        return rc;
    t_open = cli_now() - t_open;
    fprintf(stderr, "cuzk bench: %s backend%s%s\n", bp.backend->name,
            bp.backend_note[0] ? ": " : "", bp.backend_note);
    fprintf(stderr,
            "cuzk bench: %llu constraints, %llu variables, domain 2^%u; circuit %.2f s, "
            "parameters %.2f s (%s)\n",
            (unsigned long long)bp.r1cs.num_constraints, (unsigned long long)bp.num_vars,
            bp.circuit.domain.log_n, bp.compile_s, bp.params_s,
            bp.made_params ? "made and cached" : "loaded from cache");

    double *rows = calloc((size_t)ROW_COUNT * o.partitions, sizeof(double));
    if (!rows) {
        builtin_prover_close(&bp);
        cli_error("out of memory");
        return CLI_EXIT_FAILURE;
    }
    double wall = cli_now();
    for (unsigned i = 0; i < o.partitions; i++) {
        groth16_proof_t proof;
        builtin_partition_result res;
        if ((rc = builtin_prove_partition(&bp, o.seed + i, &proof, &res)) != CLI_EXIT_OK)
            break;
        double *row = rows + (size_t)i * ROW_COUNT;
        row[ROW_WITNESS] = res.witness_s;
        for (int p = 0; p < GROTH16_PHASE_COUNT; p++)
            row[ROW_PHASE0 + p] = res.phases.seconds[p];
        row[ROW_VERIFY] = res.verify_s;
        row[ROW_TOTAL] = res.witness_s + res.prove_s + res.verify_s;
        printf("{\"bench\":\"prove\",\"circuit\":\"%s\",\"partition\":%u,\"seed\":%llu,"
               "\"witness_s\":%.4f,\"prove_s\":%.4f,\"verify_s\":%.4f,\"verified\":%s}\n",
               o.name, i, (unsigned long long)(o.seed + i), res.witness_s, res.prove_s,
               res.verify_s, o.common.verify ? "true" : "false");
        fflush(stdout);
        fprintf(stderr, "cuzk bench: partition %u/%u: %.3f s\n", i + 1, o.partitions,
                row[ROW_TOTAL]);
    }
    wall = cli_now() - wall;
    if (rc == CLI_EXIT_OK) {
        /* Per-phase medians over the partitions. */
        double med[ROW_COUNT];
        double *col = malloc(sizeof(double) * o.partitions);
        for (int r = 0; r < ROW_COUNT && col; r++) {
            for (unsigned i = 0; i < o.partitions; i++)
                col[i] = rows[(size_t)i * ROW_COUNT + r];
            med[r] = median(col, o.partitions);
        }
        free(col);
        fprintf(stderr, "\n%-10s %12s %8s\n", "phase", "median (s)", "share");
        for (int r = 0; r < ROW_COUNT; r++)
            fprintf(stderr, "%-10s %12.4f %7.1f%%\n", row_name(r), med[r],
                    med[ROW_TOTAL] > 0 ? 100.0 * med[r] / med[ROW_TOTAL] : 0.0);
        double per_hour = wall > 0 ? 3600.0 * o.partitions / wall : 0;
        fprintf(stderr, "%u partitions in %.2f s: %.0f partition proofs per hour\n",
                o.partitions, wall, per_hour);
        printf("{\"bench\":\"prove_summary\",\"circuit\":\"%s\",\"constraints\":%llu,"
               "\"log_domain\":%u,\"partitions\":%u,\"threads\":%u,\"backend\":\"%s\","
               "\"setup_or_load_s\":%.3f,\"wall_s\":%.3f,\"partition_proofs_per_hour\":%.1f",
               o.name, (unsigned long long)bp.r1cs.num_constraints, bp.circuit.domain.log_n,
               o.partitions, threads, bp.backend->name, bp.params_s, wall, per_hour);
        for (int r = 0; r < ROW_COUNT; r++)
            printf(",\"median_%s_s\":%.4f", row_name(r), med[r]);
        printf(",\"cpu\":\"%s\",\"commit\":\"%s\"}\n", bench_cpu_name(), CUZK_GIT_COMMIT);
    }
    free(rows);
    builtin_prover_close(&bp);
    return rc;
}
