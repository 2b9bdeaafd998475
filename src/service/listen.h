#ifndef CUZK_SERVICE_LISTEN_H
#define CUZK_SERVICE_LISTEN_H

/* The server's listening sockets. */

#include <stddef.h>

#include "cuzk/status.h"

/* A Unix stream socket bound at path with the given permission bits. A
 * socket file left by a server that is gone is removed first; a server
 * that answers there, or a file that is not a socket, is an error
 * (CUZK_ERR_INVALID_ARGUMENT) and nothing is touched. */
cuzk_status listen_unix(int *fd, const char *path, unsigned mode, char *msg, size_t msg_len);

/* A TCP socket on "host:port" ("[v6]:port" for IPv6; port 0 picks one).
 * bound gets "host:port" with the actual port. */
cuzk_status listen_tcp(int *fd, const char *address, char *bound, size_t bound_len, char *msg,
                       size_t msg_len);

#endif
