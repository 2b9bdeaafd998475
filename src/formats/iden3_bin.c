#include "formats/iden3_bin.h"

#include <string.h>

#include "field/fp.h"
#include "field/fr.h"

static const uint64_t BN254_R[4] = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL,
                                    0xb85045b68181585dULL, 0x30644e72e131a029ULL};
static const uint64_t BN254_Q[4] = {0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL,
                                    0xb85045b68181585dULL, 0x30644e72e131a029ULL};

cuzk_status iden3_parse(iden3_file_t *out, const mapped_file_t *f, const char *magic,
                        uint32_t version, char *msg, size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    out->file = f;
    const uint8_t *d = f->data;
    uint64_t size = f->size;
    if (size < 4 || memcmp(d, magic, 4) != 0) {
        formats_msg(msg, msg_len, "%s: not a .%s file (the first 4 bytes are not \"%s\")", f->name,
                    magic, magic);
        return size < 4 && size > 0 && memcmp(d, magic, (size_t)size) == 0
                   ? CUZK_ERR_TRUNCATED
                   : CUZK_ERR_INVALID_ARGUMENT;
    }
    if (size < 12) {
        formats_msg(msg, msg_len, "%s: truncated: %llu bytes, the header needs 12", f->name,
                    (unsigned long long)size);
        return CUZK_ERR_TRUNCATED;
    }
    out->version = ld_le32(d + 4);
    if (out->version != version) {
        formats_msg(msg, msg_len, "%s: .%s version %u; cuzk reads version %u", f->name, magic,
                    out->version, version);
        return CUZK_ERR_UNSUPPORTED;
    }
    uint32_t n = ld_le32(d + 8);
    if (n > IDEN3_MAX_SECTIONS) {
        formats_msg(msg, msg_len, "%s: %u sections (more than the %u any .%s file has)", f->name, n,
                    IDEN3_MAX_SECTIONS, magic);
        return CUZK_ERR_CORRUPT;
    }
    uint64_t off = 12;
    for (uint32_t i = 0; i < n; i++) {
        if (size - off < 12) {
            formats_msg(msg, msg_len,
                        "%s: truncated in the section table: section %u of %u starts at "
                        "byte %llu, past the end (%llu bytes)",
                        f->name, i + 1, n, (unsigned long long)off, (unsigned long long)size);
            return CUZK_ERR_TRUNCATED;
        }
        iden3_section *s = &out->sections[i];
        s->id = ld_le32(d + off);
        s->size = ld_le64(d + off + 4);
        s->offset = off + 12;
        if (s->size > size - s->offset) {
            formats_msg(msg, msg_len,
                        "%s: truncated: section %u (id %u) declares %llu bytes at offset "
                        "%llu, but the file ends at %llu",
                        f->name, i + 1, s->id, (unsigned long long)s->size,
                        (unsigned long long)s->offset, (unsigned long long)size);
            return CUZK_ERR_TRUNCATED;
        }
        off = s->offset + s->size;
    }
    if (off != size) {
        formats_msg(msg, msg_len, "%s: %llu bytes after the last of %u sections", f->name,
                    (unsigned long long)(size - off), n);
        return CUZK_ERR_CORRUPT;
    }
    out->num_sections = n;
    return CUZK_OK;
}

bool iden3_has_section(const iden3_file_t *f, uint32_t id)
{
    for (uint32_t i = 0; i < f->num_sections; i++)
        if (f->sections[i].id == id)
            return true;
    return false;
}

cuzk_status iden3_section_get(const iden3_file_t *f, uint32_t id, const char *what,
                              const uint8_t **data, uint64_t *size, char *msg, size_t msg_len)
{
    const iden3_section *found = NULL;
    for (uint32_t i = 0; i < f->num_sections; i++) {
        if (f->sections[i].id != id)
            continue;
        if (found) {
            formats_msg(msg, msg_len, "%s: section %u (%s) appears more than once", f->file->name,
                        id, what);
            return CUZK_ERR_CORRUPT;
        }
        found = &f->sections[i];
    }
    if (!found) {
        formats_msg(msg, msg_len, "%s: section %u (%s) is missing", f->file->name, id, what);
        return CUZK_ERR_CORRUPT;
    }
    *data = f->file->data + found->offset;
    *size = found->size;
    return CUZK_OK;
}

static bool le_equals(const uint8_t *le, uint32_t n8, const uint64_t *limbs, unsigned n)
{
    if (n8 != 8 * n)
        return false;
    for (unsigned i = 0; i < n; i++)
        if (ld_le64(le + 8 * i) != limbs[i])
            return false;
    return true;
}

iden3_prime iden3_identify_prime(const uint8_t *le, uint32_t n8)
{
    if (le_equals(le, n8, FR_MODULUS, FR_LIMBS))
        return IDEN3_PRIME_BLS12_381_R;
    if (le_equals(le, n8, FP_MODULUS, FP_LIMBS))
        return IDEN3_PRIME_BLS12_381_Q;
    if (le_equals(le, n8, BN254_R, 4))
        return IDEN3_PRIME_BN254_R;
    if (le_equals(le, n8, BN254_Q, 4))
        return IDEN3_PRIME_BN254_Q;
    return IDEN3_PRIME_OTHER;
}

static void prime_hex(char *out, size_t out_len, const uint8_t *le, uint32_t n8)
{
    static const char digits[] = "0123456789abcdef";
    uint32_t shown = n8 > 64 ? 64 : n8, top = shown;
    while (top > 1 && le[top - 1] == 0)
        top--;
    size_t pos = 0;
    if (out_len < 2 * (size_t)shown + 8) {
        if (out_len)
            out[0] = 0;
        return;
    }
    out[pos++] = '0';
    out[pos++] = 'x';
    bool leading = true;
    for (uint32_t i = top; i-- > 0;) {
        unsigned hi = le[i] >> 4, lo = le[i] & 15;
        if (!(leading && hi == 0))
            out[pos++] = digits[hi];
        out[pos++] = digits[lo];
        leading = false;
    }
    if (shown < n8) {
        memcpy(out + pos, "...", 3);
        pos += 3;
    }
    out[pos] = 0;
}

cuzk_status iden3_unknown_prime(char *msg, size_t msg_len, const char *name, const char *section,
                                uint32_t n8, const uint8_t *prime)
{
    char hex[160];
    prime_hex(hex, sizeof(hex), prime, n8);
    formats_msg(msg, msg_len,
                "%s: %s: the %u-byte prime %s is of an unknown curve: neither BN254's nor "
                "BLS12-381's, the curves cuzk proves on",
                name, section, n8, hex);
    return CUZK_ERR_UNSUPPORTED;
}

cuzk_status iden3_check_prime(const iden3_file_t *f, const char *section, uint32_t n8,
                              const uint8_t *prime, iden3_prime want, char *msg, size_t msg_len)
{
    iden3_prime got = iden3_identify_prime(prime, n8);
    if (got == want)
        return CUZK_OK;
    const char *name = f->file->name;
    switch (got) {
    case IDEN3_PRIME_BN254_R:
    case IDEN3_PRIME_BN254_Q:
        formats_msg(msg, msg_len,
                    "%s: this file is for the bn128 curve; cuzk supports BLS12-381 only so far",
                    name);
        return CUZK_ERR_UNSUPPORTED;
    case IDEN3_PRIME_BLS12_381_R:
    case IDEN3_PRIME_BLS12_381_Q:
        formats_msg(msg, msg_len, "%s: %s: BLS12-381's %s where its %s belongs", name, section,
                    got == IDEN3_PRIME_BLS12_381_R ? "scalar field r" : "base field q",
                    want == IDEN3_PRIME_BLS12_381_R ? "scalar field r" : "base field q");
        return CUZK_ERR_CORRUPT;
    default:
        return iden3_unknown_prime(msg, msg_len, name, section, n8, prime);
    }
}
