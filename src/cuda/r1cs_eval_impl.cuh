/* The part of the device evaluation compiled once per curve: the
 * per-thread code over the curve's Fr (ntt_fr.cuh), the kernels, the host
 * emulation, and the curve's table R1CSK(field_ops) (r1cs_eval_internal.cuh).
 * r1cs_eval_kernels.cu (BLS12-381) and r1cs_bn254_eval_kernels.cu (BN254,
 * which defines NTT_CURVE_BN254 first) include it after defining
 *   R1CSK(name)   the curve's kernel and function names (distinct per
 *                 curve: two translation units' kernels must not share one)
 * r1cs_eval.cu says how rows are split by length and why. */

#include <string.h>

#include "cuda/cuda_check.h"
#include "cuda/ntt_fr.cuh"
#include "cuda/r1cs_eval_internal.cuh"

static_assert(sizeof(dfr_t) == 32, "dfr_t is not the size of fr_t");

/* ---- the per-thread code ------------------------------------------------- */

R1CS_HD bool rfr_is_zero(const dfr_t *x)
{
    uint32_t v = 0;
    for (int k = 0; k < DFR_LIMBS; k++)
        v |= x->l[k];
    return v == 0;
}

R1CS_HD bool rfr_eq(const dfr_t *x, const dfr_t *y)
{
    uint32_t v = 0;
    for (int k = 0; k < DFR_LIMBS; k++)
        v |= x->l[k] ^ y->l[k];
    return v == 0;
}

R1CS_HD bool rfr_is_one(const dfr_t *x)
{
    const uint32_t one[DFR_LIMBS] = NTT_FR_ONE;
    uint32_t v = 0;
    for (int k = 0; k < DFR_LIMBS; k++)
        v |= x->l[k] ^ one[k];
    return v == 0;
}

/* The matrix as the kernels read it. */
template <typename Ptr, typename Idx> struct r1cs_view {
    const Ptr *row_ptr;
    const uint32_t *col;
    const Idx *coeff;
    const dfr_t *table;
    const dfr_t *w;
};

/* acc += coefficient k · w[col[k]], by the cheapest means the values allow. */
template <typename Ptr, typename Idx>
R1CS_HD void r1cs_term(dfr_t *acc, const r1cs_view<Ptr, Idx> &v, uint64_t k)
{
    dfr_t x;
    nfr_ldg(&x, &v.w[v.col[k]]);
    if (rfr_is_zero(&x))
        return;
    const uint32_t ci = v.coeff[k];
    if (ci == 0) { /* R1CS_COEFF_ONE */
        nfr_add(acc, acc, &x);
    } else if (ci == 1) { /* R1CS_COEFF_MINUS_ONE */
        nfr_sub(acc, acc, &x);
    } else {
        dfr_t t;
        nfr_ldg(&t, &v.table[ci]);
        if (!rfr_is_one(&x))
            nfr_mul(&t, &t, &x);
        nfr_add(acc, acc, &t);
    }
}

/* The sum over terms begin + lane, begin + lane + stride, ... below end. */
template <typename Ptr, typename Idx>
R1CS_HD void r1cs_partial(dfr_t *acc, const r1cs_view<Ptr, Idx> &v, uint64_t begin, uint64_t end,
                          uint32_t lane, uint32_t stride)
{
    nfr_set_zero(acc);
    for (uint64_t k = begin + lane; k < end; k += stride)
        r1cs_term(acc, v, k);
}

R1CS_HD void r1cs_sink_put(const r1cs_sink &s, uint32_t row, const dfr_t *sum)
{
    if (s.mode == R1CS_SINK_STORE) {
        nfr_st(&s.out[row], sum);
        return;
    }
    dfr_t x, y;
    if (s.mode == R1CS_SINK_MUL) {
        nfr_ld(&x, &s.out[row]);
        nfr_mul(&x, &x, sum);
        nfr_st(&s.out[row], &x);
        return;
    }
    nfr_ld(&x, &s.a[row]);
    nfr_ld(&y, &s.b[row]);
    nfr_mul(&x, &x, &y);
    if (rfr_eq(&x, sum))
        return;
#ifdef __CUDA_ARCH__
    atomicMin(s.bad, (unsigned long long)row);
#else
    if (row < *s.bad)
        *s.bad = row;
#endif
}

/* Row i by one thread, unless it is longer than R1CS_THREAD_MAX (a group
 * kernel writes it). */
template <typename Ptr, typename Idx>
R1CS_HD void r1cs_thread_row(const r1cs_view<Ptr, Idx> &v, const r1cs_sink &sink, uint32_t i)
{
    const uint64_t b = v.row_ptr[i], e = v.row_ptr[i + 1];
    if (e - b > R1CS_THREAD_MAX)
        return;
    dfr_t acc;
    r1cs_partial(&acc, v, b, e, 0, 1);
    r1cs_sink_put(sink, i, &acc);
}

/* Row i of the finishing pass: c = a·b (c_is_ab), or whether a·b ≠ c. */
R1CS_HD bool r1cs_finish_row(const dfr_t *a, const dfr_t *b, dfr_t *c, uint32_t i, bool c_is_ab)
{
    dfr_t x, y;
    nfr_ld(&x, &a[i]);
    nfr_ld(&y, &b[i]);
    nfr_mul(&x, &x, &y);
    if (c_is_ab) {
        nfr_st(&c[i], &x);
        return false;
    }
    nfr_ld(&y, &c[i]);
    return !rfr_eq(&x, &y);
}

/* ---- kernels -------------------------------------------------------------- */

template <typename Ptr, typename Idx>
__global__ void __launch_bounds__(R1CS_BLOCK)
    R1CSK(rows_thread)(r1cs_view<Ptr, Idx> v, r1cs_sink sink, uint32_t rows)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows)
        r1cs_thread_row(v, sink, i);
}

#ifdef __CUDA_ARCH__
/* Lane 0 of the warp gets the sum of the warp's 32 values (the others
 * garbage). */
static __device__ __forceinline__ void r1cs_warp_sum(dfr_t *acc)
{
#pragma unroll
    for (unsigned off = 16; off > 0; off >>= 1) {
        dfr_t o;
#pragma unroll
        for (int k = 0; k < DFR_LIMBS; k++)
            o.l[k] = __shfl_down_sync(0xffffffffu, acc->l[k], off);
        ntt_dev_add(acc, acc, &o);
    }
}
#endif

/* One row of `list` per GROUP threads (32: a warp; R1CS_BLOCK: the
 * block). Every thread reaches the shuffles and the barrier: a group past
 * the list sums nothing and stores nothing. */
template <typename Ptr, typename Idx, unsigned GROUP>
__global__ void __launch_bounds__(R1CS_BLOCK)
    R1CSK(rows_group)(r1cs_view<Ptr, Idx> v, r1cs_sink sink, const uint32_t *list, uint32_t count)
{
#ifdef __CUDA_ARCH__
    static_assert(GROUP == 32 || GROUP == R1CS_BLOCK, "a group is a warp or the block");
    const uint32_t g = blockIdx.x * (R1CS_BLOCK / GROUP) + threadIdx.x / GROUP;
    const uint32_t lane = threadIdx.x % GROUP;
    uint32_t row = 0;
    uint64_t b = 0, e = 0;
    if (g < count) {
        row = list[g];
        b = v.row_ptr[row];
        e = v.row_ptr[row + 1];
    }
    dfr_t acc;
    r1cs_partial(&acc, v, b, e, lane, GROUP);
    r1cs_warp_sum(&acc);
    if (GROUP > 32) {
        __shared__ dfr_t warp_sums[R1CS_BLOCK / 32];
        if ((threadIdx.x & 31u) == 0)
            warp_sums[threadIdx.x >> 5] = acc;
        __syncthreads();
        if (threadIdx.x < 32) {
            if (threadIdx.x < R1CS_BLOCK / 32)
                acc = warp_sums[threadIdx.x];
            else
                nfr_set_zero(&acc);
            r1cs_warp_sum(&acc);
        }
    }
    if (lane == 0 && g < count)
        r1cs_sink_put(sink, row, &acc);
#endif
}

__global__ void __launch_bounds__(R1CS_BLOCK)
    R1CSK(rows_finish)(const dfr_t *a, const dfr_t *b, dfr_t *c, uint32_t rows, bool c_is_ab,
                     unsigned long long *first_bad)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows && r1cs_finish_row(a, b, c, i, c_is_ab))
        atomicMin(first_bad, (unsigned long long)i);
}

/* ---- one matrix ---------------------------------------------------------- */

static uint32_t blocks_for(uint64_t threads)
{
    return (uint32_t)((threads + R1CS_BLOCK - 1) / R1CS_BLOCK);
}

template <typename Ptr, typename Idx>
static void matrix_emulate(const r1cs_view<Ptr, Idx> &v, const r1cs_dev_matrix *m,
                           const r1cs_sink &sink, uint32_t rows)
{
    for (uint32_t i = 0; i < rows; i++)
        r1cs_thread_row(v, sink, i);
    static const uint32_t group[TIERS] = {32, R1CS_BLOCK};
    for (int t = 0; t < TIERS; t++) {
        for (uint32_t g = 0; g < m->tier_count[t]; g++) {
            const uint32_t row = m->tier_rows[t][g];
            dfr_t sum, part;
            nfr_set_zero(&sum);
            for (uint32_t lane = 0; lane < group[t]; lane++) {
                r1cs_partial(&part, v, v.row_ptr[row], v.row_ptr[row + 1], lane, group[t]);
                nfr_add(&sum, &sum, &part);
            }
            r1cs_sink_put(sink, row, &sum);
        }
    }
}

template <typename Ptr, typename Idx>
static cuzk_status matrix_eval(const cuda_r1cs *r, const r1cs_dev_matrix *m, const dfr_t *w,
                               const r1cs_sink &sink, cudaStream_t stream)
{
    const r1cs_view<Ptr, Idx> v = {(const Ptr *)m->row_ptr, m->col, (const Idx *)m->coeff, r->table,
                                   w};
    const uint32_t rows = (uint32_t)r->rows;
    if (r->device == CUDA_R1CS_HOST_EMULATION) {
        matrix_emulate(v, m, sink, rows);
        return CUZK_OK;
    }
    cuzk_status st = CUZK_OK;
    R1CSK(rows_thread)<Ptr, Idx><<<blocks_for(rows), R1CS_BLOCK, 0, stream>>>(v, sink, rows);
    CUDA_CHECK_LAUNCH(st, "r1cs_rows_thread");
    if (m->tier_count[TIER_WARP]) {
        const uint32_t n = m->tier_count[TIER_WARP];
        R1CSK(rows_group)<Ptr, Idx, 32><<<blocks_for((uint64_t)n * 32), R1CS_BLOCK, 0, stream>>>(
            v, sink, m->tier_rows[TIER_WARP], n);
        CUDA_CHECK_LAUNCH(st, "r1cs_rows_group (warp per row)");
    }
    if (m->tier_count[TIER_BLOCK]) {
        const uint32_t n = m->tier_count[TIER_BLOCK];
        R1CSK(rows_group)<Ptr, Idx, R1CS_BLOCK>
            <<<n, R1CS_BLOCK, 0, stream>>>(v, sink, m->tier_rows[TIER_BLOCK], n);
        CUDA_CHECK_LAUNCH(st, "r1cs_rows_group (block per row)");
    }
    return st;
}

static cuzk_status R1CSK(matrix)(const cuda_r1cs *r, const r1cs_dev_matrix *m, const dfr_t *w,
                                   const r1cs_sink &sink, cudaStream_t stream)
{
    if (m->ptr64)
        return r->coeff_width == 2 ? matrix_eval<uint64_t, uint16_t>(r, m, w, sink, stream)
                                   : matrix_eval<uint64_t, uint32_t>(r, m, w, sink, stream);
    return r->coeff_width == 2 ? matrix_eval<uint32_t, uint16_t>(r, m, w, sink, stream)
                               : matrix_eval<uint32_t, uint32_t>(r, m, w, sink, stream);
}

static cuzk_status R1CSK(finish)(const cuda_r1cs *r, dfr_t *const abc[3],
                                 unsigned long long *first_bad, cudaStream_t stream)
{
    if (r->device == CUDA_R1CS_HOST_EMULATION) {
        for (uint32_t i = 0; i < (uint32_t)r->rows; i++)
            if (r1cs_finish_row(abc[0], abc[1], abc[2], i, r->c_is_ab) && i < *first_bad)
                *first_bad = i;
        return CUZK_OK;
    }
    cuzk_status st = CUZK_OK;
    R1CSK(rows_finish)<<<blocks_for(r->rows), R1CS_BLOCK, 0, stream>>>(
        abc[0], abc[1], abc[2], (uint32_t)r->rows, r->c_is_ab, first_bad);
    CUDA_CHECK_LAUNCH(st, "rows_finish");
    return st;
}

const r1cs_field_ops R1CSK(field_ops) = {R1CSK(matrix), R1CSK(finish)};

#undef R1CSK
