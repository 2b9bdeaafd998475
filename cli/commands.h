#ifndef CUZK_CLI_COMMANDS_H
#define CUZK_CLI_COMMANDS_H

/* Exit codes a script can rely on. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAILURE = 1,   /* the command ran and failed (bad proof, I/O error, ...) */
    CLI_EXIT_USAGE = 2,     /* bad command line */
};

/* Each subcommand gets argv starting at its own name. */
int cli_bench(int argc, char **argv);

#endif
