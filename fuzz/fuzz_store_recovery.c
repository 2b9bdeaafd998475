/* The job store's recovery (store/sqlite_store.c, service/durable.c): a
 * jobs.sqlite whose rows say anything at all (states, priorities and
 * curves out of range, partition counts that disagree with the partition rows, ids of
 * any shape, blobs of any length, duplicated or missing partitions) is
 * opened the way `cuzk serve` opens it at start, recovered into an engine,
 * and every job it lists is read back as the routes would. Recovery may
 * refuse the file with a message; it must not crash, hang or leak.
 *
 * The input is read as a little program of rows: a job count, then per
 * job its columns and a partition count, then per partition its columns;
 * each field takes the next bytes (zeros once the input runs out). The
 * engine has no circuits, so every unfinished job fails "interrupted by a
 * restart" and no file a row names is opened. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "fuzz/fuzz.h"

#include <sqlite3.h>

#include "fuzz/fuzz_service.h"
#include "service/durable.h"
#include "service/ledger.h"

static engine_t *engine;
static const char *state_dir;
static char db_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    engine = fuzz_small_engine();
    state_dir = fuzz_store_dir_make();
    snprintf(db_path, sizeof(db_path), "%s/jobs.sqlite", state_dir);
    return 0;
}

/* The input as a stream of fields. */
typedef struct reader {
    const uint8_t *p, *end;
} reader;

static uint64_t take(reader *r, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)(r->p < r->end ? *r->p++ : 0) << (8 * i);
    return v;
}

/* A byte string of up to max bytes (its length first); NULL when the
 * length byte says so (255), for the nullable columns. */
static const uint8_t *take_bytes(reader *r, size_t max, size_t *len)
{
    const uint64_t l = take(r, 1);
    if (l == 255) {
        *len = 0;
        return NULL;
    }
    size_t n = (size_t)l % (max + 1);
    if (n > (size_t)(r->end - r->p))
        n = (size_t)(r->end - r->p);
    const uint8_t *s = r->p;
    r->p += n;
    *len = n;
    return s;
}

/* A job id: mostly the right shape (32 hex digits), from the next bytes. */
static void take_id(reader *r, char id[STORE_ID_CHARS + 1])
{
    static const char hex[] = "0123456789abcdef";
    const uint64_t shape = take(r, 1);
    for (int i = 0; i < STORE_ID_CHARS; i++)
        id[i] = shape < 240 ? hex[take(r, 1) & 15] : (char)(0x20 + take(r, 1) % 95);
    id[shape % 7 == 6 ? shape % STORE_ID_CHARS : STORE_ID_CHARS] = 0;
}

static void bind_text_or_null(sqlite3_stmt *q, int col, const uint8_t *s, size_t len)
{
    if (s)
        sqlite3_bind_text(q, col, (const char *)s, (int)len, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, col);
}

static void bind_blob_or_null(sqlite3_stmt *q, int col, const uint8_t *s, size_t len)
{
    if (s)
        sqlite3_bind_blob(q, col, s, (int)len, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, col);
}

/* The rows the input describes, written with the store's own schema. */
static void write_rows(reader *r)
{
    sqlite3 *db = NULL;
    FUZZ_CHECK(sqlite3_open(db_path, &db) == SQLITE_OK);
    sqlite3_stmt *qj = NULL, *qp = NULL;
    FUZZ_CHECK(sqlite3_prepare_v2(db,
                                  "INSERT OR IGNORE INTO jobs (id, idem_key, circuit, priority,"
                                  " partitions, timeout_s, blinding, state, message, submitted_at,"
                                  " finished_at, curve) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                                  -1, &qj, NULL) == SQLITE_OK);
    FUZZ_CHECK(sqlite3_prepare_v2(db,
                                  "INSERT OR IGNORE INTO partitions (job, idx, seed, wtns_path,"
                                  " witness, state, proof, public) VALUES (?,?,?,?,?,?,?,?)",
                                  -1, &qp, NULL) == SQLITE_OK);
    sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
    static const char *const circuits[] = {"p10", "chain", "", "no such circuit"};
    const unsigned jobs = (unsigned)take(r, 1) % 6;
    for (unsigned j = 0; j < jobs && r->p < r->end; j++) {
        char id[STORE_ID_CHARS + 1];
        take_id(r, id);
        size_t key_len, blind_len, msg_len;
        const uint8_t *key = take_bytes(r, STORE_KEY_MAX + 2, &key_len);
        sqlite3_bind_text(qj, 1, id, -1, SQLITE_TRANSIENT);
        bind_text_or_null(qj, 2, key, key_len);
        sqlite3_bind_text(qj, 3, circuits[take(r, 1) % 4], -1, SQLITE_STATIC);
        sqlite3_bind_int64(qj, 4, (int64_t)(int32_t)take(r, 4));
        sqlite3_bind_int64(qj, 5, (int64_t)(int32_t)take(r, 4));
        sqlite3_bind_double(qj, 6, (double)(int16_t)take(r, 2));
        const uint8_t *blind = take_bytes(r, 80, &blind_len);
        bind_blob_or_null(qj, 7, blind, blind_len);
        sqlite3_bind_int64(qj, 8, (int64_t)(int32_t)take(r, 4));
        const uint8_t *m = take_bytes(r, 300, &msg_len);
        bind_text_or_null(qj, 9, m ? m : (const uint8_t *)"", m ? msg_len : 0);
        sqlite3_bind_double(qj, 10, (double)(int64_t)take(r, 5));
        sqlite3_bind_double(qj, 11, (double)(int64_t)take(r, 5));
        /* either curve, or one that is neither's (a damaged row) */
        sqlite3_bind_int64(qj, 12, (int64_t)(take(r, 1) % 4) - 1);
        sqlite3_step(qj);
        sqlite3_reset(qj);
        const unsigned parts = (unsigned)take(r, 1) % 5;
        for (unsigned k = 0; k < parts; k++) {
            size_t path_len, wit_len, proof_len, pub_len;
            sqlite3_bind_text(qp, 1, id, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int64(qp, 2, (int64_t)(int32_t)take(r, 4));
            sqlite3_bind_int64(qp, 3, (int64_t)take(r, 8));
            const uint8_t *path = take_bytes(r, 64, &path_len);
            bind_text_or_null(qp, 4, path, path_len);
            const uint8_t *wit = take_bytes(r, 200, &wit_len);
            bind_blob_or_null(qp, 5, wit, wit_len);
            sqlite3_bind_int64(qp, 6, (int64_t)(int32_t)take(r, 4));
            const uint8_t *proof = take_bytes(r, 200, &proof_len);
            bind_blob_or_null(qp, 7, proof, proof_len);
            const uint8_t *pub = take_bytes(r, 130, &pub_len);
            bind_blob_or_null(qp, 8, pub, pub_len);
            sqlite3_step(qp);
            sqlite3_reset(qp);
        }
    }
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_finalize(qj);
    sqlite3_finalize(qp);
    sqlite3_close(db);
}

/* The listed jobs' ids (the list's callback runs under the store's lock,
 * so each is read back afterwards, as a route reads it). */
typedef struct listed {
    char ids[64][STORE_ID_CHARS + 1];
    unsigned n;
} listed;

static bool collect(void *ctx, const store_job *job)
{
    listed *l = ctx;
    memcpy(l->ids[l->n], job->id, sizeof(l->ids[0]));
    return ++l->n < 64;
}

static void quiet(void *ctx, const char *line)
{
    (void)ctx;
    (void)line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_store_files_remove(false);
    char msg[512];
    /* The schema, made by the store itself. */
    store *fresh = NULL;
    FUZZ_CHECK(store_open_sqlite(&fresh, state_dir, msg, sizeof(msg)) == CUZK_OK);
    store_close(fresh);
    reader r = {data, data + size};
    write_rows(&r);

    ledger queued;
    ledger_init(&queued, 16, 256, 1 << 20);
    durable_opts o = {.state_dir = state_dir,
                      .engine = engine,
                      .queued = &queued,
                      .keep_finished = 1 + size % 4,
                      .keep_finished_s = (double)(size % 3) * 3600.0,
                      .log = quiet};
    durable *d = NULL;
    if (durable_open(&d, &o, msg, sizeof(msg)) == CUZK_OK) {
        static listed l;
        l.n = 0;
        store *st = durable_store(d);
        store_list(st, collect, &l, msg, sizeof(msg));
        for (unsigned i = 0; i < l.n; i++) {
            store_job row;
            store_partition *parts = NULL;
            if (store_get(st, l.ids[i], &row, &parts, msg, sizeof(msg)) == CUZK_OK)
                store_partitions_free(parts, row.partitions);
        }
        durable_close(d);
    } else {
        FUZZ_CHECK(msg[0] != 0); /* a refusal says why */
    }
    ledger_destroy(&queued);
    /* Jobs recovered into the engine and failed there are forgotten, so
     * the engine does not grow from input to input. */
    engine_job_info infos[64];
    size_t n = engine_list_jobs(engine, infos, 64);
    for (size_t i = 0; i < n; i++)
        engine_forget(engine, infos[i].id);
    return 0;
}
