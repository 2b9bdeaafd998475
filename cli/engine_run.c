/* One command's engine: the same pipeline the service runs, sized for a
 * run that proves what it was given and exits. */
#include "cli/engine_run.h"

#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

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
