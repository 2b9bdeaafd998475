#ifndef CUZK_SERVICE_SPILL_H
#define CUZK_SERVICE_SPILL_H

/* Streamed witnesses kept in a shared folder (server.witness_spill_dir)
 * when several hosts share a PostgreSQL store: a witness streamed in a
 * submission's body that is larger than server.witness_inline_max is
 * written there as the very .wtns file the client sent, and its
 * partition's row names the file (wtns_path, spilled) instead of holding
 * its values, so that the database carries references, not witnesses.
 * Whichever host claims the partition opens the file beneath the same
 * folder, which every host mounts at the same path.
 *
 * The file is durable before the submission is answered: written under a
 * temporary name, synced, renamed into place, and the folder synced. It
 * is removed once its job is final (done, failed, cancelled), by the host
 * that made it final, and otherwise by any host's periodic sweep before
 * finished jobs expire (store_cluster_ops.drop_spills); a file that no
 * row names, by the sweep of orphans (spill_sweep_orphans). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "service/confine.h"
#include "store/store.h"

/* Writes len bytes of data, the streamed .wtns of partition idx of job
 * id, to a new file in dir (named after the job, the partition and a
 * random suffix): *path (malloc'd) names it. false: nothing is left in
 * the folder, *err is the errno of the failure and msg names the folder
 * and the cause. */
bool spill_write(const confine_dir *dir, const char *id, uint32_t idx, const void *data, size_t len,
                 char **path, int *err, char *msg, size_t msg_len);

/* Removes a spilled file when it lies directly in dir (any other path is
 * not one this service wrote, and stays); true when it is gone (removed,
 * or missing already); else why says why. */
bool spill_remove(const confine_dir *dir, const char *path, char *why, size_t why_len);

/* Opens a spilled witness for a claimed partition: a regular file beneath
 * dir whose .wtns header reads. *engine_path (malloc'd) is a name of the
 * open file for the engine (service/confine.h); *fd is the caller's to
 * close. false: why names the file and what is wrong. */
bool spill_open(const confine_dir *dir, const char *path, char **engine_path, int *fd, char *why,
                size_t why_len);

/* Removes the spilled witnesses of a final job (id), or of every final
 * job (id NULL), and forgets their paths in the store; what cannot be
 * removed is told to log. */
void spill_drop(store *st, const confine_dir *dir, const char *id,
                void (*log)(void *ctx, const char *line), void *log_ctx);

/* Files in the spill folder that nothing will ever read or remove: a
 * host that stopped between writing a job's file and committing the job
 * leaves one (so does a job that expired while its file could not be
 * removed). This removes the files of dir that are named as spill_write
 * names them (the witness, or its temporary file), are older than
 * SPILL_ORPHAN_AGE_S, and that the store does not need
 * (store_cluster_ops.spills_needed); every other file stays. Each removal
 * is told to log, and so is what could not be done. */
void spill_sweep_orphans(store *st, const confine_dir *dir,
                         void (*log)(void *ctx, const char *line), void *log_ctx);

/* The age (by its modification time) below which a file in the spill
 * folder is never taken for an orphan. A file whose job is being
 * recorded right now, on any host, is as old as the write of the
 * submission's witnesses (a body the host holds in memory) plus the
 * insert of its rows: seconds, minutes for the largest bodies. The
 * modification time is the file server's clock, the age this host's, and
 * hosts' clocks may disagree by minutes. The lease (cluster_lease_s) is
 * no measure of it: a submission being recorded holds no lease. An hour
 * is far beyond all of these, and an orphan costs only disk space until
 * it goes, so the delay is cheap. */
#define SPILL_ORPHAN_AGE_S 3600

#endif
