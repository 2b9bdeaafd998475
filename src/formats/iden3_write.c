#include "formats/iden3_write.h"

#include <string.h>

#include "field/fr.h"

/* Records the first failure; every later call returns it. */
static cuzk_status fail(iden3_writer *w, cuzk_status st)
{
    if (w->status == CUZK_OK)
        w->status = st;
    return w->status;
}

cuzk_status iden3_writer_open(iden3_writer *w, const char *path, const char *magic,
                              uint32_t version, uint32_t num_sections, char *msg, size_t msg_len)
{
    memset(w, 0, sizeof(*w));
    if (strlen(magic) != 4) {
        formats_msg(msg, msg_len, "%s: the magic must be 4 characters", path);
        return fail(w, CUZK_ERR_INVALID_ARGUMENT);
    }
    cuzk_status st = formats_out_open(&w->out, path, msg, msg_len);
    if (st != CUZK_OK)
        return fail(w, st);
    uint8_t h[12];
    memcpy(h, magic, 4);
    iden3_st_le32(h + 4, version);
    iden3_st_le32(h + 8, num_sections);
    w->sections_left = num_sections;
    st = formats_out_write(&w->out, h, sizeof(h), msg, msg_len);
    return st == CUZK_OK ? CUZK_OK : fail(w, st);
}

cuzk_status iden3_writer_section(iden3_writer *w, uint32_t id, uint64_t size, char *msg,
                                 size_t msg_len)
{
    if (w->status != CUZK_OK)
        return w->status;
    if (w->section_left != 0) {
        formats_msg(msg, msg_len, "%s: section %u: %llu bytes short of its declared size",
                    w->out.path, w->section_id, (unsigned long long)w->section_left);
        return fail(w, CUZK_ERR_INTERNAL);
    }
    if (w->sections_left == 0) {
        formats_msg(msg, msg_len, "%s: section %u: more sections than the header declared",
                    w->out.path, id);
        return fail(w, CUZK_ERR_INTERNAL);
    }
    uint8_t h[12];
    iden3_st_le32(h, id);
    iden3_st_le64(h + 4, size);
    cuzk_status st = formats_out_write(&w->out, h, sizeof(h), msg, msg_len);
    if (st != CUZK_OK)
        return fail(w, st);
    w->sections_left--;
    w->section_id = id;
    w->section_left = size;
    return CUZK_OK;
}

cuzk_status iden3_writer_put(iden3_writer *w, const void *data, size_t size, char *msg,
                             size_t msg_len)
{
    if (w->status != CUZK_OK)
        return w->status;
    if (size > w->section_left) {
        formats_msg(msg, msg_len, "%s: section %u: more bytes than its declared size", w->out.path,
                    w->section_id);
        return fail(w, CUZK_ERR_INTERNAL);
    }
    cuzk_status st = formats_out_write(&w->out, data, size, msg, msg_len);
    if (st != CUZK_OK)
        return fail(w, st);
    w->section_left -= size;
    return CUZK_OK;
}

cuzk_status iden3_writer_u32(iden3_writer *w, uint32_t v, char *msg, size_t msg_len)
{
    uint8_t b[4];
    iden3_st_le32(b, v);
    return iden3_writer_put(w, b, sizeof(b), msg, msg_len);
}

cuzk_status iden3_writer_u64(iden3_writer *w, uint64_t v, char *msg, size_t msg_len)
{
    uint8_t b[8];
    iden3_st_le64(b, v);
    return iden3_writer_put(w, b, sizeof(b), msg, msg_len);
}

cuzk_status iden3_writer_fr_prime(iden3_writer *w, char *msg, size_t msg_len)
{
    uint8_t b[4 + FR_BYTES];
    iden3_st_le32(b, FR_BYTES);
    for (unsigned i = 0; i < FR_LIMBS; i++)
        iden3_st_le64(b + 4 + 8 * i, FR_MODULUS[i]);
    return iden3_writer_put(w, b, sizeof(b), msg, msg_len);
}

cuzk_status iden3_writer_finish(iden3_writer *w, cuzk_status st, char *msg, size_t msg_len)
{
    if (st == CUZK_OK && w->status != CUZK_OK)
        st = w->status;
    if (st == CUZK_OK && (w->section_left != 0 || w->sections_left != 0)) {
        formats_msg(msg, msg_len, "%s: %u sections and %llu bytes of section %u still due",
                    w->out.path, w->sections_left, (unsigned long long)w->section_left,
                    w->section_id);
        st = CUZK_ERR_INTERNAL;
    }
    st = formats_out_finish(&w->out, st, msg, msg_len);
    memset(w, 0, sizeof(*w));
    return st;
}
