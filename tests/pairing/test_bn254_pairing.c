/* The BN254 optimal ate pairing: known answers from @noble/curves
 * (bn254_pairing.txt: the ecosystem's and the textbook values, bilinearity
 * records), both final exponentiations against their definitions, bilinearity,
 * products of pairings (the shape of a Groth16 check) and the points at
 * infinity. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/bn254_fr.h"
#include "field/limbs.h"
#include "pairing/bn254_pairing.h"
#include "seed.h"
#include "vector_file.h"

static rng_t rng;

/* Twelve 32-byte fields in the order c0.c0.c0 c0.c0.c1 c0.c1.c0 … c1.c2.c1. */
static void hex_fp12(bn254_fp12_t *r, const char *const *f, int line)
{
    bn254_fp6_t *h[2] = {&r->c0, &r->c1};
    for (int i = 0; i < 12; i++) {
        bn254_fp2_t *c = i % 6 < 2 ? &h[i / 6]->c0 : i % 6 < 4 ? &h[i / 6]->c1 : &h[i / 6]->c2;
        uint8_t buf[BN254_FP_BYTES];
        if (vec_hex(buf, sizeof buf, f[i]) != 0 ||
            !bn254_fp_from_bytes_be(i % 2 ? &c->c1 : &c->c0, buf))
            fail_msg("line %d: bad Fp field", line);
    }
}

static void scalar_from_hex(uint64_t k[4], const char *hex)
{
    uint8_t be[32];
    assert_int_equal(vec_hex(be, sizeof be, hex), 0);
    limbs_from_be(k, be, 4);
}

/* [k]G1 and [k]G2 as affine points. */
static void g1_mul_gen(bn254_g1_affine_t *r, const uint64_t k[4])
{
    bn254_g1_jac_t t;
    bn254_g1_jac_from_affine(&t, &BN254_G1_GENERATOR);
    bn254_g1_jac_mul_var(&t, &t, k);
    bn254_g1_jac_to_affine(r, &t);
}

static void g2_mul_gen(bn254_g2_affine_t *r, const uint64_t k[4])
{
    bn254_g2_jac_t t;
    bn254_g2_jac_from_affine(&t, &BN254_G2_GENERATOR);
    bn254_g2_jac_mul_var(&t, &t, k);
    bn254_g2_jac_to_affine(r, &t);
}

/* A random scalar in [0, r) as plain limbs and as a field element. */
static void random_scalar(uint64_t k[4], bn254_fr_t *s)
{
    bn254_fr_random(s, &rng);
    bn254_fr_to_raw(k, s);
}

static void test_vectors(void **state)
{
    (void)state;
    vec_file *f = vec_open("bn254_pairing.txt");
    assert_non_null(f);
    int pairs = 0, exact = 0, bilin = 0;
    bn254_fp12_t g;
    bn254_pairing(&g, &BN254_G1_GENERATOR, &BN254_G2_GENERATOR);
    vec_record rec;
    while (vec_next(f, &rec)) {
        if (!strcmp(rec.op, "pair") || !strcmp(rec.op, "pair_exact")) {
            assert_int_equal(rec.nfields, 14);
            uint8_t b1[BN254_G1_BYTES], b2[BN254_G2_BYTES];
            bn254_g1_affine_t p;
            bn254_g2_affine_t q;
            bn254_fp12_t want, got;
            assert_int_equal(vec_hex(b1, sizeof b1, rec.fields[0]), 0);
            assert_int_equal(vec_hex(b2, sizeof b2, rec.fields[1]), 0);
            assert_int_equal(bn254_g1_affine_decode(&p, b1, sizeof b1, true), CUZK_OK);
            assert_int_equal(bn254_g2_affine_decode(&q, b2, sizeof b2, true), CUZK_OK);
            hex_fp12(&want, rec.fields + 2, rec.line);
            if (rec.op[4] == '_') {
                bn254_multi_miller_loop(&got, &p, &q, 1);
                bn254_final_exp_exact(&got, &got);
                exact++;
            } else {
                bn254_pairing(&got, &p, &q);
                pairs++;
            }
            if (!bn254_fp12_eq(&got, &want))
                fail_msg("bn254_pairing.txt line %d: a different %s value", rec.line, rec.op);
        } else if (!strcmp(rec.op, "bilin")) {
            assert_int_equal(rec.nfields, 2);
            uint64_t a[4], b[4], ab[4];
            bn254_fr_t fa, fb;
            scalar_from_hex(a, rec.fields[0]);
            scalar_from_hex(b, rec.fields[1]);
            bn254_fr_from_raw(&fa, a);
            bn254_fr_from_raw(&fb, b);
            bn254_fr_mul(&fa, &fa, &fb);
            bn254_fr_to_raw(ab, &fa);
            bn254_g1_affine_t p;
            bn254_g2_affine_t q;
            g1_mul_gen(&p, a);
            g2_mul_gen(&q, b);
            bn254_fp12_t got, want;
            bn254_pairing(&got, &p, &q);
            bn254_fp12_cyclotomic_pow_var(&want, &g, ab, 4);
            if (!bn254_fp12_eq(&got, &want))
                fail_msg("bn254_pairing.txt line %d: e(aG, bH) != e(G, H)^(ab)", rec.line);
            bilin++;
        } else {
            fail_msg("bn254_pairing.txt line %d: unknown op %s", rec.line, rec.op);
        }
    }
    vec_close(f);
    printf("bn254_pairing.txt: %d pair, %d pair_exact, %d bilin records\n", pairs, exact, bilin);
    assert_true(pairs > 0 && exact > 0 && bilin > 0);
}

/* k = 2x(6x² + 3x + 1) mod r, the factor between the two final exponents
 * (python3). */
static const uint64_t K[3] = {0x2e5d4e223ddedaf4ULL, 0x1ea96b02d9d9e38dULL, 0x3bec47df15e307c8ULL};

/* Both final exponentiations land in GT (g^r = 1), the default one is the
 * k-th power of the exact one, and e(G1, G2) != 1. */
static void test_final_exp(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("bn254_final_exp"));
    for (int it = 0; it < test_iters(4); it++) {
        bn254_fp12_t f, g, t;
        bn254_fp12_random(&f, &rng);
        bn254_final_exp_exact(&g, &f);
        bn254_final_exp(&t, &f);
        bn254_fp12_t gk;
        bn254_fp12_cyclotomic_pow_var(&gk, &g, K, 3);
        assert_true(bn254_fp12_eq(&gk, &t));
        bn254_fp12_pow_var(&t, &g, BN254_FR_MODULUS, BN254_FR_LIMBS);
        assert_true(bn254_fp12_is_one(&t));
        bn254_fp12_conj(&t, &g); /* unitary: conj is the inverse */
        bn254_fp12_mul(&t, &t, &g);
        assert_true(bn254_fp12_is_one(&t));
    }
    bn254_fp12_t e;
    bn254_pairing(&e, &BN254_G1_GENERATOR, &BN254_G2_GENERATOR);
    assert_false(bn254_fp12_is_one(&e));
}

static void test_bilinearity(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("bn254_bilinearity"));
    for (int it = 0; it < test_iters(4); it++) {
        uint64_t a[4], b[4], ab[4];
        bn254_fr_t fa, fb, fab;
        random_scalar(a, &fa);
        random_scalar(b, &fb);
        bn254_fr_mul(&fab, &fa, &fb);
        bn254_fr_to_raw(ab, &fab);
        bn254_g1_affine_t pa, pab;
        bn254_g2_affine_t qb;
        g1_mul_gen(&pa, a);
        g1_mul_gen(&pab, ab);
        g2_mul_gen(&qb, b);
        /* e(aG, bH) = e(abG, H) */
        bn254_fp12_t x, y;
        bn254_pairing(&x, &pa, &qb);
        bn254_pairing(&y, &pab, &BN254_G2_GENERATOR);
        assert_true(bn254_fp12_eq(&x, &y));
        /* e(aG, bH) · e(−abG, H) = 1 through one product, and a tampered
         * product is not 1 */
        bn254_g1_affine_t ps[2];
        bn254_g2_affine_t qs[2] = {qb, BN254_G2_GENERATOR};
        ps[0] = pa;
        bn254_g1_affine_neg(&ps[1], &pab);
        assert_true(bn254_pairing_product_is_one(ps, qs, 2));
        ps[0] = pab;
        assert_false(bn254_pairing_product_is_one(ps, qs, 2));
    }
}

/* More pairs than one chunk of the multi-loop: Π e([k_i]G, H) · e(−[Σk]G, H) = 1. */
static void test_long_product(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("bn254_long_product"));
    enum { N = 20 };
    bn254_g1_affine_t p[N + 1];
    bn254_g2_affine_t q[N + 1];
    bn254_fr_t sum = BN254_FR_ZERO;
    for (int i = 0; i < N; i++) {
        uint64_t k[4];
        bn254_fr_t s;
        random_scalar(k, &s);
        bn254_fr_add(&sum, &sum, &s);
        g1_mul_gen(&p[i], k);
        q[i] = BN254_G2_GENERATOR;
    }
    uint64_t k[4];
    bn254_fr_to_raw(k, &sum);
    g1_mul_gen(&p[N], k);
    bn254_g1_affine_neg(&p[N], &p[N]);
    q[N] = BN254_G2_GENERATOR;
    assert_true(bn254_pairing_product_is_one(p, q, N + 1));
    assert_false(bn254_pairing_product_is_one(p, q, N));
}

static void test_infinity(void **state)
{
    (void)state;
    bn254_g1_affine_t o1;
    bn254_g2_affine_t o2;
    bn254_g1_affine_set_infinity(&o1);
    bn254_g2_affine_set_infinity(&o2);
    bn254_fp12_t e;
    bn254_pairing(&e, &o1, &BN254_G2_GENERATOR);
    assert_true(bn254_fp12_is_one(&e));
    bn254_pairing(&e, &BN254_G1_GENERATOR, &o2);
    assert_true(bn254_fp12_is_one(&e));
    assert_true(bn254_pairing_product_is_one(&o1, &o2, 1));
    assert_true(bn254_pairing_product_is_one(NULL, NULL, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),     cmocka_unit_test(test_final_exp),
        cmocka_unit_test(test_bilinearity), cmocka_unit_test(test_long_product),
        cmocka_unit_test(test_infinity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
