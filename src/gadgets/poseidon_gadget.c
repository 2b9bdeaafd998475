/* The Poseidon permutation as R1CS (paper Sect. 2.2; the x^5 S-box in three
 * multiplications, Sect. 2.3 / Table 1's R1CS cost). See poseidon.h for the
 * layout and the counts. */
#include "gadgets/poseidon.h"

/* Partial rounds between two re-allocations of the cells that skip the
 * S-box. Their combinations grow by one term per partial round (the new
 * S-box output), and every term shows up again in the next S-box input;
 * re-allocating costs t - 1 constraints. 4t/3 rounds (4 for t = 3, 6 for
 * t = 5, 12 for t = 9) came out near the least total of constraints plus
 * nonzeros in a sweep of the interval. */
static unsigned remat_interval(unsigned t)
{
    return 4 * t / 3;
}

/* x ← x^5 with x materialized first: 3 constraints (+1 to materialize). */
static void sbox(gadget_cs *cs, gnum *x)
{
    gnum_materialize(cs, x);
    r1cs_var in = cs->shape ? x->lc.terms[0].var : R1CS_ONE;
    fr_t v2, v4, v5;
    if (cs->values) {
        fr_sqr(&v2, &x->val);
        fr_sqr(&v4, &v2);
        fr_mul(&v5, &v4, &x->val);
    }
    r1cs_var x2 = gcs_alloc_aux(cs, &v2);
    if (gcs_begin(cs)) {
        lc_add_one_term(&cs->A, in);
        lc_add_one_term(&cs->B, in);
        lc_add_one_term(&cs->C, x2);
    }
    gcs_enforce(cs);
    r1cs_var x4 = gcs_alloc_aux(cs, &v4);
    if (gcs_begin(cs)) {
        lc_add_one_term(&cs->A, x2);
        lc_add_one_term(&cs->B, x2);
        lc_add_one_term(&cs->C, x4);
    }
    gcs_enforce(cs);
    r1cs_var x5 = gcs_alloc_aux(cs, &v5);
    if (gcs_begin(cs)) {
        lc_add_one_term(&cs->A, x4);
        lc_add_one_term(&cs->B, in);
        lc_add_one_term(&cs->C, x5);
    }
    gcs_enforce(cs);
    gnum_set_var(cs, x, x5, &v5);
}

/* state ← M·state, M the MDS matrix; tmp holds t scratch gnums. */
static void mix(gadget_cs *cs, const poseidon_params *p, gnum *state, gnum *tmp)
{
    unsigned t = p->t;
    for (unsigned i = 0; i < t; i++) {
        const fr_t *row = &p->mds[i * t];
        lc_clear(&tmp[i].lc);
        tmp[i].val = FR_ZERO;
        for (unsigned j = 0; j < t; j++)
            gnum_add_scaled(cs, &tmp[i], &state[j], &row[j]);
        if (cs->shape)
            lc_normalize(&tmp[i].lc);
    }
    for (unsigned i = 0; i < t; i++) {
        gnum x = state[i];
        state[i] = tmp[i];
        tmp[i] = x; /* swap storage */
    }
}

/* const_mask: cells that are constants on entry (their first S-box is
 * computed, not constrained). */
static void permute(gadget_cs *cs, const poseidon_params *p, gnum *state, unsigned const_mask)
{
    unsigned t = p->t, half = p->rf / 2;
    gnum tmp[POSEIDON_MAX_T];
    for (unsigned i = 0; i < t; i++)
        gnum_init(&tmp[i]);
    const fr_t *rc = p->rc;
    for (unsigned r = 0; r < p->rf + p->rp; r++, rc += t) {
        bool full = r < half || r >= half + p->rp;
        for (unsigned i = 0; i < t; i++)
            gnum_add_const(cs, &state[i], &rc[i]);
        if (full) {
            for (unsigned i = 0; i < t; i++) {
                if (r == 0 && (const_mask >> i) & 1) {
                    fr_t v; /* a constant cell: the constant's x^5 */
                    fr_sqr(&v, &state[i].val);
                    fr_sqr(&v, &v);
                    fr_mul(&v, &v, &state[i].val);
                    gnum_set_const(cs, &state[i], &v);
                } else {
                    sbox(cs, &state[i]);
                }
            }
        } else {
            sbox(cs, &state[0]);
            unsigned k = r - half + 1; /* partial rounds done, this one included */
            if (k % remat_interval(t) == 0 && k != p->rp)
                for (unsigned i = 1; i < t; i++)
                    gnum_materialize(cs, &state[i]);
        }
        mix(cs, p, state, tmp);
    }
    for (unsigned i = 0; i < t; i++)
        gnum_free(&tmp[i]);
}

void poseidon_gadget_permute(gadget_cs *cs, const poseidon_params *p, gnum *state)
{
    permute(cs, p, state, 0);
}

void poseidon_gadget_hash(gadget_cs *cs, gnum *out, const gnum *in, unsigned arity)
{
    const poseidon_params *p = poseidon_params_for_arity(arity);
    gnum state[POSEIDON_MAX_T];
    fr_t tag;
    fr_from_u64(&tag, ((uint64_t)1 << arity) - 1);
    for (unsigned i = 0; i < p->t; i++)
        gnum_init(&state[i]);
    gnum_set_const(cs, &state[0], &tag);
    for (unsigned i = 0; i < arity; i++)
        gnum_copy(cs, &state[1 + i], &in[i]);
    permute(cs, p, state, 1u); /* cell 0, the tag, is a constant */
    gnum_copy(cs, out, &state[1]);
    for (unsigned i = 0; i < p->t; i++)
        gnum_free(&state[i]);
}
