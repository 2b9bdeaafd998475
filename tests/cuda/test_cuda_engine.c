/* The engine end to end on the CUDA backend: jobs in, verified proofs out.
 * Several jobs of several partitions on the built-in circuit (2^10
 * constraints, development parameters made here) and a job of two .wtns
 * witnesses on the circom fixture's snarkjs key, through engines on the
 * CUDA backend (a, b, c evaluated on the device next to the resident
 * matrices, and evaluated by the synthesis workers) and one on the CPU
 * backend. With the same fixed r, s per partition the proofs are equal
 * byte for byte; every proof is also checked independently against the
 * public inputs. The GPU engines have no CPU fallback and no retries, so a
 * partition the GPU got wrong fails its job instead of being proved again
 * on the CPU unnoticed. Skipped without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine_fixture.h"
#include "formats/bellman_params.h"
#include "formats/circom_wtns.h"
#include "formats/zkey.h"
#include "groth16/verifier.h"
#include "seed.h"
#include "util/rng.h"

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.h"
#endif

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

#ifdef CUZK_HAVE_CUDA

static uint64_t g_seed;

/* The built-in circuit's jobs: partitions and first seed of each. */
static const struct {
    uint32_t parts;
    uint64_t seed;
} JOBS[] = {{3, 11}, {1, 40}, {4, 70}};
#define NJOBS (sizeof(JOBS) / sizeof(JOBS[0]))
#define MAX_PARTS 4

static const char *const WTNS[] = {FIX "chain_bls12381.wtns", FIX "chain_bls12381_2.wtns"};
#define NWTNS (sizeof(WTNS) / sizeof(WTNS[0]))

/* What one engine proved: every job's bytes. */
typedef struct run {
    uint8_t builtin[NJOBS][MAX_PARTS * GROTH16_PROOF_BYTES];
    uint8_t zkey[NWTNS * GROTH16_PROOF_BYTES];
} run;

/* r, s of partition i of job k, the same for every engine. */
static void blinding(fr_t *r, fr_t *s, uint32_t parts, uint64_t k)
{
    rng_t rng;
    rng_seed(&rng, g_seed ^ (k * 0x9e3779b97f4a7c15ull));
    for (uint32_t i = 0; i < parts; i++) {
        fr_random(&r[i], &rng);
        fr_random(&s[i], &rng);
    }
}

static uint64_t submit_fixed(engine_t *e, const char *circuit, uint32_t parts, uint64_t seed,
                             const engine_partition_input *inputs, uint64_t k)
{
    fr_t r[MAX_PARTS], s[MAX_PARTS];
    blinding(r, s, parts, k);
    engine_job_spec js = {.circuit = circuit,
                          .priority = ENGINE_PRIORITY_NORMAL,
                          .partitions = parts,
                          .inputs = inputs,
                          .seed = seed,
                          .r = r,
                          .s = s};
    uint64_t id;
    efx_ok(engine_submit(e, &js, &id, efx_msg, sizeof(efx_msg)));
    return id;
}

/* The zkey job's proofs against the key's verifying key and each
 * witness's public inputs. */
static void check_zkey_proofs(const uint8_t *bytes)
{
    zkey_t z;
    efx_ok(
        zkey_open(&z, FIX "chain_bls12381.zkey", FORMATS_CHECK_SUBGROUP, efx_msg, sizeof(efx_msg)));
    groth16_pvk_t pvk;
    efx_ok(groth16_prepare_vk(&pvk, &z.vk));
    for (size_t i = 0; i < NWTNS; i++) {
        fr_t *w;
        uint64_t nw;
        efx_ok(circom_wtns_load(&w, &nw, WTNS[i], efx_msg, sizeof(efx_msg)));
        groth16_proof_t proof;
        efx_ok(bellman_proof_decode(&proof, bytes + i * GROTH16_PROOF_BYTES, efx_msg,
                                    sizeof(efx_msg)));
        efx_ok(groth16_verify(&pvk, &proof, w + 1, z.num_public));
        free(w);
    }
    groth16_pvk_free(&pvk);
    zkey_close(&z);
}

/* Every job through one engine; its proofs into *out, each checked. */
static void prove_all(backend_kind kind, engine_abc_eval abc, run *out)
{
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend = kind;
    cfg.abc_eval = abc;
    cfg.device_threads = 2;
    cfg.synth_workers = 2;
    cfg.expected_log_rows = 10;
    cfg.quiet = true;
    if (kind == BACKEND_CUDA) { /* what the GPU proves, or the job fails */
        cfg.cpu_fallback = false;
        cfg.retries = 0;
    }
    engine_t *e;
    efx_ok(engine_create(&e, &cfg, efx_msg, sizeof(efx_msg)));
    engine_stats stats;
    engine_get_stats(e, &stats, NULL, 0);
    assert_string_equal(stats.backend, kind == BACKEND_CUDA ? "cuda" : "cpu");
    assert_false(stats.cpu_fallback);

    efx_register(&efx, e, "small");
    circuit_spec zspec = {.name = "chain",
                          .kind = CIRCUIT_ZKEY,
                          .zkey_path = FIX "chain_bls12381.zkey",
                          .check = FORMATS_CHECK_SUBGROUP};
    efx_ok(engine_register(e, &zspec, efx_msg, sizeof(efx_msg)));

    uint64_t ids[NJOBS];
    for (size_t k = 0; k < NJOBS; k++) /* all queued at once: they interleave */
        ids[k] = submit_fixed(e, "small", JOBS[k].parts, JOBS[k].seed, NULL, k);
    engine_partition_input in[NWTNS];
    memset(in, 0, sizeof(in));
    for (size_t i = 0; i < NWTNS; i++)
        in[i].wtns_path = WTNS[i];
    uint64_t zid = submit_fixed(e, "chain", NWTNS, 0, in, NJOBS);
    /* And one with fresh r, s: it verifies too. */
    uint64_t fresh = efx_submit(e, "small", ENGINE_PRIORITY_LOW, 2, 90);

    for (size_t k = 0; k < NJOBS; k++) {
        efx_expect_state(e, ids[k], ENGINE_STATE_DONE);
        efx_check_proofs(&efx, e, ids[k], JOBS[k].parts, JOBS[k].seed);
        size_t len = 0;
        efx_ok(engine_job_proof(e, ids[k], out->builtin[k], sizeof(out->builtin[k]), &len));
        assert_int_equal(len, JOBS[k].parts * GROTH16_PROOF_BYTES);
    }
    efx_expect_state(e, zid, ENGINE_STATE_DONE);
    size_t len = 0;
    efx_ok(engine_job_proof(e, zid, out->zkey, sizeof(out->zkey), &len));
    assert_int_equal(len, sizeof(out->zkey));
    check_zkey_proofs(out->zkey);
    efx_expect_state(e, fresh, ENGINE_STATE_DONE);
    efx_check_proofs(&efx, e, fresh, 2, 90);

    engine_get_stats(e, &stats, NULL, 0);
    assert_int_equal(stats.retries, 0);
    assert_int_equal(stats.verify_failures, 0);
    printf("%s backend, a, b, c %s: %llu partitions proved on %u device%s\n", stats.backend,
           abc == ENGINE_ABC_SYNTHESIS ? "by synthesis" : "where the engine chose",
           (unsigned long long)stats.partitions_proved, stats.devices,
           stats.devices == 1 ? "" : "s");
    engine_destroy(e);
}

static void expect_same(const run *cpu, const run *gpu)
{
    for (size_t k = 0; k < NJOBS; k++)
        assert_memory_equal(cpu->builtin[k], gpu->builtin[k], JOBS[k].parts * GROTH16_PROOF_BYTES);
    assert_memory_equal(cpu->zkey, gpu->zkey, sizeof(cpu->zkey));
}

static void test_engine_cuda_matches_cpu(void **state)
{
    (void)state;
    run *cpu = calloc(1, sizeof(run)), *gpu = calloc(1, sizeof(run));
    assert_non_null(cpu);
    assert_non_null(gpu);
    prove_all(BACKEND_CPU, ENGINE_ABC_AUTO, cpu);
    prove_all(BACKEND_CUDA, ENGINE_ABC_AUTO, gpu); /* a, b, c on the device */
    expect_same(cpu, gpu);
    memset(gpu, 0, sizeof(*gpu));
    prove_all(BACKEND_CUDA, ENGINE_ABC_SYNTHESIS, gpu); /* a, b, c on the host */
    expect_same(cpu, gpu);
    free(cpu);
    free(gpu);
}

#endif

int main(void)
{
#ifndef CUZK_HAVE_CUDA
    printf("SKIPPED: test_cuda_engine: this build has no CUDA backend\n");
    return 77;
#else
    const char *why = NULL;
    if (cuda_device_count(&why) <= 0) {
        printf("SKIPPED: test_cuda_engine: no CUDA device (%s)\n", why ? why : "none");
        return 77;
    }
    g_seed = test_seed("test_cuda_engine");
    efx_name = "cuda_engine";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_cuda_matches_cpu),
    };
    return cmocka_run_group_tests(tests, efx_group_setup, efx_group_teardown);
#endif
}
