/* What sharing the queue costs per partition, on the PostgreSQL store
 * (store_cluster_ops), beside the SQLite store of one host:
 *
 *   - overhead: one host claims one partition and writes its proof, per
 *     partition: "separate", two transactions (the claim, the proof with
 *     the job's check); "combined", the claimer's steady state, one (the
 *     proof and the next claim: complete_claim); on SQLite, the proof's
 *     write alone (one transaction per partition, the single host's batch
 *     of one);
 *   - leases: H hosts (threads, a connection each) claim batches of B
 *     partitions of many small jobs and write their proofs until the
 *     queue is empty: leases per second, the rate the queue sustains.
 *
 * One JSON line per measurement:
 *   {"bench":"cluster_overhead","store":"postgresql","mode":"separate","partitions":N,
 *    "ms_per_partition":..,"claim_ms":..,"complete_ms":..}
 *   {"bench":"cluster_overhead","store":"postgresql","mode":"combined","partitions":N,
 *    "ms_per_partition":..}
 *   {"bench":"cluster_overhead","store":"sqlite","partitions":N,"ms_per_partition":..}
 *   {"bench":"cluster_leases","hosts":H,"batch":B,"partitions":N,"leases_per_s":..}
 * Each run uses a circuit name of its own, so runs on one database do not
 * see each other's jobs. bench/bench_cluster.sh starts a PostgreSQL for it.
 *
 * Usage: bench_cluster --pg URL [--partitions N] [--dir D] [--leases 0|1]
 *   N partitions for the overhead (1000), 10 per job; the lease runs use
 *   4 N (--leases 0: none). D: the SQLite store's folder's parent
 *   ($TMPDIR). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "groth16/keys.h"
#include "store/store.h"
#include "suite.h"

#define PER_JOB 10
#define LEASE_S 60.0

static double now_s(void)
{
    return (double)bench_now_ns() * 1e-9;
}

static void check(cuzk_status st, const char *msg)
{
    if (st != CUZK_OK) {
        fprintf(stderr, "bench_cluster: %s\n", msg);
        exit(1);
    }
}

static const char *url;
static uint8_t proof[GROTH16_PROOF_BYTES]; /* the jobs are BLS12-381's */
static fr_t pub[4];

/* Adds jobs of PER_JOB partitions of circuit, n partitions in all; their
 * ids into ids (when given). */
static void add_jobs(store *st, const char *circuit, unsigned n, char (*ids)[STORE_ID_CHARS + 1])
{
    char msg[512];
    store_partition in[PER_JOB] = {{0}};
    for (unsigned j = 0; j < n / PER_JOB; j++) {
        store_job job = {.priority = (engine_priority)(j % ENGINE_PRIORITY_COUNT),
                         .partitions = PER_JOB,
                         .state = ENGINE_STATE_QUEUED,
                         .submitted_at = (double)j};
        if (!store_new_id(job.id))
            check(CUZK_ERR_IO, "no random source");
        snprintf(job.circuit, sizeof(job.circuit), "%s", circuit);
        check(store_add(st, &job, in, NULL, msg, sizeof(msg)), msg);
        if (ids)
            memcpy(ids[j], job.id, sizeof(job.id));
    }
}

static store *open_pg(void)
{
    char msg[512];
    store *st;
    check(store_open_postgres(&st, url, msg, sizeof(msg)), msg);
    return st;
}

static void complete(store *st, const char *host, const store_lease *l)
{
    char msg[512];
    store_update u = {.kind = STORE_PARTITION_DONE,
                      .idx = l->idx,
                      .proof = proof,
                      .proof_len = sizeof(proof),
                      .pub = pub,
                      .num_pub = 4};
    memcpy(u.id, l->id, sizeof(u.id));
    bool finished;
    check(store_cluster(st)->complete(st, host, &u, &finished, msg, sizeof(msg)), msg);
}

static void overhead_pg(unsigned n, const char *circuit)
{
    store *st = open_pg();
    const store_cluster_ops *c = store_cluster(st);
    add_jobs(st, circuit, n, NULL);
    const char *names[] = {circuit};
    char msg[512];
    double claim_s = 0, complete_s = 0;
    unsigned done = 0;
    for (;;) {
        store_lease l;
        uint32_t got = 0;
        double t0 = now_s();
        check(c->claim(st, "bench", names, 1, 1, LEASE_S, &l, &got, msg, sizeof(msg)), msg);
        store_leases_free(&l, got);
        double t1 = now_s();
        if (!got)
            break;
        complete(st, "bench", &l);
        claim_s += t1 - t0;
        complete_s += now_s() - t1;
        done++;
    }
    store_close(st);
    if (done != n) {
        fprintf(stderr, "bench_cluster: %u of %u partitions claimed\n", done, n);
        exit(1);
    }
    printf("{\"bench\":\"cluster_overhead\",\"store\":\"postgresql\",\"mode\":\"separate\","
           "\"partitions\":%u,\"ms_per_partition\":%.3f,\"claim_ms\":%.3f,\"complete_ms\":%.3f}\n",
           n, (claim_s + complete_s) * 1e3 / n, claim_s * 1e3 / n, complete_s * 1e3 / n);
    fflush(stdout);
}

/* The claimer's steady state: each proof written with the claim of the
 * next partition in one transaction (complete_claim); the first claim
 * alone. */
static void overhead_pg_combined(unsigned n, const char *circuit)
{
    store *st = open_pg();
    const store_cluster_ops *c = store_cluster(st);
    add_jobs(st, circuit, n, NULL);
    const char *names[] = {circuit};
    char msg[512];
    store_lease l, next;
    uint32_t got = 0;
    unsigned done = 0;
    double t0 = now_s();
    check(c->claim(st, "bench", names, 1, 1, LEASE_S, &l, &got, msg, sizeof(msg)), msg);
    store_leases_free(&l, got);
    while (got) {
        store_update u = {.kind = STORE_PARTITION_DONE,
                          .idx = l.idx,
                          .proof = proof,
                          .proof_len = sizeof(proof),
                          .pub = pub,
                          .num_pub = 4};
        memcpy(u.id, l.id, sizeof(u.id));
        bool finished;
        check(c->complete_claim(st, "bench", &u, &finished, names, 1, 1, LEASE_S, &next, &got, msg,
                                sizeof(msg)),
              msg);
        store_leases_free(&next, got);
        l = next;
        done++;
    }
    double s = now_s() - t0;
    store_close(st);
    if (done != n) {
        fprintf(stderr, "bench_cluster: %u of %u partitions claimed\n", done, n);
        exit(1);
    }
    printf("{\"bench\":\"cluster_overhead\",\"store\":\"postgresql\",\"mode\":\"combined\","
           "\"partitions\":%u,\"ms_per_partition\":%.3f}\n",
           n, s * 1e3 / n);
    fflush(stdout);
}

static void overhead_sqlite(unsigned n, const char *base)
{
    char dir[4096], msg[512];
    snprintf(dir, sizeof(dir), "%s/cuzk-bench-cluster-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(dir)) {
        perror("bench_cluster: mkdtemp");
        exit(1);
    }
    store *st;
    check(store_open_sqlite(&st, dir, msg, sizeof(msg)), msg);
    char(*ids)[STORE_ID_CHARS + 1] = calloc(n / PER_JOB + 1, sizeof(*ids));
    if (!ids)
        check(CUZK_ERR_OUT_OF_MEMORY, "out of memory");
    add_jobs(st, "bench", n, ids);
    double t0 = now_s();
    for (unsigned i = 0; i < n / PER_JOB * PER_JOB; i++) {
        store_update u = {.kind = STORE_PARTITION_DONE,
                          .idx = i % PER_JOB,
                          .proof = proof,
                          .proof_len = sizeof(proof),
                          .pub = pub,
                          .num_pub = 4};
        memcpy(u.id, ids[i / PER_JOB], sizeof(u.id));
        check(store_write(st, &u, 1, msg, sizeof(msg)), msg);
    }
    double t = now_s() - t0;
    store_close(st);
    free(ids);
    printf("{\"bench\":\"cluster_overhead\",\"store\":\"sqlite\",\"partitions\":%u,"
           "\"ms_per_partition\":%.3f}\n",
           n, t * 1e3 / n);
    fflush(stdout);
    static const char *const files[] = {"jobs.sqlite", "jobs.sqlite-wal", "jobs.sqlite-shm"};
    for (size_t f = 0; f < 3; f++) {
        char path[4200];
        snprintf(path, sizeof(path), "%s/%s", dir, files[f]);
        unlink(path);
    }
    rmdir(dir);
}

typedef struct host {
    char name[32];
    const char *circuit;
    unsigned batch;
    unsigned done;
} host;

/* A host: claims batches and writes their proofs until nothing is left. */
static void *host_main(void *arg)
{
    host *h = arg;
    store *st = open_pg();
    const char *names[] = {h->circuit};
    store_lease *l = calloc(h->batch, sizeof(*l));
    char msg[512];
    for (uint32_t got = 1; l && got;) {
        check(store_cluster(st)->claim(st, h->name, names, 1, h->batch, LEASE_S, l, &got, msg,
                                       sizeof(msg)),
              msg);
        store_leases_free(l, got);
        for (uint32_t i = 0; i < got; i++)
            complete(st, h->name, &l[i]);
        h->done += got;
    }
    free(l);
    store_close(st);
    return NULL;
}

static void leases(unsigned n, unsigned hosts, unsigned batch, const char *circuit)
{
    store *st = open_pg();
    add_jobs(st, circuit, n, NULL);
    store_close(st);
    host h[16];
    pthread_t t[16];
    double t0 = now_s();
    for (unsigned i = 0; i < hosts; i++) {
        h[i] = (host){.circuit = circuit, .batch = batch};
        snprintf(h[i].name, sizeof(h[i].name), "bench-%u", i);
        if (pthread_create(&t[i], NULL, host_main, &h[i]))
            check(CUZK_ERR_IO, "cannot start a thread");
    }
    unsigned done = 0;
    for (unsigned i = 0; i < hosts; i++) {
        pthread_join(t[i], NULL);
        done += h[i].done;
    }
    double s = now_s() - t0;
    if (done < n) {
        fprintf(stderr, "bench_cluster: %u of %u partitions claimed\n", done, n);
        exit(1);
    }
    printf("{\"bench\":\"cluster_leases\",\"hosts\":%u,\"batch\":%u,\"partitions\":%u,"
           "\"leases_per_s\":%.0f}\n",
           hosts, batch, n, done / s);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    unsigned n = 1000, lease_runs = 1;
    const char *base = getenv("TMPDIR");
    url = getenv("CUZK_BENCH_PG");
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--pg"))
            url = argv[i + 1];
        else if (!strcmp(argv[i], "--partitions"))
            n = (unsigned)strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--dir"))
            base = argv[i + 1];
        else if (!strcmp(argv[i], "--leases"))
            lease_runs = (unsigned)strtoul(argv[i + 1], NULL, 10);
        else {
            fprintf(stderr, "usage: %s --pg URL [--partitions N] [--dir D] [--leases 0|1]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!url || !*url || n < PER_JOB) {
        fprintf(stderr,
                "bench_cluster: --pg URL (or CUZK_BENCH_PG) and --partitions >= %d "
                "wanted (bench/bench_cluster.sh starts a PostgreSQL)\n",
                PER_JOB);
        return 2;
    }
    n = n / PER_JOB * PER_JOB;
    memset(proof, 0x5a, sizeof(proof));
    memset(pub, 0x17, sizeof(pub));
    char run[64], circuit[96];
    snprintf(run, sizeof(run), "bench-%ld-%ld", (long)getpid(), (long)time(NULL));
    snprintf(circuit, sizeof(circuit), "%s-overhead", run);
    overhead_pg(n, circuit);
    snprintf(circuit, sizeof(circuit), "%s-combined", run);
    overhead_pg_combined(n, circuit);
    overhead_sqlite(n, base);
    if (!lease_runs)
        return 0;
    static const unsigned hosts[] = {1, 2, 4, 8}, batches[] = {1, 8};
    for (size_t b = 0; b < 2; b++)
        for (size_t k = 0; k < 4; k++) {
            snprintf(circuit, sizeof(circuit), "%s-leases-%u-%u", run, hosts[k], batches[b]);
            leases(4 * n, hosts[k], batches[b], circuit);
        }
    return 0;
}
