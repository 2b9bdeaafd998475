#include "formats/zkey.h"

#include <stdlib.h>
#include <string.h>

#include "field/limbs.h"
#include "formats/iden3_bin.h"
#include "formats/iden3_curve.h"

/* BLS12-381's coordinates: 48 bytes (BN254's: 32, BN254_FP_BYTES). */
#define N8Q 48u

static const char *const POINTS_NAME[ZKEY_POINTS_COUNT] = {"A", "B1", "B2", "C", "H"};
static const uint32_t POINTS_SECTION[ZKEY_POINTS_COUNT] = {5, 6, 7, 8, 9};

/* One Fq coordinate: the stored bytes are the Montgomery limbs themselves. */
static bool fq_from_zkey(fp_t *r, const uint8_t *in)
{
    uint64_t l[FP_LIMBS];
    limbs_from_le(l, in, FP_LIMBS);
    if (!limbs_lt(l, FP_MODULUS, FP_LIMBS))
        return false;
    memcpy(r->l, l, sizeof(l));
    return true;
}

static bool all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static cuzk_status g1_from_zkey(g1_affine_t *r, const uint8_t *in, formats_check check)
{
    if (all_zero(in, 2 * N8Q)) {
        g1_affine_set_infinity(r);
        return CUZK_OK;
    }
    r->infinity = false;
    if (!fq_from_zkey(&r->x, in) || !fq_from_zkey(&r->y, in + N8Q))
        return CUZK_ERR_NOT_CANONICAL;
    if (check >= FORMATS_CHECK_CURVE && !g1_affine_is_on_curve(r))
        return CUZK_ERR_NOT_ON_CURVE;
    if (check >= FORMATS_CHECK_SUBGROUP && !g1_affine_in_subgroup(r))
        return CUZK_ERR_NOT_IN_SUBGROUP;
    return CUZK_OK;
}

static cuzk_status g2_from_zkey(g2_affine_t *r, const uint8_t *in, formats_check check)
{
    if (all_zero(in, 4 * N8Q)) {
        g2_affine_set_infinity(r);
        return CUZK_OK;
    }
    r->infinity = false;
    if (!fq_from_zkey(&r->x.c0, in) || !fq_from_zkey(&r->x.c1, in + N8Q) ||
        !fq_from_zkey(&r->y.c0, in + 2 * N8Q) || !fq_from_zkey(&r->y.c1, in + 3 * N8Q))
        return CUZK_ERR_NOT_CANONICAL;
    if (check >= FORMATS_CHECK_CURVE && !g2_affine_is_on_curve(r))
        return CUZK_ERR_NOT_ON_CURVE;
    if (check >= FORMATS_CHECK_SUBGROUP && !g2_affine_in_subgroup(r))
        return CUZK_ERR_NOT_IN_SUBGROUP;
    return CUZK_OK;
}

static uint64_t g1_bytes(const zkey_t *z)
{
    return 2 * (uint64_t)z->n8q;
}

static uint64_t g2_bytes(const zkey_t *z)
{
    return 4 * (uint64_t)z->n8q;
}

/* One point of the key's curve at in (G2 when g2) into out: a g1_affine_t
 * or g2_affine_t for BLS12-381, a bn254_g1_affine_t or bn254_g2_affine_t
 * for BN254. */
static cuzk_status point_from_zkey(const zkey_t *z, bool g2, void *out, const uint8_t *in,
                                   formats_check check)
{
    bool subgroup = check >= FORMATS_CHECK_SUBGROUP;
    if (z->curve == CURVE_BN254)
        return g2 ? bn254_g2_affine_decode_zkey(out, in, BN254_G2_BYTES, subgroup)
                  : bn254_g1_affine_decode_zkey(out, in, BN254_G1_BYTES, subgroup);
    return g2 ? g2_from_zkey(out, in, check) : g1_from_zkey(out, in, check);
}

static cuzk_status point_error(cuzk_status st, const zkey_t *z, const char *where, uint64_t i,
                               char *msg, size_t msg_len)
{
    const char *what = st == CUZK_ERR_NOT_CANONICAL  ? "a coordinate is not below q"
                       : st == CUZK_ERR_NOT_ON_CURVE ? "not on the curve"
                                                     : "not in the prime-order subgroup";
    formats_msg(msg, msg_len, "%s: %s, point %llu: %s", z->file.name, where, (unsigned long long)i,
                what);
    return st;
}

static cuzk_status read_protocol(const iden3_file_t *bin, char *msg, size_t msg_len)
{
    const uint8_t *d;
    uint64_t size;
    cuzk_status st = iden3_section_get(bin, 1, "protocol", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (size != 4) {
        formats_msg(msg, msg_len, "%s: section 1 (protocol): %llu bytes, expected 4",
                    bin->file->name, (unsigned long long)size);
        return CUZK_ERR_CORRUPT;
    }
    uint32_t p = ld_le32(d);
    if (p == 1)
        return CUZK_OK;
    formats_msg(msg, msg_len, "%s: a %s key; cuzk reads Groth16 keys only", bin->file->name,
                p == 2    ? "PLONK"
                : p == 10 ? "FFLONK"
                          : "non-Groth16");
    return CUZK_ERR_UNSUPPORTED;
}

/* Section 2: field sizes and primes, counts, verifying-key points. */
static cuzk_status read_header(zkey_t *z, const iden3_file_t *bin, formats_check check, char *msg,
                               size_t msg_len)
{
    const char *name = z->file.name;
    const char *sec = "section 2 (Groth16 header)";
    const uint8_t *d;
    uint64_t size;
    cuzk_status st = iden3_section_get(bin, 2, "Groth16 header", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    uint64_t off = 0;
    iden3_prime primes[2];
    for (int k = 0; k < 2; k++) {
        if (size - off < 4 || ld_le32(d + off) > size - off - 4) {
            formats_msg(msg, msg_len, "%s: %s: %llu bytes cannot hold the %s prime", name, sec,
                        (unsigned long long)size, k == 0 ? "base-field" : "scalar-field");
            return CUZK_ERR_CORRUPT;
        }
        uint32_t n8 = ld_le32(d + off);
        primes[k] = iden3_identify_prime(d + off + 4, n8);
        if (primes[k] == IDEN3_PRIME_OTHER)
            return iden3_unknown_prime(msg, msg_len, name, sec, n8, d + off + 4);
        if (k == 0)
            z->n8q = n8;
        off += 4 + (uint64_t)n8;
    }
    /* q then r of one curve (iden3_curve.h names the curves of a mixed pair). */
    if (primes[0] == IDEN3_PRIME_BLS12_381_Q && primes[1] == IDEN3_PRIME_BLS12_381_R) {
        z->curve = CURVE_BLS12_381;
    } else if (primes[0] == IDEN3_PRIME_BN254_Q && primes[1] == IDEN3_PRIME_BN254_R) {
        z->curve = CURVE_BN254;
    } else {
        formats_msg(msg, msg_len,
                    "%s: %s: the primes are not the base and scalar fields of one curve (q of "
                    "BLS12-381 or BN254, then its r)",
                    name, sec);
        return CUZK_ERR_CORRUPT;
    }
    uint64_t expect = off + 12 + 3 * g1_bytes(z) + 3 * g2_bytes(z);
    if (size != expect) {
        formats_msg(msg, msg_len, "%s: %s: %llu bytes, expected %llu", name, sec,
                    (unsigned long long)size, (unsigned long long)expect);
        return CUZK_ERR_CORRUPT;
    }
    z->num_vars = ld_le32(d + off);
    z->num_public = ld_le32(d + off + 4);
    z->domain_size = ld_le32(d + off + 8);
    off += 12;
    if ((uint64_t)z->num_public + 1 > z->num_vars) {
        formats_msg(msg, msg_len, "%s: %s: nPublic = %u needs more than nVars = %u signals", name,
                    sec, z->num_public, z->num_vars);
        return CUZK_ERR_CORRUPT;
    }
    if (z->domain_size == 0 || (z->domain_size & (z->domain_size - 1)) != 0 ||
        z->domain_size < (uint64_t)z->num_public + 1) {
        formats_msg(msg, msg_len,
                    "%s: %s: domainSize = %u is not a power of two of at least nPublic + 1", name,
                    sec, z->domain_size);
        return CUZK_ERR_CORRUPT;
    }
    static const char *const VK_NAME[6] = {"alpha1", "beta1",  "beta2",
                                           "gamma2", "delta1", "delta2"};
    void *pts[6];
    if (z->curve == CURVE_BN254) {
        bn254_groth16_vk_t *vk = &z->bn254_vk;
        void *p[6] = {&vk->alpha_g1, &vk->beta_g1,  &vk->beta_g2,
                      &vk->gamma_g2, &vk->delta_g1, &vk->delta_g2};
        memcpy(pts, p, sizeof(pts));
    } else {
        groth16_vk_t *vk = &z->vk;
        void *p[6] = {&vk->alpha_g1, &vk->beta_g1,  &vk->beta_g2,
                      &vk->gamma_g2, &vk->delta_g1, &vk->delta_g2};
        memcpy(pts, p, sizeof(pts));
    }
    for (int k = 0; k < 6; k++) {
        bool g2 = k == 2 || k == 3 || k == 5;
        st = point_from_zkey(z, g2, pts[k], d + off, check);
        if (st != CUZK_OK) {
            char where[64];
            formats_msg(where, sizeof(where), "%s, %s", sec, VK_NAME[k]);
            return point_error(st, z, where, 0, msg, msg_len);
        }
        off += g2 ? g2_bytes(z) : g1_bytes(z);
    }
    return CUZK_OK;
}

static cuzk_status read_ic(zkey_t *z, const iden3_file_t *bin, formats_check check, char *msg,
                           size_t msg_len)
{
    const uint8_t *d;
    uint64_t size;
    cuzk_status st = iden3_section_get(bin, 3, "IC", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    uint64_t n = (uint64_t)z->num_public + 1, each = g1_bytes(z);
    if (size != n * each) {
        formats_msg(msg, msg_len, "%s: section 3 (IC): %llu bytes, expected %llu for %llu points",
                    z->file.name, (unsigned long long)size, (unsigned long long)(n * each),
                    (unsigned long long)n);
        return CUZK_ERR_CORRUPT;
    }
    bool bn254 = z->curve == CURVE_BN254;
    size_t point_size = bn254 ? sizeof(bn254_g1_affine_t) : sizeof(g1_affine_t);
    void *ic = malloc((size_t)n * point_size);
    if (!ic)
        return CUZK_ERR_OUT_OF_MEMORY;
    if (bn254) {
        z->bn254_vk.ic = ic;
        z->bn254_vk.num_ic = (size_t)n;
    } else {
        z->vk.ic = ic;
        z->vk.num_ic = (size_t)n;
    }
    for (uint64_t i = 0; i < n; i++) {
        st = point_from_zkey(z, false, (uint8_t *)ic + i * point_size, d + i * each, check);
        if (st != CUZK_OK)
            return point_error(st, z, "section 3 (IC)", i, msg, msg_len);
    }
    return CUZK_OK;
}

static cuzk_status read_sizes(zkey_t *z, const iden3_file_t *bin, char *msg, size_t msg_len)
{
    const char *name = z->file.name;
    const uint8_t *d;
    uint64_t size;
    cuzk_status st = iden3_section_get(bin, 4, "coefficients", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (size < 4 || size != 4 + (uint64_t)ld_le32(d) * ZKEY_COEFF_BYTES) {
        formats_msg(msg, msg_len,
                    "%s: section 4 (coefficients): %llu bytes do not hold %u entries of %u "
                    "bytes",
                    name, (unsigned long long)size, size < 4 ? 0 : ld_le32(d), ZKEY_COEFF_BYTES);
        return CUZK_ERR_CORRUPT;
    }
    z->num_coeffs = ld_le32(d);
    z->coeffs = d + 4;
    uint64_t counts[ZKEY_POINTS_COUNT] = {z->num_vars, z->num_vars, z->num_vars,
                                          (uint64_t)z->num_vars - z->num_public - 1,
                                          z->domain_size};
    for (int k = 0; k < ZKEY_POINTS_COUNT; k++) {
        st = iden3_section_get(bin, POINTS_SECTION[k], POINTS_NAME[k], &d, &size, msg, msg_len);
        if (st != CUZK_OK)
            return st;
        uint64_t bytes = k == ZKEY_POINTS_B2 ? g2_bytes(z) : g1_bytes(z);
        if (size != counts[k] * bytes) {
            formats_msg(msg, msg_len,
                        "%s: section %u (%s): %llu bytes, expected %llu for %llu points", name,
                        POINTS_SECTION[k], POINTS_NAME[k], (unsigned long long)size,
                        (unsigned long long)(counts[k] * bytes), (unsigned long long)counts[k]);
            return CUZK_ERR_CORRUPT;
        }
        z->points[k] = d;
        z->num_points[k] = counts[k];
    }
    return CUZK_OK;
}

static cuzk_status parse(zkey_t *z, formats_check check, char *msg, size_t msg_len)
{
    iden3_file_t bin;
    cuzk_status st = iden3_parse(&bin, &z->file, "zkey", 1, msg, msg_len);
    if (st == CUZK_OK)
        st = read_protocol(&bin, msg, msg_len);
    if (st == CUZK_OK)
        st = read_header(z, &bin, check, msg, msg_len);
    if (st == CUZK_OK)
        st = read_ic(z, &bin, check, msg, msg_len);
    if (st == CUZK_OK)
        st = read_sizes(z, &bin, msg, msg_len);
    return st;
}

cuzk_status zkey_open(zkey_t *z, const char *path, formats_check check, char *msg, size_t msg_len)
{
    memset(z, 0, sizeof(*z));
    cuzk_status st = mapped_file_open(&z->file, path, msg, msg_len);
    if (st == CUZK_OK)
        st = parse(z, check, msg, msg_len);
    if (st != CUZK_OK)
        zkey_close(z);
    return st;
}

cuzk_status zkey_open_buffer(zkey_t *z, const void *data, size_t size, const char *name,
                             formats_check check, char *msg, size_t msg_len)
{
    memset(z, 0, sizeof(*z));
    mapped_file_from_buffer(&z->file, data, size, name);
    cuzk_status st = parse(z, check, msg, msg_len);
    if (st != CUZK_OK)
        zkey_close(z);
    return st;
}

void zkey_close(zkey_t *z)
{
    if (z->curve == CURVE_BN254)
        bn254_groth16_vk_free(&z->bn254_vk);
    else
        groth16_vk_free(&z->vk);
    mapped_file_close(&z->file);
    memset(z, 0, sizeof(*z));
}

static cuzk_status range_ok(const zkey_t *z, zkey_points which, uint64_t start, uint64_t count,
                            char *msg, size_t msg_len)
{
    if ((unsigned)which >= ZKEY_POINTS_COUNT || start > z->num_points[which] ||
        count > z->num_points[which] - start) {
        formats_msg(msg, msg_len, "%s: points %llu..%llu of a section requested out of range",
                    z->file.name, (unsigned long long)start, (unsigned long long)(start + count));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    return CUZK_OK;
}

typedef struct decode_job {
    const zkey_t *z;
    void *out;
    size_t out_size; /* bytes of one decoded point */
    const uint8_t *in;
    uint64_t in_size; /* bytes of one stored point */
    bool g2;
    formats_check check;
} decode_job;

static cuzk_status decode_one(void *ctx, uint64_t i)
{
    const decode_job *j = ctx;
    return point_from_zkey(j->z, j->g2, (uint8_t *)j->out + i * j->out_size, j->in + i * j->in_size,
                           j->check);
}

static cuzk_status decode_range(void *out, const zkey_t *z, curve_id curve, zkey_points which,
                                uint64_t start, uint64_t count, formats_check check,
                                unsigned threads, char *msg, size_t msg_len)
{
    cuzk_status st = range_ok(z, which, start, count, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (z->curve != curve) {
        formats_msg(msg, msg_len, "%s: a key for the %s curve, decoded as %s's", z->file.name,
                    curve_id_snarkjs_name(z->curve), curve_id_snarkjs_name(curve));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    bool g2 = which == ZKEY_POINTS_B2, bn254 = curve == CURVE_BN254;
    uint64_t in_size = g2 ? g2_bytes(z) : g1_bytes(z);
    size_t out_size = bn254 ? (g2 ? sizeof(bn254_g2_affine_t) : sizeof(bn254_g1_affine_t))
                            : (g2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t));
    decode_job j = {.z = z,
                    .out = out,
                    .out_size = out_size,
                    .in = z->points[which] + start * in_size,
                    .in_size = in_size,
                    .g2 = g2,
                    .check = check};
    size_t grain = check == FORMATS_CHECK_SUBGROUP ? 64 : 4096;
    uint64_t bad = formats_parallel_first_failure(count, grain, threads, decode_one, &j);
    if (bad == UINT64_MAX)
        return CUZK_OK;
    char where[32];
    formats_msg(where, sizeof(where), "section %u (%s)", POINTS_SECTION[which], POINTS_NAME[which]);
    return point_error(decode_one(&j, bad), z, where, start + bad, msg, msg_len);
}

static cuzk_status g1_section_ok(const zkey_t *z, zkey_points which, char *msg, size_t msg_len)
{
    if (which != ZKEY_POINTS_B2)
        return CUZK_OK;
    formats_msg(msg, msg_len, "%s: section 7 (B2) holds G2 points", z->file.name);
    return CUZK_ERR_INVALID_ARGUMENT;
}

cuzk_status zkey_decode_g1(g1_affine_t *out, const zkey_t *z, zkey_points which, uint64_t start,
                           uint64_t count, formats_check check, unsigned threads, char *msg,
                           size_t msg_len)
{
    cuzk_status st = g1_section_ok(z, which, msg, msg_len);
    return st != CUZK_OK ? st
                         : decode_range(out, z, CURVE_BLS12_381, which, start, count, check,
                                        threads, msg, msg_len);
}

cuzk_status zkey_decode_g2(g2_affine_t *out, const zkey_t *z, uint64_t start, uint64_t count,
                           formats_check check, unsigned threads, char *msg, size_t msg_len)
{
    return decode_range(out, z, CURVE_BLS12_381, ZKEY_POINTS_B2, start, count, check, threads, msg,
                        msg_len);
}

cuzk_status bn254_zkey_decode_g1(bn254_g1_affine_t *out, const zkey_t *z, zkey_points which,
                                 uint64_t start, uint64_t count, formats_check check,
                                 unsigned threads, char *msg, size_t msg_len)
{
    cuzk_status st = g1_section_ok(z, which, msg, msg_len);
    return st != CUZK_OK ? st
                         : decode_range(out, z, CURVE_BN254, which, start, count, check, threads,
                                        msg, msg_len);
}

cuzk_status bn254_zkey_decode_g2(bn254_g2_affine_t *out, const zkey_t *z, uint64_t start,
                                 uint64_t count, formats_check check, unsigned threads, char *msg,
                                 size_t msg_len)
{
    return decode_range(out, z, CURVE_BN254, ZKEY_POINTS_B2, start, count, check, threads, msg,
                        msg_len);
}
