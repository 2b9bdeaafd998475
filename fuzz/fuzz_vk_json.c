/* snarkjs verification_key.json (formats/snarkjs_json.h): a key that is
 * read is written back (with e(alpha, beta) computed), and what is written
 * reads as the same key. The BN254 reader (the same template over BN254)
 * reads the same input; a key names its curve, so no input is a key of
 * both. */
#include "fuzz/fuzz.h"

#include "formats/bn254_snarkjs_json.h"
#include "formats/snarkjs_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    groth16_vk_t vk;
    char msg[256];
    bn254_groth16_vk_t bn;
    bool bn254 = bn254_snarkjs_vk_from_json(&bn, (const char *)data, size, "fuzz",
                                            FORMATS_CHECK_CURVE, msg, sizeof(msg)) == CUZK_OK;
    if (bn254) {
        FUZZ_CHECK(bn.num_ic >= 1 && bn254_g1_affine_is_on_curve(&bn.alpha_g1));
        bn254_groth16_vk_free(&bn);
    }
    if (snarkjs_vk_from_json(&vk, (const char *)data, size, "fuzz", FORMATS_CHECK_CURVE, msg,
                             sizeof(msg)) != CUZK_OK)
        return 0;
    FUZZ_CHECK(!bn254);
    char *text = snarkjs_vk_to_json(&vk);
    FUZZ_CHECK(text != NULL);
    groth16_vk_t again;
    FUZZ_CHECK(snarkjs_vk_from_json(&again, text, strlen(text), "written", FORMATS_CHECK_CURVE, msg,
                                    sizeof(msg)) == CUZK_OK);
    FUZZ_CHECK(groth16_vk_eq(&vk, &again));
    groth16_vk_free(&again);
    groth16_vk_free(&vk);
    free(text);
    return 0;
}
