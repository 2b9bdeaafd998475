#include "r1cs/lc.h"

#include <stdlib.h>
#include <string.h>

void lc_init(lc_t *lc)
{
    lc->terms = NULL;
    lc->len = lc->cap = 0;
    lc->oom = false;
}

void lc_free(lc_t *lc)
{
    free(lc->terms);
    lc_init(lc);
}

void lc_clear(lc_t *lc)
{
    lc->len = 0;
    lc->oom = false;
}

/* Makes room for `extra` more terms; false (and oom set) on failure. */
static bool lc_reserve(lc_t *lc, size_t extra)
{
    if (lc->oom)
        return false;
    if (lc->len + extra <= lc->cap)
        return true;
    size_t cap = lc->cap ? lc->cap : 8;
    while (cap < lc->len + extra) {
        if (cap > SIZE_MAX / 2 / sizeof(lc_term)) {
            lc->oom = true;
            return false;
        }
        cap *= 2;
    }
    lc_term *t = realloc(lc->terms, cap * sizeof(lc_term));
    if (!t) {
        lc->oom = true;
        return false;
    }
    lc->terms = t;
    lc->cap = cap;
    return true;
}

void lc_add_term(lc_t *lc, r1cs_var var, const fr_t *coeff)
{
    if (!lc_reserve(lc, 1))
        return;
    lc->terms[lc->len].var = var;
    lc->terms[lc->len].coeff = *coeff;
    lc->len++;
}

void lc_add_one_term(lc_t *lc, r1cs_var var)
{
    lc_add_term(lc, var, &FR_ONE);
}

void lc_sub_term(lc_t *lc, r1cs_var var, const fr_t *coeff)
{
    fr_t neg;
    fr_neg(&neg, coeff);
    lc_add_term(lc, var, &neg);
}

void lc_sub_one_term(lc_t *lc, r1cs_var var)
{
    lc_sub_term(lc, var, &FR_ONE);
}

void lc_add_constant(lc_t *lc, const fr_t *constant)
{
    lc_add_term(lc, R1CS_ONE, constant);
}

void lc_add_lc(lc_t *lc, const lc_t *other, const fr_t *scale)
{
    if (other->oom) {
        lc->oom = true;
        return;
    }
    if (other == lc) {
        /* lc += scale·lc: scale every coefficient by (1 + scale) in place. */
        fr_t f = FR_ONE;
        if (scale)
            fr_add(&f, &f, scale);
        else
            fr_add(&f, &f, &FR_ONE);
        for (size_t i = 0; i < lc->len; i++)
            fr_mul(&lc->terms[i].coeff, &lc->terms[i].coeff, &f);
        return;
    }
    if (!lc_reserve(lc, other->len))
        return;
    for (size_t i = 0; i < other->len; i++) {
        lc_term *t = &lc->terms[lc->len + i];
        t->var = other->terms[i].var;
        if (scale)
            fr_mul(&t->coeff, &other->terms[i].coeff, scale);
        else
            t->coeff = other->terms[i].coeff;
    }
    lc->len += other->len;
}

static int lc_term_cmp(const void *x, const void *y)
{
    r1cs_var a = ((const lc_term *)x)->var, b = ((const lc_term *)y)->var;
    return (a > b) - (a < b);
}

void lc_normalize(lc_t *lc)
{
    size_t n = lc->len;
    lc_term *t = lc->terms;
    if (n == 0)
        return;
    /* Constraints are mostly 1-4 terms: insertion sort beats qsort there. */
    if (n <= 16) {
        for (size_t i = 1; i < n; i++) {
            lc_term x = t[i];
            size_t j = i;
            while (j > 0 && t[j - 1].var > x.var) {
                t[j] = t[j - 1];
                j--;
            }
            t[j] = x;
        }
    } else {
        qsort(t, n, sizeof(lc_term), lc_term_cmp);
    }
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        lc_term acc = t[i];
        size_t j = i + 1;
        for (; j < n && t[j].var == acc.var; j++)
            fr_add(&acc.coeff, &acc.coeff, &t[j].coeff);
        if (!fr_is_zero(&acc.coeff))
            t[out++] = acc;
        i = j;
    }
    lc->len = out;
}

void lc_eval(fr_t *out, const lc_t *lc, const fr_t *input_values, const fr_t *aux_values)
{
    fr_t acc = FR_ZERO, prod;
    for (size_t i = 0; i < lc->len; i++) {
        const lc_term *t = &lc->terms[i];
        const fr_t *v = r1cs_var_is_aux(t->var) ? &aux_values[r1cs_var_index(t->var)]
                                                : &input_values[r1cs_var_index(t->var)];
        fr_mul(&prod, &t->coeff, v);
        fr_add(&acc, &acc, &prod);
    }
    *out = acc;
}
