/* The NTT kernels (a pass, ntt_pass.cuh; the domain setup, ntt_setup.cuh)
 * and the executor that launches them, or runs them on the host in the
 * emulation (ntt_emu.cu). A template compiled once per curve, by
 * ntt_kernels.cu (BLS12-381) and ntt_bn254_kernels.cu (BN254, which defines
 * NTT_CURVE_BN254 first), after defining
 *   NTTK(name)   the names of the curve's kernels and functions, distinct
 *                per curve (kernels of two translation units must not share
 *                a name: the linker would keep one of them)
 * It defines the curve's table, NTTK(field_ops) (ntt_impl.cuh). */

#include "cuda/cuda_check.h"
#include "cuda/ntt_impl.cuh"

static_assert(sizeof(dfr_t) == 32, "dfr_t is not the size of fr_t");

/* One pass: the segments of ntt_pass.cuh with a barrier after each; the
 * first ends with the wait for its asynchronous copies. Up to 256 threads,
 * two blocks per multiprocessor at least (128 registers a thread). MID
 * (layout B only) is NTT_F_MID, apart so that the transposed steps are only
 * in the kernel that runs them. */
template <int LAYOUT, int MID>
__global__ void __launch_bounds__(NTT_THREADS_MAX, 2)
    NTTK(pass_kernel)(const __grid_constant__ ntt_pass_params p)
{
    extern __shared__ uint4 ntt_sm[];
    const uint32_t segs = ntt_segments(p, MID);
    ntt_segment(p, LAYOUT, MID, ntt_block(p, LAYOUT, blockIdx.x, blockIdx.y), 0, threadIdx.x,
                ntt_sm);
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    __syncthreads();
    for (uint32_t s = 1; s < segs; s++) {
        /* the block's place is recomputed rather than kept live */
        ntt_segment(p, LAYOUT, MID, ntt_block(p, LAYOUT, blockIdx.x, blockIdx.y), s, threadIdx.x,
                    ntt_sm);
        if (s + 1 < segs)
            __syncthreads();
    }
}

__global__ void NTTK(consts_kernel)(ntt_consts *out, uint32_t log_n, int snarkjs)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        ntt_make_consts(out, log_n, snarkjs);
}

__global__ void NTTK(powers_kernel)(dfr_t *out, uint32_t count, const dfr_t *base, uint32_t sq,
                                  const dfr_t *scale)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < count) {
        dfr_t b = *base, s = *scale, r;
        ntt_make_power(&r, &b, sq, &s, t);
        dfr_store(out + t, &r);
    }
}

__global__ void NTTK(twiddles_kernel)(dfr_t *out, uint64_t count, const dfr_t *rl, const dfr_t *rh,
                                    uint32_t rl_bits, uint32_t log_n, uint32_t log_l,
                                    uint32_t log_s)
{
    for (uint64_t o = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; o < count;
         o += (uint64_t)gridDim.x * blockDim.x) {
        dfr_t r;
        ntt_make_twiddle(&r, rl, rh, rl_bits, log_n, log_l, log_s, (uint32_t)o);
        dfr_store(out + o, &r);
    }
}

/* ---- the executor ----------------------------------------------------------- */

/* One thread's part of a segment, on the host (the emulation's step). */
static void NTTK(segment)(const ntt_pass_params *p, int layout, int mid, const ntt_blk *b,
                          uint32_t seg, uint32_t t, uint4 *sm)
{
    ntt_segment(*p, layout, mid, *b, seg, t, sm);
}

#define NTT_SETUP_BLOCK 128

static cuzk_status NTTK(configure)(void)
{
    const int bytes = NTT_MAX_TILE * (int)sizeof(dfr_t);
    CUDA_TRY(cudaFuncSetAttribute(NTTK(pass_kernel)<NTT_LAYOUT_A, 0>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    CUDA_TRY(cudaFuncSetAttribute(NTTK(pass_kernel)<NTT_LAYOUT_B, 0>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    CUDA_TRY(cudaFuncSetAttribute(NTTK(pass_kernel)<NTT_LAYOUT_B, 1>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    return CUZK_OK;
}

static cuzk_status NTTK(exec_pass)(const ntt_exec *x, const ntt_pass_params *p, int layout,
                                   uint32_t blocks, uint32_t batch)
{
    if (x->device == CUDA_NTT_HOST_EMULATION)
        return ntt_emu_pass(p, layout, blocks, batch, NTTK(segment));
    const dim3 grid(blocks, batch);
    const uint32_t threads = ntt_threads(*p);
    const size_t smem = (size_t)ntt_tile(*p) * sizeof(dfr_t);
    if (layout == NTT_LAYOUT_A)
        NTTK(pass_kernel)<NTT_LAYOUT_A, 0><<<grid, threads, smem, x->stream>>>(*p);
    else if (p->flags & NTT_F_MID)
        NTTK(pass_kernel)<NTT_LAYOUT_B, 1><<<grid, threads, smem, x->stream>>>(*p);
    else
        NTTK(pass_kernel)<NTT_LAYOUT_B, 0><<<grid, threads, smem, x->stream>>>(*p);
    cuzk_status st = CUZK_OK;
    CUDA_CHECK_LAUNCH(st, "ntt_pass_kernel launch");
    return st;
}

static cuzk_status NTTK(exec_consts)(const ntt_exec *x, ntt_consts *d_out, uint32_t log_n,
                                     int snarkjs)
{
    if (x->device == CUDA_NTT_HOST_EMULATION) {
        ntt_make_consts(d_out, log_n, snarkjs);
        return CUZK_OK;
    }
    NTTK(consts_kernel)<<<1, 1, 0, x->stream>>>(d_out, log_n, snarkjs);
    cuzk_status st = CUZK_OK;
    CUDA_CHECK_LAUNCH(st, "ntt_consts_kernel launch");
    return st;
}

static cuzk_status NTTK(exec_powers)(const ntt_exec *x, dfr_t *d_out, uint32_t count,
                                     const dfr_t *d_base, uint32_t sq, const dfr_t *d_scale)
{
    if (x->device == CUDA_NTT_HOST_EMULATION) {
        for (uint32_t t = 0; t < count; t++)
            ntt_make_power(d_out + t, d_base, sq, d_scale, t);
        return CUZK_OK;
    }
    const uint32_t blocks = (count + NTT_SETUP_BLOCK - 1) / NTT_SETUP_BLOCK;
    NTTK(powers_kernel)<<<blocks, NTT_SETUP_BLOCK, 0, x->stream>>>(d_out, count, d_base, sq,
                                                                   d_scale);
    cuzk_status st = CUZK_OK;
    CUDA_CHECK_LAUNCH(st, "ntt_powers_kernel launch");
    return st;
}

static cuzk_status NTTK(exec_twiddles)(const ntt_exec *x, dfr_t *d_out, uint64_t count,
                                       const dfr_t *d_rl, const dfr_t *d_rh, uint32_t rl_bits,
                                       uint32_t log_n, uint32_t log_l, uint32_t log_s)
{
    if (x->device == CUDA_NTT_HOST_EMULATION) {
        for (uint64_t o = 0; o < count; o++)
            ntt_make_twiddle(d_out + o, d_rl, d_rh, rl_bits, log_n, log_l, log_s, (uint32_t)o);
        return CUZK_OK;
    }
    uint64_t blocks = (count + NTT_SETUP_BLOCK - 1) / NTT_SETUP_BLOCK;
    if (blocks > 65536)
        blocks = 65536;
    NTTK(twiddles_kernel)<<<(unsigned)blocks, NTT_SETUP_BLOCK, 0, x->stream>>>(
        d_out, count, d_rl, d_rh, rl_bits, log_n, log_l, log_s);
    cuzk_status st = CUZK_OK;
    CUDA_CHECK_LAUNCH(st, "ntt_twiddles_kernel launch");
    return st;
}

const ntt_field_ops NTTK(field_ops) = {NTTK(configure), NTTK(exec_pass), NTTK(exec_consts),
                                       NTTK(exec_powers), NTTK(exec_twiddles)};

#undef NTTK
