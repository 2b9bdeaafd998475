#ifndef CUZK_GADGETS_CS_H
#define CUZK_GADGETS_CS_H

/* The context gadgets synthesize into: an r1cs_builder plus the mode flags,
 * scratch linear combinations, and counters.
 *
 * Three modes, from the builder's flags:
 *  - SHAPE (with or without VALUES): constraints are recorded;
 *  - VALUES only: gadgets compute witness values and skip building linear
 *    combinations altogether (per proof the compiled matrices exist already,
 *    so this is the fast path of witness generation);
 *  - count only (no builder): neither, just the counters. Used to size a
 *    circuit before synthesizing it (porep_like_params_for_constraints).
 *
 * The structure a gadget emits never depends on witness values, only on
 * which inputs are constants, so the three modes produce the same counts.
 * Errors are the builder's sticky status: check gcs_status() at the end. */

#include <stdbool.h>
#include <stdint.h>

#include "field/fr.h"
#include "r1cs/builder.h"
#include "r1cs/lc.h"
#include "r1cs/r1cs.h"

typedef struct gadget_cs {
    r1cs_builder *b; /* NULL in count-only mode */
    bool shape;      /* record constraints (build linear combinations) */
    bool values;     /* compute witness values */
    cuzk_status status;
    uint64_t num_constraints, num_aux, num_inputs; /* added through this context */
    lc_t A, B, C; /* the constraint under construction, see gcs_enforce */
} gadget_cs;

/* b may be NULL (count only; flags ignored). flags are the builder's
 * R1CS_BUILD_* flags. */
void gcs_init(gadget_cs *cs, r1cs_builder *b, unsigned flags);
void gcs_free(gadget_cs *cs);

/* The first error, from this context or the builder. */
cuzk_status gcs_status(const gadget_cs *cs);
/* Records an error (a gadget used outside its limits); the first sticks. */
void gcs_fail(gadget_cs *cs, cuzk_status st);

/* New variables; value is read in VALUES mode only (may be NULL otherwise). */
r1cs_var gcs_alloc_aux(gadget_cs *cs, const fr_t *value);
r1cs_var gcs_alloc_input(gadget_cs *cs, const fr_t *value);

/* Clears A, B, C; returns whether the caller must fill them (SHAPE mode).
 * Pattern: if (gcs_begin(cs)) { lc_add_...(&cs->A, ...); ... } gcs_enforce(cs); */
bool gcs_begin(gadget_cs *cs);
/* Records A·B = C (SHAPE) and counts the constraint (all modes). */
void gcs_enforce(gadget_cs *cs);

/* Compiles a builder that recorded shape and values, and returns the
 * system and its full assignment w (malloc'd, *n entries; free() it).
 * For tests, benchmarks and debugging. */
cuzk_status gcs_compile_with_witness(r1cs_builder *b, r1cs_t *r, fr_t **w, uint64_t *n,
                                     unsigned threads);

/* Common coefficients, from a table built once (thread-safe): 2^i for
 * i < 256, and -1. */
const fr_t *gcs_pow2(unsigned i);
const fr_t *gcs_minus_one(void);

/* A field element inside the circuit: a linear combination over the
 * variables (SHAPE modes) and its value (VALUES mode). Owns lc storage.
 * `single` (kept in every mode, so all modes take the same branches) says
 * the number is exactly one variable with coefficient 1. */
typedef struct gnum {
    lc_t lc;
    fr_t val;
    bool single;
} gnum;

void gnum_init(gnum *x);
void gnum_free(gnum *x);
/* x = constant c */
void gnum_set_const(gadget_cs *cs, gnum *x, const fr_t *c);
/* x = 1·var with the given value (VALUES mode) */
void gnum_set_var(gadget_cs *cs, gnum *x, r1cs_var v, const fr_t *value);
/* x = y */
void gnum_copy(gadget_cs *cs, gnum *x, const gnum *y);
/* x += k·y (k NULL: 1); x and y must differ */
void gnum_add_scaled(gadget_cs *cs, gnum *x, const gnum *y, const fr_t *k);
/* x += c (the value is updated in every mode, so a number built from
 * constants only knows its value without VALUES) */
void gnum_add_const(gadget_cs *cs, gnum *x, const fr_t *c);
/* New aux variable v holding x's value, and x becomes v: 1 constraint,
 * x·1 = v. Skipped when x is `single` already. */
void gnum_materialize(gadget_cs *cs, gnum *x);
/* Allocates a private (aux) or public (input) number with a value. */
void gnum_alloc(gadget_cs *cs, gnum *x, const fr_t *value);
void gnum_alloc_input(gadget_cs *cs, gnum *x, const fr_t *value);
/* Enforces x = y: 1 constraint, x·1 = y. */
void gnum_enforce_equal(gadget_cs *cs, const gnum *x, const gnum *y);

#endif
