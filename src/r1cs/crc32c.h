#ifndef CUZK_R1CS_CRC32C_H
#define CUZK_R1CS_CRC32C_H

/* CRC-32C (Castagnoli, reflected polynomial 0x82F63B78; RFC 3720 B.4), the
 * checksum of the compiled-circuit file. Chosen over a byte-wise hash for
 * speed: the x86-64 SSE4.2 crc32 instruction does several GB/s, so checking
 * a multi-GB file costs little next to reading it; elsewhere a portable
 * slicing-by-8 table version runs.
 *
 * Incremental: start from 0; crc32c(crc32c(0, x), y) = crc32c(0, x || y).
 * crc32c(0, "123456789") = 0xE3069283. */

#include <stddef.h>
#include <stdint.h>

uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

/* The portable version, always available (tests compare the two). */
uint32_t crc32c_portable(uint32_t crc, const void *buf, size_t len);

#endif
