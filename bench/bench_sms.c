/* Our SMS/GG core against Genesis Plus GX (`genesis_plus_gx`, stable-retro's wheel), both through our host, on the
 * same ROMs and the same seeded random input, in two settings:
 *   raw   every frame drawn (video on), nothing else
 *   fs4   frame skip 4: video off for 3 frames (rg_emu_set_av_enable), the 4th drawn; GPGX may ignore the switch,
 *         ours then skips drawing (sprite flags still computed)
 * The cores run in alternating blocks (each core, each mode, round after round) so that the machine's noise hits them
 * alike; frames/s is the median over rounds with the spread (min-max). Time is this thread's CPU time (--wall:
 * elapsed). Audio off. Frames/s of ours over GPGX's is printed per ROM and mode.
 *
 *   bench_sms [--rounds N] [--frames N] [--wall] [ROM ...]
 *   bench_sms --compare ROM FRAMES [CORE]
 *       our core (or CORE) alone, the same input stream: one line per frame, "mode frame ram-hash pixel-hash
 *       state-hash", every frame drawn (all), then one in four drawn (fs4: pixels of the drawn frames only); the
 *       state hash covers the whole save state (CPU registers, T-state count, VDP, PSG). Diff two builds' output to
 *       show that a change kept behaviour.
 * Default ROMs: ../shared/roms/blind-happy10.sms and benryves-SegaTween.gg (.gg runs as GameGear). GPGX is found
 * through $RETROGYM_CORE_PATH, else .venv's stable_retro/cores. */
#define _POSIX_C_SOURCE 200809L
#include "retrogym/retrogym.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bench_util.h"

static clockid_t clock_id = CLOCK_THREAD_CPUTIME_ID;

enum { RAW, FS4, MODES };
static const char *const mode_name[MODES] = {"raw", "fs4"};

/* a new joypad mask every 5 frames: B, A and the pad (libretro ids 0, 8, 4-7) */
static uint16_t input(unsigned i)
{
    uint32_t k = (i / 5u + 1u) * 2654435761u;
    k ^= k >> 15;
    k *= 2246822519u;
    k ^= k >> 13;
    return (uint16_t)(k & 0x1F1u);
}

static double block(rg_emu *emu, int mode, int frames, unsigned *tick)
{
    double t0 = bench_seconds(clock_id);
    for (int f = 0; f < frames; f++, (*tick)++) {
        rg_emu_set_buttons(emu, 0, input(*tick));
        if (mode == FS4)
            rg_emu_set_av_enable(emu, (f & 3) == 3, 0);
        rg_emu_run(emu);
    }
    rg_emu_set_av_enable(emu, 1, 0);
    return frames / (bench_seconds(clock_id) - t0);
}


/* --compare (see the top of the file). */
typedef struct {
    const char *rom, *core;
} compare_ctx;

static int compare_open(rg_emu **emu, void *ctx)
{
    const compare_ctx *c = ctx;
    const char *dot = strrchr(c->rom, '.');
    int gg = dot && strcasecmp(dot, ".gg") == 0;
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.log = bench_quiet;
    o.core = c->core ? c->core : gg ? "gamegear" : "sms";
    o.system = gg ? "GameGear" : "Sms";
    if (rg_emu_open(emu, c->rom, &o) != RG_OK)
        return fprintf(stderr, "%s: %s\n", c->rom, rg_error_last()), 1;
    return 0;
}

static int compare(const char *rom, int frames, const char *core)
{
    compare_ctx c = {rom, core};
    return bench_compare(compare_open, &c, frames, input, 1);
}

static void default_core_path(void)
{
    if (getenv("RETROGYM_CORE_PATH"))
        return;
    glob_t g;
    if (glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/stable_retro/cores", 0, NULL, &g) == 0 && g.gl_pathc)
        setenv("RETROGYM_CORE_PATH", g.gl_pathv[0], 1);
    globfree(&g);
}

static void bench_rom(const char *rom, int rounds, int frames)
{
    const char *dot = strrchr(rom, '.');
    int gg = dot && strcasecmp(dot, ".gg") == 0;
    const char *system = gg ? "GameGear" : "Sms";
    const char *cores[2] = {gg ? "gamegear" : "sms", "genesis_plus_gx"};
    rg_emu *emu[2] = {NULL, NULL};
    unsigned tick[2] = {0, 0};
    for (int c = 0; c < 2; c++) {
        rg_emu_options o = RG_EMU_OPTIONS_INIT;
        o.log = bench_quiet;
        o.core = cores[c];
        o.system = system;
        if (rg_emu_open(&emu[c], rom, &o) != RG_OK) {
            printf("%s: %s: skipped (%s)\n", rom, cores[c], rg_error_last());
            for (int d = 0; d < c; d++)
                rg_emu_free(emu[d]);
            return;
        }
        rg_emu_set_av_enable(emu[c], 1, 0);
        block(emu[c], RAW, 300, &tick[c]); /* warm-up: past the boot */
    }
    double *fps = calloc((size_t)2 * MODES * rounds, sizeof *fps);
    for (int r = 0; r < rounds; r++)
        for (int m = 0; m < MODES; m++)
            for (int c = 0; c < 2; c++)
                fps[(c * MODES + m) * rounds + r] = block(emu[c], m, frames, &tick[c]);
    printf("%s (%s, %d rounds of %d frames, %s time)\n", rom, system, rounds, frames,
           clock_id == CLOCK_MONOTONIC ? "wall" : "CPU");
    for (int m = 0; m < MODES; m++) {
        double med[2];
        for (int c = 0; c < 2; c++) {
            double *v = &fps[(c * MODES + m) * rounds];
            qsort(v, (size_t)rounds, sizeof *v, bench_cmp_double);
            med[c] = v[rounds / 2];
            printf("  %-4s %-16s %9.0f frames/s  [%.0f-%.0f]\n", mode_name[m], cores[c], med[c], v[0], v[rounds - 1]);
        }
        printf("  %-4s ours / genesis_plus_gx: %.2fx\n", mode_name[m], med[0] / med[1]);
    }
    free(fps);
    rg_emu_free(emu[0]);
    rg_emu_free(emu[1]);
}

int main(int argc, char **argv)
{
    int rounds = 5, frames = 600, first = argc;
    if (argc >= 4 && strcmp(argv[1], "--compare") == 0)
        return compare(argv[2], atoi(argv[3]), argc > 4 ? argv[4] : NULL);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--wall") == 0)
            clock_id = CLOCK_MONOTONIC;
        else {
            first = i;
            break;
        }
    }
    if (rounds < 1 || frames < 4) {
        fprintf(stderr, "usage: bench_sms [--rounds N>=1] [--frames N>=4] [--wall] [ROM ...]\n");
        return 2;
    }
    default_core_path();
    if (first < argc) {
        for (int i = first; i < argc; i++)
            bench_rom(argv[i], rounds, frames);
    } else {
        bench_rom(RG_SOURCE_DIR "/../shared/roms/blind-happy10.sms", rounds, frames);
        bench_rom(RG_SOURCE_DIR "/../shared/roms/benryves-SegaTween.gg", rounds, frames);
    }
    return 0;
}
