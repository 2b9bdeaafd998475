/*
 * Reader for the known-answer vector files in tests/vectors/.
 *
 * Format: text, one record per line, fields separated by one space; the
 * first field is the operation name, the rest are lowercase big-endian hex.
 * Lines starting with '#' and blank lines are skipped.
 * See tools/vectors/README.md for what each file holds.
 */
#ifndef CUZK_TESTS_VECTOR_FILE_H
#define CUZK_TESTS_VECTOR_FILE_H

#include <stddef.h>
#include <stdint.h>

typedef struct vec_record {
    const char *op;        /* first field */
    size_t nfields;        /* number of fields after op */
    const char *const *fields;
    int line;              /* 1-based line number, for messages */
} vec_record;

typedef struct vec_file vec_file;

/* Opens CUZK_VECTOR_DIR "/" name (CUZK_VECTOR_DIR is a string macro the
 * build defines; if undefined, "tests/vectors"). Returns NULL and prints
 * "cannot open <path>: <strerror>" on failure. */
vec_file *vec_open(const char *name);

/* Fills rec with the next record; returns 1, or 0 at end of file.
 * rec's strings stay valid until the next call. */
int vec_next(vec_file *f, vec_record *rec);

void vec_close(vec_file *f);

/* Decodes exactly outlen bytes from hex (strlen(hex) must be 2*outlen);
 * returns 0, or -1 on bad length or character. */
int vec_hex(uint8_t *out, size_t outlen, const char *hex);

/* The path of the open file, for messages. */
const char *vec_path(const vec_file *f);

#endif /* CUZK_TESTS_VECTOR_FILE_H */
