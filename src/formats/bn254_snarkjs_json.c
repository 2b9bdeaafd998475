/* snarkjs's JSON files over BN254: the readers and the proof and public
 * writers of snarkjs_json_read_impl.h and snarkjs_json_write_impl.h
 * compiled over BN254's fields and groups. */
#include "formats/bn254_snarkjs_json.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "formats/decimal.h"
#include "formats/snarkjs_json_internal.h"

#define SJ_(name) bn254_snarkjs_##name
#define SJ_CURVE CURVE_BN254
#define SJ_FP(name) bn254_fp_##name
#define SJ_FP_T bn254_fp_t
#define SJ_FP_ONE BN254_FP_ONE
#define SJ_FP_LIMBS BN254_FP_LIMBS
#define SJ_FP_MODULUS BN254_FP_MODULUS
#define SJ_FP2_T bn254_fp2_t
#define SJ_FP2_ONE BN254_FP2_ONE
#define SJ_FR(name) bn254_fr_##name
#define SJ_FR_T bn254_fr_t
#define SJ_FR_LIMBS BN254_FR_LIMBS
#define SJ_FR_MODULUS BN254_FR_MODULUS
#define SJ_G1(name) bn254_g1_##name
#define SJ_G2(name) bn254_g2_##name
#define SJ_VK_T bn254_groth16_vk_t
#define SJ_PROOF_T bn254_groth16_proof_t
#define SJ_VK_FREE bn254_groth16_vk_free
#include "formats/snarkjs_json_read_impl.h"
#define SJ_CURVE_NAME "bn128"
#include "formats/snarkjs_json_write_impl.h"
