/* One-call proving of a snarkjs key through the engine, and verification
 * of snarkjs JSON proofs of either curve (the verification key's). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/internal.h"
#include "formats/bn254_snarkjs_json.h"
#include "formats/snarkjs_json.h"
#include "groth16/verifier.h"

/* ------------------------------------------------------ the key cache */

static bool same_file(const api_zkey_entry *z, const struct stat *st)
{
    return z->dev == st->st_dev && z->ino == st->st_ino && z->size == st->st_size &&
           z->mtime.tv_sec == st->st_mtim.tv_sec && z->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

/* The circuit of zkey_path, registered at its first use and again when
 * the file changed (the old one released: it goes when its jobs are
 * done). zkey_mu held. */
static cuzk_status cached_circuit(cuzk_engine *h, cuzk_circuit **out, const char *fn,
                                  const char *zkey_path)
{
    char real[PATH_MAX];
    struct stat st;
    if (!realpath(zkey_path, real) || stat(real, &st) != 0)
        return api_fail(CUZK_ERR_IO, fn, "zkey_path: %s: %s", zkey_path, strerror(errno));
    api_zkey_entry *z = h->zkeys;
    while (z && strcmp(z->path, real))
        z = z->next;
    if (z && z->circuit && same_file(z, &st)) {
        *out = z->circuit;
        return CUZK_OK;
    }
    if (!z) {
        if (!(z = calloc(1, sizeof(*z))) || !(z->path = strdup(real))) {
            free(z);
            return api_fail(CUZK_ERR_OUT_OF_MEMORY, fn, "no memory");
        }
        z->next = h->zkeys;
        h->zkeys = z;
    } else {
        cuzk_circuit_release(z->circuit);
        z->circuit = NULL;
    }
    /* Named after the file, made unique. */
    const char *base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
    char name[49];
    snprintf(name, sizeof(name), "%.40s", base);
    char *dot = strrchr(name, '.');
    if (dot && dot != name)
        *dot = 0;
    circuit_spec spec = {.kind = CIRCUIT_ZKEY, .zkey_path = real, .check = FORMATS_CHECK_CURVE};
    cuzk_status s = api_register(h, &z->circuit, fn, name, true, &spec);
    if (s != CUZK_OK)
        return s; /* the entry stays, without a circuit: tried again next time */
    z->dev = st.st_dev;
    z->ino = st.st_ino;
    z->size = st.st_size;
    z->mtime = st.st_mtim;
    *out = z->circuit;
    return CUZK_OK;
}

cuzk_status cuzk_prove_zkey(cuzk_engine *engine, char **proof_json, char **public_json,
                            const char *zkey_path, const char *wtns_path)
{
    static const char fn[] = "cuzk_prove_zkey";
    if (proof_json)
        *proof_json = NULL;
    if (public_json)
        *public_json = NULL;
    if (!engine)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "engine is NULL");
    if (!proof_json)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "proof_json (the output) is NULL");
    if (!zkey_path)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "zkey_path is NULL");
    if (!wtns_path)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "wtns_path is NULL");
    cuzk_witness w = {.kind = CUZK_WITNESS_WTNS, .wtns_path = wtns_path};
    cuzk_circuit *c = NULL;
    cuzk_job *job = NULL;
    /* Held until the job holds the circuit, so a concurrent call that
     * finds the file changed cannot free it under us. */
    pthread_mutex_lock(&engine->zkey_mu);
    cuzk_status st = cached_circuit(engine, &c, fn, zkey_path);
    if (st == CUZK_OK)
        st = api_submit(engine, &job, fn, c, &w, 1, NULL);
    pthread_mutex_unlock(&engine->zkey_mu);
    if (st != CUZK_OK)
        return st;
    cuzk_job_state state;
    if ((st = cuzk_job_wait(job, &state, -1)) == CUZK_OK) {
        if (state == CUZK_JOB_DONE) {
            st = cuzk_job_snarkjs(job, proof_json, public_json, 0);
        } else {
            /* The engine keeps a reason, not a status, for a failed job. */
            engine_job_info info;
            if (engine_job_status(engine->e, job->id, &info, NULL, 0) != CUZK_OK)
                info.message[0] = 0;
            st = api_fail(CUZK_ERR_INTERNAL, fn, "the job %s: %s",
                          engine_state_name((engine_state)state), info.message);
        }
    }
    cuzk_job_destroy(job);
    return st;
}

/* ---------------------------------------------------------- verifying */

typedef struct snarkjs_set {
    groth16_vk_t vk;
    groth16_proof_t proof;
    fr_t *inputs;
    size_t n;
} snarkjs_set;

static cuzk_status verify_set(snarkjs_set *s, const char *fn, const char *vk_arg,
                              const char *public_arg)
{
    if (s->n + 1 != s->vk.num_ic)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "%s has %zu public values, %s expects %zu",
                        public_arg, s->n, vk_arg, s->vk.num_ic - 1);
    groth16_pvk_t pvk;
    cuzk_status st = groth16_prepare_vk(&pvk, &s->vk);
    if (st != CUZK_OK)
        return api_fail_msg(st, fn, vk_arg, "");
    st = groth16_verify(&pvk, &s->proof, s->inputs, s->n);
    groth16_pvk_free(&pvk);
    if (st == CUZK_ERR_VERIFY_FAILED)
        return api_fail(st, fn, "the proof does not verify");
    return st == CUZK_OK ? api_ok() : api_fail_msg(st, fn, "verifying", "");
}

/* The same over BN254 (its verifier takes the key as it is). */
typedef struct bn254_set {
    bn254_groth16_vk_t vk;
    bn254_groth16_proof_t proof;
    bn254_fr_t *inputs;
    size_t n;
} bn254_set;

static cuzk_status verify_bn254_set(bn254_set *s, const char *fn, const char *vk_arg,
                                    const char *public_arg)
{
    if (s->n + 1 != s->vk.num_ic)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "%s has %zu public values, %s expects %zu",
                        public_arg, s->n, vk_arg, s->vk.num_ic - 1);
    cuzk_status st = bn254_groth16_verify(&s->vk, &s->proof, s->inputs, s->n);
    if (st == CUZK_ERR_VERIFY_FAILED)
        return api_fail(st, fn, "the proof does not verify");
    return st == CUZK_OK ? api_ok() : api_fail_msg(st, fn, "verifying", "");
}

/* cuzk_verify_snarkjs of a BN254 key: the proof and public values read
 * with BN254's readers (a proof of the other curve is refused, named). */
static cuzk_status verify_bn254_text(const char *vk_json, const char *proof_json,
                                     const char *public_json, const char *fn)
{
    bn254_set s = {.inputs = NULL};
    char msg[512] = "";
    cuzk_status st = bn254_snarkjs_vk_from_json(&s.vk, vk_json, strlen(vk_json), "vk_json",
                                                FORMATS_CHECK_SUBGROUP, msg, sizeof(msg));
    if (st != CUZK_OK)
        return api_fail(st, fn, "%s", msg);
    if ((st = bn254_snarkjs_proof_from_json(&s.proof, proof_json, strlen(proof_json), "proof_json",
                                            FORMATS_CHECK_SUBGROUP, msg, sizeof(msg))) != CUZK_OK ||
        (st = bn254_snarkjs_public_from_json(&s.inputs, &s.n, public_json, strlen(public_json),
                                             "public_json", msg, sizeof(msg))) != CUZK_OK)
        st = api_fail(st, fn, "%s", msg);
    else
        st = verify_bn254_set(&s, fn, "vk_json", "public_json");
    free(s.inputs);
    bn254_groth16_vk_free(&s.vk);
    return st;
}

/* cuzk_verify_snarkjs_files of a BN254 key. */
static cuzk_status verify_bn254_files(const char *vk_path, const char *proof_path,
                                      const char *public_path, const char *fn)
{
    bn254_set s = {.inputs = NULL};
    char msg[512] = "";
    cuzk_status st =
        bn254_snarkjs_vk_load(&s.vk, vk_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg));
    if (st != CUZK_OK)
        return api_fail_msg(st, fn, "vk_path", msg);
    if ((st = bn254_snarkjs_proof_load(&s.proof, proof_path, FORMATS_CHECK_SUBGROUP, msg,
                                       sizeof(msg))) != CUZK_OK)
        st = api_fail_msg(st, fn, "proof_path", msg);
    else if ((st = bn254_snarkjs_public_load(&s.inputs, &s.n, public_path, msg, sizeof(msg))) !=
             CUZK_OK)
        st = api_fail_msg(st, fn, "public_path", msg);
    else
        st = verify_bn254_set(&s, fn, vk_path, public_path);
    free(s.inputs);
    bn254_groth16_vk_free(&s.vk);
    return st;
}

cuzk_status cuzk_verify_snarkjs(const char *vk_json, const char *proof_json,
                                const char *public_json)
{
    static const char fn[] = "cuzk_verify_snarkjs";
    if (!vk_json || !proof_json || !public_json)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "%s is NULL",
                        !vk_json      ? "vk_json"
                        : !proof_json ? "proof_json"
                                      : "public_json");
    char msg[512] = "";
    curve_id curve;
    bool named;
    cuzk_status st = snarkjs_json_text_curve(&curve, &named, vk_json, strlen(vk_json), "vk_json",
                                             msg, sizeof(msg));
    if (st != CUZK_OK)
        return api_fail(st, fn, "%s", msg);
    if (curve == CURVE_BN254)
        return verify_bn254_text(vk_json, proof_json, public_json, fn);
    snarkjs_set s = {.inputs = NULL};
    st = snarkjs_vk_from_json(&s.vk, vk_json, strlen(vk_json), "vk_json", FORMATS_CHECK_SUBGROUP,
                              msg, sizeof(msg));
    if (st != CUZK_OK)
        return api_fail(st, fn, "%s", msg);
    if ((st = snarkjs_proof_from_json(&s.proof, proof_json, strlen(proof_json), "proof_json",
                                      FORMATS_CHECK_SUBGROUP, msg, sizeof(msg))) != CUZK_OK ||
        (st = snarkjs_public_from_json(&s.inputs, &s.n, public_json, strlen(public_json),
                                       "public_json", msg, sizeof(msg))) != CUZK_OK)
        st = api_fail(st, fn, "%s", msg);
    else
        st = verify_set(&s, fn, "vk_json", "public_json");
    free(s.inputs);
    groth16_vk_free(&s.vk);
    return st;
}

cuzk_status cuzk_verify_snarkjs_files(const char *vk_path, const char *proof_path,
                                      const char *public_path)
{
    static const char fn[] = "cuzk_verify_snarkjs_files";
    if (!vk_path || !proof_path || !public_path)
        return api_fail(CUZK_ERR_INVALID_ARGUMENT, fn, "%s is NULL",
                        !vk_path      ? "vk_path"
                        : !proof_path ? "proof_path"
                                      : "public_path");
    char msg[512] = "";
    curve_id curve;
    bool named;
    cuzk_status st = snarkjs_json_file_curve(&curve, &named, vk_path, msg, sizeof(msg));
    if (st != CUZK_OK)
        return api_fail_msg(st, fn, "vk_path", msg);
    if (curve == CURVE_BN254)
        return verify_bn254_files(vk_path, proof_path, public_path, fn);
    snarkjs_set s = {.inputs = NULL};
    st = snarkjs_vk_load(&s.vk, vk_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg));
    if (st != CUZK_OK)
        return api_fail_msg(st, fn, "vk_path", msg);
    if ((st = snarkjs_proof_load(&s.proof, proof_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg))) !=
        CUZK_OK)
        st = api_fail_msg(st, fn, "proof_path", msg);
    else if ((st = snarkjs_public_load(&s.inputs, &s.n, public_path, msg, sizeof(msg))) != CUZK_OK)
        st = api_fail_msg(st, fn, "public_path", msg);
    else
        st = verify_set(&s, fn, vk_path, public_path);
    free(s.inputs);
    groth16_vk_free(&s.vk);
    return st;
}
