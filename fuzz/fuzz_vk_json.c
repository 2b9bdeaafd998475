/* snarkjs verification_key.json (formats/snarkjs_json.h): a key that is
 * read is written back (with e(alpha, beta) computed), and what is written
 * reads as the same key. */
#include "fuzz/fuzz.h"

#include "formats/snarkjs_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    groth16_vk_t vk;
    char msg[256];
    if (snarkjs_vk_from_json(&vk, (const char *)data, size, "fuzz", FORMATS_CHECK_CURVE, msg,
                             sizeof(msg)) != CUZK_OK)
        return 0;
    char *text = snarkjs_vk_to_json(&vk);
    FUZZ_CHECK(text != NULL);
    groth16_vk_t again;
    FUZZ_CHECK(snarkjs_vk_from_json(&again, text, strlen(text), "written", FORMATS_CHECK_CURVE,
                                    msg, sizeof(msg)) == CUZK_OK);
    FUZZ_CHECK(g1_affine_eq(&vk.alpha_g1, &again.alpha_g1));
    FUZZ_CHECK(g2_affine_eq(&vk.beta_g2, &again.beta_g2));
    FUZZ_CHECK(g2_affine_eq(&vk.gamma_g2, &again.gamma_g2));
    FUZZ_CHECK(g2_affine_eq(&vk.delta_g2, &again.delta_g2));
    FUZZ_CHECK(vk.num_ic == again.num_ic);
    for (size_t i = 0; i < vk.num_ic; i++)
        FUZZ_CHECK(g1_affine_eq(&vk.ic[i], &again.ic[i]));
    groth16_vk_free(&again);
    groth16_vk_free(&vk);
    free(text);
    return 0;
}
