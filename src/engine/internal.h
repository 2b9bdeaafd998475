#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H

/* The engine's insides, shared by its files:
 *   engine.c    create, shutdown, destroy, status
 *   registry.c  circuits: register, load, evict (LRU), buffer pools
 *   jobs.c      the job table: submit, status, wait, cancel, stop, finish
 *   sched.c     what a synthesis worker or a prover takes next
 *   workers.c   the synthesis, prover and finalizer threads, the watchdog
 *
 * One mutex (engine.mu) guards all of the state below; nothing slow runs
 * under it (loading, synthesis, proving, verifying and the freeing of big
 * buffers all happen outside). Lock order: engine.mu, then the event log's
 * mutex, then a backend's device lock is never taken under engine.mu. */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "backend/backend.h"
#include "engine/engine.h"
#include "engine/events.h"
#include "engine/faults.h"
#include "circuits/circuit.h"
#include "field/scalar_slots.h"
#include "formats/bn254_proof.h"
#include "groth16/assemble.h"
#include "groth16/keys.h"
#include "r1cs/r1cs.h"

#define ENGINE_MAX_BACKENDS 2 /* the primary, and the CPU as a fallback for a GPU one */
#define ENGINE_MAX_SLOTS 64   /* devices over all backends (a 64-bit placement mask) */

typedef struct job job;

/* One partition's buffers: w, then a, b, c (domain-sized), 64-byte aligned;
 * w alone where the backend evaluates a, b, c (circuit.abc_on_backend). */
typedef struct buf_set {
    struct buf_set *next;
    fr_t *w;
    fr_t *abc;           /* NULL: w alone */
    backend_t *host_mem; /* the backend whose host_alloc made it; NULL: aligned_alloc */
} buf_set;

typedef enum circuit_state {
    CIRCUIT_IDLE,      /* registered, not resident */
    CIRCUIT_LOADING,   /* a thread is loading it */
    CIRCUIT_UNLOADING, /* a thread is freeing it */
    CIRCUIT_RESIDENT,
} circuit_state;

typedef struct circuit {
    struct circuit *next;
    struct circuit *unload_next; /* in a list of victims being unloaded */
    char name[64];
    circuit_spec spec;      /* the caller's, copied (circuit_spec_copy) */
    const char *path;       /* the key file the spec names (in spec) */
    const circuit_ops *ops; /* its kind's operations: all the engine knows of it */
    /* Counts known at registration (ops->probe). */
    curve_id curve;     /* every scalar of its buffers is of this curve (field/scalar_slots.h) */
    size_t proof_bytes; /* of one partition's proof: curve_proof_bytes(curve) */
    uint64_t num_vars;
    uint64_t num_public; /* public inputs, ONE excluded */
    uint64_t domain_n;
    uint64_t rows;           /* rows of a, b, c */
    uint64_t estimate_bytes; /* resident size before the first load; then the last actual */
    uint64_t set_bytes;      /* one buf_set's data */
    /* The backends evaluate a, b, c from w (prove() gets abc NULL), so the
     * sets hold w alone: fixed at registration (engine_abc_eval). */
    bool abc_on_backend;
    /* Residency. */
    circuit_state state;
    uint32_t refs;           /* unfinished jobs naming it */
    uint64_t last_used;      /* LRU tick */
    uint64_t resident_bytes; /* host memory, actual, while resident */
    uint64_t device_bytes;   /* what the backends made resident on their devices */
    char placement[384];     /* the primary backend's describe line (backend.h) */
    uint32_t loads;
    /* Loaded data (valid while RESIDENT): the kind's constraint system,
     * plan and verifying key. */
    circuit_loaded loaded;
    groth16_pvk_t pvk;
    void *handle[ENGINE_MAX_BACKENDS];
    /* The buffer pool: set_bytes each, never returned to the allocator per
     * partition; freed when the circuit is evicted or another circuit's
     * pool needs the budget. */
    buf_set *free_sets;
    uint32_t sets, sets_free;
} circuit;

typedef struct partition {
    engine_state state;
    uint32_t attempts;       /* prover attempts */
    uint32_t synth_failures; /* synthesis attempts that failed and may be retried
                                (out of memory, a worker that died) */
    uint64_t avoid;          /* device slots that failed it */
    uint64_t seed;
    char *wtns_path;      /* owned */
    fr_t *witness;        /* owned copy */
    fr_t *abc;            /* owned copy of the caller's a, b, c (3 × rows), or NULL */
    uint64_t enqueued_ns; /* when it (re)entered the queue */
    buf_set *set;         /* while synthesizing or proving */
    groth16_sums sums;    /* from the prover, for the finalizer */
    int slot;             /* the device slot that proved it last */
} partition;

struct job {
    uint64_t id, seq;
    char label[48]; /* engine_job_spec.label; empty: none */
    engine_priority prio;
    circuit *c;
    uint32_t n;
    partition *parts;      /* NULL once final: final_states then */
    uint8_t *final_states; /* a final job's partition states */
    engine_state state;    /* terminal ones are final */
    char message[256];
    /* Scheduling. */
    job *sched_prev, *sched_next; /* in e->sched[prio] while it has partitions to start */
    bool in_sched;
    uint32_t next_start; /* next never-started partition */
    uint32_t *retry;     /* partitions to start again (FIFO), n entries */
    uint32_t retry_head, retry_len;
    uint32_t inflight; /* partitions synthesizing, proving or finalizing */
    uint32_t done;
    uint32_t attempts;
    bool stop; /* failing or cancelling: stop at the next boundary */
    engine_state stop_state;
    uint64_t submit_ns, deadline_ns, finish_ns;
    fr_t *pub;      /* n × num_public public inputs, for verification */
    fr_t *rs;       /* fixed blinding: r, s of partition i at 2i, 2i + 1; NULL: drawn */
    uint8_t *proof; /* n × c->proof_bytes */
};

/* A partition in a queue between stages. */
typedef struct work {
    job *j;
    uint32_t idx;
} work;

typedef struct work_queue {
    work *items;
    uint32_t len, cap;
} work_queue;

/* A device that prover workers serve. */
typedef struct slot {
    unsigned backend; /* index into engine.backends */
    unsigned device;  /* the backend's device number */
    bool fallback;    /* takes only partitions that failed elsewhere */
} slot;

typedef enum worker_kind { WORKER_SYNTH, WORKER_PROVER, WORKER_FINAL, WORKER_WATCHDOG } worker_kind;

typedef struct worker {
    struct engine *e;
    worker_kind kind;
    unsigned slot;
    char name[32];
    pthread_t tid;
    bool started;
    bool dead; /* its thread ended abnormally; the watchdog joins and restarts it */
} worker;

struct engine {
    engine_config cfg; /* resolved: no autos left */
    /* cfg.buffer_budget was left to the engine: a circuit whose two sets
     * of buffers it does not hold may raise it (engine_auto_buffer_budget). */
    bool buffer_budget_auto;
    uint64_t physical_memory;
    char *event_path;
    pthread_mutex_t mu;
    pthread_cond_t synth_cv, prove_cv, final_cv, done_cv, watch_cv;
    event_log *log;
    backend_t *backends[ENGINE_MAX_BACKENDS];
    bool owns_backend[ENGINE_MAX_BACKENDS];
    unsigned num_backends;
    slot slots[ENGINE_MAX_SLOTS];
    unsigned num_slots;
    char backend_note[160];

    circuit *circuits;
    size_t num_circuits;
    job **jobs; /* sorted by id */
    size_t num_jobs, cap_jobs;
    job *sched_head[ENGINE_PRIORITY_COUNT], *sched_tail[ENGINE_PRIORITY_COUNT];
    work_queue prove_q, final_q;
    uint64_t next_id, next_seq, tick;
    uint32_t synthesizing, proving, finalizing;

    uint64_t buf_allocated, buf_in_use, buf_peak;
    uint64_t pool_allocs, pool_frees, pool_acquires, pool_releases;
    uint64_t resident_bytes;
    uint64_t partitions_proved, retries, verify_failures;
    uint64_t workers_restarted;

    engine_faults *faults; /* injected faults (faults.h); NULL: none */
    bool closing;          /* no new jobs */
    bool exiting;          /* threads leave */
    bool shut;             /* engine_shutdown finished */
    worker *workers;
    unsigned num_workers;
    struct telemetry_sampler *sampler; /* NULL: device telemetry off */
    engine_observer observer;          /* callbacks NULL: none */
};
typedef struct engine engine;

/* ----- registry.c (engine.mu held unless said) */
circuit *registry_find(engine *e, const char *name);
/* Resident-budget room for c (IDLE): picks idle victims, least recently
 * used first, marks them UNLOADING and lists them in *victims. Returns 1
 * when c fits once they are freed (c is then LOADING, its estimate
 * reserved), 0 when it must wait for circuits in use to go idle, −1 when
 * it can never fit. */
int registry_make_room(engine *e, circuit *c, circuit **victims);
/* Unlocked then locked: unloads a victims list (from registry_make_room). */
void registry_unload_victims(engine *e, circuit *victims);
/* Unlocked: frees a circuit's loaded data and pool (state UNLOADING). */
void registry_unload(engine *e, circuit *c);
/* Locked after registry_unload: accounting, state IDLE. */
void registry_unloaded(engine *e, circuit *c);
/* Unlocked: loads c (state LOADING) and prepares it on every backend. */
/* Prover workers on the primary devices (the CPU fallback's take only
 * partitions that failed elsewhere). */
unsigned engine_primary_provers(const engine *e);

cuzk_status registry_load(engine *e, circuit *c, char *msg, size_t msg_len);
/* Whether the device slot's backend holds resident circuit c (a CPU
 * fallback gives up a circuit whose host points were dropped: registry.c). */
bool registry_serves(const engine *e, const circuit *c, unsigned s);
/* Locked after registry_load: accounting, state RESIDENT or IDLE; idle
 * circuits are evicted if the actual size overshoots the estimate (this
 * unlocks engine.mu for a while). */
void registry_loaded(engine *e, circuit *c, cuzk_status st);
/* A buffer set for c: from its pool, or newly allocated within the buffer
 * budget after trimming other circuits' idle pools into *trim (free them
 * unlocked with pool_free_list). Returns 1 and the set (*set NULL: allocate
 * one unlocked with pool_alloc_set), 0 when the budget is full for now,
 * −1 when one set exceeds the budget. */
int pool_take(engine *e, circuit *c, buf_set **set, buf_set **trim);
buf_set *pool_alloc_set(engine *e, const circuit *c);
void pool_free_list(buf_set *list);
void pool_give_back(engine *e, circuit *c, buf_set *set);
/* Locked, right after registry_loaded succeeded: when the primary backend
 * allocates the buffers itself (host_alloc: page-locked memory, whose
 * allocation is slow and serializes in the GPU driver), fills c's pool up
 * to the most sets in use at once (the queue bound plus one per prover
 * worker) within the buffer budget now, at load time, instead
 * of in the first partitions' synthesis. Unlocks engine.mu while it
 * allocates. */
void pool_prefill(engine *e, circuit *c);
/* A failed pool_alloc_set: undoes pool_take's reservation. */
void pool_unreserve(engine *e, circuit *c);
void registry_free_all(engine *e);

/* ----- jobs.c (engine.mu held) */
job *jobs_find(engine *e, uint64_t id);
/* Stops a job: its queued partitions are cancelled at once, queued work
 * dropped (buffers back to the pools); the rest stops at the next
 * boundary. First reason wins. */
void job_stop(engine *e, job *j, engine_state why, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Finishes j when nothing of it runs and it is stopped or complete. */
void job_maybe_finish(engine *e, job *j);
/* A partition leaves the pipeline at a boundary because its job stops. */
void job_drop_partition(engine *e, job *j, uint32_t idx);
void job_requeue(engine *e, job *j, uint32_t idx);
/* Moves j->next_start past partitions proved before (a resumed job). */
void job_skip_done(job *j);
/* The earliest unfinished state of j (see engine_state). */
engine_state job_state(const job *j);
void jobs_free_all(engine *e);

/* ----- sched.c (engine.mu held) */
void sched_add(engine *e, job *j);
void sched_remove(engine *e, job *j);
void wq_push(work_queue *q, work w);
bool wq_take(work_queue *q, uint32_t i, work *out);
void wq_free(work_queue *q);
/* Drops every queued item of j from the prove and finalize queues. */
void sched_drop_job(engine *e, job *j);

typedef enum pick_kind { PICK_NONE, PICK_SYNTH, PICK_LOAD } pick_kind;
typedef struct pick {
    pick_kind kind;
    job *j;
    uint32_t idx;
    circuit *c;
    buf_set *set; /* NULL with need_alloc: allocate unlocked */
    bool need_alloc;
    buf_set *trim;    /* sets to free unlocked first */
    circuit *victims; /* to unload first (PICK_LOAD), linked by unload_next */
} pick;
pick sched_pick_synth(engine *e);
/* The next prove-queue item slot s may take; false when none. */
bool sched_pick_prove(engine *e, unsigned s, work *out);

/* ----- workers.c */
void *worker_main(void *arg);
void engine_span(engine *e, const char *name, const char *cat, const job *j, uint32_t idx,
                 const char *who, int device, uint64_t start, uint64_t end, uint64_t bytes);
void engine_counters(engine *e); /* buffer and queue counters (locked) */

/* ----- telemetry.c: device telemetry and copy events */
void engine_telemetry_start(engine *e);             /* after the backends; says once why when off */
void engine_telemetry_stop(engine *e);              /* after the workers are joined */
void engine_telemetry_hold(engine *e, bool in_use); /* around prove() */
void engine_copy_span(engine *e, const job *j, uint32_t idx, const char *who, int device,
                      const backend_copy *cp);

/* ----- small helpers */
#define engine_msg backend_msg /* messages on error paths (backend.h) */
void engine_timeout_at(struct timespec *ts, double seconds);

#endif
