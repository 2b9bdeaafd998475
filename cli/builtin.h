#ifndef CUZK_CLI_BUILTIN_H
#define CUZK_CLI_BUILTIN_H

/* The built-in circuit's subcommands and the partition prover that `cuzk
 * prove --builtin` and `cuzk bench` share. */

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "circuits/porep_like.h"
#include "cli/commands.h"
#include "groth16/prover.h"
#include "groth16/verifier.h"

typedef struct builtin_opts {
    unsigned log_constraints; /* --log-constraints */
    unsigned arity;           /* --arity: Merkle tree arity, 2 or 8 */
    uint64_t seed;            /* --seed: partition i uses seed + i */
    unsigned partitions;      /* --partitions */
    const char *params_path;  /* --params, or the cache file */
    const char *out_path;     /* --out */
    cli_options common;       /* with --backend, --event-log */
    porep_like_params shape;  /* resolved */
    char name[96];
    char params_buf[4352];
} builtin_opts;

void builtin_opts_init(builtin_opts *o, unsigned default_log);

/* The built-in circuit's options' codes (cli/args.h), after the common
 * ones; a command's own codes start at BUILTIN_OPT_END. */
enum {
    BUILTIN_OPT_BUILTIN = CLI_OPT_COMMON_END,
    BUILTIN_OPT_LOG_CONSTRAINTS,
    BUILTIN_OPT_ARITY,
    BUILTIN_OPT_SEED,
    BUILTIN_OPT_PARTITIONS,
    BUILTIN_OPT_PARAMS,
    BUILTIN_OPT_OUT,
    BUILTIN_OPT_END,
};

/* Their entries of a getopt_long table (CLI_COMMON_OPTIONS beside them). */
#define BUILTIN_OPTIONS                                                                            \
    {"builtin", no_argument, NULL, BUILTIN_OPT_BUILTIN},                                           \
        {"log-constraints", required_argument, NULL, BUILTIN_OPT_LOG_CONSTRAINTS},                 \
        {"arity", required_argument, NULL, BUILTIN_OPT_ARITY},                                     \
        {"seed", required_argument, NULL, BUILTIN_OPT_SEED},                                       \
        {"partitions", required_argument, NULL, BUILTIN_OPT_PARTITIONS},                           \
        {"params", required_argument, NULL, BUILTIN_OPT_PARAMS},                                   \
    {                                                                                              \
        "out", required_argument, NULL, BUILTIN_OPT_OUT                                            \
    }

/* Whether code is one of BUILTIN_OPTIONS (a common option is not). */
static inline bool builtin_option_code(int code)
{
    return code >= BUILTIN_OPT_BUILTIN && code < BUILTIN_OPT_END;
}

/* Takes the value of an option of the built-in circuit or a common one
 * into o: 1, 0 if code is neither, -1 after a message on a bad value. */
int builtin_option(builtin_opts *o, int code, const char *value);
/* Picks the circuit shape and the parameter file; a CLI exit code. */
int builtin_resolve(builtin_opts *o);

/* $CUZK_CACHE_DIR, else $XDG_CACHE_HOME/cuzk, else ~/.cache/cuzk. */
const char *cli_cache_dir(void);
/* mkdir -p: 0, or -1 with errno set. */
int cli_make_dirs(const char *path);

/* cuzk setup for the built-in circuit (cli/setup.c reads the command
 * line and prints the help). */
int cli_setup_builtin(builtin_opts *o);
int cli_prove_builtin(builtin_opts *o);
int cli_verify_builtin(builtin_opts *o, const char *proof_path);

/* The GPU's fixed-base products for a development setup, when
 * common->backend allows them and there is a GPU (*gpu stays NULL
 * otherwise: the CPU's tables); --backend cuda without a GPU is an error.
 * The caller destroys *gpu after the setup. A CLI exit code. */
int cli_fixed_base_open(const cli_options *common, backend_t **gpu, groth16_fixed_base_ops *fb);

int builtin_make_params(const builtin_opts *o, const r1cs_t *r, groth16_params_t *params);
int builtin_load_params(const builtin_opts *o, groth16_params_t *params);
int builtin_compile_circuit(const builtin_opts *o, r1cs_t *r);

#endif
