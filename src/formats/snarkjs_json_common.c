/* The parts of snarkjs's JSON files that do not depend on the curve:
 * parsing, numbers, the protocol and curve fields
 * (snarkjs_json_internal.h). */
#include "formats/snarkjs_json_internal.h"

#include <ctype.h>
#include <string.h>

cuzk_status sj_decimal_limbs(uint64_t *limbs, size_t n, const uint64_t *modulus, const char *s)
{
    if (!decimal_to_limbs(limbs, n, s))
        return CUZK_ERR_INVALID_ARGUMENT;
    return limbs_lt(limbs, modulus, n) ? CUZK_OK : CUZK_ERR_NOT_CANONICAL;
}

cuzk_status sj_parse_text(json_t **root, const char *text, size_t len, const reader *r)
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

cuzk_status sj_load_file(json_t **root, const char *path, const reader *r)
{
    mapped_file_t f;
    cuzk_status st = mapped_file_open(&f, path, r->msg, r->msg_len);
    if (st != CUZK_OK)
        return st;
    st = sj_parse_text(root, (const char *)f.data, f.size, r);
    mapped_file_close(&f);
    return st;
}

/* A number: a decimal string, or a non-negative JSON integer. */
cuzk_status sj_number_text(char out[DECIMAL_MAX], const json_t *v)
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

cuzk_status sj_point_checks(cuzk_status st, bool on_curve, bool in_group, const reader *r,
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

/* "bls12-381" and "BLS12381" are the same name to snarkjs. */
static void normalize_name(char *out, size_t out_len, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < out_len; s++)
        if (isalnum((unsigned char)*s))
            out[k++] = (char)tolower((unsigned char)*s);
    out[k] = '\0';
}

/* The curve a "curve" value names, as snarkjs's getCurveFromName reads it. */
static bool curve_from_name(curve_id *curve, const json_t *c)
{
    char n[32];
    normalize_name(n, sizeof(n), json_is_string(c) ? json_string_value(c) : "");
    if (strcmp(n, "bls12381") == 0)
        *curve = CURVE_BLS12_381;
    else if (strcmp(n, "bn128") == 0 || strcmp(n, "bn254") == 0 || strcmp(n, "altbn128") == 0)
        *curve = CURVE_BN254;
    else
        return false;
    return true;
}

static cuzk_status check_protocol(const json_t *root, const reader *r)
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
    return CUZK_OK;
}

cuzk_status sj_check_header(const json_t *root, const reader *r, bool need_curve, curve_id want)
{
    cuzk_status st = check_protocol(root, r);
    if (st != CUZK_OK)
        return st;
    const json_t *c = json_object_get(root, "curve");
    if (!c) {
        if (!need_curve)
            return CUZK_OK;
        formats_msg(r->msg, r->msg_len, "%s: no \"curve\"", r->name);
        return CUZK_ERR_CORRUPT;
    }
    curve_id got;
    if (!curve_from_name(&got, c)) {
        formats_msg(r->msg, r->msg_len,
                    "%s: curve \"%s\"; cuzk supports bn128 (BN254) and bls12381 only", r->name,
                    json_is_string(c) ? json_string_value(c) : "(not a string)");
        return CUZK_ERR_UNSUPPORTED;
    }
    if (got != want) {
        formats_msg(r->msg, r->msg_len, "%s: this file is for the %s curve, not %s", r->name,
                    curve_id_snarkjs_name(got), curve_id_snarkjs_name(want));
        return CUZK_ERR_UNSUPPORTED;
    }
    return CUZK_OK;
}

/* The curve root names (snarkjs_json_file_curve); root is released. */
static cuzk_status root_curve(curve_id *curve, bool *named, json_t *root, const reader *r)
{
    cuzk_status st = CUZK_OK;
    /* public.json is an array: no curve to name. */
    if (json_is_object(root))
        st = check_protocol(root, r);
    const json_t *c = st == CUZK_OK ? json_object_get(root, "curve") : NULL;
    *named = c != NULL;
    *curve = CURVE_BLS12_381;
    if (c && !curve_from_name(curve, c)) {
        formats_msg(r->msg, r->msg_len,
                    "%s: curve \"%s\"; cuzk supports bn128 (BN254) and bls12381 only", r->name,
                    json_is_string(c) ? json_string_value(c) : "(not a string)");
        st = CUZK_ERR_UNSUPPORTED;
    }
    json_decref(root);
    return st;
}

cuzk_status snarkjs_json_file_curve(curve_id *curve, bool *named, const char *path, char *msg,
                                    size_t msg_len)
{
    reader r = {path, FORMATS_CHECK_NONE, msg, msg_len};
    json_t *root;
    cuzk_status st = sj_load_file(&root, path, &r);
    return st == CUZK_OK ? root_curve(curve, named, root, &r) : st;
}

cuzk_status snarkjs_json_text_curve(curve_id *curve, bool *named, const char *text, size_t len,
                                    const char *name, char *msg, size_t msg_len)
{
    reader r = {name, FORMATS_CHECK_NONE, msg, msg_len};
    json_t *root;
    cuzk_status st = sj_parse_text(&root, text, len, &r);
    return st == CUZK_OK ? root_curve(curve, named, root, &r) : st;
}

const json_t *sj_member(const json_t *root, const char *key, const reader *r)
{
    const json_t *v = json_object_get(root, key);
    if (!v)
        formats_msg(r->msg, r->msg_len, "%s: no \"%s\"", r->name, key);
    return v;
}
