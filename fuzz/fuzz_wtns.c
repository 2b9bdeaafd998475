/* circom .wtns (formats/circom_wtns.h): the container and header at open,
 * then every value (in bounded ranges), and ranges past the end. */
#include "fuzz/fuzz.h"

#include "field/scalar_slots.h"
#include "formats/circom_wtns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    circom_wtns_t w;
    char msg[256];
    if (circom_wtns_open_buffer(&w, data, size, "fuzz", msg, sizeof(msg)) != CUZK_OK)
        return 0;
    FUZZ_CHECK(w.num_values >= 1 && w.num_values <= size / 32);
    fr_t v[FUZZ_MAX_ITEMS];
    for (uint64_t start = 0; start < w.num_values; start += FUZZ_MAX_ITEMS) {
        uint64_t n = fuzz_min(w.num_values - start, FUZZ_MAX_ITEMS);
        cuzk_status st = circom_wtns_decode(v, &w, start, n, msg, sizeof(msg));
        FUZZ_CHECK(st == CUZK_OK || st == CUZK_ERR_NOT_CANONICAL);
        if (start == 0 && st == CUZK_OK)
            FUZZ_CHECK(w.curve == CURVE_BN254 ? bn254_fr_is_one(bn254_fr_slots_const(&v[0]))
                                              : fr_is_one(&v[0]));
    }
    FUZZ_CHECK(circom_wtns_decode(v, &w, w.num_values, 1, msg, sizeof(msg)) != CUZK_OK);
    FUZZ_CHECK(circom_wtns_decode(v, &w, UINT64_MAX, 2, msg, sizeof(msg)) != CUZK_OK);
    circom_wtns_close(&w);
    return 0;
}
