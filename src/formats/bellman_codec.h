#ifndef CUZK_FORMATS_BELLMAN_CODEC_H
#define CUZK_FORMATS_BELLMAN_CODEC_H

/* Uncompressed ZCash point decoding with a formats_check (internal to the
 * bellman readers). FORMATS_CHECK_NONE still checks the flag bits, the
 * canonical infinity and coordinates < p; it skips the curve equation. */

#include "curve/g1.h"
#include "curve/g2.h"
#include "formats/common.h"

cuzk_status bellman_g1_from_bytes(g1_affine_t *r, const uint8_t in[G1_UNCOMPRESSED_BYTES],
                                  formats_check check);
cuzk_status bellman_g2_from_bytes(g2_affine_t *r, const uint8_t in[G2_UNCOMPRESSED_BYTES],
                                  formats_check check);

/* What went wrong with a point, for messages. */
const char *bellman_point_problem(cuzk_status st);

#endif
