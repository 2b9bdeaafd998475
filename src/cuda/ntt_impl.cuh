#ifndef CUZK_CUDA_NTT_IMPL_CUH
#define CUZK_CUDA_NTT_IMPL_CUH

/* Host-side internals of the NTT layer: the plan of passes, the domain and
 * context objects behind the C API (ntt.h), and the executor that runs
 * passes and setup steps either as kernels (ntt_kernels.cu) or in the host
 * emulation (ntt_emu.cu). */

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda/ntt.h"
#include "cuda/ntt_pass.cuh"
#include "cuda/ntt_setup.cuh"

/* Passes of one transform: pass j does 2^r[j]-point DFTs, 2^c[j] columns per
 * block; passes before the last use layout A, the last layout B. */
typedef struct ntt_plan {
    uint32_t log_n, n_pass;
    uint32_t r[NTT_MAX_PASSES];
    uint32_t c[NTT_MAX_PASSES];
} ntt_plan;

#define NTT_DEFAULT_PASS_LOG 9u
#define NTT_DEFAULT_SINGLE_LOG 11u

struct cuda_ntt_domain {
    int device; /* CUDA_NTT_HOST_EMULATION for the emulation */
    uint32_t log_n;
    cuda_ntt_roots roots;
    cuda_ntt_options opt;
    ntt_plan plan;
    void *mem; /* consts and every table but the first boundary table */
    void *tw1; /* the first boundary table (n entries), or NULL (compact) */
    size_t bytes;
    const dfr_t *roots_tab; /* w_{2^root_log}^e */
    uint32_t root_log;
    const dfr_t *rl, *rh; /* w_n^e = rl[e mod 2^half] · rh[e >> half] */
    uint32_t half;        /* also the low bits of the scaling tables */
    const dfr_t *lo[4];   /* base^t, t < 2^half (bases of ntt_consts) */
    const dfr_t *hi[NTT_SC_COUNT];
    const dfr_t *tw[NTT_MAX_PASSES]; /* boundary tables of the passes before the last */
    ntt_consts c;                    /* host copy */
};

struct cuda_ntt_ctx {
    int device;
    uint32_t max_log_n, max_batch;
    cuda_ntt_roots roots;
    cuda_ntt_options opt;
    dfr_t *scratch; /* max_batch vectors of 2^max_log_n elements, or NULL */
    cuda_ntt_domain *dom[CUDA_NTT_MAX_LOG + 1];
};

struct ntt_field_ops;

/* Where and how the work runs, and over which curve's Fr. */
typedef struct ntt_exec {
    int device; /* CUDA_NTT_HOST_EMULATION: on the host */
    cudaStream_t stream;
    const struct ntt_field_ops *ops; /* ntt_field_ops_of(the options' curve) */
} ntt_exec;

/* ---- plan (ntt_domain.cu) ---------------------------------------------- */

cuzk_status ntt_plan_make(ntt_plan *plan, uint32_t log_n, const cuda_ntt_options *opt);

/* Parameters of pass j of the plan: geometry, steps, tables; no flags. */
void ntt_params_init(ntt_pass_params *p, const cuda_ntt_domain *d, uint32_t j);

/* Layout and number of blocks per vector of pass j. */
int ntt_pass_layout(const ntt_plan *plan, uint32_t j);
uint32_t ntt_pass_blocks(const ntt_plan *plan, uint32_t j);

/* ---- executors (ntt_kernels_impl.cuh, once per curve; ntt_emu.cu) ------- */

/* One curve's executor: its kernels, or the same code on the host in the
 * emulation. */
typedef struct ntt_field_ops {
    /* Sets the kernels' shared-memory limit on the current device. */
    cuzk_status (*configure)(void);
    cuzk_status (*pass)(const ntt_exec *x, const ntt_pass_params *p, int layout, uint32_t blocks,
                        uint32_t batch);
    cuzk_status (*consts)(const ntt_exec *x, ntt_consts *d_out, uint32_t log_n, int snarkjs);
    cuzk_status (*powers)(const ntt_exec *x, dfr_t *d_out, uint32_t count, const dfr_t *d_base,
                          uint32_t sq, const dfr_t *d_scale);
    cuzk_status (*twiddles)(const ntt_exec *x, dfr_t *d_out, uint64_t count, const dfr_t *d_rl,
                            const dfr_t *d_rh, uint32_t rl_bits, uint32_t log_n, uint32_t log_l,
                            uint32_t log_s);
} ntt_field_ops;

extern const ntt_field_ops ntt_bls12_381_field_ops; /* ntt_kernels.cu */
extern const ntt_field_ops ntt_bn254_field_ops;     /* ntt_bn254_kernels.cu */

/* The executor of the options' curve (ntt_domain.cu); NULL for an unknown
 * curve. */
const ntt_field_ops *ntt_field_ops_of(const cuda_ntt_options *opt);

/* The largest log_n of the options' curve: its Fr's two-adicity, at most
 * CUDA_NTT_MAX_LOG. */
uint32_t ntt_max_log(const cuda_ntt_options *opt);

/* x's curve's steps (ntt_domain.cu). */
cuzk_status ntt_exec_pass(const ntt_exec *x, const ntt_pass_params *p, int layout, uint32_t blocks,
                          uint32_t batch);
cuzk_status ntt_exec_consts(const ntt_exec *x, ntt_consts *d_out, uint32_t log_n, int snarkjs);
cuzk_status ntt_exec_powers(const ntt_exec *x, dfr_t *d_out, uint32_t count, const dfr_t *d_base,
                            uint32_t sq, const dfr_t *d_scale);
cuzk_status ntt_exec_twiddles(const ntt_exec *x, dfr_t *d_out, uint64_t count, const dfr_t *d_rl,
                              const dfr_t *d_rh, uint32_t rl_bits, uint32_t log_n, uint32_t log_l,
                              uint32_t log_s);
/* Every curve's kernels configured on the current device. */
cuzk_status ntt_kernels_configure(void);

/* The emulation's passes (ntt_emu.cu): every block, segment and thread of
 * a pass in turn, each by seg (the curve's segment code on the host). */
typedef void (*ntt_segment_fn)(const ntt_pass_params *p, int layout, int mid, const ntt_blk *b,
                               uint32_t seg, uint32_t t, uint4 *sm);
cuzk_status ntt_emu_pass(const ntt_pass_params *p, int layout, uint32_t blocks, uint32_t batch,
                         ntt_segment_fn seg);

/* ---- memory on the device or the host (ntt_domain.cu) ------------------ */

cuzk_status ntt_mem_alloc(int device, void **ptr, size_t bytes);
void ntt_mem_free(int device, void *ptr);
cuzk_status ntt_mem_copy(int device, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                         cudaStream_t stream);
cuzk_status ntt_set_device(int device);

#endif
