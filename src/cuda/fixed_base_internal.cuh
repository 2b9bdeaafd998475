#ifndef CUZK_CUDA_FIXED_BASE_INTERNAL_CUH
#define CUZK_CUDA_FIXED_BASE_INTERNAL_CUH

/* Inside the GPU fixed-base products (fixed_base.h): the window geometry
 * and the interface between the driver (fixed_base.cu) and the two
 * groups' halves (fixed_base_g1.cu, fixed_base_g2.cu, from
 * fixed_base_impl.cuh; cut in two so the Fp2 half compiles in parallel). */

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuda/ff_fr.cuh"
#include "cuda/fixed_base.h"

/* 16-bit windows: 16 of them cover a 256-bit scalar, so a product is at
 * most 16 additions; the table holds 16 × 65,535 points (100 MB for G1,
 * 200 MB for G2), read at random but from HBM at a rate far above what the
 * additions consume. */
#define FB_WINDOW 16u
#define FB_WINDOWS 16u
#define FB_DIGITS (1u << FB_WINDOW)
/* Points per thread of the batch inversion: the Fermat inversion (about
 * 570 multiplications) shared by 32 points costs each under 20, beside the
 * 3 of the trick itself. */
#define FB_RUN 32u

/* One group's products on the current device (fixed_base_impl.cuh): the
 * caller made the two streams and the two events (one per output buffer). */
cuzk_status fixed_base_g1_mul(const void *host_base, void *out, const void *scalars, size_t n,
                              cudaStream_t compute, cudaStream_t copy, cudaEvent_t done[2]);
cuzk_status fixed_base_g2_mul(const void *host_base, void *out, const void *scalars, size_t n,
                              cudaStream_t compute, cudaStream_t copy, cudaEvent_t done[2]);

#endif
