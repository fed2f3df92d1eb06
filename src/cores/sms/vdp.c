/* The SMS/GG VDP (315-5124/5246/GG, mode 4 only): ports, registers, status, interrupts and the line renderer.
 * docs/sms.md describes the behaviour and what is left out (the TMS9918 legacy modes). */
#include "cores/sms/sms.h"

#include <string.h>

void rg__sms_vdp_power_on(rg__sms_vdp *v)
{
    memset(v, 0, sizeof *v);
    /* the BIOS leaves mode 4 with the display off; games set every register they use */
    v->reg[0] = 0x36;
    v->reg[1] = 0x80;
    v->reg[2] = 0xFF;
    v->reg[3] = 0xFF;
    v->reg[4] = 0xFF;
    v->reg[5] = 0xFF;
    v->reg[6] = 0xFB;
    v->reg[10] = 0xFF;
    v->line_counter = 0xFF;
}

uint8_t rg__sms_vdp_read_data(rg__sms_vdp *v)
{
    uint8_t r = v->buffer;
    v->latch = 0;
    v->buffer = v->vram[v->addr & 0x3FFFu];
    v->addr = (uint16_t)((v->addr + 1u) & 0x3FFFu);
    return r;
}

uint8_t rg__sms_vdp_read_status(rg__sms_vdp *v)
{
    uint8_t r = (uint8_t)(v->status | 0x1Fu);
    v->status = 0;
    v->line_irq = 0;
    v->latch = 0;
    return r;
}

void rg__sms_vdp_write_data(rg__sms_vdp *v, uint8_t val, int gg)
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
        v->vram[v->addr & 0x3FFFu] = val;
    }
    v->buffer = val;
    v->addr = (uint16_t)((v->addr + 1u) & 0x3FFFu);
}

void rg__sms_vdp_write_ctrl(rg__sms_vdp *v, uint8_t val)
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
        v->reg[val & 0x0Fu] = v->latch_byte;
    }
}

uint8_t rg__sms_vdp_vcounter(const rg__sms_vdp *v)
{
    unsigned l = v->line;
    return (uint8_t)(l <= 0xDAu ? l : l - 6u);
}

uint8_t rg__sms_vdp_hcounter(unsigned t_in_line)
{
    unsigned h = (t_in_line % RG__SMS_LINE_T) * 3u / 4u; /* 342 pixels per line, the counter counts pairs */
    if (h > 0x93u)
        h += 0xE9u - 0x94u;
    return (uint8_t)h;
}

int rg__sms_vdp_irq(const rg__sms_vdp *v)
{
    return ((v->status & 0x80u) && (v->reg[1] & 0x20u)) || (v->line_irq && (v->reg[0] & 0x10u));
}

static inline unsigned pixel_of(const uint8_t *row4, unsigned bit)
{
    return ((row4[0] >> bit) & 1u) | ((row4[1] >> bit) & 1u) << 1 | ((row4[2] >> bit) & 1u) << 2 |
           ((row4[3] >> bit) & 1u) << 3;
}

/* Sprites on line y: overflow and collision flags always; their colour indexes in spr[] (0: none). */
static void sprites(rg__sms_vdp *v, unsigned y, uint8_t spr[256], int draw)
{
    unsigned sat = (v->reg[5] & 0x7Eu) << 7;
    unsigned pat_base = (v->reg[6] & 0x04u) << 11;
    unsigned h = (v->reg[1] & 0x02u) ? 16u : 8u;
    unsigned zoom = v->reg[1] & 0x01u;
    unsigned span = h << zoom;
    unsigned count = 0;
    uint8_t hit[256 + 16];
    memset(hit, 0, sizeof hit);
    for (unsigned i = 0; i < 64; i++) {
        unsigned sy = v->vram[sat + i];
        if (sy == 0xD0u)
            break;
        unsigned r = (y - sy - 1u) & 0xFFu;
        if (r >= span)
            continue;
        if (++count > 8u) {
            v->status |= 0x40u;
            break;
        }
        int x = v->vram[sat + 0x80u + 2u * i] - ((v->reg[0] & 0x08u) ? 8 : 0);
        unsigned pat = v->vram[sat + 0x81u + 2u * i];
        if (h == 16u)
            pat &= 0xFEu;
        const uint8_t *row = &v->vram[(pat_base + pat * 32u + (r >> zoom) * 4u) & 0x3FFFu];
        for (unsigned px = 0; px < (8u << zoom); px++) {
            int sx = x + (int)px;
            if (sx < 0 || sx > 255)
                continue;
            unsigned c = pixel_of(row, 7u - (px >> zoom));
            if (!c)
                continue;
            if (hit[sx]) {
                v->status |= 0x20u;
                continue;
            }
            hit[sx] = 1;
            if (draw)
                spr[sx] = (uint8_t)c;
        }
    }
}

static inline uint16_t colour(const rg__sms_vdp *v, unsigned idx, int gg)
{
    if (gg)
        return (uint16_t)((v->cram[2u * idx] | v->cram[2u * idx + 1u] << 8) & 0x0FFFu);
    return v->cram[idx] & 0x3Fu;
}

static void draw_line(const rg__sms_vdp *v, unsigned y, const uint8_t spr[256], uint16_t *out, int gg)
{
    uint16_t backdrop = colour(v, 16u + (v->reg[7] & 0x0Fu), gg);
    if (!(v->reg[1] & 0x40u)) {
        for (unsigned x = 0; x < 256; x++)
            out[x] = backdrop;
        return;
    }
    unsigned nt = (v->reg[2] & 0x0Eu) << 10;
    unsigned hs = ((v->reg[0] & 0x40u) && y < 16u) ? 0u : v->reg[8];
    for (unsigned x = 0; x < 256; x++) {
        if (x < 8u && (v->reg[0] & 0x20u)) {
            out[x] = backdrop;
            continue;
        }
        unsigned vy = ((v->reg[0] & 0x80u) && x >= 192u) ? y : (y + v->vscroll) % 224u;
        unsigned sx = (x - hs) & 0xFFu;
        unsigned ea = (nt + ((vy >> 3) * 32u + (sx >> 3)) * 2u) & 0x3FFFu;
        unsigned e = v->vram[ea] | v->vram[(ea + 1u) & 0x3FFFu] << 8;
        unsigned row = (e & 0x400u) ? 7u - (vy & 7u) : (vy & 7u);
        unsigned bit = (e & 0x200u) ? (sx & 7u) : 7u - (sx & 7u);
        unsigned c = pixel_of(&v->vram[((e & 0x1FFu) * 32u + row * 4u) & 0x3FFFu], bit);
        unsigned idx = c | ((e & 0x800u) ? 16u : 0u);
        if (spr[x] && !((e & 0x1000u) && c))
            idx = 16u + spr[x];
        out[x] = colour(v, idx, gg);
    }
}

void rg__sms_vdp_end_line(rg__sms_vdp *v, uint16_t *fb, int gg)
{
    unsigned y = v->line;
    if (y < RG__SMS_HEIGHT) {
        uint8_t spr[256];
        if (fb)
            memset(spr, 0, sizeof spr);
        if (v->reg[1] & 0x40u)
            sprites(v, y, spr, fb != NULL);
        if (fb)
            draw_line(v, y, spr, fb + (size_t)y * RG__SMS_WIDTH, gg);
    }
    if (y <= RG__SMS_HEIGHT) {
        if (v->line_counter-- == 0) {
            v->line_counter = v->reg[10];
            v->line_irq = 1;
        }
    } else {
        v->line_counter = v->reg[10];
    }
    if (y == RG__SMS_HEIGHT) /* set as line $C1 starts */
        v->status |= 0x80u;
    v->line = (uint16_t)(y + 1u == RG__SMS_LINES ? 0u : y + 1u);
    if (v->line == 0)
        v->vscroll = v->reg[9];
}
