/* Our Atari 2600 core against Stella 3.9.3 (stable-retro's stella libretro core, run through our own host), frame
 * by frame: the same ROM and the same buttons, then the 128 bytes of RAM and the RGB picture must be equal after
 * every frame. ROMs: automaton.a26 from ../shared/roms, our test ROM and TIA feature ROMs (tests/roms/bin), and
 * when ale-py is installed in the project's .venv a handful of its cartridges (never copied anywhere).
 * Skipped when the stella core cannot be found; each ROM that is not there is skipped on its own. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 160
#define MAX_H 256

/* ALE cartridges covering 2K/4K, Superchip and bank-switched layouts, special display settings, the Cosmic Ark
 * missile effect, mid-line NUSIZ writes and the paddle variants. */
static const char *const k_ale[] = {
    "pitfall", "freeway", "space_invaders", "riverraid", "enduro", "seaquest", "ms_pacman", "montezuma_revenge",
    "qbert", "amidar", "journey_escape", "battle_zone", "elevator_action", "video_cube", "air_raid", "koolaid",
    "breakout", "kaboom", "pong", "casino", "backgammon", "tic_tac_toe_3d",
};

static char g_ale_dir[1024];
static int g_stella;

/* Points RETROGYM_CORE_PATH at stable-retro's cores in the project's .venv unless it is set. */
static int find_stella(void)
{
    if (!getenv("RETROGYM_CORE_PATH")) {
        glob_t g;
        if (glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/stable_retro/cores/stella_libretro.so", 0, NULL,
                 &g) == 0 && g.gl_pathc > 0) {
            char dir[1024];
            snprintf(dir, sizeof dir, "%s", g.gl_pathv[0]);
            *strrchr(dir, '/') = '\0';
            setenv("RETROGYM_CORE_PATH", dir, 1);
        }
        globfree(&g);
    }
    return test_core_installed("stella");
}

static void find_ale(void)
{
    glob_t g;
    g_ale_dir[0] = '\0';
    if (glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/ale_py/roms", 0, NULL, &g) == 0 && g.gl_pathc > 0)
        snprintf(g_ale_dir, sizeof g_ale_dir, "%s", g.gl_pathv[0]);
    globfree(&g);
}

static int exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

static rg_emu *open_core(const char *rom, const char *core)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = core;
    o.system = "Atari2600";
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, rom, &o) != RG_OK)
        fail_msg("cannot open %s in %s: %s", rom, core, rg_error_last());
    return emu;
}

/* Buttons for a frame: runs of random joystick and fire states, Select and Reset now and then. */
static uint16_t buttons_at(unsigned frame, uint32_t *x)
{
    static uint16_t held;
    if (frame == 0)
        held = 0;
    *x = *x * 1103515245u + 12345u;
    if (((*x >> 20) & 7u) == 0) {
        uint32_t y = *x >> 8;
        held = (uint16_t)(y & 0xF1u);
        if (((y >> 12) & 31u) == 0)
            held |= 1u << 3;
        if (((y >> 17) & 31u) == 0)
            held |= 1u << 2;
    }
    return held;
}

/* Runs both cores; returns 0 when equal, else describes the first difference in msg. */
static int compare(const char *rom, unsigned frames, uint32_t seed, char *msg, size_t cap)
{
    rg_emu *st = open_core(rom, "stella"), *us = open_core(rom, "atari2600");
    static uint8_t a[W * MAX_H * 3], b[W * MAX_H * 3];
    uint32_t x = seed;
    int rc = 0;
    for (unsigned f = 0; f < frames && !rc; f++) {
        uint16_t bt = buttons_at(f, &x);
        rg_emu_set_buttons(st, 0, bt);
        rg_emu_set_buttons(us, 0, bt);
        assert_int_equal(rg_emu_run(st), RG_OK);
        assert_int_equal(rg_emu_run(us), RG_OK);
        uint8_t ra[128], rb[128];
        assert_int_equal(rg_emu_mem_read(st, 0x80, ra, 128), RG_OK);
        assert_int_equal(rg_emu_mem_read(us, 0x80, rb, 128), RG_OK);
        if (memcmp(ra, rb, 128) != 0) {
            int k = 0;
            while (ra[k] == rb[k])
                k++;
            snprintf(msg, cap, "frame %u: RAM $%02X is %02x in stella, %02x in ours", f, 0x80 + k, ra[k], rb[k]);
            rc = 1;
            break;
        }
        rg_frame fa, fb;
        rg_emu_frame(st, &fa);
        rg_emu_frame(us, &fb);
        if (fa.width != fb.width || fa.height != fb.height) {
            snprintf(msg, cap, "frame %u: stella's picture is %ux%u, ours %ux%u", f, fa.width, fa.height, fb.width,
                     fb.height);
            rc = 1;
            break;
        }
        assert_true(fa.width == W && fa.height <= MAX_H);
        size_t n = (size_t)fa.width * fa.height * 3;
        assert_int_equal(rg_emu_frame_rgb24(st, a, sizeof a), RG_OK);
        assert_int_equal(rg_emu_frame_rgb24(us, b, sizeof b), RG_OK);
        if (memcmp(a, b, n) != 0) {
            size_t k = 0;
            while (a[k] == b[k])
                k++;
            snprintf(msg, cap, "frame %u: pixel row %zu column %zu differs", f, k / 3 / W, k / 3 % W);
            rc = 1;
        }
    }
    rg_emu_free(st);
    rg_emu_free(us);
    return rc;
}

static void run_list(const char *const *paths, size_t n, unsigned frames)
{
    int failed = 0, ran = 0;
    if (!g_stella)
        skip();
    for (size_t i = 0; i < n; i++) {
        if (!exists(paths[i]))
            continue;
        char msg[256];
        ran++;
        if (compare(paths[i], frames, 0x2600u + (uint32_t)i, msg, sizeof msg)) {
            print_message("MISMATCH %s: %s\n", paths[i], msg);
            failed++;
        }
    }
    if (!ran)
        skip();
    if (failed)
        fail_msg("%d of %d ROMs differ from Stella", failed, ran);
}

static void own_roms(void **state)
{
    (void)state;
    static char paths[32][1024];
    const char *list[32];
    size_t n = 0;
    test_source_path("tests/roms/bin/test.a26", paths[n], sizeof paths[n]);
    list[n] = paths[n];
    n++;
    glob_t g;
    if (glob(RG_SOURCE_DIR "/tests/roms/bin/a26/*.a26", 0, NULL, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc && n < 32; i++, n++) {
            snprintf(paths[n], sizeof paths[n], "%s", g.gl_pathv[i]);
            list[n] = paths[n];
        }
    globfree(&g);
    run_list(list, n, 300);
}

static void automaton(void **state)
{
    (void)state;
    const char *dir = test_shared_roms();
    if (!dir)
        skip();
    static char path[1024];
    snprintf(path, sizeof path, "%s/automaton.a26", dir);
    const char *list[] = {path};
    run_list(list, 1, 3000);
}

static void ale_cartridges(void **state)
{
    (void)state;
    if (!g_ale_dir[0])
        skip();
    static char paths[sizeof k_ale / sizeof k_ale[0]][1024];
    const char *list[sizeof k_ale / sizeof k_ale[0]];
    for (size_t i = 0; i < sizeof k_ale / sizeof k_ale[0]; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s.bin", g_ale_dir, k_ale[i]);
        list[i] = paths[i];
    }
    run_list(list, sizeof k_ale / sizeof k_ale[0], 1500);
}

int main(void)
{
    g_stella = find_stella();
    if (!g_stella)
        printf("stella core not found (RETROGYM_CORE_PATH or .venv with stable-retro): skipped\n");
    find_ale();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(own_roms),
        cmocka_unit_test(automaton),
        cmocka_unit_test(ale_cartridges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
