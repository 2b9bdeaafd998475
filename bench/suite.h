#ifndef CUZK_BENCH_SUITE_H
#define CUZK_BENCH_SUITE_H

/* Benchmark suites shared by the bench/ programs and `cuzk bench`. Each
 * prints one JSON object per line on out. */

#include <stdint.h>
#include <stdio.h>

/* Monotonic clock in nanoseconds. */
uint64_t bench_now_ns(void);

/* CPU model name (from /proc/cpuinfo), or "unknown". */
const char *bench_cpu_name(void);

/* The BLS12-381 arithmetic: fields, curves, pairing. `scale` multiplies the
 * iteration counts (1 = default, about 20 s on 2 cores). Returns 0, or 1 when
 * a self-check inside the benchmark failed. */
int bench_arith_run(FILE *out, double scale);

#endif
