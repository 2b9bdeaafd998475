/* The built-in storage-proof-shaped circuit from the command line:
 *   cuzk setup  --builtin [--log-constraints K] [--params FILE]
 *   cuzk prove  --builtin [--log-constraints K] [--params FILE] [--seed S]
 *               [--partitions N] --out proof.bin
 *   cuzk verify --builtin [--log-constraints K] [--params FILE] [--seed S] proof.bin
 * Parameters live in bellman's file layout; without --params they are kept
 * in the cache folder (cli_cache_dir), one file per circuit shape. */
#define _POSIX_C_SOURCE 200809L
#include "cli/builtin.h"
#include "cli/engine_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "circuits/builtin.h"
#include "formats/bellman_params.h"
#include "groth16/assemble.h"
#include "groth16/setup.h"
#include "groth16/verifier.h"
#include "util/wipe.h"

/* ------------------------------------------------------------- options */

void builtin_opts_init(builtin_opts *o, unsigned default_log)
{
    memset(o, 0, sizeof(*o));
    o->log_constraints = default_log;
    o->arity = 8;
    o->seed = 1;
    o->partitions = 1;
    o->common.verify = true;
}

int builtin_option(builtin_opts *o, int code, const char *value)
{
    int r = cli_common_option(&o->common, code, value);
    if (r != 0)
        return r;
    unsigned long long v;
    switch (code) {
    case BUILTIN_OPT_BUILTIN:
        return 1;
    case BUILTIN_OPT_LOG_CONSTRAINTS:
        if (!cli_parse_uint("--log-constraints", value, 27, &v))
            return -1;
        if (v < 10) {
            cli_error("--log-constraints must be between 10 and 27");
            return -1;
        }
        o->log_constraints = (unsigned)v;
        return 1;
    case BUILTIN_OPT_ARITY:
        if (!cli_parse_uint("--arity", value, 8, &v))
            return -1;
        if (v != 2 && v != 8) {
            cli_error("--arity must be 2 or 8");
            return -1;
        }
        o->arity = (unsigned)v;
        return 1;
    case BUILTIN_OPT_SEED:
        if (!cli_parse_uint("--seed", value, UINT64_MAX / 2, &v))
            return -1;
        o->seed = v;
        return 1;
    case BUILTIN_OPT_PARTITIONS:
        if (!cli_parse_uint("--partitions", value, 100000, &v))
            return -1;
        if (v == 0) {
            cli_error("--partitions must be at least 1");
            return -1;
        }
        o->partitions = (unsigned)v;
        return 1;
    case BUILTIN_OPT_PARAMS:
        o->params_path = value;
        return 1;
    case BUILTIN_OPT_OUT:
        o->out_path = value;
        return 1;
    default:
        return 0;
    }
}

/* ------------------------------------------------------ circuit, params */

const char *cli_cache_dir(void)
{
    static char dir[4096];
    if (dir[0])
        return dir;
    const char *env = getenv("CUZK_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (env && *env)
        snprintf(dir, sizeof(dir), "%s", env);
    else if (xdg && *xdg)
        snprintf(dir, sizeof(dir), "%s/cuzk", xdg);
    else if (home && *home)
        snprintf(dir, sizeof(dir), "%s/.cache/cuzk", home);
    else
        snprintf(dir, sizeof(dir), ".cuzk-cache");
    return dir;
}

int cli_make_dirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

int builtin_resolve(builtin_opts *o)
{
    if (porep_like_params_for_constraints(&o->shape, o->log_constraints, o->arity) != CUZK_OK) {
        cli_error("no built-in circuit of 2^%u constraints with arity %u", o->log_constraints,
                  o->arity);
        return CLI_EXIT_USAGE;
    }
    builtin_name(o->name, sizeof(o->name), &o->shape);
    if (o->params_path) {
        snprintf(o->params_buf, sizeof(o->params_buf), "%s", o->params_path);
    } else {
        if (cli_make_dirs(cli_cache_dir()) != 0) {
            cli_error("cannot create the cache folder %s: %s (set CUZK_CACHE_DIR)", cli_cache_dir(),
                      strerror(errno));
            return CLI_EXIT_FAILURE;
        }
        snprintf(o->params_buf, sizeof(o->params_buf), "%s/%s.params", cli_cache_dir(), o->name);
    }
    o->params_path = o->params_buf;
    return CLI_EXIT_OK;
}

int cli_fixed_base_open(const cli_options *common, backend_t **gpu, groth16_fixed_base_ops *fb)
{
    *gpu = NULL;
    if (common->backend == BACKEND_CPU)
        return CLI_EXIT_OK;
    char note[256] = "", msg[256] = "";
    backend_t *b = NULL;
    cuzk_status st = backend_create(&b, common->backend, NULL, note, sizeof(note), msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_error("setup: %s", msg[0] ? msg : cuzk_status_str(st));
        return CLI_EXIT_FAILURE;
    }
    if (b->is_cpu || !backend_fixed_base_ops(b, fb)) {
        b->destroy(b);
        return CLI_EXIT_OK;
    }
    *gpu = b;
    if (!common->quiet)
        fprintf(stderr, "cuzk setup: the fixed-base products on the GPU (%s backend)\n", b->name);
    return CLI_EXIT_OK;
}

int builtin_make_params(const builtin_opts *o, const r1cs_t *r, groth16_params_t *params)
{
    fprintf(stderr,
            "cuzk setup: DEVELOPMENT parameters for %s (random toxic waste: not for "
            "production)\n",
            o->name);
    rng_t rng;
    if (rng_seed_secure(&rng) != CUZK_OK) {
        cli_error("the system random number generator failed");
        return CLI_EXIT_FAILURE;
    }
    backend_t *gpu = NULL;
    groth16_fixed_base_ops fb = {0};
    if (cli_fixed_base_open(&o->common, &gpu, &fb) != CLI_EXIT_OK) {
        rng_wipe(&rng);
        return CLI_EXIT_FAILURE;
    }
    cli_progress ps;
    cli_progress_init(&ps);
    char fb_msg[256] = "";
    groth16_setup_opts so = {.threads = o->common.threads,
                             .progress = o->common.quiet ? NULL : cli_progress_report,
                             .progress_ctx = &ps,
                             .fixed_base = gpu ? &fb : NULL,
                             .msg = fb_msg,
                             .msg_len = sizeof(fb_msg)};
    cuzk_status st = groth16_setup_dev(params, r, &rng, &so);
    if (gpu)
        gpu->destroy(gpu);
    rng_wipe(&rng);
    if (st != CUZK_OK) {
        cli_error("setup failed: %s", fb_msg[0] ? fb_msg : cuzk_status_str(st));
        return CLI_EXIT_FAILURE;
    }
    char msg[512] = "";
    if ((st = bellman_params_save(params, o->params_path, msg, sizeof(msg))) != CUZK_OK) {
        cli_error("cannot write %s: %s", o->params_path, msg[0] ? msg : cuzk_status_str(st));
        groth16_params_free(params);
        return CLI_EXIT_FAILURE;
    }
    if (!o->common.quiet)
        fprintf(stderr, "cuzk setup: wrote %s (%.1f s)\n", o->params_path, cli_now() - ps.start);
    return CLI_EXIT_OK;
}

int builtin_load_params(const builtin_opts *o, groth16_params_t *params)
{
    char msg[512] = "";
    /* Curve checks only: parameter files of the built-in circuit are made by
     * `cuzk setup`; subgroup checks of every point would dominate loading. */
    cuzk_status st = bellman_params_load(params, o->params_path, FORMATS_CHECK_CURVE,
                                         o->common.threads, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_file_error(o->params_path, msg, st);
        return CLI_EXIT_BAD_INPUT;
    }
    return CLI_EXIT_OK;
}

int builtin_compile_circuit(const builtin_opts *o, r1cs_t *r)
{
    cuzk_status st = builtin_compile(r, &o->shape, o->common.threads);
    if (st != CUZK_OK) {
        cli_error("cannot build the circuit %s: %s", o->name, cuzk_status_str(st));
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

/* ---------------------------------------------------------- subcommands */

int cli_setup_builtin(builtin_opts *o)
{
    int rc = builtin_resolve(o);
    if (rc != CLI_EXIT_OK)
        return rc;
    r1cs_t r;
    if ((rc = builtin_compile_circuit(o, &r)) != CLI_EXIT_OK)
        return rc;
    groth16_params_t params;
    rc = builtin_make_params(o, &r, &params);
    if (rc == CLI_EXIT_OK)
        groth16_params_free(&params);
    r1cs_free(&r);
    return rc;
}

/* The partitions as one job of the engine (partition i from seed + i),
 * on the GPU when there is one; the proofs concatenated into --out. */
int cli_prove_builtin(builtin_opts *o)
{
    if (!o->out_path) {
        cli_error("prove --builtin needs --out FILE for the proofs");
        return CLI_EXIT_USAGE;
    }
    int rc = builtin_resolve(o);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (access(o->params_path, F_OK) != 0) {
        cli_error("no parameters at %s: run `cuzk setup --log-constraints %u` first",
                  o->params_path, o->log_constraints);
        return CLI_EXIT_BAD_INPUT;
    }
    engine_t *e = NULL;
    uint8_t *bytes = NULL;
    if ((rc = cli_engine_start(&e, &o->common, 1)) != CLI_EXIT_OK)
        return rc;
    circuit_spec spec = {.name = "builtin",
                         .kind = CIRCUIT_BUILTIN,
                         .shape = o->shape,
                         .params_path = o->params_path,
                         .check = FORMATS_CHECK_SUBGROUP};
    double load_s = 0;
    if ((rc = cli_engine_load(e, &spec, o->params_path, &load_s)) != CLI_EXIT_OK)
        goto done;
    char msg[512] = "";
    uint64_t id = 0;
    fr_t *blind_r = NULL, *blind_s = NULL;
    if ((rc = cli_engine_blinding(&o->common, CURVE_BLS12_381, o->partitions, &blind_r, &blind_s)) != CLI_EXIT_OK)
        goto done;
    engine_job_spec job = {.circuit = spec.name,
                           .priority = ENGINE_PRIORITY_NORMAL,
                           .partitions = o->partitions,
                           .seed = o->seed,
                           .r = blind_r,
                           .s = blind_s};
    double t0 = cli_now();
    cuzk_status st = engine_submit(e, &job, &id, msg, sizeof(msg));
    free(blind_r);
    free(blind_s);
    if (st != CUZK_OK) {
        cli_error("%s", msg[0] ? msg : cuzk_status_str(st));
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
    /* Nothing is written unless every partition was proved (and verified,
     * unless --no-verify). */
    if ((rc = cli_engine_await(e, id, o->name)) != CLI_EXIT_OK)
        goto done;
    size_t cap = (size_t)o->partitions * GROTH16_PROOF_BYTES, len = 0;
    if (!(bytes = malloc(cap)) || engine_job_proof(e, id, bytes, cap, &len) != CUZK_OK ||
        len != cap) {
        cli_error("the engine's proofs cannot be read back");
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
    if ((st = formats_save(o->out_path, bytes, len, msg, sizeof(msg))) != CUZK_OK) {
        cli_error("cannot write %s: %s", o->out_path, msg[0] ? msg : cuzk_status_str(st));
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
    if (!o->common.quiet) {
        engine_stats stats;
        engine_get_stats(e, &stats, NULL, 0);
        fprintf(stderr, "cuzk prove: %s, %s backend; load %.3f s, %u partition%s %.3f s%s\n",
                o->name, stats.backend, load_s, o->partitions, o->partitions == 1 ? "" : "s",
                cli_now() - t0, o->common.verify ? ", verified" : "");
    }
done:
    free(bytes);
    engine_destroy(e);
    return rc;
}

int cli_verify_builtin(builtin_opts *o, const char *proof_path)
{
    int rc = builtin_resolve(o);
    if (rc != CLI_EXIT_OK)
        return rc;
    char msg[512] = "";
    bellman_params_map_t m;
    cuzk_status st =
        bellman_params_open(&m, o->params_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_file_error(o->params_path, msg, st);
        return CLI_EXIT_BAD_INPUT;
    }
    mapped_file_t pf;
    groth16_proof_t *proofs = NULL;
    fr_t *inputs = NULL;
    groth16_pvk_t pvk;
    memset(&pvk, 0, sizeof(pvk));
    rc = CLI_EXIT_BAD_INPUT;
    if ((st = mapped_file_open(&pf, proof_path, msg, sizeof(msg))) != CUZK_OK) {
        cli_file_error(proof_path, msg, st);
        goto close_params;
    }
    size_t n = pf.size / GROTH16_PROOF_BYTES;
    uint64_t ni = porep_like_num_inputs(&o->shape);
    proofs = calloc(n ? n : 1, sizeof(groth16_proof_t));
    inputs = calloc((n ? n : 1) * ni, sizeof(fr_t));
    if (!proofs || !inputs) {
        cli_error("out of memory");
        rc = CLI_EXIT_FAILURE;
        goto close_all;
    }
    if ((st = bellman_proofs_decode(proofs, n, &n, pf.data, pf.size, msg, sizeof(msg))) !=
            CUZK_OK ||
        n == 0) {
        cli_error("%s: %s", proof_path,
                  n == 0 && st == CUZK_OK ? "no proofs in the file"
                                          : (msg[0] ? msg : cuzk_status_str(st)));
        goto close_all;
    }
    if (ni + 1 != m.vk.num_ic) {
        cli_error("%s is for a circuit with %zu public inputs, %s has %llu", o->params_path,
                  m.vk.num_ic - 1, o->name, (unsigned long long)ni);
        goto close_all;
    }
    for (size_t i = 0; i < n; i++)
        porep_like_public_inputs(inputs + i * ni, ni, &o->shape, o->seed + i);
    if ((st = groth16_prepare_vk(&pvk, &m.vk)) != CUZK_OK) {
        cli_error("%s: %s", o->params_path, cuzk_status_str(st));
        goto close_all;
    }
    rng_t rng;
    if (rng_seed_secure(&rng) != CUZK_OK) {
        cli_error("the system random number generator failed");
        rc = CLI_EXIT_FAILURE;
        goto close_all;
    }
    st = groth16_verify_batch(&pvk, proofs, inputs, ni, n, &rng);
    rng_wipe(&rng);
    if (st == CUZK_OK) {
        printf("OK: %zu partition proof%s valid\n", n, n == 1 ? " is" : "s are");
        rc = CLI_EXIT_OK;
    } else {
        /* Say which partitions fail. */
        printf("INVALID: the proofs of partition");
        for (size_t i = 0; i < n; i++)
            if (groth16_verify(&pvk, &proofs[i], inputs + i * ni, ni) != CUZK_OK)
                printf(" %zu", i);
        printf(" do not verify\n");
        rc = CLI_EXIT_FAILURE;
    }
close_all:
    groth16_pvk_free(&pvk);
    free(proofs);
    free(inputs);
    mapped_file_close(&pf);
close_params:
    bellman_params_close(&m);
    return rc;
}
