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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

static clockid_t clock_id = CLOCK_THREAD_CPUTIME_ID;

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

/* the warm-up's input (START now and then), also --compare's; and the timed blocks' */
static uint16_t warm_input(unsigned frame)
{
    return input(frame, 1);
}

static uint16_t play_input(unsigned frame)
{
    return input(frame, 0);
}

static const bench_vs_spec vs = {"Genesis", {"genesis", "genesis_plus_gx"}, warm_input, 1500, play_input, 0};

/* --compare (see the top of the file). */
static int compare(const char *rom, int frames, const char *core)
{
    bench_target t = {rom, core, "Genesis"};
    return bench_compare(bench_open_target, &t, frames, warm_input, 0);
}

/* warm-up: 1500 frames, past the boot, the title and menus */
static void bench_rom(const char *rom, int rounds, int frames)
{
    bench_vs(&vs, rom, rounds, frames, clock_id);
}

int main(int argc, char **argv)
{
    int rounds = 5, frames = 600, first = 1;
    if (argc >= 5 && strcmp(argv[1], "--profile") == 0) {
        rg_emu *emu;
        bench_target t = {argv[3], "genesis", "Genesis"};
        if (bench_open_target(&emu, &t) != 0)
            return 1;
        unsigned tick = 0;
        bench_block(emu, vs.warm, &tick, warm_input, 0, NULL, 0, 1, clock_id);
        double fps = bench_block(emu, atoi(argv[4]), &tick, play_input, strcmp(argv[2], "fs4") == 0, NULL, 0, 1,
                                 clock_id);
        printf("%s %s: %.0f frames/s\n", argv[3], argv[2], fps);
        rg_emu_free(emu);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "--compare") == 0) {
        bench_default_core_path();
        return compare(argv[2], atoi(argv[3]), argc > 4 ? argv[4] : "genesis");
    }
    if (bench_vs_options(argc, argv, &first, &rounds, &frames, &clock_id, "bench_genesis") != 0)
        return 2;
    if (first < argc) {
        for (int i = first; i < argc; i++)
            bench_rom(argv[i], rounds, frames);
        return 0;
    }
    if (bench_on_match(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/stable_retro/data/stable/Airstriker-Genesis*/"
                       "rom.md", bench_rom, rounds, frames) != 0)
        printf("Airstriker-Genesis: skipped (no stable-retro in .venv)\n");
    bench_rom(RG_SOURCE_DIR "/../shared/roms/Dekadence-Dekadrive.md", rounds, frames);
    return 0;
}
