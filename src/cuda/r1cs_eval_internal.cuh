#ifndef CUZK_CUDA_R1CS_EVAL_INTERNAL_CUH
#define CUZK_CUDA_R1CS_EVAL_INTERNAL_CUH

/* Inside the device evaluation (r1cs_eval.h): the objects behind the API
 * (r1cs_eval.cu: memory, upload, the entry points) and the interface to
 * the part compiled once per curve (r1cs_eval_impl.cuh: the per-thread
 * code, the kernels, the host emulation). */

#include <cuda_runtime.h>
#include <stdint.h>

#include "cuda/ff_fr.cuh"
#include "cuda/r1cs_eval.h"

#define R1CS_HD static __host__ __device__ __forceinline__
#define R1CS_THREAD_MAX 32u
#define R1CS_WARP_MAX 1024u
#define R1CS_BLOCK 256u
#define R1CS_ROW_PTR_CHUNK ((size_t)1 << 20) /* entries narrowed per copy */

enum { TIER_WARP = 0, TIER_BLOCK = 1, TIERS = 2 };

typedef struct r1cs_dev_matrix {
    void *row_ptr; /* uint32_t, or uint64_t when ptr64 */
    uint32_t *col;
    void *coeff; /* uint16_t or uint32_t */
    uint64_t nnz;
    bool ptr64;
    uint32_t *tier_rows[TIERS]; /* rows of each group tier */
    uint32_t tier_count[TIERS];
} r1cs_dev_matrix;

struct cuda_r1cs {
    int device;
    uint64_t rows, num_vars;
    bool c_is_ab;
    unsigned coeff_width;
    dfr_t *table;
    const struct r1cs_field_ops *ops; /* the curve's (cuda_r1cs_src.curve) */
    r1cs_dev_matrix m[3];
    unsigned num_matrices; /* 2 when c_is_ab */
    uint64_t bytes;
};

struct cuda_r1cs_check {
    int device;
    unsigned long long *d_first_bad;
    unsigned long long *h_first_bad; /* page-locked on a GPU */
};

/* Where the sums of a matrix's rows go. */
enum { R1CS_SINK_STORE = 0, R1CS_SINK_MUL = 1, R1CS_SINK_CHECK = 2 };
typedef struct r1cs_sink {
    int mode;
    dfr_t *out;              /* STORE: out[row] = sum; MUL: out[row] = out[row]·sum */
    const dfr_t *a, *b;      /* CHECK: a row with a[row]·b[row] ≠ sum lowers *bad to it */
    unsigned long long *bad; /* device memory (host memory in the emulation) */
} r1cs_sink;

/* One curve's evaluation (r1cs_eval_impl.cuh). */
typedef struct r1cs_field_ops {
    /* The sums of m's rows (w: the witness) into sink, on `stream` or
     * emulated on the host. */
    cuzk_status (*matrix)(const cuda_r1cs *r, const r1cs_dev_matrix *m, const dfr_t *w,
                          const r1cs_sink &sink, cudaStream_t stream);
    /* After a, b, c: c = a·b (c_is_ab) or the lowest row with a·b ≠ c into
     * *first_bad (device memory; host memory in the emulation, where it
     * only lowers it). */
    cuzk_status (*finish)(const cuda_r1cs *r, dfr_t *const abc[3], unsigned long long *first_bad,
                          cudaStream_t stream);
} r1cs_field_ops;

extern const r1cs_field_ops r1cs_bls12_381_field_ops; /* r1cs_eval_kernels.cu */
extern const r1cs_field_ops r1cs_bn254_field_ops;     /* r1cs_bn254_eval_kernels.cu */

#endif
