/* Constraint evaluation on the device (r1cs_eval.h): the matrices resident,
 * a = A·w, b = B·w, c = C·w by sparse row dot products, then c = a·b or the
 * exact check a·b = c.
 *
 * Row-length skew. A PoRep-like system is mostly rows of 1 to 3 terms with
 * some packing rows of 256 (a bit decomposition summed back), and a circom
 * system may carry a row of thousands of terms (a long linear sum). One
 * thread per row makes a warp as slow as its longest row, so rows are
 * split by length, once, at upload:
 *   <= R1CS_THREAD_MAX terms   one thread per row (a warp waits for at most
 *                              32 terms of one of its threads);
 *   <= R1CS_WARP_MAX terms     one warp per row (at most 32 terms a lane),
 *                              partial sums reduced by shuffles;
 *   longer                     one block of R1CS_BLOCK threads per row
 *                              (len / 256 terms a thread; a 10^6-term row
 *                              is ~4,000 terms a thread, a few ms on one
 *                              SM while the others run the rest).
 * The thread-per-row kernel skips the longer rows; the group kernels write
 * them from a list of their indices. No measurement chose the thresholds:
 * 32 bounds the divergence of the common case at the cost of one warp
 * reduction for rows just above it, which are rare.
 *
 * Per term: witness values 0 are skipped, coefficients +1 and −1 (table
 * entries 0 and 1) cost one addition or subtraction, a witness value 1
 * adds the coefficient itself; only the rest multiplies. Every value is
 * fully reduced, so the sums are the CPU's bit for bit (r1cs/eval.c).
 *
 * The per-thread code is __host__ __device__ (the Fr operations of
 * ntt_fr.cuh): the host emulation runs it unchanged, each group of a long
 * row walked lane by lane and its partial sums added in lane order. It is
 * compiled once per curve (r1cs_eval_impl.cuh); this file holds what does
 * not depend on the field: the matrices' memory, the upload, the entry
 * points. */

#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_check.h"
#include "cuda/r1cs_eval_internal.cuh"

extern "C" const char *cuda_r1cs_last_error(void)
{
    return cuda_check_last();
}

/* A sink storing into out. */
static r1cs_sink sink_store(dfr_t *out)
{
    r1cs_sink s;
    memset(&s, 0, sizeof(s));
    s.mode = R1CS_SINK_STORE;
    s.out = out;
    return s;
}

/* ---- memory ---------------------------------------------------------------- */

static cuzk_status set_device(int device)
{
    if (device != CUDA_R1CS_HOST_EMULATION)
        CUDA_TRY(cudaSetDevice(device));
    return CUZK_OK;
}

static cuzk_status mem_alloc(int device, void **p, size_t bytes, uint64_t *total)
{
    *p = NULL;
    bytes = bytes ? bytes : 1;
    if (device == CUDA_R1CS_HOST_EMULATION) {
        *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
        if (!*p)
            return CUZK_ERR_OUT_OF_MEMORY;
    } else {
        CUDA_TRY(cudaMalloc(p, bytes));
    }
    *total += bytes;
    return CUZK_OK;
}

static void mem_free(int device, void *p)
{
    if (!p)
        return;
    if (device == CUDA_R1CS_HOST_EMULATION)
        free(p);
    else
        (void)cudaFree(p);
}

static cuzk_status copy_up(int device, void *dst, const void *src, size_t bytes)
{
    if (!bytes)
        return CUZK_OK;
    if (device == CUDA_R1CS_HOST_EMULATION)
        memcpy(dst, src, bytes);
    else
        CUDA_TRY(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    return CUZK_OK;
}

static cuzk_status upload(int device, void **dst, const void *src, size_t bytes, uint64_t *total)
{
    cuzk_status st = mem_alloc(device, dst, bytes, total);
    return st == CUZK_OK ? copy_up(device, *dst, src, bytes) : st;
}

/* ---- upload ----------------------------------------------------------------- */

/* Row pointers: as they are, or narrowed to u32 chunk by chunk. */
static cuzk_status upload_row_ptr(cuda_r1cs *r, r1cs_dev_matrix *m, const uint64_t *row_ptr)
{
    const size_t count = (size_t)r->rows + 1;
    if (m->ptr64)
        return upload(r->device, &m->row_ptr, row_ptr, count * sizeof(uint64_t), &r->bytes);
    cuzk_status st = mem_alloc(r->device, &m->row_ptr, count * sizeof(uint32_t), &r->bytes);
    const size_t chunk = count < R1CS_ROW_PTR_CHUNK ? count : R1CS_ROW_PTR_CHUNK;
    uint32_t *narrow = st == CUZK_OK ? (uint32_t *)malloc(chunk * sizeof(uint32_t)) : NULL;
    if (st == CUZK_OK && !narrow)
        st = CUZK_ERR_OUT_OF_MEMORY;
    for (size_t at = 0; at < count && st == CUZK_OK; at += chunk) {
        const size_t len = count - at < chunk ? count - at : chunk;
        for (size_t i = 0; i < len; i++)
            narrow[i] = (uint32_t)row_ptr[at + i];
        st = copy_up(r->device, (uint32_t *)m->row_ptr + at, narrow, len * sizeof(uint32_t));
    }
    free(narrow);
    return st;
}

/* The rows too long for one thread, by tier. */
static cuzk_status upload_tiers(cuda_r1cs *r, r1cs_dev_matrix *m, const uint64_t *row_ptr)
{
    uint32_t count[TIERS] = {0, 0};
    for (uint64_t i = 0; i < r->rows; i++) {
        const uint64_t len = row_ptr[i + 1] - row_ptr[i];
        if (len > R1CS_THREAD_MAX)
            count[len > R1CS_WARP_MAX ? TIER_BLOCK : TIER_WARP]++;
    }
    uint32_t *list[TIERS] = {NULL, NULL};
    cuzk_status st = CUZK_OK;
    for (int t = 0; t < TIERS; t++)
        if (count[t] && !(list[t] = (uint32_t *)malloc(count[t] * sizeof(uint32_t))))
            st = CUZK_ERR_OUT_OF_MEMORY;
    uint32_t fill[TIERS] = {0, 0};
    for (uint64_t i = 0; i < r->rows && st == CUZK_OK; i++) {
        const uint64_t len = row_ptr[i + 1] - row_ptr[i];
        if (len > R1CS_THREAD_MAX) {
            const int t = len > R1CS_WARP_MAX ? TIER_BLOCK : TIER_WARP;
            list[t][fill[t]++] = (uint32_t)i;
        }
    }
    for (int t = 0; t < TIERS && st == CUZK_OK; t++) {
        m->tier_count[t] = count[t];
        if (count[t])
            st = upload(r->device, (void **)&m->tier_rows[t], list[t], count[t] * sizeof(uint32_t),
                        &r->bytes);
    }
    for (int t = 0; t < TIERS; t++)
        free(list[t]);
    return st;
}

static cuzk_status upload_matrix(cuda_r1cs *r, r1cs_dev_matrix *m, const cuda_r1cs_matrix_src *src)
{
    m->nnz = src->nnz;
    m->ptr64 = src->nnz > UINT32_MAX;
    cuzk_status st =
        upload(r->device, (void **)&m->col, src->col, src->nnz * sizeof(uint32_t), &r->bytes);
    if (st == CUZK_OK)
        st = upload(r->device, &m->coeff, src->coeff, src->nnz * r->coeff_width, &r->bytes);
    if (st == CUZK_OK)
        st = upload_row_ptr(r, m, src->row_ptr);
    if (st == CUZK_OK)
        st = upload_tiers(r, m, src->row_ptr);
    return st;
}

extern "C" void cuda_r1cs_free(cuda_r1cs *r)
{
    if (!r)
        return;
    if (set_device(r->device) == CUZK_OK) {
        for (int k = 0; k < 3; k++) {
            r1cs_dev_matrix *m = &r->m[k];
            mem_free(r->device, m->row_ptr);
            mem_free(r->device, m->col);
            mem_free(r->device, m->coeff);
            for (int t = 0; t < TIERS; t++)
                mem_free(r->device, m->tier_rows[t]);
        }
        mem_free(r->device, r->table);
    }
    free(r);
}

extern "C" cuzk_status cuda_r1cs_upload(cuda_r1cs **out, int device, const cuda_r1cs_src *src)
{
    if (!out)
        return CUZK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!src || src->rows > UINT32_MAX || src->num_vars == 0 || src->num_vars > (1ull << 32) ||
        (src->coeff_width != 2 && src->coeff_width != 4) || src->num_coeffs < 2 || !src->coeffs ||
        (src->curve != CUDA_R1CS_BLS12_381 && src->curve != CUDA_R1CS_BN254))
        return CUZK_ERR_INVALID_ARGUMENT;
    const unsigned nm = src->c_is_ab ? 2 : 3;
    for (unsigned k = 0; k < nm; k++) {
        const cuda_r1cs_matrix_src *m = &src->m[k];
        if (!m->row_ptr || (m->nnz && (!m->col || !m->coeff)) || m->row_ptr[0] != 0 ||
            m->row_ptr[src->rows] != m->nnz)
            return CUZK_ERR_INVALID_ARGUMENT;
    }
    cuda_r1cs *r = (cuda_r1cs *)calloc(1, sizeof(*r));
    if (!r)
        return CUZK_ERR_OUT_OF_MEMORY;
    r->device = device;
    r->rows = src->rows;
    r->num_vars = src->num_vars;
    r->c_is_ab = src->c_is_ab != 0;
    r->coeff_width = src->coeff_width;
    r->num_matrices = nm;
    r->ops = src->curve == CUDA_R1CS_BN254 ? &r1cs_bn254_field_ops : &r1cs_bls12_381_field_ops;
    cuzk_status st = set_device(device);
    if (st == CUZK_OK)
        st = upload(device, (void **)&r->table, src->coeffs, src->num_coeffs * sizeof(dfr_t),
                    &r->bytes);
    for (unsigned k = 0; k < nm && st == CUZK_OK; k++)
        st = upload_matrix(r, &r->m[k], &src->m[k]);
    if (st != CUZK_OK) {
        cuda_r1cs_free(r);
        return st;
    }
    *out = r;
    return CUZK_OK;
}

extern "C" uint64_t cuda_r1cs_device_bytes(const cuda_r1cs *r)
{
    return r ? r->bytes : 0;
}

extern "C" uint64_t cuda_r1cs_eval_bytes(const cuda_r1cs *r)
{
    if (!r)
        return 0;
    uint64_t bytes = 0;
    for (unsigned k = 0; k < r->num_matrices; k++) {
        const r1cs_dev_matrix *m = &r->m[k];
        bytes += m->nnz * (sizeof(uint32_t) + r->coeff_width + sizeof(dfr_t)) +
                 (r->rows + 1) * (m->ptr64 ? 8 : 4);
    }
    return bytes + 3 * r->rows * sizeof(dfr_t) * 2; /* the outputs, written then read back */
}

/* ---- evaluation ------------------------------------------------------------- */

extern "C" cuzk_status cuda_r1cs_check_create(cuda_r1cs_check **out, int device)
{
    if (!out)
        return CUZK_ERR_INVALID_ARGUMENT;
    *out = NULL;
    cuda_r1cs_check *ck = (cuda_r1cs_check *)calloc(1, sizeof(*ck));
    if (!ck)
        return CUZK_ERR_OUT_OF_MEMORY;
    ck->device = device;
    cuzk_status st = set_device(device);
    uint64_t bytes = 0;
    if (st == CUZK_OK)
        st = mem_alloc(device, (void **)&ck->d_first_bad, sizeof(unsigned long long), &bytes);
    if (st == CUZK_OK && device == CUDA_R1CS_HOST_EMULATION) {
        if (!(ck->h_first_bad = (unsigned long long *)malloc(sizeof(unsigned long long))))
            st = CUZK_ERR_OUT_OF_MEMORY;
    } else if (st == CUZK_OK) {
        CUDA_CHECK(st, cudaMallocHost((void **)&ck->h_first_bad, sizeof(unsigned long long)));
    }
    if (st != CUZK_OK) {
        cuda_r1cs_check_free(ck);
        return st;
    }
    *out = ck;
    return CUZK_OK;
}

extern "C" void cuda_r1cs_check_free(cuda_r1cs_check *ck)
{
    if (!ck)
        return;
    if (set_device(ck->device) == CUZK_OK) {
        mem_free(ck->device, ck->d_first_bad);
        if (ck->device == CUDA_R1CS_HOST_EMULATION)
            free(ck->h_first_bad);
        else if (ck->h_first_bad)
            (void)cudaFreeHost(ck->h_first_bad);
    }
    free(ck);
}

/* The end of an evaluation with a check (st: how it went so far): the
 * lowest failing row back to the host, the stream waited for. */
static cuzk_status check_read(cuda_r1cs_check *ck, cudaStream_t s, cuzk_status st,
                              uint64_t *first_bad_row)
{
    CUDA_CHECK(st, cudaMemcpyAsync(ck->h_first_bad, ck->d_first_bad, sizeof(unsigned long long),
                                   cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(st, cudaStreamSynchronize(s));
    if (st == CUZK_OK)
        *first_bad_row = *ck->h_first_bad;
    return st;
}

extern "C" cuzk_status cuda_r1cs_eval(const cuda_r1cs *r, cuda_r1cs_check *ck, const void *d_w,
                                      void *const d_abc[3], void *stream, uint64_t *first_bad_row)
{
    if (!r || !ck || !d_w || !d_abc || !d_abc[0] || !d_abc[1] || !d_abc[2] || !first_bad_row ||
        ck->device != r->device)
        return CUZK_ERR_INVALID_ARGUMENT;
    *first_bad_row = CUDA_R1CS_ROW_NONE;
    dfr_t *abc[3] = {(dfr_t *)d_abc[0], (dfr_t *)d_abc[1], (dfr_t *)d_abc[2]};
    const dfr_t *w = (const dfr_t *)d_w;
    cudaStream_t s = (cudaStream_t)stream;
    cuzk_status st = set_device(r->device);
    if (st != CUZK_OK || r->rows == 0)
        return st;
    if (r->device == CUDA_R1CS_HOST_EMULATION) {
        *ck->h_first_bad = CUDA_R1CS_ROW_NONE;
        for (unsigned k = 0; k < r->num_matrices; k++)
            r->ops->matrix(r, &r->m[k], w, sink_store(abc[k]), s);
        r->ops->finish(r, abc, ck->h_first_bad, s);
        *first_bad_row = *ck->h_first_bad;
        return CUZK_OK;
    }
    CUDA_CHECK(st, cudaMemsetAsync(ck->d_first_bad, 0xff, sizeof(unsigned long long), s));
    for (unsigned k = 0; k < r->num_matrices && st == CUZK_OK; k++)
        st = r->ops->matrix(r, &r->m[k], w, sink_store(abc[k]), s);
    if (st == CUZK_OK)
        st = r->ops->finish(r, abc, ck->d_first_bad, s);
    return check_read(ck, s, st, first_bad_row);
}

extern "C" cuzk_status cuda_r1cs_eval_ab(const cuda_r1cs *r, cuda_r1cs_check *ck, const void *d_w,
                                         void *d_a, void *d_b, void *stream,
                                         uint64_t *first_bad_row)
{
    if (!r || !ck || !d_w || !d_a || !d_b || !first_bad_row || ck->device != r->device)
        return CUZK_ERR_INVALID_ARGUMENT;
    *first_bad_row = CUDA_R1CS_ROW_NONE;
    const dfr_t *w = (const dfr_t *)d_w;
    dfr_t *a = (dfr_t *)d_a, *b = (dfr_t *)d_b;
    cudaStream_t s = (cudaStream_t)stream;
    cuzk_status st = set_device(r->device);
    if (st != CUZK_OK || r->rows == 0)
        return st;
    /* C's rows compared with a·b as they are summed: c is never stored */
    r1cs_sink check;
    memset(&check, 0, sizeof(check));
    check.mode = R1CS_SINK_CHECK;
    check.a = a;
    check.b = b;
    check.bad = ck->d_first_bad;
    if (r->device == CUDA_R1CS_HOST_EMULATION) {
        *ck->d_first_bad = CUDA_R1CS_ROW_NONE;
        r->ops->matrix(r, &r->m[0], w, sink_store(a), s);
        r->ops->matrix(r, &r->m[1], w, sink_store(b), s);
        if (!r->c_is_ab)
            r->ops->matrix(r, &r->m[2], w, check, s);
        *first_bad_row = *ck->d_first_bad;
        return CUZK_OK;
    }
    CUDA_CHECK(st, cudaMemsetAsync(ck->d_first_bad, 0xff, sizeof(unsigned long long), s));
    if (st == CUZK_OK)
        st = r->ops->matrix(r, &r->m[0], w, sink_store(a), s);
    if (st == CUZK_OK)
        st = r->ops->matrix(r, &r->m[1], w, sink_store(b), s);
    if (st == CUZK_OK && !r->c_is_ab)
        st = r->ops->matrix(r, &r->m[2], w, check, s);
    return check_read(ck, s, st, first_bad_row);
}

extern "C" cuzk_status cuda_r1cs_eval_c(const cuda_r1cs *r, const void *d_w, void *d_c,
                                        void *stream)
{
    if (!r || !d_w || !d_c)
        return CUZK_ERR_INVALID_ARGUMENT;
    const dfr_t *w = (const dfr_t *)d_w;
    dfr_t *c = (dfr_t *)d_c;
    cudaStream_t s = (cudaStream_t)stream;
    cuzk_status st = set_device(r->device);
    if (st != CUZK_OK || r->rows == 0)
        return st;
    if (!r->c_is_ab)
        return r->ops->matrix(r, &r->m[2], w, sink_store(c), s);
    /* c = a·b: A·w stored, then multiplied by B·w row by row */
    r1cs_sink times = sink_store(c);
    times.mode = R1CS_SINK_MUL;
    st = r->ops->matrix(r, &r->m[0], w, sink_store(c), s);
    if (st == CUZK_OK)
        st = r->ops->matrix(r, &r->m[1], w, times, s);
    return st;
}
