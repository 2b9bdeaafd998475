/* snarkjs .zkey (formats/zkey.h), of either curve: the container, header
 * and verifying key at open, then the coefficients (compiled as the zkey
 * circuit compiles them) and the first points of every point section, with
 * the decoders of the key's curve (the other curve's refuse them). */
#include "fuzz/fuzz.h"

#include "formats/zkey.h"

static void coefficients(const zkey_t *z)
{
    char msg[256];
    r1cs_entry *e = calloc(z->num_coeffs ? z->num_coeffs : 1, sizeof(*e));
    FUZZ_CHECK(e != NULL);
    if (zkey_decode_coeffs(e, z, 1, msg, sizeof(msg)) == CUZK_OK) {
        for (uint32_t i = 0; i < z->num_coeffs; i++)
            FUZZ_CHECK(e[i].matrix <= 1 && e[i].row < z->domain_size && e[i].col < z->num_vars);
        r1cs_t r;
        uint64_t inputs = (uint64_t)z->num_public + 1;
        if (r1cs_from_entries_over(&r, z->curve, e, z->num_coeffs, z->domain_size, inputs,
                                   z->num_vars - inputs, msg, sizeof(msg)) == CUZK_OK) {
            FUZZ_CHECK(r1cs_validate(&r, 1, msg, sizeof(msg)) == CUZK_OK);
            r1cs_free(&r);
        }
    }
    free(e);
}

static void bn254_points(const zkey_t *z)
{
    char msg[256];
    g1_affine_t other;
    FUZZ_CHECK(zkey_decode_g1(&other, z, ZKEY_POINTS_A, 0, 1, FORMATS_CHECK_NONE, 1, msg,
                              sizeof(msg)) == CUZK_ERR_INVALID_ARGUMENT);
    for (int s = 0; s < ZKEY_POINTS_COUNT; s++) {
        uint64_t n = fuzz_min(z->num_points[s], FUZZ_MAX_ITEMS);
        if (s == ZKEY_POINTS_B2) {
            bn254_g2_affine_t *p = calloc(n ? n : 1, sizeof(*p));
            FUZZ_CHECK(p != NULL);
            (void)bn254_zkey_decode_g2(p, z, 0, n, FORMATS_CHECK_SUBGROUP, 1, msg, sizeof(msg));
            free(p);
        } else {
            bn254_g1_affine_t *p = calloc(n ? n : 1, sizeof(*p));
            FUZZ_CHECK(p != NULL);
            (void)bn254_zkey_decode_g1(p, z, (zkey_points)s, 0, n, FORMATS_CHECK_CURVE, 1, msg,
                                       sizeof(msg));
            FUZZ_CHECK(bn254_zkey_decode_g1(p, z, (zkey_points)s, z->num_points[s], 1,
                                            FORMATS_CHECK_NONE, 1, msg, sizeof(msg)) != CUZK_OK);
            free(p);
        }
    }
}

static void points(const zkey_t *z)
{
    char msg[256];
    if (z->curve == CURVE_BN254) {
        bn254_points(z);
        return;
    }
    for (int s = 0; s < ZKEY_POINTS_COUNT; s++) {
        uint64_t n = fuzz_min(z->num_points[s], FUZZ_MAX_ITEMS);
        if (s == ZKEY_POINTS_B2) {
            g2_affine_t *p = calloc(n ? n : 1, sizeof(*p));
            FUZZ_CHECK(p != NULL);
            (void)zkey_decode_g2(p, z, 0, n, FORMATS_CHECK_CURVE, 1, msg, sizeof(msg));
            free(p);
        } else {
            g1_affine_t *p = calloc(n ? n : 1, sizeof(*p));
            FUZZ_CHECK(p != NULL);
            (void)zkey_decode_g1(p, z, (zkey_points)s, 0, n, FORMATS_CHECK_CURVE, 1, msg,
                                 sizeof(msg));
            /* A range past the end is refused, not read. */
            FUZZ_CHECK(zkey_decode_g1(p, z, (zkey_points)s, z->num_points[s], 1,
                                      FORMATS_CHECK_NONE, 1, msg, sizeof(msg)) != CUZK_OK);
            free(p);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    zkey_t z;
    char msg[256];
    if (zkey_open_buffer(&z, data, size, "fuzz", FORMATS_CHECK_CURVE, msg, sizeof(msg)) != CUZK_OK)
        return 0;
    FUZZ_CHECK(z.num_vars > z.num_public);
    FUZZ_CHECK((z.curve == CURVE_BN254 ? z.bn254_vk.num_ic : z.vk.num_ic) ==
               (size_t)z.num_public + 1);
    coefficients(&z);
    points(&z);
    zkey_close(&z);
    return 0;
}
