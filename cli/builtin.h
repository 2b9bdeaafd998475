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
/* Consumes one option of the built-in circuit (or a common one): 1, 0 if it
 * is not one, -1 on a bad value. */
int builtin_option(int argc, char **argv, int *i, builtin_opts *o);
/* Picks the circuit shape and the parameter file; a CLI exit code. */
int builtin_resolve(builtin_opts *o);

/* $CUZK_CACHE_DIR, else $XDG_CACHE_HOME/cuzk, else ~/.cache/cuzk. */
const char *cli_cache_dir(void);
/* mkdir -p: 0, or -1 with errno set. */
int cli_make_dirs(const char *path);

/* cuzk setup for the built-in circuit (cli/setup.c dispatches and prints
 * the help). */
int cli_setup_builtin(int argc, char **argv);
int cli_prove_builtin(builtin_opts *o);
int cli_verify_builtin(builtin_opts *o, const char *proof_path);

int builtin_make_params(const builtin_opts *o, const r1cs_t *r, groth16_params_t *params);
int builtin_load_params(const builtin_opts *o, groth16_params_t *params);
int builtin_compile_circuit(const builtin_opts *o, r1cs_t *r);

#endif
