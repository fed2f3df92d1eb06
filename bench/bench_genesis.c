/* Our Genesis core against Genesis Plus GX (`genesis_plus_gx`, stable-retro's wheel), both through our host, on the
 * same ROMs and the same seeded input, in two settings:
 *   raw   every frame drawn (video on), nothing else
 *   fs4   frame skip 4: video off for 3 frames (rg_emu_set_av_enable), the 4th drawn; GPGX may ignore the switch,
 *         ours then skips drawing (the sprite flags are still computed)
 * Each core first runs a warm-up with START pressed now and then (Airstriker: through its title and menus into the
 * game), then the cores run in alternating blocks (each core, each mode, round after round) so that the machine's
 * noise hits them alike; frames/s is the median over rounds with the spread (min-max). Time is this thread's CPU
 * time (--wall: elapsed). Audio off. Frames/s of ours over GPGX's is printed per ROM and mode.
 *
 *   bench_genesis [--rounds N] [--frames N] [--wall] [ROM ...]
 *   bench_genesis --profile raw|fs4 ROM FRAMES
 *       only our core, after the warm-up, in one mode (for perf)
 *   bench_genesis --compare ROM FRAMES [CORE]
 *       one line per frame, "mode frame ram-hash pixel-hash", our core (or CORE) from power-on with the warm-up's
 *       input stream (START now and then), every frame drawn ("all"), then every fourth drawn ("fs4": pixels of the
 *       drawn frames only): diff two builds' output to show that a speed change kept behaviour.
 * Default ROMs: Airstriker-Genesis from .venv's stable-retro and ../shared/roms/Dekadence-Dekadrive.md. GPGX is found
 * through $RETROGYM_CORE_PATH, else .venv's stable_retro/cores. */
#define _POSIX_C_SOURCE 200809L
#include "retrogym/retrogym.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

static clockid_t clock_id = CLOCK_THREAD_CPUTIME_ID;

enum { RAW, FS4, MODES };
static const char *const mode_name[MODES] = {"raw", "fs4"};

/* a new joypad mask every 6 frames: B, C, A and the pad (libretro ids 0, 1, 8, 4-7); START (3) for 8 frames in
 * every 40 while warming up */
static uint16_t input(unsigned i, int warm)
{
    uint32_t k = (i / 6u + 1u) * 2654435761u;
    k ^= k >> 15;
    k *= 2246822519u;
    k ^= k >> 13;
    uint16_t m = (uint16_t)(k & 0x1F3u);
    if (warm && i >= 350u && i % 40u < 8u)
        m |= 1u << 3;
    return m;
}

static double block(rg_emu *emu, int mode, int frames, unsigned *tick, int warm)
{
    double t0 = bench_seconds(clock_id);
    for (int f = 0; f < frames; f++, (*tick)++) {
        rg_emu_set_buttons(emu, 0, input(*tick, warm));
        if (mode == FS4)
            rg_emu_set_av_enable(emu, (f & 3) == 3, 0);
        rg_emu_run(emu);
    }
    rg_emu_set_av_enable(emu, 1, 0);
    return frames / (bench_seconds(clock_id) - t0);
}



/* --compare (see the top of the file): the warm-up input, START now and then included. */
typedef struct {
    const char *rom, *core;
} compare_ctx;

static int compare_open(rg_emu **emu, void *ctx)
{
    const compare_ctx *c = ctx;
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.log = bench_quiet;
    o.core = c->core;
    o.system = "Genesis";
    if (rg_emu_open(emu, c->rom, &o) != RG_OK)
        return fprintf(stderr, "%s: %s\n", c->rom, rg_error_last()), 1;
    return 0;
}

static uint16_t compare_input(unsigned frame)
{
    return input(frame, 1);
}

static int compare(const char *rom, int frames, const char *core)
{
    compare_ctx c = {rom, core};
    return bench_compare(compare_open, &c, frames, compare_input, 0);
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
    const char *cores[2] = {"genesis", "genesis_plus_gx"};
    rg_emu *emu[2] = {NULL, NULL};
    unsigned tick[2] = {0, 0};
    for (int c = 0; c < 2; c++) {
        rg_emu_options o = RG_EMU_OPTIONS_INIT;
        o.log = bench_quiet;
        o.core = cores[c];
        o.system = "Genesis";
        if (rg_emu_open(&emu[c], rom, &o) != RG_OK) {
            printf("%s: %s: skipped (%s)\n", rom, cores[c], rg_error_last());
            for (int d = 0; d < c; d++)
                rg_emu_free(emu[d]);
            return;
        }
        rg_emu_set_av_enable(emu[c], 1, 0);
        block(emu[c], RAW, 1500, &tick[c], 1); /* warm-up: past the boot, the title and menus */
    }
    double *fps = calloc((size_t)2 * MODES * rounds, sizeof *fps);
    if (!fps)
        return;
    for (int r = 0; r < rounds; r++)
        for (int m = 0; m < MODES; m++)
            for (int c = 0; c < 2; c++)
                fps[(c * MODES + m) * rounds + r] = block(emu[c], m, frames, &tick[c], 0);
    printf("%s (%d rounds of %d frames, %s time)\n", rom, rounds, frames,
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
    if (argc >= 5 && strcmp(argv[1], "--profile") == 0) {
        rg_emu *emu;
        rg_emu_options o = RG_EMU_OPTIONS_INIT;
        o.log = bench_quiet;
        o.system = "Genesis";
        o.core = "genesis";
        if (rg_emu_open(&emu, argv[3], &o) != RG_OK)
            return fprintf(stderr, "%s: %s\n", argv[3], rg_error_last()), 1;
        unsigned tick = 0;
        block(emu, RAW, 1500, &tick, 1);
        double fps = block(emu, strcmp(argv[2], "fs4") == 0 ? FS4 : RAW, atoi(argv[4]), &tick, 0);
        printf("%s %s: %.0f frames/s\n", argv[3], argv[2], fps);
        rg_emu_free(emu);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "--compare") == 0) {
        default_core_path();
        return compare(argv[2], atoi(argv[3]), argc > 4 ? argv[4] : "genesis");
    }
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
        fprintf(stderr, "usage: bench_genesis [--rounds N>=1] [--frames N>=4] [--wall] [ROM ...]\n");
        return 2;
    }
    default_core_path();
    if (first < argc) {
        for (int i = first; i < argc; i++)
            bench_rom(argv[i], rounds, frames);
        return 0;
    }
    glob_t g;
    if (glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/stable_retro/data/stable/Airstriker-Genesis*/rom.md", 0,
             NULL, &g) == 0 && g.gl_pathc)
        bench_rom(g.gl_pathv[0], rounds, frames);
    else
        printf("Airstriker-Genesis: skipped (no stable-retro in .venv)\n");
    globfree(&g);
    bench_rom(RG_SOURCE_DIR "/../shared/roms/Dekadence-Dekadrive.md", rounds, frames);
    return 0;
}
