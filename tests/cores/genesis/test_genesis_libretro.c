/* The standalone libretro build of our Genesis core (genesis_libretro.so), loaded through our own libretro host: on
 * our Genesis test ROM (tests/roms/bin/test.md) with pad input, the frames (size, pixel format, bytes), the 64 KiB of
 * work RAM and the backup RAM (RETRO_MEMORY_SAVE_RAM, read through rg_emu_save_ram) equal the built-in core's frame
 * for frame, and a state of the .so loads into the built-in core and both go on alike; then the Dekadence demo when
 * ../shared is there. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GENESIS_LIBRETRO
#error "GENESIS_LIBRETRO must name the built genesis_libretro.so"
#endif

#define FRAMES 240

static void same_save_ram(rg_emu *a, rg_emu *b)
{
    uint8_t *sa = NULL, *sb = NULL;
    size_t na = 0, nb = 0;
    assert_int_equal(rg_emu_save_ram(a, &sa, &na), RG_OK);
    assert_int_equal(rg_emu_save_ram(b, &sb, &nb), RG_OK);
    assert_int_equal(na, nb);
    if (na)
        assert_memory_equal(sa, sb, na);
}

static void same_as_builtin(const char *rom)
{
    rg_emu *a = test_open_in(rom, "genesis", NULL, 0), *b = test_open_in(rom, GENESIS_LIBRETRO, NULL, 0);
    assert_string_equal(rg_emu_core_library(b), "retrogym Genesis");
    static uint8_t ra[0x10000], rb[0x10000];
    for (unsigned f = 0; f < FRAMES; f++) {
        uint16_t pad = (uint16_t)(((f / 6u + 3u) * 2654435761u >> 9) & 0xFFFu);
        rg_emu_set_buttons(a, 0, pad);
        rg_emu_set_buttons(b, 0, pad);
        assert_int_equal(rg_emu_run(a), RG_OK);
        assert_int_equal(rg_emu_run(b), RG_OK);
        rg_frame fa, fb;
        assert_int_equal(rg_emu_frame(a, &fa), RG_OK);
        assert_int_equal(rg_emu_frame(b, &fb), RG_OK);
        assert_int_equal(fb.format, RG_PIXEL_XRGB8888);
        assert_int_equal(fa.width, fb.width);
        assert_int_equal(fa.height, fb.height);
        if (test_frame_hash(a) != test_frame_hash(b))
            fail_msg("%s: frame %u differs between the built-in core and genesis_libretro.so", rom, f);
        assert_int_equal(rg_emu_mem_read(a, 0xFF0000u, ra, sizeof ra), RG_OK);
        assert_int_equal(rg_emu_mem_read(b, 0xFF0000u, rb, sizeof rb), RG_OK);
        if (memcmp(ra, rb, sizeof ra) != 0)
            fail_msg("%s: work RAM of frame %u differs", rom, f);
    }
    same_save_ram(a, b);
    /* a state of the .so loads into the built-in core and both go on alike */
    size_t size = 0, written = 0;
    assert_int_equal(rg_emu_state_size(b, &size), RG_OK);
    uint8_t *snap = malloc(size);
    assert_non_null(snap);
    assert_int_equal(rg_emu_state_save(b, snap, size, &written), RG_OK);
    assert_int_equal(rg_emu_state_load(a, snap, written), RG_OK);
    for (unsigned f = 0; f < 30; f++) {
        assert_int_equal(rg_emu_run(a), RG_OK);
        assert_int_equal(rg_emu_run(b), RG_OK);
        assert_true(test_frame_hash(a) == test_frame_hash(b));
        assert_true(test_ram_hash(a) == test_ram_hash(b));
    }
    same_save_ram(a, b);
    free(snap);
    rg_emu_free(a);
    rg_emu_free(b);
}

static void test_own_rom(void **state)
{
    (void)state;
    char rom[1024];
    same_as_builtin(test_source_path("tests/roms/bin/test.md", rom, sizeof rom));
}

static void test_demo_rom(void **state)
{
    (void)state;
    const char *dir = test_shared_roms();
    if (!dir)
        skip();
    char path[1024];
    snprintf(path, sizeof path, "%s/Dekadence-Dekadrive.md", dir);
    same_as_builtin(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_rom),
        cmocka_unit_test(test_demo_rom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
