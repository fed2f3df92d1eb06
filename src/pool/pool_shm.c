/* Memory for the pool's buffers: the heap, or (process isolation) anonymous shared mappings that forked workers keep
 * sharing with the calling process. */
#define _DEFAULT_SOURCE
#include "pool_internal.h"

#include <stdlib.h>
#include <sys/mman.h>

/* A shared block starts with its mapping's length; the caller's memory follows, 64-byte aligned. */
#define RG__SHM_HEADER 64

void *rg__pool_calloc(size_t n, size_t size, int shared)
{
    if (!shared)
        return calloc(n ? n : 1, size ? size : 1);
    if (size && n > (SIZE_MAX - RG__SHM_HEADER) / size)
        return NULL;
    size_t bytes = n * size;
    size_t len = RG__SHM_HEADER + (bytes ? bytes : 1);
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL; /* a new mapping is zeroed */
    *(size_t *)m = len;
    return (uint8_t *)m + RG__SHM_HEADER;
}

void rg__pool_free_mem(void *ptr, int shared)
{
    if (!shared) {
        free(ptr);
        return;
    }
    if (!ptr)
        return;
    uint8_t *m = (uint8_t *)ptr - RG__SHM_HEADER;
    munmap(m, *(size_t *)m);
}
