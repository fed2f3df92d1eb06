/* Our NES core against FCEUmm (the `fceumm` libretro core in stable-retro's wheel) and nestopia (Debian's), all
 * through our host, on the same ROMs and the same seeded random input, in three settings:
 *   raw   run a frame, nothing else (libretro cores draw it; ours draws it too: video is on)
 *   rgb   run a frame and convert it to RGB24 into a caller buffer (an observation every frame)
 *   fs4   frame skip 4: video off for 3 frames (rg_emu_set_av_enable), the 4th drawn and converted; the libretro
 *         cores may ignore the switch, ours skips drawing
 * The cores run in alternating blocks (every core, every mode, round after round) so the machine's noise hits them
 * alike; frames/s is the median over rounds, printed with the spread (min-max) in brackets. Audio is off. Time is
 * the thread's CPU time (all cores run in this thread); --wall measures elapsed time instead.
 * Before timing, each core must show that the game runs under the input: RAM changes and the pictures differ over
 * the warm-up, else the ROM is reported as not running for that core.
 *
 *   bench_nes [--rounds N] [--frames N] [--wall] [ROM ...]
 *   bench_nes --compare ROM FRAMES [CORE]
 *       one line per frame, "frame ram-hash pixel-hash", our core (or CORE) with the same input stream, every frame
 *       drawn, then every fourth drawn (fs4: pixels of the drawn frames only): diff two builds' output to show a
 *       change kept behaviour.
 *   bench_nes --serve   (one command a line: "open ROM" -> ok/skip, "block MODE FRAMES" -> one fps per core,
 *                        "close")
 * Default ROMs: Super Mario Bros. from gym-super-mario-bros' wheel in .venv, StarCatcher (data/stable), the demo
 * ../shared/roms/Dr88-FamiconIntro.nes. The libretro cores are found through $RETROGYM_CORE_PATH (make bench-nes
 * points it at .venv's stable_retro/cores; nestopia comes from Debian's libretro folder). */
#define _POSIX_C_SOURCE 200809L
#include "retrogym/retrogym.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

static clockid_t clock_id = CLOCK_THREAD_CPUTIME_ID;

enum { NCORES = 3 };
static const char *const core_name[NCORES] = {"nes", "fceumm", "nestopia"};

/* Seeded random pads, the same stream for every core: a new libretro joypad mask every 6 frames from the NES
 * buttons (B, SELECT rarely, START, the pad, A); START about one change in 8 so that games leave their titles. */
static uint16_t input(unsigned i)
{
    uint32_t k = (i / 6u + 1u) * 2654435761u;
    k ^= k >> 15;
    k *= 2246822519u;
    k ^= k >> 13;
    uint16_t b = (uint16_t)(k & 0x1F1u); /* B, UP..RIGHT, A */
    if ((b & (1u << 4)) && (b & (1u << 5)))
        b &= (uint16_t)~(1u << 5); /* not up and down at once */
    if ((b & (1u << 6)) && (b & (1u << 7)))
        b &= (uint16_t)~(1u << 6);
    if (((k >> 20) & 7u) == 0)
        b |= 1u << 3; /* START */
    return b;
}

enum { RAW, RGB, FS4, MODES };
static const char *const mode_name[MODES] = {"raw", "rgb", "fs4"};

static int mode_of(const char *name) { return bench_mode_of(name, mode_name, MODES); }

/* Frames/s of one block in a mode (video back on after fs4). */
static double block(rg_emu *emu, int mode, int frames, uint8_t *rgb, size_t cap, unsigned *tick)
{
    return bench_block(emu, frames, tick, input, mode == FS4, mode == RAW ? NULL : rgb, cap, mode == FS4, clock_id);
}


#define RGB_CAP ((size_t)256 * 240 * 3)

static int open_core(rg_emu **emu, const char *core, const char *rom, char *why, size_t cap)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.log = bench_quiet;
    o.core = core;
    o.system = "Nes";
    if (rg_emu_open(emu, rom, &o) != RG_OK) {
        snprintf(why, cap, "%s: %s", core, rg_error_last());
        return -1;
    }
    rg_emu_set_av_enable(*emu, 1, 0);
    return 0;
}

/* Runs `warm` frames of the input stream; 0 when RAM changed and at least 10 pictures differed from the one before. */
static int warm_up(rg_emu *emu, int warm, unsigned *tick, uint8_t *rgb, char *why, size_t cap)
{
    size_t rs = rg_emu_ram_size(emu);
    uint8_t *ram0 = malloc(rs ? rs : 1), *ram1 = malloc(rs ? rs : 1);
    uint64_t last = 0;
    int changed = 0, ok;
    rg_emu_ram_copy(emu, ram0, rs);
    for (int i = 0; i < warm; i++, (*tick)++) {
        rg_emu_set_buttons(emu, 0, input(*tick));
        rg_emu_run(emu);
        if (rg_emu_frame_rgb24(emu, rgb, RGB_CAP) == RG_OK) {
            uint64_t h = bench_fnv(BENCH_FNV0, rgb, RGB_CAP);
            changed += h != last;
            last = h;
        }
    }
    rg_emu_ram_copy(emu, ram1, rs);
    ok = rs && memcmp(ram0, ram1, rs) != 0 && changed >= 10;
    if (!ok)
        snprintf(why, cap, "the game does not run (RAM %s, %d pictures changed)",
                 rs && memcmp(ram0, ram1, rs) ? "changed" : "unchanged", changed);
    free(ram0);
    free(ram1);
    return ok ? 0 : -1;
}

static int serve(void)
{
    char line[4200], arg[4096], why[512];
    rg_emu *emu[NCORES] = {NULL};
    uint8_t *rgb = malloc(RGB_CAP);
    unsigned tick[NCORES] = {0};
    int frames;
    if (!rgb)
        return 1;
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "open %4095[^\n]", arg) == 1) {
            int bad = 0;
            for (int c = 0; c < NCORES; c++) {
                rg_emu_free(emu[c]);
                emu[c] = NULL;
                tick[c] = 0;
            }
            for (int c = 0; c < NCORES && !bad; c++)
                bad = open_core(&emu[c], core_name[c], arg, why, sizeof why) ||
                      warm_up(emu[c], 600, &tick[c], rgb, why, sizeof why);
            if (bad)
                printf("skip %s\n", why);
            else
                printf("ok\n");
        } else if (sscanf(line, "block %4095s %d", arg, &frames) == 2 && mode_of(arg) >= 0 && frames >= 4 &&
                   emu[NCORES - 1]) {
            for (int c = 0; c < NCORES; c++)
                printf("%s%.1f", c ? " " : "", block(emu[c], mode_of(arg), frames, rgb, RGB_CAP, &tick[c]));
            printf("\n");
        } else if (strncmp(line, "close", 5) == 0) {
            for (int c = 0; c < NCORES; c++)
                rg_emu_free(emu[c]), emu[c] = NULL;
            printf("ok\n");
        } else {
            printf("error bad command\n");
        }
        fflush(stdout);
    }
    for (int c = 0; c < NCORES; c++)
        rg_emu_free(emu[c]);
    free(rgb);
    return 0;
}

/* --compare (see the top of the file). */
typedef struct {
    const char *rom, *core;
} compare_ctx;

static int compare_open(rg_emu **emu, void *ctx)
{
    const compare_ctx *c = ctx;
    char why[512];
    if (open_core(emu, c->core, c->rom, why, sizeof why) != 0)
        return fprintf(stderr, "%s\n", why), 1;
    return 0;
}

static int compare(const char *rom, int frames, const char *core)
{
    compare_ctx c = {rom, core};
    return bench_compare(compare_open, &c, frames, input, 0);
}

static void bench(const char *rom, int rounds, int frames)
{
    const char *name = strrchr(rom, '/') ? strrchr(rom, '/') + 1 : rom;
    rg_emu *emu[NCORES] = {NULL};
    char why[512];
    uint8_t *rgb = malloc(RGB_CAP);
    unsigned tick[NCORES] = {0};
    for (int c = 0; c < NCORES; c++) {
        if (open_core(&emu[c], core_name[c], rom, why, sizeof why) != 0 ||
            warm_up(emu[c], 600, &tick[c], rgb, why, sizeof why) != 0) {
            printf("%-26s skipped: %s: %s\n", name, core_name[c], why);
            for (int k = 0; k <= c; k++)
                rg_emu_free(emu[k]);
            free(rgb);
            return;
        }
    }
    double *fps = malloc(sizeof(double) * (size_t)rounds * NCORES * MODES);
    for (int r = 0; r < rounds; r++)
        for (int m = 0; m < MODES; m++)
            for (int c = 0; c < NCORES; c++)
                fps[(c * MODES + m) * rounds + r] = block(emu[c], m, frames, rgb, RGB_CAP, &tick[c]);
    for (int m = 0; m < MODES; m++) {
        double med[NCORES];
        printf("%-26s %-4s", name, mode_name[m]);
        for (int c = 0; c < NCORES; c++) {
            double *v = fps + (c * MODES + m) * rounds;
            qsort(v, (size_t)rounds, sizeof *v, bench_cmp_double);
            med[c] = v[rounds / 2];
            char s[64];
            snprintf(s, sizeof s, "%.0f [%.0f-%.0f]", med[c], v[0], v[rounds - 1]);
            printf(" %-22s", s);
        }
        printf(" %6.2fx %6.2fx\n", med[0] / med[1], med[0] / med[2]);
    }
    fflush(stdout);
    free(fps);
    free(rgb);
    for (int c = 0; c < NCORES; c++)
        rg_emu_free(emu[c]);
}

int main(int argc, char **argv)
{
    int rounds = 7, frames = 600, first = 1;
    if (argc == 2 && strcmp(argv[1], "--serve") == 0)
        return serve();
    if (argc >= 4 && strcmp(argv[1], "--compare") == 0)
        return compare(argv[2], atoi(argv[3]), argc > 4 ? argv[4] : "nes");
    if (bench_options(argc, argv, &first, &rounds, &frames, &clock_id, 1) != 0)
        return 2;
    if (rounds < 1 || frames < 4)
        return fprintf(stderr, "--rounds >= 1 and --frames >= 4\n"), 2;
    printf("frames/s (%s time), median [min-max] of %d alternating blocks of %d frames, seeded random input\n",
           clock_id == CLOCK_MONOTONIC ? "elapsed" : "CPU", rounds, frames);
    printf("%-26s %-4s %-22s %-22s %-22s %7s %7s\n", "ROM", "mode", "ours (nes)", "fceumm", "nestopia", "/fceumm",
           "/nestopia");
    if (first < argc) {
        for (int i = first; i < argc; i++)
            bench(argv[i], rounds, frames);
        return 0;
    }
    if (bench_on_match(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/gym_super_mario_bros/_roms/"
                       "super-mario-bros.nes", bench, rounds, frames) != 0)
        printf("%-26s skipped: gym-super-mario-bros is not installed in .venv (make venv)\n", "super-mario-bros.nes");
    printf("%-26s skipped: no ROM of it is available here\n", "Super Mario Bros. 3");
    bench(RG_SOURCE_DIR "/data/stable/StarCatcher-Nes/rom.nes", rounds, frames);
    bench(RG_SOURCE_DIR "/../shared/roms/Dr88-FamiconIntro.nes", rounds, frames);
    return 0;
}
