#ifndef CUZK_FORMATS_IDEN3_WRITE_H
#define CUZK_FORMATS_IDEN3_WRITE_H

/* Writing the iden3 container (iden3_bin.h gives its layout) in one pass:
 * the writer states each section's size in its header before the
 * contents, so nothing is sought back. The writer counts what goes into
 * each section and fails a section that gets more or fewer bytes than it
 * declared, so a size computed wrongly never leaves a file that a reader
 * would refuse. The file appears under its name only when complete
 * (formats_out). */

#include <stdint.h>

#include "formats/common.h"

typedef struct iden3_writer {
    formats_out out;
    uint64_t section_left; /* bytes still due in the open section */
    uint32_t sections_left;
    uint32_t section_id;
    cuzk_status status; /* the first failure; later calls return it */
} iden3_writer;

/* Creates path (as path.tmp until finished) and writes the file header:
 * magic (4 characters), version, number of sections. */
cuzk_status iden3_writer_open(iden3_writer *w, const char *path, const char *magic,
                              uint32_t version, uint32_t num_sections, char *msg, size_t msg_len);

/* Starts the next section: u32 id, u64 size. The previous one must be
 * complete. */
cuzk_status iden3_writer_section(iden3_writer *w, uint32_t id, uint64_t size, char *msg,
                                 size_t msg_len);

/* Appends to the open section. */
cuzk_status iden3_writer_put(iden3_writer *w, const void *data, size_t size, char *msg,
                             size_t msg_len);
cuzk_status iden3_writer_u32(iden3_writer *w, uint32_t v, char *msg, size_t msg_len);
cuzk_status iden3_writer_u64(iden3_writer *w, uint64_t v, char *msg, size_t msg_len);

/* n8 = 32 and BLS12-381's r, little-endian: how .r1cs and .wtns headers
 * name their field. */
cuzk_status iden3_writer_fr_prime(iden3_writer *w, char *msg, size_t msg_len);

/* Closes the file: renamed into place when st is CUZK_OK, every write
 * succeeded and every declared section was written in full; removed
 * otherwise. Returns the final status. */
cuzk_status iden3_writer_finish(iden3_writer *w, cuzk_status st, char *msg, size_t msg_len);

static inline void iden3_st_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline void iden3_st_le64(uint8_t *p, uint64_t v)
{
    iden3_st_le32(p, (uint32_t)v);
    iden3_st_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
