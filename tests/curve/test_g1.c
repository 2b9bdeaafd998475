/* G1 group law, scalar multiplication, endomorphism, subgroup test and the
 * g1.txt known answers. test_g2.c runs this same file over G2: it defines
 * the TG_ parameters below for Fp2 and includes it. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "seed.h"
#include "vector_file.h"

#ifndef TG_
#include "curve/g1.h"
#define TG_(name) g1_##name /* point functions and types */
#define TF_(name) fp_##name /* field functions */
#define TF_T fp_t
#define TG_GENERATOR G1_GENERATOR
#define TG_UBYTES G1_UNCOMPRESSED_BYTES
#define TG_CBYTES G1_COMPRESSED_BYTES
#define TG_VECTORS "g1.txt"
#define TG_IS_G1 1
/* h = 3 · 11² · 10177² · 859267² · 52437899²; h / 3 leaves a point of order 3
 * (or O): */
#define TG_SMALL_L 3
#define TG_COFACTOR_DIV_L 0x2eaae38e55558e39ULL, 0x13242eaac71ca072ULL
#endif

typedef TG_(affine_t) aff_t;
typedef TG_(jac_t) jac_t;
typedef TG_(xyzz_t) xyzz_t;

/* r, the group order, and |x| = 0xd201000000010000 (x is negative). */
static const uint64_t ORDER[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                  0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
static const uint64_t ABS_X = 0xd201000000010000ULL;

static rng_t rng;

/* ---------------------------------------------------------------- helpers */

static void random_scalar(uint64_t k[4])
{
    for (int i = 0; i < 4; i++)
        k[i] = rng_u64(&rng);
}

static void random_jac(jac_t *p)
{
    uint64_t k[4];
    jac_t g;
    random_scalar(k);
    TG_(jac_from_affine)(&g, &TG_GENERATOR);
    TG_(jac_mul_var)(p, &g, k);
}

static void random_affine(aff_t *a)
{
    jac_t p;
    random_jac(&p);
    TG_(jac_to_affine)(a, &p);
}

/* The same point with Z scaled by a random λ: (λ²X, λ³Y, λZ). */
static void rescale(jac_t *r, const jac_t *p)
{
    TF_T l, l2;
    TF_(random)(&l, &rng);
    TF_(sqr)(&l2, &l);
    TF_(mul)(&r->x, &p->x, &l2);
    TF_(mul)(&l2, &l2, &l);
    TF_(mul)(&r->y, &p->y, &l2);
    TF_(mul)(&r->z, &p->z, &l);
}

/* b = y² − x³ at the generator. */
static void curve_b(TF_T *b)
{
    TF_T t;
    TF_(sqr)(b, &TG_GENERATOR.y);
    TF_(sqr)(&t, &TG_GENERATOR.x);
    TF_(mul)(&t, &t, &TG_GENERATOR.x);
    TF_(sub)(b, b, &t);
}

/* A point on the curve, almost surely outside the subgroup: a random x with
 * x³ + b a square, the cofactor left in. */
static void random_off_subgroup(aff_t *a)
{
    TF_T b, rhs;
    curve_b(&b);
    do {
        TF_(random)(&a->x, &rng);
        TF_(sqr)(&rhs, &a->x);
        TF_(mul)(&rhs, &rhs, &a->x);
        TF_(add)(&rhs, &rhs, &b);
    } while (!TF_(sqrt)(&a->y, &rhs));
    a->infinity = false;
}

static void xyzz_from_jac(xyzz_t *r, const jac_t *p)
{
    TF_(sqr)(&r->zz, &p->z);
    TF_(mul)(&r->zzz, &r->zz, &p->z);
    r->x = p->x;
    r->y = p->y;
}

static bool xyzz_eq_jac(const xyzz_t *a, const jac_t *b)
{
    jac_t t;
    TG_(xyzz_to_jac)(&t, a);
    return TG_(jac_eq)(&t, b);
}

static void scalar_from_u64(uint64_t k[4], uint64_t v)
{
    k[0] = v;
    k[1] = k[2] = k[3] = 0;
}

/* r = a + b mod 2^256 (callers keep the sum below 2^256). */
static void add256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    unsigned __int128 c = 0;
    for (int i = 0; i < 4; i++) {
        c += (unsigned __int128)a[i] + b[i];
        r[i] = (uint64_t)c;
        c >>= 64;
    }
}

/* r = a − b mod 2^256 */
static void sub256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t d = a[i] - b[i] - borrow;
        borrow = (a[i] < b[i]) | ((a[i] == b[i]) & borrow);
        r[i] = d;
    }
}

/* r = a · m (callers keep the product below 2^256). */
static void mul256_u64(uint64_t r[4], const uint64_t a[4], uint64_t m)
{
    unsigned __int128 c = 0;
    for (int i = 0; i < 4; i++) {
        c += (unsigned __int128)a[i] * m;
        r[i] = (uint64_t)c;
        c >>= 64;
    }
}

/* ---------------------------------------------------------------- constants */

static void test_constants(void **state)
{
    (void)state;
    jac_t g, t;
    uint64_t k[4];
    assert_true(TG_(affine_is_on_curve)(&TG_GENERATOR));
    assert_false(TG_GENERATOR.infinity);
    assert_true(TG_(affine_in_subgroup)(&TG_GENERATOR));
    TG_(jac_from_affine)(&g, &TG_GENERATOR);
    TG_(jac_mul_var)(&t, &g, ORDER);
    assert_true(TG_(jac_is_infinity)(&t));
    TG_(jac_mul)(&t, &g, ORDER);
    assert_true(TG_(jac_is_infinity)(&t));

    TF_T b, want;
    curve_b(&b);
#if TG_IS_G1
    fp_from_u64(&want, 4);
    assert_true(fp_eq(&b, &want));

    /* β³ = 1, β ≠ 1, and φ(G) = [−x² mod r]G = [r − x²]G. */
    fp_t b3;
    fp_sqr(&b3, &G1_BETA);
    fp_mul(&b3, &b3, &G1_BETA);
    assert_true(fp_is_one(&b3));
    assert_false(fp_is_one(&G1_BETA));
    uint64_t x2[4] = {0};
    unsigned __int128 sq = (unsigned __int128)ABS_X * ABS_X;
    x2[0] = (uint64_t)sq;
    x2[1] = (uint64_t)(sq >> 64);
    sub256(k, ORDER, x2);
    g1_affine_t phi, want_phi;
    g1_affine_phi(&phi, &G1_GENERATOR);
    TG_(jac_mul_var)(&t, &g, k);
    TG_(jac_to_affine)(&want_phi, &t);
    assert_true(TG_(affine_eq)(&phi, &want_phi));
#else
    fp_from_u64(&want.c0, 4);
    want.c1 = want.c0;
    assert_true(fp2_eq(&b, &want));

    /* ψ(G) = [p mod r]G = [x mod r]G = [r − |x|]G, and ψ is not the identity. */
    uint64_t ax[4];
    scalar_from_u64(ax, ABS_X);
    sub256(k, ORDER, ax);
    g2_affine_t psi, want_psi;
    g2_affine_psi(&psi, &G2_GENERATOR);
    assert_true(g2_affine_is_on_curve(&psi));
    assert_false(g2_affine_eq(&psi, &G2_GENERATOR));
    TG_(jac_mul_var)(&t, &g, k);
    TG_(jac_to_affine)(&want_psi, &t);
    assert_true(TG_(affine_eq)(&psi, &want_psi));
#endif
}

/* ---------------------------------------------------------------- group law */

static void test_group_law(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TG_VECTORS " group law"));
    int iters = test_iters(16);
    for (int it = 0; it < iters; it++) {
        jac_t p, q, s, t, u, v, o, np;
        random_jac(&p);
        random_jac(&q);
        random_jac(&s);
        TG_(jac_set_infinity)(&o);

        /* associativity, commutativity */
        TG_(jac_add)(&t, &p, &q);
        TG_(jac_add)(&t, &t, &s);
        TG_(jac_add)(&u, &q, &s);
        TG_(jac_add)(&u, &p, &u);
        assert_true(TG_(jac_eq)(&t, &u));
        TG_(jac_add)(&t, &p, &q);
        TG_(jac_add)(&u, &q, &p);
        assert_true(TG_(jac_eq)(&t, &u));

        /* identity and inverse, constant-time and _var */
        TG_(jac_add)(&t, &p, &o);
        assert_true(TG_(jac_eq)(&t, &p));
        TG_(jac_add)(&t, &o, &p);
        assert_true(TG_(jac_eq)(&t, &p));
        TG_(jac_add_var)(&t, &o, &p);
        assert_true(TG_(jac_eq)(&t, &p));
        TG_(jac_add)(&t, &o, &o);
        assert_true(TG_(jac_is_infinity)(&t));
        TG_(jac_neg)(&np, &p);
        rescale(&np, &np);
        TG_(jac_add)(&t, &p, &np);
        assert_true(TG_(jac_is_infinity)(&t));
        TG_(jac_add_var)(&t, &p, &np);
        assert_true(TG_(jac_is_infinity)(&t));
        assert_false(TG_(jac_eq)(&p, &np));
        assert_false(TG_(jac_eq)(&p, &o));

        /* dbl = add(P, P), also with P in another representation */
        TG_(jac_dbl)(&t, &p);
        rescale(&u, &p);
        assert_true(TG_(jac_eq)(&u, &p));
        TG_(jac_add)(&v, &p, &u);
        assert_true(TG_(jac_eq)(&t, &v));
        TG_(jac_add_var)(&v, &u, &p);
        assert_true(TG_(jac_eq)(&t, &v));
        TG_(jac_dbl)(&v, &o);
        assert_true(TG_(jac_is_infinity)(&v));

        /* add_var = add */
        TG_(jac_add)(&t, &p, &q);
        TG_(jac_add_var)(&u, &p, &q);
        assert_true(TG_(jac_eq)(&t, &u));

        /* mixed = full, special cases included */
        aff_t qa, pa, npa, oa;
        TG_(jac_to_affine)(&qa, &q);
        TG_(jac_to_affine)(&pa, &p);
        TG_(affine_neg)(&npa, &pa);
        TG_(affine_set_infinity)(&oa);
        TG_(jac_add_mixed)(&u, &p, &qa);
        assert_true(TG_(jac_eq)(&t, &u));
        TG_(jac_add_mixed_var)(&u, &p, &qa);
        assert_true(TG_(jac_eq)(&t, &u));
        TG_(jac_dbl)(&t, &p);
        TG_(jac_add_mixed)(&u, &p, &pa);
        assert_true(TG_(jac_eq)(&t, &u));
        TG_(jac_add_mixed_var)(&u, &p, &pa);
        assert_true(TG_(jac_eq)(&t, &u));
        TG_(jac_add_mixed)(&u, &p, &npa);
        assert_true(TG_(jac_is_infinity)(&u));
        TG_(jac_add_mixed_var)(&u, &p, &npa);
        assert_true(TG_(jac_is_infinity)(&u));
        TG_(jac_add_mixed)(&u, &p, &oa);
        assert_true(TG_(jac_eq)(&u, &p));
        TG_(jac_add_mixed)(&u, &o, &qa);
        assert_true(TG_(jac_eq)(&u, &q));
        TG_(jac_add_mixed_var)(&u, &o, &qa);
        assert_true(TG_(jac_eq)(&u, &q));
        TG_(jac_add_mixed)(&u, &o, &oa);
        assert_true(TG_(jac_is_infinity)(&u));

        /* affine round trip */
        TG_(jac_from_affine)(&u, &qa);
        assert_true(TG_(jac_eq)(&u, &q));
        assert_true(TG_(affine_is_on_curve)(&qa));
        TG_(jac_to_affine)(&oa, &o);
        assert_true(oa.infinity);
    }
}

static void test_xyzz(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TG_VECTORS " xyzz"));
    int iters = test_iters(16);
    for (int it = 0; it < iters; it++) {
        jac_t p, q, t, o;
        xyzz_t xp, xq, xo, r;
        aff_t qa, pa, npa, oa;
        random_jac(&p);
        random_jac(&q);
        TG_(jac_set_infinity)(&o);
        xyzz_from_jac(&xp, &p);
        xyzz_from_jac(&xq, &q);
        TG_(xyzz_set_infinity)(&xo);
        assert_true(TG_(xyzz_is_infinity)(&xo));
        TG_(jac_to_affine)(&qa, &q);
        TG_(jac_to_affine)(&pa, &p);
        TG_(affine_neg)(&npa, &pa);
        TG_(affine_set_infinity)(&oa);

        TG_(jac_add)(&t, &p, &q);
        TG_(xyzz_add)(&r, &xp, &xq);
        assert_true(xyzz_eq_jac(&r, &t));
        TG_(xyzz_add_var)(&r, &xp, &xq);
        assert_true(xyzz_eq_jac(&r, &t));
        TG_(xyzz_add_mixed)(&r, &xp, &qa);
        assert_true(xyzz_eq_jac(&r, &t));
        r = xp;
        TG_(xyzz_add_mixed_var)(&r, &r, &qa); /* in place */
        assert_true(xyzz_eq_jac(&r, &t));

        TG_(jac_dbl)(&t, &p);
        TG_(xyzz_dbl)(&r, &xp);
        assert_true(xyzz_eq_jac(&r, &t));
        TG_(xyzz_add)(&r, &xp, &xp);
        assert_true(xyzz_eq_jac(&r, &t));
        TG_(xyzz_add_var)(&r, &xp, &xp);
        assert_true(xyzz_eq_jac(&r, &t));
        TG_(xyzz_add_mixed)(&r, &xp, &pa);
        assert_true(xyzz_eq_jac(&r, &t));
        TG_(xyzz_add_mixed_var)(&r, &xp, &pa);
        assert_true(xyzz_eq_jac(&r, &t));
        TG_(xyzz_sub_mixed)(&r, &xp, &npa);
        assert_true(xyzz_eq_jac(&r, &t));
        TG_(xyzz_sub_mixed_var)(&r, &xp, &npa);
        assert_true(xyzz_eq_jac(&r, &t));

        /* P − P, P + O, O + P, O + O */
        TG_(xyzz_sub_mixed)(&r, &xp, &pa);
        assert_true(TG_(xyzz_is_infinity)(&r));
        TG_(xyzz_sub_mixed_var)(&r, &xp, &pa);
        assert_true(TG_(xyzz_is_infinity)(&r));
        TG_(xyzz_add_mixed)(&r, &xp, &oa);
        assert_true(xyzz_eq_jac(&r, &p));
        TG_(xyzz_add_mixed_var)(&r, &xp, &oa);
        assert_true(xyzz_eq_jac(&r, &p));
        TG_(xyzz_add_mixed)(&r, &xo, &pa);
        assert_true(xyzz_eq_jac(&r, &p));
        TG_(xyzz_add_mixed_var)(&r, &xo, &pa);
        assert_true(xyzz_eq_jac(&r, &p));
        TG_(xyzz_add)(&r, &xo, &xp);
        assert_true(xyzz_eq_jac(&r, &p));
        TG_(xyzz_add_var)(&r, &xp, &xo);
        assert_true(xyzz_eq_jac(&r, &p));
        TG_(xyzz_add)(&r, &xo, &xo);
        assert_true(TG_(xyzz_is_infinity)(&r));
        TG_(xyzz_dbl)(&r, &xo);
        assert_true(TG_(xyzz_is_infinity)(&r));

        /* conversions */
        TG_(xyzz_from_affine)(&r, &qa);
        assert_true(xyzz_eq_jac(&r, &q));
        TG_(xyzz_to_affine)(&pa, &xq);
        assert_true(TG_(affine_eq)(&pa, &qa));
        TG_(xyzz_from_affine)(&r, &oa);
        assert_true(TG_(xyzz_is_infinity)(&r));
        TG_(xyzz_to_affine)(&pa, &xo);
        assert_true(pa.infinity);
        TG_(xyzz_to_jac)(&t, &xo);
        assert_true(TG_(jac_is_infinity)(&t));
    }
}

/* ---------------------------------------------------------------- scalars */

static void test_scalar_mul(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TG_VECTORS " scalar mul"));
    int iters = test_iters(8);
    for (int it = 0; it < iters; it++) {
        jac_t p, t, u, v;
        uint64_t a[4], b[4], k[4];
        random_jac(&p);

        /* [a]P + [b]P = [a + b]P, a, b < 2^255 */
        random_scalar(a);
        random_scalar(b);
        a[3] >>= 1;
        b[3] >>= 1;
        add256(k, a, b);
        TG_(jac_mul)(&t, &p, a);
        TG_(jac_mul_var)(&u, &p, b);
        TG_(jac_add)(&t, &t, &u);
        TG_(jac_mul)(&u, &p, k);
        assert_true(TG_(jac_eq)(&t, &u));

        /* [a]([m]P) = [a·m]P, a < 2^190, m < 2^64 */
        uint64_t m = rng_u64(&rng);
        a[3] = 0;
        a[2] &= (1ULL << 62) - 1;
        mul256_u64(k, a, m);
        scalar_from_u64(b, m);
        TG_(jac_mul_var)(&t, &p, b);
        TG_(jac_mul_var)(&t, &t, a);
        TG_(jac_mul_var)(&u, &p, k);
        assert_true(TG_(jac_eq)(&t, &u));

        /* constant time = variable time, random and edge scalars */
        random_scalar(k);
        TG_(jac_mul)(&t, &p, k);
        TG_(jac_mul_var)(&u, &p, k);
        assert_true(TG_(jac_eq)(&t, &u));

        /* [r]P = O, [r + 1]P = P, [r − 1]P = −P */
        TG_(jac_mul)(&t, &p, ORDER);
        assert_true(TG_(jac_is_infinity)(&t));
        scalar_from_u64(b, 1);
        add256(k, ORDER, b);
        TG_(jac_mul_var)(&t, &p, k);
        assert_true(TG_(jac_eq)(&t, &p));
        sub256(k, ORDER, b);
        TG_(jac_mul)(&t, &p, k);
        TG_(jac_neg)(&v, &p);
        assert_true(TG_(jac_eq)(&t, &v));
    }

    /* Edge scalars: 0, 1, 2, 2^256 − 1, and infinity as the base. */
    jac_t p, t, u, o;
    uint64_t k[4];
    random_jac(&p);
    TG_(jac_set_infinity)(&o);
    for (uint64_t e = 0; e < 3; e++) {
        scalar_from_u64(k, e);
        TG_(jac_mul)(&t, &p, k);
        TG_(jac_mul_var)(&u, &p, k);
        assert_true(TG_(jac_eq)(&t, &u));
        TG_(jac_mul)(&t, &o, k);
        assert_true(TG_(jac_is_infinity)(&t));
    }
    scalar_from_u64(k, 0);
    TG_(jac_mul)(&t, &p, k);
    assert_true(TG_(jac_is_infinity)(&t));
    scalar_from_u64(k, 2);
    TG_(jac_mul)(&t, &p, k);
    TG_(jac_dbl)(&u, &p);
    assert_true(TG_(jac_eq)(&t, &u));
    memset(k, 0xff, sizeof(k));
    TG_(jac_mul)(&t, &p, k);
    TG_(jac_mul_var)(&u, &p, k);
    assert_true(TG_(jac_eq)(&t, &u));
}

/* r = [k]P for a long k (n little-endian limbs), plain double-and-add. */
static void mul_long(jac_t *r, const jac_t *p, const uint64_t *k, int n)
{
    jac_t acc;
    TG_(jac_set_infinity)(&acc);
    for (int i = 64 * n - 1; i >= 0; i--) {
        TG_(jac_dbl)(&acc, &acc);
        if ((k[i / 64] >> (i % 64)) & 1)
            TG_(jac_add_var)(&acc, &acc, p);
    }
    *r = acc;
}

/* Points of small order drive the unified additions of the constant-time
 * multiplication through P = Q and P = −Q inside its table and main loop.
 * A point of order ℓ (ℓ a prime factor of the cofactor h): [r·h/ℓ^e]Q for a
 * random Q on the curve, ℓ^e the power of ℓ in h (when the ℓ-torsion is
 * not cyclic, as for 13 on G2's curve, e is the full power). */
static void test_small_order(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TG_VECTORS " small order"));
    static const uint64_t h_div_l[] = {TG_COFACTOR_DIV_L};
    const uint64_t l = TG_SMALL_L;
    aff_t a;
    jac_t p, t, u;
    uint64_t k[4];
    int tries = 0;
    do {
        assert_true(tries++ < 20);
        random_off_subgroup(&a);
        TG_(jac_from_affine)(&p, &a);
        TG_(jac_mul_var)(&p, &p, ORDER);
        mul_long(&p, &p, h_div_l, (int)(sizeof(h_div_l) / sizeof(h_div_l[0])));
    } while (TG_(jac_is_infinity)(&p));
    scalar_from_u64(k, l);
    TG_(jac_mul_var)(&t, &p, k);
    assert_true(TG_(jac_is_infinity)(&t));
    TG_(jac_to_affine)(&a, &p);
    assert_true(TG_(affine_is_on_curve)(&a));
    assert_false(TG_(affine_in_subgroup)(&a));
    for (int e = 0; e < 24; e++) {
        random_scalar(k);
        k[1] = k[2] = k[3] = 0;
        if (e < 4)
            k[0] = (uint64_t)e;
        TG_(jac_mul)(&t, &p, k);
        TG_(jac_mul_var)(&u, &p, k);
        assert_true(TG_(jac_eq)(&t, &u));
        assert_int_equal(TG_(jac_is_infinity)(&t), k[0] % l == 0);
    }
}

static void test_batch_to_affine(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TG_VECTORS " batch to affine"));
    enum { N = 17 };
    jac_t in[N];
    aff_t out[N], one;
    for (int i = 0; i < N; i++) {
        if (i % 5 == 2)
            TG_(jac_set_infinity)(&in[i]);
        else
            random_jac(&in[i]);
    }
    TG_(jac_batch_to_affine)(out, in, N);
    for (int i = 0; i < N; i++) {
        TG_(jac_to_affine)(&one, &in[i]);
        assert_true(TG_(affine_eq)(&one, &out[i]));
        assert_int_equal(out[i].infinity, i % 5 == 2);
    }
    TG_(jac_batch_to_affine)(out, in, 0);
}

static void test_subgroup(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TG_VECTORS " subgroup"));
    int iters = test_iters(16);
    aff_t a;
    jac_t p, t;
    TG_(affine_set_infinity)(&a);
    assert_true(TG_(affine_in_subgroup)(&a));
    for (int it = 0; it < iters; it++) {
        /* inside: fast test agrees with [r]P = O */
        random_affine(&a);
        assert_true(TG_(affine_in_subgroup)(&a));
        /* outside */
        random_off_subgroup(&a);
        assert_true(TG_(affine_is_on_curve)(&a));
        TG_(jac_from_affine)(&p, &a);
        TG_(jac_mul_var)(&t, &p, ORDER);
        assert_false(TG_(jac_is_infinity)(&t));
        assert_false(TG_(affine_in_subgroup)(&a));
    }
}

/* ---------------------------------------------------------------- vectors */

static void decode_u(aff_t *a, const vec_record *rec, size_t i)
{
    uint8_t buf[TG_UBYTES];
    assert_int_equal(vec_hex(buf, sizeof(buf), rec->fields[i]), 0);
    cuzk_status st = TG_(affine_decode)(a, buf, sizeof(buf), true);
    if (st != CUZK_OK)
        fail_msg("line %d field %zu: %s", rec->line, i, cuzk_status_str(st));
}

static void expect_jac(const jac_t *p, const vec_record *rec, size_t i)
{
    uint8_t want[TG_UBYTES], got[TG_UBYTES];
    aff_t a;
    assert_int_equal(vec_hex(want, sizeof(want), rec->fields[i]), 0);
    TG_(jac_to_affine)(&a, p);
    TG_(affine_to_uncompressed)(got, &a);
    if (memcmp(got, want, sizeof(want)) != 0)
        fail_msg("line %d: %s gives a different point", rec->line, rec->op);
}

static void scalar_from_hex(uint64_t k[4], const char *hex)
{
    uint8_t be[32];
    assert_int_equal(vec_hex(be, sizeof(be), hex), 0);
    for (int i = 0; i < 4; i++) {
        k[i] = 0;
        for (int j = 0; j < 8; j++)
            k[i] |= (uint64_t)be[31 - 8 * i - j] << (8 * j);
    }
}

static void test_vectors(void **state)
{
    (void)state;
    enum { ADD, DBL, NEG, MUL, ENC, NOPS };
    static const char *const ops[NOPS] = {"add", "dbl", "neg", "mul", "enc"};
    static const size_t nfields[NOPS] = {3, 2, 2, 3, 2};
    int count[NOPS] = {0};
    vec_file *f = vec_open(TG_VECTORS);
    if (!f) {
        fail_msg("missing vector file %s", TG_VECTORS);
        return;
    }
    vec_record rec;
    while (vec_next(f, &rec)) {
        int op = 0;
        while (op < NOPS && strcmp(rec.op, ops[op]) != 0)
            op++;
        if (op == NOPS || rec.nfields != nfields[op]) {
            fail_msg("%s line %d: unknown op %s or wrong field count %zu", vec_path(f), rec.line,
                     rec.op, rec.nfields);
            break;
        }
        count[op]++;
        aff_t a, b;
        jac_t p, q, t;
        uint64_t k[4];
        switch (op) {
        case ADD:
            decode_u(&a, &rec, 0);
            decode_u(&b, &rec, 1);
            TG_(jac_from_affine)(&p, &a);
            TG_(jac_from_affine)(&q, &b);
            rescale(&p, &p);
            TG_(jac_add)(&t, &p, &q);
            expect_jac(&t, &rec, 2);
            TG_(jac_add_var)(&t, &q, &p);
            expect_jac(&t, &rec, 2);
            TG_(jac_add_mixed)(&t, &p, &b);
            expect_jac(&t, &rec, 2);
            TG_(jac_add_mixed_var)(&t, &p, &b);
            expect_jac(&t, &rec, 2);
            break;
        case DBL:
            decode_u(&a, &rec, 0);
            TG_(jac_from_affine)(&p, &a);
            TG_(jac_dbl)(&t, &p);
            expect_jac(&t, &rec, 1);
            break;
        case NEG:
            decode_u(&a, &rec, 0);
            TG_(jac_from_affine)(&p, &a);
            TG_(jac_neg)(&t, &p);
            expect_jac(&t, &rec, 1);
            break;
        case MUL:
            decode_u(&a, &rec, 0);
            scalar_from_hex(k, rec.fields[1]);
            TG_(jac_from_affine)(&p, &a);
            TG_(jac_mul)(&t, &p, k);
            expect_jac(&t, &rec, 2);
            TG_(jac_mul_var)(&t, &p, k);
            expect_jac(&t, &rec, 2);
            break;
        case ENC: {
            uint8_t u[TG_UBYTES], c[TG_CBYTES], out[TG_UBYTES];
            assert_int_equal(vec_hex(u, sizeof(u), rec.fields[0]), 0);
            assert_int_equal(vec_hex(c, sizeof(c), rec.fields[1]), 0);
            assert_int_equal(TG_(affine_decode)(&a, u, sizeof(u), true), CUZK_OK);
            assert_int_equal(TG_(affine_decode)(&b, c, sizeof(c), true), CUZK_OK);
            assert_true(TG_(affine_eq)(&a, &b));
            TG_(affine_to_compressed)(out, &a);
            assert_memory_equal(out, c, sizeof(c));
            TG_(affine_to_uncompressed)(out, &b);
            assert_memory_equal(out, u, sizeof(u));
            break;
        }
        }
    }
    vec_close(f);
    for (int op = 0; op < NOPS; op++) {
        printf("%s: %d %s records\n", TG_VECTORS, count[op], ops[op]);
        if (count[op] == 0)
            fail_msg("%s has no %s records", TG_VECTORS, ops[op]);
    }
}

int main(void)
{
    rng_seed(&rng, test_seed(TG_VECTORS " constants"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constants),   cmocka_unit_test(test_group_law),
        cmocka_unit_test(test_xyzz),        cmocka_unit_test(test_scalar_mul),
        cmocka_unit_test(test_small_order), cmocka_unit_test(test_batch_to_affine),
        cmocka_unit_test(test_subgroup),    cmocka_unit_test(test_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
