#ifndef CUZK_CUDA_FF_MONT_CUH
#define CUZK_CUDA_FF_MONT_CUH

/* Modular arithmetic on n little-endian 32-bit limbs (n even, n <= 12) for an
 * odd modulus p with 2p < 2^(32n) (BLS12-381: Fp n = 12, Fr n = 8), in
 * Montgomery form with R = 2^(32n). Inputs < p, outputs < p.
 *
 * Every function takes n as a compile-time constant (the callers in
 * ff_fp.cuh / ff_fr.cuh pass a literal): once inlined, every loop unrolls and
 * every array index is a constant, so the arrays live in registers.
 *
 * Multiplication is Montgomery's CIOS (Koç, Acar, Kaliski, "Analyzing and
 * comparing Montgomery multiplication algorithms", IEEE Micro 1996) with the
 * even/odd split of Emmart, Luo, Weems ("Optimizing modular multiplication
 * for NVIDIA's Maxwell GPUs", ARITH 2016): the products a[j]·b[i] of even j
 * occupy disjoint aligned word pairs (j, j+1), those of odd j the pairs
 * (j, j+1) of an accumulator offset by one word, so each half is added by a
 * single unbroken mad.lo/madc.hi carry chain. The running value is
 * T = ev + 2^32·od. */

#include <stdint.h>

#include "cuda/ff_ptx.cuh"

#define FF_MAX_LIMBS 12

/* r = s − p when s >= p, else s (s < 2p). */
static __device__ __forceinline__ void ff_final_sub(uint32_t *r, const uint32_t *s,
                                                    const uint32_t *p, const int n)
{
    uint32_t t[FF_MAX_LIMBS];
    t[0] = ptx_sub_cc(s[0], p[0]);
#pragma unroll
    for (int k = 1; k < n; k++)
        t[k] = ptx_subc_cc(s[k], p[k]);
    const uint32_t borrow = ptx_subc(0, 0); /* all ones when s < p */
#pragma unroll
    for (int k = 0; k < n; k++)
        r[k] = (s[k] & borrow) | (t[k] & ~borrow);
}

static __device__ __forceinline__ void ff_add(uint32_t *r, const uint32_t *a, const uint32_t *b,
                                              const uint32_t *p, const int n)
{
    uint32_t s[FF_MAX_LIMBS];
    s[0] = ptx_add_cc(a[0], b[0]);
#pragma unroll
    for (int k = 1; k < n - 1; k++)
        s[k] = ptx_addc_cc(a[k], b[k]);
    s[n - 1] = ptx_addc(a[n - 1], b[n - 1]); /* a + b < 2p < 2^(32n): no carry out */
    ff_final_sub(r, s, p, n);
}

static __device__ __forceinline__ void ff_sub(uint32_t *r, const uint32_t *a, const uint32_t *b,
                                              const uint32_t *p, const int n)
{
    uint32_t d[FF_MAX_LIMBS];
    d[0] = ptx_sub_cc(a[0], b[0]);
#pragma unroll
    for (int k = 1; k < n; k++)
        d[k] = ptx_subc_cc(a[k], b[k]);
    const uint32_t borrow = ptx_subc(0, 0); /* all ones when a < b: add p back */
    r[0] = ptx_add_cc(d[0], p[0] & borrow);
#pragma unroll
    for (int k = 1; k < n - 1; k++)
        r[k] = ptx_addc_cc(d[k], p[k] & borrow);
    r[n - 1] = ptx_addc(d[n - 1], p[n - 1] & borrow);
}

/* r = p − a, and 0 for a = 0. */
static __device__ __forceinline__ void ff_neg(uint32_t *r, const uint32_t *a, const uint32_t *p,
                                              const int n)
{
    uint32_t any = a[0];
#pragma unroll
    for (int k = 1; k < n; k++)
        any |= a[k];
    const uint32_t mask = any ? 0xffffffffu : 0u;
    uint32_t d[FF_MAX_LIMBS];
    d[0] = ptx_sub_cc(p[0], a[0]);
#pragma unroll
    for (int k = 1; k < n - 1; k++)
        d[k] = ptx_subc_cc(p[k], a[k]);
    d[n - 1] = ptx_subc(p[n - 1], a[n - 1]);
#pragma unroll
    for (int k = 0; k < n; k++)
        r[k] = d[k] & mask;
}

/* One Montgomery step on T = ev + 2^32·od: m = ev[0]·n0 mod 2^32 and
 * T += m·p, which zeroes ev[0]. The odd limbs of p go into od, the even ones
 * into ev; the carry out of ev lands at position n, which is od[n-1]. od
 * cannot carry out: T + m·p < 2^(32(n+1)) by the CIOS bound. */
static __device__ __forceinline__ void ff_redc_step(uint32_t *ev, uint32_t *od, const uint32_t *p,
                                                    uint32_t n0, const int n)
{
    const uint32_t m = ev[0] * n0;
    od[0] = ptx_mad_lo_cc(p[1], m, od[0]);
    od[1] = ptx_madc_hi_cc(p[1], m, od[1]);
#pragma unroll
    for (int j = 2; j < n - 2; j += 2) {
        od[j] = ptx_madc_lo_cc(p[j + 1], m, od[j]);
        od[j + 1] = ptx_madc_hi_cc(p[j + 1], m, od[j + 1]);
    }
    od[n - 2] = ptx_madc_lo_cc(p[n - 1], m, od[n - 2]);
    od[n - 1] = ptx_madc_hi(p[n - 1], m, od[n - 1]);

    ev[0] = ptx_mad_lo_cc(p[0], m, ev[0]);
    ev[1] = ptx_madc_hi_cc(p[0], m, ev[1]);
#pragma unroll
    for (int j = 2; j < n; j += 2) {
        ev[j] = ptx_madc_lo_cc(p[j], m, ev[j]);
        ev[j + 1] = ptx_madc_hi_cc(p[j], m, ev[j + 1]);
    }
    od[n - 1] = ptx_addc(od[n - 1], 0);
}

/* After the last step T = ev + 2^32·od with ev[0] = 0, so T / 2^32 =
 * od + (ev >> 32), which is < 2p; r is that, reduced. */
static __device__ __forceinline__ void
ff_redc_finish(uint32_t *r, const uint32_t *ev, const uint32_t *od, const uint32_t *p, const int n)
{
    uint32_t s[FF_MAX_LIMBS];
    s[0] = ptx_add_cc(od[0], ev[1]);
#pragma unroll
    for (int k = 1; k < n - 1; k++)
        s[k] = ptx_addc_cc(od[k], ev[k + 1]);
    s[n - 1] = ptx_addc(od[n - 1], 0);
    ff_final_sub(r, s, p, n);
}

/* r = a·b·2^(−32n) mod p. r may alias a or b. */
static __device__ __forceinline__ void ff_mont_mul(uint32_t *r, const uint32_t *a,
                                                   const uint32_t *b, const uint32_t *p,
                                                   uint32_t n0, const int n)
{
    uint32_t ev[FF_MAX_LIMBS], od[FF_MAX_LIMBS];

    /* i = 0: T = a·b[0]; the pairs do not overlap, so no carries. */
    uint32_t bi = b[0];
#pragma unroll
    for (int j = 0; j < n; j += 2) {
        ev[j] = a[j] * bi;
        ev[j + 1] = __umulhi(a[j], bi);
        od[j] = a[j + 1] * bi;
        od[j + 1] = __umulhi(a[j + 1], bi);
    }
    ff_redc_step(ev, od, p, n0, n);

#pragma unroll
    for (int i = 1; i < n; i++) {
        bi = b[i];
        /* Divide T by 2^32 while adding a·b[i]. After the division od sits at
         * positions 0..n-1 (it becomes the even accumulator ne) and ev at
         * −1..n-2; ev[1], at position 0, joins ne[0], and ev[2..] becomes the
         * new odd accumulator no (positions 1..), two words down. The carry
         * of ne[0] + ev[1] enters no's chain at position 1. */
        uint32_t ne[FF_MAX_LIMBS], no[FF_MAX_LIMBS];
        ne[0] = ptx_add_cc(od[0], ev[1]);
#pragma unroll
        for (int j = 0; j < n - 2; j += 2) {
            no[j] = ptx_madc_lo_cc(a[j + 1], bi, ev[j + 2]);
            no[j + 1] = ptx_madc_hi_cc(a[j + 1], bi, j + 3 < n ? ev[j + 3] : 0);
        }
        no[n - 2] = ptx_madc_lo_cc(a[n - 1], bi, 0);
        no[n - 1] = ptx_madc_hi(a[n - 1], bi, 0);

        ne[0] = ptx_mad_lo_cc(a[0], bi, ne[0]);
        ne[1] = ptx_madc_hi_cc(a[0], bi, od[1]);
#pragma unroll
        for (int j = 2; j < n; j += 2) {
            ne[j] = ptx_madc_lo_cc(a[j], bi, od[j]);
            ne[j + 1] = ptx_madc_hi_cc(a[j], bi, od[j + 1]);
        }
        no[n - 1] = ptx_addc(no[n - 1], 0);

#pragma unroll
        for (int k = 0; k < n; k++) {
            ev[k] = ne[k];
            od[k] = no[k];
        }
        ff_redc_step(ev, od, p, n0, n);
    }
    ff_redc_finish(r, ev, od, p, n);
}

/* r = a²·2^(−32n) mod p. r may alias a.
 *
 * The square first, by the schoolbook method with each cross product taken
 * once and doubled (Menezes, van Oorschot, Vanstone, Handbook of Applied
 * Cryptography, algorithm 14.16): a² = 2·C + D, C = Σ_{i<j} a_i a_j 2^(32(i+j)),
 * D = Σ a_i² 2^(64i). A cross product of even j − i has its low word at an
 * even position (accumulator E, word k at position k), one of odd j − i at an
 * odd position (accumulator O, word k at position k + 1); within a row i each
 * kind forms one carry chain. That chain's carry out lands on a word that is
 * either still zero or holds only the previous row's carry, so one addc
 * closes it. Then E and O are doubled by funnel shifts and D is added to E.
 *
 * Then, with a² = L + 2^(32n)·H (L the low n positions, H the high ones):
 * a²/R ≡ H + REDC(L) (mod p), REDC(L) = (L + M·p)/R ≤ p + 1 for L < 2R, and
 * H < p/2, so one final subtraction reduces the sum. REDC(L) is the CIOS loop
 * without the products: n Montgomery steps on the windowed E/O pair. */
static __device__ __forceinline__ void ff_mont_sqr(uint32_t *r, const uint32_t *a,
                                                   const uint32_t *p, uint32_t n0, const int n)
{
    uint32_t e[2 * FF_MAX_LIMBS], o[2 * FF_MAX_LIMBS];
#pragma unroll
    for (int k = 0; k < 2 * n; k++) {
        e[k] = 0;
        o[k] = 0;
    }

    /* Cross products, row by row. */
#pragma unroll
    for (int i = 0; i < n - 1; i++) {
        /* Odd j − i: j = i+1, i+3, ...; low word at position i+j = o[i+j-1]. */
        o[2 * i] = ptx_mad_lo_cc(a[i], a[i + 1], o[2 * i]);
        o[2 * i + 1] = ptx_madc_hi_cc(a[i], a[i + 1], o[2 * i + 1]);
        int top = 2 * i + 1; /* last o index written by the chain */
#pragma unroll
        for (int j = i + 3; j < n; j += 2) {
            o[i + j - 1] = ptx_madc_lo_cc(a[i], a[j], o[i + j - 1]);
            o[i + j] = ptx_madc_hi_cc(a[i], a[j], o[i + j]);
            top = i + j;
        }
        o[top + 1] = ptx_addc(o[top + 1], 0);

        /* Even j − i: j = i+2, i+4, ...; low word at position i+j = e[i+j]. */
        if (i + 2 < n) {
            e[2 * i + 2] = ptx_mad_lo_cc(a[i], a[i + 2], e[2 * i + 2]);
            e[2 * i + 3] = ptx_madc_hi_cc(a[i], a[i + 2], e[2 * i + 3]);
            int etop = 2 * i + 3;
#pragma unroll
            for (int j = i + 4; j < n; j += 2) {
                e[i + j] = ptx_madc_lo_cc(a[i], a[j], e[i + j]);
                e[i + j + 1] = ptx_madc_hi_cc(a[i], a[j], e[i + j + 1]);
                etop = i + j + 1;
            }
            e[etop + 1] = ptx_addc(e[etop + 1], 0);
        }
    }

    /* Double (2C < a² < 2^(64n), so no bit leaves E or O) and add D to E. */
#pragma unroll
    for (int k = 2 * n - 1; k > 0; k--) {
        e[k] = __funnelshift_l(e[k - 1], e[k], 1);
        o[k] = __funnelshift_l(o[k - 1], o[k], 1);
    }
    e[0] <<= 1;
    o[0] <<= 1;
    e[0] = ptx_mad_lo_cc(a[0], a[0], e[0]);
    e[1] = ptx_madc_hi_cc(a[0], a[0], e[1]);
#pragma unroll
    for (int i = 1; i < n - 1; i++) {
        e[2 * i] = ptx_madc_lo_cc(a[i], a[i], e[2 * i]);
        e[2 * i + 1] = ptx_madc_hi_cc(a[i], a[i], e[2 * i + 1]);
    }
    e[2 * n - 2] = ptx_madc_lo_cc(a[n - 1], a[n - 1], e[2 * n - 2]);
    e[2 * n - 1] = ptx_madc_hi(a[n - 1], a[n - 1], e[2 * n - 1]);

    /* REDC(L): L = e[0..n-1] + 2^32·o[0..n-2]; o[n-1] (position n) is in H. */
    uint32_t ev[FF_MAX_LIMBS], od[FF_MAX_LIMBS];
#pragma unroll
    for (int k = 0; k < n; k++) {
        ev[k] = e[k];
        od[k] = k < n - 1 ? o[k] : 0;
    }
    ff_redc_step(ev, od, p, n0, n);
#pragma unroll
    for (int i = 1; i < n; i++) {
        /* The division by 2^32 of ff_mont_mul fused with the next step: ne[0]
         * = od[0] + ev[1] fixes m, and its carry enters the chain of the odd
         * limbs of p, which reads ev two words down. */
        uint32_t ne[FF_MAX_LIMBS], no[FF_MAX_LIMBS];
        ne[0] = ptx_add_cc(od[0], ev[1]);
        const uint32_t m = ne[0] * n0;
#pragma unroll
        for (int j = 0; j < n - 2; j += 2) {
            no[j] = ptx_madc_lo_cc(p[j + 1], m, ev[j + 2]);
            no[j + 1] = ptx_madc_hi_cc(p[j + 1], m, j + 3 < n ? ev[j + 3] : 0);
        }
        no[n - 2] = ptx_madc_lo_cc(p[n - 1], m, 0);
        no[n - 1] = ptx_madc_hi(p[n - 1], m, 0);

        ne[0] = ptx_mad_lo_cc(p[0], m, ne[0]);
        ne[1] = ptx_madc_hi_cc(p[0], m, od[1]);
#pragma unroll
        for (int j = 2; j < n; j += 2) {
            ne[j] = ptx_madc_lo_cc(p[j], m, od[j]);
            ne[j + 1] = ptx_madc_hi_cc(p[j], m, od[j + 1]);
        }
        no[n - 1] = ptx_addc(no[n - 1], 0);
#pragma unroll
        for (int k = 0; k < n; k++) {
            ev[k] = ne[k];
            od[k] = no[k];
        }
    }

    /* s = REDC(L) + H, H = e[n..2n-1] + o[n-1..2n-2] (both at positions n..). */
    uint32_t s[FF_MAX_LIMBS];
    s[0] = ptx_add_cc(od[0], ev[1]);
#pragma unroll
    for (int k = 1; k < n - 1; k++)
        s[k] = ptx_addc_cc(od[k], ev[k + 1]);
    s[n - 1] = ptx_addc(od[n - 1], 0);
    s[0] = ptx_add_cc(s[0], e[n]);
#pragma unroll
    for (int k = 1; k < n - 1; k++)
        s[k] = ptx_addc_cc(s[k], e[n + k]);
    s[n - 1] = ptx_addc(s[n - 1], e[2 * n - 1]);
    s[0] = ptx_add_cc(s[0], o[n - 1]);
#pragma unroll
    for (int k = 1; k < n - 1; k++)
        s[k] = ptx_addc_cc(s[k], o[n - 1 + k]);
    s[n - 1] = ptx_addc(s[n - 1], o[2 * n - 2]);
    ff_final_sub(r, s, p, n);
}

#endif
