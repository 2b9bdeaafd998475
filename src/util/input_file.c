/* Input files opened without blocking and refused unless regular
 * (util/input_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "util/input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/msg.h"

const char *file_kind_name(mode_t mode)
{
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

cuzk_status input_file_check(int fd, const char *name, char *msg, size_t msg_len)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        msg_set(msg, msg_len, "%s: cannot stat: %s", name, strerror(errno));
        return CUZK_ERR_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        msg_set(msg, msg_len, "%s is %s; only a regular file is read", name,
                file_kind_name(st.st_mode));
        return CUZK_ERR_IO;
    }
    /* Reads of a regular file never block; the flag only mattered for the
     * open, but a later reader should not see EAGAIN semantics. */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0 && (fl & O_NONBLOCK))
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return CUZK_OK;
}

cuzk_status input_file_open(int *fd, const char *path, char *msg, size_t msg_len)
{
    *fd = -1;
    /* O_NONBLOCK: the open of a FIFO returns at once instead of waiting
     * for a writer; O_NOCTTY: a terminal named by mistake is not taken. */
    int f = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (f < 0) {
        msg_set(msg, msg_len, "cannot read %s: %s", path, strerror(errno));
        return CUZK_ERR_IO;
    }
    cuzk_status st = input_file_check(f, path, msg, msg_len);
    if (st != CUZK_OK) {
        close(f);
        return st;
    }
    *fd = f;
    return CUZK_OK;
}

FILE *input_file_fopen(const char *path, char *msg, size_t msg_len)
{
    int fd;
    if (input_file_open(&fd, path, msg, msg_len) != CUZK_OK)
        return NULL;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        msg_set(msg, msg_len, "%s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}
