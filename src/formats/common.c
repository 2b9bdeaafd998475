#define _GNU_SOURCE /* mkostemp */
#include "formats/common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/input_file.h"
#include "util/parallel.h"

void formats_msg(char *msg, size_t msg_len, const char *fmt, ...)
{
    if (!msg || msg_len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_len, fmt, ap);
    va_end(ap);
}

static void set_name(mapped_file_t *f, const char *name)
{
    snprintf(f->name, sizeof(f->name), "%s", name ? name : "(buffer)");
}

cuzk_status mapped_file_open(mapped_file_t *f, const char *path, char *msg, size_t msg_len)
{
    memset(f, 0, sizeof(*f));
    if (!path) {
        formats_msg(msg, msg_len, "no path given");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    set_name(f, path);
    /* A FIFO or device named as an input must not block the reader. */
    int fd;
    cuzk_status opened = input_file_open(&fd, path, msg, msg_len);
    if (opened != CUZK_OK)
        return opened;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        formats_msg(msg, msg_len, "%s: cannot stat: %s", path, strerror(errno));
        close(fd);
        return CUZK_ERR_IO;
    }
    if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
        formats_msg(msg, msg_len, "%s: too large to map", path);
        close(fd);
        return CUZK_ERR_IO;
    }
    size_t size = (size_t)st.st_size;
    if (size > 0) {
        void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            formats_msg(msg, msg_len, "%s: cannot map %zu bytes: %s", path, size, strerror(errno));
            close(fd);
            return CUZK_ERR_IO;
        }
        f->map = p;
        f->map_size = size;
        f->data = p;
    }
    f->size = size;
    close(fd); /* the mapping stays valid */
    return CUZK_OK;
}

void mapped_file_from_buffer(mapped_file_t *f, const void *data, size_t size, const char *name)
{
    memset(f, 0, sizeof(*f));
    set_name(f, name);
    f->data = data;
    f->size = data ? size : 0;
}

void mapped_file_close(mapped_file_t *f)
{
    if (f->map)
        munmap(f->map, f->map_size);
    memset(f, 0, sizeof(*f));
}

/* The permission bits a new file gets from open(..., 0666): the process's
 * umask read from /proc (umask() itself cannot be read without setting it,
 * which would race with other threads creating files); 022 without /proc. */
static mode_t default_file_mode(void)
{
    unsigned mask = 022;
    FILE *f = fopen("/proc/self/status", "r");
    char line[128];
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "Umask: %o", &mask) == 1)
            break;
    if (f)
        fclose(f);
    return (mode_t)(0666 & ~mask);
}

/* Writes straight into an existing device or FIFO the caller asked for. */
static cuzk_status open_special(formats_out *o, const char *path, char *msg, size_t msg_len)
{
    /* O_NONBLOCK: a FIFO without a reader is an error now, not a hang. */
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 ||
        !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode))) {
        formats_msg(msg, msg_len, "%s: cannot open it for writing: %s", path,
                    fd < 0 ? strerror(errno) : "it is no longer a device or FIFO");
        if (fd >= 0)
            close(fd);
        return CUZK_ERR_IO;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (!(o->f = fdopen(fd, "wb"))) {
        formats_msg(msg, msg_len, "%s: %s", path, strerror(errno));
        close(fd);
        return CUZK_ERR_IO;
    }
    o->path = path;
    return CUZK_OK;
}

cuzk_status formats_out_open_to(formats_out *o, const char *path, unsigned flags, char *msg,
                                size_t msg_len)
{
    memset(o, 0, sizeof(*o));
    struct stat target;
    bool exists = lstat(path, &target) == 0;
    if (exists && !S_ISREG(target.st_mode)) {
        bool special =
            S_ISCHR(target.st_mode) || S_ISBLK(target.st_mode) || S_ISFIFO(target.st_mode);
        if (special && (flags & FORMATS_OUT_DEVICE_OK))
            return open_special(o, path, msg, msg_len);
        /* Renaming over it would replace the link or the device node itself
         * (and write nothing where it points). */
        formats_msg(msg, msg_len, "%s is %s; not replacing it with a file%s", path,
                    file_kind_name(target.st_mode),
                    special ? " (ask for writing into a device to use it)" : "");
        return CUZK_ERR_IO;
    }
    /* The temporary file is made new (O_EXCL) in the target's folder, so
     * that whatever already lies under a guessable name (a link planted
     * there) is neither followed nor replaced, and the rename stays on one
     * file system. */
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path) + 16;
    if (!(o->tmp = malloc(n)))
        return CUZK_ERR_OUT_OF_MEMORY;
    snprintf(o->tmp, n, "%.*s.%s.XXXXXX", (int)dir_len, path, path + dir_len);
    int fd = mkostemp(o->tmp, O_CLOEXEC);
    if (fd < 0) {
        formats_msg(msg, msg_len, "%s: cannot create a temporary file beside it: %s", path,
                    strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return CUZK_ERR_IO;
    }
    /* mkostemp makes it 0600; the file gets what a plain create would
     * (or the replaced file's bits). */
    fchmod(fd, exists ? target.st_mode & 07777 : default_file_mode());
    o->path = path;
    if (!(o->f = fdopen(fd, "wb"))) {
        formats_msg(msg, msg_len, "%s: %s", o->tmp, strerror(errno));
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return CUZK_ERR_IO;
    }
    return CUZK_OK;
}

cuzk_status formats_out_open(formats_out *o, const char *path, char *msg, size_t msg_len)
{
    return formats_out_open_to(o, path, 0, msg, msg_len);
}

cuzk_status formats_out_write(formats_out *o, const void *data, size_t size, char *msg,
                              size_t msg_len)
{
    if (o->failed)
        return CUZK_ERR_IO;
    if (size > 0 && fwrite(data, 1, size, o->f) != size) {
        formats_msg(msg, msg_len, "%s: write failed: %s", o->tmp, strerror(errno));
        o->failed = true;
        return CUZK_ERR_IO;
    }
    return CUZK_OK;
}

cuzk_status formats_out_finish(formats_out *o, cuzk_status st, char *msg, size_t msg_len)
{
    if (!o->f)
        return st;
    const char *name = o->tmp ? o->tmp : o->path;
    if (o->failed && st == CUZK_OK)
        st = CUZK_ERR_IO;
    /* A full disk or device often shows only at the flush or the close. */
    if (fflush(o->f) != 0 && st == CUZK_OK) {
        formats_msg(msg, msg_len, "%s: write failed: %s", name, strerror(errno));
        st = CUZK_ERR_IO;
    }
    if (fclose(o->f) != 0 && st == CUZK_OK) {
        formats_msg(msg, msg_len, "%s: close failed: %s", name, strerror(errno));
        st = CUZK_ERR_IO;
    }
    if (o->tmp && st == CUZK_OK && rename(o->tmp, o->path) != 0) {
        formats_msg(msg, msg_len, "%s: cannot rename to %s: %s", o->tmp, o->path, strerror(errno));
        st = CUZK_ERR_IO;
    }
    if (o->tmp && st != CUZK_OK)
        unlink(o->tmp);
    free(o->tmp);
    memset(o, 0, sizeof(*o));
    return st;
}

cuzk_status formats_save_to(const char *path, const void *data, size_t size, unsigned flags,
                            char *msg, size_t msg_len)
{
    formats_out o;
    cuzk_status st = formats_out_open_to(&o, path, flags, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    st = formats_out_write(&o, data, size, msg, msg_len);
    return formats_out_finish(&o, st, msg, msg_len);
}

cuzk_status formats_save(const char *path, const void *data, size_t size, char *msg, size_t msg_len)
{
    return formats_save_to(path, data, size, 0, msg, msg_len);
}

typedef struct first_failure {
    formats_item_fn fn;
    void *ctx;
    _Atomic uint64_t first;
} first_failure;

static void first_failure_chunk(void *arg, size_t begin, size_t end)
{
    first_failure *f = arg;
    for (size_t i = begin; i < end; i++) {
        if (i >= atomic_load(&f->first))
            return; /* a lower index already failed */
        if (f->fn(f->ctx, i) == CUZK_OK)
            continue;
        uint64_t cur = atomic_load(&f->first);
        while (i < cur && !atomic_compare_exchange_weak(&f->first, &cur, i))
            ;
        return;
    }
}

uint64_t formats_parallel_first_failure(uint64_t n, size_t grain, unsigned threads,
                                        formats_item_fn fn, void *ctx)
{
    first_failure f = {.fn = fn, .ctx = ctx};
    atomic_init(&f.first, UINT64_MAX);
    if (n > 0)
        parallel_for((size_t)n, grain, threads, first_failure_chunk, &f);
    return atomic_load(&f.first);
}
