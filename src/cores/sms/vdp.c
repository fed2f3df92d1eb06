/* The SMS/GG VDP (315-5124/5246/GG): ports, registers, status, interrupts, and mode 4's sprites and line renderer
 * (the TMS9918 modes are in vdp_tms.c). Timing follows Genesis Plus GX's model (docs/sms.md, "Timing"): a line is drawn as it starts, its sprites
 * were listed as the line before started, and a port access made after the end of the running line (the last
 * instruction of a line overshooting it) sees the next line. */
#include "cores/sms/sms.h"
#include "cores/sms/vdp_tms.h"

#include <string.h>

void rg__sms_vdp_power_on(rg__sms_vdp *v, int gg)
{
    memset(v, 0, sizeof *v);
    /* without a BIOS: the SMS BIOS leaves mode 4 with the display off and registers 2-6 at $FF; the GG has no BIOS to
     * set them (all 0, as in Genesis Plus GX: the GG then starts in Graphics I, display off) */
    v->reg[0] = gg ? 0x00 : 0x36;
    v->reg[1] = gg ? 0x00 : 0x80;
    for (unsigned r = 2; r <= 6; r++)
        v->reg[r] = gg ? 0x00 : 0xFF;
    v->reg[10] = 0xFF;
    v->line_counter = 0xFF;
    v->line = RG__SMS_FRAME_LINE;
    v->hc_latch = 0x100; /* the H counter reads a latched value (0) until a TH line rises */
}

/* the H counter at master-clock position c (15 per T-state, 3420 per line): one count per 20 master clocks from
 * $85 at the line's start, jumping from $93 to $E9 */
uint8_t rg__sms_vdp_hcounter(unsigned c)
{
    unsigned h = 0x85u + (c % (RG__SMS_LINE_T * 15u)) / 20u;
    if (h > 0x93u)
        h += 0xE9u - 0x94u;
    return (uint8_t)h;
}

/* A pattern row (4 bitplane bytes) as 8 pixels, one a byte, the leftmost in the lowest byte: each plane byte
 * spread by a table whose entry b has bit (7 - i) of b in byte i. */
#define SPREAD1(b, i) ((uint64_t)(((b) >> (7 - (i))) & 1u) << (8 * (i)))
#define SPREAD(b) (SPREAD1(b, 0) | SPREAD1(b, 1) | SPREAD1(b, 2) | SPREAD1(b, 3) | SPREAD1(b, 4) | SPREAD1(b, 5) | \
                   SPREAD1(b, 6) | SPREAD1(b, 7))
#define SPREAD4(b) SPREAD(b), SPREAD((b) + 1u), SPREAD((b) + 2u), SPREAD((b) + 3u)
#define SPREAD16(b) SPREAD4(b), SPREAD4((b) + 4u), SPREAD4((b) + 8u), SPREAD4((b) + 12u)
#define SPREAD64(b) SPREAD16(b), SPREAD16((b) + 16u), SPREAD16((b) + 32u), SPREAD16((b) + 48u)
static const uint64_t spread[256] = {SPREAD64(0u), SPREAD64(64u), SPREAD64(128u), SPREAD64(192u)};

static inline uint64_t row_pixels(const uint8_t *row4)
{
    return spread[row4[0]] | spread[row4[1]] << 1 | spread[row4[2]] << 2 | spread[row4[3]] << 3;
}

/* Bit-reversed bytes (an opaque-pixel byte, leftmost pixel in bit 7, to dot order, leftmost in bit 0). */
#define REV(b) ((((b) & 1u) << 7) | (((b) & 2u) << 5) | (((b) & 4u) << 3) | (((b) & 8u) << 1) | (((b) >> 1) & 8u) | \
                (((b) >> 3) & 4u) | (((b) >> 5) & 2u) | (((b) >> 7) & 1u))
#define REV4(b) REV(b), REV((b) + 1u), REV((b) + 2u), REV((b) + 3u)
#define REV16(b) REV4(b), REV4((b) + 4u), REV4((b) + 8u), REV4((b) + 12u)
#define REV64(b) REV16(b), REV16((b) + 16u), REV16((b) + 32u), REV16((b) + 48u)
static const uint8_t reverse[256] = {REV64(0u), REV64(64u), REV64(128u), REV64(192u)};

#define BYTES_01 0x0101010101010101ull

/* Bytes of x that are zero get $80, the others 0 (exact, no carries between bytes). */
static inline uint64_t zero_bytes(uint64_t x)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    return ~(((x & low7) + low7) | x | low7);
}

/* Lists the sprites of line `line` + 1 (up to 8; a 9th sets the overflow latch when `line` is an active line).
 * A sprite at Y is on the line when (line - Y) mod 256 < its height (Y above 208 counts from -48: the same test,
 * since heights are at most 32 and Y at most 208 otherwise); the Y table is looked at 8 bytes at a time. */
static void parse_sprites(rg__sms_vdp *v, int line)
{
    unsigned sat = (v->reg[5] & 0x7Eu) << 7;
    unsigned zoom = v->reg[1] & 0x01u;
    unsigned tall = (v->reg[1] & 0x02u) ? 16u : 8u;
    unsigned span = tall << zoom; /* 8, 16 or 32 */
    unsigned mask = tall == 16u ? 0xFEu : 0xFFu;
    const uint8_t *ys = &v->vram[sat];
    const uint64_t high = 0x8080808080808080ull;
    uint64_t lines = (uint64_t)(uint8_t)line * BYTES_01;
    uint64_t outside = (uint64_t)(uint8_t)~(span - 1u) * BYTES_01;
    unsigned count = 0;
    for (unsigned g = 0; g < 64; g += 8) {
        uint64_t y;
        memcpy(&y, ys + g, 8);
        /* byte-wise (line - y) mod 256, then the bytes below span and the $D0 terminators */
        uint64_t d = ((lines | high) - (y & ~high)) ^ ((lines ^ ~y) & high);
        uint64_t on = zero_bytes(d & outside);
        uint64_t end = zero_bytes(y ^ (0xD0u * BYTES_01));
        if (end)
            on &= (end & (0u - end)) - 1u; /* only the sprites before the first terminator */
        while (on) {
            unsigned i = g + ((unsigned)__builtin_ctzll(on) >> 3);
            on &= on - 1u;
            if (count == 8u) {
                if (line >= 0 && line < RG__SMS_HEIGHT)
                    v->spr_ovr = 0x40;
                v->spr_count = 8;
                return;
            }
            rg__sms_sprite *o = &v->spr[count++];
            o->row = (uint8_t)((unsigned)(uint8_t)(line - ys[i]) >> zoom);
            o->x = v->vram[sat + 0x80u + 2u * i];
            o->pat = (uint8_t)(v->vram[sat + 0x81u + 2u * i] & mask);
        }
        if (end)
            break;
    }
    v->spr_count = (uint8_t)count;
}

/* The 32 colours as RGB565 (SMS: 2-bit channels x 85; GG: 4-bit channels x 17). */
static void palette(const rg__sms_vdp *v, int gg, uint16_t pal[32])
{
    for (unsigned i = 0; i < 32; i++) {
        unsigned r, g, b;
        if (gg) {
            unsigned c = v->cram[2u * i] | (v->cram[2u * i + 1u] & 0x0Fu) << 8;
            r = (c & 15u) * 17u, g = ((c >> 4) & 15u) * 17u, b = ((c >> 8) & 15u) * 17u;
        } else {
            unsigned c = v->cram[i];
            r = (c & 3u) * 85u, g = ((c >> 2) & 3u) * 85u, b = ((c >> 4) & 3u) * 85u;
        }
        pal[i] = (uint16_t)((r >> 3) << 11 | (g >> 2) << 5 | (b >> 3));
    }
}

/* The background of an active line: colours into out (RGB565 through pal) and, for the sprites, colour indexes into
 * lb (0-31, bit 5: priority over sprites), a tile at a time (the tiles start at the fine scroll, so each covers 8
 * whole pixels; lb has room for the last one's overhang). Only the tiles over dots x0 to x1 - 1 are drawn (on the
 * Game Gear its window; out and lb are left as they were elsewhere, and nothing reads them there). */
static void draw_background(const rg__sms_vdp *v, unsigned y, uint8_t lb[264], uint16_t *out, const uint16_t pal[32],
                            unsigned x0, unsigned x1)
{
    unsigned nt = (v->reg[2] & 0x0Eu) << 10;
    unsigned hs = ((v->reg[0] & 0x40u) && y < 16u) ? 0u : v->reg[8];
    unsigned shift = hs & 7u;
    unsigned lock_x = (v->reg[0] & 0x80u) ? 192u + shift : 256u;
    unsigned sy = (y + v->vscroll) % 224u;
    /* the fine scroll's first pixels are colour 0 */
    memset(lb, 0, 8);
    for (unsigned x = 0; x < shift; x++)
        out[x] = pal[0];
    /* only the tiles that cover the dots x0 to x1 - 1 (the Game Gear's window; all 256 on the SMS) */
    for (unsigned x = x0 > shift ? shift + ((x0 - shift) & ~7u) : shift; x < x1; x += 8u) {
        unsigned vy = x >= lock_x ? y : sy;
        unsigned col = ((x - hs) & 0xFFu) >> 3;
        unsigned ea = (nt + ((vy >> 3) * 32u + col) * 2u) & 0x3FFFu;
        unsigned e = v->vram[ea] | v->vram[(ea + 1u) & 0x3FFFu] << 8;
        unsigned row = (e & 0x400u) ? 7u - (vy & 7u) : (vy & 7u);
        uint64_t px = row_pixels(&v->vram[((e & 0x1FFu) * 32u + row * 4u) & 0x3FFFu]);
        if (e & 0x200u)
            px = __builtin_bswap64(px);
        if (px) {
            if (e & 0x1000u) /* priority (bit 5) on the non-zero colours: index 0 of either palette has none */
                px |= ((px + 0x7Fu * BYTES_01) & 0x80u * BYTES_01) >> 2;
            if (e & 0x800u)
                px |= 0x10u * BYTES_01;
        } else if (e & 0x800u) {
            px = 0x10u * BYTES_01;
        }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(lb + x, &px, 8);
#else
        for (unsigned i = 0; i < 8; i++)
            lb[x + i] = (uint8_t)(px >> (8u * i));
#endif
        if (x <= 248u) {
            for (unsigned i = 0; i < 8; i++)
                out[x + i] = pal[(px >> (8u * i)) & 0x1Fu];
        } else {
            for (unsigned i = 0; x + i < 256u; i++)
                out[x + i] = pal[(px >> (8u * i)) & 0x1Fu];
        }
    }
}

/* The listed sprites of line y: the overflow latch into the status, collision (status bit 5 and where it happened),
 * and, when drawing (out not NULL), their pixels over the background of lb. Occupied dots are a bitmap (dot d at bit
 * d + 16), so a line without drawing costs a few word operations per sprite. */
static void draw_sprites(rg__sms_vdp *v, unsigned y, const uint8_t *lb, uint16_t *out, const uint16_t *pal,
                         unsigned x0, unsigned x1)
{
    v->status |= v->spr_ovr;
    v->spr_ovr = 0;
    /* not drawing: only a collision can change, and there is none to find with under 2 sprites or to record while
     * the status still holds the last one */
    if (!out && (v->spr_count < 2u || (v->status & 0x20u)))
        return;
    unsigned pat_hi = (v->reg[6] & 0x04u) ? 0x100u : 0u;
    unsigned zoom = v->reg[1] & 0x01u;
    unsigned width = 8u << zoom;
    uint64_t occ[6] = {0, 0, 0, 0, 0, 0};
    for (unsigned n = 0; n < v->spr_count; n++) {
        const rg__sms_sprite *o = &v->spr[n];
        int x = o->x - (v->reg[0] & 0x08u);
        const uint8_t *row = &v->vram[(((o->pat | pat_hi) * 32u) + o->row * 4u) & 0x3FFFu];
        uint32_t m = reverse[row[0] | row[1] | row[2] | row[3]]; /* opaque dots, dot d in bit d */
        if (!m)
            continue;
        if (zoom) {
            uint32_t z = 0;
            for (unsigned d = 0; d < 8; d++)
                z |= ((m >> d) & 1u) * (3u << (2u * d));
            m = z;
        }
        if (x < 0)
            m &= ~0u << (unsigned)-x;
        if (x + (int)width > 256)
            m &= (1u << (unsigned)(256 - x)) - 1u;
        if (!m)
            continue;
        unsigned p = (unsigned)(x + 16), w = p >> 6, sh = p & 63u;
        uint64_t seen = occ[w] >> sh;
        if (sh)
            seen |= occ[w + 1] << (64u - sh);
        uint32_t hit = m & (uint32_t)seen;
        if (hit && !(v->status & 0x20u)) {
            unsigned sx = (unsigned)x + (unsigned)__builtin_ctz(hit);
            v->status |= 0x20u;
            v->spr_col = (uint16_t)(y << 8 | ((sx + 13u) >> 1));
        }
        occ[w] |= (uint64_t)m << sh;
        if (sh)
            occ[w + 1] |= (uint64_t)m >> (64u - sh);
        if (out) {
            uint64_t px = row_pixels(row);
            uint32_t draw = m & ~(uint32_t)seen;
            while (draw) {
                unsigned d = (unsigned)__builtin_ctz(draw);
                draw &= draw - 1u;
                unsigned sx = (unsigned)(x + (int)d);
                if (sx >= x0 && sx < x1 && !(lb[sx] & 0x20u))
                    out[sx] = pal[16u + ((px >> (8u * (d >> zoom))) & 0x0Fu)];
            }
        }
    }
}

/* Line y; `text`: the register 7 value whose nibbles the TMS Text modes draw with (register 7 itself, except when a
 * line is recoloured). */
static void render_line(rg__sms_vdp *v, unsigned y, uint16_t *fb, int gg, unsigned text)
{
    uint8_t lb[264];
    uint16_t pal[32];
    if (gg && (y < RG__GG_Y || y >= RG__GG_Y + RG__GG_H))
        fb = NULL; /* outside the Game Gear's window: only the sprite flags */
    uint16_t *out = fb ? fb + (size_t)y * RG__SMS_WIDTH : NULL;
    if (!(v->reg[0] & 0x04u)) {
        rg__sms_tms_line(v, y, out, gg, text); /* a TMS9918 mode (M4 clear) */
        return;
    }
    if (out)
        palette(v, gg, pal);
    if (v->reg[1] & 0x40u) {
        unsigned x0 = gg ? RG__GG_X : 0u, x1 = gg ? RG__GG_X + RG__GG_W : RG__SMS_WIDTH;
        if (out)
            draw_background(v, y, lb, out, pal, x0, x1);
        draw_sprites(v, y, lb, out, pal, x0, x1);
        if (out && (v->reg[0] & 0x20u))
            for (unsigned x = 0; x < 8; x++)
                out[x] = pal[16u + (v->reg[7] & 0x0Fu)];
        if (y < RG__SMS_HEIGHT - 1u)
            parse_sprites(v, (int)y);
    } else {
        v->status |= v->spr_ovr;
        v->spr_ovr = 0;
        parse_sprites(v, (int)y);
        if (out)
            for (unsigned x = 0; x < 256; x++)
                out[x] = pal[16u + (v->reg[7] & 0x0Fu)];
    }
}

void rg__sms_vdp_render_line(rg__sms_vdp *v, unsigned y, uint16_t *fb, int gg)
{
    render_line(v, y, fb, gg, v->reg[7]);
}

void rg__sms_vdp_parse_first(rg__sms_vdp *v)
{
    if (!(v->reg[0] & 0x04u))
        rg__sms_tms_parse(v, -1);
    else
        parse_sprites(v, -1);
}

void rg__sms_vdp_catch_up(rg__sms_vdp *v, uint16_t *fb, int gg)
{
    unsigned next = (v->line + 1u) % RG__SMS_LINES;
    if (next < RG__SMS_HEIGHT) {
        v->line = (uint16_t)next;
        rg__sms_vdp_render_line(v, next, fb, gg);
    }
}

uint8_t rg__sms_vdp_read_data(rg__sms_vdp *v)
{
    uint8_t r = v->buffer;
    v->latch = 0;
    v->buffer = v->vram[v->addr & 0x3FFFu];
    v->addr = (uint16_t)((v->addr + 1u) & 0x3FFFu);
    return r;
}

uint8_t rg__sms_vdp_read_status(rg__sms_vdp *v, unsigned c, int late, uint16_t *fb, int gg)
{
    if (late) {
        if (v->line == RG__SMS_HEIGHT) {
            v->line++;
            v->status |= 0x80u;
        } else {
            rg__sms_vdp_catch_up(v, fb, gg);
        }
    }
    uint8_t r = v->status;
    v->latch = 0;
    v->status = 0;
    r |= (v->reg[0] & 0x04u) ? 0x1Fu : (v->spr_num & 0x1Fu); /* TMS modes: the 5th (or last) sprite entry */
    if ((r & 0x20u) && v->line == (v->spr_col >> 8)) {
        /* collision is seen once the dot where it happened is reached */
        uint8_t hc = rg__sms_vdp_hcounter(c + 545u);
        if (hc < (v->spr_col & 0xFFu) || hc > 0xF3u) {
            v->status |= 0x20u;
            r &= (uint8_t)~0x20u;
        }
    }
    v->line_irq = 0;
    v->irq = 0;
    return r;
}

void rg__sms_vdp_write_data(rg__sms_vdp *v, uint8_t val, int late, uint16_t *fb, int gg)
{
    v->latch = 0;
    if (v->code == 3) {
        if (gg) {
            unsigned a = v->addr & 0x3Fu;
            if (!(a & 1u)) {
                v->cram_latch = val;
            } else {
                v->cram[a & 0x3Eu] = v->cram_latch;
                v->cram[a] = (uint8_t)(val & 0x0Fu);
            }
        } else {
            v->cram[v->addr & 0x1Fu] = (uint8_t)(val & 0x3Fu);
        }
    } else {
        if (late)
            rg__sms_vdp_catch_up(v, fb, gg);
        v->vram[v->addr & 0x3FFFu] = val;
    }
    v->buffer = val;
    v->addr = (uint16_t)((v->addr + 1u) & 0x3FFFu);
}

/* The running line drawn again (the display switched early in it): with its own sprite list, listed again from
 * the line before (the list in v->spr is the next line's by now); the overflow latch and the 5th sprite's number
 * stay as the line's first drawing left them, the redraw then moves the latch into the status and lists the next
 * line again, as Genesis Plus GX redraws it. */
static void redraw_line(rg__sms_vdp *v, uint16_t *fb, int gg)
{
    uint8_t ovr = v->spr_ovr, num = v->spr_num;
    int y = v->line;
    if (!(v->reg[0] & 0x04u))
        rg__sms_tms_parse(v, y - 1);
    else
        parse_sprites(v, y - 1);
    v->spr_ovr = ovr;
    v->spr_num = num;
    rg__sms_vdp_render_line(v, (unsigned)y, fb, gg);
}

/* The running line's colours again after a backdrop change early in it (Genesis Plus GX recolours the line): drawn
 * again with its own sprites (the Text modes' cells in the colours of `old`, register 7 before the write: only the
 * backdrop changes), and every flag, latch and sprite list put back as they were. */
static void recolour_line(rg__sms_vdp *v, uint16_t *fb, int gg, unsigned old)
{
    rg__sms_sprite spr[8];
    memcpy(spr, v->spr, sizeof spr);
    uint8_t status = v->status, ovr = v->spr_ovr, count = v->spr_count, num = v->spr_num;
    uint16_t col = v->spr_col;
    int y = v->line;
    if (!(v->reg[0] & 0x04u))
        rg__sms_tms_parse(v, y - 1);
    else
        parse_sprites(v, y - 1);
    v->spr_ovr = 0;
    render_line(v, (unsigned)y, fb, gg, old);
    memcpy(v->spr, spr, sizeof spr);
    v->status = status, v->spr_ovr = ovr, v->spr_count = count, v->spr_num = num, v->spr_col = col;
}

/* A register write; the INT output follows registers 0 and 1 as Genesis Plus GX updates it. `c` is the master-clock
 * offset in the running line (a display switch in its first 860 redraws the line). */
static void write_reg(rg__sms_vdp *v, unsigned r, uint8_t d, unsigned c, uint16_t *fb, int gg)
{
    if (r > 10u)
        return; /* registers 11-15 do not exist in mode 4 */
    uint8_t changed = (uint8_t)(v->reg[r] ^ d);
    v->reg[r] = d;
    uint8_t vint = v->status & 0x80u ? 0x20u : 0u;
    uint8_t hint = v->line_irq ? 0x10u : 0u;
    if (r == 0 && (changed & hint))
        v->irq = (uint8_t)((v->reg[1] & vint) || (d & 0x10u));
    if (r == 7 && (changed & 0x3Fu) && fb && v->line < RG__SMS_HEIGHT && c <= 860u)
        recolour_line(v, fb, gg, (uint8_t)(d ^ changed));
    if (r == 1) {
        if ((changed & 0x40u) && v->line < RG__SMS_HEIGHT && c <= 860u)
            redraw_line(v, fb, gg);
        if (changed & vint)
            v->irq = (uint8_t)((d & 0x20u) || (v->reg[0] & hint));
    }
}

void rg__sms_vdp_write_ctrl(rg__sms_vdp *v, uint8_t val, unsigned c, uint16_t *fb, int gg)
{
    if (!v->latch) {
        v->latch = 1;
        v->latch_byte = val;
        v->addr = (uint16_t)((v->addr & 0x3F00u) | val);
        return;
    }
    v->latch = 0;
    v->code = (uint8_t)(val >> 6);
    v->addr = (uint16_t)(((val & 0x3Fu) << 8) | v->latch_byte);
    if (v->code == 0) {
        v->buffer = v->vram[v->addr];
        v->addr = (uint16_t)((v->addr + 1u) & 0x3FFFu);
    } else if (v->code == 2) {
        write_reg(v, val & 0x0Fu, v->latch_byte, c, fb, gg);
    }
}

uint8_t rg__sms_vdp_vcounter(const rg__sms_vdp *v, int late)
{
    int l = v->line;
    if (late)
        l = (l + 1) % RG__SMS_LINES;
    if (l > 0xDA)
        l -= RG__SMS_LINES;
    return (uint8_t)l;
}
