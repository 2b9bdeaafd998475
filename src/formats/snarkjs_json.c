#include "formats/snarkjs_json.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "formats/decimal.h"
#include "pairing/pairing.h"

#define DUMP_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER)

/* ---- reading ---------------------------------------------------------- */

typedef struct reader {
    const char *name; /* file name for messages */
    formats_check check;
    char *msg;
    size_t msg_len;
} reader;

static cuzk_status parse_text(json_t **root, const char *text, size_t len, const reader *r)
{
    json_error_t err;
    *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!*root) {
        formats_msg(r->msg, r->msg_len, "%s: not valid JSON: line %d, column %d: %s", r->name,
                    err.line, err.column, err.text);
        return CUZK_ERR_CORRUPT;
    }
    return CUZK_OK;
}

static cuzk_status load_file(json_t **root, const char *path, const reader *r)
{
    mapped_file_t f;
    cuzk_status st = mapped_file_open(&f, path, r->msg, r->msg_len);
    if (st != CUZK_OK)
        return st;
    st = parse_text(root, (const char *)f.data, f.size, r);
    mapped_file_close(&f);
    return st;
}

/* A number: a decimal string, or a non-negative JSON integer. */
static cuzk_status number_text(char out[DECIMAL_MAX], const json_t *v)
{
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (strlen(s) >= DECIMAL_MAX)
            return CUZK_ERR_INVALID_ARGUMENT;
        memcpy(out, s, strlen(s) + 1);
        return CUZK_OK;
    }
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        snprintf(out, DECIMAL_MAX, "%lld", (long long)json_integer_value(v));
        return CUZK_OK;
    }
    return CUZK_ERR_INVALID_ARGUMENT;
}

static cuzk_status number_fp(fp_t *out, const json_t *v, const reader *r, const char *where)
{
    char s[DECIMAL_MAX];
    cuzk_status st = number_text(s, v);
    if (st == CUZK_OK)
        st = decimal_to_fp(out, s);
    if (st != CUZK_OK)
        formats_msg(r->msg, r->msg_len, "%s: %s: %s", r->name, where,
                    st == CUZK_ERR_NOT_CANONICAL ? "coordinate is not below q"
                                                 : "not a decimal number string");
    return st;
}

static cuzk_status number_fp2(fp2_t *out, const json_t *v, const reader *r, const char *where)
{
    if (!json_is_array(v) || json_array_size(v) != 2) {
        formats_msg(r->msg, r->msg_len, "%s: %s: expected [c0, c1]", r->name, where);
        return CUZK_ERR_CORRUPT;
    }
    cuzk_status st = number_fp(&out->c0, json_array_get(v, 0), r, where);
    if (st == CUZK_OK)
        st = number_fp(&out->c1, json_array_get(v, 1), r, where);
    return st;
}

static cuzk_status point_checks(cuzk_status st, bool on_curve, bool in_group, const reader *r,
                                const char *where)
{
    if (st != CUZK_OK)
        return st;
    if (r->check >= FORMATS_CHECK_CURVE && !on_curve) {
        formats_msg(r->msg, r->msg_len, "%s: %s: not on the curve", r->name, where);
        return CUZK_ERR_NOT_ON_CURVE;
    }
    if (r->check >= FORMATS_CHECK_SUBGROUP && !in_group) {
        formats_msg(r->msg, r->msg_len, "%s: %s: not in the prime-order subgroup", r->name, where);
        return CUZK_ERR_NOT_IN_SUBGROUP;
    }
    return CUZK_OK;
}

static cuzk_status get_g1(g1_affine_t *out, const json_t *v, const reader *r, const char *where)
{
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (n != 2 && n != 3) {
        formats_msg(r->msg, r->msg_len, "%s: %s: expected a G1 point [x, y, z]", r->name, where);
        return CUZK_ERR_CORRUPT;
    }
    g1_jac_t j;
    j.z = FP_ONE;
    cuzk_status st = number_fp(&j.x, json_array_get(v, 0), r, where);
    if (st == CUZK_OK)
        st = number_fp(&j.y, json_array_get(v, 1), r, where);
    if (st == CUZK_OK && n == 3)
        st = number_fp(&j.z, json_array_get(v, 2), r, where);
    if (st != CUZK_OK)
        return st;
    g1_jac_to_affine(out, &j);
    bool on = g1_affine_is_on_curve(out);
    return point_checks(st, on, on && g1_affine_in_subgroup(out), r, where);
}

static cuzk_status get_g2(g2_affine_t *out, const json_t *v, const reader *r, const char *where)
{
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (n != 2 && n != 3) {
        formats_msg(r->msg, r->msg_len, "%s: %s: expected a G2 point [x, y, z] of [c0, c1]",
                    r->name, where);
        return CUZK_ERR_CORRUPT;
    }
    g2_jac_t j;
    j.z = FP2_ONE;
    cuzk_status st = number_fp2(&j.x, json_array_get(v, 0), r, where);
    if (st == CUZK_OK)
        st = number_fp2(&j.y, json_array_get(v, 1), r, where);
    if (st == CUZK_OK && n == 3)
        st = number_fp2(&j.z, json_array_get(v, 2), r, where);
    if (st != CUZK_OK)
        return st;
    g2_jac_to_affine(out, &j);
    bool on = g2_affine_is_on_curve(out);
    return point_checks(st, on, on && g2_affine_in_subgroup(out), r, where);
}

/* "bls12-381" and "BLS12381" are the same name to snarkjs. */
static void normalize_name(char *out, size_t out_len, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < out_len; s++)
        if (isalnum((unsigned char)*s))
            out[k++] = (char)tolower((unsigned char)*s);
    out[k] = '\0';
}

static cuzk_status check_header(const json_t *root, const reader *r, bool need_curve)
{
    if (!json_is_object(root)) {
        formats_msg(r->msg, r->msg_len, "%s: expected a JSON object", r->name);
        return CUZK_ERR_CORRUPT;
    }
    const json_t *p = json_object_get(root, "protocol");
    if (p && (!json_is_string(p) || strcmp(json_string_value(p), "groth16") != 0)) {
        formats_msg(r->msg, r->msg_len, "%s: protocol %s; cuzk reads Groth16 only", r->name,
                    json_is_string(p) ? json_string_value(p) : "(not a string)");
        return CUZK_ERR_UNSUPPORTED;
    }
    const json_t *c = json_object_get(root, "curve");
    if (!c) {
        if (!need_curve)
            return CUZK_OK;
        formats_msg(r->msg, r->msg_len, "%s: no \"curve\"", r->name);
        return CUZK_ERR_CORRUPT;
    }
    char n[32];
    normalize_name(n, sizeof(n), json_is_string(c) ? json_string_value(c) : "");
    if (strcmp(n, "bls12381") == 0)
        return CUZK_OK;
    if (strcmp(n, "bn128") == 0 || strcmp(n, "bn254") == 0 || strcmp(n, "altbn128") == 0) {
        formats_msg(r->msg, r->msg_len,
                    "%s: this file is for the bn128 curve; cuzk supports BLS12-381 only so far",
                    r->name);
        return CUZK_ERR_UNSUPPORTED;
    }
    formats_msg(r->msg, r->msg_len, "%s: curve \"%s\"; cuzk supports BLS12-381 only", r->name,
                json_is_string(c) ? json_string_value(c) : "(not a string)");
    return CUZK_ERR_UNSUPPORTED;
}

static const json_t *member(const json_t *root, const char *key, const reader *r)
{
    const json_t *v = json_object_get(root, key);
    if (!v)
        formats_msg(r->msg, r->msg_len, "%s: no \"%s\"", r->name, key);
    return v;
}

static cuzk_status proof_from_root(groth16_proof_t *out, const json_t *root, const reader *r)
{
    cuzk_status st = check_header(root, r, false);
    if (st != CUZK_OK)
        return st;
    const json_t *a = member(root, "pi_a", r), *b = member(root, "pi_b", r),
                 *c = member(root, "pi_c", r);
    if (!a || !b || !c)
        return CUZK_ERR_CORRUPT;
    st = get_g1(&out->a, a, r, "pi_a");
    if (st == CUZK_OK)
        st = get_g2(&out->b, b, r, "pi_b");
    if (st == CUZK_OK)
        st = get_g1(&out->c, c, r, "pi_c");
    return st;
}

static cuzk_status public_from_root(fr_t **out, size_t *n, const json_t *root, const reader *r)
{
    if (!json_is_array(root)) {
        formats_msg(r->msg, r->msg_len, "%s: expected an array of decimal strings", r->name);
        return CUZK_ERR_CORRUPT;
    }
    size_t len = json_array_size(root);
    if (len == 0)
        return CUZK_OK;
    fr_t *v = malloc(len * sizeof(fr_t));
    if (!v)
        return CUZK_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < len; i++) {
        char s[DECIMAL_MAX];
        cuzk_status st = number_text(s, json_array_get(root, i));
        if (st == CUZK_OK)
            st = decimal_to_fr(&v[i], s);
        if (st != CUZK_OK) {
            formats_msg(r->msg, r->msg_len, "%s: value %zu: %s", r->name, i,
                        st == CUZK_ERR_NOT_CANONICAL ? "not below r"
                                                     : "not a decimal number string");
            free(v);
            return st;
        }
    }
    *out = v;
    *n = len;
    return CUZK_OK;
}

static cuzk_status vk_from_root(groth16_vk_t *out, const json_t *root, const reader *r)
{
    cuzk_status st = check_header(root, r, true);
    if (st != CUZK_OK)
        return st;
    const json_t *np = member(root, "nPublic", r), *ic = member(root, "IC", r);
    const json_t *alpha = member(root, "vk_alpha_1", r), *beta = member(root, "vk_beta_2", r),
                 *gamma = member(root, "vk_gamma_2", r), *delta = member(root, "vk_delta_2", r);
    if (!np || !ic || !alpha || !beta || !gamma || !delta)
        return CUZK_ERR_CORRUPT;
    if (!json_is_integer(np) || json_integer_value(np) < 0 || !json_is_array(ic) ||
        json_array_size(ic) != (size_t)json_integer_value(np) + 1) {
        formats_msg(r->msg, r->msg_len, "%s: \"IC\" must hold nPublic + 1 points", r->name);
        return CUZK_ERR_CORRUPT;
    }
    g1_affine_set_infinity(&out->beta_g1);
    g1_affine_set_infinity(&out->delta_g1);
    st = get_g1(&out->alpha_g1, alpha, r, "vk_alpha_1");
    if (st == CUZK_OK)
        st = get_g2(&out->beta_g2, beta, r, "vk_beta_2");
    if (st == CUZK_OK)
        st = get_g2(&out->gamma_g2, gamma, r, "vk_gamma_2");
    if (st == CUZK_OK)
        st = get_g2(&out->delta_g2, delta, r, "vk_delta_2");
    if (st != CUZK_OK)
        return st;
    size_t n = json_array_size(ic);
    out->ic = malloc(n * sizeof(g1_affine_t));
    if (!out->ic)
        return CUZK_ERR_OUT_OF_MEMORY;
    out->num_ic = n;
    for (size_t i = 0; i < n && st == CUZK_OK; i++) {
        char where[32];
        snprintf(where, sizeof(where), "IC[%zu]", i);
        st = get_g1(&out->ic[i], json_array_get(ic, i), r, where);
    }
    return st;
}

/* Runs one of the *_from_root readers on text or on a file. */
typedef enum kind { KIND_PROOF, KIND_PUBLIC, KIND_VK } kind;

static cuzk_status read_any(kind k, void *out, size_t *n, const char *text, size_t len,
                            const char *path, const reader *r)
{
    json_t *root;
    cuzk_status st = path ? load_file(&root, path, r) : parse_text(&root, text, len, r);
    if (st != CUZK_OK)
        return st;
    switch (k) {
    case KIND_PROOF:
        st = proof_from_root(out, root, r);
        break;
    case KIND_PUBLIC:
        st = public_from_root(out, n, root, r);
        break;
    case KIND_VK:
        st = vk_from_root(out, root, r);
        break;
    }
    json_decref(root);
    return st;
}

cuzk_status snarkjs_proof_from_json(groth16_proof_t *out, const char *text, size_t len,
                                    const char *name, formats_check check, char *msg,
                                    size_t msg_len)
{
    reader r = {name ? name : "proof", check, msg, msg_len};
    cuzk_status st = read_any(KIND_PROOF, out, NULL, text, len, NULL, &r);
    if (st != CUZK_OK)
        memset(out, 0, sizeof(*out));
    return st;
}

cuzk_status snarkjs_proof_load(groth16_proof_t *out, const char *path, formats_check check,
                               char *msg, size_t msg_len)
{
    reader r = {path ? path : "(no path)", check, msg, msg_len};
    cuzk_status st = read_any(KIND_PROOF, out, NULL, NULL, 0, path, &r);
    if (st != CUZK_OK)
        memset(out, 0, sizeof(*out));
    return st;
}

cuzk_status snarkjs_public_from_json(fr_t **out, size_t *n, const char *text, size_t len,
                                     const char *name, char *msg, size_t msg_len)
{
    *out = NULL;
    *n = 0;
    reader r = {name ? name : "public", FORMATS_CHECK_NONE, msg, msg_len};
    return read_any(KIND_PUBLIC, out, n, text, len, NULL, &r);
}

cuzk_status snarkjs_public_load(fr_t **out, size_t *n, const char *path, char *msg, size_t msg_len)
{
    *out = NULL;
    *n = 0;
    reader r = {path ? path : "(no path)", FORMATS_CHECK_NONE, msg, msg_len};
    return read_any(KIND_PUBLIC, out, n, NULL, 0, path, &r);
}

cuzk_status snarkjs_vk_from_json(groth16_vk_t *out, const char *text, size_t len, const char *name,
                                 formats_check check, char *msg, size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    reader r = {name ? name : "verification key", check, msg, msg_len};
    cuzk_status st = read_any(KIND_VK, out, NULL, text, len, NULL, &r);
    if (st != CUZK_OK)
        groth16_vk_free(out);
    return st;
}

cuzk_status snarkjs_vk_load(groth16_vk_t *out, const char *path, formats_check check, char *msg,
                            size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    reader r = {path ? path : "(no path)", check, msg, msg_len};
    cuzk_status st = read_any(KIND_VK, out, NULL, NULL, 0, path, &r);
    if (st != CUZK_OK)
        groth16_vk_free(out);
    return st;
}

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
