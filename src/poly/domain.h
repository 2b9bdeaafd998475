#ifndef CUZK_POLY_DOMAIN_H
#define CUZK_POLY_DOMAIN_H

/* Evaluation domains over Fr: the multiplicative subgroup of order n = 2^k
 * (k <= 32, the 2-adicity of r - 1 = 2^32 * t, t odd), its cosets, and the
 * twiddle tables the NTT reads.
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

#define DOMAIN_MAX_LOG 32u

/* Which quadratic non-residue the 2^32-th root of unity is derived from. */
typedef enum domain_roots {
    DOMAIN_ROOTS_BELLMAN, /* 7^t: bellman, bellperson, blstrs, ec-gpu, sppark */
    DOMAIN_ROOTS_SNARKJS  /* 5^t: ffjavascript / wasmcurves (snarkjs, rapidsnark) */
} domain_roots;

typedef struct domain {
    unsigned log_n; /* k */
    size_t n;       /* 2^k */
    domain_roots roots;
    fr_t omega;        /* primitive n-th root of unity */
    fr_t omega_inv;    /* omega^-1 */
    fr_t n_inv;        /* 1/n */
    fr_t omega_2n;     /* primitive 2n-th root with omega_2n^2 = omega (zero when k = 32) */
    fr_t omega_2n_inv; /* its inverse (zero when k = 32) */
    fr_t shift;        /* coset shift g = 7 */
    fr_t shift_inv;    /* g^-1 */
    fr_t z_coset;      /* Z(x) = x^n - 1 on the coset g<omega>: the constant g^n - 1 */
    fr_t z_coset_inv;  /* 1/(g^n - 1) */
    /* Twiddles, n/2 entries each (none when n = 1), in bit-reversed order:
     * tw[i] = omega^brv(i), tw_inv[i] = omega^-brv(i), brv reversing k-1
     * bits. Stage s of the NTT uses the prefix tw[0 .. 2^s): one twiddle per
     * block, read sequentially, shared by every stage (see ntt.c). */
    fr_t *tw;
    fr_t *tw_inv;
} domain_t;

/* The 2^32-th root of unity of the chosen stack: x^t, x = 7 or 5. */
void domain_root_of_unity_2_32(fr_t *root, domain_roots roots);

/* A primitive 2^log_n-th root of unity of the chosen stack (log_n <= 32):
 * root_2_32^(2^(32 - log_n)). */
void domain_root_of_unity(fr_t *root, unsigned log_n, domain_roots roots);

/* Initialises the smallest domain of size n = 2^k >= min_size (min_size 0 or
 * 1 gives n = 1) and fills its twiddle tables on `threads` threads (0 = all
 * CPUs).
 * Returns CUZK_OK, CUZK_ERR_INVALID_ARGUMENT when min_size > 2^32, or
 * CUZK_ERR_OUT_OF_MEMORY (the tables take n * 32 bytes together).
 * Out: d, to be released with domain_free. */
cuzk_status domain_init(domain_t *d, size_t min_size, domain_roots roots, unsigned threads);

/* Same, for n = 2^log_n exactly (log_n <= 32). */
cuzk_status domain_init_log(domain_t *d, unsigned log_n, domain_roots roots, unsigned threads);

/* Releases the tables; d may be zeroed or already freed. */
void domain_free(domain_t *d);

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
