/* A BN254 snarkjs key (circom's default curve) as a circuit: the chain
 * fixture's key and witness read with the curve taken from their primes,
 * proofs that verify against the key and against snarkjs's
 * verification_key.json, the same r, s giving the same proof on 1 and 2
 * threads, a wrong public input and a wrong witness that do not verify, and
 * the BLS12-381 decoders refusing the key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "circuits/zkey.h"
#include "field/scalar_slots.h"
#include "formats/bn254_snarkjs_json.h"
#include "formats/circom_wtns.h"
#include "seed.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static char msg[512];
static uint64_t g_seed;

static void expect_ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

/* The witness of a BN254 .wtns file. */
static bn254_fr_t *load_witness(const char *path, uint64_t *n)
{
    circom_wtns_t wt;
    expect_ok(circom_wtns_open(&wt, path, msg, sizeof(msg)));
    assert_int_equal(wt.curve, CURVE_BN254);
    bn254_fr_t *w = malloc(sizeof(bn254_fr_t) * wt.num_values);
    assert_non_null(w);
    expect_ok(circom_wtns_decode(bn254_fr_as_slots(w), &wt, 0, wt.num_values, msg, sizeof(msg)));
    *n = wt.num_values;
    circom_wtns_close(&wt);
    return w;
}

static bool proofs_equal(const bn254_groth16_proof_t *p, const bn254_groth16_proof_t *q)
{
    return bn254_g1_affine_eq(&p->a, &q->a) && bn254_g2_affine_eq(&p->b, &q->b) &&
           bn254_g1_affine_eq(&p->c, &q->c);
}

static void test_bn254_prove_verify(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, g_seed);
    zkey_t z;
    expect_ok(zkey_open(&z, FIX "chain_bn128.zkey", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    assert_int_equal(z.curve, CURVE_BN254);
    uint64_t nw;
    bn254_fr_t *w = load_witness(FIX "chain_bn128.wtns", &nw);
    assert_int_equal(nw, z.num_vars);
    bn254_zkey_circuit_t c;
    expect_ok(bn254_zkey_circuit_init(&c, &z, FORMATS_CHECK_SUBGROUP, 2, msg, sizeof(msg)));
    assert_int_equal(c.plan.curve, CURVE_BN254);
    assert_int_equal(c.cs.curve, CURVE_BN254);
    void *scratch = malloc(bn254_zkey_circuit_scratch_bytes(&c));
    assert_non_null(scratch);
    bn254_groth16_vk_t json_vk;
    expect_ok(bn254_snarkjs_vk_load(&json_vk, FIX "verification_key_bn128.json",
                                    FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));

    bn254_groth16_proof_t p1, p2;
    expect_ok(bn254_zkey_circuit_prove(&p1, &c, w, &rng, scratch, 2));
    assert_int_equal(bn254_groth16_verify(&z.bn254_vk, &p1, w + 1, z.num_public), CUZK_OK);
    assert_int_equal(bn254_groth16_verify(&json_vk, &p1, w + 1, z.num_public), CUZK_OK);

    /* another public input: refused */
    bn254_fr_t *bad_pub = malloc(sizeof(bn254_fr_t) * z.num_public);
    assert_non_null(bad_pub);
    memcpy(bad_pub, w + 1, sizeof(bn254_fr_t) * z.num_public);
    bn254_fr_add(&bad_pub[0], &bad_pub[0], &BN254_FR_ONE);
    assert_int_equal(bn254_groth16_verify(&json_vk, &p1, bad_pub, z.num_public),
                     CUZK_ERR_VERIFY_FAILED);

    /* the same r, s on 1 and 2 threads: the same proof */
    bn254_fr_t r, s;
    bn254_fr_random(&r, &rng);
    bn254_fr_random(&s, &rng);
    expect_ok(bn254_zkey_circuit_prove_with(&p1, &c, w, &r, &s, scratch, 1));
    expect_ok(bn254_zkey_circuit_prove_with(&p2, &c, w, &r, &s, scratch, 2));
    assert_true(proofs_equal(&p1, &p2));

    /* a private value changed: the proof does not verify */
    bn254_fr_add(&w[nw - 1], &w[nw - 1], &BN254_FR_ONE);
    expect_ok(bn254_zkey_circuit_prove(&p2, &c, w, &rng, scratch, 2));
    assert_int_equal(bn254_groth16_verify(&json_vk, &p2, w + 1, z.num_public),
                     CUZK_ERR_VERIFY_FAILED);

    free(bad_pub);
    free(scratch);
    bn254_groth16_vk_free(&json_vk);
    bn254_zkey_circuit_free(&c);
    free(w);
    zkey_close(&z);
}

/* The decoders and the circuit of one curve refuse a key of the other. */
static void test_bn254_curve_mismatch(void **state)
{
    (void)state;
    zkey_t z;
    expect_ok(zkey_open(&z, FIX "chain_bn128.zkey", FORMATS_CHECK_CURVE, msg, sizeof(msg)));
    g1_affine_t p;
    assert_int_equal(zkey_decode_g1(&p, &z, ZKEY_POINTS_A, 0, 1, FORMATS_CHECK_CURVE, 1, msg,
                                    sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "bn128"));
    zkey_circuit_t c;
    assert_int_equal(zkey_circuit_init(&c, &z, FORMATS_CHECK_CURVE, 1, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "bn128"));
    zkey_close(&z);
    expect_ok(zkey_open(&z, FIX "chain_bls12381.zkey", FORMATS_CHECK_CURVE, msg, sizeof(msg)));
    assert_int_equal(z.curve, CURVE_BLS12_381);
    bn254_zkey_circuit_t bc;
    assert_int_equal(bn254_zkey_circuit_init(&bc, &z, FORMATS_CHECK_CURVE, 1, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "bls12381"));
    zkey_close(&z);
}

int main(void)
{
    g_seed = test_seed("test_bn254_zkey_circuit");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bn254_prove_verify),
        cmocka_unit_test(test_bn254_curve_mismatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
