#ifndef CUZK_GADGETS_BOOLEAN_H
#define CUZK_GADGETS_BOOLEAN_H

/* Boolean gadgets: bits as constants, variables or negated variables, so
 * that NOT and every operation with a constant operand cost nothing (the
 * result is a linear combination of the inputs). Constraint counts:
 *
 *   gbit_alloc        1   (1 - b)·b = 0
 *   gbit_not          0
 *   gbit_xor          1   (2a)·b = a + b - c
 *   gbit_and          1   a·b = c
 *   gbit_xor3         2
 *   gbit_ch           1   a·(b - c) = ch - c
 *   gbit_maj          2   b·c = bc; a·(b + c - 2bc) = maj - bc
 *   gnum_from_bits    0   Σ 2^i b_i as a linear combination
 *   gnum_pack_bits    1   the same, allocated
 *   gbits_unpack      n + 1
 *
 * Fewer whenever an operand is constant (xor/and/ch/maj with a constant
 * reduce to NOT, a copy, a constant or a single AND/OR).
 *
 * A negated input never costs a term: XOR strips negations
 * (¬a ⊕ b = ¬(a ⊕ b)) and Ch swaps its branches (ch(¬a, b, c) = ch(a, c, b)).
 * `val` is the literal's value (after negation) in VALUES mode, and always
 * for constants. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gadgets/cs.h"

enum { GBIT_CONST = 0, GBIT_VAR = 1, GBIT_NOT = 2 };

typedef struct gbit {
    r1cs_var var; /* GBIT_VAR / GBIT_NOT: the variable */
    uint8_t kind;
    uint8_t val;
} gbit;

static inline gbit gbit_const(bool v)
{
    gbit g = {R1CS_ONE, GBIT_CONST, (uint8_t)v};
    return g;
}

static inline gbit gbit_not(gbit a)
{
    if (a.kind != GBIT_CONST)
        a.kind = (uint8_t)(a.kind == GBIT_VAR ? GBIT_NOT : GBIT_VAR);
    a.val ^= 1;
    return a;
}

static inline bool gbit_is_const(gbit a)
{
    return a.kind == GBIT_CONST;
}

/* A new boolean variable (1 constraint). */
gbit gbit_alloc(gadget_cs *cs, bool value);
/* Enforces (1 - v)·v = 0 for an existing variable (1 constraint). */
void gbit_enforce_boolean(gadget_cs *cs, r1cs_var v);

/* lc += k·a (k NULL: 1); a constant goes to the ONE term. */
void gbit_lc_add(lc_t *lc, gbit a, const fr_t *k);

gbit gbit_xor(gadget_cs *cs, gbit a, gbit b);
gbit gbit_and(gadget_cs *cs, gbit a, gbit b);
gbit gbit_or(gadget_cs *cs, gbit a, gbit b);
gbit gbit_xor3(gadget_cs *cs, gbit a, gbit b, gbit c);
/* SHA-256 Ch (FIPS 180-4 §4.1.2, (4.2)): (a ∧ b) ⊕ (¬a ∧ c) */
gbit gbit_ch(gadget_cs *cs, gbit a, gbit b, gbit c);
/* SHA-256 Maj (FIPS 180-4 §4.1.2, (4.3)): (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c) */
gbit gbit_maj(gadget_cs *cs, gbit a, gbit b, gbit c);

/* Most bits packed into or unpacked from one field element: 2^254 < r, so
 * every 254-bit value has exactly one representation. */
#define GBITS_MAX 254

/* x = Σ_{i<n} 2^i bits[i], a linear combination (no constraint); n ≤ 254
 * (more is an error: gcs_status). */
void gnum_from_bits(gadget_cs *cs, gnum *x, const gbit *bits, size_t n);
/* The same, allocated as a variable: 1 constraint. */
void gnum_pack_bits(gadget_cs *cs, gnum *x, const gbit *bits, size_t n);
/* bits[0..n) = the n low bits of x, little-endian, and x = Σ 2^i bits[i]
 * enforced: n + 1 constraints. n ≤ 254 (more is an error: gcs_status), so
 * the representation is unique; x ≥ 2^n leaves the system unsatisfiable. */
void gbits_unpack(gadget_cs *cs, gbit *bits, const gnum *x, size_t n);

#endif
