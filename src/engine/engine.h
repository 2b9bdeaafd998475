#ifndef CUZK_ENGINE_ENGINE_H
#define CUZK_ENGINE_ENGINE_H

/* The proving engine: a library that keeps circuits' parameters resident
 * and proves jobs through a pipeline (docs/ENGINE.md has the picture, the
 * knobs and their defaults):
 *
 *   submit -> [priority queues] -> synthesis workers (w; a, b, c = A·w, B·w, C·w)
 *          -> [bounded prove queue] -> prover workers, W per device (backend)
 *          -> [finalize queue] -> finalizers (assemble, verify, answer)
 *
 * A job names a registered circuit and carries N partitions; its proof is
 * the partitions' proofs in order (192 bytes each for BLS12-381, 256 for
 * BN254: the circuit's proof_bytes). Every submitted job reaches a
 * terminal state (done, failed, cancelled) with a reason, shutdown
 * included. Every function is thread-safe. Functions that can fail return
 * a cuzk_status and, when msg is given, a message saying what and why. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "circuits/circuit.h"
#include "cuzk/status.h"
#include "curve/curve_id.h"
#include "field/fr.h"
#include "formats/common.h"

typedef enum engine_priority {
    ENGINE_PRIORITY_CRITICAL = 0,
    ENGINE_PRIORITY_HIGH,
    ENGINE_PRIORITY_NORMAL,
    ENGINE_PRIORITY_LOW,
    ENGINE_PRIORITY_COUNT
} engine_priority;

/* States of a partition and of a job, in pipeline order. A job is QUEUED
 * until one of its partitions starts, then in the earliest state any of its
 * unfinished partitions is in (waiting for a prover counts as PROVING),
 * until all are DONE, or it fails or is cancelled. */
typedef enum engine_state {
    ENGINE_STATE_QUEUED = 0,
    ENGINE_STATE_SYNTHESIZING,
    ENGINE_STATE_PROVING,
    ENGINE_STATE_FINALIZING,
    ENGINE_STATE_DONE,
    ENGINE_STATE_FAILED,
    ENGINE_STATE_CANCELLED,
} engine_state;

static inline bool engine_state_is_terminal(engine_state s)
{
    return s >= ENGINE_STATE_DONE;
}

/* "critical", "high", "normal", "low"; "queued", "synthesizing", ... */
const char *engine_priority_name(engine_priority p);
bool engine_priority_parse(const char *s, engine_priority *out);
const char *engine_state_name(engine_state s);

/* Where a, b, c of a circuit with a constraint system are evaluated. */
typedef enum engine_abc_eval {
    /* On the backend when it is not the CPU and every backend can (a GPU
     * next to its resident matrices: only w crosses PCIe, and the
     * partition buffers hold w alone); else by the synthesis workers. */
    ENGINE_ABC_AUTO = 0,
    ENGINE_ABC_SYNTHESIS, /* always by the synthesis workers, on the host */
    ENGINE_ABC_BACKEND,   /* on the backend whenever every backend can, the CPU's too (tests) */
} engine_abc_eval;

/* "auto", "synthesis" or "backend" into *out; false for anything else. */
bool engine_abc_eval_parse(const char *s, engine_abc_eval *out);

/* Every knob; engine_config_default() fills in the defaults (the table in
 * docs/ENGINE.md). Thread counts and budgets of 0 mean "auto-sized". */
typedef struct engine_config {
    backend_kind backend;           /* auto | cpu | cuda */
    backend_t *backend_override;    /* use this backend instead (not owned; tests, embedders) */
    unsigned cpu_devices;           /* CPU backend: pose as this many devices (tests); 1 */
    unsigned device_threads;        /* CPU backend: threads per device; 0 = all CPUs */
    unsigned workers_per_device;    /* prover workers per device; 2 */
    unsigned synth_workers;         /* synthesis workers (partitions at once); 0 = auto: the CPUs
                                       synthesis gets split by engine_synth_pool_size */
    unsigned synth_threads;         /* threads of one synthesis worker's witness and a, b, c;
                                       0 = auto, likewise */
    unsigned expected_log_rows;     /* log2 of the rows of the circuits mostly proved, which the
                                       auto split follows; 0 = ENGINE_EXPECTED_LOG_ROWS */
    engine_abc_eval abc_eval;       /* where a, b, c are evaluated; auto */
    unsigned finalizers;            /* finalizer threads; 0 = auto: ncpu / 16, 1 .. 4 */
    unsigned load_threads;          /* threads for loading circuits; 0 = all CPUs */
    unsigned queue_bound;           /* synthesized-or-synthesizing partitions not yet taken by a
                                       prover; 0 = auto: synthesis workers + prover workers */
    uint64_t buffer_budget;         /* bytes of partition buffers (w, a, b, c); 0 = auto: RAM / 4,
                                       raised by engine_auto_buffer_budget at registrations */
    uint64_t resident_budget;       /* host bytes of resident circuits; 0 = auto: RAM * 3 / 4 */
    uint64_t device_budget;         /* device bytes per circuit and device (parameters and a
                                       partition's buffers); 0 = the device's memory. A GPU
                                       backend streams the points that do not fit. */
    bool verify;                    /* pairing check of every partition proof; true */
    const char *event_log;          /* JSON-lines timing events; NULL = none */
    unsigned retries;               /* further attempts of a partition after a backend error; 2 */
    bool cpu_fallback;              /* a non-CPU backend gets the CPU as a fallback device for
                                       retries; true */
    double default_timeout_s;       /* per job, from submission; 0 = none */
    unsigned keep_finished;         /* finished jobs kept for queries (oldest dropped); 1024 */
    bool quiet;                     /* no line on stderr about the backend chosen */
    unsigned telemetry_interval_ms; /* GPU telemetry into event_log every this many ms while a
                                       device is in use; 0 = off (no thread); 20 */
    struct telemetry_source *telemetry_source; /* read this instead of NVML (not owned; tests) */
    /* Fed with every span and job event (engine/metrics.h); not owned, it
     * outlives the engine. NULL = none. */
    struct engine_metrics *metrics;
} engine_config;

void engine_config_default(engine_config *cfg);

/* A 32 GiB PoRep partition: the auto sizes favour the circuits the engine
 * is for, unless told otherwise. */
#define ENGINE_EXPECTED_LOG_ROWS 27

/* The synthesis pool's split of `cpus` CPUs (GPU backend: all less the
 * finalizers and prover workers; CPU backend: ncpu / 4) into workers ×
 * threads. *workers and *threads come in as 0 (auto) or a count (kept).
 * Both auto: the threads one partition of 2^log_rows rows uses well (1 up
 * to 2^20, doubling per size step to 16 from 2^24: its witness runs a
 * challenge per thread), workers = cpus / that in 1..max_workers, and
 * threads = cpus / workers, so workers × threads ≤ cpus: few workers with
 * many threads at PoRep sizes (a partition's latency, and gigabytes of
 * host memory per partition in flight), many with one at small sizes.
 * One given: the other is cpus divided by it. Each comes out ≥ 1. */
void engine_synth_pool_size(unsigned cpus, unsigned max_workers, unsigned log_rows,
                            unsigned *workers, unsigned *threads);

typedef struct engine engine_t;

/* Starts the threads. The config is copied (event_log too). */
cuzk_status engine_create(engine_t **out, const engine_config *cfg, char *msg, size_t msg_len);

/* Stops the engine: with drain, waits for every job to finish; otherwise
 * cancels every unfinished job with the reason "engine shut down" (running
 * partitions stop at their next boundary). Then joins every thread. New
 * submissions fail from the start of the call; queries still work after
 * it. Idempotent. */
void engine_shutdown(engine_t *e, bool drain);

/* engine_shutdown(e, false) if not done yet, then frees everything. */
void engine_destroy(engine_t *e);

/* ------------------------------------------------------------ circuits */

/* A circuit is registered by its spec (circuits/circuit.h: its kind and
 * key file); the engine uses it only through the kind's operations. */

/* Registers a circuit: checks the spec and the file's header (cheap: the
 * file is mapped, not loaded). Loading happens on engine_preload or at the
 * first job. A duplicate name is CUZK_ERR_INVALID_ARGUMENT. */
cuzk_status engine_register(engine_t *e, const circuit_spec *spec, char *msg, size_t msg_len);

/* Loads a circuit now (evicting idle ones, least recently used first, to
 * stay within the resident budget). CUZK_OK when it is resident. */
cuzk_status engine_preload(engine_t *e, const char *name, char *msg, size_t msg_len);

/* A copy of a circuit's verifying key (out->ic is the caller's:
 * groth16_vk_free), loading the circuit first when it is not resident:
 * the verifying key of development parameters ("dev:SEED") exists only
 * once they are made. */
cuzk_status engine_circuit_vk(engine_t *e, const char *name, groth16_vk_t *out, char *msg,
                              size_t msg_len);

/* Frees a resident circuit and its buffer pool. Refused with
 * CUZK_ERR_INVALID_ARGUMENT while an unfinished job uses it (or it is
 * loading); CUZK_OK also when it was not resident. */
cuzk_status engine_evict(engine_t *e, const char *name, char *msg, size_t msg_len);

/* ----------------------------------------------------------------- jobs */

/* One partition's witness: exactly one of seed, wtns_path and witness;
 * and, optionally (required by kinds without a constraint system, the
 * external one), its a, b, c. Every scalar the engine takes or gives (these,
 * the fixed blinding, public inputs) is of the circuit's curve: a BN254
 * circuit's in fr_t slots (field/scalar_slots.h). A .wtns file of the other
 * curve is refused naming both files. */
typedef struct engine_partition_input {
    uint64_t seed; /* built-in circuit: the witness from this seed (when the others are unset) */
    const char *wtns_path; /* a .wtns file, read at synthesis (path copied) */
    const fr_t *witness;   /* the full assignment (w[0] = 1), copied at submit */
    uint64_t witness_len;  /* its length: the circuit's variable count */
    /* A·w, B·w, C·w, abc_len values each (the circuit's rows), copied at
     * submit; checked row by row at synthesis instead of evaluated. */
    const fr_t *a, *b, *c;
    uint64_t abc_len;
} engine_partition_input;

typedef struct engine_job_spec {
    const char *circuit;
    engine_priority priority;
    uint32_t partitions;                  /* >= 1 */
    const engine_partition_input *inputs; /* one per partition; NULL: seeds seed + i */
    uint64_t seed;
    double timeout_s; /* 0: the engine's default; < 0: none */
    /* Fixed blinding, for tests that want one proof bit for bit from
     * every door: NULL, or both with one value per partition (copied at
     * submit). NULL: the finalizer draws fresh r, s for each partition. */
    const fr_t *r, *s;
    /* Partitions proved before (a job resumed after a restart): NULL, or
     * one flag per partition. A flagged partition is DONE from the start,
     * with its proof at done_proofs + proof_bytes·i (the circuit's
     * engine_circuit_info.proof_bytes) and its public inputs at
     * done_public + num_public·i (the circuit's count), and is not proved
     * again; its input is not needed. */
    const bool *done;
    const uint8_t *done_proofs;
    const fr_t *done_public;
    /* The caller's name of the job (the service's public id), written in
     * its job events as "label" (up to 47 bytes); NULL: none. */
    const char *label;
} engine_job_spec;

/* Queues a job; *id is unique for the life of the process (never reused). */
cuzk_status engine_submit(engine_t *e, const engine_job_spec *spec, uint64_t *id, char *msg,
                          size_t msg_len);

typedef struct engine_job_info {
    uint64_t id;
    char circuit[64];
    engine_priority priority;
    engine_state state;
    uint32_t partitions;
    uint32_t partitions_done;
    uint32_t attempts;  /* prover attempts over all partitions (retries show here) */
    uint64_t submit_ns; /* monotonic clock */
    uint64_t finish_ns; /* 0 until terminal */
    char message[256];  /* why, for failed and cancelled jobs */
} engine_job_info;

/* A job's state; parts (when not NULL) gets the first parts_cap partition
 * states. CUZK_ERR_INVALID_ARGUMENT for an unknown (or forgotten) id. */
cuzk_status engine_job_status(engine_t *e, uint64_t id, engine_job_info *info, engine_state *parts,
                              uint32_t parts_cap);

/* Waits until the job is terminal or timeout_s passes (< 0: forever);
 * *state is its state then (not terminal: timed out). */
cuzk_status engine_wait(engine_t *e, uint64_t id, double timeout_s, engine_state *state);

/* Cancels a job: its queued partitions at once, running ones at their next
 * boundary; their buffers go back to the pools. The job is CANCELLED once
 * nothing of it runs. CUZK_ERR_INVALID_ARGUMENT when unknown or finished. */
cuzk_status engine_cancel(engine_t *e, uint64_t id, char *msg, size_t msg_len);

/* The proof of a DONE job: partitions × the circuit's proof_bytes into out
 * (cap bytes); *len the size. BLS12-381: 192 bytes (compressed A, B, C,
 * bellman's layout); BN254: formats/bn254_proof.h's 256. */
cuzk_status engine_job_proof(engine_t *e, uint64_t id, uint8_t *out, size_t cap, size_t *len);

/* The public inputs of a DONE job: partitions × num_public values (ONE
 * excluded), partition-major, into out (cap values); *count the number
 * of values, *per_partition the count per partition. */
cuzk_status engine_job_public(engine_t *e, uint64_t id, fr_t *out, size_t cap, size_t *count,
                              size_t *per_partition);

/* Told of each partition proved and each job made final, from the
 * engine's threads with the engine's lock held: it copies what it needs
 * and returns at once, and must not call the engine. A job stopped by
 * engine_shutdown is told too (cancelled, "engine shut down"). */
typedef struct engine_observer {
    void *ctx;
    /* proof: proof_len bytes, the circuit's proof_bytes (its curve's size) */
    void (*partition_done)(void *ctx, uint64_t job, uint32_t idx, const uint8_t *proof,
                           size_t proof_len, const fr_t *pub, uint64_t num_pub);
    void (*job_final)(void *ctx, uint64_t job, engine_state state, const char *message);
} engine_observer;

/* Sets (NULL: clears) the observer, for jobs from now on and running ones. */
void engine_set_observer(engine_t *e, const engine_observer *obs);

/* Forgets a finished job (its proof too). */
cuzk_status engine_forget(engine_t *e, uint64_t id);

/* Up to cap known jobs in id order into out; returns how many there are. */
size_t engine_list_jobs(engine_t *e, engine_job_info *out, size_t cap);

/* --------------------------------------------------------------- status */

typedef struct engine_circuit_info {
    char name[64];
    circuit_kind kind;
    bool resident;
    bool loading;
    uint32_t refs;            /* unfinished jobs using it */
    uint64_t resident_bytes;  /* host memory: actual when resident, else the estimate */
    uint64_t device_bytes;    /* on each device (points, matrices, scratch) when resident */
    uint64_t set_bytes;       /* one partition's buffers */
    uint32_t sets, sets_free; /* its buffer pool */
    uint64_t last_used;       /* LRU tick (larger: more recent) */
    uint32_t loads;           /* times loaded */
    uint64_t num_vars;        /* the length of a full assignment (ONE included) */
    uint64_t num_public;      /* public inputs per partition (ONE excluded) */
    uint64_t domain_n;        /* the evaluation domain */
    uint64_t rows;            /* rows of a, b, c */
    curve_id curve;           /* from its key file (a zkey's primes) */
    size_t proof_bytes;       /* one partition's proof: curve_proof_bytes(curve) */
    char placement[384]; /* where the primary backend keeps its points; "" when simply resident */
} engine_circuit_info;

typedef struct engine_stats {
    char backend[32];
    char backend_note[160];
    /* devices: the backend's own (the CPU fallback, when there is one, is
     * cpu_fallback, not a device: it proves only retries) */
    unsigned devices, workers_per_device, synth_workers, synth_threads, finalizers, queue_bound;
    bool cpu_fallback;
    uint32_t jobs[ENGINE_STATE_CANCELLED + 1]; /* known jobs per state */
    uint32_t partitions_queued;                /* not yet started */
    uint32_t synthesizing;
    uint32_t prove_queue; /* synthesized, waiting for a prover */
    uint32_t proving;
    uint32_t finalize_queue; /* proven, waiting for or in a finalizer */
    uint64_t buffer_budget, buffer_allocated, buffer_in_use, buffer_peak;
    uint64_t pool_allocs, pool_frees, pool_acquires, pool_releases;
    uint64_t resident_budget, resident_bytes;
    uint64_t partitions_proved, retries, verify_failures;
    uint64_t workers_restarted; /* threads that died and were started again */
    size_t num_circuits;
} engine_stats;

/* One registered circuit's snapshot (out may be NULL: is it registered?);
 * CUZK_ERR_INVALID_ARGUMENT when no circuit has that name. */
cuzk_status engine_circuit_info_of(engine_t *e, const char *name, engine_circuit_info *out);

/* The automatic buffer budget after registering a circuit of set_bytes a
 * partition, on a host of ram bytes: two sets when budget holds fewer and
 * two take at most 3/8 of ram, else budget unchanged. */
uint64_t engine_auto_buffer_budget(uint64_t ram, uint64_t budget, uint64_t set_bytes);

/* A snapshot; circuits (when not NULL) gets up to cap circuits. */
void engine_get_stats(engine_t *e, engine_stats *out, engine_circuit_info *circuits, size_t cap);

#endif
