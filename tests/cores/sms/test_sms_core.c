/* The SMS/GG core (src/cores/sms) through the public emulator API (core "sms" for .sms, "gamegear" for .gg): our
 * demo ROMs ../shared/roms/blind-happy10.sms and benryves-SegaTween.gg draw non-blank pictures that change over time,
 * a snapshot replays the same frames and RAM, the Codemasters mapper is detected from its header, bad ROM images and
 * hostile states are refused with an error naming the problem and the machine unchanged. The demo ROM parts skip
 * without ../shared. */
#include "test_emu_state.h"
#include "test_support.h"

#include "base/base.h"
#include "cores/sms/sms.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_SIZE 24u /* our state header: magic[8], version, size, rom hash */

static uint16_t script_buttons(unsigned frame)
{
    uint32_t x = (frame / 7u + 1u) * 2654435761u;
    return (uint16_t)((x >> 11) & 0x1F1u); /* B, directions, A; never START (pause) */
}

static void demo_rom(const char *file, const char *core, unsigned w, unsigned h)
{
    const char *dir = test_shared_roms();
    if (!dir) {
        print_message("skipped: no ../shared/roms\n");
        skip();
    }
    char rom[1200];
    snprintf(rom, sizeof rom, "%s/%s", dir, file);
    rg_emu *emu = test_open(rom, core);
    assert_string_equal(rg_emu_core_name(emu), core);
    rg_frame f;
    assert_int_equal(rg_emu_frame(emu, &f), RG_OK);
    assert_int_equal(f.width, w);
    assert_int_equal(f.height, h);
    uint64_t hashes[8];
    unsigned max_colours = 0;
    for (unsigned i = 0; i < 400; i++) {
        rg_emu_set_buttons(emu, 0, script_buttons(i));
        assert_int_equal(rg_emu_run(emu), RG_OK);
        if (i % 50u == 49u) {
            hashes[i / 50u] = test_frame_hash(emu);
            unsigned c = test_frame_colours(emu);
            if (c > max_colours)
                max_colours = c;
        }
    }
    assert_true(max_colours >= 3); /* a drawn picture, not one colour */
    unsigned distinct = 0;
    for (unsigned i = 1; i < 8; i++)
        distinct += hashes[i] != hashes[i - 1];
    assert_true(distinct >= 3); /* it moves */

    /* snapshot: the next 60 frames replay identically */
    size_t n = 0;
    assert_int_equal(rg_emu_state_size(emu, &n), RG_OK);
    uint8_t *st = malloc(n);
    assert_non_null(st);
    size_t wr = 0;
    assert_int_equal(rg_emu_state_save(emu, st, n, &wr), RG_OK);
    assert_int_equal(wr, n);
    test_state_replays(emu, st, n, script_buttons, 1000, 60);
    free(st);
    rg_emu_free(emu);
}

static void test_sms_demo(void **s)
{
    (void)s;
    demo_rom("blind-happy10.sms", "sms", 256, 192);
}

static void test_gg_demo(void **s)
{
    (void)s;
    demo_rom("benryves-SegaTween.gg", "gamegear", 160, 144);
}

/* A 32 KiB program that writes the frame count to $C010 from its frame interrupt (IM 1 at $0038) with the display
 * on; `codemasters` adds a Codemasters header checksum pair. */
static void make_rom(uint8_t *rom, size_t size, int codemasters)
{
    memset(rom, 0, size);
    static const uint8_t boot[] = {
        0xF3,             /* DI */
        0x31, 0xF0, 0xDF, /* LD SP,$DFF0 */
        0xED, 0x56,       /* IM 1 */
        0x3E, 0x60, 0xD3, 0xBF, 0x3E, 0x81, 0xD3, 0xBF, /* VDP reg 1 = $60: display on, frame interrupt */
        0xFB,             /* EI */
        0x76,             /* HALT */
        0x18, 0xFD,       /* JR -3 */
    };
    memcpy(rom, boot, sizeof boot);
    static const uint8_t irq[] = {
        0xF5,             /* PUSH AF */
        0xDB, 0xBF,       /* IN A,($BF): acknowledge */
        0x3A, 0x10, 0xC0, /* LD A,($C010) */
        0x3C,             /* INC A */
        0x32, 0x10, 0xC0, /* LD ($C010),A */
        0xF1,             /* POP AF */
        0xFB,             /* EI */
        0xC9,             /* RET */
    };
    memcpy(rom + 0x38, irq, sizeof irq);
    if (codemasters) {
        rom[0x7FE6] = 0x34, rom[0x7FE7] = 0x12;
        rom[0x7FE8] = 0xCC, rom[0x7FE9] = 0xED; /* $1234 + $EDCC = $10000 */
    }
}

static void test_synthetic_rom(void **s)
{
    (void)s;
    static uint8_t rom[0x8000];
    char path[1024];
    for (int cm = 0; cm < 2; cm++) {
        make_rom(rom, sizeof rom, cm);
        assert_int_equal(rg__sms_detect_mapper(rom, sizeof rom), cm ? RG__SMS_MAPPER_CODEMASTERS :
                         RG__SMS_MAPPER_SEGA);
        test_write_file(test_tmp_path("rg_sms_synth.sms", path, sizeof path), rom, sizeof rom);
        rg_emu *emu = test_open(path, "sms");
        for (unsigned i = 0; i < 10; i++)
            assert_int_equal(rg_emu_run(emu), RG_OK);
        uint8_t v = 0;
        assert_int_equal(rg_emu_mem_read(emu, 0xC010, &v, 1), RG_OK);
        assert_true(v >= 9 && v <= 10); /* one frame interrupt per frame */
        /* the SMS BIOS's port $3E value at $C000, as Genesis Plus GX leaves it without a BIOS */
        assert_int_equal(rg_emu_mem_read(emu, 0xC000, &v, 1), RG_OK);
        assert_int_equal(v, 0xA8);
        rg_emu_free(emu);
    }
    remove(path);
}

static void test_bad_roms(void **s)
{
    (void)s;
    static uint8_t rom[0x8000 + 512 + 100];
    make_rom(rom, 0x8000, 0);
    char path[1024];
    test_tmp_path("rg_sms_bad.sms", path, sizeof path);
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "sms";
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    test_write_file(path, rom, 0x8000 + 100); /* not whole KiB */
    TEST_EXPECT_ERROR(rg_emu_open(&emu, path, &o), RG_EINVAL, "whole number of KiB");
    assert_null(emu);
    test_write_file(path, rom, 0x8000 + 512 + 100);
    TEST_EXPECT_ERROR(rg_emu_open(&emu, path, &o), RG_EINVAL, "whole number of KiB");
    assert_null(emu);
    /* a 512-byte header in front of the image is skipped: the program runs */
    memmove(rom + 512, rom, 0x8000);
    memset(rom, 0xEE, 512);
    test_write_file(path, rom, 0x8000 + 512);
    emu = test_open(path, "sms");
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    uint8_t v = 0;
    assert_int_equal(rg_emu_mem_read(emu, 0xC000, &v, 1), RG_OK);
    assert_true(v >= 4);
    rg_emu_free(emu);
    remove(path);
}

static void expect_refused(rg_emu *emu, const uint8_t *good, size_t n, size_t off, uint8_t val, const char *text)
{
    uint8_t *bad = malloc(n);
    assert_non_null(bad);
    memcpy(bad, good, n);
    bad[off] = val;
    uint64_t before = test_ram_hash(emu);
    TEST_EXPECT_ERROR(rg_emu_state_load(emu, bad, n), RG_ESTATE, text);
    assert_true(before == test_ram_hash(emu));
    free(bad);
}

static void test_hostile_states(void **s)
{
    (void)s;
    static uint8_t rom[0x8000];
    make_rom(rom, sizeof rom, 0);
    char path[1024];
    test_write_file(test_tmp_path("rg_sms_state.sms", path, sizeof path), rom, sizeof rom);
    rg_emu *emu = test_open(path, "sms");
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    size_t n = 0;
    assert_int_equal(rg_emu_state_size(emu, &n), RG_OK);
    assert_int_equal(n, HEADER_SIZE + sizeof(rg__sms_state));
    uint8_t *st = malloc(n);
    assert_non_null(st);
    assert_int_equal(rg_emu_state_save(emu, st, n, NULL), RG_OK);
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    TEST_EXPECT_ERROR(rg_emu_state_load(emu, st, n - 1), RG_ESTATE, "bytes");
    expect_refused(emu, st, n, 0, 'X', "not an sms state");
    expect_refused(emu, st, n, 16, (uint8_t)(st[16] ^ 1u), "another ROM");
    size_t b = HEADER_SIZE;
    expect_refused(emu, st, n, b + offsetof(rg__sms_state, cpu) + offsetof(rg_z80, im), 7, "cpu");
    expect_refused(emu, st, n, b + offsetof(rg__sms_state, vdp) + offsetof(rg__sms_vdp, code), 4, "vdp.code");
    expect_refused(emu, st, n, b + offsetof(rg__sms_state, vdp) + offsetof(rg__sms_vdp, addr) + 1, 0x40,
                   "vdp.addr");
    expect_refused(emu, st, n, b + offsetof(rg__sms_state, vdp) + offsetof(rg__sms_vdp, line), 5, "vdp.line");
    expect_refused(emu, st, n, b + offsetof(rg__sms_state, vdp) + offsetof(rg__sms_vdp, cram), 0x40, "vdp.cram");
    expect_refused(emu, st, n, b + offsetof(rg__sms_state, psg) + offsetof(rg__sms_psg, vol), 0x10, "psg.vol");
    expect_refused(emu, st, n, b + offsetof(rg__sms_state, psg) + offsetof(rg__sms_psg, latch), 9, "psg.latch");
    expect_refused(emu, st, n, b + offsetof(rg__sms_state, frame), 0x55, "cycles");
    /* the good state still loads */
    assert_int_equal(rg_emu_state_load(emu, st, n), RG_OK);
    free(st);
    rg_emu_free(emu);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synthetic_rom),
        cmocka_unit_test(test_bad_roms),
        cmocka_unit_test(test_hostile_states),
        cmocka_unit_test(test_sms_demo),
        cmocka_unit_test(test_gg_demo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
