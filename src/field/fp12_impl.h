/* Fp12 = Fp6[w] / (w² − v): elements c0 + c1·w with c0, c1 in Fp6; w⁶ = ξ.
 * As a vector over Fp2 in powers of w: c0.c0 + c1.c0 w + c0.c1 w² + c1.c1 w³
 * + c0.c2 w⁴ + c1.c2 w⁵. A template (tower_impl.h). */

const F12_T F12_ONE = {{{{F1_ONE_INIT}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}},
                       {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}}};

void F12_(add)(F12_T *r, const F12_T *a, const F12_T *b)
{
    F6_(add)(&r->c0, &a->c0, &b->c0);
    F6_(add)(&r->c1, &a->c1, &b->c1);
}

void F12_(sub)(F12_T *r, const F12_T *a, const F12_T *b)
{
    F6_(sub)(&r->c0, &a->c0, &b->c0);
    F6_(sub)(&r->c1, &a->c1, &b->c1);
}

void F12_(neg)(F12_T *r, const F12_T *a)
{
    F6_(neg)(&r->c0, &a->c0);
    F6_(neg)(&r->c1, &a->c1);
}

/* Karatsuba: c0 = a0 b0 + v a1 b1, c1 = (a0 + a1)(b0 + b1) − a0 b0 − a1 b1
 * (Devegili et al., "Multiplication and squaring on pairing-friendly fields", 2006). */
void F12_(mul)(F12_T *r, const F12_T *a, const F12_T *b)
{
    F6_T t0, t1, s, u;
    F6_(mul)(&t0, &a->c0, &b->c0);
    F6_(mul)(&t1, &a->c1, &b->c1);
    F6_(add)(&s, &a->c0, &a->c1);
    F6_(add)(&u, &b->c0, &b->c1);
    F6_(mul)(&s, &s, &u);
    F6_(sub)(&s, &s, &t0);
    F6_(sub)(&r->c1, &s, &t1);
    F6_(mul_by_v)(&t1, &t1);
    F6_(add)(&r->c0, &t0, &t1);
}

/* Complex squaring: with t = a0 a1,
 * c0 = (a0 + a1)(a0 + v a1) − t − v t, c1 = 2t (Devegili et al. 2006, §3). */
void F12_(sqr)(F12_T *r, const F12_T *a)
{
    F6_T t, s, u;
    F6_(mul)(&t, &a->c0, &a->c1);
    F6_(add)(&s, &a->c0, &a->c1);
    F6_(mul_by_v)(&u, &a->c1);
    F6_(add)(&u, &u, &a->c0);
    F6_(mul)(&s, &s, &u);
    F6_(sub)(&s, &s, &t);
    F6_(mul_by_v)(&u, &t);
    F6_(sub)(&r->c0, &s, &u);
    F6_(dbl)(&r->c1, &t);
}

/* (a0 + a1 w)⁻¹ = (a0 − a1 w) / (a0² − v a1²). */
void F12_(inv)(F12_T *r, const F12_T *a)
{
    F6_T t0, t1;
    F6_(sqr)(&t0, &a->c0);
    F6_(sqr)(&t1, &a->c1);
    F6_(mul_by_v)(&t1, &t1);
    F6_(sub)(&t0, &t0, &t1);
    F6_(inv)(&t0, &t0);
    F6_(mul)(&r->c0, &a->c0, &t0);
    F6_(mul)(&t1, &a->c1, &t0);
    F6_(neg)(&r->c1, &t1);
}

void F12_(conj)(F12_T *r, const F12_T *a)
{
    r->c0 = a->c0;
    F6_(neg)(&r->c1, &a->c1);
}

void F12_(pow_var)(F12_T *r, const F12_T *a, const uint64_t *e, size_t e_limbs)
{
    F12_T acc = F12_ONE, base = *a;
    size_t bits = 64 * e_limbs;
    while (bits > 0 && !((e[(bits - 1) / 64] >> ((bits - 1) % 64)) & 1))
        bits--;
    for (size_t i = bits; i-- > 0;) {
        F12_(sqr)(&acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1)
            F12_(mul)(&acc, &acc, &base);
    }
    *r = acc;
}

/* a · (L0 + L1 w) with L0 = l0 + l1 v and L1 = l4 v: Karatsuba over w with
 * the sparse Fp6 products, 13 Fp2 products instead of 18
 * (Aranha et al., "Faster explicit formulas for computing pairings over
 * ordinary curves", 2011, §4, adapted to the M-type line). */
void F12_(mul_by_014)(F12_T *r, const F12_T *a, const F2_T *l0, const F2_T *l1, const F2_T *l4)
{
    F6_T t0, t1, s;
    F2_T l14;
    F6_(mul_by_01)(&t0, &a->c0, l0, l1);
    F6_(mul_by_1)(&t1, &a->c1, l4);
    F2_(add)(&l14, l1, l4);
    F6_(add)(&s, &a->c0, &a->c1);
    F6_(mul_by_01)(&s, &s, l0, &l14);
    F6_(sub)(&s, &s, &t0);
    F6_(sub)(&r->c1, &s, &t1);
    F6_(mul_by_v)(&t1, &t1);
    F6_(add)(&r->c0, &t0, &t1);
}

/* The same for a line l0 + l3·w + l4·v·w, the shape of a line of the D-type
 * twist (BN254) evaluated at a G1 point (fp12 coefficients 0, 3 and 4):
 * b = B0 + B1 w with B0 = l0 in Fp2 and B1 = l3 + l4 v sparse, so
 *   r = a0 B0 + a1 B1 v + ((a0 + a1)(B0 + B1) − a0 B0 − a1 B1) w. */
void F12_(mul_by_034)(F12_T *r, const F12_T *a, const F2_T *l0, const F2_T *l3, const F2_T *l4)
{
    F6_T t0, t1, s;
    F2_T l03;
    F6_(mul_fp2)(&t0, &a->c0, l0);
    F6_(mul_by_01)(&t1, &a->c1, l3, l4);
    F2_(add)(&l03, l0, l3);
    F6_(add)(&s, &a->c0, &a->c1);
    F6_(mul_by_01)(&s, &s, &l03, l4);
    F6_(sub)(&s, &s, &t0);
    F6_(sub)(&r->c1, &s, &t1);
    F6_(mul_by_v)(&t1, &t1);
    F6_(add)(&r->c0, &t0, &t1);
}

bool F12_(eq)(const F12_T *a, const F12_T *b)
{
    return F6_(eq)(&a->c0, &b->c0) & F6_(eq)(&a->c1, &b->c1);
}

bool F12_(is_one)(const F12_T *a)
{
    return F6_(is_one)(&a->c0) & F6_(is_zero)(&a->c1);
}

bool F12_(is_zero)(const F12_T *a)
{
    return F6_(is_zero)(&a->c0) & F6_(is_zero)(&a->c1);
}

void F12_(cmov)(F12_T *r, const F12_T *a, bool flag)
{
    F6_(cmov)(&r->c0, &a->c0, flag);
    F6_(cmov)(&r->c1, &a->c1, flag);
}

/* The 12 Fp coefficients in encoding order: c0.c0.c0, c0.c0.c1, ... c1.c2.c1. */
static F1_T *coeff(F12_T *a, unsigned i)
{
    F6_T *h = i < 6 ? &a->c0 : &a->c1;
    F2_T *c = (i % 6) < 2 ? &h->c0 : (i % 6) < 4 ? &h->c1 : &h->c2;
    return (i & 1) ? &c->c1 : &c->c0;
}

void F12_(to_bytes_be)(uint8_t out[F12_BYTES], const F12_T *a)
{
    F12_T t = *a;
    for (unsigned i = 0; i < 12; i++)
        F1_(to_bytes_be)(out + i * F1_BYTES, coeff(&t, i));
}

bool F12_(from_bytes_be)(F12_T *r, const uint8_t in[F12_BYTES])
{
    F12_T t;
    bool ok = true;
    for (unsigned i = 0; i < 12; i++)
        ok &= F1_(from_bytes_be)(coeff(&t, i), in + i * F1_BYTES);
    if (ok)
        *r = t;
    return ok;
}

void F12_(random)(F12_T *r, rng_t *rng)
{
    F6_(random)(&r->c0, rng);
    F6_(random)(&r->c1, rng);
}
