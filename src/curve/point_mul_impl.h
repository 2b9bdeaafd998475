/* Scalar multiplication and batch normalisation, written once for every
 * group (BLS12-381 and BN254 G1 and G2). A template included after
 * point_impl.h (same parameters). */

/* ---------------------------------------------------------------- batch */

void PT_(jac_batch_to_affine)(AFF_T *out, const JAC_T *in, size_t n)
{
    /* Montgomery's trick: out[i].x holds the product of the nonzero Z of
     * in[0..i), then one inversion, then a backward pass. 3M per point plus
     * 3M + 1S to apply 1/Z. Infinities (Z = 0) are skipped. */
    FE_T acc = FE_ONE, inv, zi, zi2;
    for (size_t i = 0; i < n; i++) {
        out[i].x = acc;
        if (!fe_is_zero(&in[i].z))
            fe_mul(&acc, &acc, &in[i].z);
    }
    fe_inv_var(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (fe_is_zero(&in[i].z)) {
            PT_(affine_set_infinity)(&out[i]);
            continue;
        }
        fe_mul(&zi, &inv, &out[i].x);
        fe_mul(&inv, &inv, &in[i].z);
        fe_sqr(&zi2, &zi);
        fe_mul(&out[i].x, &in[i].x, &zi2);
        fe_mul(&zi2, &zi2, &zi);
        fe_mul(&out[i].y, &in[i].y, &zi2);
        out[i].infinity = false;
    }
}

/* ---------------------------------------------------------------- constant time */

#define CT_WINDOW 4
#define CT_TABLE (1 << CT_WINDOW)

void PT_(jac_mul)(JAC_T *r, const JAC_T *p, const uint64_t k[4])
{
    /* Fixed 4-bit windows from the top over all 256 bits: 4 doublings, then
     * one unified addition of table[digit], the table read in full and the
     * entry picked by cmov. The table holds [0]P .. [15]P, [0]P = infinity;
     * the unified addition makes infinity, P = Q and P = −Q branch free. */
    JAC_T table[CT_TABLE], acc, t;
    PT_(jac_set_infinity)(&table[0]);
    table[1] = *p;
    for (int i = 2; i < CT_TABLE; i++) {
        if (i % 2 == 0)
            PT_(jac_dbl)(&table[i], &table[i / 2]);
        else
            PT_(jac_add)(&table[i], &table[i - 1], p);
    }
    PT_(jac_set_infinity)(&acc);
    for (int w = 256 / CT_WINDOW - 1; w >= 0; w--) {
        for (int i = 0; i < CT_WINDOW; i++)
            PT_(jac_dbl)(&acc, &acc);
        unsigned bit = (unsigned)w * CT_WINDOW;
        uint64_t digit = (k[bit / 64] >> (bit % 64)) & (CT_TABLE - 1);
        t = table[0];
        for (uint64_t i = 1; i < CT_TABLE; i++) {
            /* (i ^ digit) - 1 has its top bit set exactly when i = digit. */
            bool hit = (((i ^ digit) - 1) >> 63) != 0;
            jac_cmov(&t, &table[i], hit);
        }
        PT_(jac_add)(&acc, &acc, &t);
    }
    *r = acc;
}

#undef CT_WINDOW
#undef CT_TABLE

/* ---------------------------------------------------------------- variable time */

#define WNAF_WINDOW 5
#define WNAF_TABLE (1 << (WNAF_WINDOW - 2)) /* odd multiples P, 3P, .., 15P */

/* Width-5 NAF of k: digits odd in [−15, 15] or zero, at most one nonzero in
 * any 5 consecutive positions. Returns the number of digits (≤ 257). */
static int wnaf_digits(int8_t digits[257], const uint64_t k[4])
{
    uint64_t w[5] = {k[0], k[1], k[2], k[3], 0};
    int n = 0;
    while (w[0] | w[1] | w[2] | w[3] | w[4]) {
        int d = 0;
        if (w[0] & 1) {
            d = (int)(w[0] & ((1u << WNAF_WINDOW) - 1));
            if (d >= 1 << (WNAF_WINDOW - 1))
                d -= 1 << WNAF_WINDOW;
            /* w -= d: a borrow (d > 0) or a carry (d < 0) through the limbs. */
            if (d > 0) {
                uint64_t borrow = (uint64_t)d;
                for (int i = 0; i < 5 && borrow; i++) {
                    uint64_t old = w[i];
                    w[i] -= borrow;
                    borrow = old < borrow;
                }
            } else {
                uint64_t carry = (uint64_t)(-d);
                for (int i = 0; i < 5 && carry; i++) {
                    w[i] += carry;
                    carry = w[i] < carry;
                }
            }
        }
        digits[n++] = (int8_t)d;
        for (int i = 0; i < 4; i++)
            w[i] = (w[i] >> 1) | (w[i + 1] << 63);
        w[4] >>= 1;
    }
    return n;
}

void PT_(jac_mul_var)(JAC_T *r, const JAC_T *p, const uint64_t k[4])
{
    int8_t digits[257];
    JAC_T table[WNAF_TABLE], twice, acc, neg;
    int n = wnaf_digits(digits, k);
    table[0] = *p;
    PT_(jac_dbl)(&twice, p);
    for (int i = 1; i < WNAF_TABLE; i++)
        PT_(jac_add_var)(&table[i], &table[i - 1], &twice);
    PT_(jac_set_infinity)(&acc);
    for (int i = n - 1; i >= 0; i--) {
        PT_(jac_dbl)(&acc, &acc);
        int d = digits[i];
        if (d > 0) {
            PT_(jac_add_var)(&acc, &acc, &table[d / 2]);
        } else if (d < 0) {
            PT_(jac_neg)(&neg, &table[-d / 2]);
            PT_(jac_add_var)(&acc, &acc, &neg);
        }
    }
    *r = acc;
}

#undef WNAF_WINDOW
#undef WNAF_TABLE

/* ---------------------------------------------------------------- [|x|]P */

/* The subgroup tests of BLS12-381 (g1.c, g2.c), which define CURVE_ABS_X:
 * |x| for the BLS parameter x = −0xd201000000010000, 64 bits, six of them
 * set, so [|x|]P is 63 doublings and 5 additions. */
#ifdef CURVE_ABS_X

/* r = [|x|]·a for an affine a, constant time (the chain is fixed). */
static inline void affine_mul_abs_x(JAC_T *r, const AFF_T *a)
{
    JAC_T acc;
    PT_(jac_from_affine)(&acc, a);
    for (int i = 62; i >= 0; i--) {
        PT_(jac_dbl)(&acc, &acc);
        if ((CURVE_ABS_X >> i) & 1)
            PT_(jac_add_mixed)(&acc, &acc, a);
    }
    *r = acc;
}

/* r = [|x|]·a for a Jacobian a, constant time (inline: only G1 uses it). */
static inline void jac_mul_abs_x(JAC_T *r, const JAC_T *a)
{
    JAC_T acc = *a, base = *a;
    for (int i = 62; i >= 0; i--) {
        PT_(jac_dbl)(&acc, &acc);
        if ((CURVE_ABS_X >> i) & 1)
            PT_(jac_add)(&acc, &acc, &base);
    }
    *r = acc;
}

/* a == b for an affine a and a Jacobian b: x·Z² = X and y·Z³ = Y. */
static bool affine_eq_jac(const AFF_T *a, const JAC_T *b)
{
    FE_T zz, t;
    bool b_inf = fe_is_zero(&b->z);
    fe_sqr(&zz, &b->z);
    fe_mul(&t, &a->x, &zz);
    bool same = fe_eq(&t, &b->x);
    fe_mul(&zz, &zz, &b->z);
    fe_mul(&t, &a->y, &zz);
    same &= fe_eq(&t, &b->y);
    return (a->infinity & b_inf) | (!a->infinity & !b_inf & same);
}

#undef CURVE_ABS_X
#endif
