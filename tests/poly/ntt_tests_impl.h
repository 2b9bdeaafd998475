/* The NTT tests of one scalar field: every order, direction and coset
 * against a naive O(n^2) DFT; spot checks by Horner at sizes where the
 * blocked passes run; round trips; thread-count independence; bit reversal
 * and power scaling. A template: test_ntt.c (BLS12-381's Fr) and
 * test_bn254_ntt.c include it once, after their field's _names.h (FE_ ...)
 * and
 *   TD_(name), TD_T   the domain functions and type (domain_##name)
 *   TN_(name)         the NTT functions (ntt_##name)
 *   TN_PREFIX         the prefix of the tests' seed names ("ntt_")
 * It defines the test functions; the including file runs them. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seed.h"

static rng_t rng;

static const char *order_name[] = {"NN", "NR", "RN", "RR"};

static FE_T *alloc_vec(size_t n)
{
    FE_T *v = malloc((n ? n : 1) * sizeof(FE_T));
    assert_non_null(v);
    return v;
}

static void random_vec(FE_T *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        FE_(random)(&v[i], &rng);
}

static uint64_t brv(uint64_t x, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        r |= ((x >> i) & 1) << (bits - 1 - i);
    return r;
}

static unsigned log2_of(size_t n)
{
    unsigned k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

/* out[p] = in[brv(p)] (or a copy when natural). */
static void to_layout(FE_T *out, const FE_T *in, size_t n, int reversed)
{
    unsigned k = log2_of(n);
    for (size_t p = 0; p < n; p++)
        out[p] = in[reversed ? brv(p, k) : p];
}

static int input_reversed(ntt_order o)
{
    return o == NTT_RN || o == NTT_RR;
}

static int output_reversed(ntt_order o)
{
    return o == NTT_NR || o == NTT_RR;
}

/* The coset shift: g, or 1 for the standard transform. */
static FE_T shift_of(const TD_T *d, ntt_coset coset)
{
    return coset == NTT_COSET ? d->shift : FE_ONE;
}

/* Naive transforms on natural layouts.
 * Forward: y_i = sum_j x_j (s w^i)^j.
 * Inverse: x_j = s^-j / n sum_i y_i w^-ij. */
static void naive(FE_T *out, const FE_T *in, const TD_T *d, ntt_direction dir, const FE_T *shift)
{
    size_t n = d->n;
    if (dir == NTT_FORWARD) {
        FE_T wi = FE_ONE;
        for (size_t i = 0; i < n; i++) {
            FE_T x, acc = FE_ZERO, p = FE_ONE;
            FE_(mul)(&x, shift, &wi);
            for (size_t j = 0; j < n; j++) {
                FE_T t;
                FE_(mul)(&t, &in[j], &p);
                FE_(add)(&acc, &acc, &t);
                FE_(mul)(&p, &p, &x);
            }
            out[i] = acc;
            FE_(mul)(&wi, &wi, &d->omega);
        }
    } else {
        FE_T s_inv, sj = FE_ONE, wj = FE_ONE;
        FE_(inv_var)(&s_inv, shift);
        for (size_t j = 0; j < n; j++) {
            FE_T acc = FE_ZERO, p = FE_ONE;
            for (size_t i = 0; i < n; i++) {
                FE_T t;
                FE_(mul)(&t, &in[i], &p);
                FE_(add)(&acc, &acc, &t);
                FE_(mul)(&p, &p, &wj); /* w^-ij */
            }
            FE_(mul)(&acc, &acc, &d->n_inv);
            FE_(mul)(&out[j], &acc, &sj);
            FE_(mul)(&sj, &sj, &s_inv);
            FE_(mul)(&wj, &wj, &d->omega_inv);
        }
    }
}

static void check_against_naive(const TD_T *d)
{
    size_t n = d->n;
    FE_T *x = alloc_vec(n), *want = alloc_vec(n), *buf = alloc_vec(n), *exp = alloc_vec(n);
    for (int dir = 0; dir < 2; dir++) {
        /* coset 0, 1: NTT_STANDARD, NTT_COSET; 2: a random shift */
        for (int coset = 0; coset < 3; coset++) {
            random_vec(x, n);
            FE_T s;
            if (coset < 2)
                s = shift_of(d, (ntt_coset)coset);
            else
                FE_(random)(&s, &rng);
            naive(want, x, d, (ntt_direction)dir, &s);
            for (int o = 0; o < 4; o++) {
                to_layout(buf, x, n, input_reversed((ntt_order)o));
                if (coset < 2)
                    TN_(transform)(buf, d, (ntt_order)o, (ntt_direction)dir, (ntt_coset)coset, 1);
                else
                    TN_(transform_shift)(buf, d, (ntt_order)o, (ntt_direction)dir, &s, 1);
                to_layout(exp, want, n, output_reversed((ntt_order)o));
                for (size_t i = 0; i < n; i++) {
                    if (!FE_(eq)(&buf[i], &exp[i])) {
                        printf("mismatch: n=%zu order=%s dir=%d coset=%d roots=%d at %zu\n", n,
                               order_name[o], dir, coset, (int)d->roots, i);
                        fail();
                    }
                }
            }
        }
    }
    free(x);
    free(want);
    free(buf);
    free(exp);
}

static void test_naive_dft(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TN_PREFIX "naive_dft"));
    const unsigned logs[] = {0, 1, 2, 3, 4, 6, 8};
    for (int roots = 0; roots < 2; roots++) {
        for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
            TD_T d;
            assert_int_equal(TD_(init_log)(&d, logs[i], (domain_roots)roots, 1), CUZK_OK);
            check_against_naive(&d);
            TD_(free)(&d);
        }
    }
}

/* Horner evaluation of natural coefficients at x. */
static void horner(FE_T *r, const FE_T *c, size_t n, const FE_T *x)
{
    FE_T acc = FE_ZERO;
    for (size_t i = n; i-- > 0;) {
        FE_(mul)(&acc, &acc, x);
        FE_(add)(&acc, &acc, &c[i]);
    }
    *r = acc;
}

/* Sizes where the streaming passes and cache blocks both run: forward
 * outputs are checked at random indices against Horner; inverse outputs by
 * evaluating the coefficients they produce at random domain points. */
static void test_spot_checks(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TN_PREFIX "spot_checks"));
    const unsigned logs[] = {14, 15, 16};
    for (size_t li = 0; li < sizeof(logs) / sizeof(logs[0]); li++) {
        TD_T d;
        assert_int_equal(TD_(init_log)(&d, logs[li], DOMAIN_ROOTS_BELLMAN, 2), CUZK_OK);
        size_t n = d.n;
        unsigned k = d.log_n;
        int checks = k >= 16 ? 2 : 4; /* each costs an n-term Horner sum */
        FE_T *x = alloc_vec(n), *buf = alloc_vec(n), *nat = alloc_vec(n);
        for (int coset = 0; coset < 2; coset++) {
            FE_T s = shift_of(&d, (ntt_coset)coset);
            for (int o = 0; o < 4; o++) {
                random_vec(x, n);
                /* forward: buf holds y_i = X(s w^i) */
                to_layout(buf, x, n, input_reversed((ntt_order)o));
                TN_(transform)(buf, &d, (ntt_order)o, NTT_FORWARD, (ntt_coset)coset, 2);
                for (int t = 0; t < checks; t++) {
                    size_t i = rng_u64(&rng) % n;
                    FE_T pt, want, wi;
                    FE_(pow_var)(&wi, &d.omega, (uint64_t[]){i}, 1);
                    FE_(mul)(&pt, &s, &wi);
                    horner(&want, x, n, &pt);
                    size_t pos = output_reversed((ntt_order)o) ? brv(i, k) : i;
                    assert_true(FE_(eq)(&buf[pos], &want));
                }
                /* inverse: x holds evaluations at s w^i; the coefficients
                 * must evaluate back to them. */
                to_layout(buf, x, n, input_reversed((ntt_order)o));
                TN_(transform)(buf, &d, (ntt_order)o, NTT_INVERSE, (ntt_coset)coset, 2);
                if (output_reversed((ntt_order)o))
                    to_layout(nat, buf, n, 1);
                else
                    memcpy(nat, buf, n * sizeof(FE_T));
                for (int t = 0; t < checks; t++) {
                    size_t i = rng_u64(&rng) % n;
                    FE_T pt, got, wi;
                    FE_(pow_var)(&wi, &d.omega, (uint64_t[]){i}, 1);
                    FE_(mul)(&pt, &s, &wi);
                    horner(&got, nat, n, &pt);
                    assert_true(FE_(eq)(&got, &x[i]));
                }
            }
        }
        free(x);
        free(buf);
        free(nat);
        TD_(free)(&d);
    }
}

/* Forward then inverse is the identity, for each order pairing that makes
 * the layouts line up (forward XY, then inverse YX). */
static void test_round_trips(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TN_PREFIX "round_trips"));
    for (unsigned k = 10; k <= 16; k++) {
        TD_T d;
        assert_int_equal(TD_(init_log)(&d, k, DOMAIN_ROOTS_BELLMAN, 2), CUZK_OK);
        FE_T *x = alloc_vec(d.n), *buf = alloc_vec(d.n);
        int iters = k <= 13 ? test_iters(2) : test_iters(1);
        for (int it = 0; it < iters; it++) {
            for (int coset = 0; coset < 2; coset++) {
                const ntt_order fwd[] = {NTT_NN, NTT_NR, NTT_RN, NTT_RR};
                const ntt_order inv[] = {NTT_NN, NTT_RN, NTT_NR, NTT_RR};
                int o = (int)((k + (unsigned)it + (unsigned)coset) % 4);
                random_vec(x, d.n);
                memcpy(buf, x, d.n * sizeof(FE_T));
                TN_(transform)(buf, &d, fwd[o], NTT_FORWARD, (ntt_coset)coset, 2);
                TN_(transform)(buf, &d, inv[o], NTT_INVERSE, (ntt_coset)coset, 2);
                if (memcmp(buf, x, d.n * sizeof(FE_T)) != 0) {
                    printf("round trip failed: k=%u order=%s coset=%d\n", k, order_name[o], coset);
                    fail();
                }
            }
        }
        free(x);
        free(buf);
        TD_(free)(&d);
    }
}

/* 1, 2 and 3 threads give the same bits. */
static void test_threads(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TN_PREFIX "threads"));
    const unsigned logs[] = {9, 14, 15};
    for (size_t li = 0; li < sizeof(logs) / sizeof(logs[0]); li++) {
        TD_T d;
        assert_int_equal(TD_(init_log)(&d, logs[li], DOMAIN_ROOTS_BELLMAN, 0), CUZK_OK);
        FE_T *x = alloc_vec(d.n), *one = alloc_vec(d.n), *many = alloc_vec(d.n);
        random_vec(x, d.n);
        for (int o = 0; o < 4; o++) {
            int dir = o & 1, coset = (o >> 1) & 1;
            memcpy(one, x, d.n * sizeof(FE_T));
            TN_(transform)(one, &d, (ntt_order)o, (ntt_direction)dir, (ntt_coset)coset, 1);
            for (unsigned t = 2; t <= 3; t++) {
                memcpy(many, x, d.n * sizeof(FE_T));
                TN_(transform)(many, &d, (ntt_order)o, (ntt_direction)dir, (ntt_coset)coset, t);
                assert_memory_equal(one, many, d.n * sizeof(FE_T));
            }
        }
        free(x);
        free(one);
        free(many);
        TD_(free)(&d);
    }
}

static void test_bit_reverse(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TN_PREFIX "bit_reverse"));
    const unsigned logs[] = {0, 1, 2, 3, 5, 7, 8, 9, 10, 11, 12, 13, 16};
    for (size_t li = 0; li < sizeof(logs) / sizeof(logs[0]); li++) {
        size_t n = (size_t)1 << logs[li];
        FE_T *x = alloc_vec(n), *want = alloc_vec(n);
        random_vec(x, n);
        to_layout(want, x, n, 1);
        TN_(bit_reverse)(x, n, (unsigned)(li % 3));
        assert_memory_equal(x, want, n * sizeof(FE_T));
        free(x);
        free(want);
    }
}

static void test_scale_powers(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TN_PREFIX "scale_powers"));
    const unsigned logs[] = {0, 1, 3, 10, 11, 14};
    for (size_t li = 0; li < sizeof(logs) / sizeof(logs[0]); li++) {
        size_t n = (size_t)1 << logs[li];
        FE_T *x = alloc_vec(n), *buf = alloc_vec(n), start, ratio;
        random_vec(x, n);
        FE_(random)(&start, &rng);
        FE_(random)(&ratio, &rng);
        for (int layout = 0; layout < 2; layout++) {
            memcpy(buf, x, n * sizeof(FE_T));
            TN_(scale_powers)(buf, n, (ntt_layout)layout, &start, &ratio, 2);
            FE_T f = start;
            for (size_t i = 0; i < n; i++) {
                size_t p = layout == NTT_BIT_REVERSED ? brv(i, logs[li]) : i;
                FE_T want;
                FE_(mul)(&want, &x[p], &f);
                assert_true(FE_(eq)(&buf[p], &want));
                FE_(mul)(&f, &f, &ratio);
            }
        }
        free(x);
        free(buf);
    }
}
