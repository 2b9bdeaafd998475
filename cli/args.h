#ifndef CUZK_CLI_ARGS_H
#define CUZK_CLI_ARGS_H

/* getopt_long (glibc) over a subcommand's long options, with this CLI's
 * messages:
 *
 *   static const struct option table[] = {
 *       {"help", no_argument, NULL, 'h'},
 *       {"timeout", required_argument, NULL, OPT_TIMEOUT}, ..., {0}};
 *   cli_args a;
 *   cli_args_start(&a, "await", argc, argv, table);
 *   for (int code; (code = cli_args_next(&a)) != CLI_ARGS_END;)
 *       switch (code) { case OPT_TIMEOUT: use a.value; ... }
 *
 * Option codes are CLI_ARGS_FIRST_CODE and up, or a letter, which makes
 * the option's short form work too ('h' for help: -h; 'q' for quiet: -q).
 * A value follows as the next word or after '=', and a unique prefix of a
 * long option names it (getopt_long's rules). Arguments that are not
 * options come back in the order they stand as CLI_ARG with the text in
 * value, those after "--" too. An unknown option, a missing value or a
 * value given to an option that takes none is CLI_ARGS_BAD, after a
 * message on stderr naming it (the caller exits with CLI_EXIT_USAGE). */

#include <getopt.h>
#include <stdbool.h>

enum {
    CLI_ARGS_END = -1,
    CLI_ARG = 1,
    CLI_ARGS_BAD = '?',
    CLI_ARGS_FIRST_CODE = 256,
};

typedef struct cli_args {
    const char *command; /* for messages: "await" */
    int argc;
    char **argv;
    const struct option *table;
    char shorts[40]; /* getopt's option string: the table's letters */
    bool quiet;      /* no messages (a first pass over the command line) */
    int rest;        /* after "--": the index of the next argument */
    const char *value;
    char option[48]; /* "--timeout": the option as the table names it, for messages */
} cli_args;

/* A new scan of argv[1..argc): the command line can be read more than once. */
void cli_args_start(cli_args *a, const char *command, int argc, char **argv,
                    const struct option *table);
/* The next option's code (a->value its value, NULL when it takes none;
 * a->option its name), CLI_ARG, CLI_ARGS_BAD or CLI_ARGS_END. */
int cli_args_next(cli_args *a);
/* What a message about the last code names: the option ("--timeout",
 * whichever form was given) or the argument's text. */
const char *cli_args_word(const cli_args *a);

/* Whether the command line holds the option of this code (a quiet scan):
 * a command with several forms picks one before it reads the rest. */
bool cli_args_has(int argc, char **argv, const struct option *table, int code);

#endif
