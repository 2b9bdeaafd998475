/* cuzk bench: today the BLS12-381 arithmetic benchmark (JSON lines on
 * stdout); it grows into the pipelined proving benchmark on a built-in
 * circuit once the prover exists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "suite.h"

static void bench_usage(FILE *out)
{
    fprintf(out, "usage: cuzk bench [--scale X]\n"
                 "  Benchmarks the BLS12-381 arithmetic (fields, curves, pairing) and prints\n"
                 "  one JSON line per operation: ns_per_op is the median of 5 runs.\n"
                 "  --scale X   multiply the iteration counts by X (default 1: about 30 s)\n");
}

int cli_bench(int argc, char **argv)
{
    double scale = 1.0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            bench_usage(stdout);
            return CLI_EXIT_OK;
        } else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
            char *end;
            scale = strtod(argv[++i], &end);
            if (*end || scale <= 0) {
                fprintf(stderr, "cuzk bench: --scale wants a positive number, got '%s'\n", argv[i]);
                return CLI_EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "cuzk bench: unknown argument '%s'\n", argv[i]);
            bench_usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    fprintf(stderr, "cuzk bench: BLS12-381 arithmetic on %s (one thread)\n", bench_cpu_name());
    return bench_arith_run(stdout, scale) ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}
