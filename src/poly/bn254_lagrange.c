/* The Lagrange basis at τ over BN254's Fr: the template lagrange_impl.h. */
#include "poly/lagrange.h"

#include "field/bn254_fr_names.h"
#define LAG_AT bn254_poly_lagrange_at
#define LAG_DOMAIN_T bn254_domain_t
#define LAG_MAX_LOG BN254_DOMAIN_MAX_LOG
#include "poly/lagrange_impl.h"
