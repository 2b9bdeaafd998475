/* cuzk setup: development keys from random toxic waste.
 *   cuzk setup --r1cs circuit.r1cs --zkey circuit.zkey [--threads N] [--quiet]
 *   cuzk setup [--builtin] [--log-constraints K] ... (cli/builtin.c) */
#include <stdio.h>

#include "cli/args.h"
#include "cli/builtin.h"
#include "cli/commands.h"
#include "cli/util.h"
#include "backend/backend.h"
#include "formats/circom_r1cs.h"
#include "formats/iden3_curve.h"
#include "formats/zkey_write.h"
#include "groth16/zkey_setup.h"

static void setup_usage(FILE *out)
{
    fprintf(
        out,
        "usage: cuzk setup --r1cs circuit.r1cs --zkey circuit.zkey [--backend B] [--threads N]\n"
        "                  [--quiet]\n"
        "       cuzk setup [--builtin] [--log-constraints K] [--arity 2|8] [--params FILE]\n"
        "                  [--threads N] [--quiet]\n"
        "  Both forms make DEVELOPMENT Groth16 keys from random toxic waste, for tests and\n"
        "  benchmarks only: whoever runs the setup could forge proofs for its keys, so\n"
        "  production keys must come from a ceremony.\n"
        "  The first form makes a snarkjs proving key (.zkey) for a circuit of `circom\n"
        "  --r1cs`, over the curve of the .r1cs file's prime (bls12381 or bn128), without\n"
        "  a powers-of-tau file. cuzk prove and snarkjs groth16 prove take it, and\n"
        "  `snarkjs zkey export verificationkey` gives its verification_key.json.\n"
        "  The second makes bellman-layout parameters for the built-in storage-proof-shaped\n"
        "  circuit of about 2^K constraints (default K = 16); without --params the file\n"
        "  goes to the cache folder (%s).\n"
        "options:\n"
        "  --backend B   where the fixed-base products run: auto (the GPU when there is\n"
        "                one, for BLS12-381 keys), cpu, cuda (BLS12-381 keys only: a\n"
        "                bn128 key's points are made on the CPU)\n"
        "  --threads N   CPU threads (default: all)\n"
        "  --quiet       no progress or timing lines (the development warning stays)\n"
        "exit codes: 0 key written, 1 setup failed, 2 usage, 3 bad input file\n",
        cli_cache_dir());
}

/* Codes of setup's own options, after the built-in circuit's. */
enum { OPT_R1CS = BUILTIN_OPT_END, OPT_ZKEY };

/* Both forms' options: a word is read alike whichever form it ends in. */
static const struct option setup_options[] = {
    {"help", no_argument, NULL, 'h'},
    CLI_COMMON_OPTIONS,
    BUILTIN_OPTIONS,
    {"r1cs", required_argument, NULL, OPT_R1CS},
    {"zkey", required_argument, NULL, OPT_ZKEY},
    {0},
};

typedef struct zkey_setup_args {
    const char *r1cs_path;
    const char *zkey_path;
    cli_options common; /* --backend, --threads and --quiet only */
} zkey_setup_args;

/* -1 to go on, else the exit code. */
static int parse_zkey_args(int argc, char **argv, zkey_setup_args *z)
{
    cli_args a;
    cli_args_start(&a, "setup", argc, argv, setup_options);
    for (int code; (code = cli_args_next(&a)) != CLI_ARGS_END;) {
        if (code == CLI_ARGS_BAD)
            return CLI_EXIT_USAGE;
        if (code == OPT_R1CS || code == OPT_ZKEY) {
            *(code == OPT_R1CS ? &z->r1cs_path : &z->zkey_path) = a.value;
        } else if (code == CLI_OPT_THREADS || code == CLI_OPT_QUIET || code == CLI_OPT_BACKEND) {
            if (cli_common_option(&z->common, code, a.value) < 0)
                return CLI_EXIT_USAGE;
        } else {
            cli_error("setup: '%s' does not go with --r1cs/--zkey", cli_args_word(&a));
            setup_usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (!z->r1cs_path || !z->zkey_path) {
        cli_error("setup: --r1cs and --zkey go together");
        setup_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* -1 to go on, else the exit code. */
static int parse_builtin_args(int argc, char **argv, builtin_opts *o)
{
    cli_args a;
    cli_args_start(&a, "setup", argc, argv, setup_options);
    for (int code; (code = cli_args_next(&a)) != CLI_ARGS_END;) {
        if (code == CLI_ARGS_BAD)
            return CLI_EXIT_USAGE;
        int r = code == CLI_ARG ? 0 : builtin_option(o, code, a.value);
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (r == 0) {
            cli_error("setup: unknown argument '%s'", cli_args_word(&a));
            return CLI_EXIT_USAGE;
        }
    }
    return -1;
}

static int setup_zkey(const zkey_setup_args *a)
{
    char msg[512] = "";
    double t0 = cli_now();
    curve_id curve;
    if (iden3_file_curve(&curve, a->r1cs_path, msg, sizeof(msg)) == CUZK_OK &&
        curve == CURVE_BN254 && a->common.backend == BACKEND_CUDA) {
        /* the GPU's fixed-base products (backend.h) take and give
         * BLS12-381's scalars and points */
        cli_error("setup: --backend cuda makes the points of BLS12-381 keys only; %s is a "
                  "circuit over bn128 (BN254), whose key is made on the CPU (--backend auto or "
                  "cpu)",
                  a->r1cs_path);
        return CLI_EXIT_USAGE;
    }
    msg[0] = 0;
    mapped_file_t f;
    r1cs_t r;
    circom_r1cs_header h;
    cuzk_status st = mapped_file_open(&f, a->r1cs_path, msg, sizeof(msg));
    if (st == CUZK_OK) {
        st = circom_r1cs_parse(&r, &h, NULL, &f, a->common.threads, msg, sizeof(msg));
        if (st != CUZK_OK)
            mapped_file_close(&f);
    }
    if (st != CUZK_OK) {
        cli_file_error(a->r1cs_path, msg, st);
        return CLI_EXIT_BAD_INPUT;
    }
    uint64_t npub = circom_r1cs_num_public(&h);
    uint64_t n = groth16_zkey_domain_size_over(h.curve, h.num_constraints, npub);
    if (n == 0) {
        cli_error("%s: %u constraints and %llu public signals need a domain over 2^%u, more "
                  "than a %s key holds",
                  a->r1cs_path, h.num_constraints, (unsigned long long)npub,
                  groth16_zkey_max_log_domain(h.curve), curve_id_snarkjs_name(h.curve));
        r1cs_free(&r);
        mapped_file_close(&f);
        return CLI_EXIT_BAD_INPUT;
    }
    double t_r1cs = cli_now();
    fprintf(stderr, "cuzk setup: DEVELOPMENT key for %s (random toxic waste: not for production)\n",
            a->r1cs_path);
    rng_t rng;
    if (rng_seed_secure(&rng) != CUZK_OK) {
        cli_error("the system random number generator failed");
        r1cs_free(&r);
        mapped_file_close(&f);
        return CLI_EXIT_FAILURE;
    }
    backend_t *gpu = NULL;
    groth16_fixed_base_ops fb = {0};
    /* A bn128 key's points are made on the CPU: the GPU's products are
     * BLS12-381's (--backend cuda was refused above). */
    if (h.curve != CURVE_BN254 && cli_fixed_base_open(&a->common, &gpu, &fb) != CLI_EXIT_OK) {
        rng_wipe(&rng);
        r1cs_free(&r);
        mapped_file_close(&f);
        return CLI_EXIT_FAILURE;
    }
    cli_progress ps;
    cli_progress_init(&ps);
    char fb_msg[256] = "";
    groth16_setup_opts so = {.threads = a->common.threads,
                             .progress = a->common.quiet ? NULL : cli_progress_report,
                             .progress_ctx = &ps,
                             .fixed_base = gpu ? &fb : NULL,
                             .msg = fb_msg,
                             .msg_len = sizeof(fb_msg)};
    st = zkey_write_dev(a->zkey_path, &f, &r, &rng, &so, msg, sizeof(msg));
    if (st != CUZK_OK && fb_msg[0] && !msg[0])
        snprintf(msg, sizeof(msg), "%s", fb_msg);
    if (gpu)
        gpu->destroy(gpu);
    rng_wipe(&rng);
    r1cs_free(&r);
    mapped_file_close(&f);
    if (st != CUZK_OK) {
        cli_error("cannot make %s: %s", a->zkey_path, msg[0] ? msg : cuzk_status_str(st));
        return CLI_EXIT_FAILURE;
    }
    if (!a->common.quiet) {
        unsigned log_n = 0;
        while (((uint64_t)1 << log_n) < n)
            log_n++;
        fprintf(stderr,
                "cuzk setup: wrote %s: %s, %u constraints, %u signals (%llu public), domain "
                "2^%u; %.2f s (r1cs %.2f s)\n",
                a->zkey_path, curve_id_snarkjs_name(h.curve), h.num_constraints, h.num_wires,
                (unsigned long long)npub, log_n, cli_now() - t0, t_r1cs - t0);
    }
    return CLI_EXIT_OK;
}

int cli_setup(int argc, char **argv)
{
    /* --help wherever it stands; then the form, which decides what else
     * goes with it. */
    if (cli_args_has(argc, argv, setup_options, 'h')) {
        setup_usage(stdout);
        return CLI_EXIT_OK;
    }
    bool zkey = cli_args_has(argc, argv, setup_options, OPT_R1CS) ||
                cli_args_has(argc, argv, setup_options, OPT_ZKEY);
    if (zkey && cli_args_has(argc, argv, setup_options, BUILTIN_OPT_BUILTIN)) {
        cli_error("setup: --r1cs/--zkey and --builtin are two different setups");
        setup_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    int rc;
    if (zkey) {
        zkey_setup_args z = {0};
        rc = parse_zkey_args(argc, argv, &z);
        return rc >= 0 ? rc : setup_zkey(&z);
    }
    builtin_opts o;
    builtin_opts_init(&o, 16);
    rc = parse_builtin_args(argc, argv, &o);
    return rc >= 0 ? rc : cli_setup_builtin(&o);
}
