/* BN254 proofs as bytes (bn254_proof.h). */
#include "formats/bn254_proof.h"

#include "formats/common.h"
#include "groth16/keys.h"

_Static_assert(GROTH16_PROOF_BYTES <= CURVE_PROOF_MAX_BYTES, "both curves' proofs fit the max");

void bn254_proof_encode(uint8_t out[BN254_PROOF_BYTES], const bn254_groth16_proof_t *proof)
{
    bn254_g1_affine_to_bytes(out, &proof->a);
    bn254_g2_affine_to_bytes(out + BN254_G1_BYTES, &proof->b);
    bn254_g1_affine_to_bytes(out + BN254_G1_BYTES + BN254_G2_BYTES, &proof->c);
}

cuzk_status bn254_proof_decode(bn254_groth16_proof_t *out, const uint8_t in[BN254_PROOF_BYTES],
                               char *msg, size_t msg_len)
{
    const char *what = "A";
    cuzk_status st = bn254_g1_affine_decode(&out->a, in, BN254_G1_BYTES, true);
    if (st == CUZK_OK) {
        what = "B";
        st = bn254_g2_affine_decode(&out->b, in + BN254_G1_BYTES, BN254_G2_BYTES, true);
    }
    if (st == CUZK_OK) {
        what = "C";
        st = bn254_g1_affine_decode(&out->c, in + BN254_G1_BYTES + BN254_G2_BYTES, BN254_G1_BYTES,
                                    true);
    }
    if (st != CUZK_OK)
        formats_msg(msg, msg_len, "the proof's %s: %s", what, cuzk_status_str(st));
    return st;
}

size_t curve_proof_bytes(curve_id curve)
{
    return curve == CURVE_BN254 ? BN254_PROOF_BYTES : GROTH16_PROOF_BYTES;
}
