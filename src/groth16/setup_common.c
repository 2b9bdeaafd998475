#define _POSIX_C_SOURCE 200809L
#include "groth16/setup_common.h"

#include <string.h>
#include <time.h>

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

void setup_random_nonzero(fr_t *x, rng_t *rng)
{
    do
        fr_random(x, rng);
    while (fr_is_zero(x));
}

void setup_column_polys(fr_t *col, const r1cs_t *r, const r1cs_matrix *m, const fr_t *lagrange)
{
    fr_t t;
    for (uint64_t i = 0; i < r->num_constraints; i++) {
        for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            fr_mul(&t, &r->coeffs[r1cs_coeff_at(r, m, k)], &lagrange[i]);
            fr_add(&col[m->col[k]], &col[m->col[k]], &t);
        }
    }
    cuzk_wipe(&t, sizeof(t));
}

void setup_ic_like(fr_t *out, const fr_t *u, const fr_t *v, const fr_t *w, uint64_t count,
                   const fr_t *alpha, const fr_t *beta, const fr_t *factor)
{
    fr_t t, t2;
    for (uint64_t j = 0; j < count; j++) {
        fr_mul(&t, beta, &u[j]);
        fr_mul(&t2, alpha, &v[j]);
        fr_add(&t, &t, &t2);
        fr_add(&t, &t, &w[j]);
        fr_mul(&out[j], &t, factor);
    }
    cuzk_wipe(&t, sizeof(t));
    cuzk_wipe(&t2, sizeof(t2));
}

static void g1_times(g1_affine_t *out, const fr_t *s)
{
    uint64_t k[4];
    g1_jac_t g, j;
    g1_jac_from_affine(&g, &G1_GENERATOR);
    fr_to_raw(k, s);
    g1_jac_mul(&j, &g, k);
    g1_jac_to_affine(out, &j);
    cuzk_wipe(k, sizeof(k));
    cuzk_wipe(&j, sizeof(j));
}

static void g2_times(g2_affine_t *out, const fr_t *s)
{
    uint64_t k[4];
    g2_jac_t g, j;
    g2_jac_from_affine(&g, &G2_GENERATOR);
    fr_to_raw(k, s);
    g2_jac_mul(&j, &g, k);
    g2_jac_to_affine(out, &j);
    cuzk_wipe(k, sizeof(k));
    cuzk_wipe(&j, sizeof(j));
}

void setup_vk_points(groth16_vk_t *vk, const fr_t *alpha, const fr_t *beta, const fr_t *gamma,
                     const fr_t *delta)
{
    g1_times(&vk->alpha_g1, alpha);
    g1_times(&vk->beta_g1, beta);
    g2_times(&vk->beta_g2, beta);
    g2_times(&vk->gamma_g2, gamma);
    g1_times(&vk->delta_g1, delta);
    g2_times(&vk->delta_g2, delta);
}
