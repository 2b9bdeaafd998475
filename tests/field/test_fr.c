/* Fr: constants recomputed from r, field axioms, encodings, inversions, square
 * roots, powers and the known-answer vectors of tests/vectors/fr.txt; the
 * tests Fp shares come from prime_field_tests_impl.h, this file adds what
 * only Fr has: the 2-adic structure (t, the generator 7, the 2^32-th root of
 * unity) and the square roots Tonelli-Shanks meets through it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/fr.h"
#include "field/fr_consts.h"
#include "field/limbs.h"
#include "seed.h"
#include "vector_file.h"

#define FE_(name) fr_##name
#define FE_T fr_t
#define FE_LIMBS FR_LIMBS
#define FE_BYTES FR_BYTES
#define FE_ZERO FR_ZERO
#define FE_ONE FR_ONE
#define FE_MODULUS FR_MODULUS
#define FE_R2 FR_R2
#define FE_R3 FR_R3
#define FE_N0 FR_N0
#define FE_MINUS_2 FR_R_MINUS_2
#define FE_MINUS_1_HALF FR_R_MINUS_1_HALF
#define FE_ADD_MOD_PORTABLE add_mod_256_portable
#define FE_MONT_MUL_PORTABLE mont_mul_256_portable
#define FE_NAME "fr"
#define FE_MODULUS_NAME "r"
#define FE_MODULUS_HEX "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
#include "prime_field_tests_impl.h"

static void check_field_constants(const uint64_t r[FR_LIMBS])
{
    /* r - 1 = 2^s · t with t odd: s = 32. */
    uint64_t x[FR_LIMBS];
    memcpy(x, r, sizeof(x));
    raw_add_small(x, -1);
    int s = 0;
    while ((x[0] & 1) == 0) {
        raw_shr1(x);
        s++;
    }
    assert_int_equal(s, FR_TWO_ADICITY);
    assert_memory_equal(x, FR_T, sizeof(x));
    raw_shr1(x);
    assert_memory_equal(x, FR_T_MINUS_1_HALF, sizeof(x));

    /* The root of unity is 7^t and has order exactly 2^32. */
    fr_t g, w, y;
    fr_from_u64(&g, FR_GENERATOR);
    fr_pow_var(&w, &g, FR_T, FR_LIMBS);
    assert_fe_eq(&w, &FR_ROOT_OF_UNITY);
    y = w;
    for (int i = 0; i < FR_TWO_ADICITY - 1; i++)
        fr_sqr(&y, &y);
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    assert_fe_eq(&y, &m1);
    /* 7 is a non-square, as a generator must be. */
    assert_false(fr_is_square(&g));
}

static void check_sqrt_special_cases(void)
{
    fr_t r, x, m1;
    fr_neg(&m1, &FR_ONE); /* -1 is a square: r = 1 mod 4 */
    assert_true(fr_sqrt(&r, &m1));
    fr_sqr(&x, &r);
    assert_fe_eq(&x, &m1);
    /* Powers of the 2^32-th root of unity: odd powers are non-squares, even
     * powers have every 2-adic order Tonelli-Shanks can meet. */
    fr_t w = FR_ROOT_OF_UNITY;
    for (int k = 0; k < 33; k++) {
        bool sq = k > 0;
        assert_int_equal(fr_is_square(&w), sq);
        assert_int_equal(fr_sqrt(&r, &w), sq);
        if (sq) {
            fr_sqr(&x, &r);
            assert_fe_eq(&x, &w);
        }
        fr_sqr(&w, &w);
    }
}

/* The generator 7 is a non-square, so 7·a² is one. */
static void make_non_square(fr_t *square)
{
    fr_t g;
    fr_from_u64(&g, FR_GENERATOR);
    fr_mul(square, square, &g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        PRIME_FIELD_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
