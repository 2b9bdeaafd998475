/* The built-in storage-proof-shaped circuit from the command line:
 *   cuzk setup  --builtin [--log-constraints K] [--params FILE]
 *   cuzk prove  --builtin [--log-constraints K] [--params FILE] [--seed S]
 *               [--partitions N] --out proof.bin
 *   cuzk verify --builtin [--log-constraints K] [--params FILE] [--seed S] proof.bin
 * Parameters live in bellman's file layout; without --params they are kept
 * in the cache folder (cli_cache_dir), one file per circuit shape. */
#define _POSIX_C_SOURCE 200809L
#include "cli/builtin.h"

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

int builtin_option(int argc, char **argv, int *i, builtin_opts *o)
{
    const char *a = argv[*i];
    unsigned long long v;
    int r = cli_common_option(argc, argv, i, &o->common);
    if (r != 0)
        return r;
    if (!strcmp(a, "--builtin")) {
        (*i)++;
        return 1;
    }
    const char *val = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(a, "--log-constraints")) {
        if (!cli_parse_uint(a, val, 27, &v))
            return -1;
        if (v < 10) {
            cli_error("--log-constraints must be between 10 and 27");
            return -1;
        }
        o->log_constraints = (unsigned)v;
    } else if (!strcmp(a, "--arity")) {
        if (!cli_parse_uint(a, val, 8, &v))
            return -1;
        if (v != 2 && v != 8) {
            cli_error("--arity must be 2 or 8");
            return -1;
        }
        o->arity = (unsigned)v;
    } else if (!strcmp(a, "--seed")) {
        if (!cli_parse_uint(a, val, UINT64_MAX / 2, &v))
            return -1;
        o->seed = v;
    } else if (!strcmp(a, "--partitions")) {
        if (!cli_parse_uint(a, val, 100000, &v))
            return -1;
        if (v == 0) {
            cli_error("--partitions must be at least 1");
            return -1;
        }
        o->partitions = (unsigned)v;
    } else if (!strcmp(a, "--backend")) {
        if (!val || !backend_kind_parse(val, &o->backend)) {
            cli_error("--backend wants auto, cpu or cuda");
            return -1;
        }
    } else if (!strcmp(a, "--params")) {
        if (!val) {
            cli_error("--params wants a file name");
            return -1;
        }
        o->params_path = val;
    } else if (!strcmp(a, "--out")) {
        if (!val) {
            cli_error("--out wants a file name");
            return -1;
        }
        o->out_path = val;
    } else {
        return 0;
    }
    *i += 2;
    return 1;
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
            cli_error("cannot create the cache folder %s: %s (set CUZK_CACHE_DIR)",
                      cli_cache_dir(), strerror(errno));
            return CLI_EXIT_FAILURE;
        }
        snprintf(o->params_buf, sizeof(o->params_buf), "%s/%s.params", cli_cache_dir(), o->name);
    }
    o->params_path = o->params_buf;
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
    cli_progress ps;
    cli_progress_init(&ps);
    groth16_setup_opts so = {.threads = o->common.threads, .progress = cli_progress_report,
                             .progress_ctx = o->common.quiet ? NULL : &ps};
    if (o->common.quiet)
        so.progress = NULL;
    cuzk_status st = groth16_setup_dev(params, r, &rng, &so);
    rng_wipe(&rng);
    if (st != CUZK_OK) {
        cli_error("setup failed: %s", cuzk_status_str(st));
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

int cli_setup_builtin(int argc, char **argv)
{
    builtin_opts o;
    builtin_opts_init(&o, 16);
    for (int i = 1; i < argc;) {
        int r = builtin_option(argc, argv, &i, &o);
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (r == 0) {
            cli_error("setup: unknown argument '%s'", argv[i]);
            return CLI_EXIT_USAGE;
        }
    }
    int rc = builtin_resolve(&o);
    if (rc != CLI_EXIT_OK)
        return rc;
    r1cs_t r;
    if ((rc = builtin_compile_circuit(&o, &r)) != CLI_EXIT_OK)
        return rc;
    groth16_params_t params;
    rc = builtin_make_params(&o, &r, &params);
    if (rc == CLI_EXIT_OK)
        groth16_params_free(&params);
    r1cs_free(&r);
    return rc;
}

int cli_prove_builtin(builtin_opts *o)
{
    if (!o->out_path) {
        cli_error("prove --builtin needs --out FILE for the proofs");
        return CLI_EXIT_USAGE;
    }
    int rc = builtin_resolve(o);
    if (rc != CLI_EXIT_OK)
        return rc;
    builtin_prover bp;
    if ((rc = builtin_prover_open(&bp, o, false)) != CLI_EXIT_OK)
        return rc;
    groth16_proof_t *proofs = calloc(o->partitions, sizeof(groth16_proof_t));
    uint8_t *bytes = malloc((size_t)o->partitions * GROTH16_PROOF_BYTES);
    rc = CLI_EXIT_FAILURE;
    if (!proofs || !bytes) {
        cli_error("out of memory");
        goto done;
    }
    for (unsigned i = 0; i < o->partitions; i++) {
        builtin_partition_result res;
        if ((rc = builtin_prove_partition(&bp, o->seed + i, &proofs[i], &res)) != CLI_EXIT_OK)
            goto done;
        if (!o->common.quiet)
            fprintf(stderr, "cuzk prove: partition %u/%u: %.3f s (witness %.3f s)%s\n", i + 1,
                    o->partitions, res.prove_s, res.witness_s,
                    o->common.verify ? ", verified" : "");
    }
    char msg[256] = "";
    cuzk_status st = bellman_proofs_encode(bytes, proofs, o->partitions);
    if (st == CUZK_OK)
        st = formats_save(o->out_path, bytes, (size_t)o->partitions * GROTH16_PROOF_BYTES, msg,
                          sizeof(msg));
    if (st != CUZK_OK) {
        cli_error("cannot write %s: %s", o->out_path, msg[0] ? msg : cuzk_status_str(st));
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
    rc = CLI_EXIT_OK;
done:
    free(proofs);
    free(bytes);
    builtin_prover_close(&bp);
    return rc;
}

int cli_verify_builtin(builtin_opts *o, const char *proof_path)
{
    int rc = builtin_resolve(o);
    if (rc != CLI_EXIT_OK)
        return rc;
    char msg[512] = "";
    bellman_params_map_t m;
    cuzk_status st = bellman_params_open(&m, o->params_path, FORMATS_CHECK_SUBGROUP, msg,
                                         sizeof(msg));
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

/* ------------------------------------------------ a prover for partitions */

int builtin_prover_open(builtin_prover *bp, const builtin_opts *o, bool make_missing_params)
{
    memset(bp, 0, sizeof(*bp));
    bp->opts = o;
    double t0 = cli_now();
    int rc = builtin_compile_circuit(o, &bp->r1cs);
    if (rc != CLI_EXIT_OK)
        return rc;
    bp->compile_s = cli_now() - t0;
    t0 = cli_now();
    bool have = access(o->params_path, R_OK) == 0;
    if (have) {
        if ((rc = builtin_load_params(o, &bp->params)) != CLI_EXIT_OK && !make_missing_params)
            goto fail;
        have = rc == CLI_EXIT_OK;
    }
    char msg[512] = "";
    if (have && groth16_circuit_init(&bp->circuit, &bp->r1cs, &bp->params, o->common.threads,
                                     msg, sizeof(msg)) != CUZK_OK) {
        if (!make_missing_params) {
            cli_error("%s does not fit %s: %s", o->params_path, o->name, msg);
            rc = CLI_EXIT_BAD_INPUT;
            goto fail;
        }
        fprintf(stderr, "cuzk: %s does not fit %s (%s); making new parameters\n",
                o->params_path, o->name, msg);
        groth16_params_free(&bp->params);
        have = false;
    }
    if (!have) {
        if (!make_missing_params) {
            cli_error("no parameters at %s: run `cuzk setup --log-constraints %u` first",
                      o->params_path, o->log_constraints);
            rc = CLI_EXIT_BAD_INPUT;
            goto fail;
        }
        if ((rc = builtin_make_params(o, &bp->r1cs, &bp->params)) != CLI_EXIT_OK)
            goto fail;
        bp->made_params = true;
        if (groth16_circuit_init(&bp->circuit, &bp->r1cs, &bp->params, o->common.threads, msg,
                                 sizeof(msg)) != CUZK_OK) {
            cli_error("internal error: new parameters do not fit: %s", msg);
            rc = CLI_EXIT_FAILURE;
            goto fail;
        }
    }
    bp->params_s = cli_now() - t0;
    if (groth16_prepare_vk(&bp->pvk, &bp->params.vk) != CUZK_OK) {
        cli_error("cannot prepare the verifying key");
        rc = CLI_EXIT_FAILURE;
        goto fail;
    }
    bp->num_vars = r1cs_num_vars(&bp->r1cs);
    bp->num_inputs = porep_like_num_inputs(&o->shape);
    bp->w = malloc(sizeof(fr_t) * bp->num_vars);
    bp->abc = malloc(groth16_prover_scratch_bytes(&bp->circuit));
    if (!bp->w || !bp->abc || rng_seed_secure(&bp->rng) != CUZK_OK) {
        cli_error("out of memory or no system randomness");
        rc = CLI_EXIT_FAILURE;
        goto fail;
    }
    backend_cpu_opts cpu = {.devices = 1, .threads = o->common.threads};
    if (backend_create(&bp->backend, o->backend, &cpu, bp->backend_note,
                       sizeof(bp->backend_note), msg, sizeof(msg)) != CUZK_OK) {
        cli_error("%s", msg);
        rc = CLI_EXIT_FAILURE;
        goto fail;
    }
    backend_circuit_desc desc = {.kind = BACKEND_KEY_BELLMAN, .name = o->name,
                                 .r1cs = &bp->r1cs, .params = &bp->params,
                                 .threads = o->common.threads};
    uint64_t bytes = 0;
    t0 = cli_now();
    if (bp->backend->prepare(bp->backend, &desc, &bp->handle, &bytes, msg, sizeof(msg)) !=
        CUZK_OK) {
        cli_error("preparing %s on the %s backend: %s", o->name, bp->backend->name, msg);
        rc = CLI_EXIT_FAILURE;
        goto fail;
    }
    bp->prepare_s = cli_now() - t0;
    return CLI_EXIT_OK;
fail:
    builtin_prover_close(bp);
    return rc;
}

void builtin_prover_close(builtin_prover *bp)
{
    if (bp->backend) {
        if (bp->handle)
            bp->backend->release(bp->backend, bp->handle);
        bp->backend->destroy(bp->backend);
    }
    free(bp->w);
    free(bp->abc);
    rng_wipe(&bp->rng);
    groth16_pvk_free(&bp->pvk);
    groth16_circuit_free(&bp->circuit);
    groth16_params_free(&bp->params);
    r1cs_free(&bp->r1cs);
    memset(bp, 0, sizeof(*bp));
}

/* Adds a backend phase's time to the partition's table. */
static void add_phase(void *ctx, const char *phase, const char *cat, uint64_t start_ns,
                      uint64_t end_ns, uint64_t bytes)
{
    (void)cat;
    (void)bytes;
    groth16_timings *t = ctx;
    groth16_phase p = groth16_phase_from_name(phase);
    if (p < GROTH16_PHASE_COUNT)
        t->seconds[p] += (double)(end_ns - start_ns) * 1e-9;
}

/* a, b, c on the host, checked row by row; the backend's phases; then A, B,
 * C assembled here with fresh r, s (they never reach a device). */
static cuzk_status prove_with_backend(builtin_prover *bp, groth16_proof_t *proof,
                                      builtin_partition_result *res, char *msg, size_t msg_len)
{
    const r1cs_t *cs = &bp->r1cs;
    size_t n = bp->circuit.domain.n;
    unsigned threads = bp->opts->common.threads;
    double t0 = cli_now();
    r1cs_eval(cs, bp->w, bp->abc, bp->abc + n, bp->abc + 2 * n, threads);
    if (!groth16_rows_satisfied(bp->abc, bp->abc + n, bp->abc + 2 * n, cs->num_constraints,
                                threads))
        return CUZK_ERR_UNSATISFIED;
    res->phases.seconds[GROTH16_PHASE_EVAL_ABC] += cli_now() - t0;
    backend_input in = {.w = bp->w, .abc = bp->abc, .rows = cs->num_constraints};
    groth16_sums sums;
    cuzk_status st = bp->backend->prove(bp->backend, 0, bp->handle, &in, &sums, add_phase,
                                        &res->phases, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    t0 = cli_now();
    fr_t r, s;
    fr_random(&r, &bp->rng);
    fr_random(&s, &bp->rng);
    groth16_assemble(proof, &bp->params.vk, &sums, &r, &s);
    cuzk_wipe(&r, sizeof(r));
    cuzk_wipe(&s, sizeof(s));
    res->phases.seconds[GROTH16_PHASE_ASSEMBLE] += cli_now() - t0;
    return CUZK_OK;
}

int builtin_prove_partition(builtin_prover *bp, uint64_t seed, groth16_proof_t *proof,
                            builtin_partition_result *res)
{
    const builtin_opts *o = bp->opts;
    char msg[512] = "";
    memset(res, 0, sizeof(*res));
    double t0 = cli_now();
    cuzk_status st = builtin_witness(bp->w, bp->num_vars, &o->shape, seed);
    if (st != CUZK_OK) {
        cli_error("witness for seed %llu: %s", (unsigned long long)seed, cuzk_status_str(st));
        return CLI_EXIT_FAILURE;
    }
    double t1 = cli_now();
    st = prove_with_backend(bp, proof, res, msg, sizeof(msg));    double t2 = cli_now();
    if (o->common.verify) {
        /* the public inputs are w[1 .. num_inputs] */
        st = groth16_verify(&bp->pvk, proof, bp->w + 1, bp->num_inputs);
        if (st != CUZK_OK) {
            cli_error("the proof for seed %llu does not verify", (unsigned long long)seed);
            return CLI_EXIT_FAILURE;
        }
    }
    double t3 = cli_now();
    res->witness_s = t1 - t0;
    res->prove_s = t2 - t1;
    res->verify_s = t3 - t2;
    return CLI_EXIT_OK;
}
