/* BLS12-381's quotient: the template quotient_impl.h over Fr. */
#include "poly/quotient.h"

#include "field/fr_names.h"
#include "poly/ntt.h"
#define Q_(name) poly_##name
#define Q_NTT(name) ntt_##name
#define Q_DOMAIN_T domain_t
#define Q_MAX_LOG DOMAIN_MAX_LOG
#include "poly/quotient_impl.h"
