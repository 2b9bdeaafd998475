/* The Lagrange basis at τ over BLS12-381's Fr: the template lagrange_impl.h. */
#include "poly/lagrange.h"

#include "field/fr_names.h"
#define LAG_AT poly_lagrange_at
#define LAG_DOMAIN_T domain_t
#define LAG_MAX_LOG DOMAIN_MAX_LOG
#include "poly/lagrange_impl.h"
