/* What the device curve code needs from Fp and Fp2 beyond the field
 * layer: zero tests, constants, inversion (for the benchmark's point
 * generator only) and warp shuffles. Names carry the ec_ prefix so that
 * they never collide with the field layer's own. A template that
 * ec_field.cuh includes once per curve, after defining
 *   EF_(name), EF2_(name)   the names made here: ec_fp_inv, ec_fp2_inv
 *   FB_(name), F2_(name)    the curve's Fp and Fp2: dfp_mul, dfp2_mul
 *   EF_LIMBS, EF_MODULUS    Fp's limbs and p (a brace initializer)
 *   EF_TOP_BIT              the index of the top set bit of p − 2
 * The macros are undefined at the end. */

/* ---- Fp ------------------------------------------------------------------ */

static __device__ __forceinline__ bool EF_(is_zero)(const FB_(t) * a)
{
    uint32_t any = a->l[0];
#pragma unroll
    for (int k = 1; k < EF_LIMBS; k++)
        any |= a->l[k];
    return any == 0;
}

static __device__ __forceinline__ void EF_(set_zero)(FB_(t) * r)
{
#pragma unroll
    for (int k = 0; k < EF_LIMBS; k++)
        r->l[k] = 0;
}

static __device__ __forceinline__ void EF_(set_one)(FB_(t) * r)
{
    FB_(set_one)(r);
}

/* 1/a = a^(p−2) by Fermat (0 for a = 0): EF_TOP_BIT squarings and one
 * multiplication per set bit of p − 2. Slow; used where one inversion
 * amortizes over much other work (the point generator). Out of line and by
 * value, so that callers' variables stay in registers. */
static __device__ __noinline__ FB_(t) EF_(inv_v)(FB_(t) a)
{
    uint32_t e[EF_LIMBS] = EF_MODULUS;
    e[0] -= 2; /* p's low limb is above 2 (both curves): no borrow */
    FB_(t) acc = a;
    for (int bit = EF_TOP_BIT - 1; bit >= 0; bit--) {
        FB_(sqr)(&acc, &acc);
        if ((e[bit >> 5] >> (bit & 31)) & 1)
            FB_(mul)(&acc, &acc, &a);
    }
    return acc;
}

static __device__ __forceinline__ void EF_(inv)(FB_(t) * r, const FB_(t) * a)
{
    *r = EF_(inv_v)(*a);
}

/* 1/a (0 for a = 0) by divsteps (field/limbs_inv_impl.h, the CPU's own
 * code): the limbs of a hold the integer a·R, whose inverse a^−1·R^−1 one
 * Montgomery product with R³ turns into a^−1·R. About a dozen rounds of
 * 62 steps on 64-bit words against Fermat's EF_TOP_BIT squarings, for the
 * batched inversions that amortize one over fewer elements. Variable time:
 * for public values (bases, their sums). Out of line and by value. */
static __device__ __noinline__ FB_(t) EF_(inv_var_v)(FB_(t) a)
{
    const uint32_t m[EF_LIMBS] = EF_MODULUS, r3w[EF_LIMBS] = EF_R3;
    uint64_t w[EF_LIMBS / 2], p[EF_LIMBS / 2], q[EF_LIMBS / 2];
#pragma unroll
    for (int k = 0; k < EF_LIMBS / 2; k++) {
        w[k] = a.l[2 * k] | (uint64_t)a.l[2 * k + 1] << 32;
        p[k] = m[2 * k] | (uint64_t)m[2 * k + 1] << 32;
    }
    limbs_inv_var_impl(q, w, p, EF_LIMBS / 2);
    FB_(t) t, r3;
#pragma unroll
    for (int k = 0; k < EF_LIMBS / 2; k++) {
        t.l[2 * k] = (uint32_t)q[k];
        t.l[2 * k + 1] = (uint32_t)(q[k] >> 32);
    }
#pragma unroll
    for (int k = 0; k < EF_LIMBS; k++)
        r3.l[k] = r3w[k];
    FB_(mul)(&t, &t, &r3);
    return t;
}

static __device__ __forceinline__ void EF_(inv_var)(FB_(t) * r, const FB_(t) * a)
{
    *r = EF_(inv_var_v)(*a);
}

static __device__ __forceinline__ void EF_(shfl_down)(FB_(t) * r, const FB_(t) * a, unsigned delta)
{
#pragma unroll
    for (int k = 0; k < EF_LIMBS; k++)
        r->l[k] = __shfl_down_sync(0xffffffffu, a->l[k], delta);
}

/* ---- Fp2 ----------------------------------------------------------------- */

static __device__ __forceinline__ bool EF2_(is_zero)(const F2_(t) * a)
{
    uint32_t any = 0;
#pragma unroll
    for (int k = 0; k < EF_LIMBS; k++)
        any |= a->c0.l[k] | a->c1.l[k];
    return any == 0;
}

static __device__ __forceinline__ void EF2_(set_zero)(F2_(t) * r)
{
    EF_(set_zero)(&r->c0);
    EF_(set_zero)(&r->c1);
}

static __device__ __forceinline__ void EF2_(set_one)(F2_(t) * r)
{
    FB_(set_one)(&r->c0);
    EF_(set_zero)(&r->c1);
}

/* 1/(c0 + c1·u) = (c0 − c1·u) / (c0² + c1²), since u² = −1. */
static __device__ __forceinline__ void EF2_(inv)(F2_(t) * r, const F2_(t) * a)
{
    FB_(t) t0, t1;
    FB_(sqr)(&t0, &a->c0);
    FB_(sqr)(&t1, &a->c1);
    FB_(add)(&t0, &t0, &t1);
    t0 = EF_(inv_v)(t0);
    FB_(mul)(&r->c0, &a->c0, &t0);
    FB_(mul)(&t1, &a->c1, &t0);
    FB_(neg)(&r->c1, &t1);
}

static __device__ __forceinline__ void EF2_(shfl_down)(F2_(t) * r, const F2_(t) * a, unsigned delta)
{
    EF_(shfl_down)(&r->c0, &a->c0, delta);
    EF_(shfl_down)(&r->c1, &a->c1, delta);
}

#undef EF_
#undef EF2_
#undef FB_
#undef F2_
#undef EF_LIMBS
#undef EF_MODULUS
#undef EF_TOP_BIT
#undef EF_R3
