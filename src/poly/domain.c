/* BLS12-381's evaluation domains: the template domain_impl.h over Fr. */
#include "poly/domain.h"

#include "field/fr_names.h"
#define DOM_(name) domain_##name
#define DOM_MAX_LOG DOMAIN_MAX_LOG
#include "poly/domain_impl.h"
