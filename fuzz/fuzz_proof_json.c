/* snarkjs proof.json (formats/snarkjs_json.h): a proof that is read is
 * written back, and what is written reads as the same proof. */
#include "fuzz/fuzz.h"

#include "formats/snarkjs_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    groth16_proof_t p;
    char msg[256];
    if (snarkjs_proof_from_json(&p, (const char *)data, size, "fuzz", FORMATS_CHECK_CURVE, msg,
                                sizeof(msg)) != CUZK_OK)
        return 0;
    char *text = snarkjs_proof_to_json(&p);
    FUZZ_CHECK(text != NULL);
    groth16_proof_t again;
    FUZZ_CHECK(snarkjs_proof_from_json(&again, text, strlen(text), "written",
                                       FORMATS_CHECK_CURVE, msg, sizeof(msg)) == CUZK_OK);
    FUZZ_CHECK(g1_affine_eq(&p.a, &again.a));
    FUZZ_CHECK(g2_affine_eq(&p.b, &again.b));
    FUZZ_CHECK(g1_affine_eq(&p.c, &again.c));
    free(text);
    return 0;
}
