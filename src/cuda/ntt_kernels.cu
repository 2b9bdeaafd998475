/* The NTT's kernels and executor over BLS12-381's Fr (ntt_kernels_impl.cuh). */

#define NTTK(name) ntt_bls12_381_##name
#include "cuda/ntt_kernels_impl.cuh"
