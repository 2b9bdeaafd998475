/* The PoRep-shaped benchmark circuit: synthesis, exact counts, and the
 * parameter choice for a target size. Layout in porep_like.h. */
#include "circuits/porep_like.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/porep_like_witness.h"
#include "gadgets/merkle.h"
#include "gadgets/poseidon.h"
#include "gadgets/sha256.h"
#include "util/parallel.h"

#define REPLICA_BITS 254
#define MAX_PARENTS (1u << 20)
#define MAX_CHALLENGES (1u << 20)

cuzk_status porep_like_params_check(const porep_like_params *p)
{
    if (!p || (p->arity != 2 && p->arity != 8) || p->challenges < 1 ||
        p->challenges > MAX_CHALLENGES || p->depth < 1 || p->parents > MAX_PARENTS)
        return CUZK_ERR_INVALID_ARGUMENT;
    if ((uint64_t)p->depth * merkle_bits_per_level(p->arity) > 62)
        return CUZK_ERR_INVALID_ARGUMENT;
    if (!p->sha_label && p->parents)
        return CUZK_ERR_INVALID_ARGUMENT;
    return CUZK_OK;
}

uint64_t porep_like_num_inputs(const porep_like_params *p)
{
    return (uint64_t)p->challenges + 2;
}

/* The prologue's variables, which every challenge reads (and none
 * changes, so threads share them). */
typedef struct prologue {
    gnum replica, root;
    gbit replica_bits[REPLICA_BITS];
} prologue;

/* What the synthesis of challenges needs: the shared prologue and the
 * scratch of one thread. */
typedef struct synth {
    gadget_cs *cs;
    const porep_like_params *p;
    const porep_witness *w; /* VALUES mode */
    uint64_t seed;
    const prologue *pro;
    uint8_t *parents; /* parents·32 bytes of scratch (VALUES) */
    gbit *msg;        /* the label message, (40 + 32·parents)·8 bits */
    gnum *sib;        /* depth·(arity - 1) */
    gbit *index_bits; /* depth·log2(arity) */
} synth;

static void prologue_init(prologue *pro)
{
    gnum_init(&pro->replica);
    gnum_init(&pro->root);
}

static void prologue_free(prologue *pro)
{
    gnum_free(&pro->replica);
    gnum_free(&pro->root);
}

static cuzk_status synth_open(synth *s, gadget_cs *cs, const porep_like_params *p,
                              const porep_witness *w, uint64_t seed, const prologue *pro)
{
    memset(s, 0, sizeof(*s));
    s->cs = cs;
    s->p = p;
    s->w = w;
    s->seed = seed;
    s->pro = pro;
    size_t nsib = (size_t)p->depth * (p->arity - 1);
    size_t nbits = (size_t)p->depth * merkle_bits_per_level(p->arity);
    size_t msg_bits = p->sha_label ? (40 + (size_t)p->parents * 32) * 8 : 0;
    s->sib = malloc(nsib * sizeof(gnum));
    s->index_bits = malloc(nbits * sizeof(gbit));
    s->msg = malloc((msg_bits ? msg_bits : 1) * sizeof(gbit));
    s->parents = malloc((size_t)p->parents * 32 + 1);
    if (!s->sib || !s->index_bits || !s->msg || !s->parents)
        return CUZK_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < nsib; i++)
        gnum_init(&s->sib[i]);
    return CUZK_OK;
}

static void synth_close(synth *s)
{
    if (s->sib)
        for (size_t i = 0; i < (size_t)s->p->depth * (s->p->arity - 1); i++)
            gnum_free(&s->sib[i]);
    free(s->sib);
    free(s->index_bits);
    free(s->msg);
    free(s->parents);
}

/* The replica id and the root (public), and the replica id's bits. */
static void synth_prologue(gadget_cs *cs, prologue *pro, const porep_like_params *p,
                           const porep_witness *w)
{
    const fr_t *rv = w ? &w->replica_id : &FR_ZERO;
    const fr_t *root = w ? &w->root : &FR_ZERO;
    gnum_alloc_input(cs, &pro->replica, rv);
    gnum_alloc_input(cs, &pro->root, root);
    if (p->sha_label)
        gbits_unpack(cs, pro->replica_bits, &pro->replica, REPLICA_BITS);
}

/* Challenge c: index, label, path. The index input is allocated here, so
 * the public inputs come out as replica, root, i_0, i_1, ... */
static void synth_challenge(synth *s, uint32_t c)
{
    gadget_cs *cs = s->cs;
    const porep_like_params *p = s->p;
    uint32_t A = p->arity, D = p->depth;
    size_t nbits = (size_t)D * merkle_bits_per_level(A);
    uint64_t index = s->w ? s->w->index[c] : 0;
    fr_t iv;
    fr_from_u64(&iv, index);
    gnum idx, leaf;
    gnum_init(&idx);
    gnum_init(&leaf);
    gnum_alloc_input(cs, &idx, &iv);
    gbits_unpack(cs, s->index_bits, &idx, nbits);

    if (p->sha_label) {
        /* replica id, 32 bytes little-endian: bit i of byte j is bit 8j + i */
        gbit *m = s->msg;
        for (unsigned k = 0; k < 256; k++)
            m[k] = k < REPLICA_BITS ? s->pro->replica_bits[k] : gbit_const(false);
        /* the index, 8 bytes big-endian: byte 32 + j holds bits 56 - 8j .. */
        for (unsigned j = 0; j < 8; j++)
            for (unsigned i = 0; i < 8; i++) {
                unsigned bit = 56 - 8 * j + i;
                m[256 + 8 * j + i] = bit < nbits ? s->index_bits[bit] : gbit_const(false);
            }
        /* the parent labels: private bits */
        size_t pbits = (size_t)p->parents * 256;
        if (cs->values)
            porep_witness_parents(s->parents, p, s->seed, index);
        for (size_t k = 0; k < pbits; k++)
            m[320 + k] = gbit_alloc(cs, cs->values && ((s->parents[k / 8] >> (k % 8)) & 1));
        gword digest[8];
        sha256_gadget_bytes(cs, digest, m, 40 + (size_t)p->parents * 32);
        /* the leaf: the digest's first 254 bits, bytes little-endian; byte
         * 4w + j of the digest is byte 3 - j of word w */
        gbit lb[REPLICA_BITS];
        for (unsigned k = 0; k < REPLICA_BITS; k++) {
            unsigned byte = k / 8, w = byte / 4, j = byte % 4;
            lb[k] = digest[w].b[8 * (3 - j) + k % 8];
        }
        gnum_pack_bits(cs, &leaf, lb, REPLICA_BITS);
    } else {
        gnum in[2];
        gnum_init(&in[0]);
        gnum_init(&in[1]);
        gnum_copy(cs, &in[0], &s->pro->replica);
        gnum_copy(cs, &in[1], &idx);
        poseidon_gadget_hash(cs, &leaf, in, 2);
        gnum_free(&in[0]);
        gnum_free(&in[1]);
    }

    size_t nsib = (size_t)D * (A - 1);
    const fr_t *sv = s->w ? &s->w->siblings[(size_t)c * nsib] : NULL;
    for (size_t i = 0; i < nsib; i++)
        gnum_alloc(cs, &s->sib[i], sv ? &sv[i] : &FR_ZERO);
    merkle_gadget_verify(cs, &s->pro->root, &leaf, s->sib, s->index_bits, D, A);
    gnum_free(&idx);
    gnum_free(&leaf);
}

cuzk_status porep_like_synthesize(r1cs_builder *b, unsigned flags, const porep_like_params *p,
                                  uint64_t seed)
{
    cuzk_status st = porep_like_params_check(p);
    if (st != CUZK_OK)
        return st;
    if (!b || !(flags & (R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES)))
        return CUZK_ERR_INVALID_ARGUMENT;
    porep_witness w;
    bool values = flags & R1CS_BUILD_VALUES;
    if (values) {
        st = porep_witness_build(&w, p, seed);
        if (st != CUZK_OK)
            return st;
    }
    gadget_cs cs;
    gcs_init(&cs, b, flags);
    prologue pro;
    prologue_init(&pro);
    synth s;
    st = synth_open(&s, &cs, p, values ? &w : NULL, seed, &pro);
    if (st == CUZK_OK) {
        synth_prologue(&cs, &pro, p, s.w);
        for (uint32_t c = 0; c < p->challenges && gcs_status(&cs) == CUZK_OK; c++)
            synth_challenge(&s, c);
        st = gcs_status(&cs);
    }
    synth_close(&s);
    prologue_free(&pro);
    gcs_free(&cs);
    if (values)
        porep_witness_free(&w);
    return st;
}

cuzk_status porep_like_public_inputs(fr_t *out, size_t n, const porep_like_params *p, uint64_t seed)
{
    cuzk_status st = porep_like_params_check(p);
    if (st != CUZK_OK)
        return st;
    if (n != porep_like_num_inputs(p))
        return CUZK_ERR_INVALID_ARGUMENT;
    porep_witness w;
    st = porep_witness_build(&w, p, seed);
    if (st != CUZK_OK)
        return st;
    out[0] = w.replica_id;
    out[1] = w.root;
    for (uint32_t c = 0; c < p->challenges; c++)
        fr_from_u64(&out[2 + c], w.index[c]);
    porep_witness_free(&w);
    return CUZK_OK;
}

/* Counts of the prologue and of one challenge, in count-only mode. */
static cuzk_status count_parts(const porep_like_params *p, uint64_t pro[2], uint64_t ch[2])
{
    gadget_cs cs;
    gcs_init(&cs, NULL, 0);
    prologue shared;
    prologue_init(&shared);
    synth s;
    cuzk_status st = synth_open(&s, &cs, p, NULL, 0, &shared);
    if (st == CUZK_OK) {
        synth_prologue(&cs, &shared, p, NULL);
        pro[0] = cs.num_constraints, pro[1] = cs.num_aux;
        synth_challenge(&s, 0);
        ch[0] = cs.num_constraints - pro[0], ch[1] = cs.num_aux - pro[1];
    }
    synth_close(&s);
    prologue_free(&shared);
    gcs_free(&cs);
    return st;
}

/* Exact counts of the prologue (pro) and of one challenge (ch), as
 * {constraints, aux}; count-only synthesis of at most 7 parents. */
static cuzk_status circuit_parts(const porep_like_params *p, uint64_t pro[2], uint64_t ch[2])
{
    if (p->parents <= 5)
        return count_parts(p, pro, ch);
    /* Two more parents add one full message block (all 16 words and the
     * chaining value variable) and 512 bits, whatever their number: count
     * at 4 or 5 parents (the same last-block layout) and at two more, and
     * extrapolate. */
    porep_like_params q = *p;
    uint32_t base = 4 + (p->parents & 1);
    q.parents = base;
    uint64_t pro2[2], ch2[2];
    cuzk_status st = count_parts(&q, pro, ch);
    if (st == CUZK_OK) {
        q.parents = base + 2;
        st = count_parts(&q, pro2, ch2);
    }
    if (st == CUZK_OK) {
        uint64_t steps = (p->parents - base) / 2;
        for (int k = 0; k < 2; k++)
            ch[k] += steps * (ch2[k] - ch[k]);
    }
    return st;
}

cuzk_status porep_like_count(const porep_like_params *p, uint64_t *constraints, uint64_t *aux)
{
    cuzk_status st = porep_like_params_check(p);
    if (st != CUZK_OK)
        return st;
    uint64_t pro[2], ch[2];
    st = circuit_parts(p, pro, ch);
    if (st != CUZK_OK)
        return st;
    *constraints = pro[0] + (uint64_t)p->challenges * ch[0];
    *aux = pro[1] + (uint64_t)p->challenges * ch[1];
    return CUZK_OK;
}

/* ------------------------------------------------ challenges on threads */

/* The challenges are independent: each reads the prologue's variables
 * and allocates one input and the same number of aux variables (the
 * structure never depends on values, gadgets/cs.h), so the variables of
 * challenge c are known before any is synthesized:
 *   input  1 + PROLOGUE_INPUTS + c
 *   aux    [pro_aux + c·ch_aux, pro_aux + (c + 1)·ch_aux)
 * and each is synthesized into a block builder at those bases
 * (r1cs_builder_new_block): the numbering is the sequential one by
 * construction, witness values land in place, and shape blocks join in
 * order (r1cs_builder_append) into the sequential system. */
#define PROLOGUE_INPUTS 2 /* replica id, root */

typedef struct par_synth {
    const porep_like_params *p;
    const porep_witness *w; /* VALUES */
    uint64_t seed;
    unsigned flags; /* R1CS_BUILD_SHAPE or R1CS_BUILD_VALUES */
    const prologue *pro;
    uint64_t pro_aux, ch_aux, ch_constraints;
    fr_t *wv;                 /* VALUES: the whole assignment */
    uint64_t w_inputs, w_len; /* VALUES */
    r1cs_builder **blocks;    /* SHAPE: one per challenge */
    cuzk_status *status;      /* per challenge */
} par_synth;

static cuzk_status one_challenge(par_synth *ps, synth *s, uint32_t c, r1cs_builder **out)
{
    r1cs_block blk = {.input_base = 1 + PROLOGUE_INPUTS + (uint64_t)c,
                      .inputs = 1,
                      .aux_base = ps->pro_aux + (uint64_t)c * ps->ch_aux,
                      .aux = ps->ch_aux,
                      .w = ps->wv,
                      .w_inputs = ps->w_inputs,
                      .w_len = ps->w_len};
    r1cs_builder *b;
    cuzk_status st = r1cs_builder_new_block(&b, ps->flags, &blk);
    if (st != CUZK_OK)
        return st;
    gadget_cs cs;
    gcs_init(&cs, b, ps->flags);
    s->cs = &cs;
    synth_challenge(s, c);
    st = gcs_status(&cs);
    /* a challenge of another size would break the offsets set up front */
    if (st == CUZK_OK && (cs.num_inputs != 1 || cs.num_aux != ps->ch_aux ||
                          cs.num_constraints != ps->ch_constraints))
        st = CUZK_ERR_INTERNAL;
    gcs_free(&cs);
    s->cs = NULL;
    if (st == CUZK_OK && (ps->flags & R1CS_BUILD_SHAPE))
        *out = b;
    else
        r1cs_builder_free(b);
    return st;
}

static void challenges_chunk(void *ctx, size_t begin, size_t end)
{
    par_synth *ps = ctx;
    synth s;
    cuzk_status st = synth_open(&s, NULL, ps->p, ps->w, ps->seed, ps->pro);
    for (size_t c = begin; c < end; c++)
        ps->status[c] = st == CUZK_OK
                            ? one_challenge(ps, &s, (uint32_t)c, ps->blocks ? &ps->blocks[c] : NULL)
                            : st;
    synth_close(&s);
}

/* Every challenge on up to `threads` threads; the first failure in
 * challenge order. */
static cuzk_status run_challenges(par_synth *ps, unsigned threads)
{
    size_t k = ps->p->challenges;
    ps->status = malloc(k * sizeof(cuzk_status));
    if (!ps->status)
        return CUZK_ERR_OUT_OF_MEMORY;
    parallel_for(k, 1, threads, challenges_chunk, ps);
    cuzk_status st = CUZK_OK;
    for (size_t c = 0; c < k && st == CUZK_OK; c++)
        st = ps->status[c];
    free(ps->status);
    ps->status = NULL;
    return st;
}

/* The prologue into cs, checked against the counts the offsets use. */
static cuzk_status prologue_synth(gadget_cs *cs, prologue *pro, const porep_like_params *p,
                                  const porep_witness *w, uint64_t pro_aux)
{
    synth_prologue(cs, pro, p, w);
    cuzk_status st = gcs_status(cs);
    if (st == CUZK_OK && (cs->num_inputs != PROLOGUE_INPUTS || cs->num_aux != pro_aux))
        st = CUZK_ERR_INTERNAL;
    return st;
}

cuzk_status porep_like_witness(fr_t *w, size_t num_vars, const porep_like_params *p, uint64_t seed,
                               unsigned threads)
{
    cuzk_status st = porep_like_params_check(p);
    if (st != CUZK_OK)
        return st;
    uint64_t pro[2], ch[2];
    if ((st = circuit_parts(p, pro, ch)) != CUZK_OK)
        return st;
    uint64_t inputs = 1 + porep_like_num_inputs(p);
    if (!w || num_vars != inputs + pro[1] + (uint64_t)p->challenges * ch[1])
        return CUZK_ERR_INVALID_ARGUMENT;
    porep_witness pw;
    if ((st = porep_witness_build(&pw, p, seed)) != CUZK_OK)
        return st;
    w[0] = FR_ONE;
    prologue shared;
    prologue_init(&shared);
    r1cs_block blk = {.input_base = 1,
                      .inputs = PROLOGUE_INPUTS,
                      .aux_base = 0,
                      .aux = pro[1],
                      .w = w,
                      .w_inputs = inputs,
                      .w_len = num_vars};
    r1cs_builder *b;
    if ((st = r1cs_builder_new_block(&b, R1CS_BUILD_VALUES, &blk)) == CUZK_OK) {
        gadget_cs cs;
        gcs_init(&cs, b, R1CS_BUILD_VALUES);
        st = prologue_synth(&cs, &shared, p, &pw, pro[1]);
        gcs_free(&cs);
        r1cs_builder_free(b);
    }
    if (st == CUZK_OK) {
        par_synth ps = {.p = p,
                        .w = &pw,
                        .seed = seed,
                        .flags = R1CS_BUILD_VALUES,
                        .pro = &shared,
                        .pro_aux = pro[1],
                        .ch_aux = ch[1],
                        .ch_constraints = ch[0],
                        .wv = w,
                        .w_inputs = inputs,
                        .w_len = num_vars};
        st = run_challenges(&ps, threads);
    }
    prologue_free(&shared);
    porep_witness_free(&pw);
    return st;
}

cuzk_status porep_like_synthesize_shape(r1cs_builder *b, const porep_like_params *p,
                                        unsigned threads)
{
    cuzk_status st = porep_like_params_check(p);
    if (st != CUZK_OK)
        return st;
    if (!b || r1cs_builder_num_inputs(b) != 1 || r1cs_builder_num_aux(b) != 0 ||
        r1cs_builder_num_constraints(b) != 0)
        return CUZK_ERR_INVALID_ARGUMENT;
    threads = parallel_threads(threads);
    if (threads == 1 || p->challenges == 1) /* nothing to join: the one-builder path */
        return porep_like_synthesize(b, R1CS_BUILD_SHAPE, p, 0);
    uint64_t pro[2], ch[2];
    if ((st = circuit_parts(p, pro, ch)) != CUZK_OK)
        return st;
    r1cs_builder **blocks = calloc(p->challenges, sizeof(r1cs_builder *));
    if (!blocks)
        return CUZK_ERR_OUT_OF_MEMORY;
    prologue shared;
    prologue_init(&shared);
    gadget_cs cs;
    gcs_init(&cs, b, R1CS_BUILD_SHAPE);
    st = prologue_synth(&cs, &shared, p, NULL, pro[1]);
    gcs_free(&cs);
    if (st == CUZK_OK) {
        par_synth ps = {.p = p,
                        .flags = R1CS_BUILD_SHAPE,
                        .pro = &shared,
                        .pro_aux = pro[1],
                        .ch_aux = ch[1],
                        .ch_constraints = ch[0],
                        .blocks = blocks};
        st = run_challenges(&ps, threads);
    }
    if (st == CUZK_OK)
        st = r1cs_builder_append(b, blocks, p->challenges, threads);
    for (uint32_t c = 0; c < p->challenges; c++)
        r1cs_builder_free(blocks[c]);
    free(blocks);
    prologue_free(&shared);
    return st;
}

/* The rows a Groth16 domain must hold: the constraints plus bellman's one
 * row per public input (ONE included). */
static uint64_t domain_rows(const porep_like_params *p)
{
    uint64_t n, aux;
    if (porep_like_count(p, &n, &aux) != CUZK_OK)
        return UINT64_MAX;
    return n + porep_like_num_inputs(p) + 1;
}

/* log2 of the circuit's size, or infinity when its rows would overflow the
 * domain of 2^k (which would double every NTT and the H query). */
static double log_size(const porep_like_params *p, unsigned k)
{
    uint64_t rows = domain_rows(p);
    if (rows == UINT64_MAX || rows > ((uint64_t)1 << k))
        return INFINITY;
    return log2((double)rows);
}

/* Weight of one tree level away from the natural depth, against the error
 * in log2(constraints): a level is worth 0.5 % of size. */
#define DEPTH_WEIGHT 0.007
/* The same for one challenge more than 2^(k - 19). */
#define CHALLENGE_WEIGHT 0.02

/* Per-challenge constraint counts of SHA-label circuits, separable into
 * a part that depends on the parents and one that depends on the depth
 * (the label and the path do not interact): the search below evaluates
 * sizes from these tables instead of counting each candidate. */
typedef struct sha_costs {
    uint64_t pro;      /* prologue */
    uint64_t by_p[10]; /* per challenge at the reference depth, 0..9 parents */
    uint64_t by_d[32]; /* per challenge with no parents, by depth */
    unsigned ref_depth;
} sha_costs;

static uint64_t sha_challenge(const sha_costs *c, uint64_t parents, unsigned depth)
{
    uint64_t base;
    if (parents < 10) {
        base = c->by_p[parents];
    } else { /* linear per parity: one block per two parents */
        uint64_t b0 = 4 + (parents & 1);
        base = c->by_p[b0] + (parents - b0) / 2 * (c->by_p[b0 + 2] - c->by_p[b0]);
    }
    return base - c->by_d[c->ref_depth] + c->by_d[depth];
}

cuzk_status porep_like_params_for_constraints(porep_like_params *out, size_t target_log2,
                                              unsigned arity)
{
    if (target_log2 < 10 || target_log2 > 27 || (arity != 2 && arity != 8))
        return CUZK_ERR_INVALID_ARGUMENT;
    unsigned k = (unsigned)target_log2, bpl = merkle_bits_per_level(arity);
    double target = (double)k;
    porep_like_params best = {0}, q = {0};
    double best_err = INFINITY;
    q.arity = arity;
    if (k < 15) {
        /* Poseidon labels; the depth fills the budget. */
        q.sha_label = false;
        q.challenges = 1u << (k > 12 ? k - 12 : 0);
        for (q.depth = 1; q.depth * bpl <= 30; q.depth++) {
            double e = fabs(log_size(&q, k) - target);
            if (e < best_err)
                best_err = e, best = q;
        }
    } else {
        /* SHA labels: K and the depth follow k, the parents fill. At the
         * small end, where one more block is a big step, one more
         * challenge may fit better. */
        uint32_t k_nat = k >= 24 ? 18 : k >= 19 ? 1u << (k - 19) : 1;
        unsigned natural = (k + 3 < 30 ? k + 3 : 30) / bpl;
        unsigned lo = natural > 4 ? natural - 4 : 1, hi = natural + 2;
        if (hi * bpl > 30)
            hi = 30 / bpl;
        sha_costs c;
        uint64_t pro[2], ch[2];
        q.sha_label = true;
        q.challenges = 1;
        q.depth = c.ref_depth = natural;
        for (q.parents = 0; q.parents < 10; q.parents++) {
            if (circuit_parts(&q, pro, ch) != CUZK_OK)
                return CUZK_ERR_INTERNAL;
            c.by_p[q.parents] = ch[0];
            c.pro = pro[0];
        }
        q.parents = 0;
        for (q.depth = lo; q.depth <= hi; q.depth++) {
            if (circuit_parts(&q, pro, ch) != CUZK_OK)
                return CUZK_ERR_INTERNAL;
            c.by_d[q.depth] = ch[0];
        }
        double want = exp2(target);
        for (q.challenges = k_nat; q.challenges <= k_nat + 1; q.challenges++) {
            for (q.depth = lo; q.depth <= hi; q.depth++) {
                double penalty = DEPTH_WEIGHT * abs((int)q.depth - (int)natural) +
                                 CHALLENGE_WEIGHT * (q.challenges - k_nat);
                /* the parents whose size is nearest the target: the sizes
                 * grow with the parents, so bisect */
                uint32_t plo = 0, phi = MAX_PARENTS;
                while (plo < phi) {
                    uint32_t mid = plo + (phi - plo + 1) / 2;
                    double sz = (double)c.pro +
                                (double)q.challenges * (double)sha_challenge(&c, mid, q.depth);
                    if (sz <= want)
                        plo = mid;
                    else
                        phi = mid - 1;
                }
                for (uint32_t pp = plo > 0 ? plo - 1 : 0; pp <= plo + 1 && pp <= MAX_PARENTS;
                     pp++) {
                    q.parents = pp;
                    double e = fabs(log_size(&q, k) - target) + penalty;
                    if (e < best_err) {
                        q.parents = pp;
                        best_err = e, best = q;
                    }
                }
            }
        }
    }
    if (best_err == INFINITY)
        return CUZK_ERR_INTERNAL;
    *out = best;
    return CUZK_OK;
}
