/* The standalone libretro build of our Genesis core (genesis_libretro.so), loaded through our own libretro host: on
 * our Genesis test ROM (tests/roms/bin/test.md) with pad input, the frames (size, pixel format, bytes), the 64 KiB of
 * work RAM and the backup RAM (RETRO_MEMORY_SAVE_RAM, read through rg_emu_save_ram) equal the built-in core's frame
 * for frame, and a state of the .so loads into the built-in core and both go on alike; then the Dekadence demo when
 * ../shared is there. */
#define _POSIX_C_SOURCE 200809L
#include "test_libretro_pair.h"
#include "test_support.h"

#include <stdio.h>

#ifndef GENESIS_LIBRETRO
#error "GENESIS_LIBRETRO must name the built genesis_libretro.so"
#endif

/* the 64 KiB of work RAM every frame, the backup RAM after the frames and after the continuation, and every memory
 * block (test_ram_hash) each frame of the continuation */
static const test_libretro_pair genesis_so = {
    .core = "genesis", .library = GENESIS_LIBRETRO, .core_library = "retrogym Genesis", .format = RG_PIXEL_XRGB8888,
    .frames = 240, .pad_mask = 0xFFFu, .ram_addr = 0xFF0000u, .ram_size = 0x10000, .ram_name = "work RAM",
    .save_ram = 1, .ram_hash_after_load = 1};

static void test_own_rom(void **state)
{
    (void)state;
    char rom[1024];
    test_libretro_pair_same(test_source_path("tests/roms/bin/test.md", rom, sizeof rom), &genesis_so);
}

static void test_demo_rom(void **state)
{
    (void)state;
    const char *dir = test_shared_roms();
    if (!dir)
        skip();
    char path[1024];
    snprintf(path, sizeof path, "%s/Dekadence-Dekadrive.md", dir);
    test_libretro_pair_same(path, &genesis_so);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_rom),
        cmocka_unit_test(test_demo_rom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
