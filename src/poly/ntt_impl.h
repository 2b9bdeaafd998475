/* The NTT of ntt.h over one scalar field: a template that ntt.c
 * (BLS12-381's Fr) and bn254_ntt.c (BN254's) include once each, after their
 * field's _names.h (FE_ ...) and
 *   NTT_(name)    the exported names (ntt_##name)
 *   NTT_DOMAIN_T  the field's domain type
 * Everything but the NTT_ functions is static.
 *
 * Radix-2 NTT with stages fused in pairs and a cache-blocked tail.
 *
 * Stage s (0 <= s < k) splits each of the 2^s blocks of size m = n >> s:
 * block b reduces a polynomial modulo x^m - tw[b]^2 into its residues modulo
 * x^(m/2) - tw[b] and x^(m/2) + tw[b] (Cooley-Tukey butterfly
 * (u, v) -> (u + tw[b] v, u - tw[b] v)); children are blocks 2b and 2b+1.
 * With tw[b] = w^brv(b) on k-1 bits, every stage reads the prefix tw[0..2^s)
 * sequentially, one twiddle per block, and the leaves come out in
 * bit-reversed order (the "bit-reversed twiddle" formulation of e.g.
 * Longa-Naehrig, "Speeding up the NTT ... lattice-based cryptography",
 * CANS 2016, Algorithm 1). The transpose of that network (stages in reverse,
 * Gentleman-Sande butterflies (u, v) -> (u + v, (u - v) tw[b])) maps
 * bit-reversed input to natural output: F P = (P F)^T, F symmetric.
 *
 * Memory: the first stages, whose blocks exceed NTT_BLOCK elements, stream
 * over the whole array two stages per pass (radix-4 shaped, 4 elements
 * loaded, 4 multiplications, 4 stored). The remaining stages act inside
 * independent contiguous blocks of NTT_BLOCK elements that stay in L2: each
 * block runs all of them before the next block is touched. Threads split
 * the butterflies of a pass, or the blocks of the tail. */

#include <stdint.h>

#include "util/parallel.h"

/* 2^13 elements = 256 KiB per cache block. */
#define NTT_BLOCK_LOG 13u
/* Fewest butterflies (pairs or quads) per thread chunk of a streaming pass. */
#define NTT_PASS_GRAIN 2048u
/* Fewest elements per thread chunk of a scaling pass. */
#define NTT_SCALE_GRAIN 4096u
/* Bit reversal works on tiles of 2^NTT_BR_TILE_LOG x 2^NTT_BR_TILE_LOG. */
#define NTT_BR_TILE_LOG 4u

static inline unsigned ntt_log2(size_t n)
{
    unsigned k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

/* ---- butterflies ---------------------------------------------------- */

/* Cooley-Tukey: (x, y) <- (x + w y, x - w y); w = NULL means 1. */
static inline void ntt_ct(FE_T *x, FE_T *y, const FE_T *w)
{
    FE_T v;
    if (w)
        FE_(mul)(&v, y, w);
    else
        v = *y;
    FE_(sub)(y, x, &v);
    FE_(add)(x, x, &v);
}

/* Gentleman-Sande: (x, y) <- (x + y, (x - y) w); w = NULL means 1. */
static inline void ntt_gs(FE_T *x, FE_T *y, const FE_T *w)
{
    FE_T v;
    FE_(sub)(&v, x, y);
    FE_(add)(x, x, y);
    if (w)
        FE_(mul)(y, &v, w);
    else
        *y = v;
}

/* Two CT stages on the stage-s block b that starts at blk (4q elements),
 * for j in [j0, j1): stage s pairs (j, j+2q), (j+q, j+3q) with tw[b];
 * stage s+1 pairs (j, j+q) with tw[2b] and (j+2q, j+3q) with tw[2b+1]. */
static void ntt_ct4_run(FE_T *blk, size_t q, size_t j0, size_t j1, const FE_T *tw, size_t b)
{
    const FE_T *w = b ? &tw[b] : NULL;
    const FE_T *w0 = b ? &tw[2 * b] : NULL;
    const FE_T *w1 = &tw[2 * b + 1];
    FE_T *x0 = blk, *x1 = blk + q, *x2 = blk + 2 * q, *x3 = blk + 3 * q;
    for (size_t j = j0; j < j1; j++) {
        ntt_ct(&x0[j], &x2[j], w);
        ntt_ct(&x1[j], &x3[j], w);
        ntt_ct(&x0[j], &x1[j], w0);
        ntt_ct(&x2[j], &x3[j], w1);
    }
}

/* One CT stage on the block b at blk (2h elements), j in [j0, j1). */
static void ntt_ct2_run(FE_T *blk, size_t h, size_t j0, size_t j1, const FE_T *tw, size_t b)
{
    const FE_T *w = b ? &tw[b] : NULL;
    for (size_t j = j0; j < j1; j++)
        ntt_ct(&blk[j], &blk[j + h], w);
}

/* The inverse-order pair: GS stage s+1 then GS stage s. */
static void ntt_gs4_run(FE_T *blk, size_t q, size_t j0, size_t j1, const FE_T *tw, size_t b)
{
    const FE_T *w = b ? &tw[b] : NULL;
    const FE_T *w0 = b ? &tw[2 * b] : NULL;
    const FE_T *w1 = &tw[2 * b + 1];
    FE_T *x0 = blk, *x1 = blk + q, *x2 = blk + 2 * q, *x3 = blk + 3 * q;
    for (size_t j = j0; j < j1; j++) {
        ntt_gs(&x0[j], &x1[j], w0);
        ntt_gs(&x2[j], &x3[j], w1);
        ntt_gs(&x0[j], &x2[j], w);
        ntt_gs(&x1[j], &x3[j], w);
    }
}

static void ntt_gs2_run(FE_T *blk, size_t h, size_t j0, size_t j1, const FE_T *tw, size_t b)
{
    const FE_T *w = b ? &tw[b] : NULL;
    for (size_t j = j0; j < j1; j++)
        ntt_gs(&blk[j], &blk[j + h], w);
}

typedef void (*ntt_run_fn)(FE_T *blk, size_t span, size_t j0, size_t j1, const FE_T *tw, size_t b);

/* ---- streaming passes over the whole array ---------------------------- */

typedef struct ntt_pass_ctx {
    FE_T *a;
    const FE_T *tw;
    ntt_run_fn run;
    unsigned log_span; /* log2 of q (fused pair) or h (single stage) */
    unsigned radix;    /* 4 or 2: elements per butterfly group */
} ntt_pass_ctx;

/* Butterfly groups t in [begin, end): block b = t / span, offset j = t % span. */
static void ntt_pass_chunk(void *arg, size_t begin, size_t end)
{
    const ntt_pass_ctx *c = arg;
    size_t span = (size_t)1 << c->log_span;
    size_t t = begin;
    while (t < end) {
        size_t b = t >> c->log_span;
        size_t j0 = t & (span - 1);
        size_t j1 = j0 + (end - t) < span ? j0 + (end - t) : span;
        c->run(c->a + b * c->radix * span, span, j0, j1, c->tw, b);
        t += j1 - j0;
    }
}

static void ntt_pass(FE_T *a, unsigned log_n, unsigned stage, unsigned radix, ntt_run_fn run,
                     const FE_T *tw, unsigned threads)
{
    unsigned log_radix = radix == 4 ? 2 : 1;
    ntt_pass_ctx c = {
        .a = a, .tw = tw, .run = run, .log_span = log_n - stage - log_radix, .radix = radix};
    parallel_for((size_t)1 << (log_n - log_radix), NTT_PASS_GRAIN, threads, ntt_pass_chunk, &c);
}

/* ---- the cache-blocked tail -------------------------------------------- */

typedef struct ntt_block_ctx {
    FE_T *a;
    const FE_T *tw;
    unsigned log_n;
    unsigned log_block; /* the blocks hold stages log_n - log_block .. log_n - 1 */
} ntt_block_ctx;

/* Runs stages s0 .. k-1 of CT inside the blocks [begin, end). */
static void ntt_ct_block_chunk(void *arg, size_t begin, size_t end)
{
    const ntt_block_ctx *c = arg;
    unsigned k = c->log_n, s0 = k - c->log_block;
    for (size_t blk = begin; blk < end; blk++) {
        FE_T *base = c->a + (blk << c->log_block);
        unsigned s = s0;
        for (; s + 2 <= k; s += 2) {
            size_t m = (size_t)1 << (k - s), count = (size_t)1 << (s - s0);
            for (size_t i = 0; i < count; i++)
                ntt_ct4_run(base + i * m, m / 4, 0, m / 4, c->tw, (blk << (s - s0)) + i);
        }
        if (s < k) { /* last stage: m = 2 */
            size_t count = (size_t)1 << (s - s0);
            for (size_t i = 0; i < count; i++)
                ntt_ct2_run(base + 2 * i, 1, 0, 1, c->tw, (blk << (s - s0)) + i);
        }
    }
}

/* Runs stages k-1 .. s0 of GS inside the blocks [begin, end). */
static void ntt_gs_block_chunk(void *arg, size_t begin, size_t end)
{
    const ntt_block_ctx *c = arg;
    unsigned k = c->log_n, s0 = k - c->log_block;
    for (size_t blk = begin; blk < end; blk++) {
        FE_T *base = c->a + (blk << c->log_block);
        unsigned s = k; /* stages still to run: s0 .. s-1 */
        if ((s - s0) & 1) {
            s--; /* the single stage first: m = 2 */
            size_t count = (size_t)1 << (s - s0);
            for (size_t i = 0; i < count; i++)
                ntt_gs2_run(base + 2 * i, 1, 0, 1, c->tw, (blk << (s - s0)) + i);
        }
        while (s > s0) {
            s -= 2; /* stages s+1 then s */
            size_t m = (size_t)1 << (k - s), count = (size_t)1 << (s - s0);
            for (size_t i = 0; i < count; i++)
                ntt_gs4_run(base + i * m, m / 4, 0, m / 4, c->tw, (blk << (s - s0)) + i);
        }
    }
}

static const FE_T *ntt_table(const NTT_DOMAIN_T *d, ntt_direction dir)
{
    return dir == NTT_INVERSE ? d->tw_inv : d->tw;
}

void NTT_(raw_nr)(FE_T *a, const NTT_DOMAIN_T *d, ntt_direction dir, unsigned threads)
{
    unsigned k = d->log_n;
    if (k == 0)
        return;
    const FE_T *tw = ntt_table(d, dir);
    unsigned log_block = k < NTT_BLOCK_LOG ? k : NTT_BLOCK_LOG;
    unsigned global = k - log_block, s = 0;
    for (; s + 2 <= global; s += 2)
        ntt_pass(a, k, s, 4, ntt_ct4_run, tw, threads);
    if (s < global)
        ntt_pass(a, k, s, 2, ntt_ct2_run, tw, threads);
    ntt_block_ctx c = {.a = a, .tw = tw, .log_n = k, .log_block = log_block};
    parallel_for((size_t)1 << global, 1, threads, ntt_ct_block_chunk, &c);
}

void NTT_(raw_rn)(FE_T *a, const NTT_DOMAIN_T *d, ntt_direction dir, unsigned threads)
{
    unsigned k = d->log_n;
    if (k == 0)
        return;
    const FE_T *tw = ntt_table(d, dir);
    unsigned log_block = k < NTT_BLOCK_LOG ? k : NTT_BLOCK_LOG;
    unsigned global = k - log_block, s = global;
    ntt_block_ctx c = {.a = a, .tw = tw, .log_n = k, .log_block = log_block};
    parallel_for((size_t)1 << global, 1, threads, ntt_gs_block_chunk, &c);
    if (s & 1) {
        s--;
        ntt_pass(a, k, s, 2, ntt_gs2_run, tw, threads);
    }
    while (s > 0) {
        s -= 2;
        ntt_pass(a, k, s, 4, ntt_gs4_run, tw, threads);
    }
}

/* ---- bit reversal ------------------------------------------------------ */

typedef struct ntt_br_ctx {
    FE_T *a;
    unsigned log_n;
} ntt_br_ctx;

static inline void ntt_swap(FE_T *x, FE_T *y)
{
    FE_T t = *x;
    *x = *y;
    *y = t;
}

/* Index i = (hi, mid, lo), hi and lo of L bits: brv(i) = (brv lo, brv mid,
 * brv hi). Tile `mid` (all hi, lo) swaps with tile brv(mid), transposed;
 * both tiles (2 x 2^2L elements) stay in L1 while they are swapped. */
static void ntt_br_chunk(void *arg, size_t begin, size_t end)
{
    const ntt_br_ctx *c = arg;
    const unsigned L = NTT_BR_TILE_LOG, k = c->log_n, mid_bits = k - 2 * L;
    const size_t side = (size_t)1 << L;
    for (size_t mid = begin; mid < end; mid++) {
        size_t rmid = (size_t)domain_bit_reverse(mid, mid_bits);
        if (rmid < mid)
            continue; /* the partner tile does the swap */
        for (size_t hi = 0; hi < side; hi++) {
            size_t rhi = (size_t)domain_bit_reverse(hi, L);
            for (size_t lo = 0; lo < side; lo++) {
                size_t rlo = (size_t)domain_bit_reverse(lo, L);
                size_t i = (hi << (k - L)) | (mid << L) | lo;
                size_t j = (rlo << (k - L)) | (rmid << L) | rhi;
                /* Across two tiles every pair swaps once; inside one tile
                 * only the lower index of each pair swaps. */
                if (rmid != mid || i < j)
                    ntt_swap(&c->a[i], &c->a[j]);
            }
        }
    }
}

void NTT_(bit_reverse)(FE_T *a, size_t n, unsigned threads)
{
    unsigned k = ntt_log2(n);
    if (k < 2 * NTT_BR_TILE_LOG) {
        for (size_t i = 0; i < n; i++) {
            size_t j = (size_t)domain_bit_reverse(i, k);
            if (i < j)
                ntt_swap(&a[i], &a[j]);
        }
        return;
    }
    ntt_br_ctx c = {.a = a, .log_n = k};
    parallel_for((size_t)1 << (k - 2 * NTT_BR_TILE_LOG), 4, threads, ntt_br_chunk, &c);
}

/* ---- scaling by powers ------------------------------------------------- */

typedef struct ntt_scale_ctx {
    FE_T *a;
    const FE_T *start, *ratio;
    FE_T step;         /* bit-reversed: ratio^(2^row_bits) */
    unsigned row_bits; /* bit-reversed: rows of 2^col_bits elements */
    unsigned col_bits;
} ntt_scale_ctx;

static void ntt_scale_const_chunk(void *arg, size_t begin, size_t end)
{
    const ntt_scale_ctx *c = arg;
    for (size_t i = begin; i < end; i++)
        FE_(mul)(&c->a[i], &c->a[i], c->start);
}

static void ntt_scale_natural_chunk(void *arg, size_t begin, size_t end)
{
    const ntt_scale_ctx *c = arg;
    FE_T f;
    uint64_t e = begin;
    FE_(pow_var)(&f, c->ratio, &e, 1);
    FE_(mul)(&f, &f, c->start);
    for (size_t i = begin; i < end; i++) {
        FE_(mul)(&c->a[i], &c->a[i], &f);
        FE_(mul)(&f, &f, c->ratio);
    }
}

/* Position p = row 2^C + brv_C(q) holds element brv_k(p) = q 2^R + brv_R(row)
 * (R row bits, C column bits): walk q in order, so the factor advances by
 * ratio^(2^R) per step and each row starts at start ratio^brv_R(row). */
static void ntt_scale_bitrev_chunk(void *arg, size_t begin, size_t end)
{
    const ntt_scale_ctx *c = arg;
    size_t cols = (size_t)1 << c->col_bits;
    for (size_t row = begin; row < end; row++) {
        FE_T f;
        uint64_t e = domain_bit_reverse(row, c->row_bits);
        FE_(pow_var)(&f, c->ratio, &e, 1);
        FE_(mul)(&f, &f, c->start);
        FE_T *base = c->a + row * cols;
        for (size_t q = 0; q < cols; q++) {
            FE_T *x = &base[domain_bit_reverse(q, c->col_bits)];
            FE_(mul)(x, x, &f);
            FE_(mul)(&f, &f, &c->step);
        }
    }
}

void NTT_(scale_powers)(FE_T *a, size_t n, ntt_layout layout, const FE_T *start, const FE_T *ratio,
                        unsigned threads)
{
    ntt_scale_ctx c = {.a = a, .start = start, .ratio = ratio};
    if (FE_(is_one)(ratio)) {
        if (!FE_(is_one)(start))
            parallel_for(n, NTT_SCALE_GRAIN, threads, ntt_scale_const_chunk, &c);
        return;
    }
    if (layout == NTT_NATURAL || n <= 2) {
        parallel_for(n, NTT_SCALE_GRAIN, threads, ntt_scale_natural_chunk, &c);
        return;
    }
    unsigned k = ntt_log2(n);
    c.col_bits = k < 10 ? k : 10;
    c.row_bits = k - c.col_bits;
    c.step = *ratio;
    for (unsigned i = 0; i < c.row_bits; i++)
        FE_(sqr)(&c.step, &c.step);
    parallel_for((size_t)1 << c.row_bits, 4, threads, ntt_scale_bitrev_chunk, &c);
}

/* ---- the named transforms ---------------------------------------------- */

static ntt_layout ntt_input_layout(ntt_order order)
{
    return order == NTT_RN || order == NTT_RR ? NTT_BIT_REVERSED : NTT_NATURAL;
}

static ntt_layout ntt_output_layout(ntt_order order)
{
    return order == NTT_NR || order == NTT_RR ? NTT_BIT_REVERSED : NTT_NATURAL;
}

/* The unscaled transform in the requested order. */
static void ntt_raw(FE_T *a, const NTT_DOMAIN_T *d, ntt_order order, ntt_direction dir,
                    unsigned threads)
{
    switch (order) {
    case NTT_NR:
        NTT_(raw_nr)(a, d, dir, threads);
        break;
    case NTT_RN:
        NTT_(raw_rn)(a, d, dir, threads);
        break;
    case NTT_NN:
        NTT_(raw_nr)(a, d, dir, threads);
        NTT_(bit_reverse)(a, d->n, threads);
        break;
    case NTT_RR:
        NTT_(bit_reverse)(a, d->n, threads);
        NTT_(raw_nr)(a, d, dir, threads);
        break;
    }
}

void NTT_(transform_shift)(FE_T *a, const NTT_DOMAIN_T *d, ntt_order order, ntt_direction dir,
                           const FE_T *shift, unsigned threads)
{
    if (dir == NTT_FORWARD) {
        if (shift)
            NTT_(scale_powers)(a, d->n, ntt_input_layout(order), &FE_ONE, shift, threads);
        ntt_raw(a, d, order, dir, threads);
    } else {
        ntt_raw(a, d, order, dir, threads);
        FE_T shift_inv = FE_ONE;
        if (shift)
            FE_(inv_var)(&shift_inv, shift);
        NTT_(scale_powers)(a, d->n, ntt_output_layout(order), &d->n_inv, &shift_inv, threads);
    }
}

void NTT_(transform)(FE_T *a, const NTT_DOMAIN_T *d, ntt_order order, ntt_direction dir,
                     ntt_coset coset, unsigned threads)
{
    if (coset == NTT_STANDARD) {
        NTT_(transform_shift)(a, d, order, dir, NULL, threads);
        return;
    }
    if (dir == NTT_FORWARD) {
        NTT_(scale_powers)(a, d->n, ntt_input_layout(order), &FE_ONE, &d->shift, threads);
        ntt_raw(a, d, order, dir, threads);
    } else {
        ntt_raw(a, d, order, dir, threads);
        NTT_(scale_powers)(a, d->n, ntt_output_layout(order), &d->n_inv, &d->shift_inv, threads);
    }
}
