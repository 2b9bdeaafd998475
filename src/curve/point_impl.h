/* The group law of y² = x³ + b (a = 0) in affine, Jacobian and XYZZ
 * coordinates, written once for G1 (over Fp) and G2 (over Fp2) of
 * BLS12-381 and BN254.
 *
 * A template: g1.c, g2.c, bn254_g1.c and bn254_g2.c each include it once,
 * after defining
 *   PT_(name)   point-level names:  PT_(jac_add) -> g1_jac_add
 *   FE_(name)   field-level names:  FE_(mul)     -> fp_mul
 *   FE_T, FE_ZERO, FE_ONE           the field type and its constants
 *   CURVE_B                         a const FE_T, the b of the curve
 * Costs are in multiplications (M) and squarings (S) of that field.
 *
 * Functions without _var run in constant time: special cases (infinity,
 * P = Q, P = −Q) are resolved by computing every needed value and selecting
 * with fe_cmov. The _var functions branch on them and use the cheapest
 * formulas; they are for public points (MSM buckets, verification). */

#define AFF_T PT_(affine_t)
#define JAC_T PT_(jac_t)
#define XYZZ_T PT_(xyzz_t)

#define fe_add FE_(add)
#define fe_sub FE_(sub)
#define fe_neg FE_(neg)
#define fe_dbl FE_(dbl)
#define fe_mul FE_(mul)
#define fe_sqr FE_(sqr)
#define fe_inv FE_(inv)
#define fe_inv_var FE_(inv_var)
#define fe_sqrt FE_(sqrt)
#define fe_eq FE_(eq)
#define fe_is_zero FE_(is_zero)
#define fe_cmov FE_(cmov)
#define fe_is_lex_largest FE_(is_lex_largest)
#define fe_to_bytes_be FE_(to_bytes_be)
#define fe_from_bytes_be FE_(from_bytes_be)

/* r = 3a by two additions (cheaper than fe_mul_small). */
static inline void fe_triple(FE_T *r, const FE_T *a)
{
    FE_T t;
    fe_dbl(&t, a);
    fe_add(r, &t, a);
}

/* ---------------------------------------------------------------- affine */

void PT_(affine_set_infinity)(AFF_T *r)
{
    r->x = FE_ZERO;
    r->y = FE_ZERO;
    r->infinity = true;
}

bool PT_(affine_eq)(const AFF_T *a, const AFF_T *b)
{
    bool same = fe_eq(&a->x, &b->x) & fe_eq(&a->y, &b->y);
    bool finite = !a->infinity & !b->infinity;
    return (a->infinity & b->infinity) | (finite & same);
}

void PT_(affine_neg)(AFF_T *r, const AFF_T *a)
{
    r->x = a->x;
    fe_neg(&r->y, &a->y);
    r->infinity = a->infinity;
}

/* rhs = x³ + b */
static void curve_rhs(FE_T *rhs, const FE_T *x)
{
    fe_sqr(rhs, x);
    fe_mul(rhs, rhs, x);
    fe_add(rhs, rhs, &CURVE_B);
}

bool PT_(affine_is_on_curve)(const AFF_T *a)
{
    FE_T lhs, rhs;
    fe_sqr(&lhs, &a->y);
    curve_rhs(&rhs, &a->x);
    return a->infinity | fe_eq(&lhs, &rhs);
}

/* ---------------------------------------------------------------- Jacobian */

static void jac_cmov(JAC_T *r, const JAC_T *a, bool flag)
{
    fe_cmov(&r->x, &a->x, flag);
    fe_cmov(&r->y, &a->y, flag);
    fe_cmov(&r->z, &a->z, flag);
}

void PT_(jac_set_infinity)(JAC_T *r)
{
    r->x = FE_ONE;
    r->y = FE_ONE;
    r->z = FE_ZERO;
}

bool PT_(jac_is_infinity)(const JAC_T *a)
{
    return fe_is_zero(&a->z);
}

void PT_(jac_from_affine)(JAC_T *r, const AFF_T *a)
{
    bool inf = a->infinity;
    r->x = a->x;
    r->y = a->y;
    r->z = FE_ONE;
    fe_cmov(&r->x, &FE_ONE, inf);
    fe_cmov(&r->y, &FE_ONE, inf);
    fe_cmov(&r->z, &FE_ZERO, inf);
}

void PT_(jac_to_affine)(AFF_T *r, const JAC_T *a)
{
    /* fe_inv(0) = 0, so infinity comes out as (0, 0) with the flag set. */
    FE_T zi, zi2, zi3;
    bool inf = fe_is_zero(&a->z);
    fe_inv(&zi, &a->z);
    fe_sqr(&zi2, &zi);
    fe_mul(&zi3, &zi2, &zi);
    fe_mul(&r->x, &a->x, &zi2);
    fe_mul(&r->y, &a->y, &zi3);
    r->infinity = inf;
}

bool PT_(jac_eq)(const JAC_T *a, const JAC_T *b)
{
    /* X1·Z2² = X2·Z1² and Y1·Z2³ = Y2·Z1³. */
    FE_T z1z1, z2z2, u1, u2, s1, s2;
    bool inf1 = fe_is_zero(&a->z), inf2 = fe_is_zero(&b->z);
    fe_sqr(&z1z1, &a->z);
    fe_sqr(&z2z2, &b->z);
    fe_mul(&u1, &a->x, &z2z2);
    fe_mul(&u2, &b->x, &z1z1);
    fe_mul(&s1, &a->y, &b->z);
    fe_mul(&s1, &s1, &z2z2);
    fe_mul(&s2, &b->y, &a->z);
    fe_mul(&s2, &s2, &z1z1);
    bool same = fe_eq(&u1, &u2) & fe_eq(&s1, &s2);
    return (inf1 & inf2) | (!inf1 & !inf2 & same);
}

void PT_(jac_neg)(JAC_T *r, const JAC_T *a)
{
    r->x = a->x;
    fe_neg(&r->y, &a->y);
    r->z = a->z;
}

void PT_(jac_dbl)(JAC_T *r, const JAC_T *a)
{
    /* EFD g1p/shortw/jacobian-0 "dbl-2009-l": 2M + 5S. Z = 0 stays 0. */
    FE_T A, B, C, D, E, F, z3;
    fe_mul(&z3, &a->y, &a->z);
    fe_dbl(&z3, &z3);
    fe_sqr(&A, &a->x);
    fe_sqr(&B, &a->y);
    fe_sqr(&C, &B);
    fe_add(&D, &a->x, &B);
    fe_sqr(&D, &D);
    fe_sub(&D, &D, &A);
    fe_sub(&D, &D, &C);
    fe_dbl(&D, &D);
    fe_triple(&E, &A);
    fe_sqr(&F, &E);
    fe_sub(&r->x, &F, &D);
    fe_sub(&r->x, &r->x, &D);
    fe_sub(&D, &D, &r->x);
    fe_mul(&r->y, &E, &D);
    fe_dbl(&C, &C);
    fe_dbl(&C, &C);
    fe_dbl(&C, &C);
    fe_sub(&r->y, &r->y, &C);
    r->z = z3;
}

/* The second half of the unified addition, shared by jac_add and
 * jac_add_mixed. With the chord inputs (H = U2 − U1, R = S2 − S1, zz = Z1·Z2)
 * it is add-1998-cmo: X3 = R² − H²(U1 + U2) = R² − 2·U1·H² − H³,
 * Y3 = R(U1·H² − X3) − S1·H³, Z3 = zz·H. With the tangent inputs
 * (H = 2Y1, R = 3X1², U1 = X1, S1 = Y1, zz = Z1) and the H³ term of X3
 * dropped (U2 = U1 there), the same lines are dbl-1998-cmo-2. 4M + 2S. */
static void jac_add_finish(JAC_T *r, const FE_T *h, const FE_T *rr, const FE_T *u1, const FE_T *s1,
                           const FE_T *zz, bool tangent)
{
    FE_T hh, hhh, v, t;
    fe_sqr(&hh, h);
    fe_mul(&hhh, &hh, h);
    fe_mul(&v, u1, &hh);
    fe_sqr(&r->x, rr);
    fe_sub(&r->x, &r->x, &v);
    fe_sub(&r->x, &r->x, &v);
    fe_sub(&t, &r->x, &hhh);
    fe_cmov(&r->x, &t, !tangent);
    fe_sub(&v, &v, &r->x);
    fe_mul(&r->y, rr, &v);
    fe_mul(&t, s1, &hhh);
    fe_sub(&r->y, &r->y, &t);
    fe_mul(&r->z, zz, h);
}

void PT_(jac_add)(JAC_T *r, const JAC_T *a, const JAC_T *b)
{
    /* Unified, constant time: chord or tangent inputs chosen by cmov, see
     * jac_add_finish. 12M + 5S (add-2007-bl alone is 11M + 5S). */
    FE_T z1z1, z2z2, u1, u2, s1, s2, zz, h, rr, t;
    JAC_T out;
    fe_sqr(&z1z1, &a->z);
    fe_sqr(&z2z2, &b->z);
    fe_mul(&u1, &a->x, &z2z2);
    fe_mul(&u2, &b->x, &z1z1);
    fe_mul(&s1, &a->y, &b->z);
    fe_mul(&s1, &s1, &z2z2);
    fe_mul(&s2, &b->y, &a->z);
    fe_mul(&s2, &s2, &z1z1);
    fe_mul(&zz, &a->z, &b->z);
    fe_sub(&h, &u2, &u1);
    fe_sub(&rr, &s2, &s1);
    bool tangent = fe_is_zero(&h) & fe_is_zero(&rr);
    fe_dbl(&t, &a->y);
    fe_cmov(&h, &t, tangent);
    fe_sqr(&t, &a->x);
    fe_triple(&t, &t);
    fe_cmov(&rr, &t, tangent);
    fe_cmov(&u1, &a->x, tangent);
    fe_cmov(&s1, &a->y, tangent);
    fe_cmov(&zz, &a->z, tangent);
    jac_add_finish(&out, &h, &rr, &u1, &s1, &zz, tangent);
    jac_cmov(&out, a, fe_is_zero(&b->z));
    jac_cmov(&out, b, fe_is_zero(&a->z));
    *r = out;
}

void PT_(jac_add_mixed)(JAC_T *r, const JAC_T *a, const AFF_T *b)
{
    /* Unified, constant time, Z2 = 1: 8M + 4S (madd-2007-bl alone is
     * 7M + 4S). */
    FE_T z1z1, u2, s2, h, rr, t;
    JAC_T out, bj;
    fe_sqr(&z1z1, &a->z);
    fe_mul(&u2, &b->x, &z1z1);
    fe_mul(&s2, &b->y, &a->z);
    fe_mul(&s2, &s2, &z1z1);
    fe_sub(&h, &u2, &a->x);
    fe_sub(&rr, &s2, &a->y);
    bool tangent = fe_is_zero(&h) & fe_is_zero(&rr);
    fe_dbl(&t, &a->y);
    fe_cmov(&h, &t, tangent);
    fe_sqr(&t, &a->x);
    fe_triple(&t, &t);
    fe_cmov(&rr, &t, tangent);
    jac_add_finish(&out, &h, &rr, &a->x, &a->y, &a->z, tangent);
    jac_cmov(&out, a, b->infinity);
    PT_(jac_from_affine)(&bj, b);
    jac_cmov(&out, &bj, fe_is_zero(&a->z));
    *r = out;
}

void PT_(jac_add_var)(JAC_T *r, const JAC_T *a, const JAC_T *b)
{
    /* EFD g1p/shortw/jacobian-0 "add-2007-bl": 11M + 5S. */
    if (fe_is_zero(&a->z)) {
        *r = *b;
        return;
    }
    if (fe_is_zero(&b->z)) {
        *r = *a;
        return;
    }
    FE_T z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    fe_sqr(&z1z1, &a->z);
    fe_sqr(&z2z2, &b->z);
    fe_mul(&u1, &a->x, &z2z2);
    fe_mul(&u2, &b->x, &z1z1);
    fe_mul(&s1, &a->y, &b->z);
    fe_mul(&s1, &s1, &z2z2);
    fe_mul(&s2, &b->y, &a->z);
    fe_mul(&s2, &s2, &z1z1);
    fe_sub(&h, &u2, &u1);
    fe_sub(&rr, &s2, &s1);
    if (fe_is_zero(&h)) {
        if (fe_is_zero(&rr))
            PT_(jac_dbl)(r, a);
        else
            PT_(jac_set_infinity)(r);
        return;
    }
    fe_dbl(&i, &h);
    fe_sqr(&i, &i);
    fe_mul(&j, &h, &i);
    fe_dbl(&rr, &rr);
    fe_mul(&v, &u1, &i);
    fe_add(&t, &a->z, &b->z); /* Z3 before X3, Y3: r may alias a or b */
    fe_sqr(&t, &t);
    fe_sub(&t, &t, &z1z1);
    fe_sub(&t, &t, &z2z2);
    fe_mul(&r->z, &t, &h);
    fe_sqr(&r->x, &rr);
    fe_sub(&r->x, &r->x, &j);
    fe_sub(&r->x, &r->x, &v);
    fe_sub(&r->x, &r->x, &v);
    fe_sub(&v, &v, &r->x);
    fe_mul(&v, &v, &rr);
    fe_mul(&t, &s1, &j);
    fe_dbl(&t, &t);
    fe_sub(&r->y, &v, &t);
}

void PT_(jac_add_mixed_var)(JAC_T *r, const JAC_T *a, const AFF_T *b)
{
    /* EFD g1p/shortw/jacobian-0 "madd-2007-bl": 7M + 4S. */
    if (b->infinity) {
        *r = *a;
        return;
    }
    if (fe_is_zero(&a->z)) {
        PT_(jac_from_affine)(r, b);
        return;
    }
    FE_T z1z1, u2, s2, h, hh, i, j, rr, v, t;
    fe_sqr(&z1z1, &a->z);
    fe_mul(&u2, &b->x, &z1z1);
    fe_mul(&s2, &b->y, &a->z);
    fe_mul(&s2, &s2, &z1z1);
    fe_sub(&h, &u2, &a->x);
    fe_sub(&rr, &s2, &a->y);
    if (fe_is_zero(&h)) {
        if (fe_is_zero(&rr))
            PT_(jac_dbl)(r, a);
        else
            PT_(jac_set_infinity)(r);
        return;
    }
    fe_sqr(&hh, &h);
    fe_dbl(&i, &hh);
    fe_dbl(&i, &i);
    fe_mul(&j, &h, &i);
    fe_dbl(&rr, &rr);
    fe_mul(&v, &a->x, &i);
    fe_mul(&t, &a->y, &j);
    fe_dbl(&t, &t); /* 2·Y1·J, before r->y is written */
    fe_add(&r->z, &a->z, &h);
    fe_sqr(&r->z, &r->z);
    fe_sub(&r->z, &r->z, &z1z1);
    fe_sub(&r->z, &r->z, &hh);
    fe_sqr(&r->x, &rr);
    fe_sub(&r->x, &r->x, &j);
    fe_sub(&r->x, &r->x, &v);
    fe_sub(&r->x, &r->x, &v);
    fe_sub(&v, &v, &r->x);
    fe_mul(&v, &v, &rr);
    fe_sub(&r->y, &v, &t);
}

/* ---------------------------------------------------------------- XYZZ */

static void xyzz_cmov(XYZZ_T *r, const XYZZ_T *a, bool flag)
{
    fe_cmov(&r->x, &a->x, flag);
    fe_cmov(&r->y, &a->y, flag);
    fe_cmov(&r->zz, &a->zz, flag);
    fe_cmov(&r->zzz, &a->zzz, flag);
}

void PT_(xyzz_set_infinity)(XYZZ_T *r)
{
    r->x = FE_ONE;
    r->y = FE_ONE;
    r->zz = FE_ZERO;
    r->zzz = FE_ZERO;
}

bool PT_(xyzz_is_infinity)(const XYZZ_T *a)
{
    return fe_is_zero(&a->zz);
}

void PT_(xyzz_from_affine)(XYZZ_T *r, const AFF_T *a)
{
    bool inf = a->infinity;
    r->x = a->x;
    r->y = a->y;
    r->zz = FE_ONE;
    r->zzz = FE_ONE;
    fe_cmov(&r->x, &FE_ONE, inf);
    fe_cmov(&r->y, &FE_ONE, inf);
    fe_cmov(&r->zz, &FE_ZERO, inf);
    fe_cmov(&r->zzz, &FE_ZERO, inf);
}

void PT_(xyzz_to_jac)(JAC_T *r, const XYZZ_T *a)
{
    /* Z = ZZZ: x = X·ZZ²/ZZZ² = X/ZZ and y = Y·ZZZ²/ZZZ³ (ZZ³ = ZZZ²). 2M + 2S. */
    FE_T t;
    fe_sqr(&t, &a->zz);
    fe_mul(&r->x, &a->x, &t);
    fe_sqr(&t, &a->zzz);
    fe_mul(&r->y, &a->y, &t);
    r->z = a->zzz;
}

void PT_(xyzz_to_affine)(AFF_T *r, const XYZZ_T *a)
{
    /* t = 1/ZZZ; 1/ZZ = (t·ZZ)². One inversion, 3M + 1S. */
    FE_T t, u;
    bool inf = fe_is_zero(&a->zz);
    fe_inv(&t, &a->zzz);
    fe_mul(&u, &t, &a->zz);
    fe_sqr(&u, &u);
    fe_mul(&r->x, &a->x, &u);
    fe_mul(&r->y, &a->y, &t);
    fe_cmov(&r->x, &FE_ZERO, inf);
    fe_cmov(&r->y, &FE_ZERO, inf);
    r->infinity = inf;
}

void PT_(xyzz_dbl)(XYZZ_T *r, const XYZZ_T *a)
{
    /* EFD g1p/shortw/xyzz "dbl-2008-s-1" (a = 0): 6M + 3S. ZZ = 0 stays 0. */
    FE_T u, v, w, s, m, t;
    fe_dbl(&u, &a->y);
    fe_sqr(&v, &u);
    fe_mul(&w, &u, &v);
    fe_mul(&s, &a->x, &v);
    fe_sqr(&m, &a->x);
    fe_triple(&m, &m);
    fe_mul(&t, &w, &a->y);
    fe_mul(&r->zz, &v, &a->zz);
    fe_mul(&r->zzz, &w, &a->zzz);
    fe_sqr(&r->x, &m);
    fe_sub(&r->x, &r->x, &s);
    fe_sub(&r->x, &r->x, &s);
    fe_sub(&s, &s, &r->x);
    fe_mul(&r->y, &m, &s);
    fe_sub(&r->y, &r->y, &t);
}

/* The second half of the XYZZ additions. Chord inputs (P = U2 − U1,
 * R = S2 − S1, zz = ZZ1·ZZ2, zzz = ZZZ1·ZZZ2): add-2008-s,
 * X3 = R² − P³ − 2·U1·P², Y3 = R(U1·P² − X3) − S1·P³, ZZ3 = zz·P²,
 * ZZZ3 = zzz·P³. Tangent inputs (P = 2Y1, R = 3X1², U1 = X1, S1 = Y1,
 * zz = ZZ1, zzz = ZZZ1) without the P³ term of X3: dbl-2008-s-1. 6M + 2S. */
static void xyzz_add_finish(XYZZ_T *r, const FE_T *p, const FE_T *rr, const FE_T *u1,
                            const FE_T *s1, const FE_T *zz, const FE_T *zzz, bool tangent)
{
    FE_T pp, ppp, q, t;
    fe_sqr(&pp, p);
    fe_mul(&ppp, &pp, p);
    fe_mul(&q, u1, &pp);
    fe_mul(&r->zz, zz, &pp);
    fe_mul(&r->zzz, zzz, &ppp);
    fe_sqr(&r->x, rr);
    fe_sub(&r->x, &r->x, &q);
    fe_sub(&r->x, &r->x, &q);
    fe_sub(&t, &r->x, &ppp);
    fe_cmov(&r->x, &t, !tangent);
    fe_sub(&q, &q, &r->x);
    fe_mul(&r->y, rr, &q);
    fe_mul(&t, s1, &ppp);
    fe_sub(&r->y, &r->y, &t);
}

void PT_(xyzz_add)(XYZZ_T *r, const XYZZ_T *a, const XYZZ_T *b)
{
    /* Unified, constant time: 12M + 3S (add-2008-s alone is 12M + 2S). */
    FE_T u1, u2, s1, s2, zz, zzz, p, rr, t;
    XYZZ_T out;
    fe_mul(&u1, &a->x, &b->zz);
    fe_mul(&u2, &b->x, &a->zz);
    fe_mul(&s1, &a->y, &b->zzz);
    fe_mul(&s2, &b->y, &a->zzz);
    fe_mul(&zz, &a->zz, &b->zz);
    fe_mul(&zzz, &a->zzz, &b->zzz);
    fe_sub(&p, &u2, &u1);
    fe_sub(&rr, &s2, &s1);
    bool tangent = fe_is_zero(&p) & fe_is_zero(&rr);
    fe_dbl(&t, &a->y);
    fe_cmov(&p, &t, tangent);
    fe_sqr(&t, &a->x);
    fe_triple(&t, &t);
    fe_cmov(&rr, &t, tangent);
    fe_cmov(&u1, &a->x, tangent);
    fe_cmov(&s1, &a->y, tangent);
    fe_cmov(&zz, &a->zz, tangent);
    fe_cmov(&zzz, &a->zzz, tangent);
    xyzz_add_finish(&out, &p, &rr, &u1, &s1, &zz, &zzz, tangent);
    xyzz_cmov(&out, a, fe_is_zero(&b->zz));
    xyzz_cmov(&out, b, fe_is_zero(&a->zz));
    *r = out;
}

void PT_(xyzz_add_mixed)(XYZZ_T *r, const XYZZ_T *a, const AFF_T *b)
{
    /* Unified, constant time: 8M + 3S (madd-2008-s alone is 8M + 2S). */
    FE_T u2, s2, p, rr, t;
    XYZZ_T out, bx;
    fe_mul(&u2, &b->x, &a->zz);
    fe_mul(&s2, &b->y, &a->zzz);
    fe_sub(&p, &u2, &a->x);
    fe_sub(&rr, &s2, &a->y);
    bool tangent = fe_is_zero(&p) & fe_is_zero(&rr);
    fe_dbl(&t, &a->y);
    fe_cmov(&p, &t, tangent);
    fe_sqr(&t, &a->x);
    fe_triple(&t, &t);
    fe_cmov(&rr, &t, tangent);
    xyzz_add_finish(&out, &p, &rr, &a->x, &a->y, &a->zz, &a->zzz, tangent);
    xyzz_cmov(&out, a, b->infinity);
    PT_(xyzz_from_affine)(&bx, b);
    xyzz_cmov(&out, &bx, fe_is_zero(&a->zz));
    *r = out;
}

void PT_(xyzz_sub_mixed)(XYZZ_T *r, const XYZZ_T *a, const AFF_T *b)
{
    AFF_T nb;
    PT_(affine_neg)(&nb, b);
    PT_(xyzz_add_mixed)(r, a, &nb);
}

/* EFD g1p/shortw/xyzz "mdbl-2008-s-1": the double of an affine point,
 * 4M + 3S. b must be finite. */
static void xyzz_mdbl(XYZZ_T *r, const AFF_T *b)
{
    FE_T u, v, w, s, m, t;
    fe_dbl(&u, &b->y);
    fe_sqr(&v, &u);
    fe_mul(&w, &u, &v);
    fe_mul(&s, &b->x, &v);
    fe_sqr(&m, &b->x);
    fe_triple(&m, &m);
    fe_mul(&t, &w, &b->y);
    r->zz = v;
    r->zzz = w;
    fe_sqr(&r->x, &m);
    fe_sub(&r->x, &r->x, &s);
    fe_sub(&r->x, &r->x, &s);
    fe_sub(&s, &s, &r->x);
    fe_mul(&r->y, &m, &s);
    fe_sub(&r->y, &r->y, &t);
}

void PT_(xyzz_add_var)(XYZZ_T *r, const XYZZ_T *a, const XYZZ_T *b)
{
    /* EFD g1p/shortw/xyzz "add-2008-s": 12M + 2S. */
    if (fe_is_zero(&a->zz)) {
        *r = *b;
        return;
    }
    if (fe_is_zero(&b->zz)) {
        *r = *a;
        return;
    }
    FE_T u1, u2, s1, s2, p, rr, zz, zzz;
    fe_mul(&u1, &a->x, &b->zz);
    fe_mul(&u2, &b->x, &a->zz);
    fe_mul(&s1, &a->y, &b->zzz);
    fe_mul(&s2, &b->y, &a->zzz);
    fe_sub(&p, &u2, &u1);
    fe_sub(&rr, &s2, &s1);
    if (fe_is_zero(&p)) {
        if (fe_is_zero(&rr))
            PT_(xyzz_dbl)(r, a);
        else
            PT_(xyzz_set_infinity)(r);
        return;
    }
    fe_mul(&zz, &a->zz, &b->zz);
    fe_mul(&zzz, &a->zzz, &b->zzz);
    xyzz_add_finish(r, &p, &rr, &u1, &s1, &zz, &zzz, false);
}

void PT_(xyzz_add_mixed_var)(XYZZ_T *r, const XYZZ_T *a, const AFF_T *b)
{
    /* EFD g1p/shortw/xyzz "madd-2008-s": 8M + 2S. */
    if (b->infinity) {
        *r = *a;
        return;
    }
    if (fe_is_zero(&a->zz)) {
        PT_(xyzz_from_affine)(r, b);
        return;
    }
    FE_T u2, s2, p, rr, x1, y1, zz1, zzz1;
    fe_mul(&u2, &b->x, &a->zz);
    fe_mul(&s2, &b->y, &a->zzz);
    fe_sub(&p, &u2, &a->x);
    fe_sub(&rr, &s2, &a->y);
    if (fe_is_zero(&p)) {
        if (fe_is_zero(&rr))
            xyzz_mdbl(r, b);
        else
            PT_(xyzz_set_infinity)(r);
        return;
    }
    x1 = a->x;
    y1 = a->y;
    zz1 = a->zz;
    zzz1 = a->zzz;
    xyzz_add_finish(r, &p, &rr, &x1, &y1, &zz1, &zzz1, false);
}

void PT_(xyzz_sub_mixed_var)(XYZZ_T *r, const XYZZ_T *a, const AFF_T *b)
{
    AFF_T nb;
    PT_(affine_neg)(&nb, b);
    PT_(xyzz_add_mixed_var)(r, a, &nb);
}
