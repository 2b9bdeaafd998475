/* The engine with a, b, c evaluated by the backend (engine_abc_eval): the
 * partition buffers hold w alone, prove() gets abc NULL and evaluates.
 * With the CPU backend forced onto that path (ENGINE_ABC_BACKEND), the
 * proofs for fixed r, s are bit for bit those of the normal path
 * (synthesis evaluates), for the built-in circuit (C given, checked) and a
 * snarkjs key (c = a·b); eval_abc is then the backend's span, on its
 * device. A witness that does not satisfy the constraints fails the job
 * naming the row; a, b, c given with a witness are refused at submit.
 * Auto leaves evaluation to synthesis on the CPU backend and hands it to a
 * backend that is not the CPU; when such a backend fails, the CPU fallback
 * evaluates the retry itself. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "circuits/builtin.h"
#include "engine/engine.h"
#include "formats/bellman_params.h"
#include "formats/circom_wtns.h"
#include "formats/zkey.h"
#include "groth16/verifier.h"
#include "util/rng.h"
#include "builtin_params.h"
#include "seed.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"
#define PARTS 3
#define ALIGN64(x) (((x) + 63) & ~(uint64_t)63)

static struct {
    porep_like_params shape;
    char params[64];
    groth16_pvk_t pvk;
    uint64_t num_inputs;
    uint64_t seed;
} fx;

static char msg[512];

static void ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

static int group_setup(void **state)
{
    (void)state;
    test_builtin_params_file("engine_abc", &fx.shape, fx.params, sizeof(fx.params), &fx.pvk);
    fx.num_inputs = porep_like_num_inputs(&fx.shape);
    fx.seed = test_seed("test_engine_abc_rs");
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    unlink(fx.params);
    groth16_pvk_free(&fx.pvk);
    return 0;
}

static void base_config(engine_config *cfg, engine_abc_eval where)
{
    engine_config_default(cfg);
    cfg->backend = BACKEND_CPU;
    cfg->device_threads = 2;
    cfg->synth_workers = 1;
    cfg->quiet = true;
    cfg->abc_eval = where;
}

static void register_builtin(engine_t *e, const char *name)
{
    circuit_spec spec = {.name = name,
                         .kind = CIRCUIT_BUILTIN,
                         .shape = fx.shape,
                         .params_path = fx.params,
                         .check = FORMATS_CHECK_CURVE};
    ok(engine_register(e, &spec, msg, sizeof(msg)));
}

static void register_zkey(engine_t *e, const char *name)
{
    circuit_spec spec = {.name = name,
                         .kind = CIRCUIT_ZKEY,
                         .zkey_path = FIX "chain_bls12381.zkey",
                         .check = FORMATS_CHECK_SUBGROUP};
    ok(engine_register(e, &spec, msg, sizeof(msg)));
}

static engine_state wait_job(engine_t *e, uint64_t id, engine_job_info *info)
{
    engine_state st;
    ok(engine_wait(e, id, 120, &st));
    ok(engine_job_status(e, id, info, NULL, 0));
    return st;
}

static void expect_done(engine_t *e, uint64_t id)
{
    engine_job_info info;
    engine_state st = wait_job(e, id, &info);
    if (st != ENGINE_STATE_DONE)
        fail_msg("job %llu is %s: %s", (unsigned long long)id, engine_state_name(st), info.message);
}

/* Fixed r, s for PARTS partitions, from the printed seed. */
static void fixed_rs(fr_t r[PARTS], fr_t s[PARTS])
{
    rng_t rng;
    rng_seed(&rng, fx.seed);
    for (int i = 0; i < PARTS; i++) {
        fr_random(&r[i], &rng);
        fr_random(&s[i], &rng);
    }
}

/* The set size of one circuit: w alone, or w and a, b, c. */
static uint64_t set_bytes(engine_t *e)
{
    engine_stats stats;
    engine_circuit_info ci;
    engine_get_stats(e, &stats, &ci, 1);
    assert_int_equal(stats.num_circuits, 1);
    uint64_t w_only = ALIGN64(ci.num_vars * sizeof(fr_t));
    assert_true(ci.set_bytes == w_only || ci.set_bytes == w_only + 3 * ci.domain_n * sizeof(fr_t));
    return ci.set_bytes;
}

static bool w_only(engine_t *e)
{
    engine_circuit_info ci;
    engine_stats stats;
    engine_get_stats(e, &stats, &ci, 1);
    return set_bytes(e) == ALIGN64(ci.num_vars * sizeof(fr_t));
}

/* The devices of the eval_abc spans of one job (-1: a synthesis worker). */
static size_t eval_devices(const char *path, uint64_t job, int *devices, size_t cap)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[2048];
    size_t n = 0;
    while (fgets(line, sizeof(line), f)) {
        json_t *o = json_loads(line, 0, NULL);
        assert_non_null(o);
        const char *type = json_string_value(json_object_get(o, "type"));
        const char *name = json_string_value(json_object_get(o, "name"));
        if (type && !strcmp(type, "span") && name && !strcmp(name, "eval_abc") &&
            (uint64_t)json_integer_value(json_object_get(o, "job")) == job && n < cap) {
            devices[n++] = (int)json_integer_value(json_object_get(o, "device"));
            const char *cat = json_string_value(json_object_get(o, "cat"));
            assert_non_null(cat);
            assert_string_equal(cat, "cpu");
        }
        json_decref(o);
    }
    fclose(f);
    return n;
}

/* One job of PARTS partitions with fixed r, s on an engine evaluating
 * where `where` says; its proofs into out. `inputs` NULL: seeds. */
static void prove_job(engine_abc_eval where, bool zkey, const engine_partition_input *inputs,
                      uint8_t out[PARTS * GROTH16_PROOF_BYTES], bool *evaluated_on_backend)
{
    char events[64];
    snprintf(events, sizeof(events), "/tmp/cuzk-engine-abc-XXXXXX");
    int fd = mkstemp(events);
    assert_true(fd >= 0);
    close(fd);
    engine_config cfg;
    base_config(&cfg, where);
    cfg.event_log = events;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    if (zkey)
        register_zkey(e, "c");
    else
        register_builtin(e, "c");
    bool backend = w_only(e);
    fr_t r[PARTS], s[PARTS];
    fixed_rs(r, s);
    engine_job_spec js = {.circuit = "c",
                          .priority = ENGINE_PRIORITY_NORMAL,
                          .partitions = PARTS,
                          .inputs = inputs,
                          .seed = 500,
                          .r = r,
                          .s = s};
    uint64_t id;
    ok(engine_submit(e, &js, &id, msg, sizeof(msg)));
    expect_done(e, id);
    size_t len = 0;
    ok(engine_job_proof(e, id, out, PARTS * GROTH16_PROOF_BYTES, &len));
    assert_int_equal(len, PARTS * GROTH16_PROOF_BYTES);
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.buffer_in_use, 0);
    engine_destroy(e); /* flushes the event log */
    int devices[PARTS + 1];
    assert_int_equal(eval_devices(events, id, devices, PARTS + 1), PARTS);
    for (int i = 0; i < PARTS; i++)
        assert_int_equal(devices[i], backend ? 0 : -1);
    unlink(events);
    *evaluated_on_backend = backend;
}

static void test_builtin_same_proofs(void **state)
{
    (void)state;
    uint8_t normal[PARTS * GROTH16_PROOF_BYTES], on_backend[PARTS * GROTH16_PROOF_BYTES];
    bool backend;
    prove_job(ENGINE_ABC_SYNTHESIS, false, NULL, normal, &backend);
    assert_false(backend);
    prove_job(ENGINE_ABC_BACKEND, false, NULL, on_backend, &backend);
    assert_true(backend);
    assert_memory_equal(normal, on_backend, sizeof(normal));
    /* And they are proofs (against the seeds' public inputs). */
    for (int i = 0; i < PARTS; i++) {
        groth16_proof_t proof;
        fr_t *inputs = calloc(fx.num_inputs, sizeof(fr_t));
        assert_non_null(inputs);
        ok(bellman_proof_decode(&proof, on_backend + i * GROTH16_PROOF_BYTES, msg, sizeof(msg)));
        ok(porep_like_public_inputs(inputs, fx.num_inputs, &fx.shape, 500 + (uint64_t)i));
        ok(groth16_verify(&fx.pvk, &proof, inputs, fx.num_inputs));
        free(inputs);
    }
}

static void test_zkey_same_proofs(void **state)
{
    (void)state;
    engine_partition_input in[PARTS];
    static const char *const wtns[PARTS] = {FIX "chain_bls12381.wtns", FIX "chain_bls12381_2.wtns",
                                            FIX "chain_bls12381.wtns"};
    for (int i = 0; i < PARTS; i++)
        in[i] = (engine_partition_input){.wtns_path = wtns[i]};
    uint8_t normal[PARTS * GROTH16_PROOF_BYTES], on_backend[PARTS * GROTH16_PROOF_BYTES];
    bool backend;
    prove_job(ENGINE_ABC_SYNTHESIS, true, in, normal, &backend);
    assert_false(backend);
    prove_job(ENGINE_ABC_BACKEND, true, in, on_backend, &backend);
    assert_true(backend);
    assert_memory_equal(normal, on_backend, sizeof(normal));
}

/* A built-in witness broken in one aux value fails on the backend path,
 * naming the row; a, b, c given with a witness are refused at submit. */
static void test_unsatisfied_and_abc_refused(void **state)
{
    (void)state;
    engine_config cfg;
    base_config(&cfg, ENGINE_ABC_BACKEND);
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    register_builtin(e, "small");
    assert_true(w_only(e));
    r1cs_t r;
    ok(builtin_compile(&r, &fx.shape, 0));
    uint64_t nv = r1cs_num_vars(&r);
    fr_t *w = malloc(sizeof(fr_t) * nv);
    assert_non_null(w);
    ok(builtin_witness(w, nv, &fx.shape, 42, 0));
    fr_add(&w[nv - 1], &w[nv - 1], &FR_ONE);
    engine_partition_input in = {.witness = w, .witness_len = nv};
    engine_job_spec js = {
        .circuit = "small", .priority = ENGINE_PRIORITY_NORMAL, .partitions = 1, .inputs = &in};
    uint64_t bad;
    ok(engine_submit(e, &js, &bad, msg, sizeof(msg)));
    engine_job_info info;
    assert_int_equal(wait_job(e, bad, &info), ENGINE_STATE_FAILED);
    if (!strstr(info.message, "partition 0") || !strstr(info.message, "does not satisfy") ||
        !strstr(info.message, "row ") || !strstr(info.message, "after 1 attempt"))
        fail_msg("message: %s", info.message);
    printf("unsatisfied: %s\n", info.message);

    fr_t *abc = calloc(3 * r.num_constraints, sizeof(fr_t));
    assert_non_null(abc);
    in.a = abc;
    in.b = abc + r.num_constraints;
    in.c = abc + 2 * r.num_constraints;
    in.abc_len = r.num_constraints;
    uint64_t id;
    assert_int_equal(engine_submit(e, &js, &id, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    if (!strstr(msg, "evaluates a, b, c") || !strstr(msg, "partition 0"))
        fail_msg("message: %s", msg);
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.buffer_in_use, 0);
    engine_destroy(e);
    free(abc);
    free(w);
    r1cs_free(&r);
}

/* A stand-in GPU backend (not the CPU, evaluates a, b, c) around the CPU
 * backend that fails every prove() and records whether it got a, b, c. */
typedef struct standin {
    backend_t base;
    backend_t *inner;
    pthread_mutex_t mu;
    unsigned calls, with_abc;
} standin;

static cuzk_status standin_prepare(backend_t *b, const backend_circuit_desc *d, void **h,
                                   uint64_t *bytes, char *m, size_t ml)
{
    standin *s = b->impl;
    assert_non_null(d->cs); /* the engine gives the system to a backend that evaluates */
    return s->inner->prepare(s->inner, d, h, bytes, m, ml);
}

static void standin_release(backend_t *b, void *h)
{
    standin *s = b->impl;
    s->inner->release(s->inner, h);
}

static cuzk_status standin_prove(backend_t *b, unsigned dev, void *h, const backend_input *in,
                                 groth16_sums *out, backend_phase_fn fn, void *ctx, char *m,
                                 size_t ml)
{
    (void)dev;
    (void)h;
    (void)out;
    (void)fn;
    (void)ctx;
    standin *s = b->impl;
    pthread_mutex_lock(&s->mu);
    s->calls++;
    s->with_abc += in->abc != NULL;
    pthread_mutex_unlock(&s->mu);
    snprintf(m, ml, "injected failure");
    return CUZK_ERR_DEVICE;
}

static void test_auto_and_cpu_fallback(void **state)
{
    (void)state;
    /* Auto on the CPU backend: synthesis evaluates. */
    engine_config cfg;
    base_config(&cfg, ENGINE_ABC_AUTO);
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    register_builtin(e, "small");
    assert_false(w_only(e));
    engine_destroy(e);

    /* Auto on a backend that is not the CPU: it evaluates; when it fails,
     * the CPU fallback gets w alone too and evaluates the retry. */
    standin s = {0};
    backend_cpu_opts o = {.devices = 1, .threads = 2};
    ok(backend_cpu_create(&s.inner, &o));
    pthread_mutex_init(&s.mu, NULL);
    s.base = (backend_t){.name = "gpu-standin",
                         .is_cpu = false,
                         .evaluates_abc = true,
                         .num_devices = 1,
                         .impl = &s,
                         .prepare = standin_prepare,
                         .release = standin_release,
                         .prove = standin_prove};
    base_config(&cfg, ENGINE_ABC_AUTO);
    cfg.backend_override = &s.base;
    cfg.workers_per_device = 1;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    register_builtin(e, "small");
    assert_true(w_only(e));
    fr_t r[PARTS], sv[PARTS];
    fixed_rs(r, sv);
    engine_job_spec js = {.circuit = "small",
                          .priority = ENGINE_PRIORITY_NORMAL,
                          .partitions = 1,
                          .seed = 500,
                          .r = r,
                          .s = sv};
    uint64_t id;
    ok(engine_submit(e, &js, &id, msg, sizeof(msg)));
    expect_done(e, id);
    uint8_t got[GROTH16_PROOF_BYTES];
    size_t len;
    ok(engine_job_proof(e, id, got, sizeof(got), &len));
    engine_destroy(e);
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.with_abc, 0);
    s.inner->destroy(s.inner);
    pthread_mutex_destroy(&s.mu);

    /* The fallback's proof is the normal path's for the same r, s. */
    uint8_t normal[PARTS * GROTH16_PROOF_BYTES];
    bool backend;
    prove_job(ENGINE_ABC_SYNTHESIS, false, NULL, normal, &backend);
    assert_memory_equal(got, normal, GROTH16_PROOF_BYTES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_same_proofs),
        cmocka_unit_test(test_zkey_same_proofs),
        cmocka_unit_test(test_unsatisfied_and_abc_refused),
        cmocka_unit_test(test_auto_and_cpu_fallback),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
