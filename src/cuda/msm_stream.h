#ifndef CUZK_CUDA_MSM_STREAM_H
#define CUZK_CUDA_MSM_STREAM_H

/* MSMs over bases that stay in host memory: for a card whose memory does
 * not hold a circuit's parameters (a 16–24 GB card at 2^27), the points are
 * copied to the device in chunks, the copy of chunk i + 1 overlapped with
 * the MSM of chunk i, and the chunks' sums added on the host. The same
 * sums as over resident points (cuda/msm.h), the same calls per chunk.
 * Callable from C. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda/msm.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The double buffers chunks travel through: two staging buffers (host
 * layout) and two point buffers (a G2 chunk uses a G1 chunk's bytes), a
 * copy stream and its events. One per MSM context; calls on it are
 * serialized by the caller (the device's lock, or the one thread that
 * runs that context). */
typedef struct cuda_msm_streamer cuda_msm_streamer;

/* Buffers for chunks of chunk_points G1 points (G2 chunks hold half as
 * many, in the same bytes). Every chunk covers at most chunk_points scalars:
 * ctx needs max_n = chunk_points in both groups. */
cuzk_status cuda_msm_streamer_create(cuda_msm_ctx *ctx, size_t chunk_points,
                                     cuda_msm_streamer **out);
void cuda_msm_streamer_destroy(cuda_msm_streamer *s);
/* How a plain MSM (not split, no bitmap) over chunks runs: shared (the
 * default) adds every chunk into one set of buckets planned for the whole
 * size and reduces once; otherwise each chunk is a Pippenger of its own
 * and the chunks' sums are added on the host. For measuring the two. */
void cuda_msm_streamer_set_shared_buckets(cuda_msm_streamer *s, bool shared);
size_t cuda_msm_streamer_device_bytes(const cuda_msm_streamer *s);
/* Device bytes a streamer of chunk_points would take. */
size_t cuda_msm_streamer_bytes_for(size_t chunk_points);

/* One query's bases cut into chunks that fit the streamer's buffers: at
 * most its chunk of points and of scalars each (so an MSM context sized
 * for a chunk serves every call). With a density bitmap over n_scalars
 * variables (cuda_msm_density_upload's layout) the chunks end at multiples
 * of 64 variables and carry their slice of the bitmap to the device.
 * The leading chunks holding at most resident_points points are uploaded
 * now and stay (no copy per MSM; SIZE_MAX: all of them, 0: none); the
 * rest stay in host memory (borrowed: it must outlive the handle),
 * registered for DMA where the driver allows it (page-locked in place;
 * otherwise the copies go through the driver's own staging, slower). A
 * part of the bases resident saves its copy on every MSM: what a budget
 * leaves after whole parts goes to a part's leading chunks. Synchronous. */
typedef struct cuda_msm_streamed cuda_msm_streamed;
cuzk_status cuda_msm_streamed_create(cuda_msm_streamer *s, cuda_msm_group group,
                                     const void *host_points, size_t num_points,
                                     const uint64_t *density, size_t n_scalars,
                                     size_t resident_points, cuda_msm_streamed **out);
void cuda_msm_streamed_free(cuda_msm_streamed *b);
size_t cuda_msm_streamed_chunks(const cuda_msm_streamed *b);
/* The points of the resident chunks (whole chunks: at most resident_points). */
size_t cuda_msm_streamed_resident_points(const cuda_msm_streamed *b);
/* Device bytes of the chunks' bitmaps (and points, when resident). */
size_t cuda_msm_streamed_device_bytes(const cuda_msm_streamed *b);

/* cuda_msm_points_check_subgroup over the streamed bases, chunk by chunk
 * through the streamer's buffers: *first_bad = the index of the first
 * point outside the subgroup, SIZE_MAX when none is. Synchronous. */
cuzk_status cuda_msm_streamed_check_subgroup(cuda_msm_streamer *s, const cuda_msm_streamed *b,
                                             size_t *first_bad);

/* The MSM of the n_scalars device scalars over the streamed bases: plain
 * Pippenger (split false) or the 0/1 split (cuda_msm_g1_split or, with a
 * density, cuda_msm_g1_dense), chunk by chunk on the context's stream.
 * Waits for the result: out is a g1_jac or g2_jac by group. */
cuzk_status cuda_msm_streamed_run(cuda_msm_streamer *s, const cuda_msm_streamed *b,
                                  const struct fr *d_scalars, size_t n_scalars, bool split,
                                  void *out);

#ifdef __cplusplus
}
#endif

#endif
