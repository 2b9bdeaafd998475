/* The host layouts the device MSM (msm.h) reads and writes byte for byte:
 * affine points (coordinates, then the infinity flag), Jacobian results and
 * Fr scalars. Compile-time checks only. */
#include <stdbool.h>
#include <stddef.h>

#include "cuda/msm.h"
#include "curve/bn254_curve.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/bn254_fr.h"
#include "field/fr.h"

_Static_assert(sizeof(fp_t) == 48 && sizeof(fp2_t) == 96, "field element sizes");
_Static_assert(sizeof(bool) == 1, "the infinity flag is one byte");

_Static_assert(sizeof(g1_affine_t) == CUDA_MSM_G1_AFFINE_BYTES, "g1_affine_t size");
_Static_assert(offsetof(g1_affine_t, x) == 0 && offsetof(g1_affine_t, y) == 48 &&
                   offsetof(g1_affine_t, infinity) == 96,
               "g1_affine_t layout");
_Static_assert(sizeof(g2_affine_t) == CUDA_MSM_G2_AFFINE_BYTES, "g2_affine_t size");
_Static_assert(offsetof(g2_affine_t, x) == 0 && offsetof(g2_affine_t, y) == 96 &&
                   offsetof(g2_affine_t, infinity) == 192,
               "g2_affine_t layout");

_Static_assert(sizeof(g1_jac_t) == CUDA_MSM_G1_JAC_BYTES && offsetof(g1_jac_t, z) == 96,
               "g1_jac_t layout");
_Static_assert(sizeof(g2_jac_t) == CUDA_MSM_G2_JAC_BYTES && offsetof(g2_jac_t, z) == 192,
               "g2_jac_t layout");
_Static_assert(sizeof(fr_t) == CUDA_MSM_FR_BYTES, "fr_t size");

_Static_assert(sizeof(bn254_g1_affine_t) == CUDA_MSM_BN254_G1_AFFINE_BYTES &&
                   offsetof(bn254_g1_affine_t, y) == 32 &&
                   offsetof(bn254_g1_affine_t, infinity) == 64,
               "bn254_g1_affine_t layout");
_Static_assert(sizeof(bn254_g2_affine_t) == CUDA_MSM_BN254_G2_AFFINE_BYTES &&
                   offsetof(bn254_g2_affine_t, y) == 64 &&
                   offsetof(bn254_g2_affine_t, infinity) == 128,
               "bn254_g2_affine_t layout");
_Static_assert(sizeof(bn254_g1_jac_t) == CUDA_MSM_BN254_G1_JAC_BYTES &&
                   offsetof(bn254_g1_jac_t, z) == 64,
               "bn254_g1_jac_t layout");
_Static_assert(sizeof(bn254_g2_jac_t) == CUDA_MSM_BN254_G2_JAC_BYTES &&
                   offsetof(bn254_g2_jac_t, z) == 128,
               "bn254_g2_jac_t layout");
_Static_assert(sizeof(bn254_fr_t) == CUDA_MSM_FR_BYTES, "bn254_fr_t size");

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the device MSM reads host limbs as little-endian words"
#endif
