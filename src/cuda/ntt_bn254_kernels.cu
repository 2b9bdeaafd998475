/* The NTT's kernels and executor over BN254's Fr (ntt_kernels_impl.cuh). */

#define NTT_CURVE_BN254 1
#define NTTK(name) ntt_bn254_##name
#include "cuda/ntt_kernels_impl.cuh"
