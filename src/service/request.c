/* Request bodies into engine specs: strict JSON (unknown fields and wrong
 * types are refused by name) and streamed .wtns witnesses. */
#define _POSIX_C_SOURCE 200809L
#include "service/request.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "formats/circom_wtns.h"
#include "formats/decimal.h"
#include "util/input_file.h"
#include "util/wipe.h"

static bool fail(request_error *err, unsigned status, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool fail(request_error *err, unsigned status, const char *field, const char *fmt, ...)
{
    err->status = status;
    snprintf(err->field, sizeof(err->field), "%s", field ? field : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
    return false;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a fraction";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "something else";
}

/* The body as a JSON object, with a message naming the line and column of
 * a syntax error. */
static json_t *parse_object(const http_request *rq, request_error *err)
{
    if (rq->content_type && strncasecmp(rq->content_type, "application/json", 16) != 0) {
        fail(err, 415, NULL, "Content-Type %s is not accepted here (application/json)",
             rq->content_type);
        return NULL;
    }
    if (!rq->body_len) {
        fail(err, 400, NULL, "the body is empty; a JSON object is expected");
        return NULL;
    }
    json_error_t je;
    json_t *o = json_loadb((const char *)rq->body, rq->body_len, JSON_REJECT_DUPLICATES, &je);
    if (!o) {
        fail(err, 400, NULL, "malformed JSON at line %d, column %d: %s", je.line, je.column,
             je.text);
        return NULL;
    }
    if (!json_is_object(o)) {
        fail(err, 400, NULL, "the body is %s; a JSON object is expected", type_name(o));
        json_decref(o);
        return NULL;
    }
    return o;
}

static bool check_fields(json_t *o, const char *const *known, request_error *err)
{
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v)
    {
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++)
            ok = !strcmp(*k, key);
        if (!ok) {
            char list[400] = "";
            for (const char *const *k = known; *k; k++)
                snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
                         k == known ? "" : ", ", *k);
            return fail(err, 400, key, "unknown field '%s' (known: %s)", key, list);
        }
    }
    return true;
}

static bool get_uint(json_t *o, const char *field, uint64_t min, uint64_t max, uint64_t *out,
                     bool *present, request_error *err)
{
    json_t *v = json_object_get(o, field);
    if (present)
        *present = v != NULL;
    if (!v)
        return true;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) < min ||
        (uint64_t)json_integer_value(v) > max) {
        if (json_is_integer(v))
            return fail(err, 400, field, "field '%s' wants an integer from %llu to %llu, got %lld",
                        field, (unsigned long long)min, (unsigned long long)max,
                        (long long)json_integer_value(v));
        return fail(err, 400, field, "field '%s' wants an integer from %llu to %llu, got %s", field,
                    (unsigned long long)min, (unsigned long long)max, type_name(v));
    }
    *out = (uint64_t)json_integer_value(v);
    return true;
}

static bool get_string(json_t *o, const char *field, const char **out, request_error *err)
{
    json_t *v = json_object_get(o, field);
    if (!v)
        return true;
    if (!json_is_string(v) || !json_string_length(v))
        return fail(err, 400, field, "field '%s' wants a non-empty string, got %s", field,
                    json_is_string(v) ? "an empty one" : type_name(v));
    if (strlen(json_string_value(v)) != json_string_length(v))
        return fail(err, 400, field, "field '%s' contains a NUL character", field);
    *out = json_string_value(v);
    return true;
}

static bool parse_priority(const char *text, const char *field, engine_priority *out,
                           request_error *err)
{
    if (!engine_priority_parse(text, out))
        return fail(err, 400, field, "field '%s' wants critical, high, normal or low, got '%s'",
                    field, text);
    return true;
}

/* ------------------------------------------------------------ submit */

void submit_request_free(submit_request *r)
{
    free(r->circuit);
    free(r->inputs);
    for (uint32_t i = 0; i < r->num_owned; i++) {
        if (r->paths)
            free(r->paths[i]);
        if (r->client_paths)
            free(r->client_paths[i]);
        if (r->witnesses)
            free(r->witnesses[i]);
    }
    free(r->witness_curves);
    free(r->witness_files);
    free(r->witness_file_lens);
    free(r->paths);
    free(r->client_paths);
    for (uint32_t i = 0; i < r->num_fds; i++)
        close(r->fds[i]);
    free(r->fds);
    free(r->witnesses);
    if (r->blinding) /* blinding factors are secrets wherever they come from */
        cuzk_wipe(r->blinding, sizeof(fr_t) * 2 * r->spec.partitions);
    free(r->blinding);
    memset(r, 0, sizeof(*r));
}

static bool alloc_inputs(submit_request *out, uint32_t n, request_error *err)
{
    out->inputs = calloc(n, sizeof(*out->inputs));
    if (!out->inputs)
        return fail(err, 503, NULL, "out of memory for %u partitions", n);
    out->spec.inputs = out->inputs;
    return true;
}

bool request_witness_path(char **out, int *out_fd, const char *path, const confine_dir *witness_dir,
                          const char *field, request_error *err)
{
    *out_fd = -1;
    if (!witness_dir) {
        int fd;
        char why[600];
        if (input_file_open(&fd, path, why, sizeof(why)) != CUZK_OK)
            return fail(err, 400, field, "field '%s': %s", field, why);
        close(fd);
        if (!(*out = strdup(path)))
            return fail(err, 503, NULL, "out of memory");
        return true;
    }
    int fd, e;
    switch (confine_open(witness_dir, path, &fd, &e)) {
    case CONFINE_OK:
        break;
    case CONFINE_OUTSIDE:
        return fail(err, 403, field,
                    "field '%s': %s is outside the witness folder (server.witness_dir)", field,
                    path);
    case CONFINE_NOT_REGULAR:
        return fail(err, 400, field, "field '%s': %s is not a regular file", field, path);
    case CONFINE_CANNOT_OPEN:
        if (e == EACCES)
            return fail(err, 400, field, "field '%s': cannot read %s: %s", field, path,
                        strerror(e));
        return fail(err, 400, field, "field '%s': cannot resolve %s in the witness folder: %s",
                    field, path, strerror(e));
    }
    char name[64];
    if (!confine_fd_path(fd, name, sizeof(name))) {
        close(fd);
        return fail(err, 503, field,
                    "field '%s': this system has no /proc/self/fd, through which the engine "
                    "reads a confined witness",
                    field);
    }
    if (!(*out = strdup(name))) {
        close(fd);
        return fail(err, 503, NULL, "out of memory");
    }
    *out_fd = fd;
    return true;
}

/* "blinding": {"r": "<decimal>", "s": "<decimal>"}, one r and s for all
 * `partitions` of the job, into out->blinding and spec.r, .s. A proof
 * whose r and s are known is not zero knowledge (they take the blinding
 * off, and guesses of the witness can be tested against it), so only a
 * server whose operator allows it takes them: for tests that compare the
 * proofs of every door bit for bit. */
static bool get_blinding(submit_request *out, json_t *o, uint32_t partitions, bool allowed,
                         request_error *err)
{
    json_t *b = json_object_get(o, "blinding");
    if (!b)
        return true;
    if (!allowed)
        return fail(err, 403, "blinding",
                    "field 'blinding' (fixed r and s, for tests only) is refused: this server "
                    "takes it only when its operator sets server.insecure_fixed_blinding = true "
                    "(cuzk serve --insecure-fixed-blinding)");
    if (!json_is_object(b))
        return fail(err, 400, "blinding",
                    "field 'blinding' wants an object {\"r\": \"<decimal>\", \"s\": "
                    "\"<decimal>\"}, got %s",
                    type_name(b));
    const char *key;
    json_t *v;
    json_object_foreach(b, key, v)
    {
        if (strcmp(key, "r") != 0 && strcmp(key, "s") != 0) {
            char field[64];
            snprintf(field, sizeof(field), "blinding.%.40s", key);
            return fail(err, 400, field, "unknown field '%s' (known: r, s)", field);
        }
    }
    fr_t rs[2];
    static const char *const keys[] = {"r", "s"}, *const names[] = {"blinding.r", "blinding.s"};
    bool ok = true;
    for (int i = 0; i < 2 && ok; i++) {
        v = json_object_get(b, keys[i]);
        cuzk_status st = CUZK_ERR_INVALID_ARGUMENT;
        if (v && json_is_string(v) && strlen(json_string_value(v)) == json_string_length(v))
            st = decimal_to_fr(&rs[i], json_string_value(v));
        if (!v)
            ok = fail(err, 400, names[i],
                      "field '%s' is missing (a decimal string below the group order r)", names[i]);
        else if (!json_is_string(v))
            ok = fail(err, 400, names[i],
                      "field '%s' wants a decimal string below the group order r, got %s", names[i],
                      type_name(v));
        else if (st == CUZK_ERR_NOT_CANONICAL)
            ok = fail(err, 400, names[i], "field '%s' is not below the group order r", names[i]);
        else if (st != CUZK_OK)
            ok = fail(err, 400, names[i],
                      "field '%s' wants a decimal string below the group order r, got '%.80s'",
                      names[i], json_string_value(v));
    }
    if (ok && !(out->blinding = malloc(sizeof(fr_t) * 2 * partitions)))
        ok = fail(err, 503, NULL, "out of memory for the blinding of %u partitions", partitions);
    for (uint32_t i = 0; ok && i < partitions; i++) {
        out->blinding[i] = rs[0];
        out->blinding[partitions + i] = rs[1];
    }
    if (ok) {
        out->spec.r = out->blinding;
        out->spec.s = out->blinding + partitions;
    }
    cuzk_wipe(rs, sizeof(rs));
    return ok;
}

static bool submit_json(submit_request *out, const http_request *rq, const confine_dir *witness_dir,
                        bool allow_fixed_blinding, request_error *err)
{
    static const char *const known[] = {"circuit",       "priority",  "partitions", "seed", "seeds",
                                        "witness_paths", "timeout_s", "blinding",   NULL};
    json_t *o = parse_object(rq, err);
    if (!o)
        return false;
    bool ok = check_fields(o, known, err);
    const char *circuit = NULL, *priority = NULL;
    uint64_t partitions = 0, seed = 0;
    bool have_partitions = false, have_seed = false;
    ok = ok && get_string(o, "circuit", &circuit, err) && get_string(o, "priority", &priority, err);
    ok = ok &&
         get_uint(o, "partitions", 1, REQUEST_MAX_PARTITIONS, &partitions, &have_partitions, err);
    ok = ok && get_uint(o, "seed", 0, INT64_MAX, &seed, &have_seed, err);
    if (ok && !circuit)
        ok = fail(err, 400, "circuit", "field 'circuit' is missing (a registered circuit's name)");
    out->spec.priority = ENGINE_PRIORITY_NORMAL;
    if (ok && priority)
        ok = parse_priority(priority, "priority", &out->spec.priority, err);
    json_t *timeout = json_object_get(o, "timeout_s");
    if (ok && timeout) {
        if (!json_is_number(timeout))
            ok = fail(err, 400, "timeout_s",
                      "field 'timeout_s' wants a number of seconds (0: the server's default, "
                      "negative: none), got %s",
                      type_name(timeout));
        else
            out->spec.timeout_s = json_number_value(timeout);
    }
    json_t *seeds = json_object_get(o, "seeds"), *paths = json_object_get(o, "witness_paths");
    const char *list_name = seeds ? "seeds" : "witness_paths";
    json_t *list = seeds ? seeds : paths;
    if (ok && (!!seeds + !!paths + have_seed) > 1)
        ok = fail(err, 400, seeds && paths ? "witness_paths" : "seed",
                  "give one of 'seed', 'seeds' and 'witness_paths'");
    if (ok && paths && rq->tcp && !witness_dir)
        ok = fail(err, 403, "witness_paths",
                  "this server takes no 'witness_paths' over TCP: its operator must set "
                  "server.witness_dir (cuzk serve --witness-dir) to the folder they may name; "
                  "or stream the witnesses in the body (application/octet-stream)");
    if (ok && list) {
        size_t n = json_is_array(list) ? json_array_size(list) : 0;
        if (!json_is_array(list) || n == 0 || n > REQUEST_MAX_PARTITIONS)
            ok = fail(err, 400, list_name, "field '%s' wants an array of 1 to %d %s, got %s",
                      list_name, REQUEST_MAX_PARTITIONS, seeds ? "integers" : "file paths",
                      json_is_array(list) ? (n ? "too many" : "an empty one") : type_name(list));
        else if (have_partitions && partitions != n)
            ok = fail(err, 400, "partitions", "field 'partitions' is %llu but '%s' has %zu entries",
                      (unsigned long long)partitions, list_name, n);
        partitions = n;
    }
    if (ok && !list && !have_partitions)
        ok = fail(err, 400, "partitions",
                  "field 'partitions' is missing (or give 'seeds' or 'witness_paths')");
    if (ok && list) {
        uint32_t n = (uint32_t)partitions;
        ok = alloc_inputs(out, n, err);
        if (ok && paths &&
            (!(out->paths = calloc(n, sizeof(char *))) || !(out->fds = malloc(n * sizeof(int))) ||
             !(out->client_paths = calloc(n, sizeof(char *)))))
            ok = fail(err, 503, NULL, "out of memory");
        for (uint32_t i = 0; ok && i < n; i++) {
            json_t *v = json_array_get(list, i);
            char field[64];
            snprintf(field, sizeof(field), "%s[%u]", list_name, i);
            if (seeds) {
                if (!json_is_integer(v) || json_integer_value(v) < 0)
                    ok = fail(err, 400, field, "field '%s' wants an integer >= 0, got %s", field,
                              json_is_integer(v) ? "a negative one" : type_name(v));
                else
                    out->inputs[i].seed = (uint64_t)json_integer_value(v);
            } else {
                if (!json_is_string(v) || !json_string_length(v) ||
                    strlen(json_string_value(v)) != json_string_length(v))
                    ok = fail(err, 400, field, "field '%s' wants a file path, got %s", field,
                              json_is_string(v) ? "an empty or broken string" : type_name(v));
                else if (!(out->client_paths[i] = strdup(json_string_value(v))))
                    ok = fail(err, 503, NULL, "out of memory");
                else if ((ok = request_witness_path(&out->paths[i], &out->fds[out->num_fds],
                                                    json_string_value(v), witness_dir, field,
                                                    err))) {
                    out->inputs[i].wtns_path = out->paths[i];
                    if (out->fds[out->num_fds] >= 0)
                        out->num_fds++;
                }
                out->num_owned = i + 1;
            }
        }
    }
    if (ok && !(out->circuit = strdup(circuit)))
        ok = fail(err, 503, NULL, "out of memory");
    out->spec.circuit = out->circuit;
    out->spec.partitions = (uint32_t)partitions;
    out->spec.seed = seed;
    ok = ok && get_blinding(out, o, (uint32_t)partitions, allow_fixed_blinding, err);
    json_decref(o);
    return ok;
}

size_t request_wtns_length(const uint8_t *data, size_t len, char *why, size_t why_len)
{
    /* The iden3 container: "wtns", u32 version, u32 sections, then each
     * section: u32 type, u64 size, size bytes. */
    if (len < 12 || memcmp(data, "wtns", 4) != 0) {
        snprintf(why, why_len, "it does not start with a .wtns header");
        return 0;
    }
    uint32_t sections;
    memcpy(&sections, data + 8, 4);
    if (sections == 0 || sections > 16) {
        snprintf(why, why_len, "its header has %u sections", sections);
        return 0;
    }
    size_t off = 12;
    for (uint32_t i = 0; i < sections; i++) {
        if (len - off < 12) {
            snprintf(why, why_len, "it ends inside section header %u", i);
            return 0;
        }
        uint64_t size;
        memcpy(&size, data + off + 4, 8);
        off += 12;
        if (size > len - off) {
            snprintf(why, why_len, "section %u of %llu bytes runs past the body's end", i,
                     (unsigned long long)size);
            return 0;
        }
        off += (size_t)size;
    }
    return off;
}

static bool submit_stream(submit_request *out, const http_request *rq, request_error *err)
{
    static const char *const known[] = {"circuit", "priority", "partitions", "timeout_s", NULL};
    const char *unknown = http_query_unknown(rq, known);
    if (unknown)
        return fail(err, 400, unknown,
                    "unknown query argument '%s' (known: circuit, priority, partitions, "
                    "timeout_s)",
                    unknown);
    const char *circuit = http_query(rq, "circuit");
    if (!circuit || !*circuit)
        return fail(err, 400, "circuit",
                    "query argument 'circuit' is missing (a registered circuit's name)");
    out->spec.priority = ENGINE_PRIORITY_NORMAL;
    const char *prio = http_query(rq, "priority");
    if (prio && !parse_priority(prio, "priority", &out->spec.priority, err))
        return false;
    const char *t = http_query(rq, "timeout_s");
    if (t) {
        char *end;
        errno = 0;
        out->spec.timeout_s = strtod(t, &end);
        if (!*t || *end || errno)
            return fail(err, 400, "timeout_s",
                        "query argument 'timeout_s' wants a number of seconds, got '%s'", t);
    }
    /* Count the witnesses first, then decode each. */
    uint32_t n = 0;
    char why[200];
    for (size_t off = 0; off < rq->body_len; n++) {
        size_t len = request_wtns_length(rq->body + off, rq->body_len - off, why, sizeof(why));
        if (!len)
            return fail(err, 400, "body", "witness %u of the body: %s", n, why);
        if (n == REQUEST_MAX_PARTITIONS)
            return fail(err, 400, "body", "more than %d witnesses", REQUEST_MAX_PARTITIONS);
        off += len;
    }
    if (n == 0)
        return fail(err, 400, "body",
                    "the body is empty; one .wtns file per partition is "
                    "expected");
    const char *p = http_query(rq, "partitions");
    if (p) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (!*p || *end || v != n)
            return fail(err, 400, "partitions",
                        "query argument 'partitions' is '%s' but the body holds %u witnesses", p,
                        n);
    }
    if (!alloc_inputs(out, n, err))
        return false;
    if (!(out->witnesses = calloc(n, sizeof(fr_t *))) ||
        !(out->witness_curves = calloc(n, sizeof(curve_id))) ||
        !(out->witness_files = calloc(n, sizeof(*out->witness_files))) ||
        !(out->witness_file_lens = calloc(n, sizeof(size_t))))
        return fail(err, 503, NULL, "out of memory");
    size_t off = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t len = request_wtns_length(rq->body + off, rq->body_len - off, why, sizeof(why));
        char name[48], msg[384] = "";
        snprintf(name, sizeof(name), "witness %u", i);
        circom_wtns_t w;
        cuzk_status st = circom_wtns_open_buffer(&w, rq->body + off, len, name, msg, sizeof(msg));
        if (st == CUZK_OK) {
            out->num_owned = i + 1;
            if (!(out->witnesses[i] = malloc(sizeof(fr_t) * (w.num_values ? w.num_values : 1))))
                st = CUZK_ERR_OUT_OF_MEMORY;
            else
                st = circom_wtns_decode(out->witnesses[i], &w, 0, w.num_values, msg, sizeof(msg));
            out->inputs[i].witness = out->witnesses[i];
            out->inputs[i].witness_len = w.num_values;
            out->witness_curves[i] = w.curve;
            out->witness_files[i] = rq->body + off;
            out->witness_file_lens[i] = len;
            circom_wtns_close(&w);
        }
        if (st != CUZK_OK)
            return fail(err, st == CUZK_ERR_OUT_OF_MEMORY ? 503 : 400, "body",
                        "witness %u of the body: %s", i, msg[0] ? msg : cuzk_status_str(st));
        off += len;
    }
    if (!(out->circuit = strdup(circuit)))
        return fail(err, 503, NULL, "out of memory");
    out->spec.circuit = out->circuit;
    out->spec.partitions = n;
    return true;
}

bool request_check_curve(const submit_request *r, curve_id curve, request_error *err)
{
    const char *circuit = r->spec.circuit, *want = curve_id_snarkjs_name(curve);
    for (uint32_t i = 0; r->witness_curves && i < r->spec.partitions; i++)
        if (r->witness_curves[i] != curve)
            return fail(err, 400, "body",
                        "witness %u of the body is for the %s curve, but circuit '%s' is on %s", i,
                        curve_id_snarkjs_name(r->witness_curves[i]), circuit, want);
    for (uint32_t i = 0; r->paths && i < r->spec.partitions; i++) {
        circom_wtns_t w;
        char msg[384];
        if (circom_wtns_open(&w, r->paths[i], msg, sizeof(msg)) != CUZK_OK)
            continue;
        curve_id got = w.curve;
        circom_wtns_close(&w);
        if (got != curve) {
            char field[48];
            snprintf(field, sizeof(field), "witness_paths[%u]", i);
            return fail(err, 400, field,
                        "witness %s is for the %s curve, but circuit '%s' is on %s",
                        r->client_paths ? r->client_paths[i] : r->paths[i],
                        curve_id_snarkjs_name(got), circuit, want);
        }
    }
    return true;
}

bool request_parse_submit(submit_request *out, const http_request *rq,
                          const confine_dir *witness_dir, bool allow_fixed_blinding,
                          request_error *err)
{
    memset(out, 0, sizeof(*out));
    bool stream =
        rq->content_type && !strncasecmp(rq->content_type, "application/octet-stream", 24);
    if (!stream) {
        static const char *const none[] = {NULL};
        const char *unknown = http_query_unknown(rq, none);
        if (unknown)
            return fail(err, 400, unknown,
                        "unknown query argument '%s' (a JSON submission takes none)", unknown);
    }
    bool ok = stream ? submit_stream(out, rq, err)
                     : submit_json(out, rq, witness_dir, allow_fixed_blinding, err);
    if (!ok)
        submit_request_free(out);
    return ok;
}

/* ----------------------------------------------------------- circuits */

void request_circuit_free(config_circuit *c)
{
    free(c->params_path);
    free(c->zkey_path);
    memset(c, 0, sizeof(*c));
}

bool request_parse_circuit(config_circuit *out, const http_request *rq, request_error *err)
{
    static const char *const known[] = {"name", "kind",  "log_constraints", "arity", "params",
                                        "zkey", "check", "preload",         NULL};
    memset(out, 0, sizeof(*out));
    out->arity = 8;
    out->check = FORMATS_CHECK_CURVE;
    snprintf(out->origin, sizeof(out->origin), "request");
    json_t *o = parse_object(rq, err);
    if (!o)
        return false;
    const char *name = NULL, *kind = NULL, *params = NULL, *zkey = NULL, *check = NULL;
    uint64_t log_constraints = 0, arity = 8;
    bool ok = check_fields(o, known, err) && get_string(o, "name", &name, err) &&
              get_string(o, "kind", &kind, err) && get_string(o, "params", &params, err) &&
              get_string(o, "zkey", &zkey, err) && get_string(o, "check", &check, err) &&
              get_uint(o, "log_constraints", 1, 27, &log_constraints, NULL, err) &&
              get_uint(o, "arity", 2, 8, &arity, NULL, err);
    if (ok && !name)
        ok = fail(err, 400, "name", "field 'name' is missing");
    if (ok && !config_valid_circuit_name(name))
        ok = fail(err, 400, "name",
                  "field 'name' wants 1 to 63 letters, digits, '-', '_' or '.' (as a [circuit "
                  "NAME] section)");
    if (ok && !kind)
        ok = fail(err, 400, "kind", "field 'kind' is missing (builtin or zkey)");
    if (ok) {
        out->kind_set = true;
        if (!strcmp(kind, "builtin"))
            out->kind = CIRCUIT_BUILTIN;
        else if (!strcmp(kind, "zkey"))
            out->kind = CIRCUIT_ZKEY;
        else
            ok = fail(err, 400, "kind", "field 'kind' wants builtin or zkey, got '%s'", kind);
    }
    if (ok && check) {
        if (!strcmp(check, "none"))
            out->check = FORMATS_CHECK_NONE;
        else if (!strcmp(check, "curve"))
            out->check = FORMATS_CHECK_CURVE;
        else if (!strcmp(check, "subgroup"))
            out->check = FORMATS_CHECK_SUBGROUP;
        else
            ok = fail(err, 400, "check", "field 'check' wants none, curve or subgroup, got '%s'",
                      check);
    }
    json_t *preload = json_object_get(o, "preload");
    if (ok && preload && !json_is_boolean(preload))
        ok = fail(err, 400, "preload", "field 'preload' wants true or false, got %s",
                  type_name(preload));
    if (ok) {
        snprintf(out->name, sizeof(out->name), "%s", name);
        out->log_constraints = (unsigned)log_constraints;
        out->arity = (unsigned)arity;
        out->preload = preload && json_is_true(preload);
        if ((params && !(out->params_path = strdup(params))) ||
            (zkey && !(out->zkey_path = strdup(zkey))))
            ok = fail(err, 503, NULL, "out of memory");
    }
    json_decref(o);
    if (!ok)
        request_circuit_free(out);
    return ok;
}
