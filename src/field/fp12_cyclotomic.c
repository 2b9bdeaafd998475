/* Arithmetic in the cyclotomic subgroup G_Φ6(p²) of Fp12*, where the final
 * exponentiation does its work after the easy part.
 *
 * Granger and Scott ("Faster squaring in the cyclotomic subgroup of sixth
 * degree extensions", PKC 2010, §3.1) view Fp12 as Fp4[s] / (s³ − t) with
 * Fp4 = Fp2[t] / (t² − ξ). In our tower s = w and t = w³, so an element
 * a0 + a1 w + … + a5 w⁵ (fp12.c) is A + B w + C w² with
 *   A = a0 + a3 t = (c0.c0, c1.c1), B = a1 + a4 t = (c1.c0, c0.c2),
 *   C = a2 + a5 t = (c0.c1, c1.c2),
 * and for a in the subgroup
 *   a² = (3A² − 2Ā) + (3tC² + 2B̄) w + (3B² − 2C̄) w²,  (x + y t)‾ = x − y t,
 * nine Fp2 squarings instead of the twelve products of fp12_sqr. */

#include "field/fp12.h"

/* |x| for the BLS12-381 parameter x = −0xd201000000010000. */
#define BLS_X_ABS 0xd201000000010000ULL

/* (x + y t)² = (x² + ξ y²) + 2xy t with three Fp2 squarings. */
static void fp4_sqr(fp2_t *rx, fp2_t *ry, const fp2_t *x, const fp2_t *y)
{
    fp2_t t0, t1, s;
    fp2_sqr(&t0, x);
    fp2_sqr(&t1, y);
    fp2_add(&s, x, y);
    fp2_sqr(&s, &s);
    fp2_sub(&s, &s, &t0);
    fp2_sub(ry, &s, &t1);
    fp2_mul_nonresidue(&t1, &t1);
    fp2_add(rx, &t0, &t1);
}

/* r = 3s − 2a = 2(s − a) + s. */
static void three_minus_two(fp2_t *r, const fp2_t *s, const fp2_t *a)
{
    fp2_t t;
    fp2_sub(&t, s, a);
    fp2_dbl(&t, &t);
    fp2_add(r, &t, s);
}

/* r = 3s + 2a = 2(s + a) + s. */
static void three_plus_two(fp2_t *r, const fp2_t *s, const fp2_t *a)
{
    fp2_t t;
    fp2_add(&t, s, a);
    fp2_dbl(&t, &t);
    fp2_add(r, &t, s);
}

void fp12_cyclotomic_sqr(fp12_t *r, const fp12_t *a)
{
    fp2_t ax, ay, bx, by, cx, cy;
    fp4_sqr(&ax, &ay, &a->c0.c0, &a->c1.c1); /* A² */
    fp4_sqr(&bx, &by, &a->c1.c0, &a->c0.c2); /* B² */
    fp4_sqr(&cx, &cy, &a->c0.c1, &a->c1.c2); /* C² */

    /* A' = 3A² − 2Ā */
    three_minus_two(&r->c0.c0, &ax, &a->c0.c0);
    three_plus_two(&r->c1.c1, &ay, &a->c1.c1);
    /* B' = 3tC² + 2B̄, tC² = ξ cy + cx t */
    fp2_mul_nonresidue(&cy, &cy);
    three_plus_two(&r->c1.c0, &cy, &a->c1.c0);
    three_minus_two(&r->c0.c2, &cx, &a->c0.c2);
    /* C' = 3B² − 2C̄ */
    three_minus_two(&r->c0.c1, &bx, &a->c0.c1);
    three_plus_two(&r->c1.c2, &by, &a->c1.c2);
}

/* Square-and-multiply over the six set bits of |x|, then conjugation
 * (the inverse in the subgroup) for the sign. */
void fp12_cyclotomic_exp_x(fp12_t *r, const fp12_t *a)
{
    fp12_t acc = *a, base = *a;
    for (int i = 62; i >= 0; i--) {
        fp12_cyclotomic_sqr(&acc, &acc);
        if ((BLS_X_ABS >> i) & 1)
            fp12_mul(&acc, &acc, &base);
    }
    fp12_conj(r, &acc);
}

/* Left-to-right sliding window of width 3 over the odd powers a, a³, a⁵, a⁷
 * (Menezes, van Oorschot, Vanstone, Handbook of Applied Cryptography,
 * Algorithm 14.85). The operations depend on e only. */
void fp12_cyclotomic_pow_var(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t e_limbs)
{
    enum { W = 3 };
    fp12_t table[1 << (W - 1)], a2, acc = FP12_ONE;
    size_t bits = 64 * e_limbs;
#define BIT(i) ((e[(i) / 64] >> ((i) % 64)) & 1)
    while (bits > 0 && !BIT(bits - 1))
        bits--;
    if (bits == 0) {
        *r = FP12_ONE;
        return;
    }
    table[0] = *a;
    fp12_cyclotomic_sqr(&a2, a);
    for (int i = 1; i < (1 << (W - 1)); i++)
        fp12_mul(&table[i], &table[i - 1], &a2);

    bool started = false;
    for (size_t i = bits; i > 0;) {
        if (!BIT(i - 1)) {
            fp12_cyclotomic_sqr(&acc, &acc);
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
                fp12_cyclotomic_sqr(&acc, &acc);
            fp12_mul(&acc, &acc, &table[digit >> 1]);
        } else {
            acc = table[digit >> 1];
            started = true;
        }
        i -= len;
    }
#undef BIT
    *r = acc;
}
