#ifndef CUZK_UTIL_PARALLEL_H
#define CUZK_UTIL_PARALLEL_H

/* Data-parallel loops on a fixed thread budget. The engine gives each stage
 * an explicit thread count (DESIGN.md: no free-for-all on memory bandwidth),
 * so every parallel routine takes `threads` from its caller; 0 means "all
 * online CPUs". */

#include <stddef.h>

/* Calls fn(ctx, begin, end) over disjoint chunks covering [0, n), on up to
 * `threads` threads (the calling thread is one of them). Chunks are at least
 * `grain` long, so small loops stay on one thread. Returns when all chunks
 * are done. The other threads come from a pool kept for the whole process
 * (parallel.c says how it is sized and why it cannot deadlock): any number
 * of threads may call parallel_for at once, and fn may call it again, each
 * call with its own budget. */
typedef void (*parallel_fn)(void *ctx, size_t begin, size_t end);
void parallel_for(size_t n, size_t grain, unsigned threads, parallel_fn fn, void *ctx);

/* Number of online CPUs (at least 1). */
unsigned parallel_cpu_count(void);

/* Resolves a caller's thread count: 0 → parallel_cpu_count(). */
unsigned parallel_threads(unsigned requested);

#endif
