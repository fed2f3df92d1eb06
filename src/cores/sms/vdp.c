/* The SMS/GG VDP (315-5124/5246/GG, mode 4 only): ports, registers, status, interrupts, sprites and the line
 * renderer. Timing follows Genesis Plus GX's model (docs/sms.md, "Timing"): a line is drawn as it starts, its sprites
 * were listed as the line before started, and a port access made after the end of the running line (the last
 * instruction of a line overshooting it) sees the next line. */
#include "cores/sms/sms.h"

#include <string.h>

void rg__sms_vdp_power_on(rg__sms_vdp *v, int gg)
{
    memset(v, 0, sizeof *v);
    /* without a BIOS: the SMS BIOS leaves mode 4 with the display off; the GG has no BIOS to set registers 0 and 1
     * (0 here, as in Genesis Plus GX); 2-6 read $FF */
    v->reg[0] = gg ? 0x00 : 0x36;
    v->reg[1] = gg ? 0x00 : 0x80;
    for (unsigned r = 2; r <= 6; r++)
        v->reg[r] = 0xFF;
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

static inline unsigned pixel_of(const uint8_t *row4, unsigned bit)
{
    return ((row4[0] >> bit) & 1u) | ((row4[1] >> bit) & 1u) << 1 | ((row4[2] >> bit) & 1u) << 2 |
           ((row4[3] >> bit) & 1u) << 3;
}

/* Lists the sprites of line `line` + 1 (up to 8; a 9th sets the overflow latch when `line` is an active line). */
static void parse_sprites(rg__sms_vdp *v, int line)
{
    unsigned sat = (v->reg[5] & 0x7Eu) << 7;
    int h = (v->reg[1] & 0x02u) ? 16 : 8;
    unsigned zoom = v->reg[1] & 0x01u;
    unsigned count = 0;
    for (unsigned i = 0; i < 64; i++) {
        int y = v->vram[sat + i];
        if (y == 0xD0)
            break;
        if (y > RG__SMS_HEIGHT + 16)
            y -= 256;
        int r = line - y;
        if (r < 0 || (r >> zoom) >= h)
            continue;
        if (count == 8u) {
            if (line >= 0 && line < RG__SMS_HEIGHT)
                v->spr_ovr = 0x40;
            break;
        }
        rg__sms_sprite *o = &v->spr[count++];
        o->row = (uint8_t)(r >> zoom);
        o->x = v->vram[sat + 0x80u + 2u * i];
        o->pat = v->vram[sat + 0x81u + 2u * i];
        if (h == 16)
            o->pat &= 0xFEu;
    }
    v->spr_count = (uint8_t)count;
}

static inline uint16_t colour(const rg__sms_vdp *v, unsigned idx, int gg)
{
    if (gg)
        return (uint16_t)((v->cram[2u * idx] | v->cram[2u * idx + 1u] << 8) & 0x0FFFu);
    return v->cram[idx] & 0x3Fu;
}

/* The background of an active line into lb (colour index 0-31, bit 5: priority over sprites), a tile at a time (the
 * tiles start at the fine scroll, so each covers 8 whole pixels). */
static void draw_background(const rg__sms_vdp *v, unsigned y, uint8_t lb[256])
{
    unsigned nt = (v->reg[2] & 0x0Eu) << 10;
    unsigned hs = ((v->reg[0] & 0x40u) && y < 16u) ? 0u : v->reg[8];
    unsigned shift = hs & 7u;
    unsigned lock_x = (v->reg[0] & 0x80u) ? 192u + shift : 256u;
    unsigned sy = (y + v->vscroll) % 224u;
    memset(lb, 0, shift); /* the fine scroll's first pixels are colour 0 */
    for (unsigned x = shift; x < 256u; x += 8u) {
        unsigned vy = x >= lock_x ? y : sy;
        unsigned col = ((x - hs) & 0xFFu) >> 3;
        unsigned ea = (nt + ((vy >> 3) * 32u + col) * 2u) & 0x3FFFu;
        unsigned e = v->vram[ea] | v->vram[(ea + 1u) & 0x3FFFu] << 8;
        unsigned row = (e & 0x400u) ? 7u - (vy & 7u) : (vy & 7u);
        const uint8_t *p = &v->vram[((e & 0x1FFu) * 32u + row * 4u) & 0x3FFFu];
        unsigned pal = (e & 0x800u) ? 16u : 0u, pri = (e & 0x1000u) ? 0x20u : 0u;
        unsigned n = 256u - x < 8u ? 256u - x : 8u;
        for (unsigned i = 0; i < n; i++) {
            unsigned c = pixel_of(p, (e & 0x200u) ? i : 7u - i);
            lb[x + i] = (uint8_t)(c | pal | (c ? pri : 0u));
        }
    }
}

/* The listed sprites of line y: the overflow latch into the status, collision (status bit 5 and where it happened),
 * and their pixels into lb when drawing. */
static void draw_sprites(rg__sms_vdp *v, unsigned y, uint8_t *lb)
{
    unsigned pat_hi = (v->reg[6] & 0x04u) ? 0x100u : 0u;
    unsigned zoom = v->reg[1] & 0x01u;
    int width = 8 << zoom;
    uint8_t hit[256];
    memset(hit, 0, sizeof hit);
    v->status |= v->spr_ovr;
    v->spr_ovr = 0;
    for (unsigned n = 0; n < v->spr_count; n++) {
        const rg__sms_sprite *o = &v->spr[n];
        int x = o->x - (v->reg[0] & 0x08u);
        const uint8_t *row = &v->vram[(((o->pat | pat_hi) * 32u) + o->row * 4u) & 0x3FFFu];
        for (int d = 0; d < width; d++) {
            int sx = x + d;
            if (sx < 0 || sx > 255)
                continue;
            unsigned c = pixel_of(row, 7u - (unsigned)(d >> zoom));
            if (!c)
                continue;
            if (hit[sx]) {
                if (!(v->status & 0x20u)) {
                    v->status |= 0x20u;
                    v->spr_col = (uint16_t)(y << 8 | (unsigned)((sx + 13) >> 1));
                }
                continue;
            }
            hit[sx] = 1;
            if (lb && !(lb[sx] & 0x20u))
                lb[sx] = (uint8_t)(16u + c);
        }
    }
}

void rg__sms_vdp_render_line(rg__sms_vdp *v, unsigned y, uint16_t *fb, int gg)
{
    uint8_t lb[256];
    uint8_t *l = fb ? lb : NULL;
    if (v->reg[1] & 0x40u) {
        if (l)
            draw_background(v, y, l);
        draw_sprites(v, y, l);
        if (l && (v->reg[0] & 0x20u))
            memset(l, 16u + (v->reg[7] & 0x0Fu), 8);
        if (y < RG__SMS_HEIGHT - 1u)
            parse_sprites(v, (int)y);
    } else {
        v->status |= v->spr_ovr;
        v->spr_ovr = 0;
        parse_sprites(v, (int)y);
        if (l)
            memset(l, 16u + (v->reg[7] & 0x0Fu), sizeof lb);
    }
    if (fb) {
        uint16_t *out = fb + (size_t)y * RG__SMS_WIDTH;
        for (unsigned x = 0; x < 256; x++)
            out[x] = colour(v, lb[x] & 0x1Fu, gg);
    }
}

void rg__sms_vdp_parse_first(rg__sms_vdp *v)
{
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
    if (v->reg[0] & 0x04u)
        r |= 0x1Fu;
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
    if (r == 1) {
        if ((changed & 0x40u) && v->line < RG__SMS_HEIGHT && c <= 860u)
            rg__sms_vdp_render_line(v, v->line, fb, gg);
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
