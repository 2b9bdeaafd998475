/* cuzk bench: for now, the arithmetic micro-benchmarks (it grows into the
 * pipelined proving benchmark once the prover exists). */
#include <stdio.h>

#include "cli/commands.h"

int cli_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "cuzk bench: not built yet\n");
    return CLI_EXIT_FAILURE;
}
