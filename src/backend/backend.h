#ifndef CUZK_BACKEND_BACKEND_H
#define CUZK_BACKEND_BACKEND_H

/* The prover interface the engine calls: one vtable, one implementation
 * per kind of hardware (the CPU now, CUDA later). Nothing above this layer
 * knows whether a GPU exists.
 *
 * A backend owns num_devices devices, numbered 0 .. num_devices − 1. The
 * engine runs several prover workers per device and calls prove() from all
 * of them at once; the backend serializes its kernel work per device with
 * its own lock, held only around that work, so one worker's host
 * preparation (and the engine's synthesis and finalize stages) overlaps
 * another's kernels. prove() for different devices runs in parallel.
 *
 * One partition's proof, split between the engine and the backend:
 *   engine (synthesis): w, then a = A·w, b = B·w, c = C·w
 *   backend (prove):    h from a, b, c; the MSMs over H, L (or the zkey's C
 *                       section), A, B_G1, B_G2 -> groth16_sums
 *   engine (finalize):  A, B, C from the sums with r, s (groth16_assemble),
 *                       then the pairing check
 * so the blinding factors never reach a device. A backend that
 * evaluates_abc may take the middle step too: given the constraint system
 * at prepare(), its prove() accepts w alone (abc NULL) and evaluates a, b,
 * c itself (a GPU backend next to its resident matrices, so only w crosses
 * PCIe and the engine holds no host a, b, c). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend_kind.h"
#include "cuzk/status.h"
#include "groth16/assemble.h"
#include "groth16/phase.h"
#include "groth16/plan.h"
#include "groth16/setup.h"

/* What the engine holds resident for a circuit: its proof plan, whose
 * points and density bitmaps the backend borrows for as long as its handle
 * lives (a GPU backend uploads them once). */
struct r1cs; /* r1cs_t of r1cs/r1cs.h */
typedef struct backend_circuit_desc {
    const char *name;         /* for messages */
    const groth16_plan *plan; /* the key as a proof plan (groth16/plan.h) */
    unsigned threads;         /* for preparing (0: the backend's own count) */
    /* The constraint system, borrowed like the plan, when prove() is to be
     * called with abc NULL (only for a backend that evaluates_abc); NULL:
     * every input brings its a, b, c, and nothing is made resident for
     * evaluating them. rows: the rows evaluated (cs->num_constraints);
     * c_is_ab: C has no entries and c = a·b row by row (snarkjs keys). */
    const struct r1cs *cs;
    uint64_t rows;
    bool c_is_ab;
    /* The plan's points were decoded on their curves only: prepare checks
     * their subgroup membership (only for a backend that checks_subgroup)
     * and fails, naming the query and the point, when one is outside. */
    bool check_subgroup;
    /* Device bytes the circuit may take on each device (its parameters and
     * a partition's buffers); 0: the device's memory. A GPU backend leaves
     * in host memory, and streams per partition, the points that do not
     * fit. */
    uint64_t device_budget;
} backend_circuit_desc;

/* One host<->device copy a backend issued: what it carried, which way, on
 * which of the device's streams (the backend's numbering), when (monotonic
 * clock, backend_clock_ns), and how many bytes. */
typedef enum backend_copy_dir { BACKEND_COPY_H2D = 0, BACKEND_COPY_D2H } backend_copy_dir;
typedef struct backend_copy {
    const char *what; /* "a,b,c", "w", "msm_h result", ... */
    backend_copy_dir dir;
    int stream;
    uint64_t start_ns, end_ns, bytes;
} backend_copy;
typedef void (*backend_copy_fn)(void *ctx, const backend_copy *copy);

/* One partition's inputs to prove(). */
typedef struct backend_input {
    const fr_t *w; /* the full assignment, w[0] = 1 */
    /* a, b, c: three consecutive domain-sized vectors; clobbered. NULL:
     * the backend evaluates them from w with the constraint system given
     * at prepare() (desc.cs), and makes the exact check a·b = c itself
     * unless C is the product; a witness that fails it is
     * CUZK_ERR_UNSATISFIED, with the lowest failing row in msg. */
    fr_t *abc;
    uint64_t rows; /* evaluated rows of each (the rest of each vector is ignored) */
    /* The caller has already checked a·b = c on every row (the engine does
     * at synthesis, before a partition takes a device): a backend that
     * checks it itself may skip that. Only with abc. */
    bool rows_checked;
    /* Called for every copy prove() issues (NULL: not wanted; a backend
     * then reports its copies as "upload"/"download" phases, if at all). */
    backend_copy_fn copy;
    void *copy_ctx;
} backend_input;

/* Called by prove() as each phase ends: PHASE_EVAL_ABC when it evaluated
 * a, b, c (abc NULL), PHASE_H, the plan's MSM phases,
 * and PHASE_UPLOAD / PHASE_DOWNLOAD for a backend's copies when there is no
 * copy callback; cat is "cpu", "gpu" or "copy"; times on the monotonic
 * clock (backend_clock_ns); bytes is what the phase read (scalars and
 * points) or moved. Phases may overlap (a CPU plan runs two MSM groups at
 * once), so calls may come from two threads. */
typedef void (*backend_phase_fn)(void *ctx, proof_phase phase, const char *cat, uint64_t start_ns,
                                 uint64_t end_ns, uint64_t bytes);

typedef struct backend backend_t;
struct backend {
    const char *name;     /* "cpu", "cuda", or a test's name: for messages */
    bool is_cpu;          /* runs on the host's cores (no device memory, no copies) */
    bool evaluates_abc;   /* prove() takes abc NULL for a circuit prepared with desc.cs */
    unsigned num_devices; /* >= 1 */
    void *impl;

    /* Makes a circuit's parameters resident on every device (or whatever
     * the backend needs per circuit: with desc.cs, what evaluating a, b, c
     * takes) and returns a handle for prove(). *bytes is the memory this
     * took (host and device), for accounting. */
    cuzk_status (*prepare)(backend_t *b, const backend_circuit_desc *desc, void **handle,
                           uint64_t *bytes, char *msg, size_t msg_len);
    /* Frees what prepare() made; never called while a prove() uses handle. */
    void (*release)(backend_t *b, void *handle);
    /* The MSM sums of one partition on one device. Thread-safe (see the
     * top of this file). phase may be NULL. On failure msg says what went
     * wrong; CUZK_ERR_UNSATISFIED means the inputs are at fault (the engine
     * does not retry those), anything else is the backend's. */
    cuzk_status (*prove)(backend_t *b, unsigned device, void *handle, const backend_input *in,
                         groth16_sums *out, backend_phase_fn phase, void *phase_ctx, char *msg,
                         size_t msg_len);
    /* Frees the backend (every handle released first). */
    void (*destroy)(backend_t *b);
    /* Optional (NULL: the caller uses aligned_alloc/free): memory for the
     * buffers the engine hands to prove() (w and a, b, c), in a form the
     * backend copies fastest (page-locked for a GPU), 64-byte aligned.
     * Thread-safe; freed before destroy(). */
    void *(*host_alloc)(backend_t *b, size_t bytes);
    void (*host_free)(backend_t *b, void *p);

    /* prepare() copies the plan's points (to its devices) and neither it
     * nor prove() reads the host's again: the engine may then free the
     * circuit's host copy (circuit_ops.drop_points). */
    bool copies_points;
    /* Optional (NULL: never): whether prove() still reads the host's points
     * of this prepared circuit (a GPU that streams the parameters that do
     * not fit its device budget): the engine then keeps them. */
    bool (*reads_host_points)(backend_t *b, void *handle);
    /* Optional (NULL: nothing to say): one line on where a prepared
     * circuit's points live, when that is not simply "on the device" (a
     * device budget: how much stays resident, how much streams at each
     * proof); empty when there is nothing to say. */
    void (*describe)(backend_t *b, void *handle, char *line, size_t line_len);
    /* prepare() can check the points' subgroup membership itself, faster
     * than the host's decoder (desc.check_subgroup): the GPU's thousands of
     * threads, where the host's 16 cores took minutes at 2^24. */
    bool checks_subgroup;
    /* Optional (NULL: none, the CPU makes them): out[i] = scalars[i]·G for
     * the generator of G1 / G2, i < n, exactly what groth16/fixed_base.h
     * gives, for development parameters made at load (groth16/setup.h's
     * groth16_fixed_base_ops). Thread-safe. */
    cuzk_status (*fixed_base_g1)(backend_t *b, g1_affine_t *out, const fr_t *scalars, size_t n,
                                 char *msg, size_t msg_len);
    cuzk_status (*fixed_base_g2)(backend_t *b, g2_affine_t *out, const fr_t *scalars, size_t n,
                                 char *msg, size_t msg_len);
};

/* The CPU backend: the Groth16 CPU prover's phases on `threads` threads per
 * device. It has one device, the CPU; `devices` > 1 makes it pose as that
 * many (each with its own lock), so tests can exercise placement on one
 * machine. It evaluates_abc: with abc NULL it evaluates a, b, c on its
 * threads, under the device's lock, into scratch of its own (three
 * domain-sized vectors per device, made at the first such call and kept
 * until release). */
typedef struct backend_cpu_opts {
    unsigned devices; /* 0: 1 */
    unsigned threads; /* per device; 0: all CPUs */
} backend_cpu_opts;

cuzk_status backend_cpu_create(backend_t **out, const backend_cpu_opts *opts);

/* The CUDA backend: every CUDA device of the machine, parameters resident
 * on each. `threads` is for its host-side work (0: all CPUs). Fails with
 * CUZK_ERR_UNSUPPORTED and a reason in msg when the build has no CUDA or
 * the machine no GPU. */
cuzk_status backend_cuda_create(backend_t **out, unsigned threads, char *msg, size_t msg_len);

/* Selects and creates a backend. AUTO takes a GPU backend when one is
 * compiled in and finds a device, otherwise the CPU; note (when not NULL)
 * then gets one line saying which and why, e.g. "no GPU backend is compiled
 * in; proving on the CPU". CUDA fails with CUZK_ERR_UNSUPPORTED and a
 * message when it cannot be had. cpu may be NULL (defaults). */
cuzk_status backend_create(backend_t **out, backend_kind kind, const backend_cpu_opts *cpu,
                           char *note, size_t note_len, char *msg, size_t msg_len);

/* b's fixed-base products as a setup's batch callbacks (groth16/setup.h),
 * into *ops with ctx b; false (ops zeroed) when b has none (the CPU): the
 * setup then uses the CPU's tables. */
bool backend_fixed_base_ops(backend_t *b, groth16_fixed_base_ops *ops);

/* The monotonic clock in nanoseconds: every timing event uses it. */
uint64_t backend_clock_ns(void);

/* Formats a message into msg (nothing when msg is NULL or msg_len 0): the
 * helper of this layer's and the engine's error paths. */
void backend_msg(char *msg, size_t msg_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
