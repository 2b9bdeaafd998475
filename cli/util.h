#ifndef CUZK_CLI_UTIL_H
#define CUZK_CLI_UTIL_H

/* Small helpers shared by the subcommands. */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/backend_kind.h"
#include "cli/args.h"

/* Options every proving subcommand understands. */
typedef struct cli_options {
    unsigned threads;      /* --threads N; 0 = all CPUs */
    bool verify;           /* verify each proof before writing it (--no-verify turns it off) */
    bool quiet;            /* --quiet: no timing lines */
    bool check_subgroup;   /* --check-subgroup: every key point, not only the verifying key */
    backend_kind backend;  /* --backend auto|cpu|cuda (commands that prove) */
    const char *event_log; /* --event-log FILE: the engine's timing log (commands that prove) */
    const char *blinding;  /* --fixed-blinding R,S (tests only): every proof with these r, s */
} cli_options;

/* "cuzk: error: ..." on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* An error about a file: the reader's message when it already names the
 * file, else "path: message" (or the status's text when msg is empty). */
void cli_file_error(const char *path, const char *msg, int status);

/* Wall-clock seconds (monotonic). */
double cli_now(void);

/* The progress line of a long `cuzk setup` on stderr: rewritten in place
 * on a terminal, one line per tenth otherwise. */
typedef struct cli_progress {
    double start;
    int last_tenth;
    bool tty;
} cli_progress;

void cli_progress_init(cli_progress *p);
/* A groth16_progress_fn; ctx is a cli_progress. */
void cli_progress_report(void *ctx, uint64_t done, uint64_t total);

/* Parses an unsigned decimal option value; false (with a message naming the
 * option) when it is not one or exceeds max. */
bool cli_parse_uint(const char *option, const char *text, unsigned long long max,
                    unsigned long long *out);

/* The common options' codes (cli/args.h); a command's own codes start at
 * CLI_OPT_COMMON_END. --quiet's is its short form, -q. */
enum {
    CLI_OPT_THREADS = CLI_ARGS_FIRST_CODE,
    CLI_OPT_NO_VERIFY,
    CLI_OPT_CHECK_SUBGROUP,
    CLI_OPT_BACKEND,
    CLI_OPT_EVENT_LOG,
    CLI_OPT_FIXED_BLINDING,
    CLI_OPT_COMMON_END,
    CLI_OPT_QUIET = 'q',
};

/* The common options' entries of a getopt_long table. */
#define CLI_COMMON_OPTIONS                                                                         \
    {"threads", required_argument, NULL, CLI_OPT_THREADS},                                         \
        {"no-verify", no_argument, NULL, CLI_OPT_NO_VERIFY},                                       \
        {"check-subgroup", no_argument, NULL, CLI_OPT_CHECK_SUBGROUP},                             \
        {"backend", required_argument, NULL, CLI_OPT_BACKEND},                                     \
        {"event-log", required_argument, NULL, CLI_OPT_EVENT_LOG},                                 \
        {"fixed-blinding", required_argument, NULL, CLI_OPT_FIXED_BLINDING},                       \
    {                                                                                              \
        "quiet", no_argument, NULL, CLI_OPT_QUIET                                                  \
    }

/* If code is one of the common options', takes its value into opt and
 * returns 1; 0 when it is not one; -1 after a message on a bad value. */
int cli_common_option(cli_options *opt, int code, const char *value);

#endif
