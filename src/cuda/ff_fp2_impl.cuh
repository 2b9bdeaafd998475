/* Fp2 = Fp[u] / (u² + 1) on the device, c0 + c1·u: two base-field
 * elements back to back, the layout of the CPU's Fp2 of the same curve
 * (field/fp2.h, field/bn254_tower.h; both curves have p = 3 mod 4, so −1 is
 * a non-residue). A template that ff_fp2.cuh and ff_bn254_fp2.cuh each
 * include once, after defining
 *   F2_(name)   the names of Fp2:  F2_(mul) -> dfp2_mul
 *   FB_(name)   the names of Fp:   FB_(mul) -> dfp_mul
 * The macros are undefined at the end. */

typedef struct {
    FB_(t) c0, c1;
} F2_(t);

static __device__ __forceinline__ void F2_(add)(F2_(t) *r, const F2_(t) *a, const F2_(t) *b)
{
    FB_(add)(&r->c0, &a->c0, &b->c0);
    FB_(add)(&r->c1, &a->c1, &b->c1);
}

static __device__ __forceinline__ void F2_(sub)(F2_(t) *r, const F2_(t) *a, const F2_(t) *b)
{
    FB_(sub)(&r->c0, &a->c0, &b->c0);
    FB_(sub)(&r->c1, &a->c1, &b->c1);
}

static __device__ __forceinline__ void F2_(dbl)(F2_(t) *r, const F2_(t) *a)
{
    FB_(dbl)(&r->c0, &a->c0);
    FB_(dbl)(&r->c1, &a->c1);
}

static __device__ __forceinline__ void F2_(neg)(F2_(t) *r, const F2_(t) *a)
{
    FB_(neg)(&r->c0, &a->c0);
    FB_(neg)(&r->c1, &a->c1);
}

/* Karatsuba, three Fp products: c0 = a0·b0 − a1·b1,
 * c1 = (a0 + a1)(b0 + b1) − a0·b0 − a1·b1. */
static __device__ __forceinline__ void F2_(mul)(F2_(t) *r, const F2_(t) *a, const F2_(t) *b)
{
    FB_(t) t0, t1, sa, sb;
    FB_(mul)(&t0, &a->c0, &b->c0);
    FB_(mul)(&t1, &a->c1, &b->c1);
    FB_(add)(&sa, &a->c0, &a->c1);
    FB_(add)(&sb, &b->c0, &b->c1);
    FB_(mul)(&sa, &sa, &sb);
    FB_(sub)(&r->c0, &t0, &t1);
    FB_(add)(&t0, &t0, &t1);
    FB_(sub)(&r->c1, &sa, &t0);
}

/* Complex squaring, two Fp products: c0 = (a0 + a1)(a0 − a1), c1 = 2·a0·a1. */
static __device__ __forceinline__ void F2_(sqr)(F2_(t) *r, const F2_(t) *a)
{
    FB_(t) s, d, m;
    FB_(add)(&s, &a->c0, &a->c1);
    FB_(sub)(&d, &a->c0, &a->c1);
    FB_(mul)(&m, &a->c0, &a->c1);
    FB_(mul)(&r->c0, &s, &d);
    FB_(dbl)(&r->c1, &m);
}

static __device__ __forceinline__ void F2_(load)(F2_(t) *r, const F2_(t) *g)
{
    FB_(load)(&r->c0, &g->c0);
    FB_(load)(&r->c1, &g->c1);
}

static __device__ __forceinline__ void F2_(store)(F2_(t) *g, const F2_(t) *a)
{
    FB_(store)(&g->c0, &a->c0);
    FB_(store)(&g->c1, &a->c1);
}

#undef F2_
#undef FB_
