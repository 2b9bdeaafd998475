/* cuzk_circuit: registration (a name, the counts and the verifying key,
 * then the engine's registration), release by reference count, and the
 * verification of proofs of a circuit. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"
#include "circuits/porep_like.h"
#include "field/scalar_slots.h"
#include "formats/bellman_params.h"
#include "formats/bn254_proof.h"
#include "formats/zkey.h"
#include "groth16/verifier.h"
#include "util/rng.h"

#define API_NAME_MAX 48 /* room for the engine's "#k" */

/* ---------------------------------------------------------- references */

cuzk_circuit *api_circuit_unref(cuzk_circuit *c)
{
    if (--c->refs > 0)
        return NULL;
    cuzk_engine *h = c->owner;
    if (c->prev)
        c->prev->next = c->next;
    else
        h->circuits = c->next;
    if (c->next)
        c->next->prev = c->prev;
    /* The engine keeps the name registered: a later circuit of this name
     * gets another one. Without memory for the record the name is simply
     * not reused (the engine refuses it). */
    api_name *n = malloc(sizeof(*n));
    if (n) {
        snprintf(n->name, sizeof(n->name), "%s", c->engine_name);
        n->next = h->retired;
        h->retired = n;
    }
    return c;
}

void api_circuit_free(cuzk_circuit *c)
{
    /* Refused only while the engine is still loading it (a job that was
     * cancelled during the load): it is idle then, and the engine evicts
     * it when it needs the room. */
    char msg[256];
    (void)engine_evict(c->owner->e, c->engine_name, msg, sizeof(msg));
    groth16_pvk_free(&c->pvk);
    bn254_groth16_vk_free(&c->bn254_vk);
    free(c);
}

void cuzk_circuit_release(cuzk_circuit *circuit)
{
    if (!circuit)
        return;
    cuzk_engine *h = circuit->owner;
    pthread_mutex_lock(&h->mu);
    cuzk_circuit *last = NULL;
    if (!circuit->released) {
        circuit->released = true;
        last = api_circuit_unref(circuit);
    }
    pthread_mutex_unlock(&h->mu);
    if (last)
        api_circuit_free(last);
}

/* -------------------------------------------------------- registration */

static bool engine_name_taken(const cuzk_engine *h, const char *name)
{
    for (const cuzk_circuit *c = h->circuits; c; c = c->next)
        if (!strcmp(c->engine_name, name))
            return true;
    for (const api_name *n = h->retired; n; n = n->next)
        if (!strcmp(n->name, name))
            return true;
    return false;
}

/* Names c and links it into the list (which reserves the names while the
 * engine registers it, outside the lock). A name of a live circuit is
 * refused unless auto_suffix; one the engine still holds for a released
 * circuit gets "#2", "#3", ... */
static cuzk_status name_and_link(cuzk_engine *h, cuzk_circuit *c, const char *fn, const char *name,
                                 bool auto_suffix)
{
    pthread_mutex_lock(&h->mu);
    if (name) {
        snprintf(c->name, sizeof(c->name), "%s", name);
    } else {
        snprintf(c->name, sizeof(c->name), "circuit-%llu", (unsigned long long)++h->next_name);
    }
    bool live = false;
    for (const cuzk_circuit *o = h->circuits; o; o = o->next)
        live |= !o->released && !strcmp(o->name, c->name);
    if (live && !auto_suffix) {
        pthread_mutex_unlock(&h->mu);
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "name: a circuit named %s is already registered", c->name);
    }
    snprintf(c->engine_name, sizeof(c->engine_name), "%s", c->name);
    for (unsigned k = 2; engine_name_taken(h, c->engine_name); k++)
        snprintf(c->engine_name, sizeof(c->engine_name), "%s#%u", c->name, k);
    if (auto_suffix) /* the caller did not choose it: show the unique one */
        snprintf(c->name, sizeof(c->name), "%.48s", c->engine_name);
    c->owner = h;
    c->refs = 1;
    c->next = h->circuits;
    if (h->circuits)
        h->circuits->prev = c;
    h->circuits = c;
    pthread_mutex_unlock(&h->mu);
    return CUZK_OK;
}

static void unlink_failed(cuzk_engine *h, cuzk_circuit *c)
{
    pthread_mutex_lock(&h->mu);
    if (c->prev)
        c->prev->next = c->next;
    else
        h->circuits = c->next;
    if (c->next)
        c->next->prev = c->prev;
    pthread_mutex_unlock(&h->mu);
    groth16_pvk_free(&c->pvk);
    bn254_groth16_vk_free(&c->bn254_vk);
    free(c);
}

static cuzk_status check_common(cuzk_engine *h, cuzk_circuit **out, const char *fn,
                                const char *name, const char *path, const char *path_arg,
                                cuzk_check check)
{
    if (!h)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "engine is NULL");
    if (!out)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "circuit (the output) is NULL");
    *out = NULL;
    if (name && (!name[0] || strlen(name) > API_NAME_MAX))
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "name \"%.64s\" has %zu bytes: 1 to %d (or NULL)", name, strlen(name),
                        API_NAME_MAX);
    if (!path)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "%s is NULL", path_arg);
    if ((unsigned)check > CUZK_CHECK_SUBGROUP)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "check is %d: CUZK_CHECK_NONE, _CURVE or _SUBGROUP", (int)check);
    return CUZK_OK;
}

/* The verifying key's few points always get the full check. */
static cuzk_status zkey_counts(cuzk_circuit *c, const char *fn, const char *path)
{
    char msg[512] = "";
    zkey_t z;
    cuzk_status st = zkey_open(&z, path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg));
    if (st != CUZK_OK)
        return api_fail_msg(st, fn, "zkey_path", msg);
    c->curve = z.curve;
    c->num_vars = z.num_vars;
    c->num_public = z.num_public;
    if (z.curve == CURVE_BN254) {
        /* verified against as it is: BN254's verifier takes no prepared key */
        c->bn254_vk = z.bn254_vk;
        c->bn254_vk.ic = malloc(z.bn254_vk.num_ic * sizeof(*c->bn254_vk.ic));
        if (c->bn254_vk.ic)
            memcpy(c->bn254_vk.ic, z.bn254_vk.ic, z.bn254_vk.num_ic * sizeof(*c->bn254_vk.ic));
        else
            c->bn254_vk.num_ic = 0;
        st = c->bn254_vk.ic ? CUZK_OK : CUZK_ERR_OUT_OF_MEMORY;
    } else {
        st = groth16_prepare_vk(&c->pvk, &z.vk);
    }
    zkey_close(&z);
    return st == CUZK_OK ? CUZK_OK : api_fail_msg(st, fn, "zkey_path: its verifying key", "");
}

static cuzk_status builtin_counts(cuzk_circuit *c, const char *fn, const char *path)
{
    char msg[512] = "";
    uint64_t cons, aux;
    cuzk_status st = porep_like_count(&c->shape, &cons, &aux);
    if (st != CUZK_OK)
        return api_fail_msg(st, fn, "the built-in circuit's shape", "");
    c->num_public = porep_like_num_inputs(&c->shape);
    c->num_vars = 1 + c->num_public + aux;
    uint64_t seed;
    if (circuit_params_dev(path, &seed, NULL, 0) > 0)
        return CUZK_OK; /* the verifying key comes at the first verify */
    bellman_params_map_t m;
    if ((st = bellman_params_open(&m, path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg))) != CUZK_OK)
        return api_fail_msg(st, fn, "params_path", msg);
    st = groth16_prepare_vk(&c->pvk, &m.vk);
    bellman_params_close(&m);
    return st == CUZK_OK ? CUZK_OK : api_fail_msg(st, fn, "params_path: its verifying key", "");
}

static cuzk_status external_counts(cuzk_circuit *c, const char *fn, const circuit_spec *spec)
{
    char msg[512] = "";
    c->num_inputs = spec->num_inputs;
    c->rows = spec->num_constraints;
    c->num_vars = spec->num_inputs + spec->num_aux;
    c->num_public = spec->num_inputs - 1;
    bellman_params_map_t m;
    cuzk_status st =
        bellman_params_open(&m, spec->params_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg));
    if (st != CUZK_OK)
        return api_fail_msg(st, fn, "params_path", msg);
    st = groth16_prepare_vk(&c->pvk, &m.vk);
    bellman_params_close(&m);
    return st == CUZK_OK ? CUZK_OK : api_fail_msg(st, fn, "params_path: its verifying key", "");
}

cuzk_status api_register(cuzk_engine *h, cuzk_circuit **out, const char *fn, const char *name,
                         bool auto_suffix, const circuit_spec *spec_in)
{
    cuzk_circuit *c = calloc(1, sizeof(*c));
    if (!c)
        return api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory for the circuit");
    c->kind = spec_in->kind;
    c->shape = spec_in->shape;
    cuzk_status st = name_and_link(h, c, fn, name, auto_suffix);
    if (st != CUZK_OK) {
        free(c);
        return st;
    }
    circuit_spec spec = *spec_in;
    spec.name = c->engine_name;
    char msg[512] = "";
    if ((st = engine_register(h->e, &spec, msg, sizeof(msg))) != CUZK_OK) {
        unlink_failed(h, c);
        return api_fail_msg(st, fn, spec.kind == CIRCUIT_ZKEY ? "zkey_path" : "params_path", msg);
    }
    uint64_t seed;
    bool dev =
        spec.kind == CIRCUIT_BUILTIN && circuit_params_dev(spec.params_path, &seed, NULL, 0) > 0;
    st = spec.kind == CIRCUIT_ZKEY       ? zkey_counts(c, fn, spec.zkey_path)
         : spec.kind == CIRCUIT_EXTERNAL ? external_counts(c, fn, &spec)
                                         : builtin_counts(c, fn, spec.params_path);
    c->pvk_ready = st == CUZK_OK && !dev;
    if (st != CUZK_OK) {
        /* The engine keeps the name: retire it with the circuit. */
        pthread_mutex_lock(&h->mu);
        c->released = true;
        cuzk_circuit *last = api_circuit_unref(c);
        pthread_mutex_unlock(&h->mu);
        if (last)
            api_circuit_free(last);
        return st;
    }
    *out = c;
    return api_ok();
}

cuzk_status cuzk_circuit_register_zkey(cuzk_engine *engine, cuzk_circuit **circuit,
                                       const char *name, const char *zkey_path, cuzk_check check)
{
    static const char fn[] = "cuzk_circuit_register_zkey";
    cuzk_status st = check_common(engine, circuit, fn, name, zkey_path, "zkey_path", check);
    if (st != CUZK_OK)
        return st;
    circuit_spec spec = {
        .kind = CIRCUIT_ZKEY, .zkey_path = zkey_path, .check = (formats_check)check};
    return api_register(engine, circuit, fn, name, false, &spec);
}

cuzk_status cuzk_circuit_register_builtin(cuzk_engine *engine, cuzk_circuit **circuit,
                                          const char *name, unsigned log_constraints,
                                          unsigned arity, const char *params_path, cuzk_check check)
{
    static const char fn[] = "cuzk_circuit_register_builtin";
    cuzk_status st = check_common(engine, circuit, fn, name, params_path, "params_path", check);
    if (st != CUZK_OK)
        return st;
    uint64_t seed;
    char why[256] = "";
    if (circuit_params_dev(params_path, &seed, why, sizeof(why)) < 0)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "%s", why);
    if (log_constraints < 10 || log_constraints > 27)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "log_constraints is %u: 10 to 27",
                        log_constraints);
    if (arity != 2 && arity != 8)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "arity is %u: 2 or 8", arity);
    circuit_spec spec = {
        .kind = CIRCUIT_BUILTIN, .params_path = params_path, .check = (formats_check)check};
    if ((st = porep_like_params_for_constraints(&spec.shape, log_constraints, arity)) != CUZK_OK)
        return api_fail(st, fn, "no built-in circuit of 2^%u constraints with arity %u",
                        log_constraints, arity);
    return api_register(engine, circuit, fn, name, false, &spec);
}

cuzk_status cuzk_circuit_register_external(cuzk_engine *engine, cuzk_circuit **circuit,
                                           const char *name, const char *params_path,
                                           const cuzk_external_circuit *desc, cuzk_check check)
{
    static const char fn[] = "cuzk_circuit_register_external";
    cuzk_status st = check_common(engine, circuit, fn, name, params_path, "params_path", check);
    if (st != CUZK_OK)
        return st;
    if (!desc)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "desc is NULL");
    cuzk_external_circuit d = {.size = sizeof(d)};
    if ((st = api_read_versioned(&d, sizeof(d), desc, fn, "desc")) != CUZK_OK)
        return st;
    if (!d.num_inputs || !d.num_constraints)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "desc->num_inputs and desc->num_constraints must not be 0 (ONE is an "
                        "input)");
    if (!d.b_input_density || (d.num_aux && (!d.a_aux_density || !d.b_aux_density)))
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "desc: a density bitmap is NULL");
    circuit_spec spec = {.kind = CIRCUIT_EXTERNAL,
                         .params_path = params_path,
                         .check = (formats_check)check,
                         .num_inputs = d.num_inputs,
                         .num_aux = d.num_aux,
                         .num_constraints = d.num_constraints,
                         .a_aux_density = d.a_aux_density,
                         .b_input_density = d.b_input_density,
                         .b_aux_density = d.b_aux_density};
    return api_register(engine, circuit, fn, name, false, &spec);
}

static cuzk_status check_circuit(const cuzk_circuit *c, const char *fn)
{
    if (!c)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "circuit is NULL");
    if (c->released)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "circuit %s was released", c->name);
    return CUZK_OK;
}

cuzk_status cuzk_circuit_preload(cuzk_circuit *circuit)
{
    static const char fn[] = "cuzk_circuit_preload";
    cuzk_status st = check_circuit(circuit, fn);
    if (st != CUZK_OK)
        return st;
    char msg[512] = "";
    if ((st = engine_preload(circuit->owner->e, circuit->engine_name, msg, sizeof(msg))) != CUZK_OK)
        return api_fail_msg(st, fn, circuit->name, msg);
    return api_ok();
}

cuzk_status cuzk_circuit_curve(const cuzk_circuit *circuit, cuzk_curve *curve, size_t *proof_bytes)
{
    cuzk_status st = check_circuit(circuit, "cuzk_circuit_curve");
    if (st != CUZK_OK)
        return st;
    if (curve)
        *curve = circuit->curve == CURVE_BN254 ? CUZK_CURVE_BN254 : CUZK_CURVE_BLS12_381;
    if (proof_bytes)
        *proof_bytes = curve_proof_bytes(circuit->curve);
    return api_ok();
}

cuzk_status cuzk_circuit_shape(const cuzk_circuit *circuit, uint64_t *witness_len,
                               uint64_t *num_public)
{
    cuzk_status st = check_circuit(circuit, "cuzk_circuit_shape");
    if (st != CUZK_OK)
        return st;
    if (witness_len)
        *witness_len = circuit->num_vars;
    if (num_public)
        *num_public = circuit->num_public;
    return api_ok();
}

/* ---------------------------------------------------------- verifying */

/* The prepared verifying key of a circuit with development parameters, at
 * its first verify: from the engine, which makes the parameters when the
 * circuit is not resident. The load runs without the handle's lock; two
 * verifies racing both load, and the first to finish installs its key. */
static cuzk_status ensure_pvk(cuzk_circuit *c, const char *fn)
{
    cuzk_engine *h = c->owner;
    pthread_mutex_lock(&h->mu);
    bool ready = c->pvk_ready;
    pthread_mutex_unlock(&h->mu);
    if (ready)
        return CUZK_OK;
    char msg[512] = "";
    groth16_vk_t vk;
    cuzk_status st = engine_circuit_vk(h->e, c->engine_name, &vk, msg, sizeof(msg));
    if (st != CUZK_OK)
        return api_fail_msg(st, fn, c->name, msg);
    groth16_pvk_t pvk;
    st = groth16_prepare_vk(&pvk, &vk);
    groth16_vk_free(&vk);
    if (st != CUZK_OK)
        return api_fail_msg(st, fn, "the circuit's verifying key", "");
    pthread_mutex_lock(&h->mu);
    if (!c->pvk_ready) {
        c->pvk = pvk;
        c->pvk_ready = true;
    } else {
        groth16_pvk_free(&pvk);
    }
    pthread_mutex_unlock(&h->mu);
    return CUZK_OK;
}

/* The failure of a verify whose partitions in bad[0 .. n) are flagged. */
static cuzk_status failed_partitions(const char *fn, const bool *bad, size_t n)
{
    char list[256] = "";
    size_t len = 0, count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!bad[i])
            continue;
        if (count++ < 16 && len < sizeof(list))
            len += (size_t)snprintf(list + len, sizeof(list) - len, " %zu", i);
    }
    return api_fail(CUZK_ERR_VERIFY_FAILED, fn, "the proof%s of partition%s%s%s do%s not verify",
                    count == 1 ? "" : "s", count == 1 ? "" : "s", list, count > 16 ? " ..." : "",
                    count == 1 ? "es" : "");
}

/* cuzk_circuit_verify for a BN254 circuit: each proof decoded (256 bytes,
 * formats/bn254_proof.h) and checked against the key on its own. */
static cuzk_status verify_bn254(const cuzk_circuit *c, const uint8_t *proofs, size_t n,
                                const cuzk_fr *inputs, size_t np, const char *fn)
{
    bn254_groth16_proof_t *p = malloc(n * sizeof(*p));
    fr_t *x = malloc((n * np > 0 ? n * np : 1) * sizeof(fr_t));
    bool *bad = calloc(n, sizeof(*bad));
    cuzk_status st = CUZK_OK;
    char msg[512] = "";
    if (!p || !x || !bad)
        st = api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory for %zu proofs", n);
    for (size_t i = 0; st == CUZK_OK && i < n; i++) {
        if ((st = bn254_proof_decode(&p[i], proofs + i * BN254_PROOF_BYTES, msg, sizeof(msg))) !=
            CUZK_OK) {
            char what[48];
            snprintf(what, sizeof(what), "proofs (partition %zu)", i);
            st = api_fail_msg(st, fn, what, msg);
        }
    }
    for (size_t i = 0; st == CUZK_OK && i < n * np; i++)
        if (!api_fr_in(CURVE_BN254, &x[i], &inputs[i]))
            st = api_fail(CUZK_ERR_NOT_CANONICAL, fn, "inputs[%zu] is not below BN254's r", i);
    bool any = false;
    for (size_t i = 0; st == CUZK_OK && i < n; i++) {
        cuzk_status v =
            bn254_groth16_verify(&c->bn254_vk, &p[i], bn254_fr_slots_const(x + i * np), np);
        if (v == CUZK_ERR_VERIFY_FAILED)
            any = bad[i] = true;
        else if (v != CUZK_OK)
            st = api_fail_msg(v, fn, "verifying", "");
    }
    if (st == CUZK_OK)
        st = any ? failed_partitions(fn, bad, n) : api_ok();
    free(p);
    free(x);
    free(bad);
    return st;
}

cuzk_status cuzk_circuit_verify(const cuzk_circuit *circuit, const uint8_t *proofs,
                                size_t proofs_len, const cuzk_fr *inputs, size_t inputs_len)
{
    static const char fn[] = "cuzk_circuit_verify";
    cuzk_status st = check_circuit(circuit, fn);
    if (st != CUZK_OK)
        return st;
    if (!proofs)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "proofs is NULL");
    size_t per = curve_proof_bytes(circuit->curve);
    if (proofs_len == 0 || proofs_len % per)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "proofs_len is %zu: a nonzero multiple of %zu bytes (circuit %s is on "
                        "%s)",
                        proofs_len, per, circuit->name, curve_id_snarkjs_name(circuit->curve));
    size_t n = proofs_len / per, np = circuit->num_public;
    if (inputs_len != n * np)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn,
                        "inputs_len is %zu: %zu proofs of circuit %s need %zu public values "
                        "(%zu each)",
                        inputs_len, n, circuit->name, n * np, np);
    if (!inputs && inputs_len)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "inputs is NULL");
    if (circuit->curve == CURVE_BN254)
        return verify_bn254(circuit, proofs, n, inputs, np, fn);
    groth16_proof_t *p = malloc(n * sizeof(*p));
    fr_t *x = malloc((inputs_len ? inputs_len : 1) * sizeof(fr_t));
    if (!p || !x) {
        st = api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory for %zu proofs", n);
        goto done;
    }
    char msg[512] = "";
    size_t got = 0;
    if ((st = bellman_proofs_decode(p, n, &got, proofs, proofs_len, msg, sizeof(msg))) != CUZK_OK) {
        st = api_fail_msg(st, fn, "proofs", msg);
        goto done;
    }
    for (size_t i = 0; i < inputs_len; i++) {
        if (!api_fr_in(CURVE_BLS12_381, &x[i], &inputs[i])) {
            st = api_fail(CUZK_ERR_NOT_CANONICAL, fn, "inputs[%zu] is not below r", i);
            goto done;
        }
    }
    if ((st = ensure_pvk((cuzk_circuit *)circuit, fn)) != CUZK_OK)
        goto done;
    if (n == 1) {
        st = groth16_verify(&circuit->pvk, p, x, np);
    } else {
        rng_t rng;
        if (rng_seed_secure(&rng) != CUZK_OK) {
            st = api_fail(CUZK_ERR_RANDOM, fn, "no system randomness for the batch check");
            goto done;
        }
        st = groth16_verify_batch(&circuit->pvk, p, x, np, n, &rng);
        rng_wipe(&rng);
    }
    if (st == CUZK_ERR_VERIFY_FAILED) {
        bool *bad = calloc(n, sizeof(*bad));
        for (size_t i = 0; bad && i < n; i++)
            bad[i] = groth16_verify(&circuit->pvk, &p[i], x + i * np, np) != CUZK_OK;
        st = bad ? failed_partitions(fn, bad, n)
                 : api_fail(CUZK_ERR_VERIFY_FAILED, fn, "the proofs do not verify");
        free(bad);
    } else if (st != CUZK_OK) {
        st = api_fail_msg(st, fn, "verifying", "");
    } else {
        st = api_ok();
    }
done:
    free(p);
    free(x);
    return st;
}
