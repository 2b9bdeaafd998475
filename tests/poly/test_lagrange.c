/* The Lagrange basis at a point (poly/lagrange.h), checked against the
 * product formula Π_{j≠k} (τ − x_j)/(x_k − x_j) over every point of the
 * subgroup, and by interpolation: Σ_i L_i(τ) f(x_i) = f(τ) for random f
 * of degree < n, and for the odd 2n-th roots Σ_i L_{2i+1}(τ) p(x_{2i+1}) =
 * p(τ) for p = (x^n − 1)·q, deg p < 2n (the shape of a·b − c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "poly/lagrange.h"
#include "seed.h"

static void pow_u64(fr_t *r, const fr_t *a, uint64_t e)
{
    fr_pow_var(r, a, &e, 1);
}

/* f(x) for coefficients c[0..len) (Horner). */
static void horner(fr_t *r, const fr_t *c, size_t len, const fr_t *x)
{
    *r = FR_ZERO;
    for (size_t i = len; i-- > 0;) {
        fr_mul(r, r, x);
        fr_add(r, r, &c[i]);
    }
}

/* L_k(τ) over the m points zeta^j, by the product formula. */
static void product_formula(fr_t *r, const fr_t *zeta, size_t m, size_t k, const fr_t *tau)
{
    fr_t xk, xj, num = FR_ONE, den = FR_ONE, t;
    pow_u64(&xk, zeta, k);
    for (size_t j = 0; j < m; j++) {
        if (j == k)
            continue;
        pow_u64(&xj, zeta, j);
        fr_sub(&t, tau, &xj);
        fr_mul(&num, &num, &t);
        fr_sub(&t, &xk, &xj);
        fr_mul(&den, &den, &t);
    }
    fr_inv(&den, &den);
    fr_mul(r, &num, &den);
}

static void check_product_formula(domain_roots roots, unsigned log_n, rng_t *rng)
{
    domain_t d;
    assert_int_equal(domain_init_log(&d, log_n, roots, 1), CUZK_OK);
    size_t n = d.n;
    fr_t *out = malloc(n * sizeof(fr_t)), tau, want;
    assert_non_null(out);
    fr_random(&tau, rng);
    assert_int_equal(poly_lagrange_at(out, &d, POLY_LAGRANGE_DOMAIN, &tau, 1), CUZK_OK);
    for (size_t k = 0; k < n; k++) {
        product_formula(&want, &d.omega, n, k, &tau);
        assert_true(fr_eq(&out[k], &want));
    }
    assert_int_equal(poly_lagrange_at(out, &d, POLY_LAGRANGE_ODD_2N, &tau, 1), CUZK_OK);
    for (size_t i = 0; i < n; i++) {
        product_formula(&want, &d.omega_2n, 2 * n, 2 * i + 1, &tau);
        assert_true(fr_eq(&out[i], &want));
    }
    free(out);
    domain_free(&d);
}

static void test_product_formula(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("lagrange_product"));
    for (unsigned k = 0; k <= 5; k++) {
        check_product_formula(DOMAIN_ROOTS_SNARKJS, k, &rng);
        check_product_formula(DOMAIN_ROOTS_BELLMAN, k, &rng);
    }
}

static void test_interpolation(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("lagrange_interpolation"));
    domain_t d;
    assert_int_equal(domain_init_log(&d, 6, DOMAIN_ROOTS_SNARKJS, 1), CUZK_OK);
    size_t n = d.n;
    fr_t *l = malloc(n * sizeof(fr_t)), *f = malloc(2 * n * sizeof(fr_t));
    assert_true(l && f);
    fr_t tau, x, v, t, sum, want;
    for (int it = 0; it < test_iters(4); it++) {
        fr_random(&tau, &rng);
        /* f of degree < n on the n-th roots. */
        for (size_t j = 0; j < n; j++)
            fr_random(&f[j], &rng);
        assert_int_equal(poly_lagrange_at(l, &d, POLY_LAGRANGE_DOMAIN, &tau, 2), CUZK_OK);
        sum = FR_ZERO;
        for (size_t i = 0; i < n; i++) {
            pow_u64(&x, &d.omega, i);
            horner(&v, f, n, &x);
            fr_mul(&t, &v, &l[i]);
            fr_add(&sum, &sum, &t);
        }
        horner(&want, f, n, &tau);
        assert_true(fr_eq(&sum, &want));
        /* p = (x^n − 1)·q, deg q < n: zero on the n-th roots, so its odd
         * 2n-th root values determine it. */
        for (size_t j = 0; j < n; j++) {
            fr_random(&f[n + j], &rng); /* q's coefficients, p = x^n q − q */
            fr_neg(&f[j], &f[n + j]);
        }
        assert_int_equal(poly_lagrange_at(l, &d, POLY_LAGRANGE_ODD_2N, &tau, 2), CUZK_OK);
        sum = FR_ZERO;
        for (size_t i = 0; i < n; i++) {
            pow_u64(&x, &d.omega_2n, 2 * i + 1);
            horner(&v, f, 2 * n, &x);
            fr_mul(&t, &v, &l[i]);
            fr_add(&sum, &sum, &t);
        }
        horner(&want, f, 2 * n, &tau);
        assert_true(fr_eq(&sum, &want));
    }
    free(l);
    free(f);
    domain_free(&d);
}

static void test_threads(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("lagrange_threads"));
    domain_t d;
    assert_int_equal(domain_init_log(&d, 13, DOMAIN_ROOTS_SNARKJS, 1), CUZK_OK);
    size_t n = d.n;
    fr_t *a = malloc(n * sizeof(fr_t)), *b = malloc(n * sizeof(fr_t)), tau;
    assert_true(a && b);
    fr_random(&tau, &rng);
    for (int set = 0; set < 2; set++) {
        assert_int_equal(poly_lagrange_at(a, &d, (poly_lagrange_set)set, &tau, 1), CUZK_OK);
        assert_int_equal(poly_lagrange_at(b, &d, (poly_lagrange_set)set, &tau, 3), CUZK_OK);
        assert_memory_equal(a, b, n * sizeof(fr_t));
    }
    free(a);
    free(b);
    domain_free(&d);
}

/* τ on the set is refused; an n-th root is not on the odd set, and every
 * odd basis polynomial vanishes there; an unknown set is refused. */
static void test_points_of_the_set(void **state)
{
    (void)state;
    domain_t d;
    assert_int_equal(domain_init_log(&d, 4, DOMAIN_ROOTS_SNARKJS, 1), CUZK_OK);
    fr_t out[16], x;
    pow_u64(&x, &d.omega, 5);
    assert_int_equal(poly_lagrange_at(out, &d, POLY_LAGRANGE_DOMAIN, &x, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(poly_lagrange_at(out, &d, POLY_LAGRANGE_ODD_2N, &x, 1), CUZK_OK);
    for (size_t i = 0; i < d.n; i++)
        assert_true(fr_is_zero(&out[i]));
    pow_u64(&x, &d.omega_2n, 7);
    assert_int_equal(poly_lagrange_at(out, &d, POLY_LAGRANGE_ODD_2N, &x, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    /* The n-point basis at an odd point: it still sums to 1 (it
     * interpolates the constant 1). */
    assert_int_equal(poly_lagrange_at(out, &d, POLY_LAGRANGE_DOMAIN, &x, 1), CUZK_OK);
    fr_t sum = FR_ZERO;
    for (size_t i = 0; i < d.n; i++)
        fr_add(&sum, &sum, &out[i]);
    assert_true(fr_is_one(&sum));
    assert_int_equal(poly_lagrange_at(out, &d, (poly_lagrange_set)7, &x, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    domain_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_product_formula),
        cmocka_unit_test(test_interpolation),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_points_of_the_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
