/* Micro-benchmarks of the BLS12-381 arithmetic (and, prefixed bn254_, a few
 * of BN254's: the field products, the MSM's bucket addition, the pairing). Each operation runs as a
 * dependent chain (the output feeds the next input), so the figure is the
 * latency of one operation, the number that bounds a serial algorithm such
 * as a Miller loop or a bucket sum. Median of BENCH_REPEATS runs. */
#include <stdlib.h>
#include <string.h>

#include "suite.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fp.h"
#include "field/fp12.h"
#include "field/fr.h"
#include "field/bn254_fr.h"
#include "pairing/bn254_pairing.h"
#include "pairing/pairing.h"
#include "util/rng.h"

#define BENCH_REPEATS 5
#define BATCH_INV_N 4096

typedef struct arith_ctx {
    fp_t fa, fb;
    fr_t ra, rb;
    g1_jac_t j1, j2;
    g1_affine_t a1;
    g1_xyzz_t x1;
    g2_jac_t k1, k2;
    g2_affine_t a2;
    uint64_t scalar[4];
    g1_affine_t ps[4];
    g2_affine_t qs[4];
    fp12_t f;
    fp_t *batch;
    uint8_t enc1[G1_COMPRESSED_BYTES];
    uint8_t enc2[G2_COMPRESSED_BYTES];
    bn254_fp_t bfa, bfb;
    bn254_fr_t bra, brb;
    bn254_g1_xyzz_t bx1;
    bn254_g1_affine_t ba1, bps[4];
    bn254_g2_affine_t bqs[4];
    bn254_fp12_t bf;
    int sink;
} arith_ctx;

static void run_fp_mul(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        fp_mul(&c->fa, &c->fa, &c->fb);
}
static void run_fp_sqr(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        fp_sqr(&c->fa, &c->fa);
}
static void run_fp_add(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        fp_add(&c->fa, &c->fa, &c->fb);
}
static void run_fr_mul(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        fr_mul(&c->ra, &c->ra, &c->rb);
}
static void run_fp_inv(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        fp_inv(&c->fa, &c->fa);
}
static void run_fp_inv_var(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        fp_inv_var(&c->fa, &c->fa);
}
static void run_fp_sqrt(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        fp_t s;
        fp_sqr(&s, &c->fa);
        c->sink += fp_sqrt(&c->fa, &s);
    }
}
/* One call inverts BATCH_INV_N elements; reported per element. */
static void run_fp_batch_inv(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i += BATCH_INV_N)
        fp_batch_inv_var(c->batch, c->batch, BATCH_INV_N);
}
static void run_g1_add(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        g1_jac_add(&c->j1, &c->j1, &c->j2);
}
static void run_g1_madd(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        g1_jac_add_mixed(&c->j1, &c->j1, &c->a1);
}
static void run_g1_dbl(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        g1_jac_dbl(&c->j1, &c->j1);
}
static void run_g1_xyzz_madd(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        g1_xyzz_add_mixed(&c->x1, &c->x1, &c->a1);
}
static void run_g2_add(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        g2_jac_add(&c->k1, &c->k1, &c->k2);
}
static void run_g2_madd(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        g2_jac_add_mixed(&c->k1, &c->k1, &c->a2);
}
static void run_g1_mul(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        g1_jac_mul(&c->j1, &c->j1, c->scalar);
}
static void run_g1_mul_var(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        g1_jac_mul_var(&c->j1, &c->j1, c->scalar);
}
static void run_g2_mul(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        g2_jac_mul(&c->k1, &c->k1, c->scalar);
}
static void run_g2_mul_var(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        g2_jac_mul_var(&c->k1, &c->k1, c->scalar);
}
static void run_g1_decode(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        g1_affine_t p;
        c->sink += (int)g1_affine_decode(&p, c->enc1, sizeof(c->enc1), true);
    }
}
static void run_g2_decode(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        g2_affine_t q;
        c->sink += (int)g2_affine_decode(&q, c->enc2, sizeof(c->enc2), true);
    }
}
static void run_miller_loop(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        miller_loop(&c->f, &c->ps[0], &c->qs[0]);
}
static void run_final_exp(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        final_exp(&c->f, &c->f);
}
static void run_pairing(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        pairing(&c->f, &c->ps[0], &c->qs[0]);
}
static void run_pairing_product_4(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        c->sink += pairing_product_is_one(c->ps, c->qs, 4);
}

static void run_bn254_fp_mul(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        bn254_fp_mul(&c->bfa, &c->bfa, &c->bfb);
}
static void run_bn254_fr_mul(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        bn254_fr_mul(&c->bra, &c->bra, &c->brb);
}
static void run_bn254_g1_xyzz_madd(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        bn254_g1_xyzz_add_mixed_var(&c->bx1, &c->bx1, &c->ba1);
}
static void run_bn254_pairing(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        bn254_pairing(&c->bf, &c->bps[0], &c->bqs[0]);
}
static void run_bn254_pairing_product_4(arith_ctx *c, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        c->sink += bn254_pairing_product_is_one(c->bps, c->bqs, 4);
}

typedef struct arith_bench {
    const char *op;
    void (*run)(arith_ctx *, uint64_t);
    uint64_t iters; /* per repeat, at scale 1 */
} arith_bench;

static const arith_bench BENCHES[] = {
    {"fp_add", run_fp_add, 4000000},
    {"fp_mul", run_fp_mul, 2000000},
    {"fp_sqr", run_fp_sqr, 2000000},
    {"fr_mul", run_fr_mul, 2000000},
    {"fp_inv", run_fp_inv, 4000},
    {"fp_inv_var", run_fp_inv_var, 20000},
    {"fp_sqrt", run_fp_sqrt, 4000},
    {"fp_batch_inv_per_element", run_fp_batch_inv, 8 * BATCH_INV_N},
    {"g1_add", run_g1_add, 200000},
    {"g1_madd", run_g1_madd, 200000},
    {"g1_dbl", run_g1_dbl, 200000},
    {"g1_xyzz_madd", run_g1_xyzz_madd, 200000},
    {"g2_add", run_g2_add, 60000},
    {"g2_madd", run_g2_madd, 60000},
    {"g1_mul_ct", run_g1_mul, 400},
    {"g1_mul_var", run_g1_mul_var, 400},
    {"g2_mul_ct", run_g2_mul, 150},
    {"g2_mul_var", run_g2_mul_var, 150},
    {"g1_decode_compressed_checked", run_g1_decode, 1000},
    {"g2_decode_compressed_checked", run_g2_decode, 300},
    {"miller_loop", run_miller_loop, 200},
    {"final_exp", run_final_exp, 200},
    {"pairing", run_pairing, 200},
    {"pairing_product_4", run_pairing_product_4, 60},
    {"bn254_fp_mul", run_bn254_fp_mul, 2000000},
    {"bn254_fr_mul", run_bn254_fr_mul, 2000000},
    {"bn254_g1_xyzz_madd", run_bn254_g1_xyzz_madd, 200000},
    {"bn254_pairing", run_bn254_pairing, 200},
    {"bn254_pairing_product_4", run_bn254_pairing_product_4, 60},
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int setup(arith_ctx *c)
{
    rng_t rng;
    rng_seed(&rng, 20261129);
    memset(c, 0, sizeof(*c));
    fp_random(&c->fa, &rng);
    fp_random(&c->fb, &rng);
    fr_random(&c->ra, &rng);
    fr_random(&c->rb, &rng);
    for (int i = 0; i < 4; i++)
        c->scalar[i] = rng_u64(&rng);
    c->scalar[3] &= 0x7fffffffffffffffULL;

    /* Random points as multiples of the generators. */
    g1_jac_t g1;
    g2_jac_t g2;
    g1_jac_from_affine(&g1, &G1_GENERATOR);
    g2_jac_from_affine(&g2, &G2_GENERATOR);
    g1_jac_mul_var(&c->j1, &g1, c->scalar);
    g1_jac_dbl(&c->j2, &c->j1);
    g1_jac_add(&c->j2, &c->j2, &g1);
    g1_jac_to_affine(&c->a1, &c->j2);
    g1_xyzz_from_affine(&c->x1, &G1_GENERATOR);
    g2_jac_mul_var(&c->k1, &g2, c->scalar);
    g2_jac_dbl(&c->k2, &c->k1);
    g2_jac_add(&c->k2, &c->k2, &g2);
    g2_jac_to_affine(&c->a2, &c->k2);
    g1_affine_to_compressed(c->enc1, &c->a1);
    g2_affine_to_compressed(c->enc2, &c->a2);

    /* A product that is one: e(aP, Q) e(-P, aQ) e(P, Q) e(-P, Q). */
    uint64_t a[4] = {0x1234567, 0, 0, 0};
    g1_jac_t t1;
    g2_jac_t t2;
    g1_jac_mul_var(&t1, &g1, a);
    g1_jac_to_affine(&c->ps[0], &t1);
    c->qs[0] = G2_GENERATOR;
    g1_affine_neg(&c->ps[1], &G1_GENERATOR);
    g2_jac_mul_var(&t2, &g2, a);
    g2_jac_to_affine(&c->qs[1], &t2);
    c->ps[2] = G1_GENERATOR;
    c->qs[2] = c->a2;
    g1_affine_neg(&c->ps[3], &G1_GENERATOR);
    c->qs[3] = c->a2;
    if (!pairing_product_is_one(c->ps, c->qs, 4)) {
        fprintf(stderr, "bench: self-check failed: e(aP,Q)e(-P,aQ)e(P,Q')e(-P,Q') != 1\n");
        return 1;
    }
    /* BN254: the same product that is one, over its groups. */
    bn254_fp_random(&c->bfa, &rng);
    bn254_fp_random(&c->bfb, &rng);
    bn254_fr_random(&c->bra, &rng);
    bn254_fr_random(&c->brb, &rng);
    bn254_g1_jac_t b1;
    bn254_g2_jac_t b2;
    bn254_g1_jac_from_affine(&b1, &BN254_G1_GENERATOR);
    bn254_g1_jac_mul_var(&b1, &b1, c->scalar);
    bn254_g1_jac_to_affine(&c->ba1, &b1);
    bn254_g1_xyzz_from_affine(&c->bx1, &BN254_G1_GENERATOR);
    bn254_g1_jac_from_affine(&b1, &BN254_G1_GENERATOR);
    bn254_g1_jac_mul_var(&b1, &b1, a);
    bn254_g1_jac_to_affine(&c->bps[0], &b1);
    c->bqs[0] = BN254_G2_GENERATOR;
    bn254_g1_affine_neg(&c->bps[1], &BN254_G1_GENERATOR);
    bn254_g2_jac_from_affine(&b2, &BN254_G2_GENERATOR);
    bn254_g2_jac_mul_var(&b2, &b2, c->scalar);
    bn254_g2_jac_to_affine(&c->bqs[2], &b2);
    bn254_g2_jac_from_affine(&b2, &BN254_G2_GENERATOR);
    bn254_g2_jac_mul_var(&b2, &b2, a);
    bn254_g2_jac_to_affine(&c->bqs[1], &b2);
    c->bps[2] = BN254_G1_GENERATOR;
    bn254_g1_affine_neg(&c->bps[3], &BN254_G1_GENERATOR);
    c->bqs[3] = c->bqs[2];
    if (!bn254_pairing_product_is_one(c->bps, c->bqs, 4)) {
        fprintf(stderr, "bench: self-check failed: the BN254 product of four pairings != 1\n");
        return 1;
    }
    c->batch = malloc(sizeof(fp_t) * BATCH_INV_N);
    if (!c->batch)
        return 1;
    for (size_t i = 0; i < BATCH_INV_N; i++)
        fp_random(&c->batch[i], &rng);
    return 0;
}

int bench_arith_run(FILE *out, double scale)
{
    arith_ctx ctx;
    if (setup(&ctx)) {
        free(ctx.batch);
        return 1;
    }
    for (size_t b = 0; b < sizeof(BENCHES) / sizeof(BENCHES[0]); b++) {
        uint64_t iters = (uint64_t)((double)BENCHES[b].iters * scale);
        if (iters < 1)
            iters = 1;
        uint64_t ns[BENCH_REPEATS];
        BENCHES[b].run(&ctx, iters / 10 + 1); /* warm-up */
        for (int r = 0; r < BENCH_REPEATS; r++) {
            uint64_t t0 = bench_now_ns();
            BENCHES[b].run(&ctx, iters);
            ns[r] = bench_now_ns() - t0;
        }
        qsort(ns, BENCH_REPEATS, sizeof(ns[0]), cmp_u64);
        double per = (double)ns[BENCH_REPEATS / 2] / (double)iters;
        fprintf(out,
                "{\"bench\":\"arith\",\"op\":\"%s\",\"ns_per_op\":%.1f,\"min_ns_per_op\":%.1f,"
                "\"iters\":%llu,\"repeats\":%d,\"threads\":1,\"cpu\":\"%s\",\"commit\":\"%s\"}\n",
                BENCHES[b].op, per, (double)ns[0] / (double)iters, (unsigned long long)iters,
                BENCH_REPEATS, bench_cpu_name(), CUZK_GIT_COMMIT);
        fflush(out);
    }
    free(ctx.batch);
    /* ctx.sink keeps the decode and product loops from being optimized out */
    return ctx.sink == -1;
}
