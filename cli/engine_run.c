/* One command's engine: the same pipeline the service runs, sized for a
 * run that proves what it was given and exits. */
#include "cli/engine_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "formats/decimal.h"

int cli_engine_start(engine_t **out, const cli_options *opt, unsigned jobs)
{
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend = opt->backend;
    cfg.device_threads = opt->threads;
    cfg.load_threads = opt->threads;
    cfg.verify = opt->verify;
    cfg.event_log = opt->event_log;
    cfg.quiet = opt->quiet;
    cfg.keep_finished = jobs + 1;
    char msg[512] = "";
    cuzk_status st = engine_create(out, &cfg, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_error("cannot start the engine: %s", msg[0] ? msg : cuzk_status_str(st));
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

int cli_engine_load(engine_t *e, const circuit_spec *spec, const char *file, double *load_s)
{
    char msg[512] = "";
    double t0 = cli_now();
    cuzk_status st = engine_register(e, spec, msg, sizeof(msg));
    if (st == CUZK_OK)
        st = engine_preload(e, spec->name, msg, sizeof(msg));
    *load_s = cli_now() - t0;
    if (st == CUZK_OK)
        return CLI_EXIT_OK;
    cli_file_error(file, msg, st);
    return st == CUZK_ERR_OUT_OF_MEMORY || st == CUZK_ERR_DEVICE ? CLI_EXIT_FAILURE
                                                                 : CLI_EXIT_BAD_INPUT;
}

int cli_engine_blinding(const cli_options *opt, curve_id curve, uint32_t partitions, fr_t **r,
                        fr_t **s)
{
    *r = *s = NULL;
    if (!opt->blinding)
        return CLI_EXIT_OK;
    char text[2 * DECIMAL_MAX];
    snprintf(text, sizeof(text), "%s", opt->blinding);
    char *comma = strchr(text, ',');
    fr_t rv, sv;
    if (!comma || (*comma = 0, decimal_to_scalar(curve, &rv, text) != CUZK_OK) ||
        decimal_to_scalar(curve, &sv, comma + 1) != CUZK_OK) {
        cli_error("--fixed-blinding wants R,S: two decimal numbers below the group order r");
        return CLI_EXIT_USAGE;
    }
    static bool warned;
    if (!warned && !opt->quiet)
        fprintf(stderr, "cuzk: --fixed-blinding: every proof uses the given r and s; such "
                        "proofs reveal the witness to anyone who knows them (for tests only)\n");
    warned = true;
    *r = malloc(sizeof(fr_t) * partitions);
    *s = malloc(sizeof(fr_t) * partitions);
    if (!*r || !*s) {
        free(*r);
        free(*s);
        *r = *s = NULL;
        cli_error("out of memory");
        return CLI_EXIT_FAILURE;
    }
    for (uint32_t i = 0; i < partitions; i++) {
        (*r)[i] = rv;
        (*s)[i] = sv;
    }
    return CLI_EXIT_OK;
}

int cli_engine_await(engine_t *e, uint64_t id, const char *what)
{
    engine_state state;
    engine_job_info info;
    if (engine_wait(e, id, -1, &state) != CUZK_OK ||
        engine_job_status(e, id, &info, NULL, 0) != CUZK_OK) {
        cli_error("%s: the engine lost its job", what);
        return CLI_EXIT_FAILURE;
    }
    if (state == ENGINE_STATE_DONE)
        return CLI_EXIT_OK;
    cli_error("%s: %s: %s", what, engine_state_name(state),
              info.message[0] ? info.message : "no reason given");
    return CLI_EXIT_FAILURE;
}
