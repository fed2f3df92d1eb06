/* The PPU's clock and registers: power/reset, the catch-up loop (lines of 341 dots, vblank and its NMI, the odd-frame
 * skip), the CPU-facing registers $2000-$2007 with the I/O latch and its decay, and the scheduling point the machine
 * runs the PPU at (m->ppu_sync_at). Rendering is in ppu_render.c. */
#include "cores/nes/ppu_bus.h"

#include <string.h>

void rg__nes_ppu_power(rg__nes_ppu *p)
{
    memset(p, 0, sizeof *p);
    memset(p->sec_oam, 0xFF, sizeof p->sec_oam);
}

/* The reset line clears PPUCTRL, PPUMASK, the write toggle, the scroll and the read buffer; the rest keeps. */
void rg__nes_ppu_reset(rg__nes_ppu *p)
{
    p->ctrl = 0;
    p->nmi_out = 0; /* PPUCTRL bit 7 is clear now */
    p->mask = 0;
    p->w = 0;
    p->x = 0;
    p->t = 0;
    p->read_buf = 0;
}

const char *rg__nes_ppu_check(const rg__nes_ppu *p)
{
    if (p->line >= RG__NES_PPU_LINES)
        return "PPU line out of range";
    if (p->dot >= RG__NES_PPU_DOTS)
        return "PPU dot out of range";
    if (p->v > 0x7FFF || p->t > 0x7FFF)
        return "PPU address register above 15 bits";
    if (p->x > 7 || p->w > 1)
        return "PPU fine X or write toggle out of range";
    if (p->odd > 1 || p->vbl_suppress > 1 || p->nmi_out > 1 || p->skip > 1 || p->spr0_next > 1 || p->spr0_line > 1 || p->ovf_pending > 1 ||
        p->spr_line_used > 1)
        return "PPU flag above 1";
    if (p->at_latch > 3)
        return "PPU attribute latch above 3";
    if (p->sec_count > 8)
        return "PPU secondary OAM count above 8";
    if (p->ovf_dot >= RG__NES_PPU_DOTS)
        return "PPU overflow dot out of range";
    for (int i = 0; i < 32; i++)
        if (p->palette[i] > 0x3F)
            return "PPU palette entry above 63";
    for (int i = 0; i < 256; i++)
        if (p->spr_line[i] > 0x3F || (p->spr_line[i] && !p->spr_line_used))
            return "PPU sprite line entry out of range";
    for (int i = 0; i < 8; i++)
        if (p->latch_frame[i] > p->frames)
            return "PPU latch refresh in the future";
    if (p->status & 0x1F)
        return "PPU status has low bits";
    return NULL;
}

const char *rg__nes_ppu_check_at(const rg__nes_ppu *p, uint64_t cycles)
{
    if (p->cycle > cycles || cycles - p->cycle > RG__NES_PPU_LAG_MAX)
        return "PPU clock ahead of the CPU or far behind it";
    return rg__nes_ppu_check(p);
}

/* --- the I/O latch */

static uint8_t latch_value(rg__nes_ppu *p)
{
    for (int i = 0; i < 8; i++)
        if ((p->io_latch >> i & 1) && p->frames - p->latch_frame[i] >= RG__NES_PPU_DECAY_FRAMES)
            p->io_latch = (uint8_t)(p->io_latch & ~(1u << i));
    return p->io_latch;
}

/* The bits of `bits` driven by the PPU with `value`. */
static void latch_refresh(rg__nes_ppu *p, uint8_t value, uint8_t bits)
{
    p->io_latch = (uint8_t)((p->io_latch & ~bits) | (value & bits));
    for (int i = 0; i < 8; i++)
        if (bits >> i & 1)
            p->latch_frame[i] = p->frames;
}

/* --- the clock */

static void next_line(rg__nes_ppu *p)
{
    p->dot = 0;
    p->skip = 0;
    if (++p->line == RG__NES_PPU_LINES) {
        p->line = 0;
        p->odd ^= 1;
        p->frames++;
    }
}

/* Dots [from, to) of the current line. The vblank flag is set at dot 1 of line 241, the NMI output follows it two
 * dots later (the CPU sees the edge 2 dots after a $2002 read would see the flag: ppu_vbl_nmi 05-nmi_timing), so a
 * read or a $2000 write in those dots keeps the NMI from coming. */
static void segment(rg__nes_machine *m, unsigned line, unsigned from, unsigned to)
{
    rg__nes_ppu *p = &m->st.ppu;
    if (line < 240 || line == RG__NES_PPU_PRE_LINE) {
        if (line == RG__NES_PPU_PRE_LINE) {
            if (from <= 1 && to > 1) {
                p->status &= 0x1F; /* vblank, sprite 0 hit and overflow end at dot 1 */
                p->vbl_suppress = 0;
                p->nmi_out = 0;
            }
            if (from <= RG__NES_PPU_SKIP_DOT && to > RG__NES_PPU_SKIP_DOT)
                p->skip = p->odd && rg__ppu_rendering(p);
        }
        if (rg__ppu_rendering(p))
            rg__nes_ppu_render(m, line, from, to);
        else if (line < 240 && m->video)
            rg__nes_ppu_blank(m, line, from, to);
    } else if (line == RG__NES_PPU_VBL_LINE) {
        if (from <= 1 && to > 1) {
            if (!p->vbl_suppress)
                p->status |= 0x80;
            p->vbl_suppress = 0;
            m->frame_done = 1;
            if (m->ppu_phase)
                rg__nes_cart_phase(m, RG__NES_PHASE_END);
        }
        if (from <= 3 && to > 3) {
            uint8_t level = (uint8_t)((p->status & p->ctrl) >> 7);
            if (level && !p->nmi_out)
                m->st.cpu.nmi_pending = 1;
            p->nmi_out = level;
        }
    }
}

void rg__nes_ppu_run(rg__nes_machine *m, uint64_t cycle)
{
    rg__nes_ppu *p = &m->st.ppu;
    if (cycle > p->cycle) {
        uint64_t n = (cycle - p->cycle) * 3;
        p->cycle = cycle;
        while (n > 0) {
            unsigned line = p->line, d = p->dot;
            /* odd frames skip the pre-render line's last dot when rendering was on at the skip point */
            unsigned end = line == RG__NES_PPU_PRE_LINE && p->skip ? RG__NES_PPU_DOTS - 1 : RG__NES_PPU_DOTS;
            if (line == RG__NES_PPU_PRE_LINE && d <= RG__NES_PPU_SKIP_DOT)
                end = RG__NES_PPU_SKIP_DOT + 1; /* the skip is decided there */
            if (d >= end) {
                next_line(p);
                continue;
            }
            unsigned take = end - d;
            if (take > n)
                take = (unsigned)n;
            segment(m, line, d, d + take);
            p->dot = (uint16_t)(d + take);
            p->dots += take;
            n -= take;
            if (p->dot == RG__NES_PPU_DOTS || (p->dot == RG__NES_PPU_DOTS - 1 && p->skip))
                next_line(p);
        }
        /* reaching the skipped dot ends the line at once */
        if (p->line == RG__NES_PPU_PRE_LINE && p->dot == RG__NES_PPU_DOTS - 1 && p->skip)
            next_line(p);
    }
    rg__nes_ppu_sync(m);
}

/* Dots from the position to (line, dot) of this frame or, when that is behind, of the next (with the odd skip when
 * the pre-render line is still ahead: an early estimate only makes the machine run the PPU once more). */
static uint64_t dots_to(const rg__nes_ppu *p, unsigned line, unsigned dot)
{
    int64_t here = (int64_t)p->line * RG__NES_PPU_DOTS + p->dot;
    int64_t there = (int64_t)line * RG__NES_PPU_DOTS + dot;
    if (there >= here)
        return (uint64_t)(there - here);
    int64_t k = (int64_t)RG__NES_PPU_LINES * RG__NES_PPU_DOTS - here + there;
    if (p->skip || (p->odd && (p->line < RG__NES_PPU_PRE_LINE || p->dot <= RG__NES_PPU_SKIP_DOT)))
        k--;
    return (uint64_t)(k < 0 ? 0 : k);
}

void rg__nes_ppu_sync(rg__nes_machine *m)
{
    rg__nes_ppu *p = &m->st.ppu;
    uint64_t k = dots_to(p, RG__NES_PPU_VBL_LINE, 1), n = dots_to(p, RG__NES_PPU_VBL_LINE, 3);
    if (n < k)
        k = n;
    if (m->ppu_watch && rg__ppu_rendering(p)) {
        /* the mapper sees the fetches where the pattern table can change as they happen: the sprite fetches and
         * the next line's first tiles (dots 257-340) and the first tile of a line (after vblank) */
        uint64_t w;
        if (p->line >= 240 && p->line < RG__NES_PPU_PRE_LINE)
            w = dots_to(p, RG__NES_PPU_PRE_LINE, 0);
        else if (p->dot < 9 || p->dot >= 257)
            w = 0;
        else
            w = dots_to(p, p->line, 257);
        if (w < k)
            k = w;
    }
    m->ppu_sync_at = p->cycle + k / 3 + 1;
    m->ppu_quiet_ok = 0;
}

/* --- reads of $2002 without running the PPU
 *
 * A $2002 read returns the status bits and the I/O latch, and clears the vblank flag, the NMI output and the write
 * toggle. Between the PPU's position and the CPU's cycle, the PPU changes what such a read returns or does only at
 * these points of the frame: the vblank flag set at line 241 dot 1 (where a read also suppresses it), the frame's
 * end (the latch's decay clock), the flags cleared at dot 1 of the pre-render line, the overflow flag set during a
 * line whose evaluation finds 8 sprites, and the sprite-0 hit, at a dot at or right of sprite 0's X on a line
 * sprite 0 is on. Before the first of them a read at the PPU's position does exactly what it does at the CPU's (the
 * vblank flag it clears, the NMI output and the write toggle are not looked at by the dots in between), so the
 * machine need not run the PPU; every other access that changes the PPU runs it first, which recomputes this. */

/* The first line in [first, last] (last at most 239) whose evaluation sees 8 or more sprites, or -1. */
static int crowded_line(const rg__nes_ppu *p, unsigned first, unsigned last)
{
    unsigned h = (p->ctrl & 0x20) ? 16u : 8u;
    uint8_t n[240];
    if (first > last)
        return -1;
    memset(n + first, 0, last - first + 1);
    for (unsigned i = 0; i < 64; i++) {
        unsigned y = p->oam[4 * i];
        unsigned a = y < first ? first : y, b = y + h - 1 < last ? y + h - 1 : last;
        for (unsigned l = a; l <= b; l++)
            n[l]++;
    }
    for (unsigned l = first; l <= last; l++)
        if (n[l] >= 8)
            return (int)l;
    return -1;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

void rg__nes_ppu_quiet(rg__nes_machine *m)
{
    const rg__nes_ppu *p = &m->st.ppu;
    m->ppu_quiet_ok = 1;
    m->ppu_quiet_at = p->cycle; /* none */
    unsigned line = p->line, dot = p->dot;
    if (m->ppu_watch || (line == RG__NES_PPU_PRE_LINE && dot >= RG__NES_PPU_DOTS - 2))
        return;
    /* the frame's end (an early estimate: the skipped dot may be skipped) and the vblank flag */
    uint64_t k = min64(dots_to(p, RG__NES_PPU_PRE_LINE, RG__NES_PPU_DOTS - 2), dots_to(p, RG__NES_PPU_VBL_LINE, 1));
    if (p->status & 0xE0)
        k = min64(k, dots_to(p, RG__NES_PPU_PRE_LINE, 1));
    if (rg__ppu_rendering(p) && !(p->status & 0x20)) {
        if (p->ovf_pending)
            k = (line < 240 || line == RG__NES_PPU_PRE_LINE) && dot <= p->ovf_dot ? min64(k, dots_to(p, line, p->ovf_dot))
                                                                                  : 0;
        if (line < 240) {
            int l = crowded_line(p, dot <= 65 ? line : line + 1, 239);
            if (l >= 0)
                k = min64(k, dots_to(p, (unsigned)l, 65));
        }
    }
    if ((p->mask & 0x18) == 0x18 && !(p->status & 0x40) && line < 240) {
        unsigned h = (p->ctrl & 0x20) ? 16u : 8u, y = p->oam[0];
        /* this line (pixels are put at dots 1-256, pixel x at dot x + 1) */
        if (dot <= 256 && p->spr0_line && dot <= p->spr0_x + 8u)
            k = min64(k, dot <= p->spr0_x + 1u ? dots_to(p, line, p->spr0_x + 1u) : 0);
        /* the next line: evaluated at dot 65 of this one */
        if (line + 1 < 240) {
            int in = dot > 65 ? p->spr0_next : line - y < h;
            unsigned x = dot > 65 ? p->sec_oam[3] : p->oam[3];
            if (in)
                k = min64(k, dots_to(p, line + 1, x + 1u));
        }
        /* the lines after: sprite 0 is on lines Y + 1 .. Y + h */
        unsigned first = line + 2 > y + 1 ? line + 2 : y + 1;
        if (first < 240 && first <= y + h)
            k = min64(k, dots_to(p, first, p->oam[3] + 1u));
    }
    m->ppu_quiet_at = p->cycle + (k + 2) / 3;
}

/* --- registers */

static void watch(rg__nes_machine *m, unsigned addr)
{
    if (m->ppu_watch && addr < 0x2000)
        rg__nes_cart_ppu_addr(m, (uint16_t)addr, m->st.ppu.dots);
}

static int rendering_now(const rg__nes_ppu *p)
{
    return rg__ppu_rendering(p) && (p->line < 240 || p->line == RG__NES_PPU_PRE_LINE);
}

/* $2007 moves v on: by 1 or 32, or while rendering by both of the rendering increments (a known glitch). Outside
 * rendering the new address stays on the PPU bus (MMC3 sees A12 rise there). */
static void data_step(rg__nes_machine *m, rg__nes_ppu *p)
{
    if (rendering_now(p)) {
        p->v = rg__ppu_inc_y(rg__ppu_inc_x(p->v));
    } else {
        p->v = (uint16_t)((p->v + ((p->ctrl & 0x04) ? 32 : 1)) & 0x7FFF);
        watch(m, p->v & 0x3FFF);
    }
}

static uint8_t vram_read(const rg__nes_machine *m, unsigned a)
{
    a &= 0x3FFF;
    if (a < 0x2000)
        return rg__ppu_chr(m, a);
    return rg__ppu_nt(m, a);
}

uint8_t rg__nes_ppu_read(rg__nes_machine *m, unsigned reg)
{
    rg__nes_ppu *p = &m->st.ppu;
    uint8_t r;
    switch (reg & 7) {
    case 2: {
        /* a read just as the flag is due reads it clear and cancels it for the frame; one in the two dots after
         * reads it set, and its clearing keeps the NMI output low (see segment) */
        if (p->line == RG__NES_PPU_VBL_LINE && p->dot == 1)
            p->vbl_suppress = 1;
        r = (uint8_t)((p->status & 0xE0) | (latch_value(p) & 0x1F));
        p->status &= 0x7F;
        p->nmi_out = 0;
        p->w = 0;
        latch_refresh(p, r, 0xE0);
        break;
    }
    case 4:
        if (p->line < 240 && rg__ppu_rendering(p) && p->dot >= 1 && p->dot <= 64)
            r = 0xFF; /* secondary OAM being cleared */
        else
            r = p->oam[p->oam_addr];
        if ((p->oam_addr & 3) == 2)
            r &= 0xE3; /* attribute bits 2-4 do not exist */
        latch_refresh(p, r, 0xFF);
        break;
    case 7: {
        unsigned a = p->v & 0x3FFF;
        if (a >= 0x3F00) {
            uint8_t c = p->palette[rg__ppu_pal_index(a)];
            if (p->mask & 0x01)
                c &= 0x30;
            r = (uint8_t)((latch_value(p) & 0xC0) | c);
            p->read_buf = vram_read(m, a & 0x2FFF); /* the nametable byte under the palette */
            latch_refresh(p, r, 0x3F);
        } else {
            r = p->read_buf;
            p->read_buf = vram_read(m, a);
            watch(m, a);
            latch_refresh(p, r, 0xFF);
        }
        data_step(m, p);
        break;
    }
    default:
        r = latch_value(p);
        break;
    }
    return r;
}

void rg__nes_ppu_write(rg__nes_machine *m, unsigned reg, uint8_t value)
{
    rg__nes_ppu *p = &m->st.ppu;
    latch_refresh(p, value, 0xFF);
    switch (reg & 7) {
    case 0: {
        p->ctrl = value;
        p->t = (uint16_t)((p->t & ~0x0C00u) | (value & 3u) << 10);
        /* between the flag and the NMI output following it (dots 1-3 of line 241) the output is decided at dot 3;
         * an enable in the dot before the flag clears is too short for the CPU to see (07-nmi_on_timing) */
        if (!(p->line == RG__NES_PPU_VBL_LINE && p->dot <= 3) &&
            !(p->line == RG__NES_PPU_PRE_LINE && p->dot == 1)) {
            uint8_t level = (uint8_t)((p->status & p->ctrl) >> 7);
            if (level && !p->nmi_out)
                m->st.cpu.nmi_pending = 1; /* enabled during vblank: an edge now */
            p->nmi_out = level;
        }
        break;
    }
    case 1:
        p->mask = value;
        break;
    case 2:
        break;
    case 3:
        p->oam_addr = value;
        break;
    case 4:
        if (rendering_now(p))
            p->oam_addr = (uint8_t)(p->oam_addr + 4); /* no write; the address bumps (a known glitch) */
        else
            p->oam[p->oam_addr++] = value;
        break;
    case 5:
        if (!p->w) {
            p->t = (uint16_t)((p->t & ~0x001Fu) | value >> 3);
            p->x = value & 7;
        } else {
            p->t = (uint16_t)((p->t & ~0x73E0u) | (value & 7u) << 12 | (value & 0xF8u) << 2);
        }
        p->w ^= 1;
        break;
    case 6:
        if (!p->w) {
            p->t = (uint16_t)((p->t & 0x00FF) | (value & 0x3Fu) << 8);
        } else {
            p->t = (uint16_t)((p->t & 0x7F00) | value);
            p->v = p->t;
            if (!rendering_now(p))
                watch(m, p->v & 0x3FFF); /* the new address goes out on the PPU bus */
        }
        p->w ^= 1;
        break;
    case 7: {
        unsigned a = p->v & 0x3FFF;
        if (a < 0x2000) {
            if (m->chr_writable >> (a >> 10) & 1)
                m->chr_map[a >> 10][a & 0x3FF] = value;
            watch(m, a);
        } else if (a < 0x3F00) {
            if (!(m->nt_readonly >> ((a >> 10) & 3) & 1))
                m->nt_map[(a >> 10) & 3][a & 0x3FF] = value;
        } else {
            p->palette[rg__ppu_pal_index(a)] = value & 0x3F;
        }
        data_step(m, p);
        break;
    }
    }
    rg__nes_ppu_sync(m);
}
