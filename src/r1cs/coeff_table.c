#include "r1cs/coeff_table.h"

#include <stdlib.h>
#include <string.h>

#include "field/scalar_slots.h"

static uint64_t coeff_hash(const fr_t *v)
{
    /* Montgomery-form values of small constants are well spread already;
     * a multiply-xorshift over all limbs is enough to use every slot bit. */
    uint64_t h = v->l[0] ^ (v->l[1] * 0x9e3779b97f4a7c15ULL) ^ (v->l[2] * 0xc2b2ae3d27d4eb4fULL) ^
                 (v->l[3] * 0x165667b19e3779f9ULL);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 29;
    return h;
}

static cuzk_status coeff_table_rehash(coeff_table *t, uint64_t num_slots)
{
    uint32_t *slots = calloc(num_slots, sizeof(uint32_t));
    if (!slots)
        return CUZK_ERR_OUT_OF_MEMORY;
    uint64_t mask = num_slots - 1;
    for (uint64_t i = 0; i < t->len; i++) {
        uint64_t s = coeff_hash(&t->vals[i]) & mask;
        while (slots[s])
            s = (s + 1) & mask;
        slots[s] = (uint32_t)(i + 1);
    }
    free(t->slots);
    t->slots = slots;
    t->num_slots = num_slots;
    return CUZK_OK;
}

cuzk_status coeff_table_init(coeff_table *t)
{
    return coeff_table_init_over(t, CURVE_BLS12_381);
}

/* +1 and −1 of curve's scalar field, into fr_t slots. */
static void signs_of(curve_id curve, fr_t *one, fr_t *minus_one)
{
    if (curve == CURVE_BN254) {
        *bn254_fr_slots(one) = BN254_FR_ONE;
        bn254_fr_neg(bn254_fr_slots(minus_one), &BN254_FR_ONE);
    } else {
        *one = FR_ONE;
        fr_neg(minus_one, &FR_ONE);
    }
}

cuzk_status coeff_table_init_over(coeff_table *t, curve_id curve)
{
    memset(t, 0, sizeof(*t));
    t->cap = 64;
    t->vals = malloc(t->cap * sizeof(fr_t));
    if (!t->vals)
        return CUZK_ERR_OUT_OF_MEMORY;
    if (coeff_table_rehash(t, 256) != CUZK_OK) {
        coeff_table_free(t);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    fr_t one, minus_one;
    signs_of(curve, &one, &minus_one);
    uint32_t idx;
    cuzk_status st = coeff_table_intern(t, &idx, &one);
    if (st == CUZK_OK)
        st = coeff_table_intern(t, &idx, &minus_one);
    if (st != CUZK_OK)
        coeff_table_free(t);
    return st;
}

void coeff_table_free(coeff_table *t)
{
    free(t->vals);
    free(t->slots);
    memset(t, 0, sizeof(*t));
}

cuzk_status coeff_table_intern(coeff_table *t, uint32_t *idx, const fr_t *value)
{
    uint64_t mask = t->num_slots - 1;
    uint64_t s = coeff_hash(value) & mask;
    for (; t->slots[s]; s = (s + 1) & mask) {
        uint32_t i = t->slots[s] - 1;
        if (fr_eq(&t->vals[i], value)) {
            *idx = i;
            return CUZK_OK;
        }
    }
    /* Indices are u32 and slots store index + 1. */
    if (t->len >= UINT32_MAX - 1)
        return CUZK_ERR_UNSUPPORTED;
    if (t->len == t->cap) {
        uint64_t cap = t->cap * 2;
        fr_t *v = realloc(t->vals, cap * sizeof(fr_t));
        if (!v)
            return CUZK_ERR_OUT_OF_MEMORY;
        t->vals = v;
        t->cap = cap;
    }
    /* Keep the load factor at most one half, so probes stay short and an
     * empty slot always exists. */
    if ((t->len + 1) * 2 > t->num_slots) {
        if (coeff_table_rehash(t, t->num_slots * 2) != CUZK_OK)
            return CUZK_ERR_OUT_OF_MEMORY;
        mask = t->num_slots - 1;
        for (s = coeff_hash(value) & mask; t->slots[s]; s = (s + 1) & mask)
            ;
    }
    t->vals[t->len] = *value;
    t->slots[s] = (uint32_t)(t->len + 1);
    *idx = (uint32_t)t->len;
    t->len++;
    return CUZK_OK;
}

fr_t *coeff_table_take(coeff_table *t, uint64_t *len)
{
    fr_t *v = t->vals;
    *len = t->len;
    fr_t *shrunk = realloc(v, (t->len ? t->len : 1) * sizeof(fr_t));
    if (shrunk)
        v = shrunk;
    free(t->slots);
    memset(t, 0, sizeof(*t));
    return v;
}
