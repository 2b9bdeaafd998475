/* Host emulation of the pass kernel: every block, every segment, every
 * thread, in that order, on the same code (ntt_pass.cuh). A segment of one
 * thread finishes before the next thread's starts, which is one of the
 * orders the GPU may pick between two barriers; the probe checks that the
 * order cannot matter (no 16-byte chunk of shared memory is touched by two
 * threads in one segment unless both only read it) and counts the bank
 * conflicts the GPU would see. */

#include <stdlib.h>
#include <string.h>

#include "cuda/ntt_impl.cuh"

void (*ntt_emu_probe)(uint32_t chunk, int write) = NULL;
void (*ntt_emu_gprobe)(const void *addr, int write) = NULL;

namespace
{

struct emu_state {
    uint32_t thread;
    uint32_t chunks;
    int32_t *owner;   /* per chunk: first thread this segment, -1 none */
    uint8_t *written; /* per chunk: written this segment */
    uint32_t *log;    /* per thread: its accesses this segment, in order */
    uint32_t *count;  /* per thread: how many */
    uint32_t log_cap;
    unsigned long long races, accesses, extra;
};

emu_state emu;
cuda_ntt_emu_stats emu_totals;

/* Global accesses of one pass: per element of each vector the block that
 * first touched it and whether it was written; another block touching an
 * element that is written is a hazard (blocks run in any order). */
struct emu_global {
    const char *base[3 * NTT_BATCH];
    int32_t *block[3 * NTT_BATCH];
    uint8_t *wrote[3 * NTT_BATCH];
    uint32_t nbuf;
    size_t n;
    int32_t current;
    unsigned long long hazards;
};

emu_global eg;

void emu_gtrack(const void *ptr)
{
    for (uint32_t i = 0; i < eg.nbuf; i++)
        if (eg.base[i] == ptr)
            return;
    if (!ptr || eg.nbuf == 3 * NTT_BATCH)
        return;
    eg.base[eg.nbuf] = (const char *)ptr;
    eg.block[eg.nbuf] = (int32_t *)malloc(eg.n * sizeof(int32_t));
    eg.wrote[eg.nbuf] = (uint8_t *)calloc(eg.n, 1);
    for (size_t e = 0; e < eg.n && eg.block[eg.nbuf]; e++)
        eg.block[eg.nbuf][e] = -1;
    eg.nbuf++;
}

void emu_gprobe(const void *addr, int write)
{
    const char *a = (const char *)addr;
    for (uint32_t i = 0; i < eg.nbuf; i++) {
        if (a < eg.base[i] || a >= eg.base[i] + eg.n * sizeof(dfr_t) || !eg.block[i] ||
            !eg.wrote[i])
            continue;
        const size_t e = (size_t)(a - eg.base[i]) / sizeof(dfr_t);
        int32_t *o = &eg.block[i][e];
        if (*o == -1) {
            *o = eg.current;
        } else if (*o != eg.current) { /* a second block, or -2: several */
            if (write || eg.wrote[i][e])
                eg.hazards++;
            *o = -2;
        }
        if (write)
            eg.wrote[i][e] = 1;
        return;
    }
}

void emu_probe(uint32_t chunk, int write)
{
    if (chunk >= emu.chunks) {
        emu.races++; /* out of the tile: as bad as a race */
        return;
    }
    /* owner: -1 untouched, -2 touched by several threads (reads only so
     * far), else the one thread that touched it */
    const int32_t o = emu.owner[chunk];
    if (o == -1) {
        emu.owner[chunk] = (int32_t)emu.thread;
    } else if (o == -2 || (uint32_t)o != emu.thread) {
        if (write || emu.written[chunk])
            emu.races++;
        emu.owner[chunk] = -2;
    }
    if (write)
        emu.written[chunk] = 1;
    uint32_t *n = &emu.count[emu.thread];
    if (*n < emu.log_cap)
        emu.log[(size_t)emu.thread * emu.log_cap + *n] = chunk;
    (*n)++;
}

/* The i-th accesses of eight consecutive lanes form one phase; its
 * wavefronts are the most distinct chunks that fall in one bank quad. */
void emu_count_conflicts(uint32_t threads)
{
    for (uint32_t q = 0; q < threads; q += 8) {
        const uint32_t lanes = threads - q < 8 ? threads - q : 8;
        uint32_t most = 0;
        for (uint32_t l = 0; l < lanes; l++)
            if (emu.count[q + l] > most)
                most = emu.count[q + l];
        if (most > emu.log_cap)
            most = emu.log_cap;
        for (uint32_t i = 0; i < most; i++) {
            uint32_t seen[8], n_seen = 0, per_quad[8] = {0};
            for (uint32_t l = 0; l < lanes; l++) {
                if (emu.count[q + l] <= i)
                    continue;
                const uint32_t c = emu.log[(size_t)(q + l) * emu.log_cap + i];
                int dup = 0;
                for (uint32_t s = 0; s < n_seen; s++)
                    dup |= seen[s] == c;
                if (dup)
                    continue;
                seen[n_seen++] = c;
                per_quad[c & 7]++;
            }
            uint32_t waves = 0;
            for (int b = 0; b < 8; b++)
                waves = per_quad[b] > waves ? per_quad[b] : waves;
            emu.accesses++;
            emu.extra += waves > 1 ? waves - 1 : 0;
        }
    }
}

} // namespace

cuzk_status ntt_emu_pass(const ntt_pass_params *p, int layout, uint32_t blocks, uint32_t batch,
                         ntt_segment_fn seg)
{
    const uint32_t tile = ntt_tile(*p), threads = ntt_threads(*p),
                   segs = ntt_segments(*p, (p->flags & NTT_F_MID) != 0);
    uint4 *sm = (uint4 *)calloc(2 * (size_t)tile, sizeof(uint4));
    emu.chunks = 2 * tile;
    emu.log_cap = 128;
    emu.owner = (int32_t *)malloc(emu.chunks * sizeof(int32_t));
    emu.written = (uint8_t *)malloc(emu.chunks);
    emu.log = (uint32_t *)malloc((size_t)threads * emu.log_cap * sizeof(uint32_t));
    emu.count = (uint32_t *)malloc(threads * sizeof(uint32_t));
    if (!sm || !emu.owner || !emu.written || !emu.log || !emu.count) {
        free(sm);
        free(emu.owner);
        free(emu.written);
        free(emu.log);
        free(emu.count);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    emu.races = emu.accesses = emu.extra = 0;
    memset(&eg, 0, sizeof(eg));
    eg.n = (size_t)1 << p->log_n;
    for (uint32_t v = 0; v < batch && p->log_n <= 22; v++) {
        emu_gtrack(p->src[v]);
        emu_gtrack(p->dst[v]);
    }
    if ((p->flags & (NTT_F_POINTWISE | NTT_F_MULTIPLY)) && p->log_n <= 22) {
        emu_gtrack(p->pw_a);
        emu_gtrack(p->pw_b);
    }
    ntt_emu_gprobe = emu_gprobe;
    /* conflicts are counted on the first block of each vector only */
    for (uint32_t v = 0; v < batch; v++) {
        for (uint32_t bx = 0; bx < blocks; bx++) {
            const ntt_blk b = ntt_block(*p, layout, bx, v);
            eg.current = (int32_t)(v * blocks + bx);
            /* poison: a slot read before it is written shows as garbage */
            memset(sm, 0xa5, 2 * (size_t)tile * sizeof(uint4));
            for (uint32_t s = 0; s < segs; s++) {
                for (uint32_t c = 0; c < emu.chunks; c++)
                    emu.owner[c] = -1;
                memset(emu.written, 0, emu.chunks);
                memset(emu.count, 0, threads * sizeof(uint32_t));
                ntt_emu_probe = emu_probe;
                for (uint32_t t = 0; t < threads; t++) {
                    emu.thread = t;
                    seg(p, layout, (p->flags & NTT_F_MID) != 0, &b, s, t, sm);
                }
                ntt_emu_probe = NULL;
                if (bx == 0)
                    emu_count_conflicts(threads);
            }
        }
    }
    ntt_emu_gprobe = NULL;
    for (uint32_t i = 0; i < eg.nbuf; i++) {
        free(eg.block[i]);
        free(eg.wrote[i]);
    }
    emu_totals.passes++;
    emu_totals.hazards += eg.hazards;
    emu_totals.races += emu.races;
    emu_totals.accesses += emu.accesses;
    emu_totals.extra_wavefronts += emu.extra;
    free(sm);
    free(emu.owner);
    free(emu.written);
    free(emu.log);
    free(emu.count);
    return CUZK_OK;
}

extern "C" void cuda_ntt_emu_stats_get(cuda_ntt_emu_stats *stats, int reset)
{
    if (stats)
        *stats = emu_totals;
    if (reset)
        memset(&emu_totals, 0, sizeof(emu_totals));
}
