#ifndef CUZK_FUZZ_FUZZ_SERVICE_H
#define CUZK_FUZZ_FUZZ_SERVICE_H

/* What the service's harnesses (fuzz_http, fuzz_store_recovery) share: an
 * engine on one CPU thread with no circuits, and a job store's folder of
 * their own, removed at exit. Include after fuzz/fuzz.h, with
 * _POSIX_C_SOURCE 200809L (mkdtemp). */

#include <stdbool.h>

#include "engine/engine.h"

/* The smallest engine: the CPU backend, one thread everywhere, quiet. */
static inline engine_t *fuzz_small_engine(void)
{
    engine_config cfg;
    engine_config_default(&cfg);
    cfg.backend = BACKEND_CPU;
    cfg.device_threads = 1;
    cfg.workers_per_device = 1;
    cfg.synth_workers = 1;
    cfg.synth_threads = 1;
    cfg.finalizers = 1;
    cfg.load_threads = 1;
    cfg.telemetry_interval_ms = 0;
    cfg.quiet = true;
    engine_t *e = NULL;
    char msg[256];
    FUZZ_CHECK(engine_create(&e, &cfg, msg, sizeof(msg)) == CUZK_OK);
    return e;
}

/* The harness's store folder (made by fuzz_store_dir_make). */
static char fuzz_store_dir[] = "/tmp/cuzk-fuzz-store-XXXXXX";

/* Removes the store's files by name (jobs.sqlite, its WAL and shared
 * memory, the lock), and the folder too when asked. */
static inline void fuzz_store_files_remove(bool dir_too)
{
    static const char *const files[] = {"jobs.sqlite", "jobs.sqlite-wal", "jobs.sqlite-shm",
                                        "jobs.lock"};
    char path[sizeof(fuzz_store_dir) + 32];
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", fuzz_store_dir, files[i]);
        remove(path);
    }
    if (dir_too)
        remove(fuzz_store_dir);
}

static inline void fuzz_store_dir_remove(void)
{
    fuzz_store_files_remove(true);
}

/* Makes the folder, removed with its store at exit; returns its path. */
static inline const char *fuzz_store_dir_make(void)
{
    FUZZ_CHECK(mkdtemp(fuzz_store_dir) != NULL);
    atexit(fuzz_store_dir_remove);
    return fuzz_store_dir;
}

#endif
