/* A Groth16 proof made by snarkjs on BN254 (tests/fixtures/circom/
 * proof_bn128.json, verification_key_bn128.json, public_bn128.json: the
 * chain circuit keyed with circom's default curve) checked with the BN254
 * pairing: e(A, B) = e(α, β) · e(vk_x, γ) · e(C, δ), vk_x = IC₀ + Σ xᵢ ICᵢ,
 * as one product of four pairings; a changed public input or a changed
 * proof point must fail. The key and proof files are read here with
 * jansson and decimal_to_limbs; reading BN254 files is the formats layer's
 * business later. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "field/bn254_fr.h"
#include "field/limbs.h"
#include "formats/decimal.h"
#include "pairing/bn254_pairing.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static json_t *load(const char *name)
{
    json_error_t err;
    json_t *j = json_load_file(name, 0, &err);
    if (!j)
        fail_msg("%s: %s", name, err.text);
    return j;
}

static void fp_from_dec(bn254_fp_t *r, json_t *s)
{
    uint64_t l[BN254_FP_LIMBS];
    assert_true(json_is_string(s));
    assert_true(decimal_to_limbs(l, BN254_FP_LIMBS, json_string_value(s)));
    assert_true(limbs_lt(l, BN254_FP_MODULUS, BN254_FP_LIMBS));
    bn254_fp_from_raw(r, l);
}

/* [x, y, "1"] */
static void g1_from_json(bn254_g1_affine_t *r, json_t *a)
{
    assert_string_equal(json_string_value(json_array_get(a, 2)), "1");
    fp_from_dec(&r->x, json_array_get(a, 0));
    fp_from_dec(&r->y, json_array_get(a, 1));
    r->infinity = false;
    assert_true(bn254_g1_affine_in_subgroup(r));
}

/* [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]] */
static void g2_from_json(bn254_g2_affine_t *r, json_t *a)
{
    fp_from_dec(&r->x.c0, json_array_get(json_array_get(a, 0), 0));
    fp_from_dec(&r->x.c1, json_array_get(json_array_get(a, 0), 1));
    fp_from_dec(&r->y.c0, json_array_get(json_array_get(a, 1), 0));
    fp_from_dec(&r->y.c1, json_array_get(json_array_get(a, 1), 1));
    r->infinity = false;
    assert_true(bn254_g2_affine_is_on_curve(r));
    assert_true(bn254_g2_affine_in_subgroup(r));
}

typedef struct vk_proof {
    bn254_g1_affine_t alpha, ic[8], a, c;
    bn254_g2_affine_t beta, gamma, delta, b;
    uint64_t pub[8][4];
    size_t npub;
} vk_proof;

static void read_all(vk_proof *v)
{
    json_t *vk = load(FIX "verification_key_bn128.json");
    json_t *pr = load(FIX "proof_bn128.json");
    json_t *pub = load(FIX "public_bn128.json");
    assert_string_equal(json_string_value(json_object_get(vk, "curve")), "bn128");
    v->npub = json_array_size(pub);
    assert_true(v->npub + 1 == json_array_size(json_object_get(vk, "IC")) && v->npub < 8);
    g1_from_json(&v->alpha, json_object_get(vk, "vk_alpha_1"));
    g2_from_json(&v->beta, json_object_get(vk, "vk_beta_2"));
    g2_from_json(&v->gamma, json_object_get(vk, "vk_gamma_2"));
    g2_from_json(&v->delta, json_object_get(vk, "vk_delta_2"));
    for (size_t i = 0; i <= v->npub; i++)
        g1_from_json(&v->ic[i], json_array_get(json_object_get(vk, "IC"), i));
    g1_from_json(&v->a, json_object_get(pr, "pi_a"));
    g2_from_json(&v->b, json_object_get(pr, "pi_b"));
    g1_from_json(&v->c, json_object_get(pr, "pi_c"));
    for (size_t i = 0; i < v->npub; i++) {
        assert_true(decimal_to_limbs(v->pub[i], 4, json_string_value(json_array_get(pub, i))));
        assert_true(limbs_lt(v->pub[i], BN254_FR_MODULUS, 4));
    }
    json_decref(vk);
    json_decref(pr);
    json_decref(pub);
}

/* e(−A, B) · e(α, β) · e(vk_x, γ) · e(C, δ) = 1 */
static bool verify(const vk_proof *v)
{
    bn254_g1_jac_t acc, t;
    bn254_g1_jac_from_affine(&acc, &v->ic[0]);
    for (size_t i = 0; i < v->npub; i++) {
        bn254_g1_jac_from_affine(&t, &v->ic[i + 1]);
        bn254_g1_jac_mul_var(&t, &t, v->pub[i]);
        bn254_g1_jac_add_var(&acc, &acc, &t);
    }
    bn254_g1_affine_t p[4];
    bn254_g2_affine_t q[4] = {v->b, v->beta, v->gamma, v->delta};
    bn254_g1_affine_neg(&p[0], &v->a);
    p[1] = v->alpha;
    bn254_g1_jac_to_affine(&p[2], &acc);
    p[3] = v->c;
    return bn254_pairing_product_is_one(p, q, 4);
}

/* vk_alphabeta_12, e(α, β) as snarkjs writes it ([[[c0.c0.c0, c0.c0.c1], ...],
 * ...]), is bn254_pairing's value: the same final exponent. */
static void test_alphabeta(void **state)
{
    (void)state;
    vk_proof v;
    read_all(&v);
    json_t *vk = load(FIX "verification_key_bn128.json");
    json_t *ab = json_object_get(vk, "vk_alphabeta_12");
    bn254_fp12_t want, got;
    bn254_fp6_t *h[2] = {&want.c0, &want.c1};
    for (int i = 0; i < 2; i++) {
        bn254_fp2_t *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++) {
            json_t *e = json_array_get(json_array_get(ab, i), j);
            fp_from_dec(&c[j]->c0, json_array_get(e, 0));
            fp_from_dec(&c[j]->c1, json_array_get(e, 1));
        }
    }
    json_decref(vk);
    bn254_pairing(&got, &v.alpha, &v.beta);
    assert_true(bn254_fp12_eq(&got, &want));
}

static void test_snarkjs_proof(void **state)
{
    (void)state;
    vk_proof v;
    read_all(&v);
    assert_true(verify(&v));
    /* a tampered public input */
    vk_proof w = v;
    w.pub[0][0] ^= 1;
    assert_false(verify(&w));
    /* a proof point that is another valid point: C + G */
    w = v;
    bn254_g1_jac_t c, g;
    bn254_g1_jac_from_affine(&c, &v.c);
    bn254_g1_jac_from_affine(&g, &BN254_G1_GENERATOR);
    bn254_g1_jac_add(&c, &c, &g);
    bn254_g1_jac_to_affine(&w.c, &c);
    assert_false(verify(&w));
    /* A and B swapped into each other's sign: e(A, B) with +A */
    w = v;
    bn254_g1_affine_neg(&w.a, &v.a);
    assert_false(verify(&w));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snarkjs_proof),
        cmocka_unit_test(test_alphabeta),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
