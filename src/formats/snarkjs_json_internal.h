#ifndef CUZK_FORMATS_SNARKJS_JSON_INTERNAL_H
#define CUZK_FORMATS_SNARKJS_JSON_INTERNAL_H

/* What the snarkjs JSON readers of both curves share
 * (snarkjs_json_common.c): the readers themselves are the template
 * snarkjs_json_read_impl.h, compiled in snarkjs_json.c (BLS12-381) and
 * bn254_snarkjs_json.c. */

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "curve/curve_id.h"
#include "field/limbs.h"
#include "formats/common.h"
#include "formats/decimal.h"
#include "formats/snarkjs_json.h"

typedef struct reader {
    const char *name; /* file name for messages */
    formats_check check;
    char *msg;
    size_t msg_len;
} reader;

cuzk_status sj_parse_text(json_t **root, const char *text, size_t len, const reader *r);
cuzk_status sj_load_file(json_t **root, const char *path, const reader *r);
/* A number: a decimal string, or a non-negative JSON integer. */
cuzk_status sj_number_text(char out[DECIMAL_MAX], const json_t *v);
/* limbs = the decimal s, which must be below modulus (n limbs):
 * CUZK_ERR_INVALID_ARGUMENT for no number, CUZK_ERR_NOT_CANONICAL for one
 * not below modulus. */
cuzk_status sj_decimal_limbs(uint64_t *limbs, size_t n, const uint64_t *modulus, const char *s);
/* st, or the failed check of r->check with a message naming where. */
cuzk_status sj_point_checks(cuzk_status st, bool on_curve, bool in_group, const reader *r,
                            const char *where);
/* The object's "protocol" (when present) is groth16 and its "curve" (when
 * present; required with need_curve) names want. */
cuzk_status sj_check_header(const json_t *root, const reader *r, bool need_curve, curve_id want);
/* root[key], or NULL with a message. */
const json_t *sj_member(const json_t *root, const char *key, const reader *r);

#endif
