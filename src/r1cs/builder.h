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

/* A builder for one block of a larger system, so that independent parts
 * of a circuit (the challenges of a storage proof) can be synthesized on
 * several threads. The block's variables continue the system: its first
 * input is input `input_base` and its first aux variable aux `aux_base`,
 * so its handles are those that synthesizing the whole system in one
 * builder gives, and its constraints may name any variable below those
 * bases (allocated before the block, elsewhere). It allocates at most
 * `inputs` inputs and `aux` aux variables; one more fails with
 * CUZK_ERR_INVALID_ARGUMENT.
 *  - SHAPE: the block's constraints, to join with r1cs_builder_append.
 *  - VALUES: each value goes straight into the caller's full assignment of
 *    the whole system, w (w_len values, w_inputs of them inputs with ONE),
 *    at its compiled position (input j at w[j], aux j at w[w_inputs + j]):
 *    no copy, and blocks on different threads write disjoint slices.
 * A block holds no assignment of its own (r1cs_builder_assignment refuses
 * it) and compiles only as part of a system (r1cs_builder_compile and
 * r1cs_builder_enforce_input_rows refuse it). */
typedef struct r1cs_block {
    uint64_t input_base, inputs; /* inputs before the block (ONE included), the block's */
    uint64_t aux_base, aux;      /* aux variables before the block, the block's */
    fr_t *w;                     /* VALUES: the whole system's assignment */
    uint64_t w_inputs, w_len;    /* VALUES: its inputs (ONE included) and its length */
} r1cs_block;

cuzk_status r1cs_builder_new_block(r1cs_builder **out, unsigned flags, const r1cs_block *block);

/* Appends the constraints of blocks[0..n) (SHAPE blocks) to b in order,
 * and b's variables run on to the last block's. Block i must start where
 * block i - 1 stopped allocating (block 0 where b stands). The result is
 * what one builder synthesizing b's part and then every block in order
 * would hold: the same rows and columns, and the same coefficient table
 * in the same order (each block's table, in its first-seen order, is
 * interned into b's in turn). The blocks' constraints are moved out: they
 * may only be freed afterwards. Copies on `threads` threads. */
cuzk_status r1cs_builder_append(r1cs_builder *b, r1cs_builder *const *blocks, size_t n,
                                unsigned threads);

/* New public input / aux variable. `value` is required in VALUES mode and
 * ignored otherwise (may be NULL). At most 2^31 - 1 of each. */
cuzk_status r1cs_alloc_input(r1cs_builder *b, r1cs_var *out, const fr_t *value);
cuzk_status r1cs_alloc_aux(r1cs_builder *b, r1cs_var *out, const fr_t *value);
/* n new aux (aux) or public input variables at once, in a build without
 * values: the next n handles, in order, in constant time (a file's
 * declared count of variables costs nothing before its constraints are
 * read). */
cuzk_status r1cs_alloc_many(r1cs_builder *b, uint64_t n, bool aux);

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

/* Counts: for a block, the variables up to its end (its base included)
 * and its own constraints. */
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
