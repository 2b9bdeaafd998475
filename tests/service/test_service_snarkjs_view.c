/* A done zkey job's result as snarkjs's files: engine_job_public gives
 * each partition's public inputs (the witnesses' w[1..num_public], in
 * partition order), and view_snarkjs turns the engine's proofs and those
 * inputs into the envelope of GET /v1/jobs/{id}/proof?format=snarkjs,
 * whose every entry reads back with the snarkjs readers and verifies
 * against the key; a proof that does not decode is refused by partition. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "formats/circom_wtns.h"
#include "formats/snarkjs_json.h"
#include "formats/zkey.h"
#include "groth16/verifier.h"
#include "service/snarkjs_view.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static char msg[512];

static void ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

/* The job: two partitions of the chain key, the second witness first. */
static const char *const wtns[2] = {FIX "chain_bls12381_2.wtns", FIX "chain_bls12381.wtns"};

static engine_t *engine_with_chain(void)
{
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend = BACKEND_CPU;
    cfg.device_threads = 2;
    cfg.synth_workers = 1;
    cfg.quiet = true;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    circuit_spec spec = {.name = "chain",
                         .kind = CIRCUIT_ZKEY,
                         .zkey_path = FIX "chain_bls12381.zkey",
                         .check = FORMATS_CHECK_SUBGROUP};
    ok(engine_register(e, &spec, msg, sizeof(msg)));
    return e;
}

static uint64_t submit_and_wait(engine_t *e)
{
    engine_partition_input in[2] = {{.wtns_path = wtns[0]}, {.wtns_path = wtns[1]}};
    engine_job_spec js = {
        .circuit = "chain", .priority = ENGINE_PRIORITY_NORMAL, .partitions = 2, .inputs = in};
    uint64_t id;
    ok(engine_submit(e, &js, &id, msg, sizeof(msg)));
    engine_state st;
    ok(engine_wait(e, id, 120, &st));
    assert_int_equal(st, ENGINE_STATE_DONE);
    return id;
}

static void test_public_inputs(void **state)
{
    (void)state;
    engine_t *e = engine_with_chain();
    uint64_t id = submit_and_wait(e);
    zkey_t z;
    ok(zkey_open(&z, FIX "chain_bls12381.zkey", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    assert_int_equal(z.num_public, 4);

    size_t count = 0, per = 0;
    fr_t pub[8];
    /* Sizing: no room is CUZK_ERR_INVALID_ARGUMENT with the counts said. */
    assert_int_equal(engine_job_public(e, id, NULL, 0, &count, &per), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(count, 8);
    assert_int_equal(per, 4);
    assert_int_equal(engine_job_public(e, id, pub, 7, &count, &per), CUZK_ERR_INVALID_ARGUMENT);
    ok(engine_job_public(e, id, pub, 8, &count, &per));
    for (int i = 0; i < 2; i++) {
        fr_t *w;
        uint64_t nw;
        ok(circom_wtns_load(&w, &nw, wtns[i], msg, sizeof(msg)));
        assert_memory_equal(pub + 4 * i, w + 1, 4 * sizeof(fr_t));
        free(w);
    }
    /* The two witnesses have different public values. */
    assert_memory_not_equal(pub, pub + 4, 4 * sizeof(fr_t));
    /* Unknown job; a job that is not done (failed here: no witness file). */
    assert_int_equal(engine_job_public(e, id + 100, pub, 8, &count, &per),
                     CUZK_ERR_INVALID_ARGUMENT);
    engine_partition_input missing = {.wtns_path = FIX "no_such.wtns"};
    engine_job_spec js = {.circuit = "chain",
                          .priority = ENGINE_PRIORITY_NORMAL,
                          .partitions = 1,
                          .inputs = &missing};
    uint64_t bad;
    ok(engine_submit(e, &js, &bad, msg, sizeof(msg)));
    engine_state st;
    ok(engine_wait(e, bad, 120, &st));
    assert_int_equal(st, ENGINE_STATE_FAILED);
    assert_int_equal(engine_job_public(e, bad, pub, 8, &count, &per), CUZK_ERR_INVALID_ARGUMENT);
    zkey_close(&z);
    engine_destroy(e);
}

/* The keys of o, in order, joined by ",". */
static void keys(char *out, size_t cap, json_t *o)
{
    const char *k;
    json_t *v;
    out[0] = 0;
    json_object_foreach(o, k, v)
    {
        strncat(out, k, cap - strlen(out) - 1);
        strncat(out, ",", cap - strlen(out) - 1);
    }
}

static void test_view(void **state)
{
    (void)state;
    engine_t *e = engine_with_chain();
    uint64_t id = submit_and_wait(e);
    uint8_t proofs[2 * GROTH16_PROOF_BYTES];
    size_t len, count, per;
    fr_t pub[8];
    ok(engine_job_proof(e, id, proofs, sizeof(proofs), &len));
    ok(engine_job_public(e, id, pub, 8, &count, &per));
    json_t *o;
    static const char job_id[] = "0123456789abcdef0123456789abcdef";
    ok(view_snarkjs(&o, job_id, "chain", CURVE_BLS12_381, proofs, 2, pub, per, msg, sizeof(msg)));

    char k[128];
    keys(k, sizeof(k), o);
    assert_string_equal(k, "id,circuit,partitions,");
    assert_string_equal(json_string_value(json_object_get(o, "id")), job_id);
    assert_string_equal(json_string_value(json_object_get(o, "circuit")), "chain");
    json_t *parts = json_object_get(o, "partitions");
    assert_int_equal(json_array_size(parts), 2);

    zkey_t z;
    ok(zkey_open(&z, FIX "chain_bls12381.zkey", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    groth16_pvk_t pvk;
    ok(groth16_prepare_vk(&pvk, &z.vk));
    for (size_t i = 0; i < 2; i++) {
        json_t *entry = json_array_get(parts, i);
        keys(k, sizeof(k), entry);
        assert_string_equal(k, "proof,public,");
        json_t *jp = json_object_get(entry, "proof");
        keys(k, sizeof(k), jp);
        assert_string_equal(k, "pi_a,pi_b,pi_c,protocol,curve,");
        assert_string_equal(json_string_value(json_object_get(jp, "protocol")), "groth16");
        assert_string_equal(json_string_value(json_object_get(jp, "curve")), "bls12381");
        /* Read back as files are, and verified: proof i with inputs i. */
        char *text = json_dumps(jp, 0);
        groth16_proof_t proof;
        ok(snarkjs_proof_from_json(&proof, text, strlen(text), "proof", FORMATS_CHECK_SUBGROUP, msg,
                                   sizeof(msg)));
        free(text);
        text = json_dumps(json_object_get(entry, "public"), 0);
        fr_t *values;
        size_t n;
        ok(snarkjs_public_from_json(&values, &n, text, strlen(text), "public", msg, sizeof(msg)));
        free(text);
        assert_int_equal(n, 4);
        assert_memory_equal(values, pub + 4 * i, 4 * sizeof(fr_t));
        ok(groth16_verify(&pvk, &proof, values, n));
        /* ... and not with the other partition's inputs. */
        assert_int_not_equal(groth16_verify(&pvk, &proof, pub + 4 * (1 - i), 4), CUZK_OK);
        free(values);
    }
    json_decref(o);

    /* A second proof that does not decode (A's compressed x made >= q):
     * refused, naming the partition. */
    memset(proofs + GROTH16_PROOF_BYTES + 1, 0xff, 47);
    msg[0] = 0;
    assert_int_not_equal(
        view_snarkjs(&o, job_id, "chain", CURVE_BLS12_381, proofs, 2, pub, per, msg, sizeof(msg)),
        CUZK_OK);
    assert_null(o);
    assert_non_null(strstr(msg, "partition 1"));
    groth16_pvk_free(&pvk);
    zkey_close(&z);
    engine_destroy(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_public_inputs),
        cmocka_unit_test(test_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
