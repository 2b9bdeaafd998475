#ifndef CUZK_CURVE_CURVE_ID_H
#define CUZK_CURVE_CURVE_ID_H

/* The pairing-friendly curves cuzk proves on. A circuit's curve is read from
 * its files (the primes of an iden3 header, formats/iden3_curve.h), never
 * given by a flag. */

typedef enum curve_id {
    CURVE_BLS12_381,
    CURVE_BN254, /* circom's default prime; snarkjs calls it "bn128" */
} curve_id;

/* The name snarkjs writes in "curve" fields ("bls12381", "bn128"). */
static inline const char *curve_id_snarkjs_name(curve_id c)
{
    return c == CURVE_BN254 ? "bn128" : "bls12381";
}

#endif
