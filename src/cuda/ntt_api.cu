/* The C API of ntt.h: contexts, the natural-order transforms and the
 * quotient pipeline as sequences of passes (ntt_pass.cuh).
 *
 * NN transform, P passes: pass 1 reads the vector and writes the scratch
 * vector (same positions), passes 2..P-1 work in place there, pass P reads
 * it and writes each output at its natural index back into the vector. One
 * pass (n <= 2^11) does it all in place.
 *
 * Quotient, for each of a, b, c (together in each launch): the inverse NR
 * passes (natural in, digits reversed out; the first reads x[-i] and zeros
 * beyond m), then the last pass with NTT_F_MID (its DFT, the scaling of
 * coefficient K by s^K / n, the transposed DFT), then the transposed passes
 * in reverse order with their twiddles before the DFT (RN): natural-order
 * evaluations on s<w> without any reordering pass, all in place. The last
 * of these for c stores a b - c (reading a and b). h is then the NN inverse
 * of that with the output scaled by s^-K / (n Z). */

#include <string.h>
#include <stdlib.h>

#include "cuda/cuda_check.h"
#include "cuda/ntt_impl.cuh"

extern "C" const char *cuda_ntt_last_error(void)
{
    return cuda_check_last();
}

/* ---- contexts --------------------------------------------------------------- */

extern "C" cuzk_status cuda_ntt_ctx_create(cuda_ntt_ctx **ctx, int device, unsigned max_log_n,
                                           unsigned max_batch, cuda_ntt_roots roots,
                                           const cuda_ntt_options *opt)
{
    if (!ctx)
        return CUZK_ERR_INVALID_ARGUMENT;
    *ctx = NULL;
    if ((opt && !ntt_field_ops_of(opt)) || max_log_n > ntt_max_log(opt) ||
        (roots != CUDA_NTT_ROOTS_BELLMAN && roots != CUDA_NTT_ROOTS_SNARKJS))
        return CUZK_ERR_INVALID_ARGUMENT;
    cuda_ntt_ctx *c = (cuda_ntt_ctx *)calloc(1, sizeof(*c));
    if (!c)
        return CUZK_ERR_OUT_OF_MEMORY;
    c->device = device;
    c->max_log_n = max_log_n;
    c->max_batch = max_batch < NTT_BATCH ? max_batch : NTT_BATCH;
    c->roots = roots;
    if (opt)
        c->opt = *opt;
    ntt_plan plan;
    cuzk_status st = ntt_plan_make(&plan, max_log_n, &c->opt);
    if (st == CUZK_OK)
        st = ntt_set_device(device);
    if (st == CUZK_OK && device != CUDA_NTT_HOST_EMULATION)
        st = ntt_kernels_configure();
    /* scratch only where some size needs more than one pass */
    if (st == CUZK_OK && plan.n_pass > 1 && c->max_batch > 0)
        st = ntt_mem_alloc(device, (void **)&c->scratch,
                           ((size_t)c->max_batch * sizeof(dfr_t)) << max_log_n);
    if (st != CUZK_OK) {
        cuda_ntt_ctx_destroy(c);
        return st;
    }
    *ctx = c;
    return CUZK_OK;
}

extern "C" void cuda_ntt_ctx_destroy(cuda_ntt_ctx *ctx)
{
    if (!ctx)
        return;
    for (unsigned k = 0; k <= CUDA_NTT_MAX_LOG; k++)
        cuda_ntt_domain_destroy(ctx->dom[k]);
    if (ntt_set_device(ctx->device) == CUZK_OK)
        ntt_mem_free(ctx->device, ctx->scratch);
    free(ctx);
}

extern "C" cuzk_status cuda_ntt_ctx_prepare(cuda_ntt_ctx *ctx, unsigned log_n)
{
    if (!ctx || log_n > ctx->max_log_n)
        return CUZK_ERR_INVALID_ARGUMENT;
    if (ctx->dom[log_n])
        return CUZK_OK;
    return cuda_ntt_domain_create(&ctx->dom[log_n], ctx->device, log_n, ctx->roots, &ctx->opt);
}

/* The domain of a size, prepared if need be. */
static cuzk_status ntt_domain_of(cuda_ntt_ctx *ctx, unsigned log_n, const cuda_ntt_domain **d)
{
    cuzk_status st = cuda_ntt_ctx_prepare(ctx, log_n);
    if (st == CUZK_OK)
        st = ntt_set_device(ctx->device);
    *d = ctx->dom[log_n];
    return st;
}

/* ---- building passes -------------------------------------------------------- */

static ntt_scale ntt_scale_table(const cuda_ntt_domain *d, uint32_t sc)
{
    ntt_scale s;
    memset(&s, 0, sizeof(s));
    s.mode = NTT_SCALE_TABLE;
    s.lo = d->lo[ntt_sc_base(sc)];
    s.hi = d->hi[sc];
    s.lo_bits = d->half;
    return s;
}

static ntt_scale ntt_scale_const(const dfr_t *c)
{
    ntt_scale s;
    memset(&s, 0, sizeof(s));
    s.mode = NTT_SCALE_CONST;
    s.c = *c;
    return s;
}

/* Pass j on `batch` vectors src[i] -> dst[i]. */
static cuzk_status ntt_run(const ntt_exec *x, const cuda_ntt_domain *d, uint32_t j,
                           ntt_pass_params *p, dfr_t *const *src, dfr_t *const *dst, uint32_t batch)
{
    for (uint32_t i = 0; i < batch; i++) {
        p->src[i] = src[i];
        p->dst[i] = dst[i];
    }
    return ntt_exec_pass(x, p, ntt_pass_layout(&d->plan, j), ntt_pass_blocks(&d->plan, j), batch);
}

/* NN transform of `batch` vectors (scratch: batch vectors, for P > 1). */
static cuzk_status ntt_nn(const ntt_exec *x, const cuda_ntt_domain *d, dfr_t *const *vec,
                          dfr_t *const *scratch, uint32_t batch, cuda_ntt_direction dir,
                          cuda_ntt_coset coset, uint64_t m, const ntt_scale *post)
{
    const uint32_t np = d->plan.n_pass;
    ntt_pass_params p;
    cuzk_status st = CUZK_OK;
    for (uint32_t j = 0; j < np && st == CUZK_OK; j++) {
        ntt_params_init(&p, d, j);
        if (j == 0) {
            p.m = m;
            if (dir == CUDA_NTT_INVERSE)
                p.flags |= NTT_F_NEGATE;
            else if (coset == CUDA_NTT_COSET)
                p.pre = ntt_scale_table(d, NTT_SC_COSET_FWD);
        }
        if (j + 1 < np) {
            p.flags |= NTT_F_TW_OUT;
        } else {
            p.flags |= NTT_F_NATURAL;
            p.post = *post;
        }
        const dfr_t *const *src = j == 0 ? vec : scratch;
        dfr_t *const *dst = j + 1 == np ? vec : scratch;
        st = ntt_run(x, d, j, &p, (dfr_t *const *)src, dst, batch);
    }
    return st;
}

static ntt_scale ntt_nn_post(const cuda_ntt_domain *d, cuda_ntt_direction dir, cuda_ntt_coset coset)
{
    ntt_scale s;
    memset(&s, 0, sizeof(s));
    if (dir == CUDA_NTT_INVERSE)
        s = coset == CUDA_NTT_COSET ? ntt_scale_table(d, NTT_SC_COSET_INV)
                                    : ntt_scale_const(&d->c.n_inv);
    return s;
}

/* ---- transforms -------------------------------------------------------------- */

extern "C" cuzk_status cuda_ntt_batch(cuda_ntt_ctx *ctx, void *const *d_data, unsigned count,
                                      unsigned log_n, cuda_ntt_direction dir, cuda_ntt_coset coset,
                                      void *stream)
{
    if (!ctx || (count && !d_data) || (dir != CUDA_NTT_FORWARD && dir != CUDA_NTT_INVERSE) ||
        (coset != CUDA_NTT_STANDARD && coset != CUDA_NTT_COSET))
        return CUZK_ERR_INVALID_ARGUMENT;
    for (unsigned i = 0; i < count; i++)
        if (!d_data[i] || ((uintptr_t)d_data[i] & 15))
            return CUZK_ERR_INVALID_ARGUMENT;
    const cuda_ntt_domain *d;
    cuzk_status st = ntt_domain_of(ctx, log_n, &d);
    if (st != CUZK_OK)
        return st;
    const ntt_exec x = {ctx->device, (cudaStream_t)stream, ntt_field_ops_of(&ctx->opt)};
    const uint32_t per = d->plan.n_pass > 1 ? ctx->max_batch : NTT_BATCH;
    if (per == 0 || (d->plan.n_pass > 1 && !ctx->scratch))
        return count ? CUZK_ERR_UNSUPPORTED : CUZK_OK;
    const ntt_scale post = ntt_nn_post(d, dir, coset);
    for (unsigned at = 0; at < count && st == CUZK_OK; at += per) {
        const uint32_t batch = count - at < per ? count - at : per;
        dfr_t *vec[NTT_BATCH], *scr[NTT_BATCH];
        for (uint32_t i = 0; i < batch; i++) {
            vec[i] = (dfr_t *)d_data[at + i];
            scr[i] = ctx->scratch ? ctx->scratch + ((size_t)i << ctx->max_log_n) : NULL;
        }
        st = ntt_nn(&x, d, vec, scr, batch, dir, coset, (uint64_t)1 << log_n, &post);
    }
    return st;
}

extern "C" cuzk_status cuda_ntt(cuda_ntt_ctx *ctx, void *d_data, unsigned log_n,
                                cuda_ntt_direction dir, cuda_ntt_coset coset, void *stream)
{
    return cuda_ntt_batch(ctx, &d_data, 1, log_n, dir, coset, stream);
}

/* The last pass of a vector in ntt_coset_evals: what it stores, into out. */
typedef struct ntt_last_pass {
    uint32_t flags; /* 0, NTT_F_POINTWISE or NTT_F_MULTIPLY (ntt_pass.cuh) */
    const dfr_t *pw_a, *pw_b;
    dfr_t *out;
} ntt_last_pass;

/* Vectors v[0..count) (count ≤ 3, the first m rows of each, the rest read
 * as zero) -> their evaluations on the quotient's coset, in place, all in
 * the same launches; the last vector's last pass stores as `last` says,
 * into last->out. */
static cuzk_status ntt_coset_evals(const ntt_exec *x, const cuda_ntt_domain *d, dfr_t *const *v,
                                   uint32_t count, uint64_t m, cuda_h_coset coset,
                                   const ntt_last_pass *last)
{
    const uint32_t np = d->plan.n_pass;
    dfr_t *const *v_last = v + count - 1;
    dfr_t *out[1] = {last->out};
    const ntt_scale mid =
        ntt_scale_table(d, coset == CUDA_H_COSET_GENERATOR ? NTT_SC_H_MID_GEN : NTT_SC_H_MID_2N);
    ntt_pass_params p;
    cuzk_status st = CUZK_OK;
    if (np == 1) {
        ntt_params_init(&p, d, 0);
        p.flags = NTT_F_NEGATE | NTT_F_MID;
        p.m = m;
        p.mid = mid;
    } else {
        for (uint32_t j = 0; j < np && st == CUZK_OK; j++) { /* inverse, NR, then the middle */
            ntt_params_init(&p, d, j);
            if (j == 0) {
                p.flags |= NTT_F_NEGATE;
                p.m = m;
            }
            if (j + 1 < np) {
                p.flags |= NTT_F_TW_OUT;
            } else {
                p.flags |= NTT_F_MID;
                p.mid = mid;
            }
            st = ntt_run(x, d, j, &p, v, v, count);
        }
        for (uint32_t j = np - 1; j-- > 1 && st == CUZK_OK;) { /* forward, RN */
            ntt_params_init(&p, d, j);
            p.flags |= NTT_F_TW_IN;
            st = ntt_run(x, d, j, &p, v, v, count);
        }
        ntt_params_init(&p, d, 0);
        p.flags |= NTT_F_TW_IN;
    }
    /* the last pass (the only one when np = 1): the others in place, then
     * the last vector into out */
    if (st == CUZK_OK && count > 1)
        st = ntt_run(x, d, 0, &p, v, v, count - 1);
    p.flags |= last->flags;
    p.pw_a = last->pw_a;
    p.pw_b = last->pw_b;
    if (st == CUZK_OK)
        st = ntt_run(x, d, 0, &p, v_last, out, 1);
    return st;
}

/* h = the coset iNTT of the evaluations in c with 1/Z folded into the
 * output scaling; from c into a (c is the scratch of the multi-pass form). */
static cuzk_status ntt_h_from_evals(const ntt_exec *x, const cuda_ntt_domain *d, dfr_t *c,
                                    dfr_t *a, cuda_h_coset coset)
{
    const ntt_scale post =
        ntt_scale_table(d, coset == CUDA_H_COSET_GENERATOR ? NTT_SC_H_OUT_GEN : NTT_SC_H_OUT_2N);
    const uint32_t np = d->plan.n_pass;
    ntt_pass_params p;
    cuzk_status st = CUZK_OK;
    for (uint32_t j = 0; j < np && st == CUZK_OK; j++) {
        ntt_params_init(&p, d, j);
        if (j == 0)
            p.flags |= NTT_F_NEGATE;
        if (j + 1 < np) {
            p.flags |= NTT_F_TW_OUT;
        } else {
            p.flags |= NTT_F_NATURAL;
            p.post = post;
        }
        st = ntt_run(x, d, j, &p, &c, j + 1 == np ? &a : &c, 1);
    }
    return st;
}

/* The checks every quotient entry point makes; *d the domain. */
static cuzk_status ntt_h_args(cuda_ntt_ctx *ctx, void *const *vec, unsigned count, size_t m,
                              unsigned log_n, cuda_h_coset coset, const cuda_ntt_domain **d)
{
    if (!ctx || (coset != CUDA_H_COSET_GENERATOR && coset != CUDA_H_COSET_2N_ROOT))
        return CUZK_ERR_INVALID_ARGUMENT;
    for (unsigned i = 0; i < count; i++)
        if (!vec[i] || ((uintptr_t)vec[i] & 15))
            return CUZK_ERR_INVALID_ARGUMENT;
    if (log_n > CUDA_NTT_MAX_LOG || m > ((size_t)1 << log_n))
        return CUZK_ERR_INVALID_ARGUMENT;
    /* At the two-adicity there is no 2n-th root of unity (BN254 at 2^28). */
    if (coset == CUDA_H_COSET_2N_ROOT && log_n >= ntt_max_log(&ctx->opt) &&
        ctx->opt.curve == CUDA_NTT_BN254)
        return CUZK_ERR_INVALID_ARGUMENT;
    return ntt_domain_of(ctx, log_n, d);
}

static cuzk_status ntt_h(cuda_ntt_ctx *ctx, void *d_a, void *d_b, void *d_c, size_t m,
                         unsigned log_n, cuda_h_coset coset, void *stream, int evals_only)
{
    void *const vec[3] = {d_a, d_b, d_c};
    const cuda_ntt_domain *d;
    cuzk_status st = ntt_h_args(ctx, vec, 3, m, log_n, coset, &d);
    if (st != CUZK_OK)
        return st;
    const ntt_exec x = {ctx->device, (cudaStream_t)stream, ntt_field_ops_of(&ctx->opt)};
    dfr_t *a = (dfr_t *)d_a, *b = (dfr_t *)d_b, *c = (dfr_t *)d_c;
    dfr_t *const abc[3] = {a, b, c};
    /* c's evaluations replaced by a b - c */
    const ntt_last_pass last = {NTT_F_POINTWISE, a, b, evals_only ? a : c};
    st = ntt_coset_evals(&x, d, abc, 3, m, coset, &last);
    if (st != CUZK_OK || evals_only)
        return st;
    return ntt_h_from_evals(&x, d, c, a, coset);
}

/* The two-vector form: a's evaluations, then b's multiplied into a's,
 * then c (written into b by fill) subtracted from them. */
static cuzk_status ntt_h_lean(cuda_ntt_ctx *ctx, void *d_a, void *d_b, size_t m, unsigned log_n,
                              cuda_h_coset coset, cuda_h_fill_fn fill_c, void *fill_arg,
                              void *stream, int evals_only)
{
    void *const vec[2] = {d_a, d_b};
    const cuda_ntt_domain *d;
    cuzk_status st = ntt_h_args(ctx, vec, 2, m, log_n, coset, &d);
    if (st != CUZK_OK)
        return st;
    if (!fill_c)
        return CUZK_ERR_INVALID_ARGUMENT;
    const ntt_exec x = {ctx->device, (cudaStream_t)stream, ntt_field_ops_of(&ctx->opt)};
    dfr_t *a = (dfr_t *)d_a, *b = (dfr_t *)d_b;
    const ntt_last_pass plain = {0, NULL, NULL, a};
    st = ntt_coset_evals(&x, d, &a, 1, m, coset, &plain);
    const ntt_last_pass times_a = {NTT_F_MULTIPLY, a, NULL, a};
    if (st == CUZK_OK)
        st = ntt_coset_evals(&x, d, &b, 1, m, coset, &times_a);
    if (st == CUZK_OK)
        st = fill_c(fill_arg, d_b);
    const ntt_last_pass minus = {NTT_F_POINTWISE, a, NULL, evals_only ? a : b};
    if (st == CUZK_OK)
        st = ntt_coset_evals(&x, d, &b, 1, m, coset, &minus);
    if (st != CUZK_OK || evals_only)
        return st;
    return ntt_h_from_evals(&x, d, b, a, coset);
}

extern "C" cuzk_status cuda_compute_h(cuda_ntt_ctx *ctx, void *d_a, void *d_b, void *d_c, size_t m,
                                      unsigned log_n, cuda_h_coset coset, void *stream)
{
    return ntt_h(ctx, d_a, d_b, d_c, m, log_n, coset, stream, 0);
}

extern "C" cuzk_status cuda_h_coset_evals(cuda_ntt_ctx *ctx, void *d_a, void *d_b, void *d_c,
                                          size_t m, unsigned log_n, cuda_h_coset coset,
                                          void *stream)
{
    return ntt_h(ctx, d_a, d_b, d_c, m, log_n, coset, stream, 1);
}

extern "C" cuzk_status cuda_compute_h_lean(cuda_ntt_ctx *ctx, void *d_a, void *d_b, size_t m,
                                           unsigned log_n, cuda_h_coset coset,
                                           cuda_h_fill_fn fill_c, void *fill_arg, void *stream)
{
    return ntt_h_lean(ctx, d_a, d_b, m, log_n, coset, fill_c, fill_arg, stream, 0);
}

extern "C" cuzk_status cuda_h_coset_evals_lean(cuda_ntt_ctx *ctx, void *d_a, void *d_b, size_t m,
                                               unsigned log_n, cuda_h_coset coset,
                                               cuda_h_fill_fn fill_c, void *fill_arg,
                                               void *stream)
{
    return ntt_h_lean(ctx, d_a, d_b, m, log_n, coset, fill_c, fill_arg, stream, 1);
}

/* ---- buffers ------------------------------------------------------------------- */

extern "C" cuzk_status cuda_ntt_alloc(cuda_ntt_ctx *ctx, void **d_vec, size_t n)
{
    if (!ctx || !d_vec)
        return CUZK_ERR_INVALID_ARGUMENT;
    cuzk_status st = ntt_set_device(ctx->device);
    if (st == CUZK_OK)
        st = ntt_mem_alloc(ctx->device, d_vec, n * sizeof(dfr_t));
    return st;
}

extern "C" void cuda_ntt_free(cuda_ntt_ctx *ctx, void *d_vec)
{
    if (ctx && ntt_set_device(ctx->device) == CUZK_OK)
        ntt_mem_free(ctx->device, d_vec);
}

extern "C" cuzk_status cuda_ntt_upload(cuda_ntt_ctx *ctx, void *d_dst, const struct fr *src,
                                       size_t n, void *stream)
{
    if (!ctx || (n && (!d_dst || !src)))
        return CUZK_ERR_INVALID_ARGUMENT;
    cuzk_status st = ntt_set_device(ctx->device);
    if (st == CUZK_OK)
        st = ntt_mem_copy(ctx->device, d_dst, src, n * sizeof(dfr_t), cudaMemcpyHostToDevice,
                          (cudaStream_t)stream);
    return st;
}

extern "C" cuzk_status cuda_ntt_download(cuda_ntt_ctx *ctx, struct fr *dst, const void *d_src,
                                         size_t n, void *stream)
{
    if (!ctx || (n && (!d_src || !dst)))
        return CUZK_ERR_INVALID_ARGUMENT;
    cuzk_status st = ntt_set_device(ctx->device);
    if (st == CUZK_OK)
        st = ntt_mem_copy(ctx->device, dst, d_src, n * sizeof(dfr_t), cudaMemcpyDeviceToHost,
                          (cudaStream_t)stream);
    return st;
}

extern "C" cuzk_status cuda_ntt_sync(cuda_ntt_ctx *ctx, void *stream)
{
    if (!ctx)
        return CUZK_ERR_INVALID_ARGUMENT;
    if (ctx->device == CUDA_NTT_HOST_EMULATION)
        return CUZK_OK;
    cuzk_status st = ntt_set_device(ctx->device);
    if (st == CUZK_OK)
        CUDA_CHECK(st, cudaStreamSynchronize((cudaStream_t)stream));
    return st;
}
