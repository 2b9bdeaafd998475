#include "gadgets/word32.h"

void gword_const(gword *w, uint32_t v)
{
    for (unsigned i = 0; i < 32; i++)
        w->b[i] = gbit_const((v >> i) & 1);
}

void gword_alloc(gadget_cs *cs, gword *w, uint32_t v)
{
    for (unsigned i = 0; i < 32; i++)
        w->b[i] = gbit_alloc(cs, (v >> i) & 1);
}

uint32_t gword_value(const gword *w)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 32; i++)
        v |= (uint32_t)(w->b[i].val & 1) << i;
    return v;
}

void gword_rotr(gword *out, const gword *x, unsigned n)
{
    gword t;
    for (unsigned i = 0; i < 32; i++)
        t.b[i] = x->b[(i + n) & 31];
    *out = t;
}

void gword_shr(gword *out, const gword *x, unsigned n)
{
    gword t;
    for (unsigned i = 0; i < 32; i++)
        t.b[i] = i + n < 32 ? x->b[i + n] : gbit_const(false);
    *out = t;
}

void gword_xor(gadget_cs *cs, gword *out, const gword *x, const gword *y)
{
    for (unsigned i = 0; i < 32; i++)
        out->b[i] = gbit_xor(cs, x->b[i], y->b[i]);
}

void gword_xor3(gadget_cs *cs, gword *out, const gword *x, const gword *y, const gword *z)
{
    for (unsigned i = 0; i < 32; i++)
        out->b[i] = gbit_xor3(cs, x->b[i], y->b[i], z->b[i]);
}

void gword_ch(gadget_cs *cs, gword *out, const gword *x, const gword *y, const gword *z)
{
    for (unsigned i = 0; i < 32; i++)
        out->b[i] = gbit_ch(cs, x->b[i], y->b[i], z->b[i]);
}

void gword_maj(gadget_cs *cs, gword *out, const gword *x, const gword *y, const gword *z)
{
    for (unsigned i = 0; i < 32; i++)
        out->b[i] = gbit_maj(cs, x->b[i], y->b[i], z->b[i]);
}

void gword_add_many(gadget_cs *cs, gword *out, const gword *const *ops, size_t n)
{
    /* The largest value the sum can take decides how many result bits
     * (the 32 low ones plus the carries) are needed for the unpacking to
     * be exact: a constant bit contributes its value, a variable bit its
     * weight. */
    uint64_t max = 0, sum = 0;
    bool all_const = true;
    for (size_t k = 0; k < n; k++) {
        for (unsigned i = 0; i < 32; i++) {
            gbit g = ops[k]->b[i];
            if (g.kind == GBIT_CONST) {
                max += (uint64_t)g.val << i;
            } else {
                max += (uint64_t)1 << i;
                all_const = false;
            }
            sum += (uint64_t)(g.val & 1) << i;
        }
    }
    if (all_const) {
        gword_const(out, (uint32_t)sum);
        return;
    }
    unsigned nbits = 0;
    while (nbits < 64 && (max >> nbits) != 0)
        nbits++;
    gbit r[64];
    for (unsigned i = 0; i < nbits; i++)
        r[i] = gbit_alloc(cs, (sum >> i) & 1);
    if (gcs_begin(cs)) {
        /* (Σ_k Σ_i 2^i op_k,i)·1 = Σ_j 2^j r_j */
        for (size_t k = 0; k < n; k++)
            for (unsigned i = 0; i < 32; i++)
                gbit_lc_add(&cs->A, ops[k]->b[i], gcs_pow2(i));
        lc_add_one_term(&cs->B, R1CS_ONE);
        for (unsigned j = 0; j < nbits; j++)
            lc_add_term(&cs->C, r[j].var, gcs_pow2(j));
    }
    gcs_enforce(cs);
    for (unsigned i = 0; i < 32; i++)
        out->b[i] = i < nbits ? r[i] : gbit_const(false);
}
