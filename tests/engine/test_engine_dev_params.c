/* Development parameters made at load ("dev:SEED") in the engine: proofs
 * verify; the same seed gives the same verifying key and, with fixed r and
 * s, the same proofs byte for byte, in another engine too; another seed
 * gives others; the loaded key equals a direct single-threaded setup from
 * the seed; bad "dev:" strings are refused with a message; registration
 * never makes the parameters (a 2^27 circuit registers at once). And the
 * drop of the host's points: a backend that copies the points at prepare
 * (a CPU backend posing as a GPU one) proves correctly after the engine
 * freed its host copy, the CPU fallback gives the circuit up (a retry goes
 * back to the copying backend), and the resident bytes count each point
 * once. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "circuits/builtin.h"
#include "engine/engine.h"
#include "formats/bellman_params.h"
#include "groth16/setup.h"
#include "groth16/verifier.h"
#include "seed.h"
#include "util/rng.h"

static char msg[512];
static porep_like_params shape;
static uint64_t num_inputs;
static uint64_t seed; /* the dev: seed of these tests (printed) */

static void ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

static int group_setup(void **state)
{
    (void)state;
    seed = test_seed("test_engine_dev_params") % 1000000;
    assert_int_equal(porep_like_params_for_constraints(&shape, 10, 8), CUZK_OK);
    num_inputs = porep_like_num_inputs(&shape);
    return 0;
}

static void base_config(engine_config *cfg)
{
    engine_config_default(cfg);
    cfg->backend = BACKEND_CPU;
    cfg->device_threads = 2;
    cfg->load_threads = 2;
    cfg->synth_workers = 1;
    cfg->quiet = true;
}

static cuzk_status register_dev(engine_t *e, const char *name, const char *params)
{
    circuit_spec spec = {.name = name,
                         .kind = CIRCUIT_BUILTIN,
                         .shape = shape,
                         .params_path = params,
                         .check = FORMATS_CHECK_CURVE};
    return engine_register(e, &spec, msg, sizeof(msg));
}

static void dev_string(char *out, size_t len, uint64_t s)
{
    snprintf(out, len, "dev:%llu", (unsigned long long)s);
}

/* One job of `parts` partitions with r, s fixed per partition; its proofs
 * into out (parts × 192 bytes). */
static void prove_fixed(engine_t *e, const char *circuit, uint32_t parts, uint8_t *out)
{
    fr_t r[4], s[4];
    assert_true(parts <= 4);
    for (uint32_t i = 0; i < parts; i++) {
        fr_from_u64(&r[i], 1000 + i);
        fr_from_u64(&s[i], 2000 + i);
    }
    engine_job_spec js = {.circuit = circuit,
                          .priority = ENGINE_PRIORITY_NORMAL,
                          .partitions = parts,
                          .seed = 11,
                          .r = r,
                          .s = s};
    uint64_t id;
    ok(engine_submit(e, &js, &id, msg, sizeof(msg)));
    engine_state st;
    ok(engine_wait(e, id, 300, &st));
    if (st != ENGINE_STATE_DONE) {
        engine_job_info info;
        engine_job_status(e, id, &info, NULL, 0);
        fail_msg("job is %s: %s", engine_state_name(st), info.message);
    }
    size_t len = 0;
    ok(engine_job_proof(e, id, out, (size_t)parts * GROTH16_PROOF_BYTES, &len));
    assert_int_equal(len, (size_t)parts * GROTH16_PROOF_BYTES);
}

/* The proofs against the circuit's public inputs (job seed 11 + i). */
static void check_proofs(const groth16_vk_t *vk, const uint8_t *bytes, uint32_t parts)
{
    groth16_pvk_t pvk;
    ok(groth16_prepare_vk(&pvk, vk));
    groth16_proof_t proofs[4];
    size_t n = 0;
    ok(bellman_proofs_decode(proofs, parts, &n, bytes, (size_t)parts * GROTH16_PROOF_BYTES, msg,
                             sizeof(msg)));
    fr_t *inputs = calloc(num_inputs, sizeof(fr_t));
    for (uint32_t i = 0; i < parts; i++) {
        ok(porep_like_public_inputs(inputs, num_inputs, &shape, 11 + i));
        ok(groth16_verify(&pvk, &proofs[i], inputs, num_inputs));
    }
    free(inputs);
    groth16_pvk_free(&pvk);
}

/* ------------------------------------------------------------ dev:SEED */

static void test_same_seed_same_parameters(void **state)
{
    (void)state;
    char dev[32], other[32];
    dev_string(dev, sizeof(dev), seed);
    dev_string(other, sizeof(other), seed + 1);
    engine_config cfg;
    base_config(&cfg);
    engine_t *e1, *e2;
    ok(engine_create(&e1, &cfg, msg, sizeof(msg)));
    cfg.load_threads = 1; /* the second engine loads on one thread */
    ok(engine_create(&e2, &cfg, msg, sizeof(msg)));
    ok(register_dev(e1, "a", dev));
    ok(register_dev(e1, "other", other));
    ok(register_dev(e2, "b", dev));

    uint8_t pa[2 * GROTH16_PROOF_BYTES], pb[2 * GROTH16_PROOF_BYTES], po[2 * GROTH16_PROOF_BYTES];
    prove_fixed(e1, "a", 2, pa);
    prove_fixed(e2, "b", 2, pb);
    prove_fixed(e1, "other", 2, po);
    groth16_vk_t va, vb, vo;
    ok(engine_circuit_vk(e1, "a", &va, msg, sizeof(msg)));
    ok(engine_circuit_vk(e2, "b", &vb, msg, sizeof(msg)));
    ok(engine_circuit_vk(e1, "other", &vo, msg, sizeof(msg)));
    check_proofs(&va, pa, 2);
    check_proofs(&vo, po, 2);
    assert_true(groth16_vk_eq(&va, &vb));
    assert_memory_equal(pa, pb, sizeof(pa));
    assert_false(groth16_vk_eq(&va, &vo));
    assert_memory_not_equal(pa, po, sizeof(pa));

    /* Evicted and loaded again: made again, the same. */
    ok(engine_evict(e1, "a", msg, sizeof(msg)));
    groth16_vk_t again;
    ok(engine_circuit_vk(e1, "a", &again, msg, sizeof(msg)));
    assert_true(groth16_vk_eq(&va, &again));

    /* The engine's key is a direct setup's from the seed, on one thread. */
    r1cs_t r;
    ok(builtin_compile(&r, &shape, 1));
    rng_t rng;
    rng_seed_chacha(&rng, seed);
    groth16_params_t p;
    groth16_setup_opts so = {.threads = 1};
    ok(groth16_setup_dev(&p, &r, &rng, &so));
    assert_true(groth16_vk_eq(&va, &p.vk));
    groth16_params_free(&p);
    r1cs_free(&r);

    groth16_vk_free(&va);
    groth16_vk_free(&vb);
    groth16_vk_free(&vo);
    groth16_vk_free(&again);
    engine_destroy(e1);
    engine_destroy(e2);
}

static void test_bad_dev_strings(void **state)
{
    (void)state;
    engine_config cfg;
    base_config(&cfg);
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    const char *bad[] = {"dev:",   "dev:abc", "dev:-1",
                         "dev:1x", "dev: 1",  "dev:18446744073709551616"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        msg[0] = 0;
        assert_int_equal(register_dev(e, "bad", bad[i]), CUZK_ERR_INVALID_ARGUMENT);
        if (!strstr(msg, bad[i]) || !strstr(msg, "dev:SEED"))
            fail_msg("%s: message '%s'", bad[i], msg);
    }
    ok(register_dev(e, "max", "dev:18446744073709551615"));
    /* The external kind has no shape to make parameters for. */
    uint64_t bits = 1;
    circuit_spec ext = {.name = "ext",
                        .kind = CIRCUIT_EXTERNAL,
                        .params_path = "dev:1",
                        .num_inputs = 1,
                        .num_constraints = 1,
                        .b_input_density = &bits};
    assert_int_equal(engine_register(e, &ext, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "built-in circuit only"));
    engine_destroy(e);
}

/* Registration only counts: at 2^27 (about 50 GB of points, minutes to
 * make) it returns at once, with the counts of the shape. */
static void test_probe_makes_nothing(void **state)
{
    (void)state;
    engine_config cfg;
    base_config(&cfg);
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    porep_like_params big;
    ok(porep_like_params_for_constraints(&big, 27, 8));
    circuit_spec spec = {.name = "big",
                         .kind = CIRCUIT_BUILTIN,
                         .shape = big,
                         .params_path = "dev:1",
                         .check = FORMATS_CHECK_CURVE};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ok(engine_register(e, &spec, msg, sizeof(msg)));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    assert_true(s < 5.0);
    engine_circuit_info info[1];
    engine_stats st;
    engine_get_stats(e, &st, info, 1);
    assert_false(info[0].resident);
    assert_int_equal(info[0].domain_n, (uint64_t)1 << 27);
    assert_true(info[0].resident_bytes > ((uint64_t)40 << 30)); /* the estimate */
    engine_destroy(e);
}

/* ------------------------------------------------------------ the drop */

/* A CPU backend posing as a GPU one: prepare copies every part's points
 * (as an upload would) into a plan of its own, and the inner CPU backend
 * proves from those; the first fail_first proves fail. */
typedef struct copying {
    backend_t base;
    backend_t *inner;
    pthread_mutex_t mu;
    int fail_first, calls;
    const groth16_plan *given; /* the engine's plan as prepare saw it */
    uint64_t copied;           /* bytes of points copied */
} copying;

typedef struct copy_handle {
    groth16_plan plan;
    void *inner;
} copy_handle;

static void copy_handle_free(copy_handle *h)
{
    for (unsigned i = 0; i < h->plan.num_msms; i++)
        for (unsigned k = 0; k < h->plan.msm[i].num_parts; k++)
            free((void *)h->plan.msm[i].part[k].points);
    free(h);
}

static cuzk_status copying_prepare(backend_t *b, const backend_circuit_desc *d, void **handle,
                                   uint64_t *bytes, char *m, size_t m_len)
{
    copying *c = b->impl;
    copy_handle *h = calloc(1, sizeof(*h));
    if (!h)
        return CUZK_ERR_OUT_OF_MEMORY;
    h->plan = *d->plan;
    uint64_t copied = 0;
    for (unsigned i = 0; i < h->plan.num_msms; i++)
        for (unsigned k = 0; k < h->plan.msm[i].num_parts; k++) {
            groth16_msm_part *p = &h->plan.msm[i].part[k];
            size_t size = h->plan.msm[i].term == GROTH16_TERM_B_G2 ? sizeof(g2_affine_t)
                                                                   : sizeof(g1_affine_t);
            void *copy = malloc(size * (p->num_points + 1));
            if (!copy) {
                copy_handle_free(h);
                return CUZK_ERR_OUT_OF_MEMORY;
            }
            memcpy(copy, p->points, size * p->num_points);
            p->points = copy;
            copied += size * p->num_points;
        }
    backend_circuit_desc inner = *d;
    inner.plan = &h->plan;
    uint64_t ib = 0;
    cuzk_status st = c->inner->prepare(c->inner, &inner, &h->inner, &ib, m, m_len);
    if (st != CUZK_OK) {
        copy_handle_free(h);
        return st;
    }
    c->given = d->plan;
    c->copied = copied;
    *bytes = ib + copied;
    *handle = h;
    return CUZK_OK;
}

static void copying_release(backend_t *b, void *handle)
{
    copying *c = b->impl;
    copy_handle *h = handle;
    c->inner->release(c->inner, h->inner);
    copy_handle_free(h);
}

static cuzk_status copying_prove(backend_t *b, unsigned device, void *handle,
                                 const backend_input *in, groth16_sums *out, backend_phase_fn phase,
                                 void *phase_ctx, char *m, size_t m_len)
{
    copying *c = b->impl;
    copy_handle *h = handle;
    pthread_mutex_lock(&c->mu);
    c->calls++;
    bool fail = c->fail_first > 0;
    if (fail)
        c->fail_first--;
    pthread_mutex_unlock(&c->mu);
    if (fail) {
        backend_msg(m, m_len, "injected failure");
        return CUZK_ERR_DEVICE;
    }
    return c->inner->prove(c->inner, device, h->inner, in, out, phase, phase_ctx, m, m_len);
}

static void copying_init(copying *c)
{
    memset(c, 0, sizeof(*c));
    backend_cpu_opts o = {.devices = 1, .threads = 2};
    ok(backend_cpu_create(&c->inner, &o));
    pthread_mutex_init(&c->mu, NULL);
    c->base = (backend_t){.name = "copying-gpu",
                          .is_cpu = false,
                          .num_devices = 1,
                          .impl = c,
                          .prepare = copying_prepare,
                          .release = copying_release,
                          .prove = copying_prove,
                          .copies_points = true};
}

static void copying_free(copying *c)
{
    c->inner->destroy(c->inner);
    pthread_mutex_destroy(&c->mu);
}

static uint64_t resident_bytes_of(engine_t *e, const char *name, uint64_t *device_bytes)
{
    engine_circuit_info info[4];
    engine_stats st;
    size_t k = 0;
    engine_get_stats(e, &st, info, 4);
    while (strcmp(info[k].name, name))
        k++;
    assert_true(info[k].resident);
    if (device_bytes)
        *device_bytes = info[k].device_bytes;
    return info[k].resident_bytes;
}

static uint64_t resident_bytes(engine_t *e, const char *name)
{
    return resident_bytes_of(e, name, NULL);
}

static void test_drop_host_points(void **state)
{
    (void)state;
    char dev[32];
    dev_string(dev, sizeof(dev), seed);
    /* The reference: the CPU backend, which reads the host's points. */
    engine_config cfg;
    base_config(&cfg);
    engine_t *ref;
    ok(engine_create(&ref, &cfg, msg, sizeof(msg)));
    ok(register_dev(ref, "c", dev));
    uint8_t want[2 * GROTH16_PROOF_BYTES];
    prove_fixed(ref, "c", 2, want);
    uint64_t ref_bytes = resident_bytes(ref, "c");
    engine_destroy(ref);

    copying c;
    copying_init(&c);
    c.fail_first = 1;
    base_config(&cfg);
    cfg.backend_override = &c.base;
    cfg.workers_per_device = 1;
    engine_t *e;
    ok(engine_create(&e, &cfg, msg, sizeof(msg)));
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_true(stats.cpu_fallback);
    ok(register_dev(e, "c", dev));
    uint8_t got[2 * GROTH16_PROOF_BYTES];
    prove_fixed(e, "c", 2, got);
    assert_memory_equal(got, want, sizeof(got));
    groth16_vk_t vk;
    ok(engine_circuit_vk(e, "c", &vk, msg, sizeof(msg)));
    check_proofs(&vk, got, 2);
    groth16_vk_free(&vk);
    /* The host's copy is gone: every point pointer of the engine's plan is
     * cleared (the plan itself lives while the circuit is resident). */
    assert_non_null(c.given);
    for (unsigned i = 0; i < c.given->num_msms; i++)
        for (unsigned k = 0; k < c.given->msm[i].num_parts; k++)
            assert_null(c.given->msm[i].part[k].points);
    /* The failed attempt was retried on the copying backend, not on the
     * CPU fallback, which gave the circuit up. */
    assert_int_equal(c.calls, 3);
    /* Each point counted once: the backend's copy (on its device, counted
     * apart from the host's resident budget) instead of the host's. */
    assert_true(c.copied > 0);
    uint64_t device = 0, host = resident_bytes_of(e, "c", &device);
    assert_int_equal(host + device, ref_bytes);
    assert_true(device >= c.copied);
    engine_destroy(e);
    copying_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_parameters),
        cmocka_unit_test(test_bad_dev_strings),
        cmocka_unit_test(test_probe_makes_nothing),
        cmocka_unit_test(test_drop_host_points),
    };
    return cmocka_run_group_tests(tests, group_setup, NULL);
}
