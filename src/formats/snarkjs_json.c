/* snarkjs's JSON files over BLS12-381: the readers and writers of
 * snarkjs_json_read_impl.h and snarkjs_json_write_impl.h, and the
 * verification key's writer. */
#include "formats/snarkjs_json.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "formats/decimal.h"
#include "formats/snarkjs_json_internal.h"
#include "pairing/pairing.h"

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
#define SJ_CURVE_NAME "bls12381"
#include "formats/snarkjs_json_write_impl.h"

/* ---- the verification key (BLS12-381's only) --------------------------- */

static json_t *json_fp6(const fp6_t *a)
{
    return arr3(json_fp2(&a->c0), json_fp2(&a->c1), json_fp2(&a->c2));
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

cuzk_status snarkjs_vk_save(const groth16_vk_t *vk, const char *path, char *msg, size_t msg_len)
{
    return save_text(snarkjs_vk_to_json(vk), path, msg, msg_len);
}
