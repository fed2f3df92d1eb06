/* Stella 3.9.3 states in our Atari 2600 core (src/cores/atari2600/a26_stella_state.c), through the emulator API:
 * a real state converts (stable-retro's Pong-Atari2600 Start.state on ale-py's Pong ROM) and runs on exactly as in
 * Stella; truncated, damaged and mutated states are refused with RG_ESTATE and a message saying what is wrong, and
 * leave the machine as it was. Skipped where stable-retro's data or ale-py's ROMs are not installed in .venv. */
#include "test_support.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define STATE_MAX 4096

typedef struct fixture {
    char rom[1024];          /* ale-py's pong.bin */
    uint8_t state[STATE_MAX];
    size_t len;              /* padded length, as stable-retro stores it */
    uint8_t other[STATE_MAX];
    size_t other_len;        /* Asteroids' state (an F8 cartridge) */
    rg_emu *emu;
} fixture;

static int first_match(const char *pattern, char *out, size_t cap)
{
    glob_t g;
    int rc = glob(pattern, 0, NULL, &g);
    int ok = rc == 0 && g.gl_pathc > 0;
    if (ok)
        snprintf(out, cap, "%s", g.gl_pathv[0]);
    if (rc == 0)
        globfree(&g);
    return ok;
}

static size_t read_gz(const char *path, uint8_t *dst, size_t cap)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return 0;
    int n = gzread(f, dst, (unsigned)cap);
    gzclose(f);
    return n > 0 ? (size_t)n : 0;
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (!fx)
        return -1;
    *state = fx;
    char path[1024];
    if (!first_match(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/ale_py/roms/pong.bin", fx->rom,
                     sizeof fx->rom) ||
        !first_match(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/stable_retro/data/stable/Pong-Atari2600*/"
                     "Start.state", path, sizeof path))
        return 0;
    fx->len = read_gz(path, fx->state, sizeof fx->state);
    if (first_match(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/stable_retro/data/stable/Asteroids-Atari2600*/"
                    "Start.state", path, sizeof path))
        fx->other_len = read_gz(path, fx->other, sizeof fx->other);
    return 0;
}

static int teardown(void **state)
{
    free(*state);
    return 0;
}

static rg_emu *open_pong(fixture *fx)
{
    if (!fx->len)
        skip(); /* stable-retro's data or ale-py's ROMs are not installed */
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "atari2600";
    o.system = "Atari2600";
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, fx->rom, &o) != RG_OK)
        fail_msg("cannot open %s: %s", fx->rom, rg_error_last());
    return emu;
}

/* The RIOT RAM inside a Stella state: after the "M6532" section name. */
static const uint8_t *stella_ram(const uint8_t *st, size_t len)
{
    for (size_t i = 0; i + 9 + 128 <= len; i++)
        if (memcmp(st + i, "\x05\0\0\0M6532", 9) == 0)
            return st + i + 9;
    fail_msg("no M6532 section in the state");
    return NULL;
}

/* Our own snapshot of the machine, to see that a refused load changed nothing. */
static size_t snapshot(rg_emu *emu, uint8_t *buf, size_t cap)
{
    size_t n = 0;
    assert_int_equal(rg_emu_state_save(emu, buf, cap, &n), RG_OK);
    return n;
}

/* Loading `bytes` must fail with RG_ESTATE, a message containing `why`, and leave the machine as it was. */
static void assert_refused(rg_emu *emu, const uint8_t *bytes, size_t len, const char *why)
{
    static uint8_t before[8192], after[8192];
    size_t n = snapshot(emu, before, sizeof before);
    int rc = rg_emu_state_load(emu, bytes, len);
    if (rc != RG_ESTATE)
        fail_msg("a bad Stella state (%s expected) gave %d: %s", why, rc, rg_error_last());
    if (!strstr(rg_error_last(), why))
        fail_msg("message '%s' does not say '%s'", rg_error_last(), why);
    assert_int_equal(snapshot(emu, after, sizeof after), n);
    assert_memory_equal(before, after, n);
}

/* Finds the offset of `name` as Stella writes it (a 4-byte length, then the bytes); the field after it is at the
 * returned offset + 4 + strlen(name). */
static size_t section(const uint8_t *st, size_t len, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i + 4 + n <= len; i++)
        if (st[i] == n && st[i + 1] == 0 && st[i + 2] == 0 && st[i + 3] == 0 && memcmp(st + i + 4, name, n) == 0)
            return i;
    fail_msg("no %s section", name);
    return 0;
}

/* A real state converts: the RAM is the state's, and from it the machine runs the game on (the differential test
 * tests/compat/atari_stella_states_diff.py compares every frame with Stella). A second load of our own snapshot of
 * it gives the same machine. */
static void real_state_converts(void **state)
{
    fixture *fx = *state;
    rg_emu *emu = open_pong(fx);
    assert_int_equal(rg_emu_run(emu), RG_OK); /* somewhere else first */
    assert_int_equal(rg_emu_state_load(emu, fx->state, fx->len), RG_OK);
    uint8_t ram[128];
    assert_int_equal(rg_emu_mem_read(emu, 0x80, ram, sizeof ram), RG_OK);
    assert_memory_equal(ram, stella_ram(fx->state, fx->len), sizeof ram);
    /* without padding too (Stella's own size) */
    size_t exact = fx->len;
    while (exact > 0 && fx->state[exact - 1] == 0)
        exact--;
    assert_true(exact < fx->len); /* Pong's last byte, the console switches, is not 0 */
    assert_int_equal(rg_emu_state_load(emu, fx->state, exact), RG_OK);
    static uint8_t ours[8192];
    size_t n = snapshot(emu, ours, sizeof ours);
    uint64_t frames[2];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 30; i++)
            assert_int_equal(rg_emu_run(emu), RG_OK);
        frames[round] = test_frame_hash(emu) ^ test_ram_hash(emu);
        assert_int_equal(rg_emu_state_load(emu, round ? ours : fx->state, round ? n : fx->len), RG_OK);
    }
    assert_true(frames[0] == frames[1]);
    rg_emu_free(emu);
}

/* Every truncation is refused and changes nothing. */
static void truncated_states_refused(void **state)
{
    fixture *fx = *state;
    rg_emu *emu = open_pong(fx);
    assert_int_equal(rg_emu_run(emu), RG_OK);
    size_t exact = section(fx->state, fx->len, "TIASound"); /* well inside; then every length up to the end */
    for (size_t len = 17; len < exact; len += 7)
        assert_refused(emu, fx->state, len, "truncated");
    size_t end = fx->len;
    while (end > 0 && fx->state[end - 1] == 0)
        end--;
    for (size_t len = exact; len < end; len++)
        assert_refused(emu, fx->state, len, "truncated");
    rg_emu_free(emu);
}

/* Damaged fields: each refused with a message naming what is wrong, the machine left as it was. */
static void damaged_states_refused(void **state)
{
    fixture *fx = *state;
    rg_emu *emu = open_pong(fx);
    assert_int_equal(rg_emu_run(emu), RG_OK);
    static uint8_t st[STATE_MAX];
    size_t len = fx->len;
#define MUTATE(offset, value, why)                                                                                    \
    do {                                                                                                              \
        memcpy(st, fx->state, len);                                                                                   \
        st[(offset)] = (uint8_t)(value);                                                                              \
        assert_refused(emu, st, len, (why));                                                                          \
    } while (0)
    size_t cpu = section(fx->state, len, "M6502") + 9, riot = section(fx->state, len, "M6532") + 9;
    size_t tia = section(fx->state, len, "TIA") + 7;
    /* a CPU flag that is neither of Stella's two boolean bytes */
    MUTATE(cpu + 7, 0x00, "flag N is not a boolean");
    /* the execution status with the fatal-error bit */
    MUTATE(cpu + 14, 0x03, "execution status");
    /* a section name changed */
    MUTATE(riot - 1, '3', "'M6532'");
    /* the timer interval: 5 */
    MUTATE(riot + 128 + 4, 5, "interval shift");
    /* the RIOT's interrupt flags with an unknown bit */
    MUTATE(riot + 128 + 16, 0x01, "interrupt flag");
    /* the TIA's frame start clock after the frame's clock (positive) */
    MUTATE(tia + 3, 0x00, "frame clocks");
    /* an object position of 200 (the first of the five 16-bit positions) */
    size_t pos = tia + 28 + 2 + 4 + 8 + 2 + 2 + 4 + 4 + 4 + 5 + 5 + 2 + 4 + 2 + 1 + 4;
    MUTATE(pos, 200, "object position");
    /* the cartridge's name at the start: another layout, and an unknown one */
    size_t cart = section(fx->state, len, "Cartridge2K");
    MUTATE(cart + 13, '4', "4K cartridge");
    MUTATE(cart + 13, 'Z', "not one this core runs");
    /* not Stella's version string */
    MUTATE(8, '4', "an atari2600 state is");
    /* a byte after the end that is not padding */
    MUTATE(len - 1, 0x55, "not padding");
#undef MUTATE
    /* another game's state: an F8 cartridge for this 2K ROM */
    if (fx->other_len)
        assert_refused(emu, fx->other, fx->other_len, "F8 cartridge");
    rg_emu_free(emu);
}

/* Every single byte changed: the load either fails cleanly (the machine as it was) or gives a state the machine
 * runs. */
static void mutated_states_safe(void **state)
{
    fixture *fx = *state;
    rg_emu *emu = open_pong(fx);
    static uint8_t st[STATE_MAX], before[8192], after[8192];
    size_t refused = 0;
    for (size_t i = 0; i < fx->len; i++) {
        memcpy(st, fx->state, fx->len);
        st[i] ^= (uint8_t)(0x5A + i);
        size_t n = snapshot(emu, before, sizeof before);
        int rc = rg_emu_state_load(emu, st, fx->len);
        if (rc == RG_OK) {
            assert_int_equal(rg_emu_run(emu), RG_OK);
        } else {
            assert_int_equal(rc, RG_ESTATE);
            assert_non_null(strstr(rg_error_last(), "atari2600"));
            assert_int_equal(snapshot(emu, after, sizeof after), n);
            assert_memory_equal(before, after, n);
            refused++;
        }
    }
    /* names, booleans and padding alone are well over a third of the bytes */
    assert_true(refused > fx->len / 3);
    rg_emu_free(emu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(real_state_converts),
        cmocka_unit_test(truncated_states_refused),
        cmocka_unit_test(damaged_states_refused),
        cmocka_unit_test(mutated_states_safe),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
