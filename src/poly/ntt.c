/* BLS12-381's NTT: the template ntt_impl.h over Fr. */
#include "poly/ntt.h"

#include "field/fr_names.h"
#define NTT_(name) ntt_##name
#define NTT_DOMAIN_T domain_t
#include "poly/ntt_impl.h"
