/* What the job store adds per partition, as the service uses it: each job
 * added in its own transaction (durable before its id is answered), its
 * partitions' proofs (192 bytes and the public inputs each) written in
 * batches of B updates per transaction (as the service's writer commits
 * what queued while the last commit ran), then its final state. The
 * store's file lies in a fresh folder (under $TMPDIR, or --dir).
 *
 * Prints one JSON line per batch size:
 *   {"bench":"store","jobs":J,"partitions":N,"batch":B,"us_per_partition":..}
 * where us_per_partition is the whole time (adds, updates, finals)
 * divided by the partitions.
 *
 * Usage: bench_store [--jobs J] [--partitions P] [--public K] [--dir D]
 *   J jobs of P partitions (100 × 10), K public inputs each (4). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "groth16/keys.h"
#include "store/store.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void check(cuzk_status st, const char *msg)
{
    if (st != CUZK_OK) {
        fprintf(stderr, "bench_store: %s\n", msg);
        exit(1);
    }
}

/* One run: J jobs of P partitions, updates in batches of B; seconds. */
static double run(store *st, unsigned jobs, unsigned parts, unsigned pub, unsigned batch)
{
    char msg[512];
    store_partition *in = calloc(parts, sizeof(*in));
    store_update *u = calloc(batch, sizeof(*u));
    uint8_t proof[GROTH16_PROOF_BYTES]; /* the jobs are BLS12-381's */
    fr_t *values = calloc(pub ? pub : 1, sizeof(fr_t));
    if (!in || !u || !values) {
        fprintf(stderr, "bench_store: out of memory\n");
        exit(1);
    }
    memset(proof, 0x5a, sizeof(proof));
    memset(values, 0x17, (pub ? pub : 1) * sizeof(fr_t));
    for (unsigned i = 0; i < parts; i++)
        in[i].seed = i;
    double t0 = now_s();
    for (unsigned j = 0; j < jobs; j++) {
        store_job job = {.priority = ENGINE_PRIORITY_NORMAL,
                         .partitions = parts,
                         .state = ENGINE_STATE_QUEUED,
                         .submitted_at = (double)j};
        if (!store_new_id(job.id))
            check(CUZK_ERR_IO, "no random source");
        snprintf(job.circuit, sizeof(job.circuit), "bench");
        check(store_add(st, &job, in, NULL, msg, sizeof(msg)), msg);
        unsigned n = 0;
        for (unsigned i = 0; i < parts; i++) {
            u[n] = (store_update){.kind = STORE_PARTITION_DONE,
                                  .idx = i,
                                  .proof = proof,
                                  .proof_len = sizeof(proof),
                                  .pub = values,
                                  .num_pub = pub};
            memcpy(u[n].id, job.id, sizeof(job.id));
            if (++n == batch) {
                check(store_write(st, u, n, msg, sizeof(msg)), msg);
                n = 0;
            }
        }
        if (n)
            check(store_write(st, u, n, msg, sizeof(msg)), msg);
        store_update fin = {.kind = STORE_JOB_FINAL, .state = ENGINE_STATE_DONE, .at = 1};
        memcpy(fin.id, job.id, sizeof(job.id));
        check(store_write(st, &fin, 1, msg, sizeof(msg)), msg);
    }
    double t = now_s() - t0;
    free(in);
    free(u);
    free(values);
    return t;
}

int main(int argc, char **argv)
{
    unsigned jobs = 100, parts = 10, pub = 4;
    const char *base = getenv("TMPDIR");
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--jobs"))
            jobs = (unsigned)strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--partitions"))
            parts = (unsigned)strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--public"))
            pub = (unsigned)strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--dir"))
            base = argv[i + 1];
        else {
            fprintf(stderr, "usage: %s [--jobs J] [--partitions P] [--public K] [--dir D]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!jobs || !parts) {
        fprintf(stderr, "bench_store: --jobs and --partitions want at least 1\n");
        return 2;
    }
    static const unsigned batches[] = {1, 8, 64};
    for (size_t b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
        char dir[4096];
        snprintf(dir, sizeof(dir), "%s/cuzk-bench-store-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(dir)) {
            perror("bench_store: mkdtemp");
            return 1;
        }
        char msg[512];
        store *st;
        check(store_open_sqlite(&st, dir, msg, sizeof(msg)), msg);
        double t = run(st, jobs, parts, pub, batches[b]);
        store_close(st);
        printf("{\"bench\":\"store\",\"jobs\":%u,\"partitions\":%u,\"batch\":%u,"
               "\"us_per_partition\":%.2f}\n",
               jobs, jobs * parts, batches[b], t * 1e6 / ((double)jobs * parts));
        fflush(stdout);
        char path[4200];
        static const char *const files[] = {"jobs.sqlite", "jobs.sqlite-wal", "jobs.sqlite-shm"};
        for (size_t f = 0; f < 3; f++) {
            snprintf(path, sizeof(path), "%s/%s", dir, files[f]);
            unlink(path);
        }
        rmdir(dir);
    }
    return 0;
}
