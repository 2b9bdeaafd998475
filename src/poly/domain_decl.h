/* The evaluation domain of one scalar field (domain.h describes it), declared
 * once for BLS12-381's Fr (domain.h: domain_t, domain_init, ...) and
 * BN254's (bn254_domain.h: bn254_domain_t, bn254_domain_init, ...). No
 * include guard: each header includes it after domain.h's common part and
 * its field's header, after defining
 *   DD_(name)  the names (domain_##name; the type is DD_(t))
 *   DD_FE_T    the field's element type
 *   DD_MAX_LOG the field's two-adicity: the largest domain is 2^DD_MAX_LOG
 * The macros stay defined for the implementation; domain_decl_undef.h
 * undoes them. */

typedef struct DD_(s) {
    unsigned log_n; /* k */
    size_t n;       /* 2^k */
    domain_roots roots;
    DD_FE_T omega;     /* primitive n-th root of unity */
    DD_FE_T omega_inv; /* omega^-1 */
    DD_FE_T n_inv;     /* 1/n */
    DD_FE_T omega_2n;  /* primitive 2n-th root with omega_2n^2 = omega (zero when k = DD_MAX_LOG) */
    DD_FE_T omega_2n_inv; /* its inverse (zero when k = DD_MAX_LOG) */
    DD_FE_T shift;        /* coset shift g = 7 */
    DD_FE_T shift_inv;    /* g^-1 */
    DD_FE_T z_coset;      /* Z(x) = x^n - 1 on the coset g<omega>: the constant g^n - 1 */
    DD_FE_T z_coset_inv;  /* 1/(g^n - 1) */
    /* Twiddles, n/2 entries each (none when n = 1), in bit-reversed order:
     * tw[i] = omega^brv(i), tw_inv[i] = omega^-brv(i), brv reversing k-1
     * bits. Stage s of the NTT uses the prefix tw[0 .. 2^s): one twiddle per
     * block, read sequentially, shared by every stage (see ntt.c). */
    DD_FE_T *tw;
    DD_FE_T *tw_inv;
} DD_(t);

/* The 2^DD_MAX_LOG-th root of unity of the chosen stack: x^t, x = 7 or 5,
 * t = (r − 1)/2^DD_MAX_LOG. */
void DD_(root_of_unity_max)(DD_FE_T *root, domain_roots roots);

/* A primitive 2^log_n-th root of unity of the chosen stack (log_n <=
 * DD_MAX_LOG): root_max^(2^(DD_MAX_LOG − log_n)). */
void DD_(root_of_unity)(DD_FE_T *root, unsigned log_n, domain_roots roots);

/* Initialises the smallest domain of size n = 2^k >= min_size (min_size 0 or
 * 1 gives n = 1) and fills its twiddle tables on `threads` threads (0 = all
 * CPUs).
 * Returns CUZK_OK, CUZK_ERR_INVALID_ARGUMENT when min_size > 2^DD_MAX_LOG, or
 * CUZK_ERR_OUT_OF_MEMORY (the tables take n * 32 bytes together).
 * Out: d, to be released with DD_(free). */
cuzk_status DD_(init)(DD_(t) * d, size_t min_size, domain_roots roots, unsigned threads);

/* Same, for n = 2^log_n exactly (log_n <= DD_MAX_LOG). */
cuzk_status DD_(init_log)(DD_(t) * d, unsigned log_n, domain_roots roots, unsigned threads);

/* Releases the tables; d may be zeroed or already freed. */
void DD_(free)(DD_(t) * d);
