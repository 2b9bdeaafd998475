#ifndef CUZK_CLI_COMMANDS_H
#define CUZK_CLI_COMMANDS_H

#include "cli/util.h"

/* Exit codes a script can rely on. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAILURE = 1,   /* the command ran and failed: invalid proof, proving error */
    CLI_EXIT_USAGE = 2,     /* bad command line */
    CLI_EXIT_BAD_INPUT = 3, /* an input file is missing, corrupt or does not fit */
};

/* Each subcommand gets argv starting at its own name. */
int cli_bench(int argc, char **argv);
int cli_prove(int argc, char **argv);
int cli_verify(int argc, char **argv);
int cli_trace(int argc, char **argv);

/* circom / snarkjs files */
int cli_prove_circom(const char *zkey_path, const char *wtns_path, const char *proof_path,
                     const char *public_path, const cli_options *opt);
int cli_verify_snarkjs(const char *vk_path, const char *public_path, const char *proof_path,
                       const cli_options *opt);

#endif
