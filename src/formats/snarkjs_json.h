#ifndef CUZK_FORMATS_SNARKJS_JSON_H
#define CUZK_FORMATS_SNARKJS_JSON_H

/* snarkjs's JSON files for Groth16 over BLS12-381. Every number is a
 * decimal string of a canonical integer (no Montgomery form).
 *
 *   proof.json   {"pi_a": G1, "pi_b": G2, "pi_c": G1, "protocol": "groth16",
 *                 "curve": "bls12381"}
 *   public.json  ["w1", ..., "wN"]: the public signals, outputs first
 *   verification_key.json
 *                {"protocol": "groth16", "curve": "bls12381", "nPublic": N,
 *                 "vk_alpha_1": G1, "vk_beta_2": G2, "vk_gamma_2": G2,
 *                 "vk_delta_2": G2, "vk_alphabeta_12": Fq12, "IC": [N+1 × G1]}
 *
 * G1 = [x, y, z] and G2 = [[x.c0, x.c1], [y.c0, y.c1], [z.c0, z.c1]] are
 * Jacobian: snarkjs writes affine points with z = 1 (["1", "0"] in G2) and
 * infinity as ["0", "1", "0"] / [["0","0"], ["1","0"], ["0","0"]]; the
 * readers accept any z (z = 0 is infinity) and the writers emit those
 * forms. Fq12 = [c0, c1], each Fq6 = [c0, c1, c2] of Fq2 [c0, c1] (the
 * tower of field/fp12.h). A two-element G1 / G2 (affine, no z) is accepted
 * too.
 *
 * Readers: "protocol", when present, must be "groth16"; "curve", when
 * present (rapidsnark omits it from proofs), must name BLS12-381 (compared
 * in lower case without punctuation, as snarkjs does); BN254 names give
 * CUZK_ERR_UNSUPPORTED and "this file is for the bn128 curve, not
 * bls12381" (bn254_snarkjs_json.h reads those, with the same readers
 * compiled over BN254: snarkjs_json_read_impl.h). vk_alphabeta_12 is not
 * read (it is
 * e(alpha, beta), which the verifier recomputes); the writer computes it.
 * The JSON key has no beta_g1 / delta_g1: the reader leaves them at
 * infinity.
 *
 * Writers return a malloc'd NUL-terminated string (free()), or NULL when
 * out of memory, laid out as snarkjs lays them out (keys in its order,
 * one-space indentation). */

#include <stddef.h>

#include <stdbool.h>

#include "curve/curve_id.h"
#include "field/fr.h"
#include "formats/common.h"
#include "groth16/keys.h"

/* The curve a JSON file of snarkjs names in its "curve" field: *named is
 * false (and *curve BLS12-381) when it has none (public.json, rapidsnark's
 * proofs). CUZK_ERR_UNSUPPORTED for a curve that is neither, naming the
 * file and the curve; the parser's statuses for a file that is no JSON. */
cuzk_status snarkjs_json_file_curve(curve_id *curve, bool *named, const char *path, char *msg,
                                    size_t msg_len);
/* The same for JSON text (len bytes), named name in messages. */
cuzk_status snarkjs_json_text_curve(curve_id *curve, bool *named, const char *text, size_t len,
                                    const char *name, char *msg, size_t msg_len);

#define SD_(name) snarkjs_##name
#define SD_FR_T fr_t
#define SD_VK_T groth16_vk_t
#define SD_PROOF_T groth16_proof_t
#include "formats/snarkjs_json_read_decl.h"

char *snarkjs_proof_to_json(const groth16_proof_t *proof);
cuzk_status snarkjs_proof_save(const groth16_proof_t *proof, const char *path, char *msg,
                               size_t msg_len);
char *snarkjs_public_to_json(const fr_t *inputs, size_t n);
cuzk_status snarkjs_public_save(const fr_t *inputs, size_t n, const char *path, char *msg,
                                size_t msg_len);
char *snarkjs_vk_to_json(const groth16_vk_t *vk);
cuzk_status snarkjs_vk_save(const groth16_vk_t *vk, const char *path, char *msg, size_t msg_len);

#endif
