/* Groth16 over BN254 through the formats layer: snarkjs's proof of the
 * chain circuit (proof_bn128.json, its key and public values in
 * tests/fixtures/circom/: circom's default curve) read by
 * bn254_snarkjs_json.h and verified by bn254_groth16_verify;
 * a changed public input, a changed proof point and a public value not
 * below r fail; files of the other curve are refused by both curves'
 * readers, naming the file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/bn254_snarkjs_json.h"
#include "formats/snarkjs_json.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static char msg[512];

typedef struct fixture {
    bn254_groth16_vk_t vk;
    bn254_groth16_proof_t proof;
    bn254_fr_t *pub;
    size_t npub;
} fixture;

static void load(fixture *f)
{
    memset(f, 0, sizeof(*f));
    if (bn254_snarkjs_vk_load(&f->vk, FIX "verification_key_bn128.json", FORMATS_CHECK_SUBGROUP,
                              msg, sizeof(msg)) != CUZK_OK ||
        bn254_snarkjs_proof_load(&f->proof, FIX "proof_bn128.json", FORMATS_CHECK_SUBGROUP, msg,
                                 sizeof(msg)) != CUZK_OK ||
        bn254_snarkjs_public_load(&f->pub, &f->npub, FIX "public_bn128.json", msg, sizeof(msg)) !=
            CUZK_OK)
        fail_msg("%s", msg);
}

static void unload(fixture *f)
{
    bn254_groth16_vk_free(&f->vk);
    free(f->pub);
}

static void test_snarkjs_proof(void **state)
{
    (void)state;
    fixture f;
    load(&f);
    assert_int_equal(f.npub + 1, f.vk.num_ic);
    assert_int_equal(bn254_groth16_verify(&f.vk, &f.proof, f.pub, f.npub), CUZK_OK);
    /* Wrong input count. */
    assert_int_equal(bn254_groth16_verify(&f.vk, &f.proof, f.pub, f.npub - 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    unload(&f);
}

static void test_tampered(void **state)
{
    (void)state;
    fixture f;
    load(&f);
    for (size_t i = 0; i < f.npub; i++) {
        bn254_fr_t keep = f.pub[i];
        bn254_fr_add(&f.pub[i], &f.pub[i], &BN254_FR_ONE);
        assert_int_equal(bn254_groth16_verify(&f.vk, &f.proof, f.pub, f.npub),
                         CUZK_ERR_VERIFY_FAILED);
        f.pub[i] = keep;
    }
    bn254_groth16_proof_t p = f.proof;
    bn254_g1_affine_neg(&p.c, &p.c);
    assert_int_equal(bn254_groth16_verify(&f.vk, &p, f.pub, f.npub), CUZK_ERR_VERIFY_FAILED);
    p = f.proof;
    p.a = BN254_G1_GENERATOR;
    assert_int_equal(bn254_groth16_verify(&f.vk, &p, f.pub, f.npub), CUZK_ERR_VERIFY_FAILED);
    p = f.proof;
    bn254_g2_affine_neg(&p.b, &p.b);
    assert_int_equal(bn254_groth16_verify(&f.vk, &p, f.pub, f.npub), CUZK_ERR_VERIFY_FAILED);
    unload(&f);
}

static void test_readers(void **state)
{
    (void)state;
    bn254_fr_t *v = NULL;
    size_t n = 0;
    /* r itself is not a value of Fr. */
    static const char at_r[] =
        "[\"21888242871839275222246405745257275088548364400416034343698204186575808495617\"]";
    assert_int_equal(
        bn254_snarkjs_public_from_json(&v, &n, at_r, strlen(at_r), "p.json", msg, sizeof(msg)),
        CUZK_ERR_NOT_CANONICAL);
    assert_non_null(strstr(msg, "p.json"));
    static const char below_r[] =
        "[\"21888242871839275222246405745257275088548364400416034343698204186575808495616\"]";
    assert_int_equal(bn254_snarkjs_public_from_json(&v, &n, below_r, strlen(below_r), "p.json", msg,
                                                    sizeof(msg)),
                     CUZK_OK);
    assert_int_equal(n, 1);
    free(v);
    /* Each curve's readers refuse the other's files, naming the file. */
    bn254_groth16_vk_t vk;
    assert_int_equal(bn254_snarkjs_vk_load(&vk, FIX "verification_key_bls12381.json",
                                           FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)),
                     CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, "verification_key_bls12381.json"));
    assert_non_null(strstr(msg, "this file is for the bls12381 curve, not bn128"));
    groth16_proof_t bls;
    assert_int_equal(
        snarkjs_proof_load(&bls, FIX "proof_bn128.json", FORMATS_CHECK_CURVE, msg, sizeof(msg)),
        CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, "this file is for the bn128 curve, not bls12381"));
    /* The curve of a JSON file, and of one that names none. */
    curve_id c;
    bool named;
    assert_int_equal(snarkjs_json_file_curve(&c, &named, FIX "proof_bn128.json", msg, sizeof(msg)),
                     CUZK_OK);
    assert_true(named && c == CURVE_BN254);
    assert_int_equal(snarkjs_json_file_curve(&c, &named, FIX "public_bn128.json", msg, sizeof(msg)),
                     CUZK_OK);
    assert_false(named);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snarkjs_proof),
        cmocka_unit_test(test_tampered),
        cmocka_unit_test(test_readers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
