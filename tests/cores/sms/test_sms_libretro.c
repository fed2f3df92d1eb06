/* The standalone libretro build of our SMS/GG core (sms_libretro.so), loaded through our own libretro host: frames
 * (geometry, pixel format, bytes), the 8 KiB of RAM and states equal the built-in core's frame for frame, on a small
 * ROM built by the test (as .sms and .gg: the .so picks Game Gear mode from the file name) and on the demo ROMs when
 * ../shared is there. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SMS_LIBRETRO
#error "SMS_LIBRETRO must name the built sms_libretro.so"
#endif

#define FRAMES 240

static rg_emu *open_core(const char *rom, const char *core, const char *system)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = core;
    o.system = system;
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, rom, &o) != RG_OK)
        fail_msg("cannot open %s in %s: %s", rom, core, rg_error_last());
    return emu;
}

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
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(rom, 1, sizeof rom, f), sizeof rom);
    fclose(f);
}

static void same_as_builtin(const char *rom, const char *core, const char *system)
{
    rg_emu *a = open_core(rom, core, system), *b = open_core(rom, SMS_LIBRETRO, system);
    assert_string_equal(rg_emu_core_library(b), "retrogym SMS/GG");
    uint8_t ra[0x2000], rb[0x2000];
    for (unsigned f = 0; f < FRAMES; f++) {
        uint16_t pad = (uint16_t)(((f / 6u + 3u) * 2654435761u >> 9) & 0x1F1u);
        rg_emu_set_buttons(a, 0, pad);
        rg_emu_set_buttons(b, 0, pad);
        assert_int_equal(rg_emu_run(a), RG_OK);
        assert_int_equal(rg_emu_run(b), RG_OK);
        rg_frame fa, fb;
        assert_int_equal(rg_emu_frame(a, &fa), RG_OK);
        assert_int_equal(rg_emu_frame(b, &fb), RG_OK);
        assert_int_equal(fb.format, RG_PIXEL_RGB565);
        assert_int_equal(fa.width, fb.width);
        assert_int_equal(fa.height, fb.height);
        if (test_frame_hash(a) != test_frame_hash(b))
            fail_msg("%s: frame %u differs between the built-in core and sms_libretro.so", rom, f);
        assert_int_equal(rg_emu_mem_read(a, 0xC000, ra, sizeof ra), RG_OK);
        assert_int_equal(rg_emu_mem_read(b, 0xC000, rb, sizeof rb), RG_OK);
        if (memcmp(ra, rb, sizeof ra) != 0)
            fail_msg("%s: RAM of frame %u differs", rom, f);
    }
    assert_true(ra[0x10] >= FRAMES - 2 || strstr(rom, "rg_sms_so") == NULL); /* our ROM counts its frames */
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
