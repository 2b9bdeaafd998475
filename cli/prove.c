/* cuzk prove: dispatches on the arguments' shape. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/builtin.h"
#include "cli/commands.h"

static void prove_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk prove [options] circuit.zkey witness.wtns proof.json public.json\n"
            "                  [witness2.wtns proof2.json public2.json ...]\n"
            "       cuzk prove [options] --witness-list FILE circuit.zkey\n"
            "       cuzk prove --builtin [--log-constraints K] [--arity 2|8] [--params FILE]\n"
            "                  [--seed S] [--partitions N] --out proofs.bin [options]\n"
            "  The first form proves with a snarkjs Groth16 key (BLS12-381, or BN254: the\n"
            "  curve follows the key's primes) and circom\n"
            "  witnesses and writes snarkjs's proof.json and public.json for each; the key\n"
            "  is loaded once for all of them. A witness list has one line per witness:\n"
            "  `witness.wtns proof.json public.json`. The last form proves N\n"
            "  partitions of the built-in circuit (partition i from seed S + i) with\n"
            "  parameters from `cuzk setup` and writes the 192-byte proofs concatenated.\n"
            "  Every proof is verified before it is written.\n"
            "  Every proof goes through the engine: on the GPU when the build has CUDA\n"
            "  and the machine a GPU, else on the CPU.\n"
            "options:\n"
            "  --backend B   auto (default), cpu or cuda\n"
            "  --event-log FILE  the engine's timing log (JSON lines; `cuzk trace` reads it)\n"
            "  --fixed-blinding R,S  tests only: every proof with these r and s (decimal), so\n"
            "                proofs can be compared bit for bit; such proofs reveal the witness\n"
            "  --threads N   CPU threads (default: all)\n"
            "  --no-verify   skip the verification of the new proof\n"
            "  --check-subgroup  check every point of the key for subgroup membership (slow;\n"
            "                by default the verifying key is checked fully, the rest on-curve)\n"
            "  --quiet       no timing line on stderr\n"
            "exit codes: 0 proof written, 1 proving failed, 2 usage, 3 bad input file\n");
}

/* The lines of a witness list: `witness.wtns proof.json public.json`,
 * blank lines and lines starting with '#' skipped. The strings live in
 * *text (one allocation the caller frees). */
static int read_witness_list(const char *path, cli_proof_files **out, size_t *n, char **text)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("%s: cannot read the witness list: %s", path, strerror(errno));
        return CLI_EXIT_BAD_INPUT;
    }
    size_t cap = 0, len = 0;
    char *buf = NULL;
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        if (len + got + 1 > cap) {
            cap = 2 * (len + got + 1);
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                cli_error("out of memory");
                return CLI_EXIT_FAILURE;
            }
            buf = nb;
        }
        memcpy(buf + len, chunk, got);
        len += got;
    }
    fclose(f);
    if (!buf && !(buf = calloc(1, 1)))
        return CLI_EXIT_FAILURE;
    buf[len] = 0;
    cli_proof_files *files = NULL;
    size_t count = 0, fcap = 0;
    unsigned line = 0;
    for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line++;
        char *fields[4] = {0}, *s2 = NULL;
        int k = 0;
        for (char *t = strtok_r(l, " \t\r", &s2); t && k < 4; t = strtok_r(NULL, " \t\r", &s2))
            fields[k++] = t;
        if (k == 0 || fields[0][0] == '#')
            continue;
        if (k != 3) {
            cli_error("%s: line %u: want `witness.wtns proof.json public.json`", path, line);
            free(files);
            free(buf);
            return CLI_EXIT_BAD_INPUT;
        }
        if (count == fcap) {
            fcap = fcap ? 2 * fcap : 16;
            cli_proof_files *nf = realloc(files, fcap * sizeof(*nf));
            if (!nf) {
                free(files);
                free(buf);
                return CLI_EXIT_FAILURE;
            }
            files = nf;
        }
        files[count++] = (cli_proof_files){fields[0], fields[1], fields[2]};
    }
    if (!count) {
        cli_error("%s: the witness list names no witness", path);
        free(files);
        free(buf);
        return CLI_EXIT_BAD_INPUT;
    }
    *out = files;
    *n = count;
    *text = buf;
    return CLI_EXIT_OK;
}

/* Codes of prove's own options, after the built-in circuit's. */
enum { OPT_WITNESS_LIST = BUILTIN_OPT_END };

/* Both forms' options: a word is read alike whichever form it ends in. */
static const struct option prove_options[] = {
    {"help", no_argument, NULL, 'h'},
    CLI_COMMON_OPTIONS,
    BUILTIN_OPTIONS,
    {"witness-list", required_argument, NULL, OPT_WITNESS_LIST},
    {0},
};

typedef struct prove_args {
    bool builtin;     /* --builtin: the built-in circuit's form */
    builtin_opts o;   /* o.common: the options of both forms */
    const char *list; /* --witness-list */
    const char **pos; /* the circom form's key and files */
    int npos;
} prove_args;

/* -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, prove_args *p)
{
    cli_args a;
    cli_args_start(&a, "prove", argc, argv, prove_options);
    for (int code; (code = cli_args_next(&a)) != CLI_ARGS_END;) {
        if (code == 'h') {
            prove_usage(stdout);
            return CLI_EXIT_OK;
        }
        if (code == CLI_ARGS_BAD)
            return CLI_EXIT_USAGE;
        if (p->builtin && code == CLI_ARG) {
            cli_error("prove: unknown argument '%s'", a.value);
            prove_usage(stderr);
            return CLI_EXIT_USAGE;
        }
        if (p->builtin && code == OPT_WITNESS_LIST) {
            cli_error("prove: --witness-list does not go with --builtin");
            prove_usage(stderr);
            return CLI_EXIT_USAGE;
        }
        if (!p->builtin && builtin_option_code(code)) {
            cli_error("prove: %s goes with --builtin", a.option);
            prove_usage(stderr);
            return CLI_EXIT_USAGE;
        }
        if (code == CLI_ARG)
            p->pos[p->npos++] = a.value;
        else if (code == OPT_WITNESS_LIST)
            p->list = a.value;
        else if (builtin_option(&p->o, code, a.value) < 0)
            return CLI_EXIT_USAGE;
    }
    if (!p->builtin && (p->list ? p->npos != 1 : p->npos < 4 || (p->npos - 1) % 3 != 0)) {
        cli_error(p->list ? "prove: with --witness-list, give the key alone"
                          : "prove: want circuit.zkey, then witness.wtns proof.json public.json "
                            "for each witness");
        prove_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

static int prove_circom(const prove_args *p)
{
    cli_proof_files *files = NULL;
    size_t n = 0;
    char *text = NULL;
    int rc;
    if (p->list) {
        rc = read_witness_list(p->list, &files, &n, &text);
    } else {
        n = (size_t)(p->npos - 1) / 3;
        files = calloc(n, sizeof(*files));
        rc = files ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
        for (size_t k = 0; files && k < n; k++)
            files[k] = (cli_proof_files){p->pos[1 + 3 * k], p->pos[2 + 3 * k], p->pos[3 + 3 * k]};
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_prove_circom(p->pos[0], files, n, &p->o.common);
    free(files);
    free(text);
    return rc;
}

int cli_prove(int argc, char **argv)
{
    prove_args p = {.builtin = cli_args_has(argc, argv, prove_options, BUILTIN_OPT_BUILTIN)};
    builtin_opts_init(&p.o, 16);
    if (!(p.pos = calloc((size_t)argc, sizeof(char *))))
        return CLI_EXIT_FAILURE;
    int rc = parse_args(argc, argv, &p);
    if (rc < 0)
        rc = p.builtin ? cli_prove_builtin(&p.o) : prove_circom(&p);
    free(p.pos);
    return rc;
}
