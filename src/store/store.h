#ifndef CUZK_STORE_STORE_H
#define CUZK_STORE_STORE_H

/* The job store: the service's durable record of every job it accepted,
 * so that a restart (kill -9 included) loses and mixes up nothing.
 *
 * One interface, implementations behind it: SQLite, embedded, one file
 * per host (sqlite_store.c, the only place with SQLite's SQL); PostgreSQL
 * (pg_store.c, the only place with PostgreSQL's SQL), with the same
 * semantics. The engine does not
 * see the store; the service writes to it and recovers from it.
 *
 * What a job's record holds:
 *   - its public id (STORE_ID_CHARS lowercase hex: 128 random bits, never
 *     reused), the client's idempotency key when one was given;
 *   - the submission: circuit and its curve, priority, partitions, timeout, a fixed
 *     blinding when the server allows one, and per partition its input
 *     (a seed, a witness path as the client gave it, or a streamed
 *     witness's values);
 *   - its state and message, timestamps (Unix seconds);
 *   - per partition its state, and its proof and public inputs once
 *     proved. A proof has its job's curve's size (192 bytes for
 *     BLS12-381, 256 for BN254); a proof of another size is refused,
 *     naming the job and the partition. The scalars (witnesses, public
 *     inputs, blinding) are the curve's, in fr_t slots
 *     (field/scalar_slots.h).
 * The witnesses and the blinding are dropped when the job is final.
 *
 * Every operation is thread-safe (the implementation serializes). An
 * operation that fails returns a cuzk_status and, with msg, says why. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "curve/curve_id.h"
#include "engine/engine.h"
#include "field/fr.h"
#include "formats/bn254_proof.h"

#define STORE_ID_CHARS 32 /* a public job id: 32 lowercase hex digits */
#define STORE_KEY_MAX 128 /* an idempotency key: 1 to this many printable ASCII bytes */
/* One partition's proof at most: curve_proof_bytes(job's curve) of it. */
#define STORE_PROOF_MAX CURVE_PROOF_MAX_BYTES

/* A fresh id from the system's random source; false when it has none. */
bool store_new_id(char out[STORE_ID_CHARS + 1]);
/* Whether text is an id's shape (it may still be unknown). */
bool store_id_valid(const char *text);
/* Whether text may serve as an idempotency key. */
bool store_key_valid(const char *text);

/* A job's row: the submission, and its state as last written. */
typedef struct store_job {
    char id[STORE_ID_CHARS + 1];
    char key[STORE_KEY_MAX + 1]; /* empty: none */
    char circuit[64];
    curve_id curve; /* the circuit's: the size of the job's proofs, the field of its scalars */
    engine_priority priority;
    uint32_t partitions;
    double timeout_s;
    bool has_blinding; /* r, s fixed for every partition (dropped when final) */
    fr_t r, s;
    engine_state state; /* QUEUED until final (a running job is not told apart) */
    uint32_t partitions_done;
    /* Several hosts (PostgreSQL; 0 otherwise): partitions leased to a
     * host now, not proved yet; claims of its partitions, retries and
     * claims after a lease ran out included. */
    uint32_t partitions_running, attempts;
    char message[256];
    double submitted_at, finished_at; /* Unix seconds; finished_at 0 until final */
} store_job;

/* One partition: its input as submitted, and what became of it. */
typedef struct store_partition {
    uint64_t seed;        /* when neither of the next two */
    char *wtns_path;      /* the path the client named (NULL: none) */
    fr_t *witness;        /* a streamed witness's values (NULL: none) */
    uint64_t witness_len; /* values */
    /* wtns_path names a streamed witness that a host wrote to the shared
     * spill folder (server.witness_spill_dir), not a file the client
     * named: opened beneath that folder, and removed once its job is final
     * (store_cluster_ops.drop_spills). PostgreSQL only. */
    bool spilled;
    engine_state state; /* DONE once its proof is stored; PROVING: leased to a host now */
    char *host;         /* the host proving it now, or that wrote its proof (NULL: none) */
    uint8_t proof[STORE_PROOF_MAX];
    size_t proof_len; /* curve_proof_bytes(the job's curve) when DONE, else 0 */
    fr_t *pub;        /* its public inputs, num_pub of them, when DONE */
    uint64_t num_pub;
} store_partition;

void store_partitions_free(store_partition *parts, uint32_t n);
/* A stored partition's proof column (len bytes) of a job on curve:
 * copied when it has that curve's proof size; otherwise the partition is
 * not done, whatever its state column says. For the implementations. */
void store_partition_proof(store_partition *p, curve_id curve, const void *proof, size_t len);
/* The end of reading n partitions: *out = parts when st is CUZK_OK, else
 * they are freed. Returns st. For the implementations. */
cuzk_status store_partitions_give(store_partition *parts, uint32_t n, cuzk_status st,
                                  store_partition **out);
/* Whether a job's row read back is one the service could have written:
 * 1 to STORE_MAX_PARTITIONS partitions, a known state, priority and curve.
 * CUZK_ERR_CORRUPT, saying which, otherwise (a store edited or damaged
 * by hand): no operation sizes memory by an unchecked count. For the
 * implementations, on every row they read. */
#define STORE_MAX_PARTITIONS 65536u /* the service's bound on a submission */
cuzk_status store_row_check(const store_job *job, char *msg, size_t msg_len);

/* A change, applied with others in one transaction (store_write). */
typedef enum store_update_kind {
    STORE_PARTITION_DONE, /* partition idx proved: proof and public inputs */
    STORE_JOB_FINAL,      /* the job is final: state, message, finished_at */
} store_update_kind;

typedef struct store_update {
    store_update_kind kind;
    char id[STORE_ID_CHARS + 1];
    uint32_t idx;
    const uint8_t *proof; /* proof_len bytes: its job's curve's proof size */
    size_t proof_len;
    const fr_t *pub;
    uint64_t num_pub;
    engine_state state;
    const char *message;
    double at;
} store_update;

/* Whether u's proof (a STORE_PARTITION_DONE) has the size of a proof on
 * curve, the curve of u's job as stored; CUZK_ERR_INVALID_ARGUMENT,
 * naming the job, the partition and both sizes, when not. For the
 * implementations, in the transaction that writes the proof. */
cuzk_status store_proof_check(const store_update *u, curve_id curve, char *msg, size_t msg_len);

typedef struct store store;

/* An add refused because the shared queue is at its bound
 * (store_cluster_ops.bound_queue): try again later. */
#define STORE_QUEUE_FULL CUZK_ERR_UNSUPPORTED

/* ------------------------------------------------------------- cluster
 * Several hosts on one store (PostgreSQL only; docs/CLUSTER.md). A host
 * claims partitions, not jobs: a claim is a lease (the host's id and an
 * expiry on the database's clock) renewed by the host's heartbeat; a
 * lease that expires is claimable again by any host. The first proof
 * written for a partition stays; whoever writes a job's last proof makes
 * it done, in the same transaction. Every change a waiter may care about
 * (a job final, new work) raises a notification: store_cluster_ops.wait
 * returns on the next one. */

/* A claimed partition, with what proving it takes, read by the claim
 * itself: its job's row (partitions_done not counted) and its own input
 * (the other partitions' are not read). store_leases_free. */
typedef struct store_lease {
    char id[STORE_ID_CHARS + 1];
    uint32_t idx;
    store_job job;
    store_partition input; /* seed, wtns_path or witness */
} store_lease;

/* Frees what n leases own (their inputs) and wipes their jobs' blinding;
 * their ids and indices stay. */
void store_leases_free(store_lease *leases, uint32_t n);

/* A host as the store last heard of it. */
typedef struct store_host {
    char host[128];
    double beat_age_s; /* since its last heartbeat, on the database's clock */
    bool draining;
    uint64_t leases; /* partitions it holds on a lease not expired */
} store_host;

/* The cluster seen from the store (store_cluster_info_free). */
typedef struct store_cluster_info {
    store_host *hosts; /* malloc'd */
    size_t num_hosts;
    /* unproved partitions of unfinished jobs, per priority: claimable
     * (no lease, or an expired one) and leased */
    uint64_t waiting[ENGINE_PRIORITY_COUNT], leased[ENGINE_PRIORITY_COUNT];
} store_cluster_info;

void store_cluster_info_free(store_cluster_info *info);

typedef struct store_cluster_ops {
    /* Claims up to max unproved partitions of unfinished jobs of the
     * named circuits, unleased or with an expired lease, in priority
     * order then submission order, skipping rows another host is
     * claiming at the moment; each leased to host for lease_s seconds.
     * *n of them into out. */
    cuzk_status (*claim)(store *st, const char *host, const char *const *circuits,
                         size_t num_circuits, uint32_t max, double lease_s, store_lease *out,
                         uint32_t *n, char *msg, size_t msg_len);
    /* The heartbeat: records host (its circuits, whether it drains) and
     * renews its leases for lease_s seconds. */
    cuzk_status (*beat)(store *st, const char *host, const char *circuits, bool draining,
                        double lease_s, char *msg, size_t msg_len);
    /* A partition's proof, unless it has one already (the first stays)
     * or the job is final; *finished when this made the job done. */
    cuzk_status (*complete)(store *st, const char *host, const store_update *u, bool *finished,
                            char *msg, size_t msg_len);
    /* complete, then claim as claim does, in one transaction: a host's
     * proof and its next work for one round trip and one commit. Either
     * both happen or neither. */
    cuzk_status (*complete_claim)(store *st, const char *host, const store_update *u,
                                  bool *finished, const char *const *circuits, size_t num_circuits,
                                  uint32_t max, double lease_s, store_lease *out, uint32_t *n,
                                  char *msg, size_t msg_len);
    /* A partition failed on host: its lease ends and its failures grow;
     * at `limit` failures the job fails with reason. *failed: it did. */
    cuzk_status (*fail_partition)(store *st, const char *id, uint32_t idx, const char *reason,
                                  uint32_t limit, bool *failed, char *msg, size_t msg_len);
    /* Ends host's lease of a partition not proved (idx UINT32_MAX: all
     * of host's leases, id ignored): claimable at once. */
    cuzk_status (*release)(store *st, const char *host, const char *id, uint32_t idx, char *msg,
                           size_t msg_len);
    /* Makes a job final (state, message) unless it is already: *changed
     * when this did. */
    cuzk_status (*finish)(store *st, const char *id, engine_state state, const char *message,
                          bool *changed, char *msg, size_t msg_len);
    /* Removes host's record (a clean exit) and releases its leases. */
    cuzk_status (*leave)(store *st, const char *host, char *msg, size_t msg_len);
    cuzk_status (*info)(store *st, store_cluster_info *out, char *msg, size_t msg_len);
    /* The notifications seen so far (a counter), and a wait of up to
     * timeout_s for one after `seen`: false on timeout. */
    uint64_t (*events)(store *st);
    bool (*wait)(store *st, uint64_t seen, double timeout_s);
    /* final[i]: whether job ids[i] is final (or gone), for i < n. */
    cuzk_status (*finals)(store *st, const char (*ids)[STORE_ID_CHARS + 1], size_t n, bool *final,
                          char *msg, size_t msg_len);
    /* Bounds the queue all hosts share, for this store's adds from now
     * on: an add that would leave more than max partitions unproved in
     * unfinished jobs (queued or running, on any host) is refused with
     * STORE_QUEUE_FULL and a message saying how full the queue is; the
     * count and the add are one transaction, serialized across hosts, so
     * the bound holds exactly. 0: no bound. */
    void (*bound_queue)(store *st, uint64_t max);
    /* Every job's id, oldest first (*ids malloc'd). */
    cuzk_status (*ids)(store *st, char (**ids)[STORE_ID_CHARS + 1], size_t *n, char *msg,
                       size_t msg_len);
    /* The spilled witness files (store_partition.spilled) of final jobs:
     * job id's, or with id NULL those of any final jobs, up to max. Each
     * path goes to remove(ctx, path), outside the store's lock (a file
     * on a shared folder may be slow to remove); the partitions of those
     * it says are gone (removed, or missing already) forget their path.
     * *gone: how many. A job that is not final keeps its files. */
    cuzk_status (*drop_spills)(store *st, const char *id, uint32_t max,
                               bool (*remove)(void *ctx, const char *path), void *ctx,
                               uint32_t *gone, char *msg, size_t msg_len);
    /* Of n files found in the spill folder (paths[i], named as written
     * for job jobs[i]), those the store may still need: needed[i] when
     * job jobs[i] has a row (its partitions may name the file, whatever
     * spelling of the folder the host that wrote it had) or a spilled
     * partition names paths[i]. A file neither keeps is an orphan: its
     * job was never recorded (its host stopped between writing the file
     * and committing the job) or has expired, and nothing will read or
     * remove it. */
    cuzk_status (*spills_needed)(store *st, const char *const *paths, const char *const *jobs,
                                 size_t n, bool *needed, char *msg, size_t msg_len);
} store_cluster_ops;

/* Called per job by store_list, in submission order; false stops. */
typedef bool (*store_job_fn)(void *ctx, const store_job *job);

typedef struct store_ops {
    void (*close)(store *st);
    /* Adds a job and its partitions' inputs (parts[i].state, proofs
     * ignored) in one transaction, durable when it returns. A job whose
     * key another job holds is not added: CUZK_ERR_INVALID_ARGUMENT with
     * *existing (when given) that job's id. */
    cuzk_status (*add)(store *st, const store_job *job, const store_partition *parts,
                       char existing[STORE_ID_CHARS + 1], char *msg, size_t msg_len);
    /* The id of the job holding key; false when none. */
    bool (*find_key)(store *st, const char *key, char id[STORE_ID_CHARS + 1]);
    /* Applies n updates in one transaction. Updates of unknown jobs are
     * skipped (expired, or never added). */
    cuzk_status (*write)(store *st, const store_update *u, size_t n, char *msg, size_t msg_len);
    /* Every job's row, oldest first. */
    cuzk_status (*list)(store *st, store_job_fn fn, void *ctx, char *msg, size_t msg_len);
    /* One job: its row, and (when parts is given) its partitions
     * (*parts malloc'd, job->partitions of them; store_partitions_free).
     * CUZK_ERR_INVALID_ARGUMENT when unknown. */
    cuzk_status (*get)(store *st, const char *id, store_job *job, store_partition **parts,
                       char *msg, size_t msg_len);
    /* Deletes final jobs finished before `before` (Unix seconds; 0: none
     * by age), and beyond the newest `keep` final ones. Each deleted id
     * goes to fn (may be NULL). */
    cuzk_status (*expire)(store *st, double before, uint64_t keep, store_job_fn fn, void *ctx,
                          char *msg, size_t msg_len);
    /* Several hosts on the store; NULL: one host only (SQLite). */
    const store_cluster_ops *cluster;
} store_ops;

/* Every implementation's handle starts with its operations. */
struct store {
    const store_ops *ops;
};

/* Opens (creating when missing) the SQLite store `jobs.sqlite` in dir,
 * which is created 0700 when missing. */
cuzk_status store_open_sqlite(store **out, const char *dir, char *msg, size_t msg_len);

/* Opens the PostgreSQL store at conninfo (a postgresql:// URL or libpq's
 * key=value settings), applying the schema's missing migrations (one
 * transaction each, under an advisory lock: hosts opening one database
 * at once apply each exactly once). Messages name the server, never its
 * password. */
cuzk_status store_open_postgres(store **out, const char *conninfo, char *msg, size_t msg_len);
/* The server conninfo names, as messages show it: its settings but the
 * password. */
void store_postgres_where(const char *conninfo, char *out, size_t cap);
/* Whether where is a postgresql:// or postgres:// URL. */
bool store_is_postgres_url(const char *where);

/* The state folder when server.state_dir is unset: $XDG_STATE_HOME/cuzk,
 * or ~/.local/state/cuzk. */
void store_default_dir(char *out, size_t cap);

/* Jobs gathered by store_jobs_add (a store_job_fn); free jobs when done. */
typedef struct store_jobs {
    store_job *jobs;
    size_t n, cap;
} store_jobs;
/* Appends job to ctx (a store_jobs); false when out of memory. */
bool store_jobs_add(void *ctx, const store_job *job);
/* Hands each gathered job to fn (when not NULL), in order, then frees
 * them. */
void store_jobs_hand(store_jobs *x, store_job_fn fn, void *ctx);

/* The operations, by name. */
/* The store's cluster operations; NULL when it serves one host only. */
static inline const store_cluster_ops *store_cluster(store *st)
{
    return st ? st->ops->cluster : NULL;
}
static inline void store_close(store *st)
{
    if (st)
        st->ops->close(st);
}
static inline cuzk_status store_add(store *st, const store_job *job, const store_partition *parts,
                                    char existing[STORE_ID_CHARS + 1], char *msg, size_t msg_len)
{
    return st->ops->add(st, job, parts, existing, msg, msg_len);
}
static inline bool store_find_key(store *st, const char *key, char id[STORE_ID_CHARS + 1])
{
    return st->ops->find_key(st, key, id);
}
static inline cuzk_status store_write(store *st, const store_update *u, size_t n, char *msg,
                                      size_t msg_len)
{
    return st->ops->write(st, u, n, msg, msg_len);
}
static inline cuzk_status store_list(store *st, store_job_fn fn, void *ctx, char *msg,
                                     size_t msg_len)
{
    return st->ops->list(st, fn, ctx, msg, msg_len);
}
static inline cuzk_status store_get(store *st, const char *id, store_job *job,
                                    store_partition **parts, char *msg, size_t msg_len)
{
    return st->ops->get(st, id, job, parts, msg, msg_len);
}
static inline cuzk_status store_expire(store *st, double before, uint64_t keep, store_job_fn fn,
                                       void *ctx, char *msg, size_t msg_len)
{
    return st->ops->expire(st, before, keep, fn, ctx, msg, msg_len);
}

#endif
