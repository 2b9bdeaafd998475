/* _DEFAULT_SOURCE: glibc declares explicit_bzero in <string.h> only then. */
#define _DEFAULT_SOURCE
#include "util/wipe.h"

#include <stdint.h>
#include <string.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 25))
#define CUZK_HAVE_EXPLICIT_BZERO 1
#endif

void cuzk_wipe(void *p, size_t n)
{
#ifdef CUZK_HAVE_EXPLICIT_BZERO
    /* The C library promises these stores survive optimization. */
    explicit_bzero(p, n);
#else
    /* Stores through a volatile pointer are observable behaviour, so the
     * compiler must emit every one of them. */
    volatile uint8_t *v = p;
    while (n--)
        *v++ = 0;
#endif
}
