/* The INI configuration of `cuzk serve`: one table of keys drives the
 * file, the command line's --set, and the documentation test. */
#define _POSIX_C_SOURCE 200809L
#include "config/config.h"
#include "util/byte_size.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/input_file.h"

typedef enum key_type {
    KEY_UINT,    /* unsigned, up to max */
    KEY_BYTES,   /* uint64_t with K/M/G/T suffixes */
    KEY_SECONDS, /* double >= 0 */
    KEY_BOOL,
    KEY_STRING, /* char *, owned; empty = unset */
    KEY_BACKEND,
    KEY_ABC_EVAL,
    KEY_MODE, /* octal permission bits */
    KEY_KIND,
    KEY_CHECK,
} key_type;

typedef enum key_section { SEC_ENGINE, SEC_SERVER, SEC_CIRCUIT } key_section;
static const char *const section_names[] = {"engine", "server", "circuit"};

typedef struct key_def {
    key_section section;
    const char *name;
    key_type type;
    size_t offset; /* into cuzk_config, or config_circuit for SEC_CIRCUIT */
    unsigned long long max;
} key_def;

#define ENG(field) offsetof(cuzk_config, engine.field)
#define SRV(field) offsetof(cuzk_config, server.field)
#define CIR(field) offsetof(config_circuit, field)

static const key_def keys[] = {
    {SEC_ENGINE, "backend", KEY_BACKEND, ENG(backend), 0},
    {SEC_ENGINE, "cpu_devices", KEY_UINT, ENG(cpu_devices), 63},
    {SEC_ENGINE, "device_threads", KEY_UINT, ENG(device_threads), 4096},
    {SEC_ENGINE, "workers_per_device", KEY_UINT, ENG(workers_per_device), 64},
    {SEC_ENGINE, "synth_workers", KEY_UINT, ENG(synth_workers), 256},
    {SEC_ENGINE, "synth_threads", KEY_UINT, ENG(synth_threads), 4096},
    {SEC_ENGINE, "expected_log_rows", KEY_UINT, ENG(expected_log_rows), 40},
    {SEC_ENGINE, "finalizers", KEY_UINT, ENG(finalizers), 64},
    {SEC_ENGINE, "load_threads", KEY_UINT, ENG(load_threads), 4096},
    {SEC_ENGINE, "queue_bound", KEY_UINT, ENG(queue_bound), 1u << 20},
    {SEC_ENGINE, "buffer_budget", KEY_BYTES, ENG(buffer_budget), 0},
    {SEC_ENGINE, "resident_budget", KEY_BYTES, ENG(resident_budget), 0},
    {SEC_ENGINE, "device_budget", KEY_BYTES, ENG(device_budget), 0},
    {SEC_ENGINE, "abc_eval", KEY_ABC_EVAL, ENG(abc_eval), 0},
    {SEC_ENGINE, "verify", KEY_BOOL, ENG(verify), 0},
    {SEC_ENGINE, "retries", KEY_UINT, ENG(retries), 100},
    {SEC_ENGINE, "cpu_fallback", KEY_BOOL, ENG(cpu_fallback), 0},
    {SEC_ENGINE, "default_timeout_s", KEY_SECONDS, ENG(default_timeout_s), 0},
    {SEC_ENGINE, "keep_finished", KEY_UINT, ENG(keep_finished), 1u << 24},
    {SEC_ENGINE, "event_log", KEY_STRING, offsetof(cuzk_config, event_log), 0},
    {SEC_ENGINE, "telemetry_interval_ms", KEY_UINT, ENG(telemetry_interval_ms), 60000},
    {SEC_SERVER, "socket", KEY_STRING, SRV(socket_path), 0},
    {SEC_SERVER, "socket_mode", KEY_MODE, SRV(socket_mode), 0777},
    {SEC_SERVER, "tcp", KEY_STRING, SRV(tcp_address), 0},
    {SEC_SERVER, "token_file", KEY_STRING, SRV(token_file), 0},
    {SEC_SERVER, "insecure_no_token", KEY_BOOL, SRV(insecure_no_token), 0},
    {SEC_SERVER, "max_connections", KEY_UINT, SRV(max_connections), 4096},
    {SEC_SERVER, "max_header_bytes", KEY_BYTES, SRV(max_header_bytes), 0},
    {SEC_SERVER, "max_json_bytes", KEY_BYTES, SRV(max_json_bytes), 0},
    {SEC_SERVER, "max_body_bytes", KEY_BYTES, SRV(max_body_bytes), 0},
    {SEC_SERVER, "max_wait_s", KEY_SECONDS, SRV(max_wait_s), 0},
    {SEC_SERVER, "idle_timeout_s", KEY_SECONDS, SRV(idle_timeout_s), 0},
    {SEC_SERVER, "shutdown_grace_s", KEY_SECONDS, SRV(shutdown_grace_s), 0},
    {SEC_SERVER, "log", KEY_STRING, SRV(log_path), 0},
    {SEC_SERVER, "witness_dir", KEY_STRING, SRV(witness_dir), 0},
    {SEC_SERVER, "insecure_fixed_blinding", KEY_BOOL, SRV(insecure_fixed_blinding), 0},
    {SEC_SERVER, "circuit_dir", KEY_STRING, SRV(circuit_dir), 0},
    {SEC_SERVER, "header_timeout_s", KEY_SECONDS, SRV(header_timeout_s), 0},
    {SEC_SERVER, "max_connections_per_address", KEY_UINT, SRV(max_connections_per_address), 4096},
    {SEC_SERVER, "max_unauthenticated", KEY_UINT, SRV(max_unauthenticated), 4096},
    {SEC_SERVER, "max_queued_jobs", KEY_UINT, SRV(max_queued_jobs), 1u << 24},
    {SEC_SERVER, "max_queued_partitions", KEY_UINT, SRV(max_queued_partitions), 1u << 30},
    {SEC_SERVER, "max_queued_bytes", KEY_BYTES, SRV(max_queued_bytes), 0},
    {SEC_SERVER, "state_dir", KEY_STRING, SRV(state_dir), 0},
    {SEC_SERVER, "store", KEY_STRING, SRV(store), 0},
    {SEC_SERVER, "keep_finished_s", KEY_SECONDS, SRV(keep_finished_s), 0},
    {SEC_SERVER, "cluster_host", KEY_STRING, SRV(cluster_host), 0},
    {SEC_SERVER, "cluster_lease_s", KEY_SECONDS, SRV(cluster_lease_s), 0},
    {SEC_SERVER, "cluster_retries", KEY_UINT, SRV(cluster_retries), 1000},
    {SEC_SERVER, "cluster_max_queued", KEY_UINT, SRV(cluster_max_queued), 1u << 30},
    {SEC_SERVER, "witness_spill_dir", KEY_STRING, SRV(witness_spill_dir), 0},
    {SEC_SERVER, "witness_inline_max", KEY_BYTES, SRV(witness_inline_max), 0},
    {SEC_CIRCUIT, "kind", KEY_KIND, CIR(kind), 0},
    {SEC_CIRCUIT, "log_constraints", KEY_UINT, CIR(log_constraints), 27},
    {SEC_CIRCUIT, "arity", KEY_UINT, CIR(arity), 8},
    {SEC_CIRCUIT, "params", KEY_STRING, CIR(params_path), 0},
    {SEC_CIRCUIT, "zkey", KEY_STRING, CIR(zkey_path), 0},
    {SEC_CIRCUIT, "check", KEY_CHECK, CIR(check), 0},
    {SEC_CIRCUIT, "preload", KEY_BOOL, CIR(preload), 0},
};
#define NUM_KEYS (sizeof(keys) / sizeof(keys[0]))

bool config_key_at(size_t i, const char **section, const char **key)
{
    if (i >= NUM_KEYS)
        return false;
    *section = section_names[keys[i].section];
    *key = keys[i].name;
    return true;
}

void config_default_socket(char *out, size_t cap)
{
    const char *run = getenv("XDG_RUNTIME_DIR");
    const char *tmp = getenv("TMPDIR");
    if (run && *run)
        snprintf(out, cap, "%s/cuzk.sock", run);
    else
        snprintf(out, cap, "%s/cuzk-%u/cuzk.sock", tmp && *tmp ? tmp : "/tmp", (unsigned)getuid());
}

void cuzk_config_init(cuzk_config *c)
{
    memset(c, 0, sizeof(*c));
    engine_config_default(&c->engine);
    char sock[4096];
    config_default_socket(sock, sizeof(sock));
    c->server.socket_path = strdup(sock);
    c->server.socket_mode = 0600;
    c->server.max_connections = 64;
    c->server.max_header_bytes = 16 << 10;
    c->server.max_json_bytes = 1 << 20;
    c->server.max_body_bytes = 64 << 20;
    c->server.max_wait_s = 60;
    c->server.idle_timeout_s = 60;
    c->server.shutdown_grace_s = 0;
    c->server.header_timeout_s = 10;
    c->server.max_connections_per_address = 16;
    c->server.max_queued_jobs = 1024;
    c->server.max_queued_partitions = 65536;
    c->server.max_queued_bytes = (uint64_t)1 << 30;
    c->server.keep_finished_s = 7 * 24 * 3600;
    c->server.cluster_lease_s = 30;
    c->server.cluster_retries = 3;
    c->server.witness_inline_max = 1 << 20;
}

void cuzk_config_free(cuzk_config *c)
{
    free(c->event_log);
    free(c->server.socket_path);
    free(c->server.tcp_address);
    free(c->server.token_file);
    free(c->server.log_path);
    free(c->server.witness_dir);
    free(c->server.witness_spill_dir);
    free(c->server.circuit_dir);
    free(c->server.state_dir);
    free(c->server.store);
    free(c->server.cluster_host);
    for (size_t i = 0; i < c->num_circuits; i++) {
        free(c->circuits[i].params_path);
        free(c->circuits[i].zkey_path);
    }
    free(c->circuits);
    memset(c, 0, sizeof(*c));
}

/* ------------------------------------------------------------- values */

static bool parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no",
                                                                                "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (!strcmp(v, yes[i])) {
            *out = true;
            return true;
        }
        if (!strcmp(v, no[i])) {
            *out = false;
            return true;
        }
    }
    return false;
}

/* Sets one key of target (a cuzk_config or a config_circuit) from text;
 * false with the problem in why. */
static bool set_value(const key_def *k, void *target, const char *v, char *why, size_t why_len)
{
    char *p = (char *)target + k->offset;
    switch (k->type) {
    case KEY_UINT: {
        char *end;
        errno = 0;
        unsigned long long n = isdigit((unsigned char)*v) ? strtoull(v, &end, 10) : 0;
        if (!isdigit((unsigned char)*v) || errno || *end || n > k->max) {
            backend_msg(why, why_len, "wants a whole number from 0 to %llu, got '%s'", k->max, v);
            return false;
        }
        *(unsigned *)(void *)p = (unsigned)n;
        return true;
    }
    case KEY_BYTES:
        if (!parse_byte_size(v, (uint64_t *)(void *)p)) {
            backend_msg(why, why_len, "wants a size in bytes (e.g. 4096, 512M, 4GiB), got '%s'", v);
            return false;
        }
        return true;
    case KEY_SECONDS: {
        char *end;
        errno = 0;
        double d = strtod(v, &end);
        if (!*v || errno || *end || !(d >= 0 && d <= 1e9)) {
            backend_msg(why, why_len, "wants seconds (a number from 0 to 1e9), got '%s'", v);
            return false;
        }
        *(double *)(void *)p = d;
        return true;
    }
    case KEY_BOOL:
        if (!parse_bool(v, (bool *)(void *)p)) {
            backend_msg(why, why_len, "wants true or false, got '%s'", v);
            return false;
        }
        return true;
    case KEY_STRING: {
        char **s = (char **)(void *)p;
        char *dup = *v ? strdup(v) : NULL;
        if (*v && !dup) {
            backend_msg(why, why_len, "out of memory");
            return false;
        }
        free(*s);
        *s = dup;
        return true;
    }
    case KEY_BACKEND:
        if (!backend_kind_parse(v, (backend_kind *)(void *)p)) {
            backend_msg(why, why_len, "wants auto, cpu or cuda, got '%s'", v);
            return false;
        }
        return true;
    case KEY_ABC_EVAL:
        if (!engine_abc_eval_parse(v, (engine_abc_eval *)(void *)p)) {
            backend_msg(why, why_len, "wants auto, synthesis or backend, got '%s'", v);
            return false;
        }
        return true;
    case KEY_MODE: {
        char *end;
        errno = 0;
        unsigned long n = strtoul(v, &end, 8);
        if (!*v || errno || *end || n > k->max) {
            backend_msg(why, why_len, "wants octal permission bits (e.g. 0600), got '%s'", v);
            return false;
        }
        *(unsigned *)(void *)p = (unsigned)n;
        return true;
    }
    case KEY_KIND: {
        circuit_kind *kind = (circuit_kind *)(void *)p;
        if (!strcmp(v, "builtin"))
            *kind = CIRCUIT_BUILTIN;
        else if (!strcmp(v, "zkey"))
            *kind = CIRCUIT_ZKEY;
        else {
            backend_msg(why, why_len, "wants builtin or zkey, got '%s'", v);
            return false;
        }
        ((config_circuit *)target)->kind_set = true;
        return true;
    }
    case KEY_CHECK: {
        formats_check *chk = (formats_check *)(void *)p;
        if (!strcmp(v, "none"))
            *chk = FORMATS_CHECK_NONE;
        else if (!strcmp(v, "curve"))
            *chk = FORMATS_CHECK_CURVE;
        else if (!strcmp(v, "subgroup"))
            *chk = FORMATS_CHECK_SUBGROUP;
        else {
            backend_msg(why, why_len, "wants none, curve or subgroup, got '%s'", v);
            return false;
        }
        return true;
    }
    }
    return false;
}

/* ----------------------------------------------------------- settings */

bool config_valid_circuit_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 63)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
            return false;
    return true;
}

static config_circuit *circuit_for(cuzk_config *c, const char *name, const char *origin)
{
    for (size_t i = 0; i < c->num_circuits; i++)
        if (!strcmp(c->circuits[i].name, name))
            return &c->circuits[i];
    config_circuit *grown = realloc(c->circuits, (c->num_circuits + 1) * sizeof(*grown));
    if (!grown)
        return NULL;
    c->circuits = grown;
    config_circuit *cc = &c->circuits[c->num_circuits++];
    memset(cc, 0, sizeof(*cc));
    snprintf(cc->name, sizeof(cc->name), "%s", name);
    cc->arity = 8;
    cc->check = FORMATS_CHECK_CURVE;
    snprintf(cc->origin, sizeof(cc->origin), "%s", origin);
    return cc;
}

/* One key of one section; origin is "file:line" or "command line". */
static cuzk_status apply(cuzk_config *c, const char *section, const char *name, const char *value,
                         const char *origin, char *msg, size_t msg_len)
{
    key_section sec;
    const char *circuit_name = NULL;
    if (!strcmp(section, "engine")) {
        sec = SEC_ENGINE;
    } else if (!strcmp(section, "server")) {
        sec = SEC_SERVER;
    } else if (!strncmp(section, "circuit", 7) && (section[7] == ' ' || section[7] == 0)) {
        sec = SEC_CIRCUIT;
        circuit_name = section + 7;
        while (*circuit_name == ' ')
            circuit_name++;
        if (!config_valid_circuit_name(circuit_name)) {
            backend_msg(msg, msg_len,
                        "%s: [%s]: a circuit section is [circuit NAME], NAME 1 to 63 letters, "
                        "digits, '-', '_' or '.'",
                        origin, section);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
    } else {
        backend_msg(msg, msg_len,
                    "%s: unknown section [%s] (known: [engine], [server], [circuit NAME])", origin,
                    section);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    const key_def *k = NULL;
    for (size_t i = 0; i < NUM_KEYS && !k; i++)
        if (keys[i].section == sec && !strcmp(keys[i].name, name))
            k = &keys[i];
    if (!k) {
        backend_msg(msg, msg_len, "%s: [%s] unknown key '%s' (docs/CONFIG.md lists the keys)",
                    origin, section, name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    void *target = c;
    if (sec == SEC_CIRCUIT && !(target = circuit_for(c, circuit_name, origin))) {
        backend_msg(msg, msg_len, "out of memory");
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    char why[300];
    if (!set_value(k, target, value, why, sizeof(why))) {
        backend_msg(msg, msg_len, "%s: [%s] key '%s' %s", origin, section, name, why);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    c->engine.event_log = c->event_log;
    return CUZK_OK;
}

typedef struct parse_ctx {
    cuzk_config *c;
    const char *name;
    int line; /* counted by the reader */
    char msg[512];
    cuzk_status st;
} parse_ctx;

static int on_key(void *user, const char *section, const char *name, const char *value)
{
    parse_ctx *pc = user;
    if (pc->st != CUZK_OK)
        return 0;
    char origin[4200];
    backend_msg(origin, sizeof(origin), "%s:%d", pc->name, pc->line);
    if (!*section) {
        backend_msg(pc->msg, sizeof(pc->msg),
                    "%s: key '%s' outside a section (start with [engine], [server] or "
                    "[circuit NAME])",
                    origin, name);
        pc->st = CUZK_ERR_INVALID_ARGUMENT;
        return 0;
    }
    pc->st = apply(pc->c, section, name, value, origin, pc->msg, sizeof(pc->msg));
    return pc->st == CUZK_OK;
}

/* Line readers that count lines, so a handler's error knows its line. */
typedef struct line_source {
    parse_ctx *pc;
    FILE *f;          /* a file, or */
    const char *text; /* a string */
    bool mid_line;    /* the last piece did not end its line */
} line_source;

static char *read_line(char *str, int num, void *stream)
{
    line_source *src = stream;
    if (src->f) {
        if (!fgets(str, num, src->f))
            return NULL;
    } else {
        if (!*src->text)
            return NULL;
        const char *nl = strchr(src->text, '\n');
        size_t n = nl ? (size_t)(nl - src->text) + 1 : strlen(src->text);
        if (n > (size_t)num - 1)
            n = (size_t)num - 1;
        memcpy(str, src->text, n);
        str[n] = 0;
        src->text += n;
    }
    /* A line longer than the parser's buffer comes in pieces: count it once. */
    if (!src->mid_line)
        src->pc->line++;
    size_t n = strlen(str);
    src->mid_line = n > 0 && str[n - 1] != '\n';
    return str;
}

static cuzk_status parse(cuzk_config *c, line_source *src, const char *name, char *msg,
                         size_t msg_len)
{
    parse_ctx pc = {.c = c, .name = name};
    src->pc = &pc;
    /* One error is enough; lines up to 64 KiB (long paths) on the heap. */
    ini_stop_on_first_error = true;
    ini_use_stack = false;
    ini_allow_realloc = true;
    ini_max_line = 65536;
    ini_allow_multiline = false;
    int r = ini_parse_stream(read_line, src, on_key, &pc);
    if (r == 0)
        return CUZK_OK;
    if (pc.st != CUZK_OK) {
        backend_msg(msg, msg_len, "%s", pc.msg);
        return pc.st;
    }
    if (r == -2) {
        backend_msg(msg, msg_len, "%s: out of memory", name);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    backend_msg(msg, msg_len,
                "%s:%d: syntax error (expected [section], key = value, or a comment "
                "starting with # or ;)",
                name, r);
    return CUZK_ERR_INVALID_ARGUMENT;
}

cuzk_status cuzk_config_load(cuzk_config *c, const char *path, char *msg, size_t msg_len)
{
    /* A folder opens and reads as empty, a FIFO blocks: neither is a
     * configuration file. */
    char why[512];
    FILE *f = input_file_fopen(path, why, sizeof(why));
    if (!f) {
        backend_msg(msg, msg_len, "configuration file: %s", why);
        return CUZK_ERR_IO;
    }
    line_source src = {.f = f};
    cuzk_status st = parse(c, &src, path, msg, msg_len);
    fclose(f);
    return st;
}

cuzk_status cuzk_config_load_string(cuzk_config *c, const char *text, const char *name, char *msg,
                                    size_t msg_len)
{
    line_source src = {.text = text};
    return parse(c, &src, name, msg, msg_len);
}

cuzk_status cuzk_config_set(cuzk_config *c, const char *assignment, const char *origin, char *msg,
                            size_t msg_len)
{
    const char *eq = strchr(assignment, '=');
    const char *dot = NULL;
    for (const char *p = assignment; eq && p < eq; p++)
        if (*p == '.')
            dot = p;
    if (!eq || !dot || dot == assignment || dot + 1 == eq) {
        backend_msg(msg, msg_len, "%s: '%s' is not section.key=value (e.g. engine.retries=3)",
                    origin, assignment);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    char section[128], key[64];
    size_t sl = (size_t)(dot - assignment), kl = (size_t)(eq - dot - 1);
    if (sl >= sizeof(section) || kl >= sizeof(key)) {
        backend_msg(msg, msg_len, "%s: '%s': the section or key is too long", origin, assignment);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    memcpy(section, assignment, sl);
    section[sl] = 0;
    memcpy(key, dot + 1, kl);
    key[kl] = 0;
    return apply(c, section, key, eq + 1, origin, msg, msg_len);
}

cuzk_status cuzk_config_check(const cuzk_config *c, char *msg, size_t msg_len)
{
    const server_config *s = &c->server;
    if (!s->socket_path && !s->tcp_address) {
        backend_msg(msg, msg_len,
                    "[server] neither 'socket' nor 'tcp' is set: nothing to listen on");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (s->tcp_address && !s->token_file && !s->insecure_no_token) {
        backend_msg(msg, msg_len,
                    "[server] 'tcp' needs 'token_file' (a bearer token), or "
                    "'insecure_no_token = true' on a trusted network");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (!(s->max_wait_s > 0)) {
        /* An await that may not wait answers at once: clients would poll
         * in a tight loop. */
        backend_msg(msg, msg_len, "[server] max_wait_s must be more than 0 seconds");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (!(s->cluster_lease_s >= 1) || s->cluster_retries == 0) {
        /* A lease shorter than its heartbeat's round trip would expire
         * under a live host; no retry at all would fail a job on one
         * host's bad moment. */
        backend_msg(msg, msg_len,
                    "[server] cluster_lease_s must be at least 1 second and cluster_retries at "
                    "least 1");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (s->witness_spill_dir && s->witness_spill_dir[0] != '/') {
        /* Rows name the files by this path, and every host opens them by
         * it: a path relative to one host's working folder is no path
         * they share. */
        backend_msg(msg, msg_len,
                    "[server] witness_spill_dir must be an absolute path (every host mounts the "
                    "folder at the same path), got '%s'",
                    s->witness_spill_dir);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (s->max_connections == 0 || s->max_header_bytes < 1024 || s->max_json_bytes == 0) {
        backend_msg(msg, msg_len,
                    "[server] max_connections, max_json_bytes must be positive and "
                    "max_header_bytes at least 1024");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < c->num_circuits; i++) {
        circuit_spec spec;
        cuzk_status st = config_circuit_spec(&c->circuits[i], &spec, msg, msg_len);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

cuzk_status config_circuit_spec(const config_circuit *cc, circuit_spec *spec, char *msg,
                                size_t msg_len)
{
    memset(spec, 0, sizeof(*spec));
    spec->name = cc->name;
    spec->kind = cc->kind;
    spec->check = cc->check;
    if (!cc->kind_set) {
        backend_msg(msg, msg_len, "%s: [circuit %s] key 'kind' is missing (builtin or zkey)",
                    cc->origin, cc->name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (cc->kind == CIRCUIT_ZKEY) {
        if (!cc->zkey_path || cc->params_path || cc->log_constraints) {
            backend_msg(msg, msg_len,
                        "%s: [circuit %s] a zkey circuit takes 'zkey' (its file) and neither "
                        "'params' nor 'log_constraints'",
                        cc->origin, cc->name);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
        spec->zkey_path = cc->zkey_path;
        return CUZK_OK;
    }
    if (!cc->params_path || !cc->log_constraints || cc->zkey_path) {
        backend_msg(msg, msg_len,
                    "%s: [circuit %s] a builtin circuit takes 'log_constraints' and 'params' "
                    "(and no 'zkey')",
                    cc->origin, cc->name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (porep_like_params_for_constraints(&spec->shape, cc->log_constraints, cc->arity) !=
        CUZK_OK) {
        backend_msg(msg, msg_len,
                    "%s: [circuit %s] key 'log_constraints' %u with arity %u: no such built-in "
                    "circuit (log_constraints 10 to 27, arity 2 or 8)",
                    cc->origin, cc->name, cc->log_constraints, cc->arity);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    uint64_t seed;
    char why[256] = "";
    if (circuit_params_dev(cc->params_path, &seed, why, sizeof(why)) < 0) {
        backend_msg(msg, msg_len, "%s: [circuit %s] key %s", cc->origin, cc->name, why);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    spec->params_path = cc->params_path;
    return CUZK_OK;
}
