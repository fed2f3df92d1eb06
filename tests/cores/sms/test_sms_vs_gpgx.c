/* Our SMS/GG core against Genesis Plus GX (stable-retro's genesis_plus_gx libretro core through our host, with the
 * core options systems/Sms.json and GameGear.json set), frame by frame from power-on on our demo ROMs
 * ../shared/roms/blind-happy10.sms and benryves-SegaTween.gg: the 8 KiB of work RAM at $C000 and the RGB picture
 * after every frame. Informational: each run counts the frames that agree before the first difference and the frames
 * whose picture differs; the test asserts what held when it was written (docs/sms.md, "Equivalence") so that a
 * regression fails and an improvement is seen. SMS_VS_GPGX_VERBOSE=1 prints every run. Skipped without ../shared or
 * the stable-retro wheel. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 600u
/* measured (docs/sms.md) */
#define SMS_RAM 9u
#define SMS_PIX 11u
#define SMS_PIX_BAD 589u
#define GG_RAM 11u
#define GG_PIX 27u
#define GG_PIX_BAD 175u

typedef struct result {
    unsigned ram_frames;  /* frames whose RAM agreed before the first difference (FRAMES: all) */
    unsigned pix_frames;  /* the same for the picture */
    unsigned pix_bad;     /* frames whose picture differed */
    unsigned ram_bad;     /* frames whose RAM differed */
    char ram_why[160];
    char pix_why[160];
} result;

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

static void read_ram(const rg_emu *emu, uint8_t out[0x2000])
{
    if (rg_emu_mem_read(emu, 0xC000, out, 0x2000) != RG_OK)
        fail_msg("RAM of %s: %s", rg_emu_core_name(emu), rg_error_last());
}

static void compare(const char *rom, const char *ours, const char *system, unsigned w, unsigned h, result *out)
{
    rg_emu *gx = open_core(rom, "genesis_plus_gx", system), *us = open_core(rom, ours, system);
    size_t n = (size_t)w * h * 3;
    uint8_t *a = malloc(n), *b = malloc(n);
    assert_non_null(a);
    assert_non_null(b);
    memset(out, 0, sizeof *out);
    /* GPGX's first frame from power-on leaves the machine where it was (measured: its frame f + 1 holds our frame f's
     * RAM, the stack included): it runs that frame alone */
    assert_int_equal(rg_emu_run(gx), RG_OK);
    out->ram_frames = out->pix_frames = FRAMES;
    for (unsigned f = 0; f < FRAMES; f++) {
        assert_int_equal(rg_emu_run(gx), RG_OK);
        assert_int_equal(rg_emu_run(us), RG_OK);
        uint8_t ra[0x2000], rb[0x2000];
        read_ram(gx, ra);
        read_ram(us, rb);
        if (memcmp(ra, rb, sizeof ra) != 0) {
            out->ram_bad++;
            if (out->ram_frames == FRAMES) {
                int k = 0, d = 0;
                while (ra[k] == rb[k])
                    k++;
                for (int i = 0; i < (int)sizeof ra; i++)
                    d += ra[i] != rb[i];
                out->ram_frames = f;
                snprintf(out->ram_why, sizeof out->ram_why, "frame %u: RAM $%04X is %02x in GPGX, %02x in ours (%d "
                         "bytes differ)", f, 0xC000 + k, ra[k], rb[k], d);
            }
        }
        rg_frame fa, fb;
        assert_int_equal(rg_emu_frame(gx, &fa), RG_OK);
        assert_int_equal(rg_emu_frame(us, &fb), RG_OK);
        assert_int_equal(fa.width, w);
        assert_int_equal(fa.height, h);
        assert_int_equal(fb.width, w);
        assert_int_equal(fb.height, h);
        assert_int_equal(rg_emu_frame_rgb24(gx, a, n), RG_OK);
        assert_int_equal(rg_emu_frame_rgb24(us, b, n), RG_OK);
        if (memcmp(a, b, n) != 0) {
            out->pix_bad++;
            if (out->pix_frames == FRAMES) {
                size_t k = 0, d = 0;
                while (a[k] == b[k])
                    k++;
                for (size_t i = 0; i < n; i += 3)
                    d += memcmp(a + i, b + i, 3) != 0;
                out->pix_frames = f;
                snprintf(out->pix_why, sizeof out->pix_why, "frame %u: first pixel differing at row %zu column %zu "
                         "(%zu pixels differ; GPGX %02x%02x%02x, ours %02x%02x%02x)", f, k / 3 / w, k / 3 % w, d,
                         a[k / 3 * 3], a[k / 3 * 3 + 1], a[k / 3 * 3 + 2], b[k / 3 * 3], b[k / 3 * 3 + 1],
                         b[k / 3 * 3 + 2]);
            }
        }
    }
    free(a);
    free(b);
    rg_emu_free(gx);
    rg_emu_free(us);
}

static void report(const char *name, const result *r)
{
    const char *v = getenv("SMS_VS_GPGX_VERBOSE");
    if (v && *v && strcmp(v, "0") != 0)
        print_message("%-24s RAM %3u frames agree%s%s; %u/%u frames differ | pixels %3u frames agree%s%s; %u/%u "
                      "frames differ\n", name, r->ram_frames, r->ram_why[0] ? " (" : "", r->ram_why, r->ram_bad,
                      FRAMES, r->pix_frames, r->pix_why[0] ? ": " : "", r->pix_why, r->pix_bad, FRAMES);
}

static int setup(const char *file, char *rom, size_t cap)
{
    const char *dir = test_shared_roms();
    if (!dir) {
        print_message("skipped: no ../shared/roms\n");
        return 0;
    }
    test_use_wheel_cores();
    char so[1024];
    if (!test_wheel_core("genesis_plus_gx", so, sizeof so) || !test_core_installed("genesis_plus_gx")) {
        print_message("skipped: no genesis_plus_gx from the stable-retro wheel\n");
        return 0;
    }
    snprintf(rom, cap, "%s/%s", dir, file);
    return 1;
}

static void test_sms_demo(void **s)
{
    (void)s;
    char rom[1200];
    if (!setup("blind-happy10.sms", rom, sizeof rom))
        skip();
    result r;
    compare(rom, "sms", "Sms", 256, 192, &r);
    report("blind-happy10.sms", &r);
    assert_true(r.ram_frames >= SMS_RAM);
    assert_true(r.pix_frames >= SMS_PIX);
    assert_true(r.pix_bad <= SMS_PIX_BAD);
}

static void test_gg_demo(void **s)
{
    (void)s;
    char rom[1200];
    if (!setup("benryves-SegaTween.gg", rom, sizeof rom))
        skip();
    result r;
    compare(rom, "gamegear", "GameGear", 160, 144, &r);
    report("benryves-SegaTween.gg", &r);
    assert_true(r.ram_frames >= GG_RAM);
    assert_true(r.pix_frames >= GG_PIX);
    assert_true(r.pix_bad <= GG_PIX_BAD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sms_demo),
        cmocka_unit_test(test_gg_demo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
