#ifndef CUZK_CUDA_FIXED_BASE_H
#define CUZK_CUDA_FIXED_BASE_H

/* Fixed-base scalar multiplication on the GPU, for development parameters
 * made at load (groth16/setup.h's batch callbacks): out[i] = scalars[i]·G
 * for the generator G of G1 or G2, the device twin of
 * groth16/fixed_base.h's g1/g2_fixed_base_mul_batch (same inputs, the same
 * affine results bit for bit).
 *
 * How (fixed_base.cu):
 *  - a table of d·2^(16k)·G for every 16-bit window k and digit d ≥ 1 is
 *    made on the device per call (1M points; about 0.1 s for G2), so a
 *    product is at most 16 mixed additions in XYZZ coordinates and no
 *    doublings;
 *  - the sums are made affine by batch inversion (Montgomery's trick: each
 *    thread inverts the product of its run of 32 points once and unwinds
 *    it, about 3 multiplications a point), since one Fermat inversion per
 *    point (about 570 multiplications) would cost more than the 16
 *    additions themselves;
 *  - the results are written in the host layout (g1_affine_t, g2_affine_t:
 *    msm.h's CUDA_MSM_*_AFFINE_BYTES) and copied back chunk by chunk
 *    (CUDA_FIXED_BASE_CHUNK points), the copy of one chunk running beside
 *    the kernels of the next, so device memory stays bounded whatever n is.
 *
 * Variable time in the scalars (the setup's toxic waste goes through here,
 * acceptable for development parameters only). Built only with CUDA
 * (CUZK_HAVE_CUDA). */

#include <stddef.h>

#include "cuda/msm.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fr;

/* Points per chunk: 2^22, at most about 2.9 GB of device memory for G2. */
#define CUDA_FIXED_BASE_CHUNK ((size_t)1 << 22)

/* out[i] = scalars[i]·G for i < n on `device`: G the generator of group,
 * given in the host layout (host_base: a g1_affine_t or g2_affine_t, not
 * infinity), scalars Fr in Montgomery form (fr_t), out the host layout.
 * Pageable or page-locked host memory both work. Returns CUZK_OK,
 * CUZK_ERR_INVALID_ARGUMENT, or CUZK_ERR_DEVICE (cuda_fixed_base_last_error
 * says which call failed and why). */
cuzk_status cuda_fixed_base_mul(int device, cuda_msm_group group, const void *host_base, void *out,
                                const struct fr *scalars, size_t n);

/* The calling thread's last CUDA failure here, as "call@file:line: why". */
const char *cuda_fixed_base_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
