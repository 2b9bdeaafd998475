/* The device evaluation's kernels over BN254's Fr (r1cs_eval_impl.cuh). */

#define NTT_CURVE_BN254 1
#define R1CSK(name) r1cs_bn254_##name
#include "cuda/r1cs_eval_impl.cuh"
