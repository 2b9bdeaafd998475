#ifndef CUZK_CLI_UTIL_H
#define CUZK_CLI_UTIL_H

/* Small helpers shared by the subcommands. */

#include <stdbool.h>

/* Options every proving subcommand understands. */
typedef struct cli_options {
    unsigned threads; /* --threads N; 0 = all CPUs */
    bool verify;      /* verify each proof before writing it (--no-verify turns it off) */
    bool quiet;       /* --quiet: no timing lines */
} cli_options;

/* "cuzk: error: ..." on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Wall-clock seconds (monotonic). */
double cli_now(void);

/* Parses an unsigned decimal option value; false (with a message naming the
 * option) when it is not one or exceeds max. */
bool cli_parse_uint(const char *option, const char *text, unsigned long long max,
                    unsigned long long *out);

/* If argv[*i] is one of the common options, consumes it (and its value),
 * advances *i and returns 1; returns 0 when it is not; -1 on a bad value. */
int cli_common_option(int argc, char **argv, int *i, cli_options *opt);

#endif
