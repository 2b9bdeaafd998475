/* Fp2 = Fp[u] / (u² + 1): elements c0 + c1·u, written once for the towers
 * of BLS12-381 and BN254 (both have p = 3 mod 4, so −1 is a non-square).
 * A template (tower_impl.h explains the names it is instantiated with);
 * the multiplication by the curve's ξ (F2_(mul_nonresidue)) and 1/2 in
 * Montgomery form (F1_HALF) come from the instantiating file. */

const F2_T F2_ZERO = {{{0}}, {{0}}};
const F2_T F2_ONE = {{F1_ONE_INIT}, {{0}}};

void F2_(add)(F2_T *r, const F2_T *a, const F2_T *b)
{
    F1_(add)(&r->c0, &a->c0, &b->c0);
    F1_(add)(&r->c1, &a->c1, &b->c1);
}

void F2_(sub)(F2_T *r, const F2_T *a, const F2_T *b)
{
    F1_(sub)(&r->c0, &a->c0, &b->c0);
    F1_(sub)(&r->c1, &a->c1, &b->c1);
}

void F2_(neg)(F2_T *r, const F2_T *a)
{
    F1_(neg)(&r->c0, &a->c0);
    F1_(neg)(&r->c1, &a->c1);
}

void F2_(dbl)(F2_T *r, const F2_T *a)
{
    F1_(dbl)(&r->c0, &a->c0);
    F1_(dbl)(&r->c1, &a->c1);
}

/* Karatsuba: (a0 + a1 u)(b0 + b1 u) = a0b0 − a1b1 + ((a0 + a1)(b0 + b1) − a0b0 − a1b1) u,
 * three multiplications instead of four (Guide to Pairing-Based Cryptography, §5.2.1). */
void F2_(mul)(F2_T *r, const F2_T *a, const F2_T *b)
{
    F1_T t0, t1, sa, sb;
    F1_(add)(&sa, &a->c0, &a->c1);
    F1_(add)(&sb, &b->c0, &b->c1);
    F1_(mul)(&t0, &a->c0, &b->c0);
    F1_(mul)(&t1, &a->c1, &b->c1);
    F1_(mul)(&sa, &sa, &sb);
    F1_(sub)(&r->c0, &t0, &t1);
    F1_(sub)(&sa, &sa, &t0);
    F1_(sub)(&r->c1, &sa, &t1);
}

/* Complex squaring: (a0 + a1 u)² = (a0 + a1)(a0 − a1) + 2 a0 a1 u
 * (Guide to Pairing-Based Cryptography, §5.2.1). */
void F2_(sqr)(F2_T *r, const F2_T *a)
{
    F1_T s, d, m;
    F1_(add)(&s, &a->c0, &a->c1);
    F1_(sub)(&d, &a->c0, &a->c1);
    F1_(mul)(&m, &a->c0, &a->c1);
    F1_(mul)(&r->c0, &s, &d);
    F1_(dbl)(&r->c1, &m);
}

void F2_(mul_fp)(F2_T *r, const F2_T *a, const F1_T *b)
{
    F1_(mul)(&r->c0, &a->c0, b);
    F1_(mul)(&r->c1, &a->c1, b);
}

void F2_(mul_small)(F2_T *r, const F2_T *a, unsigned k)
{
    F1_(mul_small)(&r->c0, &a->c0, k);
    F1_(mul_small)(&r->c1, &a->c1, k);
}

void F2_(conj)(F2_T *r, const F2_T *a)
{
    r->c0 = a->c0;
    F1_(neg)(&r->c1, &a->c1);
}

/* 1/(a0 + a1 u) = (a0 − a1 u) / (a0² + a1²): one inversion in Fp of the norm. */
void F2_(inv)(F2_T *r, const F2_T *a)
{
    F1_T n, t;
    F1_(sqr)(&n, &a->c0);
    F1_(sqr)(&t, &a->c1);
    F1_(add)(&n, &n, &t);
    F1_(inv)(&n, &n);
    F1_(mul)(&r->c0, &a->c0, &n);
    F1_(mul)(&t, &a->c1, &n);
    F1_(neg)(&r->c1, &t);
}

void F2_(inv_var)(F2_T *r, const F2_T *a)
{
    F1_T n, t;
    F1_(sqr)(&n, &a->c0);
    F1_(sqr)(&t, &a->c1);
    F1_(add)(&n, &n, &t);
    F1_(inv_var)(&n, &n);
    F1_(mul)(&r->c0, &a->c0, &n);
    F1_(mul)(&t, &a->c1, &n);
    F1_(neg)(&r->c1, &t);
}

/* The inverse of an Fp2 element needs only the inverse of its norm, so the
 * norms of a block share one Fp inversion (Montgomery's trick, inside
 * F1_(batch_inv_var)). Blocks keep the scratch on the stack; out may equal in. */
#define FP2_BATCH_BLOCK 128

void F2_(batch_inv_var)(F2_T *out, const F2_T *in, size_t n)
{
    F1_T norms[FP2_BATCH_BLOCK];
    while (n > 0) {
        size_t k = n < FP2_BATCH_BLOCK ? n : FP2_BATCH_BLOCK;
        for (size_t i = 0; i < k; i++) {
            F1_T t;
            F1_(sqr)(&norms[i], &in[i].c0);
            F1_(sqr)(&t, &in[i].c1);
            F1_(add)(&norms[i], &norms[i], &t);
        }
        F1_(batch_inv_var)(norms, norms, k);
        for (size_t i = 0; i < k; i++) {
            F1_T t;
            F1_(mul)(&out[i].c0, &in[i].c0, &norms[i]);
            F1_(mul)(&t, &in[i].c1, &norms[i]);
            F1_(neg)(&out[i].c1, &t);
        }
        in += k;
        out += k;
        n -= k;
    }
}

void F2_(pow_var)(F2_T *r, const F2_T *a, const uint64_t *e, size_t e_limbs)
{
    F2_T acc = F2_ONE, base = *a;
    size_t bits = 64 * e_limbs;
    while (bits > 0 && !((e[(bits - 1) / 64] >> ((bits - 1) % 64)) & 1))
        bits--;
    for (size_t i = bits; i-- > 0;) {
        F2_(sqr)(&acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1)
            F2_(mul)(&acc, &acc, &base);
    }
    *r = acc;
}

/* p >> k as limbs: (p − 3)/4 for k = 2 (p ≡ 3 mod 4). */
static void modulus_shr(uint64_t out[F1_LIMBS], unsigned k)
{
    for (size_t i = 0; i < F1_LIMBS; i++) {
        uint64_t hi = i + 1 < F1_LIMBS ? F1_MODULUS[i + 1] : 0;
        out[i] = (F1_MODULUS[i] >> k) | (hi << (64 - k));
    }
}

/* a is a square in Fp2 iff its norm a0² + a1² is a square in Fp
 * (the norm map Fp2* → Fp* is onto and sends squares to squares). */
bool F2_(is_square)(const F2_T *a)
{
    F1_T n, t;
    F1_(sqr)(&n, &a->c0);
    F1_(sqr)(&t, &a->c1);
    F1_(add)(&n, &n, &t);
    return F1_(is_square)(&n);
}

/* Square root by the complex method for p ≡ 3 (mod 4) (Scott, "Implementing
 * cryptographic pairings", Pairing 2007; compared with Algorithm 9 in Adj and
 * Rodríguez-Henríquez, "Square root computation over even extension fields",
 * 2012): with α = √(a0² + a1²) and δ = (a0 + α)/2,
 *   √a = √δ + (a1 / 2√δ) u        when δ is a square in Fp,
 *   √a = (a1 / 2s) + s u, s² = −δ  otherwise (−1 is not a square).
 * One exponentiation u = δ^((p−3)/4) gives both cases: s = uδ satisfies
 * s² = χ(δ)·δ, and s·u = χ(δ) = ±1, so 1/s = χ(δ)·u without an inversion.
 * δ = 0 only when a1 = 0 and α = −a0; then δ = a0 serves (roots s or s·u).
 * Two Fp exponentiations in all, the same operations for every input; the
 * result is checked by squaring. */
bool F2_(sqrt)(F2_T *r, const F2_T *a)
{
    uint64_t e[F1_LIMBS];
    modulus_shr(e, 2); /* (p − 3)/4 */

    F1_T n, t, alpha, delta, u, s, chi, half_t;
    F1_(sqr)(&n, &a->c0);
    F1_(sqr)(&t, &a->c1);
    F1_(add)(&n, &n, &t);
    (void)F1_(sqrt)(&alpha, &n); /* a non-square norm fails the final check */

    F1_(add)(&delta, &a->c0, &alpha);
    F1_(mul)(&delta, &delta, &F1_HALF);
    F1_(cmov)(&delta, &a->c0, F1_(is_zero)(&delta));

    F1_(pow_var)(&u, &delta, e, F1_LIMBS); /* public exponent */
    F1_(mul)(&s, &u, &delta);
    F1_(mul)(&chi, &s, &u);
    F1_(mul)(&t, &chi, &u); /* 1/s */
    F1_(mul)(&t, &t, &a->c1);
    F1_(mul)(&half_t, &t, &F1_HALF); /* a1 / 2s */

    bool delta_is_square = F1_(is_one)(&chi);
    F2_T x = {half_t, s}, y = {s, half_t}, check;
    F2_(cmov)(&x, &y, delta_is_square);
    F2_(sqr)(&check, &x);
    *r = x;
    return F2_(eq)(&check, a);
}

bool F2_(eq)(const F2_T *a, const F2_T *b)
{
    return F1_(eq)(&a->c0, &b->c0) & F1_(eq)(&a->c1, &b->c1);
}

bool F2_(is_zero)(const F2_T *a)
{
    return F1_(is_zero)(&a->c0) & F1_(is_zero)(&a->c1);
}

bool F2_(is_one)(const F2_T *a)
{
    return F1_(is_one)(&a->c0) & F1_(is_zero)(&a->c1);
}

bool F2_(is_lex_largest)(const F2_T *a)
{
    bool c1_zero = F1_(is_zero)(&a->c1);
    return (c1_zero & F1_(is_lex_largest)(&a->c0)) | (!c1_zero & F1_(is_lex_largest)(&a->c1));
}

void F2_(cmov)(F2_T *r, const F2_T *a, bool flag)
{
    F1_(cmov)(&r->c0, &a->c0, flag);
    F1_(cmov)(&r->c1, &a->c1, flag);
}

void F2_(to_bytes_be)(uint8_t out[2 * F1_BYTES], const F2_T *a)
{
    F1_(to_bytes_be)(out, &a->c1);
    F1_(to_bytes_be)(out + F1_BYTES, &a->c0);
}

bool F2_(from_bytes_be)(F2_T *r, const uint8_t in[2 * F1_BYTES])
{
    F2_T t;
    bool ok = F1_(from_bytes_be)(&t.c1, in);
    ok &= F1_(from_bytes_be)(&t.c0, in + F1_BYTES);
    if (ok)
        *r = t;
    return ok;
}

void F2_(random)(F2_T *r, rng_t *rng)
{
    F1_(random)(&r->c0, rng);
    F1_(random)(&r->c1, rng);
}
