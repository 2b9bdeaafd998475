#ifndef CUZK_SERVICE_LISTEN_H
#define CUZK_SERVICE_LISTEN_H

/* The server's listening sockets. */

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/status.h"

/* A Unix stream socket bound at path with the given permission bits. A
 * socket file of ours left by a server that is gone is removed first; a
 * server that answers there, a file that is not a socket, or a socket of
 * another user is an error (CUZK_ERR_INVALID_ARGUMENT) and nothing is
 * touched. private_folder (the default socket in a shared folder such as
 * /tmp): the folder holding the socket is made 0700 when missing, and must
 * be a folder of ours that no one else may enter, else it is refused. */
cuzk_status listen_unix(int *fd, const char *path, unsigned mode, bool private_folder, char *msg,
                        size_t msg_len);

/* A TCP socket on "host:port" ("[v6]:port" for IPv6; port 0 picks one).
 * bound gets "host:port" with the actual port. */
cuzk_status listen_tcp(int *fd, const char *address, char *bound, size_t bound_len, char *msg,
                       size_t msg_len);

#endif
