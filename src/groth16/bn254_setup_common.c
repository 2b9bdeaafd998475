/* BN254's pieces of setup_common.h: the template setup_common_impl.h over
 * BN254's scalar field and groups. A BN254 constraint system keeps its
 * coefficients in fr_t slots (field/scalar_slots.h). */
#include "field/scalar_slots.h"
#include "groth16/setup_common.h"

#include "field/bn254_fr_names.h"
#define SC_(name) bn254_setup_##name
#define SC_G1(name) bn254_g1_##name
#define SC_G2(name) bn254_g2_##name
#define SC_G1_GENERATOR BN254_G1_GENERATOR
#define SC_G2_GENERATOR BN254_G2_GENERATOR
#define SC_VK_T bn254_groth16_vk_t
#define SC_COEFFS(r) bn254_fr_slots_const((r)->coeffs)
#include "groth16/setup_common_impl.h"
