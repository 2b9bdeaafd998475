/* snarkjs proof.json (formats/snarkjs_json.h): a proof that is read is
 * written back, and what is written reads as the same proof. The BN254
 * reader (the same template over BN254) reads the same input, and what it
 * accepts with the subgroup check is in the subgroups. */
#include "fuzz/fuzz.h"

#include "formats/bn254_snarkjs_json.h"
#include "formats/snarkjs_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    groth16_proof_t p;
    bn254_groth16_proof_t q;
    char msg[256];
    if (bn254_snarkjs_proof_from_json(&q, (const char *)data, size, "fuzz", FORMATS_CHECK_SUBGROUP,
                                      msg, sizeof(msg)) == CUZK_OK)
        FUZZ_CHECK(bn254_g1_affine_is_on_curve(&q.c) && bn254_g1_affine_in_subgroup(&q.a) &&
                   bn254_g2_affine_in_subgroup(&q.b));
    if (snarkjs_proof_from_json(&p, (const char *)data, size, "fuzz", FORMATS_CHECK_CURVE, msg,
                                sizeof(msg)) != CUZK_OK)
        return 0;
    char *text = snarkjs_proof_to_json(&p);
    FUZZ_CHECK(text != NULL);
    groth16_proof_t again;
    FUZZ_CHECK(snarkjs_proof_from_json(&again, text, strlen(text), "written", FORMATS_CHECK_CURVE,
                                       msg, sizeof(msg)) == CUZK_OK);
    FUZZ_CHECK(g1_affine_eq(&p.a, &again.a));
    FUZZ_CHECK(g2_affine_eq(&p.b, &again.b));
    FUZZ_CHECK(g1_affine_eq(&p.c, &again.c));
    free(text);
    return 0;
}
