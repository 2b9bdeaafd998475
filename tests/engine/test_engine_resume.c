/* A job resumed with some partitions proved before (engine_job_spec.done,
 * how the service goes on with a job after a restart): only the others
 * are proved, the given proofs are answered as they were, every proof
 * verifies for its own partition's inputs; a job with every partition
 * given is done at once; the observer hears of each partition proved and
 * each job made final. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "circuits/builtin.h"
#include "engine/engine.h"
#include "formats/bellman_params.h"
#include "groth16/verifier.h"
#include "builtin_params.h"

static struct {
    porep_like_params shape;
    char params[64];
    groth16_pvk_t pvk;
    uint64_t num_inputs;
} fx;

static char msg[512];

static void ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

/* What the observer heard about the job watched. */
static struct {
    pthread_mutex_t mu;
    uint32_t proved[8]; /* per partition, for the job watched */
    uint64_t watched;
    engine_state final;
    int finals;
} heard = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void on_partition(void *ctx, uint64_t job, uint32_t idx, const uint8_t *proof,
                         const fr_t *pub, uint64_t num_pub)
{
    (void)ctx, (void)proof, (void)pub;
    assert_int_equal(num_pub, fx.num_inputs);
    pthread_mutex_lock(&heard.mu);
    if (job == heard.watched && idx < 8)
        heard.proved[idx]++;
    pthread_mutex_unlock(&heard.mu);
}

static void on_final(void *ctx, uint64_t job, engine_state state, const char *message)
{
    (void)ctx, (void)message;
    pthread_mutex_lock(&heard.mu);
    if (job == heard.watched) {
        heard.final = state;
        heard.finals++;
    }
    pthread_mutex_unlock(&heard.mu);
}

static engine_t *start(void)
{
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend = BACKEND_CPU;
    cfg.device_threads = 2;
    cfg.synth_workers = 1;
    cfg.quiet = true;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    circuit_spec spec = {.name = "p",
                         .kind = CIRCUIT_BUILTIN,
                         .shape = fx.shape,
                         .params_path = fx.params,
                         .check = FORMATS_CHECK_CURVE};
    ok(engine_register(e, &spec, msg, sizeof(msg)));
    engine_observer obs = {.partition_done = on_partition, .job_final = on_final};
    engine_set_observer(e, &obs);
    return e;
}

static void wait_done(engine_t *e, uint64_t id)
{
    engine_state st;
    ok(engine_wait(e, id, 120, &st));
    engine_job_info info;
    engine_job_status(e, id, &info, NULL, 0);
    if (st != ENGINE_STATE_DONE)
        fail_msg("job is %s: %s", engine_state_name(st), info.message);
}

/* Every partition's proof verifies for its seed's inputs. */
static void check_proofs(const uint8_t *bytes, uint32_t parts, uint64_t seed)
{
    groth16_proof_t proofs[8];
    fr_t inputs[64];
    size_t n = 0;
    assert_true(parts <= 8 && fx.num_inputs <= 8);
    ok(bellman_proofs_decode(proofs, parts, &n, bytes, (size_t)parts * GROTH16_PROOF_BYTES, msg,
                             sizeof(msg)));
    for (uint32_t i = 0; i < parts; i++) {
        ok(porep_like_public_inputs(inputs, fx.num_inputs, &fx.shape, seed + i));
        ok(groth16_verify(&fx.pvk, &proofs[i], inputs, fx.num_inputs));
    }
}

static void test_resume(void **state)
{
    (void)state;
    engine_t *e = start();
    /* The first run: 4 partitions, all proved. */
    engine_job_spec js = {.circuit = "p", .priority = ENGINE_PRIORITY_NORMAL, .partitions = 4,
                          .seed = 10};
    uint64_t first;
    ok(engine_submit(e, &js, &first, msg, sizeof(msg)));
    wait_done(e, first);
    uint8_t before[4 * GROTH16_PROOF_BYTES];
    fr_t pub[4 * 8];
    size_t len, count, per;
    ok(engine_job_proof(e, first, before, sizeof(before), &len));
    ok(engine_job_public(e, first, pub, 4 * 8, &count, &per));
    assert_int_equal(per, fx.num_inputs);

    /* Resumed with partitions 1 and 3 proved before: 0 and 2 are proved
     * now, 1 and 3 answered as given. */
    bool done[4] = {false, true, false, true};
    js.done = done;
    js.done_proofs = before;
    js.done_public = pub;
    js.label = "resumed-job";
    /* The observer watches the next id (ids grow by one). */
    pthread_mutex_lock(&heard.mu);
    heard.watched = first + 1;
    pthread_mutex_unlock(&heard.mu);
    uint64_t resumed;
    ok(engine_submit(e, &js, &resumed, msg, sizeof(msg)));
    assert_int_equal(resumed, first + 1);
    wait_done(e, resumed);
    uint8_t after[4 * GROTH16_PROOF_BYTES];
    ok(engine_job_proof(e, resumed, after, sizeof(after), &len));
    check_proofs(after, 4, 10);
    for (int i = 1; i < 4; i += 2)
        assert_memory_equal(after + i * GROTH16_PROOF_BYTES, before + i * GROTH16_PROOF_BYTES,
                            GROTH16_PROOF_BYTES);
    /* Fresh blinding: a partition proved again differs from the first. */
    assert_memory_not_equal(after, before, GROTH16_PROOF_BYTES);
    engine_job_info info;
    ok(engine_job_status(e, resumed, &info, NULL, 0));
    assert_int_equal(info.partitions_done, 4);
    pthread_mutex_lock(&heard.mu);
    assert_int_equal(heard.proved[0], 1);
    assert_int_equal(heard.proved[1], 0);
    assert_int_equal(heard.proved[2], 1);
    assert_int_equal(heard.proved[3], 0);
    assert_int_equal(heard.finals, 1);
    assert_int_equal(heard.final, ENGINE_STATE_DONE);
    pthread_mutex_unlock(&heard.mu);

    /* Every partition given: done at submit, nothing proved. */
    bool all[4] = {true, true, true, true};
    js.done = all;
    pthread_mutex_lock(&heard.mu);
    heard.watched = resumed + 1;
    heard.finals = 0;
    memset(heard.proved, 0, sizeof(heard.proved));
    pthread_mutex_unlock(&heard.mu);
    uint64_t given;
    ok(engine_submit(e, &js, &given, msg, sizeof(msg)));
    engine_state st;
    ok(engine_wait(e, given, 0, &st));
    assert_int_equal(st, ENGINE_STATE_DONE);
    ok(engine_job_proof(e, given, after, sizeof(after), &len));
    assert_memory_equal(after, before, sizeof(before));
    pthread_mutex_lock(&heard.mu);
    assert_int_equal(heard.proved[0] + heard.proved[1] + heard.proved[2] + heard.proved[3], 0);
    assert_int_equal(heard.finals, 1);
    pthread_mutex_unlock(&heard.mu);

    /* Done flags without the proofs are refused. */
    js.done_proofs = NULL;
    uint64_t refused;
    assert_int_equal(engine_submit(e, &js, &refused, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    engine_destroy(e);
}

static int group_setup(void **state)
{
    (void)state;
    test_builtin_params_file("engine_resume", &fx.shape, fx.params, sizeof(fx.params), &fx.pvk);
    fx.num_inputs = porep_like_num_inputs(&fx.shape);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    unlink(fx.params);
    groth16_pvk_free(&fx.pvk);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resume),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
