/* The third-party demo ROMs of ../shared/roms boot wherever an installed core runs them (skipped when
 * ../shared is absent). They are never committed. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const demos[] = {
    "Dr88-FamiconIntro.nes", "dox-fire.gb",         "Vantage-LostMarbles.gba", "chrisc-512_Colours.pce",
    "Anthrox-SineDotDemo.sfc", "Dekadence-Dekadrive.md", "blind-happy10.sms",  "benryves-SegaTween.gg",
    "automaton.a26",
};

static int has_core(const rg_system_info *sys)
{
    for (size_t i = 0; i < sys->n_cores; i++)
        if (test_core_installed(sys->cores[i]))
            return 1;
    return 0;
}

/* The bytes of the last frame's RGB24 picture that are not 0; its size in *size. */
static size_t lit_bytes(rg_emu *emu, size_t *size)
{
    rg_frame f;
    rg_emu_frame(emu, &f);
    *size = (size_t)f.width * f.height * 3;
    uint8_t *rgb = malloc(*size);
    assert_non_null(rgb);
    assert_int_equal(rg_emu_frame_rgb24(emu, rgb, *size), RG_OK);
    size_t lit = 0;
    for (size_t i = 0; i < *size; i++)
        lit += rgb[i] != 0;
    free(rgb);
    return lit;
}

/* ../shared's Dekadrive is 4,095 bytes, a byte short of the demo: after its start-up code the 68000 branches to
 * $936, which now falls in the middle of an instruction (its LEA starts at $935), a line-F word; the line-F vector
 * points at an RTE, which returns to the same word: the demo loops on the exception with the display as the start-up
 * code left it (blank), on Genesis Plus GX as on ours. What it can show: the frame's size (V30: the start-up
 * code's register 1), a black picture and the exception frames on the stack at the top of work RAM. */
static void broken_dekadrive(rg_emu *emu)
{
    for (int i = 0; i < 300; i++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    rg_frame f;
    rg_emu_frame(emu, &f);
    assert_int_equal(f.width, 320);
    assert_int_equal(f.height, 240); /* the start-up code sets V30 (register 1 bit 3) */
    size_t size;
    assert_int_equal(lit_bytes(emu, &size), 0);
    static uint8_t ram[65536];
    size_t n = rg_emu_ram_size(emu), used = 0;
    assert_int_equal(n, sizeof ram);
    assert_int_equal(rg_emu_ram_copy(emu, ram, sizeof ram), RG_OK);
    for (size_t i = 0; i < n; i++)
        used += ram[i] != 0;
    assert_true(used > 0 && used < 16);            /* a few bytes of exception frame, nothing else */
    assert_true(ram[n - 1] || ram[n - 2] || ram[n - 5]);
    rg_emu_free(emu);
}

static void boot(void **state)
{
    const char *name = *state;
    const char *dir = test_shared_roms();
    if (!dir) {
        print_message("[ SKIPPED  ] ../shared/roms is absent\n");
        skip();
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const rg_system_info *sys;
    assert_int_equal(rg_system_for_path(&sys, path), RG_OK);
    if (!has_core(sys)) {
        print_message("[ SKIPPED  ] %s: no %s core installed\n", name, sys->name);
        skip();
    }
    rg_emu *emu = test_open(path, NULL);
    if (strcmp(name, "Dekadence-Dekadrive.md") == 0) {
        broken_dekadrive(emu);
        return;
    }
    uint64_t first = 0;
    for (int i = 0; i < 300; i++) {
        assert_int_equal(rg_emu_run(emu), RG_OK);
        if (i == 30)
            first = test_frame_hash(emu);
    }
    rg_frame f;
    rg_emu_frame(emu, &f);
    assert_true(f.width >= 160 && f.height >= 144);
    size_t size, lit = lit_bytes(emu, &size);
    assert_true(lit > 0);                              /* something is drawn */
    assert_true(test_frame_hash(emu) != first || lit > size / 2); /* and it animates (or fills the screen) */
    assert_true(rg_emu_ram_size(emu) > 0);
    rg_emu_free(emu);
}

int main(void)
{
    struct CMUnitTest tests[9];
    for (size_t i = 0; i < 9; i++)
        tests[i] = (struct CMUnitTest){demos[i], boot, NULL, NULL, (void *)demos[i]};
    return _cmocka_run_group_tests("demo_roms", tests, 9, NULL, NULL);
}
