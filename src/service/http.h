#ifndef CUZK_SERVICE_HTTP_H
#define CUZK_SERVICE_HTTP_H

/* The transport of `cuzk serve`: libmicrohttpd daemons (one per listening
 * socket, a thread per connection so a long poll blocks only its own
 * connection), request limits, authentication of TCP requests, and the
 * hand-over of each whole request to routes.c.
 *
 * A request reaches the routes only when it is complete, within its size
 * limit and, on TCP, authenticated; everything else is answered here. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

struct MHD_Connection;
struct service;

typedef struct http_request {
    const char *method;
    const char *path; /* without the query */
    const char *content_type;
    const char *idempotency_key; /* the Idempotency-Key header, or NULL */
    const uint8_t *body;
    size_t body_len;
    struct MHD_Connection *conn; /* query arguments: http_query() */
    /* Without a connection (the route fuzzer), the query arguments as
     * key, value, key, value, ..., NULL (may be NULL: none). */
    const char *const *args;
    bool tcp; /* it came over TCP (not the Unix socket) */
} http_request;

typedef struct http_response {
    unsigned status;
    char *body; /* malloc'd, owned */
    size_t len;
    const char *content_type; /* static */
    char location[96];        /* Location header when set */
    unsigned retry_after_s;   /* Retry-After header when set (a bound is reached) */
} http_response;

/* A query argument, or NULL. */
const char *http_query(const http_request *rq, const char *key);
/* The first query argument not in allowed (NULL-terminated), or NULL. */
const char *http_query_unknown(const http_request *rq, const char *const *allowed);

/* A JSON error response: {"error": message, "field": field} (field may be
 * NULL). */
void http_error(http_response *rs, unsigned status, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

typedef struct http_server http_server;

typedef struct http_listener {
    int fd;            /* a listening socket (owned by the server from now on) */
    bool tcp;          /* requests must carry the bearer token */
    const char *label; /* for the log: "unix:/path", "tcp:127.0.0.1:8080" */
} http_listener;

typedef struct http_limits {
    unsigned max_connections;
    uint64_t max_header_bytes;
    uint64_t max_json_bytes; /* any body that is not application/octet-stream */
    uint64_t max_body_bytes; /* application/octet-stream (a streamed witness) */
    unsigned idle_timeout_s;
    /* Against clients that hold connections without sending a request
     * (slowloris): a connection's first request must have its headers in
     * within header_timeout_s of the connect (0: no deadline), or it is
     * closed; on TCP, one address holds at most max_per_address
     * connections (0: any), and connections not yet authenticated at most
     * max_unauthenticated (0: half of max_connections), so the rest stay
     * for clients that have shown their token. */
    double header_timeout_s;
    unsigned max_per_address;
    unsigned max_unauthenticated;
} http_limits;

/* The routes' entry point, for every complete request. */
typedef void (*http_handler)(struct service *svc, const http_request *rq, http_response *rs);

/* Starts one daemon per listener. token (may be NULL: TCP without one) is
 * copied. */
cuzk_status http_server_start(http_server **out, const http_listener *listeners, size_t n,
                              const http_limits *limits, const char *token, http_handler handler,
                              struct service *svc, char *msg, size_t msg_len);
/* Waits up to max_s seconds for the requests in progress to be answered
 * (at shutdown: the long polls the engine's shutdown just ended). */
void http_server_drain(http_server *s, double max_s);
/* Stops the daemons (closing their sockets) and frees the server. */
void http_server_stop(http_server *s);

#endif
