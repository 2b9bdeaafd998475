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
    FUZZ_CHECK(groth16_vk_eq(&vk, &again));
    groth16_vk_free(&again);
    groth16_vk_free(&vk);
    free(text);
    return 0;
}
