#ifndef CUZK_CUDA_FF_FP2_CUH
#define CUZK_CUDA_FF_FP2_CUH

/* Fp2 = Fp[u] / (u² + 1) of BLS12-381 on the device (ff_fp2_impl.cuh), the
 * layout of the CPU's fp2_t (field/fp2.h): dfp2_t, dfp2_mul, ... */

#include "cuda/ff_fp.cuh"

#define F2_(name) dfp2_##name
#define FB_(name) dfp_##name
#include "cuda/ff_fp2_impl.cuh"

#endif
