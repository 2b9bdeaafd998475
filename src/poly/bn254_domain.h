#ifndef CUZK_POLY_BN254_DOMAIN_H
#define CUZK_POLY_BN254_DOMAIN_H

/* Evaluation domains over BN254's Fr (r − 1 = 2^28 · t): domain.h's
 * domains, the same implementation, with the prefix bn254_domain_ and
 * n = 2^k for k <= 28. snarkjs's roots (DOMAIN_ROOTS_SNARKJS) are 5^t,
 * ffjavascript's for bn128; the coset shift is 7. */

#include "field/bn254_fr.h"
#include "poly/domain.h"

#define BN254_DOMAIN_MAX_LOG 28u

#define DD_(name) bn254_domain_##name
#define DD_FE_T bn254_fr_t
#define DD_MAX_LOG BN254_DOMAIN_MAX_LOG
#include "poly/domain_decl.h"
#include "poly/domain_decl_undef.h"

#endif
