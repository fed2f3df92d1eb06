/* Growing arrays and lists of messages, shared by every layer. */
#include "base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rg__reserve(void *items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return RG_OK;
    size_t n = *cap ? *cap : 8;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem)
            return rg__error(RG_ENOMEM, "out of memory");
        n *= 2;
    }
    void *p = realloc(*(void **)items, n * elem);
    if (!p)
        return rg__error(RG_ENOMEM, "out of memory");
    *(void **)items = p;
    *cap = n;
    return RG_OK;
}

int rg__messages_addv(rg__messages *m, const char *fmt, va_list ap)
{
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    int rc = rg__reserve(&m->items, &m->cap, m->count + 1, sizeof *m->items);
    if (rc != RG_OK)
        return rc;
    if (!(m->items[m->count] = rg__strdup(buf, &rc)))
        return rc;
    m->count++;
    return RG_OK;
}

int rg__messages_add(rg__messages *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = rg__messages_addv(m, fmt, ap);
    va_end(ap);
    return rc;
}

void rg__messages_clear(rg__messages *m)
{
    for (size_t i = 0; i < m->count; i++)
        free(m->items[i]);
    free(m->items);
    memset(m, 0, sizeof *m);
}
