/* A done job's result as files (cli/result_files.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/result_files.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "curve/curve_id.h"
#include "formats/bn254_snarkjs_json.h"
#include "formats/common.h"
#include "formats/snarkjs_json.h"

char *result_file_name(const char *path, size_t i)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - path) : strlen(path);
    size_t n = strlen(path) + 24;
    char *out = malloc(n);
    if (out)
        snprintf(out, n, "%.*s-%zu%s", (int)stem, path, i, path + stem);
    return out;
}

int result_files_write_bellman(const char *path, const void *bytes, size_t len)
{
    char msg[512] = "";
    cuzk_status st = formats_save(path, bytes, len, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_error("%s", msg[0] ? msg : cuzk_status_str(st));
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

/* proof.json's text (text, len) read back as a proof of curve, with the
 * checks of `cuzk verify`, and written to path by `cuzk prove`'s writer. */
static cuzk_status save_proof(curve_id curve, const char *text, const char *where, const char *path,
                              char *msg, size_t msg_len)
{
    cuzk_status st;
    if (curve == CURVE_BN254) {
        bn254_groth16_proof_t p;
        st = bn254_snarkjs_proof_from_json(&p, text, strlen(text), where, FORMATS_CHECK_SUBGROUP,
                                           msg, msg_len);
        return st == CUZK_OK ? bn254_snarkjs_proof_save(&p, path, msg, msg_len) : st;
    }
    groth16_proof_t p;
    st = snarkjs_proof_from_json(&p, text, strlen(text), where, FORMATS_CHECK_SUBGROUP, msg,
                                 msg_len);
    return st == CUZK_OK ? snarkjs_proof_save(&p, path, msg, msg_len) : st;
}

/* The same for public.json: values below curve's r. */
static cuzk_status save_public(curve_id curve, const char *text, const char *where,
                               const char *path, char *msg, size_t msg_len)
{
    cuzk_status st;
    size_t n = 0;
    if (curve == CURVE_BN254) {
        bn254_fr_t *values = NULL;
        st = bn254_snarkjs_public_from_json(&values, &n, text, strlen(text), where, msg, msg_len);
        if (st == CUZK_OK)
            st = bn254_snarkjs_public_save(values, n, path, msg, msg_len);
        free(values);
        return st;
    }
    fr_t *values = NULL;
    st = snarkjs_public_from_json(&values, &n, text, strlen(text), where, msg, msg_len);
    if (st == CUZK_OK)
        st = snarkjs_public_save(values, n, path, msg, msg_len);
    free(values);
    return st;
}

/* One partition's files: the server's objects read back with the checks
 * of `cuzk verify` (points on the curve, values canonical) and written by
 * the writers of `cuzk prove`, over the curve the proof names (snarkjs's
 * "curve": "bn128" is BN254; BLS12-381 otherwise). */
static int write_partition(const char *proof_path, const char *public_path, json_t *entry, size_t i)
{
    char where[64], msg[512] = "";
    snprintf(where, sizeof(where), "the server's partition %zu", i);
    json_t *proof = json_object_get(entry, "proof"), *pub = json_object_get(entry, "public");
    if (!json_is_object(proof) || !json_is_array(pub)) {
        cli_error("%s has no \"proof\" object and \"public\" array", where);
        return CLI_EXIT_FAILURE;
    }
    const char *named = json_string_value(json_object_get(proof, "curve"));
    curve_id curve =
        named && !strcmp(named, curve_id_snarkjs_name(CURVE_BN254)) ? CURVE_BN254 : CURVE_BLS12_381;
    cuzk_status st = CUZK_OK;
    if (proof_path) {
        char *text = json_dumps(proof, JSON_COMPACT);
        st = text ? save_proof(curve, text, where, proof_path, msg, sizeof(msg))
                  : CUZK_ERR_OUT_OF_MEMORY;
        free(text);
    }
    if (st == CUZK_OK && public_path) {
        char *text = json_dumps(pub, JSON_COMPACT);
        st = text ? save_public(curve, text, where, public_path, msg, sizeof(msg))
                  : CUZK_ERR_OUT_OF_MEMORY;
        free(text);
    }
    if (st != CUZK_OK) {
        cli_error("%s", msg[0] ? msg : cuzk_status_str(st));
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

int result_files_write_snarkjs(const char *proof_path, const char *public_path, const char *body,
                               size_t len)
{
    json_error_t err;
    json_t *o = json_loadb(body, len, 0, &err);
    json_t *parts = o ? json_object_get(o, "partitions") : NULL;
    size_t n = json_is_array(parts) ? json_array_size(parts) : 0;
    if (!n) {
        if (o)
            cli_error("the server's answer has no partitions: %.*s", (int)(len < 200 ? len : 200),
                      body);
        else
            cli_error("the server's answer is not JSON: %s", err.text);
        json_decref(o);
        return CLI_EXIT_FAILURE;
    }
    int rc = CLI_EXIT_OK;
    for (size_t i = 0; i < n && rc == CLI_EXIT_OK; i++) {
        char *proof_i = NULL, *public_i = NULL;
        if (n > 1) {
            proof_i = proof_path ? result_file_name(proof_path, i) : NULL;
            public_i = public_path ? result_file_name(public_path, i) : NULL;
            if ((proof_path && !proof_i) || (public_path && !public_i)) {
                cli_error("out of memory");
                rc = CLI_EXIT_FAILURE;
            }
        }
        if (rc == CLI_EXIT_OK)
            rc = write_partition(n > 1 ? proof_i : proof_path, n > 1 ? public_i : public_path,
                                 json_array_get(parts, i), i);
        free(proof_i);
        free(public_i);
    }
    json_decref(o);
    return rc;
}
