#include "formats/decimal.h"

#include <string.h>

#include "field/limbs.h"
#include "field/scalar_slots.h"

typedef unsigned __int128 u128;

bool decimal_to_limbs(uint64_t *limbs, size_t n, const char *s)
{
    size_t len = s ? strlen(s) : 0;
    if (len == 0 || len >= DECIMAL_MAX)
        return false;
    memset(limbs, 0, n * sizeof(uint64_t));
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        uint64_t carry = (uint64_t)(s[i] - '0');
        for (size_t k = 0; k < n; k++) {
            u128 t = (u128)limbs[k] * 10 + carry;
            limbs[k] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        if (carry)
            return false;
    }
    return true;
}

void decimal_from_limbs(char out[DECIMAL_MAX], const uint64_t *limbs, size_t n)
{
    const uint64_t chunk = 10000000000000000000ULL; /* 10^19 */
    uint64_t v[6] = {0};
    memcpy(v, limbs, n * sizeof(uint64_t));
    char buf[DECIMAL_MAX + 32];
    size_t pos = sizeof(buf);
    buf[--pos] = '\0';
    for (;;) {
        bool zero = true;
        for (size_t k = 0; k < n; k++)
            zero &= v[k] == 0;
        if (zero)
            break;
        uint64_t rem = 0; /* v /= 10^19, rem = v mod 10^19 */
        for (size_t k = n; k-- > 0;) {
            u128 t = ((u128)rem << 64) | v[k];
            v[k] = (uint64_t)(t / chunk);
            rem = (uint64_t)(t % chunk);
        }
        for (int d = 0; d < 19; d++) {
            buf[--pos] = (char)('0' + rem % 10);
            rem /= 10;
        }
    }
    while (buf[pos] == '0' && buf[pos + 1] != '\0')
        pos++;
    if (buf[pos] == '\0')
        buf[--pos] = '0';
    memcpy(out, buf + pos, sizeof(buf) - pos);
}

cuzk_status decimal_to_fp(fp_t *r, const char *s)
{
    uint64_t l[FP_LIMBS];
    if (!decimal_to_limbs(l, FP_LIMBS, s))
        return CUZK_ERR_INVALID_ARGUMENT;
    if (!limbs_lt(l, FP_MODULUS, FP_LIMBS))
        return CUZK_ERR_NOT_CANONICAL;
    fp_from_raw(r, l);
    return CUZK_OK;
}

cuzk_status decimal_to_fr(fr_t *r, const char *s)
{
    uint64_t l[FR_LIMBS];
    if (!decimal_to_limbs(l, FR_LIMBS, s))
        return CUZK_ERR_INVALID_ARGUMENT;
    if (!limbs_lt(l, FR_MODULUS, FR_LIMBS))
        return CUZK_ERR_NOT_CANONICAL;
    fr_from_raw(r, l);
    return CUZK_OK;
}

void decimal_from_fp(char out[DECIMAL_MAX], const fp_t *a)
{
    uint64_t l[FP_LIMBS];
    fp_to_raw(l, a);
    decimal_from_limbs(out, l, FP_LIMBS);
}

void decimal_from_fr(char out[DECIMAL_MAX], const fr_t *a)
{
    uint64_t l[FR_LIMBS];
    fr_to_raw(l, a);
    decimal_from_limbs(out, l, FR_LIMBS);
}

cuzk_status decimal_to_scalar(curve_id curve, fr_t *r, const char *s)
{
    if (curve != CURVE_BN254)
        return decimal_to_fr(r, s);
    uint64_t l[BN254_FR_LIMBS];
    if (!decimal_to_limbs(l, BN254_FR_LIMBS, s))
        return CUZK_ERR_INVALID_ARGUMENT;
    if (!limbs_lt(l, BN254_FR_MODULUS, BN254_FR_LIMBS))
        return CUZK_ERR_NOT_CANONICAL;
    bn254_fr_from_raw(bn254_fr_slots(r), l);
    return CUZK_OK;
}

void decimal_from_scalar(char out[DECIMAL_MAX], curve_id curve, const fr_t *a)
{
    if (curve != CURVE_BN254) {
        decimal_from_fr(out, a);
        return;
    }
    uint64_t l[BN254_FR_LIMBS];
    bn254_fr_to_raw(l, bn254_fr_slots_const(a));
    decimal_from_limbs(out, l, BN254_FR_LIMBS);
}
