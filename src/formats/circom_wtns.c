#include "formats/circom_wtns.h"

#include <stdlib.h>
#include <string.h>

#include "field/scalar_slots.h"
#include "formats/iden3_bin.h"

/* One value of curve's scalar field into an fr_t slot. */
static cuzk_status value_from_le(curve_id curve, fr_t *out, const uint8_t *in)
{
    bool ok = curve == CURVE_BN254 ? bn254_fr_from_bytes_le(bn254_fr_slots(out), in)
                                   : fr_from_bytes_le(out, in);
    return ok ? CUZK_OK : CUZK_ERR_NOT_CANONICAL;
}

static bool value_is_one(curve_id curve, const fr_t *v)
{
    return curve == CURVE_BN254 ? bn254_fr_is_one(bn254_fr_slots_const(v)) : fr_is_one(v);
}

static cuzk_status parse(circom_wtns_t *w, char *msg, size_t msg_len)
{
    const char *name = w->file.name;
    iden3_file_t bin;
    cuzk_status st = iden3_parse(&bin, &w->file, "wtns", 2, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    const uint8_t *d;
    uint64_t size;
    st = iden3_section_get(&bin, 1, "header", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (size < 4 || ld_le32(d) > size - 4) {
        formats_msg(msg, msg_len, "%s: section 1 (header): %llu bytes cannot hold the prime", name,
                    (unsigned long long)size);
        return CUZK_ERR_CORRUPT;
    }
    uint32_t n8 = ld_le32(d);
    iden3_prime prime = iden3_identify_prime(d + 4, n8);
    if (prime == IDEN3_PRIME_BN254_R) {
        w->curve = CURVE_BN254;
    } else if (prime == IDEN3_PRIME_BLS12_381_R) {
        w->curve = CURVE_BLS12_381;
    } else {
        /* a base field's prime, or none of the curves' */
        st = iden3_check_prime(&bin, "section 1 (header)", n8, d + 4, IDEN3_PRIME_BLS12_381_R, msg,
                               msg_len);
        return st == CUZK_OK ? CUZK_ERR_CORRUPT : st;
    }
    if (size != 4 + (uint64_t)n8 + 4) {
        formats_msg(msg, msg_len, "%s: section 1 (header): %llu bytes, expected %llu", name,
                    (unsigned long long)size, (unsigned long long)(4 + n8 + 4));
        return CUZK_ERR_CORRUPT;
    }
    uint32_t n = ld_le32(d + 4 + n8);
    st = iden3_section_get(&bin, 2, "values", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (size != (uint64_t)n * FR_BYTES) {
        formats_msg(msg, msg_len,
                    "%s: section 2 (values): %llu bytes, expected %llu for %u values of %u "
                    "bytes",
                    name, (unsigned long long)size, (unsigned long long)n * FR_BYTES, n, n8);
        return CUZK_ERR_CORRUPT;
    }
    if (n == 0) {
        formats_msg(msg, msg_len, "%s: no values (w[0] must be 1)", name);
        return CUZK_ERR_CORRUPT;
    }
    fr_t one;
    if (value_from_le(w->curve, &one, d) != CUZK_OK || !value_is_one(w->curve, &one)) {
        formats_msg(msg, msg_len, "%s: section 2 (values): w[0] is not 1", name);
        return CUZK_ERR_CORRUPT;
    }
    w->num_values = n;
    w->values = d;
    return CUZK_OK;
}

cuzk_status circom_wtns_open(circom_wtns_t *w, const char *path, char *msg, size_t msg_len)
{
    memset(w, 0, sizeof(*w));
    cuzk_status st = mapped_file_open(&w->file, path, msg, msg_len);
    if (st == CUZK_OK)
        st = parse(w, msg, msg_len);
    if (st != CUZK_OK)
        circom_wtns_close(w);
    return st;
}

cuzk_status circom_wtns_open_buffer(circom_wtns_t *w, const void *data, size_t size,
                                    const char *name, char *msg, size_t msg_len)
{
    memset(w, 0, sizeof(*w));
    mapped_file_from_buffer(&w->file, data, size, name);
    cuzk_status st = parse(w, msg, msg_len);
    if (st != CUZK_OK)
        circom_wtns_close(w);
    return st;
}

void circom_wtns_close(circom_wtns_t *w)
{
    mapped_file_close(&w->file);
    memset(w, 0, sizeof(*w));
}

cuzk_status circom_wtns_decode(fr_t *out, const circom_wtns_t *w, uint64_t start, uint64_t count,
                               char *msg, size_t msg_len)
{
    if (start > w->num_values || count > w->num_values - start) {
        formats_msg(msg, msg_len, "%s: values %llu..%llu requested, the file has %llu",
                    w->file.name, (unsigned long long)start, (unsigned long long)(start + count),
                    (unsigned long long)w->num_values);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    for (uint64_t i = 0; i < count; i++) {
        if (value_from_le(w->curve, &out[i], w->values + (start + i) * FR_BYTES) != CUZK_OK) {
            formats_msg(msg, msg_len, "%s: section 2 (values): w[%llu] is not below r",
                        w->file.name, (unsigned long long)(start + i));
            return CUZK_ERR_NOT_CANONICAL;
        }
    }
    return CUZK_OK;
}

cuzk_status circom_wtns_load(fr_t **out, uint64_t *n, const char *path, char *msg, size_t msg_len)
{
    *out = NULL;
    *n = 0;
    circom_wtns_t w;
    cuzk_status st = circom_wtns_open(&w, path, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (w.curve != CURVE_BLS12_381) {
        formats_msg(msg, msg_len, "%s: this file is for the %s curve; this reader takes BLS12-381's",
                    w.file.name, curve_id_snarkjs_name(w.curve));
        circom_wtns_close(&w);
        return CUZK_ERR_UNSUPPORTED;
    }
    fr_t *v = malloc((size_t)w.num_values * sizeof(fr_t));
    if (!v) {
        circom_wtns_close(&w);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    st = circom_wtns_decode(v, &w, 0, w.num_values, msg, msg_len);
    if (st == CUZK_OK) {
        *out = v;
        *n = w.num_values;
    } else {
        free(v);
    }
    circom_wtns_close(&w);
    return st;
}
