/* Makes a circom-shaped circuit and its witnesses without circom: a chain
 * of Poseidon hashes built with the project's gadgets, written as circom's
 * files, for benchmarks on machines without Node.js (and inputs too large
 * to send there).
 *
 *   make_chain_circuit --log-constraints K --out DIR [--witnesses N]
 *                      [--seed S] [--threads T]
 *
 * The circuit, in circom's wire order (r1cs_bin_format.md: ONE, outputs,
 * public inputs, private inputs, the rest):
 *   wire 1: out, the one public output;  wire 2: x, the private input;
 *   h_0 = x, h_{i+1} = Poseidon(h_i, x) (gadgets/poseidon.h, arity 2),
 *   then h_hashes = out (one constraint).
 * The number of hashes is the largest that keeps the constraints within
 * 2^K - nPublic - 1 = 2^K - 2, so that with the nPublic + 1 rows snarkjs
 * adds (FORMATS-circom.md, zkey section 4) the domain is 2^K.
 *
 * Writes DIR/chain.r1cs, DIR/chain-0.wtns .. chain-(N-1).wtns (N witnesses
 * of N different x, default 1, each checked to satisfy the system before it
 * is written), and DIR/witnesses.txt, the list `cuzk prove --witness-list`
 * reads: one line `chain-i.wtns proof-i.json public-i.json` per witness,
 * with absolute paths (the proofs go to DIR too), so it works from any
 * working directory. Creates DIR (one level) when missing.
 *
 * Prints one JSON line on stdout:
 *   {"bench":"make_chain_circuit","log_constraints":K,"constraints":..,
 *    "hashes":..,"wires":..,"witnesses":N,"shape_s":..,"write_r1cs_s":..,
 *    "witnesses_s":..,"total_s":..,...}
 * shape_s: synthesizing and compiling the constraints (one thread, then
 * the compile on T); witnesses_s: all witnesses, synthesized, checked and
 * written on T threads, one witness a thread. Exit 0, 1 on failure, 2 on
 * bad usage. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/circom_r1cs.h"
#include "formats/circom_wtns.h"
#include "gadgets/cs.h"
#include "gadgets/poseidon.h"
#include "suite.h"
#include "util/parallel.h"

#define NUM_PUBLIC 1u

static double seconds_since(uint64_t t0)
{
    return (double)(bench_now_ns() - t0) / 1e9;
}

/* The circuit of the header comment; x and out are read in VALUES mode
 * only (out is the chain's end, computed natively beforehand, because the
 * output is wire 1 and so is allocated before the chain). */
static void synthesize(gadget_cs *cs, uint64_t hashes, const fr_t *x, const fr_t *out)
{
    gnum gout, gx, in[2], h;
    gnum_init(&gout), gnum_init(&gx), gnum_init(&in[0]), gnum_init(&in[1]), gnum_init(&h);
    gnum_alloc_input(cs, &gout, out);
    gnum_alloc(cs, &gx, x);
    gnum_copy(cs, &h, &gx);
    for (uint64_t i = 0; i < hashes; i++) {
        gnum_copy(cs, &in[0], &h);
        gnum_copy(cs, &in[1], &gx);
        poseidon_gadget_hash(cs, &h, in, 2);
    }
    gnum_enforce_equal(cs, &h, &gout);
    gnum_free(&gout), gnum_free(&gx), gnum_free(&in[0]), gnum_free(&in[1]), gnum_free(&h);
}

static uint64_t count_constraints(uint64_t hashes)
{
    gadget_cs cs;
    gcs_init(&cs, NULL, 0);
    synthesize(&cs, hashes, NULL, NULL);
    uint64_t n = cs.num_constraints;
    gcs_free(&cs);
    return n;
}

/* h_hashes of the chain, natively. */
static void chain_end(fr_t *out, uint64_t hashes, const fr_t *x)
{
    fr_t in[2] = {*x, *x};
    for (uint64_t i = 0; i < hashes; i++) {
        poseidon_hash(&in[0], in, 2);
        in[1] = *x;
    }
    *out = in[0];
}

typedef struct job {
    const r1cs_t *r;
    uint64_t hashes;
    const fr_t *x; /* one per witness */
    const char *dir;
    cuzk_status *status; /* one per witness */
    char (*msg)[512];
} job;

/* Witnesses [begin, end): synthesized (values only), checked against the
 * compiled system, written. */
static void make_witnesses(void *ctx, size_t begin, size_t end)
{
    job *j = ctx;
    for (size_t i = begin; i < end; i++) {
        char *msg = j->msg[i];
        fr_t out;
        chain_end(&out, j->hashes, &j->x[i]);
        r1cs_builder *b = NULL;
        cuzk_status st = r1cs_builder_new(&b, R1CS_BUILD_VALUES);
        fr_t *w = NULL;
        uint64_t n = r1cs_num_vars(j->r);
        if (st == CUZK_OK) {
            gadget_cs cs;
            gcs_init(&cs, b, R1CS_BUILD_VALUES);
            synthesize(&cs, j->hashes, &j->x[i], &out);
            st = gcs_status(&cs);
            gcs_free(&cs);
        }
        if (st == CUZK_OK && !(w = malloc(n * sizeof(fr_t))))
            st = CUZK_ERR_OUT_OF_MEMORY;
        if (st == CUZK_OK)
            st = r1cs_builder_assignment(b, w, n);
        r1cs_builder_free(b);
        if (st != CUZK_OK)
            snprintf(msg, 512, "witness %zu: %s", i, cuzk_status_str(st));
        uint64_t bad;
        if (st == CUZK_OK && !r1cs_is_satisfied(j->r, w, &bad, 1)) {
            snprintf(msg, 512, "witness %zu does not satisfy constraint %llu", i,
                     (unsigned long long)bad);
            st = CUZK_ERR_UNSATISFIED;
        }
        if (st == CUZK_OK) {
            char path[PATH_MAX + 32];
            snprintf(path, sizeof(path), "%s/chain-%zu.wtns", j->dir, i);
            st = circom_wtns_save(w, n, path, msg, 512);
        }
        free(w);
        j->status[i] = st;
    }
}

static void usage(FILE *f)
{
    fprintf(f, "usage: make_chain_circuit --log-constraints K --out DIR [--witnesses N]\n"
               "                          [--seed S] [--threads T]\n"
               "  A chain of Poseidon hashes filling a 2^K snarkjs domain (9 <= K <= 26),\n"
               "  written as DIR/chain.r1cs, N witnesses DIR/chain-i.wtns (default 1) and\n"
               "  DIR/witnesses.txt for `cuzk prove --witness-list` (absolute paths).\n");
}

static int fail(const char *what, cuzk_status st, const char *msg)
{
    fprintf(stderr, "make_chain_circuit: %s: %s%s%s\n", what, cuzk_status_str(st),
            msg && msg[0] ? ": " : "", msg ? msg : "");
    return 1;
}

int main(int argc, char **argv)
{
    int log_k = 0;
    long witnesses = 1;
    unsigned threads = 0;
    uint64_t seed = 1;
    const char *out_dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (v && !strcmp(a, "--log-constraints")) {
            log_k = atoi(v);
        } else if (v && !strcmp(a, "--out")) {
            out_dir = v;
        } else if (v && !strcmp(a, "--witnesses")) {
            witnesses = strtol(v, NULL, 10);
        } else if (v && !strcmp(a, "--seed")) {
            seed = strtoull(v, NULL, 0);
        } else if (v && !strcmp(a, "--threads")) {
            threads = (unsigned)atoi(v);
        } else {
            fprintf(stderr, "make_chain_circuit: unknown or incomplete argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (!out_dir || log_k < 9 || log_k > 26 || witnesses < 1 || witnesses > 100000) {
        usage(stderr);
        return 2;
    }
    threads = parallel_threads(threads);
    uint64_t t_start = bench_now_ns();

    /* Size: constraints are fixed + hashes · per_hash, counted rather than
     * assumed, so the chain follows the gadget if its cost changes. */
    uint64_t c1 = count_constraints(1), c2 = count_constraints(2);
    uint64_t per_hash = c2 - c1, fixed = c1 - per_hash;
    uint64_t budget = ((uint64_t)1 << log_k) - NUM_PUBLIC - 1;
    if (budget < fixed + per_hash) {
        fprintf(stderr, "make_chain_circuit: 2^%d rows hold no hash (%llu constraints each)\n",
                log_k, (unsigned long long)per_hash);
        return 2;
    }
    uint64_t hashes = (budget - fixed) / per_hash;

    if (mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "make_chain_circuit: cannot create %s: %s\n", out_dir, strerror(errno));
        return 1;
    }
    char dir[PATH_MAX];
    if (!realpath(out_dir, dir)) {
        fprintf(stderr, "make_chain_circuit: %s: %s\n", out_dir, strerror(errno));
        return 1;
    }

    /* The constraints. */
    char msg[512] = "";
    uint64_t t0 = bench_now_ns();
    r1cs_builder *b = NULL;
    cuzk_status st = r1cs_builder_new(&b, R1CS_BUILD_SHAPE);
    if (st != CUZK_OK)
        return fail("builder", st, NULL);
    gadget_cs cs;
    gcs_init(&cs, b, R1CS_BUILD_SHAPE);
    synthesize(&cs, hashes, NULL, NULL);
    st = gcs_status(&cs);
    gcs_free(&cs);
    r1cs_t r;
    if (st == CUZK_OK)
        st = r1cs_builder_compile(&r, b, threads);
    r1cs_builder_free(b);
    if (st != CUZK_OK)
        return fail("synthesizing the constraints", st, NULL);
    double shape_s = seconds_since(t0);
    if (r.num_constraints != fixed + hashes * per_hash || r.num_constraints > budget ||
        r.num_inputs != 1 + NUM_PUBLIC) {
        fprintf(stderr,
                "make_chain_circuit: %llu constraints, %llu inputs: not the circuit sized\n",
                (unsigned long long)r.num_constraints, (unsigned long long)r.num_inputs);
        return 1;
    }

    t0 = bench_now_ns();
    char path[PATH_MAX + 32];
    snprintf(path, sizeof(path), "%s/chain.r1cs", dir);
    circom_r1cs_wires io = {.num_pub_out = NUM_PUBLIC, .num_pub_in = 0, .num_prv_in = 1};
    if ((st = circom_r1cs_save(&r, &io, path, msg, sizeof(msg))) != CUZK_OK)
        return fail("writing the circuit", st, msg);
    double r1cs_s = seconds_since(t0);

    /* The witnesses, one x each from the seed. */
    t0 = bench_now_ns();
    size_t nw = (size_t)witnesses;
    fr_t *x = malloc(nw * sizeof(fr_t));
    cuzk_status *status = calloc(nw, sizeof(cuzk_status));
    char(*msgs)[512] = calloc(nw, sizeof(*msgs));
    if (!x || !status || !msgs)
        return fail("witnesses", CUZK_ERR_OUT_OF_MEMORY, NULL);
    rng_t rng;
    rng_seed(&rng, seed);
    for (size_t i = 0; i < nw; i++)
        fr_random(&x[i], &rng);
    job j = {.r = &r, .hashes = hashes, .x = x, .dir = dir, .status = status, .msg = msgs};
    parallel_for(nw, 1, threads, make_witnesses, &j);
    for (size_t i = 0; i < nw; i++)
        if (status[i] != CUZK_OK)
            return fail("making the witnesses", status[i], msgs[i]);
    double wit_s = seconds_since(t0);

    snprintf(path, sizeof(path), "%s/witnesses.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "make_chain_circuit: cannot create %s: %s\n", path, strerror(errno));
        return 1;
    }
    for (size_t i = 0; i < nw; i++)
        fprintf(f, "%s/chain-%zu.wtns %s/proof-%zu.json %s/public-%zu.json\n", dir, i, dir, i, dir,
                i);
    if (fclose(f) != 0) {
        fprintf(stderr, "make_chain_circuit: writing %s failed\n", path);
        return 1;
    }

    printf("{\"bench\":\"make_chain_circuit\",\"log_constraints\":%d,\"constraints\":%llu,"
           "\"hashes\":%llu,\"constraints_per_hash\":%llu,\"wires\":%llu,\"public\":%u,"
           "\"nnz_a\":%llu,\"nnz_b\":%llu,\"nnz_c\":%llu,\"witnesses\":%zu,\"threads\":%u,"
           "\"shape_s\":%.3f,\"write_r1cs_s\":%.3f,\"witnesses_s\":%.3f,\"total_s\":%.3f,"
           "\"commit\":\"%s\"}\n",
           log_k, (unsigned long long)r.num_constraints, (unsigned long long)hashes,
           (unsigned long long)per_hash, (unsigned long long)r1cs_num_vars(&r), NUM_PUBLIC,
           (unsigned long long)r.a.nnz, (unsigned long long)r.b.nnz, (unsigned long long)r.c.nnz,
           nw, threads, shape_s, r1cs_s, wit_s, seconds_since(t_start), CUZK_GIT_COMMIT);
    free(x);
    free(status);
    free(msgs);
    r1cs_free(&r);
    return 0;
}
