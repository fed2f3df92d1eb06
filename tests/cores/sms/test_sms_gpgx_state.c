/* Genesis Plus GX states (what stable-retro's Sms and GameGear integrations ship) loaded into our SMS/GG core
 * (docs/sms.md, "State import"). On the demo ROMs ../shared/roms/blind-happy10.sms and benryves-SegaTween.gg:
 * genesis_plus_gx from stable-retro's wheel (through our host) runs SAVE_AT frames of seeded random input and saves;
 * the state converts, equals our own core's state after the same frames field by field (the documented exceptions
 * aside), and then GPGX (reloaded from its state) and our core (loaded from the same bytes) run RUN frames of other
 * random input with the 8 KiB of RAM and the RGB picture identical after every frame. Bad input (truncated, wrong
 * header or version, hostile fields, a Mega Drive state, features our core lacks) is refused with RG_ESTATE naming
 * what is wrong, and the machine is unchanged. Skipped without ../shared or the stable-retro wheel. */
#define _POSIX_C_SOURCE 200809L
#include "test_emu_state.h"
#include "test_support.h"

#include "cores/gpgx_state/gpgx_state.h"
#include "cores/sms/sms.h"
#include "cores/sms/sms_gpgx_state.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define SAVE_AT 300u
#define RUN 400u
#define OUR_HEADER 24u /* sms_core.c's snapshot header before the rg__sms_state copy */

/* offsets in the layout of docs/sms.md */
#define OFF_RAM 16u
#define OFF_IO 8208u
#define OFF_VRAM (8224u + 0x400u)
#define OFF_CRAM (OFF_VRAM + 0x10000u)
#define OFF_REG (OFF_CRAM + 0x100u)
#define OFF_VTAIL (OFF_REG + 0x20u)
#define OFF_PSG (75110u + 5984u)
#define OFF_Z80 81254u
#define OFF_FCR 81342u

typedef struct demo {
    const char *file, *core, *system;
    unsigned w, h;
} demo;

static const demo k_sms = {"blind-happy10.sms", "sms", "Sms", 256, 192};
static const demo k_gg = {"benryves-SegaTween.gg", "gamegear", "GameGear", 160, 144};

static int setup_rom(const demo *d, char *rom, size_t cap)
{
    return test_shared_rom_with_wheel_core(d->file, "genesis_plus_gx", rom, cap);
}

/* joypad bits of frame f (B, START, directions, A), seeded; START only on the Game Gear (the SMS pause is not
 * saved by GPGX, see docs/sms.md) */
static uint16_t pad(unsigned seed, unsigned port, unsigned f, int gg)
{
    uint32_t x = (f / 3u + seed * 7919u) * 2654435761u ^ (port + 1u) * 0x9E3779B9u;
    x ^= x >> 15;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    uint16_t m = (uint16_t)((x & 0xF0u) | (x >> 8 & 1u) | ((x >> 9 & 1u) << 8));
    if (gg && port == 0 && (x >> 16) % 40u == 0)
        m |= 1u << 3;
    return m;
}

static void run_frame(rg_emu *e, unsigned seed, unsigned f, int gg)
{
    for (unsigned p = 0; p < 2; p++)
        EXPECT_OK(rg_emu_set_buttons(e, p, pad(seed, p, f, gg)));
    EXPECT_OK(rg_emu_run(e));
}

/* Our core's state as the library saves it (header + rg__sms_state). */
static void our_state(rg_emu *e, rg__sms_state *out)
{
    test_state_body(e, OUR_HEADER, out, sizeof *out);
}

/* The converted state against ours after the same frames: everything the machine shows or runs on is equal, except
 * what GPGX does not keep (docs/sms.md: R, p/q of the Z80, register 1 bit 2, the PSG's counters, the sprite list of
 * the next line, the frame count). */
static void compare_states(const rg__sms_state *c, const rg__sms_state *o, int gg)
{
    assert_memory_equal(c->ram, o->ram, 0x2000);
    assert_memory_equal(c->vdp.vram, o->vdp.vram, sizeof o->vdp.vram);
    assert_memory_equal(c->vdp.cram, o->vdp.cram, sizeof o->vdp.cram);
    for (unsigned i = 0; i < 16; i++)
        if (c->vdp.reg[i] != o->vdp.reg[i] && !(i == 1 && (c->vdp.reg[1] ^ o->vdp.reg[1]) == 0x04u))
            fail_msg("VDP register %u: converted $%02X, ours $%02X", i, c->vdp.reg[i], o->vdp.reg[i]);
    assert_int_equal(c->vdp.addr, o->vdp.addr);
    assert_int_equal(c->vdp.code, o->vdp.code);
    assert_int_equal(c->vdp.latch, o->vdp.latch);
    if (!gg) /* after a GG CRAM word GPGX's read buffer holds the even byte, ours the odd one (docs/sms.md) */
        assert_int_equal(c->vdp.buffer, o->vdp.buffer);
    assert_int_equal(c->vdp.status, o->vdp.status);
    assert_int_equal(c->vdp.line_irq, o->vdp.line_irq);
    assert_int_equal(c->vdp.line_counter, o->vdp.line_counter);
    assert_int_equal(c->vdp.irq, o->vdp.irq);
    assert_int_equal(c->vdp.line, o->vdp.line);
    if (gg)
        assert_int_equal(c->vdp.cram_latch, o->vdp.cram_latch);
    const rg_z80 *a = &c->cpu, *b = &o->cpu;
    assert_memory_equal(a->r8, b->r8, 8);
    assert_int_equal(a->ix, b->ix);
    assert_int_equal(a->iy, b->iy);
    assert_int_equal(a->sp, b->sp);
    assert_int_equal(a->pc, b->pc);
    assert_int_equal(a->wz, b->wz);
    assert_int_equal(a->af_, b->af_);
    assert_int_equal(a->bc_, b->bc_);
    assert_int_equal(a->de_, b->de_);
    assert_int_equal(a->hl_, b->hl_);
    assert_int_equal(a->i, b->i);
    assert_int_equal(a->iff1, b->iff1);
    assert_int_equal(a->iff2, b->iff2);
    assert_int_equal(a->im, b->im);
    assert_int_equal(a->halted, b->halted);
    assert_int_equal(a->int_line, b->int_line);
    assert_int_equal(c->cycles % RG__SMS_FRAME_T, o->cycles % RG__SMS_FRAME_T);
    assert_memory_equal(c->bank, o->bank, 3);
    assert_int_equal(c->mapper_ctl, o->mapper_ctl);
    assert_int_equal(c->io_ctl, o->io_ctl);
    for (unsigned i = 0; i < 3; i++)
        assert_int_equal(c->psg.tone[i], o->psg.tone[i]);
    assert_int_equal(c->psg.noise, o->psg.noise);
}

typedef struct run_result {
    unsigned ram_first, pix_first; /* first differing frame (RUN: none) */
    char why[200];
} run_result;

static void compare_runs(rg_emu *gx, rg_emu *us, const demo *d, unsigned seed, run_result *r)
{
    size_t n = (size_t)d->w * d->h * 3;
    uint8_t *a = malloc(n), *b = malloc(n);
    assert_non_null(a);
    assert_non_null(b);
    r->ram_first = r->pix_first = RUN;
    r->why[0] = 0;
    for (unsigned f = 0; f < RUN; f++) {
        run_frame(gx, seed, f, d->w == 160);
        run_frame(us, seed, f, d->w == 160);
        uint8_t ra[0x2000], rb[0x2000];
        EXPECT_OK(rg_emu_mem_read(gx, 0xC000, ra, sizeof ra));
        EXPECT_OK(rg_emu_mem_read(us, 0xC000, rb, sizeof rb));
        if (r->ram_first == RUN && memcmp(ra, rb, sizeof ra) != 0) {
            unsigned k = 0;
            while (ra[k] == rb[k])
                k++;
            r->ram_first = f;
            snprintf(r->why, sizeof r->why, "frame %u: RAM $%04X is %02x in GPGX, %02x in ours", f, 0xC000 + k,
                     ra[k], rb[k]);
        }
        EXPECT_OK(rg_emu_frame_rgb24(gx, a, n));
        EXPECT_OK(rg_emu_frame_rgb24(us, b, n));
        if (r->pix_first == RUN && memcmp(a, b, n) != 0) {
            size_t k = 0;
            while (a[k] == b[k])
                k++;
            r->pix_first = f;
            if (!r->why[0])
                snprintf(r->why, sizeof r->why, "frame %u: pixel (%zu, %zu) differs", f, k / 3 % d->w,
                         k / 3 / d->w);
        }
    }
    free(a);
    free(b);
}

static void demo_state(const demo *d)
{
    char rom[1200];
    if (!setup_rom(d, rom, sizeof rom))
        skip();
    int gg = d->w == 160;
    rg_emu *gx = test_open_in(rom, "genesis_plus_gx", d->system, 0), *us = test_open_in(rom, d->core, d->system, 0);
    for (unsigned f = 0; f < SAVE_AT; f++) {
        run_frame(gx, 1, f, gg);
        run_frame(us, 1, f, gg);
    }
    size_t len;
    uint8_t *gstate = test_state_save(gx, &len);
    assert_int_equal(len, 1036288u);
    assert_true(rg__gpgx_sniff(gstate, len));

    /* the conversion against our own state after the same frames */
    rg__sms_state *mine = malloc(sizeof *mine), *conv = malloc(sizeof *conv);
    assert_non_null(mine);
    assert_non_null(conv);
    our_state(us, mine);
    rg_emu *fresh = test_open_in(rom, d->core, d->system, 0);
    EXPECT_OK(rg_emu_state_load(fresh, gstate, len));
    our_state(fresh, conv);
    compare_states(conv, mine, gg);

    /* both from the same bytes, frame by frame */
    EXPECT_OK(rg_emu_state_load(gx, gstate, len));
    run_result r;
    compare_runs(gx, fresh, d, 2, &r);
    print_message("%s: GPGX state at frame %u loaded; RAM equal for %u frames, pixels for %u of %u%s%s\n", d->file,
                  SAVE_AT, r.ram_first, r.pix_first, RUN, r.why[0] ? " - " : "", r.why);
    assert_int_equal(r.ram_first, RUN);
    assert_int_equal(r.pix_first, RUN);
    free(mine);
    free(conv);
    free(gstate);
    rg_emu_free(fresh);
    rg_emu_free(us);
    rg_emu_free(gx);
}

static void sms_demo_state(void **s)
{
    (void)s;
    demo_state(&k_sms);
}

static void gg_demo_state(void **s)
{
    (void)s;
    demo_state(&k_gg);
}

/* A state saved while the Z80 is halted: our test ROM's main loop is a HALT (everything else runs in its interrupt
 * handler). GPGX keeps the PC on the HALT while halted and steps past it when the interrupt comes; ours keeps it past
 * the HALT, so the converter adds one: without that the interrupt pushes the HALT's address and the ROM halts again
 * after RETI, with a stack byte in RAM that differs from GPGX's. Needs only the wheel, not ../shared. */
static void halted_state(void **s)
{
    (void)s;
    char core[1024], rom[1024];
    if (!test_wheel_core("genesis_plus_gx", core, sizeof core))
        skip();
    test_use_wheel_cores();
    test_source_path("tests/roms/bin/test.sms", rom, sizeof rom);
    const demo d = {"test.sms", "sms", "Sms", 256, 192};
    rg_emu *gx = test_open_in(rom, "genesis_plus_gx", "Sms", 0);
    size_t len = 0;
    uint8_t *gstate = NULL;
    rg__gpgx_state g;
    for (unsigned f = 0; f < 120 && !gstate; f++) {
        run_frame(gx, 3, f, 0);
        uint8_t *b = test_state_save(gx, &len);
        EXPECT_OK(rg__gpgx_parse(b, len, 0, &g));
        if (f >= 30 && g.z80.halt)
            gstate = b;
        else
            free(b);
    }
    if (!gstate)
        fail_msg("GPGX never saved test.sms with its Z80 halted in 120 frames");
    rg_emu *us = test_open_in(rom, "sms", "Sms", 0);
    EXPECT_OK(rg_emu_state_load(us, gstate, len));
    rg__sms_state *conv = malloc(sizeof *conv);
    assert_non_null(conv);
    our_state(us, conv);
    assert_int_equal(conv->cpu.halted, 1);
    assert_int_equal(conv->cpu.pc, (uint16_t)(g.z80.pc + 1u)); /* past the HALT, as ours keeps it */
    EXPECT_OK(rg_emu_state_load(gx, gstate, len));
    run_result r;
    compare_runs(gx, us, &d, 4, &r);
    print_message("test.sms: halted GPGX state loaded; RAM equal for %u frames, pixels for %u of %u%s%s\n",
                  r.ram_first, r.pix_first, RUN, r.why[0] ? " - " : "", r.why);
    assert_int_equal(r.ram_first, RUN);
    assert_int_equal(r.pix_first, RUN);
    free(conv);
    free(gstate);
    rg_emu_free(us);
    rg_emu_free(gx);
}

/* --- bad input: each refused with RG_ESTATE naming what is wrong, the machine unchanged */

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static void bad_states_refused(void **s)
{
    (void)s;
    char rom[1200];
    if (!setup_rom(&k_sms, rom, sizeof rom))
        skip();
    rg_emu *gx = test_open_in(rom, "genesis_plus_gx", "Sms", 0), *us = test_open_in(rom, "sms", "Sms", 0);
    for (unsigned f = 0; f < 120; f++) {
        run_frame(gx, 3, f, 0);
        run_frame(us, 3, f, 0);
    }
    size_t len;
    uint8_t *good = test_state_save(gx, &len);
    uint8_t *bad = malloc(len);
    assert_non_null(bad);
    EXPECT_OK(rg_emu_state_load(us, good, len)); /* the unedited state loads */
    run_frame(us, 4, 0, 0);

    /* truncated anywhere: before the RAM, in the VDP, the sound, the Z80, the mapper registers */
    static const size_t cuts[] = {16, 100, OFF_IO + 3, OFF_VRAM + 5, OFF_VTAIL + 10, OFF_PSG + 50, OFF_Z80 + 40,
                                  OFF_FCR + 2};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
        test_state_refused(us, good, cuts[i], "truncated");
    /* header and version */
    memcpy(bad, good, len);
    memcpy(bad + 11, "1.6.1", 5);
    test_state_refused(us, bad, len, "version 1.6.1");
    memcpy(bad, good, len);
    memcpy(bad, "GENPLUS-GY", 10); /* not ours to sniff: our own header check refuses it */
    test_state_refused(us, bad, len, "sms");
    /* hostile fields */
    static const test_state_edit edits[] = {
        {OFF_VTAIL + 4, 0x47, "VDP code register"},
        {OFF_VTAIL + 5, 2, "VDP pending"},
        {OFF_VTAIL + 12, 9, "FIFO index"},
        {OFF_VTAIL + 25, 0x11, "line interrupt flag"},
        {OFF_PSG + 4, 9, "PSG latch"},
        {OFF_PSG + 12 + 4, 0x10, "PSG register 1"},
        {OFF_PSG + 76, 2, "polarity"},
        {OFF_Z80 + 2, 1, "Z80 register pair 0"},
        {OFF_Z80 + 54, 2, "flip-flops"},
        {OFF_Z80 + 57, 3, "interrupt mode"},
        {OFF_Z80 + 64, 7, "master clocks into the frame"},
        {OFF_Z80 + 60, 1, "NMI is pending"},
        {OFF_CRAM + 1, 0x01, "CRAM entry 0"},
        {OFF_VRAM + 0x8000, 0x55, "beyond 16 KiB"},
        {OFF_IO + 0x0E, 0x48, "BIOS"},
        {OFF_FCR + 8, 1, "not zero"},
    };
    test_state_edits_refused(us, good, bad, len, edits, sizeof edits / sizeof edits[0]);
    memcpy(bad, good, len);
    bad[OFF_REG + 0] = 0x00;
    bad[OFF_REG + 1] |= 0x40; /* display on in a TMS mode */
    test_state_refused(us, bad, len, "TMS9918");
    memcpy(bad, good, len);
    put32(bad + OFF_PSG + 60, 0x80000000u); /* a negative counter */
    test_state_refused(us, bad, len, "negative");
    /* a Mega Drive state of the wheel (Airstriker's Level1.state) in the SMS core */
    char level1[1200];
    if (test_wheel_data("Airstriker-Genesis-v0/Level1.state", level1, sizeof level1)) {
        gzFile f = gzopen(level1, "rb");
        assert_non_null(f);
        uint8_t *md = malloc(len);
        assert_non_null(md);
        int n = gzread(f, md, (unsigned)len);
        gzclose(f);
        assert_int_equal((size_t)n, len);
        test_state_refused(us, md, len, "Genesis Plus GX state");
        free(md);
    }
    free(bad);
    free(good);
    rg_emu_free(gx);
    rg_emu_free(us);
}

/* The parser alone, without the cores (runs everywhere): empty, short and headerless buffers. */
static void parser_bounds(void **s)
{
    (void)s;
    rg__gpgx_state g;
    assert_false(rg__gpgx_sniff(NULL, 0));
    assert_false(rg__gpgx_sniff("GENPLUS-GX", 10));
    TEST_EXPECT_ERROR(rg__gpgx_parse("RGSMSST", 8, 0, &g), RG_ESTATE, "no \"GENPLUS-GX \" header");
    uint8_t hdr[40] = "GENPLUS-GX 1.7.5";
    TEST_EXPECT_ERROR(rg__gpgx_parse(hdr, 16, 0, &g), RG_ESTATE, "truncated in the work RAM (8 KiB)");
    TEST_EXPECT_ERROR(rg__gpgx_parse(hdr, sizeof hdr, 1, &g), RG_ESTATE, "truncated in the work RAM (64 KiB)");
    memcpy(hdr + 11, "9\x01.99", 5);
    TEST_EXPECT_ERROR(rg__gpgx_parse(hdr, sizeof hdr, 0, &g), RG_ESTATE, "version 9?.99");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parser_bounds),
        cmocka_unit_test(sms_demo_state),
        cmocka_unit_test(gg_demo_state),
        cmocka_unit_test(halted_state),
        cmocka_unit_test(bad_states_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
