#ifndef CUZK_CIRCUITS_CIRCUIT_H
#define CUZK_CIRCUITS_CIRCUIT_H

/* Circuit kinds behind one interface. The engine sees a circuit only
 * through these operations: what it counts (probe, cheap, at
 * registration), what it holds resident (load: the constraint system in
 * its compiled sparse form, the proof plan over the key, the verifying
 * key), and, for kinds that make their own witnesses, the witness of a
 * seed. Every kind's a, b, c come from its compiled constraint system
 * (circuit_eval_abc), and every kind's proof from its plan.
 *
 *   kind      key                         witnesses
 *   builtin   bellman parameters file,    from a seed (the storage-proof-
 *             or "dev:SEED": made at load shaped circuit), or given
 *   zkey      snarkjs .zkey (BLS12-381 or .wtns files or arrays
 *             BN254, from its primes)
 *   external  bellman parameters file,    the caller's assignment and its
 *             counts and density bitmaps  a, b, c (a circuit synthesized
 *             from the caller             elsewhere, e.g. by bellperson) */

#include <stdbool.h>
#include <stdint.h>

#include "circuits/porep_like.h"
#include "cuzk/status.h"
#include "field/fr.h"
#include "curve/curve_id.h"
#include "formats/common.h"
#include "groth16/bn254_groth16.h"
#include "groth16/keys.h"
#include "groth16/plan.h"
#include "groth16/setup.h"
#include "r1cs/r1cs.h"

typedef enum circuit_kind {
    CIRCUIT_BUILTIN = 0, /* the built-in storage-proof-shaped circuit + bellman params file */
    CIRCUIT_ZKEY,        /* a snarkjs .zkey (witnesses come as .wtns files or arrays) */
    CIRCUIT_EXTERNAL,    /* bellman parameters; assignments and a, b, c from the caller */
    CIRCUIT_KIND_COUNT
} circuit_kind;

/* What a caller says about a circuit to register it. */
typedef struct circuit_spec {
    const char *name; /* unique, at most 63 bytes */
    circuit_kind kind;
    porep_like_params shape; /* BUILTIN */
    const char *params_path; /* BUILTIN, EXTERNAL: bellman parameters; BUILTIN also
                                "dev:SEED" (circuit_params_dev) */
    const char *zkey_path;   /* ZKEY */
    /* EXTERNAL: the counts and bellman's density bitmaps (bit i of word
     * i / 64, least significant first): A over the aux variables, B over
     * the inputs (ONE included), B over the aux variables. */
    uint64_t num_inputs, num_aux, num_constraints;
    const uint64_t *a_aux_density, *b_input_density, *b_aux_density;
    formats_check check; /* point checks of the proving key on loading (formats/common.h);
                            a snarkjs key's verifying key always gets the subgroup check */
} circuit_spec;

/* What registration learns without loading. */
typedef struct circuit_counts {
    curve_id curve;          /* from the key file (a zkey's primes); BLS12-381 otherwise */
    uint64_t num_vars;       /* the length of w, ONE included */
    uint64_t num_public;     /* public inputs, ONE excluded */
    uint64_t domain_n;       /* the evaluation domain */
    uint64_t rows;           /* rows of a, b, c (constraints, and bellman's input rows) */
    uint64_t estimate_bytes; /* resident size, before the first load */
} circuit_counts;

/* What a loaded circuit holds; the pointers stay valid until unload. */
typedef struct circuit_loaded {
    curve_id curve;           /* of the plan, the key, and every scalar (field/scalar_slots.h) */
    const r1cs_t *cs;         /* a, b, c evaluate from it; NULL: the caller gives them */
    uint64_t rows;            /* evaluated rows of a, b, c */
    bool c_is_ab;             /* C has no entries: c = a·b row by row (snarkjs keys) */
    const groth16_plan *plan; /* what every backend executes */
    union {
        const groth16_vk_t *vk;             /* BLS12-381 */
        const bn254_groth16_vk_t *bn254_vk; /* BN254 */
    };
    uint64_t bytes; /* host memory it holds */
    void *state;    /* the kind's own */
} circuit_loaded;

/* How to load. */
typedef struct circuit_load_opts {
    unsigned threads; /* 0: all CPUs */
    /* Fixed-base products for development parameters made at load (NULL:
     * on the CPU); the engine passes its backend's (backend.h). */
    const groth16_fixed_base_ops *fixed_base;
} circuit_load_opts;

typedef struct circuit_ops {
    const char *name; /* "builtin", "zkey": for status views */
    /* Counts from the spec and the key file's header; never makes or
     * decodes the key (a "dev:" key's counts come from the shape). */
    cuzk_status (*probe)(const circuit_spec *spec, circuit_counts *out, char *msg, size_t msg_len);
    cuzk_status (*load)(const circuit_spec *spec, const circuit_load_opts *opts,
                        circuit_loaded *out, char *msg, size_t msg_len);
    void (*unload)(circuit_loaded *c);
    /* Optional (NULL: the kind keeps its points): frees the host copy of
     * the query points (H, L, A, B_G1, B_G2; not the verifying key) once
     * every backend that proves the circuit holds its own copy. The plan's
     * point pointers become NULL (any later read faults at once instead of
     * reading freed memory) and c->bytes drops by what was freed. */
    void (*drop_points)(circuit_loaded *c);
    /* Whether every witness must come with its a, b, c (the kind has no
     * constraint system to evaluate them from). */
    bool needs_abc;
    /* The full assignment for a seed, on `threads` threads (0: all CPUs;
     * the witness does not depend on the count); NULL when the kind takes
     * witnesses from its callers only. */
    cuzk_status (*witness_from_seed)(const circuit_spec *spec, uint64_t seed, fr_t *w,
                                     uint64_t num_vars, unsigned threads);
} circuit_ops;

/* The operations of a kind; NULL for a kind outside the enum. */
const circuit_ops *circuit_kind_ops(circuit_kind kind);

/* A copy of spec that owns its strings and bitmaps (name included);
 * circuit_spec_free frees it. */
cuzk_status circuit_spec_copy(circuit_spec *out, const circuit_spec *spec);
void circuit_spec_free(circuit_spec *spec);

/* The key file a spec names (the parameters or the zkey); NULL when its
 * kind's is not given. */
const char *circuit_spec_key_path(const circuit_spec *spec);

/* Development parameters instead of a file: a params path "dev:SEED", SEED
 * a decimal 64-bit integer, makes the built-in circuit's parameters in
 * memory at every load, from a ChaCha20 stream keyed by the seed
 * (rng_seed_chacha), so the same seed gives the same parameters. NOT FOR
 * PRODUCTION: the seed is the toxic waste. (A file whose name starts with
 * "dev:" is named "./dev:...".) */
#define CIRCUIT_DEV_PREFIX "dev:"

/* 0: path is not a "dev:" string (a file); 1: it is, with *seed its seed;
 * -1: it starts with "dev:" but the rest is no seed (msg says why). */
int circuit_params_dev(const char *path, uint64_t *seed, char *msg, size_t msg_len);

/* "builtin", "zkey"; parse returns false for anything else. */
const char *circuit_kind_name(circuit_kind kind);
bool circuit_kind_parse(const char *s, circuit_kind *out);

/* a, b, c (three consecutive domain-sized vectors; rows beyond the
 * system's are left as they are) for w, on `threads` threads, in the
 * circuit's scalar field. */
void circuit_eval_abc(const circuit_loaded *c, const fr_t *w, fr_t *abc, uint64_t domain_n,
                      unsigned threads);

#endif
