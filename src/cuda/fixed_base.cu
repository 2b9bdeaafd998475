/* The GPU fixed-base products (fixed_base.h): argument checks, the device,
 * the streams and events of one call; the groups' work is in
 * fixed_base_g1.cu and fixed_base_g2.cu. */

#include "cuda/cuda_check.h"
#include "cuda/fixed_base_internal.cuh"

extern "C" const char *cuda_fixed_base_last_error(void)
{
    return cuda_check_last();
}

extern "C" cuzk_status cuda_fixed_base_mul(int device, cuda_msm_group group, const void *host_base,
                                           void *out, const struct fr *scalars, size_t n)
{
    if ((group != CUDA_MSM_G1 && group != CUDA_MSM_G2) || !host_base || (n && (!out || !scalars)) ||
        n > UINT32_MAX)
        return CUZK_ERR_INVALID_ARGUMENT;
    if (n == 0)
        return CUZK_OK;
    cuzk_status st = CUZK_OK;
    int prev = 0;
    CUDA_CHECK(st, cudaGetDevice(&prev));
    CUDA_CHECK(st, cudaSetDevice(device));
    cudaStream_t compute = NULL, copy = NULL;
    cudaEvent_t done[2] = {NULL, NULL};
    CUDA_CHECK(st, cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
    CUDA_CHECK(st, cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking));
    for (int k = 0; k < 2; k++)
        CUDA_CHECK(st, cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming));
    if (st == CUZK_OK)
        st = group == CUDA_MSM_G1
                 ? fixed_base_g1_mul(host_base, out, scalars, n, compute, copy, done)
                 : fixed_base_g2_mul(host_base, out, scalars, n, compute, copy, done);
    for (int k = 0; k < 2; k++)
        if (done[k])
            (void)cudaEventDestroy(done[k]);
    if (compute)
        (void)cudaStreamDestroy(compute);
    if (copy)
        (void)cudaStreamDestroy(copy);
    (void)cudaSetDevice(prev);
    return st;
}
