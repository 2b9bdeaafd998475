/* The CUDA backend against the CPU backend: for the same a, b, c and
 * witness, the MSM sums are equal point for point, so the proofs are equal
 * for the same r, s; and GPU proofs verify. The same with a, b, c
 * evaluated by the backends from the witness (abc NULL: on the device next
 * to the resident matrices, and on the CPU backend's threads), and a
 * witness that does not satisfy the constraints refused by the device's
 * check (CUZK_ERR_UNSATISFIED, naming the row), and a point outside the
 * subgroup refused by the device's subgroup test; under device budgets,
 * proofs from two threads at once (the engine's two prover workers, the
 * stage's vectors rotated between them) give the same sums. Built-in circuit (bellman
 * parameters) and the circom fixtures (snarkjs keys), of BLS12-381 and of
 * BN254 (circom's default curve: the BN254 proofs with fixed r, s equal
 * the CPU backend's and verify). Skipped without a GPU. */
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

#include "backend/backend.h"
#include "circuits/builtin.h"
#include "cuda/device.h"
#include "formats/circom_wtns.h"
#include "formats/zkey.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/verifier.h"
#include "circuits/zkey.h"
#include "field/scalar_slots.h"
#include "off_subgroup.h"
#include "seed.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

#ifdef CUZK_HAVE_CUDA

static uint64_t g_seed;
static char msg[512];

static void expect_ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

static void sums_equal(const groth16_sums *x, const groth16_sums *y)
{
    assert_true(g1_jac_eq(&x->a, &y->a));
    assert_true(g1_jac_eq(&x->b1, &y->b1));
    assert_true(g2_jac_eq(&x->b, &y->b));
    assert_true(g1_jac_eq(&x->c, &y->c));
}

/* Counts the PHASE_EVAL_ABC reports (cat "gpu"). */
static void count_eval(void *ctx, proof_phase phase, const char *cat, uint64_t start, uint64_t end,
                       uint64_t bytes)
{
    (void)start;
    (void)end;
    (void)bytes;
    if (phase == PHASE_EVAL_ABC && !strcmp(cat, "gpu"))
        ++*(int *)ctx;
}

/* Both backends on one circuit, with a, b, c given and evaluated by each
 * backend from w (desc carries the constraint system); the sums agree, so
 * the proofs for fixed r, s agree, and they verify. */
static void compare(backend_t *cpu, backend_t *gpu, const backend_circuit_desc *desc, const fr_t *w,
                    const fr_t *abc, size_t n, uint64_t rows, const groth16_vk_t *vk,
                    const fr_t *inputs, size_t num_inputs)
{
    void *hc, *hg;
    uint64_t bytes;
    expect_ok(cpu->prepare(cpu, desc, &hc, &bytes, msg, sizeof(msg)));
    expect_ok(gpu->prepare(gpu, desc, &hg, &bytes, msg, sizeof(msg)));
    fr_t *buf = malloc(3 * n * sizeof(fr_t));
    assert_non_null(buf);
    groth16_sums sc, sg, sd, se;
    for (int rep = 0; rep < 2; rep++) { /* twice: the device state is reused */
        memcpy(buf, abc, 3 * n * sizeof(fr_t));
        backend_input in = {.w = w, .abc = buf, .rows = rows};
        expect_ok(cpu->prove(cpu, 0, hc, &in, &sc, NULL, NULL, msg, sizeof(msg)));
        memcpy(buf, abc, 3 * n * sizeof(fr_t));
        expect_ok(gpu->prove(gpu, 0, hg, &in, &sg, NULL, NULL, msg, sizeof(msg)));
        sums_equal(&sc, &sg);
        backend_input from_w = {.w = w, .rows = rows};
        int evals = 0;
        expect_ok(gpu->prove(gpu, 0, hg, &from_w, &sd, count_eval, &evals, msg, sizeof(msg)));
        assert_int_equal(evals, 1);
        sums_equal(&sc, &sd);
        expect_ok(cpu->prove(cpu, 0, hc, &from_w, &se, NULL, NULL, msg, sizeof(msg)));
        sums_equal(&sc, &se);
    }
    rng_t rng;
    rng_seed(&rng, g_seed);
    fr_t r, s;
    fr_random(&r, &rng);
    fr_random(&s, &rng);
    groth16_proof_t proof, on_device, on_cpu;
    groth16_assemble(&proof, vk, &sg, &r, &s);
    groth16_assemble(&on_device, vk, &sd, &r, &s);
    groth16_assemble(&on_cpu, vk, &sc, &r, &s);
    assert_true(g1_affine_eq(&on_device.a, &on_cpu.a) && g2_affine_eq(&on_device.b, &on_cpu.b) &&
                g1_affine_eq(&on_device.c, &on_cpu.c));
    groth16_pvk_t pvk;
    expect_ok(groth16_prepare_vk(&pvk, vk));
    assert_int_equal(groth16_verify(&pvk, &proof, inputs, num_inputs), CUZK_OK);
    assert_int_equal(groth16_verify(&pvk, &on_device, inputs, num_inputs), CUZK_OK);
    groth16_pvk_free(&pvk);
    free(buf);
    cpu->release(cpu, hc);
    gpu->release(gpu, hg);
}

/* Device bytes of the plan's points, all resident. */
static uint64_t points_bytes(const groth16_plan *plan)
{
    uint64_t b = 0;
    for (unsigned i = 0; i < plan->num_msms; i++)
        for (unsigned k = 0; k < plan->msm[i].num_parts; k++)
            b += plan->msm[i].part[k].num_points *
                 (plan->msm[i].term == GROTH16_TERM_B_G2 ? 192u : 96u);
    return b;
}

static void refuse_unsatisfied(backend_t *gpu, const backend_circuit_desc *desc, const fr_t *w,
                               uint64_t nv, uint64_t num_inputs);

/* Proves from two threads at once, as the engine's two prover workers of
 * a device do: with one lean stage (stage rotation, on by default and
 * set in main) the second partition's witness goes up into the first's b vector
 * once its h is done, and takes the stage with its vectors rotated. */
#define CONCURRENT_PROVES 3
typedef struct concurrent_prover {
    backend_t *gpu;
    void *handle;
    const backend_input *in;
    groth16_sums sums[CONCURRENT_PROVES];
    cuzk_status st[CONCURRENT_PROVES];
    char why[256];
} concurrent_prover;

static void *concurrent_main(void *arg)
{
    concurrent_prover *p = arg;
    for (int i = 0; i < CONCURRENT_PROVES; i++)
        p->st[i] = p->gpu->prove(p->gpu, 0, p->handle, p->in, &p->sums[i], NULL, NULL, p->why,
                                 sizeof(p->why));
    return NULL;
}

static void prove_concurrently(backend_t *gpu, void *hg, const backend_input *in,
                               const groth16_sums *expected)
{
    concurrent_prover p[2];
    pthread_t t[2];
    for (int k = 0; k < 2; k++) {
        p[k] = (concurrent_prover){.gpu = gpu, .handle = hg, .in = in};
        assert_int_equal(pthread_create(&t[k], NULL, concurrent_main, &p[k]), 0);
    }
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < CONCURRENT_PROVES; i++) {
            if (p[k].st[i] != CUZK_OK)
                fail_msg("concurrent prove %d of thread %d: %s: %s", i, k,
                         cuzk_status_str(p[k].st[i]), p[k].why);
            sums_equal(expected, &p[k].sums[i]);
        }
}

/* The stage rotations the backend's description of hg counts (none when
 * it does not rotate; *rotating is then left alone). */
static unsigned long long stage_rotations(backend_t *gpu, void *hg, bool *rotating)
{
    char line[1024] = "";
    gpu->describe(gpu, hg, line, sizeof(line));
    const char *at = strstr(line, "stage rotations: ");
    if (!at)
        return 0;
    *rotating = true;
    return strtoull(at + strlen("stage rotations: "), NULL, 10);
}

/* Under device budgets from 95 % of what the circuit takes resident down
 * to 5 %, in steps of 5 %: each prepare either fits the budget, streaming
 * the points that do not fit (and, with the matrices, holding two vectors
 * a stage: the lean quotient), and gives the CPU's sums, or is refused as
 * below what a partition needs, naming the budget. must_stream: at least
 * one budget must have left points in host memory (the backend says so:
 * reads_host_points), so the streamed MSMs ran, and at the first such
 * budget a broken witness is refused (the lean form's check); a tiny
 * circuit may not stream (the MSM scratch for a chunk is larger than
 * it). Every fitting budget also proves from the input's a, b, c (as the
 * engine gives them when it evaluates on the host: the lean form copies c
 * into b's vector), and without desc.cs only from them. */
static void streamed_equal(backend_t *cpu, backend_t *gpu, backend_circuit_desc desc, const fr_t *w,
                           const fr_t *abc, uint64_t rows, uint64_t nv, uint64_t num_inputs,
                           bool must_stream)
{
    /* a prove may use its a, b, c as scratch (the CPU backend's quotient):
     * each gets a fresh copy */
    const size_t abc_bytes = 3 * desc.plan->domain->n * sizeof(fr_t);
    fr_t *scratch = malloc(abc_bytes);
    assert_non_null(scratch);
    void *hc, *hg;
    uint64_t full = 0, bytes = 0;
    assert_non_null(gpu->reads_host_points);
    expect_ok(cpu->prepare(cpu, &desc, &hc, &bytes, msg, sizeof(msg)));
    expect_ok(gpu->prepare(gpu, &desc, &hg, &full, msg, sizeof(msg)));
    assert_false(gpu->reads_host_points(gpu, hg));
    gpu->release(gpu, hg);
    const uint64_t points = points_bytes(desc.plan);
    backend_input in = {.w = w, .rows = rows, .abc = desc.cs ? NULL : scratch};
    backend_input in_abc = {.w = w, .rows = rows, .abc = scratch};
    groth16_sums sc, sg;
    memcpy(scratch, abc, abc_bytes);
    expect_ok(cpu->prove(cpu, 0, hc, &in, &sc, NULL, NULL, msg, sizeof(msg)));
    unsigned streamed = 0;
    unsigned long long rotations = 0;
    bool rotating = false;
    for (unsigned pct = 95; pct >= 5; pct -= 5) {
        desc.device_budget = full / 100 * pct;
        msg[0] = 0;
        hg = NULL;
        bytes = 0;
        cuzk_status st = gpu->prepare(gpu, &desc, &hg, &bytes, msg, sizeof(msg));
        bool streams = st == CUZK_OK && gpu->reads_host_points(gpu, hg);
        printf("  device budget %u %% of %llu (points %llu): %s, %llu bytes on the device%s%s%s\n",
               pct, (unsigned long long)full, (unsigned long long)points, cuzk_status_str(st),
               (unsigned long long)bytes, streams ? ", points streamed" : "", msg[0] ? ": " : "",
               msg);
        if (st != CUZK_OK) {
            assert_int_equal(st, CUZK_ERR_OUT_OF_MEMORY);
            assert_non_null(strstr(msg, "device budget"));
            assert_null(hg);
            continue;
        }
        assert_true(bytes <= desc.device_budget);
        if (streams && !streamed && must_stream && desc.cs) {
            gpu->release(gpu, hg);
            refuse_unsatisfied(gpu, &desc, w, nv, num_inputs);
            expect_ok(gpu->prepare(gpu, &desc, &hg, &bytes, msg, sizeof(msg)));
        }
        streamed += streams;
        for (int rep = 0; rep < 2; rep++) { /* the chunk buffers reused */
            memcpy(scratch, abc, abc_bytes);
            expect_ok(gpu->prove(gpu, 0, hg, &in, &sg, NULL, NULL, msg, sizeof(msg)));
            sums_equal(&sc, &sg);
        }
        if (desc.cs) { /* the witness alone goes up: two provers share it */
            prove_concurrently(gpu, hg, &in, &sc);
            rotations += stage_rotations(gpu, hg, &rotating);
        }
        memcpy(scratch, abc, abc_bytes);
        expect_ok(gpu->prove(gpu, 0, hg, &in_abc, &sg, NULL, NULL, msg, sizeof(msg)));
        sums_equal(&sc, &sg);
        gpu->release(gpu, hg);
    }
    printf("  %u budgets streamed points; %llu stage rotations\n", streamed, rotations);
    if (must_stream)
        assert_true(streamed > 0);
    /* two threads proving three times each under a one-stage budget:
     * some second partition took the first's free b vector */
    if (rotating)
        assert_true(rotations > 0);
    free(scratch);
    cpu->release(cpu, hc);
}

/* A witness broken in one aux value: the device's check refuses it. */
static void refuse_unsatisfied(backend_t *gpu, const backend_circuit_desc *desc, const fr_t *w,
                               uint64_t nv, uint64_t num_inputs)
{
    void *hg;
    uint64_t bytes;
    expect_ok(gpu->prepare(gpu, desc, &hg, &bytes, msg, sizeof(msg)));
    fr_t *bad = malloc(nv * sizeof(fr_t));
    assert_non_null(bad);
    memcpy(bad, w, nv * sizeof(fr_t));
    uint64_t v = num_inputs + g_seed % (nv - num_inputs);
    fr_add(&bad[v], &bad[v], &FR_ONE);
    backend_input in = {.w = bad, .rows = desc->rows};
    groth16_sums sums;
    assert_int_equal(gpu->prove(gpu, 0, hg, &in, &sums, NULL, NULL, msg, sizeof(msg)),
                     CUZK_ERR_UNSATISFIED);
    printf("w[%llu] broken: %s\n", (unsigned long long)v, msg);
    assert_non_null(strstr(msg, "does not satisfy"));
    assert_non_null(strstr(msg, "row "));
    free(bad);
    gpu->release(gpu, hg);
}

/* desc.check_subgroup: the points pass the device's subgroup test; one
 * L point moved off the subgroup (still on the curve) fails the prepare,
 * naming the query and the point; without the flag nothing is tested. */
static void subgroup_checked(backend_t *gpu, backend_circuit_desc desc, groth16_params_t *params,
                             rng_t *rng)
{
    void *hg = NULL;
    uint64_t bytes = 0;
    assert_true(gpu->checks_subgroup);
    desc.check_subgroup = true;
    expect_ok(gpu->prepare(gpu, &desc, &hg, &bytes, msg, sizeof(msg)));
    const uint64_t full = bytes;
    gpu->release(gpu, hg);
    const size_t at = params->num_l / 3;
    const g1_affine_t keep = params->l[at];
    g1_off_subgroup(&params->l[at], rng);
    assert_true(g1_affine_is_on_curve(&params->l[at]));
    assert_false(g1_affine_in_subgroup(&params->l[at]));
    msg[0] = 0;
    hg = NULL;
    assert_int_equal(gpu->prepare(gpu, &desc, &hg, &bytes, msg, sizeof(msg)), CUZK_ERR_CORRUPT);
    assert_null(hg);
    char want[64];
    snprintf(want, sizeof(want), "point %zu is not in the order-r subgroup", at);
    if (!strstr(msg, want) || !strstr(msg, "msm_l"))
        fail_msg("expected \"msm_l ... %s\", got \"%s\"", want, msg);
    /* The same verdict when the points stream (tested chunk by chunk), or
     * a refusal of a budget too small. */
    for (unsigned div = 8; div <= 64; div *= 2) {
        desc.device_budget = full * 3 / div;
        msg[0] = 0;
        hg = NULL;
        cuzk_status st = gpu->prepare(gpu, &desc, &hg, &bytes, msg, sizeof(msg));
        assert_null(hg);
        if (st == CUZK_ERR_OUT_OF_MEMORY && strstr(msg, "device budget"))
            continue;
        assert_int_equal(st, CUZK_ERR_CORRUPT);
        if (!strstr(msg, want) || !strstr(msg, "msm_l"))
            fail_msg("budget %llu: expected \"msm_l ... %s\", got \"%s\"",
                     (unsigned long long)desc.device_budget, want, msg);
    }
    desc.device_budget = 0;
    desc.check_subgroup = false;
    expect_ok(gpu->prepare(gpu, &desc, &hg, &bytes, msg, sizeof(msg)));
    gpu->release(gpu, hg);
    params->l[at] = keep;
}

static void test_builtin(void **state)
{
    backend_t **be = *state;
    rng_t rng;
    rng_seed(&rng, g_seed);
    for (unsigned k = 12; k <= 16; k += 2) {
        porep_like_params p;
        expect_ok(porep_like_params_for_constraints(&p, k, 8));
        r1cs_t r;
        expect_ok(builtin_compile(&r, &p, 0));
        groth16_params_t params;
        expect_ok(groth16_setup_dev(&params, &r, &rng, NULL));
        groth16_circuit_t c;
        expect_ok(groth16_circuit_init(&c, &r, &params, 0, msg, sizeof(msg)));
        size_t n = c.domain.n;
        uint64_t nv = r1cs_num_vars(&r);
        fr_t *w = malloc(nv * sizeof(fr_t)), *abc = calloc(3 * n, sizeof(fr_t));
        assert_true(w && abc);
        expect_ok(builtin_witness(w, nv, &p, g_seed + k, 0));
        r1cs_eval(&r, w, abc, abc + n, abc + 2 * n, 0);
        backend_circuit_desc desc = {
            .name = "builtin", .plan = &c.plan, .cs = &r, .rows = r.num_constraints};
        printf("builtin circuit 2^%u: %llu constraints\n", k,
               (unsigned long long)r.num_constraints);
        compare(be[0], be[1], &desc, w, abc, n, r.num_constraints, &params.vk, w + 1,
                r.num_inputs - 1);
        refuse_unsatisfied(be[1], &desc, w, nv, r.num_inputs);
        if (k == 12)
            subgroup_checked(be[1], desc, &params, &rng);
        if (k == 16) { /* parts of several chunks */
            streamed_equal(be[0], be[1], desc, w, abc, r.num_constraints, nv, r.num_inputs, true);
            backend_circuit_desc host_eval = desc;
            host_eval.cs = NULL; /* a, b, c always from the input */
            printf(" without the constraint system on the device:\n");
            streamed_equal(be[0], be[1], host_eval, w, abc, r.num_constraints, nv, r.num_inputs,
                           true);
        }
        free(w);
        free(abc);
        groth16_circuit_free(&c);
        groth16_params_free(&params);
        r1cs_free(&r);
    }
}

static void test_zkey(void **state)
{
    backend_t **be = *state;
    static const char *const names[] = {"chain", "poseidon", "manypub"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char zpath[512], wpath[512];
        snprintf(zpath, sizeof(zpath), FIX "%s_bls12381.zkey", names[i]);
        snprintf(wpath, sizeof(wpath), FIX "%s_bls12381.wtns", names[i]);
        zkey_t z;
        fr_t *w;
        uint64_t nw;
        expect_ok(zkey_open(&z, zpath, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
        expect_ok(circom_wtns_load(&w, &nw, wpath, msg, sizeof(msg)));
        size_t n = z.domain_size;
        fr_t *abc = calloc(3 * n, sizeof(fr_t));
        assert_true(abc);
        zkey_circuit_t zc;
        expect_ok(zkey_circuit_init(&zc, &z, FORMATS_CHECK_CURVE, 0, msg, sizeof(msg)));
        zkey_circuit_eval_abc(&zc, w, abc, 0);
        backend_circuit_desc desc = {
            .name = names[i], .plan = &zc.plan, .cs = &zc.cs, .rows = n, .c_is_ab = true};
        printf("zkey %s: domain %zu, %u signals\n", names[i], n, z.num_vars);
        compare(be[0], be[1], &desc, w, abc, n, n, &z.vk, w + 1, z.num_public);
        if (i == 0)
            streamed_equal(be[0], be[1], desc, w, abc, n, nw, z.num_public + 1, false);
        zkey_circuit_free(&zc);
        free(abc);
        free(w);
        zkey_close(&z);
    }
}

static void bn254_sums_equal(const groth16_sums *x, const groth16_sums *y)
{
    assert_true(bn254_g1_jac_eq(&x->bn254.a, &y->bn254.a));
    assert_true(bn254_g1_jac_eq(&x->bn254.b1, &y->bn254.b1));
    assert_true(bn254_g2_jac_eq(&x->bn254.b, &y->bn254.b));
    assert_true(bn254_g1_jac_eq(&x->bn254.c, &y->bn254.c));
}

/* The BN254 fixtures: both backends with a, b, c given and evaluated from
 * w, twice; equal sums, equal proofs for fixed r, s, and the GPU's proof
 * verifies (and fails with a changed public input). */
static void test_zkey_bn254(void **state)
{
    backend_t **be = *state;
    backend_t *cpu = be[0], *gpu = be[1];
    static const char *const names[] = {"chain", "poseidon", "manypub"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char zpath[512], wpath[512];
        snprintf(zpath, sizeof(zpath), FIX "%s_bn128.zkey", names[i]);
        snprintf(wpath, sizeof(wpath), FIX "%s_bn128.wtns", names[i]);
        zkey_t z;
        expect_ok(zkey_open(&z, zpath, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
        assert_int_equal(z.curve, CURVE_BN254);
        circom_wtns_t wt;
        expect_ok(circom_wtns_open(&wt, wpath, msg, sizeof(msg)));
        const uint64_t nw = wt.num_values;
        fr_t *w = malloc(nw * sizeof(fr_t));
        assert_non_null(w);
        expect_ok(circom_wtns_decode(w, &wt, 0, nw, msg, sizeof(msg)));
        circom_wtns_close(&wt);
        const size_t n = z.domain_size;
        fr_t *abc = calloc(3 * n, sizeof(fr_t)), *buf = malloc(3 * n * sizeof(fr_t));
        assert_true(abc && buf);
        bn254_zkey_circuit_t zc;
        expect_ok(bn254_zkey_circuit_init(&zc, &z, FORMATS_CHECK_CURVE, 0, msg, sizeof(msg)));
        bn254_zkey_circuit_eval_abc(&zc, bn254_fr_slots_const(w), bn254_fr_slots(abc), 0);
        backend_circuit_desc desc = {
            .name = names[i], .plan = &zc.plan, .cs = &zc.cs, .rows = n, .c_is_ab = true};
        printf("bn128 zkey %s: domain %zu, %u signals\n", names[i], n, z.num_vars);
        void *hc, *hg;
        uint64_t bytes;
        expect_ok(cpu->prepare(cpu, &desc, &hc, &bytes, msg, sizeof(msg)));
        expect_ok(gpu->prepare(gpu, &desc, &hg, &bytes, msg, sizeof(msg)));
        groth16_sums sc, sg, sd;
        for (int rep = 0; rep < 2; rep++) {
            memcpy(buf, abc, 3 * n * sizeof(fr_t));
            backend_input in = {.w = w, .abc = buf, .rows = n};
            expect_ok(cpu->prove(cpu, 0, hc, &in, &sc, NULL, NULL, msg, sizeof(msg)));
            memcpy(buf, abc, 3 * n * sizeof(fr_t));
            expect_ok(gpu->prove(gpu, 0, hg, &in, &sg, NULL, NULL, msg, sizeof(msg)));
            bn254_sums_equal(&sc, &sg);
            backend_input from_w = {.w = w, .rows = n};
            int evals = 0;
            expect_ok(gpu->prove(gpu, 0, hg, &from_w, &sd, count_eval, &evals, msg, sizeof(msg)));
            assert_int_equal(evals, 1);
            bn254_sums_equal(&sc, &sd);
        }
        rng_t rng;
        rng_seed(&rng, g_seed);
        bn254_fr_t r, s;
        bn254_fr_random(&r, &rng);
        bn254_fr_random(&s, &rng);
        bn254_groth16_proof_t on_cpu, on_device;
        bn254_groth16_assemble(&on_cpu, &z.bn254_vk, &sc.bn254, &r, &s);
        bn254_groth16_assemble(&on_device, &z.bn254_vk, &sd.bn254, &r, &s);
        assert_true(bn254_g1_affine_eq(&on_device.a, &on_cpu.a) &&
                    bn254_g2_affine_eq(&on_device.b, &on_cpu.b) &&
                    bn254_g1_affine_eq(&on_device.c, &on_cpu.c));
        const bn254_fr_t *pub = bn254_fr_slots_const(w) + 1;
        assert_int_equal(bn254_groth16_verify(&z.bn254_vk, &on_device, pub, z.num_public), CUZK_OK);
        if (z.num_public) {
            bn254_fr_t *bad = malloc(z.num_public * sizeof(bn254_fr_t));
            assert_non_null(bad);
            memcpy(bad, pub, z.num_public * sizeof(bn254_fr_t));
            bn254_fr_add(&bad[0], &bad[0], &BN254_FR_ONE);
            assert_int_not_equal(bn254_groth16_verify(&z.bn254_vk, &on_device, bad, z.num_public),
                                 CUZK_OK);
            free(bad);
        }
        cpu->release(cpu, hc);
        gpu->release(gpu, hg);
        bn254_zkey_circuit_free(&zc);
        free(abc);
        free(buf);
        free(w);
        zkey_close(&z);
    }
}

static int setup(void **state)
{
    static backend_t *be[2];
    backend_cpu_opts cpu = {.devices = 1};
    if (backend_cpu_create(&be[0], &cpu) != CUZK_OK)
        return -1;
    if (backend_cuda_create(&be[1], 0, msg, sizeof(msg)) != CUZK_OK) {
        fprintf(stderr, "cannot create the CUDA backend: %s\n", msg);
        return -1;
    }
    *state = be;
    return 0;
}

static int teardown(void **state)
{
    backend_t **be = *state;
    be[0]->destroy(be[0]);
    be[1]->destroy(be[1]);
    return 0;
}

#endif

int main(void)
{
#ifndef CUZK_HAVE_CUDA
    printf("SKIPPED: test_cuda_backend: this build has no CUDA backend\n");
    return 77;
#else
    const char *why = NULL;
    if (cuda_device_count(&why) <= 0) {
        printf("SKIPPED: test_cuda_backend: no CUDA device (%s)\n", why ? why : "none");
        return 77;
    }
    g_seed = test_seed("test_cuda_backend");
    /* Under a budget, a single lean stage passes its b vector on to the
     * next partition's witness (cuda_backend.c); on by default, and set
     * here so that an environment turning it off does not skip it. */
    setenv("CUZK_CUDA_STAGE_ROTATE", "on", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin),
        cmocka_unit_test(test_zkey),
        cmocka_unit_test(test_zkey_bn254),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
#endif
}
