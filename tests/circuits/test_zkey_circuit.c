/* The snarkjs key as a circuit (circuits/zkey.h) on the circom fixture: proofs verify against the
 * key and against snarkjs's verification_key.json; the same r, s give the
 * same proof on 1 to 4 threads (the MSMs run one after another on one
 * thread, in two concurrent groups on more); a wrong witness gives a proof
 * that does not verify. (The
 * snarkjs command itself checks our proofs in tests/snarkjs/.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "formats/circom_wtns.h"
#include "formats/snarkjs_json.h"
#include "groth16/verifier.h"
#include "circuits/zkey.h"
#include "seed.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static char msg[512];
static uint64_t g_seed;

static void expect_ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

static void test_zkey_prove_verify(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, g_seed);
    zkey_t z;
    fr_t *w;
    uint64_t nw;
    expect_ok(zkey_open(&z, FIX "chain_bls12381.zkey", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    expect_ok(circom_wtns_load(&w, &nw, FIX "chain_bls12381.wtns", msg, sizeof(msg)));
    assert_int_equal(nw, z.num_vars);
    zkey_circuit_t c;
    expect_ok(zkey_circuit_init(&c, &z, FORMATS_CHECK_SUBGROUP, 2, msg, sizeof(msg)));
    void *scratch = malloc(zkey_circuit_scratch_bytes(&c));
    assert_non_null(scratch);

    groth16_pvk_t pvk, pvk_json;
    groth16_vk_t json_vk;
    expect_ok(groth16_prepare_vk(&pvk, &z.vk));
    expect_ok(snarkjs_vk_load(&json_vk, FIX "verification_key_bls12381.json",
                              FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    expect_ok(groth16_prepare_vk(&pvk_json, &json_vk));

    groth16_proof_t p1, p2;
    expect_ok(zkey_circuit_prove(&p1, &c, w, &rng, scratch, 2));
    assert_int_equal(groth16_verify(&pvk, &p1, w + 1, z.num_public), CUZK_OK);
    assert_int_equal(groth16_verify(&pvk_json, &p1, w + 1, z.num_public), CUZK_OK);

    /* same r, s on 1 and 2 threads: the same proof */
    fr_t r, s;
    fr_random(&r, &rng);
    fr_random(&s, &rng);
    expect_ok(zkey_circuit_prove_with(&p1, &c, w, &r, &s, scratch, 1));
    expect_ok(zkey_circuit_prove_with(&p2, &c, w, &r, &s, scratch, 2));
    assert_true(g1_affine_eq(&p1.a, &p2.a) && g2_affine_eq(&p1.b, &p2.b) &&
                g1_affine_eq(&p1.c, &p2.c));
    /* 3 and 4 threads: the MSMs in two concurrent groups of 2 + 1 and 2 + 2 */
    for (unsigned t = 3; t <= 4; t++) {
        expect_ok(zkey_circuit_prove_with(&p2, &c, w, &r, &s, scratch, t));
        assert_true(g1_affine_eq(&p1.a, &p2.a) && g2_affine_eq(&p1.b, &p2.b) &&
                    g1_affine_eq(&p1.c, &p2.c));
    }

    /* a private value changed: the proof must not verify */
    fr_add(&w[z.num_vars - 1], &w[z.num_vars - 1], &FR_ONE);
    expect_ok(zkey_circuit_prove(&p1, &c, w, &rng, scratch, 2));
    assert_int_equal(groth16_verify(&pvk, &p1, w + 1, z.num_public), CUZK_ERR_VERIFY_FAILED);

    groth16_pvk_free(&pvk);
    groth16_pvk_free(&pvk_json);
    groth16_vk_free(&json_vk);
    free(scratch);
    zkey_circuit_free(&c);
    free(w);
    zkey_close(&z);
}

/* A, B1 and B2 leave out their points at infinity (the variables absent
 * from the matrix), and the proof stays the one of the whole sections. */
static void test_zkey_drops_infinity(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, g_seed + 1);
    zkey_t z;
    fr_t *w;
    uint64_t nw;
    expect_ok(zkey_open(&z, FIX "chain_bls12381.zkey", FORMATS_CHECK_CURVE, msg, sizeof(msg)));
    expect_ok(circom_wtns_load(&w, &nw, FIX "chain_bls12381.wtns", msg, sizeof(msg)));
    zkey_circuit_t c;
    expect_ok(zkey_circuit_init(&c, &z, FORMATS_CHECK_CURVE, 2, msg, sizeof(msg)));
    uint64_t nv = z.num_vars;

    /* the whole sections, decoded again */
    g1_affine_t *a = malloc(sizeof(g1_affine_t) * nv), *b1 = malloc(sizeof(g1_affine_t) * nv);
    g2_affine_t *b2 = malloc(sizeof(g2_affine_t) * nv);
    assert_true(a && b1 && b2);
    expect_ok(zkey_decode_g1(a, &z, ZKEY_POINTS_A, 0, nv, FORMATS_CHECK_CURVE, 2, msg, sizeof(msg)));
    expect_ok(zkey_decode_g1(b1, &z, ZKEY_POINTS_B1, 0, nv, FORMATS_CHECK_CURVE, 2, msg, sizeof(msg)));
    expect_ok(zkey_decode_g2(b2, &z, 0, nv, FORMATS_CHECK_CURVE, 2, msg, sizeof(msg)));
    /* the fixture has variables absent from B, so the bitmap is in use */
    assert_non_null(c.b2_density);
    uint64_t finite_b2 = 0, finite_a = 0;
    for (uint64_t i = 0; i < nv; i++) {
        bool has = (c.b2_density[i / 64] >> (i % 64)) & 1;
        assert_int_equal(has, !b2[i].infinity);
        if (has)
            assert_true(g2_affine_eq(&c.b2[finite_b2++], &b2[i]));
        finite_a += !a[i].infinity;
    }
    assert_true(finite_b2 < nv);
    assert_int_equal(c.b2_points, finite_b2);
    assert_int_equal(c.plan.msm[3].part[0].num_points, finite_b2);
    assert_int_equal(c.a_density ? c.a_points : nv, finite_a);

    /* the same r, s through a plan over the whole sections */
    zkey_circuit_t whole = c;
    groth16_snarkjs_query q = {
        .h = c.h, .c = c.c, .a = a, .b1 = b1, .b2 = b2, .num_vars = nv, .num_public = z.num_public};
    groth16_plan_snarkjs(&whole.plan, &q, &c.domain);
    void *scratch = malloc(zkey_circuit_scratch_bytes(&c));
    assert_non_null(scratch);
    fr_t r, s;
    fr_random(&r, &rng);
    fr_random(&s, &rng);
    groth16_proof_t p1, p2;
    expect_ok(zkey_circuit_prove_with(&p1, &c, w, &r, &s, scratch, 2));
    expect_ok(zkey_circuit_prove_with(&p2, &whole, w, &r, &s, scratch, 2));
    assert_true(g1_affine_eq(&p1.a, &p2.a) && g2_affine_eq(&p1.b, &p2.b) &&
                g1_affine_eq(&p1.c, &p2.c));
    free(scratch);
    free(a);
    free(b1);
    free(b2);
    zkey_circuit_free(&c);
    free(w);
    zkey_close(&z);
}

int main(void)
{
    g_seed = test_seed("test_zkey_circuit");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zkey_prove_verify),
        cmocka_unit_test(test_zkey_drops_infinity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
