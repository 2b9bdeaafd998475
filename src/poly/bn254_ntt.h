#ifndef CUZK_POLY_BN254_NTT_H
#define CUZK_POLY_BN254_NTT_H

/* Number-theoretic transforms over BN254's Fr: ntt.h's transforms, the same
 * implementation (ntt_impl.h), with the prefix bn254_ntt_ and domains of
 * bn254_domain.h. */

#include "field/bn254_fr.h"
#include "poly/bn254_domain.h"
#include "poly/ntt.h"

#define ND_(name) bn254_ntt_##name
#define ND_FE_T bn254_fr_t
#define ND_DOMAIN_T bn254_domain_t
#include "poly/ntt_decl.h"

#endif
