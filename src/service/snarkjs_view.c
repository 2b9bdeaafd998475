/* A done job's proofs and public inputs as snarkjs's proof.json and
 * public.json, one pair per partition. */
#define _POSIX_C_SOURCE 200809L
#include "service/snarkjs_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/scalar_slots.h"
#include "formats/bellman_params.h"
#include "formats/bn254_proof.h"
#include "formats/bn254_snarkjs_json.h"
#include "formats/snarkjs_json.h"

/* The writers' text back as JSON: the view holds exactly what `cuzk prove`
 * writes, from one writer. NULL when out of memory. */
static json_t *parsed(char *text)
{
    if (!text)
        return NULL;
    json_t *j = json_loads(text, 0, NULL);
    free(text);
    return j;
}

/* One partition's proof.json and public.json texts (*proof_text,
 * *public_text malloc'd; NULL when out of memory) in curve's form. Fails
 * with the status of a proof that does not decode (why says why). */
static cuzk_status partition_texts(char **proof_text, char **public_text, curve_id curve,
                                   const uint8_t *proof, const fr_t *pub, size_t n, char *why,
                                   size_t why_len)
{
    *proof_text = *public_text = NULL;
    cuzk_status st;
    if (curve == CURVE_BN254) {
        bn254_groth16_proof_t p;
        if ((st = bn254_proof_decode(&p, proof, why, why_len)) != CUZK_OK)
            return st;
        *proof_text = bn254_snarkjs_proof_to_json(&p);
        *public_text = bn254_snarkjs_public_to_json(bn254_fr_slots_const(pub), n);
        return CUZK_OK;
    }
    groth16_proof_t p;
    if ((st = bellman_proof_decode(&p, proof, why, why_len)) != CUZK_OK)
        return st;
    *proof_text = snarkjs_proof_to_json(&p);
    *public_text = snarkjs_public_to_json(pub, n);
    return CUZK_OK;
}

cuzk_status view_snarkjs(json_t **out, const char *id, const char *circuit, curve_id curve,
                         const uint8_t *proofs, size_t num_parts, const fr_t *pub,
                         size_t per_partition, char *msg, size_t msg_len)
{
    size_t proof_bytes = curve_proof_bytes(curve);
    *out = NULL;
    json_t *parts = json_array();
    json_t *o = json_object();
    if (!parts || !o) {
        json_decref(parts);
        json_decref(o);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    /* jansson's *_set_new and *_append_new take the value's reference
     * even when they fail. */
    cuzk_status st = CUZK_OK;
    for (size_t i = 0; i < num_parts && st == CUZK_OK; i++) {
        char why[256] = "", *proof_text, *public_text;
        st = partition_texts(&proof_text, &public_text, curve, proofs + i * proof_bytes,
                             pub + i * per_partition, per_partition, why, sizeof(why));
        if (st != CUZK_OK) {
            snprintf(msg, msg_len, "partition %zu: the %s proof does not decode: %s", i,
                     curve_id_snarkjs_name(curve), why[0] ? why : cuzk_status_str(st));
            break;
        }
        json_t *p = parsed(proof_text);
        json_t *v = parsed(public_text);
        json_t *entry = json_object();
        if (!p || !v || !entry) {
            json_decref(p);
            json_decref(v);
            json_decref(entry);
            st = CUZK_ERR_OUT_OF_MEMORY;
            break;
        }
        int bad = json_object_set_new(entry, "proof", p);
        bad |= json_object_set_new(entry, "public", v);
        if (bad) {
            json_decref(entry);
            st = CUZK_ERR_OUT_OF_MEMORY;
        } else if (json_array_append_new(parts, entry) != 0) {
            st = CUZK_ERR_OUT_OF_MEMORY;
        }
    }
    if (st != CUZK_OK) {
        json_decref(parts);
        json_decref(o);
        return st;
    }
    int bad = json_object_set_new(o, "id", json_string(id));
    bad |= json_object_set_new(o, "circuit", json_string(circuit));
    bad |= json_object_set_new(o, "partitions", parts);
    if (bad) {
        json_decref(o);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    *out = o;
    return CUZK_OK;
}
