#ifndef CUZK_STATUS_H
#define CUZK_STATUS_H

/* Status codes returned at the library's boundary. Arithmetic inside the
 * library returns void; only decoding, I/O and API entry points fail. */
typedef enum cuzk_status {
    CUZK_OK = 0,
    CUZK_ERR_INVALID_ARGUMENT,
    CUZK_ERR_OUT_OF_MEMORY,
    CUZK_ERR_IO,
    CUZK_ERR_RANDOM,
    /* Decoding of field elements and points (ZCash BLS12-381 format). */
    CUZK_ERR_ENCODING_LENGTH,           /* input is not 48/96 (G1) or 96/192 (G2) bytes */
    CUZK_ERR_ENCODING_FLAGS,            /* compression/infinity/sign bits in a wrong combination */
    CUZK_ERR_NOT_CANONICAL,             /* a coordinate is >= the field modulus */
    CUZK_ERR_INFINITY_NOT_CANONICAL,    /* infinity flag set but other bits nonzero */
    CUZK_ERR_NOT_ON_CURVE,              /* coordinates do not satisfy the curve equation */
    CUZK_ERR_NOT_IN_SUBGROUP,           /* on the curve, outside the prime-order subgroup */
    CUZK_ERR_UNSUPPORTED,
    CUZK_ERR_INTERNAL,
    CUZK_ERR_DEVICE,                    /* a CUDA call failed (the GPU layer records which) */
    CUZK_ERR_CORRUPT,                   /* a file's contents are inconsistent (bad checksum, counts, offsets) */
    CUZK_ERR_TRUNCATED,                 /* a file or buffer ends before its declared contents */
    CUZK_ERR_UNSATISFIED,               /* the witness does not satisfy the constraint system */
    CUZK_ERR_VERIFY_FAILED,             /* a proof did not verify */
    CUZK_STATUS_COUNT
} cuzk_status;

#ifndef CUZK_EXPORT
#define CUZK_EXPORT __attribute__((visibility("default"))) /* part of libcuzk's API */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A short, stable, human-readable description of a status code. */
CUZK_EXPORT const char *cuzk_status_str(cuzk_status status);

#ifdef __cplusplus
}
#endif

#endif
