/* One Groth16 partition's GPU time by phase, at the built-in circuit's large
 * sizes, without a parameters file: every input is made on the device.
 *
 * For each log n (domain 2^k), the shape is the built-in storage-proof
 * circuit's at --log-constraints k, arity 8 (the CLI's default;
 * circuits/porep_like.h: porep_like_count gives the constraints and aux
 * variables, bellman's input rows added):
 *  - points (cuda_msm_points_generate: point i = [a + i·d]·G, a and d random
 *    per query): H (n − 1 G1), L (num_aux G1), A (inputs, aux), B_G1 and
 *    B_G2 (inputs, aux) split like the backend's resident queries;
 *  - densities: A takes every aux variable and B 26 % of them, at random
 *    (`bench_circuit --arity 8` measures 1.0000 and 0.2593 / 0.2591 at
 *    2^19 / 2^20), B every input;
 *  - a, b, c: random (cuda_msm_scalars_fill), refilled before each run
 *    (h is computed in place);
 *  - the witness: 0 or 1 (half each) except every 128th value, which is
 *    random: 99.2 % of values 0 or 1, as bench_circuit measures for the
 *    built-in circuit at arity 8 from 2^19 up (0.9919; 0.985 at arity 2).
 * Then the bellman proof plan of that shape (groth16_plan_bellman) run by
 * the CUDA backend's own executor (backend/cuda_plan.h: h, then the MSMs
 * over H, L, A, B_G1 and B_G2 part by part), each phase waited for and
 * timed with the host's monotonic clock as the backend times it. One warm-up, then --runs runs; per
 * phase the median, minimum and maximum; "total" is the whole sequence of one run.
 *
 * Output, one JSON line per phase and size:
 *   {"bench":"cuda_prove","log_n":k,"phase":"h|msm_h|msm_l|msm_a|msm_b_g1|
 *    msm_b_g2|total","median_ms":..,"min_ms":..,"max_ms":..,"runs":..,
 *    "outputs_on_curve_in_subgroup":..,"device":..,"commit":..}
 * and one line per size with phase "sizes": the counts, the bytes of the
 * points, the device memory this size took (free memory before its first
 * allocation minus after its last), the time to make the inputs. A size
 * that does not fit the device's free memory gets one line with
 * "skipped":true and why.
 * outputs_on_curve_in_subgroup: every run's MSM results were finite points
 * on the curve and in the subgroup (each part may be infinity, the phase's
 * sum may not); the line of h and of the total carry the check of all MSMs
 * of the size (h itself has no check: it feeds the H MSM). That is all it
 * says: the values are not compared with another MSM, and no proof is
 * assembled or verified here (tests/cuda/test_cuda_engine.c proves and
 * verifies through the engine; lines before this name called the field
 * "checked").
 *
 * Device work per size: making the points, about 3.2·n G1 and 0.26·n G2
 * points (one inversion each), dominates; then (runs + 1) proofs. Expected
 * run time at 24, 26, 27: a minute or two on an H200 (not yet measured).
 *
 * With --eval-abc, each run first evaluates a, b, c on the device
 * (cuda/r1cs_eval.h, as the CUDA backend does when only w crosses PCIe)
 * from the built-in circuit's real constraint system at that size,
 * compiled on the host (builtin_compile, which grows linearly: 2^18 took
 * 4.6 s in a sanitizer build on a loaded machine, so expect a minute or
 * so at 2^24 and several at 2^27; its result holds about 5.7 nonzeros a
 * row at 6 bytes each plus 24 bytes a row) and made resident; phase
 * "eval_abc" times it and h then runs on its output instead of random
 * a, b, c. The witness is the
 * one above (the real one's 0/1 share, not a satisfying assignment: the
 * device's check finds a failing row, at the same cost), so eval_abc has
 * "outputs_on_curve_in_subgroup":false (tests/cuda/test_cuda_r1cs.c
 * checks the values) and a line with phase "eval_abc_setup" gives the compile and upload times,
 * the nonzeros and the device bytes of the matrices.
 *
 * Usage: bench_cuda_prove [--logs 24,26,27] [--runs R] [--seed S] [--eval-abc]
 * Without CUDA, or without a GPU, prints one line and exits 0. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CUZK_HAVE_CUDA

#include <cuda_runtime_api.h>

#include "backend/backend.h"
#include "backend/cuda_plan.h"
#include "circuits/builtin.h"
#include "circuits/porep_like.h"
#include "cuda/device.h"
#include "cuda/msm.h"
#include "cuda/ntt.h"
#include "cuda/r1cs_eval.h"
#include "r1cs/r1cs.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"
#include "suite.h"

#define MAX_RUNS 64
#define MAX_SIZES 8
#define MIN_LOG 10 /* porep_like_params_for_constraints' range */
#define MAX_LOG 27
#define DEVICE 0
/* The share of aux variables in B (bench_circuit --arity 8: 0.2593 at 2^19,
 * 0.2591 at 2^20); A takes them all. */
#define B_AUX_DENSITY 0.26
/* One witness value in this many is random, the rest 0 or 1 (bench_circuit
 * --arity 8: 99.19 % of the values are 0 or 1). */
#define WITNESS_RANDOM_STRIDE 128
#define ARITY 8
/* Left free beyond the estimate: the runtime's own allocations, the point
 * generator's scratch. */
#define HEADROOM_BYTES ((uint64_t)1 << 30)
#define GIB (1024.0 * 1024.0 * 1024.0)

/* The queries of bellman parameters, for counting the points. */
enum query { Q_H, Q_L, Q_A_IN, Q_A_AUX, Q_B1_IN, Q_B1_AUX, Q_B2_IN, Q_B2_AUX, Q_COUNT };

enum phase {
    PH_EVAL_ABC,
    PH_H,
    PH_MSM_H,
    PH_MSM_L,
    PH_MSM_A,
    PH_MSM_B_G1,
    PH_MSM_B_G2,
    PH_TOTAL,
    PH_COUNT
};

/* The evaluation of a, b, c (with --eval-abc), the phases of the bellman
 * plan in its order (groth16/phase.h's names), then the whole sequence. */
static const proof_phase plan_phases[PH_TOTAL] = {
    PHASE_EVAL_ABC, PHASE_H, PHASE_MSM_H, PHASE_MSM_L, PHASE_MSM_A, PHASE_MSM_B_G1, PHASE_MSM_B_G2};

static const char *phase_label(int p)
{
    return p == PH_TOTAL ? "total" : proof_phase_name(plan_phases[p]);
}

/* The counts of one size. */
typedef struct prove_shape {
    unsigned log_n;
    uint64_t n;          /* the domain */
    uint64_t rows;       /* constraints plus bellman's input rows */
    uint64_t num_inputs; /* ONE included */
    uint64_t num_aux;
    uint64_t query_points[Q_COUNT];
    uint64_t a_aux_count, b_input_count, b_aux_count; /* bits set */
} prove_shape;

/* Everything one size holds on the device (and its host bitmaps). */
typedef struct prove_size {
    cuda_ntt_ctx *ntt;
    cuda_msm_ctx *msm;
    domain_t domain;       /* only n and log_n: what the plan reads */
    groth16_plan plan;     /* its parts' points are made on the device, not named */
    cuda_plan_parts parts; /* the plan's points and densities on the device */
    void *d_abc[3];
    void *d_w;
    void *d_w_random; /* the witness's random values before they are spread */
    cudaStream_t stream;
    uint64_t *bits_a_aux, *bits_b_in, *bits_b_aux;
    cuda_r1cs *r1cs; /* --eval-abc: the circuit's matrices; NULL: random a, b, c */
    cuda_r1cs_check *check;
} prove_size;

typedef struct bench_opts {
    unsigned logs[MAX_SIZES];
    size_t n_logs;
    int runs;
    uint64_t seed;
    bool eval_abc;
    cuda_device_info info;
} bench_opts;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void json_safe(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++)
        if (*r != '"' && *r != '\\' && (unsigned char)*r >= 0x20)
            *w++ = *r;
    *w = 0;
}

static uint64_t mix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void random_below_r(uint64_t k[4], uint64_t *state)
{
    for (int i = 0; i < 4; i++)
        k[i] = mix64(state);
    k[3] &= (UINT64_C(1) << 62) - 1; /* < 2^254 < r */
}

/* ---- errors ------------------------------------------------------------ */

/* Reports a failed call; returns 1. */
static int fail_status(const char *what, cuzk_status st, const char *detail)
{
    fprintf(stderr, "bench_cuda_prove: %s: %s (%s)\n", what, cuzk_status_str(st),
            detail && *detail ? detail : "no detail");
    return 1;
}

static int fail_cuda(const char *what, cudaError_t e)
{
    fprintf(stderr, "bench_cuda_prove: %s: %s\n", what, cudaGetErrorString(e));
    return 1;
}

#define TRY_MSM(what, call)                                                                        \
    do {                                                                                           \
        cuzk_status st_ = (call);                                                                  \
        if (st_ != CUZK_OK)                                                                        \
            return fail_status(what, st_, cuda_msm_last_error());                                  \
    } while (0)

#define TRY_NTT(what, call)                                                                        \
    do {                                                                                           \
        cuzk_status st_ = (call);                                                                  \
        if (st_ != CUZK_OK)                                                                        \
            return fail_status(what, st_, cuda_ntt_last_error());                                  \
    } while (0)

#define TRY_CUDA(what, call)                                                                       \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            return fail_cuda(what, e_);                                                            \
    } while (0)

static void print_skip(const bench_opts *o, unsigned log_n, const char *why)
{
    printf("{\"bench\":\"cuda_prove\",\"log_n\":%u,\"skipped\":true,\"why\":\"%s\","
           "\"device\":\"%s\",\"commit\":\"%s\"}\n",
           log_n, why, o->info.name, CUZK_GIT_COMMIT);
    fflush(stdout);
}

/* ---- the shape ----------------------------------------------------------- */

static size_t words_for(uint64_t bits)
{
    return (size_t)((bits + 63) / 64);
}

/* A bitmap of `bits` variables, each set with probability p (1: all). */
static uint64_t *make_bitmap(uint64_t bits, double p, uint64_t *state, uint64_t *count)
{
    uint64_t *w = calloc(words_for(bits) ? words_for(bits) : 1, sizeof(uint64_t));
    if (!w)
        return NULL;
    /* p as a threshold on 53 random bits. */
    const uint64_t threshold = (uint64_t)(p * (double)(UINT64_C(1) << 53));
    uint64_t set = 0;
    for (uint64_t i = 0; i < bits; i++)
        if (p >= 1.0 || (mix64(state) >> 11) < threshold) {
            w[i >> 6] |= UINT64_C(1) << (i & 63);
            set++;
        }
    *count = set;
    return w;
}

/* The counts of the built-in circuit at 2^log_n constraints and the
 * density bitmaps (host) they imply. */
static int make_shape(prove_shape *sh, prove_size *s, unsigned log_n, uint64_t seed)
{
    porep_like_params p;
    uint64_t constraints = 0, aux = 0;
    cuzk_status st = porep_like_params_for_constraints(&p, log_n, ARITY);
    if (st == CUZK_OK)
        st = porep_like_count(&p, &constraints, &aux);
    if (st != CUZK_OK)
        return fail_status("the built-in circuit's counts", st, NULL);
    memset(sh, 0, sizeof(*sh));
    sh->log_n = log_n;
    sh->n = UINT64_C(1) << log_n;
    sh->num_inputs = 1 + porep_like_num_inputs(&p);
    sh->num_aux = aux;
    sh->rows = constraints + sh->num_inputs;
    if (sh->rows > sh->n || sh->num_inputs + sh->num_aux > CUDA_MSM_MAX_N) {
        fprintf(stderr, "bench_cuda_prove: 2^%u: %llu rows, %llu variables do not fit\n", log_n,
                (unsigned long long)sh->rows, (unsigned long long)(sh->num_inputs + sh->num_aux));
        return 1;
    }
    uint64_t state = seed ^ ((uint64_t)log_n << 56), a_aux = 0, b_in = 0, b_aux = 0;
    s->bits_a_aux = make_bitmap(sh->num_aux, 1.0, &state, &a_aux);
    s->bits_b_in = make_bitmap(sh->num_inputs, 1.0, &state, &b_in);
    s->bits_b_aux = make_bitmap(sh->num_aux, B_AUX_DENSITY, &state, &b_aux);
    if (!s->bits_a_aux || !s->bits_b_in || !s->bits_b_aux) {
        fprintf(stderr, "bench_cuda_prove: out of host memory\n");
        return 1;
    }
    sh->query_points[Q_H] = sh->n - 1;
    sh->query_points[Q_L] = sh->num_aux;
    sh->query_points[Q_A_IN] = sh->num_inputs;
    sh->query_points[Q_A_AUX] = a_aux;
    sh->query_points[Q_B1_IN] = b_in;
    sh->query_points[Q_B1_AUX] = b_aux;
    sh->query_points[Q_B2_IN] = b_in;
    sh->query_points[Q_B2_AUX] = b_aux;
    sh->a_aux_count = a_aux;
    sh->b_input_count = b_in;
    sh->b_aux_count = b_aux;
    return 0;
}

/* The bellman plan of the shape: the counts and densities of its parts;
 * no host points (they are made on the device). */
static void make_plan(prove_size *s, const prove_shape *sh)
{
    memset(&s->domain, 0, sizeof(s->domain));
    s->domain.log_n = sh->log_n;
    s->domain.n = (size_t)sh->n;
    groth16_bellman_query q = {.num_inputs = sh->num_inputs,
                               .num_aux = sh->num_aux,
                               .a_aux_density = s->bits_a_aux,
                               .b_input_density = s->bits_b_in,
                               .b_aux_density = s->bits_b_aux,
                               .a_aux_count = sh->a_aux_count,
                               .b_input_count = sh->b_input_count,
                               .b_aux_count = sh->b_aux_count};
    groth16_plan_bellman(&s->plan, &q, &s->domain);
}

static bool query_is_g2(int q)
{
    return q == Q_B2_IN || q == Q_B2_AUX;
}

static uint64_t points_bytes(const prove_shape *sh)
{
    uint64_t bytes = 0;
    for (int q = 0; q < Q_COUNT; q++)
        bytes += sh->query_points[q] *
                 (uint64_t)(query_is_g2(q) ? CUDA_MSM_G2_AFFINE_BYTES : CUDA_MSM_G1_AFFINE_BYTES);
    return bytes;
}

static uint64_t witness_random_count(const prove_shape *sh)
{
    const uint64_t nvars = sh->num_inputs + sh->num_aux;
    return (nvars + WITNESS_RANDOM_STRIDE - 1) / WITNESS_RANDOM_STRIDE;
}

/* Device bytes of the buffers (points and vectors) beyond the contexts;
 * the host layout's point sizes, a bound on the device's. */
static uint64_t buffer_bytes(const prove_shape *sh)
{
    const uint64_t nvars = sh->num_inputs + sh->num_aux;
    return points_bytes(sh) +
           (3 * sh->n + nvars + witness_random_count(sh)) * (uint64_t)CUDA_MSM_FR_BYTES;
}

/* ---- device state ---------------------------------------------------------- */

static void size_free(prove_size *s)
{
    cuda_plan_parts_free(&s->parts);
    cuda_r1cs_check_free(s->check);
    cuda_r1cs_free(s->r1cs);
    for (int i = 0; i < 3; i++)
        if (s->d_abc[i])
            cuda_ntt_free(s->ntt, s->d_abc[i]);
    if (s->d_w)
        cuda_ntt_free(s->ntt, s->d_w);
    if (s->d_w_random)
        cuda_ntt_free(s->ntt, s->d_w_random);
    if (s->stream)
        (void)cudaStreamDestroy(s->stream);
    cuda_msm_ctx_destroy(s->msm);
    cuda_ntt_ctx_destroy(s->ntt);
    free(s->bits_a_aux);
    free(s->bits_b_in);
    free(s->bits_b_aux);
    memset(s, 0, sizeof(*s));
}

/* The contexts, as the backend makes them (an NTT context without transform
 * scratch: the quotient needs none). */
static int make_contexts(prove_size *s, const prove_shape *sh)
{
    const uint64_t nvars = sh->num_inputs + sh->num_aux;
    TRY_NTT("NTT context",
            cuda_ntt_ctx_create(&s->ntt, DEVICE, sh->log_n, 0, CUDA_NTT_ROOTS_BELLMAN, NULL));
    TRY_NTT("NTT domain", cuda_ntt_ctx_prepare(s->ntt, sh->log_n));
    cuda_msm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.device = DEVICE;
    cfg.max_n[CUDA_MSM_G1] = (size_t)(sh->n > nvars ? sh->n : nvars);
    cfg.max_n[CUDA_MSM_G2] = (size_t)nvars;
    TRY_MSM("MSM context", cuda_msm_ctx_create(&s->msm, &cfg));
    return 0;
}

/* The vectors, the densities, the points and the witness. */
static int make_inputs(prove_size *s, const prove_shape *sh, uint64_t seed)
{
    const uint64_t nvars = sh->num_inputs + sh->num_aux;
    const uint64_t n_random = witness_random_count(sh);
    TRY_CUDA("stream", cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
    for (int i = 0; i < 3; i++)
        TRY_NTT("a, b, c buffers", cuda_ntt_alloc(s->ntt, &s->d_abc[i], (size_t)sh->n));
    TRY_NTT("witness buffer", cuda_ntt_alloc(s->ntt, &s->d_w, (size_t)nvars));
    TRY_NTT("witness buffer", cuda_ntt_alloc(s->ntt, &s->d_w_random, (size_t)n_random));

    /* Every part of the plan: its density from the host bitmap, its points
     * made on the device. */
    uint64_t state = seed ^ ((uint64_t)sh->log_n << 48) ^ UINT64_C(0x706f696e7473);
    for (unsigned i = 0; i < s->plan.num_msms; i++) {
        const groth16_msm *m = &s->plan.msm[i];
        const bool g2 = m->term == GROTH16_TERM_B_G2;
        for (unsigned k = 0; k < m->num_parts; k++) {
            const groth16_msm_part *p = &m->part[k];
            if (p->density)
                TRY_MSM("density", cuda_msm_density_upload(s->msm, p->density, (size_t)p->count,
                                                           &s->parts.dens[i][k]));
            uint64_t a[4], d[4];
            random_below_r(a, &state);
            random_below_r(d, &state);
            TRY_MSM("generating points",
                    cuda_msm_points_generate(s->msm, g2 ? CUDA_MSM_G2 : CUDA_MSM_G1,
                                             g2 ? (const void *)&G2_GENERATOR
                                                : (const void *)&G1_GENERATOR,
                                             a, d, (size_t)p->num_points, &s->parts.pts[i][k]));
        }
    }

    /* 0/1 everywhere, then the random values spread over every
     * WITNESS_RANDOM_STRIDE-th slot by one strided copy. */
    const uint64_t wseed = seed + sh->log_n * UINT64_C(0x100);
    TRY_MSM("witness", cuda_msm_scalars_fill(s->msm, s->d_w, (size_t)nvars, wseed,
                                             CUDA_MSM_SCALARS_ZERO_ONE, s->stream));
    TRY_MSM("witness", cuda_msm_scalars_fill(s->msm, s->d_w_random, (size_t)n_random, wseed + 1,
                                             CUDA_MSM_SCALARS_RANDOM, s->stream));
    TRY_CUDA("witness spread",
             cudaMemcpy2DAsync(s->d_w, (size_t)WITNESS_RANDOM_STRIDE * CUDA_MSM_FR_BYTES,
                               s->d_w_random, CUDA_MSM_FR_BYTES, CUDA_MSM_FR_BYTES,
                               (size_t)n_random, cudaMemcpyDeviceToDevice, s->stream));
    TRY_CUDA("witness", cudaStreamSynchronize(s->stream));
    TRY_MSM("inputs", cuda_msm_wait(s->msm));
    return 0;
}

/* ---- checks ------------------------------------------------------------ */

/* A part may be infinity (e.g. all its scalars 0); otherwise on the curve
 * and in the subgroup. */
static bool g1_part_ok(const g1_jac_t *p)
{
    if (g1_jac_is_infinity(p))
        return true;
    g1_affine_t a;
    g1_jac_to_affine(&a, p);
    return g1_affine_is_on_curve(&a) && g1_affine_in_subgroup(&a);
}

static bool g2_part_ok(const g2_jac_t *p)
{
    if (g2_jac_is_infinity(p))
        return true;
    g2_affine_t a;
    g2_jac_to_affine(&a, p);
    return g2_affine_is_on_curve(&a) && g2_affine_in_subgroup(&a);
}

static bool g1_sum_ok(const g1_jac_t *p)
{
    return !g1_jac_is_infinity(p) && g1_part_ok(p);
}

static bool g2_sum_ok(const g2_jac_t *p)
{
    return !g2_jac_is_infinity(p) && g2_part_ok(p);
}

/* ---- one proof's device work --------------------------------------------- */

/* Each phase's interval and the checks of its MSM results, from the
 * executor's step calls (which come after the phases, with their times). */
typedef struct run_clock {
    uint64_t start[PH_COUNT], end[PH_COUNT];
    bool ok[PH_COUNT];
} run_clock;

static int phase_index(proof_phase phase)
{
    for (int p = 0; p < PH_TOTAL; p++)
        if (plan_phases[p] == phase)
            return p;
    return -1;
}

static void on_step(void *ctx, proof_phase phase, const groth16_msm *m, const g1_jac_t *g1,
                    const g2_jac_t *g2, uint64_t start_ns, uint64_t end_ns)
{
    run_clock *rc = ctx;
    int p = phase_index(phase);
    if (p < 0)
        return;
    rc->start[p] = start_ns;
    rc->end[p] = end_ns;
    if (!m)
        return;
    /* each part may be infinity (e.g. all its scalars 0), the sum not */
    bool ok = true;
    if (m->term == GROTH16_TERM_B_G2) {
        g2_jac_t sum;
        g2_jac_set_infinity(&sum);
        for (unsigned k = 0; k < m->num_parts; k++) {
            ok = ok && g2_part_ok(&g2[k]);
            g2_jac_add(&sum, &sum, &g2[k]);
        }
        ok = ok && g2_sum_ok(&sum);
    } else {
        g1_jac_t sum;
        g1_jac_set_infinity(&sum);
        for (unsigned k = 0; k < m->num_parts; k++) {
            ok = ok && g1_part_ok(&g1[k]);
            g1_jac_add(&sum, &sum, &g1[k]);
        }
        ok = ok && g1_sum_ok(&sum);
    }
    rc->ok[p] = ok;
}

/* ms[phase] of one run; ok[phase] whether its results passed the checks. */
static int prove_once(prove_size *s, const prove_shape *sh, uint64_t seed, double ms[PH_COUNT],
                      bool ok[PH_COUNT])
{
    const size_t n = (size_t)sh->n;
    /* a, b, c afresh (h overwrote them), unless evaluated below. Not timed. */
    for (int i = 0; i < 3 && !s->r1cs; i++)
        TRY_MSM("a, b, c", cuda_msm_scalars_fill(s->msm, s->d_abc[i], n, seed + 16 + (uint64_t)i,
                                                 CUDA_MSM_SCALARS_RANDOM, s->stream));
    TRY_CUDA("a, b, c", cudaStreamSynchronize(s->stream));

    run_clock rc;
    memset(&rc, 0, sizeof(rc));
    char msg[256] = "";
    groth16_sums sums;
    const uint64_t start = backend_clock_ns();
    rc.start[PH_EVAL_ABC] = start;
    if (s->r1cs) {
        uint64_t bad;
        cuzk_status est = cuda_r1cs_eval(s->r1cs, s->check, s->d_w, s->d_abc, s->stream, &bad);
        if (est != CUZK_OK)
            return fail_status("evaluating a, b, c", est, cuda_r1cs_last_error());
    }
    rc.end[PH_EVAL_ABC] = backend_clock_ns();
    cuzk_status st =
        cuda_plan_run(&s->plan, sh->log_n, s->ntt, s->msm, &s->parts, s->d_abc, NULL, NULL, s->d_w,
                      sh->rows, &sums, on_step, &rc, NULL, NULL, msg, sizeof(msg));
    if (st != CUZK_OK)
        return fail_status("the proof plan", st, msg);
    const uint64_t end = backend_clock_ns();

    for (int p = 0; p < PH_TOTAL; p++)
        ms[p] = (double)(rc.end[p] - rc.start[p]) / 1e6;
    ms[PH_TOTAL] = (double)(end - start) / 1e6;
    ok[PH_EVAL_ABC] = false; /* no check of its values here */
    bool all = true;
    for (int p = PH_MSM_H; p <= PH_MSM_B_G2; p++) {
        ok[p] = rc.ok[p];
        all = all && ok[p];
    }
    ok[PH_H] = ok[PH_TOTAL] = all;
    return 0;
}

/* ---- one size ------------------------------------------------------------- */

/* Whether the last failed MSM or NTT call ran out of device memory. */
static bool out_of_memory(void)
{
    return strstr(cuda_msm_last_error(), "out of memory") != NULL ||
           strstr(cuda_ntt_last_error(), "out of memory") != NULL;
}

static uint64_t bytes_between(uint64_t more, uint64_t less)
{
    return more > less ? more - less : 0;
}

static int free_memory(uint64_t *bytes)
{
    size_t free_bytes = 0;
    if (cuda_device_free_memory(DEVICE, &free_bytes) != 0) {
        fprintf(stderr, "bench_cuda_prove: cannot read the device's free memory\n");
        return 1;
    }
    *bytes = free_bytes;
    return 0;
}

/* --eval-abc: the built-in circuit's constraint system at this size,
 * compiled on the host, made resident on the device and freed on the
 * host; one "eval_abc_setup" line. Out of device memory, the size runs
 * without it (one "skipped" line says so). */
static int make_r1cs(const bench_opts *o, prove_size *s, const prove_shape *sh)
{
    porep_like_params p;
    r1cs_t r;
    cuzk_status st = porep_like_params_for_constraints(&p, sh->log_n, ARITY);
    const uint64_t t0 = bench_now_ns();
    if (st == CUZK_OK)
        st = builtin_compile(&r, &p, 0);
    if (st != CUZK_OK)
        return fail_status("compiling the built-in circuit", st, NULL);
    const uint64_t t1 = bench_now_ns();
    if (r.num_constraints != sh->rows || r1cs_num_vars(&r) != sh->num_inputs + sh->num_aux) {
        fprintf(stderr,
                "bench_cuda_prove: 2^%u: the compiled circuit's counts differ from "
                "porep_like_count's\n",
                sh->log_n);
        r1cs_free(&r);
        return 1;
    }
    cuda_r1cs_src src = {.rows = r.num_constraints,
                         .num_vars = r1cs_num_vars(&r),
                         .coeffs = (const struct fr *)r.coeffs,
                         .num_coeffs = r.num_coeffs,
                         .coeff_width = r.coeff_width};
    const r1cs_matrix *ms[3] = {&r.a, &r.b, &r.c};
    for (int k = 0; k < 3; k++)
        src.m[k] = (cuda_r1cs_matrix_src){
            .row_ptr = ms[k]->row_ptr, .col = ms[k]->col, .coeff = ms[k]->coeff, .nnz = ms[k]->nnz};
    const uint64_t nnz = r.a.nnz + r.b.nnz + r.c.nnz;
    st = cuda_r1cs_upload(&s->r1cs, DEVICE, &src);
    if (st == CUZK_OK)
        st = cuda_r1cs_check_create(&s->check, DEVICE);
    const uint64_t t2 = bench_now_ns();
    r1cs_free(&r);
    if (st != CUZK_OK) {
        const char *err = cuda_r1cs_last_error();
        if (!strstr(err, "out of memory"))
            return fail_status("uploading the constraint system", st, err);
        cuda_r1cs_check_free(s->check);
        cuda_r1cs_free(s->r1cs);
        s->check = NULL;
        s->r1cs = NULL;
        print_skip(o, sh->log_n, "eval_abc: the matrices do not fit beside the points");
        return 0;
    }
    printf("{\"bench\":\"cuda_prove\",\"log_n\":%u,\"phase\":\"eval_abc_setup\","
           "\"compile_ms\":%.0f,\"upload_ms\":%.0f,\"nnz\":%llu,\"matrix_device_bytes\":%llu,"
           "\"eval_bytes\":%llu,\"device\":\"%s\",\"commit\":\"%s\"}\n",
           sh->log_n, (double)(t1 - t0) / 1e6, (double)(t2 - t1) / 1e6, (unsigned long long)nnz,
           (unsigned long long)cuda_r1cs_device_bytes(s->r1cs),
           (unsigned long long)cuda_r1cs_eval_bytes(s->r1cs), o->info.name, CUZK_GIT_COMMIT);
    fflush(stdout);
    return 0;
}

/* Measures one size; 0 also when it was skipped for memory. */
static int run_size(const bench_opts *o, unsigned log_n)
{
    prove_shape sh;
    prove_size s;
    memset(&s, 0, sizeof(s));
    char why[256];
    int rc = make_shape(&sh, &s, log_n, o->seed);
    if (rc == 0)
        make_plan(&s, &sh);
    uint64_t free_before = 0, free_contexts = 0, free_after = 0;
    if (rc == 0)
        rc = free_memory(&free_before);
    if (rc != 0) {
        size_free(&s);
        return rc;
    }

    /* The contexts first: their scratch is known only once made; then
     * whether the points and vectors fit what is left. */
    const uint64_t setup_start = bench_now_ns();
    rc = make_contexts(&s, &sh);
    if (rc != 0) {
        if (out_of_memory()) {
            snprintf(why, sizeof(why), "the contexts do not fit: %.1f GiB free",
                     (double)free_before / GIB);
            print_skip(o, log_n, why);
            rc = 0;
        }
        size_free(&s);
        return rc;
    }
    rc = free_memory(&free_contexts);
    const uint64_t need = buffer_bytes(&sh) + HEADROOM_BYTES;
    if (rc == 0 && need > free_contexts) {
        snprintf(why, sizeof(why),
                 "needs %.1f GiB for points and vectors beyond %.1f GiB of contexts, "
                 "%.1f GiB free",
                 (double)need / GIB, (double)bytes_between(free_before, free_contexts) / GIB,
                 (double)free_contexts / GIB);
        print_skip(o, log_n, why);
        size_free(&s);
        return 0;
    }
    if (rc == 0) {
        rc = make_inputs(&s, &sh, o->seed);
        /* The estimate bounds the points by their host layout; should it
         * still fall short, the size is skipped, not failed. */
        if (rc != 0 && out_of_memory()) {
            snprintf(why, sizeof(why),
                     "out of device memory making the inputs (estimated %.1f GiB, %.1f GiB free)",
                     (double)need / GIB, (double)free_contexts / GIB);
            print_skip(o, log_n, why);
            size_free(&s);
            return 0;
        }
    }
    if (rc == 0)
        rc = free_memory(&free_after);
    if (rc != 0) {
        size_free(&s);
        return rc;
    }
    const double setup_ms = (double)(bench_now_ns() - setup_start) / 1e6;
    if (o->eval_abc && (rc = make_r1cs(o, &s, &sh)) != 0) {
        size_free(&s);
        return rc;
    }
    const uint64_t nvars = sh.num_inputs + sh.num_aux;
    printf(
        "{\"bench\":\"cuda_prove\",\"log_n\":%u,\"phase\":\"sizes\",\"n\":%llu,\"rows\":%llu,"
        "\"num_inputs\":%llu,\"num_aux\":%llu,\"h_points\":%llu,\"l_points\":%llu,"
        "\"a_aux_points\":%llu,\"b_input_points\":%llu,\"b_aux_points\":%llu,"
        "\"witness_01_fraction\":%.4f,\"points_host_layout_bytes\":%llu,"
        "\"msm_ctx_bytes\":%llu,\"device_used_bytes\":%llu,\"device_free_bytes\":%llu,"
        "\"device_total_bytes\":%llu,\"setup_ms\":%.0f,\"device\":\"%s\",\"commit\":\"%s\"}\n",
        log_n, (unsigned long long)sh.n, (unsigned long long)sh.rows,
        (unsigned long long)sh.num_inputs, (unsigned long long)sh.num_aux,
        (unsigned long long)sh.query_points[Q_H], (unsigned long long)sh.query_points[Q_L],
        (unsigned long long)sh.query_points[Q_A_AUX], (unsigned long long)sh.query_points[Q_B1_IN],
        (unsigned long long)sh.query_points[Q_B1_AUX],
        1.0 - (double)witness_random_count(&sh) / (double)nvars,
        (unsigned long long)points_bytes(&sh), (unsigned long long)cuda_msm_ctx_device_bytes(s.msm),
        (unsigned long long)bytes_between(free_before, free_after), (unsigned long long)free_after,
        (unsigned long long)o->info.total_memory, setup_ms, o->info.name, CUZK_GIT_COMMIT);
    fflush(stdout);

    double ms[PH_COUNT][MAX_RUNS];
    bool on_curve[PH_COUNT];
    for (int p = 0; p < PH_COUNT; p++)
        on_curve[p] = true;
    const uint64_t abc_seed = o->seed + ((uint64_t)log_n << 32);
    for (int r = -1; r < o->runs && rc == 0; r++) { /* r = −1: the warm-up */
        double run_ms[PH_COUNT];
        bool ok[PH_COUNT];
        rc = prove_once(&s, &sh, abc_seed, run_ms, ok);
        if (rc != 0)
            break;
        for (int p = 0; p < PH_COUNT; p++) {
            on_curve[p] = on_curve[p] && ok[p];
            if (r >= 0)
                ms[p][r] = run_ms[p];
        }
    }
    const bool evaluated = s.r1cs != NULL;
    size_free(&s);
    if (rc != 0)
        return rc;

    bool all = true;
    for (int p = 0; p < PH_COUNT; p++) {
        if (p == PH_EVAL_ABC && !evaluated)
            continue;
        qsort(ms[p], (size_t)o->runs, sizeof(double), cmp_double);
        printf("{\"bench\":\"cuda_prove\",\"log_n\":%u,\"phase\":\"%s\",\"median_ms\":%.3f,"
               "\"min_ms\":%.3f,\"max_ms\":%.3f,\"runs\":%d,\"outputs_on_curve_in_subgroup\":%s,"
               "\"device\":\"%s\","
               "\"commit\":\"%s\"}\n",
               log_n, phase_label(p), ms[p][o->runs / 2], ms[p][0], ms[p][o->runs - 1], o->runs,
               on_curve[p] ? "true" : "false", o->info.name, CUZK_GIT_COMMIT);
        all = all && (on_curve[p] || p == PH_EVAL_ABC);
    }
    fflush(stdout);
    if (!all)
        fprintf(stderr, "bench_cuda_prove: 2^%u: an MSM result is infinity or off the curve\n",
                log_n);
    return all ? 0 : 1;
}

/* ---- arguments ----------------------------------------------------------- */

/* "24,26,27" into o->logs; 0 on success. */
static int parse_logs(bench_opts *o, const char *list)
{
    o->n_logs = 0;
    const char *p = list;
    while (*p) {
        char *end = NULL;
        const long v = strtol(p, &end, 10);
        if (end == p || v < MIN_LOG || v > MAX_LOG || o->n_logs == MAX_SIZES ||
            (*end != ',' && *end != 0))
            return 1;
        o->logs[o->n_logs++] = (unsigned)v;
        p = *end == ',' ? end + 1 : end;
    }
    return o->n_logs ? 0 : 1;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: bench_cuda_prove [--logs 24,26,27] [--runs R] [--seed S] [--eval-abc]\n"
            "  log n in %d..%d (at most %d sizes), 1 <= R <= %d\n",
            MIN_LOG, MAX_LOG, MAX_SIZES, MAX_RUNS);
    return 2;
}

int main(int argc, char **argv)
{
    bench_opts o;
    memset(&o, 0, sizeof(o));
    o.runs = 3;
    o.seed = 0x70726f7665;
    (void)parse_logs(&o, "24,26,27");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--logs") == 0 && i + 1 < argc) {
            if (parse_logs(&o, argv[++i]) != 0)
                return usage();
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            o.runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            o.seed = strtoull(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--eval-abc") == 0) {
            o.eval_abc = true;
        } else {
            return usage();
        }
    }
    if (o.runs < 1 || o.runs > MAX_RUNS)
        return usage();
    const char *why = "unknown reason";
    if (cuda_device_count(&why) == 0) {
        printf("bench_cuda_prove: no CUDA device (%s); nothing measured\n", why);
        return 0;
    }
    if (cuda_device_query(DEVICE, &o.info) != 0) {
        fprintf(stderr, "bench_cuda_prove: cannot query device %d\n", DEVICE);
        return 1;
    }
    json_safe(o.info.name);
    int status = 0;
    for (size_t i = 0; i < o.n_logs; i++)
        status |= run_size(&o, o.logs[i]);
    return status;
}

#else

int main(void)
{
    printf("bench_cuda_prove: built without CUDA; nothing measured\n");
    return 0;
}

#endif
