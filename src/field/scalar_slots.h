#ifndef CUZK_FIELD_SCALAR_SLOTS_H
#define CUZK_FIELD_SCALAR_SLOTS_H

/* The scalar fields of BLS12-381 (fr_t) and BN254 (bn254_fr_t) both keep an
 * element in four little-endian 64-bit limbs, Montgomery form. The buffers
 * that carry a circuit's scalars from layer to layer (a witness, a, b, c,
 * the coefficient table of a constraint system, public inputs, blinding
 * factors) are declared fr_t and hold, for a circuit over BN254, BN254's
 * elements in the same 32-byte slots; the curve of the circuit (its plan's,
 * its constraint system's) says which. Each value is written and read
 * through its own field's type only: these views convert the pointer, never
 * the value. */

#include "field/bn254_fr.h"
#include "field/fr.h"

_Static_assert(sizeof(fr_t) == sizeof(bn254_fr_t) && FR_LIMBS == BN254_FR_LIMBS,
               "both curves' scalars fit the same slots");

static inline bn254_fr_t *bn254_fr_slots(fr_t *p)
{
    return (bn254_fr_t *)(void *)p;
}

static inline const bn254_fr_t *bn254_fr_slots_const(const fr_t *p)
{
    return (const bn254_fr_t *)(const void *)p;
}

/* The way back: BN254 elements handed to an interface of fr_t slots. */
static inline fr_t *bn254_fr_as_slots(bn254_fr_t *p)
{
    return (fr_t *)(void *)p;
}

static inline const fr_t *bn254_fr_as_slots_const(const bn254_fr_t *p)
{
    return (const fr_t *)(const void *)p;
}

#endif
