/* The readers of snarkjs.h's proof.json, public.json and
 * verification_key.json for one curve: a template that snarkjs_json.c
 * (BLS12-381) and bn254_snarkjs_json.c include once each, after
 * snarkjs_json_internal.h and after defining
 *   SJ_(name)      the exported names (snarkjs_##name)
 *   SJ_CURVE       the curve_id the files must name
 *   SJ_FP(name), SJ_FP_T, SJ_FP_ONE, SJ_FP_LIMBS, SJ_FP_MODULUS   the base field
 *   SJ_FP2_T, SJ_FP2_ONE   its quadratic extension (c0, c1)
 *   SJ_FR(name), SJ_FR_T, SJ_FR_LIMBS, SJ_FR_MODULUS   the scalar field
 *   SJ_G1(name), SJ_G2(name)   the groups' names (g1_##name)
 *   SJ_VK_T, SJ_PROOF_T, SJ_VK_FREE   the key and proof types (keys_decl.h)
 * Everything but the SJ_ functions is static. */

#include <stdlib.h>
#include <string.h>

static cuzk_status number_fp(SJ_FP_T *out, const json_t *v, const reader *r, const char *where)
{
    char s[DECIMAL_MAX];
    uint64_t l[SJ_FP_LIMBS];
    cuzk_status st = sj_number_text(s, v);
    if (st == CUZK_OK)
        st = sj_decimal_limbs(l, SJ_FP_LIMBS, SJ_FP_MODULUS, s);
    if (st == CUZK_OK)
        SJ_FP(from_raw)(out, l);
    if (st != CUZK_OK)
        formats_msg(r->msg, r->msg_len, "%s: %s: %s", r->name, where,
                    st == CUZK_ERR_NOT_CANONICAL ? "coordinate is not below q"
                                                 : "not a decimal number string");
    return st;
}

static cuzk_status number_fp2(SJ_FP2_T *out, const json_t *v, const reader *r, const char *where)
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

static cuzk_status get_g1(SJ_G1(affine_t) * out, const json_t *v, const reader *r,
                          const char *where)
{
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (n != 2 && n != 3) {
        formats_msg(r->msg, r->msg_len, "%s: %s: expected a G1 point [x, y, z]", r->name, where);
        return CUZK_ERR_CORRUPT;
    }
    SJ_G1(jac_t) j;
    j.z = SJ_FP_ONE;
    cuzk_status st = number_fp(&j.x, json_array_get(v, 0), r, where);
    if (st == CUZK_OK)
        st = number_fp(&j.y, json_array_get(v, 1), r, where);
    if (st == CUZK_OK && n == 3)
        st = number_fp(&j.z, json_array_get(v, 2), r, where);
    if (st != CUZK_OK)
        return st;
    SJ_G1(jac_to_affine)(out, &j);
    bool on = SJ_G1(affine_is_on_curve)(out);
    return sj_point_checks(st, on, on && SJ_G1(affine_in_subgroup)(out), r, where);
}

static cuzk_status get_g2(SJ_G2(affine_t) * out, const json_t *v, const reader *r,
                          const char *where)
{
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (n != 2 && n != 3) {
        formats_msg(r->msg, r->msg_len, "%s: %s: expected a G2 point [x, y, z] of [c0, c1]",
                    r->name, where);
        return CUZK_ERR_CORRUPT;
    }
    SJ_G2(jac_t) j;
    j.z = SJ_FP2_ONE;
    cuzk_status st = number_fp2(&j.x, json_array_get(v, 0), r, where);
    if (st == CUZK_OK)
        st = number_fp2(&j.y, json_array_get(v, 1), r, where);
    if (st == CUZK_OK && n == 3)
        st = number_fp2(&j.z, json_array_get(v, 2), r, where);
    if (st != CUZK_OK)
        return st;
    SJ_G2(jac_to_affine)(out, &j);
    bool on = SJ_G2(affine_is_on_curve)(out);
    return sj_point_checks(st, on, on && SJ_G2(affine_in_subgroup)(out), r, where);
}

static cuzk_status proof_from_root(SJ_PROOF_T *out, const json_t *root, const reader *r)
{
    cuzk_status st = sj_check_header(root, r, false, SJ_CURVE);
    if (st != CUZK_OK)
        return st;
    const json_t *a = sj_member(root, "pi_a", r), *b = sj_member(root, "pi_b", r),
                 *c = sj_member(root, "pi_c", r);
    if (!a || !b || !c)
        return CUZK_ERR_CORRUPT;
    st = get_g1(&out->a, a, r, "pi_a");
    if (st == CUZK_OK)
        st = get_g2(&out->b, b, r, "pi_b");
    if (st == CUZK_OK)
        st = get_g1(&out->c, c, r, "pi_c");
    return st;
}

static cuzk_status public_from_root(SJ_FR_T **out, size_t *n, const json_t *root, const reader *r)
{
    if (!json_is_array(root)) {
        formats_msg(r->msg, r->msg_len, "%s: expected an array of decimal strings", r->name);
        return CUZK_ERR_CORRUPT;
    }
    size_t len = json_array_size(root);
    if (len == 0)
        return CUZK_OK;
    SJ_FR_T *v = malloc(len * sizeof(SJ_FR_T));
    if (!v)
        return CUZK_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < len; i++) {
        char s[DECIMAL_MAX];
        uint64_t l[SJ_FR_LIMBS];
        cuzk_status st = sj_number_text(s, json_array_get(root, i));
        if (st == CUZK_OK)
            st = sj_decimal_limbs(l, SJ_FR_LIMBS, SJ_FR_MODULUS, s);
        if (st == CUZK_OK)
            SJ_FR(from_raw)(&v[i], l);
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

static cuzk_status vk_from_root(SJ_VK_T *out, const json_t *root, const reader *r)
{
    cuzk_status st = sj_check_header(root, r, true, SJ_CURVE);
    if (st != CUZK_OK)
        return st;
    const json_t *np = sj_member(root, "nPublic", r), *ic = sj_member(root, "IC", r);
    const json_t *alpha = sj_member(root, "vk_alpha_1", r), *beta = sj_member(root, "vk_beta_2", r),
                 *gamma = sj_member(root, "vk_gamma_2", r),
                 *delta = sj_member(root, "vk_delta_2", r);
    if (!np || !ic || !alpha || !beta || !gamma || !delta)
        return CUZK_ERR_CORRUPT;
    if (!json_is_integer(np) || json_integer_value(np) < 0 || !json_is_array(ic) ||
        json_array_size(ic) != (size_t)json_integer_value(np) + 1) {
        formats_msg(r->msg, r->msg_len, "%s: \"IC\" must hold nPublic + 1 points", r->name);
        return CUZK_ERR_CORRUPT;
    }
    SJ_G1(affine_set_infinity)(&out->beta_g1);
    SJ_G1(affine_set_infinity)(&out->delta_g1);
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
    out->ic = malloc(n * sizeof(SJ_G1(affine_t)));
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
    cuzk_status st = path ? sj_load_file(&root, path, r) : sj_parse_text(&root, text, len, r);
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

cuzk_status SJ_(proof_from_json)(SJ_PROOF_T *out, const char *text, size_t len, const char *name,
                                 formats_check check, char *msg, size_t msg_len)
{
    reader r = {name ? name : "proof", check, msg, msg_len};
    cuzk_status st = read_any(KIND_PROOF, out, NULL, text, len, NULL, &r);
    if (st != CUZK_OK)
        memset(out, 0, sizeof(*out));
    return st;
}

cuzk_status SJ_(proof_load)(SJ_PROOF_T *out, const char *path, formats_check check, char *msg,
                            size_t msg_len)
{
    reader r = {path ? path : "(no path)", check, msg, msg_len};
    cuzk_status st = read_any(KIND_PROOF, out, NULL, NULL, 0, path, &r);
    if (st != CUZK_OK)
        memset(out, 0, sizeof(*out));
    return st;
}

cuzk_status SJ_(public_from_json)(SJ_FR_T **out, size_t *n, const char *text, size_t len,
                                  const char *name, char *msg, size_t msg_len)
{
    *out = NULL;
    *n = 0;
    reader r = {name ? name : "public", FORMATS_CHECK_NONE, msg, msg_len};
    return read_any(KIND_PUBLIC, out, n, text, len, NULL, &r);
}

cuzk_status SJ_(public_load)(SJ_FR_T **out, size_t *n, const char *path, char *msg, size_t msg_len)
{
    *out = NULL;
    *n = 0;
    reader r = {path ? path : "(no path)", FORMATS_CHECK_NONE, msg, msg_len};
    return read_any(KIND_PUBLIC, out, n, NULL, 0, path, &r);
}

cuzk_status SJ_(vk_from_json)(SJ_VK_T *out, const char *text, size_t len, const char *name,
                              formats_check check, char *msg, size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    reader r = {name ? name : "verification key", check, msg, msg_len};
    cuzk_status st = read_any(KIND_VK, out, NULL, text, len, NULL, &r);
    if (st != CUZK_OK)
        SJ_VK_FREE(out);
    return st;
}

cuzk_status SJ_(vk_load)(SJ_VK_T *out, const char *path, formats_check check, char *msg,
                         size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    reader r = {path ? path : "(no path)", check, msg, msg_len};
    cuzk_status st = read_any(KIND_VK, out, NULL, NULL, 0, path, &r);
    if (st != CUZK_OK)
        SJ_VK_FREE(out);
    return st;
}
