/* Our Atari 2600 core against Stella 3.9.3 (the `stella` libretro core in stable-retro's wheel), side by side on the
 * same ROMs and inputs, in three settings:
 *   raw   run a frame (the core draws it), nothing else
 *   rgb   run a frame and convert it to RGB24 into a caller buffer (an observation every frame)
 *   fs4   frame skip 4: video off for 3 frames (rg_emu_set_av_enable), the 4th drawn and converted; Stella ignores
 *         the switch (it draws every frame), we skip drawing
 * Each setting of both cores runs in alternating blocks so the machine's noise hits them alike; frames/s is the
 * median over rounds. Audio is off (not captured) for both. Time is the thread's CPU time (both cores run in this
 * thread), so other processes on a shared machine do not count; --wall measures elapsed time instead.
 *
 *   bench_a26 [--rounds N] [--frames N] [--wall] [ROM ...]
 *   bench_a26 --serve
 * Default ROMs: ../shared/roms/automaton.a26 and, when ale-py is installed in .venv, a few of its ROMs. Stella is
 * found through $RETROGYM_CORE_PATH (make bench-a26 points it at .venv's stable_retro/cores).
 *
 * --serve: blocks on request, so that bench/bench_ale_emu.py can alternate them with ALE's emulator in its own
 * process. One command a line on stdin, one answer a line on stdout:
 *   open ROM            -> "ok" (both cores opened, 60 frames run, the console's Reset held 4 frames as ALE does at
 *                          a reset) or "skip <why>"
 *   block MODE FRAMES   -> "<ours fps> <stella fps>" (MODE raw, rgb or fs4; the two cores one after the other)
 *   close               -> "ok"
 *
 *   bench_a26 --ours [--rounds N] [--frames N] ROM ...
 * Our core alone (no Stella): one line per round and ROM, "<rom> <raw fps> <rgb fps> <fs4 fps>" (CPU time), for
 * comparing two builds of the core in alternating runs (copy the binary of one build aside; the library is linked
 * statically).
 *
 *   bench_a26 --digest [--frames N] [ROM ...]
 * What a change to the core must keep bit-exact, as digests to compare between two builds (default: every ROM of
 * ale-py's wheel in .venv, 1500 frames): per ROM and setting one line "<rom> <setting> <pixels> <ram> <states>", FNV-1a
 * 64 of the RGB24 picture of every observed frame, of the RAM after every frame and of the state saved every 37 frames
 * and at the end. Settings: drawn (every frame observed), fs4 (video on every 4th frame only), fs4state (fs4, and every
 * 37 frames the state is saved and loaded into a freshly opened instance that goes on in its place). Inputs as in the
 * timing modes; the console's Reset held for frames 60-63. */
#define _POSIX_C_SOURCE 200809L
#include "retrogym/retrogym.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

static clockid_t clock_id = CLOCK_THREAD_CPUTIME_ID;

/* The same input stream for both cores: a joystick direction and fire that change every 8 frames. */
static uint16_t input(unsigned i)
{
    static const uint16_t dirs[] = {0, 1u << 4, 1u << 5, 1u << 6, 1u << 7};
    unsigned k = (i / 8) * 2654435761u >> 7;
    return (uint16_t)(dirs[k % 5] | ((k >> 4) & 1u));
}

enum { RAW, RGB, FS4, MODES };
static const char *const mode_name[MODES] = {"raw", "rgb", "fs4"};

/* Frames/s of one block of `frames` frames in a mode. */
static double block(rg_emu *emu, int mode, int frames, uint8_t *rgb, size_t cap, unsigned *tick)
{
    return bench_block(emu, frames, tick, input, mode == FS4, mode == RAW ? NULL : rgb, cap, 0, clock_id);
}

static int mode_of(const char *name) { return bench_mode_of(name, mode_name, MODES); }

static const char *const core_name[2] = {"atari2600", "stella"};

static int open_ours(rg_emu **emu, const char *rom)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.log = bench_quiet;
    o.core = "atari2600";
    o.system = "Atari2600";
    return rg_emu_open(emu, rom, &o);
}

/* --digest: one ROM in one setting (0 drawn, 1 fs4, 2 fs4state). */
static int digest(const char *rom, int setting, int frames)
{
    static const char *const names[3] = {"drawn", "fs4", "fs4state"};
    const char *name = strrchr(rom, '/') ? strrchr(rom, '/') + 1 : rom;
    rg_emu *emu;
    if (open_ours(&emu, rom) != RG_OK) {
        printf("%s %s skipped: %s\n", name, names[setting], rg_error_last());
        return 0;
    }
    size_t cap = 160 * 320 * 3, scap = 1 << 16, ramn = rg_emu_ram_size(emu), n;
    uint8_t *rgb = malloc(cap), *st = malloc(scap), *ram = malloc(ramn ? ramn : 1);
    uint64_t hp = BENCH_FNV0, hr = hp, hs = hp;
    int rc = 0;
    for (int f = 0; f < frames && rc == 0; f++) {
        uint16_t b = f >= 60 && f < 64 ? 1u << 3 : f >= 64 ? input((unsigned)f) : 0;
        int observed = setting == 0 || (f & 3) == 3;
        rg_emu_set_buttons(emu, 0, b);
        rg_emu_set_av_enable(emu, observed, 0);
        rg_emu_run(emu);
        rg_frame fr;
        if (observed && rg_emu_frame(emu, &fr) == RG_OK && rg_emu_frame_rgb24(emu, rgb, cap) == RG_OK)
            hp = bench_fnv(hp, rgb, (size_t)fr.width * fr.height * 3u);
        rg_emu_ram_copy(emu, ram, ramn);
        hr = bench_fnv(hr, ram, ramn);
        if (f % 37 == 36 || f == frames - 1) {
            if (rg_emu_state_save(emu, st, scap, &n) != RG_OK) {
                rc = -1;
                break;
            }
            hs = bench_fnv(hs, st, n);
            if (setting == 2) {
                rg_emu *fresh;
                if (open_ours(&fresh, rom) != RG_OK || rg_emu_state_load(fresh, st, n) != RG_OK) {
                    rc = -1;
                    break;
                }
                rg_emu_free(emu);
                emu = fresh;
            }
        }
    }
    if (rc)
        printf("%s %s error: %s\n", name, names[setting], rg_error_last());
    else
        printf("%s %s %016llx %016llx %016llx\n", name, names[setting], (unsigned long long)hp,
               (unsigned long long)hr, (unsigned long long)hs);
    fflush(stdout);
    rg_emu_free(emu);
    free(rgb);
    free(st);
    free(ram);
    return rc;
}

/* Opens both cores on the ROM and runs `warm` frames; the first frames after `press` hold the console's Reset
 * switch (START) for 4 frames. 0 or -1 with the failing core's message in why. */
static int open_pair(rg_emu *emu[2], const char *rom, int warm, int press, char *why, size_t cap)
{
    for (int c = 0; c < 2; c++) {
        rg_emu_options o = RG_EMU_OPTIONS_INIT;
        o.log = bench_quiet;
        o.core = core_name[c];
        o.system = "Atari2600";
        if (rg_emu_open(&emu[c], rom, &o) != RG_OK) {
            snprintf(why, cap, "%s: %s", core_name[c], rg_error_last());
            if (c == 1)
                rg_emu_free(emu[0]);
            emu[0] = emu[1] = NULL;
            return -1;
        }
        rg_emu_set_av_enable(emu[c], 1, 0);
        for (int i = 0; i < warm; i++) {
            rg_emu_set_buttons(emu[c], 0, press >= 0 && i >= press && i < press + 4 ? 1u << 3 : 0);
            rg_emu_run(emu[c]);
        }
        rg_emu_set_buttons(emu[c], 0, 0);
    }
    return 0;
}

/* --serve (see the top of the file). */
static int serve(void)
{
    char line[4200], arg[4096], why[512];
    rg_emu *emu[2] = {NULL, NULL};
    size_t cap = 160 * 320 * 3;
    uint8_t *rgb = malloc(cap);
    unsigned tick[2] = {0, 0};
    int frames;
    if (!rgb)
        return 1;
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "open %4095[^\n]", arg) == 1) {
            for (int c = 0; c < 2; c++)
                rg_emu_free(emu[c]), emu[c] = NULL;
            tick[0] = tick[1] = 0;
            if (open_pair(emu, arg, 64, 60, why, sizeof why) != 0)
                printf("skip %s\n", why);
            else
                printf("ok\n");
        } else if (sscanf(line, "block %4095s %d", arg, &frames) == 2 && mode_of(arg) >= 0 && frames >= 4 &&
                   emu[0]) {
            double f0 = block(emu[0], mode_of(arg), frames, rgb, cap, &tick[0]);
            double f1 = block(emu[1], mode_of(arg), frames, rgb, cap, &tick[1]);
            printf("%.1f %.1f\n", f0, f1);
        } else if (strncmp(line, "close", 5) == 0) {
            for (int c = 0; c < 2; c++)
                rg_emu_free(emu[c]), emu[c] = NULL;
            printf("ok\n");
        } else {
            printf("error bad command\n");
        }
        fflush(stdout);
    }
    for (int c = 0; c < 2; c++)
        rg_emu_free(emu[c]);
    free(rgb);
    return 0;
}

static void bench(const char *rom, int rounds, int frames)
{
    const char *name = strrchr(rom, '/') ? strrchr(rom, '/') + 1 : rom;
    rg_emu *emu[2];
    char why[512];
    if (open_pair(emu, rom, 120, -1, why, sizeof why) != 0) {
        printf("%-22s skipped: %s\n", name, why);
        return;
    }
    size_t cap = 160 * 320 * 3;
    uint8_t *rgb = malloc(cap);
    double *fps = malloc(sizeof(double) * (size_t)rounds * 2 * MODES);
    unsigned tick[2] = {0, 0};
    for (int r = 0; r < rounds; r++)
        for (int m = 0; m < MODES; m++)
            for (int c = 0; c < 2; c++)
                fps[(c * MODES + m) * rounds + r] = block(emu[c], m, frames, rgb, cap, &tick[c]);
    printf("%-22s", name);
    for (int m = 0; m < MODES; m++) {
        double med[2];
        for (int c = 0; c < 2; c++) {
            double *v = fps + (c * MODES + m) * rounds;
            qsort(v, (size_t)rounds, sizeof *v, bench_cmp_double);
            med[c] = v[rounds / 2];
        }
        printf(" %8.0f %8.0f %5.2fx", med[0], med[1], med[0] / med[1]);
    }
    printf("\n");
    fflush(stdout);
    free(fps);
    free(rgb);
    rg_emu_free(emu[0]);
    rg_emu_free(emu[1]);
}

int main(int argc, char **argv)
{
    int rounds = 5, frames = 600, first = 1, ours = 0, dig = 0;
    if (argc == 2 && strcmp(argv[1], "--serve") == 0)
        return serve();
    if (argc >= 2 && strcmp(argv[1], "--ours") == 0)
        ours = 1, first = 2;
    else if (argc >= 2 && strcmp(argv[1], "--digest") == 0)
        dig = 1, first = 2, frames = 1500;
    if (bench_options(argc, argv, &first, &rounds, &frames, &clock_id, 1) != 0)
        return 2;
    if (rounds < 1 || frames < 4)
        return fprintf(stderr, "--rounds >= 1 and --frames >= 4\n"), 2;
    if (dig) {
        glob_t g;
        int rc = 0;
        if (first < argc) {
            for (int i = first; i < argc; i++)
                for (int k = 0; k < 3; k++)
                    rc |= digest(argv[i], k, frames);
            return rc ? 1 : 0;
        }
        if (glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/ale_py/roms/*.bin", 0, NULL, &g) != 0)
            return fprintf(stderr, "no ale-py ROMs in .venv (make venv)\n"), 2;
        for (size_t i = 0; i < g.gl_pathc; i++)
            for (int k = 0; k < 3; k++)
                rc |= digest(g.gl_pathv[i], k, frames);
        globfree(&g);
        return rc ? 1 : 0;
    }
    if (ours) {
        size_t cap = 160 * 320 * 3;
        uint8_t *rgb = malloc(cap);
        for (int r = 0; r < rounds; r++)
            for (int i = first; i < argc; i++) {
                rg_emu *emu;
                unsigned tick = 0;
                if (open_ours(&emu, argv[i]) != RG_OK)
                    return fprintf(stderr, "%s: %s\n", argv[i], rg_error_last()), 1;
                for (int f = 0; f < 64; f++) {
                    rg_emu_set_buttons(emu, 0, f >= 60 ? 1u << 3 : 0);
                    rg_emu_run(emu);
                }
                const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
                printf("%s", name);
                for (int m = 0; m < MODES; m++)
                    printf(" %.1f", block(emu, m, frames, rgb, cap, &tick));
                printf("\n");
                fflush(stdout);
                rg_emu_free(emu);
            }
        free(rgb);
        return 0;
    }
    printf("frames/s (%s time), median of %d blocks of %d frames; ours vs Stella 3.9.3 and the ratio\n",
           clock_id == CLOCK_MONOTONIC ? "elapsed" : "CPU", rounds, frames);
    printf("%-22s", "ROM");
    for (int m = 0; m < MODES; m++)
        printf(" %8s %8s %6s", mode_name[m], "stella", "ratio");
    printf("\n");
    if (first < argc) {
        for (int i = first; i < argc; i++)
            bench(argv[i], rounds, frames);
        return 0;
    }
    bench(RG_SOURCE_DIR "/../shared/roms/automaton.a26", rounds, frames);
    static const char *const ale[] = {"pong", "breakout", "space_invaders", "seaquest", "ms_pacman", "pitfall",
                                      "montezuma_revenge", "enduro"};
    glob_t g;
    if (glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/ale_py/roms", 0, NULL, &g) == 0 && g.gl_pathc) {
        for (size_t i = 0; i < sizeof ale / sizeof ale[0]; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.bin", g.gl_pathv[0], ale[i]);
            bench(path, rounds, frames);
        }
    }
    globfree(&g);
    return 0;
}
