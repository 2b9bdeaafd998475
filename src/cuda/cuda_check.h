#ifndef CUZK_CUDA_CHECK_H
#define CUZK_CUDA_CHECK_H

/* Checked CUDA runtime calls, for .cu files. A failing call is recorded as
 * "expression@file:line: CUDA's message" (one record per host thread, the
 * last failure) and becomes CUZK_ERR_DEVICE at the API boundary.
 *
 * The sticky form keeps cleanup code straight:
 *
 *     cuzk_status st = CUZK_OK;
 *     CUDA_CHECK(st, cudaMalloc(&d, bytes));
 *     CUDA_CHECK(st, cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
 *     kernel<<<grid, block>>>(d);
 *     CUDA_CHECK_LAUNCH(st, "kernel");
 *     cudaFree(d);            // runs whatever happened above
 *     return st;
 *
 * Once st is not CUZK_OK the later CUDA_CHECKs skip their expressions. */

#ifndef __cplusplus
#error "cuda/cuda_check.h is for CUDA (.cu) translation units"
#endif

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/status.h"

#define CUDA_CHECK_RECORD_LEN 512

/* The record. An inline function's static local is one object for the whole
 * program, whichever .cu files include this header. */
inline char *cuda_check_record(void)
{
    static thread_local char record[CUDA_CHECK_RECORD_LEN];
    return record;
}

/* The file name from the repository's src/ on (the build passes absolute
 * paths). */
inline const char *cuda_check_short_file(const char *file)
{
    const char *s = strstr(file, "/src/");
    return s ? s + 1 : file;
}

inline cuzk_status cuda_check_fail(cudaError_t err, const char *expr, const char *file, int line)
{
    snprintf(cuda_check_record(), CUDA_CHECK_RECORD_LEN, "%s@%s:%d: %s", expr,
             cuda_check_short_file(file), line, cudaGetErrorString(err));
    return CUZK_ERR_DEVICE;
}

/* The record of this thread's last failed call ("" when none failed). */
inline const char *cuda_check_last(void)
{
    return cuda_check_record();
}

#define CUDA_CHECK(st, expr)                                                                       \
    do {                                                                                           \
        if ((st) == CUZK_OK) {                                                                     \
            const cudaError_t cuda_check_err_ = (expr);                                            \
            if (cuda_check_err_ != cudaSuccess)                                                    \
                (st) = cuda_check_fail(cuda_check_err_, #expr, __FILE__, __LINE__);                \
        }                                                                                          \
    } while (0)

/* After a kernel launch: the launch error, recorded under `what`. */
#define CUDA_CHECK_LAUNCH(st, what)                                                                \
    do {                                                                                           \
        if ((st) == CUZK_OK) {                                                                     \
            const cudaError_t cuda_check_err_ = cudaGetLastError();                                \
            if (cuda_check_err_ != cudaSuccess)                                                    \
                (st) = cuda_check_fail(cuda_check_err_, what, __FILE__, __LINE__);                 \
        }                                                                                          \
    } while (0)

/* Returns CUZK_ERR_DEVICE from the enclosing function when expr fails. */
#define CUDA_TRY(expr)                                                                             \
    do {                                                                                           \
        const cudaError_t cuda_check_err_ = (expr);                                                \
        if (cuda_check_err_ != cudaSuccess)                                                        \
            return cuda_check_fail(cuda_check_err_, #expr, __FILE__, __LINE__);                    \
    } while (0)

#endif
