/* How much of a range of our own process's memory can be read: the host asks before it reads a block a libretro
 * core pointed it to, since a core may report a size larger than what it allocated (stable-retro's build of mGBA
 * gives 256 KiB of system RAM for Game Boy games whose work RAM is a 32 KiB mapping: reading it faulted whenever
 * the pages after it were not mapped). Linux: the readable mappings of /proc/self/maps; elsewhere, or when that
 * file cannot be read, the range is taken as it is. */
#define _GNU_SOURCE
#include "base.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

size_t rg__readable_prefix(const void *ptr, size_t len)
{
#if defined(__linux__)
    if (!ptr || !len)
        return 0;
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return len;
    uintptr_t at = (uintptr_t)ptr, end = at + len < at ? UINTPTR_MAX : at + len;
    char line[512];
    int seen = 0; /* whether a line was parsed at all (else: trust the range) */
    while (at < end && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[5];
        int n = sscanf(line, "%lx-%lx %4s", &lo, &hi, perms);
        size_t l = strlen(line);
        while (l > 0 && line[l - 1] != '\n' && fgets(line, sizeof line, f)) /* the rest of a long line (a path) */
            l = strlen(line);
        if (n != 3)
            continue;
        seen = 1;
        if (hi <= at)
            continue;
        if (lo > at || perms[0] != 'r')
            break; /* a gap or an unreadable mapping: the readable run ends at `at` */
        at = hi; /* mappings are listed in ascending order: the next one may continue the run */
    }
    fclose(f);
    if (!seen)
        return len;
    return at >= end ? len : (size_t)(at - (uintptr_t)ptr);
#else
    (void)ptr;
    return len;
#endif
}
