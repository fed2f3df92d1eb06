/* The standalone libretro build of our NES core (nes_libretro.so), loaded through our own libretro host: frames
 * (geometry, pixel format, bytes), RAM and states equal the built-in core's frame for frame on our test ROM and game
 * (and the demo ROM when ../shared is there). */
#include "test_libretro_pair.h"
#include "test_support.h"

#include <stdio.h>

#ifndef NES_LIBRETRO
#error "NES_LIBRETRO must name the built nes_libretro.so"
#endif

static const test_libretro_pair nes_so = {
    .core = "nes", .library = NES_LIBRETRO, .core_library = "retrogym NES", .format = RG_PIXEL_RGB565, .frames = 240,
    .pad_mask = 0x1F3u, .ram_addr = 0, .ram_size = 2048, .ram_name = "RAM"};

static void same_as_builtin(void **state)
{
    (void)state;
    char paths[3][1024];
    size_t n = 0;
    test_source_path("tests/roms/bin/test.nes", paths[n++], sizeof paths[0]);
    test_source_path("data/stable/StarCatcher-Nes/rom.nes", paths[n++], sizeof paths[0]);
    if (test_shared_roms())
        snprintf(paths[n++], sizeof paths[0], "%s/Dr88-FamiconIntro.nes", test_shared_roms());
    for (size_t r = 0; r < n; r++)
        test_libretro_pair_same(paths[r], &nes_so);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_as_builtin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
