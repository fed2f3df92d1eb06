/* Genesis Plus GX states (what stable-retro's Genesis integrations ship) loaded into our Genesis core
 * (docs/genesis.md, "State import"), on Airstriker-Genesis from stable-retro's wheel in .venv:
 *  - a state GPGX saves in the menus (frame 400 of a fixed script from power-on, where both cores agree) converts
 *    and equals our own core's state after the same frames, field by field;
 *  - Level1.state (the integration's start state) converts, its RAM, VRAM and 68000 registers arrive as saved, and
 *    GPGX (loaded from it) and our core run the same seeded random input frame by frame: all of work RAM and the
 *    picture bytes are compared, the first differing frame printed and asserted not to come earlier than measured
 *    (LEVEL1_MIN_FRAMES: every frame);
 *  - truncated, hostile and foreign states (an SMS one), and states in the middle of what our core lacks (a fill, a
 *    half-written command, interlace, the boot ROM, cartridge registers, a page beyond the ROM, backup RAM where the
 *    cartridge has none) are refused with RG_ESTATE naming it and the machine unchanged;
 *  - the Z80 running; the cartridge (images of ours: backup RAM mapped and unmapped, SSF2 banks switched), a DMA
 *    under way and PAL (a region-E copy of Airstriker): GPGX's states converted, both cores run on with RAM and
 *    pictures compared.
 * Skipped without stable-retro's wheel (Airstriker's ROM and genesis_plus_gx). */
#define _POSIX_C_SOURCE 200809L
#include "test_emu_state.h"
#include "test_support.h"

#include "cores/genesis/genesis.h"
#include "cores/gpgx_state/gpgx_state.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define STATE_LEN 1036288u
#define OUR_HEADER 24u
#define MENU_AT 400u
#define STACK_PAGE 0xFF00u /* work RAM below $FFFF00, the stack page of Airstriker */
/* frames run from Level1.state by default (about 3 s; GENESIS_GPGX_STATE_FRAMES=10000 for the measurement in
 * docs/genesis.md), and over how many of them all of work RAM and the picture bytes agreed when measured
 * (2026-11-27 08:55: all 10,000; 300 RAM / 0 pictures at 06:35); lower only with a reason */
#define LEVEL1_RUN 3000u
#define LEVEL1_MIN_FRAMES 10000u

/* offsets in the Mega Drive layout of docs/genesis.md */
#define OFF_ZSTATE (16u + 0x10000u + 0x2000u)
#define OFF_IO (OFF_ZSTATE + 5u)
#define OFF_VDP (OFF_IO + 16u)
#define OFF_CRAM (OFF_VDP + 0x400u + 0x10000u)
#define OFF_REG (OFF_CRAM + 0x100u)
#define OFF_VTAIL (OFF_REG + 0x20u)
#define OFF_M68K 144435u
#define OFF_Z80 (OFF_M68K + 90u)
#define OFF_CART (OFF_Z80 + 88u)
#define OFF_YM 140651u

static char g_rom[1200], g_level1[1200];

static int find(const char *tail, char *out, size_t cap)
{
    char rel[256];
    snprintf(rel, sizeof rel, "Airstriker-Genesis-v0/%s", tail);
    return test_wheel_data(rel, out, cap);
}

static int have_wheel(void)
{
    test_use_wheel_cores();
    if (!find("rom.md", g_rom, sizeof g_rom) || !find("Level1.state", g_level1, sizeof g_level1) ||
        !test_have_wheel_core("genesis_plus_gx")) {
        print_message("skipped: no Airstriker-Genesis or genesis_plus_gx in .venv's stable-retro\n");
        return 0;
    }
    return 1;
}

/* Skips the test without the wheel. */
static void need_wheel(void)
{
    if (!have_wheel())
        skip();
}

static rg_emu *open_gen(const char *core)
{
    return test_open_in(g_rom, core, "Genesis", 0);
}

/* An image of ours (len bytes) written to /tmp/rg_gen<tag>_<pid>.md, opened in GPGX (*gx) and in our core (*us), and
 * removed. */
static void open_pair(const char *tag, const uint8_t *bytes, size_t len, rg_emu **gx, rg_emu **us)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/rg_gen%s_%d.md", tag, (int)getpid());
    test_write_file(path, bytes, len);
    *gx = test_open_in(path, "genesis_plus_gx", "Genesis", 0);
    *us = test_open_in(path, "genesis", "Genesis", 0);
    remove(path);
}

/* One frame on both cores: all of work RAM into ra and rb (64 KiB each), and whether the pictures are the same (size
 * and RGB bytes, read into a and b of cap bytes each). */
static int frame_both(rg_emu *gx, rg_emu *us, uint8_t *ra, uint8_t *rb, uint8_t *a, uint8_t *b, size_t cap)
{
    EXPECT_OK(rg_emu_run(gx));
    EXPECT_OK(rg_emu_run(us));
    EXPECT_OK(rg_emu_mem_read(gx, 0xFF0000, ra, 0x10000));
    EXPECT_OK(rg_emu_mem_read(us, 0xFF0000, rb, 0x10000));
    rg_frame fa, fb;
    EXPECT_OK(rg_emu_frame(gx, &fa));
    EXPECT_OK(rg_emu_frame(us, &fb));
    int same = fa.width == fb.width && fa.height == fb.height;
    if (same) {
        EXPECT_OK(rg_emu_frame_rgb24(gx, a, cap));
        EXPECT_OK(rg_emu_frame_rgb24(us, b, cap));
        same = memcmp(a, b, (size_t)fb.width * fb.height * 3u) == 0;
    }
    return same;
}

static void our_state(rg_emu *e, rg__gen_state *out)
{
    test_state_body(e, OUR_HEADER, out, sizeof *out);
}

static uint8_t *level1(void)
{
    gzFile f = gzopen(g_level1, "rb");
    assert_non_null(f);
    uint8_t *b = malloc(STATE_LEN + 1);
    assert_non_null(b);
    int n = gzread(f, b, STATE_LEN + 1);
    gzclose(f);
    assert_int_equal(n, (int)STATE_LEN);
    return b;
}

/* the menus script of test_genesis_core (START now and then from frame 350) */
static uint16_t script(unsigned f)
{
    if (f >= 350u && f < 600u && f % 40u < 8u)
        return 1u << 3;
    uint32_t x = (f / 6u + 1u) * 2654435761u;
    return (uint16_t)((x >> 13) & 0xF0u) | 1u;
}

/* Both cores from power-on through MENU_AT frames of the menus script. */
static void run_menus(rg_emu *gx, rg_emu *us)
{
    for (unsigned f = 0; f < MENU_AT; f++) {
        EXPECT_OK(rg_emu_set_buttons(gx, 0, script(f)));
        EXPECT_OK(rg_emu_set_buttons(us, 0, script(f)));
        EXPECT_OK(rg_emu_run(gx));
        EXPECT_OK(rg_emu_run(us));
    }
}

/* Level1.state's input: random directions, B, A and X (GPGX's Y) changing every 4 frames, and START twice (6
 * frames from frame 100, 6 more from 130) in every 300: in play a short pause, and after a game over the
 * title and menus into a new game, so the game plays through the 10,000 frames of the long run */
static uint16_t random_pad(unsigned f)
{
    uint32_t x = (f / 4u + 17u) * 2654435761u;
    x ^= x >> 15;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    uint16_t m = (uint16_t)((x & 0xF0u) | (x >> 8 & 1u) | ((x >> 9 & 1u) << 8) | ((x >> 10 & 1u) << 9));
    if ((f % 300u >= 100u && f % 300u < 106u) || (f % 300u >= 130u && f % 300u < 136u))
        m |= 1u << 3;
    return m;
}

static void menu_state_converts(void **s)
{
    (void)s;
    need_wheel();
    rg_emu *gx = open_gen("genesis_plus_gx"), *us = open_gen("genesis");
    run_menus(gx, us);
    size_t len;
    uint8_t *gs = test_state_save(gx, &len);
    assert_int_equal(len, STATE_LEN);
    rg__gen_state *mine = malloc(sizeof *mine), *conv = malloc(sizeof *conv);
    assert_non_null(mine);
    assert_non_null(conv);
    our_state(us, mine);
    rg_emu *fresh = open_gen("genesis");
    EXPECT_OK(rg_emu_state_load(fresh, gs, len));
    our_state(fresh, conv);
    /* both frames start at line 224 with the V interrupt 788 master clocks in: the RAM below the stack page is the
     * same at frame 400 (docs/genesis.md "Equivalence") */
    unsigned differ = 0;
    for (unsigned i = 0; i < STACK_PAGE; i++)
        differ += conv->ram[i] != mine->ram[i];
    print_message("menus, frame %u: %u bytes of RAM below $FFFF00 differ between GPGX and our core\n", MENU_AT,
                  differ);
    assert_int_equal(differ, 0); /* measured 2026-11-27 06:35 (3 before the FIFO, ZRAM and YM timing) */
    assert_memory_equal(conv->ram, gs + 16, sizeof conv->ram);
    assert_memory_equal(conv->vdp.vram, mine->vdp.vram, sizeof mine->vdp.vram);
    assert_memory_equal(conv->vdp.cram, mine->vdp.cram, sizeof mine->vdp.cram);
    assert_memory_equal(conv->vdp.vsram, mine->vdp.vsram, sizeof mine->vdp.vsram);
    /* the rest as GPGX saved it */
    assert_memory_equal(conv->vdp.reg, gs + OFF_REG, 24);
    assert_int_equal(conv->vdp.addr, gs[OFF_VTAIL] | gs[OFF_VTAIL + 1] << 8);
    assert_int_equal(conv->vdp.code, gs[OFF_VTAIL + 4]);
    assert_int_equal(conv->vdp.hcounter, gs[OFF_VTAIL + 24]);
    assert_int_equal(conv->vdp.line, 223u); /* the last active line: both frames end there */
    for (unsigned i = 0; i < 16; i++) {
        const uint8_t *r = gs + OFF_M68K + 4 * i;
        uint32_t v = r[0] | (uint32_t)r[1] << 8 | (uint32_t)r[2] << 16 | (uint32_t)r[3] << 24;
        assert_int_equal(i < 8 ? conv->cpu.d[i] : conv->cpu.a[i - 8], v);
    }
    uint32_t pc = gs[OFF_M68K + 64] | (uint32_t)gs[OFF_M68K + 65] << 8 | (uint32_t)gs[OFF_M68K + 66] << 16;
    assert_int_equal(conv->cpu.pc, pc + 4u);
    assert_int_equal(conv->cpu.sr, gs[OFF_M68K + 68] | gs[OFF_M68K + 69] << 8);
    assert_memory_equal(conv->io_data, gs + OFF_IO + 1, 3);
    assert_memory_equal(conv->io_ctrl, gs + OFF_IO + 4, 3);
    assert_int_equal(conv->z80_busreq, (gs[OFF_ZSTATE] >> 1) & 1u);
    assert_int_equal(conv->z80_reset, !(gs[OFF_ZSTATE] & 1u));
    print_message("menus, frame %u: VDP registers %s ours, 68000 PC $%06X (ours $%06X)\n", MENU_AT,
                  memcmp(conv->vdp.reg, mine->vdp.reg, 24) ? "differ from" : "equal", conv->cpu.pc - 4u,
                  mine->cpu.pc - 4u);
    free(mine);
    free(conv);
    free(gs);
    rg_emu_free(fresh);
    rg_emu_free(us);
    rg_emu_free(gx);
}

static unsigned level1_frames(void)
{
    return test_env_count("GENESIS_GPGX_STATE_FRAMES", LEVEL1_RUN);
}

static void level1_state(void **s)
{
    (void)s;
    need_wheel();
    uint8_t *st = level1();
    rg_emu *gx = open_gen("genesis_plus_gx"), *us = open_gen("genesis");
    EXPECT_OK(rg_emu_state_load(us, st, STATE_LEN));
    EXPECT_OK(rg_emu_state_load(gx, st, STATE_LEN));
    /* what arrives: RAM as saved (both host-order words), VRAM byte-swapped to the 68000's order, the registers */
    rg__gen_state *o = malloc(sizeof *o);
    assert_non_null(o);
    our_state(us, o);
    assert_memory_equal(o->ram, st + 16, 0x10000);
    for (unsigned i = 0; i < 0x10000u; i += 2) {
        assert_int_equal(o->vdp.vram[i], st[OFF_VDP + 0x400u + i + 1]);
        assert_int_equal(o->vdp.vram[i + 1], st[OFF_VDP + 0x400u + i]);
    }
    assert_memory_equal(o->vdp.reg, st + OFF_REG, 24);
    for (unsigned i = 0; i < 8; i++) {
        uint32_t d = st[OFF_M68K + 4 * i] | (uint32_t)st[OFF_M68K + 4 * i + 1] << 8 |
                     (uint32_t)st[OFF_M68K + 4 * i + 2] << 16 | (uint32_t)st[OFF_M68K + 4 * i + 3] << 24;
        assert_int_equal(o->cpu.d[i], d);
    }
    free(o);

    unsigned frames = level1_frames();
    size_t cap = 320u * 240u * 3u;
    uint8_t *a = malloc(cap), *b = malloc(cap), *prev = calloc(1, cap);
    static uint8_t ra[0x10000], rb[0x10000];
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(prev);
    unsigned ram_first = frames, pix_first = frames, stack_first = frames, ram_bad = 0, pix_bad = 0, moving = 0;
    char why[320] = "";
    for (unsigned f = 0; f < frames; f++) {
        EXPECT_OK(rg_emu_set_buttons(gx, 0, random_pad(f)));
        EXPECT_OK(rg_emu_set_buttons(us, 0, random_pad(f)));
        EXPECT_OK(rg_emu_run(gx));
        EXPECT_OK(rg_emu_run(us));
        EXPECT_OK(rg_emu_mem_read(gx, 0xFF0000, ra, sizeof ra));
        EXPECT_OK(rg_emu_mem_read(us, 0xFF0000, rb, sizeof rb));
        if (stack_first == frames && memcmp(ra + STACK_PAGE, rb + STACK_PAGE, sizeof ra - STACK_PAGE) != 0)
            stack_first = f;
        if (memcmp(ra, rb, sizeof ra) != 0) {
            ram_bad++;
            if (ram_first == frames) {
                unsigned k = 0, d = 0;
                while (ra[k] == rb[k])
                    k++;
                for (unsigned i = 0; i < sizeof ra; i++)
                    d += ra[i] != rb[i];
                ram_first = f;
                snprintf(why, sizeof why, "RAM: frame %u, $%06X is %02x in GPGX, %02x in ours (%u bytes differ)", f,
                         0xFF0000u + k, ra[k], rb[k], d);
            }
        }
        rg_frame fa, fb;
        EXPECT_OK(rg_emu_frame(gx, &fa));
        EXPECT_OK(rg_emu_frame(us, &fb));
        size_t n = (size_t)fb.width * fb.height * 3u, k = 0, d = 0;
        int same = fa.width == fb.width && fa.height == fb.height;
        if (same) {
            assert_true(n <= cap);
            EXPECT_OK(rg_emu_frame_rgb24(gx, a, cap));
            EXPECT_OK(rg_emu_frame_rgb24(us, b, cap));
            for (size_t i = 0; i < n; i++)
                if (a[i] != b[i]) { /* the bytes: our colours are GPGX's (genesis_render.c) */
                    if (!d)
                        k = i;
                    d++;
                }
            same = d == 0;
            moving += memcmp(a, prev, n) != 0; /* the game is playing: GPGX's picture changes */
            memcpy(prev, a, n);
        }
        if (!same) {
            pix_bad++;
            if (pix_first == frames) {
                pix_first = f;
                size_t l = strlen(why);
                if (fa.width != fb.width || fa.height != fb.height)
                    snprintf(why + l, sizeof why - l, "%spixels: frame %u, GPGX %ux%u, ours %ux%u", l ? "; " : "", f,
                             fa.width, fa.height, fb.width, fb.height);
                else
                    snprintf(why + l, sizeof why - l, "%spixels: frame %u, first at row %zu column %zu (%zu bytes)",
                             l ? "; " : "", f, k / 3 / fb.width, k / 3 % fb.width, d);
            }
        }
    }
    print_message("Level1.state, %u frames: RAM equal through %u (below $FFFF00 or not; the stack page alone %u), "
                  "pictures %u; frames differing: RAM %u, pictures %u; GPGX's picture changed in %u%s%s\n", frames,
                  ram_first, stack_first, pix_first, ram_bad, pix_bad, moving, why[0] ? " - " : "", why);
    /* measured: RAM and picture bytes equal on every frame (LEVEL1_MIN_FRAMES); lower only with a reason */
    assert_true(ram_first >= (frames < LEVEL1_MIN_FRAMES ? frames : LEVEL1_MIN_FRAMES));
    assert_true(pix_first >= (frames < LEVEL1_MIN_FRAMES ? frames : LEVEL1_MIN_FRAMES));
    assert_true(moving * 4u >= frames); /* not a still screen: 2747 of 4000, 4441 of 10,000 changed */
    free(a);
    free(b);
    free(prev);
    free(st);
    rg_emu_free(gx);
    rg_emu_free(us);
}

static void bad_states_refused(void **s)
{
    (void)s;
    need_wheel();
    uint8_t *good = level1(), *bad = malloc(STATE_LEN);
    assert_non_null(bad);
    rg_emu *us = open_gen("genesis");
    for (unsigned f = 0; f < 30; f++)
        EXPECT_OK(rg_emu_run(us));
    static const size_t cuts[] = {16, 0x8000, OFF_ZSTATE + 2, OFF_VDP + 100, OFF_VTAIL + 30, OFF_M68K - 20,
                                  OFF_M68K + 50, OFF_Z80 + 70, OFF_CART + 10, OFF_CART + 66};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
        test_state_refused(us, good, cuts[i], "truncated");
    memcpy(bad, good, STATE_LEN);
    memcpy(bad + 11, "1.7.4", 5);
    test_state_refused(us, bad, STATE_LEN, "version 1.7.4");
    static const test_state_edit edits[] = {
        {OFF_Z80 + 60, 1, "NMI"},
        {OFF_ZSTATE, 7, "Z80 bus state"},
        {OFF_ZSTATE + 4, 0x80, "Z80 bank"},
        {OFF_VTAIL + 4, 0x41, "VDP code"},
        {OFF_VTAIL + 27, 5, "fill or copy is under way"}, /* code without the DMA bit */
        {OFF_VTAIL + 37, 0x00, "32-bit VDP command"},
        {OFF_REG + 1, 0x60, "mode 4"},
        {OFF_CRAM + 1, 0x02, "CRAM entry 0"},
        {OFF_Z80 + 65, 0x40, "Z80 stands"},
        {OFF_M68K + 69, 0x08, "status register"},
        {OFF_M68K + 64, 0x03, "program counter"},
        {OFF_M68K + 60, 0x55, "active stack pointer"},
        {OFF_M68K + 82, 9, "interrupt level"},
        {OFF_M68K + 86, 2, "halted"},
        {OFF_M68K + 79, 0x20, "master clocks into the frame"},
        {OFF_Z80 + 57, 4, "Z80 interrupt mode"},
        {OFF_CART + 3, 0x0A, "beyond this 512 KiB ROM"}, /* bank switching to a page Airstriker lacks */
        {OFF_CART + 3, 0xFF, "backup RAM is mapped at $030000"},
        {OFF_CART + 5, 0x80, "cartridge slot 5"},
        {OFF_CART + 0x10, 0xFE, "boot ROM"},
        {OFF_CART + 65, 1, "hardware register 1"},
        {OFF_YM + 2408u + 23u, 0x80, "timer counters"},
        {OFF_YM + 2408u + 16u, 5, "timer values"},
    };
    test_state_edits_refused(us, good, bad, STATE_LEN, edits, sizeof edits / sizeof edits[0]);
    /* interlace (register 12 bits 1-2) converts since 2026-11-27, and the write FIFO's words and index come along */
    memcpy(bad, good, STATE_LEN);
    bad[OFF_REG + 12] = 0x87;
    bad[OFF_VTAIL + 12] = 2;
    for (unsigned i = 0; i < 4; i++) {
        bad[OFF_VTAIL + 16 + 2 * i] = (uint8_t)(0x11u * (i + 1));
        bad[OFF_VTAIL + 17 + 2 * i] = (uint8_t)(0xA0u + i);
    }
    EXPECT_OK(rg_emu_state_load(us, bad, STATE_LEN));
    rg__gen_state *conv = malloc(sizeof *conv);
    assert_non_null(conv);
    our_state(us, conv);
    assert_int_equal(conv->vdp.reg[12], 0x87);
    assert_int_equal(conv->vdp.fifo_idx, 2);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(conv->vdp.fifo[i], (0xA0u + i) << 8 | 0x11u * (i + 1));
    free(conv);
    for (int f = 0; f < 3; f++)
        EXPECT_OK(rg_emu_run(us));
    /* the unedited state loads into the same machine afterwards */
    EXPECT_OK(rg_emu_state_load(us, good, STATE_LEN));
    free(bad);
    free(good);
    rg_emu_free(us);
}

/* --- a state GPGX saves with the Z80 running its own program (as 920 of stable-retro's 928 Genesis start states do) */

/* The Z80 program (our own): bank register to $FF0000, YM2612 timer A period 63 samples (TA = 961) and timer B 896
 * (TB = 200) with their flags, IM 1; each V interrupt counts at $1F00 (copied to $FF0012), and the main loop polls
 * the YM2612's status, counting timer A and B overflows at $1F01/$1F02 (copied to $FF0013/$FF0011) and resetting the
 * flags. */
static const uint8_t k_zprog[] = {
    0xF3, 0x31, 0x00, 0x1E, 0xED, 0x56,                         /* 0000 di; ld sp,$1E00; im 1 */
    0x21, 0x00, 0x60, 0x36, 0x00, 0x36, 0x01, 0x36, 0x01,       /* 0006 bank: bit 15 = 0, */
    0x36, 0x01, 0x36, 0x01, 0x36, 0x01, 0x36, 0x01, 0x36, 0x01, /*      bits 16-23 = 1 */
    0x36, 0x01,
    0x21, 0x00, 0x40, 0x36, 0x24, 0x23, 0x36, 0xF0,             /* 001B YM $24 = $F0 */
    0x2B, 0x36, 0x25, 0x23, 0x36, 0x01,                         /* 0023 $25 = 1: TA = 961 */
    0x2B, 0x36, 0x26, 0x23, 0x36, 0xC8,                         /* 0029 $26 = 200 */
    0x2B, 0x36, 0x27, 0x23, 0x36, 0x0F,                         /* 002F $27 = $0F: load and flag A and B */
    0xFB, 0x18, 0x18,                                           /* 0035 ei; jr $0050 */
    0xF5, 0xC5, 0x3A, 0x00, 0x1F, 0x3C, 0x32, 0x00, 0x1F,       /* 0038 push af, bc; ($1F00)++ */
    0x32, 0x12, 0x80, 0x06, 0x28, 0x10, 0xFE,                   /* 0041 ($FF0012) = a; 40 x djnz: past INT */
    0xC1, 0xF1, 0xFB, 0xC9, 0, 0, 0, 0,                         /* 0048 pop bc, af; ei; ret */
    0x3A, 0x00, 0x40, 0xE6, 0x03, 0x28, 0xF9,                   /* 0050 wait for a timer flag */
    0x4F, 0x21, 0x01, 0x1F, 0xCB, 0x41, 0x28, 0x01, 0x34,       /* 0057 c = flags; A: ($1F01)++ */
    0x23, 0xCB, 0x49, 0x28, 0x01, 0x34,                         /* 0060 B: ($1F02)++ */
    0x3A, 0x01, 0x1F, 0x32, 0x13, 0x80,                         /* 0066 ($FF0013) = ($1F01) */
    0x3A, 0x02, 0x1F, 0x32, 0x11, 0x80,                         /* 006C ($FF0011) = ($1F02) */
    0x79, 0x07, 0x07, 0x07, 0x07, 0xF6, 0x0F, 0x32, 0x01, 0x40, /* 0072 $27 = flags << 4 | $0F: reset them */
    0x18, 0xD2,                                                 /* 007C jr $0050 */
};

/* The 68000's part at $200: takes the Z80's bus, releases its reset, copies k_zprog into Z80 RAM, gives the bus
 * back (the Z80 runs), turns the display on, and then keeps writing the word at $FF0012 (the Z80's V interrupt and
 * timer A counts) into CRAM 0, the backdrop. */
static const uint8_t k_mprog[] = {
    0x33, 0xFC, 0x01, 0x00, 0x00, 0xA1, 0x11, 0x00,             /* 0200 move.w #$100,$A11100 */
    0x33, 0xFC, 0x01, 0x00, 0x00, 0xA1, 0x12, 0x00,             /* 0208 move.w #$100,$A11200 */
    0x41, 0xFA, 0x00, 0x3A,                                     /* 0210 lea $24C(pc),a0 */
    0x43, 0xF9, 0x00, 0xA0, 0x00, 0x00,                         /* 0214 lea $A00000,a1 */
    0x30, 0x3C, 0x00, sizeof k_zprog - 1u,                      /* 021A move.w #len-1,d0 */
    0x12, 0xD8, 0x51, 0xC8, 0xFF, 0xFC,                         /* 021E move.b (a0)+,(a1)+; dbf d0 */
    0x33, 0xFC, 0x00, 0x00, 0x00, 0xA1, 0x11, 0x00,             /* 0224 move.w #0,$A11100 */
    0x33, 0xFC, 0x81, 0x44, 0x00, 0xC0, 0x00, 0x04,             /* 022C move.w #$8144,$C00004 */
    0x23, 0xFC, 0xC0, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x04, /* 0234 move.l #$C0000000,$C00004 */
    0x30, 0x39, 0x00, 0xFF, 0x00, 0x12,                         /* 023E move.w $FF0012,d0 */
    0x33, 0xC0, 0x00, 0xC0, 0x00, 0x00,                         /* 0244 move.w d0,$C00000 */
    0x60, 0xE8,                                                 /* 024A bra.s $0234 */
};

static void z80_running_state(void **s)
{
    (void)s;
    need_wheel();
    static uint8_t rom[0x20000];
    memset(rom, 0, sizeof rom);
    rom[1] = 0xFF, rom[2] = 0xFE;     /* SSP $00FFFE00 */
    rom[6] = 0x02;                    /* PC $000200 */
    memcpy(rom + 0x100, "SEGA MEGA DRIVE ", 16);
    memcpy(rom + 0x1F0, "JUE", 3);
    memcpy(rom + 0x200, k_mprog, sizeof k_mprog);
    memcpy(rom + 0x24C, k_zprog, sizeof k_zprog);
    rg_emu *gx, *us;
    open_pair("z80", rom, sizeof rom, &gx, &us);

    for (unsigned i = 0; i < 30; i++)
        EXPECT_OK(rg_emu_run(gx));
    size_t n;
    uint8_t *st = test_state_save(gx, &n);
    assert_int_equal(st[OFF_ZSTATE], 1); /* the Z80 runs: out of reset, its bus not requested */
    EXPECT_OK(rg_emu_state_load(us, st, n));
    rg__gen_state *o = malloc(sizeof *o);
    assert_non_null(o);
    our_state(us, o);
    /* what arrives: the Z80's registers (its pc in the program), bank, the timers as the program set them */
    assert_int_equal(o->z80_reset, 0);
    assert_int_equal(o->z80_busreq, 0);
    assert_int_equal(o->z80.sp, st[OFF_Z80 + 4] | st[OFF_Z80 + 5] << 8);
    assert_int_equal(o->z80.pc, st[OFF_Z80] | st[OFF_Z80 + 1] << 8);
    assert_in_range(o->z80.pc, 0x38, 0x7D);
    assert_int_equal(o->z80.im, 1);
    assert_int_equal(o->z80_bank, 0x1FE);
    assert_int_equal(o->ym_ta, 961);
    assert_int_equal(o->ym_tb, 200);
    assert_int_equal(o->ym_mode & 0x0Fu, 0x0F);
    assert_memory_equal(o->zram, st + 16 + 0x10000, 0x2000);
    free(o);
    free(st);

    /* both run on, frame by frame: work RAM, Z80 RAM (GPGX's from its state) and the picture bytes */
    unsigned frames = 200, ram_first = frames, zram_first = frames, pix_first = frames;
    size_t cap = 320u * 240u * 3u;
    uint8_t *a = malloc(cap), *b = malloc(cap);
    static uint8_t ra[0x10000], rb[0x10000];
    assert_non_null(a);
    assert_non_null(b);
    o = malloc(sizeof *o);
    assert_non_null(o);
    char why[400] = "";
    for (unsigned fr = 0; fr < frames; fr++) {
        int same = frame_both(gx, us, ra, rb, a, b, cap);
        if (ram_first == frames && memcmp(ra, rb, sizeof ra) != 0) {
            unsigned k = 0;
            while (ra[k] == rb[k])
                k++;
            ram_first = fr;
            size_t l = strlen(why);
            snprintf(why + l, sizeof why - l, " RAM: frame %u, $%06X GPGX %02x ours %02x;", fr, 0xFF0000u + (k ^ 1u),
                     ra[k], rb[k]);
        }
        st = test_state_save(gx, &n);
        our_state(us, o);
        if (zram_first == frames && memcmp(st + 16 + 0x10000, o->zram, 0x2000) != 0) {
            unsigned k = 0;
            while (st[16 + 0x10000 + k] == o->zram[k])
                k++;
            zram_first = fr;
            size_t l = strlen(why);
            snprintf(why + l, sizeof why - l, " Z80 RAM: frame %u, $%04X GPGX %02x ours %02x;", fr, k,
                     st[16 + 0x10000 + k], o->zram[k]);
        }
        free(st);
        if (!same && pix_first == frames) {
            pix_first = fr;
            size_t l = strlen(why);
            snprintf(why + l, sizeof why - l, " pictures: frame %u;", fr);
        }
    }
    /* the program ran: V interrupts and timer overflows counted on both */
    print_message("Z80 running, GPGX state at frame 30 into ours, %u frames on: work RAM equal through %u, Z80 RAM %u, "
                  "pictures %u;%s counts (V ints, A, B) %u %u %u\n", frames, ram_first, zram_first, pix_first, why,
                  o->zram[0x1F00], o->zram[0x1F01], o->zram[0x1F02]);
    assert_true(o->zram[0x1F01] != 0 && o->zram[0x1F02] != 0);
    /* measured 2026-11-27 10:05: work RAM equal through frame 103 ($FF0012, the V interrupt count, one apart),
     * Z80 RAM through 4 (the stacked A of an interrupt taken at another instruction: the Z80's timing against
     * GPGX's, not yet explained), pictures differ from frame 0 (not yet explained); asserted not to get worse */
    assert_true(ram_first >= 103u);
    assert_true(zram_first >= 4u);
    (void)pix_first;
    free(o);
    free(a);
    free(b);
    rg_emu_free(gx);
    rg_emu_free(us);
}

/* --- the cartridge and PAL states: ROM images of ours run on GPGX, its states converted, both cores run on */

/* An image of size bytes (malloc'd): every byte its offset's bits 23-16 xor bits 7-0, the last word of each 512 KiB
 * page p $A500 + p, a header (domestic name, region, an optional backup RAM field at $200001-$203FFF) and prog at
 * $200. */
static uint8_t *make_image(size_t size, const char *name, const char *region, int sram, const uint8_t *prog,
                           size_t plen)
{
    uint8_t *rom = malloc(size);
    assert_non_null(rom);
    for (size_t o = 0; o < size; o++)
        rom[o] = (uint8_t)((o >> 16) ^ o);
    for (size_t p = 0; p * 0x80000u + 0x7FFF2u <= size; p++) {
        rom[p * 0x80000u + 0x7FFF0u] = 0xA5;
        rom[p * 0x80000u + 0x7FFF1u] = (uint8_t)p;
    }
    memset(rom, 0, 0x200);
    rom[1] = 0xFF, rom[2] = 0xFE; /* SSP $00FFFE00 */
    rom[6] = 0x02;                /* PC $000200 */
    memset(rom + 0x100, ' ', 0x100);
    memcpy(rom + 0x100, "SEGA MEGA DRIVE", 15);
    memcpy(rom + 0x120, name, strlen(name));
    memcpy(rom + 0x150, name, strlen(name));
    memcpy(rom + 0x190, "J", 1);
    if (sram) {
        static const uint8_t ra[12] = {'R', 'A', 0xF8, 0x20, 0x00, 0x20, 0x00, 0x01, 0x00, 0x20, 0x3F, 0xFF};
        memcpy(rom + 0x1B0, ra, sizeof ra);
    }
    memcpy(rom + 0x1F0, region, strlen(region));
    memcpy(rom + 0x200, prog, plen);
    return rom;
}

/* A region "JUE" image (make_image) opened in GPGX (*gx) and in our core (*us) (open_pair). */
static void image_pair(const char *tag, size_t size, const char *name, int sram, const uint8_t *prog, size_t plen,
                       rg_emu **gx, rg_emu **us)
{
    uint8_t *rom = make_image(size, name, "JUE", sram, prog, plen);
    open_pair(tag, rom, size, gx, us);
    free(rom);
}

/* Runs both cores frames frames (pad: port 1's buttons by frame, or none), comparing all of work RAM and the picture
 * bytes after each (the first ram_len bytes of work RAM); returns the first frame where either differs (frames when
 * none), printing what. With pix_first it runs on until both differed and returns the RAM's first difference, the
 * pictures' in *pix_first. */
static unsigned run_both2(rg_emu *gx, rg_emu *us, unsigned frames, uint16_t (*pad)(unsigned), const char *what,
                          size_t ram_len, unsigned *pix_first)
{
    size_t cap = 320u * 240u * 3u;
    uint8_t *a = malloc(cap), *b = malloc(cap);
    static uint8_t ra[0x10000], rb[0x10000];
    assert_non_null(a);
    assert_non_null(b);
    unsigned first = frames, ram_first = frames, pix = frames;
    for (unsigned f = 0; f < frames && (pix_first ? ram_first == frames || pix == frames : first == frames); f++) {
        if (pad) {
            EXPECT_OK(rg_emu_set_buttons(gx, 0, pad(f)));
            EXPECT_OK(rg_emu_set_buttons(us, 0, pad(f)));
        }
        int same = frame_both(gx, us, ra, rb, a, b, cap);
        if (ram_first == frames && memcmp(ra, rb, ram_len) != 0) {
            unsigned k = 0;
            while (ra[k] == rb[k])
                k++;
            print_message("%s: work RAM differs at frame %u: $%06X GPGX %02x ours %02x\n", what, f,
                          0xFF0000u + (k ^ 1u), ra[k], rb[k]);
            ram_first = f;
        }
        if (!same && pix == frames) {
            print_message("%s: the pictures differ at frame %u\n", what, f);
            pix = f;
        }
        first = ram_first < pix ? ram_first : pix;
    }
    free(a);
    free(b);
    if (pix_first) {
        *pix_first = pix;
        return ram_first;
    }
    return first;
}

static unsigned run_both(rg_emu *gx, rg_emu *us, unsigned frames, uint16_t (*pad)(unsigned), const char *what)
{
    return run_both2(gx, us, frames, pad, what, 0x10000u, NULL);
}

/* The backup RAM program (m68k-linux-gnu-as -m68000), at $200: the display on, then forever: count in d1; map the
 * backup RAM ($A130F1 = 1), write the count's low byte to $200001, wait 300 loops, read the word at $200000 (the
 * backup RAM: $FF and the count) into $FF0000; map the ROM again ($A130F1 = 0), wait 200 loops, read $200000 (the
 * ROM) into $FF0002; the count into $FF0004; in the vertical blank (status bit 3) the sum of both reads into CRAM 0
 * (the backdrop: written mid-frame it would show where each core's CRAM write timing lands, not the conversion). GPGX
 * saves between frames, some of them with the backup RAM mapped and some without. */
static const uint8_t k_sram_prog[] = {
    0x46, 0xfc, 0x27, 0x00, 0x33, 0xfc, 0x81, 0x44, 0x00, 0xc0, 0x00, 0x04, 0x41, 0xf9, 0x00, 0x20, 0x00, 0x01,
    0x72, 0x00, 0x52, 0x41, 0x13, 0xfc, 0x00, 0x01, 0x00, 0xa1, 0x30, 0xf1, 0x10, 0x81, 0x30, 0x3c, 0x01, 0x2c,
    0x51, 0xc8, 0xff, 0xfe, 0x34, 0x39, 0x00, 0x20, 0x00, 0x00, 0x33, 0xc2, 0x00, 0xff, 0x00, 0x00, 0x13, 0xfc,
    0x00, 0x00, 0x00, 0xa1, 0x30, 0xf1, 0x30, 0x3c, 0x00, 0xc8, 0x51, 0xc8, 0xff, 0xfe, 0x36, 0x39, 0x00, 0x20,
    0x00, 0x00, 0x33, 0xc3, 0x00, 0xff, 0x00, 0x02, 0x33, 0xc1, 0x00, 0xff, 0x00, 0x04, 0x08, 0x39, 0x00, 0x03,
    0x00, 0xc0, 0x00, 0x05, 0x67, 0xb4, 0x23, 0xfc, 0xc0, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x04, 0xd4, 0x43,
    0x33, 0xc2, 0x00, 0xc0, 0x00, 0x00, 0x60, 0xa0,
};

/* The bank program, at $200: the display on; bank 1 ($080000) shows 512 KiB page 9 ($A130F3 = 9) and bank 5
 * ($280000) page 4 ($A130FB = 4); then forever: count in d1, bank 1's last word ($0FFFF0: $A509) into $FF0000, bank
 * 5's ($2FFFF0: $A504) into $FF0002, the count into $FF0004, wait 100 loops, in the vertical blank their sum into
 * CRAM 0. */
static const uint8_t k_bank_prog[] = {
    0x46, 0xfc, 0x27, 0x00, 0x33, 0xfc, 0x81, 0x44, 0x00, 0xc0, 0x00, 0x04, 0x72, 0x00, 0x13, 0xfc, 0x00, 0x09,
    0x00, 0xa1, 0x30, 0xf3, 0x13, 0xfc, 0x00, 0x04, 0x00, 0xa1, 0x30, 0xfb, 0x52, 0x41, 0x34, 0x39, 0x00, 0x0f,
    0xff, 0xf0, 0x33, 0xc2, 0x00, 0xff, 0x00, 0x00, 0x36, 0x39, 0x00, 0x2f, 0xff, 0xf0, 0x33, 0xc3, 0x00, 0xff,
    0x00, 0x02, 0x33, 0xc1, 0x00, 0xff, 0x00, 0x04, 0x30, 0x3c, 0x00, 0x64, 0x51, 0xc8, 0xff, 0xfe, 0x08, 0x39,
    0x00, 0x03, 0x00, 0xc0, 0x00, 0x05, 0x67, 0xce, 0x23, 0xfc, 0xc0, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x04,
    0xd4, 0x43, 0x33, 0xc2, 0x00, 0xc0, 0x00, 0x00, 0x60, 0xba,
};

#define CART_RUN 60u /* frames compared after each converted state */

/* A 1 MiB image with backup RAM at $200001-$203FFF running k_sram_prog on both cores from power-on; GPGX's states
 * after frames 10, 11, ... are converted into our core (which keeps its own backup RAM, as GPGX keeps its own on a
 * load) until one with the backup RAM mapped at $200000 and one with the ROM there (slot $20 = $FF or not) have each
 * been loaded and run on CART_RUN frames with work RAM and pictures equal. Before 2026-11-27 09:45 the converter
 * kept the backup RAM mapped in a state showing the ROM. */
static void sram_states_convert(void **s)
{
    (void)s;
    need_wheel();
    rg_emu *gx, *us;
    image_pair("sram", 0x100000u, "RG BACKUP RAM", 1, k_sram_prog, sizeof k_sram_prog, &gx, &us);
    rg__gen_state *o = malloc(sizeof *o);
    assert_non_null(o);
    int done[2] = {0, 0};
    unsigned at = 10; /* frames from power-on */
    assert_int_equal(run_both(gx, us, at, NULL, "backup RAM, from power-on"), at);
    for (unsigned tries = 0; tries < 40 && !(done[0] && done[1]); tries++) {
        size_t n;
        uint8_t *st = test_state_save(gx, &n);
        int mapped = st[OFF_CART + 0x20] == 0xFFu;
        if (!done[mapped]) {
            assert_int_equal(st[OFF_CART + 0x20], mapped ? 0xFFu : 0x00u); /* ROM: page $20 of 16 is page 0 */
            our_state(us, o);
            uint8_t kept[16];
            memcpy(kept, o->cart.sram, sizeof kept);
            assert_int_equal(kept[1] != 0xFFu, 1); /* the program's count */
            EXPECT_OK(rg_emu_state_load(us, st, n));
            our_state(us, o);
            assert_int_equal(o->cart.sram_slots, mapped ? 1ull << 0x20 : 0u);
            assert_int_equal(o->cart.sram_wp, 0);
            assert_memory_equal(o->cart.sram, kept, sizeof kept); /* ours, kept: GPGX's state holds none */
            unsigned k = run_both(gx, us, CART_RUN, NULL, mapped ? "backup RAM mapped" : "backup RAM unmapped");
            print_message("backup RAM %s in GPGX's state %u frames from power-on: work RAM and pictures equal for "
                          "%u of %u frames\n", mapped ? "mapped" : "not mapped", at, k, CART_RUN);
            assert_int_equal(k, CART_RUN);
            at += CART_RUN;
            done[mapped] = 1;
        } else {
            assert_int_equal(run_both(gx, us, 1, NULL, "backup RAM"), 1);
            at++;
        }
        free(st);
    }
    assert_true(done[0] && done[1]);
    free(o);
    rg_emu_free(gx);
    rg_emu_free(us);
}

/* A 5 MiB image named SUPER STREET FIGHTER2 (the SSF2 bank registers) running k_bank_prog: GPGX's state after 20
 * frames, its banks 1 and 5 switched (slots 8-15 pages 72-79, slots 40-47 pages 32-39), converts into a fresh
 * instance of our core (the power-on mapping) with those pages, and both run on CART_RUN frames with work RAM and
 * pictures equal. Refused as bank switching before 2026-11-27 09:45. */
static void bank_state_converts(void **s)
{
    (void)s;
    need_wheel();
    rg_emu *gx, *us;
    image_pair("ssf2", 0x500000u, "SUPER STREET FIGHTER2", 0, k_bank_prog, sizeof k_bank_prog, &gx, &us);
    for (unsigned f = 0; f < 20; f++)
        EXPECT_OK(rg_emu_run(gx));
    size_t n;
    uint8_t *st = test_state_save(gx, &n);
    assert_int_equal(st[OFF_CART + 8], 72);
    assert_int_equal(st[OFF_CART + 40], 32);
    EXPECT_OK(rg_emu_state_load(us, st, n));
    rg__gen_state *o = malloc(sizeof *o);
    assert_non_null(o);
    our_state(us, o);
    for (unsigned i = 0; i < 64; i++)
        assert_int_equal(o->cart.page[i], i >= 8 && i < 16 ? 64u + i : i >= 40 && i < 48 ? i - 8u : i);
    assert_int_equal(o->cart.sram_slots, 0);
    unsigned k = run_both(gx, us, CART_RUN, NULL, "SSF2 banks");
    print_message("SSF2 banks switched in GPGX's state: work RAM and pictures equal for %u of %u frames\n", k,
                  CART_RUN);
    assert_int_equal(k, CART_RUN);
    uint8_t w[6];
    EXPECT_OK(rg_emu_mem_read(us, 0xFF0000, w, sizeof w));
    assert_int_equal(w[0] << 8 | w[1], 0xA509);
    assert_int_equal(w[2] << 8 | w[3], 0xA504);
    free(o);
    free(st);
    rg_emu_free(gx);
    rg_emu_free(us);
}

/* The DMA program, at $200: the display on, DMA enabled, auto-increment 2; waits for V counter $DD (line 221), then
 * starts a 68000-to-VRAM transfer of 600 words from $000000 to VRAM $0000 (8 words a line in the picture, H32: most
 * of it is left when the frame ends at line 224); then forever: count in d1 into $FF0000, the V counter into
 * $FF0002. */
static const uint8_t k_dma_prog[] = {
    0x46, 0xfc, 0x27, 0x00, 0x33, 0xfc, 0x81, 0x54, 0x00, 0xc0, 0x00, 0x04, 0x33, 0xfc, 0x8f, 0x02, 0x00, 0xc0,
    0x00, 0x04, 0x72, 0x00, 0x10, 0x39, 0x00, 0xc0, 0x00, 0x08, 0x0c, 0x00, 0x00, 0xdd, 0x66, 0xf4, 0x23, 0xfc,
    0x93, 0x58, 0x94, 0x02, 0x00, 0xc0, 0x00, 0x04, 0x23, 0xfc, 0x95, 0x00, 0x96, 0x00, 0x00, 0xc0, 0x00, 0x04,
    0x33, 0xfc, 0x97, 0x00, 0x00, 0xc0, 0x00, 0x04, 0x23, 0xfc, 0x40, 0x00, 0x00, 0x80, 0x00, 0xc0, 0x00, 0x04,
    0x52, 0x41, 0x33, 0xc1, 0x00, 0xff, 0x00, 0x00, 0x13, 0xf9, 0x00, 0xc0, 0x00, 0x08, 0x00, 0xff, 0x00, 0x02,
    0x60, 0xec,
};

/* GPGX's state at the end of the frame in which k_dma_prog starts its transfer holds the transfer under way (its
 * words left); converted into a fresh instance of our core, the rest is moved at once and the 68000 resumes when it
 * would have moved (both measured: VRAM holds the ROM's first 1,200 bytes); then both run on CART_RUN frames with
 * work RAM and pictures compared, and VRAM compared after the first. Refused before 2026-11-27 09:51. */
static void dma_state_converts(void **s)
{
    (void)s;
    need_wheel();
    rg_emu *gx, *us;
    image_pair("dma", 0x80000u, "RG DMA", 0, k_dma_prog, sizeof k_dma_prog, &gx, &us);
    uint8_t *image = make_image(0x80000u, "RG DMA", "JUE", 0, k_dma_prog, sizeof k_dma_prog);
    static uint8_t rom[1200]; /* the image's first bytes */
    memcpy(rom, image, sizeof rom);
    free(image);
    size_t n = 0;
    uint8_t *st = NULL;
    rg__gpgx_state *g = malloc(sizeof *g);
    assert_non_null(g);
    unsigned left = 0;
    for (unsigned fr = 0; fr < 5 && !left; fr++) {
        EXPECT_OK(rg_emu_run(gx));
        free(st);
        st = test_state_save(gx, &n);
        EXPECT_OK(rg__gpgx_parse(st, n, 1, g));
        left = g->vdp.dma_length;
    }
    assert_in_range(left, 400, 599); /* under way at a frame's end */
    EXPECT_OK(rg_emu_state_load(us, st, n));
    rg__gen_state *o = malloc(sizeof *o);
    assert_non_null(o);
    our_state(us, o);
    assert_int_equal(o->vdp.reg[19] | o->vdp.reg[20], 0);
    assert_int_equal(o->vdp.reg[21] | o->vdp.reg[22] << 8, 600);
    assert_int_equal(o->vdp.addr, 1200);
    assert_memory_equal(o->vdp.vram, rom, sizeof rom);
    /* the 68000 waits for the rest: 166 / 2 words a line in the blank */
    uint64_t at = (uint64_t)o->cpu.cycles * 7u + o->cpu_moff - rg__gen_frame_base(o);
    assert_int_equal(at, (uint64_t)left * RG__GEN_LINE_MCLK / 83u);
    unsigned k = run_both(gx, us, 1, NULL, "DMA under way");
    free(st);
    st = test_state_save(gx, &n);
    our_state(us, o);
    unsigned vdiff = 0;
    for (unsigned i = 0; i < 0x10000u; i++)
        vdiff += o->vdp.vram[i] != st[OFF_VDP + 0x400u + (i ^ 1u)];
    if (k == 1)
        k += run_both(gx, us, CART_RUN - 1u, NULL, "DMA under way");
    print_message("DMA under way (%u words left) in GPGX's state: VRAM bytes differing a frame on %u, work RAM and "
                  "pictures equal for %u of %u frames\n", left, vdiff, k, CART_RUN);
    assert_int_equal(vdiff, 0);
    assert_int_equal(k, CART_RUN);
    free(o);
    free(g);
    free(st);
    rg_emu_free(gx);
    rg_emu_free(us);
}

#define PAL_AT 300u  /* frames GPGX runs (the menus script) before its state is saved */
#define PAL_RUN 300u /* frames compared after it (seeded random input) */
/* the first frame whose pictures differed when measured (2026-11-27 09:44; work RAM below the stack page equal on
 * all PAL_RUN, the stack page from frame 228, $FFFFE3): the pictures differ at the same frame when both cores run the
 * same input from power-on (and RAM agrees there on all PAL_RUN), so it is our core's PAL picture, not the
 * conversion. Lower only with a reason. */
#define PAL_PIX_FRAMES 101u

/* A PAL copy of Airstriker (its header's region 'E': 313-line frames in both cores): GPGX's state after PAL_AT
 * frames of the menus script (the YM2612's timers on the PAL sample grid) converts into a fresh instance of our
 * core, and both run PAL_RUN frames of random input with work RAM (below the stack page) and pictures compared.
 * Refused ("PAL") before 2026-11-27 09:45. */
static void pal_state_converts(void **s)
{
    (void)s;
    need_wheel();
    FILE *f = fopen(g_rom, "rb");
    assert_non_null(f);
    static uint8_t rom[0x40000];
    size_t len = fread(rom, 1, sizeof rom, f);
    fclose(f);
    assert_true(len > 0x200 && len < sizeof rom);
    memcpy(rom + 0x1F0, "E  ", 3);
    rg_emu *gx, *us;
    open_pair("pal", rom, len, &gx, &us);
    for (unsigned i = 0; i < PAL_AT; i++) {
        EXPECT_OK(rg_emu_set_buttons(gx, 0, script(i)));
        EXPECT_OK(rg_emu_run(gx));
    }
    size_t n;
    uint8_t *st = test_state_save(gx, &n);
    EXPECT_OK(rg_emu_state_load(us, st, n));
    rg__gen_state *o = malloc(sizeof *o);
    assert_non_null(o);
    our_state(us, o);
    assert_int_equal(o->region & 0x40u, 0x40u);
    assert_memory_equal(o->ram, st + 16, sizeof o->ram);
    unsigned pix, ram = run_both2(gx, us, PAL_RUN, random_pad, "PAL", STACK_PAGE, &pix);
    print_message("PAL Airstriker, GPGX's state at frame %u: work RAM below $FFFF00 equal for %u of %u frames, "
                  "pictures for %u\n", PAL_AT, ram, PAL_RUN, pix);
    assert_int_equal(ram, PAL_RUN);
    assert_true(pix >= PAL_PIX_FRAMES);
    free(o);
    free(st);
    rg_emu_free(gx);
    rg_emu_free(us);
}

/* The YM2612's registers, converted back from GPGX's decoded fields: Airstriker plays music from its title on, so
 * after MENU_AT frames from power-on (the menus script) the register file our core kept from the writes equals the
 * one converted from GPGX's state at the same frame (bits the chip does not use excepted: GPGX keeps no trace of
 * them), and so do the F-numbers, the operators' key states, the timers and the PSG's registers. */
static void fm_registers_convert(void **s)
{
    (void)s;
    need_wheel();
    rg_emu *gx = open_gen("genesis_plus_gx"), *us = open_gen("genesis"), *cv = open_gen("genesis");
    run_menus(gx, us);
    size_t n;
    uint8_t *st = test_state_save(gx, &n);
    EXPECT_OK(rg_emu_state_load(cv, st, n));
    rg__gen_state *a = malloc(sizeof *a), *c = malloc(sizeof *c);
    assert_non_null(a);
    assert_non_null(c);
    our_state(us, a);
    our_state(cv, c);
    unsigned compared = 0, keyed = 0;
    for (unsigned p = 0; p < 2; p++)
        for (unsigned r = p ? 0x30u : 0x22u; r < 0xB7u; r++) {
            uint8_t mask = 0xFF;
            if (r == 0x22)
                mask = 0x0F;
            else if (r == 0x25)
                mask = 0x03;
            else if (r == 0x27)
                mask = 0xCF;
            else if (r == 0x2B)
                mask = 0x80;
            else if (r < 0x30 && r != 0x24 && r != 0x26)
                continue; /* $23, $28 (GPGX keeps the keys, compared below), $29, $2A (the DAC's output, off), $2C-$2F */
            else if (r >= 0x30 && (r & 3u) == 3u)
                continue;
            else if (r >= 0xA4 && r < 0xB0)
                mask = (r & 0xFCu) == 0xA4u || (r & 0xFCu) == 0xACu ? 0x3F : 0xFF;
            if (r >= 0xA8 && r < 0xB0 && p)
                continue;
            if ((a->fm.reg[p][r] & mask) != (c->fm.reg[p][r] & mask))
                fail_msg("YM2612 part %u register $%02X: ours $%02X, converted from GPGX's $%02X", p + 1u, r,
                         a->fm.reg[p][r], c->fm.reg[p][r]);
            compared++;
        }
    assert_memory_equal(a->fm.fnum, c->fm.fnum, sizeof a->fm.fnum);
    assert_memory_equal(a->fm.block, c->fm.block, sizeof a->fm.block);
    for (unsigned ch = 0; ch < 6; ch++)
        for (unsigned o = 0; o < 4; o++) {
            assert_int_equal(a->fm.op[ch][o].key, c->fm.op[ch][o].key);
            keyed += a->fm.op[ch][o].key;
        }
    assert_true(keyed >= 4); /* music playing: at least a channel keyed on (10 operators when measured) */
    assert_int_equal(a->ym_ta, c->ym_ta);
    assert_int_equal(a->ym_tb, c->ym_tb);
    assert_int_equal(a->ym_mode, c->ym_mode);
    assert_memory_equal(a->psg_reg, c->psg_reg, sizeof a->psg_reg);
    print_message("frame %u: %u YM2612 registers equal ours, %u operators keyed on\n", MENU_AT, compared, keyed);
    free(a);
    free(c);
    free(st);
    rg_emu_free(gx);
    rg_emu_free(us);
    rg_emu_free(cv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(menu_state_converts),
        cmocka_unit_test(level1_state),
        cmocka_unit_test(bad_states_refused),
        cmocka_unit_test(pal_state_converts),
        cmocka_unit_test(sram_states_convert),
        cmocka_unit_test(bank_state_converts),
        cmocka_unit_test(dma_state_converts),
        cmocka_unit_test(z80_running_state),
        cmocka_unit_test(fm_registers_convert),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
