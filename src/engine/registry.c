/* Circuits: registration, loading (once; then resident), LRU eviction of
 * idle circuits within the resident budget, and the per-circuit buffer
 * pools within the buffer budget. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/internal.h"
#include "groth16/verifier.h"

#define ALIGN64(x) (((x) + 63) & ~(uint64_t)63)

/* ------------------------------------------------------------ lookup */

circuit *registry_find(engine *e, const char *name)
{
    for (circuit *c = e->circuits; c; c = c->next)
        if (name && !strcmp(c->name, name))
            return c;
    return NULL;
}

/* Whether the partitions of a circuit of kind ops get their a, b, c from
 * the backends: the kind has a constraint system, every backend (the CPU
 * fallback included) can evaluate, and the configuration wants it. Auto
 * leaves it to the synthesis workers on the CPU backend: there prove()
 * holds the device, which is all the cores, so evaluating inside it
 * would lengthen every partition's critical path instead of overlapping
 * the previous partition's MSMs, and save no memory (the CPU backend
 * needs the same three vectors as scratch). */
static bool abc_on_backend(const engine *e, const circuit_ops *ops)
{
    if (ops->needs_abc || e->cfg.abc_eval == ENGINE_ABC_SYNTHESIS || !e->num_backends)
        return false;
    for (unsigned b = 0; b < e->num_backends; b++)
        if (!e->backends[b]->evaluates_abc)
            return false;
    return e->cfg.abc_eval == ENGINE_ABC_BACKEND || !e->backends[0]->is_cpu;
}

cuzk_status engine_register(engine_t *e, const circuit_spec *spec, char *msg, size_t msg_len)
{
    if (!e || !spec || !spec->name || !spec->name[0] || strlen(spec->name) >= 64) {
        engine_msg(msg, msg_len, "a circuit needs a name of 1 to 63 bytes");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    const circuit_ops *ops = circuit_kind_ops(spec->kind);
    const char *path = ops ? circuit_spec_key_path(spec) : NULL;
    if (!ops || !path) {
        engine_msg(msg, msg_len, "circuit %s: needs a kind and its key file", spec->name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    circuit *c = calloc(1, sizeof(*c));
    if (!c || circuit_spec_copy(&c->spec, spec) != CUZK_OK) {
        free(c);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    snprintf(c->name, sizeof(c->name), "%s", spec->name);
    c->ops = ops;
    c->path = circuit_spec_key_path(&c->spec);
    /* Probing reads file headers: outside the lock. */
    circuit_counts counts = {0};
    cuzk_status st = ops->probe(&c->spec, &counts, msg, msg_len);
    if (st == CUZK_OK) {
        c->curve = counts.curve;
        c->proof_bytes = curve_proof_bytes(counts.curve);
        c->num_vars = counts.num_vars;
        c->num_public = counts.num_public;
        c->domain_n = counts.domain_n;
        c->rows = counts.rows;
        c->estimate_bytes = counts.estimate_bytes;
        c->abc_on_backend = abc_on_backend(e, ops);
        c->set_bytes = ALIGN64(c->num_vars * sizeof(fr_t)) +
                       (c->abc_on_backend ? 0 : 3 * c->domain_n * sizeof(fr_t));
    }
    pthread_mutex_lock(&e->mu);
    if (st == CUZK_OK && registry_find(e, c->name)) {
        engine_msg(msg, msg_len, "a circuit named %s is already registered", c->name);
        st = CUZK_ERR_INVALID_ARGUMENT;
    }
    if (st == CUZK_OK && e->buffer_budget_auto)
        e->cfg.buffer_budget =
            engine_auto_buffer_budget(e->physical_memory, e->cfg.buffer_budget, c->set_bytes);
    if (st == CUZK_OK) {
        circuit **tail = &e->circuits; /* keep registration order */
        while (*tail)
            tail = &(*tail)->next;
        *tail = c;
        e->num_circuits++;
    }
    pthread_mutex_unlock(&e->mu);
    if (st != CUZK_OK) {
        circuit_spec_free(&c->spec);
        free(c);
    }
    return st;
}

/* ---------------------------------------------------- loading, freeing */

/* Frees whatever of c's loaded data exists (unlocked; c is LOADING or
 * UNLOADING, so no one else touches it). */
static void free_loaded(engine *e, circuit *c)
{
    for (unsigned b = 0; b < e->num_backends; b++) {
        if (c->handle[b])
            e->backends[b]->release(e->backends[b], c->handle[b]);
        c->handle[b] = NULL;
    }
    groth16_pvk_free(&c->pvk);
    memset(&c->pvk, 0, sizeof(c->pvk));
    if (c->loaded.state)
        c->ops->unload(&c->loaded);
    memset(&c->loaded, 0, sizeof(c->loaded));
}

bool registry_serves(const engine *e, const circuit *c, unsigned s)
{
    return c->handle[e->slots[s].backend] != NULL;
}

/* When the primary backend holds its own copy of c's points (a GPU's,
 * uploaded by prepare), the host's copy goes: a 2^27 circuit would
 * otherwise hold its ~50 GB twice. A backend that reads the host's points
 * (the CPU fallback) gives the circuit up first: its handle is released,
 * and no slot of it is offered the circuit's partitions again
 * (registry_serves, in sched_pick_prove and the retry's avoid_slot), so
 * once the plan's point pointers are cleared nothing reads them: the
 * backends left read their own copies, and the finalizer reads only the
 * verifying key. *bytes drops by what was freed. */
static void drop_host_points(engine *e, circuit *c, const uint64_t *backend_bytes, uint64_t *bytes)
{
    backend_t *primary = e->backends[0];
    if (!c->ops->drop_points || !c->handle[0] || !primary->copies_points ||
        (primary->reads_host_points && primary->reads_host_points(primary, c->handle[0])))
        return;
    for (unsigned b = 1; b < e->num_backends; b++)
        if (c->handle[b] && !e->backends[b]->copies_points) {
            e->backends[b]->release(e->backends[b], c->handle[b]);
            c->handle[b] = NULL;
            *bytes -= backend_bytes[b];
        }
    uint64_t before = c->loaded.bytes;
    c->ops->drop_points(&c->loaded);
    *bytes -= before - c->loaded.bytes;
}

cuzk_status registry_load(engine *e, circuit *c, char *msg, size_t msg_len)
{
    unsigned threads = e->cfg.load_threads;
    cuzk_status st;
    char why[384] = "";
    backend_t *primary = e->backends[0];
    /* The primary backend's fixed-base products, for development
     * parameters made at load. */
    groth16_fixed_base_ops fb;
    bool have_fb = backend_fixed_base_ops(primary, &fb);
    circuit_load_opts lo = {.threads = threads, .fixed_base = have_fb ? &fb : NULL};
    /* Subgroup checks of the proving key's queries go to the primary
     * backend when it makes them itself (the GPU: seconds where the host
     * took minutes at 2^24); the load checks the curve equation only, and
     * the verifying key's few points here. */
    circuit_spec spec = c->spec;
    const bool backend_checks = spec.check == FORMATS_CHECK_SUBGROUP && primary->checks_subgroup &&
                                c->curve == CURVE_BLS12_381;
    if (backend_checks)
        spec.check = FORMATS_CHECK_CURVE;
    if ((st = c->ops->load(&spec, &lo, &c->loaded, why, sizeof(why))) != CUZK_OK)
        goto fail;
    if (c->loaded.curve != c->curve) {
        engine_msg(why, sizeof(why), "%s changed since it was registered", c->path);
        st = CUZK_ERR_CORRUPT;
        goto fail;
    }
    /* (A BN254 key's verifying key is always decoded with the subgroup
     * check: circuits/circuit.c's zkey kind.) */
    if (backend_checks && c->curve == CURVE_BLS12_381 && !groth16_vk_in_subgroup(c->loaded.vk)) {
        engine_msg(why, sizeof(why),
                   "%s: a point of its verifying key is not in the order-r "
                   "subgroup",
                   c->path);
        st = CUZK_ERR_CORRUPT;
        goto fail;
    }
    if (c->loaded.plan->num_vars != c->num_vars ||
        groth16_plan_domain_n(c->loaded.plan) != c->domain_n || c->loaded.rows != c->rows) {
        engine_msg(why, sizeof(why), "%s changed since it was registered", c->path);
        st = CUZK_ERR_CORRUPT;
        goto fail;
    }
    uint64_t bytes = c->loaded.bytes;
    /* BLS12-381's verifier takes a prepared key; BN254's the key itself. */
    if (c->curve == CURVE_BLS12_381 &&
        (st = groth16_prepare_vk(&c->pvk, c->loaded.vk)) != CUZK_OK) {
        engine_msg(why, sizeof(why), "cannot prepare the verifying key: %s", cuzk_status_str(st));
        goto fail;
    }
    bytes += sizeof(c->pvk) + c->pvk.num_ic * sizeof(g1_affine_t);
    if (c->abc_on_backend && !c->loaded.cs) {
        engine_msg(why, sizeof(why), "its kind (%s) gave no constraint system to evaluate a, b, c",
                   c->ops->name);
        st = CUZK_ERR_INTERNAL;
        goto fail;
    }
    backend_circuit_desc d = {.name = c->name,
                              .plan = c->loaded.plan,
                              .threads = threads,
                              .cs = c->abc_on_backend ? c->loaded.cs : NULL,
                              .rows = c->loaded.rows,
                              .c_is_ab = c->loaded.c_is_ab,
                              .check_subgroup = backend_checks,
                              .device_budget = e->cfg.device_budget};
    uint64_t backend_bytes[ENGINE_MAX_BACKENDS] = {0};
    uint64_t device_bytes = 0;
    for (unsigned b = 0; b < e->num_backends; b++) {
        char bmsg[256] = "";
        st = e->backends[b]->prepare(e->backends[b], &d, &c->handle[b], &backend_bytes[b], bmsg,
                                     sizeof(bmsg));
        if (st == CUZK_ERR_UNSUPPORTED && b == 0 && e->num_backends > 1) {
            /* The primary cannot prove this circuit (a GPU, and a BN254
             * plan whose parameters would have to stream under the device
             * budget): the CPU fallback proves all of its partitions
             * (sched_pick_prove), and says so once. */
            c->handle[0] = NULL;
            if (!e->cfg.quiet)
                fprintf(stderr, "cuzk: %s; circuit %s is proved on the CPU\n", bmsg, c->name);
            continue;
        }
        if (st != CUZK_OK) {
            engine_msg(why, sizeof(why), "backend %s: %s", e->backends[b]->name,
                       bmsg[0] ? bmsg : cuzk_status_str(st));
            goto fail;
        }
        char note[sizeof(c->placement)] = "";
        if (e->backends[b]->describe)
            e->backends[b]->describe(e->backends[b], c->handle[b], note, sizeof(note));
        if (b == 0)
            snprintf(c->placement, sizeof(c->placement), "%s", note);
        if (note[0] && !e->cfg.quiet)
            fprintf(stderr, "cuzk: circuit %s on %s: %s\n", c->name, e->backends[b]->name, note);
        d.check_subgroup = false; /* the primary checked them; the others share them */
        /* The resident budget is host memory: what a backend made on its
         * devices is counted apart (a GPU's memory is not the host's; the
         * device fails the prepare itself when it has no room). */
        if (e->backends[b]->is_cpu)
            bytes += backend_bytes[b];
        else
            device_bytes += backend_bytes[b];
    }
    drop_host_points(e, c, backend_bytes, &bytes);
    if (bytes > e->cfg.resident_budget) {
        engine_msg(why, sizeof(why), "it needs %llu bytes resident; the resident budget is %llu",
                   (unsigned long long)bytes, (unsigned long long)e->cfg.resident_budget);
        st = CUZK_ERR_OUT_OF_MEMORY;
        goto fail;
    }
    c->resident_bytes = bytes;
    c->device_bytes = device_bytes;
    return CUZK_OK;
fail:
    engine_msg(msg, msg_len, "circuit %s could not be loaded: %s", c->name,
               why[0] ? why : cuzk_status_str(st));
    free_loaded(e, c);
    return st;
}

/* The least recently used idle resident circuit other than c. */
static circuit *lru_idle(engine *e, const circuit *c)
{
    circuit *lru = NULL;
    for (circuit *o = e->circuits; o; o = o->next)
        if (o != c && o->state == CIRCUIT_RESIDENT && o->refs == 0 &&
            (!lru || o->last_used < lru->last_used))
            lru = o;
    return lru;
}

void registry_loaded(engine *e, circuit *c, cuzk_status st)
{
    e->resident_bytes -= c->estimate_bytes;
    if (st == CUZK_OK) {
        c->state = CIRCUIT_RESIDENT;
        c->estimate_bytes = c->resident_bytes;
        e->resident_bytes += c->resident_bytes;
        c->loads++;
        c->last_used = ++e->tick;
    } else {
        c->state = CIRCUIT_IDLE;
        c->resident_bytes = 0;
    }
    pthread_cond_broadcast(&e->done_cv);
    pthread_cond_broadcast(&e->synth_cv);
    /* The estimate admitted c; when the actual size is larger, idle
     * circuits make up the difference. */
    uint64_t projected = e->resident_bytes;
    circuit *victims = NULL, *v;
    while (projected > e->cfg.resident_budget && (v = lru_idle(e, c))) {
        v->state = CIRCUIT_UNLOADING;
        v->unload_next = victims;
        victims = v;
        projected -= v->resident_bytes;
    }
    registry_unload_victims(e, victims);
}

void registry_unload(engine *e, circuit *c)
{
    free_loaded(e, c);
    pool_free_list(c->free_sets);
}

void registry_unloaded(engine *e, circuit *c)
{
    e->resident_bytes -= c->resident_bytes;
    e->buf_allocated -= (uint64_t)c->sets * c->set_bytes;
    e->pool_frees += c->sets;
    c->free_sets = NULL;
    c->sets = c->sets_free = 0;
    c->resident_bytes = 0;
    c->state = CIRCUIT_IDLE;
    pthread_cond_broadcast(&e->done_cv);
    pthread_cond_broadcast(&e->synth_cv);
}

void registry_unload_victims(engine *e, circuit *victims)
{
    if (!victims)
        return;
    pthread_mutex_unlock(&e->mu);
    for (circuit *v = victims; v; v = v->unload_next)
        registry_unload(e, v);
    pthread_mutex_lock(&e->mu);
    for (circuit *v = victims, *next; v; v = next) {
        next = v->unload_next;
        v->unload_next = NULL;
        registry_unloaded(e, v);
    }
}

int registry_make_room(engine *e, circuit *c, circuit **victims)
{
    uint64_t budget = e->cfg.resident_budget, need = c->estimate_bytes;
    *victims = NULL;
    if (need > budget)
        return -1;
    uint64_t idle = 0;
    for (circuit *o = e->circuits; o; o = o->next)
        if (o != c && o->state == CIRCUIT_RESIDENT && o->refs == 0)
            idle += o->resident_bytes;
    if (e->resident_bytes + need > budget + idle)
        return 0;
    while (e->resident_bytes + need > budget) {
        circuit *lru = lru_idle(e, c);
        /* Still counted in resident_bytes until freed: the loader frees
         * the victims before it loads. */
        lru->state = CIRCUIT_UNLOADING;
        lru->unload_next = *victims;
        *victims = lru;
        budget += lru->resident_bytes;
    }
    c->state = CIRCUIT_LOADING;
    e->resident_bytes += need;
    return 1;
}

/* ------------------------------------------------------ preload, evict */

/* registry_find, with a message when there is no such circuit. */
static circuit *find_named(engine *e, const char *name, cuzk_status *st, char *msg, size_t msg_len)
{
    circuit *c = registry_find(e, name);
    *st = c ? CUZK_OK : CUZK_ERR_INVALID_ARGUMENT;
    if (!c)
        engine_msg(msg, msg_len, "no circuit named %s", name ? name : "(null)");
    return c;
}

cuzk_status engine_preload(engine_t *e, const char *name, char *msg, size_t msg_len)
{
    pthread_mutex_lock(&e->mu);
    cuzk_status st;
    circuit *c = find_named(e, name, &st, msg, msg_len);
    while (c && (c->state == CIRCUIT_LOADING || c->state == CIRCUIT_UNLOADING))
        pthread_cond_wait(&e->done_cv, &e->mu);
    if (c && c->state == CIRCUIT_IDLE) {
        circuit *victims;
        int room = registry_make_room(e, c, &victims);
        if (room <= 0) {
            engine_msg(msg, msg_len,
                       room < 0 ? "circuit %s needs about %llu bytes; the resident budget is %llu"
                                : "circuit %s needs about %llu bytes; the resident budget (%llu) "
                                  "is held by circuits in use",
                       c->name, (unsigned long long)c->estimate_bytes,
                       (unsigned long long)e->cfg.resident_budget);
            st = CUZK_ERR_OUT_OF_MEMORY;
        } else {
            registry_unload_victims(e, victims);
            pthread_mutex_unlock(&e->mu);
            st = registry_load(e, c, msg, msg_len);
            pthread_mutex_lock(&e->mu);
            registry_loaded(e, c, st);
            if (st == CUZK_OK)
                pool_prefill(e, c);
        }
    } else if (c) {
        c->last_used = ++e->tick;
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

cuzk_status engine_circuit_vk(engine_t *e, const char *name, groth16_vk_t *out, char *msg,
                              size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    /* An idle circuit may be evicted between the load and the copy: load
     * again (each load is a fresh chance; a few are plenty). */
    for (int attempt = 0; attempt < 4; attempt++) {
        cuzk_status st = engine_preload(e, name, msg, msg_len);
        if (st != CUZK_OK)
            return st;
        pthread_mutex_lock(&e->mu);
        circuit *c = find_named(e, name, &st, msg, msg_len);
        if (c && c->state == CIRCUIT_RESIDENT && c->curve != CURVE_BLS12_381) {
            engine_msg(msg, msg_len,
                       "circuit %s is over %s: its verifying key is not a BLS12-381 key", name,
                       curve_id_snarkjs_name(c->curve));
            pthread_mutex_unlock(&e->mu);
            return CUZK_ERR_UNSUPPORTED;
        }
        if (c && c->state == CIRCUIT_RESIDENT) {
            const groth16_vk_t *vk = c->loaded.vk;
            *out = *vk;
            out->ic = malloc(sizeof(g1_affine_t) * (vk->num_ic ? vk->num_ic : 1));
            if (out->ic)
                memcpy(out->ic, vk->ic, sizeof(g1_affine_t) * vk->num_ic);
            else
                st = CUZK_ERR_OUT_OF_MEMORY;
            pthread_mutex_unlock(&e->mu);
            if (st != CUZK_OK)
                memset(out, 0, sizeof(*out));
            return st;
        }
        pthread_mutex_unlock(&e->mu);
        if (!c)
            return st;
    }
    engine_msg(msg, msg_len, "circuit %s was evicted again each time it was loaded", name);
    return CUZK_ERR_OUT_OF_MEMORY;
}

cuzk_status engine_evict(engine_t *e, const char *name, char *msg, size_t msg_len)
{
    pthread_mutex_lock(&e->mu);
    cuzk_status st;
    circuit *c = find_named(e, name, &st, msg, msg_len);
    if (c && c->refs > 0) {
        engine_msg(msg, msg_len, "circuit %s is in use by %u unfinished job%s", c->name, c->refs,
                   c->refs == 1 ? "" : "s");
        st = CUZK_ERR_INVALID_ARGUMENT;
    } else if (c && (c->state == CIRCUIT_LOADING || c->state == CIRCUIT_UNLOADING)) {
        engine_msg(msg, msg_len, "circuit %s is being %s", c->name,
                   c->state == CIRCUIT_LOADING ? "loaded" : "unloaded");
        st = CUZK_ERR_INVALID_ARGUMENT;
    } else if (c && c->state == CIRCUIT_RESIDENT) {
        c->state = CIRCUIT_UNLOADING;
        c->unload_next = NULL;
        registry_unload_victims(e, c);
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

/* -------------------------------------------------------- buffer pools */

/* The sets come from the primary backend's host_alloc when it has one
 * (page-locked memory for a GPU: its copies of w, a, b, c then run at the
 * bus's speed instead of through the driver's staging buffer). */
buf_set *pool_alloc_set(engine *e, const circuit *c)
{
    buf_set *s = malloc(sizeof(*s));
    backend_t *b = e->num_backends ? e->backends[0] : NULL;
    bool pinned = b && b->host_alloc && b->host_free;
    void *data =
        pinned ? b->host_alloc(b, ALIGN64(c->set_bytes)) : aligned_alloc(64, ALIGN64(c->set_bytes));
    if (!s || !data) {
        free(s);
        if (pinned && data)
            b->host_free(b, data);
        else
            free(data);
        return NULL;
    }
    s->next = NULL;
    s->host_mem = pinned ? b : NULL;
    s->w = data;
    s->abc =
        c->abc_on_backend ? NULL : (fr_t *)((uint8_t *)data + ALIGN64(c->num_vars * sizeof(fr_t)));
    return s;
}

void pool_free_list(buf_set *list)
{
    while (list) {
        buf_set *next = list->next;
        if (list->host_mem)
            list->host_mem->host_free(list->host_mem, list->w);
        else
            free(list->w);
        free(list);
        list = next;
    }
}

static void account_take(engine *e, circuit *c)
{
    e->buf_in_use += c->set_bytes;
    e->pool_acquires++;
    if (e->buf_allocated > e->buf_peak)
        e->buf_peak = e->buf_allocated;
}

int pool_take(engine *e, circuit *c, buf_set **set, buf_set **trim)
{
    uint64_t budget = e->cfg.buffer_budget;
    *set = NULL;
    if (c->free_sets) {
        *set = c->free_sets;
        c->free_sets = (*set)->next;
        (*set)->next = NULL;
        c->sets_free--;
        account_take(e, c);
        return 1;
    }
    if (c->set_bytes > budget)
        return -1;
    /* Other circuits' idle sets give way, least recently used circuit first. */
    while (e->buf_allocated + c->set_bytes > budget) {
        circuit *from = NULL;
        for (circuit *o = e->circuits; o; o = o->next)
            if (o != c && o->state == CIRCUIT_RESIDENT && o->free_sets &&
                (!from || o->last_used < from->last_used))
                from = o;
        if (!from)
            return 0;
        buf_set *s = from->free_sets;
        from->free_sets = s->next;
        from->sets--;
        from->sets_free--;
        s->next = *trim;
        *trim = s;
        e->buf_allocated -= from->set_bytes;
        e->pool_frees++;
    }
    e->buf_allocated += c->set_bytes;
    e->pool_allocs++;
    c->sets++;
    account_take(e, c);
    return 1;
}

void pool_prefill(engine *e, circuit *c)
{
    backend_t *b = e->num_backends ? e->backends[0] : NULL;
    if (!b || !b->host_alloc || !b->host_free || c->state != CIRCUIT_RESIDENT || !c->set_bytes)
        return;
    uint64_t room = e->cfg.buffer_budget > e->buf_allocated
                        ? (e->cfg.buffer_budget - e->buf_allocated) / c->set_bytes
                        : 0;
    /* The most sets in use at once: the queue bound's (synthesizing or
     * waiting) and one per prover worker (proving). */
    uint64_t most = (uint64_t)e->cfg.queue_bound + engine_primary_provers(e);
    uint64_t want = most > c->sets ? most - c->sets : 0;
    uint32_t k = (uint32_t)(want < room ? want : room);
    if (!k)
        return;
    /* Reserved as pool_take does; an unload meanwhile drops the
     * reservation with the circuit's other sets (registry_unloaded). */
    e->buf_allocated += (uint64_t)k * c->set_bytes;
    e->pool_allocs += k;
    c->sets += k;
    if (e->buf_allocated > e->buf_peak)
        e->buf_peak = e->buf_allocated;
    uint32_t loads = c->loads;
    pthread_mutex_unlock(&e->mu);
    buf_set *made = NULL;
    uint32_t got = 0;
    for (uint32_t i = 0; i < k; i++) {
        buf_set *s = pool_alloc_set(e, c);
        if (!s)
            break;
        s->next = made;
        made = s;
        got++;
    }
    pthread_mutex_lock(&e->mu);
    if (c->state != CIRCUIT_RESIDENT || c->loads != loads) {
        /* Unloaded (and maybe loaded again) while we allocated. */
        pthread_mutex_unlock(&e->mu);
        pool_free_list(made);
        pthread_mutex_lock(&e->mu);
        return;
    }
    uint32_t failed = k - got;
    e->buf_allocated -= (uint64_t)failed * c->set_bytes;
    e->pool_allocs -= failed;
    c->sets -= failed;
    while (made) {
        buf_set *next = made->next;
        made->next = c->free_sets;
        c->free_sets = made;
        c->sets_free++;
        made = next;
    }
    pthread_cond_broadcast(&e->synth_cv);
}

void pool_unreserve(engine *e, circuit *c)
{
    e->buf_allocated -= c->set_bytes;
    e->buf_in_use -= c->set_bytes;
    e->pool_allocs--;
    e->pool_acquires--;
    c->sets--;
}

void pool_give_back(engine *e, circuit *c, buf_set *set)
{
    set->next = c->free_sets;
    c->free_sets = set;
    c->sets_free++;
    e->buf_in_use -= c->set_bytes;
    e->pool_releases++;
    pthread_cond_broadcast(&e->synth_cv);
}

void registry_free_all(engine *e)
{
    for (circuit *c = e->circuits, *next; c; c = next) {
        next = c->next;
        if (c->state == CIRCUIT_RESIDENT) {
            registry_unload(e, c);
            e->pool_frees += c->sets;
        }
        circuit_spec_free(&c->spec);
        free(c);
    }
    e->circuits = NULL;
}
