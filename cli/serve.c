/* cuzk serve: the engine behind an HTTP/JSON API (docs/SERVICE.md), set up
 * from an INI file (docs/CONFIG.md) with command-line settings on top. It
 * runs until SIGINT or SIGTERM; then every job reaches a final state and
 * the socket file is removed. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/args.h"
#include "cli/commands.h"
#include "config/config.h"
#include "engine/engine.h"
#include "engine/metrics.h"
#include "service/service.h"

/* Command-line options that stand for a configuration key. */
typedef struct flag_key {
    const char *flag;
    const char *key;         /* section.key */
    const char *fixed_value; /* for flags without a value */
} flag_key;

static const flag_key flags[] = {
    {"--socket", "server.socket", NULL},
    {"--tcp", "server.tcp", NULL},
    {"--token-file", "server.token_file", NULL},
    {"--insecure-no-token", "server.insecure_no_token", "true"},
    {"--log", "server.log", NULL},
    {"--witness-dir", "server.witness_dir", NULL},
    {"--witness-spill-dir", "server.witness_spill_dir", NULL},
    {"--circuit-dir", "server.circuit_dir", NULL},
    {"--state-dir", "server.state_dir", NULL},
    {"--store", "server.store", NULL},
    {"--insecure-fixed-blinding", "server.insecure_fixed_blinding", "true"},
    {"--max-wait", "server.max_wait_s", NULL},
    {"--shutdown-grace", "server.shutdown_grace_s", NULL},
    {"--event-log", "engine.event_log", NULL},
    {"--backend", "engine.backend", NULL},
    {"--threads", "engine.device_threads", NULL},
    {"--synth-workers", "engine.synth_workers", NULL},
    {"--workers-per-device", "engine.workers_per_device", NULL},
    {"--queue-bound", "engine.queue_bound", NULL},
    {"--retries", "engine.retries", NULL},
    {"--keep-finished", "engine.keep_finished", NULL},
    {"--default-timeout", "engine.default_timeout_s", NULL},
    {"--buffer-budget", "engine.buffer_budget", NULL},
    {"--resident-budget", "engine.resident_budget", NULL},
};
#define NUM_FLAGS (sizeof(flags) / sizeof(flags[0]))

static void usage(FILE *out)
{
    fprintf(out, "usage: cuzk serve [--config FILE] [--set SECTION.KEY=VALUE]... [options]\n"
                 "\n"
                 "Runs the proving engine behind an HTTP/JSON API on a Unix socket (and TCP\n"
                 "with a bearer token on request) until SIGINT or SIGTERM. The configuration\n"
                 "file's keys and defaults are in docs/CONFIG.md, the API in docs/SERVICE.md.\n"
                 "Command-line settings apply after the file, in order.\n"
                 "\n"
                 "  --config FILE               the INI configuration file\n"
                 "  --set S.K=V                 any key, e.g. --set engine.retries=3,\n"
                 "                              --set 'circuit porep.params=/x.params'\n");
    for (size_t i = 0; i < NUM_FLAGS; i++)
        fprintf(out, "  %-26s  %s%s%s\n", flags[i].flag, flags[i].key,
                flags[i].fixed_value ? "=" : "", flags[i].fixed_value ? flags[i].fixed_value : "");
    fprintf(out, "\nExit codes: 0 after a clean shutdown, 1 failed to start or run, 2 bad\n"
                 "command line, 3 bad configuration file or circuit file.\n");
}

/* Codes of the long options (cli/args.h): --config, --set, then one per
 * entry of flags[]. */
enum { OPT_CONFIG = CLI_ARGS_FIRST_CODE, OPT_SET, OPT_FLAG };

/* getopt_long's table, from flags[]. */
static void options_table(struct option table[NUM_FLAGS + 4])
{
    table[0] = (struct option){"help", no_argument, NULL, 'h'};
    table[1] = (struct option){"config", required_argument, NULL, OPT_CONFIG};
    table[2] = (struct option){"set", required_argument, NULL, OPT_SET};
    for (size_t k = 0; k < NUM_FLAGS; k++)
        table[3 + k] = (struct option){flags[k].flag + 2,
                                       flags[k].fixed_value ? no_argument : required_argument, NULL,
                                       OPT_FLAG + (int)k};
    table[3 + NUM_FLAGS] = (struct option){0};
}

/* Loads --config, then applies the other settings in order. */
static int configure(int argc, char **argv, cuzk_config *cfg)
{
    char msg[1024];
    struct option table[NUM_FLAGS + 4];
    options_table(table);
    cli_args a;
    /* First the files, whatever their place; the second pass says what is
     * wrong with the rest. */
    cli_args_start(&a, "serve", argc, argv, table);
    a.quiet = true;
    for (int code; (code = cli_args_next(&a)) != CLI_ARGS_END;) {
        if (code == OPT_CONFIG && cuzk_config_load(cfg, a.value, msg, sizeof(msg)) != CUZK_OK) {
            cli_error("%s", msg);
            return CLI_EXIT_BAD_INPUT;
        }
    }
    cli_args_start(&a, "serve", argc, argv, table);
    for (int code; (code = cli_args_next(&a)) != CLI_ARGS_END;) {
        char setting[4200];
        const char *origin;
        if (code == 'h') {
            usage(stdout);
            return -1;
        } else if (code == OPT_CONFIG) {
            continue;
        } else if (code == OPT_SET) {
            origin = "--set";
            snprintf(setting, sizeof(setting), "%s", a.value);
        } else if (code >= OPT_FLAG && code < OPT_FLAG + (int)NUM_FLAGS) {
            const flag_key *f = &flags[code - OPT_FLAG];
            origin = f->flag;
            snprintf(setting, sizeof(setting), "%s=%s", f->key,
                     f->fixed_value ? f->fixed_value : a.value);
        } else if (code == CLI_ARG) {
            cli_error("serve: unexpected '%s' (cuzk serve --help)", a.value);
            return CLI_EXIT_USAGE;
        } else {
            return CLI_EXIT_USAGE;
        }
        char where[80];
        snprintf(where, sizeof(where), "command line (%s)", origin);
        if (cuzk_config_set(cfg, setting, where, msg, sizeof(msg)) != CUZK_OK) {
            cli_error("%s", msg);
            return CLI_EXIT_USAGE;
        }
    }
    if (cuzk_config_check(cfg, msg, sizeof(msg)) != CUZK_OK) {
        cli_error("%s", msg);
        return CLI_EXIT_BAD_INPUT;
    }
    return CLI_EXIT_OK;
}

/* Registers every configured circuit (cheap: headers only). */
static int register_circuits(engine_t *e, const cuzk_config *cfg)
{
    char msg[1024];
    for (size_t i = 0; i < cfg->num_circuits; i++) {
        const config_circuit *cc = &cfg->circuits[i];
        circuit_spec spec;
        if (config_circuit_spec(cc, &spec, msg, sizeof(msg)) != CUZK_OK ||
            engine_register(e, &spec, msg, sizeof(msg)) != CUZK_OK) {
            cli_error("%s: [circuit %s] %s", cc->origin, cc->name, msg);
            return CLI_EXIT_BAD_INPUT;
        }
        uint64_t seed;
        if (spec.kind == CIRCUIT_BUILTIN &&
            circuit_params_dev(spec.params_path, &seed, NULL, 0) > 0)
            fprintf(stderr,
                    "cuzk serve: circuit %s: development parameters %s, made in memory at "
                    "load: NOT FOR PRODUCTION (the seed is the toxic waste)\n",
                    cc->name, spec.params_path);
    }
    return CLI_EXIT_OK;
}

/* Loads the circuits marked preload; the server already answers status
 * requests meanwhile. */
static int preload_circuits(engine_t *e, const cuzk_config *cfg, service *svc)
{
    char msg[1024];
    for (size_t i = 0; i < cfg->num_circuits; i++) {
        const config_circuit *cc = &cfg->circuits[i];
        if (!cc->preload)
            continue;
        double t0 = cli_now();
        if (engine_preload(e, cc->name, msg, sizeof(msg)) != CUZK_OK) {
            cli_error("%s: [circuit %s] cannot preload: %s", cc->origin, cc->name, msg);
            return CLI_EXIT_BAD_INPUT;
        }
        service_log(svc, "circuit %s preloaded in %.2f s", cc->name, cli_now() - t0);
    }
    return CLI_EXIT_OK;
}

/* Waits up to grace seconds for every job to finish by itself. */
static void drain(engine_t *e, double grace, service *svc)
{
    double until = cli_now() + grace;
    for (;;) {
        engine_stats st;
        engine_get_stats(e, &st, NULL, 0);
        unsigned open = 0;
        for (int s = 0; s < ENGINE_STATE_DONE; s++)
            open += st.jobs[s];
        if (!open || cli_now() >= until) {
            if (open)
                service_log(svc, "%u jobs unfinished after %.1f s: cancelling them", open, grace);
            return;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

int cli_serve(int argc, char **argv)
{
    cuzk_config cfg;
    cuzk_config_init(&cfg);
    int rc = configure(argc, argv, &cfg);
    if (rc != CLI_EXIT_OK) {
        cuzk_config_free(&cfg);
        return rc < 0 ? CLI_EXIT_OK : rc;
    }
    FILE *log = stderr;
    if (cfg.server.log_path && !(log = fopen(cfg.server.log_path, "a"))) {
        cli_error("cannot open the log %s: %s", cfg.server.log_path, strerror(errno));
        cuzk_config_free(&cfg);
        return CLI_EXIT_BAD_INPUT;
    }
    /* The signals are taken by sigwait here, so every thread (the engine's,
     * the server's) starts with them blocked. A client that hangs up must
     * not kill the server with SIGPIPE. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    char msg[1024] = "";
    engine_metrics *metrics = NULL;
    engine_t *e = NULL;
    service *svc = NULL;
    rc = CLI_EXIT_FAILURE;
    if (engine_metrics_create(&metrics) != CUZK_OK) {
        cli_error("out of memory");
        goto out;
    }
    cfg.engine.metrics = metrics;
    if (engine_create(&e, &cfg.engine, msg, sizeof(msg)) != CUZK_OK) {
        cli_error("cannot start the engine: %s", msg);
        goto out;
    }
    if ((rc = register_circuits(e, &cfg)) != CLI_EXIT_OK)
        goto out;
    service_opts so = {.engine = e,
                       .metrics = metrics,
                       .server = &cfg.server,
                       .log = log,
                       .keep_finished = cfg.engine.keep_finished};
    if (service_start(&svc, &so, msg, sizeof(msg)) != CUZK_OK) {
        cli_error("cannot serve: %s", msg);
        rc = CLI_EXIT_FAILURE;
        goto out;
    }
    if ((rc = preload_circuits(e, &cfg, svc)) != CLI_EXIT_OK)
        goto out;
    service_log(svc, "ready (cuzk %s, %zu circuits)", CUZK_VERSION, cfg.num_circuits);

    int sig = 0;
    while (sigwait(&stop, &sig) != 0) {
    }
    service_log(svc, "%s: shutting down", sig == SIGINT ? "SIGINT" : "SIGTERM");
    service_close_submissions(svc);
    if (cfg.server.shutdown_grace_s > 0)
        drain(e, cfg.server.shutdown_grace_s, svc);
    /* Every unfinished job is cancelled and reaches its final state; the
     * long polls waiting on them return. */
    engine_shutdown(e, false);
    rc = CLI_EXIT_OK;
out:
    service_stop(svc);
    engine_destroy(e);
    engine_metrics_destroy(metrics);
    if (log != stderr)
        fclose(log);
    cuzk_config_free(&cfg);
    return rc;
}
