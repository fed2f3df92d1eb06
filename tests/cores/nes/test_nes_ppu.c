/* The NES PPU (src/cores/nes/ppu*.c) driven through its machine interface by a bare machine (no CPU, no cartridge):
 * pattern tables in a buffer, nametables in 2 KiB of RAM (vertical mirroring), a framebuffer. The test plays the CPU:
 * it runs the PPU to a CPU cycle, then reads or writes a register at that cycle. Dot figures are the 2C02's
 * (docs/nes.md, PPU): with the PPU at dot 0 of line 0 at cycle 0, the dots processed by cycle c are 0 .. 3c - 1. */
#include "test_support.h"

#include "cores/nes/nes.h"
#include "nes_harness.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>

#define LINE_DOTS 341u
#define VBL_DOT (241u * LINE_DOTS + 1u)
#define PRE_DOT (261u * LINE_DOTS + 1u)
#define FRAME_DOTS (262u * LINE_DOTS)

typedef struct bare {
    rg__nes_machine m;
    uint8_t chr[0x2000];
    uint8_t ntram[0x800];
    uint16_t fb[RG__NES_WIDTH * RG__NES_HEIGHT];
} bare;

static bare *machine(void)
{
    bare *b = calloc(1, sizeof *b);
    assert_non_null(b);
    for (int i = 0; i < 8; i++)
        b->m.chr_map[i] = b->chr + 0x400 * i;
    b->m.chr_writable = 0xFF;
    b->m.nt_map[0] = b->m.nt_map[2] = b->ntram;
    b->m.nt_map[1] = b->m.nt_map[3] = b->ntram + 0x400;
    b->m.fb = b->fb;
    rg__nes_ppu_power(&b->m.st.ppu);
    rg__nes_ppu_run(&b->m, 0);
    return b;
}

/* The first CPU cycle by which dot `dot` (counted from power-on) has been processed. */
static uint64_t cycle_after(uint64_t dot)
{
    return dot / 3 + 1;
}

static uint8_t rd(bare *b, uint64_t cycle, unsigned reg)
{
    rg__nes_ppu_run(&b->m, cycle);
    return rg__nes_ppu_read(&b->m, reg);
}

static void wr(bare *b, uint64_t cycle, unsigned reg, uint8_t v)
{
    rg__nes_ppu_run(&b->m, cycle);
    rg__nes_ppu_write(&b->m, reg, v);
}

static void vram_write(bare *b, uint64_t cycle, uint16_t addr, const uint8_t *bytes, size_t n)
{
    wr(b, cycle, 6, (uint8_t)(addr >> 8));
    wr(b, cycle, 6, (uint8_t)addr);
    for (size_t i = 0; i < n; i++)
        wr(b, cycle, 7, bytes[i]);
}

/* --- timing */

static void vblank_set_time(void **state)
{
    (void)state;
    bare *b = machine();
    rg__nes_ppu_run(&b->m, cycle_after(VBL_DOT) - 1);
    assert_false(b->m.frame_done);
    assert_int_equal(b->m.st.ppu.status & 0x80, 0);
    assert_int_equal(b->m.ppu_sync_at, cycle_after(VBL_DOT)); /* the machine is told when to come back */
    rg__nes_ppu_run(&b->m, cycle_after(VBL_DOT));
    assert_true(b->m.frame_done);
    assert_int_equal(b->m.st.ppu.line, 241);
    assert_int_equal(rg__nes_ppu_read(&b->m, 2) & 0x80, 0x80);
    assert_int_equal(rg__nes_ppu_read(&b->m, 2) & 0x80, 0); /* reading clears it */
    assert_false(b->m.st.cpu.nmi_pending);                   /* NMI was off */
    free(b);
}

static void vblank_clear_time(void **state)
{
    (void)state;
    bare *b = machine();
    rg__nes_ppu_run(&b->m, cycle_after(PRE_DOT) - 1);
    assert_int_equal(b->m.st.ppu.status & 0x80, 0x80);
    rg__nes_ppu_run(&b->m, cycle_after(PRE_DOT));
    assert_int_equal(b->m.st.ppu.status & 0x80, 0);
    free(b);
}

static void nmi_edges(void **state)
{
    (void)state;
    bare *b = machine();
    wr(b, 10, 0, 0x80);
    assert_false(b->m.st.cpu.nmi_pending); /* no vblank yet */
    rg__nes_ppu_run(&b->m, cycle_after(VBL_DOT) - 1);
    assert_false(b->m.st.cpu.nmi_pending);
    rg__nes_ppu_run(&b->m, cycle_after(VBL_DOT));
    assert_true(b->m.st.cpu.nmi_pending);
    b->m.st.cpu.nmi_pending = 0;
    uint64_t c = cycle_after(VBL_DOT) + 100;
    wr(b, c, 0, 0x80); /* already on: no new edge */
    assert_false(b->m.st.cpu.nmi_pending);
    wr(b, c + 1, 0, 0x00);
    wr(b, c + 2, 0, 0x80); /* off then on during vblank: a new edge at once */
    assert_true(b->m.st.cpu.nmi_pending);
    b->m.st.cpu.nmi_pending = 0;
    b->m.st.cpu.nmi_pending = 0;
    rg__nes_ppu_reset(&b->m.st.ppu); /* reset clears PPUCTRL: enabling in vblank is an edge again */
    wr(b, c + 3, 0, 0x80);
    assert_true(b->m.st.cpu.nmi_pending);
    b->m.st.cpu.nmi_pending = 0;
    rd(b, c + 4, 2); /* vblank flag read: enabling again gives no edge */
    wr(b, c + 5, 0, 0x00);
    wr(b, c + 6, 0, 0x80);
    assert_false(b->m.st.cpu.nmi_pending);
    free(b);
}

/* A $2002 read just as the flag is due reads it clear, and the flag and the NMI never come that frame; one a dot
 * later reads it set and cancels the NMI; later reads leave the NMI alone. */
static void vblank_read_race(void **state)
{
    (void)state;
    static const struct {
        uint64_t dots;   /* dots processed before the read */
        unsigned flag;   /* what the read sees */
        int nmi;         /* an NMI edge is pending afterwards */
        unsigned after;  /* the flag later in the frame */
    } cases[] = {
        {VBL_DOT - 3, 0x00, 1, 0x80}, {VBL_DOT, 0x00, 0, 0x00}, {VBL_DOT + 1, 0x80, 0, 0x00},
        {VBL_DOT + 3, 0x80, 1, 0x00},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bare *b = machine();
        /* the PPU run to a dot that is not a multiple of 3: shift its clock by starting at another dot */
        uint64_t skew = cases[i].dots % 3;
        b->m.st.ppu.line = 0;
        b->m.st.ppu.dot = (uint16_t)skew;
        wr(b, 1, 0, 0x80);
        uint64_t cyc = (cases[i].dots - skew) / 3;
        rg__nes_ppu_run(&b->m, cyc);
        assert_int_equal(b->m.st.ppu.line * LINE_DOTS + b->m.st.ppu.dot, cases[i].dots);
        unsigned got = rg__nes_ppu_read(&b->m, 2) & 0x80;
        assert_int_equal(got, cases[i].flag);
        rg__nes_ppu_run(&b->m, cyc + 100);
        assert_int_equal(b->m.st.cpu.nmi_pending, cases[i].nmi);
        assert_int_equal(b->m.st.ppu.status & 0x80, cases[i].after);
        free(b);
    }
}

/* Frame lengths: 341 x 262 dots, one dot less on odd frames while rendering is on. */
static void odd_frame_skip(void **state)
{
    (void)state;
    for (int render = 0; render < 2; render++) {
        bare *b = machine();
        if (render)
            wr(b, 1, 1, 0x08);
        uint64_t vbl[4] = {VBL_DOT, 0, 0, 0};
        for (int f = 1; f < 4; f++)
            vbl[f] = vbl[f - 1] + FRAME_DOTS - (render && (f % 2 == 0));
        for (int f = 0; f < 4; f++) {
            b->m.frame_done = 0;
            rg__nes_ppu_run(&b->m, cycle_after(vbl[f]) - 1);
            assert_false(b->m.frame_done);
            assert_int_equal(b->m.ppu_sync_at, cycle_after(vbl[f]));
            rg__nes_ppu_run(&b->m, cycle_after(vbl[f]));
            assert_true(b->m.frame_done);
            assert_int_equal(b->m.st.ppu.line, 241);
            assert_in_range(b->m.st.ppu.dot, 2, 4);
        }
        free(b);
    }
}

/* --- registers */

static void loopy_registers(void **state)
{
    (void)state;
    bare *b = machine();
    rg__nes_ppu *p = &b->m.st.ppu;
    wr(b, 1, 0, 0x00);
    rd(b, 1, 2);
    wr(b, 1, 5, 0x7D);
    assert_int_equal(p->t, 0x000F);
    assert_int_equal(p->x, 5);
    assert_int_equal(p->w, 1);
    wr(b, 1, 5, 0x5E);
    assert_int_equal(p->t, 0x616F);
    assert_int_equal(p->w, 0);
    wr(b, 1, 6, 0x3D);
    assert_int_equal(p->t, 0x3D6F);
    wr(b, 1, 6, 0xF0);
    assert_int_equal(p->t, 0x3DF0);
    assert_int_equal(p->v, 0x3DF0);
    wr(b, 1, 0, 0x00);
    assert_int_equal(p->t, 0x31F0); /* nametable bits from $2000 */
    wr(b, 1, 6, 0x12); /* $2002 read resets the toggle */
    rd(b, 1, 2);
    assert_int_equal(p->w, 0);
    free(b);
}

static void data_port(void **state)
{
    (void)state;
    bare *b = machine();
    static const uint8_t bytes[] = {0x11, 0x22, 0x33};
    vram_write(b, 1, 0x2400, bytes, 3);
    assert_memory_equal(b->ntram + 0x400, bytes, 3);
    wr(b, 2, 6, 0x24);
    wr(b, 2, 6, 0x00);
    assert_int_equal(rd(b, 2, 7), 0x00); /* the buffer from before */
    assert_int_equal(rd(b, 2, 7), 0x11);
    assert_int_equal(rd(b, 2, 7), 0x22);
    /* increment 32 */
    wr(b, 3, 0, 0x04);
    static const uint8_t col[] = {0xA1, 0xA2};
    vram_write(b, 3, 0x2001, col, 2);
    assert_int_equal(b->ntram[0x001], 0xA1);
    assert_int_equal(b->ntram[0x021], 0xA2);
    wr(b, 3, 0, 0x00);
    /* pattern tables */
    static const uint8_t pat[] = {0x5A};
    vram_write(b, 4, 0x1FFF, pat, 1);
    assert_int_equal(b->chr[0x1FFF], 0x5A);
    b->m.chr_writable = 0; /* CHR-ROM: writes are dropped */
    static const uint8_t pat2[] = {0x00};
    vram_write(b, 4, 0x1FFF, pat2, 1);
    assert_int_equal(b->chr[0x1FFF], 0x5A);
    /* palette: $3F10 is $3F00, entries are 6 bits, reads are direct with the latch's top 2 bits, the buffer gets the
     * nametable byte under the palette */
    b->ntram[0x700] = 0x77; /* $2F00 with vertical mirroring */
    static const uint8_t pal[] = {0xFF};
    vram_write(b, 5, 0x3F10, pal, 1);
    assert_int_equal(b->m.st.ppu.palette[0], 0x3F);
    wr(b, 5, 6, 0x3F);
    wr(b, 5, 6, 0x00);
    assert_int_equal(rd(b, 5, 7), 0x3F); /* latch was 0x00 from the $2006 write */
    assert_int_equal(b->m.st.ppu.read_buf, 0x77);
    wr(b, 5, 6, 0x3F);
    wr(b, 5, 6, 0x14);
    wr(b, 5, 2, 0xC0); /* latch top bits */
    assert_int_equal(rd(b, 5, 7), 0xC0 | 0x00);
    /* greyscale applies to palette reads */
    static const uint8_t pal2[] = {0x2D};
    vram_write(b, 5, 0x3F01, pal2, 1);
    wr(b, 5, 1, 0x01);
    wr(b, 5, 6, 0x3F);
    wr(b, 5, 6, 0x01);
    assert_int_equal(rd(b, 5, 7) & 0x3F, 0x20);
    free(b);
}

static void oam_port(void **state)
{
    (void)state;
    bare *b = machine();
    wr(b, 1, 3, 0x10);
    for (unsigned i = 0; i < 4; i++)
        wr(b, 1, 4, (uint8_t)(0xF0 | i));
    assert_int_equal(b->m.st.ppu.oam[0x12], 0xF2);
    wr(b, 1, 3, 0x11);
    assert_int_equal(rd(b, 1, 4), 0xF1);
    assert_int_equal(b->m.st.ppu.oam_addr, 0x11); /* reads do not move the address */
    wr(b, 1, 3, 0x12);
    assert_int_equal(rd(b, 1, 4), 0xE2); /* attribute bits 2-4 read 0 */
    free(b);
}

static void open_bus_decay(void **state)
{
    (void)state;
    bare *b = machine();
    wr(b, 1, 2, 0xFF);
    assert_int_equal(rd(b, 1, 0), 0xFF);
    assert_int_equal(rd(b, 1, 5), 0xFF);
    assert_int_equal(rd(b, 1, 2) & 0x1F, 0x1F);
    uint64_t frame_cycles = FRAME_DOTS / 3;
    /* $2002 read refreshed bits 7-5 with what it returned (vblank 0 here: 0) */
    assert_int_equal(rd(b, 2, 0), 0x1F);
    wr(b, 3, 0, 0xA5);
    assert_int_equal(rd(b, frame_cycles * 10, 0), 0xA5);
    assert_int_equal(rd(b, frame_cycles * 60, 0), 0x00); /* decayed within a second */
    free(b);
}

/* --- rendering */

/* A scene: tile 1 a checkerboard of colours 1 and 2 (low plane 0x55, high plane 0xAA: pixels 2,1,2,1...), tile 2 solid
 * colour 3, the nametable tile 1 everywhere but tile 2 at (2, 3); attribute palette 1 for the top-left 32x32 block. */
static void scene(bare *b)
{
    for (int r = 0; r < 8; r++) {
        b->chr[16 + r] = 0x55;
        b->chr[16 + 8 + r] = 0xAA;
        b->chr[32 + r] = 0xFF;
        b->chr[32 + 8 + r] = 0xFF;
    }
    memset(b->ntram, 1, 0x3C0);
    b->ntram[3 * 32 + 2] = 2;
    memset(b->ntram + 0x3C0, 0, 64);
    b->ntram[0x3C0] = 0x01; /* top-left quadrant of the first 32x32 block: palette 1 */
    static const uint8_t pal[32] = {0x0F, 0x01, 0x02, 0x03, 0x0F, 0x11, 0x12, 0x13, 0x0F, 0x21, 0x22, 0x23,
                                    0x0F, 0x31, 0x32, 0x33, 0x0F, 0x05, 0x06, 0x07, 0x0F, 0x15, 0x16, 0x17,
                                    0x0F, 0x25, 0x26, 0x27, 0x0F, 0x35, 0x36, 0x37};
    vram_write(b, 1, 0x3F00, pal, 32);
    wr(b, 1, 6, 0x00);
    wr(b, 1, 6, 0x00);
}

static void background_tile(void **state)
{
    (void)state;
    bare *b = machine();
    scene(b);
    wr(b, 2, 1, 0x0A); /* background on, left column shown */
    b->m.video = 1;
    /* frame 0's rendering starts on the pre-render line of the frame before it: run into frame 1 */
    uint64_t end = cycle_after(FRAME_DOTS + VBL_DOT);
    rg__nes_ppu_run(&b->m, end);
    const uint16_t *fb = b->fb;
    /* (0,0): tile 1 with palette 1: pixel 0 is colour 2, pixel 1 colour 1 */
    assert_int_equal(fb[0], 0x12);
    assert_int_equal(fb[1], 0x11);
    /* x 16-23 on line 0: attribute quadrant 0 covers tiles 0-1 only; tile 2 uses palette 0 (quadrant 1) */
    assert_int_equal(fb[16], 0x02);
    assert_int_equal(fb[17], 0x01);
    /* tile 2 at (2, 3): solid colour 3 of palette 0 */
    for (int y = 24; y < 32; y++)
        for (int x = 16; x < 24; x++)
            assert_int_equal(fb[y * 256 + x], 0x03);
    /* left 8 pixels clipped: backdrop */
    wr(b, end, 1, 0x08);
    rg__nes_ppu_run(&b->m, end + FRAME_DOTS / 3 + 1);
    assert_int_equal(fb[0], 0x0F);
    assert_int_equal(fb[7], 0x0F);
    assert_int_equal(fb[8], 0x12);
    /* fine X scroll 3: pixel 0 is tile pixel 3 */
    uint64_t c = end + FRAME_DOTS / 3 + 1;
    wr(b, c, 1, 0x0A);
    rd(b, c, 2);
    wr(b, c, 5, 0x03);
    wr(b, c, 5, 0x00);
    rg__nes_ppu_run(&b->m, c + FRAME_DOTS / 3 + 1);
    assert_int_equal(fb[0], 0x11);
    assert_int_equal(fb[16 - 3 + 24 * 256], 0x03); /* tile 2's first pixel moved left by 3 */
    /* greyscale and emphasis */
    c += FRAME_DOTS / 3 + 1;
    wr(b, c, 1, 0x0A | 0x01 | 0xA0);
    rg__nes_ppu_run(&b->m, c + FRAME_DOTS / 3 + 1);
    assert_int_equal(fb[24 * 256 + 16], (0x03 & 0x30) | 5 << 6);
    free(b);
}

/* Sprite 0 (Y 49 shows it on lines 50-57, X 100) over the opaque background: the hit flag is set at the dot of
 * its first opaque pixel over an opaque background pixel, with and without a picture drawn. */
static uint64_t hit_dot(int video, unsigned x, uint8_t mask)
{
    bare *b = machine();
    scene(b);
    memset(b->ntram, 2, 0x3C0); /* solid background */
    uint8_t spr[4] = {49, 2, 0x00, (uint8_t)x};
    wr(b, 1, 3, 0);
    for (int i = 0; i < 4; i++)
        wr(b, 1, 4, spr[i]);
    for (int i = 4; i < 256; i++)
        wr(b, 1, 4, 0xFF);
    wr(b, 1, 1, mask);
    b->m.video = (uint8_t)video;
    /* frame 1, polled a cycle at a time from line 40 */
    uint64_t start = FRAME_DOTS + 40 * LINE_DOTS;
    rg__nes_ppu_run(&b->m, start / 3);
    uint64_t found = 0;
    for (uint64_t c = start / 3 + 1; c < (FRAME_DOTS + 240 * LINE_DOTS) / 3; c++) {
        if (rd(b, c, 2) & 0x40) {
            found = b->m.st.ppu.dots - FRAME_DOTS;
            break;
        }
    }
    free(b);
    return found;
}

static void sprite0_hit(void **state)
{
    (void)state;
    for (int video = 0; video < 2; video++) {
        /* first pixel (x 100) on line 50: dot 101 processed, seen by the first read after it */
        uint64_t at = hit_dot(video, 100, 0x1E);
        assert_true(at > 50 * LINE_DOTS + 101);
        assert_true(at <= 50 * LINE_DOTS + 101 + 3);
        assert_int_equal(hit_dot(video, 255, 0x1E), 0);  /* never at x 255 */
        assert_int_equal(hit_dot(video, 100, 0x08), 0);  /* sprites off */
        assert_int_equal(hit_dot(video, 100, 0x10), 0);  /* background off */
        assert_int_equal(hit_dot(video, 0, 0x18), 0);    /* x 0-7 clipped */
        at = hit_dot(video, 4, 0x18);                    /* ... until x 8 */
        assert_true(at > 50 * LINE_DOTS + 9 && at <= 50 * LINE_DOTS + 9 + 3);
    }
}

/* Sprite pixels: in front of / behind the background, the lower OAM index on top, 8 per line. */
static void sprite_pixels(void **state)
{
    (void)state;
    bare *b = machine();
    scene(b);
    memset(b->ntram, 0, 0x3C0); /* transparent background (tile 0 is blank) */
    b->ntram[5 * 32 + 5] = 2;   /* one opaque tile at (40, 40) */
    uint8_t oam[256];
    memset(oam, 0xFF, sizeof oam);
    const uint8_t s[][4] = {
        {19, 1, 0x01, 10},        /* sprite 0 line 20: checker with palette 5 */
        {19, 2, 0x02, 12},        /* under sprite 0 where both are opaque */
        {39, 2, 0x20 | 3, 44},    /* behind the opaque tile at (40, 40) */
        {39, 1, 0x40, 60},        /* flipped */
    };
    memcpy(oam, s, sizeof s);
    /* 9 sprites on line 100: the 9th is not drawn */
    for (int i = 0; i < 9; i++) {
        uint8_t *o = oam + 4 * (4 + i);
        o[0] = 99;
        o[1] = 2;
        o[2] = 0;
        o[3] = (uint8_t)(i * 20);
    }
    wr(b, 1, 3, 0);
    for (int i = 0; i < 256; i++)
        wr(b, 1, 4, oam[i]);
    wr(b, 1, 1, 0x1E);
    b->m.video = 1;
    rg__nes_ppu_run(&b->m, cycle_after(FRAME_DOTS + VBL_DOT));
    const uint16_t *fb = b->fb;
    assert_int_equal(fb[20 * 256 + 10], 0x16); /* sprite 0, palette 4+1: pixel 0 colour 2 */
    assert_int_equal(fb[20 * 256 + 11], 0x15);
    assert_int_equal(fb[20 * 256 + 12], 0x16); /* sprite 0 on top of sprite 1 */
    assert_int_equal(fb[20 * 256 + 13], 0x15);
    assert_int_equal(fb[20 * 256 + 18], 0x27); /* sprite 1 alone: colour 3 of palette 6 */
    assert_int_equal(fb[19 * 256 + 10], 0x0F); /* Y 19 starts on line 20 */
    assert_int_equal(fb[40 * 256 + 44], 0x03); /* behind the background */
    assert_int_equal(fb[40 * 256 + 48], 0x37); /* past the tile, in front of the backdrop */
    assert_int_equal(fb[40 * 256 + 60], 0x05); /* flipped: pixel 0 is pattern pixel 7 (colour 1) */
    assert_int_equal(fb[40 * 256 + 61], 0x06);
    for (int i = 0; i < 8; i++)
        assert_int_equal(fb[100 * 256 + i * 20], 0x07);
    assert_int_equal(fb[100 * 256 + 160], 0x0F);
    assert_int_equal(b->m.st.ppu.status & 0x20, 0x20); /* 9 on line 100: overflow */
    free(b);
}

/* The overflow flag: set with 9 sprites on a line, not with 8, and the hardware's walk past the 8th sprite reads
 * OAM[n][m] with m stepping: a 9th sprite whose Y is out of range can still set it through a later byte. */
static unsigned overflow_after(const uint8_t *oam, int video)
{
    bare *b = machine();
    wr(b, 1, 3, 0);
    for (int i = 0; i < 256; i++)
        wr(b, 1, 4, oam[i]);
    wr(b, 1, 1, 0x18);
    b->m.video = (uint8_t)video;
    rg__nes_ppu_run(&b->m, (FRAME_DOTS + 200 * LINE_DOTS) / 3);
    unsigned f = rd(b, (FRAME_DOTS + 200 * LINE_DOTS) / 3, 2) & 0x20;
    free(b);
    return f;
}

static void sprite_overflow(void **state)
{
    (void)state;
    for (int video = 0; video < 2; video++) {
        uint8_t oam[256];
        memset(oam, 0xF8, sizeof oam);
        for (int i = 0; i < 8; i++)
            oam[4 * i] = 50;
        assert_int_equal(overflow_after(oam, video), 0);
        oam[4 * 8] = 50;
        assert_int_equal(overflow_after(oam, video), 0x20);
        /* 9th sprite out of range: the walk then reads sprite 9's byte 1 (its tile) as a Y: 50 in range */
        oam[4 * 8] = 0xF8;
        oam[4 * 9 + 1] = 50;
        assert_int_equal(overflow_after(oam, video), 0x20);
        oam[4 * 9 + 1] = 0xF8;
        oam[4 * 9] = 50; /* byte 0 of sprite 9 is not looked at as a Y */
        assert_int_equal(overflow_after(oam, video), 0);
    }
}

/* Running in one go, a cycle at a time, and without a picture gives the same state; the first two give the same
 * picture. The scene scrolls mid-frame and has sprites. */
static void run_frames(bare *b, int step, int video)
{
    uint8_t oam[256];
    for (int i = 0; i < 256; i++)
        oam[i] = (uint8_t)(i * 37 + 11);
    scene(b);
    wr(b, 1, 3, 0);
    for (int i = 0; i < 256; i++)
        wr(b, 1, 4, oam[i]);
    wr(b, 1, 1, 0x1E);
    wr(b, 1, 0, 0x80 | 0x10 | 0x20);
    b->m.video = (uint8_t)video;
    uint64_t c = 2;
    for (int f = 0; f < 3; f++) {
        uint64_t split = ((uint64_t)f * FRAME_DOTS + 100 * LINE_DOTS + 200) / 3 + 2 + (uint64_t)f * 7;
        uint64_t end = ((uint64_t)(f + 1) * FRAME_DOTS + VBL_DOT) / 3 + 1;
        for (; c < end; c++) {
            if (step || c == split || c == end - 1)
                rg__nes_ppu_run(&b->m, c);
            if (c == split) {
                rg__nes_ppu_write(&b->m, 5, (uint8_t)(13 * f + 5));
                rg__nes_ppu_write(&b->m, 5, (uint8_t)(29 * f + 3));
                rg__nes_ppu_write(&b->m, 0, (uint8_t)(0x80 | 0x10 | 0x20 | (f & 3)));
            }
        }
        rg__nes_ppu_run(&b->m, end);
    }
}

static void segments_agree(void **state)
{
    (void)state;
    bare *one = machine(), *step = machine(), *blind = machine();
    run_frames(one, 0, 1);
    run_frames(step, 1, 1);
    run_frames(blind, 0, 0);
    assert_memory_equal(one->fb, step->fb, sizeof one->fb);
    assert_memory_equal(&one->m.st.ppu, &step->m.st.ppu, sizeof one->m.st.ppu);
    assert_memory_equal(&one->m.st.ppu, &blind->m.st.ppu, sizeof one->m.st.ppu);
    free(one);
    free(step);
    free(blind);
}

/* Frames nobody observes, on real programs (our StarCatcher; the demo ROM of ../shared when present): drawing every
 * frame, none, or one in four leaves the same machine state after every frame (sprite-0 hits, overflow, scroll and
 * timing all computed), and the drawn frames are the same pictures. */
static void unobserved_frames(void **state)
{
    (void)state;
    char paths[3][1024];
    int n = 1;
    test_source_path("data/stable/StarCatcher-Nes/rom.nes", paths[0], sizeof paths[0]);
    const char *shared = test_shared_roms();
    if (shared)
        snprintf(paths[n++], sizeof paths[1], "%s/Dr88-FamiconIntro.nes", shared);
    /* Super Mario Bros. (the gym-super-mario-bros wheel in .venv): its status bar is split by a sprite-0 hit */
    glob_t g;
    if (glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages/gym_super_mario_bros/_roms/super-mario-bros.nes", 0, NULL,
             &g) == 0) {
        snprintf(paths[n++], sizeof paths[2], "%s", g.gl_pathv[0]);
        globfree(&g);
    } else {
        print_message("gym-super-mario-bros is not in .venv: Super Mario Bros. skipped\n");
    }
    for (int r = 0; r < n; r++) {
        nes_harness h[3];
        for (int k = 0; k < 3; k++)
            assert_int_equal(nes_harness_open(&h[k], paths[r]), RG_OK);
        uint32_t seed = 12345;
        for (unsigned f = 0; f < 600; f++) {
            seed = seed * 1103515245u + 12345u;
            uint8_t pad = (f % 120) < 60 ? (uint8_t)(seed >> 24) : (f % 240 == 200 ? 0x08 : 0);
            for (int k = 0; k < 3; k++) {
                h[k].m->video = (uint8_t)(k == 0 ? 1 : k == 1 ? 0 : (f % 4 == 3));
                h[k].m->buttons[0] = pad;
                rg__nes_run_frame(h[k].m);
            }
            assert_memory_equal(&h[0].m->st, &h[1].m->st, sizeof h[0].m->st);
            assert_memory_equal(&h[0].m->st, &h[2].m->st, sizeof h[0].m->st);
            if (f % 4 == 3)
                assert_memory_equal(h[0].fb, h[2].fb, sizeof(uint16_t) * RG__NES_WIDTH * RG__NES_HEIGHT);
        }
        /* the picture is not empty: more than one colour */
        unsigned colours = 0;
        for (size_t i = 1; i < (size_t)RG__NES_WIDTH * RG__NES_HEIGHT; i++)
            colours += h[0].fb[i] != h[0].fb[0];
        assert_true(colours > 0);
        for (int k = 0; k < 3; k++)
            nes_harness_free(&h[k]);
    }
    if (!shared)
        print_message("../shared is absent: the demo ROM was skipped\n");
}

static void state_check(void **state)
{
    (void)state;
    bare *b = machine();
    rg__nes_ppu *p = &b->m.st.ppu;
    assert_null(rg__nes_ppu_check(p));
    rg__nes_ppu ok = *p;
#define BAD(stmt)                                                                                                      \
    do {                                                                                                               \
        *p = ok;                                                                                                       \
        stmt;                                                                                                          \
        assert_non_null(rg__nes_ppu_check(p));                                                                         \
    } while (0)
    BAD(p->line = 262);
    BAD(p->dot = 341);
    BAD(p->v = 0x8000);
    BAD(p->t = 0xFFFF);
    BAD(p->x = 8);
    BAD(p->w = 2);
    BAD(p->odd = 2);
    BAD(p->sec_count = 9);
    BAD(p->ovf_dot = 400);
    BAD(p->palette[5] = 0x40);
    BAD(p->spr_line[7] = 0x80);
    BAD(p->spr_line[7] = 0x01); /* a sprite pixel the line does not know it has */
    BAD(p->at_latch = 4);
    BAD(p->latch_frame[3] = 5);
    BAD(p->status = 0x81);
#undef BAD
    *p = ok;
    p->cycle = 1000;
    assert_null(rg__nes_ppu_check_at(p, 1000));
    assert_null(rg__nes_ppu_check_at(p, 1000 + RG__NES_PPU_LAG_MAX));
    assert_non_null(rg__nes_ppu_check_at(p, 999));                          /* ahead of the CPU */
    assert_non_null(rg__nes_ppu_check_at(p, 1001 + RG__NES_PPU_LAG_MAX));   /* far behind */
    p->line = 300;
    assert_non_null(rg__nes_ppu_check_at(p, 1000));
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vblank_set_time),  cmocka_unit_test(vblank_clear_time), cmocka_unit_test(nmi_edges),
        cmocka_unit_test(vblank_read_race), cmocka_unit_test(odd_frame_skip),    cmocka_unit_test(loopy_registers),
        cmocka_unit_test(data_port),        cmocka_unit_test(oam_port),          cmocka_unit_test(open_bus_decay),
        cmocka_unit_test(background_tile),  cmocka_unit_test(sprite0_hit),       cmocka_unit_test(sprite_pixels),
        cmocka_unit_test(sprite_overflow),  cmocka_unit_test(segments_agree),    cmocka_unit_test(unobserved_frames),
        cmocka_unit_test(state_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
