#ifndef CUZK_POLY_DOMAIN_H
#define CUZK_POLY_DOMAIN_H

/* Evaluation domains over Fr: the multiplicative subgroup of order n = 2^k
 * (k <= 32, the 2-adicity of r - 1 = 2^32 * t, t odd), its cosets, and the
 * twiddle tables the NTT reads. BN254's Fr has the same (bn254_domain.h,
 * k <= 28), from the same implementation (domain_impl.h); the paragraph
 * below holds for it too, with BN254's r: 5 and 7 are both non-residues.
 *
 * The primitive 2^32-th root of unity is x^t for a quadratic non-residue x
 * (x^((r-1)/2) = -1 makes x^t of order exactly 2^32). Two stacks pick x
 * differently, and the NTT order of every proving key depends on it:
 *  - bellman / bellperson / blstrs (Filecoin): x = 7, the field's
 *    multiplicative generator (blstrs Scalar::ROOT_OF_UNITY = 7^t);
 *  - snarkjs (ffjavascript / wasmcurves): x = the smallest quadratic
 *    non-residue found counting up from 2, which for this r is 5, not 7.
 * The coset shift is g = 7 in both cases (bellman's coset_fft); snarkjs
 * itself never shifts by g, it uses the "odd" coset w_2n * <w_n> (see
 * poly_h.h). */

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "field/fr.h"

/* BLS12-381's r − 1 = 2^32 · t; BN254's two-adicity is 28
 * (BN254_DOMAIN_MAX_LOG). */
#define DOMAIN_MAX_LOG 32u

/* Which quadratic non-residue the 2^32-th root of unity is derived from. */
typedef enum domain_roots {
    DOMAIN_ROOTS_BELLMAN, /* 7^t: bellman, bellperson, blstrs, ec-gpu, sppark */
    DOMAIN_ROOTS_SNARKJS  /* 5^t: ffjavascript / wasmcurves (snarkjs, rapidsnark) */
} domain_roots;

#define DD_(name) domain_##name
#define DD_FE_T fr_t
#define DD_MAX_LOG DOMAIN_MAX_LOG
#include "poly/domain_decl.h"
#include "poly/domain_decl_undef.h"

/* Reverses the low `bits` bits of x. */
static inline uint64_t domain_bit_reverse(uint64_t x, unsigned bits)
{
    if (bits == 0)
        return 0;
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    x = ((x >> 8) & 0x00FF00FF00FF00FFULL) | ((x & 0x00FF00FF00FF00FFULL) << 8);
    x = ((x >> 16) & 0x0000FFFF0000FFFFULL) | ((x & 0x0000FFFF0000FFFFULL) << 16);
    x = (x >> 32) | (x << 32);
    return x >> (64 - bits);
}

#endif
