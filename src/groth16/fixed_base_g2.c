#include "groth16/fixed_base.h"

#define PT_(name) g2_##name
#define FE_(name) fp2_##name
#define FE_T fp2_t
#define FB_T g2_fixed_base_t
#include "groth16/fixed_base_impl.h"
