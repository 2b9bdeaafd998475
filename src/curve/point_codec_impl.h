/* ZCash BLS12-381 point encodings, written once for G1 and G2. A template
 * included after point_impl.h; it also needs
 *   FE_SIZE    bytes of one coordinate (48 for Fp, 96 for Fp2, c1 ‖ c0)
 * and the curve's PT_(affine_in_subgroup).
 *
 * Byte 0 carries three flags above the coordinate's top bits (p < 2^381):
 *   0x80 compressed, 0x40 infinity, 0x20 y is the lexicographically largest
 *   root (compressed only). Infinity is 0xc0 0.. (compressed) or 0x40 0..
 *   (uncompressed); anything else with the infinity flag is rejected. */

#define FLAG_COMPRESSED 0x80
#define FLAG_INFINITY 0x40
#define FLAG_SIGN 0x20
#define FLAGS_ALL (FLAG_COMPRESSED | FLAG_INFINITY | FLAG_SIGN)

void PT_(affine_to_compressed)(uint8_t out[FE_SIZE], const AFF_T *a)
{
    if (a->infinity) {
        memset(out, 0, FE_SIZE);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    fe_to_bytes_be(out, &a->x);
    out[0] |= FLAG_COMPRESSED;
    if (fe_is_lex_largest(&a->y))
        out[0] |= FLAG_SIGN;
}

void PT_(affine_to_uncompressed)(uint8_t out[2 * FE_SIZE], const AFF_T *a)
{
    if (a->infinity) {
        memset(out, 0, 2 * FE_SIZE);
        out[0] = FLAG_INFINITY;
        return;
    }
    fe_to_bytes_be(out, &a->x);
    fe_to_bytes_be(out + FE_SIZE, &a->y);
}

static bool all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static cuzk_status decode_point(AFF_T *r, const uint8_t *in, size_t len, bool check_subgroup)
{
    if (len != FE_SIZE && len != 2 * FE_SIZE)
        return CUZK_ERR_ENCODING_LENGTH;
    bool compressed = len == FE_SIZE;
    bool c_flag = (in[0] & FLAG_COMPRESSED) != 0;
    bool inf = (in[0] & FLAG_INFINITY) != 0;
    bool sign = (in[0] & FLAG_SIGN) != 0;
    if (c_flag != compressed || (sign && (!compressed || inf)))
        return CUZK_ERR_ENCODING_FLAGS;
    if (inf) {
        if ((in[0] & ~FLAGS_ALL) != 0 || !all_zero(in + 1, len - 1))
            return CUZK_ERR_INFINITY_NOT_CANONICAL;
        PT_(affine_set_infinity)(r);
        return CUZK_OK;
    }

    uint8_t buf[FE_SIZE];
    memcpy(buf, in, FE_SIZE);
    buf[0] &= (uint8_t)~FLAGS_ALL;
    if (!fe_from_bytes_be(&r->x, buf))
        return CUZK_ERR_NOT_CANONICAL;
    r->infinity = false;
    if (compressed) {
        FE_T rhs;
        curve_rhs(&rhs, &r->x);
        if (!fe_sqrt(&r->y, &rhs))
            return CUZK_ERR_NOT_ON_CURVE;
        if (fe_is_lex_largest(&r->y) != sign)
            fe_neg(&r->y, &r->y);
    } else {
        if (!fe_from_bytes_be(&r->y, in + FE_SIZE))
            return CUZK_ERR_NOT_CANONICAL;
        if (!PT_(affine_is_on_curve)(r))
            return CUZK_ERR_NOT_ON_CURVE;
    }
    if (check_subgroup && !PT_(affine_in_subgroup)(r))
        return CUZK_ERR_NOT_IN_SUBGROUP;
    return CUZK_OK;
}

cuzk_status PT_(affine_decode)(AFF_T *r, const uint8_t *in, size_t len, bool check_subgroup)
{
    /* r is left at infinity on any failure, never half written. */
    AFF_T t;
    cuzk_status st;
    if (in == NULL && (len == FE_SIZE || len == 2 * FE_SIZE))
        st = CUZK_ERR_INVALID_ARGUMENT;
    else
        st = decode_point(&t, in, len, check_subgroup); /* reads in only when len fits */
    if (st == CUZK_OK)
        *r = t;
    else
        PT_(affine_set_infinity)(r);
    return st;
}

#undef FLAG_COMPRESSED
#undef FLAG_INFINITY
#undef FLAG_SIGN
#undef FLAGS_ALL
