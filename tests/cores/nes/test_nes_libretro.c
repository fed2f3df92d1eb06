/* The standalone libretro build of our NES core (nes_libretro.so), loaded through our own libretro host: frames
 * (geometry, pixel format, bytes), RAM and states equal the built-in core's frame for frame on our test ROM and game
 * (and the demo ROM when ../shared is there). */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NES_LIBRETRO
#error "NES_LIBRETRO must name the built nes_libretro.so"
#endif

#define FRAMES 240

static rg_emu *open_core(const char *rom, const char *core)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = core;
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, rom, &o) != RG_OK)
        fail_msg("cannot open %s in %s: %s", rom, core, rg_error_last());
    return emu;
}

static uint16_t script_buttons(unsigned frame)
{
    uint32_t x = (frame / 6u + 3u) * 2654435761u;
    return (uint16_t)((x >> 9) & 0x1F3u);
}

static void same_as_builtin(void **state)
{
    (void)state;
    char paths[3][1024];
    size_t n = 0;
    test_source_path("tests/roms/bin/test.nes", paths[n++], sizeof paths[0]);
    test_source_path("data/stable/StarCatcher-Nes/rom.nes", paths[n++], sizeof paths[0]);
    if (test_shared_roms())
        snprintf(paths[n++], sizeof paths[0], "%s/Dr88-FamiconIntro.nes", test_shared_roms());
    for (size_t r = 0; r < n; r++) {
        rg_emu *a = open_core(paths[r], "nes"), *b = open_core(paths[r], NES_LIBRETRO);
        assert_string_equal(rg_emu_core_library(b), "retrogym NES");
        uint8_t ra[2048], rb[2048];
        for (unsigned f = 0; f < FRAMES; f++) {
            rg_emu_set_buttons(a, 0, script_buttons(f));
            rg_emu_set_buttons(b, 0, script_buttons(f));
            assert_int_equal(rg_emu_run(a), RG_OK);
            assert_int_equal(rg_emu_run(b), RG_OK);
            rg_frame fa, fb;
            assert_int_equal(rg_emu_frame(a, &fa), RG_OK);
            assert_int_equal(rg_emu_frame(b, &fb), RG_OK);
            assert_int_equal(fb.format, RG_PIXEL_RGB565);
            assert_int_equal(fa.width, fb.width);
            assert_int_equal(fa.height, fb.height);
            if (test_frame_hash(a) != test_frame_hash(b))
                fail_msg("%s: frame %u differs between the built-in core and nes_libretro.so", paths[r], f);
            assert_int_equal(rg_emu_mem_read(a, 0, ra, sizeof ra), RG_OK);
            assert_int_equal(rg_emu_mem_read(b, 0, rb, sizeof rb), RG_OK);
            if (memcmp(ra, rb, sizeof ra) != 0)
                fail_msg("%s: RAM of frame %u differs", paths[r], f);
        }
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
        }
        free(snap);
        rg_emu_free(a);
        rg_emu_free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_as_builtin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
