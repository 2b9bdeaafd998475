/* The group law of y² = x³ + b (a = 0) on the device, in the three forms the
 * MSM uses, written once for G1 (over Fp) and G2 (over Fp2). The device
 * twin of curve/point_impl.h's variable-time functions: every function here
 * branches on its special cases (infinity, P = Q, P = −Q), which is fine
 * for public points (MSM bases and buckets).
 *
 * A template: ec_g1.cuh and ec_g2.cuh each include it once, after defining
 *   EC_(name)          the point-level names:   EC_(xyzz_madd) -> dg1_xyzz_madd
 *   FE_T               the field type (dfp_t, dfp2_t)
 *   FE_ADD, FE_SUB, FE_DBL, FE_NEG, FE_MUL, FE_SQR     (r, a[, b])
 *   FE_IS_ZERO(a), FE_SET_ZERO(r), FE_SET_ONE(r), FE_INV(r, a)
 *   FE_LOAD(r, g), FE_STORE(g, a)       16-byte global memory accesses
 *   FE_SHFL_DOWN(r, a, delta)           full-warp shuffle
 *
 * Forms (the same as the CPU's, curve/g1.h):
 *   affine  (x, y), 16-byte aligned, no flag: (0, 0), which is not on the
 *           curve (0 ≠ b), stands for the point at infinity. The MSM's
 *           resident bases use this form.
 *   XYZZ    (X, Y, ZZ, ZZZ): x = X/ZZ, y = Y/ZZZ; ZZ = 0 is infinity.
 *   Jacobian (X, Y, Z): x = X/Z², y = Y/Z³; Z = 0 is infinity, written
 *           (1, 1, 0) as on the CPU, so results compare byte for byte.
 * Formulas: the Explicit-Formulas Database, short Weierstrass a = 0,
 * "xyzz" (madd-2008-s, mdbl-2008-s-1, add-2008-s, dbl-2008-s-1) and
 * "jacobian-0" (dbl-2009-l, add-2007-bl). Outputs are written after the
 * inputs are read, so in-place use is safe.
 *
 * The pointer functions are inlined. What runs rarely (the doublings that
 * P = Q calls for) or only in small kernels (the XYZZ addition of the
 * reductions) is out of line and takes and returns points by value: a
 * pointer into an out-of-line function would pin the caller's point to
 * local memory for the whole kernel. */

typedef struct {
    FE_T x, y;
} EC_(aff_t);

typedef struct {
    FE_T x, y, zz, zzz;
} EC_(xyzz_t);

typedef struct {
    FE_T x, y, z;
} EC_(jac_t);

/* Short names for the three types inside this file. */
#define EC_AFF EC_(aff_t)
#define EC_XYZZ EC_(xyzz_t)
#define EC_JAC EC_(jac_t)

/* r = 3a */
static __device__ __forceinline__ void EC_(fe_triple)(FE_T *r, const FE_T *a)
{
    FE_T t;
    FE_DBL(&t, a);
    FE_ADD(r, &t, a);
}

/* ---------------------------------------------------------------- affine */

static __device__ __forceinline__ bool EC_(aff_is_inf)(const EC_AFF *a)
{
    return FE_IS_ZERO(&a->x) && FE_IS_ZERO(&a->y);
}

static __device__ __forceinline__ void EC_(aff_set_inf)(EC_AFF *r)
{
    FE_SET_ZERO(&r->x);
    FE_SET_ZERO(&r->y);
}

static __device__ __forceinline__ void EC_(aff_load)(EC_AFF *r, const EC_AFF *g)
{
    FE_LOAD(&r->x, &g->x);
    FE_LOAD(&r->y, &g->y);
}

static __device__ __forceinline__ void EC_(aff_store)(EC_AFF *g, const EC_AFF *a)
{
    FE_STORE(&g->x, &a->x);
    FE_STORE(&g->y, &a->y);
}

/* −(x, y) = (x, −y); infinity (0, 0) stays itself. */
static __device__ __forceinline__ void EC_(aff_neg)(EC_AFF *r, const EC_AFF *a)
{
    r->x = a->x;
    FE_NEG(&r->y, &a->y);
}

/* ---------------------------------------------------------------- XYZZ */

static __device__ __forceinline__ bool EC_(xyzz_is_inf)(const EC_XYZZ *a)
{
    return FE_IS_ZERO(&a->zz);
}

static __device__ __forceinline__ void EC_(xyzz_set_inf)(EC_XYZZ *r)
{
    FE_SET_ZERO(&r->x);
    FE_SET_ZERO(&r->y);
    FE_SET_ZERO(&r->zz);
    FE_SET_ZERO(&r->zzz);
}

static __device__ __forceinline__ void EC_(xyzz_load)(EC_XYZZ *r, const EC_XYZZ *g)
{
    FE_LOAD(&r->x, &g->x);
    FE_LOAD(&r->y, &g->y);
    FE_LOAD(&r->zz, &g->zz);
    FE_LOAD(&r->zzz, &g->zzz);
}

static __device__ __forceinline__ void EC_(xyzz_store)(EC_XYZZ *g, const EC_XYZZ *a)
{
    FE_STORE(&g->x, &a->x);
    FE_STORE(&g->y, &a->y);
    FE_STORE(&g->zz, &a->zz);
    FE_STORE(&g->zzz, &a->zzz);
}

/* r = a (affine, possibly infinity) in XYZZ. */
static __device__ __forceinline__ void EC_(xyzz_set_aff)(EC_XYZZ *r, const EC_AFF *a)
{
    if (EC_(aff_is_inf)(a)) {
        EC_(xyzz_set_inf)(r);
        return;
    }
    r->x = a->x;
    r->y = a->y;
    FE_SET_ONE(&r->zz);
    FE_SET_ONE(&r->zzz);
}

/* dbl-2008-s-1: 6M + 3S. Infinity (ZZ = ZZZ = 0) stays infinity, and so
 * does a point with Y = 0 (U = 0 makes ZZ3 = 0). */
static __device__ __forceinline__ void EC_(xyzz_dbl)(EC_XYZZ *r, const EC_XYZZ *a)
{
    FE_T u, v, w, s, m, t;
    FE_DBL(&u, &a->y);
    FE_SQR(&v, &u);
    FE_MUL(&w, &u, &v);
    FE_MUL(&s, &a->x, &v);
    FE_SQR(&m, &a->x);
    EC_(fe_triple)(&m, &m);
    FE_MUL(&t, &w, &a->y);
    FE_MUL(&r->zz, &v, &a->zz);
    FE_MUL(&r->zzz, &w, &a->zzz);
    FE_SQR(&u, &m);
    FE_SUB(&u, &u, &s);
    FE_SUB(&u, &u, &s); /* X3 */
    FE_SUB(&s, &s, &u);
    FE_MUL(&s, &m, &s);
    FE_SUB(&r->y, &s, &t);
    r->x = u;
}

/* mdbl-2008-s-1, the double of a finite affine point: 4M + 3S. */
static __device__ __forceinline__ void EC_(xyzz_mdbl)(EC_XYZZ *r, const EC_AFF *a)
{
    FE_T u, v, w, s, m, t;
    FE_DBL(&u, &a->y);
    FE_SQR(&v, &u);
    FE_MUL(&w, &u, &v);
    FE_MUL(&s, &a->x, &v);
    FE_SQR(&m, &a->x);
    EC_(fe_triple)(&m, &m);
    FE_MUL(&t, &w, &a->y);
    FE_SQR(&u, &m);
    FE_SUB(&u, &u, &s);
    FE_SUB(&u, &u, &s); /* X3 */
    FE_SUB(&s, &s, &u);
    FE_MUL(&s, &m, &s);
    FE_SUB(&r->y, &s, &t);
    r->x = u;
    r->zz = v;
    r->zzz = w;
}

static __device__ __noinline__ EC_XYZZ EC_(xyzz_dbl_v)(EC_XYZZ a)
{
    EC_(xyzz_dbl)(&a, &a);
    return a;
}

static __device__ __noinline__ EC_XYZZ EC_(xyzz_mdbl_v)(EC_AFF a)
{
    EC_XYZZ r;
    EC_(xyzz_mdbl)(&r, &a);
    return r;
}

/* p += q, q affine: madd-2008-s, 8M + 2S. The bucket addition of the MSM.
 * The special cases (q = ∞, p = ∞, q = p, q = −p) leave the hot path
 * through rarely taken branches. */
static __device__ __forceinline__ void EC_(xyzz_madd)(EC_XYZZ *p, const EC_AFF *q)
{
    if (EC_(aff_is_inf)(q))
        return;
    if (EC_(xyzz_is_inf)(p)) {
        EC_(xyzz_set_aff)(p, q);
        return;
    }
    FE_T pp, r, s, ppp, qq;
    FE_MUL(&pp, &q->x, &p->zz); /* U2 */
    FE_MUL(&s, &q->y, &p->zzz); /* S2 */
    FE_SUB(&pp, &pp, &p->x);    /* P = U2 − X1 */
    FE_SUB(&r, &s, &p->y);      /* R = S2 − Y1 */
    if (FE_IS_ZERO(&pp)) {
        if (FE_IS_ZERO(&r))
            *p = EC_(xyzz_mdbl_v)(*q);
        else
            EC_(xyzz_set_inf)(p);
        return;
    }
    FE_SQR(&s, &pp);                /* PP */
    FE_MUL(&ppp, &s, &pp);          /* PPP */
    FE_MUL(&qq, &p->x, &s);         /* Q = X1·PP */
    FE_MUL(&p->zz, &p->zz, &s);     /* ZZ3 = ZZ1·PP */
    FE_MUL(&p->zzz, &p->zzz, &ppp); /* ZZZ3 = ZZZ1·PPP */
    FE_SQR(&s, &r);
    FE_SUB(&s, &s, &ppp);
    FE_SUB(&s, &s, &qq);
    FE_SUB(&s, &s, &qq); /* X3 = R² − PPP − 2Q */
    FE_SUB(&qq, &qq, &s);
    FE_MUL(&qq, &qq, &r);      /* R·(Q − X3) */
    FE_MUL(&ppp, &ppp, &p->y); /* Y1·PPP */
    FE_SUB(&p->y, &qq, &ppp);  /* Y3 */
    p->x = s;
}

/* p += q, both XYZZ: add-2008-s, 12M + 2S. */
static __device__ __forceinline__ void EC_(xyzz_add_in)(EC_XYZZ *p, const EC_XYZZ *q)
{
    if (EC_(xyzz_is_inf)(q))
        return;
    if (EC_(xyzz_is_inf)(p)) {
        *p = *q;
        return;
    }
    FE_T u1, u2, s1, s2, t;
    FE_MUL(&u1, &p->x, &q->zz);
    FE_MUL(&u2, &q->x, &p->zz);
    FE_MUL(&s1, &p->y, &q->zzz);
    FE_MUL(&s2, &q->y, &p->zzz);
    FE_SUB(&u2, &u2, &u1); /* P */
    FE_SUB(&s2, &s2, &s1); /* R */
    if (FE_IS_ZERO(&u2)) {
        if (FE_IS_ZERO(&s2))
            *p = EC_(xyzz_dbl_v)(*p);
        else
            EC_(xyzz_set_inf)(p);
        return;
    }
    FE_MUL(&p->zz, &p->zz, &q->zz);
    FE_MUL(&p->zzz, &p->zzz, &q->zzz);
    FE_SQR(&t, &u2);              /* PP */
    FE_MUL(&p->zz, &p->zz, &t);   /* ZZ3 */
    FE_MUL(&u1, &u1, &t);         /* Q = U1·PP */
    FE_MUL(&t, &t, &u2);          /* PPP */
    FE_MUL(&p->zzz, &p->zzz, &t); /* ZZZ3 */
    FE_MUL(&s1, &s1, &t);         /* S1·PPP */
    FE_SQR(&u2, &s2);
    FE_SUB(&u2, &u2, &t);
    FE_SUB(&u2, &u2, &u1);
    FE_SUB(&u2, &u2, &u1); /* X3 = R² − PPP − 2Q */
    FE_SUB(&u1, &u1, &u2);
    FE_MUL(&u1, &u1, &s2);
    FE_SUB(&p->y, &u1, &s1); /* Y3 = R·(Q − X3) − S1·PPP */
    p->x = u2;
}

static __device__ __noinline__ EC_XYZZ EC_(xyzz_add_v)(EC_XYZZ p, EC_XYZZ q)
{
    EC_(xyzz_add_in)(&p, &q);
    return p;
}

/* p += q out of line (the reductions); the infinity cases stay inline. */
static __device__ __forceinline__ void EC_(xyzz_add)(EC_XYZZ *p, const EC_XYZZ *q)
{
    if (EC_(xyzz_is_inf)(q))
        return;
    if (EC_(xyzz_is_inf)(p)) {
        *p = *q;
        return;
    }
    *p = EC_(xyzz_add_v)(*p, *q);
}

/* Across a full warp: r = a of lane + delta (a shuffle per limb). */
static __device__ __forceinline__ void EC_(xyzz_shfl_down)(EC_XYZZ *r, const EC_XYZZ *a,
                                                           unsigned delta)
{
    FE_SHFL_DOWN(&r->x, &a->x, delta);
    FE_SHFL_DOWN(&r->y, &a->y, delta);
    FE_SHFL_DOWN(&r->zz, &a->zz, delta);
    FE_SHFL_DOWN(&r->zzz, &a->zzz, delta);
}

/* x = X/ZZ and y = Y/ZZZ with one inversion: t = 1/ZZZ, 1/ZZ = (t·ZZ)²
 * (ZZ³ = ZZZ²). Infinity gives (0, 0). For the point generator. */
static __device__ __forceinline__ void EC_(xyzz_to_aff)(EC_AFF *r, const EC_XYZZ *a)
{
    if (EC_(xyzz_is_inf)(a)) {
        EC_(aff_set_inf)(r);
        return;
    }
    FE_T t, u;
    FE_INV(&t, &a->zzz);
    FE_MUL(&u, &t, &a->zz);
    FE_SQR(&u, &u);
    FE_MUL(&r->x, &a->x, &u);
    FE_MUL(&r->y, &a->y, &t);
}

/* ---------------------------------------------------------------- Jacobian */

static __device__ __forceinline__ bool EC_(jac_is_inf)(const EC_JAC *a)
{
    return FE_IS_ZERO(&a->z);
}

static __device__ __forceinline__ void EC_(jac_set_inf)(EC_JAC *r)
{
    FE_SET_ONE(&r->x);
    FE_SET_ONE(&r->y);
    FE_SET_ZERO(&r->z);
}

/* Z = ZZZ: X·ZZ²/ZZZ² = X/ZZ and Y·ZZZ²/ZZZ³ = Y/ZZZ. 2M + 2S. */
static __device__ __forceinline__ void EC_(xyzz_to_jac)(EC_JAC *r, const EC_XYZZ *a)
{
    if (EC_(xyzz_is_inf)(a)) {
        EC_(jac_set_inf)(r);
        return;
    }
    FE_T t;
    FE_SQR(&t, &a->zz);
    FE_MUL(&r->x, &a->x, &t);
    FE_SQR(&t, &a->zzz);
    FE_MUL(&r->y, &a->y, &t);
    r->z = a->zzz;
}

/* dbl-2009-l: 2M + 5S; Z = 0 stays 0. */
static __device__ __forceinline__ void EC_(jac_dbl)(EC_JAC *r, const EC_JAC *a)
{
    FE_T A, B, C, D, E, F, z3;
    FE_MUL(&z3, &a->y, &a->z);
    FE_DBL(&z3, &z3);
    FE_SQR(&A, &a->x);
    FE_SQR(&B, &a->y);
    FE_SQR(&C, &B);
    FE_ADD(&D, &a->x, &B);
    FE_SQR(&D, &D);
    FE_SUB(&D, &D, &A);
    FE_SUB(&D, &D, &C);
    FE_DBL(&D, &D);
    EC_(fe_triple)(&E, &A);
    FE_SQR(&F, &E);
    FE_SUB(&F, &F, &D);
    FE_SUB(&F, &F, &D); /* X3 */
    FE_SUB(&D, &D, &F);
    FE_MUL(&D, &E, &D);
    FE_DBL(&C, &C);
    FE_DBL(&C, &C);
    FE_DBL(&C, &C);
    FE_SUB(&r->y, &D, &C);
    r->x = F;
    r->z = z3;
}

static __device__ __noinline__ EC_JAC EC_(jac_dbl_v)(EC_JAC a)
{
    EC_(jac_dbl)(&a, &a);
    return a;
}

/* p += q: add-2007-bl, 11M + 5S, with the special cases. */
static __device__ __forceinline__ void EC_(jac_add_in)(EC_JAC *p, const EC_JAC *q)
{
    if (EC_(jac_is_inf)(q))
        return;
    if (EC_(jac_is_inf)(p)) {
        *p = *q;
        return;
    }
    FE_T z1z1, z2z2, u1, u2, s1, s2, i, j, v, t;
    FE_SQR(&z1z1, &p->z);
    FE_SQR(&z2z2, &q->z);
    FE_MUL(&u1, &p->x, &z2z2);
    FE_MUL(&u2, &q->x, &z1z1);
    FE_MUL(&s1, &p->y, &q->z);
    FE_MUL(&s1, &s1, &z2z2);
    FE_MUL(&s2, &q->y, &p->z);
    FE_MUL(&s2, &s2, &z1z1);
    FE_SUB(&u2, &u2, &u1); /* H */
    FE_SUB(&s2, &s2, &s1); /* S2 − S1 */
    if (FE_IS_ZERO(&u2)) {
        if (FE_IS_ZERO(&s2))
            *p = EC_(jac_dbl_v)(*p);
        else
            EC_(jac_set_inf)(p);
        return;
    }
    FE_DBL(&i, &u2);
    FE_SQR(&i, &i);      /* I = (2H)² */
    FE_MUL(&j, &u2, &i); /* J = H·I */
    FE_DBL(&s2, &s2);    /* r = 2(S2 − S1) */
    FE_MUL(&v, &u1, &i); /* V = U1·I */
    FE_ADD(&t, &p->z, &q->z);
    FE_SQR(&t, &t);
    FE_SUB(&t, &t, &z1z1);
    FE_SUB(&t, &t, &z2z2);
    FE_MUL(&p->z, &t, &u2); /* Z3 = ((Z1 + Z2)² − Z1Z1 − Z2Z2)·H */
    FE_SQR(&t, &s2);
    FE_SUB(&t, &t, &j);
    FE_SUB(&t, &t, &v);
    FE_SUB(&t, &t, &v); /* X3 = r² − J − 2V */
    FE_SUB(&v, &v, &t);
    FE_MUL(&v, &v, &s2);
    FE_MUL(&s1, &s1, &j);
    FE_DBL(&s1, &s1);
    FE_SUB(&p->y, &v, &s1); /* Y3 = r(V − X3) − 2·S1·J */
    p->x = t;
}

static __device__ __noinline__ EC_JAC EC_(jac_add_v)(EC_JAC p, EC_JAC q)
{
    EC_(jac_add_in)(&p, &q);
    return p;
}

static __device__ __forceinline__ void EC_(jac_add)(EC_JAC *p, const EC_JAC *q)
{
    *p = EC_(jac_add_v)(*p, *q);
}

#undef EC_AFF
#undef EC_XYZZ
#undef EC_JAC
