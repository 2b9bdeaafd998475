#include <stdlib.h>
#include <string.h>

#include "formats/bellman_codec.h"
#include "formats/bellman_params.h"

#define FLAG_COMPRESSED 0x80
#define FLAG_INFINITY 0x40
#define FLAG_SIGN 0x20

/* Flags and the canonical infinity of an uncompressed encoding of len
 * bytes; *inf tells whether it is the point at infinity. */
static cuzk_status unchecked_flags(bool *inf, const uint8_t *in, size_t len)
{
    if (in[0] & (FLAG_COMPRESSED | FLAG_SIGN))
        return CUZK_ERR_ENCODING_FLAGS;
    *inf = (in[0] & FLAG_INFINITY) != 0;
    if (*inf) {
        uint8_t acc = in[0] & (uint8_t)~FLAG_INFINITY;
        for (size_t i = 1; i < len; i++)
            acc |= in[i];
        if (acc)
            return CUZK_ERR_INFINITY_NOT_CANONICAL;
    }
    return CUZK_OK;
}

cuzk_status bellman_g1_from_bytes(g1_affine_t *r, const uint8_t in[G1_UNCOMPRESSED_BYTES],
                                  formats_check check)
{
    if (check != FORMATS_CHECK_NONE)
        return g1_affine_decode(r, in, G1_UNCOMPRESSED_BYTES, check == FORMATS_CHECK_SUBGROUP);
    g1_affine_set_infinity(r);
    bool inf;
    cuzk_status st = unchecked_flags(&inf, in, G1_UNCOMPRESSED_BYTES);
    if (st != CUZK_OK || inf)
        return st;
    uint8_t x[FP_BYTES];
    memcpy(x, in, FP_BYTES);
    x[0] &= 0x1f;
    g1_affine_t t = {.infinity = false};
    if (!fp_from_bytes_be(&t.x, x) || !fp_from_bytes_be(&t.y, in + FP_BYTES))
        return CUZK_ERR_NOT_CANONICAL;
    *r = t;
    return CUZK_OK;
}

cuzk_status bellman_g2_from_bytes(g2_affine_t *r, const uint8_t in[G2_UNCOMPRESSED_BYTES],
                                  formats_check check)
{
    if (check != FORMATS_CHECK_NONE)
        return g2_affine_decode(r, in, G2_UNCOMPRESSED_BYTES, check == FORMATS_CHECK_SUBGROUP);
    g2_affine_set_infinity(r);
    bool inf;
    cuzk_status st = unchecked_flags(&inf, in, G2_UNCOMPRESSED_BYTES);
    if (st != CUZK_OK || inf)
        return st;
    uint8_t x[2 * FP_BYTES];
    memcpy(x, in, sizeof(x));
    x[0] &= 0x1f;
    g2_affine_t t = {.infinity = false};
    if (!fp2_from_bytes_be(&t.x, x) || !fp2_from_bytes_be(&t.y, in + 2 * FP_BYTES))
        return CUZK_ERR_NOT_CANONICAL;
    *r = t;
    return CUZK_OK;
}

const char *bellman_point_problem(cuzk_status st)
{
    switch (st) {
    case CUZK_ERR_ENCODING_FLAGS:
        return "invalid flag bits for an uncompressed point";
    case CUZK_ERR_INFINITY_NOT_CANONICAL:
        return "infinity flag with other bits set";
    case CUZK_ERR_NOT_CANONICAL:
        return "a coordinate is not below p";
    case CUZK_ERR_NOT_ON_CURVE:
        return "not on the curve";
    case CUZK_ERR_NOT_IN_SUBGROUP:
        return "not in the prime-order subgroup";
    case CUZK_ERR_INVALID_ARGUMENT:
        return "the point at infinity, which bellman forbids here";
    default:
        return cuzk_status_str(st);
    }
}

/* ---- verifying key ----------------------------------------------------- */

#define VK_FIXED (3 * G1_UNCOMPRESSED_BYTES + 3 * G2_UNCOMPRESSED_BYTES)

static const char *const VK_NAME[6] = {"alpha_g1", "beta_g1",  "beta_g2",
                                       "gamma_g2", "delta_g1", "delta_g2"};
static const bool VK_IS_G2[6] = {false, false, true, true, false, true};

static void vk_points(const void *p[6], const groth16_vk_t *vk)
{
    p[0] = &vk->alpha_g1;
    p[1] = &vk->beta_g1;
    p[2] = &vk->beta_g2;
    p[3] = &vk->gamma_g2;
    p[4] = &vk->delta_g1;
    p[5] = &vk->delta_g2;
}

uint64_t bellman_vk_size(const groth16_vk_t *vk)
{
    return VK_FIXED + 4 + (uint64_t)vk->num_ic * G1_UNCOMPRESSED_BYTES;
}

cuzk_status bellman_vk_encode(uint8_t *out, const groth16_vk_t *vk, char *msg, size_t msg_len)
{
    if (vk->num_ic > UINT32_MAX) {
        formats_msg(msg, msg_len, "verifying key: %zu IC points do not fit a u32 count",
                    vk->num_ic);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < vk->num_ic; i++)
        if (vk->ic[i].infinity) {
            formats_msg(msg, msg_len, "verifying key: IC[%zu] is the point at infinity", i);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
    const void *p[6];
    vk_points(p, vk);
    for (int k = 0; k < 6; k++) {
        if (VK_IS_G2[k]) {
            g2_affine_to_uncompressed(out, p[k]);
            out += G2_UNCOMPRESSED_BYTES;
        } else {
            g1_affine_to_uncompressed(out, p[k]);
            out += G1_UNCOMPRESSED_BYTES;
        }
    }
    st_be32(out, (uint32_t)vk->num_ic);
    out += 4;
    for (size_t i = 0; i < vk->num_ic; i++, out += G1_UNCOMPRESSED_BYTES)
        g1_affine_to_uncompressed(out, &vk->ic[i]);
    return CUZK_OK;
}

cuzk_status bellman_vk_decode(groth16_vk_t *out, uint64_t *used, const uint8_t *in, uint64_t len,
                              const char *name, formats_check check, char *msg, size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    if (used)
        *used = 0;
    if (len < VK_FIXED + 4) {
        formats_msg(msg, msg_len, "%s: truncated: %llu bytes, a verifying key needs at least %u",
                    name, (unsigned long long)len, VK_FIXED + 4);
        return CUZK_ERR_TRUNCATED;
    }
    void *p[6];
    vk_points((const void **)p, out);
    uint64_t off = 0;
    for (int k = 0; k < 6; k++) {
        cuzk_status st = VK_IS_G2[k] ? bellman_g2_from_bytes(p[k], in + off, check)
                                     : bellman_g1_from_bytes(p[k], in + off, check);
        if (st != CUZK_OK) {
            formats_msg(msg, msg_len, "%s: verifying key, %s (byte %llu): %s", name, VK_NAME[k],
                        (unsigned long long)off, bellman_point_problem(st));
            return st;
        }
        off += VK_IS_G2[k] ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
    }
    uint32_t n = ld_be32(in + off);
    off += 4;
    if (n > (len - off) / G1_UNCOMPRESSED_BYTES) {
        formats_msg(msg, msg_len, "%s: truncated: %u IC points declared, %llu bytes left", name, n,
                    (unsigned long long)(len - off));
        return CUZK_ERR_TRUNCATED;
    }
    out->ic = malloc((n ? n : 1) * sizeof(g1_affine_t));
    if (!out->ic)
        return CUZK_ERR_OUT_OF_MEMORY;
    out->num_ic = n;
    for (uint32_t i = 0; i < n; i++, off += G1_UNCOMPRESSED_BYTES) {
        cuzk_status st = bellman_g1_from_bytes(&out->ic[i], in + off, check);
        if (st == CUZK_OK && out->ic[i].infinity)
            st = CUZK_ERR_INVALID_ARGUMENT;
        if (st != CUZK_OK) {
            formats_msg(msg, msg_len, "%s: verifying key, IC[%u] (byte %llu): %s", name, i,
                        (unsigned long long)off, bellman_point_problem(st));
            groth16_vk_free(out);
            return st == CUZK_ERR_INVALID_ARGUMENT ? CUZK_ERR_CORRUPT : st;
        }
    }
    if (used)
        *used = off;
    return CUZK_OK;
}

cuzk_status bellman_vk_load(groth16_vk_t *out, const char *path, formats_check check, char *msg,
                            size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    mapped_file_t f;
    cuzk_status st = mapped_file_open(&f, path, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    uint64_t used;
    st = bellman_vk_decode(out, &used, f.data, f.size, path, check, msg, msg_len);
    if (st == CUZK_OK && used != f.size) {
        formats_msg(msg, msg_len, "%s: %llu bytes after the verifying key", path,
                    (unsigned long long)(f.size - used));
        groth16_vk_free(out);
        st = CUZK_ERR_CORRUPT;
    }
    mapped_file_close(&f);
    return st;
}

cuzk_status bellman_vk_save(const groth16_vk_t *vk, const char *path, char *msg, size_t msg_len)
{
    uint64_t size = bellman_vk_size(vk);
    uint8_t *buf = malloc(size);
    if (!buf)
        return CUZK_ERR_OUT_OF_MEMORY;
    cuzk_status st = bellman_vk_encode(buf, vk, msg, msg_len);
    if (st == CUZK_OK)
        st = formats_save(path, buf, size, msg, msg_len);
    free(buf);
    return st;
}

/* ---- proofs -------------------------------------------------------------- */

cuzk_status bellman_proof_encode(uint8_t out[GROTH16_PROOF_BYTES], const groth16_proof_t *proof)
{
    if (proof->a.infinity || proof->b.infinity || proof->c.infinity)
        return CUZK_ERR_INVALID_ARGUMENT;
    g1_affine_to_compressed(out, &proof->a);
    g2_affine_to_compressed(out + G1_COMPRESSED_BYTES, &proof->b);
    g1_affine_to_compressed(out + G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES, &proof->c);
    return CUZK_OK;
}

cuzk_status bellman_proof_decode(groth16_proof_t *out, const uint8_t in[GROTH16_PROOF_BYTES],
                                 char *msg, size_t msg_len)
{
    static const char *const NAME[3] = {"A", "B", "C"};
    const size_t off[3] = {0, G1_COMPRESSED_BYTES, G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES};
    cuzk_status st[3];
    st[0] = g1_affine_decode(&out->a, in + off[0], G1_COMPRESSED_BYTES, true);
    st[1] = g2_affine_decode(&out->b, in + off[1], G2_COMPRESSED_BYTES, true);
    st[2] = g1_affine_decode(&out->c, in + off[2], G1_COMPRESSED_BYTES, true);
    bool inf[3] = {out->a.infinity, out->b.infinity, out->c.infinity};
    for (int k = 0; k < 3; k++) {
        if (st[k] == CUZK_OK && inf[k])
            st[k] = CUZK_ERR_INVALID_ARGUMENT;
        if (st[k] != CUZK_OK) {
            formats_msg(msg, msg_len, "proof: %s (byte %zu): %s", NAME[k], off[k],
                        bellman_point_problem(st[k]));
            memset(out, 0, sizeof(*out));
            return st[k] == CUZK_ERR_INVALID_ARGUMENT ? CUZK_ERR_CORRUPT : st[k];
        }
    }
    return CUZK_OK;
}

cuzk_status bellman_proofs_encode(uint8_t *out, const groth16_proof_t *proofs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cuzk_status st = bellman_proof_encode(out + i * GROTH16_PROOF_BYTES, &proofs[i]);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

cuzk_status bellman_proofs_decode(groth16_proof_t *out, size_t max_n, size_t *n, const uint8_t *in,
                                  size_t len, char *msg, size_t msg_len)
{
    *n = 0;
    if (len % GROTH16_PROOF_BYTES != 0) {
        formats_msg(msg, msg_len, "proofs: %zu bytes is not a multiple of %u", len,
                    GROTH16_PROOF_BYTES);
        return len < GROTH16_PROOF_BYTES ? CUZK_ERR_TRUNCATED : CUZK_ERR_CORRUPT;
    }
    size_t count = len / GROTH16_PROOF_BYTES;
    if (count > max_n) {
        formats_msg(msg, msg_len, "proofs: %zu proofs, room for %zu", count, max_n);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < count; i++) {
        char m[200];
        cuzk_status st = bellman_proof_decode(&out[i], in + i * GROTH16_PROOF_BYTES, m, sizeof(m));
        if (st != CUZK_OK) {
            formats_msg(msg, msg_len, "proof %zu of %zu: %s", i, count, m);
            return st;
        }
    }
    *n = count;
    return CUZK_OK;
}
