/* The device evaluation's kernels over BLS12-381's Fr (r1cs_eval_impl.cuh). */

#define R1CSK(name) r1cs_bls12_381_##name
#include "cuda/r1cs_eval_impl.cuh"
