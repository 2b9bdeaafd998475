#ifndef CUZK_SERVICE_PROOF_FORMAT_H
#define CUZK_SERVICE_PROOF_FORMAT_H

/* The forms of a job's result: the "format" of GET /v1/jobs/{id}/proof
 * and of `cuzk await --format`, one name table for server and client. */

#include <stdbool.h>
#include <string.h>

typedef enum proof_format {
    PROOF_FORMAT_BELLMAN, /* partitions × 192 bytes (compressed A, B, C); the default */
    PROOF_FORMAT_SNARKJS, /* JSON: snarkjs's proof.json and public.json per partition */
    PROOF_FORMAT_COUNT
} proof_format;

static const char *const proof_format_names[PROOF_FORMAT_COUNT] = {"bellman", "snarkjs"};

static inline const char *proof_format_name(proof_format f)
{
    return (unsigned)f < PROOF_FORMAT_COUNT ? proof_format_names[f] : "?";
}

/* false when name is none of them. */
static inline bool proof_format_parse(const char *name, proof_format *out)
{
    for (int i = 0; i < PROOF_FORMAT_COUNT; i++) {
        if (!strcmp(name, proof_format_names[i])) {
            *out = (proof_format)i;
            return true;
        }
    }
    return false;
}

#endif
