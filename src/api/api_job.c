/* cuzk_job: submission (the witnesses checked and the public inputs taken
 * here), waiting, status, cancellation, results, destruction. A job holds
 * a reference to its circuit until it is seen final. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"
#include "circuits/porep_like.h"
#include "field/scalar_slots.h"
#include "formats/bellman_params.h"
#include "formats/bn254_proof.h"
#include "formats/bn254_snarkjs_json.h"
#include "formats/circom_wtns.h"
#include "formats/snarkjs_json.h"
#include "util/wipe.h"

#define API_MAX_PARTITIONS 65536

void cuzk_job_options_init(cuzk_job_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof(*options));
    options->size = sizeof(*options);
    options->priority = CUZK_PRIORITY_NORMAL;
}

void api_job_free(cuzk_job *j)
{
    free(j->pub);
    free(j);
}

static const char *kind_name(circuit_kind k)
{
    return circuit_kind_name(k);
}

/* n canonical values of curve's field into a new array (NULL and a
 * message when one is not below r, naming it as witnesses[i].what[k]). */
static fr_t *read_values(curve_id curve, const cuzk_fr *v, size_t n, size_t i, const char *what,
                         const char *fn, cuzk_status *st)
{
    fr_t *out = malloc((n ? n : 1) * sizeof(fr_t));
    if (!out) {
        *st = api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory for witnesses[%zu].%s", i, what);
        return NULL;
    }
    for (size_t k = 0; k < n; k++)
        if (!api_fr_in(curve, &out[k], &v[k])) {
            free(out);
            *st = api_fail(CUZK_ERR_NOT_CANONICAL, fn, "witnesses[%zu].%s[%zu] is not below r", i,
                           what, k);
            return NULL;
        }
    return out;
}

/* CUZK_WITNESS_BELLMAN: input ‖ aux as the engine's full assignment, and
 * a, b, c in one block (a, then b, then c). */
static cuzk_status take_bellman(engine_partition_input *in, fr_t *pub, const cuzk_circuit *c,
                                const cuzk_witness *w, size_t i, const char *fn)
{
    if (c->kind != CIRCUIT_EXTERNAL)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "witnesses[%zu].kind is CUZK_WITNESS_BELLMAN, which external circuits "
                        "take (cuzk_circuit_register_external); %s is a %s circuit",
                        i, c->name, kind_name(c->kind));
    uint64_t ni = c->num_inputs, na = c->num_vars - ni, rows = c->rows;
    if (!w->input || w->input_len != ni)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "witnesses[%zu].input%s: circuit %s has %llu inputs (ONE included), got "
                        "%zu",
                        i, w->input ? "_len" : " is NULL", c->name, (unsigned long long)ni,
                        w->input_len);
    if ((na && !w->aux) || w->aux_len != na)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "witnesses[%zu].aux%s: circuit %s has %llu aux variables, got %zu", i,
                        na && !w->aux ? " is NULL" : "_len", c->name, (unsigned long long)na,
                        w->aux_len);
    if (!w->a || !w->b || !w->c)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "witnesses[%zu]: a, b and c are all needed (an external circuit has no "
                        "constraint system to evaluate them from)",
                        i);
    if (w->abc_len != rows)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "witnesses[%zu].abc_len is %zu, circuit %s has %llu rows", i, w->abc_len,
                        c->name, (unsigned long long)rows);
    cuzk_status st = CUZK_OK;
    fr_t *inp = read_values(c->curve, w->input, ni, i, "input", fn, &st);
    fr_t *aux = inp ? read_values(c->curve, w->aux, na, i, "aux", fn, &st) : NULL;
    fr_t *all = inp && aux ? malloc((ni + na) * sizeof(fr_t)) : NULL;
    fr_t *abc = all ? malloc(3 * (rows ? rows : 1) * sizeof(fr_t)) : NULL;
    if (inp && aux && (!all || !abc))
        st = api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory for witnesses[%zu]", i);
    const cuzk_fr *src[3] = {w->a, w->b, w->c};
    static const char *const names[3] = {"a", "b", "c"};
    for (int k = 0; k < 3 && abc && st == CUZK_OK; k++) {
        fr_t *v = read_values(c->curve, src[k], rows, i, names[k], fn, &st);
        if (v) {
            memcpy(abc + (size_t)k * rows, v, rows * sizeof(fr_t));
            free(v);
        }
    }
    if (st == CUZK_OK && !api_fr_is_one(c->curve, &inp[0]))
        st = api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                      "witnesses[%zu].input[0] is not 1 (the constant ONE comes first)", i);
    if (st != CUZK_OK) {
        free(inp);
        free(aux);
        free(all);
        free(abc);
        return st;
    }
    memcpy(all, inp, ni * sizeof(fr_t));
    memcpy(all + ni, aux, na * sizeof(fr_t));
    free(inp);
    free(aux);
    memcpy(pub, all + 1, (ni - 1) * sizeof(fr_t));
    in->witness = all; /* both freed by the caller after the engine copied them */
    in->witness_len = ni + na;
    in->a = abc;
    in->b = abc + rows;
    in->c = abc + 2 * rows;
    in->abc_len = rows;
    return CUZK_OK;
}

/* ---------------------------------------------------------- submission */

/* Per witness: what the engine gets, and the public inputs into pub. */
static cuzk_status take_witness(engine_partition_input *in, fr_t *pub, const cuzk_circuit *c,
                                const cuzk_witness *w, size_t i, const char *fn)
{
    uint64_t nv = c->num_vars, np = c->num_public;
    char msg[512] = "";
    cuzk_status st;
    switch (w->kind) {
    case CUZK_WITNESS_WTNS: {
        if (!w->wtns_path)
            return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "witnesses[%zu].wtns_path is NULL", i);
        circom_wtns_t wt;
        if ((st = circom_wtns_open(&wt, w->wtns_path, msg, sizeof(msg))) != CUZK_OK)
            return api_fail(st, fn, "witnesses[%zu].wtns_path: %s", i,
                            msg[0] ? msg : cuzk_status_str(st));
        if (wt.curve != c->curve) {
            st = api_fail(CUZK_ERR_UNSUPPORTED, fn,
                          "witnesses[%zu].wtns_path: %s is for the %s curve, circuit %s for %s", i,
                          w->wtns_path, curve_id_snarkjs_name(wt.curve), c->name,
                          curve_id_snarkjs_name(c->curve));
        } else if (wt.num_values != nv) {
            st = api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                          "witnesses[%zu].wtns_path: %s has %llu values, circuit %s has %llu "
                          "variables: the witness is for another circuit",
                          i, w->wtns_path, (unsigned long long)wt.num_values, c->name,
                          (unsigned long long)nv);
        } else if ((st = circom_wtns_decode(pub, &wt, 1, np, msg, sizeof(msg))) != CUZK_OK) {
            st = api_fail(st, fn, "witnesses[%zu].wtns_path: %s", i, msg);
        }
        circom_wtns_close(&wt);
        in->wtns_path = w->wtns_path;
        return st;
    }
    case CUZK_WITNESS_ASSIGNMENT: {
        if (!w->assignment)
            return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "witnesses[%zu].assignment is NULL", i);
        if (w->assignment_len != nv)
            return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                            "witnesses[%zu].assignment_len is %zu, circuit %s has %llu variables "
                            "(cuzk_circuit_shape's witness_len)",
                            i, w->assignment_len, c->name, (unsigned long long)nv);
        fr_t *a = malloc(nv * sizeof(fr_t));
        if (!a)
            return api_fail(CUZK_ERR_OUT_OF_MEMORY, fn,
                            "no memory for witnesses[%zu] (%llu values)", i,
                            (unsigned long long)nv);
        for (uint64_t k = 0; k < nv; k++) {
            if (!api_fr_in(c->curve, &a[k], &w->assignment[k])) {
                free(a);
                return api_fail(CUZK_ERR_NOT_CANONICAL, fn,
                                "witnesses[%zu].assignment[%llu] is not below r", i,
                                (unsigned long long)k);
            }
        }
        if (!api_fr_is_one(c->curve, &a[0])) {
            free(a);
            return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                            "witnesses[%zu].assignment[0] is not 1 (the constant ONE comes "
                            "first)",
                            i);
        }
        memcpy(pub, a + 1, np * sizeof(fr_t));
        in->witness = a; /* freed by the caller after the engine copied it */
        in->witness_len = nv;
        return CUZK_OK;
    }
    case CUZK_WITNESS_SEED:
        if (c->kind != CIRCUIT_BUILTIN)
            return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                            "witnesses[%zu].kind is CUZK_WITNESS_SEED, which only the built-in "
                            "circuit takes; %s is a %s circuit",
                            i, c->name, kind_name(c->kind));
        if ((st = porep_like_public_inputs(pub, np, &c->shape, w->seed)) != CUZK_OK)
            return api_fail_msg(st, fn, "the public inputs of witnesses[].seed", "");
        in->seed = w->seed;
        return CUZK_OK;
    case CUZK_WITNESS_BELLMAN:
        return take_bellman(in, pub, c, w, i, fn);
    }
    return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "witnesses[%zu].kind is %d: not a kind", i,
                    (int)w->kind);
}

static cuzk_status read_blinding(curve_id curve, fr_t **out, const cuzk_fr *v, size_t n,
                                 const char *fn, const char *arg)
{
    if (!(*out = malloc(n * sizeof(fr_t))))
        return api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory for %s", arg);
    for (size_t i = 0; i < n; i++)
        if (!api_fr_in(curve, &(*out)[i], &v[i]))
            return api_fail(CUZK_ERR_NOT_CANONICAL, fn, "%s[%zu] is not below r", arg, i);
    return CUZK_OK;
}

cuzk_status api_submit(cuzk_engine *h, cuzk_job **job, const char *fn, cuzk_circuit *c,
                       const cuzk_witness *witnesses, size_t n, const cuzk_job_options *options)
{
    if (!h)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "engine is NULL");
    if (!job)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "job (the output) is NULL");
    *job = NULL;
    if (!c)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "circuit is NULL");
    if (c->owner != h)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "circuit %s belongs to another engine",
                        c->name);
    if (!witnesses)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "witnesses is NULL");
    if (n < 1 || n > API_MAX_PARTITIONS)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "num_witnesses is %zu: 1 to %d", n,
                        API_MAX_PARTITIONS);
    cuzk_job_options o;
    cuzk_job_options_init(&o);
    cuzk_status st;
    if (options && (st = api_read_versioned(&o, sizeof(o), options, fn, "options")) != CUZK_OK)
        return st;
    if ((unsigned)o.priority > CUZK_PRIORITY_LOW)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "options->priority is %d: CUZK_PRIORITY_CRITICAL .. _LOW", (int)o.priority);
    if (!o.r != !o.s)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "options->%s is NULL and options->%s is not: fix both or neither",
                        o.r ? "s" : "r", o.r ? "r" : "s");
    /* The job's reference keeps c while it runs, whatever the caller does
     * with the handle; refused once the handle is released. */
    pthread_mutex_lock(&h->mu);
    bool released = c->released;
    if (!released)
        c->refs++;
    pthread_mutex_unlock(&h->mu);
    if (released)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "circuit %s was released", c->name);

    cuzk_job *j = calloc(1, sizeof(*j));
    engine_partition_input *in = calloc(n, sizeof(*in));
    fr_t *r = NULL, *s = NULL;
    uint64_t np = c->num_public;
    if (j)
        j->pub = malloc((n * np > 0 ? n * np : 1) * sizeof(fr_t));
    if (!j || !in || !j->pub) {
        st = api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory for a job of %zu partitions", n);
        goto fail;
    }
    if (o.r && ((st = read_blinding(c->curve, &r, o.r, n, fn, "options->r")) != CUZK_OK ||
                (st = read_blinding(c->curve, &s, o.s, n, fn, "options->s")) != CUZK_OK))
        goto fail;
    for (size_t i = 0; i < n; i++)
        if ((st = take_witness(&in[i], j->pub + i * np, c, &witnesses[i], i, fn)) != CUZK_OK)
            goto fail;
    engine_job_spec spec = {.circuit = c->engine_name,
                            .priority = (engine_priority)o.priority,
                            .partitions = (uint32_t)n,
                            .inputs = in,
                            .timeout_s = o.timeout_s > 0 ? o.timeout_s : -1,
                            .r = r,
                            .s = s};
    char msg[512] = "";
    if ((st = engine_submit(h->e, &spec, &j->id, msg, sizeof(msg))) != CUZK_OK) {
        st = api_fail_msg(st, fn, "the engine refused the job", msg);
        goto fail;
    }
    j->owner = h;
    j->circuit = c;
    j->partitions = (uint32_t)n;
    j->curve = c->curve;
    j->num_public = np;
    pthread_mutex_lock(&h->mu);
    j->next = h->jobs;
    if (h->jobs)
        h->jobs->prev = j;
    h->jobs = j;
    pthread_mutex_unlock(&h->mu);
    *job = j;
    st = api_ok();
    goto done;
fail:
    if (j)
        api_job_free(j);
    pthread_mutex_lock(&h->mu);
    cuzk_circuit *last = api_circuit_unref(c);
    pthread_mutex_unlock(&h->mu);
    if (last)
        api_circuit_free(last);
done:
    for (size_t i = 0; in && i < n; i++) {
        free((void *)in[i].witness);
        free((void *)in[i].a); /* a, b and c are one block */
    }
    free(in);
    if (r)
        cuzk_wipe(r, n * sizeof(fr_t));
    if (s)
        cuzk_wipe(s, n * sizeof(fr_t));
    free(r);
    free(s);
    return st;
}

cuzk_status cuzk_job_submit(cuzk_engine *engine, cuzk_job **job, cuzk_circuit *circuit,
                            const cuzk_witness *witnesses, size_t num_witnesses,
                            const cuzk_job_options *options)
{
    return api_submit(engine, job, "cuzk_job_submit", circuit, witnesses, num_witnesses, options);
}

/* ------------------------------------------------------------- states */

static cuzk_job_state state_out(engine_state s)
{
    return (cuzk_job_state)s; /* the same order, from QUEUED to CANCELLED */
}

/* A final job gives its circuit reference back (once). */
static void seen_final(cuzk_job *j)
{
    cuzk_engine *h = j->owner;
    cuzk_circuit *last = NULL;
    pthread_mutex_lock(&h->mu);
    if (!j->finished) {
        j->finished = true;
        last = api_circuit_unref(j->circuit);
    }
    pthread_mutex_unlock(&h->mu);
    if (last)
        api_circuit_free(last);
}

/* After a query: a final job drops its circuit; a failed or cancelled one
 * leaves its reason as the thread's message. */
static cuzk_status report(cuzk_job *j, engine_state s, const char *fn)
{
    if (!engine_state_is_terminal(s))
        return api_ok();
    seen_final(j);
    if (s == ENGINE_STATE_DONE)
        return api_ok();
    engine_job_info info;
    if (engine_job_status(j->owner->e, j->id, &info, NULL, 0) != CUZK_OK)
        info.message[0] = 0;
    return api_fail(CUZK_OK, fn, "job %llu %s: %s", (unsigned long long)j->id, engine_state_name(s),
                    info.message);
}

cuzk_status cuzk_job_wait(cuzk_job *job, cuzk_job_state *state, double timeout_s)
{
    static const char fn[] = "cuzk_job_wait";
    if (!job)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "job is NULL");
    if (!state)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "state (the output) is NULL");
    engine_state s;
    cuzk_status st = engine_wait(job->owner->e, job->id, timeout_s < 0 ? -1.0 : timeout_s, &s);
    if (st != CUZK_OK)
        return api_fail(CUZK_ERR_INTERNAL, fn, "the engine has no job %llu",
                        (unsigned long long)job->id);
    *state = state_out(s);
    return report(job, s, fn);
}

cuzk_status cuzk_job_status(cuzk_job *job, cuzk_job_state *state, uint32_t *partitions_done)
{
    static const char fn[] = "cuzk_job_status";
    if (!job)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "job is NULL");
    if (!state)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "state (the output) is NULL");
    engine_job_info info;
    if (engine_job_status(job->owner->e, job->id, &info, NULL, 0) != CUZK_OK)
        return api_fail(CUZK_ERR_INTERNAL, fn, "the engine has no job %llu",
                        (unsigned long long)job->id);
    *state = state_out(info.state);
    if (partitions_done)
        *partitions_done = info.partitions_done;
    return report(job, info.state, fn);
}

cuzk_status cuzk_job_cancel(cuzk_job *job)
{
    static const char fn[] = "cuzk_job_cancel";
    if (!job)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "job is NULL");
    char msg[256] = "";
    cuzk_status st = engine_cancel(job->owner->e, job->id, msg, sizeof(msg));
    return st == CUZK_OK ? api_ok() : api_fail_msg(st, fn, "job", msg);
}

/* CUZK_OK when the job is DONE (and it drops its circuit). */
static cuzk_status need_done(cuzk_job *j, const char *fn)
{
    engine_job_info info;
    if (engine_job_status(j->owner->e, j->id, &info, NULL, 0) != CUZK_OK)
        return api_fail(CUZK_ERR_INTERNAL, fn, "the engine has no job %llu",
                        (unsigned long long)j->id);
    if (info.state == ENGINE_STATE_DONE) {
        seen_final(j);
        return CUZK_OK;
    }
    return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "job %llu is %s, not done%s%s",
                    (unsigned long long)j->id, engine_state_name(info.state),
                    info.message[0] ? ": " : "", info.message);
}

cuzk_status cuzk_job_proof(cuzk_job *job, uint8_t *proof, size_t *proof_len)
{
    static const char fn[] = "cuzk_job_proof";
    if (!job)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "job is NULL");
    if (!proof_len)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "proof_len is NULL");
    cuzk_status st = need_done(job, fn);
    if (st != CUZK_OK)
        return st;
    size_t need = (size_t)job->partitions * curve_proof_bytes(job->curve);
    if (!proof || *proof_len < need) {
        size_t had = *proof_len;
        *proof_len = need;
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "proof_len is %zu%s: the proof has %zu bytes (%u partitions)", had,
                        proof ? "" : " and proof NULL", need, job->partitions);
    }
    size_t len = 0;
    if (engine_job_proof(job->owner->e, job->id, proof, *proof_len, &len) != CUZK_OK)
        return api_fail(CUZK_ERR_INTERNAL, fn, "the engine has no proof of job %llu",
                        (unsigned long long)job->id);
    *proof_len = len;
    return api_ok();
}

cuzk_status cuzk_job_public_inputs(cuzk_job *job, cuzk_fr *inputs, size_t *inputs_len)
{
    static const char fn[] = "cuzk_job_public_inputs";
    if (!job)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "job is NULL");
    if (!inputs_len)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "inputs_len is NULL");
    size_t need = (size_t)job->partitions * job->num_public;
    if ((!inputs && need) || *inputs_len < need) {
        size_t had = *inputs_len;
        *inputs_len = need;
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "inputs_len is %zu: the job has %zu public values (%u partitions of "
                        "%llu)",
                        had, need, job->partitions, (unsigned long long)job->num_public);
    }
    for (size_t i = 0; i < need; i++)
        api_fr_out(job->curve, &inputs[i], &job->pub[i]);
    *inputs_len = need;
    return api_ok();
}

cuzk_status cuzk_job_snarkjs(cuzk_job *job, char **proof_json, char **public_json,
                             uint32_t partition)
{
    static const char fn[] = "cuzk_job_snarkjs";
    if (proof_json)
        *proof_json = NULL;
    if (public_json)
        *public_json = NULL;
    if (!job)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "job is NULL");
    if (partition >= job->partitions)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "partition is %u: the job has %u", partition,
                        job->partitions);
    cuzk_status st = need_done(job, fn);
    if (st != CUZK_OK)
        return st;
    size_t per = curve_proof_bytes(job->curve), len = (size_t)job->partitions * per;
    uint8_t *bytes = malloc(len);
    if (!bytes)
        return api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory for the proof");
    char msg[256] = "";
    groth16_proof_t proof;
    bn254_groth16_proof_t bn254_proof;
    const uint8_t *mine = bytes + (size_t)partition * per;
    if (engine_job_proof(job->owner->e, job->id, bytes, len, &len) != CUZK_OK) {
        st = api_fail(CUZK_ERR_INTERNAL, fn, "the engine has no proof of job %llu",
                      (unsigned long long)job->id);
    } else if ((st = job->curve == CURVE_BN254
                         ? bn254_proof_decode(&bn254_proof, mine, msg, sizeof(msg))
                         : bellman_proof_decode(&proof, mine, msg, sizeof(msg))) != CUZK_OK) {
        st = api_fail_msg(st, fn, "the engine's proof", msg);
    }
    free(bytes);
    if (st != CUZK_OK)
        return st;
    const fr_t *pub = job->pub + (size_t)partition * job->num_public;
    bool bn254 = job->curve == CURVE_BN254;
    char *pj = !proof_json ? NULL
               : bn254     ? bn254_snarkjs_proof_to_json(&bn254_proof)
                           : snarkjs_proof_to_json(&proof);
    char *uj = !public_json ? NULL
               : bn254 ? bn254_snarkjs_public_to_json(bn254_fr_slots_const(pub), job->num_public)
                       : snarkjs_public_to_json(pub, job->num_public);
    if ((proof_json && !pj) || (public_json && !uj)) {
        free(pj);
        free(uj);
        return api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory for the JSON");
    }
    if (proof_json)
        *proof_json = pj;
    if (public_json)
        *public_json = uj;
    return api_ok();
}

void cuzk_job_destroy(cuzk_job *job)
{
    if (!job)
        return;
    cuzk_engine *h = job->owner;
    engine_job_info info;
    if (engine_job_status(h->e, job->id, &info, NULL, 0) == CUZK_OK &&
        !engine_state_is_terminal(info.state)) {
        char msg[64];
        (void)engine_cancel(h->e, job->id, msg, sizeof(msg));
        engine_state s;
        (void)engine_wait(h->e, job->id, -1, &s);
    }
    seen_final(job);
    (void)engine_forget(h->e, job->id);
    pthread_mutex_lock(&h->mu);
    if (job->prev)
        job->prev->next = job->next;
    else
        h->jobs = job->next;
    if (job->next)
        job->next->prev = job->prev;
    pthread_mutex_unlock(&h->mu);
    api_job_free(job);
}
