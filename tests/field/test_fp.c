/* Fp: field axioms, encodings, inversion and square roots on random inputs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "field/fp.h"
#include "seed.h"

static rng_t rng;

static void test_axioms(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_axioms"));
    for (int it = 0; it < test_iters(200); it++) {
        fp_t a, b, c, x, y, z;
        fp_random(&a, &rng);
        fp_random(&b, &rng);
        fp_random(&c, &rng);
        fp_mul(&x, &a, &b);
        fp_mul(&y, &b, &a);
        assert_true(fp_eq(&x, &y));
        fp_mul(&x, &x, &c);
        fp_mul(&y, &b, &c);
        fp_mul(&y, &a, &y);
        assert_true(fp_eq(&x, &y));
        fp_add(&x, &a, &b);
        fp_mul(&x, &x, &c);
        fp_mul(&y, &a, &c);
        fp_mul(&z, &b, &c);
        fp_add(&y, &y, &z);
        assert_true(fp_eq(&x, &y));
        fp_sub(&x, &a, &b);
        fp_add(&x, &x, &b);
        assert_true(fp_eq(&x, &a));
        fp_sqr(&x, &a);
        fp_mul(&y, &a, &a);
        assert_true(fp_eq(&x, &y));
        fp_inv(&x, &a);
        fp_mul(&x, &x, &a);
        assert_true(fp_is_one(&x));
        fp_sqr(&x, &a);
        assert_true(fp_sqrt(&y, &x));
        fp_sqr(&y, &y);
        assert_true(fp_eq(&x, &y));
    }
}

static void test_bytes(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_bytes"));
    for (int it = 0; it < test_iters(200); it++) {
        fp_t a, b;
        uint8_t buf[FP_BYTES];
        fp_random(&a, &rng);
        fp_to_bytes_be(buf, &a);
        assert_true(fp_from_bytes_be(&b, buf));
        assert_true(fp_eq(&a, &b));
        fp_to_bytes_le(buf, &a);
        assert_true(fp_from_bytes_le(&b, buf));
        assert_true(fp_eq(&a, &b));
    }
    uint8_t ones[FP_BYTES];
    memset(ones, 0xff, sizeof(ones));
    fp_t r;
    assert_false(fp_from_bytes_be(&r, ones));
    assert_false(fp_from_bytes_le(&r, ones));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axioms),
        cmocka_unit_test(test_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
