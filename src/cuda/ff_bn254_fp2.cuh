#ifndef CUZK_CUDA_FF_BN254_FP2_CUH
#define CUZK_CUDA_FF_BN254_FP2_CUH

/* Fp2 = Fp[u] / (u² + 1) of BN254 on the device (ff_fp2_impl.cuh), the
 * layout of the CPU's bn254_fp2_t (field/bn254_tower.h): dbn254_fp2_t,
 * dbn254_fp2_mul, ... */

#include "cuda/ff_bn254_fp.cuh"

#define F2_(name) dbn254_fp2_##name
#define FB_(name) dbn254_fp_##name
#include "cuda/ff_fp2_impl.cuh"

#endif
