#include "groth16/fixed_base.h"

#define PT_(name) g2_##name
#define FE_(name) fp2_##name
#define FE_T fp2_t
#define FB_T g2_fixed_base_t
#define FB_SC_T fr_t
#define FB_SC_TO_RAW fr_to_raw
#include "groth16/fixed_base_impl.h"
