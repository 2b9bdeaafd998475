/* snarkjs public.json (formats/snarkjs_json.h): public signals that are
 * read are written back, and read again as the same values. The BN254
 * reader (the same template over BN254) reads the same input; its values
 * are below BN254's r, so BLS12-381's reader accepts them too. */
#include "fuzz/fuzz.h"

#include "formats/bn254_snarkjs_json.h"
#include "formats/snarkjs_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fr_t *v = NULL;
    size_t n = 0;
    char msg[256];
    bn254_fr_t *w = NULL;
    size_t wn = 0;
    bool bn254 = bn254_snarkjs_public_from_json(&w, &wn, (const char *)data, size, "fuzz", msg,
                                                sizeof(msg)) == CUZK_OK;
    free(w);
    if (snarkjs_public_from_json(&v, &n, (const char *)data, size, "fuzz", msg, sizeof(msg)) !=
        CUZK_OK) {
        FUZZ_CHECK(!bn254); /* BN254's r < BLS12-381's r */
        return 0;
    }
    FUZZ_CHECK((n == 0) == (v == NULL));
    char *text = snarkjs_public_to_json(v, n);
    FUZZ_CHECK(text != NULL);
    fr_t *again = NULL;
    size_t again_n = 0;
    FUZZ_CHECK(snarkjs_public_from_json(&again, &again_n, text, strlen(text), "written", msg,
                                        sizeof(msg)) == CUZK_OK);
    FUZZ_CHECK(again_n == n);
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(fr_eq(&v[i], &again[i]));
    free(again);
    free(text);
    free(v);
    return 0;
}
