/* How much of ranges of our own process's memory can be read: the host asks before it reads the blocks a libretro
 * core pointed it to, since a core may report a size larger than what it allocated (stable-retro's build of mGBA
 * gives 256 KiB of system RAM for Game Boy games whose work RAM is a 32 KiB mapping: reading it faulted whenever
 * the pages after it were not mapped). Linux: the readable mappings of /proc/self/maps, read once for all the
 * ranges; elsewhere, or when that file cannot be read, the ranges are taken as they are. */
#define _GNU_SOURCE
#include "base.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void rg__readable_clip(const void *const *ptr, size_t *len, size_t n)
{
#if defined(__linux__)
    enum { MAX = 64 };
    for (size_t first = 0; first < n; first += MAX) { /* at most MAX ranges a pass over the file */
        size_t k = n - first < MAX ? n - first : MAX;
        uintptr_t at[MAX], end[MAX];
        unsigned char open[MAX]; /* the range's readable run may still grow */
        size_t left = 0;
        for (size_t i = 0; i < k; i++) {
            at[i] = (uintptr_t)ptr[first + i];
            end[i] = at[i] + len[first + i] < at[i] ? UINTPTR_MAX : at[i] + len[first + i];
            open[i] = ptr[first + i] && len[first + i];
            left += open[i];
            if (!ptr[first + i])
                len[first + i] = 0;
        }
        if (!left)
            continue;
        FILE *f = fopen("/proc/self/maps", "re");
        if (!f)
            return;
        char line[512];
        int seen = 0; /* whether a line was parsed at all (else: trust the ranges) */
        while (left && fgets(line, sizeof line, f)) {
            unsigned long lo, hi;
            char perms[5];
            int got = sscanf(line, "%lx-%lx %4s", &lo, &hi, perms);
            size_t l = strlen(line);
            while (l > 0 && line[l - 1] != '\n' && fgets(line, sizeof line, f)) /* the rest of a long line */
                l = strlen(line);
            if (got != 3)
                continue;
            seen = 1;
            /* mappings come in ascending order: one that continues a range's run extends it; a gap before the run's
             * end, or an unreadable mapping there, ends it */
            for (size_t i = 0; i < k; i++) {
                if (!open[i] || hi <= at[i])
                    continue;
                if (lo > at[i] || perms[0] != 'r')
                    open[i] = 0;
                else if ((at[i] = hi) >= end[i])
                    open[i] = 0;
                left -= !open[i];
            }
        }
        fclose(f);
        if (!seen)
            return;
        for (size_t i = 0; i < k; i++)
            if (ptr[first + i] && at[i] < end[i])
                len[first + i] = (size_t)(at[i] - (uintptr_t)ptr[first + i]);
    }
#else
    for (size_t i = 0; i < n; i++)
        if (!ptr[i])
            len[i] = 0;
#endif
}

size_t rg__readable_prefix(const void *ptr, size_t len)
{
    rg__readable_clip(&ptr, &len, 1);
    return len;
}
