#ifndef CUZK_CUDA_FIELD_TEST_H
#define CUZK_CUDA_FIELD_TEST_H

/* The device field arithmetic (ff_*.cuh) behind C-callable launchers, for
 * the GPU-vs-CPU tests and the benchmarks. Each call allocates, copies,
 * runs and frees on its own: convenient, not fast. Host arrays are the CPU's
 * own types (fp_t, fr_t, fp2_t), which the device reads unconverted.
 * Built only with CUDA (CUZK_HAVE_CUDA). On CUZK_ERR_DEVICE,
 * cuda_field_last_error() says which CUDA call failed, where and why. */

#include <stddef.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The host element types by their struct tags (fp_t is struct fp, fr_t is
 * struct fr, fp2_t is struct fp2: field/fp.h, fr.h, fp2.h). The headers
 * themselves are not included here: in CUDA translation units <math.h> is
 * always present, and its FP_ZERO clashes with field/fp.h's. */
struct fp;
struct fr;
struct fp2;

typedef enum cuda_field {
    CUDA_FIELD_FP,
    CUDA_FIELD_FR,
    CUDA_FIELD_FP2,
    CUDA_FIELD_COUNT
} cuda_field;

/* Unary ops (NEG, DBL, SQR) read only a. */
typedef enum cuda_field_op {
    CUDA_FIELD_ADD,
    CUDA_FIELD_SUB,
    CUDA_FIELD_NEG,
    CUDA_FIELD_DBL,
    CUDA_FIELD_MUL,
    CUDA_FIELD_SQR,
    CUDA_FIELD_OP_COUNT
} cuda_field_op;

/* out[i] = op(a[i], b[i]) for i < n, on the device. b may be NULL for unary
 * ops. out may equal a or b. */
cuzk_status cuda_fp_binop(cuda_field_op op, struct fp *out, const struct fp *a, const struct fp *b,
                          size_t n);
cuzk_status cuda_fr_binop(cuda_field_op op, struct fr *out, const struct fr *a, const struct fr *b,
                          size_t n);
cuzk_status cuda_fp2_binop(cuda_field_op op, struct fp2 *out, const struct fp2 *a,
                           const struct fp2 *b, size_t n);

/* The throughput kernel on given inputs, so tests can check what the
 * benchmark times. One thread per element: for op = CUDA_FIELD_MUL,
 * x ← x·y, iters times; for CUDA_FIELD_SQR, x ← x², iters times (y unused,
 * may be NULL); out[i] = the final x. Arrays of the field's host type. */
cuzk_status cuda_field_chain(cuda_field field, cuda_field_op op, void *out, const void *x,
                             const void *y, size_t n, int iters);

/* Times the same kernel on n_threads threads, inputs made on the device,
 * after one untimed warm-up launch: *ms is the kernel time from CUDA events.
 * n_threads · iters_per_thread operations were done. */
cuzk_status cuda_field_throughput(cuda_field field, cuda_field_op op, size_t n_threads,
                                  int iters_per_thread, float *ms);

/* cuda_field_throughput(CUDA_FIELD_FP, CUDA_FIELD_MUL, ...). */
cuzk_status cuda_fp_mul_throughput(size_t n_threads, int iters_per_thread, float *ms);

/* out[i] = 1/a[i] (0 for 0) in the base field Fp of BLS12-381 (bn254 = 0;
 * struct fp elements, 48 bytes) or of BN254 (bn254 = 1; bn254_fp_t, 32
 * bytes), Montgomery forms, by divsteps (divsteps = 1: the device's
 * ec_*_inv_var, field/limbs_inv_impl.h) or by Fermat (0: ec_*_inv), one
 * thread an element. *ms (may be NULL): the kernel's time. */
cuzk_status cuda_fp_inverse(int bn254, int divsteps, void *out, const void *a, size_t n, float *ms);

/* "expression@file:line: message" of this thread's last failed CUDA call in
 * these launchers ("" when none failed). */
const char *cuda_field_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
