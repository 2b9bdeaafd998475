/* The optimal ate pairing: known answers from @noble/curves (pairing.txt,
 * pairing_exact.txt), the definition of the final exponentiation,
 * bilinearity, non-degeneracy, products of pairings, prepared G2 points and
 * the points at infinity. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/fr.h"
#include "pairing/pairing.h"
#include "seed.h"
#include "vector_file.h"

static rng_t rng;

/* ---- helpers ----------------------------------------------------------- */

static void hex_fp(fp_t *r, const char *hex, int line)
{
    uint8_t buf[FP_BYTES];
    if (vec_hex(buf, sizeof buf, hex) != 0 || !fp_from_bytes_be(r, buf))
        fail_msg("line %d: bad Fp field", line);
}

static void hex_fp12(fp12_t *r, const char *const *f, int line)
{
    fp6_t *h[2] = {&r->c0, &r->c1};
    for (int i = 0; i < 2; i++) {
        fp2_t *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++) {
            hex_fp(&c[j]->c0, f[6 * i + 2 * j], line);
            hex_fp(&c[j]->c1, f[6 * i + 2 * j + 1], line);
        }
    }
}

/* Uncompressed ZCash encodings, decoded here independently of the curve code: the
 * top three bits of byte 0 are flags (0x40: infinity); G2 coordinates are
 * c1 then c0. The vectors hold valid points only. */
static void hex_g1(g1_affine_t *r, const char *hex, int line)
{
    uint8_t buf[G1_UNCOMPRESSED_BYTES];
    if (vec_hex(buf, sizeof buf, hex) != 0)
        fail_msg("line %d: bad G1 hex", line);
    r->infinity = (buf[0] & 0x40) != 0;
    buf[0] &= 0x1f;
    if (r->infinity) {
        r->x = FP_ZERO;
        r->y = FP_ZERO;
        return;
    }
    if (!fp_from_bytes_be(&r->x, buf) || !fp_from_bytes_be(&r->y, buf + FP_BYTES))
        fail_msg("line %d: bad G1 coordinate", line);
}

static void hex_g2(g2_affine_t *r, const char *hex, int line)
{
    uint8_t buf[G2_UNCOMPRESSED_BYTES];
    if (vec_hex(buf, sizeof buf, hex) != 0)
        fail_msg("line %d: bad G2 hex", line);
    r->infinity = (buf[0] & 0x40) != 0;
    buf[0] &= 0x1f;
    if (r->infinity) {
        r->x = FP2_ZERO;
        r->y = FP2_ZERO;
        return;
    }
    if (!fp2_from_bytes_be(&r->x, buf) || !fp2_from_bytes_be(&r->y, buf + 2 * FP_BYTES))
        fail_msg("line %d: bad G2 coordinate", line);
}

/* The curve decoders (with the subgroup checks) agree with the ones above. */
static void check_decoders(const g1_affine_t *p, const g2_affine_t *q, const char *p_hex,
                           const char *q_hex)
{
    uint8_t b1[G1_UNCOMPRESSED_BYTES], b2[G2_UNCOMPRESSED_BYTES];
    g1_affine_t p2;
    g2_affine_t q2;
    assert_int_equal(vec_hex(b1, sizeof b1, p_hex), 0);
    assert_int_equal(vec_hex(b2, sizeof b2, q_hex), 0);
    assert_int_equal(g1_affine_decode(&p2, b1, sizeof b1, true), CUZK_OK);
    assert_int_equal(g2_affine_decode(&q2, b2, sizeof b2, true), CUZK_OK);
    assert_true(g1_affine_eq(&p2, p));
    assert_true(g2_affine_eq(&q2, q));
}

static void g1_mul_affine(g1_affine_t *r, const g1_affine_t *p, const uint64_t k[4])
{
    g1_jac_t j;
    g1_jac_from_affine(&j, p);
    g1_jac_mul_var(&j, &j, k);
    g1_jac_to_affine(r, &j);
}

static void g2_mul_affine(g2_affine_t *r, const g2_affine_t *q, const uint64_t k[4])
{
    g2_jac_t j;
    g2_jac_from_affine(&j, q);
    g2_jac_mul_var(&j, &j, k);
    g2_jac_to_affine(r, &j);
}

static void random_scalar(uint64_t k[4], fr_t *s)
{
    fr_random(s, &rng);
    fr_to_raw(k, s);
}

/* d = (p^4 − p^2 + 1)/r, the hard part of the final exponent (python3). */
static const uint64_t HARD_EXPONENT[20] = {
    0xe516c3f438e3ba79ULL, 0xfa9912aae208ccf1ULL, 0x905ce937335d5b68ULL, 0xc71a2629b0dea236ULL,
    0x83774940996754c8ULL, 0x21d160aeb6a1e799ULL, 0x2ed0b283ed237db4ULL, 0x915c97f36c6f1821ULL,
    0x67f17fcbde783765ULL, 0x2378b9039096d1b7ULL, 0x7988f8761bdc51dcULL, 0x2076995003fc77a1ULL,
    0x827eca0ba621315bULL, 0xe5a72bce8d63cb9fULL, 0xf68f7764c28b6f8aULL, 0x2f230063cf081517ULL,
    0x94506632528d6a9aULL, 0xd3cde88eeb996ca3ULL, 0xc0bd38c3195c899eULL, 0x000f686b3d807d01ULL,
};

/* ---- known answers ----------------------------------------------------- */

static void test_pairing_vectors(void **state)
{
    (void)state;
    vec_file *f = vec_open("pairing.txt");
    assert_non_null(f);
    int npair = 0, ncheck = 0, ntrue = 0;
    vec_record rec;
    while (vec_next(f, &rec)) {
        if (!strcmp(rec.op, "pair")) {
            assert_int_equal(rec.nfields, 14);
            g1_affine_t p;
            g2_affine_t q;
            fp12_t want, got, m;
            hex_g1(&p, rec.fields[0], rec.line);
            hex_g2(&q, rec.fields[1], rec.line);
            hex_fp12(&want, rec.fields + 2, rec.line);
            check_decoders(&p, &q, rec.fields[0], rec.fields[1]);
            pairing(&got, &p, &q);
            if (!fp12_eq(&got, &want))
                fail_msg("pairing.txt line %d: pair", rec.line);
            /* the same through the prepared point */
            static g2_prepared_t prep;
            const g2_prepared_t *pp = &prep;
            g2_prepare(&prep, &q);
            multi_miller_loop_prepared(&m, &p, &pp, 1);
            final_exp(&got, &m);
            if (!fp12_eq(&got, &want))
                fail_msg("pairing.txt line %d: pair (prepared)", rec.line);
            npair++;
        } else if (!strcmp(rec.op, "check")) {
            enum { MAXN = 8 };
            g1_affine_t p[MAXN];
            g2_affine_t q[MAXN];
            static g2_prepared_t prep[MAXN];
            const g2_prepared_t *pp[MAXN];
            size_t n = (size_t)(rec.fields[0][0] - '0');
            assert_true(n >= 1 && n <= MAXN);
            assert_int_equal(rec.nfields, 2 * n + 2);
            for (size_t i = 0; i < n; i++) {
                hex_g1(&p[i], rec.fields[1 + 2 * i], rec.line);
                hex_g2(&q[i], rec.fields[2 + 2 * i], rec.line);
                g2_prepare(&prep[i], &q[i]);
                pp[i] = &prep[i];
            }
            bool want = rec.fields[2 * n + 1][0] == '1';
            if (pairing_product_is_one(p, q, n) != want)
                fail_msg("pairing.txt line %d: check", rec.line);
            if (pairing_product_is_one_prepared(p, pp, n) != want)
                fail_msg("pairing.txt line %d: check (prepared)", rec.line);
            ncheck++;
            ntrue += want;
        } else {
            fail_msg("pairing.txt line %d: unknown op %s", rec.line, rec.op);
        }
    }
    vec_close(f);
    printf("pairing.txt: %d pair, %d check (%d true)\n", npair, ncheck, ntrue);
    assert_true(npair > 0);
    assert_true(ncheck > 0 && ntrue > 0 && ntrue < ncheck);
}

static void test_pairing_exact_vectors(void **state)
{
    (void)state;
    vec_file *f = vec_open("pairing_exact.txt");
    assert_non_null(f);
    int n = 0;
    vec_record rec;
    while (vec_next(f, &rec)) {
        if (strcmp(rec.op, "pair") != 0)
            fail_msg("pairing_exact.txt line %d: unknown op %s", rec.line, rec.op);
        assert_int_equal(rec.nfields, 14);
        g1_affine_t p;
        g2_affine_t q;
        fp12_t want, got, cube;
        hex_g1(&p, rec.fields[0], rec.line);
        hex_g2(&q, rec.fields[1], rec.line);
        hex_fp12(&want, rec.fields + 2, rec.line);
        miller_loop(&got, &p, &q);
        final_exp(&cube, &got);
        final_exp_exact(&got, &got);
        if (!fp12_eq(&got, &want))
            fail_msg("pairing_exact.txt line %d: pair", rec.line);
        /* pairing() is its cube */
        fp12_cyclotomic_sqr(&want, &got);
        fp12_mul(&want, &want, &got);
        assert_true(fp12_eq(&want, &cube));
        n++;
    }
    vec_close(f);
    printf("pairing_exact.txt: %d pair\n", n);
    assert_true(n > 0);
}

/* ---- properties -------------------------------------------------------- */

/* final_exp_exact(f) = f^((p^12 − 1)/r), taken as the easy part followed by
 * a plain exponentiation by d; final_exp(f) is its cube; both land in GT. */
static void test_final_exp_definition(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("pairing_final_exp"));
    for (int it = 0; it < test_iters(3); it++) {
        fp12_t f, easy, t, want, got, cube;
        fp12_random(&f, &rng);
        fp12_inv(&t, &f);
        fp12_conj(&easy, &f);
        fp12_mul(&easy, &easy, &t);
        fp12_frobenius(&t, &easy, 2);
        fp12_mul(&easy, &easy, &t);
        fp12_pow_var(&want, &easy, HARD_EXPONENT, 20);
        final_exp_exact(&got, &f);
        assert_true(fp12_eq(&got, &want));
        final_exp(&cube, &f);
        fp12_sqr(&t, &got);
        fp12_mul(&t, &t, &got);
        assert_true(fp12_eq(&t, &cube));
        fp12_pow_var(&t, &cube, FR_MODULUS, FR_LIMBS);
        assert_true(fp12_is_one(&t));
    }
}

static void test_bilinearity(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("pairing_bilinearity"));
    const g1_affine_t *g = &G1_GENERATOR;
    const g2_affine_t *h = &G2_GENERATOR;
    fp12_t egh, t;
    pairing(&egh, g, h);
    assert_false(fp12_is_one(&egh)); /* non-degenerate */
    fp12_pow_var(&t, &egh, FR_MODULUS, FR_LIMBS);
    assert_true(fp12_is_one(&t)); /* of order r */
    for (int it = 0; it < test_iters(4); it++) {
        uint64_t ka[4], kb[4], kab[4];
        fr_t a, b, ab;
        random_scalar(ka, &a);
        random_scalar(kb, &b);
        fr_mul(&ab, &a, &b);
        fr_to_raw(kab, &ab);
        g1_affine_t ap;
        g2_affine_t bq;
        g1_mul_affine(&ap, g, ka);
        g2_mul_affine(&bq, h, kb);
        fp12_t e, want;
        pairing(&e, &ap, &bq);
        fp12_pow_var(&want, &egh, kab, 4);
        assert_true(fp12_eq(&e, &want));
        /* e(aP, Q) = e(P, Q)^a and e(P, bQ) = e(P, Q)^b */
        pairing(&e, &ap, h);
        fp12_pow_var(&want, &egh, ka, 4);
        assert_true(fp12_eq(&e, &want));
        pairing(&e, g, &bq);
        fp12_pow_var(&want, &egh, kb, 4);
        assert_true(fp12_eq(&e, &want));
        /* e(aP, bQ) · e(−abP, Q) = 1 */
        g1_affine_t ps[2];
        g2_affine_t qs[2] = {bq, *h};
        ps[0] = ap;
        g1_mul_affine(&ps[1], g, kab);
        g1_affine_neg(&ps[1], &ps[1]);
        assert_true(pairing_product_is_one(ps, qs, 2));
        ps[1] = ap;
        assert_false(pairing_product_is_one(ps, qs, 2));
    }
}

/* Random points: the generators times random scalars. */
static void random_points(g1_affine_t *p, g2_affine_t *q, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        fr_t s;
        random_scalar(k, &s);
        g1_mul_affine(&p[i], &G1_GENERATOR, k);
        random_scalar(k, &s);
        g2_mul_affine(&q[i], &G2_GENERATOR, k);
    }
}

/* Multi-Miller loops against single ones, prepared against unprepared, with
 * and without points at infinity, across the 16-pair chunks. The Miller
 * values themselves agree exactly: sharing squarings does not change them. */
static void test_multi_and_prepared(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("pairing_multi"));
    enum { N = 20 };
    static g1_affine_t p[N];
    static g2_affine_t q[N];
    static g2_prepared_t prep[N];
    const g2_prepared_t *pp[N];
    random_points(p, q, N);
    const size_t sizes[] = {1, 2, 4, 17, N};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        if (n == 4) { /* infinity in either slot */
            g1_affine_set_infinity(&p[1]);
            g2_affine_set_infinity(&q[2]);
        }
        fp12_t prod = FP12_ONE, m, multi, multi_prep;
        for (size_t i = 0; i < n; i++) {
            miller_loop(&m, &p[i], &q[i]);
            fp12_mul(&prod, &prod, &m);
            g2_prepare(&prep[i], &q[i]);
            pp[i] = &prep[i];
        }
        multi_miller_loop(&multi, p, q, n);
        multi_miller_loop_prepared(&multi_prep, p, pp, n);
        assert_true(fp12_eq(&multi, &prod));
        assert_true(fp12_eq(&multi_prep, &prod));
        if (n == 4) {
            random_points(&p[1], &q[1], 2);
        }
    }
    /* a product that is 1: e(P, Q) e(−P, Q) e(P, −Q) e(−P, −Q) … and not 1
     * once one term is dropped */
    g1_affine_t ps[4];
    g2_affine_t qs[4];
    ps[0] = p[0];
    qs[0] = q[0];
    g1_affine_neg(&ps[1], &p[0]);
    qs[1] = q[0];
    ps[2] = p[3];
    qs[2] = q[3];
    ps[3] = p[3];
    g2_affine_neg(&qs[3], &q[3]);
    assert_true(pairing_product_is_one(ps, qs, 4));
    assert_false(pairing_product_is_one(ps, qs, 3));
    for (int i = 0; i < 4; i++) {
        g2_prepare(&prep[i], &qs[i]);
        pp[i] = &prep[i];
    }
    assert_true(pairing_product_is_one_prepared(ps, pp, 4));
    assert_false(pairing_product_is_one_prepared(ps, pp, 3));
}

static void test_infinity(void **state)
{
    (void)state;
    g1_affine_t o1, p = G1_GENERATOR;
    g2_affine_t o2, q = G2_GENERATOR;
    g1_affine_set_infinity(&o1);
    g2_affine_set_infinity(&o2);
    fp12_t e;
    pairing(&e, &o1, &q);
    assert_true(fp12_is_one(&e));
    pairing(&e, &p, &o2);
    assert_true(fp12_is_one(&e));
    pairing(&e, &o1, &o2);
    assert_true(fp12_is_one(&e));
    miller_loop(&e, &o1, &q);
    assert_true(fp12_is_one(&e));
    multi_miller_loop(&e, &p, &q, 0);
    assert_true(fp12_is_one(&e));
    assert_true(pairing_product_is_one(&p, &q, 0));
    assert_true(pairing_product_is_one(&o1, &q, 1));
    assert_false(pairing_product_is_one(&p, &q, 1));

    static g2_prepared_t prep;
    const g2_prepared_t *pp = &prep;
    g2_prepare(&prep, &o2);
    assert_true(prep.infinity);
    assert_true(pairing_product_is_one_prepared(&p, &pp, 1));
    g2_prepare(&prep, &q);
    assert_false(pairing_product_is_one_prepared(&p, &pp, 1));
    assert_true(pairing_product_is_one_prepared(&o1, &pp, 1));
    multi_miller_loop_prepared(&e, &o1, &pp, 1);
    assert_true(fp12_is_one(&e));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairing_vectors),      cmocka_unit_test(test_pairing_exact_vectors),
        cmocka_unit_test(test_final_exp_definition), cmocka_unit_test(test_bilinearity),
        cmocka_unit_test(test_multi_and_prepared),   cmocka_unit_test(test_infinity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
