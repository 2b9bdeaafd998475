/* Fr: field axioms, encodings, inversion and square roots on random inputs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "field/fr.h"
#include "seed.h"

static rng_t rng;

static void test_axioms(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fr_axioms"));
    for (int it = 0; it < test_iters(200); it++) {
        fr_t a, b, c, x, y, z;
        fr_random(&a, &rng);
        fr_random(&b, &rng);
        fr_random(&c, &rng);
        fr_mul(&x, &a, &b);
        fr_mul(&y, &b, &a);
        assert_true(fr_eq(&x, &y));
        fr_mul(&x, &x, &c);
        fr_mul(&y, &b, &c);
        fr_mul(&y, &a, &y);
        assert_true(fr_eq(&x, &y));
        fr_add(&x, &a, &b);
        fr_mul(&x, &x, &c);
        fr_mul(&y, &a, &c);
        fr_mul(&z, &b, &c);
        fr_add(&y, &y, &z);
        assert_true(fr_eq(&x, &y));
        fr_sub(&x, &a, &b);
        fr_add(&x, &x, &b);
        assert_true(fr_eq(&x, &a));
        fr_sqr(&x, &a);
        fr_mul(&y, &a, &a);
        assert_true(fr_eq(&x, &y));
        fr_inv(&x, &a);
        fr_mul(&x, &x, &a);
        assert_true(fr_is_one(&x));
        fr_sqr(&x, &a);
        assert_true(fr_sqrt(&y, &x));
        fr_sqr(&y, &y);
        assert_true(fr_eq(&x, &y));
    }
}

static void test_bytes(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fr_bytes"));
    for (int it = 0; it < test_iters(200); it++) {
        fr_t a, b;
        uint8_t buf[FR_BYTES];
        fr_random(&a, &rng);
        fr_to_bytes_be(buf, &a);
        assert_true(fr_from_bytes_be(&b, buf));
        assert_true(fr_eq(&a, &b));
        fr_to_bytes_le(buf, &a);
        assert_true(fr_from_bytes_le(&b, buf));
        assert_true(fr_eq(&a, &b));
    }
    uint8_t ones[FR_BYTES];
    memset(ones, 0xff, sizeof(ones));
    fr_t r;
    assert_false(fr_from_bytes_be(&r, ones));
    assert_false(fr_from_bytes_le(&r, ones));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axioms),
        cmocka_unit_test(test_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
