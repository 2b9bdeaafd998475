/* Proves from full assignments the caller holds in memory, the way a
 * program that synthesizes its own circuit hands its values to libcuzk:
 *
 *   prove_assignments circuit.zkey witness.wtns proof.json public.json [partitions]
 *
 * The assignment comes from a .wtns file, read here by a small reader of
 * its own (a .wtns holds exactly the API's layout: ONE, the public values,
 * the private ones, each a 32-byte little-endian integer below r), and is
 * proved as N partitions (default 2) of one job. The proofs are checked
 * against the circuit with the job's public inputs, and partition 0 is
 * written as snarkjs's proof.json and public.json.
 *
 * A circuit synthesized elsewhere with bellman parameters takes the other
 * door: cuzk_circuit_register_external with its counts and densities, and
 * witnesses of kind CUZK_WITNESS_BELLMAN (input and aux assignments with
 * a, b, c), as bellperson hands them to a C prover (docs/API.md).
 *
 * Uses nothing but the installed header; build with the Makefile beside it.
 * Exit codes: 0 proved and verified, 1 failed, 2 bad command line. */
#include <cuzk/cuzk.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* The values of an iden3 "wtns" file: a header ("wtns", version, section
 * count), then sections (u32 type, u64 size): 1 = u32 n8, the prime (n8
 * bytes), u32 count; 2 = count values of n8 bytes. */
static cuzk_fr *read_wtns(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long size = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)size)) &&
        fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    if (!buf) {
        fprintf(stderr, "prove_assignments: cannot read %s\n", path);
        return NULL;
    }
    cuzk_fr *values = NULL;
    size_t n = (size_t)size, pos = 12, want = 0;
    const unsigned char *vals = NULL;
    if (n < 12 || memcmp(buf, "wtns", 4) != 0)
        goto bad;
    for (uint32_t s = 0, ns = le32(buf + 8); s < ns; s++) {
        if (pos + 12 > n)
            goto bad;
        uint32_t type = le32(buf + pos);
        uint64_t len = le64(buf + pos + 4);
        pos += 12;
        if (len > n - pos)
            goto bad;
        if (type == 1) {
            if (len < 4 || le32(buf + pos) != CUZK_FR_BYTES || len != 4 + CUZK_FR_BYTES + 4) {
                fprintf(stderr, "prove_assignments: %s: not a BLS12-381 witness\n", path);
                goto out;
            }
            want = le32(buf + pos + 4 + CUZK_FR_BYTES);
        } else if (type == 2) {
            vals = buf + pos;
            if (len != (uint64_t)want * CUZK_FR_BYTES)
                goto bad;
        }
        pos += (size_t)len;
    }
    if (!vals || !want || !(values = malloc(want * sizeof(cuzk_fr))))
        goto bad;
    memcpy(values, vals, want * sizeof(cuzk_fr)); /* the API's layout as is */
    *count = want;
    goto out;
bad:
    fprintf(stderr, "prove_assignments: %s: not a .wtns file (or damaged)\n", path);
out:
    free(buf);
    return values;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        fprintf(stderr, "prove_assignments: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr,
                "usage: %s circuit.zkey witness.wtns proof.json public.json "
                "[partitions]\n",
                argv[0]);
        return 2;
    }
    size_t parts = argc == 6 ? strtoul(argv[5], NULL, 10) : 2;
    if (parts < 1 || parts > 64) {
        fprintf(stderr, "prove_assignments: partitions: 1 to 64\n");
        return 2;
    }
    size_t count = 0;
    cuzk_fr *assignment = read_wtns(argv[2], &count);
    if (!assignment)
        return 1;

    cuzk_engine_config cfg;
    cuzk_engine_config_init(&cfg);
    cuzk_engine *engine = NULL;
    cuzk_circuit *circuit = NULL;
    cuzk_job *job = NULL;
    cuzk_witness *w = calloc(parts, sizeof(*w));
    uint8_t *proof = malloc(parts * CUZK_PROOF_BYTES);
    cuzk_fr *inputs = NULL;
    char *proof_json = NULL, *public_json = NULL;
    int rc = 1;
    if (!w || !proof) {
        fprintf(stderr, "prove_assignments: out of memory\n");
        goto done;
    }
    if (cuzk_engine_create(&engine, &cfg) != CUZK_OK ||
        cuzk_circuit_register_zkey(engine, &circuit, "example", argv[1], CUZK_CHECK_CURVE) !=
            CUZK_OK)
        goto fail;

    uint64_t witness_len, num_public;
    if (cuzk_circuit_shape(circuit, &witness_len, &num_public) != CUZK_OK)
        goto fail;
    if (witness_len != count) {
        fprintf(stderr, "prove_assignments: %s has %zu values, %s expects %llu\n", argv[2], count,
                argv[1], (unsigned long long)witness_len);
        goto done;
    }
    for (size_t i = 0; i < parts; i++)
        w[i] = (cuzk_witness){
            .kind = CUZK_WITNESS_ASSIGNMENT, .assignment = assignment, .assignment_len = count};
    cuzk_job_state state;
    if (cuzk_job_submit(engine, &job, circuit, w, parts, NULL) != CUZK_OK ||
        cuzk_job_wait(job, &state, -1) != CUZK_OK)
        goto fail;
    if (state != CUZK_JOB_DONE) {
        fprintf(stderr, "prove_assignments: the job did not finish: %s\n", cuzk_last_error());
        goto done;
    }
    size_t proof_len = parts * CUZK_PROOF_BYTES, inputs_len = parts * num_public;
    if (!(inputs = malloc((inputs_len ? inputs_len : 1) * sizeof(cuzk_fr)))) {
        fprintf(stderr, "prove_assignments: out of memory\n");
        goto done;
    }
    if (cuzk_job_proof(job, proof, &proof_len) != CUZK_OK ||
        cuzk_job_public_inputs(job, inputs, &inputs_len) != CUZK_OK ||
        cuzk_circuit_verify(circuit, proof, proof_len, inputs, inputs_len) != CUZK_OK ||
        cuzk_job_snarkjs(job, &proof_json, &public_json, 0) != CUZK_OK)
        goto fail;
    if (write_text(argv[3], proof_json) != 0 || write_text(argv[4], public_json) != 0)
        goto done;
    printf("OK: %zu partition proofs (%zu bytes) verified; partition 0 in %s, %s\n", parts,
           proof_len, argv[3], argv[4]);
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "prove_assignments: %s\n", cuzk_last_error());
done:
    cuzk_free(proof_json);
    cuzk_free(public_json);
    cuzk_job_destroy(job);
    cuzk_circuit_release(circuit);
    cuzk_engine_destroy(engine);
    free(inputs);
    free(proof);
    free(w);
    free(assignment);
    return rc;
}
