#ifndef CUZK_SERVICE_CONFINE_H
#define CUZK_SERVICE_CONFINE_H

/* Files a client names that must lie inside one folder of the server
 * (server.witness_dir, server.circuit_dir). Checking a path and then
 * opening it by name is a race: between the two, a folder on the way can
 * be swapped for a link that leads out. So the file is opened once,
 * relative to a descriptor of the folder, by a walk the kernel keeps
 * beneath it (openat2 with RESOLVE_BENEATH: links that stay inside are
 * followed, one that leads out fails), or, where the kernel lacks it, one
 * component at a time with O_NOFOLLOW (then no link is taken at all); the
 * opened file itself is then checked, and the engine reads that very file
 * through /proc/self/fd. */

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/status.h"

typedef struct confine_dir {
    int fd;     /* O_PATH descriptor of the folder; -1 when unset */
    char *path; /* its resolved path, no trailing '/' */
} confine_dir;

/* Resolves dir (links and ".." followed) and opens it. what names the key
 * in messages. */
cuzk_status confine_dir_open(confine_dir *d, const char *dir, const char *what, char *msg,
                             size_t msg_len);
void confine_dir_close(confine_dir *d);

typedef enum confine_result {
    CONFINE_OK,
    CONFINE_OUTSIDE,     /* by its names alone (whether or not it exists), or a link out */
    CONFINE_CANNOT_OPEN, /* missing, unreadable: *err says why */
    CONFINE_NOT_REGULAR, /* a folder, FIFO, device, socket */
} confine_result;

/* Opens path (relative to the folder, or absolute) for reading when it is
 * a regular file inside d; *fd is then the caller's to close. */
confine_result confine_open(const confine_dir *d, const char *path, int *fd, int *err);

/* A name by which another open reaches exactly the file open at fd
 * ("/proc/self/fd/N"); false when the system has no such names. */
bool confine_fd_path(int fd, char *out, size_t cap);

#endif
