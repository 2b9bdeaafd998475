#ifndef CUZK_CONFIG_CONFIG_H
#define CUZK_CONFIG_CONFIG_H

/* The configuration of `cuzk serve`: an INI file (docs/CONFIG.md has the
 * format and every key with its default), then command-line settings on
 * top. Sections:
 *
 *   [engine]          the engine's knobs (engine_config)
 *   [server]          sockets, token, request limits, shutdown, log
 *   [circuit NAME]    one registered circuit each
 *
 * Errors name where the value came from (the file and line, or the
 * command line), the key and the problem. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

typedef struct config_circuit {
    char name[64];
    circuit_kind kind;
    bool kind_set;
    unsigned log_constraints; /* builtin: 2^k constraints */
    unsigned arity;           /* builtin: Merkle arity, 2 or 8 */
    char *params_path;        /* builtin: bellman parameters, or "dev:SEED" (circuit.h) */
    char *zkey_path;          /* zkey */
    formats_check check;
    bool preload;
    char origin[160]; /* "file:line" of its section, for errors */
} config_circuit;

typedef struct server_config {
    char *socket_path;      /* Unix socket; default config_default_socket() */
    unsigned socket_mode;   /* permission bits of the socket file; 0600 */
    char *tcp_address;      /* host:port; NULL = no TCP */
    char *token_file;       /* bearer token for TCP (first line of the file) */
    bool insecure_no_token; /* TCP without a token (trusted networks only) */
    unsigned max_connections;
    uint64_t max_header_bytes; /* request line and headers */
    uint64_t max_json_bytes;   /* a JSON request body */
    uint64_t max_body_bytes;   /* a witness streamed in the body */
    double max_wait_s;         /* cap of one await (long poll) */
    double idle_timeout_s;     /* a connection silent this long is closed */
    double shutdown_grace_s;   /* on SIGINT/SIGTERM, time unfinished jobs get before cancel */
    char *log_path;            /* server log; NULL = stderr */
    char *witness_dir;         /* the folder witness_paths must resolve into; NULL = none:
                                  any readable path over the Unix socket, none over TCP */
    /* With server.store: a folder every host mounts at the same path, where
     * streamed witnesses larger than witness_inline_max bytes are kept
     * instead of in the database; NULL = none (every one inline) */
    char *witness_spill_dir;
    uint64_t witness_inline_max;
    /* Submissions may fix r and s, for tests that compare proofs bit for
     * bit; such proofs reveal the witness to whoever knows r and s. */
    bool insecure_fixed_blinding;
    char *circuit_dir;       /* the folder circuit files registered over the API must lie in;
                                NULL = none: any over the Unix socket, none over TCP */
    double header_timeout_s; /* a TCP request's headers must be in by then */
    unsigned max_connections_per_address; /* TCP connections of one client address; 0 = any */
    unsigned max_unauthenticated;         /* TCP connections not yet authenticated; 0 = half */
    unsigned max_queued_jobs;             /* unfinished jobs at once; 0 = no bound */
    unsigned max_queued_partitions;       /* their partitions; 0 = no bound */
    uint64_t max_queued_bytes;            /* the memory they hold; 0 = no bound */
    char *state_dir;                      /* the job store's folder; NULL = store_default_dir() */
    char *store; /* a postgresql:// URL: the job store there; NULL = SQLite in state_dir */
    double keep_finished_s; /* finished jobs are kept this long at most; 0 = no age limit */
    /* Several hosts on a PostgreSQL store (docs/CLUSTER.md): */
    char *cluster_host;          /* this host's name in the store; NULL = hostname/pid */
    double cluster_lease_s;      /* a claimed partition's lease, renewed by the heartbeat */
    unsigned cluster_retries;    /* a partition's failures (on any host) that fail its job */
    unsigned cluster_max_queued; /* partitions the shared queue holds at most; 0: no bound */
} server_config;

typedef struct cuzk_config {
    engine_config engine; /* engine.event_log points into event_log */
    char *event_log;
    server_config server;
    config_circuit *circuits;
    size_t num_circuits;
} cuzk_config;

/* Defaults: engine_config_default() and the server defaults. */
void cuzk_config_init(cuzk_config *c);
void cuzk_config_free(cuzk_config *c);

/* Reads an INI file over c. CUZK_ERR_IO when it cannot be read,
 * CUZK_ERR_INVALID_ARGUMENT with "path:line: ..." on a bad line, key or
 * value. */
cuzk_status cuzk_config_load(cuzk_config *c, const char *path, char *msg, size_t msg_len);

/* The same from a string (tests); name stands for the file in messages. */
cuzk_status cuzk_config_load_string(cuzk_config *c, const char *text, const char *name, char *msg,
                                    size_t msg_len);

/* One setting "section.key=value" (a circuit's section is "circuit NAME",
 * e.g. "circuit porep.params=/x"); origin names it in errors. */
cuzk_status cuzk_config_set(cuzk_config *c, const char *assignment, const char *origin, char *msg,
                            size_t msg_len);

/* Checks what needs the whole picture: every circuit has its kind and
 * files, TCP has a token or the explicit opt-out. */
cuzk_status cuzk_config_check(const cuzk_config *c, char *msg, size_t msg_len);

/* The spec of a configured circuit for engine_register (pointers into cc). */
cuzk_status config_circuit_spec(const config_circuit *cc, circuit_spec *spec, char *msg,
                                size_t msg_len);

/* The default socket: $XDG_RUNTIME_DIR/cuzk.sock, else
 * ${TMPDIR:-/tmp}/cuzk-<uid>/cuzk.sock (a private folder the server makes). */
void config_default_socket(char *out, size_t cap);

/* A circuit's name: 1 to 63 letters, digits, '-', '_' or '.'. */
bool config_valid_circuit_name(const char *name);

/* The keys, for tests that hold the docs to the code: the i-th key's
 * section ("engine", "server", "circuit") and name; false past the last. */
bool config_key_at(size_t i, const char **section, const char **key);

#endif
