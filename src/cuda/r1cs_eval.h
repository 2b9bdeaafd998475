#ifndef CUZK_CUDA_R1CS_EVAL_H
#define CUZK_CUDA_R1CS_EVAL_H

/* Constraint evaluation on the GPU: a = A·w, b = B·w, c = C·w from a
 * compiled constraint system (r1cs/r1cs.h) kept resident on one device, so
 * that per partition only the witness crosses PCIe. Results are bit for
 * bit those of r1cs_eval (and r1cs_mul_rows for c = a·b).
 *
 * The matrices are uploaded once (cuda_r1cs_upload): the coefficient
 * table, the u32 columns, the u16 or u32 coefficient indices as they are,
 * and the row pointers narrowed to u32 when a matrix has fewer than 2^32
 * nonzeros (always the case up to PoRep size: 2^27 rows of a few terms;
 * it saves 4 bytes a row and matrix, 1.5 GiB at 2^27), else kept u64.
 *
 * An evaluation (cuda_r1cs_eval) writes the first `rows` elements of three
 * device vectors and nothing beyond: the quotient (cuda/ntt.h) reads the
 * rest as zero. Where C is given, the exact check a_i·b_i = c_i runs on
 * every row and the lowest failing row is returned; where C is defined as
 * the product (snarkjs keys), c = a·b is stored instead.
 *
 * Device CUDA_R1CS_HOST_EMULATION runs the same per-thread code on the
 * host, with "device" memory in host memory and the thread groups of the
 * long rows walked lane by lane: for tests without a GPU.
 *
 * On CUZK_ERR_DEVICE, cuda_r1cs_last_error() says which CUDA call failed,
 * where, and why. Built only with CUDA (CUZK_HAVE_CUDA). */

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fr; /* fr_t of field/fr.h (not included: see field_test.h) */

#define CUDA_R1CS_HOST_EMULATION (-1)
#define CUDA_R1CS_ROW_NONE UINT64_MAX /* R1CS_ROW_NONE of r1cs/r1cs.h */

/* One matrix as r1cs_matrix holds it (host memory, borrowed for the
 * upload only). */
typedef struct cuda_r1cs_matrix_src {
    const uint64_t *row_ptr; /* rows + 1 entries */
    const uint32_t *col;     /* nnz */
    const void *coeff;       /* nnz table indices, coeff_width bytes each */
    uint64_t nnz;
} cuda_r1cs_matrix_src;

/* The field of the coefficients and the witness: Fr of a curve (the values
 * of curve/curve_id.h's curve_id). */
typedef enum cuda_r1cs_curve { CUDA_R1CS_BLS12_381, CUDA_R1CS_BN254 } cuda_r1cs_curve;

/* A constraint system as r1cs_t holds it. */
typedef struct cuda_r1cs_src {
    uint64_t rows;             /* rows of every matrix (num_constraints), < 2^32 */
    uint64_t num_vars;         /* the length of w */
    cuda_r1cs_matrix_src m[3]; /* A, B, C; C is not read when c_is_ab */
    const struct fr *coeffs;   /* the table, Montgomery form; entries 0, 1 are +1, −1 */
    uint64_t num_coeffs;       /* >= 2 */
    unsigned coeff_width;      /* 2 or 4 */
    int c_is_ab;               /* C has no entries: c = a·b row by row */
    cuda_r1cs_curve curve;     /* default BLS12-381; coefficients and w are its Fr's */
} cuda_r1cs_src;

typedef struct cuda_r1cs cuda_r1cs;

/* Uploads src to `device` and waits. The structure is trusted (the host
 * validated it: r1cs_validate); only the counts are checked
 * (CUZK_ERR_INVALID_ARGUMENT). */
cuzk_status cuda_r1cs_upload(cuda_r1cs **out, int device, const cuda_r1cs_src *src);
void cuda_r1cs_free(cuda_r1cs *r);
/* Device memory it holds. */
uint64_t cuda_r1cs_device_bytes(const cuda_r1cs *r);
/* Bytes one evaluation reads and writes (matrices, the witness values they
 * name, the three outputs): for timing events. */
uint64_t cuda_r1cs_eval_bytes(const cuda_r1cs *r);

/* The state of one evaluation in flight: the check's result on the device
 * and its page-locked host copy. One per concurrent caller (a backend's
 * stage); an evaluation's matrices may be shared by several. */
typedef struct cuda_r1cs_check cuda_r1cs_check;
cuzk_status cuda_r1cs_check_create(cuda_r1cs_check **out, int device);
void cuda_r1cs_check_free(cuda_r1cs_check *ck);

/* a, b, c for the witness d_w (num_vars values on the device, w[0] = 1)
 * into d_abc[0..2] (rows elements each, 16-byte aligned), queued on
 * `stream` (a cudaStream_t, NULL for the default stream); then waits for
 * the stream. *first_bad_row: the lowest row with a·b ≠ c, or
 * CUDA_R1CS_ROW_NONE (always when c_is_ab). */
cuzk_status cuda_r1cs_eval(const cuda_r1cs *r, cuda_r1cs_check *ck, const void *d_w,
                           void *const d_abc[3], void *stream, uint64_t *first_bad_row);

/* The two-vector form, for the lean quotient of cuda/ntt.h under a device
 * budget: a and b into d_a and d_b, and every row of C·w compared with
 * a·b as it is summed (c is not stored; nothing compared when c_is_ab);
 * waits, and *first_bad_row as above. Then, once d_b is free,
 * cuda_r1cs_eval_c writes c (C·w, or A·w times B·w when c_is_ab) into
 * d_c, queued on `stream` without waiting. */
cuzk_status cuda_r1cs_eval_ab(const cuda_r1cs *r, cuda_r1cs_check *ck, const void *d_w, void *d_a,
                              void *d_b, void *stream, uint64_t *first_bad_row);
cuzk_status cuda_r1cs_eval_c(const cuda_r1cs *r, const void *d_w, void *d_c, void *stream);

/* "expression@file:line: message" of this thread's last failed CUDA call
 * ("" when none failed). */
const char *cuda_r1cs_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
