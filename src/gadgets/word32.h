#ifndef CUZK_GADGETS_WORD32_H
#define CUZK_GADGETS_WORD32_H

/* 32-bit words as 32 boolean literals, bit 0 the least significant (the
 * SHA-256 word of FIPS 180-4 §2.2.1). Rotations and shifts only rename bits;
 * bitwise operations cost what the boolean gadgets cost per bit; addition
 * modulo 2^32 packs the operands into one linear combination and unpacks
 * the sum with its carry bits:
 *
 *   gword_add_many(n operands)   k + 1 constraints, k = bit length of the
 *                                largest possible sum (32 + carries); 0 when
 *                                every operand is constant. */

#include <stddef.h>
#include <stdint.h>

#include "gadgets/boolean.h"

typedef struct gword {
    gbit b[32];
} gword;

void gword_const(gword *w, uint32_t v);
/* 32 new boolean variables: 32 constraints. */
void gword_alloc(gadget_cs *cs, gword *w, uint32_t v);
/* The value of the literals (VALUES mode, or constant words). */
uint32_t gword_value(const gword *w);

/* FIPS 180-4 §3.2: ROTR^n and SHR^n (free). */
void gword_rotr(gword *out, const gword *x, unsigned n);
void gword_shr(gword *out, const gword *x, unsigned n);

void gword_xor(gadget_cs *cs, gword *out, const gword *x, const gword *y);
void gword_xor3(gadget_cs *cs, gword *out, const gword *x, const gword *y, const gword *z);
void gword_ch(gadget_cs *cs, gword *out, const gword *x, const gword *y, const gword *z);
void gword_maj(gadget_cs *cs, gword *out, const gword *x, const gword *y, const gword *z);

/* out = Σ ops[i] mod 2^32. out may alias an operand. */
void gword_add_many(gadget_cs *cs, gword *out, const gword *const *ops, size_t n);

#endif
