/* Uncompressed affine encodings without flag bits (BN254, as snarkjs writes
 * points): x ‖ y, each coordinate FE_SIZE bytes, and all zeros for the point
 * at infinity, which no curve point with b ≠ 0 can be confused with (x = 0
 * would need y² = b, and y = 0 would need x³ = −b; both together are
 * impossible). A template included after point_impl.h, once per coordinate
 * encoding (big-endian integers; the zkey's little-endian Montgomery limbs);
 * it needs
 *   FE_SIZE                  bytes of one coordinate
 *   CODEC_TO, CODEC_DECODE   the names of the encoder and the decoder
 *   COORD_TO(out, a)         writes a coordinate
 *   COORD_FROM(r, in)        reads one, false when a component is >= p
 * and the curve's PT_(affine_in_subgroup); it undefines the last four. */

void CODEC_TO(uint8_t out[2 * FE_SIZE], const AFF_T *a)
{
    if (a->infinity) {
        memset(out, 0, 2 * FE_SIZE);
        return;
    }
    COORD_TO(out, &a->x);
    COORD_TO(out + FE_SIZE, &a->y);
}

cuzk_status CODEC_DECODE(AFF_T *r, const uint8_t *in, size_t len, bool check_subgroup)
{
    AFF_T t;
    cuzk_status st = CUZK_OK;
    uint8_t acc = 0;
    if (len != 2 * FE_SIZE)
        return PT_(affine_set_infinity)(r), CUZK_ERR_ENCODING_LENGTH;
    if (in == NULL)
        return PT_(affine_set_infinity)(r), CUZK_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < len; i++)
        acc |= in[i];
    if (acc == 0) {
        PT_(affine_set_infinity)(r);
        return CUZK_OK;
    }
    t.infinity = false;
    if (!COORD_FROM(&t.x, in) || !COORD_FROM(&t.y, in + FE_SIZE))
        st = CUZK_ERR_NOT_CANONICAL;
    else if (!PT_(affine_is_on_curve)(&t))
        st = CUZK_ERR_NOT_ON_CURVE;
    else if (check_subgroup && !PT_(affine_in_subgroup)(&t))
        st = CUZK_ERR_NOT_IN_SUBGROUP;
    if (st == CUZK_OK)
        *r = t;
    else
        PT_(affine_set_infinity)(r);
    return st;
}

#undef CODEC_TO
#undef CODEC_DECODE
#undef COORD_TO
#undef COORD_FROM
