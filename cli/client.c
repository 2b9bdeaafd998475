/* The client subcommands of `cuzk serve` (docs/SERVICE.md): submit, await,
 * status, cancel, jobs, circuit and api, over the server's Unix socket or
 * TCP with a bearer token, through libcurl. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/result_files.h"
#include "config/config.h"
#include "service/auth.h"
#include "service/proof_format.h"
#include "util/strbuf.h"
#include "util/wipe.h"

/* The longest one await request asks the server to wait; the server caps
 * it too (server.max_wait_s), and the client simply asks again. */
#define AWAIT_POLL_S 60.0
/* The least time between two await requests: a server whose cap is tiny
 * (or an old one that allows none) is not asked in a tight loop. */
#define AWAIT_MIN_INTERVAL_S 0.2

typedef struct client {
    CURL *curl;
    char socket_path[4096]; /* empty: TCP at url */
    char url[1024];         /* scheme://host[:port], no trailing slash */
    char auth[1100];        /* "Authorization: Bearer ..." or empty */
} client;

typedef struct reply {
    long status;
    strbuf body;
} reply;

static const char *const client_commands[] = {"submit", "await",   "status", "cancel",
                                              "jobs",   "circuit", "api",    NULL};

bool cli_is_client_command(const char *command)
{
    for (const char *const *c = client_commands; *c; c++)
        if (!strcmp(*c, command))
            return true;
    return false;
}

static const char *connection_help =
    "connection (every client command):\n"
    "  --socket PATH      the server's Unix socket (default $CUZK_SOCKET, else\n"
    "                     $XDG_RUNTIME_DIR/cuzk.sock, else\n"
    "                     ${TMPDIR:-/tmp}/cuzk-<uid>/cuzk.sock)\n"
    "  --url URL          TCP instead, e.g. http://127.0.0.1:9090 (default $CUZK_URL)\n"
    "  --token-file FILE  the bearer token for TCP (default $CUZK_TOKEN_FILE)\n"
    "exit codes: 0 ok, 1 failed (an error answer, a failed or cancelled job), 2 bad\n"
    "command line, 3 unreadable input file, 4 server unreachable, 5 await timed out\n";

/* ------------------------------------------------------------ transport */

static size_t on_body(char *data, size_t size, size_t n, void *user)
{
    strbuf *b = user;
    strbuf_append(b, data, size * n);
    return b->failed ? 0 : size * n;
}

static size_t on_read_stream(char *out, size_t size, size_t n, void *user)
{
    return fread(out, size, n, (FILE *)user) * size;
}

/* One request. CLI_EXIT_OK when an answer came (any status). */
static int request(client *c, const char *method, const char *path, const char *content_type,
                   const void *body, size_t body_len, FILE *stream, const char *extra_header,
                   reply *r)
{
    strbuf_init(&r->body);
    r->status = 0;
    CURL *h = c->curl;
    curl_easy_reset(h);
    char url[8192], err[CURL_ERROR_SIZE] = "";
    snprintf(url, sizeof(url), "%s%s", c->url, path);
    curl_easy_setopt(h, CURLOPT_URL, url);
    if (c->socket_path[0])
        curl_easy_setopt(h, CURLOPT_UNIX_SOCKET_PATH, c->socket_path);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, err);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &r->body);
    struct curl_slist *headers = NULL;
    /* No "Expect: 100-continue" round trip before a body. */
    headers = curl_slist_append(headers, "Expect:");
    if (c->auth[0])
        headers = curl_slist_append(headers, c->auth);
    if (extra_header)
        headers = curl_slist_append(headers, extra_header);
    if (content_type) {
        char ct[200];
        snprintf(ct, sizeof(ct), "Content-Type: %s", content_type);
        headers = curl_slist_append(headers, ct);
    }
    if (stream) {
        curl_easy_setopt(h, CURLOPT_POST, 1L);
        curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read_stream);
        curl_easy_setopt(h, CURLOPT_READDATA, stream);
        headers = curl_slist_append(headers, "Transfer-Encoding: chunked");
    } else if (body) {
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
    }
    if (strcmp(method, "GET") && strcmp(method, "POST"))
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    else if (!strcmp(method, "POST") && !body && !stream) {
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, "");
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)0);
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    CURLcode rc = curl_easy_perform(h);
    curl_slist_free_all(headers);
    if (rc != CURLE_OK) {
        const char *where = c->socket_path[0] ? c->socket_path : c->url;
        if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST) {
            cli_error("cannot reach the server at %s (is cuzk serve running?)", where);
            return CLI_EXIT_UNREACHABLE;
        }
        if (rc == CURLE_GOT_NOTHING || rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR ||
            rc == CURLE_PARTIAL_FILE) {
            /* Connected, then the connection ended without an answer: the
             * server went away (or restarted) under the request. */
            cli_error("the server at %s went away during the request: %s", where,
                      err[0] ? err : curl_easy_strerror(rc));
            return CLI_EXIT_UNREACHABLE;
        }
        cli_error("request to %s failed: %s", where, err[0] ? err : curl_easy_strerror(rc));
        return CLI_EXIT_FAILURE;
    }
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->status);
    return CLI_EXIT_OK;
}

static const char *body_text(reply *r)
{
    return r->body.data ? r->body.data : "";
}

/* An error answer on stderr: the server's message and field. */
static void report_error(reply *r)
{
    json_t *o = json_loads(body_text(r), 0, NULL);
    const char *e = o ? json_string_value(json_object_get(o, "error")) : NULL;
    if (e)
        cli_error("server: %s (HTTP %ld)", e, r->status);
    else
        cli_error("server answered HTTP %ld: %s", r->status, body_text(r));
    json_decref(o);
}

static bool ok_status(const reply *r)
{
    return r->status >= 200 && r->status < 300;
}

/* A request whose answer must be 2xx JSON: the object, or NULL after an
 * error message (*rc says why). */
static json_t *request_json(client *c, const char *method, const char *path, const char *body,
                            int *rc)
{
    reply r;
    *rc = request(c, method, path, body ? "application/json" : NULL, body, body ? strlen(body) : 0,
                  NULL, NULL, &r);
    json_t *o = NULL;
    if (*rc == CLI_EXIT_OK && !ok_status(&r)) {
        report_error(&r);
        *rc = CLI_EXIT_FAILURE;
    } else if (*rc == CLI_EXIT_OK && !(o = json_loads(body_text(&r), 0, NULL))) {
        cli_error("the server's answer is not JSON: %.200s", body_text(&r));
        *rc = CLI_EXIT_FAILURE;
    }
    strbuf_free(&r.body);
    return o;
}

static void print_json(json_t *o, bool pretty)
{
    char *t = json_dumps(o, (pretty ? JSON_INDENT(2) : JSON_COMPACT) | JSON_REAL_PRECISION(15));
    if (t)
        printf("%s\n", t);
    free(t);
}

/* ------------------------------------------------------------- options */

static void client_defaults(client *c, const char **token_file)
{
    memset(c, 0, sizeof(*c));
    const char *url = getenv("CUZK_URL"), *sock = getenv("CUZK_SOCKET");
    if (url && *url)
        snprintf(c->url, sizeof(c->url), "%s", url);
    else if (sock && *sock)
        snprintf(c->socket_path, sizeof(c->socket_path), "%s", sock);
    else
        config_default_socket(c->socket_path, sizeof(c->socket_path));
    *token_file = getenv("CUZK_TOKEN_FILE");
}

/* Codes of the long options (cli/args.h). */
enum {
    OPT_SOCKET = CLI_ARGS_FIRST_CODE,
    OPT_URL,
    OPT_TOKEN_FILE,
    OPT_CIRCUIT,
    OPT_PARTITIONS,
    OPT_SEED,
    OPT_SEEDS,
    OPT_WITNESS,
    OPT_WITNESS_STREAM,
    OPT_PRIORITY,
    OPT_TIMEOUT,
    OPT_WAIT,
    OPT_PROOF_OUT,
    OPT_PUBLIC_OUT,
    OPT_FORMAT,
    OPT_JSON,
    OPT_STATE,
    OPT_DATA,
    OPT_DATA_FILE,
    OPT_CONTENT_TYPE,
    OPT_HEADER,
    OPT_FIXED_BLINDING,
    OPT_KEY,
};

/* Every client command's table starts with these. */
#define CONNECTION_OPTIONS                                                                         \
    {"help", no_argument, NULL, 'h'}, {"socket", required_argument, NULL, OPT_SOCKET},             \
        {"url", required_argument, NULL, OPT_URL},                                                 \
    {                                                                                              \
        "token-file", required_argument, NULL, OPT_TOKEN_FILE                                      \
    }

/* A client command's command line: the scan, with the connection options
 * applied on the way. */
typedef struct command_line {
    cli_args args;
    client *c;
    const char *token_file;
} command_line;

static void command_line_start(command_line *cl, client *c, const char *command, int argc,
                               char **argv, const struct option *table)
{
    cli_args_start(&cl->args, command, argc, argv, table);
    cl->c = c;
    client_defaults(c, &cl->token_file);
}

/* The next code that is not a connection option (cli_args_next). */
static int command_line_next(command_line *cl)
{
    for (;;) {
        int code = cli_args_next(&cl->args);
        const char *v = cl->args.value;
        if (code == OPT_SOCKET) {
            snprintf(cl->c->socket_path, sizeof(cl->c->socket_path), "%s", v);
            cl->c->url[0] = 0;
        } else if (code == OPT_URL) {
            snprintf(cl->c->url, sizeof(cl->c->url), "%s", v);
            cl->c->socket_path[0] = 0;
        } else if (code == OPT_TOKEN_FILE) {
            cl->token_file = v;
        } else {
            return code;
        }
    }
}

static int client_open(client *c, const char *token_file)
{
    if (!c->url[0])
        snprintf(c->url, sizeof(c->url), "http://localhost"); /* the host is not used */
    size_t n = strlen(c->url);
    while (n && c->url[n - 1] == '/')
        c->url[--n] = 0;
    if (token_file && *token_file) {
        char token[1024], msg[512];
        cuzk_status st = auth_load_token(token, sizeof(token), token_file, msg, sizeof(msg));
        if (st != CUZK_OK) {
            cli_error("%s", msg);
            return CLI_EXIT_BAD_INPUT;
        }
        snprintf(c->auth, sizeof(c->auth), "Authorization: Bearer %s", token);
        cuzk_wipe(token, sizeof(token));
    }
    if (!(c->curl = curl_easy_init())) {
        cli_error("cannot start libcurl");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

/* A job id: 32 hex digits (as submit printed them). */
static bool parse_job_id(const char *text, char *out, size_t cap)
{
    size_t n = text ? strlen(text) : 0;
    bool ok = n == 32 && cap > n;
    for (size_t i = 0; ok && i < n; i++)
        ok = isxdigit((unsigned char)text[i]);
    if (!ok) {
        cli_error("'%s' is not a job id (32 hex digits, as cuzk submit prints)", text ? text : "");
        return false;
    }
    for (size_t i = 0; i <= n; i++)
        out[i] = (char)tolower((unsigned char)text[i]);
    return true;
}

static bool parse_seconds(const char *opt, const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (!*text || *end || errno || !(v >= 0)) {
        cli_error("%s wants seconds >= 0, got '%s'", opt, text);
        return false;
    }
    *out = v;
    return true;
}

static int read_file(const char *path, strbuf *out)
{
    FILE *f = !strcmp(path, "-") ? stdin : fopen(path, "rb");
    if (!f) {
        cli_error("%s: %s", path, strerror(errno));
        return CLI_EXIT_BAD_INPUT;
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        strbuf_append(out, buf, n);
    bool bad = ferror(f) || out->failed;
    if (f != stdin)
        fclose(f);
    if (bad) {
        cli_error("%s: cannot read it", path);
        return CLI_EXIT_BAD_INPUT;
    }
    return CLI_EXIT_OK;
}

/* --------------------------------------------------------------- await */

/* Where a done job's result goes (cuzk await, cuzk submit --wait). */
typedef struct result_out {
    const char *proof_path;  /* --proof-out, or NULL */
    const char *public_path; /* --public-out, or NULL */
    const char *format_name; /* --format, or NULL */
    proof_format format;
} result_out;

/* The options' table entries, in every command that takes them. */
#define RESULT_OPTIONS                                                                             \
    {"proof-out", required_argument, NULL, OPT_PROOF_OUT},                                         \
        {"public-out", required_argument, NULL, OPT_PUBLIC_OUT},                                   \
    {                                                                                              \
        "format", required_argument, NULL, OPT_FORMAT                                              \
    }

/* code is one of RESULT_OPTIONS': takes its value. */
static void result_option(result_out *o, int code, const char *value)
{
    if (code == OPT_PROOF_OUT)
        o->proof_path = value;
    else if (code == OPT_PUBLIC_OUT)
        o->public_path = value;
    else
        o->format_name = value;
}

/* The format: --format, else snarkjs when --public-out is given (public
 * signals exist only there), else bellman. false after a message. */
static bool result_out_check(result_out *o, const char *command)
{
    if (o->format_name && !proof_format_parse(o->format_name, &o->format)) {
        cli_error("--format wants bellman or snarkjs, got '%s'", o->format_name);
        return false;
    }
    if (!o->format_name)
        o->format = o->public_path ? PROOF_FORMAT_SNARKJS : PROOF_FORMAT_BELLMAN;
    if (o->public_path && o->format != PROOF_FORMAT_SNARKJS) {
        cli_error("%s: --public-out writes snarkjs's public.json; it does not go with --format "
                  "bellman",
                  command);
        return false;
    }
    if (o->format_name && !o->proof_path && !o->public_path) {
        cli_error("%s: --format says how --proof-out and --public-out are written; give one of "
                  "them",
                  command);
        return false;
    }
    return true;
}

static int fetch_result(client *c, const char *id, const result_out *out)
{
    char path[160];
    /* No query for bellman: the request of earlier clients, which every
     * server takes. */
    snprintf(path, sizeof(path), "/v1/jobs/%s/proof%s", id,
             out->format == PROOF_FORMAT_SNARKJS ? "?format=snarkjs" : "");
    reply r;
    int rc = request(c, "GET", path, NULL, NULL, 0, NULL, NULL, &r);
    if (rc == CLI_EXIT_OK && !ok_status(&r)) {
        report_error(&r);
        rc = CLI_EXIT_FAILURE;
    }
    if (rc == CLI_EXIT_OK && out->format == PROOF_FORMAT_SNARKJS)
        rc = result_files_write_snarkjs(out->proof_path, out->public_path, body_text(&r),
                                        r.body.len);
    else if (rc == CLI_EXIT_OK)
        rc = result_files_write_bellman(out->proof_path, body_text(&r), r.body.len);
    strbuf_free(&r.body);
    return rc;
}

/* Long polls until the job is final or timeout_s (< 0: no limit) passes. */
static int await_job(client *c, const char *id, double timeout_s, const result_out *out, bool full)
{
    double start = cli_now();
    for (;;) {
        double left = timeout_s < 0 ? AWAIT_POLL_S : timeout_s - (cli_now() - start);
        if (left < 0)
            left = 0;
        char path[160];
        snprintf(path, sizeof(path), "/v1/jobs/%s/await?timeout_s=%.3f", id,
                 left < AWAIT_POLL_S ? left : AWAIT_POLL_S);
        int rc;
        double asked = cli_now();
        json_t *o = request_json(c, "GET", path, NULL, &rc);
        if (!o)
            return rc;
        const char *state = json_string_value(json_object_get(o, "state"));
        bool timed_out = json_is_true(json_object_get(o, "timed_out"));
        if (timed_out && (timeout_s < 0 || cli_now() - start < timeout_s)) {
            json_decref(o);
            double pause = AWAIT_MIN_INTERVAL_S - (cli_now() - asked);
            if (timeout_s >= 0 && pause > timeout_s - (cli_now() - start))
                pause = timeout_s - (cli_now() - start);
            if (pause > 0) {
                struct timespec ts = {(time_t)pause, (long)((pause - (double)(time_t)pause) * 1e9)};
                nanosleep(&ts, NULL);
            }
            continue;
        }
        if (!full)
            json_object_del(o, "proof");
        print_json(o, false);
        bool done = state && !strcmp(state, "done");
        if (timed_out)
            cli_error("job %s is still %s after %.1f s", id, state ? state : "?", timeout_s);
        json_decref(o);
        if (timed_out)
            return CLI_EXIT_TIMEOUT;
        if (!done)
            return CLI_EXIT_FAILURE;
        return out->proof_path || out->public_path ? fetch_result(c, id, out) : CLI_EXIT_OK;
    }
}

/* -------------------------------------------------------------- submit */

static bool add_seeds(json_t *o, const char *list)
{
    json_t *a = json_array();
    const char *p = list;
    while (*p) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || errno || (*end && *end != ',') || v > (unsigned long long)INT64_MAX) {
            json_decref(a);
            cli_error("--seeds wants numbers separated by commas, got '%s'", list);
            return false;
        }
        json_array_append_new(a, json_integer((json_int_t)v));
        p = *end ? end + 1 : end;
    }
    json_object_set_new(o, "seeds", a);
    return true;
}

static void submit_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk submit --circuit NAME [job options] [connection options]\n"
            "\n"
            "  --circuit NAME        a registered circuit\n"
            "  --partitions N        built-in circuit: N partitions, seeds S .. S+N-1\n"
            "  --seed S              the first seed (0)\n"
            "  --seeds A,B,..        one partition per seed\n"
            "  --witness FILE        a .wtns the server reads (one partition per option)\n"
            "  --witness-stream FILE a .wtns sent in the request (one partition per option)\n"
            "  --priority P          critical, high, normal (default) or low\n"
            "  --timeout S           the job's timeout in seconds (0: the server's default)\n"
            "  --key K               an idempotency key: submitting again with K (after a lost\n"
            "                        answer, a restart) gives the job K made, not a second\n"
            "  --fixed-blinding R,S  tests only: prove every partition with these r and s\n"
            "                        (decimal); the server must allow it\n"
            "                        (server.insecure_fixed_blinding)\n"
            "  --wait                wait for the job, as cuzk await\n"
            "  --proof-out FILE      with --wait: the proof (partitions x 192 bytes for\n"
            "                        BLS12-381, 256 for BN254; or snarkjs's proof.json)\n"
            "  --public-out FILE     with --wait: the public signals as snarkjs's public.json\n"
            "  --format F            bellman or snarkjs (the default with --public-out); in\n"
            "                        snarkjs, a job of several partitions gives FILE-0.json,\n"
            "                        FILE-1.json, ... for each FILE\n"
            "  --json                print the job as JSON (default: its id)\n"
            "\n%s",
            connection_help);
}

static int cmd_submit(client *c, int argc, char **argv)
{
    const char *circuit = NULL, *priority = NULL, *seeds = NULL, *blinding = NULL, *key = NULL;
    result_out result = {0};
    unsigned long long partitions = 0, seed = 0;
    bool have_seed = false, wait = false, json_out = false;
    double timeout = 0;
    bool have_timeout = false;
    const char **paths = calloc((size_t)argc, sizeof(char *));
    const char **streams = calloc((size_t)argc, sizeof(char *));
    size_t num_paths = 0, num_streams = 0;
    int rc = CLI_EXIT_USAGE;
    static const struct option table[] = {
        CONNECTION_OPTIONS,
        {"circuit", required_argument, NULL, OPT_CIRCUIT},
        {"partitions", required_argument, NULL, OPT_PARTITIONS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"seeds", required_argument, NULL, OPT_SEEDS},
        {"key", required_argument, NULL, OPT_KEY},
        {"witness", required_argument, NULL, OPT_WITNESS},
        {"witness-stream", required_argument, NULL, OPT_WITNESS_STREAM},
        {"priority", required_argument, NULL, OPT_PRIORITY},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"fixed-blinding", required_argument, NULL, OPT_FIXED_BLINDING},
        {"wait", no_argument, NULL, OPT_WAIT},
        RESULT_OPTIONS,
        {"json", no_argument, NULL, OPT_JSON},
        {0},
    };
    command_line cl;
    command_line_start(&cl, c, "submit", argc, argv, table);
    if (!paths || !streams) {
        cli_error("out of memory");
        rc = CLI_EXIT_FAILURE;
        goto out;
    }
    for (int code; (code = command_line_next(&cl)) != CLI_ARGS_END;) {
        const char *v = cl.args.value;
        switch (code) {
        case 'h':
            submit_usage(stdout);
            rc = CLI_EXIT_OK;
            goto out;
        case OPT_WAIT:
            wait = true;
            break;
        case OPT_JSON:
            json_out = true;
            break;
        case OPT_CIRCUIT:
            circuit = v;
            break;
        case OPT_PRIORITY:
            priority = v;
            break;
        case OPT_SEEDS:
            seeds = v;
            break;
        case OPT_FIXED_BLINDING:
            blinding = v;
            break;
        case OPT_KEY:
            key = v;
            break;
        case OPT_PROOF_OUT:
        case OPT_PUBLIC_OUT:
        case OPT_FORMAT:
            result_option(&result, code, v);
            break;
        case OPT_WITNESS:
            paths[num_paths++] = v;
            break;
        case OPT_WITNESS_STREAM:
            streams[num_streams++] = v;
            break;
        case OPT_PARTITIONS:
            if (!cli_parse_uint("--partitions", v, 65536, &partitions))
                goto out;
            break;
        case OPT_SEED:
            if (!cli_parse_uint("--seed", v, INT64_MAX, &seed))
                goto out;
            have_seed = true;
            break;
        case OPT_TIMEOUT: {
            char *end;
            timeout = strtod(v, &end);
            if (!*v || *end) {
                cli_error("--timeout wants seconds, got '%s'", v);
                goto out;
            }
            have_timeout = true;
            break;
        }
        case CLI_ARG:
            cli_error("submit: unexpected '%s' (cuzk submit --help)", v);
            goto out;
        default: /* said by cli_args_next */
            goto out;
        }
    }
    if (!circuit) {
        cli_error("submit: --circuit is missing (cuzk submit --help)");
        goto out;
    }
    if (num_streams && (num_paths || seeds || have_seed)) {
        cli_error("submit: --witness-stream does not mix with --witness, --seed or --seeds");
        goto out;
    }
    /* The blinding travels in the JSON body; a streamed body has only the
     * witnesses. The server checks the values. */
    const char *comma = blinding ? strchr(blinding, ',') : NULL;
    if (blinding && (!comma || comma == blinding || !comma[1] || strchr(comma + 1, ','))) {
        cli_error("--fixed-blinding wants R,S (two decimal field elements), got '%s'", blinding);
        goto out;
    }
    if (blinding && num_streams) {
        cli_error("submit: --fixed-blinding does not go with --witness-stream (use --witness)");
        goto out;
    }
    const char *needs_wait = result.proof_path    ? "--proof-out"
                             : result.public_path ? "--public-out"
                             : result.format_name ? "--format"
                                                  : NULL;
    if (needs_wait && !wait) {
        cli_error("submit: %s needs --wait (or use cuzk await %s)", needs_wait, needs_wait);
        goto out;
    }
    if (!result_out_check(&result, "submit"))
        goto out;
    if ((rc = client_open(c, cl.token_file)) != CLI_EXIT_OK)
        goto out;

    reply r;
    strbuf body;
    strbuf_init(&body);
    char key_header[300] = "";
    if (key)
        snprintf(key_header, sizeof(key_header), "Idempotency-Key: %s", key);
    const char *extra = key ? key_header : NULL;
    if (num_streams) {
        for (size_t i = 0; i < num_streams && rc == CLI_EXIT_OK; i++)
            rc = read_file(streams[i], &body);
        if (rc != CLI_EXIT_OK) {
            strbuf_free(&body);
            goto out;
        }
        char *ec = curl_easy_escape(c->curl, circuit, 0);
        char path[1024];
        int n = snprintf(path, sizeof(path), "/v1/jobs?circuit=%s", ec ? ec : "");
        curl_free(ec);
        if (priority)
            n += snprintf(path + n, sizeof(path) - (size_t)n, "&priority=%s", priority);
        if (have_timeout)
            n += snprintf(path + n, sizeof(path) - (size_t)n, "&timeout_s=%g", timeout);
        if (partitions)
            snprintf(path + n, sizeof(path) - (size_t)n, "&partitions=%llu", partitions);
        rc = request(c, "POST", path, "application/octet-stream", body.data ? body.data : "",
                     body.len, NULL, extra, &r);
    } else {
        json_t *o = json_object();
        json_object_set_new(o, "circuit", json_string(circuit));
        if (priority)
            json_object_set_new(o, "priority", json_string(priority));
        if (partitions)
            json_object_set_new(o, "partitions", json_integer((json_int_t)partitions));
        if (have_seed)
            json_object_set_new(o, "seed", json_integer((json_int_t)seed));
        if (have_timeout)
            json_object_set_new(o, "timeout_s", json_real(timeout));
        if (blinding) {
            fprintf(stderr, "cuzk: --fixed-blinding: every proof uses the given r and s; such "
                            "proofs reveal the witness to anyone who knows them (for tests "
                            "only)\n");
            json_object_set_new(
                o, "blinding",
                json_pack("{s:s#,s:s}", "r", blinding, (int)(comma - blinding), "s", comma + 1));
        }
        if (seeds && !add_seeds(o, seeds)) {
            json_decref(o);
            rc = CLI_EXIT_USAGE;
            goto out;
        }
        if (num_paths) {
            /* The server opens the files from its own working folder. */
            json_t *a = json_array();
            for (size_t i = 0; i < num_paths; i++) {
                char *abs = realpath(paths[i], NULL);
                json_array_append_new(a, json_string(abs ? abs : paths[i]));
                free(abs);
            }
            json_object_set_new(o, "witness_paths", a);
        }
        char *text = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        strbuf_puts(&body, text ? text : "{}");
        free(text);
        rc = request(c, "POST", "/v1/jobs", "application/json", body.data, body.len, NULL, extra,
                     &r);
    }
    strbuf_free(&body);
    if (rc != CLI_EXIT_OK)
        goto out;
    json_t *job = NULL;
    if (!ok_status(&r)) {
        report_error(&r);
        rc = CLI_EXIT_FAILURE;
    } else if (!(job = json_loads(body_text(&r), 0, NULL))) {
        cli_error("the server's answer is not JSON");
        rc = CLI_EXIT_FAILURE;
    }
    strbuf_free(&r.body);
    if (!job)
        goto out;
    char id[40];
    const char *given = json_string_value(json_object_get(job, "id"));
    snprintf(id, sizeof(id), "%s", given ? given : "?");
    if (wait) {
        fprintf(stderr, "cuzk: submitted job %s\n", id);
        rc = await_job(c, id, -1, &result, json_out);
    } else if (json_out) {
        print_json(job, false);
    } else {
        printf("%s\n", id);
    }
    json_decref(job);
out:
    free(paths);
    free(streams);
    return rc;
}

/* ----------------------------------------------------- other commands */

static void command_help(const char *usage_text)
{
    printf("%s\n%s", usage_text, connection_help);
}

/* The arguments of a command that has only the connection options, at
 * most max of them into args (*num counts them all). CLI_EXIT_OK when the
 * command should go on; -1 after --help; else an exit code. */
static int arguments_only(client *c, const char *command, int argc, char **argv,
                          const char *usage_text, const char **args, int max, int *num,
                          const char **token_file)
{
    static const struct option table[] = {CONNECTION_OPTIONS, {0}};
    command_line cl;
    command_line_start(&cl, c, command, argc, argv, table);
    *num = 0;
    for (int code; (code = command_line_next(&cl)) != CLI_ARGS_END;) {
        if (code == 'h') {
            command_help(usage_text);
            return -1;
        }
        if (code != CLI_ARG)
            return CLI_EXIT_USAGE;
        if (*num < max)
            args[*num] = cl.args.value;
        ++*num;
    }
    *token_file = cl.token_file;
    return CLI_EXIT_OK;
}

static int cmd_await(client *c, int argc, char **argv)
{
    static const struct option table[] = {
        CONNECTION_OPTIONS,
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        RESULT_OPTIONS,
        {"json", no_argument, NULL, OPT_JSON},
        {0},
    };
    const char *id_text = NULL;
    result_out result = {0};
    double timeout = -1;
    bool full = false;
    command_line cl;
    command_line_start(&cl, c, "await", argc, argv, table);
    for (int code; (code = command_line_next(&cl)) != CLI_ARGS_END;) {
        const char *v = cl.args.value;
        switch (code) {
        case 'h':
            command_help(
                "usage: cuzk await JOB [--timeout S] [--proof-out FILE] [--public-out FILE]\n"
                "                      [--format bellman|snarkjs] [--json]\n"
                "waits for the job; prints it as JSON; exit 0 when it is done, 1 when it failed\n"
                "or was cancelled, 5 when S seconds passed first\n"
                "\n"
                "  --proof-out FILE   the proof: partitions x 192 bytes (bellman; BN254: 256),\n"
                "                     or snarkjs's proof.json (\"curve\" the circuit's)\n"
                "  --public-out FILE  the public signals as snarkjs's public.json\n"
                "  --format F         bellman (the default) or snarkjs (the default with\n"
                "                     --public-out); in snarkjs, a job of several partitions\n"
                "                     gives FILE-0.json, FILE-1.json, ... for each FILE\n");
            return CLI_EXIT_OK;
        case OPT_JSON:
            full = true;
            break;
        case OPT_PROOF_OUT:
        case OPT_PUBLIC_OUT:
        case OPT_FORMAT:
            result_option(&result, code, v);
            break;
        case OPT_TIMEOUT:
            if (!parse_seconds("--timeout", v, &timeout))
                return CLI_EXIT_USAGE;
            break;
        case CLI_ARG:
            if (id_text) {
                cli_error("await: unexpected '%s' (cuzk await --help)", v);
                return CLI_EXIT_USAGE;
            }
            id_text = v;
            break;
        default:
            return CLI_EXIT_USAGE;
        }
    }
    char id[40];
    if (!id_text) {
        cli_error("await: which job? (cuzk await JOB)");
        return CLI_EXIT_USAGE;
    }
    if (!parse_job_id(id_text, id, sizeof(id)) || !result_out_check(&result, "await"))
        return CLI_EXIT_USAGE;
    int rc = client_open(c, cl.token_file);
    return rc == CLI_EXIT_OK ? await_job(c, id, timeout, &result, full) : rc;
}

static int cmd_status(client *c, int argc, char **argv)
{
    const char *args[1], *token_file;
    int n;
    int rc = arguments_only(c, "status", argc, argv,
                            "usage: cuzk status [JOB]\nthe server's devices, queues, circuits and "
                            "memory as JSON; with a job id, that job (without its proof)\n",
                            args, 1, &n, &token_file);
    if (rc != CLI_EXIT_OK)
        return rc;
    char id[40], path[96] = "/v1/status";
    if (n > 1) {
        cli_error("status: give at most one job id");
        return CLI_EXIT_USAGE;
    }
    if (n == 1) {
        if (!parse_job_id(args[0], id, sizeof(id)))
            return CLI_EXIT_USAGE;
        snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    }
    if ((rc = client_open(c, token_file)) != CLI_EXIT_OK)
        return rc;
    json_t *o = request_json(c, "GET", path, NULL, &rc);
    if (o && n == 1)
        json_object_del(o, "proof");
    if (o)
        print_json(o, true);
    json_decref(o);
    return rc;
}

static int cmd_cancel(client *c, int argc, char **argv)
{
    const char *args[1], *token_file;
    int n;
    int rc = arguments_only(c, "cancel", argc, argv,
                            "usage: cuzk cancel JOB\ncancels the job; prints it as JSON\n", args, 1,
                            &n, &token_file);
    if (rc != CLI_EXIT_OK)
        return rc;
    char id[40], path[96];
    if (n != 1) {
        cli_error("cancel: give one job id");
        return CLI_EXIT_USAGE;
    }
    if (!parse_job_id(args[0], id, sizeof(id)))
        return CLI_EXIT_USAGE;
    if ((rc = client_open(c, token_file)) != CLI_EXIT_OK)
        return rc;
    snprintf(path, sizeof(path), "/v1/jobs/%s/cancel", id);
    json_t *o = request_json(c, "POST", path, NULL, &rc);
    if (o) {
        json_object_del(o, "proof");
        print_json(o, false);
    }
    json_decref(o);
    return rc;
}

static void print_jobs_table(json_t *o)
{
    size_t i;
    json_t *j;
    printf("%-32s %-20s %-9s %-13s %9s %9s  %s\n", "id", "circuit", "priority", "state", "done",
           "elapsed", "message");
    json_array_foreach(json_object_get(o, "jobs"), i, j)
    {
        char done[32];
        snprintf(done, sizeof(done), "%lld/%lld",
                 (long long)json_integer_value(json_object_get(j, "partitions_done")),
                 (long long)json_integer_value(json_object_get(j, "partitions")));
        printf("%-32s %-20s %-9s %-13s %9s %8.2fs  %s\n",
               json_string_value(json_object_get(j, "id")),
               json_string_value(json_object_get(j, "circuit")),
               json_string_value(json_object_get(j, "priority")),
               json_string_value(json_object_get(j, "state")), done,
               json_real_value(json_object_get(j, "elapsed_s")),
               json_string_value(json_object_get(j, "message")));
    }
}

static int cmd_jobs(client *c, int argc, char **argv)
{
    static const struct option table[] = {
        CONNECTION_OPTIONS,
        {"state", required_argument, NULL, OPT_STATE},
        {"circuit", required_argument, NULL, OPT_CIRCUIT},
        {"json", no_argument, NULL, OPT_JSON},
        {0},
    };
    const char *state = NULL, *circuit = NULL;
    bool json_out = false;
    command_line cl;
    command_line_start(&cl, c, "jobs", argc, argv, table);
    for (int code; (code = command_line_next(&cl)) != CLI_ARGS_END;) {
        switch (code) {
        case 'h':
            command_help("usage: cuzk jobs [--state STATE] [--circuit NAME] [--json]\n"
                         "the server's jobs, one line each (or JSON)\n");
            return CLI_EXIT_OK;
        case OPT_JSON:
            json_out = true;
            break;
        case OPT_STATE:
            state = cl.args.value;
            break;
        case OPT_CIRCUIT:
            circuit = cl.args.value;
            break;
        case CLI_ARG:
            cli_error("jobs: unexpected '%s'", cl.args.value);
            return CLI_EXIT_USAGE;
        default:
            return CLI_EXIT_USAGE;
        }
    }
    int rc = client_open(c, cl.token_file);
    if (rc != CLI_EXIT_OK)
        return rc;
    char path[512] = "/v1/jobs";
    char *es = state ? curl_easy_escape(c->curl, state, 0) : NULL;
    char *ec = circuit ? curl_easy_escape(c->curl, circuit, 0) : NULL;
    if (es || ec)
        snprintf(path, sizeof(path), "/v1/jobs?%s%s%s%s%s", es ? "state=" : "", es ? es : "",
                 es && ec ? "&" : "", ec ? "circuit=" : "", ec ? ec : "");
    curl_free(es);
    curl_free(ec);
    json_t *o = request_json(c, "GET", path, NULL, &rc);
    if (o && json_out)
        print_json(o, false);
    else if (o)
        print_jobs_table(o);
    json_decref(o);
    return rc;
}

static int cmd_circuit(client *c, int argc, char **argv)
{
    const char *args[2], *token_file;
    int n;
    int rc = arguments_only(c, "circuit", argc, argv,
                            "usage: cuzk circuit list | show NAME | preload NAME | evict NAME\n"
                            "(register one with: cuzk api POST /v1/circuits --data '{...}')\n",
                            args, 2, &n, &token_file);
    if (rc != CLI_EXIT_OK)
        return rc;
    const char *what = n ? args[0] : NULL;
    bool needs_name = what && strcmp(what, "list") != 0;
    if (!what ||
        (strcmp(what, "list") && strcmp(what, "show") && strcmp(what, "preload") &&
         strcmp(what, "evict")) ||
        n != (needs_name ? 2 : 1)) {
        cli_error("circuit: list, show NAME, preload NAME or evict NAME");
        return CLI_EXIT_USAGE;
    }
    if ((rc = client_open(c, token_file)) != CLI_EXIT_OK)
        return rc;
    char path[512];
    char *name = needs_name ? curl_easy_escape(c->curl, args[1], 0) : NULL;
    if (!needs_name)
        snprintf(path, sizeof(path), "/v1/circuits");
    else if (!strcmp(what, "show"))
        snprintf(path, sizeof(path), "/v1/circuits/%s", name ? name : "");
    else
        snprintf(path, sizeof(path), "/v1/circuits/%s/%s", name ? name : "", what);
    curl_free(name);
    bool post = needs_name && strcmp(what, "show");
    json_t *o = request_json(c, post ? "POST" : "GET", path, NULL, &rc);
    if (o)
        print_json(o, !needs_name);
    json_decref(o);
    return rc;
}

/* One raw request and its answer on stdout. */
static int api_request(client *c, const char *method, const char *path, const char *data,
                       const char *data_file, const char *ctype, const char *header)
{
    reply r;
    strbuf body;
    strbuf_init(&body);
    int rc = CLI_EXIT_OK;
    bool stream = data_file && !strcmp(data_file, "-");
    if (data_file && !stream)
        rc = read_file(data_file, &body);
    else if (data)
        strbuf_puts(&body, data);
    bool has_body = data || (data_file && !stream);
    if (!ctype && (has_body || stream))
        ctype = "application/json";
    if (rc == CLI_EXIT_OK)
        rc = request(c, method, path, ctype, has_body ? (body.data ? body.data : "") : NULL,
                     body.len, stream ? stdin : NULL, header, &r);
    strbuf_free(&body);
    if (rc != CLI_EXIT_OK)
        return rc;
    fwrite(body_text(&r), 1, r.body.len, stdout);
    if (r.body.len && body_text(&r)[r.body.len - 1] != '\n')
        putchar('\n');
    if (!ok_status(&r)) {
        fprintf(stderr, "cuzk: HTTP %ld\n", r.status);
        rc = CLI_EXIT_FAILURE;
    }
    strbuf_free(&r.body);
    return rc;
}

static int cmd_api(client *c, int argc, char **argv)
{
    static const struct option table[] = {
        CONNECTION_OPTIONS,
        {"data", required_argument, NULL, OPT_DATA},
        {"data-file", required_argument, NULL, OPT_DATA_FILE},
        {"content-type", required_argument, NULL, OPT_CONTENT_TYPE},
        {"header", required_argument, NULL, OPT_HEADER},
        {0},
    };
    const char *method = NULL, *path = NULL, *data = NULL, *data_file = NULL, *header = NULL;
    const char *ctype = NULL;
    command_line cl;
    command_line_start(&cl, c, "api", argc, argv, table);
    for (int code; (code = command_line_next(&cl)) != CLI_ARGS_END;) {
        const char *v = cl.args.value;
        switch (code) {
        case 'h':
            command_help(
                "usage: cuzk api METHOD PATH [--data TEXT | --data-file FILE|-] [--content-type "
                "T]\n"
                "                [--header 'Name: value']\n"
                "one raw request; the answer's body on stdout, the status on stderr when it is\n"
                "not 2xx (exit 1). --data-file - streams stdin as the body (chunked).\n");
            return CLI_EXIT_OK;
        case OPT_DATA:
            data = v;
            break;
        case OPT_DATA_FILE:
            data_file = v;
            break;
        case OPT_CONTENT_TYPE:
            ctype = v;
            break;
        case OPT_HEADER:
            header = v;
            break;
        case CLI_ARG:
            if (!method) {
                method = v;
            } else if (!path) {
                path = v;
            } else {
                cli_error("api: unexpected '%s'", v);
                return CLI_EXIT_USAGE;
            }
            break;
        default:
            return CLI_EXIT_USAGE;
        }
    }
    if (!method || !path || path[0] != '/') {
        cli_error("api: give METHOD and PATH (e.g. cuzk api GET /v1/status)");
        return CLI_EXIT_USAGE;
    }
    int rc = client_open(c, cl.token_file);
    return rc == CLI_EXIT_OK ? api_request(c, method, path, data, data_file, ctype, header) : rc;
}

int cli_client(const char *command, int argc, char **argv)
{
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
        cli_error("cannot start libcurl");
        return CLI_EXIT_FAILURE;
    }
    client c;
    memset(&c, 0, sizeof(c));
    int rc;
    if (!strcmp(command, "submit"))
        rc = cmd_submit(&c, argc, argv);
    else if (!strcmp(command, "await"))
        rc = cmd_await(&c, argc, argv);
    else if (!strcmp(command, "status"))
        rc = cmd_status(&c, argc, argv);
    else if (!strcmp(command, "cancel"))
        rc = cmd_cancel(&c, argc, argv);
    else if (!strcmp(command, "jobs"))
        rc = cmd_jobs(&c, argc, argv);
    else if (!strcmp(command, "circuit"))
        rc = cmd_circuit(&c, argc, argv);
    else
        rc = cmd_api(&c, argc, argv);
    if (c.curl)
        curl_easy_cleanup(c.curl);
    cuzk_wipe(c.auth, sizeof(c.auth));
    curl_global_cleanup();
    return rc < 0 ? CLI_EXIT_OK : rc;
}
