#define _POSIX_C_SOURCE 200809L
#include "formats/common.h"

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        formats_msg(msg, msg_len, "%s: cannot open: %s", path, strerror(errno));
        return CUZK_ERR_IO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        formats_msg(msg, msg_len, "%s: cannot stat: %s", path, strerror(errno));
        close(fd);
        return CUZK_ERR_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        formats_msg(msg, msg_len, "%s: not a regular file", path);
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

cuzk_status formats_out_open(formats_out *o, const char *path, char *msg, size_t msg_len)
{
    memset(o, 0, sizeof(*o));
    size_t n = strlen(path);
    o->tmp = malloc(n + 5);
    if (!o->tmp)
        return CUZK_ERR_OUT_OF_MEMORY;
    memcpy(o->tmp, path, n);
    memcpy(o->tmp + n, ".tmp", 5);
    o->path = path;
    o->f = fopen(o->tmp, "wb");
    if (!o->f) {
        formats_msg(msg, msg_len, "%s: cannot create: %s", o->tmp, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return CUZK_ERR_IO;
    }
    return CUZK_OK;
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
    if (o->failed && st == CUZK_OK)
        st = CUZK_ERR_IO;
    if (fclose(o->f) != 0 && st == CUZK_OK) {
        formats_msg(msg, msg_len, "%s: close failed: %s", o->tmp, strerror(errno));
        st = CUZK_ERR_IO;
    }
    if (st == CUZK_OK && rename(o->tmp, o->path) != 0) {
        formats_msg(msg, msg_len, "%s: cannot rename to %s: %s", o->tmp, o->path, strerror(errno));
        st = CUZK_ERR_IO;
    }
    if (st != CUZK_OK)
        remove(o->tmp);
    free(o->tmp);
    memset(o, 0, sizeof(*o));
    return st;
}

cuzk_status formats_save(const char *path, const void *data, size_t size, char *msg, size_t msg_len)
{
    formats_out o;
    cuzk_status st = formats_out_open(&o, path, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    st = formats_out_write(&o, data, size, msg, msg_len);
    return formats_out_finish(&o, st, msg, msg_len);
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
