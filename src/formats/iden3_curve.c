/* The curve of an iden3 file, from the primes in its header section. */
#include "formats/iden3_curve.h"

#include <string.h>

#include "formats/iden3_bin.h"

static const char *prime_field_name(iden3_prime p)
{
    return p == IDEN3_PRIME_BN254_Q || p == IDEN3_PRIME_BLS12_381_Q ? "q" : "r";
}

static curve_id prime_curve(iden3_prime p)
{
    return p == IDEN3_PRIME_BN254_R || p == IDEN3_PRIME_BN254_Q ? CURVE_BN254 : CURVE_BLS12_381;
}

/* One length-prefixed prime at d + *off (u32 n8, then n8 bytes), within
 * size bytes; *off moves past it. */
static cuzk_status read_prime(iden3_prime *out, const char *name, const char *sec, const uint8_t *d,
                              uint64_t size, uint64_t *off, char *msg, size_t msg_len)
{
    if (size - *off < 4 || ld_le32(d + *off) > size - *off - 4 || ld_le32(d + *off) == 0) {
        formats_msg(msg, msg_len, "%s: %s: %llu bytes cannot hold its prime", name, sec,
                    (unsigned long long)size);
        return CUZK_ERR_CORRUPT;
    }
    uint32_t n8 = ld_le32(d + *off);
    const uint8_t *prime = d + *off + 4;
    *out = iden3_identify_prime(prime, n8);
    if (*out == IDEN3_PRIME_OTHER)
        return iden3_unknown_prime(msg, msg_len, name, sec, n8, prime);
    *off += 4 + (uint64_t)n8;
    return CUZK_OK;
}

static cuzk_status file_curve(curve_id *curve, const mapped_file_t *f, char *msg, size_t msg_len)
{
    /* .r1cs v1 and .wtns v2 carry r in section 1, a Groth16 .zkey v1 q then
     * r in section 2 (snarkjs's binfileutils; FORMATS-circom). */
    static const struct {
        const char *magic;
        uint32_t version, section;
        const char *what;
        int primes;
    } kinds[] = {
        {"r1cs", 1, 1, "header", 1},
        {"wtns", 2, 1, "header", 1},
        {"zkey", 1, 2, "Groth16 header", 2},
    };
    size_t k = 0;
    while (k < sizeof(kinds) / sizeof(kinds[0]) &&
           !(f->size >= 4 && memcmp(f->data, kinds[k].magic, 4) == 0))
        k++;
    if (k == sizeof(kinds) / sizeof(kinds[0])) {
        formats_msg(msg, msg_len,
                    "%s: not a .r1cs, .wtns or .zkey file (the first 4 bytes are none of "
                    "\"r1cs\", \"wtns\", \"zkey\")",
                    f->name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    iden3_file_t bin;
    cuzk_status st = iden3_parse(&bin, f, kinds[k].magic, kinds[k].version, msg, msg_len);
    const uint8_t *d;
    uint64_t size, off = 0;
    if (st == CUZK_OK)
        st = iden3_section_get(&bin, kinds[k].section, kinds[k].what, &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    char sec[64];
    snprintf(sec, sizeof(sec), "section %u (%s)", kinds[k].section, kinds[k].what);
    iden3_prime first, second;
    if ((st = read_prime(&first, f->name, sec, d, size, &off, msg, msg_len)) != CUZK_OK)
        return st;
    *curve = prime_curve(first);
    if (kinds[k].primes == 1)
        return CUZK_OK;
    if ((st = read_prime(&second, f->name, sec, d, size, &off, msg, msg_len)) != CUZK_OK)
        return st;
    if (prime_curve(second) != *curve) {
        formats_msg(msg, msg_len, "%s: %s: the base field is %s's %s but the scalar field %s's %s",
                    f->name, sec, curve_id_snarkjs_name(*curve), prime_field_name(first),
                    curve_id_snarkjs_name(prime_curve(second)), prime_field_name(second));
        return CUZK_ERR_UNSUPPORTED;
    }
    return CUZK_OK;
}

cuzk_status iden3_file_curve(curve_id *curve, const char *path, char *msg, size_t msg_len)
{
    mapped_file_t f;
    cuzk_status st = mapped_file_open(&f, path, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    st = file_curve(curve, &f, msg, msg_len);
    mapped_file_close(&f);
    return st;
}

cuzk_status formats_curves_match(const char *path_a, curve_id a, const char *path_b, curve_id b,
                                 char *msg, size_t msg_len)
{
    if (a == b)
        return CUZK_OK;
    formats_msg(msg, msg_len,
                "%s is for the %s curve but %s is for %s: the files belong to different curves",
                path_a, curve_id_snarkjs_name(a), path_b, curve_id_snarkjs_name(b));
    return CUZK_ERR_UNSUPPORTED;
}
