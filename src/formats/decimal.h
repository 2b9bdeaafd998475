#ifndef CUZK_FORMATS_DECIMAL_H
#define CUZK_FORMATS_DECIMAL_H

/* Decimal strings of canonical integers <-> field elements: the number
 * format of snarkjs's JSON files (proof.json, public.json,
 * verification_key.json). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "curve/curve_id.h"
#include "cuzk/status.h"
#include "field/fp.h"
#include "field/fr.h"

/* Enough for any element of Fp (115 digits) and its terminating NUL. */
#define DECIMAL_MAX 128

/* Parses a string of 1 to DECIMAL_MAX - 1 decimal digits (nothing else) into
 * n little-endian limbs; false when it is not such a string or the value
 * does not fit. */
bool decimal_to_limbs(uint64_t *limbs, size_t n, const char *s);
/* Writes the limbs' value in decimal (no leading zeros; "0" for zero). out
 * must hold DECIMAL_MAX bytes; n is at most 6. */
void decimal_from_limbs(char out[DECIMAL_MAX], const uint64_t *limbs, size_t n);

/* CUZK_ERR_INVALID_ARGUMENT when s is not a decimal number,
 * CUZK_ERR_NOT_CANONICAL when it is not below the modulus. */
cuzk_status decimal_to_fp(fp_t *r, const char *s);
cuzk_status decimal_to_fr(fr_t *r, const char *s);
void decimal_from_fp(char out[DECIMAL_MAX], const fp_t *a);
void decimal_from_fr(char out[DECIMAL_MAX], const fr_t *a);

/* The same for an element of curve's scalar field in an fr_t slot
 * (field/scalar_slots.h): decimal_to_fr and decimal_from_fr for
 * BLS12-381. */
cuzk_status decimal_to_scalar(curve_id curve, fr_t *r, const char *s);
void decimal_from_scalar(char out[DECIMAL_MAX], curve_id curve, const fr_t *a);

#endif
