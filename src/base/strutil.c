#include "base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *rg__strdup(const char *s, int *rc)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (!p) {
        *rc = rg__error(RG_ENOMEM, "out of memory");
        return NULL;
    }
    memcpy(p, s, n);
    return p;
}

char *rg__asprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *p = malloc((size_t)n + 1);
    if (!p)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}
