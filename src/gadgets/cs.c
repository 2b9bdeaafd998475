#include "gadgets/cs.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

static fr_t pow2_table[256];
static fr_t minus_one;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_init(void)
{
    pow2_table[0] = FR_ONE;
    for (unsigned i = 1; i < 256; i++)
        fr_dbl(&pow2_table[i], &pow2_table[i - 1]);
    fr_neg(&minus_one, &FR_ONE);
}

const fr_t *gcs_pow2(unsigned i)
{
    pthread_once(&tables_once, tables_init);
    return &pow2_table[i & 255];
}

const fr_t *gcs_minus_one(void)
{
    pthread_once(&tables_once, tables_init);
    return &minus_one;
}

void gcs_init(gadget_cs *cs, r1cs_builder *b, unsigned flags)
{
    pthread_once(&tables_once, tables_init);
    cs->b = b;
    cs->shape = b && (flags & R1CS_BUILD_SHAPE);
    cs->values = b && (flags & R1CS_BUILD_VALUES);
    cs->status = CUZK_OK;
    cs->num_constraints = cs->num_aux = cs->num_inputs = 0;
    lc_init(&cs->A);
    lc_init(&cs->B);
    lc_init(&cs->C);
}

void gcs_free(gadget_cs *cs)
{
    lc_free(&cs->A);
    lc_free(&cs->B);
    lc_free(&cs->C);
}

cuzk_status gcs_status(const gadget_cs *cs)
{
    if (cs->status != CUZK_OK)
        return cs->status;
    return cs->b ? r1cs_builder_status(cs->b) : CUZK_OK;
}

void gcs_fail(gadget_cs *cs, cuzk_status st)
{
    if (st != CUZK_OK && cs->status == CUZK_OK)
        cs->status = st;
}

static void note(gadget_cs *cs, cuzk_status st)
{
    gcs_fail(cs, st);
}

r1cs_var gcs_alloc_aux(gadget_cs *cs, const fr_t *value)
{
    r1cs_var v = (r1cs_var)(cs->num_aux & R1CS_VAR_INDEX_MASK) | R1CS_VAR_AUX;
    cs->num_aux++;
    if (cs->b)
        note(cs, r1cs_alloc_aux(cs->b, &v, cs->values ? value : NULL));
    return v;
}

r1cs_var gcs_alloc_input(gadget_cs *cs, const fr_t *value)
{
    r1cs_var v = (r1cs_var)((cs->num_inputs + 1) & R1CS_VAR_INDEX_MASK);
    cs->num_inputs++;
    if (cs->b)
        note(cs, r1cs_alloc_input(cs->b, &v, cs->values ? value : NULL));
    return v;
}

bool gcs_begin(gadget_cs *cs)
{
    if (!cs->shape)
        return false;
    lc_clear(&cs->A);
    lc_clear(&cs->B);
    lc_clear(&cs->C);
    return true;
}

void gcs_enforce(gadget_cs *cs)
{
    cs->num_constraints++;
    if (cs->shape)
        note(cs, r1cs_enforce(cs->b, &cs->A, &cs->B, &cs->C));
}

void gnum_init(gnum *x)
{
    lc_init(&x->lc);
    x->val = FR_ZERO;
    x->single = false;
}

void gnum_free(gnum *x)
{
    lc_free(&x->lc);
}

void gnum_set_const(gadget_cs *cs, gnum *x, const fr_t *c)
{
    lc_clear(&x->lc);
    if (cs->shape && !fr_is_zero(c))
        lc_add_constant(&x->lc, c);
    x->val = *c;
    x->single = false;
}

void gnum_set_var(gadget_cs *cs, gnum *x, r1cs_var v, const fr_t *value)
{
    lc_clear(&x->lc);
    if (cs->shape)
        lc_add_one_term(&x->lc, v);
    x->val = cs->values && value ? *value : FR_ZERO;
    x->single = true;
}

void gnum_copy(gadget_cs *cs, gnum *x, const gnum *y)
{
    lc_clear(&x->lc);
    if (cs->shape)
        lc_add_lc(&x->lc, &y->lc, NULL);
    x->val = y->val;
    x->single = y->single;
}

void gnum_add_scaled(gadget_cs *cs, gnum *x, const gnum *y, const fr_t *k)
{
    if (cs->shape)
        lc_add_lc(&x->lc, &y->lc, k);
    if (cs->values) {
        fr_t t = y->val;
        if (k)
            fr_mul(&t, &t, k);
        fr_add(&x->val, &x->val, &t);
    }
    x->single = false;
}

void gnum_add_const(gadget_cs *cs, gnum *x, const fr_t *c)
{
    if (cs->shape)
        lc_add_constant(&x->lc, c);
    fr_add(&x->val, &x->val, c); /* kept in every mode: constants stay known */
    x->single = false;
}

void gnum_materialize(gadget_cs *cs, gnum *x)
{
    if (x->single)
        return;
    r1cs_var v = gcs_alloc_aux(cs, &x->val);
    if (gcs_begin(cs)) {
        lc_add_lc(&cs->A, &x->lc, NULL);
        lc_add_one_term(&cs->B, R1CS_ONE);
        lc_add_one_term(&cs->C, v);
    }
    gcs_enforce(cs);
    lc_clear(&x->lc);
    if (cs->shape)
        lc_add_one_term(&x->lc, v);
    x->single = true;
}

void gnum_alloc(gadget_cs *cs, gnum *x, const fr_t *value)
{
    r1cs_var v = gcs_alloc_aux(cs, value);
    gnum_set_var(cs, x, v, value);
}

void gnum_alloc_input(gadget_cs *cs, gnum *x, const fr_t *value)
{
    r1cs_var v = gcs_alloc_input(cs, value);
    gnum_set_var(cs, x, v, value);
}

void gnum_enforce_equal(gadget_cs *cs, const gnum *x, const gnum *y)
{
    if (gcs_begin(cs)) {
        lc_add_lc(&cs->A, &x->lc, NULL);
        lc_add_one_term(&cs->B, R1CS_ONE);
        lc_add_lc(&cs->C, &y->lc, NULL);
    }
    gcs_enforce(cs);
}

cuzk_status gcs_compile_with_witness(r1cs_builder *b, r1cs_t *r, fr_t **w, uint64_t *n,
                                     unsigned threads)
{
    *w = NULL;
    *n = r1cs_builder_num_inputs(b) + r1cs_builder_num_aux(b);
    fr_t *buf = malloc(*n * sizeof(fr_t));
    if (!buf)
        return CUZK_ERR_OUT_OF_MEMORY;
    cuzk_status st = r1cs_builder_assignment(b, buf, *n);
    if (st == CUZK_OK)
        st = r1cs_builder_compile(r, b, threads);
    if (st != CUZK_OK) {
        free(buf);
        return st;
    }
    *w = buf;
    return CUZK_OK;
}
