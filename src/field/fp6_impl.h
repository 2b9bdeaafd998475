/* Fp6 = Fp2[v] / (v³ − ξ): elements c0 + c1·v + c2·v², so a product's v³
 * terms fold back as ξ (F2_(mul_nonresidue)). A template (tower_impl.h);
 * the Frobenius map is in fp12_frobenius_impl.h with its constants. */

const F6_T F6_ZERO = {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};
const F6_T F6_ONE = {{{F1_ONE_INIT}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};

void F6_(add)(F6_T *r, const F6_T *a, const F6_T *b)
{
    F2_(add)(&r->c0, &a->c0, &b->c0);
    F2_(add)(&r->c1, &a->c1, &b->c1);
    F2_(add)(&r->c2, &a->c2, &b->c2);
}

void F6_(sub)(F6_T *r, const F6_T *a, const F6_T *b)
{
    F2_(sub)(&r->c0, &a->c0, &b->c0);
    F2_(sub)(&r->c1, &a->c1, &b->c1);
    F2_(sub)(&r->c2, &a->c2, &b->c2);
}

void F6_(neg)(F6_T *r, const F6_T *a)
{
    F2_(neg)(&r->c0, &a->c0);
    F2_(neg)(&r->c1, &a->c1);
    F2_(neg)(&r->c2, &a->c2);
}

void F6_(dbl)(F6_T *r, const F6_T *a)
{
    F2_(dbl)(&r->c0, &a->c0);
    F2_(dbl)(&r->c1, &a->c1);
    F2_(dbl)(&r->c2, &a->c2);
}

/* Karatsuba over three coefficients: six Fp2 products instead of nine
 * (Devegili, Ó hÉigeartaigh, Scott, Dahab, "Multiplication and squaring on
 * pairing-friendly fields", 2006, §4). */
void F6_(mul)(F6_T *r, const F6_T *a, const F6_T *b)
{
    F2_T t0, t1, t2, s, u, c0, c1, c2;
    F2_(mul)(&t0, &a->c0, &b->c0);
    F2_(mul)(&t1, &a->c1, &b->c1);
    F2_(mul)(&t2, &a->c2, &b->c2);

    /* c0 = t0 + ξ((a1 + a2)(b1 + b2) − t1 − t2) */
    F2_(add)(&s, &a->c1, &a->c2);
    F2_(add)(&u, &b->c1, &b->c2);
    F2_(mul)(&s, &s, &u);
    F2_(sub)(&s, &s, &t1);
    F2_(sub)(&s, &s, &t2);
    F2_(mul_nonresidue)(&s, &s);
    F2_(add)(&c0, &s, &t0);

    /* c1 = (a0 + a1)(b0 + b1) − t0 − t1 + ξ t2 */
    F2_(add)(&s, &a->c0, &a->c1);
    F2_(add)(&u, &b->c0, &b->c1);
    F2_(mul)(&s, &s, &u);
    F2_(sub)(&s, &s, &t0);
    F2_(sub)(&s, &s, &t1);
    F2_(mul_nonresidue)(&u, &t2);
    F2_(add)(&c1, &s, &u);

    /* c2 = (a0 + a2)(b0 + b2) − t0 − t2 + t1 */
    F2_(add)(&s, &a->c0, &a->c2);
    F2_(add)(&u, &b->c0, &b->c2);
    F2_(mul)(&s, &s, &u);
    F2_(sub)(&s, &s, &t0);
    F2_(sub)(&s, &s, &t2);
    F2_(add)(&c2, &s, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* Chung–Hasan SQR2 ("Asymmetric squaring formulae", 2007, §3.2): two
 * products and three squarings. */
void F6_(sqr)(F6_T *r, const F6_T *a)
{
    F2_T s0, s1, s2, s3, s4, t;
    F2_(sqr)(&s0, &a->c0);
    F2_(mul)(&s1, &a->c0, &a->c1);
    F2_(dbl)(&s1, &s1);
    F2_(sub)(&t, &a->c0, &a->c1);
    F2_(add)(&t, &t, &a->c2);
    F2_(sqr)(&s2, &t);
    F2_(mul)(&s3, &a->c1, &a->c2);
    F2_(dbl)(&s3, &s3);
    F2_(sqr)(&s4, &a->c2);

    /* c2 = s1 + s2 + s3 − s0 − s4 */
    F2_(add)(&t, &s1, &s2);
    F2_(add)(&t, &t, &s3);
    F2_(sub)(&t, &t, &s0);
    F2_(sub)(&r->c2, &t, &s4);
    /* c0 = s0 + ξ s3, c1 = s1 + ξ s4 */
    F2_(mul_nonresidue)(&s3, &s3);
    F2_(add)(&r->c0, &s0, &s3);
    F2_(mul_nonresidue)(&s4, &s4);
    F2_(add)(&r->c1, &s1, &s4);
}

/* Inversion through the adjugate: with
 *   t0 = a0² − ξ a1 a2,  t1 = ξ a2² − a0 a1,  t2 = a1² − a0 a2,
 * a · (t0 + t1 v + t2 v²) = a0 t0 + ξ (a2 t1 + a1 t2) ∈ Fp2
 * (Guide to Pairing-Based Cryptography, Algorithm 5.23). */
void F6_(inv)(F6_T *r, const F6_T *a)
{
    F2_T t0, t1, t2, s, d;
    F2_(sqr)(&t0, &a->c0);
    F2_(mul)(&s, &a->c1, &a->c2);
    F2_(mul_nonresidue)(&s, &s);
    F2_(sub)(&t0, &t0, &s);

    F2_(sqr)(&t1, &a->c2);
    F2_(mul_nonresidue)(&t1, &t1);
    F2_(mul)(&s, &a->c0, &a->c1);
    F2_(sub)(&t1, &t1, &s);

    F2_(sqr)(&t2, &a->c1);
    F2_(mul)(&s, &a->c0, &a->c2);
    F2_(sub)(&t2, &t2, &s);

    F2_(mul)(&d, &a->c2, &t1);
    F2_(mul)(&s, &a->c1, &t2);
    F2_(add)(&d, &d, &s);
    F2_(mul_nonresidue)(&d, &d);
    F2_(mul)(&s, &a->c0, &t0);
    F2_(add)(&d, &d, &s);
    F2_(inv)(&d, &d);

    F2_(mul)(&r->c0, &t0, &d);
    F2_(mul)(&r->c1, &t1, &d);
    F2_(mul)(&r->c2, &t2, &d);
}

/* (a0 + a1 v + a2 v²) v = ξ a2 + a0 v + a1 v². */
void F6_(mul_by_v)(F6_T *r, const F6_T *a)
{
    F2_T t;
    F2_(mul_nonresidue)(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/* a · (b0 + b1 v): five Fp2 products by Karatsuba on the two nonzero terms. */
void F6_(mul_by_01)(F6_T *r, const F6_T *a, const F2_T *b0, const F2_T *b1)
{
    F2_T t0, t1, s, u, c0, c1, c2;
    F2_(mul)(&t0, &a->c0, b0);
    F2_(mul)(&t1, &a->c1, b1);

    /* c0 = t0 + ξ a2 b1 */
    F2_(mul)(&s, &a->c2, b1);
    F2_(mul_nonresidue)(&s, &s);
    F2_(add)(&c0, &s, &t0);

    /* c1 = (a0 + a1)(b0 + b1) − t0 − t1 */
    F2_(add)(&s, &a->c0, &a->c1);
    F2_(add)(&u, b0, b1);
    F2_(mul)(&s, &s, &u);
    F2_(sub)(&s, &s, &t0);
    F2_(sub)(&c1, &s, &t1);

    /* c2 = t1 + a2 b0 */
    F2_(mul)(&s, &a->c2, b0);
    F2_(add)(&c2, &s, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* a · b1 v = ξ a2 b1 + a0 b1 v + a1 b1 v². */
void F6_(mul_by_1)(F6_T *r, const F6_T *a, const F2_T *b1)
{
    F2_T c0, c1, c2;
    F2_(mul)(&c0, &a->c2, b1);
    F2_(mul_nonresidue)(&c0, &c0);
    F2_(mul)(&c1, &a->c0, b1);
    F2_(mul)(&c2, &a->c1, b1);
    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void F6_(mul_fp2)(F6_T *r, const F6_T *a, const F2_T *b)
{
    F2_(mul)(&r->c0, &a->c0, b);
    F2_(mul)(&r->c1, &a->c1, b);
    F2_(mul)(&r->c2, &a->c2, b);
}

bool F6_(eq)(const F6_T *a, const F6_T *b)
{
    return F2_(eq)(&a->c0, &b->c0) & F2_(eq)(&a->c1, &b->c1) & F2_(eq)(&a->c2, &b->c2);
}

bool F6_(is_zero)(const F6_T *a)
{
    return F2_(is_zero)(&a->c0) & F2_(is_zero)(&a->c1) & F2_(is_zero)(&a->c2);
}

bool F6_(is_one)(const F6_T *a)
{
    return F2_(is_one)(&a->c0) & F2_(is_zero)(&a->c1) & F2_(is_zero)(&a->c2);
}

void F6_(cmov)(F6_T *r, const F6_T *a, bool flag)
{
    F2_(cmov)(&r->c0, &a->c0, flag);
    F2_(cmov)(&r->c1, &a->c1, flag);
    F2_(cmov)(&r->c2, &a->c2, flag);
}

void F6_(random)(F6_T *r, rng_t *rng)
{
    F2_(random)(&r->c0, rng);
    F2_(random)(&r->c1, rng);
    F2_(random)(&r->c2, rng);
}
