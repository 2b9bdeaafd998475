/* MSM on G1 and G2 against two references: a naive Σ [k_i]P_i by
 * jac_mul_var (small sizes), and, for every size, points with known
 * discrete logs P_i = [a_i]G, for which Σ [k_i]P_i = [Σ k_i·a_i]G (one
 * scalar multiplication, the sum computed in Fr). Covers sizes 0 .. 2^12+1,
 * edge scalars (0, 1, r − 1, carry chains through every window), forced
 * window sizes, infinity and repeated or opposite points (the bucket
 * doubling and cancelling cases), thread counts, the 0/1 split and the
 * density-filtered variant against the plain MSM on the expanded inputs,
 * the affine-bucket path forced on small inputs with tiny batches and
 * queues (a bucket repeated inside a batch, P + P and P + (−P) in one
 * batch, the XYZZ spill buckets) and sizes around its threshold, the
 * endomorphism split (the division by x² against 128-bit arithmetic on
 * edge and random scalars; the split forced on and off through every shape
 * of input above, with scalars around multiples of x²), and argument
 * errors.
 *
 * The group-generic half is this file again, included once per group with
 * TG_ (the curve functions), TM_ (the MSM functions) and TG_LOG_MAX set. */

#ifndef TG_

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msm/msm.h"
#include "msm/msm_internal.h"
#include "seed.h"

static rng_t rng;

static size_t rnd(size_t n)
{
    return (size_t)(rng_u64(&rng) % n);
}

/* acc (n 64-bit limbs) += a·b, a and b of two limbs each; the caller makes
 * sure the sum fits. */
static void mul_add_2x2(uint64_t *acc, int n, const uint64_t a[2], const uint64_t b[2])
{
    for (int i = 0; i < 2; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 2; j++) {
            unsigned __int128 m = (unsigned __int128)a[i] * b[j] + acc[i + j] + carry;
            acc[i + j] = (uint64_t)m;
            carry = (uint64_t)(m >> 64);
        }
        for (int j = i + 2; j < n && carry; j++) {
            acc[j] += carry;
            carry = acc[j] < carry;
        }
    }
}

/* Scalars that stress the recoding: the extremes of [0, r), powers of two
 * at window edges, patterns whose windows all carry, and the values around
 * multiples of x² where the endomorphism split's halves change. */
#define EDGE_COUNT 20
static void edge_scalar(fr_t *k, unsigned which)
{
    uint64_t raw[4] = {0, 0, 0, 0};
    switch (which % EDGE_COUNT) {
    case 0:
        break;
    case 1:
        raw[0] = 1;
        break;
    case 2: /* r − 1 */
    case 3: /* r − 2 */
        memcpy(raw, FR_MODULUS, sizeof(raw));
        raw[0] -= (which % EDGE_COUNT) - 1;
        break;
    case 4: /* (r − 1)/2 */
        memcpy(raw, FR_MODULUS, sizeof(raw));
        raw[0] -= 1;
        for (int i = 0; i < 4; i++)
            raw[i] = (raw[i] >> 1) | (i < 3 ? raw[i + 1] << 63 : 0);
        break;
    case 5: /* 2^254 */
        raw[3] = (uint64_t)1 << 62;
        break;
    case 6: /* 2^254 − 1: every window all ones, the carry ripples to the top */
        raw[0] = raw[1] = raw[2] = ~(uint64_t)0;
        raw[3] = ((uint64_t)1 << 62) - 1;
        break;
    case 7:    /* 0x8080...: digits at the half-way point 2^(c−1) for c = 8, 16 */
    case 8:    /* 0x8888...: c = 4 */
    case 9:    /* 0xc0c0... */
    case 10: { /* 0xa5a5... */
        static const uint64_t pat[] = {0x8080808080808080ULL, 0x8888888888888888ULL,
                                       0xc0c0c0c0c0c0c0c0ULL, 0xa5a5a5a5a5a5a5a5ULL};
        uint64_t p = pat[(which % EDGE_COUNT) - 7];
        raw[0] = raw[1] = raw[2] = p;
        raw[3] = p & 0x3fffffffffffffffULL;
        break;
    }
    case 11: /* r − 2^k for a random k < 200 */
    {
        memcpy(raw, FR_MODULUS, sizeof(raw));
        unsigned b = (unsigned)rnd(200);
        uint64_t borrow = (uint64_t)1 << (b & 63);
        for (unsigned i = b >> 6; i < 4 && borrow; i++) {
            uint64_t t = raw[i];
            raw[i] = t - borrow;
            borrow = t < borrow;
        }
        break;
    }
    case 12: /* a small value */
        raw[0] = rnd(1 << 16);
        break;
    case 13: /* one bit at a random place */
    {
        unsigned b = (unsigned)rnd(255);
        raw[b >> 6] = (uint64_t)1 << (b & 63);
        break;
    }
    case 14: /* x²: k1 = 0, k2 = 1 */
    case 15: /* x² − 1: k1 = x² − 1, k2 = 0 */
    case 16: /* x² + 1 */
    case 17: /* q·x² + d, q < 2^125 random, d ∈ {−1, 0, 1} */
    {
        uint64_t q[2] = {1, 0};
        if (which % EDGE_COUNT == 17) {
            q[0] = rng_u64(&rng);
            q[1] = rng_u64(&rng) >> 3;
        }
        mul_add_2x2(raw, 4, q, MSM_GLV_X2); /* raw = q·x² */
        int d = which % EDGE_COUNT == 15 ? -1 : which % EDGE_COUNT == 16 ? 1 : (int)rnd(3) - 1;
        if (d > 0)
            for (int i = 0; i < 4 && ++raw[i] == 0; i++)
                ;
        else if (d < 0)
            for (int i = 0; i < 4 && raw[i]-- == 0; i++)
                ;
        break;
    }
    default:
        fr_random(k, &rng);
        return;
    }
    fr_from_raw(k, raw);
}

/* 0, 1 or random, with the given percentages of zeros and ones. */
static void mixed_scalar(fr_t *k, unsigned zero_pct, unsigned one_pct)
{
    unsigned x = (unsigned)rnd(100);
    if (x < zero_pct)
        *k = FR_ZERO;
    else if (x < zero_pct + one_pct)
        *k = FR_ONE;
    else
        fr_random(k, &rng);
}

/* k == k1 + k2·x² with k1 < x² and k2 < 2^128, the top limbs of both zero. */
static void check_glv_split(const uint64_t k[4])
{
    uint64_t k1[4], k2[4];
    memset(k1, 0xa5, sizeof(k1));
    memset(k2, 0xa5, sizeof(k2));
    msm_glv_split(k1, k2, k);
    assert_int_equal(k1[2] | k1[3] | k2[2] | k2[3], 0);
    unsigned __int128 a = ((unsigned __int128)k1[1] << 64) | k1[0];
    unsigned __int128 x2 = ((unsigned __int128)MSM_GLV_X2[1] << 64) | MSM_GLV_X2[0];
    assert_true(a < x2);
    /* k2·x² + k1 in 256 bits by 64-bit limbs. */
    uint64_t sum[5] = {k1[0], k1[1], 0, 0, 0};
    mul_add_2x2(sum, 5, k2, MSM_GLV_X2);
    if (memcmp(sum, k, sizeof(uint64_t[4])) != 0 || sum[4] != 0)
        fprintf(stderr, "glv split of %016llx%016llx%016llx%016llx\n", (unsigned long long)k[3],
                (unsigned long long)k[2], (unsigned long long)k[1], (unsigned long long)k[0]);
    assert_memory_equal(sum, k, sizeof(uint64_t[4]));
    assert_int_equal(sum[4], 0);
}

static void test_glv_split(void **state)
{
    (void)state;
    /* x² and r from the BLS parameter: r = x⁴ − x² + 1. */
    uint64_t x2[4] = {MSM_GLV_X2[0], MSM_GLV_X2[1], 0, 0};
    uint64_t x4[4] = {0, 0, 0, 0};
    mul_add_2x2(x4, 4, x2, x2);
    uint64_t r[4], borrow = 0;
    for (int i = 0; i < 4; i++) {
        unsigned __int128 d = (unsigned __int128)x4[i] - x2[i] - borrow + (i == 0);
        r[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    assert_memory_equal(r, FR_MODULUS, sizeof(r));

    uint64_t k[4] = {0, 0, 0, 0};
    check_glv_split(k); /* 0 */
    k[0] = 1;
    check_glv_split(k);
    memcpy(k, FR_MODULUS, sizeof(k));
    k[0] -= 1;
    check_glv_split(k); /* r − 1 = x²·(x² − 1): k1 = 0 */
    uint64_t k1[4], k2[4];
    msm_glv_split(k1, k2, k);
    assert_int_equal(k1[0] | k1[1], 0);
    memset(k, 0xff, sizeof(k));
    k[3] >>= 1;
    check_glv_split(k); /* 2^255 − 1, the largest input */
    for (unsigned e = 0; e < EDGE_COUNT; e++) {
        fr_t f;
        edge_scalar(&f, e);
        fr_to_raw(k, &f);
        check_glv_split(k);
    }
    /* q·x² + d for q at the extremes (the largest q with q·x² < 2^255). */
    for (int v = 0; v < 200; v++) {
        fr_t f;
        edge_scalar(&f, 17);
        fr_to_raw(k, &f);
        check_glv_split(k);
    }
    int iters = test_iters(20000);
    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < 4; i++)
            k[i] = rng_u64(&rng);
        k[3] >>= 1 + rnd(63); /* lengths of 193 to 255 bits */
        if (rnd(4) == 0)
            for (size_t i = 1 + rnd(3); i < 4; i++)
                k[i] = 0; /* and shorter ones */
        if (rnd(2)) {
            k[3] &= 0x7fffffffffffffffULL;
            k[2] = (rnd(2) ? ~(uint64_t)0 : 0);
        }
        check_glv_split(k);
    }
}

/* ---------------------------------------------------------------- groups */

#define TG_(name) g1_##name
#define TM_(suffix) msm_g1##suffix
#define TG_GEN G1_GENERATOR
#define TG_NAME "G1"
#define TG_LOG_MAX 12
#define TG_WINDOW_MAX 16
#define TG_AFFINE_MIN MSM_G1_AFFINE_MIN_POINTS
#include "test_msm.c"
#undef TG_
#undef TM_
#undef TG_GEN
#undef TG_NAME
#undef TG_LOG_MAX
#undef TG_WINDOW_MAX
#undef TG_AFFINE_MIN

#define TG_(name) g2_##name
#define TM_(suffix) msm_g2##suffix
#define TG_GEN G2_GENERATOR
#define TG_NAME "G2"
#define TG_LOG_MAX 10
#define TG_WINDOW_MAX 13
#define TG_AFFINE_MIN MSM_G2_AFFINE_MIN_POINTS
#include "test_msm.c"

/* ------------------------------------------------------------------ main */

static void test_plan(void **state)
{
    (void)state;
    /* The model's choices grow with n and stay in range. */
    unsigned prev = 0;
    for (unsigned lg = 0; lg <= 26; lg++) {
        unsigned c = msm_g1_window_bits((size_t)1 << lg, 1);
        assert_true(c >= 4 && c <= 20);
        assert_true(c >= prev);
        prev = c;
        unsigned c2 = msm_g2_window_bits((size_t)1 << lg, 2);
        assert_true(c2 >= 4 && c2 <= 20);
    }
    /* More threads than windows: windows are cut into point ranges (the
     * path test_threads takes with 64 threads). */
    msm_plan plan;
    msm_plan_make(&plan, 1500, 64, sizeof(g1_xyzz_t), 1.25, 0);
    assert_true(plan.parts > 1);
    assert_true(plan.workers <= 64);
    msm_plan_make(&plan, 1500, 1, sizeof(g1_xyzz_t), 1.25, 0);
    assert_int_equal(plan.parts, 1);
    assert_int_equal(plan.workers, 1);
    /* The recoding constant: window w of offset is 2^(c−1) − 1. */
    msm_plan_make(&plan, 1000, 1, sizeof(g1_xyzz_t), 1.25, 10);
    assert_int_equal(plan.c, 10);
    assert_int_equal(plan.nwin, 26);
    uint64_t zero[4] = {0, 0, 0, 0};
    for (unsigned w = 0; w < plan.nwin; w++)
        assert_int_equal(msm_digit(zero, &plan, w), 0);
    /* 128-bit scalars: ceil(129/c) windows, whose digits give back k for
     * the largest k and every c. */
    for (unsigned c = MSM_MIN_C; c <= MSM_MAX_C; c++) {
        msm_plan_make_bits(&plan, 1000, 1, sizeof(g1_xyzz_t), 1, 2.5, MSM_GLV_BITS, c);
        assert_int_equal(plan.c, c);
        assert_int_equal(plan.nwin, (MSM_GLV_BITS + 1 + c - 1) / c);
        uint64_t top[4] = {~(uint64_t)0, ~(uint64_t)0, 0, 0};
        /* Σ d_w·2^(cw) by Horner's rule in 128 bits (wrapping). */
        unsigned __int128 acc = 0;
        for (unsigned w = plan.nwin; w-- > 0;) {
            int d = msm_digit(top, &plan, w);
            assert_true(d >= -(int)((1u << (c - 1)) - 1) && d <= (int)(1u << (c - 1)));
            acc = (c >= 128 ? 0 : acc << c) + (unsigned __int128)(__int128)d;
        }
        assert_true(acc == ~(unsigned __int128)0);
    }
}

int main(void)
{
    rng_seed(&rng, test_seed("test_msm"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan),
        cmocka_unit_test(test_glv_split),
        cmocka_unit_test(g1_test_naive_small),
        cmocka_unit_test(g1_test_sizes),
        cmocka_unit_test(g1_test_edge_scalars),
        cmocka_unit_test(g1_test_windows),
        cmocka_unit_test(g1_test_special_points),
        cmocka_unit_test(g1_test_zero_one),
        cmocka_unit_test(g1_test_dense),
        cmocka_unit_test(g1_test_threads),
        cmocka_unit_test(g1_test_affine_buckets),
        cmocka_unit_test(g1_test_affine_threshold),
        cmocka_unit_test(g1_test_endo),
        cmocka_unit_test(g1_test_errors),
        cmocka_unit_test(g2_test_naive_small),
        cmocka_unit_test(g2_test_sizes),
        cmocka_unit_test(g2_test_edge_scalars),
        cmocka_unit_test(g2_test_windows),
        cmocka_unit_test(g2_test_special_points),
        cmocka_unit_test(g2_test_zero_one),
        cmocka_unit_test(g2_test_dense),
        cmocka_unit_test(g2_test_threads),
        cmocka_unit_test(g2_test_affine_buckets),
        cmocka_unit_test(g2_test_affine_threshold),
        cmocka_unit_test(g2_test_endo),
        cmocka_unit_test(g2_test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* ------------------------------------------- one group (TG_, TM_) */

#define TS_(name) fr_##name
#define TS_T fr_t
#define TS_ZERO FR_ZERO
#include "msm_test_points_impl.h"
#undef TS_
#undef TS_T
#undef TS_ZERO

static void TG_(test_naive_small)(void **state)
{
    (void)state;
    int iters = test_iters(1);
    for (int it = 0; it < iters; it++)
        for (size_t n = 0; n <= 40; n += (n < 17 ? 1 : 7)) {
            TG_(t_set) s;
            TG_(t_make)(&s, n);
            fr_t *k = TG_(t_scalars)(n);
            for (size_t i = 0; i < n; i++)
                if (rnd(5) == 0)
                    edge_scalar(&k[i], (unsigned)rnd(EDGE_COUNT));
            if (n > 4)
                TG_(t_set_infinity)(&s, rnd(n));
            TG_(t_jac) ref, naive;
            TG_(t_ref)(&ref, &s, k);
            TG_(t_naive)(&naive, s.p, k, n);
            TG_(t_expect)(&naive, &ref, "naive sum", n, 0);
            TG_(t_check_all)(&s, k, &ref, 1);
            TG_(t_check_all)(&s, k, &ref, 2);
            free(k);
            TG_(t_free)(&s);
        }
}

static void TG_(test_sizes)(void **state)
{
    (void)state;
    TG_(t_set) s;
    TG_(t_make)(&s, ((size_t)1 << TG_LOG_MAX) + 1);
    fr_t *k = TG_(t_scalars)(s.n);
    size_t all = s.n;
    for (unsigned lg = 1; lg <= TG_LOG_MAX; lg++) {
        size_t sizes[3] = {((size_t)1 << lg) - 1, (size_t)1 << lg, ((size_t)1 << lg) + 1};
        for (int v = 0; v < 3; v++) {
            s.n = sizes[v];
            if (v == 0 && lg > 8)
                continue; /* the odd sizes 2^k ± 1 are covered below 2^9 */
            TG_(t_jac) ref, got;
            TG_(t_ref)(&ref, &s, k);
            unsigned threads = v == 1 ? 1 : 2;
            assert_int_equal(TM_()(&got, s.p, k, s.n, threads), CUZK_OK);
            TG_(t_expect)(&got, &ref, "msm", s.n, threads);
            if (lg <= 8)
                TG_(t_check_all)(&s, k, &ref, 0);
        }
    }
    s.n = all;
    free(k);
    TG_(t_free)(&s);
}

static void TG_(test_edge_scalars)(void **state)
{
    (void)state;
    int iters = test_iters(2);
    TG_(t_set) s;
    TG_(t_make)(&s, 3 * EDGE_COUNT);
    fr_t *k = TG_(t_scalars)(s.n);
    for (int it = 0; it < iters; it++) {
        /* Every edge value at least twice, in a random order. */
        for (size_t i = 0; i < s.n; i++)
            edge_scalar(&k[i], (unsigned)(it == 0 ? i : rnd(EDGE_COUNT)));
        TG_(t_jac) ref;
        TG_(t_ref)(&ref, &s, k);
        TG_(t_check_all)(&s, k, &ref, 1);
        /* One scalar alone, every edge value. */
        TG_(t_set) one = {s.p, s.a, 1};
        for (unsigned e = 0; e < EDGE_COUNT; e++) {
            edge_scalar(&k[0], e);
            TG_(t_ref)(&ref, &one, k);
            TG_(t_check_all)(&one, k, &ref, 1);
        }
    }
    free(k);
    TG_(t_free)(&s);
}

/* Every window size from 4 bits up, on edge and random scalars: the
 * recoding's carries and the top window for each c. */
static void TG_(test_windows)(void **state)
{
    (void)state;
    TG_(t_set) s;
    TG_(t_make)(&s, 70);
    fr_t *k = TG_(t_scalars)(s.n);
    uint64_t(*raw)[4] = malloc(sizeof(uint64_t[4]) * s.n);
    assert_non_null(raw);
    for (size_t i = 0; i < s.n; i++) {
        if (i < 2 * EDGE_COUNT)
            edge_scalar(&k[i], (unsigned)i);
        fr_to_raw(raw[i], &k[i]);
    }
    TG_(t_jac) ref, got;
    TG_(t_ref)(&ref, &s, k);
    for (unsigned c = 4; c <= TG_WINDOW_MAX; c++) {
        unsigned threads = c % 2 ? 2 : 1;
        assert_int_equal(TM_(_raw_window)(&got, s.p, (const uint64_t(*)[4])raw, s.n, threads, c),
                         CUZK_OK);
        if (!TG_(jac_eq)(&got, &ref))
            fprintf(stderr, "window c = %u\n", c);
        TG_(t_expect)(&got, &ref, "msm_raw_window", s.n, threads);
    }
    free(raw);
    free(k);
    TG_(t_free)(&s);
}

/* Infinity, P_i = P_j and P_i = −P_j, with scalars drawn from a few values
 * so that equal and opposite points meet in one bucket (the doubling and
 * cancelling branches of the mixed addition), and the same point in every
 * position (equal bucket sums: doublings in the reduction). */
static void TG_(test_special_points)(void **state)
{
    (void)state;
    int iters = test_iters(2);
    for (int it = 0; it < iters; it++) {
        TG_(t_set) s;
        size_t n = 300 + rnd(64);
        TG_(t_make)(&s, n);
        fr_t few[4];
        for (int i = 0; i < 4; i++)
            edge_scalar(&few[i], (unsigned)rnd(EDGE_COUNT));
        fr_t *k = TG_(t_scalars)(n);
        for (size_t i = 0; i < n; i++) {
            size_t kind = rnd(10);
            if (kind == 0)
                TG_(t_set_infinity)(&s, i);
            else if (kind <= 3 && i > 0)
                TG_(t_copy)(&s, i, rnd(i), false);
            else if (kind <= 6 && i > 0)
                TG_(t_copy)(&s, i, rnd(i), true);
            if (rnd(3))
                k[i] = few[rnd(4)];
        }
        TG_(t_jac) ref;
        TG_(t_ref)(&ref, &s, k);
        TG_(t_check_all)(&s, k, &ref, 2);

        /* All points the same, or ± one point, or all infinity. */
        for (int shape = 0; shape < 3; shape++) {
            for (size_t i = 1; i < n; i++) {
                if (shape == 2)
                    TG_(t_set_infinity)(&s, i);
                else
                    TG_(t_copy)(&s, i, 0, shape == 1 && (i & 1));
            }
            if (shape == 2)
                TG_(t_set_infinity)(&s, 0);
            for (size_t i = 0; i < n; i++)
                k[i] = it == 0 ? FR_ONE : few[rnd(4)];
            TG_(t_ref)(&ref, &s, k);
            TG_(t_check_all)(&s, k, &ref, 1);
        }
        free(k);
        TG_(t_free)(&s);
    }
}

static void TG_(test_zero_one)(void **state)
{
    (void)state;
    static const unsigned mix[][2] = {{100, 0}, {0, 100}, {50, 50}, {45, 45},
                                      {10, 85}, {85, 10}, {0, 0},   {33, 33}};
    /* The second size spans several split blocks on any thread count. */
    size_t sizes[] = {TG_LOG_MAX < 12 ? 500 : 1000, MSM_SPLIT_BLOCK + 7};
    for (int si = 0; si < 2; si++) {
        TG_(t_set) s;
        TG_(t_make)(&s, sizes[si]);
        fr_t *k = TG_(t_scalars)(s.n);
        /* Points at infinity with every kind of scalar (the split drops
         * them), as proving keys have them. */
        for (size_t i = 0; i < s.n; i += 1 + rnd(12))
            TG_(t_set_infinity)(&s, i);
        for (size_t m = 0; m < sizeof(mix) / sizeof(mix[0]); m++) {
            /* Mostly random scalars only at the small size: the plain MSM
             * does the same work for them as any other test. */
            if (si == 1 && mix[m][0] + mix[m][1] < 90)
                continue;
            for (size_t i = 0; i < s.n; i++)
                mixed_scalar(&k[i], mix[m][0], mix[m][1]);
            TG_(t_jac) ref;
            TG_(t_ref)(&ref, &s, k);
            TG_(t_check_all)(&s, k, &ref, m % 2 ? 2 : 1);
        }
        free(k);
        TG_(t_free)(&s);
    }
}

/* The density-filtered MSM against the plain one over the points of the
 * variables whose bit is set and their scalars. */
static void TG_(test_dense)(void **state)
{
    (void)state;
    static const unsigned pct[] = {50, 10, 90, 100, 0, 97};
    int iters = test_iters(1);
    for (int it = 0; it < iters; it++)
        for (size_t d = 0; d < sizeof(pct) / sizeof(pct[0]); d++) {
            size_t n_scalars =
                d == 0 ? 2 * MSM_SPLIT_BLOCK + 37 + rnd(64) : 700 + rnd(700) + (d & 1);
            if (TG_LOG_MAX < 12)
                n_scalars /= 3;
            uint64_t *bits = calloc(n_scalars / 64 + 2, sizeof(uint64_t));
            fr_t *k = TG_(t_scalars)(n_scalars);
            assert_non_null(bits);
            size_t n_points = 0;
            for (size_t i = 0; i < n_scalars; i++) {
                mixed_scalar(&k[i], 40, 40);
                if (rnd(100) < pct[d]) {
                    bits[i / 64] |= (uint64_t)1 << (i % 64);
                    n_points++;
                }
            }
            /* Bits past n_scalars must be ignored. */
            bits[n_scalars / 64] |= ~(uint64_t)0 << (n_scalars % 64);
            bits[n_scalars / 64 + 1] = ~(uint64_t)0;
            TG_(t_set) s;
            TG_(t_make)(&s, n_points);
            fr_t *kd = malloc(sizeof(fr_t) * (n_points + 1));
            assert_non_null(kd);
            for (size_t i = 0, j = 0; i < n_scalars; i++)
                if ((bits[i / 64] >> (i % 64)) & 1)
                    kd[j++] = k[i];
            TG_(t_jac) want, got, ref;
            assert_int_equal(TM_()(&want, s.p, kd, n_points, 1), CUZK_OK);
            TG_(t_ref)(&ref, &s, kd);
            TG_(t_expect)(&want, &ref, "msm (expanded)", n_points, 1);
            unsigned threads = (unsigned)(d % 3);
            assert_int_equal(TM_(_dense)(&got, s.p, n_points, k, n_scalars, bits, threads),
                             CUZK_OK);
            TG_(t_expect)(&got, &want, "msm_dense", n_scalars, threads);

            /* A point count that does not match the bitmap. */
            TG_(t_jac) before = got;
            if (n_points > 0)
                assert_int_equal(TM_(_dense)(&got, s.p, n_points - 1, k, n_scalars, bits, threads),
                                 CUZK_ERR_INVALID_ARGUMENT);
            assert_int_equal(TM_(_dense)(&got, s.p, n_points + 1, k, n_scalars, bits, threads),
                             CUZK_ERR_INVALID_ARGUMENT);
            assert_true(TG_(jac_eq)(&got, &before));
            free(kd);
            free(k);
            free(bits);
            TG_(t_free)(&s);
        }
}

/* One result whatever the thread count, including more threads than
 * windows (windows split into point ranges). */
static void TG_(test_threads)(void **state)
{
    (void)state;
    TG_(t_set) s;
    TG_(t_make)(&s, 1500 >> (TG_LOG_MAX < 12 ? 1 : 0));
    fr_t *k = TG_(t_scalars)(s.n);
    for (size_t i = 0; i < s.n; i++)
        mixed_scalar(&k[i], 20, 20);
    TG_(t_jac) ref, got;
    TG_(t_ref)(&ref, &s, k);
    static const unsigned counts[] = {1, 2, 3, 4, 7, 16, 64, 0};
    for (size_t t = 0; t < sizeof(counts) / sizeof(counts[0]); t++) {
        assert_int_equal(TM_()(&got, s.p, k, s.n, counts[t]), CUZK_OK);
        TG_(t_expect)(&got, &ref, "msm", s.n, counts[t]);
        if (t % 2 == 0 || TG_LOG_MAX >= 12) {
            assert_int_equal(TM_(_split)(&got, s.p, k, s.n, counts[t]), CUZK_OK);
            TG_(t_expect)(&got, &ref, "msm_split", s.n, counts[t]);
        }
    }
    free(k);
    TG_(t_free)(&s);
}

/* The raw MSM through msm_*_raw_tuned against ref. */
static void TG_(t_check_tuned)(const TG_(t_set) * s, const fr_t *k, const TG_(t_jac) * ref,
                               unsigned threads, const msm_tuning *tuning)
{
    uint64_t(*raw)[4] = malloc(sizeof(uint64_t[4]) * (s->n + 1));
    assert_non_null(raw);
    for (size_t i = 0; i < s->n; i++)
        fr_to_raw(raw[i], &k[i]);
    TG_(t_jac) got;
    assert_int_equal(TM_(_raw_tuned)(&got, s->p, (const uint64_t(*)[4])raw, s->n, threads, tuning),
                     CUZK_OK);
    if (!TG_(jac_eq)(&got, ref))
        fprintf(stderr, "tuned: buckets %d, c = %u, batch %u, queue %u, endo %d\n",
                (int)tuning->buckets, tuning->window, tuning->batch, tuning->queue,
                (int)tuning->endo);
    TG_(t_expect)(&got, ref, "msm_raw_tuned", s->n, threads);
    free(raw);
}

/* The affine buckets forced onto small inputs whose points are ± a few
 * base points and whose scalars are a few values: the same bucket comes
 * back inside one batch (queued, then spilled when the queue is full),
 * equal points meet in a bucket (the doubling case) and opposite ones
 * cancel it (the bucket empties and fills again). Batch and queue sizes
 * from 1 up; windows from 4 bits; sizes 0, 1, 2, 3 and odd ones. */
static void TG_(test_affine_buckets)(void **state)
{
    (void)state;
    static const unsigned batches[] = {1, 2, 3, 8, 64};
    static const unsigned queues[] = {1, 2, 5, 0};
    static const unsigned windows[] = {4, 5, 8, 0};
    static const size_t sizes[] = {0, 1, 2, 3, 17, 99, 256, 301};
    int iters = test_iters(1);
    for (int it = 0; it < iters; it++)
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            size_t n = sizes[si];
            TG_(t_set) s;
            TG_(t_make)(&s, n);
            fr_t *k = TG_(t_scalars)(n);
            size_t bases = 1 + (size_t)it % 3;
            fr_t few[3];
            for (int i = 0; i < 3; i++)
                edge_scalar(&few[i], (unsigned)rnd(EDGE_COUNT));
            for (size_t shape = 0; shape < 4; shape++) {
                for (size_t i = 0; i < n; i++) {
                    if (shape == 0) { /* one point, one scalar: doublings */
                        if (i > 0)
                            TG_(t_copy)(&s, i, 0, false);
                        k[i] = few[0];
                    } else if (shape == 1) { /* ±P, one scalar: cancelling */
                        if (i > 0)
                            TG_(t_copy)(&s, i, 0, i & 1);
                        k[i] = few[1];
                    } else if (shape == 2) { /* ± a few points, a few scalars */
                        if (i >= bases)
                            TG_(t_copy)(&s, i, rnd(bases), rnd(2));
                        k[i] = few[rnd(3)];
                        if (rnd(20) == 0)
                            TG_(t_set_infinity)(&s, i);
                    } else { /* random scalars, some edge ones, some repeats */
                        fr_random(&k[i], &rng);
                        if (rnd(4) == 0)
                            edge_scalar(&k[i], (unsigned)rnd(EDGE_COUNT));
                        if (i > 0 && rnd(4) == 0)
                            TG_(t_copy)(&s, i, rnd(i), rnd(2));
                    }
                }
                TG_(t_jac) ref;
                TG_(t_ref)(&ref, &s, k);
                if (n <= 3) {
                    TG_(t_jac) naive;
                    TG_(t_naive)(&naive, s.p, k, n);
                    TG_(t_expect)(&naive, &ref, "naive sum", n, 0);
                }
                for (size_t b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
                    msm_tuning tuning = {.buckets = MSM_BUCKETS_AFFINE,
                                         .window = windows[(b + shape) % 4],
                                         .batch = batches[b],
                                         .queue = queues[(b + shape + si) % 4]};
                    TG_(t_check_tuned)(&s, k, &ref, 1 + (unsigned)(b % 2), &tuning);
                }
                msm_tuning xyzz = {.buckets = MSM_BUCKETS_XYZZ};
                TG_(t_check_tuned)(&s, k, &ref, 2, &xyzz);
            }
            free(k);
            TG_(t_free)(&s);
        }
}

/* Sizes around the point where the automatic choice switches to affine
 * buckets, through every entry point (the split ones with random scalars
 * run Pippenger over all of them), on random scalars and points. */
static void TG_(test_affine_threshold)(void **state)
{
    (void)state;
    size_t sizes[] = {TG_AFFINE_MIN - 1, TG_AFFINE_MIN,
                      TG_AFFINE_MIN + 1};
    TG_(t_set) s;
    TG_(t_make)(&s, sizes[2]);
    fr_t *k = TG_(t_scalars)(sizes[2]);
    for (size_t i = 0; i < sizes[2]; i += 1 + rnd(64))
        TG_(t_copy)(&s, i, rnd(sizes[2]), rnd(2));
    for (int v = 0; v < 3; v++) {
        s.n = sizes[v];
        TG_(t_jac) ref;
        TG_(t_ref)(&ref, &s, k);
        TG_(t_check_all)(&s, k, &ref, (unsigned)(1 + v % 2));
    }
    s.n = sizes[2];
    free(k);
    TG_(t_free)(&s);
}

/* The endomorphism split forced on, and off, against ref: sizes 0 .. 3,
 * odd ones and one past the affine threshold; random and edge scalars
 * (multiples of x² and their neighbours among them), points at infinity,
 * equal and opposite points (a point and its image [x²]P among them, so
 * that the two halves of a split meet in one bucket); both bucket kinds,
 * several windows and thread counts. */
static void TG_(test_endo)(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 3, 17, 301, TG_AFFINE_MIN + 3};
    static const unsigned windows[] = {0, 4, 7, 11};
    static const msm_buckets buckets[] = {MSM_BUCKETS_AUTO, MSM_BUCKETS_XYZZ, MSM_BUCKETS_AFFINE};
    uint64_t x2[4] = {MSM_GLV_X2[0], MSM_GLV_X2[1], 0, 0};
    int iters = test_iters(1);
    for (int it = 0; it < iters; it++)
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            size_t n = sizes[si];
            TG_(t_set) s;
            TG_(t_make)(&s, n);
            fr_t *k = TG_(t_scalars)(n);
            for (size_t shape = 0; shape < 3; shape++) {
                for (size_t i = 0; i < n; i++) {
                    if (shape == 0) { /* random and edge scalars */
                        fr_random(&k[i], &rng);
                        if (rnd(3) == 0)
                            edge_scalar(&k[i], (unsigned)rnd(EDGE_COUNT));
                    } else if (shape == 1) { /* the edges around x² */
                        edge_scalar(&k[i], 14 + (unsigned)rnd(4));
                    } else { /* special points */
                        fr_random(&k[i], &rng);
                        if (rnd(4) == 0)
                            edge_scalar(&k[i], (unsigned)rnd(EDGE_COUNT));
                        size_t kind = rnd(8);
                        if (kind == 0) {
                            TG_(t_set_infinity)(&s, i);
                        } else if (kind <= 2 && i > 0) {
                            TG_(t_copy)(&s, i, rnd(i), kind == 2);
                        } else if (kind == 3 && i > 0) {
                            /* p[i] = [x²]p[j] = the second half of p[j] */
                            size_t j = rnd(i);
                            TG_(t_jac) t;
                            TG_(jac_from_affine)(&t, &s.p[j]);
                            TG_(jac_mul_var)(&t, &t, x2);
                            TG_(jac_to_affine)(&s.p[i], &t);
                            fr_t fx2;
                            fr_from_raw(&fx2, x2);
                            fr_mul(&s.a[i], &s.a[j], &fx2);
                        }
                    }
                }
                TG_(t_jac) ref;
                TG_(t_ref)(&ref, &s, k);
                if (n <= 3) {
                    TG_(t_jac) naive;
                    TG_(t_naive)(&naive, s.p, k, n);
                    TG_(t_expect)(&naive, &ref, "naive sum", n, 0);
                }
                for (size_t b = 0; b < 3; b++)
                    for (int e = 0; e < 2; e++) {
                        msm_tuning tuning = {.buckets = buckets[b],
                                             .window = windows[(b + shape + si + (size_t)e) % 4],
                                             .endo = e ? MSM_ENDO_OFF : MSM_ENDO_ON};
                        TG_(t_check_tuned)(&s, k, &ref, 1 + (unsigned)((b + shape) % 2), &tuning);
                    }
            }
            free(k);
            TG_(t_free)(&s);
        }
    /* One point times each scalar around x², the split alone. */
    TG_(t_set) one;
    TG_(t_make)(&one, 1);
    for (unsigned e = 14; e < 18; e++) {
        fr_t k;
        edge_scalar(&k, e);
        TG_(t_jac) ref;
        TG_(t_ref)(&ref, &one, &k);
        msm_tuning on = {.endo = MSM_ENDO_ON};
        TG_(t_check_tuned)(&one, &k, &ref, 1, &on);
    }
    TG_(t_free)(&one);
}

static void TG_(test_errors)(void **state)
{
    (void)state;
    TG_(t_set) s;
    TG_(t_make)(&s, 3);
    fr_t k[3];
    uint64_t raw[3][4];
    for (int i = 0; i < 3; i++) {
        fr_random(&k[i], &rng);
        fr_to_raw(raw[i], &k[i]);
    }
    TG_(t_jac) got, ref;
    TG_(t_ref)(&ref, &s, k);

    /* Size 0: infinity, NULL arrays allowed. */
    assert_int_equal(TM_()(&got, NULL, NULL, 0, 1), CUZK_OK);
    assert_true(TG_(jac_is_infinity)(&got));
    assert_int_equal(TM_(_raw)(&got, NULL, NULL, 0, 1), CUZK_OK);
    assert_true(TG_(jac_is_infinity)(&got));
    assert_int_equal(TM_(_split)(&got, NULL, NULL, 0, 1), CUZK_OK);
    assert_true(TG_(jac_is_infinity)(&got));
    assert_int_equal(TM_(_dense)(&got, NULL, 0, NULL, 0, NULL, 1), CUZK_OK);
    assert_true(TG_(jac_is_infinity)(&got));

    assert_int_equal(TM_()(NULL, s.p, k, 3, 1), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(TM_()(&got, NULL, k, 3, 1), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(TM_()(&got, s.p, NULL, 3, 1), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(TM_(_split)(NULL, s.p, k, 3, 1), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(TM_(_dense)(&got, s.p, 2, k, 3, NULL, 1), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(TM_(_raw_window)(&got, s.p, (const uint64_t(*)[4])raw, 3, 1, 3),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(TM_(_raw_window)(&got, s.p, (const uint64_t(*)[4])raw, 3, 1, 21),
                     CUZK_ERR_INVALID_ARGUMENT);

    msm_tuning bad = {.buckets = (msm_buckets)7};
    assert_int_equal(TM_(_raw_tuned)(&got, s.p, (const uint64_t(*)[4])raw, 3, 1, &bad),
                     CUZK_ERR_INVALID_ARGUMENT);
    bad = (msm_tuning){.endo = (msm_endo)3};
    assert_int_equal(TM_(_raw_tuned)(&got, s.p, (const uint64_t(*)[4])raw, 3, 1, &bad),
                     CUZK_ERR_INVALID_ARGUMENT);
    bad = (msm_tuning){.window = 21};
    assert_int_equal(TM_(_raw_tuned)(&got, s.p, (const uint64_t(*)[4])raw, 3, 1, &bad),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(TM_(_raw_tuned)(&got, NULL, NULL, 0, 1, NULL), CUZK_OK);
    assert_true(TG_(jac_is_infinity)(&got));

    /* Raw scalars must be < r; r − 1 is fine, r and 2^256 − 1 are not. */
    TG_(t_jac) before;
    TG_(jac_from_affine)(&before, &TG_GEN);
    got = before;
    memcpy(raw[1], FR_MODULUS, sizeof(raw[1]));
    assert_int_equal(TM_(_raw)(&got, s.p, (const uint64_t(*)[4])raw, 3, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_true(TG_(jac_eq)(&got, &before));
    memset(raw[1], 0xff, sizeof(raw[1]));
    assert_int_equal(TM_(_raw)(&got, s.p, (const uint64_t(*)[4])raw, 3, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    memcpy(raw[1], FR_MODULUS, sizeof(raw[1]));
    raw[1][0] -= 1;
    fr_from_raw(&k[1], raw[1]);
    TG_(t_ref)(&ref, &s, k);
    assert_int_equal(TM_(_raw)(&got, s.p, (const uint64_t(*)[4])raw, 3, 1), CUZK_OK);
    TG_(t_expect)(&got, &ref, "msm_raw(r - 1)", 3, 1);
    TG_(t_free)(&s);
}

#endif
