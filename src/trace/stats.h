#ifndef CUZK_TRACE_STATS_H
#define CUZK_TRACE_STATS_H

/* Interval sets and order statistics for the trace summary. Intervals are
 * half-open [a, b) in nanoseconds. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct trace_iv {
    uint64_t a, b;
} trace_iv;

/* Sorts v and merges overlapping or touching intervals in place (empty ones
 * are dropped); returns the number left: a sorted, disjoint union. */
size_t trace_iv_union(trace_iv *v, size_t n);

/* Total length of a union. */
uint64_t trace_iv_total(const trace_iv *u, size_t n);

/* Length of [a, b) covered by the union u. */
uint64_t trace_iv_covered(const trace_iv *u, size_t n, uint64_t a, uint64_t b);

/* Whether t lies in one of the union's intervals. */
bool trace_iv_contains(const trace_iv *u, size_t n, uint64_t t);

/* The p-th percentile (0 <= p <= 100) of v[0, n), by linear interpolation
 * between the closest ranks (rank p/100 · (n − 1), the common "type 7"
 * definition: p50 of {1, 2, 3, 4} is 2.5). Sorts v. 0 when n is 0. */
double trace_percentile(double *v, size_t n, double p);

/* The same on an already sorted array. */
double trace_percentile_sorted(const double *v, size_t n, double p);

#endif
