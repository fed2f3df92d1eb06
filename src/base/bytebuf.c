/* Flat byte streams for snapshots: a writer that only counts when it has no buffer, and a bounds-checked reader. */
#include "base.h"

#include <string.h>

void rg__w_bytes(rg__wbuf *w, const void *src, size_t n)
{
    if (w->p && !w->overflow) {
        if (n > w->cap - w->len)
            w->overflow = 1;
        else
            memcpy(w->p + w->len, src, n);
    }
    w->len += n;
}

void rg__w_u64(rg__wbuf *w, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    rg__w_bytes(w, b, 8);
}

void rg__w_str(rg__wbuf *w, const char *s)
{
    size_t n = strlen(s);
    rg__w_u64(w, n);
    rg__w_bytes(w, s, n);
}

const void *rg__r_bytes(rg__rbuf *r, size_t n)
{
    if (r->bad || n > r->len - r->pos) {
        r->bad = 1;
        return NULL;
    }
    const void *p = r->p + r->pos;
    r->pos += n;
    return p;
}

uint64_t rg__r_u64(rg__rbuf *r)
{
    const uint8_t *b = rg__r_bytes(r, 8);
    uint64_t v = 0;
    for (int i = 0; b && i < 8; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

/* A string of at most cap-1 bytes into buf (NUL-terminated); longer ones mark the stream bad. */
int rg__r_str(rg__rbuf *r, char *buf, size_t cap)
{
    uint64_t n = rg__r_u64(r);
    if (r->bad || n >= cap) {
        r->bad = 1;
        return -1;
    }
    const void *p = rg__r_bytes(r, (size_t)n);
    if (!p)
        return -1;
    memcpy(buf, p, (size_t)n);
    buf[n] = '\0';
    return 0;
}
