#ifndef CUZK_BACKEND_CUDA_PLAN_H
#define CUZK_BACKEND_CUDA_PLAN_H

/* The proof plan's executor on one device (groth16/plan.h): the quotient
 * in place over a, b, c, then every part of every MSM from resident points,
 * each MSM waited for so its phase is timed honestly. The CUDA backend runs
 * it per partition; bench_cuda_prove runs it on inputs made on the device.
 * Built only with CUDA. */

#ifdef CUZK_HAVE_CUDA

#include <stdint.h>

#include "cuda/msm.h"
#include "cuda/msm_stream.h"
#include "cuda/ntt.h"
#include "cuzk/status.h"
#include "groth16/assemble.h"
#include "groth16/plan.h"

/* Part k of MSM i of a plan, on the device: its points resident in one
 * piece (pts, with dens when it has a bitmap), or, under a device budget,
 * in chunks (streamed; cuda/msm_stream.h), its leading chunks resident
 * and the rest left in host memory and copied through the chunk buffers
 * at each MSM. */
typedef struct cuda_plan_parts {
    cuda_msm_points *pts[GROTH16_PLAN_MAX_MSMS][GROTH16_MSM_MAX_PARTS];
    cuda_msm_density *dens[GROTH16_PLAN_MAX_MSMS][GROTH16_MSM_MAX_PARTS]; /* NULL: none */
    cuda_msm_streamed *streamed[GROTH16_PLAN_MAX_MSMS][GROTH16_MSM_MAX_PARTS];
    cuda_msm_streamer *streamer; /* when a part streams */
    /* The witness parts' own, on a second MSM context
     * (cuda_plan_placement.side): their MSMs then run beside the
     * quotient's (cuda_plan_run). NULL: they use streamer. */
    cuda_msm_streamer *wstreamer;
    /* With a witness streamer: the H MSM waits for the witness MSMs, which
     * then overlap h only. */
    bool side_before_h_msm;
    unsigned num_streamed;   /* parts with points streamed */
    uint64_t streamed_bytes; /* host bytes of the points streamed at each MSM */
    uint64_t resident_bytes; /* host bytes of the chunked parts' points kept resident */
} cuda_plan_parts;

/* Under a device budget every part runs in chunks of chunk_points (the
 * MSM context is sized for one chunk: its scratch for 2^27 scalars would
 * take gigabytes). Which parts stay resident, within resident_limit bytes:
 * the parts over the witness first (their MSMs are short, so a copy would
 * not hide behind them), smallest first, then the quotient's (its MSM is
 * long: streaming it costs little); the room left after the whole parts
 * that fit goes to the next part's leading chunks; the rest stream. */
typedef struct cuda_plan_placement {
    uint64_t resident_limit;
    size_t chunk_points;
    /* A second MSM context (sized for chunks of side_chunk_points) for the
     * parts over the witness, or NULL. Their MSMs wait on PCIe (their
     * scalars are nearly all 0 or 1: the work is the copy of the points),
     * the quotient's on the GPU's arithmetic: side by side, the copies
     * hide behind h and the H MSM. */
    cuda_msm_ctx *side;
    size_t side_chunk_points;
    /* The quotient's MSM as one Pippenger per chunk, summed on the host,
     * instead of its chunks added into one set of buckets (for measuring
     * the two: CUZK_CUDA_H_BUCKETS=per-chunk). */
    bool h_per_chunk;
} cuda_plan_placement;

/* Called for each phase once it has ended, with its interval
 * (backend_clock_ns): PHASE_H (m NULL), and each MSM with its parts'
 * results (g1 or g2 by m->term; m->num_parts of them; a BN254 plan's are
 * bn254_g1_jac_t / bn254_g2_jac_t in those slots). In the plan's
 * order, from the calling thread; with a side context the witness MSMs'
 * intervals overlap the quotient's. */
typedef void (*cuda_plan_step_fn)(void *ctx, proof_phase phase, const groth16_msm *m,
                                  const g1_jac_t *g1_parts, const g2_jac_t *g2_parts,
                                  uint64_t start_ns, uint64_t end_ns);

/* Uploads the parts' points (and densities) of plan that placement keeps
 * resident, and prepares the others for streaming; *bytes grows by the
 * device bytes. check_subgroup: every part's points are then tested for
 * subgroup membership on the device (a streamed part chunk by chunk), and
 * a point outside fails the upload (CUZK_ERR_CORRUPT). On failure msg says
 * which part (and which point). placement NULL: all resident (the only
 * choice for a BN254 plan: streaming serves BLS12-381's groups). */
cuzk_status cuda_plan_upload(cuda_plan_parts *parts, cuda_msm_ctx *msm, const groth16_plan *plan,
                             const cuda_plan_placement *placement, bool check_subgroup,
                             uint64_t *bytes, char *msg, size_t msg_len);
void cuda_plan_parts_free(cuda_plan_parts *parts);

/* The plan's sums from a, b, c (d_abc: three 2^log_n vectors on the device,
 * the first rows evaluated; h is left in the first) and the witness d_w
 * (plan->num_vars values on the device). With d_abc[2] NULL the quotient
 * runs on two vectors (cuda/ntt.h's lean form): fill_c writes c into the
 * second when b is done with. When parts has a witness streamer, the
 * witness MSMs run on its context in a thread of their own, beside h and
 * the quotient's MSM on msm; both are done when this returns. h_done (NULL:
 * none) is called once h is complete on the device, before the MSMs: from
 * then on the plan reads d_abc[0] (h) and d_w only, so the other vectors
 * are free for the caller (the next partition's witness). */
typedef void (*cuda_plan_h_done_fn)(void *ctx);
cuzk_status cuda_plan_run(const groth16_plan *plan, unsigned log_n, cuda_ntt_ctx *ntt,
                          cuda_msm_ctx *msm, const cuda_plan_parts *parts, void *const d_abc[3],
                          cuda_h_fill_fn fill_c, void *fill_arg, const void *d_w, uint64_t rows,
                          groth16_sums *out, cuda_plan_step_fn step, void *step_ctx,
                          cuda_plan_h_done_fn h_done, void *h_done_ctx, char *msg, size_t msg_len);

#endif
#endif
