/* The cuzk command line: one binary, one subcommand per job. */
#include <stdio.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/commands.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: cuzk <command> [options]\n"
                 "\n"
                 "commands:\n"
                 "  setup     development keys (snarkjs .zkey for a circom .r1cs; built-in)\n"
                 "  prove     make Groth16 proofs through the engine, on the GPU when there is\n"
                 "            one (snarkjs .zkey + circom .wtns, or the built-in circuit)\n"
                 "  verify    verify a Groth16 proof (snarkjs verification_key.json)\n"
                 "  bench     the pipelined proving benchmark on the built-in circuit (GPU if\n"
                 "            present, else CPU); --arith benchmarks the arithmetic\n"
                 "  trace     timeline (Perfetto, SVG, HTML) and summary of a timing log\n"
#ifdef CUZK_HAVE_SERVICE
                 "  serve     run the engine behind an HTTP/JSON API (docs/SERVICE.md)\n"
                 "  submit    submit a job to a server; await, status, cancel, jobs,\n"
                 "            circuit and api talk to it too\n"
#endif
                 "  version   print the version and build\n"
                 "\n"
                 "cuzk <command> --help describes a command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("cuzk %s (commit %s)\n", CUZK_VERSION, CUZK_GIT_COMMIT);
        return CLI_EXIT_OK;
    }
    if (!strcmp(cmd, "setup"))
        return cli_setup(argc - 1, argv + 1);
    if (!strcmp(cmd, "prove"))
        return cli_prove(argc - 1, argv + 1);
    if (!strcmp(cmd, "verify"))
        return cli_verify(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench"))
        return cli_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "trace"))
        return cli_trace(argc - 1, argv + 1);
#ifdef CUZK_HAVE_SERVICE
    if (!strcmp(cmd, "serve"))
        return cli_serve(argc - 1, argv + 1);
    if (cli_is_client_command(cmd))
        return cli_client(cmd, argc - 1, argv + 1);
#endif
    fprintf(stderr, "cuzk: unknown command '%s'\n", cmd);
    usage(stderr);
    return CLI_EXIT_USAGE;
}
