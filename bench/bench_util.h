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

/* The timing options of the core benchmarks, from argv[*first] on: --rounds N, --frames N, --wall (elapsed time on
 * *clock instead of CPU time). strict (bench_nes, bench_a26): every argument that starts with "--" is one of them,
 * and a missing value or an unknown option is an error (message, 2); otherwise (bench_sms, bench_genesis) the first
 * argument that is not one of them, or lacks its value, starts the ROMs. *first is left at the first ROM; 0. */
static inline int bench_options(int argc, char **argv, int *first, int *rounds, int *frames, clockid_t *clock,
                                int strict)
{
    int i = *first;
    for (; i < argc && (!strict || strncmp(argv[i], "--", 2) == 0); i++) {
        int has_value = i + 1 < argc;
        if (strcmp(argv[i], "--wall") == 0)
            *clock = CLOCK_MONOTONIC;
        else if (strict && !has_value)
            return fprintf(stderr, "%s needs a value\n", argv[i]), 2;
        else if (has_value && strcmp(argv[i], "--rounds") == 0)
            *rounds = atoi(argv[++i]);
        else if (has_value && strcmp(argv[i], "--frames") == 0)
            *frames = atoi(argv[++i]);
        else if (strict)
            return fprintf(stderr, "unknown option %s\n", argv[i]), 2;
        else
            break;
    }
    *first = i;
    return 0;
}

/* The index of the mode called `name` among the n names, or -1. */
static inline int bench_mode_of(const char *name, const char *const *names, int n)
{
    for (int m = 0; m < n; m++)
        if (strcmp(name, names[m]) == 0)
            return m;
    return -1;
}

/* One timed block of a core benchmark: `frames` frames with input(*tick) on pad 1 (*tick counting on); with fs4,
 * video on for every fourth frame only; with rgb, each drawn frame converted to RGB24 into it (cap bytes); video
 * switched back on at the end when av_after. Frames/s, timed on clock. */
static inline double bench_block(rg_emu *emu, int frames, unsigned *tick, uint16_t (*input)(unsigned), int fs4,
                                 uint8_t *rgb, size_t cap, int av_after, clockid_t clock)
{
    double t0 = bench_seconds(clock);
    for (int f = 0; f < frames; f++, (*tick)++) {
        rg_emu_set_buttons(emu, 0, input(*tick));
        int observed = !fs4 || (f & 3) == 3;
        if (fs4)
            rg_emu_set_av_enable(emu, observed, 0);
        rg_emu_run(emu);
        if (rgb && observed)
            rg_emu_frame_rgb24(emu, rgb, cap);
    }
    if (av_after)
        rg_emu_set_av_enable(emu, 1, 0);
    return frames / (bench_seconds(clock) - t0);
}

/* The two-core timing of bench_sms and bench_genesis on one ROM, as they print it: ours (cores[0]) and the reference
 * (cores[1]) opened on the system, each warmed up by `warm` frames of warm_input, every frame drawn; then, round
 * after round, a block of `frames` frames of input per mode (raw: every frame drawn; fs4) of each core in turn; the
 * median frames/s per core and mode with the spread (min-max), and ours over the reference. system_in_header: the
 * ROM's header line names the system. */
typedef struct bench_vs_spec {
    const char *system;
    const char *cores[2];
    uint16_t (*warm_input)(unsigned);
    int warm;
    uint16_t (*input)(unsigned);
    int system_in_header;
} bench_vs_spec;

static inline void bench_vs(const bench_vs_spec *s, const char *rom, int rounds, int frames, clockid_t clock)
{
    static const char *const modes[2] = {"raw", "fs4"};
    rg_emu *emu[2] = {NULL, NULL};
    unsigned tick[2] = {0, 0};
    for (int c = 0; c < 2; c++) {
        rg_emu_options o = RG_EMU_OPTIONS_INIT;
        o.log = bench_quiet;
        o.core = s->cores[c];
        o.system = s->system;
        if (rg_emu_open(&emu[c], rom, &o) != RG_OK) {
            printf("%s: %s: skipped (%s)\n", rom, s->cores[c], rg_error_last());
            for (int d = 0; d < c; d++)
                rg_emu_free(emu[d]);
            return;
        }
        rg_emu_set_av_enable(emu[c], 1, 0);
        bench_block(emu[c], s->warm, &tick[c], s->warm_input, 0, NULL, 0, 1, clock);
    }
    double *fps = calloc((size_t)2 * 2 * rounds, sizeof *fps);
    if (!fps)
        return;
    for (int r = 0; r < rounds; r++)
        for (int m = 0; m < 2; m++)
            for (int c = 0; c < 2; c++)
                fps[(c * 2 + m) * rounds + r] = bench_block(emu[c], frames, &tick[c], s->input, m, NULL, 0, 1, clock);
    printf("%s (", rom);
    if (s->system_in_header)
        printf("%s, ", s->system);
    printf("%d rounds of %d frames, %s time)\n", rounds, frames, clock == CLOCK_MONOTONIC ? "wall" : "CPU");
    for (int m = 0; m < 2; m++) {
        double med[2];
        for (int c = 0; c < 2; c++) {
            double *v = &fps[(c * 2 + m) * rounds];
            qsort(v, (size_t)rounds, sizeof *v, bench_cmp_double);
            med[c] = v[rounds / 2];
            printf("  %-4s %-16s %9.0f frames/s  [%.0f-%.0f]\n", modes[m], s->cores[c], med[c], v[0], v[rounds - 1]);
        }
        printf("  %-4s ours / %s: %.2fx\n", modes[m], s->cores[1], med[0] / med[1]);
    }
    free(fps);
    rg_emu_free(emu[0]);
    rg_emu_free(emu[1]);
}

#ifdef RG_SOURCE_DIR
#include <glob.h>
/* Points $RETROGYM_CORE_PATH at .venv's stable_retro/cores when it is not set (where the reference cores are). */
static inline void bench_default_core_path(void)
{
    if (getenv("RETROGYM_CORE_PATH"))
        return;
    glob_t g;
    if (glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/stable_retro/cores", 0, NULL, &g) == 0 && g.gl_pathc)
        setenv("RETROGYM_CORE_PATH", g.gl_pathv[0], 1);
    globfree(&g);
}

/* Runs bench(path, rounds, frames) on the first file that matches pattern (a ROM from a wheel in .venv); 0, or -1
 * when none matches, for the caller to say what it skipped. */
static inline int bench_on_match(const char *pattern, void (*bench)(const char *, int, int), int rounds, int frames)
{
    glob_t g;
    int found = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc;
    if (found)
        bench(g.gl_pathv[0], rounds, frames);
    globfree(&g);
    return found ? 0 : -1;
}

/* The timing command line of bench_sms and bench_genesis (`name`): the options read as bench_options reads them
 * (not strict) and checked (else the usage on stderr and 2), then the default core path set; 0. */
static inline int bench_vs_options(int argc, char **argv, int *first, int *rounds, int *frames, clockid_t *clock,
                                   const char *name)
{
    bench_options(argc, argv, first, rounds, frames, clock, 0);
    if (*rounds < 1 || *frames < 4)
        return fprintf(stderr, "usage: %s [--rounds N>=1] [--frames N>=4] [--wall] [ROM ...]\n", name), 2;
    bench_default_core_path();
    return 0;
}
#endif

/* Opens the emulator a --compare pass runs on: 0, or 1 after printing why. */
typedef int (*bench_open_fn)(rg_emu **emu, void *ctx);

/* A ROM on a core of a system, for bench_open_target. */
typedef struct bench_target {
    const char *rom, *core, *system;
} bench_target;

/* A bench_open_fn: opens the bench_target ctx (its core's log quiet). */
static inline int bench_open_target(rg_emu **emu, void *ctx)
{
    const bench_target *t = ctx;
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.log = bench_quiet;
    o.core = t->core;
    o.system = t->system;
    if (rg_emu_open(emu, t->rom, &o) != RG_OK)
        return fprintf(stderr, "%s: %s\n", t->rom, rg_error_last()), 1;
    return 0;
}

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
