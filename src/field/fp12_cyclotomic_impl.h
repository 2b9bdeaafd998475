/* Arithmetic in the cyclotomic subgroup (fp12_cyclotomic.c explains the
 * Granger-Scott squaring): F12_(cyclotomic_sqr) and F12_(cyclotomic_pow_var).
 * A template (tower_impl.h); the exponentiation by the curve parameter is
 * the instantiating file's. */

/* (x + y t)² = (x² + ξ y²) + 2xy t with three Fp2 squarings. */
static void fp4_sqr(F2_T *rx, F2_T *ry, const F2_T *x, const F2_T *y)
{
    F2_T t0, t1, s;
    F2_(sqr)(&t0, x);
    F2_(sqr)(&t1, y);
    F2_(add)(&s, x, y);
    F2_(sqr)(&s, &s);
    F2_(sub)(&s, &s, &t0);
    F2_(sub)(ry, &s, &t1);
    F2_(mul_nonresidue)(&t1, &t1);
    F2_(add)(rx, &t0, &t1);
}

/* r = 3s − 2a = 2(s − a) + s. */
static void three_minus_two(F2_T *r, const F2_T *s, const F2_T *a)
{
    F2_T t;
    F2_(sub)(&t, s, a);
    F2_(dbl)(&t, &t);
    F2_(add)(r, &t, s);
}

/* r = 3s + 2a = 2(s + a) + s. */
static void three_plus_two(F2_T *r, const F2_T *s, const F2_T *a)
{
    F2_T t;
    F2_(add)(&t, s, a);
    F2_(dbl)(&t, &t);
    F2_(add)(r, &t, s);
}

void F12_(cyclotomic_sqr)(F12_T *r, const F12_T *a)
{
    F2_T ax, ay, bx, by, cx, cy;
    fp4_sqr(&ax, &ay, &a->c0.c0, &a->c1.c1); /* A² */
    fp4_sqr(&bx, &by, &a->c1.c0, &a->c0.c2); /* B² */
    fp4_sqr(&cx, &cy, &a->c0.c1, &a->c1.c2); /* C² */

    /* A' = 3A² − 2Ā */
    three_minus_two(&r->c0.c0, &ax, &a->c0.c0);
    three_plus_two(&r->c1.c1, &ay, &a->c1.c1);
    /* B' = 3tC² + 2B̄, tC² = ξ cy + cx t */
    F2_(mul_nonresidue)(&cy, &cy);
    three_plus_two(&r->c1.c0, &cy, &a->c1.c0);
    three_minus_two(&r->c0.c2, &cx, &a->c0.c2);
    /* C' = 3B² − 2C̄ */
    three_minus_two(&r->c0.c1, &bx, &a->c0.c1);
    three_plus_two(&r->c1.c2, &by, &a->c1.c2);
}

/* Left-to-right sliding window of width 3 over the odd powers a, a³, a⁵, a⁷
 * (Menezes, van Oorschot, Vanstone, Handbook of Applied Cryptography,
 * Algorithm 14.85). The operations depend on e only. */
void F12_(cyclotomic_pow_var)(F12_T *r, const F12_T *a, const uint64_t *e, size_t e_limbs)
{
    enum { W = 3 };
    F12_T table[1 << (W - 1)], a2, acc = F12_ONE;
    size_t bits = 64 * e_limbs;
#define BIT(i) ((e[(i) / 64] >> ((i) % 64)) & 1)
    while (bits > 0 && !BIT(bits - 1))
        bits--;
    if (bits == 0) {
        *r = F12_ONE;
        return;
    }
    table[0] = *a;
    F12_(cyclotomic_sqr)(&a2, a);
    for (int i = 1; i < (1 << (W - 1)); i++)
        F12_(mul)(&table[i], &table[i - 1], &a2);

    bool started = false;
    for (size_t i = bits; i > 0;) {
        if (!BIT(i - 1)) {
            F12_(cyclotomic_sqr)(&acc, &acc);
            i--;
            continue;
        }
        /* The longest window of at most W bits that starts at bit i − 1 and
         * ends on a set bit. */
        size_t len = i < W ? i : W;
        while (!BIT(i - len))
            len--;
        unsigned digit = 0;
        for (size_t j = 0; j < len; j++)
            digit = (digit << 1) | (unsigned)BIT(i - 1 - j);
        if (started) {
            for (size_t j = 0; j < len; j++)
                F12_(cyclotomic_sqr)(&acc, &acc);
            F12_(mul)(&acc, &acc, &table[digit >> 1]);
        } else {
            acc = table[digit >> 1];
            started = true;
        }
        i -= len;
    }
#undef BIT
    *r = acc;
}

/* r = f^((p^6 − 1)(p^2 + 1)), the easy part of a final exponentiation:
 * conj(f)/f = f^(p^6 − 1), then ·^(p^2 + 1) with a Frobenius map. The result
 * lies in the cyclotomic subgroup (f ≠ 0). */
void F12_(final_exp_easy)(F12_T *r, const F12_T *f)
{
    F12_T t0, t1;
    F12_(inv)(&t1, f);
    F12_(conj)(&t0, f);
    F12_(mul)(&t0, &t0, &t1);
    F12_(frobenius)(&t1, &t0, 2);
    F12_(mul)(r, &t1, &t0);
}
