#ifndef CUZK_SERVICE_REQUEST_H
#define CUZK_SERVICE_REQUEST_H

/* Request bodies into engine specs, with errors that name the field and
 * the problem (docs/SERVICE.md):
 *
 *   POST /v1/jobs, application/json:
 *     (an Idempotency-Key header makes a retry return the first job)
 *     {"circuit": "..", "priority": "normal", "partitions": N, "seed": S,
 *      "seeds": [..], "witness_paths": [".."], "timeout_s": T,
 *      "blinding": {"r": "<decimal>", "s": "<decimal>"}}
 *   POST /v1/jobs, application/octet-stream: one .wtns file per partition
 *     back to back; ?circuit=..&priority=..&partitions=N&timeout_s=T
 *   POST /v1/circuits, application/json:
 *     {"name": "..", "kind": "builtin|zkey", "log_constraints": K,
 *      "arity": 8, "params": "..", "zkey": "..", "check": "curve",
 *      "preload": false} */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "engine/engine.h"
#include "service/confine.h"
#include "service/http.h"

/* Partitions of one job at most. */
#define REQUEST_MAX_PARTITIONS 65536

typedef struct request_error {
    unsigned status;
    char field[64]; /* empty when no one field is at fault */
    char message[512];
} request_error;

typedef struct submit_request {
    engine_job_spec spec; /* points into the members below */
    char *circuit;
    engine_partition_input *inputs; /* NULL: seeds seed + i */
    char **paths;                   /* witness_paths as the engine reads them, owned */
    char **client_paths;            /* witness_paths as the client named them, owned */
    int *fds;                       /* witness files opened in the witness folder, owned */
    uint32_t num_fds;
    fr_t **witnesses;         /* decoded streamed witnesses, owned */
    curve_id *witness_curves; /* the curve of each streamed witness (its prime), owned */
    /* each streamed witness's .wtns as the body holds it (valid while the
     * request is), to keep it as a file (service/spill.h); the arrays owned */
    const uint8_t **witness_files;
    size_t *witness_file_lens;
    uint32_t num_owned;
    fr_t *blinding; /* spec.r then spec.s, one each per partition; owned */
} submit_request;

/* The submission in rq (JSON or a witness stream, by Content-Type).
 * witness_dir (or NULL) confines witness_paths: with it, each is opened
 * beneath it (relative ones from it; 403 outside, 400 missing, unreadable
 * or not a regular file), kept open in fds, and handed to the engine by a
 * name of the open file; without it they are refused over TCP (403) and
 * taken as given over the Unix socket (when they open as regular files).
 * A "blinding" (one r and s for every partition) is taken only with
 * allow_fixed_blinding (server.insecure_fixed_blinding), else refused with
 * 403. */
bool request_parse_submit(submit_request *out, const http_request *rq,
                          const confine_dir *witness_dir, bool allow_fixed_blinding,
                          request_error *err);
void submit_request_free(submit_request *r);

/* Whether every witness of the submission is of curve, the curve of the
 * circuit it names: a streamed witness by the prime it was decoded with,
 * a witness path by its file's header (one that does not open as a .wtns
 * is left to the engine, which says why at synthesis). A witness of the
 * other curve is refused with 400 naming it, its curve and the
 * circuit's. */
bool request_check_curve(const submit_request *r, curve_id curve, request_error *err);

/* One witness path into *out (malloc'd). Without a witness folder: the
 * path as given, when it opens (without blocking) as a regular file.
 * With one: the file is opened beneath the folder (service/confine.h) and
 * kept open in out_fd (else -1); *out names that very file for the
 * engine, so no change of the folder between this check and the engine's
 * read matters. Nothing is read. field names it in errors. */
bool request_witness_path(char **out, int *out_fd, const char *path, const confine_dir *witness_dir,
                          const char *field, request_error *err);

/* A circuit registration; out is a configured circuit (free its paths with
 * request_circuit_free). */
bool request_parse_circuit(config_circuit *out, const http_request *rq, request_error *err);
void request_circuit_free(config_circuit *c);

/* The byte length of the .wtns file at the start of data (its container
 * header and sections), or 0 when the data does not start with a whole
 * one (why says what is wrong). */
size_t request_wtns_length(const uint8_t *data, size_t len, char *why, size_t why_len);

#endif
