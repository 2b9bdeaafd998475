#ifndef CUZK_CUDA_MSM_H
#define CUZK_CUDA_MSM_H

/* Multi-scalar multiplication on the GPU: out = Σ [k_i] P_i over G1 or G2,
 * the device counterpart of msm/msm.h (same inputs, same results).
 *
 * Model:
 *  - a context (cuda_msm_ctx) owns one device's scratch, sized once at
 *    creation for the largest MSM of each group; MSM calls allocate nothing;
 *  - bases are uploaded once (cuda_msm_points) and stay resident; a
 *    density bitmap likewise (cuda_msm_density);
 *  - an MSM call takes its scalars (Fr, Montgomery form: fr_t) from device
 *    memory or from host memory (pinned for a fully asynchronous call), runs
 *    entirely on the device (Pippenger with signed digits, counting sort of
 *    (bucket, point) pairs, load-balanced XYZZ bucket accumulation, parallel
 *    bucket reduction, window combination) and copies one Jacobian point
 *    back. Calls are stream ordered: they return once the work is enqueued
 *    on `stream` (NULL: the context's own stream); *out is valid after
 *    cuda_msm_wait(ctx) or a synchronization of that stream. When out (or
 *    the host scalars) are pageable memory, the CUDA runtime makes the
 *    copy, and so the call, synchronous.
 *  - one context serves one host thread and one stream at a time: a call
 *    on another stream first waits for the context's previous call (an
 *    event, on the device). Use one context per concurrent worker.
 *
 * The split variants mirror msm_g1_split / msm_g1_dense: zeros are dropped,
 * the points of the scalars equal to one are summed by a tree of point
 * additions, and Pippenger runs over the rest, compacted on the device.
 * They read the count of the rest back and size the Pippenger's windows
 * for it, so the host waits inside the call until the scalars are
 * classified (and so for the work queued on the stream before the call);
 * the rest of the call is queued like the others'.
 *
 * Host types are named by their struct tags (g1_affine_t is struct
 * g1_affine, ...: curve/g1.h, g2.h, field/fr.h); their layouts are checked
 * against the CUDA_MSM_* sizes below (msm_layout.c).
 *
 * Errors: CUZK_ERR_INVALID_ARGUMENT (NULL where an object is needed, n above
 * the context's maximum or the handle's size, a group mismatch, a density
 * whose size or popcount does not match), CUZK_ERR_OUT_OF_MEMORY (host),
 * CUZK_ERR_DEVICE (a CUDA call failed, including asynchronous kernel errors
 * reported by cuda_msm_wait: cuda_msm_last_error() says which call, where
 * and why). On error *out is not written. Built only with CUDA
 * (CUZK_HAVE_CUDA). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct g1_jac;
struct g2_jac;
struct fr;
struct CUstream_st; /* cudaStream_t is struct CUstream_st * */

/* Host layouts the device reads and writes (checked in msm_layout.c). */
#define CUDA_MSM_G1_AFFINE_BYTES 104 /* g1_affine_t: x, y (48 each), bool at 96 */
#define CUDA_MSM_G2_AFFINE_BYTES 200 /* g2_affine_t: x, y (96 each), bool at 192 */
#define CUDA_MSM_G1_JAC_BYTES 144    /* g1_jac_t */
#define CUDA_MSM_G2_JAC_BYTES 288    /* g2_jac_t */
#define CUDA_MSM_G1_XYZZ_BYTES 192   /* g1_xyzz_t: x, y, zz, zzz */
#define CUDA_MSM_G2_XYZZ_BYTES 384   /* g2_xyzz_t */
#define CUDA_MSM_FR_BYTES 32         /* fr_t, and bn254_fr_t */
/* BN254's (curve/bn254_curve.h): bn254_g1_affine_t, bn254_g2_affine_t, ... */
#define CUDA_MSM_BN254_G1_AFFINE_BYTES 72  /* x, y (32 each), bool at 64 */
#define CUDA_MSM_BN254_G2_AFFINE_BYTES 136 /* x, y (64 each), bool at 128 */
#define CUDA_MSM_BN254_G1_JAC_BYTES 96
#define CUDA_MSM_BN254_G2_JAC_BYTES 192
#define CUDA_MSM_BN254_G1_XYZZ_BYTES 128
#define CUDA_MSM_BN254_G2_XYZZ_BYTES 256

/* A group names its curve: the points, the scalars (fr_t or bn254_fr_t)
 * and the result (g1_jac_t, bn254_g1_jac_t, ...) are that curve's. One
 * context serves groups of both curves. */
typedef enum cuda_msm_group {
    CUDA_MSM_G1, /* BLS12-381 */
    CUDA_MSM_G2,
    CUDA_MSM_BN254_G1,
    CUDA_MSM_BN254_G2,
    CUDA_MSM_GROUP_COUNT
} cuda_msm_group;

/* The group of a curve (curve/curve_id.h's curve_id: 0 BLS12-381, 1
 * BN254): G1, or G2 when g2. */
static inline cuda_msm_group cuda_msm_group_of(int curve, int g2)
{
    return (cuda_msm_group)((curve ? CUDA_MSM_BN254_G1 : CUDA_MSM_G1) + (g2 ? 1 : 0));
}

/* Bytes of one XYZZ bucket, and of one Jacobian result, of the group. */
static inline size_t cuda_msm_xyzz_bytes(cuda_msm_group group)
{
    static const size_t bytes[CUDA_MSM_GROUP_COUNT] = {
        CUDA_MSM_G1_XYZZ_BYTES, CUDA_MSM_G2_XYZZ_BYTES, CUDA_MSM_BN254_G1_XYZZ_BYTES,
        CUDA_MSM_BN254_G2_XYZZ_BYTES};
    return bytes[group];
}

static inline size_t cuda_msm_jac_bytes(cuda_msm_group group)
{
    static const size_t bytes[CUDA_MSM_GROUP_COUNT] = {CUDA_MSM_G1_JAC_BYTES, CUDA_MSM_G2_JAC_BYTES,
                                                       CUDA_MSM_BN254_G1_JAC_BYTES,
                                                       CUDA_MSM_BN254_G2_JAC_BYTES};
    return bytes[group];
}

typedef struct cuda_msm_ctx cuda_msm_ctx;
typedef struct cuda_msm_points cuda_msm_points;
typedef struct cuda_msm_density cuda_msm_density;

typedef struct cuda_msm_config {
    int device;
    /* The largest MSM (number of scalars) per group; 0: the group is not
     * used. At most CUDA_MSM_MAX_N. */
    size_t max_n[CUDA_MSM_GROUP_COUNT];
    /* 0: scratch fits the window sizes the context picks itself. Otherwise
     * it also fits every window size up to this many bits at max_n (for
     * cuda_msm_set_window_bits; costs memory: 2^(c−1) buckets per window). */
    unsigned max_window_bits;
    /* (bucket, point) pairs sorted at once; windows are processed in
     * batches that fit. 0: CUDA_MSM_DEFAULT_BATCH_ENTRIES. Never below
     * max_n. Four bytes each. */
    size_t max_batch_entries;
    /* 0, or the largest window a plain MSM that msm_stream.h runs over
     * chunks of at most max_n scalars into one set of buckets may use
     * (it takes the one its whole size wants, up to this): scratch for
     * its buckets too, cuda_msm_bucket_bytes(group, bits). */
    unsigned chunked_window_bits[CUDA_MSM_GROUP_COUNT];
    /* Blocks of the bucket accumulation left free on every SM (at least
     * one block an SM still runs): room where another context's kernels
     * run while this one's accumulation, whose blocks each last the whole
     * kernel, holds the device. 0: the accumulation fills the SMs. */
    unsigned acc_reserve_blocks;
    /* The context's stream at the device's highest priority: its kernels
     * take the SMs' free room before those of streams of lower priority. */
    bool high_priority;
} cuda_msm_config;

/* Device bytes of the buckets of every window at window size c. */
static inline size_t cuda_msm_bucket_bytes(cuda_msm_group group, unsigned c)
{
    const size_t windows = (256 + c - 1) / c;
    return windows * ((size_t)1 << (c - 1)) * cuda_msm_xyzz_bytes(group);
}

#define CUDA_MSM_MAX_N ((size_t)1 << 30)
#define CUDA_MSM_DEFAULT_BATCH_ENTRIES ((size_t)1 << 28)
#define CUDA_MSM_MIN_WINDOW_BITS 4u
#define CUDA_MSM_MAX_WINDOW_BITS 24u

/* Creates a context on cfg->device: a stream, an event, and every scratch
 * buffer (cuda_msm_ctx_device_bytes says how much). */
cuzk_status cuda_msm_ctx_create(cuda_msm_ctx **out, const cuda_msm_config *cfg);
/* Waits for the context's work and frees it. NULL is a no-op. */
void cuda_msm_ctx_destroy(cuda_msm_ctx *ctx);
size_t cuda_msm_ctx_device_bytes(const cuda_msm_ctx *ctx);

/* Uploads n affine points (g1_affine_t, g2_affine_t, bn254_g1_affine_t or
 * bn254_g2_affine_t by group; infinity allowed) to the context's device.
 * The handle may serve any context on that device; free it after the last
 * MSM that uses it has finished. Synchronous. */
cuzk_status cuda_msm_points_upload(cuda_msm_ctx *ctx, cuda_msm_group group, const void *host_points,
                                   size_t n, cuda_msm_points **out);
void cuda_msm_points_free(cuda_msm_points *points);
/* A handle with room for `capacity` points and none in it yet: the device
 * buffer of bases streamed in chunks (cuda_msm_points_load_async).
 * Synchronous. */
cuzk_status cuda_msm_points_alloc(cuda_msm_ctx *ctx, cuda_msm_group group, size_t capacity,
                                  cuda_msm_points **out);
/* Bytes a staging buffer needs for n points of the group in their host
 * layout (g1_affine_t or g2_affine_t). */
size_t cuda_msm_points_host_bytes(cuda_msm_group group, size_t n);
/* Replaces the handle's points by n host points (n at most its capacity),
 * in the order of `stream`: a copy into `staging` (device memory of
 * cuda_msm_points_host_bytes(group, n) bytes at least), then the
 * conversion into the handle. The handle's count is n from this call on:
 * MSMs enqueued later on other streams must wait for `stream` (an event).
 * host_points should be pinned or registered (cudaHostRegister) for the
 * copy to overlap other work. */
cuzk_status cuda_msm_points_load_async(cuda_msm_points *points, const void *host_points, size_t n,
                                       void *staging, struct CUstream_st *stream);
size_t cuda_msm_points_count(const cuda_msm_points *points);

/* Whether every point of the handle lies in the order-r subgroup, tested
 * on the device (Scott's endomorphism tests, as g1_affine_in_subgroup and
 * g2_affine_in_subgroup on the host, about a thousand Fp multiplications a
 * point; BN254's G1 has cofactor 1 and nothing to test, its G2 is tested
 * by [r]P = O, about 380 point operations a point): *first_bad = the index
 * of the first point that does not, or SIZE_MAX when all do (infinity
 * does). The points must be on the curve (the host decoder's cheap
 * check); off the curve the answer means nothing. Synchronous. */
cuzk_status cuda_msm_points_check_subgroup(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                                           size_t *first_bad);

/* Uploads a density bitmap of n_bits variables (r1cs/density.h's layout:
 * bit i is word i / 64, bit i % 64): variable i has a point iff its bit is
 * set, the points in variable order. Synchronous. */
cuzk_status cuda_msm_density_upload(cuda_msm_ctx *ctx, const uint64_t *bits, size_t n_bits,
                                    cuda_msm_density **out);
void cuda_msm_density_free(cuda_msm_density *density);
/* The number of set bits: the number of points the density selects. */
size_t cuda_msm_density_count(const cuda_msm_density *density);

/* Plain Pippenger over the first n points of `points` and n scalars. */
cuzk_status cuda_msm_g1(cuda_msm_ctx *ctx, const cuda_msm_points *points, const struct fr *scalars,
                        size_t n, struct g1_jac *out, struct CUstream_st *stream);
cuzk_status cuda_msm_g2(cuda_msm_ctx *ctx, const cuda_msm_points *points, const struct fr *scalars,
                        size_t n, struct g2_jac *out, struct CUstream_st *stream);

/* The same for any group: scalars of the group's curve, out its Jacobian
 * point (g1_jac_t, g2_jac_t, bn254_g1_jac_t or bn254_g2_jac_t). */
cuzk_status cuda_msm(cuda_msm_ctx *ctx, cuda_msm_group group, const cuda_msm_points *points,
                     const void *scalars, size_t n, void *out, struct CUstream_st *stream);

/* The same for witness-shaped scalars (mostly 0 and 1): the split. */
cuzk_status cuda_msm_g1_split(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                              const struct fr *scalars, size_t n, struct g1_jac *out,
                              struct CUstream_st *stream);
cuzk_status cuda_msm_g2_split(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                              const struct fr *scalars, size_t n, struct g2_jac *out,
                              struct CUstream_st *stream);

cuzk_status cuda_msm_split(cuda_msm_ctx *ctx, cuda_msm_group group, const cuda_msm_points *points,
                           const void *scalars, size_t n, void *out, struct CUstream_st *stream);

/* The split over a density-filtered query (msm_g1_dense): scalars are the
 * values of all n_scalars variables, `points` holds (at least) the
 * cuda_msm_density_count(density) points of the variables whose bit is
 * set; density covers exactly n_scalars variables. density = NULL is
 * cuda_msm_g1_split. */
cuzk_status cuda_msm_g1_dense(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                              const struct fr *scalars, size_t n_scalars,
                              const cuda_msm_density *density, struct g1_jac *out,
                              struct CUstream_st *stream);
cuzk_status cuda_msm_g2_dense(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                              const struct fr *scalars, size_t n_scalars,
                              const cuda_msm_density *density, struct g2_jac *out,
                              struct CUstream_st *stream);

cuzk_status cuda_msm_dense(cuda_msm_ctx *ctx, cuda_msm_group group, const cuda_msm_points *points,
                           const void *scalars, size_t n_scalars, const cuda_msm_density *density,
                           void *out, struct CUstream_st *stream);

/* Waits for the context's last call; reports errors raised by its kernels. */
cuzk_status cuda_msm_wait(cuda_msm_ctx *ctx);

/* Fixes the window size for later MSMs of a group (tests, tuning): c in
 * [CUDA_MSM_MIN_WINDOW_BITS, CUDA_MSM_MAX_WINDOW_BITS], 0 to let the
 * context choose again. A call whose window does not fit the scratch
 * fails with CUZK_ERR_INVALID_ARGUMENT (see max_window_bits). */
cuzk_status cuda_msm_set_window_bits(cuda_msm_ctx *ctx, cuda_msm_group group, unsigned c);
/* The window size an MSM of n scalars would use. */
unsigned cuda_msm_window_bits(const cuda_msm_ctx *ctx, cuda_msm_group group, size_t n);

/* "expression@file:line: message" of this thread's last failed CUDA call
 * ("" when none failed). */
const char *cuda_msm_last_error(void);

/* ---- test and benchmark support ---------------------------------------- */

/* n points made on the device: point i = [a + i·d]·base, base an affine
 * point of the group (host memory, its host layout), a and d canonical
 * little-endian integers below r. The points are distinct when d ≠ 0 and
 * a + i·d ≢ 0 mod r for i < n, so Σ k_i·P_i = [Σ k_i·(a + i·d)]·base gives
 * an independent check of any MSM over them. Synchronous. */
cuzk_status cuda_msm_points_generate(cuda_msm_ctx *ctx, cuda_msm_group group, const void *host_base,
                                     const uint64_t a[4], const uint64_t d[4], size_t n,
                                     cuda_msm_points **out);
/* Copies the first n points of a handle back (host layout, infinity as the
 * flag). Synchronous. */
cuzk_status cuda_msm_points_download(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                                     void *host_points, size_t n);

typedef enum cuda_msm_scalar_kind {
    CUDA_MSM_SCALARS_RANDOM,       /* uniform in Fr (as Montgomery forms) */
    CUDA_MSM_SCALARS_ZERO_ONE,     /* 0 or 1, each with probability 1/2 */
    CUDA_MSM_SCALARS_BN254_RANDOM, /* the same in BN254's Fr */
    CUDA_MSM_SCALARS_BN254_ZERO_ONE,
} cuda_msm_scalar_kind;

/* Fills n scalars in device memory from a seed (a hash of seed and index:
 * the same on every device), in stream order. */
cuzk_status cuda_msm_scalars_fill(cuda_msm_ctx *ctx, struct fr *device_scalars, size_t n,
                                  uint64_t seed, cuda_msm_scalar_kind kind,
                                  struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif
