#ifndef CUZK_UTIL_INPUT_FILE_H
#define CUZK_UTIL_INPUT_FILE_H

/* Opening a file someone named as an input (a witness, a zkey, parameters,
 * a configuration, a token). open() of a FIFO blocks until a writer
 * comes, and of a device may block or never end: a server thread that
 * does so is wedged for good. So the file is opened without blocking,
 * looked at through its descriptor (not its name, which may change in
 * between), and refused unless it is a regular file. */

#include <stdio.h>
#include <sys/types.h>

#include "cuzk/status.h"

/* A read-only descriptor of the regular file at path (close-on-exec), in
 * blocking mode again. CUZK_ERR_IO with "PATH: why" in msg when it cannot
 * be opened or is not a regular file (a folder, FIFO, device, socket). */
cuzk_status input_file_open(int *fd, const char *path, char *msg, size_t msg_len);

/* fd (from any open) when it is a regular file: then in blocking mode and
 * CUZK_OK; else CUZK_ERR_IO with "name: why" in msg. fd is not closed. */
cuzk_status input_file_check(int fd, const char *name, char *msg, size_t msg_len);

/* What a file of this mode is, for messages: "a folder", "a FIFO",
 * "a device", "a socket", "a symbolic link", else "not a regular file". */
const char *file_kind_name(mode_t mode);

/* The same as a stdio stream for reading ("r"); NULL with msg set. */
FILE *input_file_fopen(const char *path, char *msg, size_t msg_len);

#endif
