/* The tower Fp2 = Fp[u]/(u² + 1), Fp6 = Fp2[v]/(v³ − ξ), Fp12 = Fp6[w]/(w² − v),
 * written once for BLS12-381 (ξ = u + 1) and BN254 (ξ = 9 + u): both curves
 * have p = 3 mod 4 and a sextic twist over this tower shape, so only ξ, the
 * Frobenius constants and the curve parameter differ.
 *
 * The templates, each included once per curve after a tower_names_*.h:
 *   fp2_impl.h, fp6_impl.h, fp12_impl.h   the arithmetic
 *   fp12_frobenius_impl.h                 the Frobenius maps
 *   fp12_cyclotomic_impl.h                squaring and powers in GT
 * The names: F1_(name), F1_T, F1_LIMBS, F1_BYTES, F1_MODULUS, F1_ONE_INIT
 * (the base field), F2_, F6_, F12_ with their _T, _TAG, _ZERO, _ONE and
 * F12_BYTES (tower_names_bls12_381.h lists them). The instantiating file
 * supplies what is the curve's: F2_(mul_nonresidue) (times ξ), F1_HALF
 * (1/2), F12_FROB[3][5] (γ_{k,i} = ξ^(i(p^k − 1)/6), γ_{2,i} in Fp) and
 * F12_(cyclotomic_exp_x). The BLS12-381 files (fp2.c ... fp12_cyclotomic.c)
 * include the templates one per file; bn254_tower.c includes this file. */

#include "field/fp2_impl.h"
#include "field/fp6_impl.h"
#include "field/fp12_impl.h"
#include "field/fp12_frobenius_impl.h"
#include "field/fp12_cyclotomic_impl.h"
