/* Limb primitives: the assembly bodies against the portable ones on edge
 * cases and random inputs, and the run-time choice between them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/fp.h"
#include "field/fp_consts.h"
#include "field/fr.h"
#include "field/fr_consts.h"
#include "field/limbs.h"
#include "seed.h"
#include "util/rng.h"

enum { MAX_EDGE = 24 };

typedef struct field_case {
    const char *name;
    unsigned n; /* limbs */
    unsigned bits;
    const uint64_t *p;
} field_case;

static const field_case FP_CASE = {"fp", 6, 381, FP_MODULUS};
static const field_case FR_CASE = {"fr", 4, 255, FR_MODULUS};

static uint64_t case_n0(const field_case *fc)
{
    return fc->n == 6 ? FP_N0 : FR_N0;
}

/* Values < p that stress carries: 0, 1, 2, p-1, p-2, (p-1)/2, (p+1)/2,
 * all-ones limbs under a top limb just below p's, single high bits, ... */
static unsigned edge_values(uint64_t out[MAX_EDGE][6], const field_case *fc)
{
    unsigned n = fc->n, k = 0;
    memset(out, 0, sizeof(uint64_t) * 6 * MAX_EDGE);
    out[k++][0] = 0;
    out[k++][0] = 1;
    out[k++][0] = 2;
    for (unsigned d = 1; d <= 2; d++, k++) { /* p - 1, p - 2 */
        memcpy(out[k], fc->p, n * 8);
        out[k][0] -= d;
    }
    for (unsigned i = 0; i < n; i++) /* (p - 1) / 2 */
        out[k][i] = (fc->p[i] >> 1) | (i + 1 < n ? fc->p[i + 1] << 63 : 0);
    k++;
    memcpy(out[k], out[k - 1], n * 8); /* (p + 1) / 2 */
    out[k++][0] += 1;
    for (unsigned i = 0; i + 1 < n; i++) /* all-ones limbs, top limb of p minus one */
        out[k][i] = ~UINT64_C(0);
    out[k++][n - 1] = fc->p[n - 1] - 1;
    for (unsigned i = 0; i + 1 < n; i++) /* all-ones low limbs only */
        out[k][i] = ~UINT64_C(0);
    k++;
    out[k++][n - 1] = UINT64_C(1) << ((fc->bits - 2) % 64); /* 2^(bits-2) */
    out[k++][n / 2] = ~UINT64_C(0);                         /* one full middle limb */
    for (unsigned i = 0; i < n; i++)                        /* p with limb 0 zeroed (< p) */
        out[k][i] = i ? fc->p[i] : 0;
    k++;
    for (unsigned i = 0; i < n; i++) /* p - 2^64: borrow through the low limbs */
        out[k][i] = fc->p[i];
    out[k][1] -= 1;
    k++;
    const uint64_t *one = fc->n == 6 ? FP_ONE.l : FR_ONE.l; /* R mod p and R² mod p */
    const uint64_t *r2 = fc->n == 6 ? FP_R2.l : FR_R2.l;
    memcpy(out[k++], one, n * 8);
    memcpy(out[k++], r2, n * 8);
    return k;
}

static void random_below(uint64_t *x, const field_case *fc, rng_t *rng)
{
    do {
        for (unsigned i = 0; i < fc->n; i++)
            x[i] = rng_u64(rng);
        x[fc->n - 1] &= (UINT64_C(1) << (fc->bits % 64)) - 1;
    } while (!limbs_lt(x, fc->p, fc->n));
}

static void print_limbs(const char *what, const uint64_t *x, unsigned n)
{
    printf("  %s = 0x", what);
    for (unsigned i = n; i-- > 0;)
        printf("%016llx", (unsigned long long)x[i]);
    printf("\n");
}

/* The portable bodies alone: squaring equals multiplication by itself,
 * (a + b) - b = a, and every output is reduced. */
static void check_portable_pair(const field_case *fc, const uint64_t *a, const uint64_t *b)
{
    uint64_t x[6] = {0}, y[6] = {0}, z[6] = {0};
    unsigned n = fc->n;
    uint64_t n0 = case_n0(fc);
    if (n == 6) {
        mont_sqr_384_portable(x, a, fc->p, n0);
        mont_mul_384_portable(y, a, a, fc->p, n0);
        add_mod_384_portable(z, a, b, fc->p);
        assert_true(limbs_lt(z, fc->p, n));
        sub_mod_384_portable(z, z, b, fc->p);
    } else {
        mont_sqr_256_portable(x, a, fc->p, n0);
        mont_mul_256_portable(y, a, a, fc->p, n0);
        add_mod_256_portable(z, a, b, fc->p);
        assert_true(limbs_lt(z, fc->p, n));
        sub_mod_256_portable(z, z, b, fc->p);
    }
    if (memcmp(x, y, n * 8) != 0 || !limbs_lt(x, fc->p, n) || memcmp(z, a, n * 8) != 0) {
        printf("%s: portable bodies disagree\n", fc->name);
        print_limbs("a", a, n);
        print_limbs("b", b, n);
        print_limbs("sqr", x, n);
        print_limbs("mul", y, n);
        print_limbs("a+b-b", z, n);
        fail();
    }
}

static void run_portable(const field_case *fc, const char *seed_name)
{
    uint64_t edge[MAX_EDGE][6];
    unsigned ne = edge_values(edge, fc);
    for (unsigned i = 0; i < ne; i++)
        for (unsigned j = 0; j < ne; j++)
            check_portable_pair(fc, edge[i], edge[j]);
    rng_t rng;
    rng_seed(&rng, test_seed(seed_name));
    uint64_t a[6] = {0}, b[6] = {0};
    for (int it = 0; it < test_iters(2000); it++) {
        random_below(a, fc, &rng);
        random_below(b, fc, &rng);
        check_portable_pair(fc, a, b);
    }
}

static void test_portable_384(void **state)
{
    (void)state;
    run_portable(&FP_CASE, "limbs_portable_384");
}

static void test_portable_256(void **state)
{
    (void)state;
    run_portable(&FR_CASE, "limbs_portable_256");
}

#ifdef LIMBS_MULX
/* Every primitive on (a, b), both bodies, outputs equal and reduced. */
static void compare_pair(const field_case *fc, const uint64_t *a, const uint64_t *b)
{
    uint64_t x[6] = {0}, y[6] = {0};
    unsigned n = fc->n;
    uint64_t n0 = case_n0(fc);
    for (int op = 0; op < 6; op++) {
        if (n == 6) {
            switch (op) {
            case 0:
                mont_mul_384_portable(x, a, b, fc->p, n0);
                mont_mul_384_mulx(y, a, b, fc->p, n0);
                break;
            case 1:
                mont_sqr_384_portable(x, a, fc->p, n0);
                mont_sqr_384_mulx(y, a, fc->p, n0);
                break;
            case 2:
                add_mod_384_portable(x, a, b, fc->p);
                add_mod_384_x86(y, a, b, fc->p);
                break;
            case 3:
                sub_mod_384_portable(x, a, b, fc->p);
                sub_mod_384_x86(y, a, b, fc->p);
                break;
            case 4: /* squaring against multiplication by itself */
                mont_sqr_384_portable(x, a, fc->p, n0);
                mont_mul_384_portable(y, a, a, fc->p, n0);
                break;
            default:
                mont_sqr_384_mulx(x, b, fc->p, n0);
                mont_mul_384_mulx(y, b, b, fc->p, n0);
                break;
            }
        } else {
            switch (op) {
            case 0:
                mont_mul_256_portable(x, a, b, fc->p, n0);
                mont_mul_256_mulx(y, a, b, fc->p, n0);
                break;
            case 1:
                mont_sqr_256_portable(x, a, fc->p, n0);
                mont_sqr_256_mulx(y, a, fc->p, n0);
                break;
            case 2:
                add_mod_256_portable(x, a, b, fc->p);
                add_mod_256_x86(y, a, b, fc->p);
                break;
            case 3:
                sub_mod_256_portable(x, a, b, fc->p);
                sub_mod_256_x86(y, a, b, fc->p);
                break;
            case 4:
                mont_sqr_256_portable(x, a, fc->p, n0);
                mont_mul_256_portable(y, a, a, fc->p, n0);
                break;
            default:
                mont_sqr_256_mulx(x, b, fc->p, n0);
                mont_mul_256_mulx(y, b, b, fc->p, n0);
                break;
            }
        }
        if (memcmp(x, y, n * 8) != 0 || !limbs_lt(x, fc->p, n)) {
            printf("%s: op %d differs\n", fc->name, op);
            print_limbs("a", a, n);
            print_limbs("b", b, n);
            print_limbs("first ", x, n);
            print_limbs("second", y, n);
            fail();
        }
    }
}

static void run_compare(const field_case *fc, const char *seed_name)
{
    if (!limbs_cpu_has_mulx()) {
        printf("%s: this CPU has no BMI2/ADX, assembly bodies not comparable here\n", fc->name);
        return;
    }
    uint64_t edge[MAX_EDGE][6];
    unsigned ne = edge_values(edge, fc);
    for (unsigned i = 0; i < ne; i++)
        for (unsigned j = 0; j < ne; j++)
            compare_pair(fc, edge[i], edge[j]);

    rng_t rng;
    rng_seed(&rng, test_seed(seed_name));
    uint64_t a[6] = {0}, b[6] = {0};
    for (int it = 0; it < test_iters(20000); it++) {
        random_below(a, fc, &rng);
        if (it % 4 == 0)
            memcpy(b, edge[rng_u64(&rng) % ne], sizeof(b));
        else
            random_below(b, fc, &rng);
        compare_pair(fc, a, b);
        compare_pair(fc, b, a);
    }
}

/* Outputs may alias inputs. */
static void test_aliasing(void **state)
{
    (void)state;
    if (!limbs_cpu_has_mulx())
        return;
    rng_t rng;
    rng_seed(&rng, test_seed("limbs_aliasing"));
    const field_case *cases[2] = {&FP_CASE, &FR_CASE};
    for (int c = 0; c < 2; c++) {
        const field_case *fc = cases[c];
        for (int it = 0; it < test_iters(200); it++) {
            uint64_t a[6] = {0}, b[6] = {0}, want[6], got[6];
            random_below(a, fc, &rng);
            random_below(b, fc, &rng);
            if (fc->n == 6) {
                mont_mul_384_portable(want, a, b, fc->p, FP_N0);
                memcpy(got, a, sizeof(got));
                mont_mul_384_mulx(got, got, b, fc->p, FP_N0);
                assert_memory_equal(want, got, 48);
                memcpy(got, b, sizeof(got));
                mont_mul_384_mulx(got, a, got, fc->p, FP_N0);
                assert_memory_equal(want, got, 48);
                mont_sqr_384_portable(want, a, fc->p, FP_N0);
                memcpy(got, a, sizeof(got));
                mont_sqr_384_mulx(got, got, fc->p, FP_N0);
                assert_memory_equal(want, got, 48);
                sub_mod_384_portable(want, a, b, fc->p);
                memcpy(got, b, sizeof(got));
                sub_mod_384_x86(got, a, got, fc->p);
                assert_memory_equal(want, got, 48);
                add_mod_384_portable(want, a, a, fc->p);
                memcpy(got, a, sizeof(got));
                add_mod_384_x86(got, got, got, fc->p);
                assert_memory_equal(want, got, 48);
            } else {
                mont_mul_256_portable(want, a, b, fc->p, FR_N0);
                memcpy(got, a, sizeof(got));
                mont_mul_256_mulx(got, got, b, fc->p, FR_N0);
                assert_memory_equal(want, got, 32);
                memcpy(got, b, sizeof(got));
                mont_mul_256_mulx(got, a, got, fc->p, FR_N0);
                assert_memory_equal(want, got, 32);
                mont_sqr_256_portable(want, a, fc->p, FR_N0);
                memcpy(got, a, sizeof(got));
                mont_sqr_256_mulx(got, got, fc->p, FR_N0);
                assert_memory_equal(want, got, 32);
                sub_mod_256_portable(want, a, b, fc->p);
                memcpy(got, b, sizeof(got));
                sub_mod_256_x86(got, a, got, fc->p);
                assert_memory_equal(want, got, 32);
                add_mod_256_portable(want, a, a, fc->p);
                memcpy(got, a, sizeof(got));
                add_mod_256_x86(got, got, got, fc->p);
                assert_memory_equal(want, got, 32);
            }
        }
    }
}
#else
static void run_compare(const field_case *fc, const char *seed_name)
{
    (void)seed_name;
    printf("%s: built without the x86-64 assembly bodies\n", fc->name);
}

static void test_aliasing(void **state)
{
    (void)state;
}
#endif

static void test_compare_384(void **state)
{
    (void)state;
    run_compare(&FP_CASE, "limbs_compare_384");
}

static void test_compare_256(void **state)
{
    (void)state;
    run_compare(&FR_CASE, "limbs_compare_256");
}

/* Identities of the portable bodies that need no second implementation:
 * mont(mont(a, b), R²) = a·b = mont(a, mont(b, R²)), from_mont(a) = mont(a, 1),
 * (a + b) - b = a. */
static void test_portable_identities(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("limbs_portable_identities"));
    for (int it = 0; it < test_iters(2000); it++) {
        uint64_t a[6] = {0}, b[6] = {0}, x[6], y[6], z[6];
        random_below(a, &FP_CASE, &rng);
        random_below(b, &FP_CASE, &rng);
        mont_mul_384_portable(x, a, b, FP_MODULUS, FP_N0);
        mont_mul_384_portable(x, x, FP_R2.l, FP_MODULUS, FP_N0);
        mont_mul_384_portable(y, b, FP_R2.l, FP_MODULUS, FP_N0);
        mont_mul_384_portable(y, a, y, FP_MODULUS, FP_N0);
        assert_memory_equal(x, y, 48);
        /* from_mont(a) = mont(a, 1). */
        uint64_t one[6] = {1, 0, 0, 0, 0, 0};
        from_mont_384(x, a, FP_MODULUS, FP_N0);
        mont_mul_384_portable(y, a, one, FP_MODULUS, FP_N0);
        assert_memory_equal(x, y, 48);
        /* (a + b) - b = a, and a - b + b = a. */
        add_mod_384_portable(z, a, b, FP_MODULUS);
        sub_mod_384_portable(z, z, b, FP_MODULUS);
        assert_memory_equal(z, a, 48);

        random_below(a, &FR_CASE, &rng);
        random_below(b, &FR_CASE, &rng);
        mont_mul_256_portable(x, a, b, FR_MODULUS, FR_N0);
        mont_mul_256_portable(x, x, FR_R2.l, FR_MODULUS, FR_N0);
        mont_mul_256_portable(y, b, FR_R2.l, FR_MODULUS, FR_N0);
        mont_mul_256_portable(y, a, y, FR_MODULUS, FR_N0);
        assert_memory_equal(x, y, 32);
        from_mont_256(x, a, FR_MODULUS, FR_N0);
        mont_mul_256_portable(y, a, one, FR_MODULUS, FR_N0);
        assert_memory_equal(x, y, 32);
    }
}

/* The choice follows the CPU and CUZK_NO_ASM. */
static void test_dispatch(void **state)
{
    (void)state;
    const char *off = getenv("CUZK_NO_ASM");
    bool forced_off = off && *off && strcmp(off, "0") != 0;
#ifdef LIMBS_MULX
    bool expect = limbs_cpu_has_mulx() && !forced_off;
#else
    bool expect = false;
    (void)forced_off;
#endif
    printf("limbs: cpu mulx/adx %d, CUZK_NO_ASM %s, assembly in use %d\n", limbs_cpu_has_mulx(),
           off ? off : "(unset)", limbs_mulx_active());
    assert_int_equal(limbs_mulx_active(), expect);
}

static void test_helpers(void **state)
{
    (void)state;
    uint64_t a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 2, 3, 4, 5, 6};
    assert_int_equal(limbs_lt(a, b, 6), 0);
    b[0] = 2;
    assert_int_equal(limbs_lt(a, b, 6), 1);
    assert_int_equal(limbs_lt(b, a, 6), 0);
    b[0] = 0;
    b[5] = 7;
    assert_int_equal(limbs_lt(a, b, 6), 1);
    assert_int_equal(limbs_is_zero(a, 6), 0);
    uint64_t z[6] = {0};
    assert_int_equal(limbs_is_zero(z, 6), 1);
    z[5] = UINT64_C(1) << 63;
    assert_int_equal(limbs_is_zero(z, 6), 0);

    uint8_t be[48], le[48];
    uint64_t back[6];
    limbs_to_be(be, a, 6);
    limbs_to_le(le, a, 6);
    assert_int_equal(be[47], 1);
    assert_int_equal(be[0], 0);
    assert_int_equal(be[7], 6);
    assert_int_equal(le[0], 1);
    assert_int_equal(le[40], 6);
    limbs_from_be(back, be, 6);
    assert_memory_equal(back, a, 48);
    limbs_from_le(back, le, 6);
    assert_memory_equal(back, a, 48);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dispatch),
        cmocka_unit_test(test_helpers),
        cmocka_unit_test(test_portable_identities),
        cmocka_unit_test(test_portable_384),
        cmocka_unit_test(test_portable_256),
        cmocka_unit_test(test_compare_384),
        cmocka_unit_test(test_compare_256),
        cmocka_unit_test(test_aliasing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
