#ifndef CUZK_R1CS_LC_H
#define CUZK_R1CS_LC_H

/* Variable handles and linear combinations Σ coeff·var, the arguments of
 * r1cs_enforce().
 *
 * A handle names a variable before the final numbering is known: public
 * inputs and aux variables are allocated interleaved during synthesis, but
 * the compiled numbering puts all inputs first. So a handle carries its kind
 * in the top bit (R1CS_VAR_AUX) and its index within the kind below; the
 * constant ONE is input 0. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"

typedef uint32_t r1cs_var;

#define R1CS_VAR_AUX 0x80000000u
#define R1CS_VAR_INDEX_MASK 0x7fffffffu
#define R1CS_ONE ((r1cs_var)0)

static inline bool r1cs_var_is_aux(r1cs_var v)
{
    return (v & R1CS_VAR_AUX) != 0;
}

static inline uint32_t r1cs_var_index(r1cs_var v)
{
    return v & R1CS_VAR_INDEX_MASK;
}

typedef struct lc_term {
    r1cs_var var;
    fr_t coeff;
} lc_term;

/* A growable list of terms. Terms are appended as given (duplicates are
 * merged by r1cs_enforce, which sorts them), so building one costs a store
 * per term. Allocation failure is sticky: the list stops growing, `oom` is
 * set, and the enforce that receives it fails with CUZK_ERR_OUT_OF_MEMORY;
 * gadget code therefore needs no error check per term. Reuse one lc_t with
 * lc_clear() to avoid an allocation per constraint. */
typedef struct lc {
    lc_term *terms;
    size_t len, cap;
    bool oom;
} lc_t;

void lc_init(lc_t *lc);
void lc_free(lc_t *lc);
/* Empties the list, keeping its storage (and clearing `oom`). */
void lc_clear(lc_t *lc);

/* lc += coeff·var */
void lc_add_term(lc_t *lc, r1cs_var var, const fr_t *coeff);
/* lc += var */
void lc_add_one_term(lc_t *lc, r1cs_var var);
/* lc -= coeff·var */
void lc_sub_term(lc_t *lc, r1cs_var var, const fr_t *coeff);
/* lc -= var */
void lc_sub_one_term(lc_t *lc, r1cs_var var);
/* lc += constant (a multiple of ONE) */
void lc_add_constant(lc_t *lc, const fr_t *constant);
/* lc += scale·other (scale NULL: 1) */
void lc_add_lc(lc_t *lc, const lc_t *other, const fr_t *scale);

/* Sorts the terms by handle (inputs first, then aux, by index), merges equal
 * handles by adding their coefficients and drops zero coefficients. */
void lc_normalize(lc_t *lc);

/* Σ coeff·value over the terms, given the values of inputs and aux
 * variables (indexed by handle index). For tests and gadgets. */
void lc_eval(fr_t *out, const lc_t *lc, const fr_t *input_values, const fr_t *aux_values);

#endif
