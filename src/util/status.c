#include "cuzk/status.h"

const char *cuzk_status_str(cuzk_status status)
{
    switch (status) {
    case CUZK_OK: return "ok";
    case CUZK_ERR_INVALID_ARGUMENT: return "invalid argument";
    case CUZK_ERR_OUT_OF_MEMORY: return "out of memory";
    case CUZK_ERR_IO: return "input/output error";
    case CUZK_ERR_RANDOM: return "the system random number generator failed";
    case CUZK_ERR_ENCODING_LENGTH: return "encoded point has the wrong length";
    case CUZK_ERR_ENCODING_FLAGS: return "encoded point has an invalid combination of flag bits";
    case CUZK_ERR_NOT_CANONICAL: return "coordinate is not canonical (not less than the field modulus)";
    case CUZK_ERR_INFINITY_NOT_CANONICAL:
        return "point at infinity is not canonically encoded (nonzero bits after the flags)";
    case CUZK_ERR_NOT_ON_CURVE: return "point is not on the curve";
    case CUZK_ERR_NOT_IN_SUBGROUP: return "point is not in the prime-order subgroup";
    case CUZK_ERR_UNSUPPORTED: return "unsupported";
    case CUZK_ERR_INTERNAL: return "internal error";
    case CUZK_ERR_DEVICE: return "a GPU (CUDA) call failed";
    case CUZK_ERR_CORRUPT: return "corrupt input (inconsistent counts, offsets or checksum)";
    case CUZK_ERR_TRUNCATED: return "input ends before its declared contents";
    case CUZK_ERR_UNSATISFIED: return "the witness does not satisfy the constraint system";
    case CUZK_ERR_VERIFY_FAILED: return "the proof did not verify";
    case CUZK_STATUS_COUNT: break;
    }
    return "unknown status";
}
