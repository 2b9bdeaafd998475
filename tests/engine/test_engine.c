/* The engine end to end on the real CPU prover (the built-in circuit at
 * 2^10 constraints, development parameters made here): many jobs of mixed
 * priorities, every proof checked independently; the event log parsed
 * (every phase of every partition, in pipeline order); the buffer budget
 * at one partition; retries on another device and on the CPU fallback; a
 * backend that always fails; a snarkjs zkey with .wtns witnesses; the CPU
 * backend on snarkjs keys gives `cuzk prove`'s proof for the same r, s; a
 * job resumed with partitions proved before proves only the others. */
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
#include "groth16/assemble.h"
#include "groth16/setup.h"
#include "groth16/verifier.h"
#include "circuits/zkey.h"
#include "engine_fixture.h"
#include "seed.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static char msg[512];

static void ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

/* ------------------------------------------------------------ event log */

static const char *const PHASES[] = {"queue_wait", "synthesize", "eval_abc", "h",
                                     "msm_h",      "msm_l",      "msm_a",    "msm_b_g1",
                                     "msm_b_g2",   "assemble",   "verify"};
#define NUM_PHASES (sizeof(PHASES) / sizeof(PHASES[0]))

typedef struct span_rec {
    uint64_t job;
    uint32_t part;
    int phase; /* index into PHASES; NUM_PHASES for finalize, -1 other */
    uint64_t start, end;
    int device;
} span_rec;

typedef struct event_file {
    span_rec *spans;
    size_t num_spans;
    uint64_t jobs_done[64];
    size_t num_done;
} event_file;

static int phase_index(const char *name)
{
    for (size_t i = 0; i < NUM_PHASES; i++)
        if (!strcmp(name, PHASES[i]))
            return (int)i;
    return !strcmp(name, "finalize") ? (int)NUM_PHASES : -1;
}

/* Parses every line and checks each has the format's fields. */
static void read_events(const char *path, event_file *ef)
{
    memset(ef, 0, sizeof(*ef));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[2048];
    size_t cap = 0, lineno = 0;
    while (fgets(line, sizeof(line), f)) {
        json_error_t err;
        json_t *o = json_loads(line, 0, &err);
        if (!o)
            fail_msg("%s line %zu does not parse: %s", path, lineno + 1, err.text);
        const char *type = json_string_value(json_object_get(o, "type"));
        assert_non_null(type);
        if (lineno == 0) {
            assert_string_equal(type, "meta");
            assert_string_equal(json_string_value(json_object_get(o, "clock")), "monotonic");
            assert_true(json_is_integer(json_object_get(o, "t0_ns")));
            assert_true(json_is_integer(json_object_get(o, "pid")));
            assert_true(json_is_string(json_object_get(o, "host")));
            assert_true(json_is_string(json_object_get(o, "version")));
        } else if (!strcmp(type, "span")) {
            static const char *const ints[] = {"job",      "partition", "device",
                                               "start_ns", "end_ns",    "bytes"};
            for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
                if (!json_is_integer(json_object_get(o, ints[i])))
                    fail_msg("span without %s: %s", ints[i], line);
            const char *cat = json_string_value(json_object_get(o, "cat"));
            assert_non_null(cat);
            assert_true(!strcmp(cat, "queue") || !strcmp(cat, "cpu") || !strcmp(cat, "gpu") ||
                        !strcmp(cat, "copy"));
            assert_true(json_is_string(json_object_get(o, "circuit")));
            assert_true(json_is_string(json_object_get(o, "worker")));
            if (ef->num_spans == cap) {
                cap = cap ? 2 * cap : 256;
                ef->spans = realloc(ef->spans, cap * sizeof(span_rec));
            }
            span_rec *s = &ef->spans[ef->num_spans++];
            s->job = (uint64_t)json_integer_value(json_object_get(o, "job"));
            s->part = (uint32_t)json_integer_value(json_object_get(o, "partition"));
            s->phase = phase_index(json_string_value(json_object_get(o, "name")));
            s->start = (uint64_t)json_integer_value(json_object_get(o, "start_ns"));
            s->end = (uint64_t)json_integer_value(json_object_get(o, "end_ns"));
            s->device = (int)json_integer_value(json_object_get(o, "device"));
            if (s->start > s->end)
                fail_msg("span ends before it starts: %s", line);
        } else if (!strcmp(type, "job")) {
            const char *st = json_string_value(json_object_get(o, "state"));
            assert_non_null(st);
            assert_true(json_is_integer(json_object_get(o, "ts_ns")));
            assert_true(json_is_string(json_object_get(o, "priority")));
            assert_true(json_is_string(json_object_get(o, "message")));
            if (!strcmp(st, "done") && ef->num_done < 64)
                ef->jobs_done[ef->num_done++] =
                    (uint64_t)json_integer_value(json_object_get(o, "job"));
        } else {
            assert_string_equal(type, "counter");
            assert_true(json_is_number(json_object_get(o, "value")));
        }
        json_decref(o);
        lineno++;
    }
    fclose(f);
    assert_true(lineno > 1);
}

/* The spans of one partition: each phase once, in pipeline order, one
 * after another; finalize around assemble and verify. */
static void check_partition_spans(const event_file *ef, uint64_t job, uint32_t part)
{
    const span_rec *by[NUM_PHASES + 1] = {0};
    for (size_t i = 0; i < ef->num_spans; i++) {
        const span_rec *s = &ef->spans[i];
        if (s->job != job || s->part != part || s->phase < 0)
            continue;
        if (by[s->phase])
            fail_msg("job %llu partition %u: phase %s twice", (unsigned long long)job, part,
                     s->phase < (int)NUM_PHASES ? PHASES[s->phase] : "finalize");
        by[s->phase] = s;
    }
    for (size_t p = 0; p <= NUM_PHASES; p++)
        if (!by[p])
            fail_msg("job %llu partition %u: no %s span", (unsigned long long)job, part,
                     p < NUM_PHASES ? PHASES[p] : "finalize");
    for (size_t p = 1; p < NUM_PHASES; p++)
        if (by[p]->start < by[p - 1]->end)
            fail_msg("job %llu partition %u: %s starts before %s ends", (unsigned long long)job,
                     part, PHASES[p], PHASES[p - 1]);
    const span_rec *fin = by[NUM_PHASES];
    assert_true(fin->start <= by[9]->start && fin->end >= by[10]->end);
    assert_int_equal(by[0]->device, -1);
    assert_true(by[3]->device >= 0); /* prover phases name their device */
}

/* ---------------------------------------------------------------- tests */

static void test_mixed_priorities_and_events(void **state)
{
    (void)state;
    char events[64];
    snprintf(events, sizeof(events), "/tmp/cuzk-engine-events-XXXXXX");
    int fd = mkstemp(events);
    assert_true(fd >= 0);
    close(fd);
    engine_config cfg;
    efx_base_config(&cfg);
    cfg.event_log = events;
    cfg.cpu_devices = 2; /* the CPU posing as two devices: placement on both */
    cfg.device_threads = 1;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    efx_register(&efx, e, "small");
    static const struct {
        engine_priority prio;
        uint32_t parts;
    } jobs[] = {{ENGINE_PRIORITY_LOW, 2},
                {ENGINE_PRIORITY_NORMAL, 1},
                {ENGINE_PRIORITY_CRITICAL, 2},
                {ENGINE_PRIORITY_HIGH, 1},
                {ENGINE_PRIORITY_NORMAL, 2}};
    enum { NJ = sizeof(jobs) / sizeof(jobs[0]) };
    uint64_t ids[NJ], seeds[NJ];
    for (int i = 0; i < NJ; i++) {
        seeds[i] = 1000 + 10 * (uint64_t)i;
        ids[i] = efx_submit(e, "small", jobs[i].prio, jobs[i].parts, seeds[i]);
        if (i > 0)
            assert_true(ids[i] > ids[i - 1]);
    }
    for (int i = 0; i < NJ; i++) {
        efx_expect_state(e, ids[i], ENGINE_STATE_DONE);
        efx_check_proofs(&efx, e, ids[i], jobs[i].parts, seeds[i]);
        engine_state parts[2];
        engine_job_info info;
        ok(engine_job_status(e, ids[i], &info, parts, 2));
        assert_int_equal(info.partitions_done, jobs[i].parts);
        for (uint32_t k = 0; k < jobs[i].parts; k++)
            assert_int_equal(parts[k], ENGINE_STATE_DONE);
    }
    engine_job_info list[8];
    assert_int_equal(engine_list_jobs(e, list, 8), NJ);
    engine_stats stats;
    engine_circuit_info ci;
    engine_get_stats(e, &stats, &ci, 1);
    assert_int_equal(stats.jobs[ENGINE_STATE_DONE], NJ);
    assert_int_equal(stats.buffer_in_use, 0);
    assert_int_equal(stats.pool_acquires, stats.pool_releases);
    assert_true(ci.resident && ci.loads == 1);
    engine_destroy(e);

    event_file ef;
    read_events(events, &ef);
    assert_int_equal(ef.num_done, NJ);
    for (int i = 0; i < NJ; i++)
        for (uint32_t k = 0; k < jobs[i].parts; k++)
            check_partition_spans(&ef, ids[i], k);
    bool used[2] = {false, false};
    for (size_t i = 0; i < ef.num_spans; i++)
        if (ef.spans[i].phase == 3) /* h */
            used[ef.spans[i].device] = true;
    assert_true(used[0] && used[1]);
    free(ef.spans);
    unlink(events);
}

/* The automatic budget: raised to two sets when it holds fewer and two
 * fit in 3/8 of the memory (2^27 with a, b, c on the host: 17.2 GB a set
 * on a 128 GiB host), else unchanged. */
static void test_auto_buffer_budget(void **state)
{
    (void)state;
    const uint64_t gib = (uint64_t)1 << 30, ram = 128 * gib, quarter = ram / 4;
    const uint64_t porep_set = 17200000000ull; /* a, b, c, w at 2^27 */
    assert_true(engine_auto_buffer_budget(ram, quarter, porep_set) == 2 * porep_set);
    assert_true(engine_auto_buffer_budget(ram, quarter, gib) == quarter); /* holds 32 already */
    assert_true(engine_auto_buffer_budget(ram, quarter, quarter / 2) == quarter); /* two fit */
    /* two sets over 3/8 of the memory: the budget stays (one set proves at a time) */
    assert_true(engine_auto_buffer_budget(ram, quarter, 25 * gib) == quarter);
    assert_true(engine_auto_buffer_budget(ram, quarter, 24 * gib) == 48 * gib);
    /* a second, larger circuit raises it again; a smaller one leaves it */
    assert_true(engine_auto_buffer_budget(ram, 2 * porep_set, 20 * gib) == 40 * gib);
    assert_true(engine_auto_buffer_budget(ram, 40 * gib, porep_set) == 40 * gib);

    /* Through an engine whose budget is automatic: the small circuit's two
     * sets fit the default, which stays RAM / 4. */
    engine_config cfg;
    efx_base_config(&cfg);
    cfg.buffer_budget = 0;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    engine_stats before, after;
    engine_get_stats(e, &before, NULL, 0);
    efx_register(&efx, e, "small");
    engine_get_stats(e, &after, NULL, 0);
    assert_true(after.buffer_budget == before.buffer_budget);
    engine_destroy(e);
}

static void test_buffer_budget_one_partition(void **state)
{
    (void)state;
    char events[64];
    snprintf(events, sizeof(events), "/tmp/cuzk-engine-budget-XXXXXX");
    int fd = mkstemp(events);
    close(fd);
    /* The set size, from a first engine's registration. */
    engine_config cfg;
    efx_base_config(&cfg);
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    efx_register(&efx, e, "small");
    engine_stats stats;
    engine_circuit_info ci;
    engine_get_stats(e, &stats, &ci, 1);
    engine_destroy(e);

    cfg.buffer_budget = ci.set_bytes;
    cfg.queue_bound = 2;
    cfg.event_log = events;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    efx_register(&efx, e, "small");
    uint64_t id = efx_submit(e, "small", ENGINE_PRIORITY_NORMAL, 3, 77);
    efx_expect_state(e, id, ENGINE_STATE_DONE);
    efx_check_proofs(&efx, e, id, 3, 77);
    engine_get_stats(e, &stats, &ci, 1);
    assert_true(stats.buffer_budget == cfg.buffer_budget); /* a budget given is kept */
    assert_true(stats.buffer_peak <= cfg.buffer_budget);
    assert_int_equal(stats.pool_allocs, 1); /* one set, reused */
    assert_int_equal(stats.pool_acquires, 3);
    assert_int_equal(ci.sets, 1);
    engine_destroy(e);

    /* One partition's buffers at a time: from synthesis to the end of its
     * last MSM, no two partitions overlap. */
    event_file ef;
    read_events(events, &ef);
    uint64_t from[3] = {0}, to[3] = {0};
    for (size_t i = 0; i < ef.num_spans; i++) {
        const span_rec *s = &ef.spans[i];
        if (s->job != id || s->part >= 3)
            continue;
        if (s->phase == 1)
            from[s->part] = s->start;
        if (s->phase == 8)
            to[s->part] = s->end;
    }
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            if (a != b)
                assert_true(to[a] <= from[b] || to[b] <= from[a]);
    free(ef.spans);
    unlink(events);

    /* A budget smaller than one partition fails the job, saying why. */
    cfg.buffer_budget = ci.set_bytes - 1;
    cfg.event_log = NULL;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    efx_register(&efx, e, "small");
    id = efx_submit(e, "small", ENGINE_PRIORITY_NORMAL, 1, 1);
    efx_expect_state(e, id, ENGINE_STATE_FAILED);
    engine_job_info info;
    ok(engine_job_status(e, id, &info, NULL, 0));
    assert_non_null(strstr(info.message, "buffer budget"));
    engine_destroy(e);
}

static void test_retry_on_another_device(void **state)
{
    (void)state;
    flaky f;
    flaky_init(&f, "cpu", true, 2); /* the CPU posing as two devices */
    f.fail_first = 1;
    engine_config cfg;
    efx_base_config(&cfg);
    cfg.backend_override = &f.base;
    cfg.workers_per_device = 1;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.devices, 2);
    assert_false(stats.cpu_fallback); /* the CPU backend needs none */
    efx_register(&efx, e, "small");
    uint64_t id = efx_submit(e, "small", ENGINE_PRIORITY_HIGH, 1, 5);
    efx_expect_state(e, id, ENGINE_STATE_DONE);
    efx_check_proofs(&efx, e, id, 1, 5);
    engine_job_info info;
    ok(engine_job_status(e, id, &info, NULL, 0));
    assert_int_equal(info.attempts, 2);
    assert_int_equal(f.calls, 2);
    assert_int_not_equal(f.devices_called[0], f.devices_called[1]);
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.retries, 1);
    engine_destroy(e);
    flaky_free(&f);
}

static void test_retry_on_cpu_fallback(void **state)
{
    (void)state;
    flaky f;
    flaky_init(&f, "flaky-gpu", false, 1);
    f.always = true;
    engine_config cfg;
    efx_base_config(&cfg);
    cfg.backend_override = &f.base;
    cfg.workers_per_device = 1;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.devices, 1); /* the GPU stand-in */
    assert_true(stats.cpu_fallback);
    efx_register(&efx, e, "small");
    uint64_t id = efx_submit(e, "small", ENGINE_PRIORITY_NORMAL, 1, 9);
    efx_expect_state(e, id, ENGINE_STATE_DONE);
    efx_check_proofs(&efx, e, id, 1, 9);
    assert_int_equal(f.calls, 1); /* the retry ran on the fallback */
    engine_destroy(e);
    flaky_free(&f);
}

/* A backend that fails every call: the job fails naming the partition and
 * the cause, and has no proof, with the pairing check on or off (with it
 * off, nothing else would notice a proof that was never made: the command
 * line once wrote such a partition out as if it were good). */
static void backend_always_fails(bool verify)
{
    flaky f;
    flaky_init(&f, "cpu", true, 1);
    f.always = true;
    engine_config cfg;
    efx_base_config(&cfg);
    cfg.backend_override = &f.base;
    cfg.retries = 1;
    cfg.verify = verify;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    efx_register(&efx, e, "small");
    uint64_t id = efx_submit(e, "small", ENGINE_PRIORITY_NORMAL, 2, 3);
    efx_expect_state(e, id, ENGINE_STATE_FAILED);
    engine_job_info info;
    engine_state parts[2];
    ok(engine_job_status(e, id, &info, parts, 2));
    if (!strstr(info.message, "partition ") || !strstr(info.message, "after 2 attempts") ||
        !strstr(info.message, "injected failure"))
        fail_msg("message: %s", info.message);
    assert_true(parts[0] == ENGINE_STATE_FAILED || parts[1] == ENGINE_STATE_FAILED);
    size_t len = 0;
    uint8_t buf[2 * GROTH16_PROOF_BYTES];
    assert_int_equal(engine_job_proof(e, id, buf, sizeof(buf), &len), CUZK_ERR_INVALID_ARGUMENT);
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.buffer_in_use, 0);
    engine_destroy(e);
    flaky_free(&f);
}

static void test_backend_always_fails(void **state)
{
    (void)state;
    backend_always_fails(true);
    backend_always_fails(false);
}

/* A backend that allocates the partition buffers itself (as the CUDA one
 * does, page-locked): the engine fills the circuit's pool at load time, up
 * to the queue bound within the budget, and allocates nothing later. */
static unsigned host_allocs, host_frees;
static pthread_mutex_t host_mu = PTHREAD_MUTEX_INITIALIZER;

static void *counting_host_alloc(backend_t *b, size_t bytes)
{
    (void)b;
    pthread_mutex_lock(&host_mu);
    host_allocs++;
    pthread_mutex_unlock(&host_mu);
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

static void counting_host_free(backend_t *b, void *p)
{
    (void)b;
    pthread_mutex_lock(&host_mu);
    host_frees++;
    pthread_mutex_unlock(&host_mu);
    free(p);
}

static void prefill_case(uint64_t budget_sets, unsigned queue_bound, unsigned expect_sets)
{
    flaky f;
    flaky_init(&f, "pinned", false, 1);
    f.base.host_alloc = counting_host_alloc;
    f.base.host_free = counting_host_free;
    host_allocs = host_frees = 0;
    engine_config cfg;
    efx_base_config(&cfg);
    cfg.backend_override = &f.base;
    cfg.queue_bound = queue_bound;
    engine_t *e;
    engine_stats stats;
    engine_circuit_info ci;
    if (budget_sets) { /* the set size, from a first engine's registration */
        ok(engine_create(&e, &cfg, msg, sizeof(msg)));
        efx_register(&efx, e, "small");
        engine_get_stats(e, &stats, &ci, 1);
        engine_destroy(e);
        cfg.buffer_budget = budget_sets * ci.set_bytes;
    }
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    efx_register(&efx, e, "small");
    ok(engine_preload(e, "small", msg, sizeof(msg)));
    engine_get_stats(e, &stats, &ci, 1);
    assert_int_equal(stats.pool_allocs, expect_sets);
    assert_int_equal(ci.sets, expect_sets);
    assert_int_equal(ci.sets_free, expect_sets);
    assert_int_equal(host_allocs, expect_sets);
    assert_true(stats.buffer_allocated <= stats.buffer_budget);

    uint64_t id = efx_submit(e, "small", ENGINE_PRIORITY_NORMAL, 5, 31);
    efx_expect_state(e, id, ENGINE_STATE_DONE);
    efx_check_proofs(&efx, e, id, 5, 31);
    engine_get_stats(e, &stats, &ci, 1);
    assert_int_equal(stats.pool_allocs, expect_sets); /* nothing allocated per partition */
    assert_int_equal(host_allocs, expect_sets);
    assert_int_equal(stats.pool_acquires, 5);
    engine_destroy(e);
    assert_int_equal(host_frees, host_allocs);
    flaky_free(&f);
}

static void test_pool_prefilled_at_load(void **state)
{
    (void)state;
    prefill_case(0, 2, 4); /* the queue bound + 2 prover workers */
    prefill_case(3, 2, 3); /* the budget */
}

static void test_zkey_jobs(void **state)
{
    (void)state;
    engine_config cfg;
    efx_base_config(&cfg);
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    circuit_spec spec = {.name = "chain",
                         .kind = CIRCUIT_ZKEY,
                         .zkey_path = FIX "chain_bls12381.zkey",
                         .check = FORMATS_CHECK_SUBGROUP};
    ok(engine_register(e, &spec, msg, sizeof(msg)));
    engine_partition_input in[2] = {{.wtns_path = FIX "chain_bls12381.wtns"},
                                    {.wtns_path = FIX "chain_bls12381.wtns"}};
    engine_job_spec js = {
        .circuit = "chain", .priority = ENGINE_PRIORITY_NORMAL, .partitions = 2, .inputs = in};
    uint64_t id;
    ok(engine_submit(e, &js, &id, msg, sizeof(msg)));
    /* A seed is not a witness for a zkey circuit. */
    engine_job_spec bad = {.circuit = "chain", .partitions = 1};
    uint64_t id2;
    assert_int_equal(engine_submit(e, &bad, &id2, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    efx_expect_state(e, id, ENGINE_STATE_DONE);

    /* Independently: against the key's verifying key. */
    zkey_t z;
    ok(zkey_open(&z, FIX "chain_bls12381.zkey", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    fr_t *w;
    uint64_t nw;
    ok(circom_wtns_load(&w, &nw, FIX "chain_bls12381.wtns", msg, sizeof(msg)));
    groth16_pvk_t pvk;
    ok(groth16_prepare_vk(&pvk, &z.vk));
    uint8_t bytes[2 * GROTH16_PROOF_BYTES];
    size_t len;
    ok(engine_job_proof(e, id, bytes, sizeof(bytes), &len));
    for (int i = 0; i < 2; i++) {
        groth16_proof_t proof;
        ok(bellman_proof_decode(&proof, bytes + i * GROTH16_PROOF_BYTES, msg, sizeof(msg)));
        ok(groth16_verify(&pvk, &proof, w + 1, z.num_public));
    }
    /* Fresh r, s per partition: same witness, different proofs. */
    assert_memory_not_equal(bytes, bytes + GROTH16_PROOF_BYTES, GROTH16_PROOF_BYTES);

    /* A witness given as an array, with a wrong first value: synthesis
     * fails the job and says which partition. */
    w[0] = FR_ZERO;
    engine_partition_input arr = {.witness = w, .witness_len = nw};
    js.partitions = 1;
    js.inputs = &arr;
    ok(engine_submit(e, &js, &id2, msg, sizeof(msg)));
    efx_expect_state(e, id2, ENGINE_STATE_FAILED);
    engine_job_info info;
    ok(engine_job_status(e, id2, &info, NULL, 0));
    assert_non_null(strstr(info.message, "partition 0"));
    groth16_pvk_free(&pvk);
    free(w);
    zkey_close(&z);
    engine_destroy(e);
}

/* The phases the CPU backend reports for a snarkjs key: each once. */
typedef struct zkey_phases {
    const char *names[16];
    size_t n;
    pthread_mutex_t mu;
} zkey_phases;

static void zkey_phase(void *ctx, proof_phase ph, const char *cat, uint64_t start, uint64_t end,
                       uint64_t bytes)
{
    const char *phase = proof_phase_name(ph);
    zkey_phases *zp = ctx;
    assert_string_equal(cat, "cpu");
    assert_true(end >= start && bytes > 0);
    pthread_mutex_lock(&zp->mu);
    if (zp->n < 16)
        zp->names[zp->n] = phase;
    zp->n++;
    pthread_mutex_unlock(&zp->mu);
}

/* The engine's CPU backend on snarkjs keys, fed a, b, c as the engine's
 * synthesis evaluates them, on 1 to 4 threads: its sums assembled with r, s
 * give the proof `cuzk prove` (zkey_circuit_prove_with) gives for the same
 * r, s, and it verifies; each prover phase is reported once. */
static void test_cpu_backend_zkey_equals_prove(void **state)
{
    (void)state;
    static const char *const names[] = {"chain", "poseidon", "manypub"};
    static const char *const phases[] = {"h", "msm_h", "msm_a", "msm_b_g1", "msm_b_g2"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char zpath[512], wpath[512];
        snprintf(zpath, sizeof(zpath), FIX "%s_bls12381.zkey", names[i]);
        snprintf(wpath, sizeof(wpath), FIX "%s_bls12381.wtns", names[i]);
        zkey_t z;
        fr_t *w;
        uint64_t nw;
        ok(zkey_open(&z, zpath, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
        ok(circom_wtns_load(&w, &nw, wpath, msg, sizeof(msg)));
        assert_int_equal(nw, z.num_vars);
        size_t n = z.domain_size;
        zkey_circuit_t c;
        ok(zkey_circuit_init(&c, &z, FORMATS_CHECK_SUBGROUP, 2, msg, sizeof(msg)));
        void *scratch = malloc(zkey_circuit_scratch_bytes(&c));
        fr_t *abc = malloc(3 * n * sizeof(fr_t));
        assert_true(scratch && abc);
        groth16_pvk_t pvk;
        ok(groth16_prepare_vk(&pvk, &z.vk));
        fr_t r, s;
        fr_from_u64(&r, 1000 + i);
        fr_from_u64(&s, 2000 + i);
        groth16_proof_t want;
        ok(zkey_circuit_prove_with(&want, &c, w, &r, &s, scratch, 2));
        ok(groth16_verify(&pvk, &want, w + 1, z.num_public));
        for (unsigned t = 1; t <= 4; t++) {
            backend_t *b;
            backend_cpu_opts opts = {.devices = 1, .threads = t};
            ok(backend_cpu_create(&b, &opts));
            backend_circuit_desc desc = {.name = names[i], .plan = &c.plan};
            void *handle;
            uint64_t bytes;
            ok(b->prepare(b, &desc, &handle, &bytes, msg, sizeof(msg)));
            assert_int_equal(bytes, 0); /* the CPU executes the plan where its points are */
            zkey_circuit_eval_abc(&c, w, abc, 2);
            backend_input in = {.w = w, .abc = abc, .rows = n, .rows_checked = true};
            groth16_sums sums;
            zkey_phases zp = {.n = 0};
            pthread_mutex_init(&zp.mu, NULL);
            ok(b->prove(b, 0, handle, &in, &sums, zkey_phase, &zp, msg, sizeof(msg)));
            pthread_mutex_destroy(&zp.mu);
            assert_int_equal(zp.n, sizeof(phases) / sizeof(phases[0]));
            for (size_t k = 0; k < sizeof(phases) / sizeof(phases[0]); k++) {
                size_t seen = 0;
                for (size_t j = 0; j < zp.n; j++)
                    seen += !strcmp(zp.names[j], phases[k]);
                if (seen != 1)
                    fail_msg("%s on %u threads: phase %s reported %zu times", names[i], t,
                             phases[k], seen);
            }
            groth16_proof_t got;
            groth16_assemble(&got, &z.vk, &sums, &r, &s);
            if (!g1_affine_eq(&got.a, &want.a) || !g2_affine_eq(&got.b, &want.b) ||
                !g1_affine_eq(&got.c, &want.c))
                fail_msg("%s on %u threads: the backend's proof differs from cuzk prove's",
                         names[i], t);
            ok(groth16_verify(&pvk, &got, w + 1, z.num_public));
            b->release(b, handle);
            b->destroy(b);
        }
        groth16_pvk_free(&pvk);
        free(abc);
        free(scratch);
        zkey_circuit_free(&c);
        free(w);
        zkey_close(&z);
    }
}

/* A built-in witness given as an array, satisfied and then broken in one
 * aux value: the first proves, the second fails at synthesis. */
static void test_witness_arrays(void **state)
{
    (void)state;
    engine_config cfg;
    efx_base_config(&cfg);
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    efx_register(&efx, e, "small");
    r1cs_t r;
    ok(builtin_compile(&r, &efx.shape, 0));
    uint64_t nv = r1cs_num_vars(&r);
    fr_t *w = malloc(sizeof(fr_t) * nv);
    ok(builtin_witness(w, nv, &efx.shape, 42, 2));
    engine_partition_input in = {.witness = w, .witness_len = nv};
    engine_job_spec js = {
        .circuit = "small", .priority = ENGINE_PRIORITY_NORMAL, .partitions = 1, .inputs = &in};
    uint64_t good, bad;
    ok(engine_submit(e, &js, &good, msg, sizeof(msg)));
    fr_add(&w[nv - 1], &w[nv - 1], &FR_ONE); /* the array was copied at submit */
    ok(engine_submit(e, &js, &bad, msg, sizeof(msg)));
    in.witness_len = nv - 1;
    uint64_t id;
    assert_int_equal(engine_submit(e, &js, &id, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "variables"));
    efx_expect_state(e, good, ENGINE_STATE_DONE);
    efx_check_proofs(&efx, e, good, 1, 42);
    efx_expect_state(e, bad, ENGINE_STATE_FAILED);
    engine_job_info info;
    ok(engine_job_status(e, bad, &info, NULL, 0));
    if (!strstr(info.message, "partition 0: synthesis failed") ||
        !strstr(info.message, "does not satisfy"))
        fail_msg("message: %s", info.message);
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.buffer_in_use, 0);
    assert_int_equal(stats.partitions_proved, 1);
    engine_destroy(e);
    free(w);
    r1cs_free(&r);
}

/* ------------------------------------------------------ resumed jobs */

/* A job resumed with some partitions proved before (engine_job_spec.done,
 * how the service goes on with a job after a restart): only the others
 * are proved, the given proofs are answered as they were, every proof
 * verifies for its own partition's inputs; a job with every partition
 * given is done at once; the observer hears of each partition proved and
 * each job made final. */

/* What the observer heard about the job watched. */
static struct {
    pthread_mutex_t mu;
    uint32_t proved[8]; /* per partition, for the job watched */
    uint64_t watched;
    engine_state final;
    int finals;
} heard = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void on_partition(void *ctx, uint64_t job, uint32_t idx, const uint8_t *proof,
                         size_t proof_len, const fr_t *pub, uint64_t num_pub)
{
    (void)ctx, (void)proof, (void)pub;
    assert_int_equal(proof_len, GROTH16_PROOF_BYTES);
    assert_int_equal(num_pub, efx.num_inputs);
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

/* A CPU engine with circuit "p" and the observer. */
static engine_t *start_observed(void)
{
    engine_config cfg;
    efx_base_config(&cfg);
    cfg.device_threads = 2;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    efx_register(&efx, e, "p");
    engine_observer obs = {.partition_done = on_partition, .job_final = on_final};
    engine_set_observer(e, &obs);
    return e;
}

static void test_resume(void **state)
{
    (void)state;
    engine_t *e = start_observed();
    /* The first run: 4 partitions, all proved. */
    engine_job_spec js = {
        .circuit = "p", .priority = ENGINE_PRIORITY_NORMAL, .partitions = 4, .seed = 10};
    uint64_t first = efx_submit(e, "p", ENGINE_PRIORITY_NORMAL, 4, 10);
    efx_expect_state(e, first, ENGINE_STATE_DONE);
    uint8_t before[4 * GROTH16_PROOF_BYTES];
    fr_t pub[4 * 8];
    size_t len, count, per;
    ok(engine_job_proof(e, first, before, sizeof(before), &len));
    ok(engine_job_public(e, first, pub, 4 * 8, &count, &per));
    assert_int_equal(per, efx.num_inputs);

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
    efx_expect_state(e, resumed, ENGINE_STATE_DONE);
    efx_check_proofs(&efx, e, resumed, 4, 10);
    uint8_t after[4 * GROTH16_PROOF_BYTES];
    ok(engine_job_proof(e, resumed, after, sizeof(after), &len));
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
    assert_int_equal(engine_submit(e, &js, &refused, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    engine_destroy(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixed_priorities_and_events),
        cmocka_unit_test(test_auto_buffer_budget),
        cmocka_unit_test(test_buffer_budget_one_partition),
        cmocka_unit_test(test_retry_on_another_device),
        cmocka_unit_test(test_retry_on_cpu_fallback),
        cmocka_unit_test(test_backend_always_fails),
        cmocka_unit_test(test_pool_prefilled_at_load),
        cmocka_unit_test(test_zkey_jobs),
        cmocka_unit_test(test_cpu_backend_zkey_equals_prove),
        cmocka_unit_test(test_witness_arrays),
        cmocka_unit_test(test_resume),
    };
    return cmocka_run_group_tests(tests, efx_group_setup, efx_group_teardown);
}
