/* The SMS/GG VDP's legacy TMS9918 modes: the background of Graphics I (mode 0), Graphics II (mode 2), Text (mode 1),
 * Multicolor (mode 3), their variants with M2 set (the pattern table split in thirds as in Graphics II) and the
 * invalid M1+M3 combinations; TMS sprites (4 a line, 8x8 or 16x16, magnified, early clock, the 5th sprite's number
 * and overflow in the status, collision). Table addresses as on the 315-5246 (SMS 2) and the Game Gear, whose VDPs
 * ignore the Graphics II mask bits. Colours: the SMS VDP's fixed palette (CRAM values measured on a 315-5124, see
 * docs/sms.md); the Game Gear takes colours 16-31 of its CRAM. */
#include "cores/sms/vdp_tms.h"

#include <string.h>

/* TMS colour -> SMS CRAM value (--BBGGRR); 0 (transparent) shows the backdrop */
static const uint8_t k_sms_colour[16] = {
    0x00, 0x00, 0x08, 0x0C, 0x10, 0x30, 0x01, 0x3C, 0x02, 0x03, 0x05, 0x0F, 0x04, 0x33, 0x15, 0x3F,
};

static uint16_t rgb565(unsigned r, unsigned g, unsigned b)
{
    return (uint16_t)((r >> 3) << 11 | (g >> 2) << 5 | (b >> 3));
}

/* pal[c] for TMS colours 1-15, pal[0] the backdrop (register 7's low nibble) */
static void tms_palette(const rg__sms_vdp *v, int gg, uint16_t pal[16])
{
    for (unsigned i = 0; i < 16; i++) {
        unsigned c = i ? i : (v->reg[7] & 0x0Fu);
        if (gg) {
            unsigned w = v->cram[32u + 2u * c] | (v->cram[33u + 2u * c] & 0x0Fu) << 8;
            pal[i] = rgb565((w & 15u) * 17u, ((w >> 4) & 15u) * 17u, ((w >> 8) & 15u) * 17u);
        } else {
            unsigned w = k_sms_colour[c];
            pal[i] = rgb565((w & 3u) * 85u, ((w >> 2) & 3u) * 85u, ((w >> 4) & 3u) * 85u);
        }
    }
}

/* 8 pixels of a pattern byte: set bits take fg, clear bits bg */
static inline void put8(uint8_t *o, unsigned pattern, unsigned fg, unsigned bg)
{
    for (unsigned i = 0; i < 8; i++)
        o[i] = (uint8_t)((pattern & (0x80u >> i)) ? fg : bg);
}

/* The background of line y as TMS colours (0: transparent) into idx[256]; the Text modes' colours from `text`. */
static void background(const rg__sms_vdp *v, unsigned y, uint8_t idx[256], unsigned text)
{
    const uint8_t *vram = v->vram;
    unsigned mode = ((v->reg[0] & 0x02u) | (v->reg[1] & 0x18u)) >> 1; /* M2 1, M3 4, M1 8 */
    unsigned nt = (v->reg[2] & 0x0Fu) << 10;
    unsigned third = (y & 0xC0u) << 5; /* the M2 variants: patterns (and colours) by thirds of the screen */
    unsigned pg = (mode & 1u) ? ((v->reg[4] & 0x04u) << 11) + third : (v->reg[4] & 0x07u) << 11;
    if (mode & 8u) {
        /* Text (and the invalid M1+M3): 8 border dots, 40 cells of 6, 8 border dots */
        unsigned fg = (text >> 4) & 0x0Fu, bg = text & 0x0Fu;
        memset(idx, 0, 8);
        memset(idx + 248, 0, 8);
        for (unsigned c = 0; c < 40u; c++) {
            uint8_t *o = idx + 8u + 6u * c;
            unsigned p = (mode & 4u) ? 0xF0u : vram[pg + vram[nt + (y >> 3) * 40u + c] * 8u + (y & 7u)];
            for (unsigned i = 0; i < 6; i++)
                o[i] = (uint8_t)((p & (0x80u >> i)) ? fg : bg);
        }
        return;
    }
    const uint8_t *names = &vram[nt + (y >> 3) * 32u];
    if (mode & 4u) {
        /* Multicolor: each name's byte (row pair (y / 4) % 8) gives two 4-dot colours */
        for (unsigned c = 0; c < 32u; c++) {
            unsigned b = vram[pg + names[c] * 8u + ((y >> 2) & 7u)];
            memset(idx + 8u * c, (int)(b >> 4), 4);
            memset(idx + 8u * c + 4u, (int)(b & 0x0Fu), 4);
        }
    } else if (mode & 1u) {
        /* Graphics II: patterns and colours by thirds, 8 bytes of colour per pattern */
        unsigned ct = ((v->reg[3] & 0x80u) << 6) + third;
        for (unsigned c = 0; c < 32u; c++) {
            unsigned a = names[c] * 8u + (y & 7u);
            unsigned col = vram[ct + a];
            put8(idx + 8u * c, vram[pg + a], col >> 4, col & 0x0Fu);
        }
    } else {
        /* Graphics I: one colour byte per 8 patterns */
        unsigned ct = (unsigned)v->reg[3] << 6;
        for (unsigned c = 0; c < 32u; c++) {
            unsigned col = vram[ct + (names[c] >> 3)];
            put8(idx + 8u * c, vram[pg + names[c] * 8u + (y & 7u)], col >> 4, col & 0x0Fu);
        }
    }
}

/* Bit-reversed byte (leftmost dot, bit 7, to bit 0). */
static inline uint32_t rev8(unsigned b)
{
    b = ((b & 0xF0u) >> 4) | ((b & 0x0Fu) << 4);
    b = ((b & 0xCCu) >> 2) | ((b & 0x33u) << 2);
    b = ((b & 0xAAu) >> 1) | ((b & 0x55u) << 1);
    return b;
}

/* bits p..p+31 of a bitmap */
static inline uint32_t bits_at(const uint64_t *bm, unsigned p)
{
    unsigned w = p >> 6, sh = p & 63u;
    uint64_t r = bm[w] >> sh;
    if (sh)
        r |= bm[w + 1] << (64u - sh);
    return (uint32_t)r;
}

static inline void set_bits(uint64_t *bm, unsigned p, uint32_t m)
{
    unsigned w = p >> 6, sh = p & 63u;
    bm[w] |= (uint64_t)m << sh;
    if (sh)
        bm[w + 1] |= (uint64_t)m >> (64u - sh);
}

/* The listed sprites of a line: overflow latch into the status, collision (two opaque pattern dots of listed sprites
 * on one dot of the screen, whatever their colours), and, when idx is not NULL, their pixels (the first sprite with
 * a non-zero colour on a dot wins; colour 0 is transparent). Dot d is bit d + 32 of the bitmaps. */
static void sprites(rg__sms_vdp *v, uint8_t *idx)
{
    unsigned big = (v->reg[1] & 0x02u) ? 1u : 0u;
    unsigned zoom = v->reg[1] & 0x01u;
    unsigned width = (8u << big) << zoom;
    unsigned sg = (v->reg[6] & 0x07u) << 11;
    uint64_t opaque[6] = {0, 0, 0, 0, 0, 0}, drawn[6] = {0, 0, 0, 0, 0, 0};
    v->status |= v->spr_ovr;
    v->spr_ovr = 0;
    for (unsigned n = 0; n < v->spr_count && n < 4u; n++) {
        const rg__sms_sprite *o = &v->spr[n];
        int x = (int)o->x - ((o->col & 0x80u) ? 32 : 0);
        unsigned a = sg | (unsigned)(o->pat & (big ? 0xFCu : 0xFFu)) << 3 | (o->row & 0x0Fu);
        uint32_t m = rev8(v->vram[a]);
        if (big)
            m |= rev8(v->vram[(a + 0x10u) & 0x3FFFu]) << 8;
        if (zoom) {
            uint32_t z = 0;
            for (unsigned d = 0; d < 16; d++)
                z |= ((m >> d) & 1u) * (3u << (2u * d));
            m = z;
        }
        uint64_t keep = ~0ull;
        if (x < 0)
            keep <<= (unsigned)-x;
        if (x + (int)width > 256)
            keep &= (1ull << (unsigned)(256 - x)) - 1u;
        m &= (uint32_t)keep;
        if (!m)
            continue;
        unsigned p = (unsigned)(x + 32);
        if (m & bits_at(opaque, p))
            v->status |= 0x20u;
        set_bits(opaque, p, m);
        unsigned colour = o->col & 0x0Fu;
        if (idx && colour) {
            uint32_t draw = m & ~bits_at(drawn, p);
            set_bits(drawn, p, m);
            while (draw) {
                unsigned d = (unsigned)__builtin_ctz(draw);
                draw &= draw - 1u;
                idx[x + (int)d] = (uint8_t)colour;
            }
        }
    }
}

void rg__sms_tms_parse(rg__sms_vdp *v, int line)
{
    unsigned i = 0, count = 0;
    if (!(v->reg[1] & 0x10u)) { /* no sprites in the Text modes */
        unsigned sat = (v->reg[5] & 0x7Fu) << 7;
        unsigned zoom = v->reg[1] & 0x01u;
        int height = (v->reg[1] & 0x02u) ? 16 : 8;
        for (; i < 32u; i++) {
            const uint8_t *e = &v->vram[sat + 4u * i];
            int y = e[0];
            if (y == 0xD0)
                break;
            if (y >= 224)
                y -= 256;
            int d = line - y;
            if (d < 0 || (d >> zoom) >= height)
                continue;
            if (count == 4u) {
                if (line < RG__SMS_HEIGHT)
                    v->spr_ovr = 0x40;
                break;
            }
            rg__sms_sprite *o = &v->spr[count++];
            o->row = (uint8_t)(d >> zoom);
            o->x = e[1];
            o->pat = e[2];
            o->col = e[3];
        }
    }
    v->spr_count = (uint8_t)count;
    v->spr_num = (uint8_t)(i & 0x1Fu);
}

void rg__sms_tms_line(rg__sms_vdp *v, unsigned y, uint16_t *out, int gg, unsigned text)
{
    uint8_t idx[256];
    if (!(v->reg[1] & 0x40u)) {
        /* display off: the backdrop; sprites are still listed */
        v->status |= v->spr_ovr;
        v->spr_ovr = 0;
        rg__sms_tms_parse(v, (int)y);
        if (out) {
            uint16_t pal[16];
            tms_palette(v, gg, pal);
            for (unsigned x = 0; x < 256; x++)
                out[x] = pal[0];
        }
        return;
    }
    if (out)
        background(v, y, idx, text);
    sprites(v, out ? idx : NULL);
    if (y < RG__SMS_HEIGHT - 1u)
        rg__sms_tms_parse(v, (int)y);
    if (out) {
        uint16_t pal[16];
        tms_palette(v, gg, pal);
        if (v->reg[0] & 0x20u) /* left column blank */
            memset(idx, 0, 8);
        for (unsigned x = 0; x < 256; x++)
            out[x] = pal[idx[x] & 0x0Fu];
    }
}
