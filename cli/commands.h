#ifndef CUZK_CLI_COMMANDS_H
#define CUZK_CLI_COMMANDS_H

#include <stddef.h>

#include "cli/util.h"

/* Exit codes a script can rely on. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAILURE = 1,     /* the command ran and failed: invalid proof, proving error */
    CLI_EXIT_USAGE = 2,       /* bad command line */
    CLI_EXIT_BAD_INPUT = 3,   /* an input file is missing, corrupt or does not fit */
    CLI_EXIT_UNREACHABLE = 4, /* client commands: the server cannot be reached */
    CLI_EXIT_TIMEOUT = 5,     /* cuzk await: the time ran out before the job finished */
};

/* Each subcommand gets argv starting at its own name. */
int cli_setup(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_prove(int argc, char **argv);
int cli_verify(int argc, char **argv);
int cli_trace(int argc, char **argv);

/* The service (cli/serve.c) and its clients (cli/client.c); built with
 * CUZK_SERVICE. */
int cli_serve(int argc, char **argv);
/* submit, await, status, cancel, jobs, circuit, api */
int cli_client(const char *command, int argc, char **argv);
bool cli_is_client_command(const char *command);

/* circom / snarkjs files: one witness and the two files its proof goes to. */
typedef struct cli_proof_files {
    const char *witness;     /* .wtns */
    const char *proof;       /* proof.json */
    const char *public_json; /* public.json */
} cli_proof_files;
/* Proves n witnesses with one key load, through the engine. */
int cli_prove_circom(const char *zkey_path, const cli_proof_files *files, size_t n,
                     const cli_options *opt);
int cli_verify_snarkjs(const char *vk_path, const char *public_path, const char *proof_path,
                       const cli_options *opt);

#endif
