/* The CUDA backend: the Groth16 prover's device phases (the quotient h and
 * the five MSMs) on every GPU the machine has, behind backend.h's vtable.
 *
 * Per circuit and device (prepare): the points of every part of the
 * circuit's proof plan (groth16/plan.h) are uploaded once and stay
 * resident, with their density bitmaps, beside an NTT context for the
 * domain, an MSM context sized for the largest query, the constraint
 * system's matrices when the engine gives them (cuda/r1cs_eval.h), and up
 * to CUDA_STAGES stages: device vectors for a, b, c and the witness with a
 * copy stream of their own. Nothing is allocated per partition.
 *
 * prove: a partition takes a free stage and copies w (and a, b, c when
 * the input brings them) up on the stage's stream, outside the device's
 * lock, so with two stages one partition's copies overlap another's
 * kernels (the engine runs two prover workers per device). Then, under
 * the lock, a, b, c are evaluated from w into the stage when the input
 * has none (with the exact check a·b = c on the device), h is computed in
 * place and feeds the H MSM, and the witness MSMs read w, all from device
 * memory. Under a device budget the points that do not fit stream from
 * host memory in chunks (cuda/msm_stream.h), a single stage can hand its b
 * vector to the next partition's witness once h is done
 * (cuda_dev_circuit.rotate; CUZK_CUDA_STAGE_ROTATE=off turns it off), and
 * the witness MSMs run on a second MSM context, at the highest stream
 * priority, beside h and the H MSM (CUZK_CUDA_WITNESS_OVERLAP, below). The
 * blinding factors never reach the device: the engine assembles A, B, C. */
#define _POSIX_C_SOURCE 200809L
#include "backend/backend.h"

#ifdef CUZK_HAVE_CUDA

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/device.h"
#include "cuda/fixed_base.h"
#include "cuda/msm.h"
#include "cuda/ntt.h"
#include "cuda/r1cs_eval.h"
#include "backend/cuda_plan.h"
#include "groth16/prover.h"
#include "r1cs/r1cs.h"

/* Stages per circuit and device: two let one partition's copies run
 * beside another's kernels; the second is made only when it leaves
 * CUDA_STAGE_HEADROOM bytes of device memory free. */
#define CUDA_STAGES 2
#define CUDA_STAGE_HEADROOM ((size_t)2 << 30)

typedef struct cuda_backend {
    backend_t base;
    unsigned devices;
    unsigned threads;       /* host threads for the row check */
    pthread_mutex_t *locks; /* per device: its kernel work */
    /* per device: the stages' busy flags of every circuit on it */
    pthread_mutex_t *stage_mu;
    pthread_cond_t *stage_cv;
} cuda_backend;

/* One partition's inputs on the device, and the stream that copies them. */
typedef struct cuda_stage {
    void *d_abc[3];         /* [2] NULL in the lean form (two vectors) */
    void *d_w;              /* the witness, uploaded once per partition for every MSM */
    void *stream;           /* non-blocking (cuda/device.h) */
    cuda_r1cs_check *check; /* the evaluation's result, when the circuit has matrices */
    bool busy;              /* under the backend's stage_mu of the device */
} cuda_stage;

/* One circuit's resident state on one device. */
typedef struct cuda_dev_circuit {
    int device;
    cuda_ntt_ctx *ntt;
    cuda_msm_ctx *msm;
    /* Under a device budget, the witness MSMs' own context: they run
     * beside h and the H MSM (cuda_plan_run), their copies of streamed
     * points hidden behind that arithmetic. NULL otherwise. */
    cuda_msm_ctx *side;
    cuda_stage stage[CUDA_STAGES];
    unsigned nstages;
    cuda_plan_parts parts; /* the plan's points and densities */
    cuda_r1cs *r1cs;       /* A, B, C for evaluating a, b, c; NULL: inputs bring them */
    /* Under a device budget: stages of two vectors, c written into the
     * second once b is transformed (cuda/ntt.h's lean quotient), evaluated
     * there from the matrices or copied from the input's: 4.3 GB less a
     * stage at 2^27. */
    bool lean;
    /* Under a device budget: what the points' room was left after (the
     * stage, matrices, scratch, chunk buffers), for cuda_describe. */
    char fixed_text[200];
    /* One lean stage whose a, b are evaluated on the device (unless
     * CUZK_CUDA_STAGE_ROTATE=off): once h is done the
     * stage's b vector is free until the partition ends, so it is offered
     * (spare) to the next partition's witness, whose copy then runs behind
     * the MSMs instead of after them; that partition takes the stage with
     * its vectors rotated (b's old vector holds its w, the old w vector
     * becomes its b). The three vectors are each max(n, num_vars) long.
     * spare and spare_taken are under the backend's stage_mu of the device;
     * while spare_taken, only the partition that took it takes the stage. */
    bool rotate;
    void *spare;
    bool spare_taken;
    void *spare_stream;           /* the taker's copies */
    unsigned long long rotations; /* spares taken, under stage_mu (cuda_describe) */
} cuda_dev_circuit;

typedef struct cuda_circuit {
    const groth16_plan *plan; /* borrowed from the engine */
    const r1cs_t *cs;         /* likewise; NULL: inputs bring a, b, c */
    uint64_t rows;            /* rows evaluated from cs */
    bool c_is_ab;
    bool check_subgroup;    /* the points' subgroup test, on the first device */
    uint64_t device_budget; /* 0: none */
    unsigned log_n;
    uint64_t num_vars;
    cuda_dev_circuit *dev; /* one per device */
    unsigned ndev;
} cuda_circuit;

static cuzk_status dev_error(char *msg, size_t msg_len, const char *what, const char *detail)
{
    backend_msg(msg, msg_len, "%s: %s", what, detail && *detail ? detail : "CUDA error");
    return CUZK_ERR_DEVICE;
}

static void dev_circuit_free(cuda_dev_circuit *d)
{
    cuda_plan_parts_free(&d->parts);
    cuda_r1cs_free(d->r1cs);
    for (unsigned s = 0; s < CUDA_STAGES; s++) {
        cuda_stage *sg = &d->stage[s];
        for (int i = 0; i < 3; i++)
            if (sg->d_abc[i])
                cuda_ntt_free(d->ntt, sg->d_abc[i]);
        if (sg->d_w)
            cuda_ntt_free(d->ntt, sg->d_w);
        cuda_r1cs_check_free(sg->check);
        cuda_stream_destroy(sg->stream);
    }
    cuda_stream_destroy(d->spare_stream);
    cuda_msm_ctx_destroy(d->side);
    cuda_msm_ctx_destroy(d->msm);
    cuda_ntt_ctx_destroy(d->ntt);
    memset(d, 0, sizeof(*d));
}

static void cuda_circuit_free(cuda_circuit *cc)
{
    if (!cc)
        return;
    for (unsigned i = 0; i < cc->ndev; i++)
        dev_circuit_free(&cc->dev[i]);
    free(cc->dev);
    free(cc);
}

/* The vectors of 2^log_n a stage holds. */
static unsigned stage_vectors(const cuda_dev_circuit *d)
{
    return d->lean ? 2 : 3;
}

/* Device bytes of one stage. */
static uint64_t stage_bytes(const cuda_dev_circuit *d, size_t n, uint64_t nvars)
{
    if (d->rotate) {
        const uint64_t len = n > nvars ? n : nvars;
        return (stage_vectors(d) + 1) * len * sizeof(fr_t);
    }
    return (stage_vectors(d) * (uint64_t)n + nvars) * sizeof(fr_t);
}

/* One more stage: a, b, c (n each; a and b when lean), the witness
 * (nvars), a stream, and the evaluation's result when the circuit has
 * matrices. */
static cuzk_status add_stage(cuda_dev_circuit *d, size_t n, uint64_t nvars, uint64_t *bytes,
                             char *msg, size_t msg_len)
{
    cuda_stage *sg = &d->stage[d->nstages];
    /* rotated vectors trade places: each as long as the longer */
    const size_t len = d->rotate && nvars > n ? (size_t)nvars : n;
    const size_t wlen = d->rotate && n > nvars ? n : (size_t)nvars;
    for (unsigned i = 0; i < stage_vectors(d); i++)
        if (cuda_ntt_alloc(d->ntt, &sg->d_abc[i], len) != CUZK_OK)
            return dev_error(msg, msg_len, "a, b, c buffers", cuda_ntt_last_error());
    if (cuda_ntt_alloc(d->ntt, &sg->d_w, wlen) != CUZK_OK)
        return dev_error(msg, msg_len, "witness buffer", cuda_ntt_last_error());
    if (cuda_stream_create(d->device, &sg->stream) != 0)
        return dev_error(msg, msg_len, "copy stream", "cannot create a CUDA stream");
    if (d->r1cs && cuda_r1cs_check_create(&sg->check, d->device) != CUZK_OK)
        return dev_error(msg, msg_len, "constraint check", cuda_r1cs_last_error());
    d->nstages++;
    *bytes += stage_bytes(d, n, nvars);
    return CUZK_OK;
}

/* The constraint system's matrices, resident for evaluating a, b, c. */
static cuzk_status upload_r1cs(const cuda_circuit *cc, cuda_dev_circuit *d, uint64_t *bytes,
                               char *msg, size_t msg_len)
{
    const r1cs_t *cs = cc->cs;
    cuda_r1cs_src src = {.rows = cc->rows,
                         .num_vars = r1cs_num_vars(cs),
                         .coeffs = (const struct fr *)cs->coeffs,
                         .num_coeffs = cs->num_coeffs,
                         .coeff_width = cs->coeff_width,
                         .c_is_ab = cc->c_is_ab,
                         .curve = cc->plan->curve == CURVE_BN254 ? CUDA_R1CS_BN254
                                                                 : CUDA_R1CS_BLS12_381};
    const r1cs_matrix *ms[3] = {&cs->a, &cs->b, &cs->c};
    for (int k = 0; k < 3; k++)
        src.m[k] = (cuda_r1cs_matrix_src){
            .row_ptr = ms[k]->row_ptr, .col = ms[k]->col, .coeff = ms[k]->coeff, .nnz = ms[k]->nnz};
    cuzk_status st = cuda_r1cs_upload(&d->r1cs, d->device, &src);
    if (st == CUZK_ERR_INVALID_ARGUMENT) {
        backend_msg(msg, msg_len,
                    "the constraint system cannot be evaluated on the device (%llu rows: at most "
                    "2^32 - 1)",
                    (unsigned long long)cc->rows);
        return st;
    }
    if (st != CUZK_OK)
        return dev_error(msg, msg_len, "uploading the constraint system", cuda_r1cs_last_error());
    *bytes += cuda_r1cs_device_bytes(d->r1cs);
    return CUZK_OK;
}

/* Device bytes of all the plan's points, as if resident. */
static uint64_t plan_points_bytes(const groth16_plan *plan)
{
    uint64_t b = 0;
    for (unsigned i = 0; i < plan->num_msms; i++)
        for (unsigned k = 0; k < plan->msm[i].num_parts; k++)
            b += plan->msm[i].part[k].num_points * (plan->msm[i].term == GROTH16_TERM_B_G2
                                                        ? CUDA_MSM_G2_AFFINE_BYTES
                                                        : CUDA_MSM_G1_AFFINE_BYTES);
    return b;
}

/* Streamed chunks: at most 2^22 G1 points, their buffers at most an
 * eighth of the budget. */
#define STREAM_CHUNK_MAX ((size_t)1 << 22)
#define STREAM_CHUNK_MIN ((size_t)1 << 10)

/* The chunk of a budget: its buffers at most an eighth of it. */
static size_t budget_chunk(uint64_t budget)
{
    size_t chunk = STREAM_CHUNK_MAX;
    while (chunk > STREAM_CHUNK_MIN && cuda_msm_streamer_bytes_for(chunk) > budget / 8)
        chunk /= 2;
    return chunk;
}

/* Where the witness MSMs run under a device budget
 * (CUZK_CUDA_WITNESS_OVERLAP, for measuring): "all" (the default) on a
 * second MSM context beside h and the H MSM; "h" beside h only, the H MSM
 * after them; "off" after the H MSM on its context. Their chunks mostly
 * wait on the link, so beside the H MSM they cost little, once their
 * context's stream has the highest priority: before that, each of their
 * small kernels waited behind the H MSM's accumulation and beside it
 * they lost time (3.28 s a partition against 2.54). With the priority, at
 * 2^27 and 24 GiB: 1.89 s a partition against 2.25 after the H MSM
 * (docs/PERF.md). */
typedef enum { OVERLAP_OFF, OVERLAP_H, OVERLAP_ALL } witness_overlap;

static witness_overlap overlap_mode(void)
{
    const char *v = getenv("CUZK_CUDA_WITNESS_OVERLAP");
    if (v && strcmp(v, "h") == 0)
        return OVERLAP_H;
    if (v && strcmp(v, "off") == 0)
        return OVERLAP_OFF;
    return OVERLAP_ALL;
}

/* Blocks per SM the quotient's accumulation leaves free when the
 * witness MSMs run beside it (CUZK_CUDA_ACC_RESERVE, for measuring;
 * default 0: at 2^27 and 24 GiB, 1 of the 4 that fit gave 1.895 s a
 * partition and 2 gave 1.964, against 1.889 with none, the priority
 * alone). */
static unsigned acc_reserve_blocks(void)
{
    const char *v = getenv("CUZK_CUDA_ACC_RESERVE");
    if (v && *v >= '0' && *v <= '9' && !v[1])
        return (unsigned)(*v - '0');
    return 0;
}

/* The witness MSMs' chunk: half the quotient's. Their time is the copy,
 * which the chunk size does not change; the memory goes to resident
 * points. */
static size_t side_chunk(size_t chunk)
{
    return chunk / 2 >= STREAM_CHUNK_MIN ? chunk / 2 : STREAM_CHUNK_MIN;
}

/* Within cc's device budget, with the bytes already taken (a, b, c, w,
 * the MSM and NTT scratch, the constraint system; fixed, itemized in
 * parts for the message): how many bytes of points may stay resident. */
static cuzk_status place_points(const cuda_circuit *cc, uint64_t fixed, bool side,
                                const char *parts, cuda_plan_placement *placement, char *msg,
                                size_t msg_len)
{
    const uint64_t budget = cc->device_budget;
    const size_t chunk = budget_chunk(budget);
    const uint64_t buffers = cuda_msm_streamer_bytes_for(chunk) +
                             (side ? cuda_msm_streamer_bytes_for(side_chunk(chunk)) : 0);
    if (fixed + buffers > budget) {
        backend_msg(msg, msg_len,
                    "the device budget (%llu bytes) is below what one partition needs on the "
                    "device: %llu bytes (%s) and %llu for streaming the parameters",
                    (unsigned long long)budget, (unsigned long long)fixed, parts,
                    (unsigned long long)buffers);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    placement->resident_limit = budget - fixed - buffers;
    placement->chunk_points = chunk;
    placement->side_chunk_points = side_chunk(chunk);
    return CUZK_OK;
}

static cuzk_status prepare_device(cuda_circuit *cc, cuda_dev_circuit *d, int device,
                                  uint64_t *bytes, char *msg, size_t msg_len)
{
    const groth16_plan *plan = cc->plan;
    const uint64_t start = *bytes;
    d->device = device;
    size_t n = (size_t)1 << cc->log_n;
    /* No scratch vectors (max_batch 0): the quotient needs none, and three
     * of 2^27 would hold 12.9 GB for nothing. Under a device budget the
     * twiddles are compact: the full table is 4.3 GB at 2^27, its
     * replacement a few MiB and a multiplication an element in one pass. */
    const cuda_ntt_options ntt_opt = {.flags = cc->device_budget ? CUDA_NTT_TWIDDLES_COMPACT : 0u,
                                      .curve = plan->curve == CURVE_BN254 ? CUDA_NTT_BN254
                                                                          : CUDA_NTT_BLS12_381};
    cuzk_status st =
        cuda_ntt_ctx_create(&d->ntt, device, cc->log_n, 0,
                            plan->quotient == GROTH16_QUOTIENT_BELLMAN ? CUDA_NTT_ROOTS_BELLMAN
                                                                       : CUDA_NTT_ROOTS_SNARKJS,
                            &ntt_opt);
    if (st == CUZK_OK)
        st = cuda_ntt_ctx_prepare(d->ntt, cc->log_n);
    if (st != CUZK_OK)
        return dev_error(msg, msg_len, "NTT context", cuda_ntt_last_error());
    *bytes += cuda_ntt_ctx_device_bytes(d->ntt);
    if (cc->cs && (st = upload_r1cs(cc, d, bytes, msg, msg_len)) != CUZK_OK)
        return st;
    uint64_t nvars = cc->num_vars;
    cuda_msm_config cfg = {.device = device};
    const int bn254 = plan->curve == CURVE_BN254;
    cfg.max_n[cuda_msm_group_of(bn254, 0)] = n > nvars ? n : nvars;
    cfg.max_n[cuda_msm_group_of(bn254, 1)] = nvars;
    if ((st = cuda_msm_ctx_create(&d->msm, &cfg)) != CUZK_OK)
        return dev_error(msg, msg_len, "MSM context", cuda_msm_last_error());
    /* Over the budget with every point resident: every MSM in chunks, the
     * context's scratch for one chunk, and two vectors a stage where the
     * device evaluates a, b, c. */
    const bool budgeted = cc->device_budget && *bytes - start + stage_bytes(d, n, nvars) +
                                                       cuda_msm_ctx_device_bytes(d->msm) +
                                                       plan_points_bytes(plan) >
                                                   cc->device_budget;
    if (budgeted) {
        cuda_msm_ctx_destroy(d->msm);
        d->msm = NULL;
        const size_t chunk = budget_chunk(cc->device_budget);
        cfg.max_n[CUDA_MSM_G1] = cfg.max_n[CUDA_MSM_G2] = chunk;
        /* The quotient's MSM adds its chunks into one set of buckets
         * (cuda/msm_stream.h): windows as large as its size wants, while
         * their buckets take at most a sixteenth of the budget (c = 20 at
         * 24 GiB: 1.3 GB; the size's own c = 22 would take 4.8 GB). A
         * chunk's entries sort in at most two batches (the default would
         * hold 1 GB of them). */
        unsigned c = CUDA_MSM_MIN_WINDOW_BITS;
        while (c < 22 && cuda_msm_bucket_bytes(CUDA_MSM_G1, c + 1) <= cc->device_budget / 16)
            c++;
        cfg.chunked_window_bits[CUDA_MSM_G1] = c;
        cfg.max_batch_entries = chunk * 16;
        /* Beside the H MSM, the witness MSMs' small kernels need room on
         * the SMs, which the accumulation's blocks hold until it ends. */
        const witness_overlap mode = overlap_mode();
        if (mode == OVERLAP_ALL)
            cfg.acc_reserve_blocks = acc_reserve_blocks();
        if ((st = cuda_msm_ctx_create(&d->msm, &cfg)) != CUZK_OK)
            return dev_error(msg, msg_len, "MSM context", cuda_msm_last_error());
        /* The witness MSMs' context, where it takes at most an eighth of
         * the budget with its chunk buffers (at small sizes its fixed
         * scratch would crowd out the points; at 2^27 and 24 GiB it takes
         * about 1.6 GB, more than a sixteenth), its stream ahead of the
         * quotient's: its work is mostly waiting on copies, and each of
         * its kernels holds up the copies behind it. */
        cuda_msm_config side_cfg = {.device = device, .high_priority = true};
        side_cfg.max_n[CUDA_MSM_G1] = side_cfg.max_n[CUDA_MSM_G2] = side_chunk(chunk);
        if (mode != OVERLAP_OFF && (st = cuda_msm_ctx_create(&d->side, &side_cfg)) != CUZK_OK)
            return dev_error(msg, msg_len, "the witness MSMs' context", cuda_msm_last_error());
        if (d->side &&
            cuda_msm_ctx_device_bytes(d->side) + cuda_msm_streamer_bytes_for(side_chunk(chunk)) >
                cc->device_budget / 8) {
            cuda_msm_ctx_destroy(d->side);
            d->side = NULL;
        }
        d->parts.side_before_h_msm = mode != OVERLAP_ALL;
        d->lean = true;
        const char *rot = getenv("CUZK_CUDA_STAGE_ROTATE");
        /* On by default: at 2^27 under 24 GiB the device's idle time went
         * from 57.6 to 0.1 ms a partition (docs/PERF.md). */
        d->rotate = d->r1cs && !(rot && strcmp(rot, "off") == 0);
        if (d->rotate && cuda_stream_create(device, &d->spare_stream) != 0)
            return dev_error(msg, msg_len, "copy stream", "cannot create a CUDA stream");
    }
    *bytes += cuda_msm_ctx_device_bytes(d->msm) + cuda_msm_ctx_device_bytes(d->side);
    if ((st = add_stage(d, n, nvars, bytes, msg, msg_len)) != CUZK_OK)
        return st;

    cuda_plan_placement placement = {0};
    while (budgeted) {
        char parts[256];
        snprintf(parts, sizeof(parts),
                 "%s %llu, constraint system %llu, MSM scratch %llu, NTT tables %llu",
                 d->lean ? "a, b and w" : "a, b, c and w",
                 (unsigned long long)stage_bytes(d, n, nvars),
                 (unsigned long long)(d->r1cs ? cuda_r1cs_device_bytes(d->r1cs) : 0),
                 (unsigned long long)(cuda_msm_ctx_device_bytes(d->msm) +
                                      cuda_msm_ctx_device_bytes(d->side)),
                 (unsigned long long)cuda_ntt_ctx_device_bytes(d->ntt));
        st = place_points(cc, *bytes - start, d->side != NULL, parts, &placement, msg, msg_len);
        if (st == CUZK_ERR_OUT_OF_MEMORY && d->side) {
            /* Without the witness MSMs' context and its chunk buffers
             * (they then run after the H MSM on its context): at 2^27
             * and 16 GiB, 2.6 GB that a partition cannot spare. */
            *bytes -= cuda_msm_ctx_device_bytes(d->side);
            cuda_msm_ctx_destroy(d->side);
            d->side = NULL;
            d->parts.side_before_h_msm = true;
            msg[0] = 0;
            continue;
        }
        if (st != CUZK_OK) {
            if (d->r1cs) {
                const size_t used = strlen(msg);
                if (used < msg_len)
                    snprintf(msg + used, msg_len - used,
                             "; a, b, c evaluated on the host (engine.abc_eval = synthesis) "
                             "would free the constraint system's bytes");
            }
            return st;
        }
        const double gb = 1e9;
        snprintf(d->fixed_text, sizeof(d->fixed_text),
                 "%s %.2f GB, constraint system %.2f GB, MSM scratch %.2f GB, NTT %.2f GB, "
                 "chunk buffers %.2f GB",
                 d->lean ? "a, b, w" : "a, b, c, w", (double)stage_bytes(d, n, nvars) / gb,
                 (double)(d->r1cs ? cuda_r1cs_device_bytes(d->r1cs) : 0) / gb,
                 (double)(cuda_msm_ctx_device_bytes(d->msm) + cuda_msm_ctx_device_bytes(d->side)) /
                     gb,
                 (double)cuda_ntt_ctx_device_bytes(d->ntt) / gb,
                 (double)(cc->device_budget - (*bytes - start) - placement.resident_limit) / gb);
        placement.side = d->side;
        const char *h_buckets = getenv("CUZK_CUDA_H_BUCKETS");
        placement.h_per_chunk = h_buckets && strcmp(h_buckets, "per-chunk") == 0;
        break;
    }
    if ((st = cuda_plan_upload(&d->parts, d->msm, plan, budgeted ? &placement : NULL,
                               cc->check_subgroup, bytes, msg, msg_len)) != CUZK_OK)
        return st;
    if (cuda_msm_wait(d->msm) != CUZK_OK)
        return dev_error(msg, msg_len, "uploading parameters", cuda_msm_last_error());
    /* The second stage, when the points (and the budget) leave room for it. */
    size_t free_bytes = 0;
    const uint64_t one_stage = stage_bytes(d, n, nvars);
    if (cuda_device_free_memory(device, &free_bytes) == 0 &&
        free_bytes > one_stage + CUDA_STAGE_HEADROOM &&
        (!cc->device_budget || *bytes - start + one_stage <= cc->device_budget))
        while (d->nstages < CUDA_STAGES)
            if ((st = add_stage(d, n, nvars, bytes, msg, msg_len)) != CUZK_OK)
                return st;
    /* two stages overlap the copies already */
    d->rotate = d->rotate && d->nstages == 1;
    return CUZK_OK;
}

static unsigned log2_exact(uint64_t n)
{
    unsigned k = 0;
    while (((uint64_t)1 << k) < n)
        k++;
    return k;
}

static cuzk_status warm_up(const cuda_circuit *cc, const cuda_dev_circuit *d, char *msg,
                           size_t msg_len);

static cuzk_status cuda_prepare(backend_t *b, const backend_circuit_desc *desc, void **handle,
                                uint64_t *bytes, char *msg, size_t msg_len)
{
    cuda_backend *cb = b->impl;
    *bytes = 0;
    if (!desc || !desc->plan) {
        backend_msg(msg, msg_len, "%s: no proof plan", desc && desc->name ? desc->name : "circuit");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    cuzk_status st = groth16_plan_check(desc->plan, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    const r1cs_t *cs = desc->cs;
    if (cs &&
        (desc->rows != cs->num_constraints || desc->rows > groth16_plan_domain_n(desc->plan) ||
         r1cs_num_vars(cs) != desc->plan->num_vars)) {
        backend_msg(msg, msg_len,
                    "%s: the constraint system (%llu rows, %llu variables) does not match the "
                    "plan (%llu rows evaluated, domain %zu, %llu variables)",
                    desc->name ? desc->name : "circuit", (unsigned long long)cs->num_constraints,
                    (unsigned long long)r1cs_num_vars(cs), (unsigned long long)desc->rows,
                    groth16_plan_domain_n(desc->plan), (unsigned long long)desc->plan->num_vars);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    cuda_circuit *cc = calloc(1, sizeof(*cc));
    if (!cc)
        return CUZK_ERR_OUT_OF_MEMORY;
    cc->plan = desc->plan;
    cc->cs = cs;
    cc->rows = desc->rows;
    cc->c_is_ab = desc->c_is_ab;
    cc->check_subgroup = desc->check_subgroup;
    cc->device_budget = desc->device_budget;
    cc->log_n = log2_exact(groth16_plan_domain_n(desc->plan));
    cc->num_vars = desc->plan->num_vars;
    cc->ndev = cb->devices;
    cc->dev = calloc(cc->ndev, sizeof(cuda_dev_circuit));
    if (!cc->dev) {
        free(cc);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    for (unsigned i = 0; i < cc->ndev && st == CUZK_OK; i++) {
        pthread_mutex_lock(&cb->locks[i]);
        st = prepare_device(cc, &cc->dev[i], (int)i, bytes, msg, msg_len);
        cc->check_subgroup = false; /* the points are the same on every device */
        if (st == CUZK_OK)
            st = warm_up(cc, &cc->dev[i], msg, msg_len);
        pthread_mutex_unlock(&cb->locks[i]);
    }
    if (st != CUZK_OK) {
        cuda_circuit_free(cc);
        return st;
    }
    *handle = cc;
    return CUZK_OK;
}

/* Whether a device streams some of the circuit's points from the host's
 * copy (a device budget). */
static bool cuda_reads_host_points(backend_t *b, void *handle)
{
    (void)b;
    const cuda_circuit *cc = handle;
    for (unsigned i = 0; cc && i < cc->ndev; i++)
        if (cc->dev[i].parts.num_streamed)
            return true;
    return false;
}

/* Under a device budget: where device 0's share of the points lives
 * (every device makes the same placement). */
static void cuda_describe(backend_t *b, void *handle, char *line, size_t line_len)
{
    cuda_backend *cb = b->impl;
    const cuda_circuit *cc = handle;
    if (!cc || !cc->ndev || !cc->device_budget || !line_len)
        return;
    const cuda_plan_parts *p = &cc->dev[0].parts;
    const double gb = 1e9;
    if (!p->num_streamed && !p->resident_bytes) {
        snprintf(line, line_len, "within the device budget of %.2f GB, every point resident",
                 (double)cc->device_budget / gb);
        return;
    }
    int len = snprintf(line, line_len,
                       "device budget %.2f GB: %.2f GB of points resident in chunks, %.2f GB in %u "
                       "part%s streamed from host memory at each proof; the rest: %s",
                       (double)cc->device_budget / gb, (double)p->resident_bytes / gb,
                       (double)p->streamed_bytes / gb, p->num_streamed,
                       p->num_streamed == 1 ? "" : "s", cc->dev[0].fixed_text);
    if (len < 0 || (size_t)len >= line_len || !cc->dev[0].rotate)
        return;
    /* How often a witness went up into the stage's free b vector while the
     * partition before was still proving (the count is the test's proof
     * that the rotation ran, and a user's that it helps). */
    unsigned long long rotations = 0;
    for (unsigned i = 0; i < cc->ndev; i++) {
        pthread_mutex_lock(&cb->stage_mu[i]);
        rotations += cc->dev[i].rotations;
        pthread_mutex_unlock(&cb->stage_mu[i]);
    }
    snprintf(line + len, line_len - (size_t)len, "; stage rotations: %llu", rotations);
}

static void cuda_release(backend_t *b, void *handle)
{
    cuda_backend *cb = b->impl;
    cuda_circuit *cc = handle;
    if (!cc)
        return;
    for (unsigned i = 0; i < cc->ndev; i++) {
        pthread_mutex_lock(&cb->locks[i]);
        dev_circuit_free(&cc->dev[i]);
        pthread_mutex_unlock(&cb->locks[i]);
    }
    cc->ndev = 0;
    cuda_circuit_free(cc);
}

/* Reports the phase since *mark and moves the mark. */
typedef struct phase_clock {
    uint64_t n; /* the domain, for the quotient's bytes */
    int bn254;  /* the plan's curve is BN254 (its results' sizes) */
    backend_phase_fn fn;
    void *ctx;
    backend_copy_fn copy;
    void *copy_ctx;
    uint64_t mark;
} phase_clock;

static void lap(phase_clock *pc, proof_phase phase, const char *cat, uint64_t bytes)
{
    uint64_t now = backend_clock_ns();
    if (pc->fn)
        pc->fn(pc->ctx, phase, cat, pc->mark, now, bytes);
    pc->mark = now;
}

/* The streams copies go on, numbered for the events: a stage's copy stream
 * (a, b, c and w up), the MSM context's own stream (the MSM results down;
 * cuda/msm.h). h runs on the default stream (stream NULL, cuda/ntt.h). */
#define STREAM_STAGE 0
#define STREAM_MSM 1

/* Reports a copy: to the copy callback when there is one, else as an
 * "upload" / "download" phase. */
static void copied(phase_clock *pc, const char *what, backend_copy_dir dir, int stream,
                   uint64_t start, uint64_t end, uint64_t bytes)
{
    if (pc->copy) {
        backend_copy c = {.what = what,
                          .dir = dir,
                          .stream = stream,
                          .start_ns = start,
                          .end_ns = end,
                          .bytes = bytes};
        pc->copy(pc->copy_ctx, &c);
    } else if (pc->fn) {
        pc->fn(pc->ctx, dir == BACKEND_COPY_H2D ? PHASE_UPLOAD : PHASE_DOWNLOAD, "copy", start, end,
               bytes);
    }
}

/* A copy since the mark, which moves. */
static void lap_copy(phase_clock *pc, const char *what, backend_copy_dir dir, int stream,
                     uint64_t bytes)
{
    uint64_t now = backend_clock_ns();
    copied(pc, what, dir, stream, pc->mark, now, bytes);
    pc->mark = now;
}

/* A kernel phase over [start, end]; the mark moves to its end when that is
 * later (phases of the plan may overlap: cuda_plan_run's side context). */
static void span(phase_clock *pc, proof_phase phase, const char *cat, uint64_t bytes,
                 uint64_t start, uint64_t end)
{
    if (pc->fn)
        pc->fn(pc->ctx, phase, cat, start, end, bytes);
    if (end > pc->mark)
        pc->mark = end;
}

/* A kernel phase made of `calls` MSM calls: each ends with its result (one
 * Jacobian point) copied back inside the call, on the MSM stream. Their
 * time is part of the phase; they are reported, as one zero-length copy
 * at the phase's end, for their bytes. */
static void msm_span(phase_clock *pc, proof_phase phase, uint64_t bytes, const char *what,
                     unsigned calls, uint64_t point_bytes, uint64_t start, uint64_t end)
{
    span(pc, phase, "gpu", bytes, start, end);
    if (pc->copy) /* not as a phase: a zero-length "download" would only add a row */
        copied(pc, what, BACKEND_COPY_D2H, STREAM_MSM, end, end, calls * point_bytes);
}

/* a, b, c (when the input brings them) and the witness up into stage sg,
 * on its stream (outside the device's lock). The witness goes up once and
 * every MSM reads it from device memory (a host pointer would be staged by
 * each call). */
/* The witness into d_w on stream, waited for. */
static cuzk_status upload_witness(const cuda_circuit *cc, const cuda_dev_circuit *d, void *d_w,
                                  void *stream, const backend_input *in, phase_clock *pc, char *msg,
                                  size_t msg_len)
{
    const uint64_t nvars = cc->num_vars;
    if (cuda_ntt_upload(d->ntt, d_w, (const struct fr *)in->w, nvars, stream) != CUZK_OK ||
        cuda_ntt_sync(d->ntt, stream) != CUZK_OK)
        return dev_error(msg, msg_len, "uploading the witness", cuda_ntt_last_error());
    lap_copy(pc, "w", BACKEND_COPY_H2D, STREAM_STAGE, nvars * sizeof(fr_t));
    return CUZK_OK;
}

static cuzk_status upload_stage(const cuda_circuit *cc, const cuda_dev_circuit *d,
                                const cuda_stage *sg, const backend_input *in, phase_clock *pc,
                                char *msg, size_t msg_len)
{
    size_t n = (size_t)1 << cc->log_n;
    const struct fr *abc = (const struct fr *)in->abc;
    /* lean: c goes up later, into b's vector (lean_fill_c) */
    const int vectors = (int)stage_vectors(d);
    for (int i = 0; i < vectors && abc; i++)
        if (cuda_ntt_upload(d->ntt, sg->d_abc[i], abc + (size_t)i * n, in->rows, sg->stream) !=
            CUZK_OK)
            return dev_error(msg, msg_len, "uploading a, b, c", cuda_ntt_last_error());
    if (abc) {
        if (cuda_ntt_sync(d->ntt, sg->stream) != CUZK_OK)
            return dev_error(msg, msg_len, "uploading a, b, c", cuda_ntt_last_error());
        lap_copy(pc, d->lean ? "a,b" : "a,b,c", BACKEND_COPY_H2D, STREAM_STAGE,
                 (uint64_t)vectors * in->rows * sizeof(fr_t));
    }
    return upload_witness(cc, d, sg->d_w, sg->stream, in, pc, msg, msg_len);
}

/* Each phase of the plan reported over its interval, with the MSM
 * results' copies (one Jacobian point a part, inside the call, on the MSM
 * stream). */
static void device_step(void *ctx, proof_phase phase, const groth16_msm *m,
                        const g1_jac_t *g1_parts, const g2_jac_t *g2_parts, uint64_t start_ns,
                        uint64_t end_ns)
{
    (void)g1_parts;
    (void)g2_parts;
    phase_clock *pc = ctx;
    if (!m) {
        span(pc, phase, "gpu", 3 * pc->n * sizeof(fr_t), start_ns, end_ns);
        return;
    }
    char what[32];
    snprintf(what, sizeof(what), "%s result", proof_phase_name(phase));
    msm_span(pc, phase, groth16_msm_bytes(m), what, m->num_parts,
             cuda_msm_jac_bytes(cuda_msm_group_of(pc->bn254, m->term == GROTH16_TERM_B_G2)),
             start_ns, end_ns);
}

/* a, b, c from the stage's witness into its vectors, on its stream, with
 * the exact check where C is given (under the device's lock). */
static cuzk_status eval_device(const cuda_circuit *cc, const cuda_dev_circuit *d,
                               const cuda_stage *sg, phase_clock *pc, char *msg, size_t msg_len)
{
    uint64_t bad = CUDA_R1CS_ROW_NONE;
    const cuzk_status st =
        d->lean ? cuda_r1cs_eval_ab(d->r1cs, sg->check, sg->d_w, sg->d_abc[0], sg->d_abc[1],
                                    sg->stream, &bad)
                : cuda_r1cs_eval(d->r1cs, sg->check, sg->d_w, sg->d_abc, sg->stream, &bad);
    if (st != CUZK_OK)
        return dev_error(msg, msg_len, "evaluating a, b, c", cuda_r1cs_last_error());
    lap(pc, PHASE_EVAL_ABC, "gpu", cuda_r1cs_eval_bytes(d->r1cs));
    if (bad != CUDA_R1CS_ROW_NONE) {
        backend_msg(msg, msg_len,
                    "the witness does not satisfy the constraints: row %llu (of %llu, checked on "
                    "the device)",
                    (unsigned long long)bad, (unsigned long long)cc->rows);
        return CUZK_ERR_UNSATISFIED;
    }
    return CUZK_OK;
}

/* The lean quotient's c, written into the vector b leaves (in the
 * quotient's stream order: the default stream): copied from the input's
 * (host_c: its first rows), else evaluated from the matrices, else (the
 * warm-up of a circuit without them) the made-up filler. */
typedef struct lean_fill {
    const cuda_r1cs *r1cs;
    const void *d_w;
    const struct fr *host_c;
    uint64_t rows;
    cuda_ntt_ctx *ntt;
    int device;
    size_t n;
} lean_fill;

static cuzk_status lean_fill_c(void *arg, void *d_c)
{
    const lean_fill *f = arg;
    if (f->host_c)
        return cuda_ntt_upload(f->ntt, d_c, f->host_c, f->rows, NULL);
    if (f->r1cs)
        return cuda_r1cs_eval_c(f->r1cs, f->d_w, d_c, NULL);
    return cuda_memset_bytes(f->device, d_c, 1, f->n * sizeof(fr_t)) == 0 ? CUZK_OK
                                                                          : CUZK_ERR_DEVICE;
}

/* The stage's b vector offered to the next partition once h is done
 * (cuda_dev_circuit.rotate). */
typedef struct spare_offer {
    cuda_backend *cb;
    cuda_dev_circuit *d;
    const cuda_stage *sg;
} spare_offer;

static void offer_spare(void *arg)
{
    const spare_offer *o = arg;
    pthread_mutex_lock(&o->cb->stage_mu[o->d->device]);
    o->d->spare = o->sg->d_abc[1];
    o->d->spare_taken = false;
    pthread_cond_broadcast(&o->cb->stage_cv[o->d->device]);
    pthread_mutex_unlock(&o->cb->stage_mu[o->d->device]);
}

/* h and the plan's MSMs from stage sg (under the device's lock); host_c:
 * the input's c when it brings a, b, c (the lean form copies it in).
 * offer: NULL, or the spare's offer once h is done. */
static cuzk_status prove_device(const cuda_circuit *cc, const cuda_dev_circuit *d,
                                const cuda_stage *sg, const fr_t *host_c, uint64_t rows,
                                groth16_sums *out, phase_clock *pc, spare_offer *offer, char *msg,
                                size_t msg_len)
{
    pc->n = (uint64_t)1 << cc->log_n;
    pc->bn254 = cc->plan->curve == CURVE_BN254;
    lean_fill fill = {.r1cs = d->r1cs,
                      .d_w = sg->d_w,
                      .host_c = (const struct fr *)host_c,
                      .rows = rows,
                      .ntt = d->ntt,
                      .device = d->device,
                      .n = (size_t)1 << cc->log_n};
    return cuda_plan_run(cc->plan, cc->log_n, d->ntt, d->msm, &d->parts, sg->d_abc,
                         d->lean ? lean_fill_c : NULL, &fill, sg->d_w, rows, out, device_step, pc,
                         offer ? offer_spare : NULL, offer, msg, msg_len);
}

/* One proof's device work on made-up inputs, discarded, at prepare time:
 * the first use of each kernel on a device costs seconds (module loading,
 * first allocations), which belongs to loading the circuit, not to its
 * first partition (the first GPU run showed a 2.5 s h and 0.4–0.6 s MSMs
 * there); the evaluation of a, b, c too where the circuit has matrices
 * (its check fails on such a witness, which does not matter here). Every
 * input element is the 256-bit integer 0x0101…01, below both curves' r,
 * so a valid Montgomery representation. */
static cuzk_status warm_up(const cuda_circuit *cc, const cuda_dev_circuit *d, char *msg,
                           size_t msg_len)
{
    const cuda_stage *sg = &d->stage[0];
    size_t n = (size_t)1 << cc->log_n;
    uint64_t nvars = cc->num_vars;
    for (unsigned i = 0; i < stage_vectors(d); i++)
        if (cuda_memset_bytes(d->device, sg->d_abc[i], 1, n * sizeof(fr_t)) != 0)
            return dev_error(msg, msg_len, "warming up", "cannot fill a device buffer");
    if (cuda_memset_bytes(d->device, sg->d_w, 1, nvars * sizeof(fr_t)) != 0)
        return dev_error(msg, msg_len, "warming up", "cannot fill a device buffer");
    groth16_sums discard;
    phase_clock pc = {.mark = backend_clock_ns()};
    if (d->r1cs) {
        char why[256] = ""; /* the check's complaint about the made-up witness: not for msg */
        cuzk_status st = eval_device(cc, d, sg, &pc, why, sizeof(why));
        if (st != CUZK_OK && st != CUZK_ERR_UNSATISFIED) {
            backend_msg(msg, msg_len, "warming up: %s", why);
            return st;
        }
    }
    return prove_device(cc, d, sg, NULL, n, &discard, &pc, NULL, msg, msg_len);
}

static cuzk_status cuda_prove(backend_t *b, unsigned device, void *handle, const backend_input *in,
                              groth16_sums *out, backend_phase_fn phase, void *phase_ctx, char *msg,
                              size_t msg_len)
{
    cuda_backend *cb = b->impl;
    const cuda_circuit *cc = handle;
    if (device >= cb->devices || !cc || !in || !in->w ||
        (in->abc && in->rows > ((uint64_t)1 << cc->log_n))) {
        backend_msg(msg, msg_len, "bad arguments (device %u of %u)", device, cb->devices);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (!in->abc && !cc->cs) {
        backend_msg(msg, msg_len,
                    "no a, b, c given, and the circuit was prepared without its constraint "
                    "system to evaluate them");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    size_t n = (size_t)1 << cc->log_n;
    uint64_t rows = in->abc ? in->rows : cc->rows;
    /* The exact satisfaction check of given a, b, c runs on the host,
     * outside the lock, unless the caller made it already (it costs a pass
     * over a, b, c on host cores that synthesis needs). */
    if (in->abc && !in->rows_checked &&
        !groth16_rows_satisfied_over(cc->plan->curve, in->abc, in->abc + n, in->abc + 2 * n,
                                     in->rows, cb->threads)) {
        backend_msg(msg, msg_len, "the witness does not satisfy the constraints");
        return CUZK_ERR_UNSATISFIED;
    }
    cuda_dev_circuit *d = &cc->dev[device];
    /* A free stage, or (rotation) the spare of the partition proving now:
     * this witness goes up into it while that partition's MSMs run, and the
     * stage is taken when that partition leaves it. */
    pthread_mutex_lock(&cb->stage_mu[device]);
    cuda_stage *sg = NULL;
    void *spare = NULL;
    for (;;) {
        for (unsigned s = 0; s < d->nstages && !sg && !d->spare_taken; s++)
            if (!d->stage[s].busy)
                sg = &d->stage[s];
        if (sg)
            break;
        if (d->rotate && !in->abc && d->spare && !d->spare_taken) {
            spare = d->spare;
            d->spare_taken = true;
            d->rotations++;
            break;
        }
        pthread_cond_wait(&cb->stage_cv[device], &cb->stage_mu[device]);
    }
    if (sg)
        sg->busy = true;
    pthread_mutex_unlock(&cb->stage_mu[device]);

    phase_clock pc = {.fn = phase,
                      .ctx = phase_ctx,
                      .copy = in->copy,
                      .copy_ctx = in->copy_ctx,
                      .mark = backend_clock_ns()};
    cuzk_status st;
    if (spare) {
        st = upload_witness(cc, d, spare, d->spare_stream, in, &pc, msg, msg_len);
        pthread_mutex_lock(&cb->stage_mu[device]);
        sg = &d->stage[0];
        while (sg->busy)
            pthread_cond_wait(&cb->stage_cv[device], &cb->stage_mu[device]);
        /* offer_spare gave sg's b vector, and nothing moved it since */
        sg->d_abc[1] = sg->d_w;
        sg->d_w = spare;
        sg->busy = true;
        d->spare = NULL;
        d->spare_taken = false;
        pthread_mutex_unlock(&cb->stage_mu[device]);
    } else {
        st = upload_stage(cc, d, sg, in, &pc, msg, msg_len);
    }
    spare_offer offer = {.cb = cb, .d = d, .sg = sg};
    if (st == CUZK_OK) {
        pthread_mutex_lock(&cb->locks[device]);
        pc.mark = backend_clock_ns(); /* the wait for the lock is no phase */
        if (!in->abc)
            st = eval_device(cc, d, sg, &pc, msg, msg_len);
        if (st == CUZK_OK)
            st = prove_device(cc, d, sg, in->abc ? in->abc + 2 * n : NULL, rows, out, &pc,
                              d->rotate && !in->abc ? &offer : NULL, msg, msg_len);
        pthread_mutex_unlock(&cb->locks[device]);
    }

    pthread_mutex_lock(&cb->stage_mu[device]);
    if (d->spare && !d->spare_taken)
        d->spare = NULL; /* not taken: withdrawn with the stage */
    sg->busy = false;
    /* the partition that took the spare, or any other waiter */
    pthread_cond_broadcast(&cb->stage_cv[device]);
    pthread_mutex_unlock(&cb->stage_mu[device]);
    return st;
}

static void *cuda_backend_host_alloc(backend_t *b, size_t bytes)
{
    (void)b;
    return cuda_host_alloc(bytes);
}

static void cuda_backend_host_free(backend_t *b, void *p)
{
    (void)b;
    cuda_host_free(p);
}

/* Development parameters' fixed-base products (backend.h), on device 0:
 * they run at load, outside the device's lock (their own streams and
 * buffers; a partition proving meanwhile only shares the device). */
static cuzk_status cuda_fixed_base(cuda_msm_group group, const void *base, void *out,
                                   const fr_t *scalars, size_t n, char *msg, size_t msg_len)
{
    cuzk_status st = cuda_fixed_base_mul(0, group, base, out, (const struct fr *)scalars, n);
    if (st == CUZK_ERR_DEVICE)
        backend_msg(msg, msg_len, "fixed-base products on the GPU: %s",
                    cuda_fixed_base_last_error());
    return st;
}

static cuzk_status cuda_fixed_base_g1(backend_t *b, g1_affine_t *out, const fr_t *scalars, size_t n,
                                      char *msg, size_t msg_len)
{
    (void)b;
    return cuda_fixed_base(CUDA_MSM_G1, &G1_GENERATOR, out, scalars, n, msg, msg_len);
}

static cuzk_status cuda_fixed_base_g2(backend_t *b, g2_affine_t *out, const fr_t *scalars, size_t n,
                                      char *msg, size_t msg_len)
{
    (void)b;
    return cuda_fixed_base(CUDA_MSM_G2, &G2_GENERATOR, out, scalars, n, msg, msg_len);
}

static void cuda_destroy(backend_t *b)
{
    cuda_backend *cb = b->impl;
    for (unsigned i = 0; i < cb->devices; i++) {
        pthread_mutex_destroy(&cb->locks[i]);
        pthread_mutex_destroy(&cb->stage_mu[i]);
        pthread_cond_destroy(&cb->stage_cv[i]);
    }
    free(cb->locks);
    free(cb->stage_mu);
    free(cb->stage_cv);
    free(cb);
}

cuzk_status backend_cuda_create(backend_t **out, unsigned threads, char *msg, size_t msg_len)
{
    const char *why = NULL;
    int count = cuda_device_count(&why);
    if (count <= 0) {
        backend_msg(msg, msg_len, "no CUDA device: %s", why ? why : "none found");
        return CUZK_ERR_UNSUPPORTED;
    }
    cuda_backend *cb = calloc(1, sizeof(*cb));
    if (!cb)
        return CUZK_ERR_OUT_OF_MEMORY;
    cb->devices = (unsigned)count;
    cb->threads = threads;
    cb->locks = calloc(cb->devices, sizeof(pthread_mutex_t));
    cb->stage_mu = calloc(cb->devices, sizeof(pthread_mutex_t));
    cb->stage_cv = calloc(cb->devices, sizeof(pthread_cond_t));
    if (!cb->locks || !cb->stage_mu || !cb->stage_cv) {
        free(cb->locks);
        free(cb->stage_mu);
        free(cb->stage_cv);
        free(cb);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    for (unsigned i = 0; i < cb->devices; i++) {
        pthread_mutex_init(&cb->locks[i], NULL);
        pthread_mutex_init(&cb->stage_mu[i], NULL);
        pthread_cond_init(&cb->stage_cv[i], NULL);
    }
    cb->base.name = "cuda";
    cb->base.is_cpu = false;
    cb->base.evaluates_abc = true;
    cb->base.num_devices = cb->devices;
    cb->base.impl = cb;
    cb->base.prepare = cuda_prepare;
    cb->base.release = cuda_release;
    cb->base.prove = cuda_prove;
    cb->base.destroy = cuda_destroy;
    cb->base.host_alloc = cuda_backend_host_alloc;
    cb->base.host_free = cuda_backend_host_free;
    cb->base.copies_points = true; /* prepare uploads them (cuda_plan_upload) */
    cb->base.reads_host_points = cuda_reads_host_points;
    cb->base.describe = cuda_describe;
    cb->base.checks_subgroup = true; /* and tests them there, when asked */
    cb->base.fixed_base_g1 = cuda_fixed_base_g1;
    cb->base.fixed_base_g2 = cuda_fixed_base_g2;
    *out = &cb->base;
    return CUZK_OK;
}

#else /* no CUDA: the backend is not built */

cuzk_status backend_cuda_create(backend_t **out, unsigned threads, char *msg, size_t msg_len)
{
    (void)out;
    (void)threads;
    backend_msg(msg, msg_len, "this build has no CUDA backend (nvcc was not found)");
    return CUZK_ERR_UNSUPPORTED;
}

#endif
