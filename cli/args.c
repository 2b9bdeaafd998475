/* The subcommands' getopt_long loop and its messages (cli/args.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/args.h"

#include <string.h>

#include "cli/util.h"

void cli_args_start(cli_args *a, const char *command, int argc, char **argv,
                    const struct option *table)
{
    memset(a, 0, sizeof(*a));
    a->command = command;
    a->argc = argc;
    a->argv = argv;
    a->table = table;
    /* glibc: optind 0 starts over, its state of an earlier scan reset. */
    optind = 0;
    opterr = 0;
}

/* How many long options word ("--na" or "--na=v") is a prefix of:
 * getopt_long reports an ambiguous one as it reports an unknown one. */
static int prefix_matches(const struct option *table, const char *word)
{
    if (strncmp(word, "--", 2))
        return 0;
    word += 2;
    size_t n = strcspn(word, "=");
    int count = 0;
    for (const struct option *o = table; o->name; o++)
        count += !strncmp(o->name, word, n);
    return count;
}

int cli_args_next(cli_args *a)
{
    if (a->rest) {
        if (a->rest >= a->argc)
            return CLI_ARGS_END;
        a->value = a->argv[a->rest++];
        return CLI_ARG;
    }
    /* "-": arguments come in order where they stand (POSIXLY_CORRECT or
     * not); ":": a missing value is told apart from an unknown option. */
    int code = getopt_long(a->argc, a->argv, "-:h", a->table, NULL);
    a->value = optarg;
    if (code == -1) {
        if (optind >= a->argc)
            return CLI_ARGS_END;
        a->rest = optind; /* the words after "--" */
        return cli_args_next(a);
    }
    if (code != ':' && code != '?')
        return code;
    if (a->quiet)
        return CLI_ARGS_BAD;
    const char *word = a->argv[optind - 1];
    if (code == ':')
        cli_error("%s wants a value (cuzk %s --help)", word, a->command);
    else if (optopt > 0 && optopt < CLI_ARGS_FIRST_CODE)
        cli_error("%s: unknown option '-%c' (cuzk %s --help)", a->command, optopt, a->command);
    else if (optopt)
        cli_error("%s: '%s': the option takes no value", a->command, word);
    else if (prefix_matches(a->table, word) > 1)
        cli_error("%s: '%s' is the start of more than one option (cuzk %s --help)", a->command,
                  word, a->command);
    else
        cli_error("%s: unknown option '%s' (cuzk %s --help)", a->command, word, a->command);
    return CLI_ARGS_BAD;
}
