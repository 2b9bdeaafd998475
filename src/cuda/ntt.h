#ifndef CUZK_CUDA_NTT_H
#define CUZK_CUDA_NTT_H

/* Number-theoretic transforms over Fr and the Groth16 quotient h on the GPU,
 * callable from C. Vectors live in device memory as the CPU's fr_t (eight
 * 32-bit words per element, Montgomery form, fully reduced); results are bit
 * for bit those of poly/ntt.h (ntt_transform, order NTT_NN) and
 * poly/quotient.h (poly_compute_h, poly_h_coset_evals) for the same roots.
 * With the option curve = CUDA_NTT_BN254 the field is BN254's Fr: vectors of
 * bn254_fr_t, results those of poly/bn254_ntt.h and poly/bn254_quotient.h.
 *
 * A context (one device, a largest size, a root choice) owns the scratch
 * memory and a cache of domains (the twiddle tables of one size, made on
 * the device and kept there). Transforms allocate nothing once their
 * domain is prepared; they queue kernels on the given stream (a
 * cudaStream_t passed as void *, NULL for the default stream) and return
 * without waiting. A context may be used by one host thread at a time.
 *
 * Device CUDA_NTT_HOST_EMULATION runs the same kernel code on the host, one
 * thread, with "device" memory in host memory: for tests without a GPU.
 *
 * On CUZK_ERR_DEVICE, cuda_ntt_last_error() says which CUDA call failed,
 * where, and why. Built only with CUDA (CUZK_HAVE_CUDA). */

#include <stddef.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fr; /* fr_t of field/fr.h (not included: see field_test.h) */

#define CUDA_NTT_MAX_LOG 28u
#define CUDA_NTT_HOST_EMULATION (-1)

/* Which 2^32-th root of unity (poly/domain.h, domain_roots). */
typedef enum cuda_ntt_roots {
    CUDA_NTT_ROOTS_BELLMAN, /* 7^t */
    CUDA_NTT_ROOTS_SNARKJS  /* 5^t */
} cuda_ntt_roots;

typedef enum cuda_ntt_direction { CUDA_NTT_FORWARD, CUDA_NTT_INVERSE } cuda_ntt_direction;

/* Coset: forward evaluates at g w^i, inverse undoes it; g = 7. */
typedef enum cuda_ntt_coset { CUDA_NTT_STANDARD, CUDA_NTT_COSET } cuda_ntt_coset;

/* The coset of the quotient (poly/quotient.h, poly_h_coset). */
typedef enum cuda_h_coset {
    CUDA_H_COSET_GENERATOR, /* s = 7 (bellman) */
    CUDA_H_COSET_2N_ROOT    /* s = w_2n (snarkjs) */
} cuda_h_coset;

/* The field: Fr of a curve (the values of curve/curve_id.h's curve_id). */
typedef enum cuda_ntt_curve {
    CUDA_NTT_BLS12_381, /* r − 1 = 2^32 · t */
    CUDA_NTT_BN254      /* r − 1 = 2^28 · t: sizes up to 2^28; no 2n-th root coset at 2^28 */
} cuda_ntt_curve;

/* Options for domains; zeros give the defaults. */
#define CUDA_NTT_TWIDDLES_COMPACT 1u /* no n-entry twiddle table: products of two small ones */
typedef struct cuda_ntt_options {
    unsigned flags;          /* CUDA_NTT_TWIDDLES_COMPACT */
    unsigned max_pass_log;   /* radix-2 stages per pass, 3..9 (default 9) */
    unsigned max_single_log; /* largest size done in one pass, 0..11 (default 11) */
    cuda_ntt_curve curve;    /* whose Fr (default BLS12-381's); vectors are its elements */
} cuda_ntt_options;

typedef struct cuda_ntt_domain cuda_ntt_domain;
typedef struct cuda_ntt_ctx cuda_ntt_ctx;

/* ---- domains ------------------------------------------------------------ */

/* Makes the tables of size 2^log_n (log_n <= CUDA_NTT_MAX_LOG) on `device`
 * and waits for them. Memory: about 2^log_n · 32 bytes (the first pass's
 * twiddles) plus a few MiB, or only the few MiB with
 * CUDA_NTT_TWIDDLES_COMPACT (which costs one more multiplication per element
 * in the first pass). opt may be NULL. */
cuzk_status cuda_ntt_domain_create(cuda_ntt_domain **dom, int device, unsigned log_n,
                                   cuda_ntt_roots roots, const cuda_ntt_options *opt);
void cuda_ntt_domain_destroy(cuda_ntt_domain *dom);
/* Device memory the domain holds. */
size_t cuda_ntt_domain_bytes(const cuda_ntt_domain *dom);

/* ---- contexts ----------------------------------------------------------- */

/* A context for sizes up to 2^max_log_n: allocates max_batch vectors of
 * scratch for the natural-order transforms above 2^11 (max_batch vectors
 * of one cuda_ntt_batch call run together). The quotient needs none:
 * max_batch 0 allocates none, and cuda_ntt above 2^11 then returns
 * CUZK_ERR_UNSUPPORTED. opt applies to the domains it makes; may be NULL. */
cuzk_status cuda_ntt_ctx_create(cuda_ntt_ctx **ctx, int device, unsigned max_log_n,
                                unsigned max_batch, cuda_ntt_roots roots,
                                const cuda_ntt_options *opt);
void cuda_ntt_ctx_destroy(cuda_ntt_ctx *ctx);

/* Makes and caches the domain of size 2^log_n (allocates; waits). Any
 * transform of a size not yet prepared prepares it first. */
cuzk_status cuda_ntt_ctx_prepare(cuda_ntt_ctx *ctx, unsigned log_n);
/* Device memory the context holds: its scratch and its domains. */
size_t cuda_ntt_ctx_device_bytes(const cuda_ntt_ctx *ctx);

/* ---- transforms --------------------------------------------------------- */

/* In place on d_data (2^log_n elements, 16-byte aligned), natural order in
 * and out: ntt_transform(..., NTT_NN, dir, coset). */
cuzk_status cuda_ntt(cuda_ntt_ctx *ctx, void *d_data, unsigned log_n, cuda_ntt_direction dir,
                     cuda_ntt_coset coset, void *stream);

/* The same on count vectors, several per launch. */
cuzk_status cuda_ntt_batch(cuda_ntt_ctx *ctx, void *const *d_data, unsigned count, unsigned log_n,
                           cuda_ntt_direction dir, cuda_ntt_coset coset, void *stream);

/* The Groth16 quotient (poly_compute_h). d_a, d_b, d_c hold 2^log_n
 * elements each, the first m of them the evaluations of A w, B w, C w in
 * natural order (the rest is read as zero). Out: d_a = h_0 .. h_{n-1};
 * d_b, d_c clobbered. */
cuzk_status cuda_compute_h(cuda_ntt_ctx *ctx, void *d_a, void *d_b, void *d_c, size_t m,
                           unsigned log_n, cuda_h_coset coset, void *stream);

/* Its first half (poly_h_coset_evals): d_a = a b - c on the coset, natural
 * order, not divided by Z. */
cuzk_status cuda_h_coset_evals(cuda_ntt_ctx *ctx, void *d_a, void *d_b, void *d_c, size_t m,
                               unsigned log_n, cuda_h_coset coset, void *stream);

/* The same with two vectors instead of three, for tight device budgets
 * (one vector of 2^log_n less: 4.3 GB at 2^27). d_a and d_b hold a and b
 * on entry (their first m rows; the rest is read as zero); fill_c is
 * called once d_b's contents are no longer needed, on the calling thread,
 * to queue on `stream` the writing of c's first m rows into it. Out, as
 * above: d_a = h (cuda_compute_h_lean) or a b - c on the coset
 * (cuda_h_coset_evals_lean); d_b clobbered. A failure of fill_c is
 * returned as it is. */
typedef cuzk_status (*cuda_h_fill_fn)(void *arg, void *d_c);
cuzk_status cuda_compute_h_lean(cuda_ntt_ctx *ctx, void *d_a, void *d_b, size_t m, unsigned log_n,
                                cuda_h_coset coset, cuda_h_fill_fn fill_c, void *fill_arg,
                                void *stream);
cuzk_status cuda_h_coset_evals_lean(cuda_ntt_ctx *ctx, void *d_a, void *d_b, size_t m,
                                    unsigned log_n, cuda_h_coset coset, cuda_h_fill_fn fill_c,
                                    void *fill_arg, void *stream);

/* ---- buffers (for tests and tools) -------------------------------------- */

cuzk_status cuda_ntt_alloc(cuda_ntt_ctx *ctx, void **d_vec, size_t n);
void cuda_ntt_free(cuda_ntt_ctx *ctx, void *d_vec);
/* Copies n elements; stream-ordered; cuda_ntt_sync waits for them. */
cuzk_status cuda_ntt_upload(cuda_ntt_ctx *ctx, void *d_dst, const struct fr *src, size_t n,
                            void *stream);
cuzk_status cuda_ntt_download(cuda_ntt_ctx *ctx, struct fr *dst, const void *d_src, size_t n,
                              void *stream);
cuzk_status cuda_ntt_sync(cuda_ntt_ctx *ctx, void *stream);

/* "expression@file:line: message" of this thread's last failed CUDA call
 * ("" when none failed). */
const char *cuda_ntt_last_error(void);

/* Host emulation diagnostics, counted over every emulated pass since the
 * last reset: shared-memory races (two threads touching one 16-byte chunk
 * between two barriers, one of them writing), block hazards (two blocks of
 * one launch touching one vector element, one of them writing) and bank
 * conflicts (extra shared-memory wavefronts of 16-byte accesses, eight
 * lanes per phase). */
typedef struct cuda_ntt_emu_stats {
    unsigned long long passes, races, hazards, accesses, extra_wavefronts;
} cuda_ntt_emu_stats;
void cuda_ntt_emu_stats_get(cuda_ntt_emu_stats *stats, int reset);

#ifdef __cplusplus
}
#endif

#endif
