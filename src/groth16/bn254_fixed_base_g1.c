/* Fixed-base products over BN254's G1: the template fixed_base_impl.h. */
#include "groth16/fixed_base.h"

#define PT_(name) bn254_g1_##name
#define FE_(name) bn254_fp_##name
#define FE_T bn254_fp_t
#define FB_T bn254_g1_fixed_base_t
#define FB_SC_T bn254_fr_t
#define FB_SC_TO_RAW bn254_fr_to_raw
#include "groth16/fixed_base_impl.h"
