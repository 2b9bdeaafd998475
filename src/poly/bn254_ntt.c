/* BN254's NTT: the template ntt_impl.h over its Fr. */
#include "poly/bn254_ntt.h"

#include "field/bn254_fr_names.h"
#define NTT_(name) bn254_ntt_##name
#define NTT_DOMAIN_T bn254_domain_t
#include "poly/ntt_impl.h"
