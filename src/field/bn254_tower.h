#ifndef CUZK_FIELD_BN254_TOWER_H
#define CUZK_FIELD_BN254_TOWER_H

/* The BN254 tower, the same shape as BLS12-381's (fp2.h, fp6.h, fp12.h)
 * with another ξ:
 *   Fp2  = Fp[u]  / (u² + 1)
 *   Fp6  = Fp2[v] / (v³ − ξ),  ξ = 9 + u
 *   Fp12 = Fp6[w] / (w² − v)
 * (the tower of snarkjs, EIP-197 and @noble/curves). The types and functions
 * are those of the BLS12-381 tower with the prefix bn254_ (bn254_fp2_mul,
 * bn254_fp12_frobenius, ...), declared once in fp2_decl.h, fp6_decl.h and
 * fp12_decl.h and instantiated in bn254_tower.c from the same templates. */

#include "field/bn254_fp.h"

/* 12 Fp coefficients of 32 bytes: c0.c0.c0 c0.c0.c1 c0.c1.c0 … c1.c2.c1. */
#define BN254_FP12_BYTES (12 * BN254_FP_BYTES)

#include "field/tower_names_bn254.h"
#include "field/fp2_decl.h"
#include "field/fp6_decl.h"
#include "field/fp12_decl.h"
#include "field/tower_names_undef.h"

/* BN254_FP12_FROB[k − 1][i − 1] = γ_{k,i} = ξ^(i(p^k − 1)/6), k = 1..3,
 * i = 1..5, the constants of the Frobenius maps (Montgomery form); the
 * pairing's Frobenius on the twist uses γ_{k,2} and γ_{k,3}. */
extern const bn254_fp2_t BN254_FP12_FROB[3][5];

#endif
