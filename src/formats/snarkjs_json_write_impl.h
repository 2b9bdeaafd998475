/* The writers of snarkjs's proof.json and public.json for one curve
 * (snarkjs_json.h describes the files), and the JSON builders the
 * verification key's writer shares: a template that snarkjs_json.c
 * (BLS12-381) and bn254_snarkjs_json.c include once each, after the
 * readers' template (the same SJ_ macros) and after defining
 *   SJ_CURVE_NAME   the "curve" snarkjs writes ("bls12381", "bn128")
 * Everything but the SJ_ functions is static. */

#define DUMP_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER)

/* Builders return NULL when out of memory; jansson's *_new functions take
 * NULL members and fail in turn, so one check at the end is enough. */

static json_t *str_fp(const SJ_FP_T *a)
{
    char s[DECIMAL_MAX];
    uint64_t l[SJ_FP_LIMBS];
    SJ_FP(to_raw)(l, a);
    decimal_from_limbs(s, l, SJ_FP_LIMBS);
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

static json_t *json_fp2(const SJ_FP2_T *a)
{
    return arr2(str_fp(&a->c0), str_fp(&a->c1));
}

static json_t *json_g1(const SJ_G1(affine_t) * p)
{
    if (p->infinity)
        return arr3(json_string("0"), json_string("1"), json_string("0"));
    return arr3(str_fp(&p->x), str_fp(&p->y), json_string("1"));
}

static json_t *json_g2(const SJ_G2(affine_t) * p)
{
    if (p->infinity)
        return arr3(arr2(json_string("0"), json_string("0")),
                    arr2(json_string("1"), json_string("0")),
                    arr2(json_string("0"), json_string("0")));
    return arr3(json_fp2(&p->x), json_fp2(&p->y), arr2(json_string("1"), json_string("0")));
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

char *SJ_(proof_to_json)(const SJ_PROOF_T *proof)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    bool ok = set(o, "pi_a", json_g1(&proof->a));
    ok = ok && set(o, "pi_b", json_g2(&proof->b));
    ok = ok && set(o, "pi_c", json_g1(&proof->c));
    ok = ok && set(o, "protocol", json_string("groth16"));
    ok = ok && set(o, "curve", json_string(SJ_CURVE_NAME));
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return dump(o);
}

char *SJ_(public_to_json)(const SJ_FR_T *inputs, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++) {
        char s[DECIMAL_MAX];
        uint64_t l[SJ_FR_LIMBS];
        SJ_FR(to_raw)(l, &inputs[i]);
        decimal_from_limbs(s, l, SJ_FR_LIMBS);
        if (json_array_append_new(a, json_string(s)) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return dump(a);
}

static cuzk_status save_text(char *text, const char *path, char *msg, size_t msg_len)
{
    if (!text)
        return CUZK_ERR_OUT_OF_MEMORY;
    cuzk_status st = formats_save(path, text, strlen(text), msg, msg_len);
    free(text);
    return st;
}

cuzk_status SJ_(proof_save)(const SJ_PROOF_T *proof, const char *path, char *msg, size_t msg_len)
{
    return save_text(SJ_(proof_to_json)(proof), path, msg, msg_len);
}

cuzk_status SJ_(public_save)(const SJ_FR_T *inputs, size_t n, const char *path, char *msg,
                             size_t msg_len)
{
    return save_text(SJ_(public_to_json)(inputs, n), path, msg, msg_len);
}

#undef SJ_CURVE_NAME
