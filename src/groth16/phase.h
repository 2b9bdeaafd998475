#ifndef CUZK_GROTH16_PHASE_H
#define CUZK_GROTH16_PHASE_H

/* The phases of one partition's proof, from the queue to the answer, in
 * pipeline order: the one vocabulary of the timing log, the metrics, the
 * backends' phase reports and `cuzk trace`. A phase's name is what the
 * event log writes; nothing else spells it. */

#include <stdbool.h>

typedef enum proof_phase {
    PHASE_QUEUE_WAIT = 0, /* waiting for a synthesis worker */
    PHASE_SYNTHESIZE,     /* the witness w */
    PHASE_EVAL_ABC,       /* a, b, c = A·w, B·w, C·w */
    PHASE_UPLOAD,         /* host-to-device copies (a backend without a copy callback) */
    PHASE_H,              /* the quotient: NTTs and the pointwise step */
    PHASE_MSM_H,          /* the MSM over H (snarkjs keys: over H and C together) */
    PHASE_MSM_L,          /* the MSM over L (bellman parameters) */
    PHASE_MSM_A,
    PHASE_MSM_B_G1,
    PHASE_MSM_B_G2,
    PHASE_DOWNLOAD, /* device-to-host copies (likewise) */
    PHASE_ASSEMBLE, /* A, B, C from the sums and r, s */
    PHASE_VERIFY,   /* the pairing check */
    PHASE_FINALIZE, /* assemble, encode, verify, answer */
    PHASE_COUNT
} proof_phase;

/* "queue_wait", "synthesize", "eval_abc", ...; "unknown" out of range. */
const char *proof_phase_name(proof_phase phase);

/* The phase named s; false for a name outside the table. */
bool proof_phase_parse(const char *s, proof_phase *out);

/* Whether the phase is one of the MSMs. */
static inline bool proof_phase_is_msm(proof_phase phase)
{
    return phase >= PHASE_MSM_H && phase <= PHASE_MSM_B_G2;
}

#endif
