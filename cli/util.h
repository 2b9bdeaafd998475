#ifndef CUZK_CLI_UTIL_H
#define CUZK_CLI_UTIL_H

/* Small helpers shared by the subcommands. */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/backend_kind.h"

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

/* If argv[*i] is one of the common options, consumes it (and its value),
 * advances *i and returns 1; returns 0 when it is not; -1 on a bad value. */
int cli_common_option(int argc, char **argv, int *i, cli_options *opt);

/* The command line of a file-taking subcommand: the common options into
 * opt and exactly `want` file arguments into pos. Returns -1 when the
 * command should go on; otherwise the exit code to return (--help printed
 * to stdout: CLI_EXIT_OK; an unknown option or a wrong argument count,
 * said on stderr with the usage: CLI_EXIT_USAGE). */
int cli_file_arguments(const char *command, int argc, char **argv, cli_options *opt,
                       const char **pos, int want, void (*usage)(FILE *out));

#endif
