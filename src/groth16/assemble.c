/* The last step of a proof, compiled for both curves (assemble_impl.h). */
#include "groth16/assemble.h"

#include "util/wipe.h"

#define AS_FN groth16_assemble
#define AS_G1(name) g1_##name
#define AS_G2(name) g2_##name
#define AS_FR(name) fr_##name
#define AS_FR_T fr_t
#define AS_VK_T groth16_vk_t
#define AS_PROOF_T groth16_proof_t
#define AS_SUMS_T groth16_sums
#include "groth16/assemble_impl.h"

#define AS_FN bn254_groth16_assemble
#define AS_G1(name) bn254_g1_##name
#define AS_G2(name) bn254_g2_##name
#define AS_FR(name) bn254_fr_##name
#define AS_FR_T bn254_fr_t
#define AS_VK_T bn254_groth16_vk_t
#define AS_PROOF_T bn254_groth16_proof_t
#define AS_SUMS_T bn254_groth16_sums
#include "groth16/assemble_impl.h"
