/* The quotient tests of one scalar field: h = (a b - c) / Z on both cosets,
 * the polynomial identity at a random point (a, b, c evaluated by the
 * barycentric formula, independent of the NTT), the zero top coefficient,
 * unsatisfied inputs, snarkjs's coset evaluations, threads and arguments. A
 * template: test_quotient.c (BLS12-381's Fr) and test_bn254_quotient.c
 * include it once, after their field's _names.h (FE_ ...) and
 *   TD_(name), TD_T   the domain functions and type (domain_##name)
 *   TQ_(name)         the quotient functions (poly_##name)
 *   TQ_PREFIX         the prefix of the tests' seed names ("quotient_")
 * It defines the tests and main. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seed.h"

static rng_t rng;

static FE_T *alloc_vec(size_t n)
{
    FE_T *v = malloc(n * sizeof(FE_T));
    assert_non_null(v);
    return v;
}

/* P(x) for P given by its evaluations p_i at w^i (i < n), x outside the
 * domain: P(x) = (x^n - 1)/n sum_i p_i w^i / (x - w^i) (Berrut-Trefethen,
 * "Barycentric Lagrange Interpolation", SIAM Review 2004, eq. 4.1 for roots
 * of unity). */
static void barycentric(FE_T *r, const FE_T *p, const TD_T *d, const FE_T *x)
{
    size_t n = d->n;
    FE_T *den = alloc_vec(n), wi = FE_ONE, acc = FE_ZERO, t;
    for (size_t i = 0; i < n; i++) {
        FE_(sub)(&den[i], x, &wi);
        FE_(mul)(&wi, &wi, &d->omega);
    }
    FE_(batch_inv_var)(den, den, n);
    wi = FE_ONE;
    for (size_t i = 0; i < n; i++) {
        FE_(mul)(&t, &p[i], &wi);
        FE_(mul)(&t, &t, &den[i]);
        FE_(add)(&acc, &acc, &t);
        FE_(mul)(&wi, &wi, &d->omega);
    }
    FE_(pow_var)(&t, x, (uint64_t[]){n}, 1);
    FE_(sub)(&t, &t, &FE_ONE);
    FE_(mul)(&acc, &acc, &t);
    FE_(mul)(r, &acc, &d->n_inv);
    free(den);
}

static void horner(FE_T *r, const FE_T *c, size_t n, const FE_T *x)
{
    FE_T acc = FE_ZERO;
    for (size_t i = n; i-- > 0;) {
        FE_(mul)(&acc, &acc, x);
        FE_(add)(&acc, &acc, &c[i]);
    }
    *r = acc;
}

/* a, b random on the first m points, c = a b there, zeros beyond. */
static void satisfied_system(FE_T *a, FE_T *b, FE_T *c, size_t m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i < m) {
            FE_(random)(&a[i], &rng);
            FE_(random)(&b[i], &rng);
            FE_(mul)(&c[i], &a[i], &b[i]);
        } else {
            a[i] = b[i] = c[i] = FE_ZERO;
        }
    }
}

/* a(x) b(x) - c(x) == h(x) (x^n - 1) at a random x. */
static bool identity_holds(const FE_T *a, const FE_T *b, const FE_T *c, const FE_T *h,
                           const TD_T *d)
{
    FE_T x, av, bv, cv, hv, z, lhs, rhs;
    FE_(random)(&x, &rng);
    barycentric(&av, a, d, &x);
    barycentric(&bv, b, d, &x);
    barycentric(&cv, c, d, &x);
    horner(&hv, h, d->n, &x);
    FE_(pow_var)(&z, &x, (uint64_t[]){d->n}, 1);
    FE_(sub)(&z, &z, &FE_ONE);
    FE_(mul)(&lhs, &av, &bv);
    FE_(sub)(&lhs, &lhs, &cv);
    FE_(mul)(&rhs, &hv, &z);
    return FE_(eq)(&lhs, &rhs);
}

typedef struct bufs {
    FE_T *a, *b, *c, *ha, *hb, *hc;
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
static void compute_h(bufs *s, size_t m, const TD_T *d, poly_h_coset coset, unsigned threads)
{
    memcpy(s->ha, s->a, d->n * sizeof(FE_T));
    memcpy(s->hb, s->b, d->n * sizeof(FE_T));
    memcpy(s->hc, s->c, d->n * sizeof(FE_T));
    for (size_t i = m; i < d->n; i++) {
        FE_(random)(&s->ha[i], &rng);
        FE_(random)(&s->hb[i], &rng);
        FE_(random)(&s->hc[i], &rng);
    }
    assert_int_equal(TQ_(compute_h)(s->ha, s->hb, s->hc, m, d, coset, threads), CUZK_OK);
}

static void test_satisfied(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TQ_PREFIX "satisfied"));
    const unsigned logs[] = {1, 2, 4, 7, 10};
    for (int roots = 0; roots < 2; roots++) {
        for (size_t li = 0; li < sizeof(logs) / sizeof(logs[0]); li++) {
            TD_T d;
            assert_int_equal(TD_(init_log)(&d, logs[li], (domain_roots)roots, 1), CUZK_OK);
            size_t n = d.n, m = n > 4 ? n - n / 4 + 1 : n;
            bufs s = bufs_new(n);
            FE_T *h_gen = alloc_vec(n);
            for (int it = 0; it < test_iters(2); it++) {
                satisfied_system(s.a, s.b, s.c, m, n);
                compute_h(&s, m, &d, POLY_H_COSET_GENERATOR, 2);
                assert_true(TQ_(h_top_is_zero)(s.ha, &d));
                assert_true(identity_holds(s.a, s.b, s.c, s.ha, &d));
                memcpy(h_gen, s.ha, n * sizeof(FE_T));
                /* The quotient is unique: the odd coset gives the same h. */
                compute_h(&s, m, &d, POLY_H_COSET_2N_ROOT, 2);
                assert_true(TQ_(h_top_is_zero)(s.ha, &d));
                assert_memory_equal(h_gen, s.ha, n * sizeof(FE_T));
            }
            free(h_gen);
            bufs_free(&s);
            TD_(free)(&d);
        }
    }
}

/* One violated constraint: the remainder shows in the top coefficient,
 * which is exactly e_j w^j / (n Z), and the identity fails. */
static void test_unsatisfied(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TQ_PREFIX "unsatisfied"));
    TD_T d;
    assert_int_equal(TD_(init_log)(&d, 8, DOMAIN_ROOTS_BELLMAN, 1), CUZK_OK);
    size_t n = d.n;
    bufs s = bufs_new(n);
    for (int coset = 0; coset < 2; coset++) {
        for (int it = 0; it < test_iters(3); it++) {
            satisfied_system(s.a, s.b, s.c, n, n);
            size_t j = rng_u64(&rng) % n;
            FE_T e, want, z, t;
            FE_(random)(&e, &rng);
            FE_(sub)(&s.c[j], &s.c[j], &e); /* a_j b_j - c_j = e */
            compute_h(&s, n, &d, (poly_h_coset)coset, 1);
            assert_false(TQ_(h_top_is_zero)(s.ha, &d));
            assert_false(identity_holds(s.a, s.b, s.c, s.ha, &d));
            if (coset == POLY_H_COSET_GENERATOR) {
                z = d.z_coset;
            } else {
                FE_(from_u64)(&z, 2);
                FE_(neg)(&z, &z);
            }
            FE_(pow_var)(&t, &d.omega, (uint64_t[]){j}, 1);
            FE_(mul)(&want, &e, &t);
            FE_(mul)(&want, &want, &d.n_inv);
            FE_(inv_var)(&t, &z);
            FE_(mul)(&want, &want, &t);
            assert_true(FE_(eq)(&s.ha[n - 1], &want));
        }
    }
    /* The documented blind spot: e_1 w + e_2 w^2 = 0 leaves the top zero
     * although two constraints fail; the identity still catches it. */
    satisfied_system(s.a, s.b, s.c, n, n);
    FE_T e1, e2;
    FE_(random)(&e1, &rng);
    FE_(mul)(&e2, &e1, &d.omega_inv);
    FE_(neg)(&e2, &e2);
    FE_(sub)(&s.c[1], &s.c[1], &e1);
    FE_(sub)(&s.c[2], &s.c[2], &e2);
    compute_h(&s, n, &d, POLY_H_COSET_GENERATOR, 1);
    assert_true(TQ_(h_top_is_zero)(s.ha, &d));
    assert_false(identity_holds(s.a, s.b, s.c, s.ha, &d));
    bufs_free(&s);
    TD_(free)(&d);
}

/* The coset evaluations (snarkjs's input to the H MSM) at s w^i. */
static void test_coset_evals(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TQ_PREFIX "coset_evals"));
    for (int roots = 0; roots < 2; roots++) {
        TD_T d;
        assert_int_equal(TD_(init_log)(&d, 9, (domain_roots)roots, 1), CUZK_OK);
        size_t n = d.n, m = n - 7;
        bufs s = bufs_new(n);
        for (int coset = 0; coset < 2; coset++) {
            for (size_t i = 0; i < n; i++) { /* unrelated a, b, c */
                FE_(random)(&s.a[i], &rng);
                FE_(random)(&s.b[i], &rng);
                FE_(random)(&s.c[i], &rng);
                if (i >= m)
                    s.a[i] = s.b[i] = s.c[i] = FE_ZERO;
            }
            memcpy(s.ha, s.a, n * sizeof(FE_T));
            memcpy(s.hb, s.b, n * sizeof(FE_T));
            memcpy(s.hc, s.c, n * sizeof(FE_T));
            assert_int_equal(TQ_(h_coset_evals)(s.ha, s.hb, s.hc, m, &d, (poly_h_coset)coset, 2),
                             CUZK_OK);
            FE_T shift = coset == POLY_H_COSET_GENERATOR ? d.shift : d.omega_2n;
            for (int t = 0; t < 4; t++) {
                size_t i = rng_u64(&rng) % n;
                FE_T pt, av, bv, cv;
                FE_(pow_var)(&pt, &d.omega, (uint64_t[]){i}, 1);
                FE_(mul)(&pt, &pt, &shift);
                barycentric(&av, s.a, &d, &pt);
                barycentric(&bv, s.b, &d, &pt);
                barycentric(&cv, s.c, &d, &pt);
                FE_(mul)(&av, &av, &bv);
                FE_(sub)(&av, &av, &cv);
                assert_true(FE_(eq)(&s.ha[i], &av));
            }
        }
        bufs_free(&s);
        TD_(free)(&d);
    }
}

/* Large enough for the streaming passes; 1 and 2 threads agree. */
static void test_threads_and_size(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TQ_PREFIX "threads"));
    TD_T d;
    assert_int_equal(TD_(init_log)(&d, 15, DOMAIN_ROOTS_BELLMAN, 2), CUZK_OK);
    size_t n = d.n, m = n - 1000;
    bufs s = bufs_new(n);
    FE_T *h1 = alloc_vec(n);
    satisfied_system(s.a, s.b, s.c, m, n);
    compute_h(&s, m, &d, POLY_H_COSET_GENERATOR, 1);
    memcpy(h1, s.ha, n * sizeof(FE_T));
    compute_h(&s, m, &d, POLY_H_COSET_GENERATOR, 2);
    assert_memory_equal(h1, s.ha, n * sizeof(FE_T));
    assert_true(TQ_(h_top_is_zero)(s.ha, &d));
    assert_true(identity_holds(s.a, s.b, s.c, s.ha, &d));
    free(h1);
    bufs_free(&s);
    TD_(free)(&d);
}

static void test_arguments(void **state)
{
    (void)state;
    TD_T d;
    assert_int_equal(TD_(init_log)(&d, 3, DOMAIN_ROOTS_BELLMAN, 1), CUZK_OK);
    FE_T a[8] = {{{0}}}, b[8] = {{{0}}}, c[8] = {{{0}}};
    assert_int_equal(TQ_(compute_h)(a, b, c, 9, &d, POLY_H_COSET_GENERATOR, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(TQ_(h_coset_evals)(a, b, c, 9, &d, POLY_H_COSET_2N_ROOT, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(TQ_(compute_h)(a, b, c, 0, &d, POLY_H_COSET_2N_ROOT, 1), CUZK_OK);
    for (size_t i = 0; i < 8; i++)
        assert_true(FE_(is_zero)(&a[i]));
    TD_(free)(&d);
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
