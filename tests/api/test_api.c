/* The public C API (include/cuzk/cuzk.h) on the CPU backend, with the
 * circom chain fixture and the built-in circuit at 2^10:
 * - bad input gets a status and a message naming the function, the
 *   argument and the problem: NULL handles and outputs, a witness of the
 *   wrong length, a value not below r, a .wtns of another circuit or curve,
 *   a seed for a zkey circuit, struct sizes, a taken name;
 * - a circuit released while its job runs: the job finishes, and the
 *   circuit's parameters go when the job is seen done;
 * - fixed r, s: the same proof bit for bit twice, from a .wtns path and
 *   from the assignment array, and equal to `cuzk prove`'s sequence
 *   (zkey_circuit_prove_with) with those r, s;
 * - proofs verify: one-call JSON against the fixture's verification key,
 *   bellman proofs of both circuit kinds against the circuit; a wrong
 *   public input is refused, naming the partition;
 * - messages are per thread. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/cuzk.h"
#include "formats/bellman_params.h"
#include "formats/circom_wtns.h"
#include "formats/zkey.h"
#include "circuits/zkey.h"
#include "builtin_params.h"
#include "groth16/prover.h"
#include "r1cs/density.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"
#define CHAIN_ZKEY FIX "chain_bls12381.zkey"
#define CHAIN_WTNS FIX "chain_bls12381.wtns"
#define CHAIN_VK FIX "verification_key_bls12381.json"

static struct {
    char params[64]; /* the built-in circuit's parameters at 2^10 */
} fx;

static void ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), cuzk_last_error());
}

/* The call failed with want, and its message has every one of the words. */
static void expect_error(cuzk_status got, cuzk_status want, const char *word, ...)
{
    const char *m = cuzk_last_error();
    if (got != want)
        fail_msg("status %s, expected %s (message: %s)", cuzk_status_str(got),
                 cuzk_status_str(want), m);
    va_list ap;
    va_start(ap, word);
    for (const char *w = word; w; w = va_arg(ap, const char *))
        if (!strstr(m, w))
            fail_msg("the message \"%s\" does not name \"%s\"", m, w);
    va_end(ap);
}

static cuzk_engine *new_engine(void)
{
    cuzk_engine_config cfg;
    cuzk_engine_config_init(&cfg);
    cfg.backend = CUZK_BACKEND_CPU;
    cfg.threads = 2;
    cfg.synth_workers = 1;
    cuzk_engine *e;
    ok(cuzk_engine_create(&e, &cfg));
    return e;
}

static cuzk_circuit *chain(cuzk_engine *e, const char *name)
{
    cuzk_circuit *c;
    ok(cuzk_circuit_register_zkey(e, &c, name, CHAIN_ZKEY, CUZK_CHECK_CURVE));
    return c;
}

/* The fixture's witness as canonical bytes: exactly the .wtns values. */
static cuzk_fr *chain_assignment(size_t *n)
{
    char msg[256];
    circom_wtns_t w;
    if (circom_wtns_open(&w, CHAIN_WTNS, msg, sizeof(msg)) != CUZK_OK)
        fail_msg("%s", msg);
    cuzk_fr *a = malloc(w.num_values * sizeof(cuzk_fr));
    assert_non_null(a);
    memcpy(a, w.values, w.num_values * sizeof(cuzk_fr));
    *n = w.num_values;
    circom_wtns_close(&w);
    return a;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    return s;
}

static cuzk_job_state wait_final(cuzk_job *j)
{
    cuzk_job_state s;
    ok(cuzk_job_wait(j, &s, 120));
    assert_true(s >= CUZK_JOB_DONE);
    return s;
}

static int group_setup(void **state)
{
    (void)state;
    porep_like_params shape;
    test_builtin_params_file("api", &shape, fx.params, sizeof(fx.params), NULL);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    unlink(fx.params);
    return 0;
}

/* ------------------------------------------------------------------ */

static void test_version(void **state)
{
    (void)state;
    char want[32];
    snprintf(want, sizeof(want), "%d.%d.%d", CUZK_VERSION_MAJOR, CUZK_VERSION_MINOR,
             CUZK_VERSION_PATCH);
    assert_string_equal(cuzk_version(), want);
    assert_int_equal(cuzk_api_version(), CUZK_API_VERSION);
    assert_string_equal(cuzk_status_str(CUZK_ERR_UNSUPPORTED), "unsupported");
}

/* Every handle-taking call with a NULL handle or output: an error naming
 * the function and the argument, never a crash. */
static void test_null_arguments(void **state)
{
    (void)state;
    cuzk_engine *e = NULL;
    cuzk_circuit *c = NULL;
    cuzk_job *j = NULL;
    cuzk_job_state s;
    uint8_t buf[CUZK_PROOF_BYTES];
    size_t len = sizeof(buf);
    char *json;
    cuzk_engine_stats stats = {.size = sizeof(stats)};
    cuzk_witness w = {.kind = CUZK_WITNESS_WTNS, .wtns_path = CHAIN_WTNS};

    expect_error(cuzk_engine_create(NULL, NULL), CUZK_ERR_INVALID_ARGUMENT, "cuzk_engine_create",
                 "engine", NULL);
    expect_error(cuzk_engine_stats_get(NULL, &stats), CUZK_ERR_INVALID_ARGUMENT,
                 "cuzk_engine_stats_get", "engine is NULL", NULL);
    expect_error(cuzk_circuit_register_zkey(NULL, &c, NULL, CHAIN_ZKEY, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "cuzk_circuit_register_zkey", "engine is NULL", NULL);
    assert_null(c);
    expect_error(cuzk_circuit_register_builtin(NULL, &c, NULL, 10, 8, fx.params, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "cuzk_circuit_register_builtin", "engine", NULL);
    expect_error(cuzk_circuit_preload(NULL), CUZK_ERR_INVALID_ARGUMENT, "cuzk_circuit_preload",
                 "circuit is NULL", NULL);
    expect_error(cuzk_circuit_shape(NULL, NULL, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "cuzk_circuit_shape", "circuit is NULL", NULL);
    expect_error(cuzk_circuit_verify(NULL, buf, sizeof(buf), NULL, 0), CUZK_ERR_INVALID_ARGUMENT,
                 "cuzk_circuit_verify", "circuit is NULL", NULL);
    expect_error(cuzk_job_submit(NULL, &j, c, &w, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "cuzk_job_submit", "engine is NULL", NULL);
    expect_error(cuzk_job_wait(NULL, &s, 0), CUZK_ERR_INVALID_ARGUMENT, "cuzk_job_wait",
                 "job is NULL", NULL);
    expect_error(cuzk_job_status(NULL, &s, NULL), CUZK_ERR_INVALID_ARGUMENT, "cuzk_job_status",
                 "job is NULL", NULL);
    expect_error(cuzk_job_cancel(NULL), CUZK_ERR_INVALID_ARGUMENT, "cuzk_job_cancel", "job is NULL",
                 NULL);
    expect_error(cuzk_job_proof(NULL, buf, &len), CUZK_ERR_INVALID_ARGUMENT, "cuzk_job_proof",
                 "job is NULL", NULL);
    expect_error(cuzk_job_public_inputs(NULL, NULL, &len), CUZK_ERR_INVALID_ARGUMENT,
                 "cuzk_job_public_inputs", "job is NULL", NULL);
    expect_error(cuzk_job_snarkjs(NULL, &json, NULL, 0), CUZK_ERR_INVALID_ARGUMENT,
                 "cuzk_job_snarkjs", "job is NULL", NULL);
    expect_error(cuzk_prove_zkey(NULL, &json, NULL, CHAIN_ZKEY, CHAIN_WTNS),
                 CUZK_ERR_INVALID_ARGUMENT, "cuzk_prove_zkey", "engine is NULL", NULL);
    expect_error(cuzk_verify_snarkjs("{}", NULL, "[]"), CUZK_ERR_INVALID_ARGUMENT,
                 "cuzk_verify_snarkjs", "proof_json is NULL", NULL);
    expect_error(cuzk_verify_snarkjs_files(CHAIN_VK, "x", NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "cuzk_verify_snarkjs_files", "public_path is NULL", NULL);
    /* Functions without a status take NULL quietly. */
    cuzk_engine_destroy(NULL);
    cuzk_circuit_release(NULL);
    cuzk_job_destroy(NULL);
    cuzk_free(NULL);

    /* NULL outputs and inputs with a real engine. */
    e = new_engine();
    expect_error(cuzk_circuit_register_zkey(e, NULL, NULL, CHAIN_ZKEY, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "circuit (the output) is NULL", NULL);
    expect_error(cuzk_circuit_register_zkey(e, &c, NULL, NULL, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "zkey_path is NULL", NULL);
    expect_error(cuzk_job_submit(e, &j, NULL, &w, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "circuit is NULL", NULL);
    c = chain(e, "chain");
    expect_error(cuzk_job_submit(e, NULL, c, &w, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "job (the output) is NULL", NULL);
    expect_error(cuzk_job_submit(e, &j, c, NULL, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "witnesses is NULL", NULL);
    expect_error(cuzk_job_submit(e, &j, c, &w, 0, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "num_witnesses is 0", NULL);
    cuzk_witness nopath = {.kind = CUZK_WITNESS_WTNS};
    expect_error(cuzk_job_submit(e, &j, c, &nopath, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "witnesses[0].wtns_path is NULL", NULL);
    cuzk_witness noarr = {.kind = CUZK_WITNESS_ASSIGNMENT, .assignment_len = 3};
    expect_error(cuzk_job_submit(e, &j, c, &noarr, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "witnesses[0].assignment is NULL", NULL);
    expect_error(cuzk_engine_stats_get(e, NULL), CUZK_ERR_INVALID_ARGUMENT, "stats", NULL);
    ok(cuzk_engine_stats_get(e, &stats));
    assert_string_equal(cuzk_last_error(), "");
    assert_int_equal(stats.circuits, 1);
    assert_string_equal(stats.backend, "cpu");
    cuzk_circuit_release(c);
    /* A released handle a job still holds would be refused the same way;
     * here the circuit is gone, which the stats show. */
    ok(cuzk_engine_stats_get(e, &stats));
    assert_int_equal(stats.circuits, 0);
    cuzk_engine_destroy(e);
}

/* Wrong witnesses: lengths, values, files of another circuit or curve,
 * kinds the circuit does not take. */
static void test_bad_witnesses(void **state)
{
    (void)state;
    cuzk_engine *e = new_engine();
    cuzk_circuit *c = chain(e, "chain");
    uint64_t nv, np;
    ok(cuzk_circuit_shape(c, &nv, &np));
    size_t n;
    cuzk_fr *a = chain_assignment(&n);
    assert_int_equal(n, nv);
    cuzk_job *j = NULL;

    cuzk_witness w[2] = {
        {.kind = CUZK_WITNESS_WTNS, .wtns_path = CHAIN_WTNS},
        {.kind = CUZK_WITNESS_ASSIGNMENT, .assignment = a, .assignment_len = n - 1}};
    expect_error(cuzk_job_submit(e, &j, c, w, 2, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "cuzk_job_submit", "witnesses[1].assignment_len", "chain", NULL);
    assert_null(j);
    w[1].assignment_len = n + 1;
    expect_error(cuzk_job_submit(e, &j, c, w, 2, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "witnesses[1].assignment_len", NULL);
    /* A value >= r: r itself, little-endian. */
    w[1].assignment_len = n;
    static const uint8_t r_le[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
                                     0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
                                     0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33,
                                     0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    cuzk_fr saved = a[3];
    memcpy(a[3].bytes, r_le, 32);
    expect_error(cuzk_job_submit(e, &j, c, w, 2, NULL), CUZK_ERR_NOT_CANONICAL,
                 "witnesses[1].assignment[3]", "not below r", NULL);
    a[3] = saved;
    /* ONE must come first. */
    a[0].bytes[0] = 2;
    expect_error(cuzk_job_submit(e, &j, c, w, 2, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "witnesses[1].assignment[0]", NULL);
    a[0].bytes[0] = 1;
    /* A .wtns of another circuit, and of another curve. */
    w[0].wtns_path = FIX "poseidon_bls12381.wtns";
    expect_error(cuzk_job_submit(e, &j, c, w, 2, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "witnesses[0].wtns_path", "poseidon_bls12381.wtns", "another circuit", NULL);
    w[0].wtns_path = FIX "chain_bn128.wtns";
    expect_error(cuzk_job_submit(e, &j, c, w, 2, NULL), CUZK_ERR_UNSUPPORTED,
                 "witnesses[0].wtns_path", "bn128", NULL);
    w[0].wtns_path = FIX "missing.wtns";
    expect_error(cuzk_job_submit(e, &j, c, w, 2, NULL), CUZK_ERR_IO, "witnesses[0].wtns_path",
                 "missing.wtns", NULL);
    w[0].wtns_path = CHAIN_WTNS;
    /* Kinds this circuit does not take. */
    cuzk_witness seed = {.kind = CUZK_WITNESS_SEED, .seed = 1};
    expect_error(cuzk_job_submit(e, &j, c, &seed, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "witnesses[0].kind", "CUZK_WITNESS_SEED", "zkey", NULL);
    cuzk_witness bell = {.kind = CUZK_WITNESS_BELLMAN};
    expect_error(cuzk_job_submit(e, &j, c, &bell, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "CUZK_WITNESS_BELLMAN", "cuzk_circuit_register_external", NULL);
    cuzk_witness odd = {.kind = (cuzk_witness_kind)77};
    expect_error(cuzk_job_submit(e, &j, c, &odd, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "witnesses[0].kind is 77", NULL);
    /* Options: a size no _init set, a newer struct with a field set, half
     * a blinding, a blinding value >= r. */
    cuzk_job_options o;
    cuzk_job_options_init(&o);
    o.size = 0;
    expect_error(cuzk_job_submit(e, &j, c, w, 1, &o), CUZK_ERR_INVALID_ARGUMENT,
                 "options->size is 0", NULL);
    struct {
        cuzk_job_options o;
        uint64_t newer;
    } big;
    memset(&big, 0, sizeof(big));
    cuzk_job_options_init(&big.o);
    big.o.size = sizeof(big);
    big.newer = 1;
    expect_error(cuzk_job_submit(e, &j, c, w, 1, &big.o), CUZK_ERR_UNSUPPORTED, "options->size",
                 NULL);
    big.newer = 0; /* unknown fields at zero: taken */
    ok(cuzk_job_submit(e, &j, c, w, 1, &big.o));
    assert_int_equal(wait_final(j), CUZK_JOB_DONE);
    cuzk_job_destroy(j);
    j = NULL;
    cuzk_job_options_init(&o);
    cuzk_fr rs[1];
    memset(rs, 0, sizeof(rs));
    o.r = rs;
    expect_error(cuzk_job_submit(e, &j, c, w, 1, &o), CUZK_ERR_INVALID_ARGUMENT,
                 "options->s is NULL", NULL);
    o.s = rs;
    memcpy(rs[0].bytes, r_le, 32);
    expect_error(cuzk_job_submit(e, &j, c, w, 1, &o), CUZK_ERR_NOT_CANONICAL,
                 "options->r[0] is not below r", NULL);
    o.priority = (cuzk_priority)9;
    expect_error(cuzk_job_submit(e, &j, c, w, 1, &o), CUZK_ERR_INVALID_ARGUMENT,
                 "options->priority", NULL);
    /* Nothing was queued by any of these. */
    cuzk_engine_stats stats = {.size = sizeof(stats)};
    ok(cuzk_engine_stats_get(e, &stats));
    assert_int_equal(stats.jobs_unfinished, 0);
    /* Results of a job that is not done. */
    cuzk_circuit_release(c);
    free(a);
    cuzk_engine_destroy(e);
}

/* Circuits: bad registrations, names, the external kind. */
static void test_circuits(void **state)
{
    (void)state;
    cuzk_engine *e = new_engine();
    cuzk_circuit *c = NULL, *c2 = NULL;
    expect_error(cuzk_circuit_register_zkey(e, &c, "k", FIX "missing.zkey", CUZK_CHECK_CURVE),
                 CUZK_ERR_IO, "cuzk_circuit_register_zkey", "zkey_path", "missing.zkey", NULL);
    /* A BN254 key registers as such (test_api_bn254.c proves it). */
    ok(cuzk_circuit_register_zkey(e, &c, "k254", FIX "chain_bn128.zkey", CUZK_CHECK_CURVE));
    cuzk_curve curve;
    ok(cuzk_circuit_curve(c, &curve, NULL));
    assert_int_equal(curve, CUZK_CURVE_BN254);
    cuzk_circuit_release(c);
    c = NULL;
    expect_error(cuzk_circuit_register_zkey(e, &c, "", CHAIN_ZKEY, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "name", NULL);
    expect_error(cuzk_circuit_register_zkey(e, &c, "k", CHAIN_ZKEY, (cuzk_check)5),
                 CUZK_ERR_INVALID_ARGUMENT, "check is 5", NULL);
    expect_error(cuzk_circuit_register_builtin(e, &c, "b", 9, 8, fx.params, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "log_constraints is 9", NULL);
    expect_error(cuzk_circuit_register_builtin(e, &c, "b", 10, 4, fx.params, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "arity is 4", NULL);
    expect_error(cuzk_circuit_register_builtin(e, &c, "b", 10, 8, "dev:12a", CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "cuzk_circuit_register_builtin", "'dev:12a'",
                 "dev:SEED", NULL);
    /* Parameters of another shape (2^10 parameters for 2^11). */
    expect_error(cuzk_circuit_register_builtin(e, &c, "b", 11, 8, fx.params, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "params_path", NULL);
    assert_null(c);

    /* A name is unique among live circuits, and free again on release. */
    c = chain(e, "same");
    expect_error(cuzk_circuit_register_zkey(e, &c2, "same", CHAIN_ZKEY, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "already registered", NULL);
    cuzk_circuit_release(c);
    c = chain(e, "same");
    c2 = chain(e, NULL); /* a made-up name */
    uint64_t nv, np;
    ok(cuzk_circuit_shape(c2, &nv, &np));
    assert_int_equal(np, 4); /* the chain fixture: 2 outputs, 2 public inputs */
    ok(cuzk_circuit_preload(c2));
    cuzk_engine_stats stats = {.size = sizeof(stats)};
    ok(cuzk_engine_stats_get(e, &stats));
    assert_int_equal(stats.circuits, 2);
    assert_int_equal(stats.resident_circuits, 1);
    cuzk_circuit_release(c2);
    ok(cuzk_engine_stats_get(e, &stats));
    assert_int_equal(stats.resident_circuits, 0);

    /* The external kind: arguments checked, then the counts against the
     * parameter file (test_external proves with it). */
    uint64_t dens = 1;
    cuzk_external_circuit d = {.size = sizeof(d),
                               .num_inputs = 1,
                               .num_aux = 1,
                               .num_constraints = 2,
                               .a_aux_density = &dens,
                               .b_input_density = &dens,
                               .b_aux_density = &dens};
    expect_error(cuzk_circuit_register_external(e, &c2, "x", fx.params, NULL, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "desc is NULL", NULL);
    d.b_aux_density = NULL;
    expect_error(cuzk_circuit_register_external(e, &c2, "x", fx.params, &d, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "density", NULL);
    d.b_aux_density = &dens;
    expect_error(cuzk_circuit_register_external(e, &c2, "x", fx.params, &d, CUZK_CHECK_CURVE),
                 CUZK_ERR_INVALID_ARGUMENT, "cuzk_circuit_register_external", "does not fit", NULL);
    assert_null(c2);

    /* A job of one engine cannot use another engine's circuit. */
    cuzk_engine *e2 = new_engine();
    cuzk_witness w = {.kind = CUZK_WITNESS_WTNS, .wtns_path = CHAIN_WTNS};
    cuzk_job *j;
    expect_error(cuzk_job_submit(e2, &j, c, &w, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "another engine", NULL);
    cuzk_engine_destroy(e2);
    /* The engine frees the handles still alive (c here). */
    cuzk_engine_destroy(e);
}

/* A circuit released while its job runs: the job finishes; the circuit's
 * parameters go once the job is seen done. */
static void test_release_while_running(void **state)
{
    (void)state;
    cuzk_engine *e = new_engine();
    cuzk_circuit *c = chain(e, "chain");
    enum { N = 16 };
    cuzk_witness w[N];
    for (int i = 0; i < N; i++)
        w[i] = (cuzk_witness){.kind = CUZK_WITNESS_WTNS, .wtns_path = CHAIN_WTNS};
    cuzk_job *j;
    ok(cuzk_job_submit(e, &j, c, w, N, NULL));
    cuzk_circuit_release(c);
    cuzk_engine_stats stats = {.size = sizeof(stats)};
    ok(cuzk_engine_stats_get(e, &stats));
    assert_int_equal(stats.circuits, 0);
    cuzk_job_state s;
    uint32_t done;
    ok(cuzk_job_status(j, &s, &done));
    /* Loading the key and 16 proofs take far longer than the calls above. */
    assert_true(s < CUZK_JOB_DONE);
    assert_int_equal(wait_final(j), CUZK_JOB_DONE);
    ok(cuzk_job_status(j, &s, &done));
    assert_int_equal(done, N);
    ok(cuzk_engine_stats_get(e, &stats));
    assert_int_equal(stats.jobs_unfinished, 0);
    assert_int_equal(stats.resident_circuits, 0);
    assert_int_equal(stats.partitions_proved, N);
    /* The results outlive the circuit. */
    char *pj, *uj;
    ok(cuzk_job_snarkjs(j, &pj, &uj, N - 1));
    char *vk = read_text(CHAIN_VK);
    ok(cuzk_verify_snarkjs(vk, pj, uj));
    char *none = pj;
    expect_error(cuzk_job_snarkjs(j, &none, NULL, N), CUZK_ERR_INVALID_ARGUMENT, "partition is 16",
                 NULL);
    assert_null(none);
    free(vk);
    cuzk_free(pj);
    cuzk_free(uj);
    cuzk_job_destroy(j);
    cuzk_engine_destroy(e);
}

/* Fixed r, s: one proof bit for bit from a .wtns path, from the
 * assignment array, twice, and from `cuzk prove`'s sequence. */
static void test_fixed_blinding(void **state)
{
    (void)state;
    cuzk_engine *e = new_engine();
    cuzk_circuit *c = chain(e, NULL);
    size_t n;
    cuzk_fr *a = chain_assignment(&n);
    cuzk_fr r[2], s[2];
    memset(r, 0, sizeof(r));
    memset(s, 0, sizeof(s));
    r[0].bytes[0] = 11, s[0].bytes[0] = 22;
    r[1].bytes[5] = 33, s[1].bytes[31] = 0x44; /* 0x44 << 248 < r */
    cuzk_job_options o;
    cuzk_job_options_init(&o);
    o.r = r;
    o.s = s;
    cuzk_witness by_path = {.kind = CUZK_WITNESS_WTNS, .wtns_path = CHAIN_WTNS};
    cuzk_witness by_array = {.kind = CUZK_WITNESS_ASSIGNMENT, .assignment = a, .assignment_len = n};
    cuzk_witness w1[2] = {by_path, by_array}, w2[2] = {by_array, by_path};
    cuzk_job *j1, *j2, *j3;
    ok(cuzk_job_submit(e, &j1, c, w1, 2, &o));
    ok(cuzk_job_submit(e, &j2, c, w2, 2, &o));
    ok(cuzk_job_submit(e, &j3, c, w1, 2, NULL)); /* fresh r, s */
    uint8_t p1[2 * CUZK_PROOF_BYTES], p2[2 * CUZK_PROOF_BYTES], p3[2 * CUZK_PROOF_BYTES];
    size_t l1 = sizeof(p1), l2 = sizeof(p2), l3 = 1;
    expect_error(cuzk_job_proof(j1, p1, &l1), CUZK_ERR_INVALID_ARGUMENT, "not done", NULL);
    assert_int_equal(wait_final(j1), CUZK_JOB_DONE);
    assert_int_equal(wait_final(j2), CUZK_JOB_DONE);
    assert_int_equal(wait_final(j3), CUZK_JOB_DONE);
    ok(cuzk_job_proof(j1, p1, &l1));
    ok(cuzk_job_proof(j2, p2, &l2));
    expect_error(cuzk_job_proof(j3, p3, &l3), CUZK_ERR_INVALID_ARGUMENT, "proof_len is 1", NULL);
    assert_int_equal(l3, sizeof(p3));
    ok(cuzk_job_proof(j3, p3, &l3));
    assert_int_equal(l1, sizeof(p1));
    assert_memory_equal(p1, p2, sizeof(p1));
    assert_memory_not_equal(p1, p1 + CUZK_PROOF_BYTES, CUZK_PROOF_BYTES); /* r, s differ */
    assert_memory_not_equal(p1, p3, CUZK_PROOF_BYTES);

    /* `cuzk prove`'s sequence with the same r, s. */
    char msg[256];
    zkey_t z;
    assert_int_equal(zkey_open(&z, CHAIN_ZKEY, FORMATS_CHECK_CURVE, msg, sizeof(msg)), CUZK_OK);
    zkey_circuit_t zc;
    assert_int_equal(zkey_circuit_init(&zc, &z, FORMATS_CHECK_CURVE, 2, msg, sizeof(msg)), CUZK_OK);
    fr_t *wit;
    uint64_t nw;
    assert_int_equal(circom_wtns_load(&wit, &nw, CHAIN_WTNS, msg, sizeof(msg)), CUZK_OK);
    void *scratch = malloc(zkey_circuit_scratch_bytes(&zc));
    for (int i = 0; i < 2; i++) {
        fr_t fr, fs;
        assert_true(fr_from_bytes_le(&fr, r[i].bytes) && fr_from_bytes_le(&fs, s[i].bytes));
        groth16_proof_t proof;
        assert_int_equal(zkey_circuit_prove_with(&proof, &zc, wit, &fr, &fs, scratch, 2), CUZK_OK);
        uint8_t want[CUZK_PROOF_BYTES];
        assert_int_equal(bellman_proof_encode(want, &proof), CUZK_OK);
        assert_memory_equal(p1 + i * CUZK_PROOF_BYTES, want, CUZK_PROOF_BYTES);
    }
    free(scratch);
    free(wit);
    zkey_circuit_free(&zc);
    zkey_close(&z);

    /* All three verify against the circuit, with the job's inputs. */
    uint64_t np;
    ok(cuzk_circuit_shape(c, NULL, &np));
    cuzk_fr inputs[8];
    size_t ni = 1;
    expect_error(cuzk_job_public_inputs(j3, inputs, &ni), CUZK_ERR_INVALID_ARGUMENT,
                 "inputs_len is 1", NULL);
    assert_int_equal(ni, 2 * np);
    ok(cuzk_job_public_inputs(j3, inputs, &ni));
    assert_memory_equal(inputs, a + 1, np * sizeof(cuzk_fr)); /* w[1 ..] */
    ok(cuzk_circuit_verify(c, p1, sizeof(p1), inputs, ni));
    ok(cuzk_circuit_verify(c, p3, sizeof(p3), inputs, ni));
    inputs[np].bytes[0] ^= 1; /* partition 1's first input */
    expect_error(cuzk_circuit_verify(c, p3, sizeof(p3), inputs, ni), CUZK_ERR_VERIFY_FAILED,
                 "partition 1 does not verify", NULL);
    expect_error(cuzk_circuit_verify(c, p3, sizeof(p3) - 1, inputs, ni), CUZK_ERR_INVALID_ARGUMENT,
                 "proofs_len", NULL);
    expect_error(cuzk_circuit_verify(c, p3, sizeof(p3), inputs, ni - 1), CUZK_ERR_INVALID_ARGUMENT,
                 "inputs_len", NULL);
    cuzk_job_destroy(j1);
    cuzk_job_destroy(j2);
    cuzk_job_destroy(j3);
    cuzk_circuit_release(c);
    free(a);
    cuzk_engine_destroy(e);
}

/* One call: proof.json and public.json that verify against the fixture's
 * verification key; the key stays registered for the next call. */
static void test_prove_zkey(void **state)
{
    (void)state;
    cuzk_engine *e = new_engine();
    char *vk = read_text(CHAIN_VK);
    for (int round = 0; round < 2; round++) {
        char *pj = NULL, *uj = NULL;
        ok(cuzk_prove_zkey(e, &pj, &uj, CHAIN_ZKEY, CHAIN_WTNS));
        assert_non_null(strstr(pj, "\"pi_a\""));
        ok(cuzk_verify_snarkjs(vk, pj, uj));
        /* Another public value: refused. */
        char *bad = strdup(uj);
        char *digit = strpbrk(bad, "0123456789");
        *digit = *digit == '9' ? '8' : (char)(*digit + 1);
        expect_error(cuzk_verify_snarkjs(vk, pj, bad), CUZK_ERR_VERIFY_FAILED, "does not verify",
                     NULL);
        expect_error(cuzk_verify_snarkjs(vk, pj, "[\"1\"]"), CUZK_ERR_INVALID_ARGUMENT,
                     "public_json has 1 public values", NULL);
        expect_error(cuzk_verify_snarkjs(vk, "{", uj), CUZK_ERR_CORRUPT, "proof_json", "line 1",
                     NULL);
        free(bad);
        cuzk_free(pj);
        cuzk_free(uj);
    }
    cuzk_engine_stats stats = {.size = sizeof(stats)};
    ok(cuzk_engine_stats_get(e, &stats));
    assert_int_equal(stats.resident_circuits, 1); /* loaded once, kept */
    ok(cuzk_verify_snarkjs_files(CHAIN_VK, FIX "proof_bls12381.json", FIX "public_bls12381.json"));
    expect_error(cuzk_verify_snarkjs_files(CHAIN_VK, FIX "proof_bls12381.json", FIX "missing.json"),
                 CUZK_ERR_IO, "public_path", "missing.json", NULL);
    char *pj = NULL;
    expect_error(cuzk_prove_zkey(e, &pj, NULL, CHAIN_ZKEY, FIX "poseidon_bls12381.wtns"),
                 CUZK_ERR_INVALID_ARGUMENT, "cuzk_prove_zkey", "poseidon_bls12381.wtns", NULL);
    expect_error(cuzk_prove_zkey(e, &pj, NULL, FIX "missing.zkey", CHAIN_WTNS), CUZK_ERR_IO,
                 "zkey_path", NULL);
    assert_null(pj);
    free(vk);
    cuzk_engine_destroy(e);
}

/* The built-in circuit: seeds and their public inputs, verified by the
 * circuit; cancel; a job destroyed before it finished. */
static void test_builtin(void **state)
{
    (void)state;
    cuzk_engine *e = new_engine();
    cuzk_circuit *c;
    ok(cuzk_circuit_register_builtin(e, &c, "porep", 10, 8, fx.params, CUZK_CHECK_CURVE));
    cuzk_witness w[3] = {{.kind = CUZK_WITNESS_SEED, .seed = 5},
                         {.kind = CUZK_WITNESS_SEED, .seed = 6},
                         {.kind = CUZK_WITNESS_SEED, .seed = 7}};
    cuzk_job *j, *k, *gone;
    ok(cuzk_job_submit(e, &j, c, w, 3, NULL));
    cuzk_job_options o;
    cuzk_job_options_init(&o);
    o.priority = CUZK_PRIORITY_LOW;
    ok(cuzk_job_submit(e, &k, c, w, 3, &o));
    ok(cuzk_job_submit(e, &gone, c, w, 3, &o));
    cuzk_job_destroy(gone); /* cancelled and forgotten */
    ok(cuzk_job_cancel(k));
    cuzk_job_state s;
    ok(cuzk_job_wait(k, &s, 60));
    assert_int_equal(s, CUZK_JOB_CANCELLED);
    assert_non_null(strstr(cuzk_last_error(), "cancelled by request")); /* the reason */
    expect_error(cuzk_job_cancel(k), CUZK_ERR_INVALID_ARGUMENT, "already", NULL);
    char *pj;
    expect_error(cuzk_job_snarkjs(k, &pj, NULL, 0), CUZK_ERR_INVALID_ARGUMENT, "cancelled", NULL);
    assert_int_equal(wait_final(j), CUZK_JOB_DONE);
    uint64_t np;
    ok(cuzk_circuit_shape(c, NULL, &np));
    uint8_t proof[3 * CUZK_PROOF_BYTES];
    size_t len = sizeof(proof), ni = 3 * np;
    cuzk_fr *inputs = calloc(ni, sizeof(cuzk_fr));
    ok(cuzk_job_proof(j, proof, &len));
    ok(cuzk_job_public_inputs(j, inputs, &ni));
    ok(cuzk_circuit_verify(c, proof, len, inputs, ni));
    /* Partitions swapped: both fail. */
    uint8_t tmp[CUZK_PROOF_BYTES];
    memcpy(tmp, proof, CUZK_PROOF_BYTES);
    memcpy(proof, proof + 2 * CUZK_PROOF_BYTES, CUZK_PROOF_BYTES);
    memcpy(proof + 2 * CUZK_PROOF_BYTES, tmp, CUZK_PROOF_BYTES);
    expect_error(cuzk_circuit_verify(c, proof, len, inputs, ni), CUZK_ERR_VERIFY_FAILED,
                 "partitions 0 2 do not verify", NULL);
    free(inputs);
    cuzk_job_destroy(j);
    cuzk_job_destroy(k);
    cuzk_circuit_release(c);
    cuzk_engine_destroy(e);
}

/* Development parameters made at load: registration reads no file, the
 * first verify loads the circuit for its verifying key, and another seed's
 * parameters do not verify this seed's proofs. */
static void test_builtin_dev_params(void **state)
{
    (void)state;
    cuzk_engine *e = new_engine();
    cuzk_circuit *c, *other;
    ok(cuzk_circuit_register_builtin(e, &c, "dev", 10, 8, "dev:3", CUZK_CHECK_CURVE));
    ok(cuzk_circuit_register_builtin(e, &other, "dev4", 10, 8, "dev:4", CUZK_CHECK_CURVE));
    cuzk_witness w[2] = {{.kind = CUZK_WITNESS_SEED, .seed = 5},
                         {.kind = CUZK_WITNESS_SEED, .seed = 6}};
    cuzk_job *j;
    ok(cuzk_job_submit(e, &j, c, w, 2, NULL));
    assert_int_equal(wait_final(j), CUZK_JOB_DONE);
    uint64_t np;
    ok(cuzk_circuit_shape(c, NULL, &np));
    uint8_t proof[2 * CUZK_PROOF_BYTES];
    size_t len = sizeof(proof), ni = 2 * np;
    cuzk_fr *inputs = calloc(ni, sizeof(cuzk_fr));
    ok(cuzk_job_proof(j, proof, &len));
    ok(cuzk_job_public_inputs(j, inputs, &ni));
    ok(cuzk_circuit_verify(c, proof, len, inputs, ni));
    expect_error(cuzk_circuit_verify(other, proof, len, inputs, ni), CUZK_ERR_VERIFY_FAILED,
                 "do not verify", NULL);
    free(inputs);
    cuzk_job_destroy(j);
    cuzk_circuit_release(c);
    cuzk_circuit_release(other);
    cuzk_engine_destroy(e);
}

/* Messages are per thread: a failure on one leaves another's alone. */
static void *fail_elsewhere(void *arg)
{
    (void)arg;
    cuzk_status st = cuzk_circuit_preload(NULL);
    return st == CUZK_ERR_INVALID_ARGUMENT && strstr(cuzk_last_error(), "circuit is NULL")
               ? (void *)1
               : NULL;
}

static void to_api(cuzk_fr *out, const fr_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t raw[4];
        fr_to_raw(raw, &v[i]);
        for (int k = 0; k < 4; k++)
            for (int b = 0; b < 8; b++)
                out[i].bytes[8 * k + b] = (uint8_t)(raw[k] >> (8 * b));
    }
}

/* The external kind through the API: the built-in circuit at 2^10 stands in
 * for one synthesized elsewhere; its counts, densities, assignments and
 * a, b, c go in as bellperson holds them, and with r, s fixed the proof
 * equals the bellman prover's. */
static void test_external(void **state)
{
    (void)state;
    char msg[256] = "";
    porep_like_params shape;
    ok(porep_like_params_for_constraints(&shape, 10, 8));
    r1cs_t r;
    ok(builtin_compile(&r, &shape, 2));
    r1cs_density_t den;
    ok(r1cs_density(&den, &r, 2));
    groth16_params_t gp;
    if (bellman_params_load(&gp, fx.params, FORMATS_CHECK_CURVE, 2, msg, sizeof(msg)) != CUZK_OK)
        fail_msg("%s", msg);
    groth16_circuit_t g;
    if (groth16_circuit_init(&g, &r, &gp, 2, msg, sizeof(msg)) != CUZK_OK)
        fail_msg("%s", msg);
    uint64_t ni = r.num_inputs, na = r.num_aux, m = r.num_constraints;
    cuzk_engine *e = new_engine();
    cuzk_external_circuit d = {.size = sizeof(d),
                               .num_inputs = ni,
                               .num_aux = na,
                               .num_constraints = m,
                               .a_aux_density = den.a_aux,
                               .b_input_density = den.b_input,
                               .b_aux_density = den.b_aux};
    cuzk_circuit *c;
    ok(cuzk_circuit_register_external(e, &c, "ext", fx.params, &d, CUZK_CHECK_CURVE));
    fr_t *w = malloc((ni + na) * sizeof(fr_t)), *abc = malloc(3 * m * sizeof(fr_t));
    cuzk_fr *wv = malloc((ni + na) * sizeof(cuzk_fr)), *av = malloc(3 * m * sizeof(cuzk_fr));
    assert_true(w && abc && wv && av);
    ok(builtin_witness(w, ni + na, &shape, 5, 2));
    r1cs_eval(&r, w, abc, abc + m, abc + 2 * m, 2);
    to_api(wv, w, ni + na);
    to_api(av, abc, 3 * m);
    cuzk_witness wit = {.kind = CUZK_WITNESS_BELLMAN,
                        .input = wv,
                        .input_len = ni,
                        .aux = wv + ni,
                        .aux_len = na,
                        .a = av,
                        .b = av + m,
                        .c = av + 2 * m,
                        .abc_len = m};
    fr_t fr_r, fr_s;
    fr_from_u64(&fr_r, 31);
    fr_from_u64(&fr_s, 47);
    cuzk_fr rv, sv;
    to_api(&rv, &fr_r, 1);
    to_api(&sv, &fr_s, 1);
    cuzk_job_options o;
    cuzk_job_options_init(&o);
    o.r = &rv;
    o.s = &sv;
    cuzk_job *j;
    ok(cuzk_job_submit(e, &j, c, &wit, 1, &o));
    assert_int_equal(wait_final(j), CUZK_JOB_DONE);
    uint8_t got[CUZK_PROOF_BYTES];
    size_t len = sizeof(got);
    ok(cuzk_job_proof(j, got, &len));
    assert_int_equal(len, sizeof(got));
    groth16_proof_t want;
    void *scratch = malloc(groth16_prover_scratch_bytes(&g));
    assert_non_null(scratch);
    ok(groth16_prove_with(&want, &g, w, &fr_r, &fr_s, scratch, 2, NULL));
    uint8_t bytes[GROTH16_PROOF_BYTES];
    ok(bellman_proof_encode(bytes, &want));
    assert_memory_equal(got, bytes, sizeof(bytes));
    cuzk_job_destroy(j);

    /* a, b, c left out, or one short: refused, naming the field */
    cuzk_witness bad = wit;
    bad.c = NULL;
    expect_error(cuzk_job_submit(e, &j, c, &bad, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "witnesses[0]", "a, b and c", NULL);
    bad = wit;
    bad.abc_len = m - 1;
    expect_error(cuzk_job_submit(e, &j, c, &bad, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "witnesses[0].abc_len", NULL);
    bad = wit;
    bad.aux_len = na - 1;
    expect_error(cuzk_job_submit(e, &j, c, &bad, 1, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "witnesses[0].aux_len", NULL);

    free(scratch);
    free(w);
    free(abc);
    free(wv);
    free(av);
    cuzk_circuit_release(c);
    cuzk_engine_destroy(e);
    groth16_circuit_free(&g);
    groth16_params_free(&gp);
    r1cs_density_free(&den);
    r1cs_free(&r);
}

static void test_messages_per_thread(void **state)
{
    (void)state;
    expect_error(cuzk_job_cancel(NULL), CUZK_ERR_INVALID_ARGUMENT, "cuzk_job_cancel", NULL);
    pthread_t t;
    void *res;
    assert_int_equal(pthread_create(&t, NULL, fail_elsewhere, NULL), 0);
    assert_int_equal(pthread_join(t, &res), 0);
    assert_non_null(res);
    assert_non_null(strstr(cuzk_last_error(), "cuzk_job_cancel")); /* still ours */
    cuzk_engine_config cfg;
    cuzk_engine_config_init(&cfg);
    cfg.backend = (cuzk_backend)7;
    cuzk_engine *e;
    expect_error(cuzk_engine_create(&e, &cfg), CUZK_ERR_INVALID_ARGUMENT, "config->backend is 7",
                 NULL);
    assert_null(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_bad_witnesses),
        cmocka_unit_test(test_circuits),
        cmocka_unit_test(test_release_while_running),
        cmocka_unit_test(test_fixed_blinding),
        cmocka_unit_test(test_prove_zkey),
        cmocka_unit_test(test_builtin),
        cmocka_unit_test(test_builtin_dev_params),
        cmocka_unit_test(test_external),
        cmocka_unit_test(test_messages_per_thread),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
