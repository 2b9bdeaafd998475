/* What every job store shares: ids, keys, the state folder
 * (store/store.h). */
#define _GNU_SOURCE
#include "store/store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "util/msg.h"
#include "util/wipe.h"

bool store_new_id(char out[STORE_ID_CHARS + 1])
{
    static const char digits[] = "0123456789abcdef";
    uint8_t b[STORE_ID_CHARS / 2];
    size_t got = 0;
    while (got < sizeof(b)) {
        ssize_t n = getrandom(b + got, sizeof(b) - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        got += (size_t)n;
    }
    for (size_t i = 0; i < sizeof(b); i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[STORE_ID_CHARS] = 0;
    return true;
}

bool store_id_valid(const char *text)
{
    size_t n = 0;
    for (; text && text[n]; n++)
        if (!((text[n] >= '0' && text[n] <= '9') || (text[n] >= 'a' && text[n] <= 'f')))
            return false;
    return n == STORE_ID_CHARS;
}

bool store_key_valid(const char *text)
{
    size_t n = 0;
    for (; text && text[n]; n++)
        if (text[n] < 0x21 || text[n] > 0x7e)
            return false;
    return n >= 1 && n <= STORE_KEY_MAX;
}

void store_partitions_free(store_partition *parts, uint32_t n)
{
    for (uint32_t i = 0; parts && i < n; i++) {
        free(parts[i].wtns_path);
        free(parts[i].witness);
        free(parts[i].pub);
        free(parts[i].host);
    }
    free(parts);
}

void store_leases_free(store_lease *leases, uint32_t n)
{
    for (uint32_t i = 0; leases && i < n; i++) {
        store_partition *p = &leases[i].input;
        free(p->wtns_path);
        free(p->witness);
        free(p->pub);
        free(p->host);
        memset(p, 0, sizeof(*p));
        cuzk_wipe(&leases[i].job.r, sizeof(fr_t));
        cuzk_wipe(&leases[i].job.s, sizeof(fr_t));
        leases[i].job.has_blinding = false;
    }
}

bool store_jobs_add(void *ctx, const store_job *job)
{
    store_jobs *x = ctx;
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 16;
        store_job *grown = realloc(x->jobs, cap * sizeof(*grown));
        if (!grown)
            return false;
        x->jobs = grown;
        x->cap = cap;
    }
    x->jobs[x->n++] = *job;
    return true;
}

void store_jobs_hand(store_jobs *x, store_job_fn fn, void *ctx)
{
    for (size_t i = 0; fn && i < x->n; i++)
        fn(ctx, &x->jobs[i]);
    free(x->jobs);
    *x = (store_jobs){0};
}

void store_partition_proof(store_partition *p, curve_id curve, const void *proof, size_t len)
{
    p->proof_len = 0;
    if (proof && len && len == curve_proof_bytes(curve)) {
        memcpy(p->proof, proof, len);
        p->proof_len = len;
    } else if (p->state == ENGINE_STATE_DONE) {
        p->state = ENGINE_STATE_QUEUED; /* no proof of its curve: not done */
    }
}

cuzk_status store_proof_check(const store_update *u, curve_id curve, char *msg, size_t msg_len)
{
    size_t want = curve_proof_bytes(curve);
    if (u->proof && u->proof_len == want)
        return CUZK_OK;
    msg_set(msg, msg_len,
            "job %s partition %u: a proof of %zu bytes, but the job's circuit is on %s, whose "
            "proofs are %zu bytes",
            u->id, u->idx, u->proof ? u->proof_len : 0, curve_id_snarkjs_name(curve), want);
    return CUZK_ERR_INVALID_ARGUMENT;
}

cuzk_status store_partitions_give(store_partition *parts, uint32_t n, cuzk_status st,
                                  store_partition **out)
{
    if (st == CUZK_OK)
        *out = parts;
    else
        store_partitions_free(parts, n);
    return st;
}

cuzk_status store_row_check(const store_job *job, char *msg, size_t msg_len)
{
    const char *bad = NULL;
    if (job->partitions < 1 || job->partitions > STORE_MAX_PARTITIONS)
        bad = "partition count";
    else if ((unsigned)job->state > ENGINE_STATE_CANCELLED)
        bad = "state";
    else if ((unsigned)job->priority >= ENGINE_PRIORITY_COUNT)
        bad = "priority";
    else if (job->curve != CURVE_BLS12_381 && job->curve != CURVE_BN254)
        bad = "curve";
    if (!bad)
        return CUZK_OK;
    msg_set(msg, msg_len,
            "the job store's row of job %s is damaged: its %s is out of range (%u partitions, "
            "state %d, priority %d, curve %d)",
            job->id, bad, job->partitions, (int)job->state, (int)job->priority, (int)job->curve);
    return CUZK_ERR_CORRUPT;
}

void store_default_dir(char *out, size_t cap)
{
    const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (state && *state == '/')
        snprintf(out, cap, "%s/cuzk", state);
    else
        snprintf(out, cap, "%s/.local/state/cuzk", home && *home ? home : ".");
}

void store_cluster_info_free(store_cluster_info *info)
{
    free(info->hosts);
    info->hosts = NULL;
    info->num_hosts = 0;
}
