#ifndef CUZK_FORMATS_COMMON_H
#define CUZK_FORMATS_COMMON_H

/* Pieces shared by the file-format readers and writers: read-only file
 * mappings, messages, byte-order loads and stores, and the choice of point
 * checks.
 *
 * Every reader in this folder validates each count, size and offset against
 * the bytes that are really there before it reads or allocates, and reports
 * a status plus a message naming the file, the section and the problem.
 * Statuses, across the folder:
 *   CUZK_ERR_IO                cannot open, map, read or write
 *   CUZK_ERR_INVALID_ARGUMENT  not this kind of file (magic), bad arguments
 *   CUZK_ERR_UNSUPPORTED       other version, other curve, other protocol
 *   CUZK_ERR_TRUNCATED         the file ends before its declared contents
 *   CUZK_ERR_CORRUPT           counts, sizes or indices that disagree
 *   CUZK_ERR_NOT_CANONICAL     a field element >= its modulus
 *   CUZK_ERR_NOT_ON_CURVE, CUZK_ERR_NOT_IN_SUBGROUP, CUZK_ERR_ENCODING_*:
 *                              points, as the curve decoders report them
 *   CUZK_ERR_OUT_OF_MEMORY */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/status.h"

/* How much to check of each decoded point. Coordinates are always checked
 * to be canonical (< p): the field code relies on reduced elements. */
typedef enum formats_check {
    FORMATS_CHECK_NONE = 0,     /* trusted local files (a parameter cache) */
    FORMATS_CHECK_CURVE = 1,    /* on the curve */
    FORMATS_CHECK_SUBGROUP = 2, /* on the curve and in the order-r subgroup */
} formats_check;

/* A whole file mapped read-only (or a caller's buffer, not owned). The file
 * must not shrink while mapped: reading past a shrunken end is SIGBUS, as
 * with every mmap reader. */
typedef struct mapped_file {
    const uint8_t *data;
    size_t size;
    void *map; /* the mapping to unmap; NULL for buffers and empty files */
    size_t map_size;
    char name[256]; /* the path or buffer name, for messages */
} mapped_file_t;

cuzk_status mapped_file_open(mapped_file_t *f, const char *path, char *msg, size_t msg_len);
/* Wraps data[0..size) (which must outlive f); name is used in messages. */
void mapped_file_from_buffer(mapped_file_t *f, const void *data, size_t size, const char *name);
/* Unmaps (safe on a zeroed or closed f). */
void mapped_file_close(mapped_file_t *f);

/* Writes a formatted message into msg when msg is not NULL. */
void formats_msg(char *msg, size_t msg_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Output files are written to a new temporary file in the target's folder
 * (".NAME.XXXXXX", created with O_EXCL: nothing planted under that name is
 * followed) and renamed over path when complete, so a crash never leaves a
 * half-written file under the real name. A target that exists and is not a
 * regular file (a symbolic link, a device, a FIFO, a folder) is refused
 * rather than replaced, unless the caller passes FORMATS_OUT_DEVICE_OK:
 * then an existing device or FIFO (/dev/stdout) is written into directly.
 * formats_out_finish flushes and closes (write errors that show only then
 * are reported), renames when st is CUZK_OK and every write succeeded,
 * removes the temporary file otherwise, and returns the final status. */
typedef struct formats_out {
    FILE *f;
    char *tmp; /* the temporary file; NULL when writing into a device */
    const char *path;
    bool failed;
} formats_out;

enum { FORMATS_OUT_DEVICE_OK = 1 };

cuzk_status formats_out_open(formats_out *o, const char *path, char *msg, size_t msg_len);
cuzk_status formats_out_open_to(formats_out *o, const char *path, unsigned flags, char *msg,
                                size_t msg_len);
cuzk_status formats_out_write(formats_out *o, const void *data, size_t size, char *msg,
                              size_t msg_len);
cuzk_status formats_out_finish(formats_out *o, cuzk_status st, char *msg, size_t msg_len);

/* The whole file from one buffer. */
cuzk_status formats_save(const char *path, const void *data, size_t size, char *msg,
                         size_t msg_len);
cuzk_status formats_save_to(const char *path, const void *data, size_t size, unsigned flags,
                            char *msg, size_t msg_len);

/* Calls fn(ctx, i) for every i < n on up to `threads` threads (0: all
 * CPUs), in chunks of at least `grain`; a chunk stops at its first failure.
 * Returns the lowest i for which fn failed, or UINT64_MAX when none did:
 * the caller calls fn once more on it for the status and the message. */
typedef cuzk_status (*formats_item_fn)(void *ctx, uint64_t i);
uint64_t formats_parallel_first_failure(uint64_t n, size_t grain, unsigned threads,
                                        formats_item_fn fn, void *ctx);

static inline uint32_t ld_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t ld_le64(const uint8_t *p)
{
    return (uint64_t)ld_le32(p) | (uint64_t)ld_le32(p + 4) << 32;
}

static inline uint32_t ld_be32(const uint8_t *p)
{
    return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}

static inline void st_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif
