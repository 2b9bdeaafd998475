#ifndef CUZK_R1CS_BUILDER_H
#define CUZK_R1CS_BUILDER_H

/* The constraint-system builder that circuit synthesis drives: allocate
 * variables, enforce (Σ a)·(Σ b) = (Σ c), then compile into an r1cs_t.
 *
 * Modes (flags, combinable):
 *  - R1CS_BUILD_SHAPE: record the constraints (setup, compilation, tests);
 *    values may be NULL.
 *  - R1CS_BUILD_VALUES: record the variable values (witness generation).
 *    With VALUES alone, enforce() costs nothing: per proof, the compiled
 *    matrices already exist and only w is needed.
 *
 * Constraints are appended straight into growing CSR arrays (u32 handles,
 * u32 coefficient-table indices), so compiling is a renumbering pass rather
 * than a second copy of the system.
 *
 * Errors are sticky: after the first failure (out of memory, a bad handle)
 * every later call returns the same status, so synthesis code may check
 * once at the end (r1cs_builder_status) instead of after every call. */

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "field/fr.h"
#include "r1cs/lc.h"
#include "r1cs/r1cs.h"

enum {
    R1CS_BUILD_SHAPE = 1u,
    R1CS_BUILD_VALUES = 2u,
};

typedef struct r1cs_builder r1cs_builder;

/* Creates a builder holding just the constant ONE (input 0). */
cuzk_status r1cs_builder_new(r1cs_builder **out, unsigned flags);
void r1cs_builder_free(r1cs_builder *b);

/* The first error met, or CUZK_OK. */
cuzk_status r1cs_builder_status(const r1cs_builder *b);

/* New public input / aux variable. `value` is required in VALUES mode and
 * ignored otherwise (may be NULL). At most 2^31 - 1 of each. */
cuzk_status r1cs_alloc_input(r1cs_builder *b, r1cs_var *out, const fr_t *value);
cuzk_status r1cs_alloc_aux(r1cs_builder *b, r1cs_var *out, const fr_t *value);

/* Adds the constraint a·b = c. The three lists are normalized in place
 * (sorted, merged, zeros dropped: the same linear combinations) and may be
 * reused afterwards; the same lc_t may be passed more than once. A list
 * whose `oom` flag is set makes this fail with CUZK_ERR_OUT_OF_MEMORY; a
 * handle that was never allocated gives CUZK_ERR_INVALID_ARGUMENT. */
cuzk_status r1cs_enforce(r1cs_builder *b, lc_t *a, lc_t *bl, lc_t *c);

/* bellman's prover appends one row per public input, input_i · 0 = 0, so
 * that the A-polynomials of the inputs are linearly independent (what makes
 * the public inputs binding). A Groth16 setup and prover that follow bellman
 * call this once, after synthesis and before compiling. */
cuzk_status r1cs_builder_enforce_input_rows(r1cs_builder *b);

uint64_t r1cs_builder_num_inputs(const r1cs_builder *b); /* including ONE */
uint64_t r1cs_builder_num_aux(const r1cs_builder *b);
uint64_t r1cs_builder_num_constraints(const r1cs_builder *b);

/* The value of a variable (VALUES mode), or NULL (no values, bad handle). */
const fr_t *r1cs_builder_value(const r1cs_builder *b, r1cs_var v);

/* Writes the full assignment w = [1, inputs..., aux...] (n must equal
 * num_inputs + num_aux) into a caller buffer, which may be pinned memory
 * bound for the GPU. Needs VALUES mode. */
cuzk_status r1cs_builder_assignment(const r1cs_builder *b, fr_t *w, size_t n);

/* Moves the recorded constraints into *out, renumbering handles into the
 * compiled column space (inputs, then aux) and narrowing coefficient
 * indices to 16 bits when the table allows. The builder keeps its variables
 * and values, but accepts no further constraints or variables. Needs SHAPE
 * mode. */
cuzk_status r1cs_builder_compile(r1cs_t *out, r1cs_builder *b, unsigned threads);

#endif
