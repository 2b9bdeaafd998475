/* Listening sockets: a Unix socket that replaces a stale file but never a
 * live server's, and TCP. */
#define _POSIX_C_SOURCE 200809L
#include "service/listen.h"

#include <errno.h>
#include <stdbool.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "backend/backend.h"

#define LISTEN_BACKLOG 128

/* Whether a server accepts connections on the socket file at path. */
static bool socket_answers(const struct sockaddr_un *addr)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    bool live = connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) == 0;
    close(fd);
    return live;
}

/* The folder of path, made 0700 when missing, then checked to be ours and
 * closed to others: in a shared folder like /tmp another user could have
 * made it first, to read the socket's traffic or to plant their own. */
static cuzk_status private_folder_of(const char *path, char *msg, size_t msg_len)
{
    char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return CUZK_OK; /* the working folder or "/": not made here */
    snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        backend_msg(msg, msg_len, "cannot make the socket's folder %s: %s", dir, strerror(errno));
        return CUZK_ERR_IO;
    }
    struct stat st;
    if (lstat(dir, &st) != 0) {
        backend_msg(msg, msg_len, "%s: %s", dir, strerror(errno));
        return CUZK_ERR_IO;
    }
    if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077)) {
        backend_msg(msg, msg_len,
                    "the socket's folder %s is not private (%s, owner uid %u, mode %03o; it "
                    "must be a folder of uid %u with mode 0700): not using it",
                    dir, S_ISDIR(st.st_mode) ? "a folder" : "not a folder", (unsigned)st.st_uid,
                    (unsigned)(st.st_mode & 0777), (unsigned)geteuid());
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    return CUZK_OK;
}

cuzk_status listen_unix(int *fd, const char *path, unsigned mode, bool private_folder, char *msg,
                        size_t msg_len)
{
    *fd = -1;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof(addr.sun_path)) {
        backend_msg(msg, msg_len, "socket path %s is longer than %zu bytes", path,
                    sizeof(addr.sun_path) - 1);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    memcpy(addr.sun_path, path, strlen(path) + 1);
    if (private_folder) {
        cuzk_status st = private_folder_of(path, msg, msg_len);
        if (st != CUZK_OK)
            return st;
    }
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            backend_msg(msg, msg_len, "%s exists and is not a socket; not touching it", path);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
        if (st.st_uid != geteuid()) {
            /* Not ours: another user's server, or a socket planted for our
             * clients to talk to. */
            backend_msg(msg, msg_len, "%s is a socket of uid %u, not ours; not touching it", path,
                        (unsigned)st.st_uid);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
        if (socket_answers(&addr)) {
            backend_msg(msg, msg_len, "another server is answering on %s", path);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
        /* Left by a server that did not exit cleanly. */
        if (unlink(path) != 0 && errno != ENOENT) {
            backend_msg(msg, msg_len, "cannot remove the stale socket %s: %s", path,
                        strerror(errno));
            return CUZK_ERR_IO;
        }
    }
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        backend_msg(msg, msg_len, "socket: %s", strerror(errno));
        return CUZK_ERR_IO;
    }
    /* The file is created with the umask applied: narrow it for bind so the
     * socket is never reachable with wider permissions, even briefly. */
    mode_t old = umask(0777 & ~(mode_t)mode);
    int rc = bind(s, (const struct sockaddr *)&addr, sizeof(addr));
    int bind_errno = errno;
    umask(old);
    if (rc != 0) {
        backend_msg(msg, msg_len, "cannot bind %s: %s", path, strerror(bind_errno));
        close(s);
        return CUZK_ERR_IO;
    }
    if (chmod(path, (mode_t)mode) != 0 || listen(s, LISTEN_BACKLOG) != 0) {
        backend_msg(msg, msg_len, "cannot listen on %s: %s", path, strerror(errno));
        close(s);
        unlink(path);
        return CUZK_ERR_IO;
    }
    *fd = s;
    return CUZK_OK;
}

cuzk_status listen_tcp(int *fd, const char *address, char *bound, size_t bound_len, char *msg,
                       size_t msg_len)
{
    *fd = -1;
    char host[256];
    const char *colon = strrchr(address, ':');
    const char *h = address;
    size_t hl = colon ? (size_t)(colon - address) : 0;
    if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') {
        h++;
        hl -= 2;
    }
    if (!colon || hl == 0 || hl >= sizeof(host) || !colon[1]) {
        backend_msg(msg, msg_len, "TCP address '%s' is not host:port (e.g. 127.0.0.1:9090)",
                    address);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    memcpy(host, h, hl);
    host[hl] = 0;
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || port < 0 || port > 65535) {
        backend_msg(msg, msg_len, "TCP address '%s': the port is not 0 to 65535", address);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV},
                    *res = NULL;
    int gai = getaddrinfo(host, colon + 1, &hints, &res);
    if (gai != 0) {
        backend_msg(msg, msg_len, "TCP address '%s': %s", address, gai_strerror(gai));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    int s = -1, err = 0;
    for (struct addrinfo *ai = res; ai && s < 0; ai = ai->ai_next) {
        s = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (s < 0) {
            err = errno;
            continue;
        }
        int one = 1;
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        if (bind(s, ai->ai_addr, ai->ai_addrlen) != 0 || listen(s, LISTEN_BACKLOG) != 0) {
            err = errno;
            close(s);
            s = -1;
        }
    }
    freeaddrinfo(res);
    if (s < 0) {
        backend_msg(msg, msg_len, "cannot listen on %s: %s", address, strerror(err));
        return CUZK_ERR_IO;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    char nhost[1025] = "?", nport[32] = "?";
    if (getsockname(s, (struct sockaddr *)&ss, &sl) == 0)
        getnameinfo((struct sockaddr *)&ss, sl, nhost, sizeof(nhost), nport, sizeof(nport),
                    NI_NUMERICHOST | NI_NUMERICSERV);
    snprintf(bound, bound_len, "%s%s%s:%s", ss.ss_family == AF_INET6 ? "[" : "", nhost,
             ss.ss_family == AF_INET6 ? "]" : "", nport);
    *fd = s;
    return CUZK_OK;
}
