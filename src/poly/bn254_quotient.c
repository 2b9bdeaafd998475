/* BN254's quotient: the template quotient_impl.h over its Fr. */
#include "poly/bn254_quotient.h"

#include "field/bn254_fr_names.h"
#include "poly/bn254_ntt.h"
#define Q_(name) bn254_poly_##name
#define Q_NTT(name) bn254_ntt_##name
#define Q_DOMAIN_T bn254_domain_t
#define Q_MAX_LOG BN254_DOMAIN_MAX_LOG
#include "poly/quotient_impl.h"
