/* BN254 G1 and G2: the tests of bn254_group_tests_impl.h, run once per
 * group, against tests/vectors/bn254_g1.txt and bn254_g2.txt. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "curve/bn254_curve.h"
#include "field/bn254_fr.h"
#include "field/limbs.h"
#include "seed.h"
#include "vector_file.h"

static rng_t rng;

/* G1: b = 3. */
static void g1_curve_b(bn254_fp_t *b)
{
    bn254_fp_from_u64(b, 3);
}

#define BG_(name) g1_##name
#define PT_(name) bn254_g1_##name
#define FT_(name) bn254_fp_##name
#define FT_T bn254_fp_t
#define BG_GENERATOR BN254_G1_GENERATOR
#define BG_BYTES BN254_G1_BYTES
#define BG_VECTORS "bn254_g1.txt"
#define BG_HAS_COFACTOR 0
#define bg_curve_b g1_curve_b
#include "bn254_group_tests_impl.h"
#undef BG_
#undef PT_
#undef FT_
#undef FT_T
#undef BG_GENERATOR
#undef BG_BYTES
#undef BG_VECTORS
#undef BG_HAS_COFACTOR
#undef bg_curve_b

/* G2: b = 3/ξ, ξ = 9 + u. */
static void g2_curve_b(bn254_fp2_t *b)
{
    bn254_fp2_t xi = {BN254_FP_ZERO, BN254_FP_ONE};
    bn254_fp_from_u64(&xi.c0, 9);
    bn254_fp2_inv(&xi, &xi);
    bn254_fp2_mul_small(b, &xi, 3);
}

#define BG_(name) g2_##name
#define PT_(name) bn254_g2_##name
#define FT_(name) bn254_fp2_##name
#define FT_T bn254_fp2_t
#define BG_GENERATOR BN254_G2_GENERATOR
#define BG_BYTES BN254_G2_BYTES
#define BG_VECTORS "bn254_g2.txt"
#define BG_HAS_COFACTOR 1
#define bg_curve_b g2_curve_b
#include "bn254_group_tests_impl.h"

/* cmocka names a test by its spelling, so the lists name the functions. */
#define GROUP_TESTS(g)                                                                             \
    cmocka_unit_test(g##_constants), cmocka_unit_test(g##_group_law),                              \
        cmocka_unit_test(g##_encoding), cmocka_unit_test(g##_vectors)

int main(void)
{
    rng_seed(&rng, test_seed("bn254_curve"));
    const struct CMUnitTest tests[] = {
        GROUP_TESTS(g1),
        GROUP_TESTS(g2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
