/* Small helpers shared by the C benchmarks. */
#ifndef RG_BENCH_UTIL_H
#define RG_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "retrogym/retrogym.h"

/* Seconds on the given clock (CLOCK_MONOTONIC: elapsed; CLOCK_THREAD_CPUTIME_ID: this thread's CPU time). */
static inline double bench_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A log callback that drops everything (cores' chatter would disturb the timing output). */
static inline void bench_quiet(rg_log_level l, const char *m, void *u)
{
    (void)l, (void)m, (void)u;
}

/* qsort comparison of doubles, for medians. */
static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* FNV-1a of n bytes, continuing from h (start with BENCH_FNV0). */
#define BENCH_FNV0 14695981039346656037u
static inline uint64_t bench_fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return h;
}

/* Opens the emulator a --compare pass runs on: 0, or 1 after printing why. */
typedef int (*bench_open_fn)(rg_emu **emu, void *ctx);

/* The --compare mode of the core benchmarks (bench_nes, bench_sms, bench_genesis): `frames` frames twice, every
 * frame drawn ("all") and then one in four ("fs4", the others run with video off), each pass on an emulator opened by
 * open(), with input(frame) on pad 1. One line per frame: the pass, the frame, FNV-1a hashes of the RAM and of the
 * RGB24 picture (0 when not drawn) and, when `states`, of the whole save state. Two builds whose outputs are equal
 * behave the same. Returns 0, or 1 after printing why. */
static inline int bench_compare(bench_open_fn open, void *ctx, int frames, uint16_t (*input)(unsigned), int states)
{
    enum { RGB_CAP = 320 * 240 * 3 };
    uint8_t *rgb = malloc(RGB_CAP);
    if (!rgb)
        return fprintf(stderr, "out of memory\n"), 1;
    for (int pass = 0; pass < 2; pass++) {
        rg_emu *emu;
        if (open(&emu, ctx) != 0)
            return free(rgb), 1;
        size_t rs = rg_emu_ram_size(emu), ss = 0;
        if (!states || rg_emu_state_size(emu, &ss) != RG_OK)
            ss = 0;
        uint8_t *ram = malloc(rs ? rs : 1), *st = malloc(ss ? ss : 1);
        for (int f = 0; f < frames && ram && st; f++) {
            int observed = pass == 0 || (f & 3) == 3;
            rg_emu_set_buttons(emu, 0, input((unsigned)f));
            rg_emu_set_av_enable(emu, observed, 0);
            rg_emu_run(emu);
            rg_emu_ram_copy(emu, ram, rs);
            uint64_t hp = 0, hs = 0;
            size_t got = 0;
            if (observed) {
                memset(rgb, 0, RGB_CAP);
                rg_emu_frame_rgb24(emu, rgb, RGB_CAP);
                hp = bench_fnv(BENCH_FNV0, rgb, RGB_CAP);
            }
            printf("%s %d %016llx %016llx", pass ? "fs4" : "all", f,
                   (unsigned long long)bench_fnv(BENCH_FNV0, ram, rs), (unsigned long long)hp);
            if (ss && rg_emu_state_save(emu, st, ss, &got) == RG_OK)
                hs = bench_fnv(BENCH_FNV0, st, got);
            if (states)
                printf(" %016llx", (unsigned long long)hs);
            printf("\n");
        }
        int oom = !ram || !st;
        free(ram);
        free(st);
        rg_emu_free(emu);
        if (oom)
            return free(rgb), fprintf(stderr, "out of memory\n"), 1;
    }
    free(rgb);
    return 0;
}

#endif
