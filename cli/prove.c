/* cuzk prove: dispatches on the arguments' shape. */
#include <stdio.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/commands.h"

static void prove_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk prove [options] circuit.zkey witness.wtns proof.json public.json\n"
            "       cuzk prove --builtin [--log-constraints K] [--arity 2|8] [--params FILE]\n"
            "                  [--seed S] [--partitions N] --out proofs.bin [options]\n"
            "  The first form proves with a snarkjs Groth16 key (BLS12-381) and a circom\n"
            "  witness and writes snarkjs's proof.json and public.json. The second proves N\n"
            "  partitions of the built-in circuit (partition i from seed S + i) with\n"
            "  parameters from `cuzk setup` and writes the 192-byte proofs concatenated.\n"
            "  Every proof is verified before it is written.\n"
            "options:\n"
            "  --threads N   CPU threads (default: all)\n"
            "  --no-verify   skip the verification of the new proof\n"
            "  --check-subgroup  check every point of the key for subgroup membership (slow;\n"
            "                by default the verifying key is checked fully, the rest on-curve)\n"
            "  --quiet       no timing line on stderr\n"
            "exit codes: 0 proof written, 1 proving failed, 2 usage, 3 bad input file\n");
}

static int prove_builtin(int argc, char **argv)
{
    builtin_opts o;
    builtin_opts_init(&o, 16);
    for (int i = 1; i < argc;) {
        int r = builtin_option(argc, argv, &i, &o);
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (r == 0) {
            cli_error("prove: unknown argument '%s'", argv[i]);
            prove_usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    return cli_prove_builtin(&o);
}

int cli_prove(int argc, char **argv)
{
    cli_options opt = {.threads = 0, .verify = true, .quiet = false};
    const char *pos[4];
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--builtin"))
            return prove_builtin(argc, argv);
    int rc = cli_file_arguments("prove", argc, argv, &opt, pos, 4, prove_usage);
    if (rc >= 0)
        return rc;
    return cli_prove_circom(pos[0], pos[1], pos[2], pos[3], &opt);
}
