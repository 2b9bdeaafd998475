/* The service's requests without a socket (service/routes.c, request.c):
 * a request, as the transport hands it over, goes through the route
 * dispatch, the JSON and witness-stream body parsers and into an engine
 * that has no circuits (so nothing is proved). The input is
 *
 *   METHOD\n
 *   PATH[?key=value&key=value...]\n
 *   CONTENT-TYPE\n        (empty: none)
 *   BODY
 *
 * Every request comes as over TCP without circuit or witness folders, so
 * no file a request names is opened. Each answer must be a status with a
 * JSON body (or the metrics' text). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, strdup */
#include "fuzz/fuzz.h"

#include <jansson.h>

#include "fuzz/fuzz_service.h"
#include "service/internal.h"

#define MAX_ARGS 16

static service *svc;
static engine_t *engine;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    engine = fuzz_small_engine();
    char msg[256];
    /* The server's defaults, with fixed blinding allowed so that the
     * blinding field is parsed too, and small queue bounds. */
    cuzk_config conf;
    cuzk_config_init(&conf);
    conf.server.insecure_fixed_blinding = true;
    conf.server.max_wait_s = 0; /* no job exists to wait for */
    conf.server.max_queued_jobs = 4;
    conf.server.max_queued_partitions = 64;
    conf.server.max_queued_bytes = 1 << 20;
    /* A job store of its own, in a fresh folder (the routes answer from
     * it; a submission that the engine refuses never reaches it). */
    conf.server.state_dir = strdup(fuzz_store_dir_make());
    service_opts o = {.engine = engine, .server = &conf.server};
    FUZZ_CHECK(service_create(&svc, &o, msg, sizeof(msg)) == CUZK_OK);
    FUZZ_CHECK(service_open_store(svc, &o, msg, sizeof(msg)) == CUZK_OK);
    cuzk_config_free(&conf);
    return 0;
}

/* The next line of [*p, end) as a new string; *p moves past its '\n'. */
static char *next_line(const uint8_t **p, const uint8_t *end)
{
    const uint8_t *nl = memchr(*p, '\n', (size_t)(end - *p));
    const uint8_t *stop = nl ? nl : end;
    char *line = fuzz_cstring(*p, (size_t)(stop - *p));
    *p = nl ? nl + 1 : end;
    return line;
}

/* Splits "a=b&c" in place into args (key, value, ..., NULL); a key without
 * '=' has the value "" as libmicrohttpd gives it. */
static void split_query(char *q, const char **args)
{
    size_t n = 0;
    for (char *tok = q; tok && n + 2 < 2 * MAX_ARGS;) {
        char *amp = strchr(tok, '&');
        if (amp)
            *amp = 0;
        char *eq = strchr(tok, '=');
        if (eq)
            *eq = 0;
        args[n++] = tok;
        args[n++] = eq ? eq + 1 : "";
        tok = amp ? amp + 1 : NULL;
    }
    args[n] = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data, *end = data + size;
    char *method = next_line(&p, end), *path = next_line(&p, end), *ctype = next_line(&p, end);
    const char *args[2 * MAX_ARGS + 1] = {NULL};
    char *q = strchr(path, '?');
    if (q) {
        *q = 0;
        split_query(q + 1, args);
    }
    http_request rq = {.method = method,
                       .path = path,
                       .content_type = ctype[0] ? ctype : NULL,
                       .body = p,
                       .body_len = (size_t)(end - p),
                       .args = args,
                       .tcp = true};
    http_response rs = {0};
    routes_handle(svc, &rq, &rs);
    FUZZ_CHECK(rs.status >= 200 && rs.status < 600 && rs.body != NULL);
    FUZZ_CHECK(rs.len == strlen(rs.body));
    if (!strcmp(rs.content_type, "application/json")) {
        json_error_t e;
        json_t *o = json_loadb(rs.body, rs.len, 0, &e);
        FUZZ_CHECK(o != NULL);
        json_decref(o);
    }
    free(rs.body);
    free(method);
    free(path);
    free(ctype);
    return 0;
}
