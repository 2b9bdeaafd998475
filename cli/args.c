/* The subcommands' getopt_long loop and its messages (cli/args.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/args.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli/util.h"

static bool is_letter_code(int code)
{
    return code > 0 && code < 128 && isalnum(code);
}

void cli_args_start(cli_args *a, const char *command, int argc, char **argv,
                    const struct option *table)
{
    memset(a, 0, sizeof(*a));
    a->command = command;
    a->argc = argc;
    a->argv = argv;
    a->table = table;
    /* "-": arguments come in order where they stand (POSIXLY_CORRECT or
     * not); ":": a missing value is told apart from an unknown option. */
    size_t n = 0;
    a->shorts[n++] = '-';
    a->shorts[n++] = ':';
    for (const struct option *o = table; o->name; o++) {
        if (!is_letter_code(o->val) || n + 4 > sizeof(a->shorts))
            continue;
        a->shorts[n++] = (char)o->val;
        if (o->has_arg != no_argument)
            a->shorts[n++] = ':';
        if (o->has_arg == optional_argument)
            a->shorts[n++] = ':';
    }
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

/* The table's name of the option that came back as code from a short
 * form (-q), which getopt_long does not index. */
static const char *name_of(const struct option *table, int code)
{
    for (const struct option *o = table; o->name; o++)
        if (o->val == code)
            return o->name;
    return NULL;
}

int cli_args_next(cli_args *a)
{
    a->option[0] = 0;
    if (a->rest) {
        if (a->rest >= a->argc)
            return CLI_ARGS_END;
        a->value = a->argv[a->rest++];
        return CLI_ARG;
    }
    int index = -1;
    int code = getopt_long(a->argc, a->argv, a->shorts, a->table, &index);
    a->value = optarg;
    if (code == -1) {
        if (optind >= a->argc)
            return CLI_ARGS_END;
        a->rest = optind; /* the words after "--" */
        return cli_args_next(a);
    }
    if (code != ':' && code != '?') {
        const char *name = code == CLI_ARG ? NULL
                           : index >= 0    ? a->table[index].name
                                           : name_of(a->table, code);
        if (name)
            snprintf(a->option, sizeof(a->option), "--%s", name);
        return code;
    }
    if (a->quiet)
        return CLI_ARGS_BAD;
    const char *word = a->argv[optind - 1];
    /* optopt: the character of an unknown short option, or the code of a
     * long option given a value it takes none of (a letter for --help=x,
     * one of the table's short forms). */
    bool unknown_short = optopt > 0 && optopt < CLI_ARGS_FIRST_CODE &&
                         !(is_letter_code(optopt) && strchr(a->shorts + 2, optopt));
    if (code == ':')
        cli_error("%s wants a value (cuzk %s --help)", word, a->command);
    else if (unknown_short)
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

const char *cli_args_word(const cli_args *a)
{
    return a->option[0] || !a->value ? a->option : a->value;
}

bool cli_args_has(int argc, char **argv, const struct option *table, int code)
{
    cli_args a;
    cli_args_start(&a, "", argc, argv, table);
    a.quiet = true;
    for (int c; (c = cli_args_next(&a)) != CLI_ARGS_END;)
        if (c == code)
            return true;
    return false;
}
