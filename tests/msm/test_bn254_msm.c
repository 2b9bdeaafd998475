/* BN254's MSM on G1 and G2 (the template of msm_impl.h compiled over
 * BN254's groups and scalar field) against two references:
 *  - tests/vectors/bn254_msm.txt, sums Σ k_i·P_i from @noble/curves
 *    (tools/vectors/gen_vectors_bn254.mjs), through every entry point;
 *  - on random inputs (the seed is printed), the naive Σ [k_i]P_i by
 *    jac_mul_var for small sizes, and for every size points with known
 *    discrete logs P_i = [a_i]G, for which Σ [k_i]P_i = [Σ k_i·a_i]G:
 *    0/1/random scalars, infinity, repeated and opposite points, both
 *    bucket kinds with tiny batches and queues (the spill buckets), forced
 *    windows, the density-filtered form, thread counts and a scalar not
 *    below r.
 * The group half is this file again, included once per group with TG_ (the
 * group's functions), TM_ (its MSM) and the constants below set; its
 * points and references are msm_test_points_impl.h, as test_msm.c's. */

#ifndef TG_

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msm/bn254_msm.h"
#include "msm/msm_internal.h"
#include "seed.h"
#include "vector_file.h"

static rng_t rng;

static size_t rnd(size_t n)
{
    return (size_t)(rng_u64(&rng) % n);
}

/* 0, 1, r − 1 or random: zeros and ones in the share of a witness. */
static void mixed_scalar(bn254_fr_t *k, unsigned zero_pct, unsigned one_pct)
{
    unsigned x = (unsigned)rnd(100);
    if (x < zero_pct)
        *k = BN254_FR_ZERO;
    else if (x < zero_pct + one_pct)
        *k = BN254_FR_ONE;
    else if (x < zero_pct + one_pct + 3)
        bn254_fr_neg(k, &BN254_FR_ONE);
    else
        bn254_fr_random(k, &rng);
}

#define TG_(name) bn254_g1_##name
#define TM_(suffix) bn254_msm_g1##suffix
#define TG_GEN BN254_G1_GENERATOR
#define TG_NAME "BN254 G1"
#define TG_BYTES BN254_G1_BYTES
#define TG_OP "g1"
/* Sizes past MSM_G1_AFFINE_MIN_POINTS take the affine buckets. */
#define TG_BIG 1500
#include "test_bn254_msm.c"
#undef TG_
#undef TM_
#undef TG_GEN
#undef TG_NAME
#undef TG_BYTES
#undef TG_OP
#undef TG_BIG

#define TG_(name) bn254_g2_##name
#define TM_(suffix) bn254_msm_g2##suffix
#define TG_GEN BN254_G2_GENERATOR
#define TG_NAME "BN254 G2"
#define TG_BYTES BN254_G2_BYTES
#define TG_OP "g2"
#define TG_BIG 400
#include "test_bn254_msm.c"

/* G1's endomorphism split (bn254_glv_split, bn254_msm_g1.c). */

/* The short lattice basis v1 = (a1, −b1), v2 = (a2, b2) of
 * {(a, b) : a + b·λ ≡ 0 mod r}, from tools/glv/bn254_glv_consts.py: the
 * scalars where the rounding of the split changes lie near its multiples. */
static const uint64_t GLV_BASIS[4][4] = {
    {0x8211bbeb7d4f1128ULL, 0x6f4d8248eeb859fcULL, 0, 0}, /* a1 */
    {0x89d3256894d213e3ULL, 0, 0, 0},                     /* b1 = a2 */
    {0x0be4e1541221250bULL, 0x6f4d8248eeb859fdULL, 0, 0}, /* b2 */
    {0x89d3256894d213e4ULL, 0, 0, 0},                     /* a2 + 1 */
};

/* k ≡ ±|k1| ± |k2|·λ (mod r), |k1|, |k2| < 2^127, the top limbs zero. */
static void check_glv_split(const uint64_t k[4])
{
    uint64_t k1[4], k2[4];
    bool neg1 = true, neg2 = true;
    memset(k1, 0xa5, sizeof(k1));
    memset(k2, 0xa5, sizeof(k2));
    bn254_glv_split(k1, k2, &neg1, &neg2, k);
    bool ok = (k1[2] | k1[3] | k2[2] | k2[3]) == 0 && k1[1] >> 63 == 0 && k2[1] >> 63 == 0;
    bn254_fr_t f1, f2, lam, want;
    bn254_fr_from_raw(&f1, k1);
    bn254_fr_from_raw(&f2, k2);
    bn254_fr_from_raw(&lam, BN254_GLV_LAMBDA);
    bn254_fr_from_raw(&want, k);
    if (neg1)
        bn254_fr_neg(&f1, &f1);
    if (neg2)
        bn254_fr_neg(&f2, &f2);
    bn254_fr_mul(&f2, &f2, &lam);
    bn254_fr_add(&f1, &f1, &f2);
    ok = ok && bn254_fr_eq(&f1, &want);
    if (!ok)
        fprintf(stderr, "bn254 glv split of %016llx%016llx%016llx%016llx\n",
                (unsigned long long)k[3], (unsigned long long)k[2], (unsigned long long)k[1],
                (unsigned long long)k[0]);
    assert_true(ok);
}

static void check_glv_split_fr(const bn254_fr_t *f)
{
    uint64_t k[4];
    bn254_fr_to_raw(k, f);
    check_glv_split(k);
}

/* β: the field's own conversion of the integer gives the Montgomery
 * constant, a nontrivial cube root of unity; λ too in Fr; and
 * φ(P) = (β·x, y) = [λ]P on the generator and a random point. */
static void test_glv_constants(void **state)
{
    (void)state;
    bn254_fp_t beta, t;
    bn254_fp_from_raw(&beta, BN254_GLV_BETA_RAW);
    assert_memory_equal(&beta, &BN254_GLV_BETA, sizeof(beta));
    assert_false(bn254_fp_is_one(&beta));
    bn254_fp_mul(&t, &beta, &beta);
    bn254_fp_mul(&t, &t, &beta);
    assert_true(bn254_fp_is_one(&t));
    bn254_fr_t lam, u;
    bn254_fr_from_raw(&lam, BN254_GLV_LAMBDA);
    assert_false(bn254_fr_is_one(&lam));
    bn254_fr_mul(&u, &lam, &lam);
    bn254_fr_mul(&u, &u, &lam);
    assert_true(bn254_fr_is_one(&u));
    for (int i = 0; i < 2; i++) {
        bn254_g1_jac_t p, lp;
        bn254_g1_affine_t a, phi;
        bn254_g1_jac_from_affine(&p, &BN254_G1_GENERATOR);
        if (i) {
            bn254_fr_t s;
            uint64_t raw[4];
            bn254_fr_random(&s, &rng);
            bn254_fr_to_raw(raw, &s);
            bn254_g1_jac_mul_var(&p, &p, raw);
        }
        bn254_g1_jac_to_affine(&a, &p);
        phi = a;
        bn254_fp_mul(&phi.x, &a.x, &beta);
        bn254_g1_jac_mul_var(&lp, &p, BN254_GLV_LAMBDA);
        bn254_g1_jac_from_affine(&p, &phi);
        assert_true(bn254_g1_jac_eq(&lp, &p));
    }
}

static void test_glv_split(void **state)
{
    (void)state;
    uint64_t k[4] = {0, 0, 0, 0};
    check_glv_split(k); /* 0 */
    k[0] = 1;
    check_glv_split(k);
    k[0] = 2;
    check_glv_split(k);
    memcpy(k, BN254_FR_MODULUS, sizeof(k));
    k[0] -= 1;
    check_glv_split(k); /* r − 1 */
    k[0] -= 1;
    check_glv_split(k); /* r − 2 */
    check_glv_split(BN254_GLV_LAMBDA);
    bn254_fr_t lam, f, g, one = BN254_FR_ONE;
    bn254_fr_from_raw(&lam, BN254_GLV_LAMBDA);
    bn254_fr_neg(&f, &lam);
    check_glv_split_fr(&f); /* r − λ */
    bn254_fr_mul(&f, &lam, &lam);
    check_glv_split_fr(&f); /* λ² */
    /* c·v·λ + d for each basis coordinate v, small c and d ∈ {−1, 0, 1}:
     * where the Babai coefficients cross their rounding points. */
    for (int v = 0; v < 4; v++)
        for (uint64_t c = 1; c < 64; c++) {
            uint64_t cv[4] = {c, 0, 0, 0};
            bn254_fr_t fc, fv;
            bn254_fr_from_raw(&fc, cv);
            bn254_fr_from_raw(&fv, GLV_BASIS[v]);
            bn254_fr_mul(&f, &fc, &fv);
            check_glv_split_fr(&f);
            bn254_fr_mul(&f, &f, &lam);
            check_glv_split_fr(&f);
            bn254_fr_add(&g, &f, &one);
            check_glv_split_fr(&g);
            bn254_fr_sub(&g, &f, &one);
            check_glv_split_fr(&g);
            bn254_fr_neg(&g, &f);
            check_glv_split_fr(&g);
        }
    /* (r ± 1)/2, 2^253, 2^254 mod r. */
    memcpy(k, BN254_FR_MODULUS, sizeof(k));
    for (int i = 0; i < 4; i++)
        k[i] = (k[i] >> 1) | (i < 3 ? k[i + 1] << 63 : 0);
    check_glv_split(k);
    k[0] += 1;
    check_glv_split(k);
    uint64_t p253[4] = {0, 0, 0, UINT64_C(1) << 61};
    check_glv_split(p253);
    bn254_fr_from_raw(&f, p253);
    bn254_fr_add(&f, &f, &f);
    check_glv_split_fr(&f);
    int iters = test_iters(20000);
    for (int it = 0; it < iters; it++) {
        bn254_fr_random(&f, &rng);
        if (rnd(8) == 0) { /* short scalars too */
            bn254_fr_to_raw(k, &f);
            for (size_t i = 1 + rnd(3); i < 4; i++)
                k[i] = 0;
            check_glv_split(k);
        } else {
            check_glv_split_fr(&f);
        }
    }
}

/* The G1 MSM with the split forced on against it forced off, the
 * discrete-log reference and (small sizes) the naive sum: points at
 * infinity, repeated and opposite points and images φ(P_j) (the halves of
 * a split meeting in one bucket), zero, one, r − 1 and random scalars,
 * both bucket kinds, thread counts 1 and 2. */
static void test_glv_msm(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 3, 17, 301, 1500, 4099};
    static const msm_buckets buckets[] = {MSM_BUCKETS_AUTO, MSM_BUCKETS_XYZZ, MSM_BUCKETS_AFFINE};
    bn254_fr_t lam;
    bn254_fr_from_raw(&lam, BN254_GLV_LAMBDA);
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        size_t n = sizes[si];
        bn254_g1_t_set s;
        bn254_g1_t_make_mixed(&s, n);
        for (size_t i = 1; i < n; i++)
            if (rnd(16) == 0) { /* p[i] = φ(p[j]) = [λ]p[j] */
                size_t j = rnd(i);
                bn254_g1_jac_t t;
                bn254_g1_jac_from_affine(&t, &s.p[j]);
                bn254_g1_jac_mul_var(&t, &t, BN254_GLV_LAMBDA);
                bn254_g1_jac_to_affine(&s.p[i], &t);
                bn254_fr_mul(&s.a[i], &s.a[j], &lam);
            }
        bn254_fr_t *k = bn254_g1_t_mixed_scalars(n, 15, 15);
        uint64_t(*raw)[4] = malloc(sizeof(uint64_t[4]) * n);
        assert_non_null(raw);
        for (size_t i = 0; i < n; i++)
            bn254_fr_to_raw(raw[i], &k[i]);
        bn254_g1_jac_t ref, off, on;
        bn254_g1_t_ref(&ref, &s, k);
        if (n <= 17) {
            bn254_g1_jac_t naive;
            bn254_g1_t_naive(&naive, s.p, k, n);
            bn254_g1_t_expect(&naive, &ref, "the naive sum", n, 0);
        }
        for (unsigned b = 0; b < 3; b++)
            for (unsigned threads = 1; threads <= 2; threads++) {
                msm_tuning t = {.buckets = buckets[b], .endo = MSM_ENDO_OFF};
                assert_int_equal(
                    bn254_msm_g1_raw_tuned(&off, s.p, (const uint64_t(*)[4])raw, n, threads, &t),
                    CUZK_OK);
                bn254_g1_t_expect(&off, &ref, "msm, split off", n, threads);
                t.endo = MSM_ENDO_ON;
                assert_int_equal(
                    bn254_msm_g1_raw_tuned(&on, s.p, (const uint64_t(*)[4])raw, n, threads, &t),
                    CUZK_OK);
                bn254_g1_t_expect(&on, &off, "msm, split on", n, threads);
            }
        free(raw);
        free(k);
        bn254_g1_t_free(&s);
    }
}

/* A record "g1 P_1 k_1 ... P_n k_n R" goes to its group's check. */
static void test_vectors(void **state)
{
    (void)state;
    vec_file *f = vec_open("bn254_msm.txt");
    assert_non_null(f);
    vec_record rec;
    unsigned seen[2] = {0, 0};
    while (vec_next(f, &rec)) {
        if (strcmp(rec.op, "g1") == 0) {
            bn254_g1_check_record(&rec);
            seen[0]++;
        } else if (strcmp(rec.op, "g2") == 0) {
            bn254_g2_check_record(&rec);
            seen[1]++;
        } else {
            fail_msg("%s line %d: unknown record %s", vec_path(f), rec.line, rec.op);
        }
    }
    vec_close(f);
    assert_true(seen[0] >= 8 && seen[1] >= 6);
}

int main(void)
{
    rng_seed(&rng, test_seed("test_bn254_msm"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),         cmocka_unit_test(bn254_g1_test_naive),
        cmocka_unit_test(bn254_g1_test_sizes),  cmocka_unit_test(bn254_g1_test_tuned),
        cmocka_unit_test(bn254_g1_test_dense),  cmocka_unit_test(bn254_g1_test_errors),
        cmocka_unit_test(bn254_g2_test_naive),  cmocka_unit_test(bn254_g2_test_sizes),
        cmocka_unit_test(bn254_g2_test_tuned),  cmocka_unit_test(bn254_g2_test_dense),
        cmocka_unit_test(bn254_g2_test_errors), cmocka_unit_test(test_glv_constants),
        cmocka_unit_test(test_glv_split),       cmocka_unit_test(test_glv_msm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* ------------------------------------------- one group (TG_, TM_) */

#define TS_(name) bn254_fr_##name
#define TS_T bn254_fr_t
#define TS_ZERO BN254_FR_ZERO
#include "msm_test_points_impl.h"
#undef TS_
#undef TS_T
#undef TS_ZERO

/* t_make's chain with some points at infinity, repeating or negating an
 * earlier one. */
static void TG_(t_make_mixed)(TG_(t_set) * s, size_t n)
{
    TG_(t_make)(s, n);
    for (size_t i = 1; i < n; i++) {
        size_t roll = rnd(32);
        if (roll == 0)
            TG_(t_set_infinity)(s, i);
        else if (roll < 3)
            TG_(t_copy)(s, i, rnd(i), roll == 2);
    }
}

/* 0, 1, r − 1 or random, in the shares given. */
static bn254_fr_t *TG_(t_mixed_scalars)(size_t n, unsigned zero_pct, unsigned one_pct)
{
    bn254_fr_t *k = TG_(t_scalars)(n);
    for (size_t i = 0; i < n; i++)
        mixed_scalar(&k[i], zero_pct, one_pct);
    return k;
}

static void TG_(check_record)(const vec_record *rec)
{
    assert_true(rec->nfields % 2 == 1);
    size_t n = rec->nfields / 2;
    TG_(affine_t) *p = malloc(sizeof(*p) * (n + 1));
    bn254_fr_t *k = malloc(sizeof(*k) * (n + 1));
    assert_true(p && k);
    uint8_t buf[TG_BYTES], be[32];
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(vec_hex(buf, sizeof(buf), rec->fields[2 * i]), 0);
        assert_int_equal(TG_(affine_decode)(&p[i], buf, sizeof(buf), true), CUZK_OK);
        assert_int_equal(vec_hex(be, sizeof(be), rec->fields[2 * i + 1]), 0);
        assert_true(bn254_fr_from_bytes_be(&k[i], be));
    }
    TG_(affine_t) r;
    TG_(jac_t) want;
    assert_int_equal(vec_hex(buf, sizeof(buf), rec->fields[2 * n]), 0);
    assert_int_equal(TG_(affine_decode)(&r, buf, sizeof(buf), true), CUZK_OK);
    TG_(jac_from_affine)(&want, &r);
    TG_(t_set) set = {p, NULL, n};
    TG_(t_check_all)(&set, k, &want, 1);
    TG_(t_check_all)(&set, k, &want, 0);
    free(p);
    free(k);
}

/* Small sizes against the naive sum, every entry point. */
static void TG_(test_naive)(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 3, 5, 17, 64, 130};
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        TG_(t_set) s;
        TG_(t_make_mixed)(&s, sizes[si]);
        bn254_fr_t *k = TG_(t_mixed_scalars)(s.n, 20, 20);
        TG_(jac_t) naive, ref;
        TG_(t_naive)(&naive, s.p, k, s.n);
        TG_(t_ref)(&ref, &s, k);
        TG_(t_expect)(&naive, &ref, "the naive sum", s.n, 0);
        TG_(t_check_all)(&s, k, &naive, 0);
        TG_(t_check_all)(&s, k, &naive, 3);
        free(k);
        TG_(t_free)(&s);
    }
}

/* Larger sizes (both bucket kinds by the size rule) against the discrete
 * logs, with witness-shaped and fully random scalars. */
static void TG_(test_sizes)(void **state)
{
    (void)state;
    static const size_t sizes[] = {255, TG_BIG, 2 * TG_BIG + 7};
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
        for (unsigned shape = 0; shape < 2; shape++) {
            TG_(t_set) s;
            TG_(t_make_mixed)(&s, sizes[si]);
            bn254_fr_t *k = TG_(t_mixed_scalars)(s.n, shape ? 0 : 40, shape ? 0 : 40);
            TG_(jac_t) ref;
            TG_(t_ref)(&ref, &s, k);
            TG_(t_check_all)(&s, k, &ref, 0);
            free(k);
            TG_(t_free)(&s);
        }
}

/* The raw MSM forced through each bucket kind, tiny batches and queues
 * (a bucket twice in a batch, P + P and P + (−P), the spill buckets), and
 * windows from 4 to 16 bits. */
static void TG_(test_tuned)(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 9, 100, 700};
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        TG_(t_set) s;
        TG_(t_make_mixed)(&s, sizes[si]);
        bn254_fr_t *k = TG_(t_mixed_scalars)(s.n, 10, 10);
        uint64_t(*raw)[4] = malloc(sizeof(uint64_t[4]) * s.n);
        assert_non_null(raw);
        for (size_t i = 0; i < s.n; i++)
            bn254_fr_to_raw(raw[i], &k[i]);
        TG_(jac_t) ref, got;
        TG_(t_ref)(&ref, &s, k);
        for (unsigned c = MSM_MIN_C; c <= 16; c += 3)
            for (unsigned b = 0; b < 3; b++) {
                msm_tuning t = {.window = c,
                                .buckets = b == 0 ? MSM_BUCKETS_XYZZ : MSM_BUCKETS_AFFINE,
                                .batch = b == 2 ? 2 : 0,
                                .queue = b == 2 ? 1 : 0,
                                .endo = MSM_ENDO_ON};
                assert_int_equal(TM_(_raw_tuned)(&got, s.p, (const uint64_t(*)[4])raw, s.n, 2, &t),
                                 CUZK_OK);
                TG_(t_expect)(&got, &ref, "msm_raw_tuned", s.n, 2);
            }
        assert_int_equal(TM_(_raw_window)(&got, s.p, (const uint64_t(*)[4])raw, s.n, 1, 5),
                         CUZK_OK);
        TG_(t_expect)(&got, &ref, "msm_raw_window", s.n, 1);
        free(raw);
        free(k);
        TG_(t_free)(&s);
    }
    assert_true(TM_(_window_bits)(1u << 16, 2) >= MSM_MIN_C);
}

/* Points only for the variables whose density bit is set: against the
 * plain MSM over the selected (point, scalar) pairs. */
static void TG_(test_dense)(void **state)
{
    (void)state;
    size_t n_scalars = 777;
    bn254_fr_t *k = TG_(t_mixed_scalars)(n_scalars, 30, 30);
    uint64_t bits[(777 + 63) / 64] = {0};
    size_t n_points = 0;
    for (size_t i = 0; i < n_scalars; i++)
        if (rnd(3)) {
            bits[i / 64] |= (uint64_t)1 << (i % 64);
            n_points++;
        }
    TG_(t_set) s;
    TG_(t_make_mixed)(&s, n_points);
    bn254_fr_t *picked = malloc(sizeof(bn254_fr_t) * (n_points + 1));
    assert_non_null(picked);
    for (size_t i = 0, j = 0; i < n_scalars; i++)
        if (bits[i / 64] >> (i % 64) & 1)
            picked[j++] = k[i];
    TG_(jac_t) ref, got;
    TG_(t_ref)(&ref, &s, picked);
    assert_int_equal(TM_(_dense)(&got, s.p, n_points, k, n_scalars, bits, 0), CUZK_OK);
    TG_(t_expect)(&got, &ref, "msm_dense", n_points, 0);
    /* A popcount that is not the number of points. */
    assert_int_equal(TM_(_dense)(&got, s.p, n_points - 1, k, n_scalars, bits, 0),
                     CUZK_ERR_INVALID_ARGUMENT);
    free(picked);
    free(k);
    TG_(t_free)(&s);
}

static void TG_(test_errors)(void **state)
{
    (void)state;
    TG_(t_set) s;
    TG_(t_make_mixed)(&s, 2);
    uint64_t raw[2][4] = {{1, 0, 0, 0}, {0}};
    memcpy(raw[1], BN254_FR_MODULUS, sizeof(raw[1])); /* r itself */
    TG_(jac_t) got;
    TG_(jac_set_infinity)(&got);
    assert_int_equal(TM_(_raw)(&got, s.p, (const uint64_t(*)[4])raw, 2, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_true(TG_(jac_is_infinity)(&got)); /* left unchanged */
    raw[1][0] -= 1;                          /* r − 1 is fine */
    assert_int_equal(TM_(_raw)(&got, s.p, (const uint64_t(*)[4])raw, 2, 1), CUZK_OK);
    assert_int_equal(TM_()(NULL, s.p, s.a, 2, 1), CUZK_ERR_INVALID_ARGUMENT);
    TG_(t_free)(&s);
}

#endif
