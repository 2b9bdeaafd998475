#ifndef CUZK_TEST_READ_FILE_H
#define CUZK_TEST_READ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* The whole file at path, malloc'd (free()), with a NUL after its *len
 * bytes; a file that cannot be read fails the running cmocka test. */
uint8_t *test_read_file(const char *path, size_t *len);

#endif
