#include "groth16/fixed_base.h"

#define PT_(name) g1_##name
#define FE_(name) fp_##name
#define FE_T fp_t
#define FB_T g1_fixed_base_t
#define FB_SC_T fr_t
#define FB_SC_TO_RAW fr_to_raw
#include "groth16/fixed_base_impl.h"
