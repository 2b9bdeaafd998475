#ifndef CUZK_CUZK_H
#define CUZK_CUZK_H

/* cuzk: a Groth16 prover for BLS12-381 and BN254 that keeps circuits'
 * parameters resident and proves jobs through a pipeline (docs/API.md; the
 * engine underneath is docs/ENGINE.md).
 *
 *   cuzk_engine   the prover: its threads, the backend (CPU or a GPU), the
 *                 registered circuits and the jobs. Create one per process.
 *   cuzk_circuit  a registered circuit: a snarkjs .zkey (of either curve:
 *                 the key's primes say which), or the built-in benchmark
 *                 circuit with bellman parameters (BLS12-381). Its
 *                 parameters load at its first job (or
 *                 cuzk_circuit_preload) and stay.
 *   cuzk_job      N partitions of one circuit, each with its witness; its
 *                 proof is the N partition proofs, of its circuit's curve's
 *                 size each (cuzk_circuit_curve: 192 bytes for BLS12-381,
 *                 256 for BN254).
 *
 * Conventions, after libsecp256k1's:
 * - Arguments: the handle, then outputs, then inputs; a length follows its
 *   array. Lengths count elements (cuzk_fr values), except byte buffers.
 * - Every function that can fail returns a cuzk_status (cuzk/status.h) and
 *   sets the calling thread's message (cuzk_last_error): empty on CUZK_OK
 *   (but for a failed job's reason: cuzk_job_wait, cuzk_job_status), else
 *   the function, the argument at fault and the problem. NULL handles
 *   and NULL required pointers are CUZK_ERR_INVALID_ARGUMENT with such a
 *   message, never a crash (so the arguments carry no nonnull attribute).
 * - Field elements (cuzk_fr) are 32-byte little-endian canonical integers
 *   below r (not Montgomery form), the order of the scalar field of the
 *   circuit's curve: the byte order of .wtns files and of bellman's
 *   PrimeField::to_repr. Every cuzk_fr read is checked to be below r.
 * - Strings the library returns are freed with cuzk_free.
 *
 * Threads: every function may be called from any thread, concurrently on
 * the same engine, circuit or job, except the destroy and release
 * functions, which must be the last call on their handle. */

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CUZK_EXPORT
#define CUZK_EXPORT __attribute__((visibility("default")))
#endif
#define CUZK_WARN_UNUSED_RESULT __attribute__((warn_unused_result))

/* ------------------------------------------------------------ version */

#define CUZK_VERSION_MAJOR 0
#define CUZK_VERSION_MINOR 1
#define CUZK_VERSION_PATCH 0
/* MAJOR·10000 + MINOR·100 + PATCH, for #if tests. */
#define CUZK_API_VERSION                                                                           \
    (CUZK_VERSION_MAJOR * 10000 + CUZK_VERSION_MINOR * 100 + CUZK_VERSION_PATCH)

/* The library's version, "MAJOR.MINOR.PATCH", and its CUZK_API_VERSION: a
 * program can compare them with the header it was compiled against. */
CUZK_EXPORT const char *cuzk_version(void);
CUZK_EXPORT int cuzk_api_version(void);

/* ------------------------------------------------------------- errors */

/* The message of the calling thread's last cuzk call that returns a
 * status: "" after CUZK_OK, but for the reason of a failed or cancelled
 * job that cuzk_job_wait or cuzk_job_status saw. Valid until the thread's
 * next cuzk call.
 *
 * Per thread rather than per engine: two threads sharing an engine never
 * read each other's message, and calls that have no engine (verification,
 * a NULL engine handle) report the same way. */
CUZK_EXPORT const char *cuzk_last_error(void);

/* Frees a string the library returned (proof and public JSON). NULL is
 * fine. */
CUZK_EXPORT void cuzk_free(void *p);

/* ------------------------------------------------------ field, proofs */

#define CUZK_FR_BYTES 32
/* One partition proof of a BLS12-381 circuit: compressed A (48), B (96),
 * C (48), bellman's layout. */
#define CUZK_PROOF_BYTES 192
/* One partition proof of a BN254 circuit: A (64), B (128), C (64), each
 * uncompressed with big-endian coordinates (G1 x, y; G2 x.c0, x.c1, y.c0,
 * y.c1), the point at infinity all zeros. */
#define CUZK_BN254_PROOF_BYTES 256
/* The larger of the two: room for one proof of any circuit. */
#define CUZK_PROOF_MAX_BYTES CUZK_BN254_PROOF_BYTES

/* The curves of circuits, as their key files name them by their primes. */
typedef enum cuzk_curve {
    CUZK_CURVE_BLS12_381 = 0,
    CUZK_CURVE_BN254 = 1, /* circom's default; snarkjs's "bn128" */
} cuzk_curve;

/* An element of the scalar field Fr of the circuit's curve: BLS12-381's
 *   r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001,
 * or BN254's
 *   r = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001,
 * as a 32-byte little-endian integer below r. Arrays of cuzk_fr are packed
 * (32 bytes per element, no padding, any alignment). */
typedef struct cuzk_fr {
    unsigned char bytes[CUZK_FR_BYTES];
} cuzk_fr;

/* ------------------------------------------------------------- engine */

typedef struct cuzk_engine cuzk_engine;
typedef struct cuzk_circuit cuzk_circuit;
typedef struct cuzk_job cuzk_job;

typedef enum cuzk_backend {
    CUZK_BACKEND_AUTO = 0, /* a GPU when the library was built with CUDA and finds one */
    CUZK_BACKEND_CPU = 1,
    CUZK_BACKEND_CUDA = 2,
} cuzk_backend;

/* Engine settings. Versioned by size: cuzk_engine_config_init sets size
 * and every default; fields are only ever added at the end, and a library
 * reads only the first `size` bytes (newer fields keep their defaults). */
typedef struct cuzk_engine_config {
    size_t size;              /* sizeof(cuzk_engine_config) */
    cuzk_backend backend;     /* CUZK_BACKEND_AUTO */
    unsigned threads;         /* CPU threads of the CPU backend's proofs and of loading
                                 circuits; 0 = all CPUs */
    unsigned synth_workers;   /* witness and a, b, c workers; 0 = auto */
    int verify;               /* nonzero: a pairing check of every partition proof before it
                                 is answered; 1 */
    const char *event_log;    /* JSON-lines timing events (docs/TRACE.md); NULL = none */
    uint64_t buffer_budget;   /* bytes of partition buffers; 0 = a quarter of the RAM */
    uint64_t resident_budget; /* bytes of resident circuits; 0 = half of the RAM */
} cuzk_engine_config;

/* Fills in the defaults. */
CUZK_EXPORT void cuzk_engine_config_init(cuzk_engine_config *config);

/* Starts an engine.
 *  Returns: CUZK_OK; CUZK_ERR_INVALID_ARGUMENT (a bad setting);
 *           CUZK_ERR_UNSUPPORTED (CUZK_BACKEND_CUDA without CUDA, a
 *           config->size this library does not know with fields set);
 *           CUZK_ERR_DEVICE; CUZK_ERR_OUT_OF_MEMORY.
 *  Out:     engine: the new engine (NULL on failure).
 *  In:      config: the settings (copied; event_log too); NULL: defaults. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status
cuzk_engine_create(cuzk_engine **engine, const cuzk_engine_config *config);

/* Stops the engine: unfinished jobs are cancelled (a running partition
 * stops at its next step), the threads are joined, and everything is
 * freed, circuits and jobs of this engine that are still alive included:
 * their handles are invalid afterwards. NULL is fine. */
CUZK_EXPORT void cuzk_engine_destroy(cuzk_engine *engine);

/* A snapshot of the engine. Versioned by size like cuzk_engine_config:
 * set size = sizeof(cuzk_engine_stats) before the call. */
typedef struct cuzk_engine_stats {
    size_t size;
    char backend[32];           /* "cpu", "cuda" */
    unsigned devices;           /* the backend's devices */
    uint32_t jobs_unfinished;   /* submitted, not yet done, failed or cancelled */
    uint32_t circuits;          /* live circuit handles */
    uint32_t resident_circuits; /* circuits whose parameters are loaded now */
    uint64_t resident_bytes;    /* their bytes */
    uint64_t partitions_proved; /* since the engine started */
} cuzk_engine_stats;

/*  Returns: CUZK_OK; CUZK_ERR_INVALID_ARGUMENT.
 *  Args:    engine: the engine.
 *  Out:     stats: the snapshot (its first stats->size bytes). */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_engine_stats_get(cuzk_engine *engine,
                                                                      cuzk_engine_stats *stats);

/* ----------------------------------------------------------- circuits */

/* Checks of the points of a parameter file when it is loaded. */
typedef enum cuzk_check {
    CUZK_CHECK_NONE = 0,     /* trusted files (a local cache) */
    CUZK_CHECK_CURVE = 1,    /* each point on the curve (the usual choice) */
    CUZK_CHECK_SUBGROUP = 2, /* and in the prime-order subgroup (slow: ~40 µs a point) */
} cuzk_check;

/* Registers a snarkjs Groth16 key (.zkey) of BLS12-381 or BN254: its
 * primes say which (cuzk_circuit_curve). Cheap: the file's header is read
 * now (a key of a prime of neither curve is refused here), the rest at
 * the first job or cuzk_circuit_preload.
 *  Returns: CUZK_OK; CUZK_ERR_INVALID_ARGUMENT (a name in use, bad
 *           arguments); CUZK_ERR_IO; CUZK_ERR_UNSUPPORTED (another prime,
 *           not Groth16); CUZK_ERR_CORRUPT, CUZK_ERR_TRUNCATED and the
 *           point errors of a damaged file.
 *  Args:    engine: the engine.
 *  Out:     circuit: the new circuit (NULL on failure).
 *  In:      name: 1 to 48 bytes, unique among this engine's live circuits
 *           (shown in event logs); NULL: one is made up.
 *           zkey_path: the key; it must stay unchanged while registered.
 *           check: the point checks when its sections are loaded. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_circuit_register_zkey(cuzk_engine *engine,
                                                                           cuzk_circuit **circuit,
                                                                           const char *name,
                                                                           const char *zkey_path,
                                                                           cuzk_check check);

/* Registers the built-in benchmark circuit (shaped like a Filecoin PoRep
 * partition) of about 2^log_constraints constraints, with its bellman
 * parameters (`cuzk setup --log-constraints K --params FILE` makes
 * development ones), or with development parameters made in memory:
 * params_path "dev:SEED" (SEED a decimal 64-bit integer) makes them at
 * every load of the circuit from a ChaCha20 stream keyed by SEED (the same
 * seed gives the same parameters, on the CPU or the GPU), on the GPU when
 * the engine's backend is CUDA; nothing is written to disk. Registration
 * then reads no file, and the first cuzk_circuit_verify loads the circuit
 * (its verifying key exists only once the parameters are made).
 * DEVELOPMENT PARAMETERS ARE NOT FOR PRODUCTION: whoever knows the seed
 * can forge proofs.
 *  Returns: as cuzk_circuit_register_zkey; CUZK_ERR_INVALID_ARGUMENT also
 *           for parameters of another shape, and for a "dev:" string whose
 *           seed is not a decimal 64-bit integer.
 *  Args:    engine: the engine.
 *  Out:     circuit: the new circuit (NULL on failure).
 *  In:      name: as for cuzk_circuit_register_zkey.
 *           log_constraints: 10 to 27.
 *           arity: its Merkle tree's arity, 2 or 8 (cuzk setup's default 8).
 *           params_path: the bellman parameter file, or "dev:SEED" (a file
 *           whose name starts with "dev:" is "./dev:...").
 *           check: the point checks when the parameters are loaded (none
 *           for development parameters: they are made, not read). */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_circuit_register_builtin(
    cuzk_engine *engine, cuzk_circuit **circuit, const char *name, unsigned log_constraints,
    unsigned arity, const char *params_path, cuzk_check check);

/* A circuit synthesized elsewhere (bellperson), proved from the caller's
 * assignments (cuzk_witness kind CUZK_WITNESS_BELLMAN), the way
 * bellperson hands them to supraseal-c2. Its parameters are a bellman
 * file; its per-circuit data are the counts and three density bitmaps.
 *
 * Bitmaps: bit i is (words[i / 64] >> (i % 64)) & 1 (bellman's
 * DensityTracker, as u64 words, least significant bit first); a set bit
 * means the variable has a nonzero coefficient in that matrix, so the
 * parameter file holds a query point for it.
 *   a_aux_density    (num_aux + 63) / 64 words: A over the aux variables
 *                    (A over the inputs is dense)
 *   b_input_density  (num_inputs + 63) / 64 words: B over the inputs, ONE
 *                    included
 *   b_aux_density    (num_aux + 63) / 64 words: B over the aux variables */
typedef struct cuzk_external_circuit {
    size_t size;              /* sizeof(cuzk_external_circuit) */
    uint64_t num_inputs;      /* input variables, ONE included */
    uint64_t num_aux;         /* aux (private) variables */
    uint64_t num_constraints; /* rows of a, b, c: the constraints and bellman's input rows */
    const uint64_t *a_aux_density;
    const uint64_t *b_input_density;
    const uint64_t *b_aux_density;
} cuzk_external_circuit;

/* Registers an external circuit (above). Its parameter file's queries are
 * checked against the counts and the bitmaps' bits.
 *  Returns: CUZK_OK; CUZK_ERR_INVALID_ARGUMENT (a count or bitmap that
 *           does not fit the parameters; the message names the query);
 *           the file errors of the parameters.
 *  Args:    engine: the engine.
 *  Out:     circuit: the new circuit (NULL on failure).
 *  In:      name: as for cuzk_circuit_register_zkey.
 *           params_path: the bellman parameter file.
 *           desc: counts and density bitmaps (copied).
 *           check: the point checks when the parameters are loaded. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_circuit_register_external(
    cuzk_engine *engine, cuzk_circuit **circuit, const char *name, const char *params_path,
    const cuzk_external_circuit *desc, cuzk_check check);

/* Loads the circuit's parameters now, rather than at its first job.
 *  Returns: CUZK_OK when resident; the load's error otherwise.
 *  Args:    circuit: the circuit. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_circuit_preload(cuzk_circuit *circuit);

/* The sizes a witness of this circuit has.
 *  Returns: CUZK_OK; CUZK_ERR_INVALID_ARGUMENT.
 *  Args:    circuit: the circuit.
 *  Out:     witness_len: the full assignment's length (ONE, the public
 *           values, the private ones); NULL: not wanted.
 *           num_public: the public values per partition, ONE excluded
 *           (snarkjs's nPublic; bellman's inputs less ONE); NULL: not
 *           wanted. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_circuit_shape(const cuzk_circuit *circuit,
                                                                   uint64_t *witness_len,
                                                                   uint64_t *num_public);

/* The circuit's curve, and the size of one partition proof of it (what
 * cuzk_job_proof gives per partition and cuzk_circuit_verify takes).
 *  Returns: CUZK_OK; CUZK_ERR_INVALID_ARGUMENT.
 *  Args:    circuit: the circuit.
 *  Out:     curve: CUZK_CURVE_BLS12_381 or CUZK_CURVE_BN254; NULL: not
 *           wanted.
 *           proof_bytes: CUZK_PROOF_BYTES or CUZK_BN254_PROOF_BYTES; NULL:
 *           not wanted. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_circuit_curve(const cuzk_circuit *circuit,
                                                                   cuzk_curve *curve,
                                                                   size_t *proof_bytes);

/* Gives the circuit handle back. A circuit still used by unfinished jobs
 * stays until the last of them is done (its jobs hold it); then its
 * parameters are freed, as soon as that is seen: by a wait, status or
 * proof call on the job or its destruction. NULL is fine. */
CUZK_EXPORT void cuzk_circuit_release(cuzk_circuit *circuit);

/* --------------------------------------------------------------- jobs */

typedef enum cuzk_priority {
    CUZK_PRIORITY_CRITICAL = 0,
    CUZK_PRIORITY_HIGH = 1,
    CUZK_PRIORITY_NORMAL = 2,
    CUZK_PRIORITY_LOW = 3,
} cuzk_priority;

/* In pipeline order; the last three are final. */
typedef enum cuzk_job_state {
    CUZK_JOB_QUEUED = 0,
    CUZK_JOB_SYNTHESIZING = 1, /* witness, then a, b, c */
    CUZK_JOB_PROVING = 2,      /* waiting for or on a device */
    CUZK_JOB_FINALIZING = 3,   /* assembling and verifying */
    CUZK_JOB_DONE = 4,
    CUZK_JOB_FAILED = 5,
    CUZK_JOB_CANCELLED = 6,
} cuzk_job_state;

typedef enum cuzk_witness_kind {
    CUZK_WITNESS_WTNS = 1,       /* a .wtns file */
    CUZK_WITNESS_ASSIGNMENT = 2, /* the full assignment */
    CUZK_WITNESS_SEED = 3,       /* the built-in circuit's synthetic witness of a seed */
    CUZK_WITNESS_BELLMAN = 4,    /* bellman's assignments (external circuits) */
} cuzk_witness_kind;

/* One partition's witness: `kind` says which fields are read.
 *
 * CUZK_WITNESS_WTNS: wtns_path, a circom/snarkjs witness file. Its header
 *   and public values are read at submission (a file for another circuit
 *   or curve is refused then), the rest at synthesis: it must stay
 *   unchanged until the job is final.
 *
 * CUZK_WITNESS_ASSIGNMENT: assignment[0 .. assignment_len), the full
 *   assignment (copied at submission), assignment_len = the circuit's
 *   witness_len (cuzk_circuit_shape):
 *     [0]                        1 (the constant ONE)
 *     [1 .. 1 + num_public)      the public values (snarkjs: outputs, then
 *                                public inputs; bellman: the inputs)
 *     [1 + num_public .. )       the private values (snarkjs: the other
 *                                signals in wire order; bellman: aux)
 *   This is the order of a .wtns file's values.
 *
 * CUZK_WITNESS_SEED: seed; the built-in circuit only (benchmarks, tests).
 *
 * CUZK_WITNESS_BELLMAN (external circuits, cuzk_circuit_register_external):
 *   what bellperson's prover holds after synthesis,
 *   copied at submission:
 *     input[0 .. input_len)   the input assignment, ONE first
 *                             (input_len = num_inputs)
 *     aux[0 .. aux_len)       the aux assignment (aux_len = num_aux)
 *     a, b, c[0 .. abc_len)   the evaluations A·w, B·w, C·w, one value per
 *                             constraint row (abc_len = num_constraints);
 *                             all three are needed (an external circuit
 *                             has no matrices to evaluate them from);
 *                             they are checked row by row (a·b = c)
 *                             before the partition takes a device. */
typedef struct cuzk_witness {
    cuzk_witness_kind kind;
    const char *wtns_path;
    const cuzk_fr *assignment;
    size_t assignment_len;
    uint64_t seed;
    const cuzk_fr *input;
    size_t input_len;
    const cuzk_fr *aux;
    size_t aux_len;
    const cuzk_fr *a, *b, *c;
    size_t abc_len;
} cuzk_witness;

/* Job settings, versioned by size (cuzk_job_options_init). */
typedef struct cuzk_job_options {
    size_t size;            /* sizeof(cuzk_job_options) */
    cuzk_priority priority; /* CUZK_PRIORITY_NORMAL */
    double timeout_s;       /* from submission; 0 = none */
    /* The blinding factors r and s of each partition (num_witnesses each),
     * both or neither; NULL: fresh random ones. Fixed values give one
     * proof bit for bit wherever it is made (tests); never reuse them for
     * real proofs: two proofs with the same r, s reveal the witness. */
    const cuzk_fr *r;
    const cuzk_fr *s;
} cuzk_job_options;

CUZK_EXPORT void cuzk_job_options_init(cuzk_job_options *options);

/* Submits a job: one partition per witness, proved in order of priority,
 * then submission. The witnesses are checked here (counts, lengths, that
 * every value is below r, ONE) as far as that is cheap, so most bad input
 * is refused now rather than failing the job later.
 *  Returns: CUZK_OK; CUZK_ERR_INVALID_ARGUMENT (the message names the
 *           witness and the field, e.g. "witnesses[1].assignment_len");
 *           CUZK_ERR_NOT_CANONICAL (a value not below r); CUZK_ERR_IO and
 *           the file errors of a .wtns; CUZK_ERR_UNSUPPORTED (a .wtns of
 *           another curve); CUZK_ERR_OUT_OF_MEMORY.
 *  Args:    engine: the engine.
 *  Out:     job: the new job (NULL on failure); cuzk_job_destroy it.
 *  In:      circuit: a live circuit of this engine (the job holds it).
 *           witnesses: one per partition.
 *           num_witnesses: the partitions, 1 to 65536.
 *           options: NULL: the defaults. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_job_submit(cuzk_engine *engine, cuzk_job **job,
                                                                cuzk_circuit *circuit,
                                                                const cuzk_witness *witnesses,
                                                                size_t num_witnesses,
                                                                const cuzk_job_options *options);

/* Waits until the job is final or timeout_s passes.
 *  Returns: CUZK_OK when it waited (whatever the job's fate; a failed or
 *           cancelled job's reason is then the thread's message);
 *           CUZK_ERR_INVALID_ARGUMENT.
 *  Args:    job: the job.
 *  Out:     state: its state then (not final: the timeout passed).
 *  In:      timeout_s: seconds; < 0: no limit. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_job_wait(cuzk_job *job, cuzk_job_state *state,
                                                              double timeout_s);

/* The job's state now, without waiting.
 *  Returns: as cuzk_job_wait.
 *  Args:    job: the job.
 *  Out:     state: its state.
 *           partitions_done: partitions proved so far; NULL: not wanted. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_job_status(cuzk_job *job,
                                                                cuzk_job_state *state,
                                                                uint32_t *partitions_done);

/* Cancels the job: queued partitions at once, running ones at their next
 * step; it is CANCELLED when nothing of it runs (wait for that).
 *  Returns: CUZK_OK; CUZK_ERR_INVALID_ARGUMENT (NULL, or already final).
 *  Args:    job: the job. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_job_cancel(cuzk_job *job);

/* The proof of a DONE job: its partitions' proofs in order, each of its
 * circuit's proof size (cuzk_circuit_curve): 192 bytes for BLS12-381
 * (compressed A, B, C: bellman's and Filecoin's layout), 256 for BN254
 * (CUZK_BN254_PROOF_BYTES).
 *  Returns: CUZK_OK; CUZK_ERR_INVALID_ARGUMENT (not done, or the buffer is
 *           too small: *proof_len then says how much is needed).
 *  Args:    job: the job.
 *  Out:     proof: partitions × the proof size bytes.
 *  In/Out:  proof_len: in, the room at proof; out, the bytes written. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_job_proof(cuzk_job *job, uint8_t *proof,
                                                               size_t *proof_len);

/* The public inputs the job's partitions prove, partition after partition
 * (num_public each, ONE excluded: cuzk_circuit_shape), known from
 * submission on.
 *  Returns: CUZK_OK; CUZK_ERR_INVALID_ARGUMENT (the buffer is too small:
 *           *inputs_len then says how many are needed).
 *  Args:    job: the job.
 *  Out:     inputs: partitions × num_public values.
 *  In/Out:  inputs_len: in, the room at inputs (values); out, the values
 *           written. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_job_public_inputs(cuzk_job *job,
                                                                       cuzk_fr *inputs,
                                                                       size_t *inputs_len);

/* One partition's proof and public inputs of a DONE job as snarkjs's
 * proof.json and public.json (what `snarkjs groth16 verify` reads), with
 * the circuit's curve ("curve": "bls12381" or "bn128").
 *  Returns: CUZK_OK; CUZK_ERR_INVALID_ARGUMENT (not done, no such
 *           partition); CUZK_ERR_OUT_OF_MEMORY.
 *  Args:    job: the job.
 *  Out:     proof_json, public_json: NUL-terminated strings (cuzk_free);
 *           either may be NULL when not wanted.
 *  In:      partition: which one, from 0. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_job_snarkjs(cuzk_job *job, char **proof_json,
                                                                 char **public_json,
                                                                 uint32_t partition);

/* Forgets the job (its proof too). An unfinished job is cancelled first,
 * and this waits until nothing of it runs. NULL is fine. */
CUZK_EXPORT void cuzk_job_destroy(cuzk_job *job);

/* ---------------------------------------------------- one-call proving */

/* Proves a .zkey with a .wtns and returns snarkjs's proof.json and
 * public.json, through the engine: the key is registered at the first
 * call with that path and stays resident for later calls (registered
 * again when the file changes), until the engine is destroyed.
 *  Returns: CUZK_OK; the errors of cuzk_circuit_register_zkey and
 *           cuzk_job_submit; CUZK_ERR_INTERNAL when the job fails in the
 *           engine (the message says why: e.g. the proof does not verify,
 *           the witness does not satisfy the circuit).
 *  Args:    engine: the engine.
 *  Out:     proof_json, public_json: NUL-terminated strings (cuzk_free);
 *           public_json may be NULL when not wanted.
 *  In:      zkey_path, wtns_path: the key and the witness. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_prove_zkey(cuzk_engine *engine,
                                                                char **proof_json,
                                                                char **public_json,
                                                                const char *zkey_path,
                                                                const char *wtns_path);

/* ---------------------------------------------------------- verifying */

/* Verifies a snarkjs proof against its public values and a snarkjs
 * verification key (Groth16 over BLS12-381 or BN254: the key's "curve"
 * says which; a proof of the other curve is refused naming it), all given
 * as JSON text.
 *  Returns: CUZK_OK (valid); CUZK_ERR_VERIFY_FAILED (not valid);
 *           CUZK_ERR_CORRUPT (malformed JSON, a missing field: the message
 *           names the argument, line and column); CUZK_ERR_INVALID_ARGUMENT
 *           (NULL, public values that do not fit the key);
 *           CUZK_ERR_UNSUPPORTED (files of two curves, a curve cuzk does
 *           not know, not Groth16); the point errors of points
 *           not on the curve or not in the subgroup.
 *  In:      vk_json, proof_json, public_json: NUL-terminated JSON. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_verify_snarkjs(const char *vk_json,
                                                                    const char *proof_json,
                                                                    const char *public_json);

/* The same with files (verification_key.json, proof.json, public.json);
 * CUZK_ERR_IO for one that cannot be read. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_verify_snarkjs_files(const char *vk_path,
                                                                          const char *proof_path,
                                                                          const char *public_path);

/* Verifies partition proofs of a registered circuit (BLS12-381: one
 * batched pairing check; BN254: a check per proof; on failure the message
 * lists the partitions that fail).
 *  Returns: CUZK_OK (all valid); CUZK_ERR_VERIFY_FAILED; CUZK_ERR_INVALID_
 *           ARGUMENT (lengths that do not fit); the encoding and point
 *           errors of a malformed proof.
 *  Args:    circuit: the circuit.
 *  In:      proofs: n proofs of the circuit's proof size (cuzk_job_proof's
 *           layout).
 *           proofs_len: its bytes, a nonzero multiple of the proof size.
 *           inputs: n × num_public public values (cuzk_job_public_inputs'
 *           layout).
 *           inputs_len: its values. */
CUZK_EXPORT CUZK_WARN_UNUSED_RESULT cuzk_status cuzk_circuit_verify(const cuzk_circuit *circuit,
                                                                    const uint8_t *proofs,
                                                                    size_t proofs_len,
                                                                    const cuzk_fr *inputs,
                                                                    size_t inputs_len);

#ifdef __cplusplus
}
#endif

#endif
