/* The plan of passes for a size, the parameters of each pass, and the domain
 * object: constants and tables made on the device (or in the emulation) and
 * kept there. */

#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_check.h"
#include "cuda/ntt_impl.cuh"

/* ---- memory ------------------------------------------------------------- */

/* ---- the curves' executors ---------------------------------------------- */

const ntt_field_ops *ntt_field_ops_of(const cuda_ntt_options *opt)
{
    switch (opt ? opt->curve : CUDA_NTT_BLS12_381) {
    case CUDA_NTT_BLS12_381:
        return &ntt_bls12_381_field_ops;
    case CUDA_NTT_BN254:
        return &ntt_bn254_field_ops;
    default:
        return NULL;
    }
}

uint32_t ntt_max_log(const cuda_ntt_options *opt)
{
    return opt && opt->curve == CUDA_NTT_BN254 ? 28u : CUDA_NTT_MAX_LOG;
}

cuzk_status ntt_exec_pass(const ntt_exec *x, const ntt_pass_params *p, int layout, uint32_t blocks,
                          uint32_t batch)
{
    return x->ops->pass(x, p, layout, blocks, batch);
}

cuzk_status ntt_exec_consts(const ntt_exec *x, ntt_consts *d_out, uint32_t log_n, int snarkjs)
{
    return x->ops->consts(x, d_out, log_n, snarkjs);
}

cuzk_status ntt_exec_powers(const ntt_exec *x, dfr_t *d_out, uint32_t count, const dfr_t *d_base,
                            uint32_t sq, const dfr_t *d_scale)
{
    return x->ops->powers(x, d_out, count, d_base, sq, d_scale);
}

cuzk_status ntt_exec_twiddles(const ntt_exec *x, dfr_t *d_out, uint64_t count, const dfr_t *d_rl,
                              const dfr_t *d_rh, uint32_t rl_bits, uint32_t log_n, uint32_t log_l,
                              uint32_t log_s)
{
    return x->ops->twiddles(x, d_out, count, d_rl, d_rh, rl_bits, log_n, log_l, log_s);
}

cuzk_status ntt_kernels_configure(void)
{
    cuzk_status st = ntt_bls12_381_field_ops.configure();
    return st == CUZK_OK ? ntt_bn254_field_ops.configure() : st;
}

cuzk_status ntt_set_device(int device)
{
    if (device == CUDA_NTT_HOST_EMULATION)
        return CUZK_OK;
    CUDA_TRY(cudaSetDevice(device));
    return CUZK_OK;
}

cuzk_status ntt_mem_alloc(int device, void **ptr, size_t bytes)
{
    *ptr = NULL;
    if (bytes == 0)
        bytes = 1;
    if (device == CUDA_NTT_HOST_EMULATION) {
        *ptr = aligned_alloc(256, (bytes + 255) & ~(size_t)255);
        return *ptr ? CUZK_OK : CUZK_ERR_OUT_OF_MEMORY;
    }
    const cudaError_t err = cudaMalloc(ptr, bytes);
    if (err == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        *ptr = NULL;
        (void)cuda_check_fail(err, "cudaMalloc(ptr, bytes)", __FILE__, __LINE__);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    if (err != cudaSuccess) {
        *ptr = NULL;
        return cuda_check_fail(err, "cudaMalloc(ptr, bytes)", __FILE__, __LINE__);
    }
    return CUZK_OK;
}

void ntt_mem_free(int device, void *ptr)
{
    if (!ptr)
        return;
    if (device == CUDA_NTT_HOST_EMULATION)
        free(ptr);
    else
        (void)cudaFree(ptr);
}

cuzk_status ntt_mem_copy(int device, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                         cudaStream_t stream)
{
    if (bytes == 0)
        return CUZK_OK;
    if (device == CUDA_NTT_HOST_EMULATION) {
        memmove(dst, src, bytes);
        return CUZK_OK;
    }
    CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, kind, stream));
    return CUZK_OK;
}

/* ---- plan ----------------------------------------------------------------- */

/* Up to 2^single in one pass; above, P = max(2, ceil(k / max_pass)) passes
 * of near-equal sizes (larger first). Columns per block: layout A 8 (4 for
 * 2^8 and 2^9 points) so that tiles stay at 1-2K elements and global
 * accesses come in runs of at least 128 bytes; layout B enough rows for a
 * tile of 1K elements (2K for 2^9 points), at least 4 for the runs of the
 * natural-order store, at most R1 (the rows of a block share k2 ..).
 *
 * Cost: the transform is bound by Fr multiplications, not bytes. Per
 * element a radix-8 step costs 5/8 (its DFT) and 7/8 (the twiddles after
 * it), the radix-4 first step 1/4 and 3/4, the radix-2 one 0 and 1/2, the
 * last step no twiddles, a pass boundary 1: 2^24 = 8+8+8 is 11.375 per
 * element (n/2 log n would be 12), 2^27 = 9+9+9 is 12.875; the inverse adds
 * 1 (1/n), either coset 2 (a table product and its application). */
cuzk_status ntt_plan_make(ntt_plan *plan, uint32_t log_n, const cuda_ntt_options *opt)
{
    const uint32_t max_pass = opt && opt->max_pass_log ? opt->max_pass_log : NTT_DEFAULT_PASS_LOG;
    const uint32_t single =
        opt && opt->max_single_log ? opt->max_single_log : NTT_DEFAULT_SINGLE_LOG;
    memset(plan, 0, sizeof(*plan));
    if (log_n > CUDA_NTT_MAX_LOG || max_pass < 3 || max_pass > 9 || single > NTT_ROOT_LOG)
        return CUZK_ERR_INVALID_ARGUMENT;
    plan->log_n = log_n;
    if (log_n <= single || log_n < 2) {
        plan->n_pass = 1;
        plan->r[0] = log_n;
        plan->c[0] = 0;
        return CUZK_OK;
    }
    uint32_t np = (log_n + max_pass - 1) / max_pass;
    np = np < 2 ? 2 : np; /* and np <= log_n: every pass at least 2 points */
    if (np > NTT_MAX_PASSES)
        return CUZK_ERR_INVALID_ARGUMENT;
    plan->n_pass = np;
    for (uint32_t j = 0; j < np; j++)
        plan->r[j] = log_n / np + (j < log_n % np ? 1 : 0);
    uint32_t done = 0;
    for (uint32_t j = 0; j + 1 < np; j++) {
        done += plan->r[j];
        const uint32_t log_s = log_n - done;
        uint32_t c = plan->r[j] <= 7 ? 3 : 2;
        plan->c[j] = c < log_s ? c : log_s;
    }
    const uint32_t rl = plan->r[np - 1];
    uint32_t c = rl < 8 ? 10 - rl : 2;
    plan->c[np - 1] = c < plan->r[0] ? c : plan->r[0];
    return CUZK_OK;
}

int ntt_pass_layout(const ntt_plan *plan, uint32_t j)
{
    return j + 1 < plan->n_pass ? NTT_LAYOUT_A : NTT_LAYOUT_B;
}

uint32_t ntt_pass_blocks(const ntt_plan *plan, uint32_t j)
{
    return 1u << (plan->log_n - plan->r[j] - plan->c[j]);
}

void ntt_params_init(ntt_pass_params *p, const cuda_ntt_domain *d, uint32_t j)
{
    const ntt_plan *plan = &d->plan;
    memset(p, 0, sizeof(*p));
    p->roots = d->roots_tab;
    p->tw = d->tw[j];
    p->rl = d->rl;
    p->rh = d->rh;
    for (int i = 0; i < 3; i++)
        p->w8[i] = d->c.w8[i];
    p->m = (uint64_t)1 << plan->log_n;
    p->log_n = plan->log_n;
    p->log_r = plan->r[j];
    p->log_c = plan->c[j];
    uint32_t done = 0;
    for (uint32_t i = 0; i <= j; i++)
        done += plan->r[i];
    p->log_s = j + 1 < plan->n_pass ? plan->log_n - done : 0;
    p->root_log = d->root_log;
    p->rl_bits = d->half;
    p->n_pass = plan->n_pass;
    for (uint32_t i = 0; i < plan->n_pass; i++)
        p->pass_log[i] = plan->r[i];
    /* radix steps: 2 or 4 first when 3 does not divide r, then eights */
    const uint32_t r = plan->r[j];
    p->n_steps = 0;
    if (r % 3)
        p->step_log[p->n_steps++] = r % 3;
    for (uint32_t i = 0; i < r / 3; i++)
        p->step_log[p->n_steps++] = 3;
}

/* ---- domain --------------------------------------------------------------- */

/* Element offsets of the tables in d->mem, after the constants. */
typedef struct ntt_layout_offsets {
    size_t roots, rl, rh, lo[4], hi[NTT_SC_COUNT], tw[NTT_MAX_PASSES], total;
} ntt_layout_offsets;

static size_t ntt_consts_elems(void)
{
    return (sizeof(ntt_consts) + sizeof(dfr_t) - 1) / sizeof(dfr_t);
}

static void ntt_offsets(ntt_layout_offsets *o, const cuda_ntt_domain *d)
{
    const uint32_t k = d->log_n, h = d->half;
    size_t at = ntt_consts_elems();
    o->roots = at;
    at += (size_t)1 << d->root_log;
    o->rl = at;
    at += (size_t)1 << h;
    o->rh = at;
    at += (size_t)1 << (k - h);
    for (int b = 0; b < 4; b++) {
        o->lo[b] = at;
        at += (size_t)1 << h;
    }
    for (int s = 0; s < NTT_SC_COUNT; s++) {
        o->hi[s] = at;
        at += (size_t)1 << (k - h);
    }
    /* pass j >= 1 (not the last): rows of 2^(k - r_0 - .. - r_{j-1}); the
     * first pass's table (2^k entries) is allocated on its own */
    memset(o->tw, 0, sizeof(o->tw));
    uint32_t before = d->plan.r[0];
    for (uint32_t j = 1; j + 1 < d->plan.n_pass; j++) {
        o->tw[j] = at;
        at += (size_t)1 << (k - before);
        before += d->plan.r[j];
    }
    o->total = at;
}

static cuzk_status ntt_domain_fill(cuda_ntt_domain *d, const ntt_layout_offsets *o,
                                   const ntt_exec *x)
{
    dfr_t *mem = (dfr_t *)d->mem;
    ntt_consts *dc = (ntt_consts *)d->mem;
    const uint32_t k = d->log_n, h = d->half;
    cuzk_status st = ntt_exec_consts(x, dc, k, d->roots == CUDA_NTT_ROOTS_SNARKJS);
    const dfr_t *one = &dc->scale[NTT_SC_COSET_FWD];
    if (st == CUZK_OK)
        st =
            ntt_exec_powers(x, mem + o->roots, 1u << d->root_log, &dc->omega, k - d->root_log, one);
    if (st == CUZK_OK)
        st = ntt_exec_powers(x, mem + o->rl, 1u << h, &dc->omega, 0, one);
    if (st == CUZK_OK)
        st = ntt_exec_powers(x, mem + o->rh, 1u << (k - h), &dc->omega, h, one);
    for (int b = 0; b < 4 && st == CUZK_OK; b++)
        st = ntt_exec_powers(x, mem + o->lo[b], 1u << h, &dc->base[b], 0, one);
    for (uint32_t s = 0; s < NTT_SC_COUNT && st == CUZK_OK; s++)
        st = ntt_exec_powers(x, mem + o->hi[s], 1u << (k - h), &dc->base[ntt_sc_base(s)], h,
                             &dc->scale[s]);
    uint32_t before = 0;
    for (uint32_t j = 0; j + 1 < d->plan.n_pass && st == CUZK_OK; j++) {
        const uint32_t log_l = k - before, log_s = log_l - d->plan.r[j];
        dfr_t *t = (dfr_t *)d->tw[j];
        if (t)
            st = ntt_exec_twiddles(x, t, (uint64_t)1 << log_l, mem + o->rl, mem + o->rh, h, k,
                                   log_l, log_s);
        before += d->plan.r[j];
    }
    if (st == CUZK_OK)
        st = ntt_mem_copy(d->device, &d->c, dc, sizeof(ntt_consts), cudaMemcpyDeviceToHost,
                          x->stream);
    if (st == CUZK_OK && d->device != CUDA_NTT_HOST_EMULATION)
        CUDA_CHECK(st, cudaStreamSynchronize(x->stream));
    return st;
}

extern "C" cuzk_status cuda_ntt_domain_create(cuda_ntt_domain **dom, int device, unsigned log_n,
                                              cuda_ntt_roots roots, const cuda_ntt_options *opt)
{
    if (!dom)
        return CUZK_ERR_INVALID_ARGUMENT;
    *dom = NULL;
    if ((opt && !ntt_field_ops_of(opt)) || log_n > ntt_max_log(opt) ||
        (roots != CUDA_NTT_ROOTS_BELLMAN && roots != CUDA_NTT_ROOTS_SNARKJS))
        return CUZK_ERR_INVALID_ARGUMENT;
    cuda_ntt_domain *d = (cuda_ntt_domain *)calloc(1, sizeof(*d));
    if (!d)
        return CUZK_ERR_OUT_OF_MEMORY;
    d->device = device;
    d->log_n = log_n;
    d->roots = roots;
    if (opt)
        d->opt = *opt;
    cuzk_status st = ntt_plan_make(&d->plan, log_n, &d->opt);
    if (st != CUZK_OK) {
        free(d);
        return st;
    }
    d->root_log = log_n < NTT_ROOT_LOG ? log_n : NTT_ROOT_LOG;
    d->half = (log_n + 1) / 2;
    const int full_tw1 = d->plan.n_pass > 1 && !(d->opt.flags & CUDA_NTT_TWIDDLES_COMPACT);

    ntt_layout_offsets o;
    ntt_offsets(&o, d);
    st = ntt_set_device(device);
    cudaStream_t stream = NULL;
    if (st == CUZK_OK && device != CUDA_NTT_HOST_EMULATION)
        CUDA_CHECK(st, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    if (st == CUZK_OK)
        st = ntt_mem_alloc(device, &d->mem, o.total * sizeof(dfr_t));
    if (st == CUZK_OK && full_tw1)
        st = ntt_mem_alloc(device, &d->tw1, sizeof(dfr_t) << log_n);
    if (st == CUZK_OK) {
        dfr_t *mem = (dfr_t *)d->mem;
        d->bytes = o.total * sizeof(dfr_t) + (full_tw1 ? sizeof(dfr_t) << log_n : 0);
        d->roots_tab = mem + o.roots;
        d->rl = mem + o.rl;
        d->rh = mem + o.rh;
        for (int b = 0; b < 4; b++)
            d->lo[b] = mem + o.lo[b];
        for (int s = 0; s < NTT_SC_COUNT; s++)
            d->hi[s] = mem + o.hi[s];
        for (uint32_t j = 0; j + 1 < d->plan.n_pass; j++)
            d->tw[j] = j == 0 ? (const dfr_t *)d->tw1 : mem + o.tw[j];
        const ntt_exec x = {device, stream, ntt_field_ops_of(&d->opt)};
        st = ntt_domain_fill(d, &o, &x);
    }
    if (stream)
        (void)cudaStreamDestroy(stream);
    if (st != CUZK_OK) {
        cuda_ntt_domain_destroy(d);
        return st;
    }
    *dom = d;
    return CUZK_OK;
}

extern "C" void cuda_ntt_domain_destroy(cuda_ntt_domain *dom)
{
    if (!dom)
        return;
    if (ntt_set_device(dom->device) == CUZK_OK) {
        ntt_mem_free(dom->device, dom->mem);
        ntt_mem_free(dom->device, dom->tw1);
    }
    free(dom);
}

extern "C" size_t cuda_ntt_domain_bytes(const cuda_ntt_domain *dom)
{
    return dom ? dom->bytes : 0;
}

extern "C" size_t cuda_ntt_ctx_device_bytes(const cuda_ntt_ctx *ctx)
{
    if (!ctx)
        return 0;
    size_t bytes = ctx->scratch ? ((size_t)ctx->max_batch * sizeof(dfr_t)) << ctx->max_log_n : 0;
    for (unsigned k = 0; k <= CUDA_NTT_MAX_LOG; k++)
        bytes += cuda_ntt_domain_bytes(ctx->dom[k]);
    return bytes;
}
