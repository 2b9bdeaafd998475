/* The witness of the PoRep-shaped circuit from a seed: replica id, indices,
 * parent labels, labels, and a virtual Merkle tree of which only the
 * challenged paths are computed (see porep_like.h). */
#include "circuits/porep_like_witness.h"

#include <stdlib.h>
#include <string.h>

#include "gadgets/merkle.h"
#include "gadgets/poseidon.h"
#include "gadgets/sha256.h"

/* Domains of the seed derivation. */
enum { D_REPLICA = 1, D_INDEX = 2, D_PARENTS = 3, D_NODE = 4 };

static uint64_t mix64(uint64_t z)
{
    /* splitmix64's finalizer (Steele, Lea, Flood, "Fast splittable
     * pseudorandom number generators", OOPSLA 2014) */
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void derive(rng_t *r, uint64_t seed, uint64_t domain, uint64_t a, uint64_t b)
{
    rng_seed(r, mix64(seed ^ mix64(domain ^ mix64(a ^ mix64(b)))));
}

uint64_t porep_witness_leaves(const porep_like_params *p)
{
    uint64_t n = 1;
    for (uint32_t l = 0; l < p->depth; l++)
        n *= p->arity;
    return n;
}

void porep_witness_parents(uint8_t *out, const porep_like_params *p, uint64_t seed, uint64_t index)
{
    rng_t r;
    derive(&r, seed, D_PARENTS, index, 0);
    rng_bytes(&r, out, (size_t)p->parents * 32);
}

/* The label of one leaf (porep_like.h, step 2). */
static cuzk_status make_label(fr_t *leaf, const porep_like_params *p, uint64_t seed,
                              const fr_t *replica, uint64_t index)
{
    if (!p->sha_label) {
        fr_t in[2];
        in[0] = *replica;
        fr_from_u64(&in[1], index);
        poseidon_hash(leaf, in, 2);
        return CUZK_OK;
    }
    size_t len = 40 + (size_t)p->parents * 32;
    uint8_t *msg = malloc(len);
    if (!msg)
        return CUZK_ERR_OUT_OF_MEMORY;
    fr_to_bytes_le(msg, replica);
    for (int i = 0; i < 8; i++)
        msg[32 + i] = (uint8_t)(index >> (56 - 8 * i));
    porep_witness_parents(msg + 40, p, seed, index);
    uint8_t digest[32];
    sha256(digest, msg, len);
    free(msg);
    digest[31] &= 0x3f; /* 254 bits */
    fr_from_bytes_le(leaf, digest);
    return CUZK_OK;
}

/* The nodes of one level that the challenged paths touch, sorted by
 * position. */
typedef struct level {
    uint64_t *pos;
    fr_t *val;
    size_t n;
} level;

static const fr_t *level_find(const level *lv, uint64_t pos)
{
    size_t lo = 0, hi = lv->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (lv->pos[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < lv->n && lv->pos[lo] == pos ? &lv->val[lo] : NULL;
}

/* A node of the virtual tree: on a challenged path, or pseudo-random. */
static void node_value(fr_t *out, const level *lv, uint64_t seed, uint32_t l, uint64_t pos)
{
    const fr_t *v = level_find(lv, pos);
    if (v) {
        *out = *v;
        return;
    }
    rng_t r;
    derive(&r, seed, D_NODE, l, pos);
    fr_random(out, &r);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

void porep_witness_free(porep_witness *w)
{
    free(w->index);
    free(w->leaf);
    free(w->siblings);
    memset(w, 0, sizeof(*w));
}

cuzk_status porep_witness_build(porep_witness *w, const porep_like_params *p, uint64_t seed)
{
    memset(w, 0, sizeof(*w));
    cuzk_status st = porep_like_params_check(p);
    if (st != CUZK_OK)
        return st;
    w->p = *p;
    uint32_t K = p->challenges, A = p->arity, D = p->depth;
    size_t nsib = (size_t)K * D * (A - 1);
    w->index = malloc(K * sizeof(uint64_t));
    w->leaf = malloc(K * sizeof(fr_t));
    w->siblings = malloc(nsib * sizeof(fr_t));
    level *lv = calloc(D + 1, sizeof(level));
    uint64_t *sorted = malloc(K * sizeof(uint64_t));
    if (!w->index || !w->leaf || !w->siblings || !lv || !sorted) {
        st = CUZK_ERR_OUT_OF_MEMORY;
        goto out;
    }
    rng_t r;
    derive(&r, seed, D_REPLICA, 0, 0);
    uint64_t raw[4] = {rng_u64(&r), rng_u64(&r), rng_u64(&r), rng_u64(&r)};
    raw[3] &= (UINT64_C(1) << 62) - 1; /* 254 bits */
    fr_from_raw(&w->replica_id, raw);
    derive(&r, seed, D_INDEX, 0, 0);
    uint64_t leaves = porep_witness_leaves(p);
    for (uint32_t c = 0; c < K; c++)
        w->index[c] = rng_u64(&r) % leaves;

    /* level 0: the distinct challenged leaves and their labels */
    memcpy(sorted, w->index, K * sizeof(uint64_t));
    qsort(sorted, K, sizeof(uint64_t), cmp_u64);
    for (uint32_t l = 0; l <= D; l++) {
        lv[l].pos = malloc(K * sizeof(uint64_t));
        lv[l].val = malloc(K * sizeof(fr_t));
        if (!lv[l].pos || !lv[l].val) {
            st = CUZK_ERR_OUT_OF_MEMORY;
            goto out;
        }
    }
    for (uint32_t c = 0; c < K; c++) {
        if (lv[0].n && lv[0].pos[lv[0].n - 1] == sorted[c])
            continue;
        lv[0].pos[lv[0].n] = sorted[c];
        st = make_label(&lv[0].val[lv[0].n], p, seed, &w->replica_id, sorted[c]);
        if (st != CUZK_OK)
            goto out;
        lv[0].n++;
    }
    /* levels 1..D: hash the children of every touched parent */
    for (uint32_t l = 0; l < D; l++) {
        for (size_t i = 0; i < lv[l].n; i++) {
            uint64_t parent = lv[l].pos[i] / A;
            if (lv[l + 1].n && lv[l + 1].pos[lv[l + 1].n - 1] == parent)
                continue;
            fr_t children[8];
            for (uint32_t k = 0; k < A; k++)
                node_value(&children[k], &lv[l], seed, l, parent * A + k);
            lv[l + 1].pos[lv[l + 1].n] = parent;
            poseidon_hash(&lv[l + 1].val[lv[l + 1].n], children, A);
            lv[l + 1].n++;
        }
    }
    w->root = lv[D].val[0];
    /* each challenge's leaf and siblings */
    for (uint32_t c = 0; c < K; c++) {
        uint64_t pos = w->index[c];
        w->leaf[c] = *level_find(&lv[0], pos);
        fr_t *sib = &w->siblings[(size_t)c * D * (A - 1)];
        for (uint32_t l = 0; l < D; l++, pos /= A) {
            uint64_t first = pos - pos % A;
            for (uint32_t k = 0; k < A; k++)
                if (first + k != pos)
                    node_value(sib++, &lv[l], seed, l, first + k);
        }
    }
out:
    if (lv)
        for (uint32_t l = 0; l <= D; l++)
            free(lv[l].pos), free(lv[l].val);
    free(lv);
    free(sorted);
    if (st != CUZK_OK)
        porep_witness_free(w);
    return st;
}
