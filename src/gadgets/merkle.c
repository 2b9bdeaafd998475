#include "gadgets/merkle.h"

#include <string.h>

#include "gadgets/poseidon.h"

unsigned merkle_bits_per_level(unsigned arity)
{
    return arity == 8 ? 3 : 1;
}

void merkle_root_from_path(fr_t *root, const fr_t *leaf, const fr_t *siblings, uint64_t index,
                           unsigned depth, unsigned arity)
{
    fr_t cur = *leaf, children[8];
    for (unsigned l = 0; l < depth; l++) {
        unsigned pos = (unsigned)(index % arity);
        index /= arity;
        const fr_t *sib = &siblings[(size_t)l * (arity - 1)];
        for (unsigned k = 0, s = 0; k < arity; k++)
            children[k] = k == pos ? cur : sib[s++];
        poseidon_hash(&cur, children, arity);
    }
    *root = cur;
}

/* --- arity 2: conditional swap --- */

static void swap2(gadget_cs *cs, gnum *children, const gnum *cur, const gnum *sib, gbit b)
{
    if (gbit_is_const(b)) {
        gnum_copy(cs, &children[b.val], cur);
        gnum_copy(cs, &children[!b.val], sib);
        return;
    }
    /* d = b·(sib - cur): left = cur + d, right = sib - d */
    fr_t dv = FR_ZERO;
    if (cs->values && b.val)
        fr_sub(&dv, &sib->val, &cur->val);
    r1cs_var d = gcs_alloc_aux(cs, &dv);
    if (gcs_begin(cs)) {
        lc_add_lc(&cs->A, &sib->lc, NULL);
        lc_add_lc(&cs->A, &cur->lc, gcs_minus_one());
        gbit_lc_add(&cs->B, b, NULL);
        lc_add_one_term(&cs->C, d);
    }
    gcs_enforce(cs);
    gnum dn;
    gnum_init(&dn);
    gnum_set_var(cs, &dn, d, &dv);
    gnum_copy(cs, &children[0], cur);
    gnum_add_scaled(cs, &children[0], &dn, NULL);
    gnum_copy(cs, &children[1], sib);
    gnum_add_scaled(cs, &children[1], &dn, gcs_minus_one());
    gnum_free(&dn);
}

/* --- arity 8: insertion at a 3-bit position --- */

/* Coefficients over the monomials of (b0, b1, b2), indexed by the subset
 * mask, of [idx == j] summed over j in [lo, hi]. */
static void selector_poly(int c[8], unsigned lo, unsigned hi)
{
    memset(c, 0, 8 * sizeof(int));
    for (unsigned j = lo; j <= hi; j++) {
        int e[8] = {1, 0, 0, 0, 0, 0, 0, 0};
        for (unsigned i = 0; i < 3; i++) {
            int f[8] = {0};
            for (unsigned m = 0; m < 8; m++) {
                if (!e[m])
                    continue;
                if ((j >> i) & 1) { /* factor b_i */
                    f[m | 1u << i] += e[m];
                } else { /* factor 1 - b_i */
                    f[m] += e[m];
                    f[m | 1u << i] -= e[m];
                }
            }
            memcpy(e, f, sizeof(e));
        }
        for (unsigned m = 0; m < 8; m++)
            c[m] += e[m];
    }
}

/* out = sel·(x - y) as a new variable, sel given by its monomial
 * coefficients; selv its value. 1 constraint. */
static void select_product(gadget_cs *cs, gnum *out, const int sel[8], bool selv,
                           const gbit mono[8], const gnum *x, const gnum *y)
{
    fr_t v = FR_ZERO;
    if (cs->values && selv)
        fr_sub(&v, &x->val, &y->val);
    r1cs_var p = gcs_alloc_aux(cs, &v);
    if (gcs_begin(cs)) {
        for (unsigned m = 0; m < 8; m++) {
            if (!sel[m])
                continue;
            fr_t k;
            fr_from_u64(&k, (uint64_t)(sel[m] < 0 ? -sel[m] : sel[m]));
            if (sel[m] < 0)
                fr_neg(&k, &k);
            if (m == 0)
                lc_add_constant(&cs->A, &k);
            else
                gbit_lc_add(&cs->A, mono[m], &k);
        }
        lc_add_lc(&cs->B, &x->lc, NULL);
        lc_add_lc(&cs->B, &y->lc, gcs_minus_one());
        lc_add_one_term(&cs->C, p);
    }
    gcs_enforce(cs);
    gnum_set_var(cs, out, p, &v);
}

static void insert8(gadget_cs *cs, gnum *children, gnum *cur, const gnum *sib, const gbit *bits)
{
    gnum_materialize(cs, cur); /* short differences in the products below */
    gbit mono[8];
    mono[0] = gbit_const(true);
    mono[1] = bits[0];
    mono[2] = bits[1];
    mono[4] = bits[2];
    mono[3] = gbit_and(cs, bits[0], bits[1]);
    mono[5] = gbit_and(cs, bits[0], bits[2]);
    mono[6] = gbit_and(cs, bits[1], bits[2]);
    mono[7] = gbit_and(cs, mono[3], bits[2]);
    unsigned idx = (bits[0].val & 1) | (bits[1].val & 1) << 1 | (bits[2].val & 1) << 2;
    gnum prod;
    gnum_init(&prod);
    int sel[8];
    for (unsigned k = 0; k < 8; k++) {
        /* children[k] = s_k + [idx = k](cur - s_k) + [idx < k](s_{k-1} - s_k),
         * with s_7 read as s_6 (its [idx < 7] term then vanishes) */
        const gnum *base = &sib[k < 7 ? k : 6];
        gnum_copy(cs, &children[k], base);
        selector_poly(sel, k, k);
        select_product(cs, &prod, sel, idx == k, mono, cur, base);
        gnum_add_scaled(cs, &children[k], &prod, NULL);
        if (k >= 1 && k <= 6) {
            selector_poly(sel, 0, k - 1);
            select_product(cs, &prod, sel, idx < k, mono, &sib[k - 1], base);
            gnum_add_scaled(cs, &children[k], &prod, NULL);
        }
    }
    gnum_free(&prod);
}

void merkle_gadget_root(gadget_cs *cs, gnum *root, const gnum *leaf, const gnum *siblings,
                        const gbit *index_bits, unsigned depth, unsigned arity)
{
    unsigned bpl = merkle_bits_per_level(arity);
    gnum cur, children[8];
    gnum_init(&cur);
    for (unsigned k = 0; k < arity; k++)
        gnum_init(&children[k]);
    gnum_copy(cs, &cur, leaf);
    for (unsigned l = 0; l < depth; l++) {
        const gnum *sib = &siblings[(size_t)l * (arity - 1)];
        if (arity == 2)
            swap2(cs, children, &cur, sib, index_bits[l]);
        else
            insert8(cs, children, &cur, sib, &index_bits[(size_t)l * bpl]);
        poseidon_gadget_hash(cs, &cur, children, arity);
    }
    gnum_copy(cs, root, &cur);
    gnum_free(&cur);
    for (unsigned k = 0; k < arity; k++)
        gnum_free(&children[k]);
}

void merkle_gadget_verify(gadget_cs *cs, const gnum *expected_root, const gnum *leaf,
                          const gnum *siblings, const gbit *index_bits, unsigned depth,
                          unsigned arity)
{
    gnum root;
    gnum_init(&root);
    merkle_gadget_root(cs, &root, leaf, siblings, index_bits, depth, arity);
    gnum_enforce_equal(cs, &root, expected_root);
    gnum_free(&root);
}
