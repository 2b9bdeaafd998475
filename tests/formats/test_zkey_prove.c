/* The zkey's semantics, end to end: a proof computed here from the fixture
 * zkey and witness by snarkjs's recipe (a, b, c from the coefficient
 * section; evaluations on the odd coset of the 2n-th roots, snarkjs's
 * roots of unity; H paired with a·b − c there, undivided; plain
 * double-and-add sums instead of an MSM) verifies against the key, and
 * against verification_key.json. A wrong reading of any section (the
 * Montgomery factors, the C section's offset, the H points) breaks it. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "naive_abc.h"
#include "formats/circom_wtns.h"
#include "formats/snarkjs_json.h"
#include "formats/zkey.h"
#include "groth16/verifier.h"
#include "poly/quotient.h"
#include "seed.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static char msg[512];

static void expect_ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

/* acc += Σ s[i]·p[i] */
static void g1_sum(g1_jac_t *acc, const g1_affine_t *p, const fr_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        fr_to_raw(k, &s[i]);
        g1_jac_t t, q;
        g1_jac_from_affine(&q, &p[i]);
        g1_jac_mul_var(&t, &q, k);
        g1_jac_add(acc, acc, &t);
    }
}

static void g2_sum(g2_jac_t *acc, const g2_affine_t *p, const fr_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        fr_to_raw(k, &s[i]);
        g2_jac_t t, q;
        g2_jac_from_affine(&q, &p[i]);
        g2_jac_mul_var(&t, &q, k);
        g2_jac_add(acc, acc, &t);
    }
}

static void g1_add_affine(g1_jac_t *acc, const g1_affine_t *p, const fr_t *s)
{
    g1_sum(acc, p, s, 1);
}

static void test_prove_from_zkey(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("zkey_prove"));
    zkey_t z;
    fr_t *w;
    uint64_t nw;
    expect_ok(zkey_open(&z, FIX "chain_bls12381.zkey", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    expect_ok(circom_wtns_load(&w, &nw, FIX "chain_bls12381.wtns", msg, sizeof(msg)));
    assert_int_equal(nw, z.num_vars);
    size_t n = z.domain_size, nv = z.num_vars, np = z.num_public;

    r1cs_entry *co = malloc(z.num_coeffs * sizeof(r1cs_entry));
    fr_t *a = malloc(n * sizeof(fr_t)), *b = malloc(n * sizeof(fr_t)),
         *c = malloc(n * sizeof(fr_t));
    g1_affine_t *pa = malloc(nv * sizeof(g1_affine_t)), *pb1 = malloc(nv * sizeof(g1_affine_t)),
                *pc = malloc(nv * sizeof(g1_affine_t)), *ph = malloc(n * sizeof(g1_affine_t));
    g2_affine_t *pb2 = malloc(nv * sizeof(g2_affine_t));
    assert_true(co && a && b && c && pa && pb1 && pc && ph && pb2);
    expect_ok(zkey_decode_coeffs(co, &z, 1, msg, sizeof(msg)));
    expect_ok(
        zkey_decode_g1(pa, &z, ZKEY_POINTS_A, 0, nv, FORMATS_CHECK_CURVE, 1, msg, sizeof(msg)));
    expect_ok(
        zkey_decode_g1(pb1, &z, ZKEY_POINTS_B1, 0, nv, FORMATS_CHECK_CURVE, 1, msg, sizeof(msg)));
    expect_ok(zkey_decode_g2(pb2, &z, 0, nv, FORMATS_CHECK_CURVE, 1, msg, sizeof(msg)));
    expect_ok(zkey_decode_g1(pc, &z, ZKEY_POINTS_C, 0, nv - np - 1, FORMATS_CHECK_CURVE, 1, msg,
                             sizeof(msg)));
    expect_ok(
        zkey_decode_g1(ph, &z, ZKEY_POINTS_H, 0, n, FORMATS_CHECK_CURVE, 1, msg, sizeof(msg)));

    /* a·b − c on the odd coset w_2n·<w_n>, entry i at w_2n^(2i+1). */
    naive_abc(a, b, c, co, z.num_coeffs, w, n);
    domain_t d;
    expect_ok(domain_init(&d, n, DOMAIN_ROOTS_SNARKJS, 1));
    assert_int_equal(d.n, n);
    expect_ok(poly_h_coset_evals(a, b, c, n, &d, POLY_H_COSET_2N_ROOT, 1));

    fr_t r, s;
    fr_random(&r, &rng);
    fr_random(&s, &rng);
    const groth16_vk_t *vk = &z.vk;
    groth16_proof_t proof;
    /* A = α + Σ w_i A_i + r·δ1 */
    g1_jac_t A, B1, C;
    g2_jac_t B;
    g1_jac_from_affine(&A, &vk->alpha_g1);
    g1_sum(&A, pa, w, nv);
    g1_add_affine(&A, &vk->delta_g1, &r);
    /* B = β2 + Σ w_i B2_i + s·δ2, and its G1 twin for C. */
    g2_jac_from_affine(&B, &vk->beta_g2);
    g2_sum(&B, pb2, w, nv);
    g2_sum(&B, &vk->delta_g2, &s, 1);
    g1_jac_from_affine(&B1, &vk->beta_g1);
    g1_sum(&B1, pb1, w, nv);
    g1_add_affine(&B1, &vk->delta_g1, &s);
    /* C = Σ_{i > nPublic} w_i C_i + Σ h_i H_i + s·A + r·B1 − r·s·δ1 */
    g1_jac_set_infinity(&C);
    g1_sum(&C, pc, w + np + 1, nv - np - 1);
    g1_sum(&C, ph, a, n);
    g1_affine_t aff;
    g1_jac_to_affine(&aff, &A);
    g1_add_affine(&C, &aff, &s);
    g1_jac_to_affine(&aff, &B1);
    g1_add_affine(&C, &aff, &r);
    fr_t rs;
    fr_mul(&rs, &r, &s);
    fr_neg(&rs, &rs);
    g1_add_affine(&C, &vk->delta_g1, &rs);
    g1_jac_to_affine(&proof.a, &A);
    g2_jac_to_affine(&proof.b, &B);
    g1_jac_to_affine(&proof.c, &C);

    groth16_pvk_t pvk;
    expect_ok(groth16_prepare_vk(&pvk, vk));
    assert_int_equal(groth16_verify(&pvk, &proof, w + 1, np), CUZK_OK);
    groth16_pvk_free(&pvk);
    groth16_vk_t json_vk;
    expect_ok(snarkjs_vk_load(&json_vk, FIX "verification_key_bls12381.json",
                              FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    expect_ok(groth16_prepare_vk(&pvk, &json_vk));
    assert_int_equal(groth16_verify(&pvk, &proof, w + 1, np), CUZK_OK);
    /* The same proof with the H sum left out does not verify. */
    g1_jac_from_affine(&C, &proof.c);
    fr_t minus_one;
    fr_neg(&minus_one, &FR_ONE);
    for (size_t i = 0; i < n; i++)
        fr_mul(&a[i], &a[i], &minus_one);
    g1_sum(&C, ph, a, n);
    g1_jac_to_affine(&proof.c, &C);
    assert_int_equal(groth16_verify(&pvk, &proof, w + 1, np), CUZK_ERR_VERIFY_FAILED);
    groth16_pvk_free(&pvk);
    groth16_vk_free(&json_vk);

    domain_free(&d);
    free(co), free(a), free(b), free(c), free(pa), free(pb1), free(pc), free(ph), free(pb2);
    free(w);
    zkey_close(&z);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prove_from_zkey),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
