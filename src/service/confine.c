/* Opening client-named files beneath a folder (service/confine.h). */
#define _GNU_SOURCE /* O_PATH */
#include "service/confine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backend/backend.h"
#include "util/input_file.h"

#define READ_FLAGS (O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)

cuzk_status confine_dir_open(confine_dir *d, const char *dir, const char *what, char *msg,
                             size_t msg_len)
{
    d->fd = -1;
    d->path = realpath(dir, NULL);
    struct stat sb;
    if (!d->path || stat(d->path, &sb) != 0) {
        backend_msg(msg, msg_len, "[server] %s %s: %s", what, dir, strerror(errno));
        confine_dir_close(d);
        return CUZK_ERR_IO;
    }
    if (!S_ISDIR(sb.st_mode)) {
        backend_msg(msg, msg_len, "[server] %s %s is not a folder", what, dir);
        confine_dir_close(d);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if ((d->fd = open(d->path, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
        backend_msg(msg, msg_len, "[server] %s %s: %s", what, dir, strerror(errno));
        confine_dir_close(d);
        return CUZK_ERR_IO;
    }
    return CUZK_OK;
}

void confine_dir_close(confine_dir *d)
{
    if (d->fd >= 0)
        close(d->fd);
    free(d->path);
    d->fd = -1;
    d->path = NULL;
}

/* path with "." and ".." taken by their names alone into out, relative to
 * dir (no leading '/'); false when the names lead outside dir. */
static bool relative_inside(const char *path, const char *dir, char *out, size_t cap)
{
    char norm[PATH_MAX] = "";
    size_t len = 0;
    if (path[0] != '/') { /* relative: from the folder */
        len = strlen(dir) == 1 ? 0 : strlen(dir);
        if (len >= sizeof(norm))
            return false;
        memcpy(norm, dir, len);
        norm[len] = 0;
    }
    for (const char *c = path; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 2 && c[0] == '.' && c[1] == '.') {
            while (len > 0 && norm[--len] != '/') {
            }
            norm[len] = 0;
        } else if (n && !(n == 1 && c[0] == '.')) {
            if (len + 1 + n >= sizeof(norm))
                return false;
            norm[len++] = '/';
            memcpy(norm + len, c, n);
            norm[len += n] = 0;
        }
        c += n + (c[n] == '/');
    }
    size_t dlen = strlen(dir);
    const char *rest;
    if (dlen == 1) /* "/" */
        rest = norm[0] == '/' ? norm + 1 : norm;
    else if (!strncmp(norm, dir, dlen) && norm[dlen] == '/')
        rest = norm + dlen + 1;
    else
        return false;
    if (!*rest || strlen(rest) >= cap)
        return false;
    memcpy(out, rest, strlen(rest) + 1);
    return true;
}

/* Without openat2: one component at a time, never following a link. */
static int open_no_links(int dirfd, const char *rel)
{
    char part[PATH_MAX];
    int cur = dirfd;
    const char *c = rel;
    for (;;) {
        size_t n = strcspn(c, "/");
        memcpy(part, c, n);
        part[n] = 0;
        bool last = !c[n];
        int next = last ? openat(cur, part, READ_FLAGS | O_NOFOLLOW)
                        : openat(cur, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int err = errno;
        if (cur != dirfd)
            close(cur);
        if (next < 0 || last) {
            errno = err;
            return next;
        }
        cur = next;
        c += n + 1;
    }
}

confine_result confine_open(const confine_dir *d, const char *path, int *fd, int *err)
{
    *fd = -1;
    *err = 0;
    char rel[PATH_MAX];
    /* Outside by its names alone is refused whether it exists or not, so
     * the answer tells nothing about files out there. */
    if (!relative_inside(path, d->path, rel, sizeof(rel)))
        return CONFINE_OUTSIDE;
    struct open_how how = {.flags = READ_FLAGS, .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS};
    int f = (int)syscall(SYS_openat2, d->fd, rel, &how, sizeof(how));
    bool no_openat2 = f < 0 && (errno == ENOSYS || errno == EPERM || errno == E2BIG);
    if (no_openat2)
        f = open_no_links(d->fd, rel);
    if (f < 0) {
        *err = errno;
        /* EXDEV: a link (or "..") that leads out of the folder. */
        return *err == EXDEV || (no_openat2 && *err == ELOOP) ? CONFINE_OUTSIDE
                                                              : CONFINE_CANNOT_OPEN;
    }
    if (input_file_check(f, path, NULL, 0) != CUZK_OK) {
        close(f);
        return CONFINE_NOT_REGULAR;
    }
    *fd = f;
    return CONFINE_OK;
}

bool confine_fd_path(int fd, char *out, size_t cap)
{
    snprintf(out, cap, "/proc/self/fd/%d", fd);
    struct stat a, b;
    /* The name must lead to the same file (no /proc: a sandbox without it). */
    return stat(out, &a) == 0 && fstat(fd, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
