#ifndef CUZK_FORMATS_BN254_SNARKJS_JSON_H
#define CUZK_FORMATS_BN254_SNARKJS_JSON_H

/* snarkjs's JSON files over BN254 ("curve": "bn128"): the readers of
 * snarkjs_json.h, the same code compiled over BN254's fields and groups
 * (snarkjs_json_read_impl.h). Coordinates are below BN254's p, public
 * values below its r; a file that names another curve is
 * CUZK_ERR_UNSUPPORTED ("this file is for the bls12381 curve, not
 * bn128"). The key's beta_g1 and delta_g1 are left at infinity. */

#include <stddef.h>

#include "field/bn254_fr.h"
#include "formats/common.h"
#include "groth16/bn254_groth16.h"

cuzk_status bn254_snarkjs_proof_from_json(bn254_groth16_proof_t *out, const char *text, size_t len,
                                          const char *name, formats_check check, char *msg,
                                          size_t msg_len);
cuzk_status bn254_snarkjs_proof_load(bn254_groth16_proof_t *out, const char *path,
                                     formats_check check, char *msg, size_t msg_len);

/* *out: a malloc'd array of *n values (free()); NULL for an empty list. */
cuzk_status bn254_snarkjs_public_from_json(bn254_fr_t **out, size_t *n, const char *text,
                                           size_t len, const char *name, char *msg, size_t msg_len);
cuzk_status bn254_snarkjs_public_load(bn254_fr_t **out, size_t *n, const char *path, char *msg,
                                      size_t msg_len);

/* *out owns vk.ic (bn254_groth16_vk_free). */
cuzk_status bn254_snarkjs_vk_from_json(bn254_groth16_vk_t *out, const char *text, size_t len,
                                       const char *name, formats_check check, char *msg,
                                       size_t msg_len);
cuzk_status bn254_snarkjs_vk_load(bn254_groth16_vk_t *out, const char *path, formats_check check,
                                  char *msg, size_t msg_len);

#endif
