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
 * The group half is this file again, included once per group with BG_ (the
 * group's functions), BM_ (its MSM) and the constants below set. */

#ifndef BG_

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

#define BG_(name) bn254_g1_##name
#define BM_(suffix) bn254_msm_g1##suffix
#define BG_GEN BN254_G1_GENERATOR
#define BG_NAME "BN254 G1"
#define BG_BYTES BN254_G1_BYTES
#define BG_OP "g1"
/* Sizes past MSM_G1_AFFINE_MIN_POINTS take the affine buckets. */
#define BG_BIG 1500
#include "test_bn254_msm.c"
#undef BG_
#undef BM_
#undef BG_GEN
#undef BG_NAME
#undef BG_BYTES
#undef BG_OP
#undef BG_BIG

#define BG_(name) bn254_g2_##name
#define BM_(suffix) bn254_msm_g2##suffix
#define BG_GEN BN254_G2_GENERATOR
#define BG_NAME "BN254 G2"
#define BG_BYTES BN254_G2_BYTES
#define BG_OP "g2"
#define BG_BIG 400
#include "test_bn254_msm.c"

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
        cmocka_unit_test(bn254_g2_test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* ------------------------------------------- one group (BG_, BM_) */

/* Points with their discrete logs: p[i] = [a[i]]G, some at infinity (a = 0),
 * some repeating or negating an earlier one. */
typedef struct BG_(t_set) {
    BG_(affine_t) * p;
    bn254_fr_t *a;
    size_t n;
} BG_(t_set);

static void BG_(t_mul)(BG_(jac_t) * r, const BG_(jac_t) * p, const bn254_fr_t *k)
{
    uint64_t raw[4];
    bn254_fr_to_raw(raw, k);
    BG_(jac_mul_var)(r, p, raw);
}

/* p[i+1] = p[i] + [b_{i%8}]G: one addition a point. */
static void BG_(t_make)(BG_(t_set) * s, size_t n)
{
    s->n = n;
    s->p = malloc(sizeof(BG_(affine_t)) * (n + 1));
    s->a = malloc(sizeof(bn254_fr_t) * (n + 1));
    BG_(jac_t) *j = malloc(sizeof(BG_(jac_t)) * (n + 1));
    assert_true(s->p && s->a && j);
    BG_(jac_t) g, step[8], acc;
    bn254_fr_t b[8], a;
    BG_(jac_from_affine)(&g, &BG_GEN);
    for (int i = 0; i < 8; i++) {
        bn254_fr_random(&b[i], &rng);
        BG_(t_mul)(&step[i], &g, &b[i]);
    }
    bn254_fr_random(&a, &rng);
    BG_(t_mul)(&acc, &g, &a);
    for (size_t i = 0; i < n; i++) {
        j[i] = acc;
        s->a[i] = a;
        BG_(jac_add_var)(&acc, &acc, &step[i % 8]);
        bn254_fr_add(&a, &a, &b[i % 8]);
    }
    BG_(jac_batch_to_affine)(s->p, j, n);
    free(j);
    for (size_t i = 1; i < n; i++) {
        size_t roll = rnd(32), from = rnd(i);
        if (roll == 0) {
            BG_(affine_set_infinity)(&s->p[i]);
            s->a[i] = BN254_FR_ZERO;
        } else if (roll == 1) {
            s->p[i] = s->p[from];
            s->a[i] = s->a[from];
        } else if (roll == 2) {
            BG_(affine_neg)(&s->p[i], &s->p[from]);
            bn254_fr_neg(&s->a[i], &s->a[from]);
        }
    }
}

static void BG_(t_free)(BG_(t_set) * s)
{
    free(s->p);
    free(s->a);
}

static bn254_fr_t *BG_(t_scalars)(size_t n, unsigned zero_pct, unsigned one_pct)
{
    bn254_fr_t *k = malloc(sizeof(bn254_fr_t) * (n + 1));
    assert_non_null(k);
    for (size_t i = 0; i < n; i++)
        mixed_scalar(&k[i], zero_pct, one_pct);
    return k;
}

/* [Σ k_i·a_i]G. */
static void BG_(t_ref)(BG_(jac_t) * out, const BG_(t_set) * s, const bn254_fr_t *k)
{
    bn254_fr_t acc = BN254_FR_ZERO, t;
    for (size_t i = 0; i < s->n; i++) {
        bn254_fr_mul(&t, &k[i], &s->a[i]);
        bn254_fr_add(&acc, &acc, &t);
    }
    BG_(jac_t) g;
    BG_(jac_from_affine)(&g, &BG_GEN);
    BG_(t_mul)(out, &g, &acc);
}

/* Σ [k_i]P_i, one scalar multiplication a point. */
static void BG_(t_naive)(BG_(jac_t) * out, const BG_(affine_t) * p, const bn254_fr_t *k, size_t n)
{
    BG_(jac_t) acc, t;
    BG_(jac_set_infinity)(&acc);
    for (size_t i = 0; i < n; i++) {
        BG_(jac_from_affine)(&t, &p[i]);
        BG_(t_mul)(&t, &t, &k[i]);
        BG_(jac_add_var)(&acc, &acc, &t);
    }
    *out = acc;
}

static void BG_(t_expect)(const BG_(jac_t) * got, const BG_(jac_t) * want, const char *what,
                          size_t n, unsigned threads)
{
    if (!BG_(jac_eq)(got, want))
        fail_msg("%s: %s differs from the reference (n = %zu, threads = %u)", BG_NAME, what, n,
                 threads);
}

/* Every entry point on the same inputs against want. */
static void BG_(t_check_all)(const BG_(affine_t) * p, const bn254_fr_t *k, size_t n,
                             const BG_(jac_t) * want, unsigned threads)
{
    BG_(jac_t) got;
    uint64_t(*raw)[4] = malloc(sizeof(uint64_t[4]) * (n + 1));
    assert_non_null(raw);
    for (size_t i = 0; i < n; i++)
        bn254_fr_to_raw(raw[i], &k[i]);
    assert_int_equal(BM_()(&got, p, k, n, threads), CUZK_OK);
    BG_(t_expect)(&got, want, "msm", n, threads);
    assert_int_equal(BM_(_raw)(&got, p, (const uint64_t(*)[4])raw, n, threads), CUZK_OK);
    BG_(t_expect)(&got, want, "msm_raw", n, threads);
    assert_int_equal(BM_(_split)(&got, p, k, n, threads), CUZK_OK);
    BG_(t_expect)(&got, want, "msm_split", n, threads);
    assert_int_equal(BM_(_dense)(&got, p, n, k, n, NULL, threads), CUZK_OK);
    BG_(t_expect)(&got, want, "msm_dense(NULL)", n, threads);
    free(raw);
}

static void BG_(check_record)(const vec_record *rec)
{
    assert_true(rec->nfields % 2 == 1);
    size_t n = rec->nfields / 2;
    BG_(affine_t) *p = malloc(sizeof(*p) * (n + 1));
    bn254_fr_t *k = malloc(sizeof(*k) * (n + 1));
    assert_true(p && k);
    uint8_t buf[BG_BYTES], be[32];
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(vec_hex(buf, sizeof(buf), rec->fields[2 * i]), 0);
        assert_int_equal(BG_(affine_decode)(&p[i], buf, sizeof(buf), true), CUZK_OK);
        assert_int_equal(vec_hex(be, sizeof(be), rec->fields[2 * i + 1]), 0);
        assert_true(bn254_fr_from_bytes_be(&k[i], be));
    }
    BG_(affine_t) r;
    BG_(jac_t) want;
    assert_int_equal(vec_hex(buf, sizeof(buf), rec->fields[2 * n]), 0);
    assert_int_equal(BG_(affine_decode)(&r, buf, sizeof(buf), true), CUZK_OK);
    BG_(jac_from_affine)(&want, &r);
    BG_(t_check_all)(p, k, n, &want, 1);
    BG_(t_check_all)(p, k, n, &want, 0);
    free(p);
    free(k);
}

/* Small sizes against the naive sum, every entry point. */
static void BG_(test_naive)(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 3, 5, 17, 64, 130};
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        BG_(t_set) s;
        BG_(t_make)(&s, sizes[si]);
        bn254_fr_t *k = BG_(t_scalars)(s.n, 20, 20);
        BG_(jac_t) naive, ref;
        BG_(t_naive)(&naive, s.p, k, s.n);
        BG_(t_ref)(&ref, &s, k);
        BG_(t_expect)(&naive, &ref, "the naive sum", s.n, 0);
        BG_(t_check_all)(s.p, k, s.n, &naive, 0);
        BG_(t_check_all)(s.p, k, s.n, &naive, 3);
        free(k);
        BG_(t_free)(&s);
    }
}

/* Larger sizes (both bucket kinds by the size rule) against the discrete
 * logs, with witness-shaped and fully random scalars. */
static void BG_(test_sizes)(void **state)
{
    (void)state;
    static const size_t sizes[] = {255, BG_BIG, 2 * BG_BIG + 7};
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
        for (unsigned shape = 0; shape < 2; shape++) {
            BG_(t_set) s;
            BG_(t_make)(&s, sizes[si]);
            bn254_fr_t *k = BG_(t_scalars)(s.n, shape ? 0 : 40, shape ? 0 : 40);
            BG_(jac_t) ref;
            BG_(t_ref)(&ref, &s, k);
            BG_(t_check_all)(s.p, k, s.n, &ref, 0);
            free(k);
            BG_(t_free)(&s);
        }
}

/* The raw MSM forced through each bucket kind, tiny batches and queues
 * (a bucket twice in a batch, P + P and P + (−P), the spill buckets), and
 * windows from 4 to 16 bits. */
static void BG_(test_tuned)(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 9, 100, 700};
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        BG_(t_set) s;
        BG_(t_make)(&s, sizes[si]);
        bn254_fr_t *k = BG_(t_scalars)(s.n, 10, 10);
        uint64_t(*raw)[4] = malloc(sizeof(uint64_t[4]) * s.n);
        assert_non_null(raw);
        for (size_t i = 0; i < s.n; i++)
            bn254_fr_to_raw(raw[i], &k[i]);
        BG_(jac_t) ref, got;
        BG_(t_ref)(&ref, &s, k);
        for (unsigned c = MSM_MIN_C; c <= 16; c += 3)
            for (unsigned b = 0; b < 3; b++) {
                msm_tuning t = {.window = c,
                                .buckets = b == 0 ? MSM_BUCKETS_XYZZ : MSM_BUCKETS_AFFINE,
                                .batch = b == 2 ? 2 : 0,
                                .queue = b == 2 ? 1 : 0,
                                .endo = MSM_ENDO_ON};
                assert_int_equal(BM_(_raw_tuned)(&got, s.p, (const uint64_t(*)[4])raw, s.n, 2, &t),
                                 CUZK_OK);
                BG_(t_expect)(&got, &ref, "msm_raw_tuned", s.n, 2);
            }
        assert_int_equal(BM_(_raw_window)(&got, s.p, (const uint64_t(*)[4])raw, s.n, 1, 5),
                         CUZK_OK);
        BG_(t_expect)(&got, &ref, "msm_raw_window", s.n, 1);
        free(raw);
        free(k);
        BG_(t_free)(&s);
    }
    assert_true(BM_(_window_bits)(1u << 16, 2) >= MSM_MIN_C);
}

/* Points only for the variables whose density bit is set: against the
 * plain MSM over the selected (point, scalar) pairs. */
static void BG_(test_dense)(void **state)
{
    (void)state;
    size_t n_scalars = 777;
    bn254_fr_t *k = BG_(t_scalars)(n_scalars, 30, 30);
    uint64_t bits[(777 + 63) / 64] = {0};
    size_t n_points = 0;
    for (size_t i = 0; i < n_scalars; i++)
        if (rnd(3)) {
            bits[i / 64] |= (uint64_t)1 << (i % 64);
            n_points++;
        }
    BG_(t_set) s;
    BG_(t_make)(&s, n_points);
    bn254_fr_t *picked = malloc(sizeof(bn254_fr_t) * (n_points + 1));
    assert_non_null(picked);
    for (size_t i = 0, j = 0; i < n_scalars; i++)
        if (bits[i / 64] >> (i % 64) & 1)
            picked[j++] = k[i];
    BG_(jac_t) ref, got;
    BG_(t_ref)(&ref, &s, picked);
    assert_int_equal(BM_(_dense)(&got, s.p, n_points, k, n_scalars, bits, 0), CUZK_OK);
    BG_(t_expect)(&got, &ref, "msm_dense", n_points, 0);
    /* A popcount that is not the number of points. */
    assert_int_equal(BM_(_dense)(&got, s.p, n_points - 1, k, n_scalars, bits, 0),
                     CUZK_ERR_INVALID_ARGUMENT);
    free(picked);
    free(k);
    BG_(t_free)(&s);
}

static void BG_(test_errors)(void **state)
{
    (void)state;
    BG_(t_set) s;
    BG_(t_make)(&s, 2);
    uint64_t raw[2][4] = {{1, 0, 0, 0}, {0}};
    memcpy(raw[1], BN254_FR_MODULUS, sizeof(raw[1])); /* r itself */
    BG_(jac_t) got;
    BG_(jac_set_infinity)(&got);
    assert_int_equal(BM_(_raw)(&got, s.p, (const uint64_t(*)[4])raw, 2, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_true(BG_(jac_is_infinity)(&got)); /* left unchanged */
    raw[1][0] -= 1;                          /* r − 1 is fine */
    assert_int_equal(BM_(_raw)(&got, s.p, (const uint64_t(*)[4])raw, 2, 1), CUZK_OK);
    assert_int_equal(BM_()(NULL, s.p, s.a, 2, 1), CUZK_ERR_INVALID_ARGUMENT);
    BG_(t_free)(&s);
}

#endif
