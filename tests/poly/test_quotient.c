/* The Groth16 quotient h = (a b - c) / Z on both cosets: the polynomial
 * identity at a random point (a, b, c evaluated by the barycentric formula,
 * independent of the NTT), the zero top coefficient, unsatisfied inputs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/fr.h"
#include "poly/domain.h"
#include "poly/quotient.h"
#include "seed.h"

static rng_t rng;

static fr_t *alloc_vec(size_t n)
{
    fr_t *v = malloc(n * sizeof(fr_t));
    assert_non_null(v);
    return v;
}

/* P(x) for P given by its evaluations p_i at w^i (i < n), x outside the
 * domain: P(x) = (x^n - 1)/n sum_i p_i w^i / (x - w^i) (Berrut-Trefethen,
 * "Barycentric Lagrange Interpolation", SIAM Review 2004, eq. 4.1 for roots
 * of unity). */
static void barycentric(fr_t *r, const fr_t *p, const domain_t *d, const fr_t *x)
{
    size_t n = d->n;
    fr_t *den = alloc_vec(n), wi = FR_ONE, acc = FR_ZERO, t;
    for (size_t i = 0; i < n; i++) {
        fr_sub(&den[i], x, &wi);
        fr_mul(&wi, &wi, &d->omega);
    }
    fr_batch_inv_var(den, den, n);
    wi = FR_ONE;
    for (size_t i = 0; i < n; i++) {
        fr_mul(&t, &p[i], &wi);
        fr_mul(&t, &t, &den[i]);
        fr_add(&acc, &acc, &t);
        fr_mul(&wi, &wi, &d->omega);
    }
    fr_pow_var(&t, x, (uint64_t[]){n}, 1);
    fr_sub(&t, &t, &FR_ONE);
    fr_mul(&acc, &acc, &t);
    fr_mul(r, &acc, &d->n_inv);
    free(den);
}

static void horner(fr_t *r, const fr_t *c, size_t n, const fr_t *x)
{
    fr_t acc = FR_ZERO;
    for (size_t i = n; i-- > 0;) {
        fr_mul(&acc, &acc, x);
        fr_add(&acc, &acc, &c[i]);
    }
    *r = acc;
}

/* a, b random on the first m points, c = a b there, zeros beyond. */
static void satisfied_system(fr_t *a, fr_t *b, fr_t *c, size_t m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i < m) {
            fr_random(&a[i], &rng);
            fr_random(&b[i], &rng);
            fr_mul(&c[i], &a[i], &b[i]);
        } else {
            a[i] = b[i] = c[i] = FR_ZERO;
        }
    }
}

/* a(x) b(x) - c(x) == h(x) (x^n - 1) at a random x. */
static bool identity_holds(const fr_t *a, const fr_t *b, const fr_t *c, const fr_t *h,
                           const domain_t *d)
{
    fr_t x, av, bv, cv, hv, z, lhs, rhs;
    fr_random(&x, &rng);
    barycentric(&av, a, d, &x);
    barycentric(&bv, b, d, &x);
    barycentric(&cv, c, d, &x);
    horner(&hv, h, d->n, &x);
    fr_pow_var(&z, &x, (uint64_t[]){d->n}, 1);
    fr_sub(&z, &z, &FR_ONE);
    fr_mul(&lhs, &av, &bv);
    fr_sub(&lhs, &lhs, &cv);
    fr_mul(&rhs, &hv, &z);
    return fr_eq(&lhs, &rhs);
}

typedef struct bufs {
    fr_t *a, *b, *c, *ha, *hb, *hc;
} bufs;

static bufs bufs_new(size_t n)
{
    bufs s = {alloc_vec(n), alloc_vec(n), alloc_vec(n), alloc_vec(n), alloc_vec(n), alloc_vec(n)};
    return s;
}

static void bufs_free(bufs *s)
{
    free(s->a);
    free(s->b);
    free(s->c);
    free(s->ha);
    free(s->hb);
    free(s->hc);
}

/* h of (s->a, s->b, s->c) into s->ha; garbage beyond m in the work buffers
 * checks that the padding is cleared. */
static void compute_h(bufs *s, size_t m, const domain_t *d, poly_h_coset coset, unsigned threads)
{
    memcpy(s->ha, s->a, d->n * sizeof(fr_t));
    memcpy(s->hb, s->b, d->n * sizeof(fr_t));
    memcpy(s->hc, s->c, d->n * sizeof(fr_t));
    for (size_t i = m; i < d->n; i++) {
        fr_random(&s->ha[i], &rng);
        fr_random(&s->hb[i], &rng);
        fr_random(&s->hc[i], &rng);
    }
    assert_int_equal(poly_compute_h(s->ha, s->hb, s->hc, m, d, coset, threads), CUZK_OK);
}

static void test_satisfied(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("quotient_satisfied"));
    const unsigned logs[] = {1, 2, 4, 7, 10};
    for (int roots = 0; roots < 2; roots++) {
        for (size_t li = 0; li < sizeof(logs) / sizeof(logs[0]); li++) {
            domain_t d;
            assert_int_equal(domain_init_log(&d, logs[li], (domain_roots)roots, 1), CUZK_OK);
            size_t n = d.n, m = n > 4 ? n - n / 4 + 1 : n;
            bufs s = bufs_new(n);
            fr_t *h_gen = alloc_vec(n);
            for (int it = 0; it < test_iters(2); it++) {
                satisfied_system(s.a, s.b, s.c, m, n);
                compute_h(&s, m, &d, POLY_H_COSET_GENERATOR, 2);
                assert_true(poly_h_top_is_zero(s.ha, &d));
                assert_true(identity_holds(s.a, s.b, s.c, s.ha, &d));
                memcpy(h_gen, s.ha, n * sizeof(fr_t));
                /* The quotient is unique: the odd coset gives the same h. */
                compute_h(&s, m, &d, POLY_H_COSET_2N_ROOT, 2);
                assert_true(poly_h_top_is_zero(s.ha, &d));
                assert_memory_equal(h_gen, s.ha, n * sizeof(fr_t));
            }
            free(h_gen);
            bufs_free(&s);
            domain_free(&d);
        }
    }
}

/* One violated constraint: the remainder shows in the top coefficient,
 * which is exactly e_j w^j / (n Z), and the identity fails. */
static void test_unsatisfied(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("quotient_unsatisfied"));
    domain_t d;
    assert_int_equal(domain_init_log(&d, 8, DOMAIN_ROOTS_BELLMAN, 1), CUZK_OK);
    size_t n = d.n;
    bufs s = bufs_new(n);
    for (int coset = 0; coset < 2; coset++) {
        for (int it = 0; it < test_iters(3); it++) {
            satisfied_system(s.a, s.b, s.c, n, n);
            size_t j = rng_u64(&rng) % n;
            fr_t e, want, z, t;
            fr_random(&e, &rng);
            fr_sub(&s.c[j], &s.c[j], &e); /* a_j b_j - c_j = e */
            compute_h(&s, n, &d, (poly_h_coset)coset, 1);
            assert_false(poly_h_top_is_zero(s.ha, &d));
            assert_false(identity_holds(s.a, s.b, s.c, s.ha, &d));
            if (coset == POLY_H_COSET_GENERATOR) {
                z = d.z_coset;
            } else {
                fr_from_u64(&z, 2);
                fr_neg(&z, &z);
            }
            fr_pow_var(&t, &d.omega, (uint64_t[]){j}, 1);
            fr_mul(&want, &e, &t);
            fr_mul(&want, &want, &d.n_inv);
            fr_inv_var(&t, &z);
            fr_mul(&want, &want, &t);
            assert_true(fr_eq(&s.ha[n - 1], &want));
        }
    }
    /* The documented blind spot: e_1 w + e_2 w^2 = 0 leaves the top zero
     * although two constraints fail; the identity still catches it. */
    satisfied_system(s.a, s.b, s.c, n, n);
    fr_t e1, e2;
    fr_random(&e1, &rng);
    fr_mul(&e2, &e1, &d.omega_inv);
    fr_neg(&e2, &e2);
    fr_sub(&s.c[1], &s.c[1], &e1);
    fr_sub(&s.c[2], &s.c[2], &e2);
    compute_h(&s, n, &d, POLY_H_COSET_GENERATOR, 1);
    assert_true(poly_h_top_is_zero(s.ha, &d));
    assert_false(identity_holds(s.a, s.b, s.c, s.ha, &d));
    bufs_free(&s);
    domain_free(&d);
}

/* The coset evaluations (snarkjs's input to the H MSM) at s w^i. */
static void test_coset_evals(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("quotient_coset_evals"));
    for (int roots = 0; roots < 2; roots++) {
        domain_t d;
        assert_int_equal(domain_init_log(&d, 9, (domain_roots)roots, 1), CUZK_OK);
        size_t n = d.n, m = n - 7;
        bufs s = bufs_new(n);
        for (int coset = 0; coset < 2; coset++) {
            for (size_t i = 0; i < n; i++) { /* unrelated a, b, c */
                fr_random(&s.a[i], &rng);
                fr_random(&s.b[i], &rng);
                fr_random(&s.c[i], &rng);
                if (i >= m)
                    s.a[i] = s.b[i] = s.c[i] = FR_ZERO;
            }
            memcpy(s.ha, s.a, n * sizeof(fr_t));
            memcpy(s.hb, s.b, n * sizeof(fr_t));
            memcpy(s.hc, s.c, n * sizeof(fr_t));
            assert_int_equal(poly_h_coset_evals(s.ha, s.hb, s.hc, m, &d, (poly_h_coset)coset, 2),
                             CUZK_OK);
            fr_t shift = coset == POLY_H_COSET_GENERATOR ? d.shift : d.omega_2n;
            for (int t = 0; t < 4; t++) {
                size_t i = rng_u64(&rng) % n;
                fr_t pt, av, bv, cv;
                fr_pow_var(&pt, &d.omega, (uint64_t[]){i}, 1);
                fr_mul(&pt, &pt, &shift);
                barycentric(&av, s.a, &d, &pt);
                barycentric(&bv, s.b, &d, &pt);
                barycentric(&cv, s.c, &d, &pt);
                fr_mul(&av, &av, &bv);
                fr_sub(&av, &av, &cv);
                assert_true(fr_eq(&s.ha[i], &av));
            }
        }
        bufs_free(&s);
        domain_free(&d);
    }
}

/* Large enough for the streaming passes; 1 and 2 threads agree. */
static void test_threads_and_size(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("quotient_threads"));
    domain_t d;
    assert_int_equal(domain_init_log(&d, 15, DOMAIN_ROOTS_BELLMAN, 2), CUZK_OK);
    size_t n = d.n, m = n - 1000;
    bufs s = bufs_new(n);
    fr_t *h1 = alloc_vec(n);
    satisfied_system(s.a, s.b, s.c, m, n);
    compute_h(&s, m, &d, POLY_H_COSET_GENERATOR, 1);
    memcpy(h1, s.ha, n * sizeof(fr_t));
    compute_h(&s, m, &d, POLY_H_COSET_GENERATOR, 2);
    assert_memory_equal(h1, s.ha, n * sizeof(fr_t));
    assert_true(poly_h_top_is_zero(s.ha, &d));
    assert_true(identity_holds(s.a, s.b, s.c, s.ha, &d));
    free(h1);
    bufs_free(&s);
    domain_free(&d);
}

static void test_arguments(void **state)
{
    (void)state;
    domain_t d;
    assert_int_equal(domain_init_log(&d, 3, DOMAIN_ROOTS_BELLMAN, 1), CUZK_OK);
    fr_t a[8] = {{{0}}}, b[8] = {{{0}}}, c[8] = {{{0}}};
    assert_int_equal(poly_compute_h(a, b, c, 9, &d, POLY_H_COSET_GENERATOR, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(poly_h_coset_evals(a, b, c, 9, &d, POLY_H_COSET_2N_ROOT, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(poly_compute_h(a, b, c, 0, &d, POLY_H_COSET_2N_ROOT, 1), CUZK_OK);
    for (size_t i = 0; i < 8; i++)
        assert_true(fr_is_zero(&a[i]));
    domain_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_satisfied),   cmocka_unit_test(test_unsatisfied),
        cmocka_unit_test(test_coset_evals), cmocka_unit_test(test_threads_and_size),
        cmocka_unit_test(test_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
