/* Frames per second per core and ROM: the raw core (retro_run with the host's callbacks only) against retrogym's
 * full frame path (set input, run, convert the frame to RGB24 into a caller buffer, and the reward layer's RAM
 * snapshot and scoring: rg_scenario_update over 16 variables with rewards and a done test), plus the cost of the
 * RGB24 conversion alone (SIMD and scalar) and of copying every RAM block (what a RAM observation needs). Both paths run in alternating blocks on one instance so
 * the machine's noise hits them alike; the reported ratio is the median over rounds.
 *
 *   bench_host [--rounds N] [--frames N] [ROM ...]     (default: our test ROMs, then ../shared/roms demos) */
#define _POSIX_C_SOURCE 200809L
#include "retrogym/retrogym.h"

#include "emu/video_convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include <unistd.h>

/* Results go to a copy of stdout: gambatte and others print on fd 1 themselves, which is sent to stderr. */
static FILE *out;

static double now(void) { return bench_seconds(CLOCK_MONOTONIC); }

static uint16_t input(unsigned i)
{
    return (uint16_t)(((i / 4) * 2654435761u >> 9) & 0x0FF3);
}

static int bench(const char *rom, int rounds, int frames)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.log = bench_quiet;
    rg_emu *emu;
    if (rg_emu_open(&emu, rom, &o) != RG_OK) {
        fprintf(out, "%-28s skipped: %s\n", strrchr(rom, '/') ? strrchr(rom, '/') + 1 : rom, rg_error_last());
        return 0;
    }
    for (int i = 0; i < 300; i++) /* warm-up */
        rg_emu_run(emu);
    uint8_t *rgb = malloc(1024 * 1024 * 3);
    uint8_t *ram = malloc(rg_emu_ram_size(emu) + 1);
    /* The reward layer as an environment runs it: 16 byte variables spread over the memory blocks, each rewarded
     * on change, and a done test. */
    rg_gamedata *gd;
    rg_scenario *sc;
    rg_gamedata_create(&gd);
    rg_scenario_create(&sc);
    rg_gamedata_bind_emu(gd, emu);
    const rg_mem_block *blocks;
    size_t n_blocks;
    rg_emu_mem_blocks(emu, &blocks, &n_blocks);
    /* blocks big enough to hold a spread of variables (cores also map tiny ones, e.g. a 1-byte SRAM) */
    const rg_mem_block *big[64];
    size_t n_big = 0;
    for (size_t i = 0; i < n_blocks && n_big < 64; i++)
        if (blocks[i].size >= 64)
            big[n_big++] = &blocks[i];
    for (unsigned v = 0; v < 16 && n_big; v++) {
        const rg_mem_block *b = big[v % n_big];
        char name[16];
        snprintf(name, sizeof name, "v%u", v);
        rg_gamedata_set_variable(gd, name, b->base + (b->size / 16) * v, v % 2 ? ">u2" : "|u1", RG_MASK_ALL);
        rg_reward_spec rs = {RG_MEASURE_DELTA, RG_OP_NOOP, 0, 1.0f, 1.0f};
        rg_scenario_set_reward(sc, 0, name, &rs);
    }
    rg_done_spec ds = {RG_MEASURE_ABSOLUTE, RG_OP_EQUAL, 12345};
    rg_scenario_set_done(sc, "v0", &ds);
    rg_scenario_reset(sc, gd);
    double raw_fps[64], full_fps[64], ratio[64];
    unsigned k = 0;
    for (int r = 0; r < rounds; r++) {
        /* Both paths get the same input sequence, so the emulated work is the same. */
        unsigned k0 = k;
        double t0 = now();
        for (int i = 0; i < frames; i++, k++) {
            rg_emu_set_buttons(emu, 0, input(k));
            rg_emu_run(emu);
        }
        double t1 = now();
        k = k0;
        for (int i = 0; i < frames; i++, k++) {
            rg_emu_set_buttons(emu, 0, input(k));
            rg_emu_run(emu);
            rg_emu_frame_rgb24(emu, rgb, 1024 * 1024 * 3);
            if (rg_scenario_update(sc, gd) != RG_OK) {
                fprintf(out, "%-28s scoring failed: %s\n", strrchr(rom, '/') ? strrchr(rom, '/') + 1 : rom,
                        rg_error_last());
                exit(1);
            }
        }
        double t2 = now();
        raw_fps[r] = frames / (t1 - t0);
        full_fps[r] = frames / (t2 - t1);
        ratio[r] = (t2 - t1) / (t1 - t0);
    }
    /* The conversion alone on the current frame, SIMD and scalar. */
    rg_frame f;
    rg_emu_frame(emu, &f);
    int reps = 2000;
    double c0 = now();
    for (int i = 0; i < reps; i++)
        rg__convert_rgb24(&f, rgb);
    double c1 = now();
    for (int i = 0; i < reps; i++)
        rg__convert_rgb24_scalar(&f, rgb);
    double c2 = now();
    for (int i = 0; i < reps; i++)
        rg_emu_ram_copy(emu, ram, rg_emu_ram_size(emu));
    double c3 = now();
    double px = (double)f.width * f.height;
    qsort(raw_fps, (size_t)rounds, sizeof(double), bench_cmp_double);
    qsort(full_fps, (size_t)rounds, sizeof(double), bench_cmp_double);
    qsort(ratio, (size_t)rounds, sizeof(double), bench_cmp_double);
    const char *name = strrchr(rom, '/') ? strrchr(rom, '/') + 1 : rom;
    fprintf(out, "%-28s %-26s %8.0f %8.0f %+7.1f%%   %4ux%-4u %5.2f %5.2f   %7zu %6.2f\n", name,
           rg_emu_core_name(emu), raw_fps[rounds / 2], full_fps[rounds / 2], (ratio[rounds / 2] - 1) * 100, f.width,
           f.height, (c1 - c0) / reps / px * 1e9, (c2 - c1) / reps / px * 1e9, rg_emu_ram_size(emu),
           (c3 - c2) / reps * 1e6);
    rg_scenario_free(sc);
    rg_gamedata_free(gd);
    free(rgb);
    free(ram);
    rg_emu_free(emu);
    return 1;
}

int main(int argc, char **argv)
{
    int rounds = 9, frames = 600;
    const char *roms[64];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (n < 64)
            roms[n++] = argv[i];
    }
    if (rounds < 1 || rounds > 64 || frames < 1) {
        fprintf(stderr, "usage: bench_host [--rounds 1..64] [--frames N] [ROM ...]\n");
        return 2;
    }
    static char paths[32][1024];
    if (n == 0) {
        static const char *const own[] = {"test.nes", "test.sfc", "test.gb", "test.gbc", "test.gba", "test.pce"};
        static const char *const demos[] = {"Dr88-FamiconIntro.nes", "Anthrox-SineDotDemo.sfc", "dox-fire.gb",
                                            "Vantage-LostMarbles.gba", "chrisc-512_Colours.pce"};
        for (size_t i = 0; i < 6; i++) {
            snprintf(paths[n], sizeof paths[n], "%s/tests/roms/bin/%s", RG_SOURCE_DIR, own[i]);
            roms[n] = paths[n];
            n++;
        }
        for (size_t i = 0; i < 5; i++) {
            snprintf(paths[n], sizeof paths[n], "%s/../shared/roms/%s", RG_SOURCE_DIR, demos[i]);
            FILE *f = fopen(paths[n], "rb");
            if (f) {
                fclose(f);
                roms[n] = paths[n];
                n++;
            }
        }
    }
    int fd = dup(STDOUT_FILENO);
    out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out)
        out = stdout;
    else
        dup2(STDERR_FILENO, STDOUT_FILENO);
    fprintf(out, "retrogym host benchmark: %d rounds of %d frames per path, medians\n", rounds, frames);
    fprintf(out, "raw = input + rg_emu_run (retro_run + host callbacks); full = raw + RGB24 frame + reward layer "
                 "(rg_scenario_update, 16 variables)\n");
    fprintf(out, "RAM copy = copying every memory block once (a RAM observation), microseconds\n\n");
    fprintf(out, "%-28s %-26s %8s %8s %8s   %-9s %5s %5s   %7s %6s\n", "ROM", "core", "raw fps", "full fps", "cost",
           "frame", "ns/px", "(scal)", "RAM B", "copy us");
    for (int i = 0; i < n; i++)
        bench(roms[i], rounds, frames);
    fclose(out);
    return 0;
}
