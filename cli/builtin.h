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
    backend_kind backend;     /* --backend auto|cpu|cuda */
    cli_options common;
    porep_like_params shape; /* resolved */
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

/* Everything resident for proving partitions of one circuit. */
typedef struct builtin_prover {
    const builtin_opts *opts;
    r1cs_t r1cs;
    groth16_params_t params;
    groth16_circuit_t circuit; /* density and domain, for the counts */
    groth16_pvk_t pvk;
    backend_t *backend;
    void *handle; /* the circuit prepared on the backend */
    char backend_note[256];
    fr_t *w;
    fr_t *abc; /* a, b, c: three domain-sized vectors */
    uint64_t num_vars, num_inputs;
    rng_t rng;
    bool made_params;
    double compile_s, params_s; /* circuit compilation; parameter load or setup */
    double prepare_s;           /* making the parameters resident on the backend */
} builtin_prover;

typedef struct builtin_partition_result {
    double witness_s, prove_s, verify_s;
    groth16_timings phases;
} builtin_partition_result;

/* Compiles the circuit, loads its parameters (making and caching them when
 * missing or stale if make_missing_params), prepares the verifying key. */
int builtin_prover_open(builtin_prover *bp, const builtin_opts *o, bool make_missing_params);
void builtin_prover_close(builtin_prover *bp);
/* Witness from seed, proof, and (unless --no-verify) its verification. */
int builtin_prove_partition(builtin_prover *bp, uint64_t seed, groth16_proof_t *proof,
                            builtin_partition_result *res);

int builtin_make_params(const builtin_opts *o, const r1cs_t *r, groth16_params_t *params);
int builtin_load_params(const builtin_opts *o, groth16_params_t *params);
int builtin_compile_circuit(const builtin_opts *o, r1cs_t *r);

#endif
