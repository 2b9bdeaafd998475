/* SHA-256 compression at bit level in R1CS (FIPS 180-4 §6.2.2), with the
 * functions of §4.1.2 from the boolean gadgets and the modular additions
 * from gword_add_many. The additions follow the round equations directly,
 * with T1 expanded so that each new word is one packed sum:
 *   e' = d + h + Σ1(e) + Ch(e,f,g) + K_t + W_t
 *   a' =     h + Σ1(e) + Ch(e,f,g) + K_t + W_t + Σ0(a) + Maj(a,b,c)
 * (one unpacking of 35 bits each, instead of three sums via T1 and T2). */
#include "gadgets/sha256.h"

#include <string.h>

/* §4.1.2 (4.4)-(4.7): XORs of three rotations/shifts */
static void big_sigma(gadget_cs *cs, gword *out, const gword *x, unsigned r1, unsigned r2,
                      unsigned r3)
{
    gword a, b, c;
    gword_rotr(&a, x, r1);
    gword_rotr(&b, x, r2);
    gword_rotr(&c, x, r3);
    gword_xor3(cs, out, &a, &b, &c);
}

static void small_sigma(gadget_cs *cs, gword *out, const gword *x, unsigned r1, unsigned r2,
                        unsigned s)
{
    gword a, b, c;
    gword_rotr(&a, x, r1);
    gword_rotr(&b, x, r2);
    gword_shr(&c, x, s);
    gword_xor3(cs, out, &a, &b, &c);
}

void sha256_gadget_iv(gword iv[8])
{
    for (int i = 0; i < 8; i++)
        gword_const(&iv[i], SHA256_IV[i]);
}

void sha256_gadget_compress(gadget_cs *cs, gword out[8], const gword in[8], const gword w16[16])
{
    gword w[64];
    memcpy(w, w16, 16 * sizeof(gword));
    /* §6.2.2 step 1: W_t = σ1(W_{t-2}) + W_{t-7} + σ0(W_{t-15}) + W_{t-16} */
    for (int t = 16; t < 64; t++) {
        gword s0, s1;
        small_sigma(cs, &s0, &w[t - 15], 7, 18, 3);
        small_sigma(cs, &s1, &w[t - 2], 17, 19, 10);
        const gword *ops[4] = {&s1, &w[t - 7], &s0, &w[t - 16]};
        gword_add_many(cs, &w[t], ops, 4);
    }
    /* steps 2-3 */
    gword v[8]; /* a b c d e f g h */
    memcpy(v, in, sizeof(v));
    for (int t = 0; t < 64; t++) {
        gword S1, ch, S0, maj, k, ne, na;
        big_sigma(cs, &S1, &v[4], 6, 11, 25);
        gword_ch(cs, &ch, &v[4], &v[5], &v[6]);
        big_sigma(cs, &S0, &v[0], 2, 13, 22);
        gword_maj(cs, &maj, &v[0], &v[1], &v[2]);
        gword_const(&k, SHA256_K[t]);
        const gword *eops[6] = {&v[3], &v[7], &S1, &ch, &k, &w[t]};
        gword_add_many(cs, &ne, eops, 6);
        const gword *aops[7] = {&v[7], &S1, &ch, &k, &w[t], &S0, &maj};
        gword_add_many(cs, &na, aops, 7);
        memmove(&v[1], &v[0], 7 * sizeof(gword));
        v[0] = na;
        v[4] = ne;
    }
    /* step 4: H_i = H_i + working variable */
    for (int i = 0; i < 8; i++) {
        const gword *ops[2] = {&in[i], &v[i]};
        gword_add_many(cs, &out[i], ops, 2);
    }
}

void sha256_gadget_bytes(gadget_cs *cs, gword out[8], const gbit *bits, size_t nbytes)
{
    size_t nblocks = sha256_num_blocks(nbytes);
    uint64_t bitlen = (uint64_t)nbytes * 8;
    gword st[8];
    sha256_gadget_iv(st);
    for (size_t blk = 0; blk < nblocks; blk++) {
        gword w[16];
        for (unsigned wi = 0; wi < 16; wi++) {
            for (unsigned m = 0; m < 4; m++) {
                size_t j = blk * SHA256_BLOCK_BYTES + 4 * wi + m; /* byte index */
                size_t pad_end = nblocks * SHA256_BLOCK_BYTES;
                for (unsigned i = 0; i < 8; i++) {
                    gbit g;
                    if (j < nbytes) {
                        g = bits[8 * j + i];
                    } else if (j == nbytes) {
                        g = gbit_const(i == 7); /* the 0x80 byte */
                    } else if (j >= pad_end - 8) {
                        unsigned sh = (unsigned)(8 * (pad_end - 1 - j)); /* big-endian length */
                        g = gbit_const(sh < 64 && ((bitlen >> sh) >> i) & 1);
                    } else {
                        g = gbit_const(false);
                    }
                    /* byte m of a word is its (3 - m)th least significant byte */
                    w[wi].b[8 * (3 - m) + i] = g;
                }
            }
        }
        sha256_gadget_compress(cs, st, st, w);
    }
    memcpy(out, st, sizeof(st));
}
