/* The external circuit kind: bellman parameters, counts and density
 * bitmaps from the caller, and per partition the assignment with its a, b,
 * c (as bellperson hands them to a C prover). The built-in circuit stands
 * in for a circuit synthesized elsewhere: its proof through the external
 * kind, with r and s fixed, equals the bellman prover's (groth16_prove_with)
 * and verifies; missing or short a, b, c, counts that do not fit the
 * parameters and an unsatisfied a, b, c are refused with messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin_params.h"
#include "engine/engine.h"
#include "formats/bellman_params.h"
#include "groth16/prover.h"
#include "groth16/verifier.h"
#include "r1cs/density.h"

static char msg[512];

static void ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

typedef struct fixture {
    porep_like_params shape;
    char params[512];
    groth16_pvk_t pvk;
    r1cs_t r1cs;
    r1cs_density_t density;
    groth16_params_t gp;
    groth16_circuit_t g;
} fixture;

static void fixture_init(fixture *f)
{
    test_builtin_params_file("test_engine_external", &f->shape, f->params, sizeof(f->params),
                             &f->pvk);
    ok(builtin_compile(&f->r1cs, &f->shape, 2));
    ok(r1cs_density(&f->density, &f->r1cs, 2));
    ok(bellman_params_load(&f->gp, f->params, FORMATS_CHECK_CURVE, 2, msg, sizeof(msg)));
    ok(groth16_circuit_init(&f->g, &f->r1cs, &f->gp, 2, msg, sizeof(msg)));
}

static void fixture_free(fixture *f)
{
    groth16_circuit_free(&f->g);
    groth16_params_free(&f->gp);
    r1cs_density_free(&f->density);
    r1cs_free(&f->r1cs);
    groth16_pvk_free(&f->pvk);
    unlink(f->params);
}

static circuit_spec external_spec(const fixture *f, const char *name)
{
    return (circuit_spec){.name = name,
                          .kind = CIRCUIT_EXTERNAL,
                          .params_path = f->params,
                          .check = FORMATS_CHECK_CURVE,
                          .num_inputs = f->r1cs.num_inputs,
                          .num_aux = f->r1cs.num_aux,
                          .num_constraints = f->r1cs.num_constraints,
                          .a_aux_density = f->density.a_aux,
                          .b_input_density = f->density.b_input,
                          .b_aux_density = f->density.b_aux};
}

static engine_t *start(void)
{
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend = BACKEND_CPU;
    cfg.device_threads = 2;
    cfg.quiet = true;
    cfg.telemetry_interval_ms = 0;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    return e;
}

static void test_external_equals_bellman(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    engine_t *e = start();
    circuit_spec spec = external_spec(&f, "ext");
    ok(engine_register(e, &spec, msg, sizeof(msg)));
    uint64_t nv = r1cs_num_vars(&f.r1cs), m = f.r1cs.num_constraints;
    size_t n = f.g.domain.n;
    enum { PARTS = 2 };
    fr_t *w[PARTS], *abc[PARTS], r[PARTS], s[PARTS];
    engine_partition_input in[PARTS];
    for (int i = 0; i < PARTS; i++) {
        w[i] = malloc(sizeof(fr_t) * nv);
        abc[i] = malloc(sizeof(fr_t) * 3 * m);
        assert_true(w[i] && abc[i]);
        ok(builtin_witness(w[i], nv, &f.shape, 100 + (uint64_t)i, 2));
        r1cs_eval(&f.r1cs, w[i], abc[i], abc[i] + m, abc[i] + 2 * m, 2);
        fr_from_u64(&r[i], 11 + (uint64_t)i);
        fr_from_u64(&s[i], 22 + (uint64_t)i);
        in[i] = (engine_partition_input){.witness = w[i],
                                         .witness_len = nv,
                                         .a = abc[i],
                                         .b = abc[i] + m,
                                         .c = abc[i] + 2 * m,
                                         .abc_len = m};
    }
    engine_job_spec js = {.circuit = "ext",
                          .priority = ENGINE_PRIORITY_NORMAL,
                          .partitions = PARTS,
                          .inputs = in,
                          .r = r,
                          .s = s};
    uint64_t id;
    ok(engine_submit(e, &js, &id, msg, sizeof(msg)));
    engine_state st;
    ok(engine_wait(e, id, 60, &st));
    engine_job_info info;
    ok(engine_job_status(e, id, &info, NULL, 0));
    if (st != ENGINE_STATE_DONE)
        fail_msg("job %s: %s", engine_state_name(st), info.message);
    uint8_t got[PARTS * GROTH16_PROOF_BYTES];
    size_t len;
    ok(engine_job_proof(e, id, got, sizeof(got), &len));
    assert_int_equal(len, sizeof(got));
    void *scratch = malloc(groth16_prover_scratch_bytes(&f.g));
    assert_non_null(scratch);
    for (int i = 0; i < PARTS; i++) {
        groth16_proof_t want;
        ok(groth16_prove_with(&want, &f.g, w[i], &r[i], &s[i], scratch, 2, NULL));
        uint8_t bytes[GROTH16_PROOF_BYTES];
        ok(bellman_proof_encode(bytes, &want));
        assert_memory_equal(got + (size_t)i * GROTH16_PROOF_BYTES, bytes, sizeof(bytes));
        assert_int_equal(groth16_verify(&f.pvk, &want, w[i] + 1, f.r1cs.num_inputs - 1), CUZK_OK);
    }
    (void)n;
    free(scratch);

    /* a, b, c missing, or of the wrong length: refused at submission */
    engine_partition_input bad = in[0];
    bad.a = bad.b = bad.c = NULL;
    js.partitions = 1;
    js.inputs = &bad;
    js.r = js.s = NULL;
    assert_int_equal(engine_submit(e, &js, &id, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "needs a, b and c"));
    bad = in[0];
    bad.abc_len = m - 1;
    assert_int_equal(engine_submit(e, &js, &id, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "rows"));

    /* a changed c: the partition fails as unsatisfied, nothing is proved */
    fr_add(&abc[0][2 * m + 3], &abc[0][2 * m + 3], &FR_ONE);
    bad = in[0];
    ok(engine_submit(e, &js, &id, msg, sizeof(msg)));
    ok(engine_wait(e, id, 60, &st));
    ok(engine_job_status(e, id, &info, NULL, 0));
    assert_int_equal(st, ENGINE_STATE_FAILED);
    assert_non_null(strstr(info.message, "does not satisfy"));

    for (int i = 0; i < PARTS; i++) {
        free(w[i]);
        free(abc[i]);
    }
    engine_destroy(e);
    fixture_free(&f);
}

static void test_external_counts_checked(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    engine_t *e = start();
    circuit_spec spec = external_spec(&f, "wrong");
    spec.num_aux -= 1; /* L no longer fits */
    assert_int_equal(engine_register(e, &spec, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "does not fit"));
    spec = external_spec(&f, "nobits");
    spec.b_aux_density = NULL;
    assert_int_equal(engine_register(e, &spec, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "density"));
    /* the bitmaps are copied: the caller's may go away after registering */
    spec = external_spec(&f, "copied");
    size_t words = (size_t)((f.r1cs.num_aux + 63) / 64);
    uint64_t *bits = malloc(sizeof(uint64_t) * words);
    assert_non_null(bits);
    memcpy(bits, f.density.b_aux, sizeof(uint64_t) * words);
    spec.b_aux_density = bits;
    ok(engine_register(e, &spec, msg, sizeof(msg)));
    memset(bits, 0, sizeof(uint64_t) * words);
    free(bits);
    ok(engine_preload(e, "copied", msg, sizeof(msg)));
    engine_destroy(e);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_external_equals_bellman),
        cmocka_unit_test(test_external_counts_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
