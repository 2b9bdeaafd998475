/* MSM helpers shared by every group: the window plan and its cost model,
 * the endomorphism split of BLS12-381 scalars (msm_internal.h). */
#include "msm/msm_internal.h"

#include <string.h>

#include "util/parallel.h"

static unsigned plan_nwin(unsigned bits, unsigned c)
{
    return (bits + 1 + c - 1) / c;
}

static double plan_cost(size_t n, unsigned threads, double point_cost, double bucket_cost,
                        unsigned bits, unsigned c, unsigned parts)
{
    unsigned nwin = plan_nwin(bits, c);
    size_t tasks = (size_t)nwin * parts;
    double rounds = (double)((tasks + threads - 1) / threads);
    double per_task = point_cost * (double)n / parts + bucket_cost * (double)(1u << (c - 1));
    return rounds * per_task + bucket_cost / 2 * (double)tasks;
}

void msm_plan_make(msm_plan *plan, size_t n, unsigned threads, size_t bucket_bytes,
                   double add_ratio, unsigned force_c)
{
    msm_plan_make_costs(plan, n, threads, bucket_bytes, 1.0, 2 * add_ratio, force_c);
}

void msm_plan_make_costs(msm_plan *plan, size_t n, unsigned threads, size_t bucket_bytes,
                         double point_cost, double bucket_cost, unsigned force_c)
{
    msm_plan_make_bits(plan, n, threads, bucket_bytes, point_cost, bucket_cost, 255, force_c);
}

void msm_plan_make_bits(msm_plan *plan, size_t n, unsigned threads, size_t bucket_bytes,
                        double point_cost, double bucket_cost, unsigned bits, unsigned force_c)
{
    if (bits == 0 || bits > 255)
        bits = 255;
    if (threads == 0)
        threads = 1;
    unsigned best_c = MSM_MIN_C, best_parts = 1;
    double best = -1;
    for (unsigned c = MSM_MIN_C; c <= MSM_MAX_C; c++) {
        if (force_c && c != force_c)
            continue;
        if (!force_c && c > MSM_MIN_C && ((size_t)1 << (c - 1)) * bucket_bytes > MSM_BUCKET_BUDGET)
            break;
        for (unsigned parts = 1; parts <= threads; parts++) {
            if (parts > 1 && (size_t)parts > n)
                break;
            double cost = plan_cost(n, threads, point_cost, bucket_cost, bits, c, parts);
            if (best < 0 || cost < best) {
                best = cost;
                best_c = c;
                best_parts = parts;
            }
        }
    }
    memset(plan, 0, sizeof(*plan));
    plan->c = best_c;
    plan->nwin = plan_nwin(bits, best_c);
    plan->parts = best_parts;
    plan->cost = best;
    size_t tasks = (size_t)plan->nwin * best_parts;
    plan->workers = tasks < threads ? (unsigned)tasks : threads;
    /* offset = Σ_w (2^(c−1) − 1)·2^(cw): set the bits of each window's
     * constant one by one (c·nwin < 320). */
    uint64_t half = ((uint64_t)1 << (best_c - 1)) - 1;
    for (unsigned w = 0; w < plan->nwin; w++)
        for (unsigned b = 0; b < best_c - 1; b++)
            if ((half >> b) & 1) {
                unsigned bit = w * best_c + b;
                plan->offset[bit >> 6] |= (uint64_t)1 << (bit & 63);
            }
}

unsigned msm_window_bits(size_t n, unsigned threads, size_t bucket_bytes, double add_ratio)
{
    msm_plan plan;
    msm_plan_make(&plan, n, parallel_threads(threads), bucket_bytes, add_ratio, 0);
    return plan.c;
}

const uint64_t MSM_GLV_X2[2] = {0x0000000100000000ULL, 0xac45a4010001a402ULL};

/* floor(2^256 / x²) = 0x1_7c6becf1e01faadd_63f6e522f6cfee2e (129 bits), the
 * Barrett constant of the division by x². */
static const uint64_t GLV_MU[3] = {0x63f6e522f6cfee2eULL, 0x7c6becf1e01faaddULL, 0x1ULL};

typedef unsigned __int128 msm_u128;

void msm_glv_split(uint64_t k1[4], uint64_t k2[4], const uint64_t k[4])
{
    /* q = floor(floor(k / 2^127)·μ / 2^129) <= floor(k/x²), short of it by
     * less than 3 (each floor loses less than one): t = k >> 127 < 2^128. */
    uint64_t t0 = (k[1] >> 63) | (k[2] << 1), t1 = (k[2] >> 63) | (k[3] << 1);
    /* t·μ: 2 × 3 limbs into 5. */
    uint64_t prod[5] = {0, 0, 0, 0, 0};
    const uint64_t tl[2] = {t0, t1};
    for (int i = 0; i < 2; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 3; j++) {
            msm_u128 m = (msm_u128)tl[i] * GLV_MU[j] + prod[i + j] + carry;
            prod[i + j] = (uint64_t)m;
            carry = (uint64_t)(m >> 64);
        }
        prod[i + 3] += carry;
    }
    /* q = prod >> 129: bits 129.. of a value below 2^257, so q < 2^128. */
    uint64_t q0 = (prod[2] >> 1) | (prod[3] << 63), q1 = (prod[3] >> 1) | (prod[4] << 63);
    /* rem = k − q·x² (>= 0 as q <= floor(k/x²)). */
    uint64_t qx[4] = {0, 0, 0, 0};
    const uint64_t ql[2] = {q0, q1};
    for (int i = 0; i < 2; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 2; j++) {
            msm_u128 m = (msm_u128)ql[i] * MSM_GLV_X2[j] + qx[i + j] + carry;
            qx[i + j] = (uint64_t)m;
            carry = (uint64_t)(m >> 64);
        }
        qx[i + 2] += carry;
    }
    uint64_t rem[4], borrow = 0;
    for (int i = 0; i < 4; i++) {
        msm_u128 d = (msm_u128)k[i] - qx[i] - borrow;
        rem[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    /* At most a few subtractions of x² bring rem below it. */
    for (;;) {
        bool ge = rem[3] || rem[2] || rem[1] > MSM_GLV_X2[1] ||
                  (rem[1] == MSM_GLV_X2[1] && rem[0] >= MSM_GLV_X2[0]);
        if (!ge)
            break;
        borrow = 0;
        for (int i = 0; i < 4; i++) {
            uint64_t s = i < 2 ? MSM_GLV_X2[i] : 0;
            msm_u128 d = (msm_u128)rem[i] - s - borrow;
            rem[i] = (uint64_t)d;
            borrow = (uint64_t)(d >> 64) & 1;
        }
        if (++q0 == 0)
            q1++;
    }
    k1[0] = rem[0];
    k1[1] = rem[1];
    k1[2] = k1[3] = 0;
    k2[0] = q0;
    k2[1] = q1;
    k2[2] = k2[3] = 0;
}

uint64_t msm_popcount(const uint64_t *bits, size_t n)
{
    uint64_t count = 0;
    size_t words = n / 64;
    for (size_t i = 0; i < words; i++)
        count += (uint64_t)__builtin_popcountll(bits[i]);
    if (n % 64)
        count += (uint64_t)__builtin_popcountll(bits[words] & (((uint64_t)1 << (n % 64)) - 1));
    return count;
}
