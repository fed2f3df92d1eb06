/* Save states on every Debian core with our test ROMs: restore-and-replay is exact, gzip state files round-trip,
 * and a power-on reset reproduces boot exactly; a saved state holds nothing of the caller's buffer (Genesis Plus GX
 * writes fewer bytes than its state size: the rest must be zeros, not what the buffer held). */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REPLAY 200

static test_rom roms[16];

/* A deterministic input schedule: a new button combination every 8 frames. */
static uint16_t scripted(uint64_t frame, unsigned seed)
{
    uint64_t x = (frame / 8 + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    x ^= x >> 29;
    return (uint16_t)(x & 0x0FF3); /* no SELECT/START: keeps menus of demo ROMs out of the way */
}

static void trace(rg_emu *emu, uint64_t from, uint64_t *frames, uint64_t *rams)
{
    for (int i = 0; i < REPLAY; i++) {
        rg_emu_set_buttons(emu, 0, scripted(from + (uint64_t)i, 7));
        assert_int_equal(rg_emu_run(emu), RG_OK);
        frames[i] = test_frame_hash(emu);
        rams[i] = test_ram_hash(emu);
    }
}

static void restore_replays_exactly(const test_rom *r)
{
    rg_emu *emu = test_open(r->path, r->core);
    for (uint64_t f = 0; f < 100; f++) {
        rg_emu_set_buttons(emu, 0, scripted(f, 3));
        rg_emu_run(emu);
    }
    size_t size;
    assert_int_equal(rg_emu_state_size(emu, &size), RG_OK);
    uint8_t *st = malloc(size);
    assert_int_equal(rg_emu_state_save(emu, st, size, &size), RG_OK);
    static uint64_t f1[REPLAY], r1[REPLAY], f2[REPLAY], r2[REPLAY];
    trace(emu, 100, f1, r1);
    assert_int_equal(rg_emu_state_load(emu, st, size), RG_OK);
    trace(emu, 100, f2, r2);
    for (int i = 0; i < REPLAY; i++) {
        if (f1[i] != f2[i] || r1[i] != r2[i])
            fail_msg("%s/%s: frame %d after restore differs (video %d, RAM %d)", r->system, r->core, 100 + i,
                     f1[i] != f2[i], r1[i] != r2[i]);
    }
    free(st);
    rg_emu_free(emu);
}

static void state_file_round_trip(const test_rom *r)
{
    rg_emu *emu = test_open(r->path, r->core);
    for (uint64_t f = 0; f < 150; f++) {
        rg_emu_set_buttons(emu, 0, scripted(f, 5));
        rg_emu_run(emu);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s.state", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", r->system);
    assert_int_equal(rg_emu_state_save_file(emu, path), RG_OK);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    unsigned char magic[2];
    assert_int_equal(fread(magic, 1, 2, fp), 2);
    fclose(fp);
    assert_int_equal(magic[0], 0x1F); /* gzip, as Gym Retro writes .state files */
    assert_int_equal(magic[1], 0x8B);
    uint64_t ram = test_ram_hash(emu);
    static uint64_t fa[REPLAY], ra[REPLAY], fb[REPLAY], rb[REPLAY];
    trace(emu, 150, fa, ra);
    rg_emu_free(emu);
    /* A fresh instance (another private copy of the core) continues from the file identically. */
    emu = test_open(r->path, r->core);
    assert_int_equal(rg_emu_state_load_file(emu, path), RG_OK);
    assert_int_equal(test_ram_hash(emu), ram);
    trace(emu, 150, fb, rb);
    assert_memory_equal(fa, fb, sizeof fa);
    assert_memory_equal(ra, rb, sizeof ra);
    rg_emu_free(emu);
    unlink(path);
}

static void power_on_reset_reproduces_boot(const test_rom *r)
{
    rg_emu *emu = test_open(r->path, r->core);
    static uint64_t fa[REPLAY], ra[REPLAY], fb[REPLAY], rb[REPLAY];
    trace(emu, 0, fa, ra);
    assert_int_equal(rg_emu_frame_count(emu), REPLAY);
    assert_int_equal(rg_emu_reset(emu), RG_OK);
    assert_int_equal(rg_emu_frame_count(emu), 0);
    trace(emu, 0, fb, rb);
    for (int i = 0; i < REPLAY; i++)
        if (fa[i] != fb[i] || ra[i] != rb[i])
            fail_msg("%s/%s: frame %d after a power-on reset differs from boot (video %d, RAM %d)", r->system,
                     r->core, i, fa[i] != fb[i], ra[i] != rb[i]);
    rg_emu_free(emu);
}

/* Two saves of the same moment into buffers that held different bytes: no byte is the old fill in both. */
static void save_holds_no_stale_bytes(const char *path, const char *core)
{
    rg_emu *emu = test_open(path, core);
    for (uint64_t f = 0; f < 30; f++) {
        rg_emu_set_buttons(emu, 0, scripted(f, 9));
        assert_int_equal(rg_emu_run(emu), RG_OK);
    }
    size_t size, n1, n2;
    assert_int_equal(rg_emu_state_size(emu, &size), RG_OK);
    uint8_t *a = malloc(size), *b = malloc(size);
    assert_non_null(a);
    assert_non_null(b);
    memset(a, 0xA5, size);
    memset(b, 0x5A, size);
    assert_int_equal(rg_emu_state_save(emu, a, size, &n1), RG_OK);
    assert_int_equal(rg_emu_state_save(emu, b, size, &n2), RG_OK);
    assert_int_equal(n1, n2);
    /* A byte the core did not write is the fill in both (some cores' saves also move the machine on, e.g. bsnes
     * synchronising its chips, so other bytes may differ between the two saves) */
    for (size_t i = 0; i < n1; i++)
        if (a[i] == 0xA5 && b[i] == 0x5A)
            fail_msg("%s on %s: byte %zu of %zu of a saved state is the buffer's old content", path, core, i, n1);
    free(a);
    free(b);
    rg_emu_free(emu);
}

static void saved_states_hold_no_stale_bytes(void **state)
{
    (void)state;
    test_use_wheel_cores(); /* Genesis Plus GX from stable-retro's wheel, when installed */
    size_t n = test_roms_load(roms, 16);
    int ran = 0;
    for (size_t i = 0; i < n; i++) {
        const char *core = roms[i].core[0] ? roms[i].core : NULL;
        if (!core && (strcmp(roms[i].system, "Sms") == 0 || strcmp(roms[i].system, "GameGear") == 0 ||
                      strcmp(roms[i].system, "Genesis") == 0))
            core = "genesis_plus_gx";
        if (!core || !test_core_installed(core))
            continue;
        save_holds_no_stale_bytes(roms[i].path, core);
        ran++;
    }
    if (!ran)
        skip();
}

static void run_all(void **state)
{
    void (*check)(const test_rom *) = (void (*)(const test_rom *))*state;
    size_t n = test_roms_load(roms, 16);
    int ran = 0;
    for (size_t i = 0; i < n; i++) {
        if (!roms[i].core[0] || !test_core_installed(roms[i].core))
            continue;
        check(&roms[i]);
        ran++;
    }
    if (!ran)
        skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        {"restore_replays_exactly", run_all, NULL, NULL, (void *)restore_replays_exactly},
        {"state_file_round_trip", run_all, NULL, NULL, (void *)state_file_round_trip},
        {"power_on_reset_reproduces_boot", run_all, NULL, NULL, (void *)power_on_reset_reproduces_boot},
        cmocka_unit_test(saved_states_hold_no_stale_bytes), /* last: it puts the wheel's cores on the path */
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
