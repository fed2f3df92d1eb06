/* The standalone libretro build of our SMS/GG core (sms_libretro.so), loaded through our own libretro host: frames
 * (geometry, pixel format, bytes), the 8 KiB of RAM and states equal the built-in core's frame for frame, on a small
 * ROM built by the test (as .sms and .gg: the .so picks Game Gear mode from the file name) and on the demo ROMs when
 * ../shared is there. */
#define _POSIX_C_SOURCE 200809L
#include "test_libretro_pair.h"
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SMS_LIBRETRO
#error "SMS_LIBRETRO must name the built sms_libretro.so"
#endif

#define FRAMES 240

/* display on with the frame interrupt; the handler counts frames at $C010 and stores the joypad port at $C011 */
static void write_rom(const char *path)
{
    static uint8_t rom[0x4000];
    memset(rom, 0, sizeof rom);
    static const uint8_t boot[] = {0xF3, 0x31, 0xF0, 0xDF, 0xED, 0x56, 0x3E, 0x60, 0xD3, 0xBF, 0x3E, 0x81, 0xD3,
                                   0xBF, 0x3E, 0x3F, 0xD3, 0xBF, 0x3E, 0xC0, 0xD3, 0xBF, 0xFB, 0x76, 0x18, 0xFD};
    static const uint8_t irq[] = {0xF5, 0xDB, 0xBF, 0x3A, 0x10, 0xC0, 0x3C, 0x32, 0x10, 0xC0, 0xD3, 0xBE,
                                  0xDB, 0xDC, 0x32, 0x11, 0xC0, 0xF1, 0xFB, 0xC9};
    memcpy(rom, boot, sizeof boot);
    memcpy(rom + 0x38, irq, sizeof irq);
    test_write_file(path, rom, sizeof rom);
}

/* our ROM counts its frames at $C010 (the demo ROMs are not checked) */
static void check_counter(const char *rom, const uint8_t *ram, size_t size)
{
    (void)size;
    assert_true(ram[0x10] >= FRAMES - 2 || strstr(rom, "rg_sms_so") == NULL);
}

static void same_as_builtin(const char *rom, const char *core, const char *system)
{
    const test_libretro_pair p = {
        .core = core, .system = system, .library = SMS_LIBRETRO, .core_library = "retrogym SMS/GG",
        .format = RG_PIXEL_RGB565, .frames = FRAMES, .pad_mask = 0x1F1u, .ram_addr = 0xC000, .ram_size = 0x2000,
        .ram_name = "RAM", .check_ram = check_counter};
    test_libretro_pair_same(rom, &p);
}

static void test_own_rom(void **state)
{
    (void)state;
    const char *dir = getenv("TMPDIR");
    char path[1024];
    static const struct { const char *ext, *core, *system; } k[] = {{"sms", "sms", "Sms"},
                                                                   {"gg", "gamegear", "GameGear"}};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/rg_sms_so_%d.%s", dir && *dir ? dir : "/tmp", (int)getpid(), k[i].ext);
        write_rom(path);
        same_as_builtin(path, k[i].core, k[i].system);
        remove(path);
    }
}

static void test_demo_roms(void **state)
{
    (void)state;
    const char *dir = test_shared_roms();
    if (!dir)
        skip();
    char path[1024];
    snprintf(path, sizeof path, "%s/blind-happy10.sms", dir);
    same_as_builtin(path, "sms", "Sms");
    snprintf(path, sizeof path, "%s/benryves-SegaTween.gg", dir);
    same_as_builtin(path, "gamegear", "GameGear");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_rom),
        cmocka_unit_test(test_demo_roms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
