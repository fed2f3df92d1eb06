/* The SMS/GG VDP's TMS9918 modes (src/cores/sms/vdp_tms.c) through the VDP's own interface, on VRAM set up by the
 * test: Graphics I and Text pixels in the SMS's fixed palette (docs/sms.md), the Game Gear's colours from CRAM words
 * 16-31, the 5th sprite's number and overflow in the status (bit 1 included, which Genesis Plus GX loses), the list
 * ending at $D0, collision of opaque pattern dots whatever their colour (not of sprite boxes, as Genesis Plus GX
 * has it), magnification and the early clock, the same flags whether a line is drawn or not; a line redrawn when the
 * display is switched on early in it shows its own sprites; a backdrop change early in a line recolours it. The frame-by-frame
 * comparison with Genesis Plus GX is test_sms_vs_gpgx.c (the TMS-modes ROM). */
#include "test_support.h"

#include "cores/sms/sms.h"

#include <string.h>

static uint16_t fb[RG__SMS_WIDTH * RG__SMS_HEIGHT];

static uint16_t rgb(unsigned r, unsigned g, unsigned b)
{
    return (uint16_t)((r >> 3) << 11 | (g >> 2) << 5 | (b >> 3));
}

/* an SMS CRAM value (--BBGGRR) as RGB565 */
static uint16_t sms(unsigned c)
{
    return rgb((c & 3u) * 85u, ((c >> 2) & 3u) * 85u, ((c >> 4) & 3u) * 85u);
}

/* Graphics I, display on: names $3800, colours $2000, patterns $0000, sprites $3F80 with patterns at $3000 */
static void graphics1(rg__sms_vdp *v, int gg)
{
    rg__sms_vdp_power_on(v, gg);
    memset(v->vram, 0, sizeof v->vram);
    static const uint8_t regs[8] = {0x00, 0x40, 0x0E, 0x80, 0x00, 0x7F, 0x06, 0x0F};
    memcpy(v->reg, regs, sizeof regs);
    v->vram[0x3F80] = 0xD0; /* no sprites */
}

static void sprite(rg__sms_vdp *v, unsigned i, unsigned y, unsigned x, unsigned name, unsigned colour)
{
    uint8_t *e = &v->vram[0x3F80 + 4u * i];
    e[0] = (uint8_t)y, e[1] = (uint8_t)x, e[2] = (uint8_t)name, e[3] = (uint8_t)colour;
    e[4] = 0xD0;
}

/* Line y as the frame loop runs it: the line before lists its sprites, then y is drawn (out NULL: undrawn). */
static void run_line(rg__sms_vdp *v, unsigned y, int draw, int gg)
{
    v->status = 0;
    v->spr_count = 0;
    v->spr_ovr = 0;
    rg__sms_vdp_render_line(v, y - 1u, NULL, gg);
    v->line = (uint16_t)y;
    rg__sms_vdp_render_line(v, y, draw ? fb : NULL, gg);
}

static void test_graphics1_pixels(void **s)
{
    (void)s;
    rg__sms_vdp v;
    graphics1(&v, 0);
    v.vram[0x3800] = 5;    /* cell 0: pattern 5, colours of patterns 0-7: fg 4, bg 12 */
    v.vram[0x3801] = 8;    /* cell 1: pattern 8, colours of patterns 8-15: fg 1, bg 0 (transparent) */
    v.vram[5 * 8] = 0xF0;
    v.vram[8 * 8] = 0x80;
    v.vram[0x2000] = 0x4C;
    v.vram[0x2001] = 0x10;
    rg__sms_vdp_render_line(&v, 0, fb, 0);
    for (unsigned x = 0; x < 4; x++) {
        assert_int_equal(fb[x], sms(0x10));     /* TMS colour 4: CRAM $10 */
        assert_int_equal(fb[4 + x], sms(0x04)); /* 12: $04 */
    }
    assert_int_equal(fb[8], sms(0x00)); /* 1: black */
    for (unsigned x = 9; x < 16; x++)
        assert_int_equal(fb[x], sms(0x3F)); /* 0: the backdrop, register 7 = 15: white */
    /* left column blank: the backdrop */
    v.reg[0] = 0x20;
    rg__sms_vdp_render_line(&v, 0, fb, 0);
    assert_int_equal(fb[0], sms(0x3F));
    assert_int_equal(fb[8], sms(0x00));
    /* display off: the backdrop everywhere */
    v.reg[1] = 0x00;
    v.reg[7] = 0x02;
    rg__sms_vdp_render_line(&v, 0, fb, 0);
    for (unsigned x = 0; x < 256; x++)
        assert_int_equal(fb[x], sms(0x08));
}

static void test_text_mode(void **s)
{
    (void)s;
    rg__sms_vdp v;
    graphics1(&v, 0);
    v.reg[1] = 0x50; /* M1: Text */
    v.reg[7] = 0xF4; /* white on blue */
    v.vram[0x3800] = 1;
    v.vram[8] = 0xAB; /* dots 6 and 7 of a pattern row are not shown */
    sprite(&v, 0, 0, 0, 0, 15);
    memset(&v.vram[0x3000], 0xFF, 8);
    rg__sms_vdp_render_line(&v, 0, fb, 0);
    static const unsigned dots[6] = {0x3F, 0x10, 0x3F, 0x10, 0x3F, 0x10};
    for (unsigned x = 0; x < 6; x++)
        assert_int_equal(fb[8 + x], sms(dots[x]));
    for (unsigned x = 0; x < 8; x++) {
        assert_int_equal(fb[x], sms(0x10));       /* border: the backdrop */
        assert_int_equal(fb[248 + x], sms(0x10));
    }
    assert_int_equal(v.spr_count, 0); /* no sprites in Text mode */
    assert_int_equal(v.spr_num, 0);
}

static void test_fifth_sprite(void **s)
{
    (void)s;
    rg__sms_vdp v;
    graphics1(&v, 0);
    memset(&v.vram[0x3000], 0xFF, 0x100);
    for (unsigned i = 0; i < 7; i++)
        sprite(&v, i, 9, 10u * i, 0, 2); /* lines 10-17, 7 sprites side by side */
    run_line(&v, 10, 1, 0);
    assert_int_equal(v.spr_num, 4);  /* the 5th sprite */
    assert_int_equal(v.spr_ovr, 0x40);
    assert_int_equal(v.status & 0x60u, 0x40); /* line 10's list overflowed: moved into the status as it is drawn */
    for (unsigned x = 0; x < 40; x++)
        assert_int_equal(fb[10 * 256 + x], (x % 10u) < 8u ? sms(0x08) : sms(0x3F));
    assert_int_equal(fb[10 * 256 + 40], sms(0x3F)); /* only 4 sprites drawn */
    assert_int_equal(rg__sms_vdp_read_status(&v, 0, 0, NULL, 0), 0x40 | 4);
    /* three sprites on the line: the entry the listing stopped at is the terminator; bit 1 reads back (6) */
    for (unsigned i = 0; i < 3; i++)
        sprite(&v, i, 100, 10u * i, 0, 2);
    for (unsigned i = 3; i < 6; i++)
        sprite(&v, i, 9, 10u * i, 0, 2);
    run_line(&v, 12, 0, 0);
    assert_int_equal(v.spr_num, 6);
    assert_int_equal(v.spr_count, 3);
    assert_int_equal(rg__sms_vdp_read_status(&v, 0, 0, NULL, 0), 6);
    /* mode 4: bits 0-4 read 1 */
    v.reg[0] = 0x04;
    assert_int_equal(rg__sms_vdp_read_status(&v, 0, 0, NULL, 0), 0x1F);
}

static void test_collision(void **s)
{
    (void)s;
    for (int draw = 0; draw < 2; draw++) {
        rg__sms_vdp v;
        graphics1(&v, 0);
        memset(&v.vram[0x3000], 0xF0, 8);  /* pattern 0: dots 0-3 */
        memset(&v.vram[0x3008], 0x0F, 8);  /* pattern 1: dots 4-7 */
        memset(&v.vram[0x3010], 0x18, 8);  /* pattern 2: dots 3-4 */
        /* the same box, opaque dots apart: no collision */
        sprite(&v, 0, 20, 50, 0, 3);
        sprite(&v, 1, 20, 50, 1, 5);
        run_line(&v, 22, draw, 0);
        assert_int_equal(v.status & 0x20u, 0);
        /* dots meeting: collision, and colour 0 (transparent) sprites collide too */
        sprite(&v, 1, 20, 50, 2, 0);
        run_line(&v, 22, draw, 0);
        assert_int_equal(v.status & 0x20u, 0x20);
        if (draw) {
            assert_int_equal(fb[22 * 256 + 53], sms(0x0C)); /* the first sprite's colour 3 */
            assert_int_equal(fb[22 * 256 + 54], sms(0x3F)); /* colour 0: the backdrop shows */
        }
        /* overlapping only past the screen's right edge: no collision */
        sprite(&v, 0, 20, 252, 1, 3);
        sprite(&v, 1, 20, 254, 0, 5);
        run_line(&v, 22, draw, 0);
        assert_int_equal(v.status & 0x20u, 0);
    }
}

static void test_magnified_early_clock(void **s)
{
    (void)s;
    rg__sms_vdp v;
    graphics1(&v, 0);
    v.reg[1] = 0x41; /* magnified 8x8 */
    memset(&v.vram[0x3000], 0x80, 8);
    sprite(&v, 0, 20, 100, 0, 0x06);
    sprite(&v, 1, 20, 40, 0, 0x80 | 0x08); /* early clock: 32 dots to the left */
    run_line(&v, 35, 1, 0); /* row 14 of 16: pattern row 7 */
    assert_int_equal(fb[35 * 256 + 100], sms(0x01));
    assert_int_equal(fb[35 * 256 + 101], sms(0x01));
    assert_int_equal(fb[35 * 256 + 102], sms(0x3F));
    assert_int_equal(fb[35 * 256 + 8], sms(0x02));
    assert_int_equal(fb[35 * 256 + 9], sms(0x02));
    assert_int_equal(fb[35 * 256 + 40], sms(0x3F));
    run_line(&v, 37, 1, 0); /* past its 16 lines */
    assert_int_equal(fb[37 * 256 + 100], sms(0x3F));
}

static void test_gg_colours(void **s)
{
    (void)s;
    rg__sms_vdp v;
    graphics1(&v, 1);
    v.vram[0x3800 + 4 * 32] = 5; /* cell (0, 4): line 32 is in the Game Gear's window */
    v.vram[5 * 8] = 0xF0;
    v.vram[0x2000] = 0x30; /* fg 3, bg transparent */
    v.reg[7] = 0x0A;
    v.cram[32 + 2 * 3] = 0x0F; /* CRAM word 19: red */
    v.cram[32 + 2 * 10] = 0xF0; /* word 26: green (the backdrop) */
    rg__sms_vdp_render_line(&v, 32, fb, 1);
    assert_int_equal(fb[32 * 256], rgb(255, 0, 0));
    assert_int_equal(fb[32 * 256 + 4], rgb(0, 255, 0));
}

/* The display switched on early in a line redraws it with that line's own sprites (not the next line's list). */
static void test_display_on_redraw(void **s)
{
    (void)s;
    rg__sms_vdp v;
    graphics1(&v, 0);
    v.reg[1] = 0x00; /* display off */
    memset(&v.vram[0x3000], 0xFF, 8);
    sprite(&v, 0, 9, 50, 0, 2); /* lines 10-17 */
    rg__sms_vdp_render_line(&v, 16, NULL, 0);
    v.line = 17;
    rg__sms_vdp_render_line(&v, 17, fb, 0);
    assert_int_equal(fb[17 * 256 + 50], sms(0x3F)); /* display off: the backdrop */
    assert_int_equal(v.spr_count, 0);               /* line 18: no sprites */
    rg__sms_vdp_write_ctrl(&v, 0x40, 100, fb, 0);
    rg__sms_vdp_write_ctrl(&v, 0x81, 100, fb, 0);   /* register 1 = $40 within the line's first 860 clocks */
    assert_int_equal(fb[17 * 256 + 50], sms(0x08)); /* the sprite of line 17 */
    assert_int_equal(fb[17 * 256 + 58], sms(0x3F));
    assert_int_equal(v.spr_count, 0);
    /* later in the line: not redrawn */
    v.reg[1] = 0x00;
    rg__sms_vdp_render_line(&v, 17, fb, 0);
    rg__sms_vdp_write_ctrl(&v, 0x40, 900, fb, 0);
    rg__sms_vdp_write_ctrl(&v, 0x81, 900, fb, 0);
    assert_int_equal(fb[17 * 256 + 50], sms(0x3F));
}

/* A backdrop change early in a line recolours it: transparent dots and Text borders take the new backdrop, the Text
 * cells keep their colours, flags and sprite lists stay as they were; later in the line nothing changes. */
static void test_backdrop_recolour(void **s)
{
    (void)s;
    rg__sms_vdp v;
    graphics1(&v, 0);
    v.reg[1] = 0x50; /* Text */
    v.reg[7] = 0xF4;
    v.vram[0x3800] = 1;
    v.vram[8] = 0x80; /* cell 0: dot 8 white, 9-13 blue */
    v.line = 0;
    rg__sms_vdp_render_line(&v, 0, fb, 0);
    assert_int_equal(fb[0], sms(0x10));
    rg__sms_vdp before = v;
    rg__sms_vdp_write_ctrl(&v, 0x1A, 100, fb, 0);
    rg__sms_vdp_write_ctrl(&v, 0x87, 100, fb, 0); /* register 7 = $1A: backdrop 10 */
    assert_int_equal(fb[0], sms(0x05));   /* border: the new backdrop */
    assert_int_equal(fb[8], sms(0x3F));   /* the cell keeps white on blue */
    assert_int_equal(fb[9], sms(0x10));
    before.reg[7] = 0x1A;
    before.latch = v.latch;
    before.latch_byte = v.latch_byte;
    before.addr = v.addr;
    before.code = v.code;
    assert_memory_equal(&before, &v, sizeof v);
    rg__sms_vdp_write_ctrl(&v, 0x13, 900, fb, 0);
    rg__sms_vdp_write_ctrl(&v, 0x87, 900, fb, 0); /* too late in the line */
    assert_int_equal(fb[0], sms(0x05));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graphics1_pixels),
        cmocka_unit_test(test_text_mode),
        cmocka_unit_test(test_fifth_sprite),
        cmocka_unit_test(test_collision),
        cmocka_unit_test(test_magnified_early_clock),
        cmocka_unit_test(test_gg_colours),
        cmocka_unit_test(test_display_on_redraw),
        cmocka_unit_test(test_backdrop_recolour),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
