/* Genesis Plus GX states converted into our SMS/GG machine state (docs/sms.md, "State import"). GPGX saves between
 * frames, and its frame is ours (from the start of line 192 to the end of line 191), so the position in the frame
 * is the Z80's overshoot past the frame's start; what GPGX does not save (the sprite list of the next line, the H
 * counter latch, the pause edge) is what it has itself after loading: nothing listed, no latch, no press. */
#include "cores/sms/sms_gpgx_state.h"

#include "base/base.h"
#include "cores/gpgx_state/gpgx_state.h"

#include <stdlib.h>
#include <string.h>

#define MCLK_PER_T 15u
/* the PSG's counters run at master / 240 (16 T-states a tick) */
#define PSG_MCLK 240u

#define REFUSE(...) return rg__error(RG_ESTATE, "Genesis Plus GX state for core sms: " __VA_ARGS__)

static int convert_vdp(const rg__sms_machine *m, const rg__gpgx_state *g, rg__sms_vdp *v)
{
    const rg__gpgx_vdp *x = &g->vdp;
    /* mode 4 only: the TMS9918 modes and the 224/240-line modes are not emulated */
    if (!(x->reg[0] & 0x04u) && (x->reg[1] & 0x40u))
        REFUSE("the VDP is in a TMS9918 mode (register 0 = $%02X), which our core does not emulate", x->reg[0]);
    if ((x->reg[0] & 0x04u) && (x->reg[0] & 0x02u) && (x->reg[1] & 0x18u))
        REFUSE("the VDP is in its 224/240-line mode (registers 0/1 = $%02X/$%02X), which our core does not emulate",
               x->reg[0], x->reg[1]);
    for (size_t i = 0x4000; i < 0x10000; i++)
        if (x->vram[i])
            REFUSE("VRAM beyond 16 KiB is in use (byte $%04zX), which a Master System VDP does not have", i);
    if (x->code > 3u)
        REFUSE("VDP code register %u (0-3 on the Master System VDP)", x->code);
    memcpy(v->vram, x->vram, sizeof v->vram);
    memset(v->cram, 0, sizeof v->cram);
    for (unsigned i = 0; i < 32; i++) {
        /* GPGX keeps the bytes as written (SMS: one byte, GG: two); the colour is their low 6 / 12 bits */
        unsigned c = (unsigned)(x->cram[2 * i] | x->cram[2 * i + 1] << 8);
        if (!m->gg && c > 0xFFu)
            REFUSE("CRAM entry %u = $%04X is more than the byte written", i, c);
        c &= m->gg ? 0x0FFFu : 0x3Fu;
        if (m->gg) {
            v->cram[2 * i] = (uint8_t)c;
            v->cram[2 * i + 1] = (uint8_t)(c >> 8);
        } else {
            v->cram[i] = (uint8_t)c;
        }
    }
    memcpy(v->reg, x->reg, sizeof v->reg);
    v->addr = (uint16_t)(x->addr & 0x3FFFu);
    v->code = x->code;
    v->latch = x->pending;
    v->latch_byte = (uint8_t)x->addr_latch;
    v->buffer = (uint8_t)x->fifo[0];
    v->status = (uint8_t)(x->status & 0xE0u);
    v->line_irq = x->hint_pending ? 1u : 0u;
    v->line_counter = x->h_counter;
    v->vscroll = x->reg[9];
    v->cram_latch = m->gg ? (uint8_t)x->cached_write : 0;
    v->irq = g->z80.irq_state ? 1u : 0u;
    v->spr_ovr = 0;
    v->spr_count = 0;
    memset(v->spr, 0, sizeof v->spr);
    v->spr_col = 0;
    v->hc_latch = 0;
    v->line = RG__SMS_HEIGHT - 1u;
    v->pad2_ = 0;
    return RG_OK;
}

static void convert_psg(const rg__gpgx_state *g, uint64_t now, rg__sms_psg *p)
{
    const rg__gpgx_psg *x = &g->psg;
    for (unsigned i = 0; i < 3; i++)
        p->tone[i] = (uint16_t)x->regs[2 * i];
    p->noise = (uint16_t)x->regs[6];
    for (unsigned i = 0; i < 4; i++) {
        p->vol[i] = (uint8_t)x->regs[2 * i + 1];
        uint32_t ticks = ((uint32_t)x->freq_counter[i] + PSG_MCLK - 1u) / PSG_MCLK;
        p->counter[i] = (uint16_t)(ticks > 0xFFFFu ? 0xFFFFu : ticks);
        p->out[i] = x->polarity[i] > 0 ? 1u : 0u;
    }
    p->lfsr = x->noise_shift ? (uint16_t)x->noise_shift : 0x8000u;
    p->latch = (uint8_t)x->latch;
    p->tick_rem = 0;
    p->sample_acc = 0;
    p->t = now;
}

int rg__sms_gpgx_read(const rg__sms_machine *m, const rg__sms_state *base, const void *src, size_t len,
                      rg__sms_state *out)
{
    rg__gpgx_state g;
    int rc = rg__gpgx_parse(src, len, 0, &g);
    if (rc != RG_OK)
        return rc;
    /* the blocks are followed by zeros: anything else is another layout (or a Mega Drive state) */
    const uint8_t *p = src;
    for (size_t i = g.size; i < len && i < g.size + 0x10000u; i++)
        if (p[i])
            REFUSE("byte %zu after the state's blocks is not zero (not a Master System / Game Gear state of "
                   "stable-retro's Genesis Plus GX)", i);
    if (g.io_reg[0x0E] & 0x40u)
        REFUSE("the cartridge is switched off (port $3E = $%02X: the BIOS runs), and our core has no BIOS",
               g.io_reg[0x0E]);
    if (g.z80.cycles % MCLK_PER_T != 0 || g.z80.cycles >= RG__SMS_LINE_T * MCLK_PER_T)
        REFUSE("the Z80 stands %u master clocks into the frame (a whole number of T-states within the first line "
               "expected)", g.z80.cycles);
    if (g.z80.nmi_pending)
        REFUSE("an NMI is pending, which a state taken between frames does not have");

    *out = *base;
    rg__sms_state *s = out;
    uint32_t frame = base->frame ? base->frame : 1u;
    s->frame = frame;
    s->cycles = (uint64_t)frame * RG__SMS_FRAME_T + g.z80.cycles / MCLK_PER_T;

    /* the Z80 */
    rg_z80 *c = &s->cpu;
    memset(c, 0, sizeof *c);
    c->a = (uint8_t)(g.z80.af >> 8), c->f = (uint8_t)g.z80.af;
    c->b = (uint8_t)(g.z80.bc >> 8), c->c = (uint8_t)g.z80.bc;
    c->d = (uint8_t)(g.z80.de >> 8), c->e = (uint8_t)g.z80.de;
    c->h = (uint8_t)(g.z80.hl >> 8), c->l = (uint8_t)g.z80.hl;
    c->ix = g.z80.ix, c->iy = g.z80.iy, c->sp = g.z80.sp, c->wz = g.z80.wz;
    /* GPGX keeps a halted Z80's PC on the HALT (and steps past it when an interrupt comes); ours keeps it past */
    c->pc = (uint16_t)(g.z80.pc + (g.z80.halt ? 1u : 0u));
    c->af_ = g.z80.af2, c->bc_ = g.z80.bc2, c->de_ = g.z80.de2, c->hl_ = g.z80.hl2;
    c->i = g.z80.i;
    c->r = (uint8_t)((g.z80.r & 0x7Fu) | (g.z80.r2 & 0x80u));
    c->iff1 = g.z80.iff1, c->iff2 = g.z80.iff2, c->im = g.z80.im;
    c->ei = g.z80.after_ei;
    c->halted = g.z80.halt;
    c->int_line = g.z80.irq_state ? 1u : 0u;
    c->int_data = 0xFF;
    /* p and q (LD A,I/R's parity quirk, SCF/CCF's flags) are not saved by GPGX: 0, as after any other
     * instruction that leaves the flags alone */

    /* memory: the 8 KiB of RAM (the rest of the 64 KiB block stays as the base has it), the mapper */
    memcpy(s->ram, g.work_ram, 0x2000);
    s->mem_ctl = g.io_reg[0x0E];
    s->io_ctl = g.io_reg[0x0F];
    s->pause_prev = 0;
    if (m->gg)
        for (unsigned i = 1; i < 7; i++)
            s->gg_reg[i] = g.io_reg[i];
    s->psg.stereo = m->gg ? g.io_reg[6] : base->psg.stereo;
    switch (m->mapper) {
    case RG__SMS_MAPPER_SEGA:
        if (g.fcr[0] & 0x03u)
            REFUSE("the Sega mapper's bank shift ($FFFC bits 0-1 = %u) is in use, which our core does not emulate",
                   g.fcr[0] & 3u);
        s->mapper_ctl = g.fcr[0];
        for (unsigned i = 0; i < 3; i++)
            s->bank[i] = g.fcr[i + 1];
        s->cart_ram_used = (uint8_t)(base->cart_ram_used | ((g.fcr[0] & 0x08u) ? 1u : 0u));
        break;
    case RG__SMS_MAPPER_CODEMASTERS:
        if (g.fcr[0])
            REFUSE("mapper register 0 = $%02X, which the Codemasters mapper does not have", g.fcr[0]);
        s->mapper_ctl = 0;
        for (unsigned i = 0; i < 3; i++)
            s->bank[i] = g.fcr[i + 1];
        break;
    default: /* no mapper: GPGX's registers are unused */
        s->mapper_ctl = 0;
        s->bank[0] = 0, s->bank[1] = 1, s->bank[2] = 2;
        break;
    }

    rc = convert_vdp(m, &g, &s->vdp);
    if (rc != RG_OK)
        return rc;
    convert_psg(&g, s->cycles, &s->psg);
    return RG_OK;
}

int rg__sms_gpgx_load(rg__sms_machine *m, const void *src, size_t len)
{
    rg__sms_machine *fresh = malloc(sizeof *fresh);
    rg__sms_state *st = malloc(sizeof *st);
    if (!fresh || !st) {
        free(fresh);
        free(st);
        return rg__error(RG_ENOMEM, "out of memory loading a Genesis Plus GX state");
    }
    /* what GPGX does not save: this cartridge's power-on values, with the cartridge RAM as it is now */
    *fresh = *m;
    fresh->abuf = NULL;
    fresh->acap = fresh->alen = 0;
    rg__sms_power_on(fresh);
    memcpy(fresh->st.cart_ram, m->st.cart_ram, sizeof fresh->st.cart_ram);
    fresh->st.cart_ram_used = m->st.cart_ram_used;
    int rc = rg__sms_gpgx_read(m, &fresh->st, src, len, st);
    if (rc == RG_OK)
        rc = rg__sms_state_check(st, m);
    if (rc == RG_OK)
        m->st = *st;
    free(fresh);
    free(st);
    return rc;
}
