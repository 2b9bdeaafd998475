/* snarkjs's JSON files over BLS12-381: the readers of
 * snarkjs_json_read_impl.h, and the writers. */
#include "formats/snarkjs_json.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "formats/decimal.h"
#include "formats/snarkjs_json_internal.h"
#include "pairing/pairing.h"

#define DUMP_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER)

#define SJ_(name) snarkjs_##name
#define SJ_CURVE CURVE_BLS12_381
#define SJ_FP(name) fp_##name
#define SJ_FP_T fp_t
#define SJ_FP_ONE FP_ONE
#define SJ_FP_LIMBS FP_LIMBS
#define SJ_FP_MODULUS FP_MODULUS
#define SJ_FP2_T fp2_t
#define SJ_FP2_ONE FP2_ONE
#define SJ_FR(name) fr_##name
#define SJ_FR_T fr_t
#define SJ_FR_LIMBS FR_LIMBS
#define SJ_FR_MODULUS FR_MODULUS
#define SJ_G1(name) g1_##name
#define SJ_G2(name) g2_##name
#define SJ_VK_T groth16_vk_t
#define SJ_PROOF_T groth16_proof_t
#define SJ_VK_FREE groth16_vk_free
#include "formats/snarkjs_json_read_impl.h"

/* ---- writing ---------------------------------------------------------- */

/* Builders return NULL when out of memory; jansson's *_new functions take
 * NULL members and fail in turn, so one check at the end is enough. */

static json_t *str_fp(const fp_t *a)
{
    char s[DECIMAL_MAX];
    decimal_from_fp(s, a);
    return json_string(s);
}

static json_t *arr2(json_t *a, json_t *b)
{
    json_t *v = a && b ? json_array() : NULL;
    if (!v || json_array_append(v, a) != 0 || json_array_append(v, b) != 0) {
        json_decref(v);
        v = NULL;
    }
    json_decref(a); /* the array holds its own references */
    json_decref(b);
    return v;
}

static json_t *arr3(json_t *a, json_t *b, json_t *c)
{
    json_t *v = a && b && c ? json_array() : NULL;
    if (!v || json_array_append(v, a) != 0 || json_array_append(v, b) != 0 ||
        json_array_append(v, c) != 0) {
        json_decref(v);
        v = NULL;
    }
    json_decref(a);
    json_decref(b);
    json_decref(c);
    return v;
}

static json_t *json_fp2(const fp2_t *a)
{
    return arr2(str_fp(&a->c0), str_fp(&a->c1));
}

static json_t *json_g1(const g1_affine_t *p)
{
    if (p->infinity)
        return arr3(json_string("0"), json_string("1"), json_string("0"));
    return arr3(str_fp(&p->x), str_fp(&p->y), json_string("1"));
}

static json_t *json_g2(const g2_affine_t *p)
{
    if (p->infinity)
        return arr3(arr2(json_string("0"), json_string("0")),
                    arr2(json_string("1"), json_string("0")),
                    arr2(json_string("0"), json_string("0")));
    return arr3(json_fp2(&p->x), json_fp2(&p->y), arr2(json_string("1"), json_string("0")));
}

static json_t *json_fp6(const fp6_t *a)
{
    return arr3(json_fp2(&a->c0), json_fp2(&a->c1), json_fp2(&a->c2));
}

static char *dump(json_t *root)
{
    if (!root)
        return NULL;
    char *s = json_dumps(root, DUMP_FLAGS);
    json_decref(root);
    return s;
}

/* Sets key to v in o; a NULL v (out of memory) poisons o. */
static bool set(json_t *o, const char *key, json_t *v)
{
    return v && json_object_set_new(o, key, v) == 0;
}

char *snarkjs_proof_to_json(const groth16_proof_t *proof)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    bool ok = set(o, "pi_a", json_g1(&proof->a));
    ok = ok && set(o, "pi_b", json_g2(&proof->b));
    ok = ok && set(o, "pi_c", json_g1(&proof->c));
    ok = ok && set(o, "protocol", json_string("groth16"));
    ok = ok && set(o, "curve", json_string("bls12381"));
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return dump(o);
}

char *snarkjs_public_to_json(const fr_t *inputs, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++) {
        char s[DECIMAL_MAX];
        decimal_from_fr(s, &inputs[i]);
        if (json_array_append_new(a, json_string(s)) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return dump(a);
}

char *snarkjs_vk_to_json(const groth16_vk_t *vk)
{
    json_t *o = json_object();
    json_t *ic = json_array();
    if (!o || !ic) {
        json_decref(o);
        json_decref(ic);
        return NULL;
    }
    for (size_t i = 0; i < vk->num_ic; i++)
        if (json_array_append_new(ic, json_g1(&vk->ic[i])) != 0) {
            json_decref(o);
            json_decref(ic);
            return NULL;
        }
    fp12_t ab;
    pairing(&ab, &vk->alpha_g1, &vk->beta_g2);
    bool ok = set(o, "protocol", json_string("groth16"));
    ok = ok && set(o, "curve", json_string("bls12381"));
    ok = ok && set(o, "nPublic", json_integer(vk->num_ic ? (json_int_t)vk->num_ic - 1 : 0));
    ok = ok && set(o, "vk_alpha_1", json_g1(&vk->alpha_g1));
    ok = ok && set(o, "vk_beta_2", json_g2(&vk->beta_g2));
    ok = ok && set(o, "vk_gamma_2", json_g2(&vk->gamma_g2));
    ok = ok && set(o, "vk_delta_2", json_g2(&vk->delta_g2));
    ok = ok && set(o, "vk_alphabeta_12", arr2(json_fp6(&ab.c0), json_fp6(&ab.c1)));
    if (!ok || json_object_set_new(o, "IC", ic) != 0) {
        if (!ok)
            json_decref(ic);
        json_decref(o);
        return NULL;
    }
    return dump(o);
}

static cuzk_status save_text(char *text, const char *path, char *msg, size_t msg_len)
{
    if (!text)
        return CUZK_ERR_OUT_OF_MEMORY;
    cuzk_status st = formats_save(path, text, strlen(text), msg, msg_len);
    free(text);
    return st;
}

cuzk_status snarkjs_proof_save(const groth16_proof_t *proof, const char *path, char *msg,
                               size_t msg_len)
{
    return save_text(snarkjs_proof_to_json(proof), path, msg, msg_len);
}

cuzk_status snarkjs_public_save(const fr_t *inputs, size_t n, const char *path, char *msg,
                                size_t msg_len)
{
    return save_text(snarkjs_public_to_json(inputs, n), path, msg, msg_len);
}

cuzk_status snarkjs_vk_save(const groth16_vk_t *vk, const char *path, char *msg, size_t msg_len)
{
    return save_text(snarkjs_vk_to_json(vk), path, msg, msg_len);
}
