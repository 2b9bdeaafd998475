#ifndef CUZK_FORMATS_BELLMAN_PARAMS_H
#define CUZK_FORMATS_BELLMAN_PARAMS_H

/* bellman / bellperson Groth16 files (the layout of Filecoin's .params and
 * .vk files), points in the ZCash BLS12-381 encodings:
 *
 *   verifying key: alpha_g1, beta_g1 (G1, 96 bytes uncompressed), beta_g2,
 *                  gamma_g2 (G2, 192 bytes), delta_g1, delta_g2, then
 *                  u32 big-endian n and n IC points (G1)
 *   parameters:    the verifying key, then for each of h, l, a, b_g1 (G1)
 *                  and b_g2 (G2): u32 big-endian count, count points
 *   proof:         compressed A (48), B (96), C (48): 192 bytes; proofs of
 *                  a multi-partition job are concatenated
 *
 * As bellman reads them: IC and every query point must not be the point at
 * infinity (bellman leaves zero points out of a, b_g1, b_g2 and skips them
 * by density), and neither may a proof's A, B, C; the six single points of
 * the verifying key may. The writers refuse what the readers would.
 *
 * A parameters file is mapped, not read: the verifying key is decoded at
 * open, the queries are decoded on demand (ranges, multi-threaded) into the
 * caller's arrays with a choice of checks per call (FORMATS_CHECK_SUBGROUP
 * for files from elsewhere, _CURVE, or _NONE for a trusted local cache). */

#include <stdint.h>
#include <stdio.h>

#include "formats/common.h"
#include "groth16/keys.h"

typedef enum bellman_query {
    BELLMAN_H = 0,
    BELLMAN_L = 1,
    BELLMAN_A = 2,
    BELLMAN_B_G1 = 3,
    BELLMAN_B_G2 = 4, /* the one G2 query */
    BELLMAN_QUERY_COUNT = 5,
} bellman_query;

typedef struct bellman_params_map {
    mapped_file_t file;
    groth16_vk_t vk;                           /* decoded at open (vk.ic owned) */
    const uint8_t *query[BELLMAN_QUERY_COUNT]; /* first point of each query, in the mapping */
    uint64_t count[BELLMAN_QUERY_COUNT];
} bellman_params_map_t;

/* Maps a parameters file, checks its layout against the file size, and
 * decodes the verifying key with vk_check. */
cuzk_status bellman_params_open(bellman_params_map_t *m, const char *path, formats_check vk_check,
                                char *msg, size_t msg_len);
cuzk_status bellman_params_open_buffer(bellman_params_map_t *m, const void *data, size_t size,
                                       const char *name, formats_check vk_check, char *msg,
                                       size_t msg_len);
void bellman_params_close(bellman_params_map_t *m);

/* out[i] = point start + i of a G1 query (h, l, a, b_g1) / of b_g2, on up
 * to `threads` threads (0: all CPUs). On failure the message names the
 * first bad point. */
cuzk_status bellman_params_decode_g1(g1_affine_t *out, const bellman_params_map_t *m,
                                     bellman_query q, uint64_t start, uint64_t count,
                                     formats_check check, unsigned threads, char *msg,
                                     size_t msg_len);
cuzk_status bellman_params_decode_g2(g2_affine_t *out, const bellman_params_map_t *m,
                                     uint64_t start, uint64_t count, formats_check check,
                                     unsigned threads, char *msg, size_t msg_len);

/* The whole file decoded in one pass into *out (groth16_params_free). */
cuzk_status bellman_params_load(groth16_params_t *out, const char *path, formats_check check,
                                unsigned threads, char *msg, size_t msg_len);
cuzk_status bellman_params_decode_all(groth16_params_t *out, const bellman_params_map_t *m,
                                      formats_check check, unsigned threads, char *msg,
                                      size_t msg_len);

/* Writers (CUZK_ERR_INVALID_ARGUMENT for a point at infinity where the
 * layout forbids one; more than 2^32 - 1 points in a list: the same). */
cuzk_status bellman_params_write(const groth16_params_t *p, FILE *f, char *msg, size_t msg_len);
cuzk_status bellman_params_save(const groth16_params_t *p, const char *path, char *msg,
                                size_t msg_len);

/* The verifying key alone (a bellman .vk file). */
uint64_t bellman_vk_size(const groth16_vk_t *vk);
/* Encodes into out[0..bellman_vk_size(vk)). */
cuzk_status bellman_vk_encode(uint8_t *out, const groth16_vk_t *vk, char *msg, size_t msg_len);
/* Decodes a key from the start of in[0..len); *used (may be NULL) is the
 * number of bytes it took. name is used in messages. */
cuzk_status bellman_vk_decode(groth16_vk_t *out, uint64_t *used, const uint8_t *in, uint64_t len,
                              const char *name, formats_check check, char *msg, size_t msg_len);
/* Files holding exactly one key. */
cuzk_status bellman_vk_load(groth16_vk_t *out, const char *path, formats_check check, char *msg,
                            size_t msg_len);
cuzk_status bellman_vk_save(const groth16_vk_t *vk, const char *path, char *msg, size_t msg_len);

/* Proofs: GROTH16_PROOF_BYTES each. Decoding checks the full ZCash rules
 * and subgroup membership (proofs come from elsewhere). */
cuzk_status bellman_proof_encode(uint8_t out[GROTH16_PROOF_BYTES], const groth16_proof_t *proof);
cuzk_status bellman_proof_decode(groth16_proof_t *out, const uint8_t in[GROTH16_PROOF_BYTES],
                                 char *msg, size_t msg_len);
/* n proofs, concatenated into out[0..n·192). */
cuzk_status bellman_proofs_encode(uint8_t *out, const groth16_proof_t *proofs, size_t n);
/* len must be a multiple of 192; *n = len / 192 proofs into out (room for
 * max_n). */
cuzk_status bellman_proofs_decode(groth16_proof_t *out, size_t max_n, size_t *n, const uint8_t *in,
                                  size_t len, char *msg, size_t msg_len);

#endif
