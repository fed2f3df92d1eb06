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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bench_util.h"

static clockid_t clock_id = CLOCK_THREAD_CPUTIME_ID;

/* a new joypad mask every 5 frames: B, A and the pad (libretro ids 0, 8, 4-7) */
static uint16_t input(unsigned i)
{
    uint32_t k = (i / 5u + 1u) * 2654435761u;
    k ^= k >> 15;
    k *= 2246822519u;
    k ^= k >> 13;
    return (uint16_t)(k & 0x1F1u);
}

/* a .gg file runs as GameGear */
static int is_gg(const char *rom)
{
    const char *dot = strrchr(rom, '.');
    return dot && strcasecmp(dot, ".gg") == 0;
}

/* --compare (see the top of the file). */
static int compare(const char *rom, int frames, const char *core)
{
    int gg = is_gg(rom);
    bench_target t = {rom, core ? core : gg ? "gamegear" : "sms", gg ? "GameGear" : "Sms"};
    return bench_compare(bench_open_target, &t, frames, input, 1);
}

/* warm-up: 300 frames, past the boot */
static void bench_rom(const char *rom, int rounds, int frames)
{
    int gg = is_gg(rom);
    bench_vs_spec vs = {gg ? "GameGear" : "Sms", {gg ? "gamegear" : "sms", "genesis_plus_gx"}, input, 300, input, 1};
    bench_vs(&vs, rom, rounds, frames, clock_id);
}

int main(int argc, char **argv)
{
    int rounds = 5, frames = 600, first = 1;
    if (argc >= 4 && strcmp(argv[1], "--compare") == 0)
        return compare(argv[2], atoi(argv[3]), argc > 4 ? argv[4] : NULL);
    if (bench_vs_options(argc, argv, &first, &rounds, &frames, &clock_id, "bench_sms") != 0)
        return 2;
    if (first < argc) {
        for (int i = first; i < argc; i++)
            bench_rom(argv[i], rounds, frames);
    } else {
        bench_rom(RG_SOURCE_DIR "/../shared/roms/blind-happy10.sms", rounds, frames);
        bench_rom(RG_SOURCE_DIR "/../shared/roms/benryves-SegaTween.gg", rounds, frames);
    }
    return 0;
}
