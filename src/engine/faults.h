#ifndef CUZK_ENGINE_FAULTS_H
#define CUZK_ENGINE_FAULTS_H

/* Fault injection, a test hook: compiled in only where CUZK_FAULT_INJECTION
 * is defined (Debug and sanitizer builds, or -DCUZK_FAULT_INJECTION=ON;
 * never a Release build by default). Then engine_create reads the
 * environment variable CUZK_FAULTS, a list of faults separated by commas:
 *
 *   KIND=JOB:PART[xCOUNT]
 *
 *   backend_fail  the prover's backend call for that partition fails, as a
 *                 backend error would (CUZK_ERR_DEVICE, "injected backend
 *                 failure"): the partition is retried on another device or
 *                 the CPU fallback while retries last
 *   alloc_fail    the partition's buffer set cannot be had: a fresh
 *                 allocation returns NULL, and a set from the pool goes back
 *                 to it, as if the pool had been empty and the allocation
 *                 had failed (out of memory: retried while retries last)
 *   synth_die     the synthesis worker dies with the partition in hand: its
 *                 thread ends (pthread_exit) after the partition's witness
 *                 and a, b, c are made, without returning to its loop; the
 *                 engine notices (a cleanup handler), puts the partition
 *                 back for another attempt while retries last, and the
 *                 watchdog joins the dead thread and starts a new one
 *   prove_die     likewise a prover worker, after its backend call returned:
 *                 the attempt counts as failed (retried on another device
 *                 or the CPU fallback while retries last)
 *   final_die     likewise a finalizer, after it assembled (and verified)
 *                 the partition's proof, before it recorded it: the
 *                 attempt counts as failed, and the partition is proved
 *                 again while retries last
 *
 * JOB is an engine job id (the first job of an engine is 1) or *, PART a
 * partition index or *, COUNT how many times the fault fires (default 1;
 * * for every time). Example: CUZK_FAULTS="backend_fail=2:1x3,synth_die=*:0".
 * A spec that does not parse makes engine_create fail, saying why. Without
 * CUZK_FAULT_INJECTION the variable is never read and every hook below is
 * a constant false. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

typedef enum fault_kind {
    FAULT_BACKEND_FAIL = 0,
    FAULT_ALLOC_FAIL,
    FAULT_SYNTH_DIE,
    FAULT_PROVE_DIE,
    FAULT_FINAL_DIE,
    FAULT_KINDS
} fault_kind;

typedef struct engine_faults engine_faults;

#ifdef CUZK_FAULT_INJECTION

#define ENGINE_FAULTS_COMPILED 1

/* Parses spec into *out (NULL for an empty spec). */
cuzk_status faults_parse(const char *spec, engine_faults **out, char *msg, size_t msg_len);
/* Whether a fault of kind k fires now for (job, part); counts it. The
 * caller serializes calls (the engine holds engine.mu). */
bool faults_hit(engine_faults *f, fault_kind k, uint64_t job, uint32_t part);
void faults_free(engine_faults *f);

#else

#define ENGINE_FAULTS_COMPILED 0

static inline cuzk_status faults_parse(const char *spec, engine_faults **out, char *msg,
                                       size_t msg_len)
{
    (void)spec;
    (void)msg;
    (void)msg_len;
    *out = NULL;
    return CUZK_OK;
}

static inline bool faults_hit(engine_faults *f, fault_kind k, uint64_t job, uint32_t part)
{
    (void)f;
    (void)k;
    (void)job;
    (void)part;
    return false;
}

static inline void faults_free(engine_faults *f)
{
    (void)f;
}

#endif

#endif
