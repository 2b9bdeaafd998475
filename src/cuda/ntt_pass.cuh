#ifndef CUZK_CUDA_NTT_PASS_CUH
#define CUZK_CUDA_NTT_PASS_CUH

/* One pass of the NTT over device memory: every thread block loads a tile of
 * C columns of R = 2^r elements into shared memory, runs an R-point DFT on
 * each column there, and writes the tile back. The code is written as
 * segments, the stretches between two barriers, as host-and-device
 * functions: the kernel (ntt_kernels.cu) runs them with __syncthreads()
 * between, the host emulation (ntt_emu.cu) runs each segment for every thread
 * of a block before the next one.
 *
 * The decomposition is the four-step (Bailey) recursion of Cooley-Tukey
 * (Bailey, "FFTs in external or hierarchical memory", J. Supercomputing 4,
 * 1990): N = R·M, input index i = i_hi·M + i_lo, output k = k1 + R·k',
 *   X[k1 + R k'] = sum_{i_lo} w_M^(i_lo k') · [w_N^(i_lo k1) · DFT_R(x[· M + i_lo])[k1]].
 * Pass j does the R_j-point DFTs of one level for every column i_lo of every
 * row (a contiguous stretch of L_j = R_j·S_j elements, columns at stride S_j),
 * multiplies output k1 of column i_lo by w_L^(i_lo k1) (the "boundary"
 * twiddle) and stores it in place at k1·S_j + i_lo; the last pass (S = 1)
 * does the DFTs of contiguous rows. After passes 1..P in place, X[k] for
 * k = k1 + R1 k2 + R1 R2 k3 + ... sits at position k1 M1 + k2 M2 + ... + kP:
 * the digits in reverse order (NR). The transposed network, each pass's
 * twiddle applied before its DFT and the passes in reverse order, maps that
 * order back to natural (RN: (P F)^T = F P^-1 as F is symmetric; the
 * transposition principle, Bostan, Lecerf, Schost, ISSAC 2003, "Tellegen's
 * principle into practice"); NN is NR with the last pass storing each
 * output at its natural index (ntt_api.cu). The inverse transform is the
 * forward one on x[-i mod n] (NTT_F_NEGATE), times 1/n, so one table of
 * roots serves both directions.
 *
 * Inside a block each column's R-point DFT is the same recursion again in
 * radix-8 steps (one radix-2 or radix-4 step first when 3 does not divide
 * r): a thread holds the G = 2, 4 or 8 elements at stride L/G of a
 * sub-problem of length L, runs a G-point DFT in registers and multiplies
 * output k by w_L^(j k) (j = its offset in the stride) from a table of
 * roots. Outputs land at digit-reversed slots; the store maps them back.
 *
 * Layout A (passes with S >= C): the block's C columns are consecutive
 * i_lo of one row, so global memory is read and written in runs of C
 * elements; slot (col, pos) is pos·C + col. Layout B (last pass, S = 1): the
 * C columns are rows with consecutive first digit k1 (so that the NN store,
 * at natural index k1 + R1 k2 + ... + (n/R)·K, writes runs of C elements);
 * slot (col, pos) is col·R + pos. Each element is two 16-byte halves, kept
 * in two planes of shared memory, and the slots are XOR-swizzled so that
 * the eight lanes of each 16-byte access phase hit eight different bank
 * quads in every access pattern of the default plans (the emulation counts
 * the conflicts). */

#include <stddef.h>
#include <stdint.h>

#include "cuda/ntt_fr.cuh"

#define NTT_BATCH 4       /* vectors one launch can transform (blockIdx.y) */
#define NTT_MAX_PASSES 8  /* passes of one transform */
#define NTT_MAX_STEPS 4   /* in-block radix steps of one pass (r <= 11) */
#define NTT_MAX_TILE 2048 /* elements one block holds */
#define NTT_THREADS_MAX (NTT_MAX_TILE / 8)
#define NTT_ROOT_LOG 11 /* the in-block root table has 2^min(k, 11) entries */

enum ntt_layout_kind { NTT_LAYOUT_A = 0, NTT_LAYOUT_B = 1 };

/* Pass flags. */
enum {
    NTT_F_NEGATE = 1u << 0,    /* load: logical element i from position (-i) mod n (first pass) */
    NTT_F_TW_IN = 1u << 1,     /* boundary twiddle before the DFT (RN passes) */
    NTT_F_TW_OUT = 1u << 2,    /* boundary twiddle after the DFT (NR passes) */
    NTT_F_MID = 1u << 3,       /* DFT, scale by `mid`, transposed DFT (layout B) */
    NTT_F_NATURAL = 1u << 4,   /* store output K of row rho at its natural index (layout B) */
    NTT_F_POINTWISE = 1u << 5, /* store pw_a·pw_b - x, or pw_a - x when pw_b is NULL */
    NTT_F_MULTIPLY = 1u << 6,  /* store pw_a·x (one vector) */
};

/* Per-element factors f(e) for an index e < n. */
enum { NTT_SCALE_NONE = 0, NTT_SCALE_CONST = 1, NTT_SCALE_TABLE = 2 };

typedef struct ntt_scale {
    dfr_t c;         /* CONST: f = c */
    const dfr_t *lo; /* TABLE: f = lo[e mod 2^lo_bits] · hi[e >> lo_bits] */
    const dfr_t *hi;
    uint32_t lo_bits;
    uint32_t mode;
} ntt_scale;

typedef struct ntt_pass_params {
    const dfr_t *src[NTT_BATCH]; /* blockIdx.y selects the vector */
    dfr_t *dst[NTT_BATCH];       /* may equal src */
    const dfr_t *pw_a, *pw_b;    /* NTT_F_POINTWISE, NTT_F_MULTIPLY operands, positions of dst */
    const dfr_t *roots;          /* roots[e] = w_{2^root_log}^e, e < 2^root_log */
    const dfr_t *tw;             /* boundary twiddles tw[k·S + i] = w_L^(i k), or NULL: */
    const dfr_t *rl, *rh;        /*   w_n^e = rl[e mod 2^rl_bits] · rh[e >> rl_bits] */
    dfr_t w8[3];                 /* w_8, w_4, w_8^3 */
    ntt_scale pre, mid, post;    /* input (first pass), middle (NTT_F_MID), output */
    uint64_t m;                  /* load: positions >= m read as zero */
    uint32_t log_n, log_r, log_s, log_c, root_log, rl_bits;
    uint32_t flags;
    uint32_t n_pass;                   /* the transform's plan, for natural indices */
    uint32_t pass_log[NTT_MAX_PASSES]; /* r_1 .. r_P */
    uint32_t n_steps;                  /* this pass's radix steps */
    uint32_t step_log[NTT_MAX_STEPS];  /* log2 G of each, first to last */
} ntt_pass_params;

/* The block's place in the transform. */
typedef struct ntt_blk {
    uint32_t v;       /* vector */
    uint64_t rowbase; /* A: first position of the row */
    uint32_t c0;      /* A: first column; B: first k1 */
    uint32_t rest;    /* B: the row digits k2 .. k_{P-1} as one number */
} ntt_blk;

/* ---- geometry ----------------------------------------------------------- */

NTT_HD uint32_t ntt_tile(const ntt_pass_params &p)
{
    return 1u << (p.log_c + p.log_r);
}

NTT_HD uint32_t ntt_threads(const ntt_pass_params &p)
{
    const uint32_t e = ntt_tile(p);
    return e >= 8 ? e / 8 : 1;
}

/* Bits of the row number of layout B below k1: log2(M1 / R) (P >= 2). */
NTT_HD uint32_t ntt_rest_bits(const ntt_pass_params &p)
{
    return p.log_n - p.log_r - p.pass_log[0];
}

NTT_HD ntt_blk ntt_block(const ntt_pass_params &p, int layout, uint32_t bx, uint32_t v)
{
    ntt_blk b;
    b.v = v;
    b.rest = 0;
    if (layout == NTT_LAYOUT_A) {
        const uint32_t gbits = p.log_s - p.log_c; /* column groups per row */
        b.rowbase = (uint64_t)(bx >> gbits) << (p.log_r + p.log_s);
        b.c0 = (bx & ((1u << gbits) - 1)) << p.log_c;
    } else if (p.n_pass < 2) {
        b.rowbase = 0;
        b.c0 = 0;
    } else {
        const uint32_t rb = ntt_rest_bits(p);
        b.rowbase = 0;
        b.rest = bx & ((1u << rb) - 1);
        b.c0 = (bx >> rb) << p.log_c;
    }
    return b;
}

/* Layout B: row number of column col. */
NTT_HD uint64_t ntt_row(const ntt_pass_params &p, const ntt_blk &b, uint32_t col)
{
    if (p.n_pass < 2)
        return 0;
    return ((uint64_t)(b.c0 + col) << ntt_rest_bits(p)) | b.rest;
}

/* Layout B: natural index of output 0 of row rho, k1 + R1 k2 + ... */
NTT_HD uint64_t ntt_row_natural(const ntt_pass_params &p, uint64_t rho)
{
    uint64_t nu = 0;
    uint32_t below = p.log_n - p.log_r, acc = 0;
    for (uint32_t j = 0; j + 1 < p.n_pass; j++) {
        below -= p.pass_log[j];
        nu |= ((rho >> below) & ((1u << p.pass_log[j]) - 1)) << acc;
        acc += p.pass_log[j];
    }
    return nu;
}

/* Layout A: the column (i_lo < S) of tile column col. Normally c0 + col.
 * With NTT_F_NEGATE logical column i is read from physical column S - i
 * (column 0 from column 0), so for the pass to stay in place each block
 * takes columns closed under i -> -i mod S: C/2 pairs {q, S - q}, pair 0
 * being {0, S/2}; c0 is then 2 q0. The global accesses come in two runs of
 * C/2 elements. */
NTT_HD uint32_t ntt_colidx(const ntt_pass_params &p, const ntt_blk &b, uint32_t col)
{
    if (!(p.flags & NTT_F_NEGATE))
        return b.c0 + col;
    const uint32_t half = 1u << (p.log_c - 1), q0 = b.c0 >> 1;
    if (col < half)
        return q0 + col;
    const uint32_t q = q0 + col - half;
    return q ? (1u << p.log_s) - q : 1u << (p.log_s - 1);
}

/* Global position of element idx of column col (the tile's input positions;
 * also its output positions unless NTT_F_NATURAL). */
NTT_HD uint64_t ntt_gpos(const ntt_pass_params &p, int layout, const ntt_blk &b, uint32_t col,
                         uint32_t idx)
{
    if (layout == NTT_LAYOUT_A)
        return b.rowbase + ((uint64_t)idx << p.log_s) + ntt_colidx(p, b, col);
    return (ntt_row(p, b, col) << p.log_r) + idx;
}

/* Layout B: natural index of output K of column col. */
NTT_HD uint64_t ntt_natural(const ntt_pass_params &p, const ntt_blk &b, uint32_t col, uint32_t k)
{
    return ntt_row_natural(p, ntt_row(p, b, col)) + ((uint64_t)k << (p.log_n - p.log_r));
}

/* Shared-memory slot of (col, pos). */
NTT_HD uint32_t ntt_slot(const ntt_pass_params &p, int layout, uint32_t col, uint32_t pos)
{
    if (layout == NTT_LAYOUT_A) {
        const uint32_t x = (pos << p.log_c) + col;
        return x ^ (((x >> 3) ^ (x >> 6) ^ (x >> 9)) & 7);
    }
    /* col enters shifted so that the C columns and the 8/C positions of
     * one access phase of the natural-order store stay apart */
    const uint32_t mask = p.log_r >= 3 ? 7u : (1u << p.log_r) - 1;
    const uint32_t cs = p.log_c < 3 ? 3 - p.log_c : 0;
    const uint32_t h = ((pos >> 3) ^ (pos >> 6) ^ (pos >> 9) ^ (col << cs)) & mask;
    return (col << p.log_r) + (pos ^ h);
}

/* Step s: log2 of L' = L/G, the stride of its groups. */
NTT_HD uint32_t ntt_step_lp(const ntt_pass_params &p, uint32_t s)
{
    uint32_t lp = p.log_r;
    for (uint32_t i = 0; i <= s; i++)
        lp -= p.step_log[i];
    return lp;
}

/* Slot position of DFT output K after the radix steps: digit s of K (in
 * radix G_s, least significant first) at weight L'_s. */
NTT_HD uint32_t ntt_pos_of(const ntt_pass_params &p, uint32_t k)
{
    uint32_t pos = 0, lp = p.log_r;
    for (uint32_t s = 0; s < p.n_steps; s++) {
        lp -= p.step_log[s];
        pos |= (k & ((1u << p.step_log[s]) - 1)) << lp;
        k >>= p.step_log[s];
    }
    return pos;
}

/* The inverse map. */
NTT_HD uint32_t ntt_k_of(const ntt_pass_params &p, uint32_t pos)
{
    uint32_t k = 0, lp = p.log_r, acc = 0;
    for (uint32_t s = 0; s < p.n_steps; s++) {
        lp -= p.step_log[s];
        k |= ((pos >> lp) & ((1u << p.step_log[s]) - 1)) << acc;
        acc += p.step_log[s];
    }
    return k;
}

/* Group g of step s (G = 2^lg elements at stride 2^lp): column, first
 * position. */
NTT_HD void ntt_group(const ntt_pass_params &p, int layout, uint32_t g, uint32_t lg, uint32_t lp,
                      uint32_t *col, uint32_t *first)
{
    uint32_t j, bb;
    if (layout == NTT_LAYOUT_A) {
        *col = g & ((1u << p.log_c) - 1);
        const uint32_t rest = g >> p.log_c;
        j = rest & ((1u << lp) - 1);
        bb = rest >> lp;
    } else {
        j = g & ((1u << lp) - 1);
        const uint32_t rest = g >> lp;
        const uint32_t lsub = p.log_r - lp - lg; /* sub-problems per column */
        bb = rest & ((1u << lsub) - 1);
        *col = rest >> lsub;
    }
    *first = (bb << (lp + lg)) + j;
}

/* ---- shared memory ------------------------------------------------------ */

#ifndef __CUDA_ARCH__
/* Host emulation only: told of every shared-memory access (16-byte chunk
 * index, write or not), to find races and bank conflicts, and of every
 * access to the vectors in global memory, to find blocks that touch each
 * other's elements. */
extern void (*ntt_emu_probe)(uint32_t chunk, int write);
extern void (*ntt_emu_gprobe)(const void *addr, int write);
#endif

/* A vector element in global memory. */
NTT_HD void ntt_gld(dfr_t *r, const dfr_t *g)
{
#ifndef __CUDA_ARCH__
    if (ntt_emu_gprobe)
        ntt_emu_gprobe(g, 0);
#endif
    nfr_ld(r, g);
}

NTT_HD void ntt_gst(dfr_t *g, const dfr_t *a)
{
#ifndef __CUDA_ARCH__
    if (ntt_emu_gprobe)
        ntt_emu_gprobe(g, 1);
#endif
    nfr_st(g, a);
}

NTT_HD void ntt_sm_get(const uint4 *sm, uint32_t tile, uint32_t slot, dfr_t *x)
{
#ifndef __CUDA_ARCH__
    if (ntt_emu_probe) {
        ntt_emu_probe(slot, 0);
        ntt_emu_probe(tile + slot, 0);
    }
#endif
    const uint4 a = sm[slot], b = sm[tile + slot];
    x->l[0] = a.x, x->l[1] = a.y, x->l[2] = a.z, x->l[3] = a.w;
    x->l[4] = b.x, x->l[5] = b.y, x->l[6] = b.z, x->l[7] = b.w;
}

NTT_HD void ntt_sm_put(uint4 *sm, uint32_t tile, uint32_t slot, const dfr_t *x)
{
#ifndef __CUDA_ARCH__
    if (ntt_emu_probe) {
        ntt_emu_probe(slot, 1);
        ntt_emu_probe(tile + slot, 1);
    }
#endif
    sm[slot] = make_uint4(x->l[0], x->l[1], x->l[2], x->l[3]);
    sm[tile + slot] = make_uint4(x->l[4], x->l[5], x->l[6], x->l[7]);
}

/* One 16-byte chunk from global memory into shared memory, or zeros. On the
 * device an asynchronous copy (cp.async, PTX ISA "Data Movement": with a
 * source size of 0 it writes zeros); completed by ntt_load_wait. */
NTT_HD void ntt_load_chunk(uint4 *sm, uint32_t chunk, const void *g, int zero)
{
#ifdef __CUDA_ARCH__
    const uint32_t s = (uint32_t)__cvta_generic_to_shared(sm + chunk);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(g),
                 "r"(zero ? 0 : 16)
                 : "memory");
#else
    if (ntt_emu_probe)
        ntt_emu_probe(chunk, 1);
    if (ntt_emu_gprobe && !zero)
        ntt_emu_gprobe(g, 0);
    if (zero)
        sm[chunk] = make_uint4(0, 0, 0, 0);
    else
        memcpy(&sm[chunk], g, 16);
#endif
}

/* ---- factors ------------------------------------------------------------ */

NTT_HD void ntt_scale_apply(const ntt_scale &sc, uint64_t e, dfr_t *x)
{
    if (sc.mode == NTT_SCALE_CONST) {
        nfr_mul(x, x, &sc.c);
    } else if (sc.mode == NTT_SCALE_TABLE) {
        dfr_t a, b;
        nfr_ldg(&a, sc.lo + (e & ((1u << sc.lo_bits) - 1)));
        nfr_ldg(&b, sc.hi + (e >> sc.lo_bits));
        nfr_mul(&a, &a, &b);
        nfr_mul(x, x, &a);
    }
}

/* x ·= the boundary twiddle at in-row offset o = k·S + i: w_L^(i k). */
NTT_HD void ntt_tw_apply(const ntt_pass_params &p, uint32_t o, dfr_t *x)
{
    dfr_t w;
    if (p.tw) {
        nfr_ldg(&w, p.tw + o);
    } else {
        const uint32_t ll = p.log_r + p.log_s;
        const uint32_t i = o & ((1u << p.log_s) - 1), k = o >> p.log_s;
        const uint32_t e = ((i * k) & ((1u << ll) - 1)) << (p.log_n - ll);
        dfr_t h;
        nfr_ldg(&w, p.rl + (e & ((1u << p.rl_bits) - 1)));
        nfr_ldg(&h, p.rh + (e >> p.rl_bits));
        nfr_mul(&w, &w, &h);
    }
    nfr_mul(x, x, &w);
}

/* ---- DFTs in registers --------------------------------------------------- */

/* Radix-2 decimation in frequency: (x_j, x_{j+2}) -> (sum, (diff)·w_4^j),
 * then (sum, diff) in each half; X[k] ends in register brv(k). */
NTT_HD void ntt_dft4(dfr_t *x0, dfr_t *x1, dfr_t *x2, dfr_t *x3, const dfr_t *w4)
{
    nfr_butterfly(x0, x2);
    nfr_butterfly(x1, x3);
    nfr_mul(x3, x3, w4);
    nfr_butterfly(x0, x1); /* x0 = X0, x1 = X2 */
    nfr_butterfly(x2, x3); /* x2 = X1, x3 = X3 */
    const dfr_t t = *x1;
    *x1 = *x2;
    *x2 = t;
}

/* ---- segments ----------------------------------------------------------- */

/* Segment 0: the tile from global memory into shared memory, in 16-byte
 * chunks, 32 lanes covering 16 consecutive elements (both halves) in global
 * order. */
NTT_HD void ntt_seg_load(const ntt_pass_params &p, int layout, const ntt_blk &b, uint32_t t,
                         uint4 *sm)
{
    const uint32_t tile = ntt_tile(p), nt = ntt_threads(p);
    const uint32_t lt = p.log_c + p.log_r, lw = lt < 4 ? lt : 4;
    const uint64_t nmask = ((uint64_t)1 << p.log_n) - 1;
    const dfr_t *src = p.src[b.v];
    for (uint32_t c = t; c < 2 * tile; c += nt) {
        const uint32_t f = ((c >> (lw + 1)) << lw) | (c & ((1u << lw) - 1));
        const uint32_t half = (c >> lw) & 1;
        uint32_t col, idx;
        if (layout == NTT_LAYOUT_A) {
            col = f & ((1u << p.log_c) - 1);
            idx = f >> p.log_c;
        } else {
            idx = f & ((1u << p.log_r) - 1);
            col = f >> p.log_r;
        }
        uint64_t pos = ntt_gpos(p, layout, b, col, idx);
        if (p.flags & NTT_F_NEGATE)
            pos = (0 - pos) & nmask;
        const int zero = pos >= p.m;
        const uint32_t chunk = half * tile + ntt_slot(p, layout, col, idx);
        ntt_load_chunk(sm, chunk, (const uint4 *)(zero ? src : src + pos) + half, zero);
    }
}

/* The input factors of the first pass (boundary twiddle before the DFT,
 * coset powers), or the middle scaling of NTT_F_MID, on the elements of the
 * groups of step s this thread owns. */
NTT_HD void ntt_seg_factors(const ntt_pass_params &p, int layout, const ntt_blk &b, uint32_t s,
                            int middle, uint32_t t, uint4 *sm)
{
    const uint32_t tile = ntt_tile(p), nt = ntt_threads(p);
    const uint32_t lg = p.step_log[s], lp = ntt_step_lp(p, s);
#pragma unroll 1
    for (uint32_t g = t; g < (tile >> lg); g += nt) {
        uint32_t col, first;
        ntt_group(p, layout, g, lg, lp, &col, &first);
#pragma unroll 1
        for (uint32_t u = 0; u < (1u << lg); u++) {
            const uint32_t pos = first + (u << lp);
            const uint32_t slot = ntt_slot(p, layout, col, pos);
            dfr_t x;
            ntt_sm_get(sm, tile, slot, &x);
            if (middle) {
                ntt_scale_apply(p.mid, ntt_natural(p, b, col, ntt_k_of(p, pos)), &x);
            } else {
                if (p.flags & NTT_F_TW_IN)
                    ntt_tw_apply(p, (pos << p.log_s) + ntt_colidx(p, b, col), &x);
                ntt_scale_apply(p.pre, ntt_gpos(p, layout, b, col, pos), &x);
            }
            ntt_sm_put(sm, tile, slot, &x);
        }
    }
}

/* Output k of a group: the twiddle w_L^(j k) after the DFT (DIF steps), then
 * into its slot. */
NTT_HD void ntt_step_out(const ntt_pass_params &p, int layout, uint4 *sm, uint32_t tile,
                         uint32_t col, uint32_t first, uint32_t lp, uint32_t wshift, uint32_t j,
                         int twiddle, uint32_t k, dfr_t *x)
{
    if (twiddle && k) {
        dfr_t w;
        nfr_ldg(&w, p.roots + ((j * k) << wshift));
        nfr_mul(x, x, &w);
    }
    ntt_sm_put(sm, tile, ntt_slot(p, layout, col, first + (k << lp)), x);
}

/* Radix step s on the groups this thread owns: G-point DFT with the twiddles
 * w_L^(j k) after it, or (transposed) before it. Each output is stored as
 * soon as it is final, to keep few elements live. */
template <int LG>
NTT_HD void ntt_step(const ntt_pass_params &p, int layout, uint32_t s, int transposed, uint32_t t,
                     uint4 *sm)
{
    const int G = 1 << LG;
    const uint32_t tile = ntt_tile(p), nt = ntt_threads(p);
    const uint32_t lp = ntt_step_lp(p, s), wshift = p.root_log - lp - LG;
    const int twiddle = lp != 0;
#pragma unroll 1
    for (uint32_t g = t; g < (tile >> LG); g += nt) {
        uint32_t col, first;
        ntt_group(p, layout, g, LG, lp, &col, &first);
        const uint32_t j = first & ((1u << lp) - 1);
        dfr_t x[G];
#pragma unroll
        for (int u = 0; u < G; u++) {
            ntt_sm_get(sm, tile, ntt_slot(p, layout, col, first + ((uint32_t)u << lp)), &x[u]);
            if (transposed && twiddle && u) {
                dfr_t w;
                nfr_ldg(&w, p.roots + ((j * (uint32_t)u) << wshift));
                nfr_mul(&x[u], &x[u], &w);
            }
        }
        const int tw_after = !transposed && twiddle;
        if (LG == 1) {
            nfr_butterfly(&x[0], &x[1]);
            ntt_step_out(p, layout, sm, tile, col, first, lp, wshift, j, tw_after, 0, &x[0]);
            ntt_step_out(p, layout, sm, tile, col, first, lp, wshift, j, tw_after, 1, &x[1]);
        } else if (LG == 2) {
            ntt_dft4(&x[0], &x[1], &x[2], &x[3], &p.w8[1]);
#pragma unroll
            for (int k = 0; k < G; k++)
                ntt_step_out(p, layout, sm, tile, col, first, lp, wshift, j, tw_after, k, &x[k]);
        } else {
            /* X[2k'] = DFT4(x_j + x_{j+4})[k'], X[2k'+1] = DFT4((x_j - x_{j+4}) w_8^j)[k']:
             * the even outputs are final after the first 4-point DFT */
#pragma unroll
            for (int u = 0; u < 4; u++)
                nfr_butterfly(&x[u], &x[u + 4]);
            nfr_mul(&x[5], &x[5], &p.w8[0]);
            nfr_mul(&x[6], &x[6], &p.w8[1]);
            nfr_mul(&x[7], &x[7], &p.w8[2]);
            ntt_dft4(&x[0], &x[1], &x[2], &x[3], &p.w8[1]);
#pragma unroll
            for (int h = 0; h < 4; h++)
                ntt_step_out(p, layout, sm, tile, col, first, lp, wshift, j, tw_after, 2 * h,
                             &x[h]);
            ntt_dft4(&x[4], &x[5], &x[6], &x[7], &p.w8[1]);
#pragma unroll
            for (int h = 0; h < 4; h++)
                ntt_step_out(p, layout, sm, tile, col, first, lp, wshift, j, tw_after, 2 * h + 1,
                             &x[4 + h]);
        }
    }
}

NTT_HD void ntt_step_any(const ntt_pass_params &p, int layout, uint32_t s, int transposed,
                         uint32_t t, uint4 *sm)
{
    switch (p.step_log[s]) {
    case 1:
        ntt_step<1>(p, layout, s, transposed, t, sm);
        break;
    case 2:
        ntt_step<2>(p, layout, s, transposed, t, sm);
        break;
    default:
        ntt_step<3>(p, layout, s, transposed, t, sm);
        break;
    }
}

/* Last segment: each thread stores whole elements in global order, with the
 * boundary twiddle after the DFT, the pointwise a·b - x and the output
 * scaling. */
NTT_HD void ntt_seg_store(const ntt_pass_params &p, int layout, const ntt_blk &b, uint32_t t,
                          const uint4 *sm)
{
    const uint32_t tile = ntt_tile(p), nt = ntt_threads(p);
    const int natural = (p.flags & NTT_F_NATURAL) != 0, mid = (p.flags & NTT_F_MID) != 0;
    dfr_t *dst = p.dst[b.v];
#pragma unroll 1
    for (uint32_t e = t; e < tile; e += nt) {
        /* which output: layout A in global order, the natural-order store
         * in slot order (a warp still covers whole runs of C elements),
         * else row by row */
        uint32_t col, k, slotpos;
        if (layout == NTT_LAYOUT_A) {
            col = e & ((1u << p.log_c) - 1);
            k = e >> p.log_c;
            slotpos = ntt_pos_of(p, k);
        } else if (natural) {
            col = e & ((1u << p.log_c) - 1);
            slotpos = e >> p.log_c;
            k = mid ? slotpos : ntt_k_of(p, slotpos);
        } else {
            k = e & ((1u << p.log_r) - 1);
            col = e >> p.log_r;
            slotpos = mid ? k : ntt_pos_of(p, k);
        }
        dfr_t x;
        ntt_sm_get(sm, tile, ntt_slot(p, layout, col, slotpos), &x);
        if (p.flags & NTT_F_TW_OUT)
            ntt_tw_apply(p, (k << p.log_s) + ntt_colidx(p, b, col), &x);
        const uint64_t nat =
            layout == NTT_LAYOUT_B ? ntt_natural(p, b, col, k) : ntt_gpos(p, layout, b, col, k);
        const uint64_t pos = natural ? nat : ntt_gpos(p, layout, b, col, k);
        if (p.flags & NTT_F_POINTWISE) {
            dfr_t ya, yb;
            ntt_gld(&ya, p.pw_a + pos);
            if (p.pw_b) {
                ntt_gld(&yb, p.pw_b + pos);
                nfr_mul(&ya, &ya, &yb);
            }
            nfr_sub(&x, &ya, &x);
        } else if (p.flags & NTT_F_MULTIPLY) {
            dfr_t ya;
            ntt_gld(&ya, p.pw_a + pos);
            nfr_mul(&x, &ya, &x);
        }
        ntt_scale_apply(p.post, nat, &x);
        ntt_gst(dst + pos, &x);
    }
}

/* The segments of a pass: load; the radix steps (input factors before the
 * first, and with NTT_F_MID the middle scaling and the transposed last step
 * after the last); with NTT_F_MID the other transposed steps; store. `mid`
 * is (p.flags & NTT_F_MID) != 0, passed apart so that kernels can fix it at
 * compile time. */
NTT_HD uint32_t ntt_segments(const ntt_pass_params &p, int mid)
{
    const uint32_t m = p.n_steps;
    return 2 + m + (mid && m ? m - 1 : 0);
}

NTT_HD void ntt_segment(const ntt_pass_params &p, int layout, int mid, const ntt_blk &b,
                        uint32_t seg, uint32_t t, uint4 *sm)
{
    const uint32_t m = p.n_steps;
    if (seg == 0) {
        ntt_seg_load(p, layout, b, t, sm);
    } else if (seg <= m) {
        const uint32_t s = seg - 1;
        if (s == 0 && ((p.flags & NTT_F_TW_IN) || p.pre.mode != NTT_SCALE_NONE))
            ntt_seg_factors(p, layout, b, 0, 0, t, sm);
        ntt_step_any(p, layout, s, 0, t, sm);
        if (mid && s == m - 1) {
            ntt_seg_factors(p, layout, b, s, 1, t, sm);
            ntt_step_any(p, layout, s, 1, t, sm);
        }
    } else if (mid && seg < ntt_segments(p, mid) - 1) {
        ntt_step_any(p, layout, m - 2 - (seg - m - 1), 1, t, sm);
    } else {
        ntt_seg_store(p, layout, b, t, sm);
    }
}

#endif
