#define _POSIX_C_SOURCE 200809L
#include "cli/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/status.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("cuzk: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_file_error(const char *path, const char *msg, int status)
{
    if (msg && msg[0] && strstr(msg, path))
        cli_error("%s", msg);
    else
        cli_error("%s: %s", path, msg && msg[0] ? msg : cuzk_status_str((cuzk_status)status));
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_init(cli_progress *p)
{
    p->start = cli_now();
    p->last_tenth = -1;
    p->tty = isatty(2);
}

void cli_progress_report(void *ctx, uint64_t done, uint64_t total)
{
    cli_progress *ps = ctx;
    double frac = total ? (double)done / (double)total : 1.0;
    if (ps->tty) {
        fprintf(stderr, "\rcuzk setup: %5.1f%% of %llu points, %.0f s", 100.0 * frac,
                (unsigned long long)total, cli_now() - ps->start);
        if (done == total)
            fputc('\n', stderr);
    } else if ((int)(frac * 10) > ps->last_tenth || done == total) {
        ps->last_tenth = (int)(frac * 10);
        fprintf(stderr, "cuzk setup: %3.0f%% of %llu points, %.0f s\n", 100.0 * frac,
                (unsigned long long)total, cli_now() - ps->start);
    }
}

bool cli_parse_uint(const char *option, const char *text, unsigned long long max,
                    unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!text || !*text || *text == '-') {
        cli_error("%s wants a number", option);
        return false;
    }
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v > max) {
        cli_error("%s wants a whole number up to %llu, got '%s'", option, max, text);
        return false;
    }
    *out = v;
    return true;
}

int cli_common_option(cli_options *opt, int code, const char *value)
{
    unsigned long long v;
    switch (code) {
    case CLI_OPT_THREADS:
        if (!cli_parse_uint("--threads", value, 4096, &v))
            return -1;
        opt->threads = (unsigned)v;
        return 1;
    case CLI_OPT_NO_VERIFY:
        opt->verify = false;
        return 1;
    case CLI_OPT_CHECK_SUBGROUP:
        opt->check_subgroup = true;
        return 1;
    case CLI_OPT_BACKEND:
        if (!backend_kind_parse(value, &opt->backend)) {
            cli_error("--backend wants auto, cpu or cuda");
            return -1;
        }
        return 1;
    case CLI_OPT_EVENT_LOG:
        if (!value[0]) {
            cli_error("--event-log wants a file");
            return -1;
        }
        opt->event_log = value;
        return 1;
    case CLI_OPT_FIXED_BLINDING:
        if (!strchr(value, ',')) {
            cli_error("--fixed-blinding wants R,S (two decimal field elements)");
            return -1;
        }
        opt->blinding = value;
        return 1;
    case CLI_OPT_QUIET:
        opt->quiet = true;
        return 1;
    default:
        return 0;
    }
}
