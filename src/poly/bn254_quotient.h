#ifndef CUZK_POLY_BN254_QUOTIENT_H
#define CUZK_POLY_BN254_QUOTIENT_H

/* The Groth16 quotient over BN254's Fr: quotient.h's functions, the same
 * implementation (quotient_impl.h), with the prefix bn254_poly_ and the
 * domains of bn254_domain.h; snarkjs's coset (POLY_H_COSET_2N_ROOT) needs
 * log_n <= 27. */

#include "field/bn254_fr.h"
#include "poly/bn254_domain.h"
#include "poly/quotient.h"

#define QD_(name) bn254_poly_##name
#define QD_FE_T bn254_fr_t
#define QD_DOMAIN_T bn254_domain_t
#include "poly/quotient_decl.h"

#endif
