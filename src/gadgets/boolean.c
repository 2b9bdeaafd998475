#include "gadgets/boolean.h"

/* The value of a's variable (not of the literal). */
static inline bool var_val(gbit a)
{
    return (a.val ^ (a.kind == GBIT_NOT)) & 1;
}

static gbit new_var(gadget_cs *cs, bool value)
{
    gbit g;
    g.var = gcs_alloc_aux(cs, value ? &FR_ONE : &FR_ZERO);
    g.kind = GBIT_VAR;
    g.val = cs->values ? (uint8_t)value : 0;
    return g;
}

void gbit_enforce_boolean(gadget_cs *cs, r1cs_var v)
{
    if (gcs_begin(cs)) {
        lc_add_one_term(&cs->A, R1CS_ONE);
        lc_sub_one_term(&cs->A, v);
        lc_add_one_term(&cs->B, v);
    }
    gcs_enforce(cs);
}

gbit gbit_alloc(gadget_cs *cs, bool value)
{
    gbit g = new_var(cs, value);
    gbit_enforce_boolean(cs, g.var);
    return g;
}

void gbit_lc_add(lc_t *lc, gbit a, const fr_t *k)
{
    const fr_t *one = k ? k : &FR_ONE;
    switch (a.kind) {
    case GBIT_CONST:
        if (a.val)
            lc_add_constant(lc, one);
        break;
    case GBIT_VAR:
        lc_add_term(lc, a.var, one);
        break;
    default: /* k·(1 - v) */
        lc_add_constant(lc, one);
        lc_sub_term(lc, a.var, one);
        break;
    }
}

gbit gbit_xor(gadget_cs *cs, gbit a, gbit b)
{
    if (a.kind == GBIT_CONST)
        return a.val ? gbit_not(b) : b;
    if (b.kind == GBIT_CONST)
        return b.val ? gbit_not(a) : a;
    /* ¬x ⊕ y = ¬(x ⊕ y): work on the variables, negate the result. */
    bool flip = (a.kind == GBIT_NOT) ^ (b.kind == GBIT_NOT);
    bool x = var_val(a), y = var_val(b);
    gbit c = new_var(cs, x ^ y);
    if (gcs_begin(cs)) {
        /* (2x)·y = x + y - c */
        lc_add_term(&cs->A, a.var, gcs_pow2(1));
        lc_add_one_term(&cs->B, b.var);
        lc_add_one_term(&cs->C, a.var);
        lc_add_one_term(&cs->C, b.var);
        lc_sub_one_term(&cs->C, c.var);
    }
    gcs_enforce(cs);
    return flip ? gbit_not(c) : c;
}

gbit gbit_and(gadget_cs *cs, gbit a, gbit b)
{
    if (a.kind == GBIT_CONST)
        return a.val ? b : gbit_const(false);
    if (b.kind == GBIT_CONST)
        return b.val ? a : gbit_const(false);
    gbit c = new_var(cs, a.val & b.val);
    if (gcs_begin(cs)) {
        gbit_lc_add(&cs->A, a, NULL);
        gbit_lc_add(&cs->B, b, NULL);
        lc_add_one_term(&cs->C, c.var);
    }
    gcs_enforce(cs);
    return c;
}

gbit gbit_or(gadget_cs *cs, gbit a, gbit b)
{
    return gbit_not(gbit_and(cs, gbit_not(a), gbit_not(b)));
}

gbit gbit_xor3(gadget_cs *cs, gbit a, gbit b, gbit c)
{
    /* A constant operand first keeps the count at 1 when there is one. */
    if (c.kind == GBIT_CONST)
        return gbit_xor(cs, gbit_xor(cs, c, a), b);
    if (b.kind == GBIT_CONST)
        return gbit_xor(cs, gbit_xor(cs, b, a), c);
    return gbit_xor(cs, gbit_xor(cs, a, b), c);
}

gbit gbit_ch(gadget_cs *cs, gbit a, gbit b, gbit c)
{
    if (a.kind == GBIT_CONST)
        return a.val ? b : c;
    if (a.kind == GBIT_NOT) { /* ch(¬x, b, c) = ch(x, c, b) */
        gbit t = b;
        b = c;
        c = t;
        a = gbit_not(a);
    }
    if (b.kind == GBIT_CONST && c.kind == GBIT_CONST) {
        if (b.val == c.val)
            return b;
        return b.val ? a : gbit_not(a);
    }
    if (b.kind == GBIT_CONST) /* b = 0: ¬a ∧ c ; b = 1: a ∨ c */
        return b.val ? gbit_or(cs, a, c) : gbit_and(cs, gbit_not(a), c);
    if (c.kind == GBIT_CONST) /* c = 0: a ∧ b ; c = 1: ¬a ∨ b */
        return c.val ? gbit_or(cs, gbit_not(a), b) : gbit_and(cs, a, b);
    bool r = a.val ? b.val : c.val;
    gbit ch = new_var(cs, r);
    if (gcs_begin(cs)) {
        /* (b - c)·a = ch - c */
        gbit_lc_add(&cs->A, b, NULL);
        gbit_lc_add(&cs->A, c, gcs_minus_one());
        lc_add_one_term(&cs->B, a.var);
        lc_add_one_term(&cs->C, ch.var);
        gbit_lc_add(&cs->C, c, gcs_minus_one());
    }
    gcs_enforce(cs);
    return ch;
}

gbit gbit_maj(gadget_cs *cs, gbit a, gbit b, gbit c)
{
    /* With a constant operand: maj(0, x, y) = x ∧ y, maj(1, x, y) = x ∨ y. */
    if (a.kind == GBIT_CONST)
        return a.val ? gbit_or(cs, b, c) : gbit_and(cs, b, c);
    if (b.kind == GBIT_CONST)
        return b.val ? gbit_or(cs, a, c) : gbit_and(cs, a, c);
    if (c.kind == GBIT_CONST)
        return c.val ? gbit_or(cs, a, b) : gbit_and(cs, a, b);
    /* maj = a·(b + c - 2bc) + bc */
    gbit bc = gbit_and(cs, b, c);
    bool r = (a.val & b.val) | (a.val & c.val) | (b.val & c.val);
    gbit m = new_var(cs, r);
    if (gcs_begin(cs)) {
        gbit_lc_add(&cs->A, b, NULL);
        gbit_lc_add(&cs->A, c, NULL);
        lc_sub_term(&cs->A, bc.var, gcs_pow2(1));
        gbit_lc_add(&cs->B, a, NULL);
        lc_add_one_term(&cs->C, m.var);
        lc_sub_one_term(&cs->C, bc.var);
    }
    gcs_enforce(cs);
    return m;
}

void gnum_from_bits(gadget_cs *cs, gnum *x, const gbit *bits, size_t n)
{
    if (n > GBITS_MAX) {
        gcs_fail(cs, CUZK_ERR_INVALID_ARGUMENT);
        n = GBITS_MAX;
    }
    lc_clear(&x->lc);
    x->val = FR_ZERO;
    x->single = false;
    if (cs->shape)
        for (size_t i = 0; i < n; i++)
            gbit_lc_add(&x->lc, bits[i], gcs_pow2((unsigned)i));
    if (cs->values) {
        uint64_t raw[FR_LIMBS] = {0, 0, 0, 0};
        for (size_t i = 0; i < n; i++)
            raw[i / 64] |= (uint64_t)(bits[i].val & 1) << (i % 64);
        fr_from_raw(&x->val, raw); /* below 2^254 < r */
    }
}

void gnum_pack_bits(gadget_cs *cs, gnum *x, const gbit *bits, size_t n)
{
    gnum_from_bits(cs, x, bits, n);
    gnum_materialize(cs, x);
}

void gbits_unpack(gadget_cs *cs, gbit *bits, const gnum *x, size_t n)
{
    if (n > GBITS_MAX) { /* the representation would not be unique */
        gcs_fail(cs, CUZK_ERR_INVALID_ARGUMENT);
        return;
    }
    uint64_t raw[FR_LIMBS] = {0, 0, 0, 0};
    if (cs->values)
        fr_to_raw(raw, &x->val);
    for (size_t i = 0; i < n; i++)
        bits[i] = gbit_alloc(cs, (raw[i / 64] >> (i % 64)) & 1);
    if (gcs_begin(cs)) {
        /* x·1 = Σ 2^i b_i */
        lc_add_lc(&cs->A, &x->lc, NULL);
        lc_add_one_term(&cs->B, R1CS_ONE);
        for (size_t i = 0; i < n; i++)
            lc_add_term(&cs->C, bits[i].var, gcs_pow2((unsigned)i));
    }
    gcs_enforce(cs);
}
