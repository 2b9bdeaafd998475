/* cuzk verify: dispatches on the arguments' shape. */
#include <stdio.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/commands.h"

static void verify_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk verify [options] verification_key.json public.json proof.json\n"
            "       cuzk verify --builtin [--log-constraints K] [--arity 2|8] [--params FILE]\n"
            "                   [--seed S] proofs.bin\n"
            "  The first form verifies a snarkjs Groth16 proof (BLS12-381), in snarkjs's\n"
            "  argument order. The second verifies the partition proofs of the built-in\n"
            "  circuit (public inputs from seed S + i) in one batch. Prints OK or INVALID.\n"
            "exit codes: 0 valid, 1 invalid, 2 usage, 3 bad input file\n");
}

static int verify_builtin(int argc, char **argv)
{
    builtin_opts o;
    builtin_opts_init(&o, 16);
    const char *proof_path = NULL;
    for (int i = 1; i < argc;) {
        int r = builtin_option(argc, argv, &i, &o);
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (r > 0)
            continue;
        if (argv[i][0] == '-' || proof_path) {
            cli_error("verify: unexpected argument '%s'", argv[i]);
            return CLI_EXIT_USAGE;
        }
        proof_path = argv[i++];
    }
    if (!proof_path) {
        verify_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    return cli_verify_builtin(&o, proof_path);
}

int cli_verify(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--builtin"))
            return verify_builtin(argc, argv);
    cli_options opt = {.threads = 0, .verify = true, .quiet = false};
    const char *pos[3];
    int rc = cli_file_arguments("verify", argc, argv, &opt, pos, 3, verify_usage);
    if (rc >= 0)
        return rc;
    return cli_verify_snarkjs(pos[0], pos[1], pos[2], &opt);
}
