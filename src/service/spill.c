/* Streamed witnesses kept as files in the shared spill folder
 * (service/spill.h). */
#define _POSIX_C_SOURCE 200809L
#include "service/spill.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "formats/circom_wtns.h"
#include "util/msg.h"

/* The most files one sweep of every final job removes at a time, and
 * the most files of the spill folder looked up in the store at a time. */
#define DROP_BATCH 256
#define ORPHAN_BATCH 256

/* Writes all of data to fd; false with errno set. */
static bool write_all(int fd, const uint8_t *data, size_t len)
{
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* Syncs the folder, so that a rename into it survives a crash. Some file
 * systems cannot sync a folder (EINVAL): their renames are as durable as
 * they get. */
static bool sync_folder(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool ok = fsync(fd) == 0 || errno == EINVAL;
    int e = errno;
    close(fd);
    errno = e;
    return ok;
}

bool spill_write(const confine_dir *dir, const char *id, uint32_t idx, const void *data, size_t len,
                 char **path, int *err, char *msg, size_t msg_len)
{
    *path = NULL;
    *err = 0;
    char suffix[STORE_ID_CHARS + 1];
    if (!store_new_id(suffix)) {
        *err = EIO;
        msg_set(msg, msg_len, "no random source for the name of a spilled witness");
        return false;
    }
    /* The folder is opened by its path at every write, not through a
     * descriptor kept from the start: the path is what every host shares,
     * and what the row will name. */
    size_t cap = strlen(dir->path) + 2 * STORE_ID_CHARS + 48;
    char *final = malloc(cap), *tmp = malloc(cap);
    if (!final || !tmp) {
        free(final);
        free(tmp);
        *err = ENOMEM;
        msg_set(msg, msg_len, "out of memory");
        return false;
    }
    snprintf(final, cap, "%s/%s-%u-%.16s.wtns", dir->path, id, idx, suffix);
    snprintf(tmp, cap, "%s/.%s-%u-%.16s.wtns.part", dir->path, id, idx, suffix);
    const char *step = NULL;
    int e = 0;
    bool renamed = false;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        e = errno;
        step = "cannot create a file in it";
    } else {
        if (!write_all(fd, data, len)) {
            e = errno;
            step = "cannot write to it";
        } else if (fsync(fd) != 0) {
            e = errno;
            step = "cannot sync a file in it";
        }
        if (close(fd) != 0 && !e) {
            e = errno;
            step = "cannot close a file in it";
        }
    }
    if (!e && !(renamed = rename(tmp, final) == 0)) {
        e = errno;
        step = "cannot rename a file in it";
    }
    if (!e && !sync_folder(dir->path)) {
        e = errno;
        step = "cannot sync it";
    }
    if (e) {
        *err = e;
        msg_set(msg, msg_len,
                "the witness of partition %u cannot be kept in the spill folder %s "
                "(server.witness_spill_dir): %s: %s",
                idx, dir->path, step, strerror(e));
        if (fd >= 0)
            unlink(renamed ? final : tmp);
        free(final);
        free(tmp);
        return false;
    }
    free(tmp);
    *path = final;
    return true;
}

bool spill_remove(const confine_dir *dir, const char *path, char *why, size_t why_len)
{
    size_t n = strlen(dir->path);
    bool inside = strncmp(path, dir->path, n) == 0 && path[n] == '/' && path[n + 1] &&
                  !strchr(path + n + 1, '/');
    if (!inside) {
        msg_set(why, why_len, "it is not in this host's spill folder %s", dir->path);
        return false;
    }
    if (unlink(path) == 0 || errno == ENOENT)
        return true;
    msg_set(why, why_len, "%s", strerror(errno));
    return false;
}

bool spill_open(const confine_dir *dir, const char *path, char **engine_path, int *fd, char *why,
                size_t why_len)
{
    *engine_path = NULL;
    int e;
    switch (confine_open(dir, path, fd, &e)) {
    case CONFINE_OK:
        break;
    case CONFINE_OUTSIDE:
        msg_set(why, why_len,
                "spilled witness %s is outside this host's spill folder %s "
                "(server.witness_spill_dir must name the same folder on every host)",
                path, dir->path);
        return false;
    case CONFINE_NOT_REGULAR:
        msg_set(why, why_len, "spilled witness %s is not a regular file", path);
        return false;
    case CONFINE_CANNOT_OPEN:
        msg_set(why, why_len, "spilled witness %s cannot be opened: %s", path, strerror(e));
        return false;
    }
    char name[64], what[384];
    circom_wtns_t w;
    bool ok = confine_fd_path(*fd, name, sizeof(name));
    if (!ok)
        msg_set(why, why_len,
                "spilled witness %s: this system has no /proc/self/fd, through which the engine "
                "reads it",
                path);
    /* A header that does not read fails here, naming the file, rather than
     * in the engine under its descriptor's name. */
    if (ok && !(ok = circom_wtns_open(&w, name, what, sizeof(what)) == CUZK_OK))
        msg_set(why, why_len, "spilled witness %s is damaged: %s", path, what);
    else if (ok)
        circom_wtns_close(&w);
    if (ok && !(*engine_path = strdup(name))) {
        ok = false;
        msg_set(why, why_len, "out of memory");
    }
    if (!ok) {
        close(*fd);
        *fd = -1;
    }
    return ok;
}

typedef struct dropper {
    const confine_dir *dir;
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
} dropper;

static bool remove_one(void *ctx, const char *path)
{
    dropper *d = ctx;
    char why[512];
    if (spill_remove(d->dir, path, why, sizeof(why)))
        return true;
    msg_log(d->log, d->log_ctx, "cannot remove spilled witness %s: %s", path, why);
    return false;
}

void spill_drop(store *st, const confine_dir *dir, const char *id,
                void (*log)(void *ctx, const char *line), void *log_ctx)
{
    const store_cluster_ops *ops = store_cluster(st);
    if (!ops || !dir || !dir->path)
        return;
    dropper d = {.dir = dir, .log = log, .log_ctx = log_ctx};
    uint32_t gone;
    char msg[512] = "";
    cuzk_status rc;
    /* Every final job: batch after batch while whole batches go. */
    do {
        rc = ops->drop_spills(st, id, DROP_BATCH, remove_one, &d, &gone, msg, sizeof(msg));
    } while (rc == CUZK_OK && !id && gone == DROP_BATCH);
    if (rc != CUZK_OK)
        msg_log(log, log_ctx, "%s (the spilled witnesses are removed at a later sweep)", msg);
}

/* ------------------------------------------------------------- orphans */

/* Whether name is one spill_write gives a file: "<job id>-<partition>-
 * <16 hex>.wtns", or its temporary ".<that>.part". job: the job id it
 * carries; final: the witness's name (the temporary one's without its
 * dot and .part), as a row names it. */
static bool spill_name(const char *name, char job[STORE_ID_CHARS + 1],
                       char final[STORE_ID_CHARS + 48])
{
    bool temporary = name[0] == '.';
    const char *c = name + temporary;
    if (strnlen(c, STORE_ID_CHARS) < STORE_ID_CHARS)
        return false;
    memcpy(job, c, STORE_ID_CHARS);
    job[STORE_ID_CHARS] = 0;
    if (!store_id_valid(job) || c[STORE_ID_CHARS] != '-')
        return false;
    c += STORE_ID_CHARS + 1;
    /* the partition as %u writes it: no sign, no leading zero */
    size_t digits = strspn(c, "0123456789");
    if (!digits || digits > 10 || (digits > 1 && c[0] == '0') ||
        strtoull(c, NULL, 10) > UINT32_MAX || c[digits] != '-')
        return false;
    c += digits + 1;
    if (strspn(c, "0123456789abcdef") != 16 || strncmp(c + 16, ".wtns", 5) != 0)
        return false;
    const char *end = c + 16 + 5;
    if (strcmp(end, temporary ? ".part" : "") != 0)
        return false;
    size_t len = (size_t)(end - (name + temporary));
    memcpy(final, name + temporary, len);
    final[len] = 0;
    return true;
}

/* Files of the folder that may be orphans, looked up in the store
 * together. */
typedef struct orphans {
    store *st;
    const confine_dir *dir;
    int fd; /* the folder, opened for this sweep */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
    size_t n;
    char names[ORPHAN_BATCH][STORE_ID_CHARS + 48]; /* in the folder */
    char *paths[ORPHAN_BATCH];                     /* as a row names the witness (malloc'd) */
    char jobs[ORPHAN_BATCH][STORE_ID_CHARS + 1];
    double ages[ORPHAN_BATCH]; /* seconds since each was written */
} orphans;

static void orphans_clear(orphans *o)
{
    for (size_t i = 0; i < o->n; i++)
        free(o->paths[i]);
    o->n = 0;
}

/* Removes the gathered files the store does not need; false when the
 * store could not say (nothing is removed then). */
static bool orphans_remove(orphans *o)
{
    const char *paths[ORPHAN_BATCH], *jobs[ORPHAN_BATCH];
    bool needed[ORPHAN_BATCH];
    for (size_t i = 0; i < o->n; i++) {
        paths[i] = o->paths[i];
        jobs[i] = o->jobs[i];
    }
    char msg[512] = "";
    cuzk_status rc =
        store_cluster(o->st)->spills_needed(o->st, paths, jobs, o->n, needed, msg, sizeof(msg));
    if (rc != CUZK_OK) {
        msg_log(o->log, o->log_ctx,
                "%s (orphaned files in the spill folder %s are looked for at a later sweep)",
                msg[0] ? msg : "out of memory", o->dir->path);
        orphans_clear(o);
        return false;
    }
    for (size_t i = 0; i < o->n; i++) {
        if (needed[i])
            continue;
        if (unlinkat(o->fd, o->names[i], 0) == 0)
            msg_log(o->log, o->log_ctx,
                    "removed %s/%s from the spill folder: no job names it, and it was written "
                    "%.0f minutes ago (a host stopped before it recorded the job, or the job "
                    "expired before the file could be removed)",
                    o->dir->path, o->names[i], o->ages[i] / 60);
        else if (errno != ENOENT) /* ENOENT: another host's sweep took it first */
            msg_log(o->log, o->log_ctx,
                    "cannot remove the orphaned file %s/%s: %s (it is tried again at a later "
                    "sweep)",
                    o->dir->path, o->names[i], strerror(errno));
    }
    orphans_clear(o);
    return true;
}

void spill_sweep_orphans(store *st, const confine_dir *dir,
                         void (*log)(void *ctx, const char *line), void *log_ctx)
{
    const store_cluster_ops *ops = store_cluster(st);
    if (!ops || !ops->spills_needed || !dir || !dir->path)
        return;
    orphans *o = calloc(1, sizeof(*o));
    if (!o) {
        msg_log(log, log_ctx, "out of memory for a sweep of the spill folder %s", dir->path);
        return;
    }
    *o = (orphans){.st = st, .dir = dir, .log = log, .log_ctx = log_ctx};
    /* By its path, as spill_write opens it: the folder every host shares. */
    o->fd = open(dir->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *folder = o->fd >= 0 ? fdopendir(o->fd) : NULL;
    if (!folder) {
        msg_log(log, log_ctx, "cannot read the spill folder %s for orphaned files: %s", dir->path,
                strerror(errno));
        if (o->fd >= 0)
            close(o->fd);
        free(o);
        return;
    }
    bool ok = true, oom = false;
    struct dirent *e;
    while (ok && (e = readdir(folder))) {
        char final[STORE_ID_CHARS + 48];
        size_t at = o->n;
        if (!spill_name(e->d_name, o->jobs[at], final))
            continue;
        /* A link or a folder of that name is none of spill_write's. */
        struct stat sb;
        if (fstatat(o->fd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
            continue;
        double age = difftime(time(NULL), sb.st_mtime);
        if (age < SPILL_ORPHAN_AGE_S)
            continue;
        size_t cap = strlen(dir->path) + strlen(final) + 2;
        if (!(o->paths[at] = malloc(cap))) {
            ok = false;
            oom = true;
            break;
        }
        snprintf(o->paths[at], cap, "%s/%s", dir->path, final);
        memcpy(o->names[at], e->d_name, strlen(e->d_name) + 1); /* fits: spill_name's */
        o->ages[at] = age;
        if (++o->n == ORPHAN_BATCH)
            ok = orphans_remove(o);
    }
    if (ok && o->n)
        orphans_remove(o);
    if (oom)
        msg_log(log, log_ctx, "out of memory for a sweep of the spill folder %s", dir->path);
    orphans_clear(o);
    closedir(folder); /* and o->fd */
    free(o);
}
