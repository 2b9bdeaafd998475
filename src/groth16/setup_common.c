#define _POSIX_C_SOURCE 200809L
#include "groth16/setup_common.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "r1cs/density.h"
#include "util/parallel.h"
#include "util/wipe.h"

static void *monitor_main(void *arg)
{
    setup_monitor *m = arg;
    pthread_mutex_lock(&m->lock);
    while (!m->stop) {
        m->fn(m->ctx, atomic_load(&m->done), m->total);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200 * 1000 * 1000;
        if (until.tv_nsec >= 1000 * 1000 * 1000) {
            until.tv_sec++;
            until.tv_nsec -= 1000 * 1000 * 1000;
        }
        while (!m->stop && pthread_cond_timedwait(&m->wake, &m->lock, &until) == 0)
            ;
    }
    pthread_mutex_unlock(&m->lock);
    return NULL;
}

void setup_monitor_start(setup_monitor *m, const groth16_setup_opts *opts, uint64_t total)
{
    memset(m, 0, sizeof(*m));
    atomic_init(&m->done, 0);
    m->total = total;
    m->fn = opts->progress;
    m->ctx = opts->progress_ctx;
    if (!m->fn)
        return;
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->wake, NULL);
    if (pthread_create(&m->thread, NULL, monitor_main, m) == 0) {
        m->running = 1;
    } else {
        pthread_cond_destroy(&m->wake);
        pthread_mutex_destroy(&m->lock);
    }
}

void setup_monitor_stop(setup_monitor *m)
{
    if (m->running) {
        pthread_mutex_lock(&m->lock);
        m->stop = 1;
        pthread_cond_signal(&m->wake);
        pthread_mutex_unlock(&m->lock);
        pthread_join(m->thread, NULL);
        pthread_cond_destroy(&m->wake);
        pthread_mutex_destroy(&m->lock);
        m->running = 0;
    }
    if (m->fn)
        m->fn(m->ctx, atomic_load(&m->done), m->total);
}

/* ------------------------------------------------------ scalar vectors */

#define SETUP_GRAIN 4096

typedef struct powers_job {
    fr_t *out;
    const fr_t *first, *step;
} powers_job;

static void powers_worker(void *ctx, size_t begin, size_t end)
{
    const powers_job *job = ctx;
    fr_t t;
    uint64_t e[1] = {begin};
    fr_pow_var(&t, job->step, e, 1);
    fr_mul(&t, &t, job->first);
    for (size_t i = begin; i < end; i++) {
        job->out[i] = t;
        fr_mul(&t, &t, job->step);
    }
    cuzk_wipe(&t, sizeof(t));
}

void setup_powers(fr_t *out, const fr_t *first, const fr_t *step, uint64_t count, unsigned threads)
{
    powers_job job = {.out = out, .first = first, .step = step};
    parallel_for(count, SETUP_GRAIN, threads, powers_worker, &job);
}

/* Blocks of SELECT_BLOCK bits (a multiple of 64): their set bits are
 * counted first, so each block knows where its values go. */
#define SELECT_BLOCK ((uint64_t)1 << 16)

typedef struct select_job {
    fr_t *out;
    const fr_t *src;
    const uint64_t *bits;
    uint64_t count;
    uint64_t *offset; /* per block: values before it */
} select_job;

static uint64_t block_end(const select_job *job, size_t b)
{
    uint64_t e = (uint64_t)(b + 1) * SELECT_BLOCK;
    return e < job->count ? e : job->count;
}

static void select_count(void *ctx, size_t begin, size_t end)
{
    select_job *job = ctx;
    for (size_t b = begin; b < end; b++) {
        uint64_t n = 0, j0 = (uint64_t)b * SELECT_BLOCK, j1 = block_end(job, b);
        for (uint64_t j = j0; j < j1; j += 64) {
            uint64_t word = job->bits[j / 64];
            if (j1 - j < 64)
                word &= ((uint64_t)1 << (j1 - j)) - 1;
            n += (uint64_t)__builtin_popcountll(word);
        }
        job->offset[b] = n;
    }
}

static void select_fill(void *ctx, size_t begin, size_t end)
{
    select_job *job = ctx;
    for (size_t b = begin; b < end; b++) {
        fr_t *o = job->out + job->offset[b];
        for (uint64_t j = (uint64_t)b * SELECT_BLOCK, j1 = block_end(job, b); j < j1; j++)
            if (r1cs_bit(job->bits, j))
                *o++ = job->src[j];
    }
}

typedef struct copy_job {
    fr_t *out;
    const fr_t *src;
} copy_job;

static void copy_worker(void *ctx, size_t begin, size_t end)
{
    const copy_job *job = ctx;
    memcpy(job->out + begin, job->src + begin, sizeof(fr_t) * (end - begin));
}

uint64_t setup_select(fr_t *out, const fr_t *src, const uint64_t *bits, uint64_t count,
                      unsigned threads)
{
    if (!bits) {
        copy_job job = {.out = out, .src = src};
        parallel_for(count, 1 << 16, threads, copy_worker, &job);
        return count;
    }
    size_t blocks = (size_t)((count + SELECT_BLOCK - 1) / SELECT_BLOCK);
    select_job job = {.out = out, .src = src, .bits = bits, .count = count};
    uint64_t one_block[1];
    job.offset = blocks <= 1 ? one_block : malloc(sizeof(uint64_t) * blocks);
    if (!job.offset) { /* one pass on this thread */
        uint64_t k = 0;
        for (uint64_t j = 0; j < count; j++)
            if (r1cs_bit(bits, j))
                out[k++] = src[j];
        return k;
    }
    parallel_for(blocks, 1, threads, select_count, &job);
    uint64_t total = 0;
    for (size_t b = 0; b < blocks; b++) {
        uint64_t n = job.offset[b];
        job.offset[b] = total;
        total += n;
    }
    parallel_for(blocks, 1, threads, select_fill, &job);
    if (job.offset != one_block)
        free(job.offset);
    return total;
}

typedef struct wipe_job {
    fr_t *p;
} wipe_job;

static void wipe_worker(void *ctx, size_t begin, size_t end)
{
    const wipe_job *job = ctx;
    cuzk_wipe(job->p + begin, sizeof(fr_t) * (end - begin));
}

void setup_wipe(fr_t *p, uint64_t n, unsigned threads)
{
    wipe_job job = {.p = p};
    parallel_for(n, 1 << 16, threads, wipe_worker, &job);
}

/* ------------------------------------------------------ BLS12-381's pieces */

#include "field/fr_names.h"
#define SC_(name) setup_##name
#define SC_G1(name) g1_##name
#define SC_G2(name) g2_##name
#define SC_G1_GENERATOR G1_GENERATOR
#define SC_G2_GENERATOR G2_GENERATOR
#define SC_VK_T groth16_vk_t
#define SC_COEFFS(r) ((r)->coeffs)
#include "groth16/setup_common_impl.h"
