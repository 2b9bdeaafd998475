/* Test points and references for the MSM of one group, shared by
 * test_msm.c (BLS12-381) and test_bn254_msm.c: points with known discrete
 * logs p[i] = [a_i]G one addition apart, infinity and repeated or opposite
 * points, the reference [Σ k_i·a_i]G, the naive Σ [k_i]P_i, and every MSM
 * entry point against a reference. No include guard: the group half of
 * each test includes it after defining
 *   TG_(name), TG_GEN, TG_NAME   the group (g1_##name), its generator, its name
 *   TM_(suffix)                  its MSM (msm_g1##suffix)
 *   TS_(name), TS_T, TS_ZERO     its scalar field (fr_##name)
 * and a static rng_t rng. */

typedef TG_(affine_t) TG_(t_aff);
typedef TG_(jac_t) TG_(t_jac);

/* Points with their discrete logs: p[i] = [a[i]]G. */
typedef struct TG_(t_set) {
    TG_(t_aff) * p;
    TS_T *a;
    size_t n;
} TG_(t_set);

static void TG_(t_mul)(TG_(t_jac) * r, const TG_(t_jac) * p, const TS_T *k)
{
    uint64_t raw[4];
    TS_(to_raw)(raw, k);
    TG_(jac_mul_var)(r, p, raw);
}

/* n points a chain of additions apart: p[i+1] = p[i] + R[i % 8] with
 * R[j] = [b_j]G, so a[i+1] = a[i] + b_{i%8}: one addition per point. */
static void TG_(t_make)(TG_(t_set) * s, size_t n)
{
    s->n = n;
    s->p = malloc(sizeof(TG_(t_aff)) * (n + 1));
    s->a = malloc(sizeof(TS_T) * (n + 1));
    TG_(t_jac) *j = malloc(sizeof(TG_(t_jac)) * (n + 1));
    assert_non_null(s->p);
    assert_non_null(s->a);
    assert_non_null(j);
    TG_(t_jac) g, step[8], acc;
    TS_T b[8], a;
    TG_(jac_from_affine)(&g, &TG_GEN);
    for (int i = 0; i < 8; i++) {
        TS_(random)(&b[i], &rng);
        TG_(t_mul)(&step[i], &g, &b[i]);
    }
    TS_(random)(&a, &rng);
    TG_(t_mul)(&acc, &g, &a);
    for (size_t i = 0; i < n; i++) {
        j[i] = acc;
        s->a[i] = a;
        TG_(jac_add_var)(&acc, &acc, &step[i % 8]);
        TS_(add)(&a, &a, &b[i % 8]);
    }
    TG_(jac_batch_to_affine)(s->p, j, n);
    free(j);
}

static void TG_(t_free)(TG_(t_set) * s)
{
    free(s->p);
    free(s->a);
}

static void TG_(t_set_infinity)(TG_(t_set) * s, size_t i)
{
    TG_(affine_set_infinity)(&s->p[i]);
    s->a[i] = TS_ZERO;
}

/* p[i] = p[j] (neg: −p[j]). */
static void TG_(t_copy)(TG_(t_set) * s, size_t i, size_t j, bool neg)
{
    if (neg) {
        TG_(affine_neg)(&s->p[i], &s->p[j]);
        TS_(neg)(&s->a[i], &s->a[j]);
    } else {
        s->p[i] = s->p[j];
        s->a[i] = s->a[j];
    }
}

/* [Σ k_i·a_i]G. */
static void TG_(t_ref)(TG_(t_jac) * out, const TG_(t_set) * s, const TS_T *k)
{
    TS_T acc = TS_ZERO, t;
    for (size_t i = 0; i < s->n; i++) {
        TS_(mul)(&t, &k[i], &s->a[i]);
        TS_(add)(&acc, &acc, &t);
    }
    TG_(t_jac) g;
    TG_(jac_from_affine)(&g, &TG_GEN);
    TG_(t_mul)(out, &g, &acc);
}

/* Σ [k_i]P_i, one scalar multiplication per point. */
static void TG_(t_naive)(TG_(t_jac) * out, const TG_(t_aff) * p, const TS_T *k, size_t n)
{
    TG_(t_jac) acc, t;
    TG_(jac_set_infinity)(&acc);
    for (size_t i = 0; i < n; i++) {
        TG_(jac_from_affine)(&t, &p[i]);
        TG_(t_mul)(&t, &t, &k[i]);
        TG_(jac_add_var)(&acc, &acc, &t);
    }
    *out = acc;
}

static void TG_(t_expect)(const TG_(t_jac) * got, const TG_(t_jac) * want, const char *what,
                          size_t n, unsigned threads)
{
    if (!TG_(jac_eq)(got, want))
        fprintf(stderr, "%s: %s differs from the reference (n = %zu, threads = %u)\n", TG_NAME,
                what, n, threads);
    assert_true(TG_(jac_eq)(got, want));
}

/* Every entry point on the same inputs against ref. */
static void TG_(t_check_all)(const TG_(t_set) * s, const TS_T *k, const TG_(t_jac) * ref,
                             unsigned threads)
{
    TG_(t_jac) got;
    uint64_t(*raw)[4] = malloc(sizeof(uint64_t[4]) * (s->n + 1));
    assert_non_null(raw);
    for (size_t i = 0; i < s->n; i++)
        TS_(to_raw)(raw[i], &k[i]);
    assert_int_equal(TM_()(&got, s->p, k, s->n, threads), CUZK_OK);
    TG_(t_expect)(&got, ref, "msm", s->n, threads);
    assert_int_equal(TM_(_raw)(&got, s->p, (const uint64_t(*)[4])raw, s->n, threads), CUZK_OK);
    TG_(t_expect)(&got, ref, "msm_raw", s->n, threads);
    assert_int_equal(TM_(_split)(&got, s->p, k, s->n, threads), CUZK_OK);
    TG_(t_expect)(&got, ref, "msm_split", s->n, threads);
    assert_int_equal(TM_(_dense)(&got, s->p, s->n, k, s->n, NULL, threads), CUZK_OK);
    TG_(t_expect)(&got, ref, "msm_dense(NULL)", s->n, threads);
    free(raw);
}

static TS_T *TG_(t_scalars)(size_t n)
{
    TS_T *k = malloc(sizeof(TS_T) * (n + 1));
    assert_non_null(k);
    for (size_t i = 0; i < n; i++)
        TS_(random)(&k[i], &rng);
    return k;
}
