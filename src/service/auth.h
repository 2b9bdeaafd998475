#ifndef CUZK_SERVICE_AUTH_H
#define CUZK_SERVICE_AUTH_H

/* Bearer tokens of TCP requests. */

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/status.h"

/* The token: the file's first line without surrounding white space; at
 * least 16 characters. The file must not be readable by other users. */
cuzk_status auth_load_token(char *out, size_t cap, const char *path, char *msg, size_t msg_len);

/* Whether an Authorization header value is "Bearer <token>". The time it
 * takes does not depend on where the two tokens differ. */
bool auth_check_bearer(const char *header, const char *token);

/* a == b in time that depends on the lengths only. */
bool auth_equal(const char *a, size_t a_len, const char *b, size_t b_len);

#endif
