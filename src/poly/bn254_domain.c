/* BN254's evaluation domains: the template domain_impl.h over its Fr. */
#include "poly/bn254_domain.h"

#include "field/bn254_fr_names.h"
#define DOM_(name) bn254_domain_##name
#define DOM_MAX_LOG BN254_DOMAIN_MAX_LOG
#include "poly/domain_impl.h"
