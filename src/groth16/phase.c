#include "groth16/phase.h"

#include <string.h>

static const char *const phase_names[PHASE_COUNT] = {
    [PHASE_QUEUE_WAIT] = "queue_wait",
    [PHASE_SYNTHESIZE] = "synthesize",
    [PHASE_EVAL_ABC] = "eval_abc",
    [PHASE_UPLOAD] = "upload",
    [PHASE_H] = "h",
    [PHASE_MSM_H] = "msm_h",
    [PHASE_MSM_L] = "msm_l",
    [PHASE_MSM_A] = "msm_a",
    [PHASE_MSM_B_G1] = "msm_b_g1",
    [PHASE_MSM_B_G2] = "msm_b_g2",
    [PHASE_DOWNLOAD] = "download",
    [PHASE_ASSEMBLE] = "assemble",
    [PHASE_VERIFY] = "verify",
    [PHASE_FINALIZE] = "finalize",
};

const char *proof_phase_name(proof_phase phase)
{
    return (unsigned)phase < PHASE_COUNT ? phase_names[phase] : "unknown";
}

bool proof_phase_parse(const char *s, proof_phase *out)
{
    for (unsigned p = 0; s && p < PHASE_COUNT; p++)
        if (!strcmp(s, phase_names[p])) {
            *out = (proof_phase)p;
            return true;
        }
    return false;
}
