/* Poseidon permutation and Merkle-mode hash, plain (witness generation and
 * the gadget's reference). Paper Sect. 2.2, Fig. 1. */
#include "gadgets/poseidon.h"

const poseidon_params *poseidon_params_for_arity(unsigned arity)
{
    switch (arity) {
    case 2:
        return &POSEIDON_T3;
    case 4:
        return &POSEIDON_T5;
    case 8:
        return &POSEIDON_T9;
    default:
        return NULL;
    }
}

static void sbox(fr_t *x)
{
    fr_t x2, x4;
    fr_sqr(&x2, x);
    fr_sqr(&x4, &x2);
    fr_mul(x, &x4, x);
}

void poseidon_permute(const poseidon_params *p, fr_t *state)
{
    unsigned t = p->t, half = p->rf / 2;
    const fr_t *rc = p->rc;
    fr_t tmp[POSEIDON_MAX_T];
    for (unsigned r = 0; r < p->rf + p->rp; r++, rc += t) {
        bool full = r < half || r >= half + p->rp;
        for (unsigned i = 0; i < t; i++)
            fr_add(&state[i], &state[i], &rc[i]);
        if (full) {
            for (unsigned i = 0; i < t; i++)
                sbox(&state[i]);
        } else {
            sbox(&state[0]);
        }
        for (unsigned i = 0; i < t; i++) {
            fr_t acc, prod;
            fr_mul(&acc, &p->mds[i * t], &state[0]);
            for (unsigned j = 1; j < t; j++) {
                fr_mul(&prod, &p->mds[i * t + j], &state[j]);
                fr_add(&acc, &acc, &prod);
            }
            tmp[i] = acc;
        }
        for (unsigned i = 0; i < t; i++)
            state[i] = tmp[i];
    }
}

void poseidon_hash(fr_t *out, const fr_t *in, unsigned arity)
{
    const poseidon_params *p = poseidon_params_for_arity(arity);
    fr_t state[POSEIDON_MAX_T];
    fr_from_u64(&state[0], ((uint64_t)1 << arity) - 1); /* the Merkle domain tag */
    for (unsigned i = 0; i < arity; i++)
        state[1 + i] = in[i];
    poseidon_permute(p, state);
    *out = state[1];
}
