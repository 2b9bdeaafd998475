#ifndef CUZK_CUDA_EC_FIELD_CUH
#define CUZK_CUDA_EC_FIELD_CUH

/* The field helpers of the device curve code (ec_field_impl.cuh) for both
 * curves: ec_fp_* and ec_fp2_* over BLS12-381's Fp, ec_bn254_fp_* and
 * ec_bn254_fp2_* over BN254's. */

#include <stdint.h>

#include "cuda/ff_bn254_fp2.cuh"
#include "cuda/ff_fp2.cuh"
#include "field/limbs_inv_impl.h"

#define EF_(name) ec_fp_##name
#define EF2_(name) ec_fp2_##name
#define FB_(name) dfp_##name
#define F2_(name) dfp2_##name
#define EF_LIMBS DFP_LIMBS
#define EF_MODULUS DFP_MODULUS
#define EF_R3 DFP_R3
#define EF_TOP_BIT 380 /* limb 11, bit 28 */
#include "cuda/ec_field_impl.cuh"

#define EF_(name) ec_bn254_fp_##name
#define EF2_(name) ec_bn254_fp2_##name
#define FB_(name) dbn254_fp_##name
#define F2_(name) dbn254_fp2_##name
#define EF_LIMBS DBN254_FP_LIMBS
#define EF_MODULUS DBN254_FP_MODULUS
#define EF_R3 DBN254_FP_R3
#define EF_TOP_BIT 253 /* limb 7, bit 29 */
#include "cuda/ec_field_impl.cuh"

#endif
