/* The MSM of one group: Pippenger's bucket method and the 0/1/other split
 * (msm.h describes both). A template: msm_g1.c and msm_g2.c include it once
 * each, after defining
 *   MSM_G(name)    the group's functions (g1_##name)
 *   MSM_F(suffix)  the exported names (msm_g1##suffix)
 *   MSM_AFF, MSM_JAC, MSM_XYZZ   the point types
 *   MSM_ADD_RATIO  cost of an XYZZ addition over a mixed one (measured)
 * Everything in it is static except the MSM_F functions. */

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "msm/msm_internal.h"
#include "r1cs/density.h"
#include "util/parallel.h"

/* How far ahead the accumulation loop fetches buckets and points. */
#define PIP_LOOKAHEAD 8

/* ------------------------------------------------------------ Pippenger */

typedef struct pip_job {
    const MSM_AFF *points;
    const size_t *pidx; /* NULL: scalar i goes with point i */
    const uint64_t (*k)[4];
    size_t n;
    msm_plan plan;
    MSM_XYZZ *buckets;  /* workers × 2^(c−1) */
    MSM_XYZZ *partials; /* one window sum per task, task = window·parts + part */
    atomic_size_t next; /* the next task to claim */
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

/* One window over one point range: fill the buckets, then reduce them by
 * the running sum into the task's partial window sum. */
static void pip_task(pip_job *job, MSM_XYZZ *b, size_t task)
{
    const msm_plan *pl = &job->plan;
    unsigned w = (unsigned)(task / pl->parts), part = (unsigned)(task % pl->parts);
    size_t begin = job->n / pl->parts * part + (job->n % pl->parts) * part / pl->parts;
    size_t end = job->n / pl->parts * (part + 1) + (job->n % pl->parts) * (part + 1) / pl->parts;
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

/* One worker slot of parallel_for: its own buckets, tasks claimed in order
 * until none are left. */
static void pip_worker(void *arg, size_t begin, size_t end)
{
    pip_job *job = arg;
    size_t tasks = (size_t)job->plan.nwin * job->plan.parts;
    size_t nb = (size_t)1 << (job->plan.c - 1);
    for (size_t slot = begin; slot < end; slot++) {
        MSM_XYZZ *b = job->buckets + slot * nb;
        for (;;) {
            size_t t = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
            if (t >= tasks)
                break;
            pip_task(job, b, t);
        }
    }
}

/* out = Σ k_i·points[pidx ? pidx[i] : i] over i < n, every k_i < r. */
static cuzk_status pippenger(MSM_JAC *out, const MSM_AFF *points, const size_t *pidx,
                             const uint64_t (*k)[4], size_t n, unsigned threads, unsigned force_c)
{
    if (n == 0) {
        MSM_G(jac_set_infinity)(out);
        return CUZK_OK;
    }
    pip_job job = {.points = points, .pidx = pidx, .k = k, .n = n};
    msm_plan_make(&job.plan, n, parallel_threads(threads), sizeof(MSM_XYZZ), MSM_ADD_RATIO,
                  force_c);
    const msm_plan *pl = &job.plan;
    size_t nb = (size_t)1 << (pl->c - 1);
    size_t tasks = (size_t)pl->nwin * pl->parts;
    job.buckets = malloc(sizeof(MSM_XYZZ) * nb * pl->workers);
    job.partials = malloc(sizeof(MSM_XYZZ) * tasks);
    if (!job.buckets || !job.partials) {
        free(job.buckets);
        free(job.partials);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
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
    free(job.buckets);
    free(job.partials);
    return CUZK_OK;
}

/* ------------------------------------------------------------- the split */

/* Scalars are walked in blocks of `block` variables (a multiple of 64, at
 * most MSM_SPLIT_BLOCK, small enough for every thread to get a few). Per block:
 * the index of its first point (prefix of density popcounts), the sum of
 * the points whose scalar is one, and where its "other" scalars go in the
 * compacted arrays (prefix of their counts). */
typedef struct split_job {
    const MSM_AFF *points;
    const fr_t *scalars;
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

/* Sums the points whose scalar is one; counts the other nonzero scalars. */
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
            const fr_t *k = &job->scalars[s];
            if (msm_fr_is_one(k))
                MSM_G(xyzz_add_mixed_var)(&acc, &acc, &job->points[p]);
            else if (!msm_fr_is_zero(k))
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
            const fr_t *k = &job->scalars[s];
            if (!msm_fr_is_one(k) && !msm_fr_is_zero(k)) {
                fr_to_raw(job->raw[o], k);
                job->pidx[o] = p;
                o++;
            }
            p++;
        }
    }
}

static cuzk_status split_msm(MSM_JAC *out, const MSM_AFF *points, size_t n_points,
                             const fr_t *scalars, size_t n_scalars, const uint64_t *density,
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
    st = pippenger(&pip, points, job.pidx, (const uint64_t(*)[4])job.raw, m, threads, 0);
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
                           size_t n, unsigned threads, unsigned force_c)
{
    if (!out || (n && (!points || !scalars)))
        return CUZK_ERR_INVALID_ARGUMENT;
    if (force_c && (force_c < MSM_MIN_C || force_c > MSM_MAX_C))
        return CUZK_ERR_INVALID_ARGUMENT;
    if (!msm_scalars_canonical(scalars, n))
        return CUZK_ERR_INVALID_ARGUMENT;
    return pippenger(out, points, NULL, scalars, n, threads, force_c);
}

cuzk_status MSM_F(_raw)(MSM_JAC *out, const MSM_AFF *points, const uint64_t (*scalars)[4], size_t n,
                        unsigned threads)
{
    return raw_msm(out, points, scalars, n, threads, 0);
}

cuzk_status MSM_F(_raw_window)(MSM_JAC *out, const MSM_AFF *points, const uint64_t (*scalars)[4],
                               size_t n, unsigned threads, unsigned c)
{
    if (c == 0)
        return CUZK_ERR_INVALID_ARGUMENT;
    return raw_msm(out, points, scalars, n, threads, c);
}

cuzk_status MSM_F()(MSM_JAC *out, const MSM_AFF *points, const fr_t *scalars, size_t n,
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
    msm_scalars_to_raw(raw, scalars, n, threads);
    cuzk_status st = pippenger(out, points, NULL, (const uint64_t(*)[4])raw, n, threads, 0);
    free(raw);
    return st;
}

cuzk_status MSM_F(_split)(MSM_JAC *out, const MSM_AFF *points, const fr_t *scalars, size_t n,
                          unsigned threads)
{
    return split_msm(out, points, n, scalars, n, NULL, threads);
}

cuzk_status MSM_F(_dense)(MSM_JAC *out, const MSM_AFF *points, size_t n_points, const fr_t *scalars,
                          size_t n_scalars, const uint64_t *density_bits, unsigned threads)
{
    return split_msm(out, points, n_points, scalars, n_scalars, density_bits, threads);
}

unsigned MSM_F(_window_bits)(size_t n, unsigned threads)
{
    return msm_window_bits(n, threads, sizeof(MSM_XYZZ), MSM_ADD_RATIO);
}
