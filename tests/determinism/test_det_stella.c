/* Stella restores (docs/determinism.md): a state saved at frame K and loaded again, into the same emulator or into
 * another one that ran other frames, replays the same frames and RAM as the straight run, for every game whose
 * controller state is in Stella's states. Paddle games are the exception, a fact of the core checked here: the
 * paddle positions live in Stella's libretro layer, outside its states, so Pong and Breakout part a few frames after a
 * load. Bad states are refused before Stella sees them (it ends the process on a state it cannot parse). Uses
 * stable-retro's build of Stella and ale-py's ROMs (our test ROM always); skipped without stable-retro's wheel. */
#include "test_support.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 240
#define SAVE_AT 60

static char stella[2048];

typedef struct {
    uint64_t ram[FRAMES], picture[FRAMES];
} trace;

/* The buttons of frame f: a fixed pseudo-random walk over fire and the four directions, held 4 frames. */
static uint16_t buttons_at(unsigned f)
{
    uint32_t x = (f / 4 + 1) * 2654435761u;
    x ^= x >> 13;
    static const uint16_t pick[] = {0, 1u << 0, 1u << 4, 1u << 5, 1u << 6, 1u << 7, (1u << 0) | (1u << 7)};
    return pick[x % (sizeof pick / sizeof *pick)];
}

static rg_emu *open_stella(const char *rom)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = stella;
    o.system = "Atari2600";
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, rom, &o) != RG_OK)
        fail_msg("%s on Stella: %s", rom, rg_error_last());
    return emu;
}

static void record(rg_emu *emu, trace *t, unsigned from, unsigned to)
{
    static uint8_t ram[4096], rgb[160 * 320 * 3];
    for (unsigned f = from; f < to; f++) {
        assert_int_equal(rg_emu_set_buttons(emu, 0, buttons_at(f)), RG_OK);
        assert_int_equal(rg_emu_run(emu), RG_OK);
        size_t n = rg_emu_ram_size(emu);
        assert_true(n > 0 && n <= sizeof ram);
        assert_int_equal(rg_emu_ram_copy(emu, ram, n), RG_OK);
        t->ram[f] = test_hash(ram, n, 0);
        unsigned w, h;
        assert_int_equal(rg_emu_screen_size(emu, &w, &h), RG_OK);
        assert_true((size_t)w * h * 3 <= sizeof rgb);
        assert_int_equal(rg_emu_screen_rgb24(emu, rgb, sizeof rgb), RG_OK);
        t->picture[f] = test_hash(rgb, (size_t)w * h * 3, 0);
    }
}

static void expect_same(const char *rom, const char *what, const trace *a, const trace *b)
{
    for (unsigned f = SAVE_AT; f < FRAMES; f++) {
        if (a->ram[f] != b->ram[f])
            fail_msg("%s, %s: RAM differs at frame %u (%u after the restore)", rom, what, f, f - SAVE_AT);
        if (a->picture[f] != b->picture[f])
            fail_msg("%s, %s: the picture differs at frame %u (%u after the restore)", rom, what, f, f - SAVE_AT);
    }
}

typedef struct {
    char path[2048];
    int paddles; /* the game reads paddles: a restore parts from the straight run (the fact checked) */
} stella_rom;

/* Frames after SAVE_AT where a and b differ in RAM or picture. */
static unsigned mismatches(const trace *a, const trace *b)
{
    unsigned n = 0;
    for (unsigned f = SAVE_AT; f < FRAMES; f++)
        n += a->ram[f] != b->ram[f] || a->picture[f] != b->picture[f];
    return n;
}

static void restore_replays(void **state)
{
    const stella_rom *r = *state;
    const char *rom = r->path;
    rg_emu *emu = open_stella(rom);
    static trace straight, again, fresh_run;
    record(emu, &straight, 0, SAVE_AT);
    size_t size;
    assert_int_equal(rg_emu_state_size(emu, &size), RG_OK);
    uint8_t *st = malloc(size);
    assert_non_null(st);
    assert_int_equal(rg_emu_state_save(emu, st, size, &size), RG_OK);
    record(emu, &straight, SAVE_AT, FRAMES);

    /* the same emulator, after running on */
    assert_int_equal(rg_emu_state_load(emu, st, size), RG_OK);
    record(emu, &again, SAVE_AT, FRAMES);
    if (r->paddles) {
        unsigned n = mismatches(&straight, &again);
        print_message("%s: %u of %u frames differ after a restore (paddles outside the state)\n", rom, n,
                      FRAMES - SAVE_AT);
        if (n == 0)
            fail_msg("%s: a paddle game now replays exactly after a restore: update docs/determinism.md", rom);
        free(st);
        rg_emu_free(emu);
        return;
    }
    expect_same(rom, "restored into the same emulator", &straight, &again);
    /* twice in a row, then a fresh emulator that ran other frames first */
    assert_int_equal(rg_emu_state_load(emu, st, size), RG_OK);
    assert_int_equal(rg_emu_state_load(emu, st, size), RG_OK);
    record(emu, &again, SAVE_AT, FRAMES);
    expect_same(rom, "loaded twice", &straight, &again);
    rg_emu *fresh = open_stella(rom);
    for (int i = 0; i < 17; i++)
        assert_int_equal(rg_emu_run(fresh), RG_OK);
    assert_int_equal(rg_emu_state_load(fresh, st, size), RG_OK);
    record(fresh, &fresh_run, SAVE_AT, FRAMES);
    expect_same(rom, "restored into a fresh emulator", &straight, &fresh_run);
    /* the state file path (integrations' .state files) gives the same */
    char path[256];
    snprintf(path, sizeof path, "%s/stella.state", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_int_equal(rg_emu_state_load(fresh, st, size), RG_OK);
    assert_int_equal(rg_emu_state_save_file(fresh, path), RG_OK);
    assert_int_equal(rg_emu_state_load_file(emu, path), RG_OK);
    record(emu, &again, SAVE_AT, FRAMES);
    expect_same(rom, "loaded from a state file", &straight, &again);
    remove(path);
    /* refused states change nothing (and never reach Stella, which would end the process): garbage, a truncated
     * state, a damaged header, another cartridge type's state */
    assert_int_equal(rg_emu_state_load(emu, st, size), RG_OK);
    uint8_t *bad = malloc(size + 64);
    assert_non_null(bad);
    memset(bad, 'x', size + 64);
    assert_int_equal(rg_emu_state_load(emu, bad, size + 64), RG_ESTATE);
    assert_int_equal(rg_emu_state_load(emu, st, size - 1), RG_ESTATE);
    memcpy(bad, st, size);
    bad[6] ^= 1; /* in the version string */
    assert_int_equal(rg_emu_state_load(emu, bad, size), RG_ESTATE);
    memcpy(bad, st, size);
    bad[22] ^= 1; /* in the cartridge type */
    assert_int_equal(rg_emu_state_load(emu, bad, size), RG_ESTATE);
    free(bad);
    record(emu, &again, SAVE_AT, FRAMES);
    expect_same(rom, "after refused states", &straight, &again);
    free(st);
    rg_emu_free(fresh);
    rg_emu_free(emu);
}

static void no_stella(void **state)
{
    (void)state;
    print_message("stable-retro's Stella is not in .venv\n");
    skip();
}

int main(void)
{
    if (!test_wheel_core("stella", stella, sizeof stella)) {
        const struct CMUnitTest none[] = {cmocka_unit_test(no_stella)};
        return cmocka_run_group_tests_name("det_stella", none, NULL, NULL);
    }
    static stella_rom roms[5];
    static const struct { const char *name; int paddles; } ale[] = {
        {"montezuma_revenge", 0}, {"space_invaders", 0}, {"pong", 1}, {"breakout", 1}};
    size_t n = 0;
    for (size_t i = 0; i < sizeof ale / sizeof *ale; i++) {
        char pattern[2048];
        snprintf(pattern, sizeof pattern, "%s/.venv/lib/python3*/site-packages/ale_py/roms/%s.bin", RG_SOURCE_DIR,
                 ale[i].name);
        glob_t g;
        if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
            snprintf(roms[n].path, sizeof roms[n].path, "%s", g.gl_pathv[0]);
            roms[n++].paddles = ale[i].paddles;
        }
        globfree(&g);
    }
    snprintf(roms[n++].path, sizeof roms[0].path, "%s/tests/roms/bin/test.a26", RG_SOURCE_DIR);
    struct CMUnitTest tests[5];
    for (size_t i = 0; i < n; i++) {
        const char *base = strrchr(roms[i].path, '/');
        tests[i] = (struct CMUnitTest){base + 1, restore_replays, NULL, NULL, &roms[i]};
    }
    return _cmocka_run_group_tests("det_stella", tests, n, NULL, NULL);
}
