/* The MSM of one group: Pippenger's bucket method and the 0/1/other split
 * (msm.h describes both). A template: msm_g1.c, msm_g2.c (BLS12-381) and
 * bn254_msm_g1.c, bn254_msm_g2.c include it once each, after defining
 *   MSM_G(name)    the group's functions (g1_##name)
 *   MSM_F(suffix)  the exported names (msm_g1##suffix)
 *   MSM_AFF, MSM_JAC, MSM_XYZZ   the point types
 *   MSM_FE(name), MSM_FE_T   the coordinate field (fp_##name)
 *   MSM_BASE(name), MSM_BASE_T, MSM_BASE_ONE   the prime field under it
 *                  (the coordinate field itself over Fp), in which the
 *                  batches invert
 *   MSM_FE_HAS_NORM          0 over Fp; 1 over Fp2 = Fp[u]/(u² + 1) (both
 *                  curves' tower): the batch then inverts the norms
 *                  c0² + c1² in Fp
 *   MSM_SC(name), MSM_SC_T, MSM_SC_ONE, MSM_SC_MODULUS   the scalar field
 *                  (4 limbs, below 2^255)
 *   MSM_ADD_RATIO  cost of an XYZZ addition over a mixed one (measured)
 *   MSM_AFFINE_MIN_POINTS  the size from which affine buckets are used
 *   MSM_AFFINE_POINT_COST  cost of a batched affine addition over a mixed
 *                  XYZZ one (measured; the plan's point_cost)
 *   MSM_AFFINE_REDUCE_EXTRA  per bucket, what the affine reduction costs
 *                  beyond its two batched additions (measured)
 *   MSM_HAS_GLV    1 where an endomorphism split of msm_internal.h applies
 *                  (BLS12-381, BN254's G1), which then defines
 *     MSM_GLV_MUL_BETA(r, a)  r = a·β for a coordinate a, β the cube root of
 *                  unity of the hi point (β·x_P, ±y_P)
 *     MSM_GLV_POINT_COST  cost of splitting one point and its scalar for
 *                  the endomorphism, over a mixed XYZZ addition (measured)
 *     and optionally (BN254's G1; without them, BLS12-381's split
 *     msm_glv_split into nonnegative halves with hi = (β·x_P, −y_P)):
 *     MSM_GLV_SPLIT(k1, k2, neg1, neg2, k)  |k1|, |k2| < 2^MSM_GLV_BITS and
 *                  their signs (bool *) with k ≡ k1 + k2·λ (mod r), λ the
 *                  eigenvalue of φ(P) = (β·x_P, y_P)
 *     MSM_GLV_AUTO_MAX  the most points the cost model may split (default
 *                  MSM_GLV_MAX_POINTS), where timings cap it lower
 *                  With 0, MSM_ENDO_ON is the plain Pippenger.
 * Everything in it is static except the MSM_F functions. */

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msm/msm_internal.h"
#include "r1cs/density.h"
#include "util/parallel.h"

/* How far ahead the accumulation loops fetch buckets and points. */
#define PIP_LOOKAHEAD 8

/* The affine-bucket path (batch-affine bucket accumulation, as in Botrel
 * and El Housni, "Faster Montgomery multiplication and multi-scalar
 * multiplication for SNARKs", TCHES 2023(3)): an affine addition B + P
 * with slope λ = (y_P − y_B)/(x_P − x_B) costs 2M + 1S once 1/(x_P − x_B)
 * is known,
 * and Montgomery's trick gives the inverses of a whole batch of
 * denominators for 3M each and one inversion. Batches hold at most one
 * addition per bucket (a bucket's result is the next addition's input);
 * an addition for a bucket already in the batch waits in a queue for the
 * next batch, and when the queue is full it goes into the bucket's XYZZ
 * spill bucket instead (so that many additions into one bucket never
 * degrade into one inversion each).
 *
 * Additions per batch: at most PIP_BATCH_MAX, and at most 1/PIP_BATCH_SHARE
 * of the buckets so that few additions find their bucket busy (both
 * measured with bench_msm --batch, docs/PERF.md issue 3). */
#define PIP_BATCH_MAX 2048u
#define PIP_BATCH_SHARE 2u

/* The affine path also reduces its buckets by batched affine additions
 * (pip_reduce_affine): the buckets are cut into at most PIP_REDUCE_SEGMENTS
 * segments of 2^l, whose running sums advance in step, one batch a step;
 * from PIP_REDUCE_MIN_STEPS steps a segment on (below, the XYZZ loop). */
#define PIP_REDUCE_SEGMENTS 32u
#define PIP_REDUCE_MIN_STEPS 4u

/* ------------------------------------------------------------ Pippenger */

/* State bits of an affine bucket. */
enum {
    PIP_FULL = 1,  /* the affine bucket holds a point (empty otherwise) */
    PIP_BUSY = 2,  /* it is the target of an addition in the current batch */
    PIP_SPILL = 4, /* its XYZZ spill bucket holds a sum */
};

/* Outcome of a batched addition, decided when its denominator is formed. */
enum { PIP_ADD, PIP_DOUBLE, PIP_CANCEL };

/* One pending addition: bucket += (neg ? −p : p). */
typedef struct pip_add {
    const MSM_AFF *p;
    uint32_t bucket;
    uint8_t neg, kind;
} pip_add;

/* One worker's buckets and scratch. */
typedef struct pip_scratch {
    MSM_XYZZ *xyzz;   /* XYZZ path: the buckets */
    MSM_AFF *aff;     /* affine path: the buckets (x, y; emptiness in state),
                         then 2·PIP_REDUCE_SEGMENTS running sums */
    MSM_XYZZ *spill;  /* affine path: valid where state has PIP_SPILL */
    uint8_t *state;   /* affine path: PIP_* bits per bucket */
    pip_add *batch;   /* the current batch */
    MSM_FE_T *den;    /* its denominators */
    MSM_BASE_T *norm;   /* their norms (Fp2; over Fp the denominators are) */
    MSM_BASE_T *prefix; /* prefix products of the norms */
    pip_add *queue;   /* additions waiting for a busy bucket */
    size_t nbatch, nqueue;
    bool spilled;     /* a spill bucket was used in the current task */
} pip_scratch;

typedef struct pip_job {
    const MSM_AFF *points;
    const size_t *pidx; /* NULL: scalar i goes with point i */
    const uint64_t (*k)[4];
    size_t n;
    msm_plan plan;
    bool affine;
    size_t batch_cap, queue_cap;
    pip_scratch *scratch; /* one per worker */
    MSM_XYZZ *partials;   /* one window sum per task, task = window·parts + part */
    atomic_size_t next;   /* the next task to claim */
} pip_job;

static inline void pip_prefetch(const void *p, size_t bytes, int write)
{
#if defined(__GNUC__)
    const char *c = p;
    for (size_t off = 0; off < bytes; off += 64) {
        if (write)
            __builtin_prefetch(c + off, 1, 3);
        else
            __builtin_prefetch(c + off, 0, 3);
    }
#else
    (void)p;
    (void)bytes;
    (void)write;
#endif
}

static inline const MSM_AFF *pip_point(const pip_job *job, size_t i)
{
    return job->pidx ? &job->points[job->pidx[i]] : &job->points[i];
}

static inline MSM_XYZZ *pip_bucket(MSM_XYZZ *b, int d)
{
    return &b[(d > 0 ? d : -d) - 1];
}

static inline void pip_task_range(const pip_job *job, size_t task, unsigned *w, size_t *begin,
                                  size_t *end)
{
    const msm_plan *pl = &job->plan;
    unsigned part = (unsigned)(task % pl->parts);
    *w = (unsigned)(task / pl->parts);
    *begin = job->n / pl->parts * part + (job->n % pl->parts) * part / pl->parts;
    *end = job->n / pl->parts * (part + 1) + (job->n % pl->parts) * (part + 1) / pl->parts;
}

/* XYZZ path: one window over one point range: fill the buckets, then reduce
 * them by the running sum into the task's partial window sum. */
static void pip_task_xyzz(pip_job *job, MSM_XYZZ *b, size_t task)
{
    const msm_plan *pl = &job->plan;
    unsigned w;
    size_t begin, end;
    pip_task_range(job, task, &w, &begin, &end);
    size_t nb = (size_t)1 << (pl->c - 1);
    for (size_t j = 0; j < nb; j++)
        MSM_G(xyzz_set_infinity)(&b[j]);

    /* Digits of the next PIP_LOOKAHEAD points, so that their buckets and
     * points are in cache by the time they are added. */
    int ahead[PIP_LOOKAHEAD];
    for (size_t i = begin; i < end && i < begin + PIP_LOOKAHEAD; i++) {
        ahead[i % PIP_LOOKAHEAD] = msm_digit(job->k[i], pl, w);
        if (ahead[i % PIP_LOOKAHEAD])
            pip_prefetch(pip_bucket(b, ahead[i % PIP_LOOKAHEAD]), sizeof(MSM_XYZZ), 1);
    }
    int top = 0;
    for (size_t i = begin; i < end; i++) {
        int d = ahead[i % PIP_LOOKAHEAD];
        size_t next = i + PIP_LOOKAHEAD;
        if (next < end) {
            int dn = msm_digit(job->k[next], pl, w);
            ahead[next % PIP_LOOKAHEAD] = dn;
            if (dn) {
                pip_prefetch(pip_bucket(b, dn), sizeof(MSM_XYZZ), 1);
                pip_prefetch(pip_point(job, next), sizeof(MSM_AFF), 0);
            }
        }
        if (d > 0) {
            MSM_G(xyzz_add_mixed_var)(&b[d - 1], &b[d - 1], pip_point(job, i));
            top = d > top ? d : top;
        } else if (d < 0) {
            MSM_G(xyzz_sub_mixed_var)(&b[-d - 1], &b[-d - 1], pip_point(job, i));
            top = -d > top ? -d : top;
        }
    }

    /* Σ_j (j+1)·B_j = Σ_j Σ_{i≥j} B_i: `run` is the suffix sum. */
    MSM_XYZZ run, sum;
    MSM_G(xyzz_set_infinity)(&run);
    MSM_G(xyzz_set_infinity)(&sum);
    for (int j = top - 1; j >= 0; j--) {
        MSM_G(xyzz_add_var)(&run, &run, &b[j]);
        MSM_G(xyzz_add_var)(&sum, &sum, &run);
    }
    job->partials[task] = sum;
}

/* Affine path: bucket += ±p, or false when the bucket is busy in the
 * current batch. An empty bucket takes the point at once. */
static inline bool pip_try_add(pip_scratch *s, const MSM_AFF *p, uint32_t bucket, uint8_t neg)
{
    uint8_t st = s->state[bucket];
    if (st & PIP_BUSY)
        return false;
    if (!(st & PIP_FULL)) {
        MSM_AFF *b = &s->aff[bucket];
        b->x = p->x;
        if (neg)
            MSM_FE(neg)(&b->y, &p->y);
        else
            b->y = p->y;
        b->infinity = false;
        s->state[bucket] = st | PIP_FULL;
        return true;
    }
    s->state[bucket] = st | PIP_BUSY;
    s->batch[s->nbatch++] = (pip_add){p, bucket, neg, PIP_ADD};
    return true;
}

/* Whether a coordinate is zero, in variable time (public data): the field
 * elements are plain arrays of 64-bit limbs, Fp2 two of them. */
static inline bool pip_fe_is_zero_var(const MSM_FE_T *a)
{
    _Static_assert(sizeof(MSM_FE_T) % sizeof(uint64_t) == 0, "a coordinate is whole limbs");
    const uint64_t *l = (const uint64_t *)a;
    uint64_t acc = 0;
    for (size_t i = 0; i < sizeof(MSM_FE_T) / sizeof(uint64_t); i++)
        acc |= l[i];
    return acc == 0;
}

/* The addition into the bucket's XYZZ spill bucket. */
static void pip_spill(pip_scratch *s, const pip_add *a)
{
    MSM_XYZZ *x = &s->spill[a->bucket];
    s->spilled = true;
    if (!(s->state[a->bucket] & PIP_SPILL)) {
        MSM_G(xyzz_set_infinity)(x);
        s->state[a->bucket] |= PIP_SPILL;
    }
    if (a->neg)
        MSM_G(xyzz_sub_mixed_var)(x, x, a->p);
    else
        MSM_G(xyzz_add_mixed_var)(x, x, a->p);
}

#if MSM_FE_HAS_NORM
/* 1/a = conj(a)/N(a) with N(a) = a·conj(a) = c0² + c1² (u² = −1): a
 * denominator costs 2S + 2M in Fp beside its share of the Fp inversion and
 * the Fp prefix products, instead of three Fp2 products (9M). */
static inline void pip_fe_norm(MSM_BASE_T *n, const MSM_FE_T *a)
{
    MSM_BASE_T t;
    MSM_BASE(sqr)(n, &a->c0);
    MSM_BASE(sqr)(&t, &a->c1);
    MSM_BASE(add)(n, n, &t);
}

static inline void pip_fe_inv_by_norm(MSM_FE_T *r, const MSM_FE_T *a, const MSM_BASE_T *ninv)
{
    MSM_BASE(mul)(&r->c0, &a->c0, ninv);
    MSM_BASE(mul)(&r->c1, &a->c1, ninv);
    MSM_BASE(neg)(&r->c1, &r->c1);
}
#endif

/* Montgomery's trick over a batch, one entry at a time. Forward: prefix[i]
 * = acc, then acc ·= den (over Fp2, den's norm in Fp). */
static inline void pip_inv_push(pip_scratch *s, size_t i, const MSM_FE_T *den, MSM_BASE_T *acc)
{
    s->prefix[i] = *acc;
#if MSM_FE_HAS_NORM
    pip_fe_norm(&s->norm[i], den);
    MSM_BASE(mul)(acc, acc, &s->norm[i]);
#else
    MSM_BASE(mul)(acc, acc, den);
#endif
}

/* Backward, from the last entry pushed: r = 1/den, and inv (the inverse of
 * the product through entry i) becomes that of the product before it. */
static inline void pip_inv_take(const pip_scratch *s, size_t i, const MSM_FE_T *den,
                                MSM_BASE_T *inv, MSM_FE_T *r)
{
#if MSM_FE_HAS_NORM
    MSM_BASE_T ninv;
    MSM_BASE(mul)(&ninv, inv, &s->prefix[i]);
    MSM_BASE(mul)(inv, inv, &s->norm[i]);
    pip_fe_inv_by_norm(r, den, &ninv);
#else
    MSM_BASE(mul)(r, inv, &s->prefix[i]);
    MSM_BASE(mul)(inv, inv, den);
#endif
}

/* Runs the batch: one pass forms the denominators and their prefix
 * products, one inversion, one pass backwards turns the running inverse
 * into each addition's 1/denominator (Montgomery 1987, "Speeding the Pollard
 * and elliptic curve methods of factorization", 10.3.1) and applies it.
 * B + P: λ = (y_P − y_B)/(x_P − x_B); B + B (P = B): λ = 3x_B²/(2y_B);
 * then x = λ² − x_B − x_P, y = λ(x_B − x) − y_B. B + (−B) empties the
 * bucket. */
static void pip_flush(pip_scratch *s)
{
    size_t m = s->nbatch;
    if (m == 0)
        return;
    MSM_BASE_T acc = MSM_BASE_ONE;
    for (size_t i = 0; i < m; i++) {
        if (i + PIP_LOOKAHEAD < m) {
            const pip_add *f = &s->batch[i + PIP_LOOKAHEAD];
            pip_prefetch(&s->aff[f->bucket], sizeof(MSM_AFF), 1);
            pip_prefetch(f->p, sizeof(MSM_AFF), 0);
        }
        pip_add *a = &s->batch[i];
        const MSM_AFF *b = &s->aff[a->bucket];
        MSM_FE_T *den = &s->den[i];
        MSM_FE(sub)(den, &a->p->x, &b->x);
        if (pip_fe_is_zero_var(den)) {
            /* x_P = x_B: P = B (a doubling) or P = −B (the bucket empties). */
            MSM_FE_T y;
            if (a->neg)
                MSM_FE(neg)(&y, &a->p->y);
            else
                y = a->p->y;
            if (!MSM_FE(eq)(&y, &b->y) || MSM_FE(is_zero)(&b->y)) {
                a->kind = PIP_CANCEL;
                continue;
            }
            MSM_FE(dbl)(den, &b->y);
            a->kind = PIP_DOUBLE;
        }
        pip_inv_push(s, i, den, &acc);
    }
    MSM_BASE_T inv;
    MSM_BASE(inv_var)(&inv, &acc);
    for (size_t i = m; i-- > 0;) {
        if (i >= PIP_LOOKAHEAD) {
            const pip_add *f = &s->batch[i - PIP_LOOKAHEAD];
            pip_prefetch(&s->aff[f->bucket], sizeof(MSM_AFF), 1);
            pip_prefetch(f->p, sizeof(MSM_AFF), 0);
        }
        const pip_add *a = &s->batch[i];
        MSM_AFF *b = &s->aff[a->bucket];
        if (a->kind == PIP_CANCEL) {
            s->state[a->bucket] &= (uint8_t)~(PIP_BUSY | PIP_FULL);
            continue;
        }
        s->state[a->bucket] &= (uint8_t)~PIP_BUSY;
        MSM_FE_T inv_i, lambda, num, x, t;
        pip_inv_take(s, i, &s->den[i], &inv, &inv_i);
        bool flip = false; /* λ is −(num·inv_i) */
        if (a->kind == PIP_DOUBLE) {
            MSM_FE(sqr)(&t, &b->x);
            MSM_FE(dbl)(&num, &t);
            MSM_FE(add)(&num, &num, &t);
        } else if (a->neg) {
            /* y_P = −y: λ = −(y + y_B)/(x_P − x_B). */
            MSM_FE(add)(&num, &a->p->y, &b->y);
            flip = true;
        } else {
            MSM_FE(sub)(&num, &a->p->y, &b->y);
        }
        MSM_FE(mul)(&lambda, &num, &inv_i);
        MSM_FE(sqr)(&x, &lambda); /* (−λ)² = λ² */
        MSM_FE(sub)(&x, &x, &b->x);
        MSM_FE(sub)(&x, &x, &a->p->x);
        if (flip)
            MSM_FE(sub)(&t, &x, &b->x);
        else
            MSM_FE(sub)(&t, &b->x, &x);
        MSM_FE(mul)(&t, &t, &lambda);
        MSM_FE(sub)(&b->y, &t, &b->y);
        b->x = x;
    }
    s->nbatch = 0;
}

/* Moves the queued additions whose bucket is free into the batch (until it
 * is full); the others stay queued, in order. */
static void pip_requeue(pip_scratch *s, size_t batch_cap)
{
    size_t kept = 0;
    for (size_t i = 0; i < s->nqueue; i++) {
        const pip_add *q = &s->queue[i];
        if (s->nbatch == batch_cap || !pip_try_add(s, q->p, q->bucket, q->neg))
            s->queue[kept++] = *q;
    }
    s->nqueue = kept;
}

static void pip_flush_full(pip_scratch *s, size_t batch_cap)
{
    while (s->nbatch == batch_cap) {
        pip_flush(s);
        pip_requeue(s, batch_cap);
    }
}

/* Σ_j (j+1)·B_j over the affine buckets j < top (none spilled), by batched
 * affine additions. Segment g holds buckets [gL, gL + L), L = 2^l; its
 * running sums R_g (Σ of its buckets from the top down to the current one)
 * and S_g (Σ of the R_g so far) advance one bucket a step, every segment's
 * two additions of a step in one batch: S_g += R_g (its value before the
 * step), then R_g += B_j, with one more S_g += R_g at the end. Then
 * S_g = Σ_{j in g} (j − gL + 1)·B_j and R_g = Σ_{j in g} B_j, and
 * Σ_j (j+1)·B_j = Σ_g S_g + L·Σ_g g·R_g (the last sum by an XYZZ running
 * sum over the segments, then l doublings). R_g and S_g live in the bucket
 * array after the buckets, so that pip_flush runs their additions; a
 * batch reads R_g as the source of S_g's addition and writes it as the
 * target of R_g's: the S_g addition is queued after R_g's, and pip_flush
 * applies a batch backwards, so it reads R_g before R_g's addition lands
 * (both read only in the forward pass). No bucket may be spilled
 * (pip_unspill); segs_max from pip_reduce_segments, which is 0 where the
 * batch capacity or the buckets are too few (the XYZZ loop then runs). */
static size_t pip_reduce_segments(size_t cap, int top)
{
    size_t segs_max = cap / 2 < PIP_REDUCE_SEGMENTS ? cap / 2 : PIP_REDUCE_SEGMENTS;
    if (segs_max == 0 || (size_t)top < PIP_REDUCE_MIN_STEPS * segs_max)
        return 0;
    return segs_max;
}

static void pip_reduce_affine(pip_scratch *s, size_t nb, size_t segs_max, int top, MSM_XYZZ *out)
{
    unsigned l = 0;
    while (((size_t)1 << l) * segs_max < (size_t)top)
        l++;
    size_t len = (size_t)1 << l, segs = ((size_t)top + len - 1) / len;
    uint32_t run0 = (uint32_t)nb, sum0 = (uint32_t)(nb + PIP_REDUCE_SEGMENTS);
    memset(s->state + nb, 0, 2 * PIP_REDUCE_SEGMENTS);
    s->nbatch = 0;
    for (size_t step = 0; step <= len; step++) {
        for (size_t g = 0; g < segs; g++) {
            uint32_t run = run0 + (uint32_t)g, sum = sum0 + (uint32_t)g;
            bool had_run = s->state[run] & PIP_FULL;
            size_t j = g * len + len - 1 - step;
            /* R_g += B_j: an empty R_g takes B_j at once (and S_g then has
             * nothing to add this step). */
            if (step < len && j < (size_t)top && (s->state[j] & PIP_FULL))
                pip_try_add(s, &s->aff[j], run, 0);
            if (had_run)
                pip_try_add(s, &s->aff[run], sum, 0);
        }
        pip_flush(s);
    }
    MSM_XYZZ total, acc, weighted;
    MSM_G(xyzz_set_infinity)(&total);
    MSM_G(xyzz_set_infinity)(&acc);
    MSM_G(xyzz_set_infinity)(&weighted);
    for (size_t g = segs; g-- > 1;) {
        if (s->state[run0 + g] & PIP_FULL)
            MSM_G(xyzz_add_mixed_var)(&acc, &acc, &s->aff[run0 + g]);
        MSM_G(xyzz_add_var)(&weighted, &weighted, &acc);
    }
    for (unsigned i = 0; i < l; i++)
        MSM_G(xyzz_dbl)(&weighted, &weighted);
    for (size_t g = 0; g < segs; g++)
        if (s->state[sum0 + g] & PIP_FULL)
            MSM_G(xyzz_add_mixed_var)(&total, &total, &s->aff[sum0 + g]);
    MSM_G(xyzz_add_var)(out, &total, &weighted);
}

/* pip_unspill's batch: the spilled buckets s->batch[i].bucket, i < m, to
 * affine, their ZZZ inverted together (1/ZZ = (ZZ/ZZZ)², as ZZ³ = ZZZ²). */
static void pip_unspill_batch(pip_scratch *s, size_t m)
{
    if (m == 0)
        return;
    MSM_BASE_T acc = MSM_BASE_ONE;
    for (size_t i = 0; i < m; i++)
        pip_inv_push(s, i, &s->spill[s->batch[i].bucket].zzz, &acc);
    MSM_BASE_T inv;
    MSM_BASE(inv_var)(&inv, &acc);
    for (size_t i = m; i-- > 0;) {
        uint32_t j = s->batch[i].bucket;
        const MSM_XYZZ *x = &s->spill[j];
        MSM_FE_T t, u;
        pip_inv_take(s, i, &x->zzz, &inv, &t);
        MSM_FE(mul)(&u, &t, &x->zz);
        MSM_FE(sqr)(&u, &u);
        MSM_FE(mul)(&s->aff[j].x, &x->x, &u);
        MSM_FE(mul)(&s->aff[j].y, &x->y, &t);
        s->aff[j].infinity = false;
        s->state[j] |= PIP_FULL;
    }
}

/* Folds each spilled bucket below top into its affine bucket (for the
 * affine reduction), cap at a time. */
static void pip_unspill(pip_scratch *s, size_t cap, int top)
{
    size_t m = 0;
    for (int j = 0; j < top; j++) {
        uint8_t st = s->state[j];
        if (!(st & PIP_SPILL))
            continue;
        MSM_XYZZ *x = &s->spill[j];
        if (st & PIP_FULL)
            MSM_G(xyzz_add_mixed_var)(x, x, &s->aff[j]);
        s->state[j] = st & (uint8_t) ~(PIP_SPILL | PIP_FULL);
        if (MSM_G(xyzz_is_infinity)(x))
            continue;
        s->batch[m++].bucket = (uint32_t)j;
        if (m == cap) {
            pip_unspill_batch(s, m);
            m = 0;
        }
    }
    pip_unspill_batch(s, m);
}

/* Affine path: the same task as pip_task_xyzz with affine buckets. */
static void pip_task_affine(pip_job *job, pip_scratch *s, size_t task)
{
    const msm_plan *pl = &job->plan;
    unsigned w;
    size_t begin, end;
    pip_task_range(job, task, &w, &begin, &end);
    size_t nb = (size_t)1 << (pl->c - 1), cap = job->batch_cap;
    memset(s->state, 0, nb);
    s->nbatch = s->nqueue = 0;
    s->spilled = false;

    int top = 0;
    for (size_t i = begin; i < end; i++) {
        int d = msm_digit(job->k[i], pl, w);
        if (d == 0)
            continue;
        const MSM_AFF *p = pip_point(job, i);
        if (p->infinity)
            continue;
        uint8_t neg = d < 0;
        uint32_t bucket = (uint32_t)(neg ? -d : d) - 1;
        top = (int)bucket + 1 > top ? (int)bucket + 1 : top;
        if (!pip_try_add(s, p, bucket, neg)) {
            pip_add a = {p, bucket, neg, PIP_ADD};
            if (s->nqueue < job->queue_cap)
                s->queue[s->nqueue++] = a;
            else
                pip_spill(s, &a);
        }
        pip_flush_full(s, cap);
    }
    /* The last batch, one more for what waited, the rest spilled. */
    pip_flush(s);
    pip_requeue(s, cap);
    pip_flush_full(s, cap);
    pip_flush(s);
    for (size_t i = 0; i < s->nqueue; i++)
        pip_spill(s, &s->queue[i]);
    s->nqueue = 0;

    size_t segs = pip_reduce_segments(cap, top);
    if (segs) {
        if (s->spilled)
            pip_unspill(s, cap, top);
        pip_reduce_affine(s, nb, segs, top, &job->partials[task]);
        return;
    }
    MSM_XYZZ run, sum;
    MSM_G(xyzz_set_infinity)(&run);
    MSM_G(xyzz_set_infinity)(&sum);
    for (int j = top - 1; j >= 0; j--) {
        uint8_t st = s->state[j];
        if (st & PIP_FULL)
            MSM_G(xyzz_add_mixed_var)(&run, &run, &s->aff[j]);
        if (st & PIP_SPILL)
            MSM_G(xyzz_add_var)(&run, &run, &s->spill[j]);
        MSM_G(xyzz_add_var)(&sum, &sum, &run);
    }
    job->partials[task] = sum;
}

/* One worker slot of parallel_for: its own buckets, tasks claimed in order
 * until none are left. */
static void pip_worker(void *arg, size_t begin, size_t end)
{
    pip_job *job = arg;
    size_t tasks = (size_t)job->plan.nwin * job->plan.parts;
    for (size_t slot = begin; slot < end; slot++) {
        pip_scratch *s = &job->scratch[slot];
        for (;;) {
            size_t t = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
            if (t >= tasks)
                break;
            if (job->affine)
                pip_task_affine(job, s, t);
            else
                pip_task_xyzz(job, s->xyzz, t);
        }
    }
}

static void pip_scratch_free(pip_scratch *s)
{
    free(s->xyzz);
    free(s->aff);
    free(s->spill);
    free(s->state);
    free(s->batch);
    free(s->den);
    free(s->norm);
    free(s->prefix);
    free(s->queue);
}

static bool pip_scratch_alloc(pip_scratch *s, const pip_job *job)
{
    size_t nb = (size_t)1 << (job->plan.c - 1);
    *s = (pip_scratch){0};
    if (!job->affine)
        return (s->xyzz = malloc(sizeof(MSM_XYZZ) * nb)) != NULL;
    s->aff = malloc(sizeof(MSM_AFF) * (nb + 2 * PIP_REDUCE_SEGMENTS));
    s->spill = malloc(sizeof(MSM_XYZZ) * nb);
    s->state = malloc(nb + 2 * PIP_REDUCE_SEGMENTS);
    s->batch = malloc(sizeof(pip_add) * job->batch_cap);
    s->den = malloc(sizeof(MSM_FE_T) * job->batch_cap);
    s->norm = MSM_FE_HAS_NORM ? malloc(sizeof(MSM_BASE_T) * job->batch_cap) : NULL;
    s->prefix = malloc(sizeof(MSM_BASE_T) * job->batch_cap);
    s->queue = malloc(sizeof(pip_add) * job->queue_cap);
    return s->aff && s->spill && s->state && s->batch && s->den &&
           (s->norm || !MSM_FE_HAS_NORM) && s->prefix && s->queue;
}

/* Whether the affine path runs for n points (tuning NULL: by size). */
static bool pip_use_affine(size_t n, const msm_tuning *tuning)
{
    msm_buckets mode = tuning ? tuning->buckets : MSM_BUCKETS_AUTO;
    if (mode == MSM_BUCKETS_AUTO)
        return n >= MSM_AFFINE_MIN_POINTS;
    return mode == MSM_BUCKETS_AFFINE;
}

/* The plan for n points and scalars below 2^bits. */
static void pip_plan(msm_plan *plan, size_t n, unsigned threads, bool affine, unsigned bits,
                     unsigned force_c)
{
    if (affine)
        /* Reduction (pip_reduce_affine): two batched affine additions per
         * bucket, with a batch of 2·PIP_REDUCE_SEGMENTS to share each
         * inversion, and the segments' sums. */
        msm_plan_make_bits(plan, n, threads, sizeof(MSM_AFF) + 1, MSM_AFFINE_POINT_COST,
                           2 * MSM_AFFINE_POINT_COST + MSM_AFFINE_REDUCE_EXTRA, bits, force_c);
    else
        msm_plan_make_bits(plan, n, threads, sizeof(MSM_XYZZ), 1.0, 2 * MSM_ADD_RATIO, bits,
                           force_c);
}

#if MSM_HAS_GLV && !defined(MSM_GLV_AUTO_MAX)
#define MSM_GLV_AUTO_MAX MSM_GLV_MAX_POINTS
#endif

/* Whether n points go through the endomorphism split (tuning NULL: when the
 * model finds 2n points of MSM_GLV_BITS-bit scalars, plus the split, cheaper
 * than n of 255 bits). */
static bool pip_use_glv(size_t n, unsigned threads, const msm_tuning *tuning)
{
#if !MSM_HAS_GLV
    (void)n, (void)threads, (void)tuning;
    return false;
#else
    msm_endo mode = tuning ? tuning->endo : MSM_ENDO_AUTO;
    if (mode != MSM_ENDO_AUTO)
        return mode == MSM_ENDO_ON;
    if (n < 2 || n > MSM_GLV_AUTO_MAX)
        return false;
    unsigned force_c = tuning ? tuning->window : 0;
    msm_plan plain, glv;
    pip_plan(&plain, n, threads, pip_use_affine(n, tuning), 255, force_c);
    pip_plan(&glv, 2 * n, threads, pip_use_affine(2 * n, tuning), MSM_GLV_BITS, force_c);
    return glv.cost + MSM_GLV_POINT_COST * (double)n / threads < plain.cost;
#endif
}

/* out = Σ k_i·points[pidx ? pidx[i] : i] over i < n, every k_i < 2^bits. */
static cuzk_status pip_run(MSM_JAC *out, const MSM_AFF *points, const size_t *pidx,
                           const uint64_t (*k)[4], size_t n, unsigned threads, unsigned bits,
                           const msm_tuning *tuning)
{
    if (n == 0) {
        MSM_G(jac_set_infinity)(out);
        return CUZK_OK;
    }
    pip_job job = {.points = points, .pidx = pidx, .k = k, .n = n};
    job.affine = pip_use_affine(n, tuning);
    pip_plan(&job.plan, n, parallel_threads(threads), job.affine, bits,
             tuning ? tuning->window : 0);
    const msm_plan *pl = &job.plan;
    size_t nb = (size_t)1 << (pl->c - 1);
    size_t tasks = (size_t)pl->nwin * pl->parts;
    job.batch_cap = tuning && tuning->batch ? tuning->batch : nb / PIP_BATCH_SHARE;
    if (job.batch_cap > PIP_BATCH_MAX && !(tuning && tuning->batch))
        job.batch_cap = PIP_BATCH_MAX;
    if (job.batch_cap == 0)
        job.batch_cap = 1;
    job.queue_cap = tuning && tuning->queue ? tuning->queue : job.batch_cap;
    job.partials = malloc(sizeof(MSM_XYZZ) * tasks);
    job.scratch = calloc(pl->workers, sizeof(pip_scratch));
    bool ok = job.partials && job.scratch;
    for (unsigned i = 0; ok && i < pl->workers; i++)
        ok = pip_scratch_alloc(&job.scratch[i], &job);
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    if (!ok)
        goto done;
    atomic_init(&job.next, 0);
    parallel_for(pl->workers, 1, pl->workers, pip_worker, &job);

    /* Σ_w 2^(cw)·W_w by Horner's rule from the top window down. */
    MSM_JAC acc, wj;
    MSM_G(jac_set_infinity)(&acc);
    for (unsigned w = pl->nwin; w-- > 0;) {
        if (!MSM_G(jac_is_infinity)(&acc))
            for (unsigned i = 0; i < pl->c; i++)
                MSM_G(jac_dbl)(&acc, &acc);
        MSM_XYZZ ws = job.partials[(size_t)w * pl->parts];
        for (unsigned p = 1; p < pl->parts; p++)
            MSM_G(xyzz_add_var)(&ws, &ws, &job.partials[(size_t)w * pl->parts + p]);
        MSM_G(xyzz_to_jac)(&wj, &ws);
        MSM_G(jac_add_var)(&acc, &acc, &wj);
    }
    *out = acc;
    st = CUZK_OK;
done:
    if (job.scratch)
        for (unsigned i = 0; i < pl->workers; i++)
            pip_scratch_free(&job.scratch[i]);
    free(job.scratch);
    free(job.partials);
    return st;
}

#if MSM_HAS_GLV
/* The endomorphism split of n (point, scalar) pairs into 2n: entry i is
 * (P_i, k_i mod x²), entry n + i is ([x²]P_i, floor(k_i/x²)); with
 * MSM_GLV_SPLIT, (±P_i, |k1|) and (±φ(P_i), |k2|). */
typedef struct glv_job {
    const MSM_AFF *points;
    const size_t *pidx;
    const uint64_t (*k)[4];
    size_t n;
    MSM_AFF *pts;      /* 2n */
    uint64_t (*ks)[4]; /* 2n */
} glv_job;

static void glv_expand(void *arg, size_t begin, size_t end)
{
    glv_job *job = arg;
    size_t n = job->n;
    for (size_t i = begin; i < end; i++) {
        const MSM_AFF *p = job->pidx ? &job->points[job->pidx[i]] : &job->points[i];
        const uint64_t *k = job->k[i];
        MSM_AFF *lo = &job->pts[i], *hi = &job->pts[n + i];
        *lo = *p;
        if (p->infinity || (k[0] | k[1] | k[2] | k[3]) == 0) {
            /* Nothing to add: zero scalars make both entries no-ops. */
            memset(job->ks[i], 0, sizeof(job->ks[i]));
            memset(job->ks[n + i], 0, sizeof(job->ks[n + i]));
            *hi = *p;
            continue;
        }
#ifndef MSM_GLV_SPLIT
        msm_glv_split(job->ks[i], job->ks[n + i], k);
        MSM_GLV_MUL_BETA(&hi->x, &p->x);
        MSM_FE(neg)(&hi->y, &p->y);
#else
        /* Signed halves: a negative one takes its point negated, k·P =
         * |k|·(−P). */
        bool neg1, neg2;
        MSM_GLV_SPLIT(job->ks[i], job->ks[n + i], &neg1, &neg2, k);
        MSM_GLV_MUL_BETA(&hi->x, &p->x);
        if (neg2)
            MSM_FE(neg)(&hi->y, &p->y);
        else
            hi->y = p->y;
        if (neg1)
            MSM_FE(neg)(&lo->y, &p->y);
#endif
        hi->infinity = false;
    }
}
#endif

/* out = Σ k_i·points[pidx ? pidx[i] : i] over i < n, every k_i < r: through
 * the endomorphism split when it pays (pip_use_glv). */
static cuzk_status pippenger(MSM_JAC *out, const MSM_AFF *points, const size_t *pidx,
                             const uint64_t (*k)[4], size_t n, unsigned threads,
                             const msm_tuning *tuning)
{
    if (n == 0 || !pip_use_glv(n, parallel_threads(threads), tuning))
        return pip_run(out, points, pidx, k, n, threads, 255, tuning);
#if !MSM_HAS_GLV
    return CUZK_ERR_INVALID_ARGUMENT; /* not reached: pip_use_glv is false */
#else
    glv_job job = {.points = points, .pidx = pidx, .k = k, .n = n};
    job.pts = n <= SIZE_MAX / (2 * sizeof(MSM_AFF)) ? malloc(2 * n * sizeof(MSM_AFF)) : NULL;
    job.ks = n <= SIZE_MAX / (2 * sizeof(uint64_t[4])) ? malloc(2 * n * sizeof(uint64_t[4]))
                                                         : NULL;
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    if (job.pts && job.ks) {
        parallel_for(n, 1024, threads, glv_expand, &job);
        st = pip_run(out, job.pts, NULL, (const uint64_t(*)[4])job.ks, 2 * n, threads,
                     MSM_GLV_BITS, tuning);
    }
    free(job.pts);
    free(job.ks);
    return st;
#endif
}

/* ------------------------------------------------------------- scalars */

static inline bool pip_sc_is_zero(const MSM_SC_T *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0;
}

static inline bool pip_sc_is_one(const MSM_SC_T *a)
{
    return ((a->l[0] ^ MSM_SC_ONE.l[0]) | (a->l[1] ^ MSM_SC_ONE.l[1]) |
            (a->l[2] ^ MSM_SC_ONE.l[2]) | (a->l[3] ^ MSM_SC_ONE.l[3])) == 0;
}

typedef struct pip_to_raw_ctx {
    uint64_t (*raw)[4];
    const MSM_SC_T *s;
} pip_to_raw_ctx;

static void pip_to_raw_chunk(void *arg, size_t begin, size_t end)
{
    pip_to_raw_ctx *ctx = arg;
    for (size_t i = begin; i < end; i++)
        MSM_SC(to_raw)(ctx->raw[i], &ctx->s[i]);
}

/* raw[i] = the canonical integer of scalars[i] (Montgomery form out). */
static void pip_scalars_to_raw(uint64_t (*raw)[4], const MSM_SC_T *scalars, size_t n,
                               unsigned threads)
{
    pip_to_raw_ctx ctx = {raw, scalars};
    parallel_for(n, 1u << 14, threads, pip_to_raw_chunk, &ctx);
}

/* Whether every k[i] < r. */
static bool pip_scalars_canonical(const uint64_t (*k)[4], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        /* k < r: compare from the top limb down. */
        int j = 3;
        while (j > 0 && k[i][j] == MSM_SC_MODULUS[j])
            j--;
        if (k[i][j] >= MSM_SC_MODULUS[j])
            return false;
    }
    return true;
}

/* ------------------------------------------------------------- the split */

/* Scalars are walked in blocks of `block` variables (a multiple of 64, at
 * most MSM_SPLIT_BLOCK, small enough for every thread to get a few). Per block:
 * the index of its first point (prefix of density popcounts), the sum of
 * the points whose scalar is one, and where its "other" scalars go in the
 * compacted arrays (prefix of their counts). */
typedef struct split_job {
    const MSM_AFF *points;
    const MSM_SC_T *scalars;
    size_t n_scalars, block;
    const uint64_t *density; /* NULL: every variable has a point */
    size_t *pt_off;          /* nblk + 1 */
    size_t *other_off;       /* nblk + 1 */
    MSM_XYZZ *ones;          /* nblk */
    size_t *pidx;            /* compacted: point index */
    uint64_t (*raw)[4];      /* compacted: canonical scalar */
} split_job;

static inline size_t split_block_end(const split_job *job, size_t blk)
{
    size_t end = (blk + 1) * job->block;
    return end < job->n_scalars ? end : job->n_scalars;
}

static void split_count_points(void *arg, size_t begin, size_t end)
{
    split_job *job = arg;
    for (size_t blk = begin; blk < end; blk++) {
        size_t s0 = blk * job->block;
        job->pt_off[blk + 1] = msm_popcount(job->density + s0 / 64, split_block_end(job, blk) - s0);
    }
}

/* Sums the points whose scalar is one; counts the other nonzero scalars
 * (of points not at infinity: only those go to Pippenger). */
static void split_classify(void *arg, size_t begin, size_t end)
{
    split_job *job = arg;
    for (size_t blk = begin; blk < end; blk++) {
        size_t p = job->pt_off[blk], others = 0;
        MSM_XYZZ acc;
        MSM_G(xyzz_set_infinity)(&acc);
        for (size_t s = blk * job->block; s < split_block_end(job, blk); s++) {
            if (job->density && !r1cs_bit(job->density, s))
                continue;
            const MSM_SC_T *k = &job->scalars[s];
            if (job->points[p].infinity) /* nothing to add (keys have many) */
                ;
            else if (pip_sc_is_one(k))
                MSM_G(xyzz_add_mixed_var)(&acc, &acc, &job->points[p]);
            else if (!pip_sc_is_zero(k))
                others++;
            p++;
        }
        job->ones[blk] = acc;
        job->other_off[blk + 1] = others;
    }
}

static void split_compact(void *arg, size_t begin, size_t end)
{
    split_job *job = arg;
    for (size_t blk = begin; blk < end; blk++) {
        size_t p = job->pt_off[blk], o = job->other_off[blk];
        for (size_t s = blk * job->block; s < split_block_end(job, blk); s++) {
            if (job->density && !r1cs_bit(job->density, s))
                continue;
            const MSM_SC_T *k = &job->scalars[s];
            if (!job->points[p].infinity && !pip_sc_is_one(k) && !pip_sc_is_zero(k)) {
                MSM_SC(to_raw)(job->raw[o], k);
                job->pidx[o] = p;
                o++;
            }
            p++;
        }
    }
}

static cuzk_status split_msm(MSM_JAC *out, const MSM_AFF *points, size_t n_points,
                             const MSM_SC_T *scalars, size_t n_scalars, const uint64_t *density,
                             unsigned threads)
{
    if (!out || (n_points && !points) || (n_scalars && !scalars) ||
        (!density && n_points != n_scalars))
        return CUZK_ERR_INVALID_ARGUMENT;
    size_t block = n_scalars / (8 * (size_t)parallel_threads(threads));
    block = (block + 63) & ~(size_t)63;
    block = block < 256 ? 256 : block > MSM_SPLIT_BLOCK ? MSM_SPLIT_BLOCK : block;
    size_t nblk = (n_scalars + block - 1) / block;
    split_job job = {.points = points,
                     .scalars = scalars,
                     .n_scalars = n_scalars,
                     .block = block,
                     .density = density};
    job.pt_off = malloc(sizeof(size_t) * (nblk + 1));
    job.other_off = malloc(sizeof(size_t) * (nblk + 1));
    job.ones = malloc(sizeof(MSM_XYZZ) * (nblk ? nblk : 1));
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    if (!job.pt_off || !job.other_off || !job.ones)
        goto done;

    job.pt_off[0] = 0;
    if (density) {
        parallel_for(nblk, 1, threads, split_count_points, &job);
        for (size_t b = 0; b < nblk; b++)
            job.pt_off[b + 1] += job.pt_off[b];
    } else {
        for (size_t b = 0; b < nblk; b++)
            job.pt_off[b + 1] = split_block_end(&job, b);
    }
    st = CUZK_ERR_INVALID_ARGUMENT;
    if (job.pt_off[nblk] != n_points)
        goto done;

    job.other_off[0] = 0;
    parallel_for(nblk, 1, threads, split_classify, &job);
    for (size_t b = 0; b < nblk; b++)
        job.other_off[b + 1] += job.other_off[b];
    size_t m = job.other_off[nblk];
    st = CUZK_ERR_OUT_OF_MEMORY;
    job.pidx = malloc(sizeof(size_t) * (m ? m : 1));
    job.raw = malloc(sizeof(uint64_t[4]) * (m ? m : 1));
    if (!job.pidx || !job.raw)
        goto done;
    parallel_for(nblk, 1, threads, split_compact, &job);

    MSM_JAC pip, ones_j;
    st = pippenger(&pip, points, job.pidx, (const uint64_t(*)[4])job.raw, m, threads, NULL);
    if (st != CUZK_OK)
        goto done;
    MSM_XYZZ ones;
    MSM_G(xyzz_set_infinity)(&ones);
    for (size_t b = 0; b < nblk; b++)
        MSM_G(xyzz_add_var)(&ones, &ones, &job.ones[b]);
    MSM_G(xyzz_to_jac)(&ones_j, &ones);
    MSM_G(jac_add_var)(out, &pip, &ones_j);

done:
    free(job.pt_off);
    free(job.other_off);
    free(job.ones);
    free(job.pidx);
    free(job.raw);
    return st;
}

/* ------------------------------------------------------------- the API */

static cuzk_status raw_msm(MSM_JAC *out, const MSM_AFF *points, const uint64_t (*scalars)[4],
                           size_t n, unsigned threads, const msm_tuning *tuning)
{
    if (!out || (n && (!points || !scalars)))
        return CUZK_ERR_INVALID_ARGUMENT;
    if (tuning && tuning->window && (tuning->window < MSM_MIN_C || tuning->window > MSM_MAX_C))
        return CUZK_ERR_INVALID_ARGUMENT;
    if (tuning && tuning->buckets != MSM_BUCKETS_AUTO && tuning->buckets != MSM_BUCKETS_XYZZ &&
        tuning->buckets != MSM_BUCKETS_AFFINE)
        return CUZK_ERR_INVALID_ARGUMENT;
    if (tuning && tuning->endo != MSM_ENDO_AUTO && tuning->endo != MSM_ENDO_OFF &&
        tuning->endo != MSM_ENDO_ON)
        return CUZK_ERR_INVALID_ARGUMENT;
    if (!pip_scalars_canonical(scalars, n))
        return CUZK_ERR_INVALID_ARGUMENT;
    return pippenger(out, points, NULL, scalars, n, threads, tuning);
}

cuzk_status MSM_F(_raw)(MSM_JAC *out, const MSM_AFF *points, const uint64_t (*scalars)[4], size_t n,
                        unsigned threads)
{
    return raw_msm(out, points, scalars, n, threads, NULL);
}

cuzk_status MSM_F(_raw_window)(MSM_JAC *out, const MSM_AFF *points, const uint64_t (*scalars)[4],
                               size_t n, unsigned threads, unsigned c)
{
    if (c == 0)
        return CUZK_ERR_INVALID_ARGUMENT;
    msm_tuning tuning = {.window = c};
    return raw_msm(out, points, scalars, n, threads, &tuning);
}

cuzk_status MSM_F(_raw_tuned)(MSM_JAC *out, const MSM_AFF *points, const uint64_t (*scalars)[4],
                              size_t n, unsigned threads, const msm_tuning *tuning)
{
    return raw_msm(out, points, scalars, n, threads, tuning);
}

cuzk_status MSM_F()(MSM_JAC *out, const MSM_AFF *points, const MSM_SC_T *scalars, size_t n,
                    unsigned threads)
{
    if (!out || (n && (!points || !scalars)))
        return CUZK_ERR_INVALID_ARGUMENT;
    if (n == 0) {
        MSM_G(jac_set_infinity)(out);
        return CUZK_OK;
    }
    uint64_t(*raw)[4] =
        n <= SIZE_MAX / sizeof(uint64_t[4]) ? malloc(sizeof(uint64_t[4]) * n) : NULL;
    if (!raw)
        return CUZK_ERR_OUT_OF_MEMORY;
    pip_scalars_to_raw(raw, scalars, n, threads);
    cuzk_status st = pippenger(out, points, NULL, (const uint64_t(*)[4])raw, n, threads, NULL);
    free(raw);
    return st;
}

cuzk_status MSM_F(_split)(MSM_JAC *out, const MSM_AFF *points, const MSM_SC_T *scalars, size_t n,
                          unsigned threads)
{
    return split_msm(out, points, n, scalars, n, NULL, threads);
}

cuzk_status MSM_F(_dense)(MSM_JAC *out, const MSM_AFF *points, size_t n_points, const MSM_SC_T *scalars,
                          size_t n_scalars, const uint64_t *density_bits, unsigned threads)
{
    return split_msm(out, points, n_points, scalars, n_scalars, density_bits, threads);
}

unsigned MSM_F(_window_bits)(size_t n, unsigned threads)
{
    msm_plan plan;
    unsigned t = parallel_threads(threads);
    if (pip_use_glv(n, t, NULL))
        pip_plan(&plan, 2 * n, t, pip_use_affine(2 * n, NULL), MSM_GLV_BITS, 0);
    else
        pip_plan(&plan, n, t, pip_use_affine(n, NULL), 255, 0);
    return plan.c;
}
