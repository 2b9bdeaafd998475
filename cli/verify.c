/* cuzk verify: dispatches on the arguments' shape. */
#include <stdio.h>

#include "cli/args.h"
#include "cli/builtin.h"
#include "cli/commands.h"

static void verify_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk verify [options] verification_key.json public.json proof.json\n"
            "       cuzk verify --builtin [--log-constraints K] [--arity 2|8] [--params FILE]\n"
            "                   [--seed S] proofs.bin\n"
            "  The first form verifies a snarkjs Groth16 proof (BLS12-381 or BN254: the\n"
            "  key's curve), in snarkjs's argument order. The second verifies the\n"
            "  partition proofs of the built-in circuit (public inputs from seed S + i) in\n"
            "  one batch. Prints OK or INVALID.\n"
            "exit codes: 0 valid, 1 invalid, 2 usage, 3 bad input file\n");
}

/* Both forms' options: a word is read alike whichever form it ends in. */
static const struct option verify_options[] = {
    {"help", no_argument, NULL, 'h'},
    CLI_COMMON_OPTIONS,
    BUILTIN_OPTIONS,
    {0},
};

int cli_verify(int argc, char **argv)
{
    bool builtin = cli_args_has(argc, argv, verify_options, BUILTIN_OPT_BUILTIN);
    builtin_opts o; /* o.common: the options of both forms */
    builtin_opts_init(&o, 16);
    const char *pos[3];
    int npos = 0, want = builtin ? 1 : 3;
    cli_args a;
    cli_args_start(&a, "verify", argc, argv, verify_options);
    for (int code; (code = cli_args_next(&a)) != CLI_ARGS_END;) {
        if (code == 'h') {
            verify_usage(stdout);
            return CLI_EXIT_OK;
        }
        if (code == CLI_ARGS_BAD)
            return CLI_EXIT_USAGE;
        if (code == CLI_ARG && npos == want) {
            cli_error("verify: unexpected argument '%s'", a.value);
            verify_usage(stderr);
            return CLI_EXIT_USAGE;
        }
        if (!builtin && builtin_option_code(code)) {
            cli_error("verify: %s goes with --builtin", a.option);
            verify_usage(stderr);
            return CLI_EXIT_USAGE;
        }
        if (code == CLI_ARG)
            pos[npos++] = a.value;
        else if (builtin_option(&o, code, a.value) < 0)
            return CLI_EXIT_USAGE;
    }
    if (npos != want) {
        verify_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (builtin)
        return cli_verify_builtin(&o, pos[0]);
    return cli_verify_snarkjs(pos[0], pos[1], pos[2], &o.common);
}
