/* .wtns files as snarkjs's writeWtns (src/wtns_utils.js) and circom's
 * witness calculators write them: container "wtns" version 2, section 1
 * (n8, prime, nWitness), then section 2 (the values, canonical
 * little-endian). */
#include <stdlib.h>

#include "formats/circom_wtns.h"
#include "formats/iden3_write.h"

/* Values converted out of Montgomery form per write. */
#define CHUNK 4096

cuzk_status circom_wtns_save(const fr_t *w, uint64_t n, const char *path, char *msg, size_t msg_len)
{
    if (n == 0 || !fr_is_one(&w[0])) {
        formats_msg(msg, msg_len, "%s: a witness starts with w[0] = 1 (ONE)", path);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (n > UINT32_MAX) {
        formats_msg(msg, msg_len, "%s: %llu values: the format counts them in 32 bits", path,
                    (unsigned long long)n);
        return CUZK_ERR_UNSUPPORTED;
    }
    uint8_t *buf = malloc((size_t)CHUNK * FR_BYTES);
    if (!buf)
        return CUZK_ERR_OUT_OF_MEMORY;
    iden3_writer out;
    cuzk_status st = iden3_writer_open(&out, path, "wtns", 2, 2, msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_section(&out, 1, 4 + FR_BYTES + 4, msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_fr_prime(&out, msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_u32(&out, (uint32_t)n, msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_section(&out, 2, n * FR_BYTES, msg, msg_len);
    for (uint64_t i = 0; i < n && st == CUZK_OK; i += CHUNK) {
        uint64_t k = n - i < CHUNK ? n - i : CHUNK;
        for (uint64_t j = 0; j < k; j++)
            fr_to_bytes_le(buf + j * FR_BYTES, &w[i + j]);
        st = iden3_writer_put(&out, buf, (size_t)k * FR_BYTES, msg, msg_len);
    }
    st = iden3_writer_finish(&out, st, msg, msg_len);
    free(buf);
    return st;
}
