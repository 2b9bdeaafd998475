/* BN254 (circom's default curve) through the engine, on the chain fixture
 * keyed by snarkjs: jobs of .wtns witnesses give proofs that decode
 * (formats/bn254_proof.h) and verify against the key, fixed r and s give
 * the same proof bit for bit, a BLS12-381 witness for the BN254 key fails
 * its job naming both files, and a primary backend that refuses BN254
 * plans (as the CUDA backend does) leaves the circuit to the CPU fallback,
 * or, without one, fails the load naming the curve. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine_fixture.h"
#include "field/scalar_slots.h"
#include "formats/bn254_proof.h"
#include "formats/circom_wtns.h"
#include "formats/zkey.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"
#define KEY FIX "chain_bn128.zkey"
#define WTNS FIX "chain_bn128.wtns"

static char msg[512];

static void ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

static engine_t *start(engine_config *cfg)
{
    engine_t *e;
    ok(engine_create(&e, cfg, msg, sizeof(msg)));
    circuit_spec spec = {
        .name = "chain", .kind = CIRCUIT_ZKEY, .zkey_path = KEY, .check = FORMATS_CHECK_CURVE};
    ok(engine_register(e, &spec, msg, sizeof(msg)));
    return e;
}

static uint64_t submit(engine_t *e, const char *wtns, uint32_t parts, const fr_t *r,
                       const fr_t *s)
{
    engine_partition_input in[2] = {{.wtns_path = wtns}, {.wtns_path = wtns}};
    engine_job_spec js = {.circuit = "chain",
                          .priority = ENGINE_PRIORITY_NORMAL,
                          .partitions = parts,
                          .inputs = in,
                          .r = r,
                          .s = s};
    uint64_t id;
    ok(engine_submit(e, &js, &id, msg, sizeof(msg)));
    return id;
}

/* Every partition's proof of a DONE job, checked against the key with the
 * fixture's public values; the bytes into out (parts × 256). */
static void check_proofs(engine_t *e, uint64_t id, uint32_t parts, uint8_t *out)
{
    zkey_t z;
    ok(zkey_open(&z, KEY, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    circom_wtns_t wt;
    ok(circom_wtns_open(&wt, WTNS, msg, sizeof(msg)));
    bn254_fr_t pub[8];
    assert_true(z.num_public <= 8);
    ok(circom_wtns_decode(bn254_fr_as_slots(pub), &wt, 1, z.num_public, msg, sizeof(msg)));
    engine_circuit_info ci;
    ok(engine_circuit_info_of(e, "chain", &ci));
    assert_int_equal(ci.curve, CURVE_BN254);
    assert_int_equal(ci.proof_bytes, BN254_PROOF_BYTES);
    size_t len;
    ok(engine_job_proof(e, id, out, parts * BN254_PROOF_BYTES, &len));
    assert_int_equal(len, parts * BN254_PROOF_BYTES);
    for (uint32_t i = 0; i < parts; i++) {
        bn254_groth16_proof_t p;
        ok(bn254_proof_decode(&p, out + i * BN254_PROOF_BYTES, msg, sizeof(msg)));
        ok(bn254_groth16_verify(&z.bn254_vk, &p, pub, z.num_public));
        bn254_fr_add(&pub[0], &pub[0], &BN254_FR_ONE);
        assert_int_equal(bn254_groth16_verify(&z.bn254_vk, &p, pub, z.num_public),
                         CUZK_ERR_VERIFY_FAILED);
        bn254_fr_sub(&pub[0], &pub[0], &BN254_FR_ONE);
    }
    circom_wtns_close(&wt);
    zkey_close(&z);
}

static void test_bn254_jobs(void **state)
{
    (void)state;
    engine_config cfg;
    efx_base_config(&cfg);
    engine_t *e = start(&cfg);
    uint8_t proofs[2 * BN254_PROOF_BYTES];
    uint64_t id = submit(e, WTNS, 2, NULL, NULL);
    efx_expect_state(e, id, ENGINE_STATE_DONE);
    check_proofs(e, id, 2, proofs);
    /* fresh r, s per partition */
    assert_memory_not_equal(proofs, proofs + BN254_PROOF_BYTES, BN254_PROOF_BYTES);

    /* fixed r, s (BN254 scalars in fr_t slots): one proof for one witness */
    fr_t rs[4];
    for (int k = 0; k < 4; k++)
        bn254_fr_from_u64(bn254_fr_slots(&rs[k]), 1000 + (uint64_t)(k / 2)); /* r r s s */
    id = submit(e, WTNS, 2, &rs[0], &rs[2]);
    efx_expect_state(e, id, ENGINE_STATE_DONE);
    check_proofs(e, id, 2, proofs);
    assert_memory_equal(proofs, proofs + BN254_PROOF_BYTES, BN254_PROOF_BYTES);

    /* A BLS12-381 witness for the BN254 key: the job fails, both files
     * named, no proof. */
    id = submit(e, FIX "chain_bls12381.wtns", 1, NULL, NULL);
    efx_expect_state(e, id, ENGINE_STATE_FAILED);
    engine_job_info info;
    ok(engine_job_status(e, id, &info, NULL, 0));
    assert_non_null(strstr(info.message, "chain_bls12381.wtns"));
    assert_non_null(strstr(info.message, "chain_bn128.zkey"));
    assert_non_null(strstr(info.message, "different curves"));
    engine_destroy(e);
}

/* A GPU stand-in that refuses BN254 plans: the CPU fallback proves every
 * partition of the circuit; without the fallback the load fails. */
static void test_bn254_primary_refuses(void **state)
{
    (void)state;
    flaky f;
    flaky_init(&f, "gpu-stand-in", false, 1);
    f.refuse_bn254 = true;
    engine_config cfg;
    efx_base_config(&cfg);
    cfg.backend_override = &f.base;
    engine_t *e = start(&cfg);
    uint8_t proofs[2 * BN254_PROOF_BYTES];
    uint64_t id = submit(e, WTNS, 2, NULL, NULL);
    efx_expect_state(e, id, ENGINE_STATE_DONE);
    check_proofs(e, id, 2, proofs);
    assert_int_equal(f.calls, 0); /* the stand-in proved nothing */
    engine_destroy(e);

    cfg.cpu_fallback = false;
    e = start(&cfg);
    assert_int_equal(engine_preload(e, "chain", msg, sizeof(msg)), CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, "does not prove BN254"));
    engine_destroy(e);
    flaky_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bn254_jobs),
        cmocka_unit_test(test_bn254_primary_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
