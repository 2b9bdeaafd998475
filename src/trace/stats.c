/* Interval unions, coverage queries and percentiles. */
#include <math.h>
#include <stdlib.h>

#include "trace/stats.h"

static int cmp_iv(const void *x, const void *y)
{
    const trace_iv *a = x, *b = y;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

size_t trace_iv_union(trace_iv *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof(trace_iv), cmp_iv);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].b <= v[i].a)
            continue;
        if (m && v[i].a <= v[m - 1].b) {
            if (v[i].b > v[m - 1].b)
                v[m - 1].b = v[i].b;
        } else {
            v[m++] = v[i];
        }
    }
    return m;
}

uint64_t trace_iv_total(const trace_iv *u, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += u[i].b - u[i].a;
    return sum;
}

/* The first interval of u that ends after t. */
static size_t first_ending_after(const trace_iv *u, size_t n, uint64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (u[mid].b <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t trace_iv_covered(const trace_iv *u, size_t n, uint64_t a, uint64_t b)
{
    uint64_t sum = 0;
    for (size_t i = first_ending_after(u, n, a); i < n && u[i].a < b; i++) {
        uint64_t x = u[i].a > a ? u[i].a : a, y = u[i].b < b ? u[i].b : b;
        if (y > x)
            sum += y - x;
    }
    return sum;
}

bool trace_iv_contains(const trace_iv *u, size_t n, uint64_t t)
{
    size_t i = first_ending_after(u, n, t);
    return i < n && u[i].a <= t;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

double trace_percentile_sorted(const double *v, size_t n, double p)
{
    if (n == 0)
        return 0.0;
    if (p <= 0)
        return v[0];
    if (p >= 100)
        return v[n - 1];
    double rank = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)floor(rank);
    if (lo + 1 >= n)
        return v[n - 1];
    double frac = rank - (double)lo;
    return v[lo] + frac * (v[lo + 1] - v[lo]);
}

double trace_percentile(double *v, size_t n, double p)
{
    if (n > 1)
        qsort(v, n, sizeof(double), cmp_double);
    return trace_percentile_sorted(v, n, p);
}
