/* The endpoints (docs/SERVICE.md): jobs, circuits, status, metrics. Each
 * handler answers from the engine's thread-safe API; nothing here holds a
 * lock across a call, so a slow or vanished client touches only itself. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "service/internal.h"
#include "service/proof_format.h"
#include "service/request.h"
#include "service/snarkjs_view.h"
#include "service/spill.h"
#include "util/input_file.h"
#include "util/msg.h"
#include "util/wipe.h"

/* What the engine holds for one partition of an unfinished job besides
 * its witness (its record, with the prover's sums): an estimate, for
 * server.max_queued_bytes. */
#define PARTITION_RECORD_BYTES 1024
/* Seconds a client is told to wait when a queue bound is reached. */
#define QUEUE_RETRY_AFTER_S 5

/* ---------------------------------------------------------- responses */

static void reply_json(http_response *rs, unsigned status, json_t *o)
{
    if (!o) {
        http_error(rs, 503, NULL, "out of memory");
        return;
    }
    free(rs->body);
    rs->body = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(o);
    if (!rs->body) {
        http_error(rs, 503, NULL, "out of memory");
        return;
    }
    rs->len = strlen(rs->body);
    rs->status = status;
    rs->content_type = "application/json";
}

static void reply_request_error(http_response *rs, const request_error *err)
{
    http_error(rs, err->status, err->field[0] ? err->field : NULL, "%s", err->message);
}

static void method_not_allowed(http_response *rs, const http_request *rq, const char *allowed)
{
    http_error(rs, 405, NULL, "%s is not allowed on %s (allowed: %s)", rq->method, rq->path,
               allowed);
}

static bool no_query(const http_request *rq, http_response *rs, const char *const *allowed)
{
    static const char *const none[] = {NULL};
    const char *unknown = http_query_unknown(rq, allowed ? allowed : none);
    if (unknown) {
        http_error(rs, 400, unknown, "unknown query argument '%s'", unknown);
        return false;
    }
    return true;
}

/* --------------------------------------------------------------- jobs */

/* A job by public id: the engine's record while it knows the job, else
 * the store's (finished before a restart, or forgotten by the engine). */
typedef struct job_at {
    char id[STORE_ID_CHARS + 1];
    uint64_t eid;
    bool live; /* in the engine */
    engine_job_info info;
    job_times t;
} job_at;

/* false: 404 answered. */
static bool find_job(service *s, const char *id, job_at *j, http_response *rs)
{
    memset(j, 0, sizeof(*j));
    snprintf(j->id, sizeof(j->id), "%s", id);
    j->t.id = j->id;
    /* Shared, the store is asked below: no map to look in. */
    if (!durable_shared(s->jobs) && !durable_lookup(s->jobs, id, &j->eid, &j->t.submitted_at)) {
        http_error(rs, 404, NULL,
                   "no job %s (unknown to this server, or expired after it finished)", id);
        return false;
    }
    if (j->eid && engine_job_status(s->engine, j->eid, &j->info, NULL, 0) == CUZK_OK) {
        engine_circuit_info ci;
        j->live = true;
        j->info.id = 0; /* the engine's id is not shown */
        j->t.finished_at = j->info.finish_ns ? view_unix_time(s, j->info.finish_ns) : 0;
        /* a circuit is never unregistered: the job's is there */
        if (engine_circuit_info_of(s->engine, j->info.circuit, &ci) == CUZK_OK)
            j->t.curve = ci.curve;
        return true;
    }
    store_job row;
    char msg[512];
    cuzk_status st = store_get(durable_store(s->jobs), id, &row, NULL, msg, sizeof(msg));
    if (st == CUZK_ERR_CORRUPT) {
        /* A damaged row (store_row_check): the job cannot be resumed or
         * answered, so it is failed, with the reason, rather than left
         * to a client that would wait for it. */
        j->info.state = ENGINE_STATE_FAILED;
        j->info.partitions = 0;
        size_t at = (size_t)snprintf(j->info.message, sizeof(j->info.message),
                                     "its stored row is damaged: ");
        snprintf(j->info.message + at, sizeof(j->info.message) - at, "%.*s",
                 (int)(sizeof(j->info.message) - at - 1), msg);
        return true;
    }
    if (st == CUZK_ERR_INVALID_ARGUMENT) {
        http_error(rs, 404, NULL,
                   "no job %s (unknown to this server, or expired after it finished)", id);
        return false;
    }
    if (st != CUZK_OK) {
        http_error(rs, 503, NULL, "job %s cannot be read now: %s", id, msg);
        return false;
    }
    j->t.submitted_at = row.submitted_at;
    j->t.curve = row.curve;
    snprintf(j->info.circuit, sizeof(j->info.circuit), "%s", row.circuit);
    j->info.priority = row.priority;
    j->info.state = row.state;
    /* Several hosts: a job some host is proving a partition of now is
     * running (the store cannot tell synthesis from proving apart). */
    if (!engine_state_is_terminal(row.state) && row.partitions_running)
        j->info.state = ENGINE_STATE_PROVING;
    j->info.attempts = row.attempts;
    j->info.partitions = row.partitions;
    j->info.partitions_done = row.partitions_done;
    snprintf(j->info.message, sizeof(j->info.message), "%s", row.message);
    j->t.finished_at = row.finished_at;
    cuzk_wipe(&row, sizeof(row));
    return true;
}

/* A job's partition states, and for a done job its proof and public
 * inputs (*per per partition), from the engine or the store (NULL when
 * not wanted); with hosts, from the store of several hosts, each
 * partition's host (proving it now, or that proved it; *hosts stays NULL
 * otherwise). false: out of memory, or gone meanwhile. */
static bool job_result(service *s, const job_at *j, engine_state **states, uint8_t **proof,
                       fr_t **pub, size_t *per, json_t **hosts)
{
    if (hosts)
        *hosts = NULL;
    uint32_t n = j->info.partitions;
    size_t proof_bytes = curve_proof_bytes(j->t.curve);
    bool done = j->info.state == ENGINE_STATE_DONE;
    *states = calloc(n ? n : 1, sizeof(**states));
    if (proof)
        *proof = done ? malloc((size_t)n * proof_bytes) : NULL;
    if (pub)
        *pub = NULL;
    bool ok = *states && (!proof || !done || *proof);
    if (ok && j->live) {
        size_t len = 0, count = 0;
        engine_job_status(s->engine, j->eid, NULL, *states, n);
        if (proof && done)
            ok = engine_job_proof(s->engine, j->eid, *proof, (size_t)n * proof_bytes, &len) ==
                     CUZK_OK &&
                 len == (size_t)n * proof_bytes;
        if (ok && pub && done) {
            /* The first call sizes, the second copies. */
            engine_job_public(s->engine, j->eid, NULL, 0, &count, per);
            ok = (*pub = malloc((count ? count : 1) * sizeof(fr_t))) &&
                 engine_job_public(s->engine, j->eid, *pub, count, &count, per) == CUZK_OK &&
                 count == (size_t)n * *per;
        }
    } else if (ok && n == 0) {
        /* no partitions to read: a job whose stored row is damaged */
    } else if (ok) {
        store_job row;
        store_partition *parts = NULL;
        ok = store_get(durable_store(s->jobs), j->id, &row, &parts, NULL, 0) == CUZK_OK;
        if (ok) {
            *per = n ? parts[0].num_pub : 0;
            if (pub && done)
                ok = (*pub = malloc(((size_t)n * *per + 1) * sizeof(fr_t))) != NULL;
            for (uint32_t i = 0; ok && i < n; i++) {
                (*states)[i] = parts[i].state;
                if (hosts && durable_shared(s->jobs)) {
                    if (!*hosts)
                        *hosts = json_array();
                    json_array_append_new(*hosts,
                                          parts[i].host ? json_string(parts[i].host) : json_null());
                }
                /* A done job whose partition proof is missing has no
                 * proof to answer (the next start proves it again). */
                ok = !done ||
                     (parts[i].state == ENGINE_STATE_DONE && parts[i].proof_len == proof_bytes);
                if (ok && done && proof)
                    memcpy(*proof + (size_t)i * proof_bytes, parts[i].proof, proof_bytes);
                if (ok && done && pub) {
                    ok = parts[i].num_pub == *per;
                    if (ok && *per)
                        memcpy(*pub + i * *per, parts[i].pub, *per * sizeof(fr_t));
                }
            }
            store_partitions_free(parts, row.partitions);
            cuzk_wipe(&row, sizeof(row));
        }
    }
    if (!ok) {
        if (hosts) {
            json_decref(*hosts);
            *hosts = NULL;
        }
        free(*states);
        *states = NULL;
        if (proof) {
            free(*proof);
            *proof = NULL;
        }
        if (pub) {
            free(*pub);
            *pub = NULL;
        }
    }
    return ok;
}

/* A job's full view (partition states, the proof when done). false:
 * answered (404 or 503). */
static bool job_view(service *s, const char *id, http_response *rs, json_t **out)
{
    job_at j;
    if (!find_job(s, id, &j, rs))
        return false;
    engine_state *states;
    uint8_t *proof;
    size_t per = 0;
    json_t *hosts;
    if (!job_result(s, &j, &states, &proof, NULL, &per, &hosts)) {
        http_error(rs, 503, NULL, "job %s: its record cannot be read now", id);
        return false;
    }
    *out = view_job(s, &j.t, &j.info, states, j.info.partitions, proof,
                    proof ? (size_t)j.info.partitions * curve_proof_bytes(j.t.curve) : 0);
    if (hosts)
        json_object_set_new(*out, "partition_hosts", hosts);
    free(states);
    free(proof);
    return true;
}

static bool circuit_known(service *s, const char *name, engine_circuit_info *out)
{
    return engine_circuit_info_of(s->engine, name, out) == CUZK_OK;
}

static void reply_job(service *s, const char *id, unsigned status, http_response *rs)
{
    json_t *o;
    if (!job_view(s, id, rs, &o))
        return;
    reply_json(rs, status, o);
    snprintf(rs->location, sizeof(rs->location), "/v1/jobs/%s", id);
}

/* A witness path as the store keeps it (malloc'd): absolute, so that a
 * restart in another working folder, or without the witness folder,
 * reads the same file or none (a relative one is the witness folder's,
 * else the server's working folder's). */
static char *stored_path(service *s, const char *path)
{
    char cwd[4096];
    const char *base = s->witness_dir.path;
    if (path[0] == '/')
        return strdup(path);
    if (!base && !(base = getcwd(cwd, sizeof(cwd))))
        return strdup(path);
    size_t n = strlen(base) + strlen(path) + 2;
    char *out = malloc(n);
    if (out)
        snprintf(out, n, "%s/%s", base, path);
    return out;
}

/* Whether streamed witness i of sr is kept as a file in the spill folder
 * rather than in the store's row: a shared store, a spill folder, and a
 * witness larger than server.witness_inline_max. */
static bool spills(const service *s, const submit_request *sr, uint32_t i)
{
    return s->spill_dir.path && durable_shared(s->jobs) && sr->witness_files &&
           sr->witness_file_lens[i] > s->witness_inline_max;
}

/* The store's record of a submission (pointing into sr) as job id. A
 * witness that spills is written to its file first, so that the row
 * never names a file that is not there; when the record fails, the files
 * written for it are removed. *spill_err: the errno of a spill that
 * failed (0: none did). */
static cuzk_status record_submission(service *s, uint64_t eid, const submit_request *sr,
                                     const char *key, const char id[STORE_ID_CHARS + 1],
                                     char existing[STORE_ID_CHARS + 1], int *spill_err, char *msg,
                                     size_t msg_len)
{
    *spill_err = 0;
    const engine_job_spec *spec = &sr->spec;
    store_job job = {.priority = spec->priority,
                     .partitions = spec->partitions,
                     .timeout_s = spec->timeout_s,
                     .state = ENGINE_STATE_QUEUED,
                     .submitted_at = durable_now()};
    memcpy(job.id, id, sizeof(job.id));
    snprintf(job.key, sizeof(job.key), "%s", key ? key : "");
    snprintf(job.circuit, sizeof(job.circuit), "%s", spec->circuit);
    engine_circuit_info ci;
    if (engine_circuit_info_of(s->engine, spec->circuit, &ci) != CUZK_OK) {
        msg_set(msg, msg_len, "circuit %s is not registered", spec->circuit);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    job.curve = ci.curve;
    if (spec->r) {
        job.has_blinding = true;
        job.r = spec->r[0];
        job.s = spec->s[0];
    }
    store_partition *parts = calloc(spec->partitions, sizeof(*parts));
    if (!parts)
        return CUZK_ERR_OUT_OF_MEMORY;
    cuzk_status st = CUZK_OK;
    for (uint32_t i = 0; i < spec->partitions && st == CUZK_OK; i++) {
        const engine_partition_input *in = spec->inputs ? &spec->inputs[i] : NULL;
        parts[i].seed = in ? in->seed : spec->seed + i;
        if (sr->client_paths && !(parts[i].wtns_path = stored_path(s, sr->client_paths[i])))
            st = CUZK_ERR_OUT_OF_MEMORY;
        parts[i].witness = in ? (fr_t *)in->witness : NULL; /* read, not kept */
        parts[i].witness_len = in ? in->witness_len : 0;
        if (st == CUZK_OK && spills(s, sr, i)) {
            parts[i].witness = NULL;
            parts[i].witness_len = 0;
            parts[i].spilled =
                spill_write(&s->spill_dir, id, i, sr->witness_files[i], sr->witness_file_lens[i],
                            &parts[i].wtns_path, spill_err, msg, msg_len);
            if (!parts[i].spilled)
                st = CUZK_ERR_IO;
        }
    }
    if (st == CUZK_OK)
        st = durable_add(s->jobs, eid, &job, parts, existing, msg, msg_len);
    for (uint32_t i = 0; i < spec->partitions; i++) {
        if (st != CUZK_OK && parts[i].spilled && unlink(parts[i].wtns_path) != 0)
            service_log(s, "cannot remove spilled witness %s of a job not recorded: %s",
                        parts[i].wtns_path, strerror(errno));
        free(parts[i].wtns_path);
    }
    free(parts);                  /* the witnesses are sr's */
    cuzk_wipe(&job, sizeof(job)); /* the blinding */
    return st;
}

/* Records a job in a shared store, where the hosts' claimers (this one
 * among them) find it: it is the store's, not this engine's, nor bound
 * by this host's queue. false: answered. */
static bool submit_shared(service *s, submit_request *sr, const char *key,
                          char id[STORE_ID_CHARS + 1], http_response *rs)
{
    char msg[768] = "", existing[STORE_ID_CHARS + 1] = "";
    if (!store_new_id(id)) {
        http_error(rs, 503, NULL, "no random source for a job id");
        return false;
    }
    int spill_err;
    cuzk_status st = record_submission(s, 0, sr, key, id, existing, &spill_err, msg, sizeof(msg));
    if (st == CUZK_OK)
        return true;
    if (spill_err) {
        /* a full folder is the server's storage, anything else its setup */
        bool full = spill_err == ENOSPC || spill_err == EDQUOT;
        http_error(rs, full ? 507 : 500, NULL, "the job cannot be recorded: %s", msg);
        service_log(s, "a job was refused: %s", msg);
        return false;
    }
    if (existing[0]) { /* another host took the key meanwhile: that job */
        memcpy(id, existing, sizeof(existing));
        return true;
    }
    if (st == STORE_QUEUE_FULL) {
        http_error(rs, 429, NULL, "%s; try again later", msg);
        rs->retry_after_s = QUEUE_RETRY_AFTER_S;
        return false;
    }
    http_error(rs, 503, NULL, "the job cannot be recorded in the job store: %s", msg);
    return false;
}

/* Submits to the engine and records the job; false: answered. */
static bool submit_job(service *s, submit_request *sr, const char *key, char id[STORE_ID_CHARS + 1],
                       http_response *rs)
{
    if (s->cluster)
        return submit_shared(s, sr, key, id, rs);
    /* The engine copies streamed witnesses, and keeps a record per
     * partition, until the job is final. */
    uint32_t partitions = sr->spec.partitions;
    uint64_t bytes = (uint64_t)partitions * PARTITION_RECORD_BYTES;
    for (uint32_t i = 0; sr->spec.inputs && i < partitions; i++)
        bytes += sr->spec.inputs[i].witness_len * sizeof(fr_t);
    char why[300];
    if (!ledger_reserve(&s->queued, s->engine, partitions, bytes, why, sizeof(why))) {
        http_error(rs, 429, NULL, "the queue is full: %s; try again later", why);
        rs->retry_after_s = QUEUE_RETRY_AFTER_S;
        return false;
    }
    uint64_t eid;
    char msg[512] = "";
    if (!store_new_id(id)) {
        ledger_unreserve(&s->queued, partitions, bytes);
        http_error(rs, 503, NULL, "no random source for a job id");
        return false;
    }
    sr->spec.label = id; /* the engine's events name the job by it */
    cuzk_status st = engine_submit(s->engine, &sr->spec, &eid, msg, sizeof(msg));
    if (st != CUZK_OK) {
        ledger_unreserve(&s->queued, partitions, bytes);
        if (atomic_load(&s->closing) || strstr(msg, "shutting down"))
            http_error(rs, 503, NULL, "%s", msg);
        else if (st == CUZK_ERR_INVALID_ARGUMENT)
            http_error(rs, 400, NULL, "%s", msg);
        else
            http_error(rs, 503, NULL, "%s", msg[0] ? msg : cuzk_status_str(st));
        return false;
    }
    /* The witness files opened in the witness folder stay open until
     * the job is final: the engine reads them through their names in
     * /proc/self/fd. */
    ledger_commit(&s->queued, eid, partitions, bytes, sr->fds, sr->num_fds);
    sr->fds = NULL;
    sr->num_fds = 0;
    /* In the store before its id is answered: a client never holds an id
     * that a restart does not know. */
    char existing[STORE_ID_CHARS + 1] = "";
    int spill_err; /* never: the store is not shared */
    st = record_submission(s, eid, sr, key, id, existing, &spill_err, msg, sizeof(msg));
    if (st != CUZK_OK) {
        durable_ignore(s->jobs, eid);
        engine_cancel(s->engine, eid, NULL, 0);
        service_log(s, "a job could not be recorded, so it was cancelled: %s", msg);
        http_error(rs, 503, NULL, "the job cannot be recorded in the job store: %s", msg);
        return false;
    }
    return true;
}

static void submit(service *s, const http_request *rq, http_response *rs)
{
    if (atomic_load(&s->closing)) {
        http_error(rs, 503, NULL, "the server is shutting down and takes no new jobs");
        return;
    }
    const char *key = rq->idempotency_key;
    if (key && !store_key_valid(key)) {
        http_error(rs, 400, "Idempotency-Key",
                   "the Idempotency-Key header wants 1 to %d printable ASCII characters without "
                   "spaces",
                   STORE_KEY_MAX);
        return;
    }
    submit_request sr;
    request_error err;
    const confine_dir *witness_dir = s->witness_dir.path ? &s->witness_dir : NULL;
    if (!request_parse_submit(&sr, rq, witness_dir, s->fixed_blinding, &err)) {
        reply_request_error(rs, &err);
        return;
    }
    engine_circuit_info ci;
    if (!circuit_known(s, sr.circuit, &ci)) {
        http_error(rs, 400, "circuit", "no circuit named '%s' (GET /v1/circuits lists them)",
                   sr.circuit);
        submit_request_free(&sr);
        return;
    }
    if (!request_check_curve(&sr, ci.curve, &err)) {
        reply_request_error(rs, &err);
        submit_request_free(&sr);
        return;
    }
    char id[STORE_ID_CHARS + 1];
    bool made = false, again = false;
    /* Keyed submissions one at a time: two with one key make one job. */
    if (key)
        pthread_mutex_lock(&s->submit_mu);
    if (key && store_find_key(durable_store(s->jobs), key, id))
        again = true;
    else
        made = submit_job(s, &sr, key, id, rs);
    if (key)
        pthread_mutex_unlock(&s->submit_mu);
    submit_request_free(&sr);
    if (made || again)
        reply_job(s, id, made ? 201 : 200, rs);
}

static void list_jobs(service *s, const http_request *rq, http_response *rs)
{
    static const char *const allowed[] = {"state", "circuit", NULL};
    if (!no_query(rq, rs, allowed))
        return;
    const char *state = http_query(rq, "state"), *circuit = http_query(rq, "circuit");
    bool known_state = !state;
    for (int i = 0; state && i <= ENGINE_STATE_CANCELLED; i++)
        known_state |= !strcmp(state, engine_state_name((engine_state)i));
    if (!known_state) {
        http_error(rs, 400, "state",
                   "query argument 'state' wants queued, synthesizing, proving, finalizing, "
                   "done, failed or cancelled, got '%s'",
                   state);
        return;
    }
    char(*ids)[STORE_ID_CHARS + 1];
    size_t n;
    if (durable_ids(s->jobs, &ids, &n) != CUZK_OK) {
        http_error(rs, 503, NULL, "out of memory");
        return;
    }
    json_t *a = json_array();
    http_response ignored = {0};
    for (size_t i = 0; i < n; i++) {
        job_at j;
        if (!find_job(s, ids[i], &j, &ignored)) /* expired meanwhile */
            continue;
        if (state && strcmp(state, engine_state_name(j.info.state)))
            continue;
        if (circuit && strcmp(circuit, j.info.circuit))
            continue;
        json_array_append_new(a, view_job(s, &j.t, &j.info, NULL, 0, NULL, 0));
    }
    free(ignored.body);
    free(ids);
    json_t *o = json_object();
    json_object_set_new(o, "jobs", a);
    reply_json(rs, 200, o);
}

/* false: 400 already answered. */
static bool parse_proof_format(const http_request *rq, http_response *rs, proof_format *out)
{
    const char *f = http_query(rq, "format");
    *out = PROOF_FORMAT_BELLMAN;
    if (!f || proof_format_parse(f, out))
        return true;
    http_error(rs, 400, "format", "query argument 'format' wants bellman or snarkjs, got '%s'", f);
    return false;
}

static void get_proof(service *s, const char *id, const http_request *rq, http_response *rs)
{
    static const char *const allowed[] = {"format", NULL};
    proof_format format;
    if (!no_query(rq, rs, allowed) || !parse_proof_format(rq, rs, &format))
        return;
    job_at j;
    if (!find_job(s, id, &j, rs))
        return;
    if (j.info.state != ENGINE_STATE_DONE) {
        http_error(rs, 409, NULL, "job %s is %s; a proof exists only when it is done", id,
                   engine_state_name(j.info.state));
        return;
    }
    durable_sync(s->jobs);
    engine_state *states;
    uint8_t *proof;
    fr_t *pub;
    size_t per = 0, len = (size_t)j.info.partitions * curve_proof_bytes(j.t.curve);
    if (!job_result(s, &j, &states, &proof, format == PROOF_FORMAT_SNARKJS ? &pub : NULL, &per,
                    NULL)) {
        http_error(rs, 404, NULL, "the proof of job %s is gone", id);
        return;
    }
    free(states);
    if (format == PROOF_FORMAT_BELLMAN) {
        rs->status = 200;
        rs->body = (char *)proof;
        rs->len = len;
        rs->content_type = "application/octet-stream";
        return;
    }
    json_t *o;
    char msg[300] = "";
    cuzk_status st = view_snarkjs(&o, id, j.info.circuit, j.t.curve, proof, j.info.partitions, pub,
                                  per, msg, sizeof(msg));
    free(proof);
    free(pub);
    if (st == CUZK_ERR_OUT_OF_MEMORY)
        http_error(rs, 503, NULL, "out of memory");
    else if (st != CUZK_OK)
        http_error(rs, 500, NULL, "job %s: %s", id, msg);
    else
        reply_json(rs, 200, o);
}

/* Waits up to wait_s for a job of a shared store to be final, woken by
 * the store's notifications (the job's state is read again after each). */
static void await_shared(service *s, const char *id, double wait_s)
{
    store *st = durable_store(s->jobs);
    const store_cluster_ops *ops = store_cluster(st);
    double until = durable_now() + wait_s;
    for (;;) {
        uint64_t seen = ops->events(st); /* before the read: none is missed */
        store_job row;
        bool final = store_get(st, id, &row, NULL, NULL, 0) != CUZK_OK ||
                     engine_state_is_terminal(row.state);
        cuzk_wipe(&row, sizeof(row));
        double left = until - durable_now();
        if (final || left <= 0 || atomic_load(&s->closing))
            return;
        /* Capped: a shutdown ends the wait soon. */
        ops->wait(st, seen, left < 1 ? left : 1);
    }
}

static void await_job(service *s, const char *id, const http_request *rq, http_response *rs)
{
    static const char *const allowed[] = {"timeout_s", NULL};
    if (!no_query(rq, rs, allowed))
        return;
    double wait = s->max_wait_s;
    const char *t = http_query(rq, "timeout_s");
    if (t) {
        char *end;
        errno = 0;
        double v = strtod(t, &end);
        if (!*t || *end || errno || !(v >= 0)) {
            http_error(rs, 400, "timeout_s",
                       "query argument 'timeout_s' wants seconds >= 0, got '%s'", t);
            return;
        }
        /* A long poll is capped so a connection never waits unbounded;
         * the client asks again. */
        wait = v < s->max_wait_s ? v : s->max_wait_s;
    }
    job_at j;
    if (!find_job(s, id, &j, rs))
        return;
    engine_state state = j.info.state;
    if (s->cluster && !engine_state_is_terminal(state))
        await_shared(s, id, wait);
    if (j.live && engine_wait(s->engine, j.eid, wait, &state) == CUZK_OK &&
        state >= ENGINE_STATE_DONE) {
        ledger_sweep(&s->queued, s->engine); /* its files and share go now */
        /* What the client is about to see is in the store first. */
        durable_sync(s->jobs);
    }
    json_t *o;
    if (!job_view(s, id, rs, &o))
        return;
    if (o) {
        /* The view was read after the wait: its state decides. */
        const char *now = json_string_value(json_object_get(o, "state"));
        bool terminal = false;
        for (int i = ENGINE_STATE_DONE; now && i <= ENGINE_STATE_CANCELLED; i++)
            terminal |= !strcmp(now, engine_state_name((engine_state)i));
        json_object_set_new(o, "timed_out", json_boolean(!terminal));
    }
    reply_json(rs, 200, o);
}

/* A line from the store's helpers to the service's log. */
static void log_to_service(void *ctx, const char *line)
{
    service_log(ctx, "%s", line);
}

/* A cancel in a shared store: the job's row is final at once; the host
 * proving it is told by the store's notification. */
static void cancel_shared(service *s, const char *id, http_response *rs)
{
    store *st = durable_store(s->jobs);
    bool changed = false;
    char msg[512] = "";
    if (store_cluster(st)->finish(st, id, ENGINE_STATE_CANCELLED, "cancelled by request", &changed,
                                  msg, sizeof(msg)) != CUZK_OK) {
        http_error(rs, 503, NULL, "job %s cannot be cancelled now: %s", id, msg);
        return;
    }
    if (changed) /* final now: its spilled witnesses are not needed */
        spill_drop(st, s->spill_dir.path ? &s->spill_dir : NULL, id, log_to_service, s);
    job_at j;
    if (!find_job(s, id, &j, rs))
        return;
    if (!changed && j.info.state != ENGINE_STATE_CANCELLED) {
        http_error(rs, 409, NULL, "job %s is already %s; there is nothing to cancel", id,
                   engine_state_name(j.info.state));
        return;
    }
    json_t *o;
    if (job_view(s, id, rs, &o))
        reply_json(rs, 200, o);
}

static void cancel_job(service *s, const char *id, http_response *rs)
{
    job_at j;
    if (!find_job(s, id, &j, rs))
        return;
    if (s->cluster) {
        cancel_shared(s, id, rs);
        return;
    }
    if (!j.live || engine_cancel(s->engine, j.eid, NULL, 0) != CUZK_OK) {
        if (j.live)
            engine_job_status(s->engine, j.eid, &j.info, NULL, 0);
        if (j.info.state >= ENGINE_STATE_DONE) {
            http_error(rs, 409, NULL, "job %s is already %s; there is nothing to cancel", id,
                       engine_state_name(j.info.state));
            return;
        }
        /* Stopping already (an earlier cancel, a failure or a timeout):
         * what was asked is under way, as after the first cancel. */
    } else {
        /* Durable now: a restart does not run it again. */
        durable_final(s->jobs, id, ENGINE_STATE_CANCELLED, "cancelled by request");
    }
    ledger_sweep(&s->queued, s->engine);
    json_t *o;
    if (job_view(s, id, rs, &o))
        reply_json(rs, 200, o);
}

static void route_job(service *s, const http_request *rq, http_response *rs, const char *rest)
{
    char id[STORE_ID_CHARS + 1];
    const char *slash = strchr(rest, '/');
    size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
    char shown[STORE_ID_CHARS + 8];
    snprintf(shown, sizeof(shown), "%.*s%s", (int)(n < STORE_ID_CHARS ? n : STORE_ID_CHARS), rest,
             n > STORE_ID_CHARS ? "..." : "");
    if (n != STORE_ID_CHARS) {
        http_error(rs, 404, NULL, "'%s' is not a job id (%d lowercase hex digits)", shown,
                   STORE_ID_CHARS);
        return;
    }
    memcpy(id, rest, n);
    id[n] = 0;
    if (!store_id_valid(id)) {
        http_error(rs, 404, NULL, "'%s' is not a job id (%d lowercase hex digits)", shown,
                   STORE_ID_CHARS);
        return;
    }
    const char *action = slash ? slash + 1 : "";
    bool get = !strcmp(rq->method, "GET"), post = !strcmp(rq->method, "POST");
    if (!*action) {
        if (!get) {
            method_not_allowed(rs, rq, "GET");
            return;
        }
        if (!no_query(rq, rs, NULL))
            return;
        json_t *o;
        if (job_view(s, id, rs, &o))
            reply_json(rs, 200, o);
    } else if (!strcmp(action, "await")) {
        if (!get) {
            method_not_allowed(rs, rq, "GET");
            return;
        }
        await_job(s, id, rq, rs);
    } else if (!strcmp(action, "proof")) {
        if (!get) {
            method_not_allowed(rs, rq, "GET");
            return;
        }
        get_proof(s, id, rq, rs);
    } else if (!strcmp(action, "cancel")) {
        if (!post) {
            method_not_allowed(rs, rq, "POST");
            return;
        }
        if (no_query(rq, rs, NULL))
            cancel_job(s, id, rs);
    } else {
        http_error(rs, 404, NULL, "no endpoint %s", rq->path);
    }
}

/* ----------------------------------------------------------- circuits */

static void list_circuits(service *s, http_response *rs)
{
    engine_stats st;
    engine_get_stats(s->engine, &st, NULL, 0);
    size_t cap = st.num_circuits + 8;
    engine_circuit_info *ci = calloc(cap, sizeof(*ci));
    if (!ci) {
        http_error(rs, 503, NULL, "out of memory");
        return;
    }
    engine_get_stats(s->engine, &st, ci, cap);
    json_t *a = json_array();
    for (size_t i = 0; i < st.num_circuits && i < cap; i++)
        json_array_append_new(a, view_circuit(&ci[i]));
    free(ci);
    json_t *o = json_object();
    json_object_set_new(o, "circuits", a);
    reply_json(rs, 200, o);
}

static void reply_circuit(service *s, const char *name, unsigned status, http_response *rs)
{
    engine_circuit_info ci;
    if (!circuit_known(s, name, &ci)) {
        http_error(rs, 404, NULL, "no circuit named '%s'", name);
        return;
    }
    reply_json(rs, status, view_circuit(&ci));
}

/* A circuit file named in a registration, into *path: with the circuit
 * folder, opened beneath it and kept open (the engine loads it through
 * /proc/self/fd, now and after an evict); without it, refused over TCP and
 * taken as given over the Unix socket when it opens as a regular file.
 * false: answered. */
static bool circuit_file(service *s, const http_request *rq, const char *field, char **path,
                         int *fd, http_response *rs)
{
    *fd = -1;
    if (!*path)
        return true;
    char why[600];
    if (!s->circuit_dir.path) {
        if (rq->tcp) {
            http_error(rs, 403, field,
                       "this server takes no circuit files over TCP: its operator must set "
                       "server.circuit_dir (cuzk serve --circuit-dir) to the folder they may "
                       "name");
            return false;
        }
        if (input_file_open(fd, *path, why, sizeof(why)) != CUZK_OK) {
            http_error(rs, 400, field, "field '%s': %s", field, why);
            return false;
        }
        close(*fd);
        *fd = -1;
        return true;
    }
    int e;
    switch (confine_open(&s->circuit_dir, *path, fd, &e)) {
    case CONFINE_OK:
        break;
    case CONFINE_OUTSIDE:
        http_error(rs, 403, field,
                   "field '%s': %s is outside the circuit folder (server.circuit_dir)", field,
                   *path);
        return false;
    case CONFINE_NOT_REGULAR:
        http_error(rs, 400, field, "field '%s': %s is not a regular file", field, *path);
        return false;
    case CONFINE_CANNOT_OPEN:
        http_error(rs, 400, field, "field '%s': cannot open %s in the circuit folder: %s", field,
                   *path, strerror(e));
        return false;
    }
    char name[64];
    char *copy = NULL;
    if (!confine_fd_path(*fd, name, sizeof(name)) || !(copy = strdup(name))) {
        close(*fd);
        *fd = -1;
        http_error(rs, 503, field, "field '%s': cannot hand the open file to the engine", field);
        return false;
    }
    free(*path);
    *path = copy;
    return true;
}

/* Keeps a registered circuit's file open for the service's life. */
static void keep_circuit_fd(service *s, int fd)
{
    if (fd < 0)
        return;
    pthread_mutex_lock(&s->circuit_fds_mu);
    int *grown = realloc(s->circuit_fds, (s->num_circuit_fds + 1) * sizeof(int));
    if (grown) {
        s->circuit_fds = grown;
        s->circuit_fds[s->num_circuit_fds++] = fd;
    } else {
        close(fd); /* the engine's next load of it fails; nothing else does */
    }
    pthread_mutex_unlock(&s->circuit_fds_mu);
}

static void register_circuit(service *s, const http_request *rq, http_response *rs)
{
    config_circuit cc;
    request_error err;
    if (!no_query(rq, rs, NULL))
        return;
    if (!request_parse_circuit(&cc, rq, &err)) {
        reply_request_error(rs, &err);
        return;
    }
    int params_fd = -1, zkey_fd = -1;
    if (!circuit_file(s, rq, "params", &cc.params_path, &params_fd, rs) ||
        !circuit_file(s, rq, "zkey", &cc.zkey_path, &zkey_fd, rs)) {
        if (params_fd >= 0)
            close(params_fd);
        request_circuit_free(&cc);
        return;
    }
    circuit_spec spec;
    char msg[512] = "";
    bool registered = false;
    cuzk_status st = config_circuit_spec(&cc, &spec, msg, sizeof(msg));
    if (st != CUZK_OK) {
        /* The configuration's message starts with its origin and section. */
        const char *why = strstr(msg, "] ");
        http_error(rs, 400, NULL, "%s", why ? why + 2 : msg);
    } else if (circuit_known(s, cc.name, NULL)) {
        http_error(rs, 409, "name", "a circuit named '%s' is already registered", cc.name);
    } else if ((st = engine_register(s->engine, &spec, msg, sizeof(msg))) != CUZK_OK) {
        http_error(rs, 400, NULL, "%s", msg[0] ? msg : cuzk_status_str(st));
    } else if ((registered = true) && cc.preload &&
               (st = engine_preload(s->engine, cc.name, msg, sizeof(msg))) != CUZK_OK) {
        http_error(rs, 422, NULL, "registered, but it cannot be loaded: %s",
                   msg[0] ? msg : cuzk_status_str(st));
    } else {
        service_log(s, "registered circuit %s", cc.name);
        reply_circuit(s, cc.name, 201, rs);
    }
    if (registered) {
        keep_circuit_fd(s, params_fd);
        keep_circuit_fd(s, zkey_fd);
    } else {
        if (params_fd >= 0)
            close(params_fd);
        if (zkey_fd >= 0)
            close(zkey_fd);
    }
    request_circuit_free(&cc);
}

static void route_circuit(service *s, const http_request *rq, http_response *rs, const char *rest)
{
    char name[128];
    const char *slash = strchr(rest, '/');
    size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
    if (n == 0 || n >= sizeof(name)) {
        http_error(rs, 404, NULL, "no such circuit");
        return;
    }
    memcpy(name, rest, n);
    name[n] = 0;
    const char *action = slash ? slash + 1 : "";
    if (!no_query(rq, rs, NULL))
        return;
    if (!circuit_known(s, name, NULL)) {
        http_error(rs, 404, NULL, "no circuit named '%s'", name);
        return;
    }
    char msg[512] = "";
    if (!*action) {
        if (strcmp(rq->method, "GET")) {
            method_not_allowed(rs, rq, "GET");
            return;
        }
        reply_circuit(s, name, 200, rs);
    } else if (!strcmp(action, "preload")) {
        if (strcmp(rq->method, "POST")) {
            method_not_allowed(rs, rq, "POST");
            return;
        }
        cuzk_status st = engine_preload(s->engine, name, msg, sizeof(msg));
        if (st != CUZK_OK)
            http_error(rs, 422, NULL, "cannot load circuit '%s': %s", name,
                       msg[0] ? msg : cuzk_status_str(st));
        else
            reply_circuit(s, name, 200, rs);
    } else if (!strcmp(action, "evict")) {
        if (strcmp(rq->method, "POST")) {
            method_not_allowed(rs, rq, "POST");
            return;
        }
        cuzk_status st = engine_evict(s->engine, name, msg, sizeof(msg));
        if (st != CUZK_OK)
            http_error(rs, 409, NULL, "cannot evict circuit '%s': %s", name,
                       msg[0] ? msg : cuzk_status_str(st));
        else
            reply_circuit(s, name, 200, rs);
    } else {
        http_error(rs, 404, NULL, "no endpoint %s", rq->path);
    }
}

/* ------------------------------------------------------------ routing */

static void metrics(service *s, http_response *rs)
{
    char *text = view_cluster_metrics(s, engine_metrics_render(s->metrics, s->engine));
    if (!text) {
        http_error(rs, 503, NULL, "out of memory");
        return;
    }
    rs->status = 200;
    rs->body = text;
    rs->len = strlen(text);
    rs->content_type = "text/plain; version=0.0.4; charset=utf-8";
}

void routes_handle(service *s, const http_request *rq, http_response *rs)
{
    const char *p = rq->path;
    bool get = !strcmp(rq->method, "GET"), post = !strcmp(rq->method, "POST");
    if (!strcmp(p, "/metrics")) {
        if (!get) {
            method_not_allowed(rs, rq, "GET");
            return;
        }
        if (no_query(rq, rs, NULL))
            metrics(s, rs);
    } else if (!strcmp(p, "/v1/health")) {
        if (!get) {
            method_not_allowed(rs, rq, "GET");
            return;
        }
        reply_json(
            rs, 200,
            json_pack("{s:s, s:b}", "status", "ok", "accepting_jobs", !atomic_load(&s->closing)));
    } else if (!strcmp(p, "/v1/status")) {
        if (!get) {
            method_not_allowed(rs, rq, "GET");
            return;
        }
        if (no_query(rq, rs, NULL))
            reply_json(rs, 200, view_status(s));
    } else if (!strcmp(p, "/v1/jobs")) {
        if (post)
            submit(s, rq, rs);
        else if (get)
            list_jobs(s, rq, rs);
        else
            method_not_allowed(rs, rq, "GET, POST");
    } else if (!strncmp(p, "/v1/jobs/", 9)) {
        route_job(s, rq, rs, p + 9);
    } else if (!strcmp(p, "/v1/circuits")) {
        if (post)
            register_circuit(s, rq, rs);
        else if (get)
            no_query(rq, rs, NULL) ? list_circuits(s, rs) : (void)0;
        else
            method_not_allowed(rs, rq, "GET, POST");
    } else if (!strncmp(p, "/v1/circuits/", 13)) {
        route_circuit(s, rq, rs, p + 13);
    } else {
        http_error(rs, 404, NULL, "no endpoint %s (docs/SERVICE.md lists them)", p);
    }
}
