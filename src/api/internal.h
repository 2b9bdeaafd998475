#ifndef CUZK_API_INTERNAL_H
#define CUZK_API_INTERNAL_H

/* The public API's handles over the engine (src/engine/engine.h):
 *   api_errors.c   the per-thread message, versions, cuzk_free
 *   api_engine.c   engine create, destroy, stats; the handle lists
 *   api_circuit.c  register, release, shape, verify
 *   api_job.c      submit, wait, status, cancel, proof, destroy
 *   api_prove.c    one-call proving, snarkjs verification
 *
 * The engine keeps registered circuits for its whole life and never
 * forgets a job unless told, so these handles add what the API promises:
 * a circuit handle can be released while its jobs run (each job holds a
 * reference; the parameters are evicted when the last reference goes), and
 * a job's record lives exactly as long as its handle.
 *
 * cuzk_engine.mu guards the handle lists, the references and the jobs'
 * `finished` flags; it is never held across an engine call that waits or
 * reads files. */

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "cuzk/cuzk.h"
#include "engine/engine.h"
#include "groth16/bn254_groth16.h"
#include "groth16/keys.h"

/* A name of the engine's registry that a released circuit still holds
 * (the engine never unregisters), so a new circuit of that name gets
 * another one. */
typedef struct api_name {
    struct api_name *next;
    char name[64];
} api_name;

/* A key proved through cuzk_prove_zkey, kept registered for later calls. */
typedef struct api_zkey_entry {
    struct api_zkey_entry *next;
    char *path;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    cuzk_circuit *circuit;
} api_zkey_entry;

struct cuzk_engine {
    engine_t *e;
    pthread_mutex_t mu;
    cuzk_circuit *circuits; /* live handles and released ones with jobs left */
    cuzk_job *jobs;
    api_name *retired;
    uint64_t next_name;
    pthread_mutex_t zkey_mu; /* the one-call key cache, held while registering */
    api_zkey_entry *zkeys;
};

struct cuzk_circuit {
    cuzk_circuit *prev, *next;
    cuzk_engine *owner;
    char name[49];        /* the caller's */
    char engine_name[64]; /* the engine's: name, or name#k after a release */
    circuit_kind kind;
    curve_id curve;          /* from its key: its scalars and proofs are this curve's */
    porep_like_params shape; /* BUILTIN */
    uint64_t num_vars, num_public;
    uint64_t num_inputs, rows;   /* EXTERNAL: inputs (ONE included) and rows of a, b, c */
    groth16_pvk_t pvk;           /* for cuzk_circuit_verify (BLS12-381) */
    bn254_groth16_vk_t bn254_vk; /* the same for a BN254 key (its ic owned) */
    /* pvk is prepared (under the engine handle's mu): at registration, or,
     * for development parameters ("dev:SEED", whose verifying key exists
     * only once they are made), at the first verify. */
    bool pvk_ready;
    uint32_t refs; /* the handle (until released) and each unfinished job */
    bool released;
};

struct cuzk_job {
    cuzk_job *prev, *next;
    cuzk_engine *owner;
    cuzk_circuit *circuit; /* referenced until `finished` */
    uint64_t id;
    uint32_t partitions;
    curve_id curve; /* its circuit's */
    uint64_t num_public;
    fr_t *pub;     /* partitions × num_public, of curve's field (fr_t slots) */
    bool finished; /* seen final; its circuit reference dropped */
};

/* ----- api_errors.c: the calling thread's message */
/* Sets "fn: <formatted>" and returns st. */
cuzk_status api_fail(cuzk_status st, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Clears the message; returns CUZK_OK. */
cuzk_status api_ok(void);
/* A message from an engine or format call: "fn: what: msg" (msg empty:
 * the status's description). */
cuzk_status api_fail_msg(cuzk_status st, const char *fn, const char *what, const char *msg);

/* Reads a versioned struct: copies the first min(src->size, dst_size)
 * bytes over dst (which holds the defaults). Sizes below the first
 * field's end are refused; larger ones too unless the unknown tail is
 * zero (fields of a newer header left at their defaults). */
cuzk_status api_read_versioned(void *dst, size_t dst_size, const void *src, const char *fn,
                               const char *arg);

/* ----- api_circuit.c */
/* Drops one reference (engine.mu held); returns c when it was the last, to
 * be freed with api_circuit_free after unlocking. */
cuzk_circuit *api_circuit_unref(cuzk_circuit *c);
/* Evicts c's parameters and frees it (unlocked; c unlinked). */
void api_circuit_free(cuzk_circuit *c);

/* Registers a circuit of spec (its name replaced) under the caller's name
 * (NULL: made up; auto_suffix: made unique rather than refused). */
cuzk_status api_register(cuzk_engine *h, cuzk_circuit **out, const char *fn, const char *name,
                         bool auto_suffix, const circuit_spec *spec);

/* ----- api_job.c */
/* cuzk_job_submit, its messages under the name fn. */
cuzk_status api_submit(cuzk_engine *h, cuzk_job **job, const char *fn, cuzk_circuit *c,
                       const cuzk_witness *witnesses, size_t n, const cuzk_job_options *options);
/* Frees a job's handle without touching the engine (engine destroy). */
void api_job_free(cuzk_job *j);

/* Canonical bytes to and from the internal form of curve's scalar field
 * (BN254's in fr_t slots, field/scalar_slots.h); in: false when not below
 * that field's r. */
bool api_fr_in(curve_id curve, fr_t *out, const cuzk_fr *in);
void api_fr_out(curve_id curve, cuzk_fr *out, const fr_t *in);
/* Whether v is 1 in curve's scalar field. */
bool api_fr_is_one(curve_id curve, const fr_t *v);

#endif
