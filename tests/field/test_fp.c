/* Fp: constants recomputed from p, field axioms, encodings, inversions, square
 * roots, powers and the known-answer vectors of tests/vectors/fp.txt; the
 * tests Fr shares come from prime_field_tests_impl.h, this file adds what
 * only Fp has: p = 3 mod 4, (p + 1)/4, small multiples and lexicographic
 * order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/fp.h"
#include "field/fp_consts.h"
#include "field/limbs.h"
#include "seed.h"
#include "vector_file.h"

#define FE_(name) fp_##name
#define FE_T fp_t
#define FE_LIMBS FP_LIMBS
#define FE_BYTES FP_BYTES
#define FE_ZERO FP_ZERO
#define FE_ONE FP_ONE
#define FE_MODULUS FP_MODULUS
#define FE_R2 FP_R2
#define FE_R3 FP_R3
#define FE_N0 FP_N0
#define FE_MINUS_2 FP_P_MINUS_2
#define FE_MINUS_1_HALF FP_P_MINUS_1_HALF
#define FE_ADD_MOD_PORTABLE add_mod_384_portable
#define FE_MONT_MUL_PORTABLE mont_mul_384_portable
#define FE_NAME "fp"
#define FE_MODULUS_NAME "p"
#define FE_MODULUS_HEX                                                                             \
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f624"                             \
    "1eabfffeb153ffffb9feffffffffaaab"
#include "prime_field_tests_impl.h"

static void check_field_constants(const uint64_t p[FP_LIMBS])
{
    assert_int_equal(p[0] & 3, 3); /* p = 3 mod 4, for the square root */
    uint64_t x[FP_LIMBS];
    memcpy(x, p, sizeof(x));
    raw_add_small(x, 1);
    raw_shr1(x);
    raw_shr1(x);
    assert_memory_equal(x, FP_P_PLUS_1_QUARTER, sizeof(x));
}

static void check_sqrt_special_cases(void)
{
    fp_t r, m1;
    fp_neg(&m1, &FP_ONE); /* -1 is not a square: p = 3 mod 4 */
    assert_false(fp_sqrt(&r, &m1));
    assert_false(fp_is_square(&m1));
}

/* -1 is a non-square, so -a² is one. */
static void make_non_square(fp_t *square)
{
    fp_neg(square, square);
}

static void test_mul_small(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_mul_small"));
    for (int it = 0; it < test_iters(1000); it++) {
        fp_t a, x, y;
        fp_random(&a, &rng);
        unsigned k = (unsigned)(rng_u64(&rng) % 1000);
        fp_mul_small(&x, &a, k);
        fp_from_u64(&y, k);
        fp_mul(&y, &y, &a);
        assert_fe_eq(&x, &y);
    }
    fp_t x;
    for (unsigned k = 0; k < 40; k++) {
        fp_t y = FP_ZERO;
        for (unsigned i = 0; i < k; i++)
            fp_add(&y, &y, &FP_ONE);
        fp_mul_small(&x, &FP_ONE, k);
        assert_fe_eq(&x, &y);
    }
    static const unsigned big[] = {0x80000000u, 0xffffffffu, 12345678u, 255u, 256u};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        fp_t y, a;
        fp_random(&a, &rng);
        fp_mul_small(&x, &a, big[i]);
        fp_from_u64(&y, big[i]);
        fp_mul(&y, &y, &a);
        assert_fe_eq(&x, &y);
    }
}

static void test_lex_largest(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_lex_largest"));
    fp_t a, b, half, m1;
    assert_false(fp_is_lex_largest(&FP_ZERO));
    assert_false(fp_is_lex_largest(&FP_ONE));
    fp_neg(&m1, &FP_ONE);
    assert_true(fp_is_lex_largest(&m1));
    fp_from_raw(&half, FP_P_MINUS_1_HALF);
    assert_false(fp_is_lex_largest(&half));
    fp_add(&half, &half, &FP_ONE);
    assert_true(fp_is_lex_largest(&half));
    /* Exactly one of a and -a is the larger, for a nonzero. */
    for (int it = 0; it < test_iters(500); it++) {
        fp_random(&a, &rng);
        fp_neg(&b, &a);
        if (!fp_is_zero(&a))
            assert_int_equal(fp_is_lex_largest(&a), !fp_is_lex_largest(&b));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        PRIME_FIELD_TESTS,
        cmocka_unit_test(test_mul_small),
        cmocka_unit_test(test_lex_largest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
