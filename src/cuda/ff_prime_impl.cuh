/* One prime field on the device, from ff_mont.cuh's generic arithmetic: a
 * template that ff_fp.cuh, ff_fr.cuh, ff_bn254_fp.cuh and ff_bn254_fr.cuh
 * each include once, after defining
 *   FF_(name)     the field's names: FF_(mul) -> dfp_mul, FF_(t) -> dfp_t
 *   FF_LIMBS      32-bit limbs (a multiple of 4: elements move as uint4)
 *   FF_MODULUS    p, little-endian limbs, as a brace initializer
 *   FF_N0         −p^−1 mod 2^32
 *   FF_ONE        R mod p, R = 2^(32·FF_LIMBS): one in Montgomery form
 * and optionally
 *   FF_TYPE       an existing element type (a struct of FF_LIMBS words l[],
 *                 16-byte aligned) to work on instead of defining FF_(t):
 *                 code compiled once per curve keeps one element type
 * Elements are in Montgomery form and fully reduced, bit for bit the CPU's
 * 64-bit-limb elements of the same field on a little-endian host, 16-byte
 * aligned. Outputs first; they may alias inputs. The macros are undefined
 * at the end. */

#ifndef FF_TYPE
typedef struct {
    alignas(16) uint32_t l[FF_LIMBS];
} FF_(t);
#define FF_TYPE FF_(t)
#endif

static __device__ __forceinline__ void FF_(add)(FF_TYPE *r, const FF_TYPE *a, const FF_TYPE *b)
{
    const uint32_t p[FF_LIMBS] = FF_MODULUS;
    ff_add(r->l, a->l, b->l, p, FF_LIMBS);
}

static __device__ __forceinline__ void FF_(sub)(FF_TYPE *r, const FF_TYPE *a, const FF_TYPE *b)
{
    const uint32_t p[FF_LIMBS] = FF_MODULUS;
    ff_sub(r->l, a->l, b->l, p, FF_LIMBS);
}

static __device__ __forceinline__ void FF_(dbl)(FF_TYPE *r, const FF_TYPE *a)
{
    const uint32_t p[FF_LIMBS] = FF_MODULUS;
    ff_add(r->l, a->l, a->l, p, FF_LIMBS);
}

static __device__ __forceinline__ void FF_(neg)(FF_TYPE *r, const FF_TYPE *a)
{
    const uint32_t p[FF_LIMBS] = FF_MODULUS;
    ff_neg(r->l, a->l, p, FF_LIMBS);
}

static __device__ __forceinline__ void FF_(mul)(FF_TYPE *r, const FF_TYPE *a, const FF_TYPE *b)
{
    const uint32_t p[FF_LIMBS] = FF_MODULUS;
    ff_mont_mul(r->l, a->l, b->l, p, FF_N0, FF_LIMBS);
}

static __device__ __forceinline__ void FF_(sqr)(FF_TYPE *r, const FF_TYPE *a)
{
    const uint32_t p[FF_LIMBS] = FF_MODULUS;
    ff_mont_sqr(r->l, a->l, p, FF_N0, FF_LIMBS);
}

static __device__ __forceinline__ void FF_(set_one)(FF_TYPE *r)
{
    const uint32_t one[FF_LIMBS] = FF_ONE;
#pragma unroll
    for (int k = 0; k < FF_LIMBS; k++)
        r->l[k] = one[k];
}

/* Montgomery form to the integer: REDC(k) = k·1·R^−1. */
static __device__ __forceinline__ void FF_(to_canonical)(FF_TYPE *k)
{
    FF_TYPE one;
    one.l[0] = 1;
#pragma unroll
    for (int j = 1; j < FF_LIMBS; j++)
        one.l[j] = 0;
    FF_(mul)(k, k, &one);
}

/* Global memory <-> registers with 16-byte accesses. */
static __device__ __forceinline__ void FF_(load)(FF_TYPE *r, const FF_TYPE *g)
{
    const uint4 *v = (const uint4 *)g;
#pragma unroll
    for (int k = 0; k < FF_LIMBS / 4; k++) {
        const uint4 w = v[k];
        r->l[4 * k] = w.x;
        r->l[4 * k + 1] = w.y;
        r->l[4 * k + 2] = w.z;
        r->l[4 * k + 3] = w.w;
    }
}

static __device__ __forceinline__ void FF_(store)(FF_TYPE *g, const FF_TYPE *a)
{
    uint4 *v = (uint4 *)g;
#pragma unroll
    for (int k = 0; k < FF_LIMBS / 4; k++)
        v[k] = make_uint4(a->l[4 * k], a->l[4 * k + 1], a->l[4 * k + 2], a->l[4 * k + 3]);
}

#undef FF_
#undef FF_TYPE
#undef FF_LIMBS
#undef FF_MODULUS
#undef FF_N0
#undef FF_ONE
