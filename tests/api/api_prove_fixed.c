/* The C API's door for tests/cli/test_one_path.sh: proves with given r and
 * s through the public header and the shared library alone, as a user's
 * program would, and writes what the other doors write, so the test can
 * compare the files byte for byte.
 *
 *   api_prove_fixed zkey ZKEY WTNS R S PROOF_JSON PROOF_BIN
 *       one partition: snarkjs's proof.json, and the 192 proof bytes
 *   api_prove_fixed builtin LOG_CONSTRAINTS PARAMS PARTITIONS SEED R S PROOF_BIN
 *       the built-in circuit (arity 8), seeds SEED .. SEED + PARTITIONS - 1:
 *       PARTITIONS x 192 bytes
 *
 * R and S are decimal; every partition gets the same pair. Exit 0 on
 * success, 1 when the library refuses or fails (its message on stderr), 2
 * on a bad command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuzk/cuzk.h>

/* A decimal string as a 32-byte little-endian integer (the layout of
 * cuzk_fr); false when it is not decimal or needs more than 256 bits. The
 * library checks that it is below r. */
static int parse_fr(cuzk_fr *out, const char *text)
{
    memset(out, 0, sizeof(*out));
    if (!*text)
        return 0;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9')
            return 0;
        unsigned carry = (unsigned)(*c - '0');
        for (int i = 0; i < CUZK_FR_BYTES; i++) {
            unsigned v = out->bytes[i] * 10u + carry;
            out->bytes[i] = (unsigned char)(v & 0xff);
            carry = v >> 8;
        }
        if (carry)
            return 0;
    }
    return 1;
}

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "api_prove_fixed: cannot write %s\n", path);
    return ok;
}

static int failed(const char *what, cuzk_status st)
{
    fprintf(stderr, "api_prove_fixed: %s: %s: %s\n", what, cuzk_status_str(st),
            cuzk_last_error());
    return 1;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: api_prove_fixed zkey ZKEY WTNS R S PROOF_JSON PROOF_BIN\n"
            "       api_prove_fixed builtin LOG_CONSTRAINTS PARAMS PARTITIONS SEED R S "
            "PROOF_BIN\n");
    return 2;
}

/* Submits the witnesses with r and s fixed for each, waits, and writes the
 * proof bytes (and partition 0's proof.json when json_path is given). */
static int prove(cuzk_engine *engine, cuzk_circuit *circuit, const cuzk_witness *witnesses,
                 size_t n, const cuzk_fr *r, const cuzk_fr *s, const char *json_path,
                 const char *bin_path)
{
    cuzk_fr *rs = malloc(2 * n * sizeof(cuzk_fr));
    uint8_t *proof = malloc(n * CUZK_PROOF_BYTES);
    if (!rs || !proof) {
        free(rs);
        free(proof);
        fprintf(stderr, "api_prove_fixed: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        rs[i] = *r;
        rs[n + i] = *s;
    }
    cuzk_job_options options;
    cuzk_job_options_init(&options);
    options.r = rs;
    options.s = rs + n;
    cuzk_job *job = NULL;
    cuzk_job_state state = CUZK_JOB_QUEUED;
    size_t len = n * CUZK_PROOF_BYTES;
    char *json = NULL;
    cuzk_status st;
    int rc = 1;
    if ((st = cuzk_job_submit(engine, &job, circuit, witnesses, n, &options)) != CUZK_OK)
        rc = failed("cuzk_job_submit", st);
    else if ((st = cuzk_job_wait(job, &state, -1)) != CUZK_OK)
        rc = failed("cuzk_job_wait", st);
    else if (state != CUZK_JOB_DONE)
        fprintf(stderr, "api_prove_fixed: the job ended in state %d: %s\n", (int)state,
                cuzk_last_error());
    else if ((st = cuzk_job_proof(job, proof, &len)) != CUZK_OK)
        rc = failed("cuzk_job_proof", st);
    else if (json_path && (st = cuzk_job_snarkjs(job, &json, NULL, 0)) != CUZK_OK)
        rc = failed("cuzk_job_snarkjs", st);
    else if (write_file(bin_path, proof, len) &&
             (!json_path || write_file(json_path, json, strlen(json))))
        rc = 0;
    cuzk_free(json);
    cuzk_job_destroy(job);
    free(proof);
    free(rs);
    return rc;
}

int main(int argc, char **argv)
{
    int is_zkey = argc == 8 && !strcmp(argv[1], "zkey");
    int is_builtin = argc == 9 && !strcmp(argv[1], "builtin");
    if (!is_zkey && !is_builtin)
        return usage();
    cuzk_fr r, s;
    const char *r_text = argv[is_zkey ? 4 : 6], *s_text = argv[is_zkey ? 5 : 7];
    if (!parse_fr(&r, r_text) || !parse_fr(&s, s_text)) {
        fprintf(stderr, "api_prove_fixed: R and S must be decimal numbers of at most 256 bits\n");
        return 2;
    }
    unsigned long log_constraints = 0, partitions = 0;
    unsigned long long seed = 0;
    if (is_builtin) {
        char *e1, *e2, *e3;
        log_constraints = strtoul(argv[2], &e1, 10);
        partitions = strtoul(argv[4], &e2, 10);
        seed = strtoull(argv[5], &e3, 10);
        if (*e1 || *e2 || *e3 || partitions < 1 || partitions > 65536)
            return usage();
    }

    /* The CPU backend, as `cuzk prove --backend cpu` in the test. */
    cuzk_engine_config cfg;
    cuzk_engine_config_init(&cfg);
    cfg.backend = CUZK_BACKEND_CPU;
    cuzk_engine *engine = NULL;
    cuzk_circuit *circuit = NULL;
    cuzk_witness *witnesses = NULL;
    cuzk_status st;
    int rc = 1;
    if ((st = cuzk_engine_create(&engine, &cfg)) != CUZK_OK) {
        rc = failed("cuzk_engine_create", st);
    } else if (is_zkey) {
        cuzk_witness w = {.kind = CUZK_WITNESS_WTNS, .wtns_path = argv[3]};
        if ((st = cuzk_circuit_register_zkey(engine, &circuit, "zkey", argv[2],
                                             CUZK_CHECK_CURVE)) != CUZK_OK)
            rc = failed("cuzk_circuit_register_zkey", st);
        else
            rc = prove(engine, circuit, &w, 1, &r, &s, argv[6], argv[7]);
    } else if ((st = cuzk_circuit_register_builtin(engine, &circuit, "builtin",
                                                   (unsigned)log_constraints, 8, argv[3],
                                                   CUZK_CHECK_CURVE)) != CUZK_OK) {
        rc = failed("cuzk_circuit_register_builtin", st);
    } else if (!(witnesses = calloc(partitions, sizeof(*witnesses)))) {
        fprintf(stderr, "api_prove_fixed: out of memory\n");
    } else {
        for (unsigned long i = 0; i < partitions; i++)
            witnesses[i] = (cuzk_witness){.kind = CUZK_WITNESS_SEED, .seed = seed + i};
        rc = prove(engine, circuit, witnesses, partitions, &r, &s, NULL, argv[8]);
    }
    free(witnesses);
    cuzk_circuit_release(circuit);
    cuzk_engine_destroy(engine);
    return rc;
}
