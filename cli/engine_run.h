#ifndef CUZK_CLI_ENGINE_RUN_H
#define CUZK_CLI_ENGINE_RUN_H

/* The engine for one command's run: `cuzk prove` (both forms) and `cuzk
 * bench` prove through the same pipeline as the service, in process. */

#include "cli/util.h"
#include "engine/engine.h"

/* Starts an engine with the command's backend, threads, verification and
 * timing log, keeping `jobs` finished jobs for the command to collect.
 * Returns CLI_EXIT_OK, or CLI_EXIT_FAILURE with the reason said (e.g.
 * --backend cuda on a machine without a GPU). */
int cli_engine_start(engine_t **out, const cli_options *opt, unsigned jobs);

/* Registers and loads a circuit; on failure says why naming `file`, and
 * returns CLI_EXIT_BAD_INPUT (the file is missing, corrupt or does not fit)
 * or CLI_EXIT_FAILURE. *load_s gets the loading time. */
int cli_engine_load(engine_t *e, const circuit_spec *spec, const char *file, double *load_s);

/* With --fixed-blinding R,S: *r and *s get `partitions` copies of R and S
 * (freed by the caller) for engine_job_spec.r and .s, and a warning is
 * said once; without it, both NULL. CLI_EXIT_USAGE for values that are not
 * field elements. */
int cli_engine_blinding(const cli_options *opt, curve_id curve, uint32_t partitions, fr_t **r,
                        fr_t **s);

/* Waits for a job; CLI_EXIT_OK when it is done, else says why (naming
 * `what`) and returns CLI_EXIT_FAILURE. */
int cli_engine_await(engine_t *e, uint64_t id, const char *what);

#endif
