/* MSM helpers shared by G1 and G2: the window plan and its cost model,
 * scalar preparation (msm_internal.h). */
#include "msm/msm_internal.h"

#include <string.h>

#include "util/parallel.h"

static double plan_cost(size_t n, unsigned threads, double point_cost, double bucket_cost,
                        unsigned c, unsigned parts)
{
    unsigned nwin = (256 + c - 1) / c;
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
            double cost = plan_cost(n, threads, point_cost, bucket_cost, c, parts);
            if (best < 0 || cost < best) {
                best = cost;
                best_c = c;
                best_parts = parts;
            }
        }
    }
    memset(plan, 0, sizeof(*plan));
    plan->c = best_c;
    plan->nwin = (256 + best_c - 1) / best_c;
    plan->parts = best_parts;
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

typedef struct to_raw_ctx {
    uint64_t (*raw)[4];
    const fr_t *s;
} to_raw_ctx;

static void to_raw_chunk(void *arg, size_t begin, size_t end)
{
    to_raw_ctx *ctx = arg;
    for (size_t i = begin; i < end; i++)
        fr_to_raw(ctx->raw[i], &ctx->s[i]);
}

void msm_scalars_to_raw(uint64_t (*raw)[4], const fr_t *scalars, size_t n, unsigned threads)
{
    to_raw_ctx ctx = {raw, scalars};
    parallel_for(n, 1u << 14, threads, to_raw_chunk, &ctx);
}

bool msm_scalars_canonical(const uint64_t (*k)[4], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        /* k < r: compare from the top limb down. */
        int j = 3;
        while (j > 0 && k[i][j] == FR_MODULUS[j])
            j--;
        if (k[i][j] >= FR_MODULUS[j])
            return false;
    }
    return true;
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
