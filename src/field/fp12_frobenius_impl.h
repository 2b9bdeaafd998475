/* The Frobenius maps of the tower (F6_(frobenius), F12_(frobenius)), from
 * the constants F12_FROB[k − 1][i − 1] = γ_{k,i} = ξ^(i(p^k − 1)/6) of the
 * instantiating file; fp12_frobenius.c explains them. γ_{2,i} lie in Fp
 * for both curves. A template (tower_impl.h). */

/* One application of the map a -> a^(p^k), k in 1..3; r may alias a. */
static void F6_(frobenius_once)(F6_T *r, const F6_T *a, unsigned k)
{
    const F2_T *g = F12_FROB[k - 1];
    if (k == 2) {
        r->c0 = a->c0;
        F2_(mul_fp)(&r->c1, &a->c1, &g[1].c0);
        F2_(mul_fp)(&r->c2, &a->c2, &g[3].c0);
        return;
    }
    F2_(conj)(&r->c0, &a->c0);
    F2_(conj)(&r->c1, &a->c1);
    F2_(conj)(&r->c2, &a->c2);
    F2_(mul)(&r->c1, &r->c1, &g[1]);
    F2_(mul)(&r->c2, &r->c2, &g[3]);
}

static void F12_(frobenius_once)(F12_T *r, const F12_T *a, unsigned k)
{
    const F2_T *g = F12_FROB[k - 1];
    F6_(frobenius_once)(&r->c0, &a->c0, k);
    if (k == 2) {
        F2_(mul_fp)(&r->c1.c0, &a->c1.c0, &g[0].c0);
        F2_(mul_fp)(&r->c1.c1, &a->c1.c1, &g[2].c0);
        F2_(mul_fp)(&r->c1.c2, &a->c1.c2, &g[4].c0);
        return;
    }
    F2_(conj)(&r->c1.c0, &a->c1.c0);
    F2_(conj)(&r->c1.c1, &a->c1.c1);
    F2_(conj)(&r->c1.c2, &a->c1.c2);
    F2_(mul)(&r->c1.c0, &r->c1.c0, &g[0]); /* w   */
    F2_(mul)(&r->c1.c1, &r->c1.c1, &g[2]); /* w³  */
    F2_(mul)(&r->c1.c2, &r->c1.c2, &g[4]); /* w⁵  */
}

void F6_(frobenius)(F6_T *r, const F6_T *a, unsigned k)
{
    k %= 6;
    *r = *a;
    for (; k > 3; k -= 3)
        F6_(frobenius_once)(r, r, 3);
    if (k > 0)
        F6_(frobenius_once)(r, r, k);
}

void F12_(frobenius)(F12_T *r, const F12_T *a, unsigned k)
{
    k %= 12;
    *r = *a;
    for (; k > 3; k -= 3)
        F12_(frobenius_once)(r, r, 3);
    if (k > 0)
        F12_(frobenius_once)(r, r, k);
}
