/* The job store's checks that every implementation passes, shared by
 * test_store_sqlite.c and store_pg_checks.c: ids and keys; a job and its
 * partitions' inputs round-trip; an idempotency key makes one job;
 * batched updates (proofs, public inputs, final states) and what a final
 * state drops (witnesses, blinding); a reopened store has everything;
 * expiry by count and by age; a job's curve sizes its proofs (a BN254
 * job's 256-byte proof round-trips; a proof of the other curve's size is
 * refused naming the job and the partition, and a batch holding one
 * writes nothing). The including file defines open_store (a
 * fresh handle on the store under test, failing the test when it cannot)
 * and includes cmocka first. */
#ifndef CUZK_TESTS_STORE_CHECKS_H
#define CUZK_TESTS_STORE_CHECKS_H

#include <stdio.h>
#include <string.h>

#include "groth16/keys.h"
#include "store/store.h"

static char msg[512];

static void ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

static store *open_store(void);

static void fill(fr_t *v, size_t n, uint8_t tag)
{
    memset(v, tag, n * sizeof(fr_t));
}

/* A job of 3 partitions: a seed, a path, a witness; blinding; a key. */
static void add_job(store *st, store_job *job, const char *key, double at)
{
    memset(job, 0, sizeof(*job));
    assert_true(store_new_id(job->id));
    snprintf(job->key, sizeof(job->key), "%s", key ? key : "");
    snprintf(job->circuit, sizeof(job->circuit), "p10");
    job->priority = ENGINE_PRIORITY_HIGH;
    job->partitions = 3;
    job->timeout_s = 12.5;
    job->has_blinding = true;
    fill(&job->r, 1, 0x11);
    fill(&job->s, 1, 0x22);
    job->state = ENGINE_STATE_QUEUED;
    job->submitted_at = at;
    fr_t w[5];
    fill(w, 5, 0x33);
    store_partition parts[3] = {
        {.seed = 77}, {.wtns_path = "/some/w.wtns"}, {.witness = w, .witness_len = 5}};
    char existing[STORE_ID_CHARS + 1];
    ok(store_add(st, job, parts, existing, msg, sizeof(msg)));
}

static void test_ids_and_keys(void **state)
{
    (void)state;
    char a[STORE_ID_CHARS + 1], b[STORE_ID_CHARS + 1];
    assert_true(store_new_id(a));
    assert_true(store_new_id(b));
    assert_true(store_id_valid(a));
    assert_string_not_equal(a, b);
    assert_int_equal(strlen(a), 32);
    assert_false(store_id_valid("3"));
    assert_false(store_id_valid("0123456789ABCDEF0123456789abcdef"));
    assert_false(store_id_valid("0123456789abcdef0123456789abcdef0"));
    assert_true(store_id_valid("0123456789abcdef0123456789abcdef"));
    assert_true(store_key_valid("order-17"));
    assert_false(store_key_valid(""));
    assert_false(store_key_valid("a b"));
    assert_false(store_key_valid("a\nb"));
    char long_key[STORE_KEY_MAX + 2];
    memset(long_key, 'k', sizeof(long_key) - 1);
    long_key[sizeof(long_key) - 1] = 0;
    assert_false(store_key_valid(long_key));
}

static void test_round_trip(void **state)
{
    (void)state;
    store *st = open_store();
    store_job job, got;
    add_job(st, &job, "key-1", 1000.0);
    store_partition *parts;
    ok(store_get(st, job.id, &got, &parts, msg, sizeof(msg)));
    assert_string_equal(got.id, job.id);
    assert_string_equal(got.key, "key-1");
    assert_string_equal(got.circuit, "p10");
    assert_int_equal(got.priority, ENGINE_PRIORITY_HIGH);
    assert_int_equal(got.partitions, 3);
    assert_true(got.timeout_s == 12.5);
    assert_true(got.has_blinding);
    assert_memory_equal(&got.r, &job.r, sizeof(fr_t));
    assert_memory_equal(&got.s, &job.s, sizeof(fr_t));
    assert_int_equal(got.state, ENGINE_STATE_QUEUED);
    assert_int_equal(got.partitions_done, 0);
    assert_true(got.submitted_at == 1000.0);
    assert_int_equal(parts[0].seed, 77);
    assert_null(parts[0].wtns_path);
    assert_string_equal(parts[1].wtns_path, "/some/w.wtns");
    assert_int_equal(parts[2].witness_len, 5);
    fr_t w[5];
    fill(w, 5, 0x33);
    assert_memory_equal(parts[2].witness, w, sizeof(w));
    for (int i = 0; i < 3; i++)
        assert_int_equal(parts[i].state, ENGINE_STATE_QUEUED);
    store_partitions_free(parts, got.partitions);

    /* The key is taken: a second job with it is not added. */
    store_job again = job;
    assert_true(store_new_id(again.id));
    char existing[STORE_ID_CHARS + 1] = "";
    store_partition none[3] = {{0}};
    assert_int_equal(store_add(st, &again, none, existing, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_string_equal(existing, job.id);
    assert_int_equal(store_get(st, again.id, &got, NULL, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    char found[STORE_ID_CHARS + 1];
    assert_true(store_find_key(st, "key-1", found));
    assert_string_equal(found, job.id);
    assert_false(store_find_key(st, "key-2", found));
    assert_int_equal(
        store_get(st, "0123456789abcdef0123456789abcdef", &got, NULL, msg, sizeof(msg)),
        CUZK_ERR_INVALID_ARGUMENT);
    store_close(st);
}

static void test_updates_and_reopen(void **state)
{
    (void)state;
    store *st = open_store();
    store_job job, got;
    add_job(st, &job, NULL, 2000.0);
    uint8_t proof[2][GROTH16_PROOF_BYTES];
    memset(proof[0], 0xa0, GROTH16_PROOF_BYTES);
    memset(proof[1], 0xa2, GROTH16_PROOF_BYTES);
    fr_t pub[2][2];
    fill(pub[0], 2, 0x40);
    fill(pub[1], 2, 0x42);
    store_update u[3] = {
        {.kind = STORE_PARTITION_DONE,
         .idx = 0,
         .proof = proof[0],
         .proof_len = GROTH16_PROOF_BYTES,
         .pub = pub[0],
         .num_pub = 2},
        {.kind = STORE_PARTITION_DONE,
         .idx = 2,
         .proof = proof[1],
         .proof_len = GROTH16_PROOF_BYTES,
         .pub = pub[1],
         .num_pub = 2},
        /* an update of a job the store does not have is skipped */
        {.kind = STORE_PARTITION_DONE,
         .idx = 0,
         .proof = proof[0],
         .proof_len = GROTH16_PROOF_BYTES,
         .pub = pub[0],
         .num_pub = 2},
    };
    memcpy(u[0].id, job.id, sizeof(job.id));
    memcpy(u[1].id, job.id, sizeof(job.id));
    snprintf(u[2].id, sizeof(u[2].id), "ffffffffffffffffffffffffffffffff");
    ok(store_write(st, u, 3, msg, sizeof(msg)));
    store_partition *parts;
    ok(store_get(st, job.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.partitions_done, 2);
    assert_int_equal(got.state, ENGINE_STATE_QUEUED);
    assert_int_equal(parts[0].state, ENGINE_STATE_DONE);
    assert_int_equal(parts[1].state, ENGINE_STATE_QUEUED);
    assert_int_equal(parts[2].state, ENGINE_STATE_DONE);
    assert_memory_equal(parts[2].proof, proof[1], GROTH16_PROOF_BYTES);
    assert_int_equal(parts[2].num_pub, 2);
    assert_memory_equal(parts[2].pub, pub[1], sizeof(pub[1]));
    assert_non_null(parts[2].witness); /* kept until final */
    store_partitions_free(parts, got.partitions);
    store_close(st);

    /* Reopened: the same; then final, which drops the witness and the
     * blinding and leaves the unproved partition cancelled. */
    st = open_store();
    ok(store_get(st, job.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.partitions_done, 2);
    assert_memory_equal(parts[0].proof, proof[0], GROTH16_PROOF_BYTES);
    store_partitions_free(parts, got.partitions);
    store_update fin = {.kind = STORE_JOB_FINAL,
                        .state = ENGINE_STATE_FAILED,
                        .message = "partition 1: it broke",
                        .at = 2001.0};
    memcpy(fin.id, job.id, sizeof(job.id));
    ok(store_write(st, &fin, 1, msg, sizeof(msg)));
    ok(store_get(st, job.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.state, ENGINE_STATE_FAILED);
    assert_string_equal(got.message, "partition 1: it broke");
    assert_true(got.finished_at == 2001.0);
    assert_false(got.has_blinding);
    assert_null(parts[2].witness);
    assert_string_equal(parts[1].wtns_path, "/some/w.wtns");
    assert_int_equal(parts[1].state, ENGINE_STATE_CANCELLED);
    assert_int_equal(parts[2].state, ENGINE_STATE_DONE);
    store_partitions_free(parts, got.partitions);
    store_close(st);
}

typedef struct seen {
    char ids[16][STORE_ID_CHARS + 1];
    size_t n;
} seen;

static bool see(void *ctx, const store_job *job)
{
    seen *s = ctx;
    if (s->n < 16)
        memcpy(s->ids[s->n++], job->id, STORE_ID_CHARS + 1);
    return true;
}

static void finish(store *st, const store_job *job, double at)
{
    store_update fin = {.kind = STORE_JOB_FINAL, .state = ENGINE_STATE_DONE, .at = at};
    memcpy(fin.id, job->id, sizeof(job->id));
    ok(store_write(st, &fin, 1, msg, sizeof(msg)));
}

static void test_list_and_expire(void **state)
{
    (void)state;
    store *st = open_store();
    store_job j[5];
    for (int i = 0; i < 5; i++)
        add_job(st, &j[i], NULL, 100.0 + i);
    finish(st, &j[0], 200.0);
    finish(st, &j[1], 300.0);
    finish(st, &j[2], 400.0);
    /* j[3], j[4] unfinished: never expired. */
    seen all = {0};
    ok(store_list(st, see, &all, msg, sizeof(msg)));
    assert_int_equal(all.n, 5);
    for (int i = 0; i < 5; i++)
        assert_string_equal(all.ids[i], j[i].id);

    /* By age: finished before 250. */
    seen gone = {0};
    ok(store_expire(st, 250.0, 100, see, &gone, msg, sizeof(msg)));
    assert_int_equal(gone.n, 1);
    assert_string_equal(gone.ids[0], j[0].id);
    /* By count: the newest final one stays. */
    memset(&gone, 0, sizeof(gone));
    ok(store_expire(st, 0, 1, see, &gone, msg, sizeof(msg)));
    assert_int_equal(gone.n, 1);
    assert_string_equal(gone.ids[0], j[1].id);
    seen left = {0};
    ok(store_list(st, see, &left, msg, sizeof(msg)));
    assert_int_equal(left.n, 3);
    assert_string_equal(left.ids[0], j[2].id);
    store_job got;
    assert_int_equal(store_get(st, j[0].id, &got, NULL, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    store_close(st);
}

/* A BN254 job of two seeded partitions. */
static void add_bn254_job(store *st, store_job *job)
{
    memset(job, 0, sizeof(*job));
    assert_true(store_new_id(job->id));
    snprintf(job->circuit, sizeof(job->circuit), "chain-bn254");
    job->curve = CURVE_BN254;
    job->priority = ENGINE_PRIORITY_NORMAL;
    job->partitions = 2;
    job->state = ENGINE_STATE_QUEUED;
    job->submitted_at = 3000.0;
    store_partition parts[2] = {{.seed = 1}, {.seed = 2}};
    ok(store_add(st, job, parts, NULL, msg, sizeof(msg)));
}

static void test_bn254_proofs(void **state)
{
    (void)state;
    store *st = open_store();
    store_job bn, bls, got;
    add_bn254_job(st, &bn);
    add_job(st, &bls, NULL, 3001.0);
    uint8_t proof[BN254_PROOF_BYTES];
    for (size_t i = 0; i < sizeof(proof); i++)
        proof[i] = (uint8_t)(i * 7 + 1);
    fr_t pub;
    fill(&pub, 1, 0x61);
    store_update u = {.kind = STORE_PARTITION_DONE,
                      .idx = 0,
                      .proof = proof,
                      .proof_len = BN254_PROOF_BYTES,
                      .pub = &pub,
                      .num_pub = 1};
    memcpy(u.id, bn.id, sizeof(u.id));
    ok(store_write(st, &u, 1, msg, sizeof(msg)));

    /* BLS12-381's size for the BN254 job: refused, naming it */
    store_update wrong = u;
    wrong.idx = 1;
    wrong.proof_len = GROTH16_PROOF_BYTES;
    assert_int_equal(store_write(st, &wrong, 1, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, bn.id));
    assert_non_null(strstr(msg, "partition 1: a proof of 192 bytes"));
    assert_non_null(strstr(msg, "bn128, whose proofs are 256 bytes"));
    /* BN254's size for the BLS12-381 job, batched after a good update:
     * the batch is one transaction, so the good one is not written
     * either */
    store_update batch[2] = {u, u};
    batch[0].idx = 1;
    memcpy(batch[1].id, bls.id, sizeof(bls.id));
    assert_int_equal(store_write(st, batch, 2, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, bls.id));
    assert_non_null(strstr(msg, "a proof of 256 bytes"));
    assert_non_null(strstr(msg, "bls12381, whose proofs are 192 bytes"));
    store_close(st);

    /* Reopened: the BN254 job keeps its curve and its one proof whole. */
    st = open_store();
    store_partition *parts;
    ok(store_get(st, bn.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.curve, CURVE_BN254);
    assert_int_equal(got.partitions_done, 1);
    assert_int_equal(parts[0].state, ENGINE_STATE_DONE);
    assert_int_equal(parts[0].proof_len, BN254_PROOF_BYTES);
    assert_memory_equal(parts[0].proof, proof, BN254_PROOF_BYTES);
    assert_int_equal(parts[0].num_pub, 1);
    assert_memory_equal(parts[0].pub, &pub, sizeof(pub));
    assert_int_equal(parts[1].state, ENGINE_STATE_QUEUED);
    assert_int_equal(parts[1].proof_len, 0);
    store_partitions_free(parts, got.partitions);
    ok(store_get(st, bls.id, &got, &parts, msg, sizeof(msg)));
    assert_int_equal(got.curve, CURVE_BLS12_381);
    assert_int_equal(got.partitions_done, 0);
    store_partitions_free(parts, got.partitions);
    store_close(st);
}

#endif
