/* Genesis Plus GX states converted into our Genesis machine state (docs/genesis.md, "State import"). GPGX saves
 * between frames, so the position in the frame is the 68000's overshoot
 * past the frame's start (both cores start a frame at the blank's first line: docs/genesis.md). What is not converted
 * or emulated yet and a state may be in the middle of (the Z80 running, a DMA under way, a half-written 32-bit
 * command, bank switching, interlace) is refused, naming it. */
#include "cores/genesis/genesis_gpgx_state.h"

#include "base/base.h"
#include "cores/gpgx_state/gpgx_state.h"

#include <stdlib.h>
#include <string.h>

#define REFUSE(...) return rg__error(RG_ESTATE, "Genesis Plus GX state for core genesis: " __VA_ARGS__)

static uint16_t le16(const uint8_t *b)
{
    return (uint16_t)(b[0] | b[1] << 8);
}

/* The 64 KiB slots of $000000-$3FFFFF must map the cartridge as at power-on (page = slot modulo a power of two), or
 * SRAM ($FF); anything else is a mapper at work. */
static int check_map(const rg__gpgx_state *g)
{
    unsigned n = 1;
    for (;; n *= 2u) {
        int ok = 1;
        for (unsigned i = 0; i < 64 && ok; i++)
            if (g->map[i] < 0x40u && g->map[i] != i % n)
                ok = 0;
        if (ok)
            break;
        if (n == 64)
            for (unsigned i = 0; i < 64; i++)
                if (g->map[i] < 0x40u && g->map[i] != i)
                    REFUSE("cartridge bank switching is in use ($%06X maps ROM page %u), which our core does not "
                           "emulate", i << 16, g->map[i]);
    }
    for (unsigned i = 0; i < 64; i++)
        if (g->map[i] == 0xFEu)
            REFUSE("the boot ROM (TMSS) is mapped at $%06X, which our core does not emulate", i << 16);
    for (unsigned i = 0; i < 4; i++)
        if (g->cart_regs[i])
            REFUSE("cartridge hardware register %u = $%02X (a mapper or protection chip), which our core does not "
                   "emulate", i, g->cart_regs[i]);
    return RG_OK;
}

static int convert_vdp(const rg__gpgx_state *g, rg__gen_vdp *v)
{
    const rg__gpgx_vdp *x = &g->vdp;
    if (x->dma_length)
        REFUSE("a DMA is under way (%u words left), and our core's DMA takes no time", x->dma_length);
    if (x->cached_write >= 0)
        REFUSE("the second word of a 32-bit VDP command write ($%04X) is pending, which our core does not keep",
               (unsigned)x->cached_write & 0xFFFFu);
    if (x->reg[12] & 0x06u)
        REFUSE("interlace is on (register 12 = $%02X), which our core does not emulate", x->reg[12]);
    if (!(x->reg[1] & 0x04u))
        REFUSE("the VDP is in Master System mode 4 (register 1 = $%02X), which our Genesis core does not emulate",
               x->reg[1]);
    /* VRAM as host-order (little-endian) words: ours is in the 68000's order */
    for (unsigned i = 0; i < 0x10000u; i += 2) {
        v->vram[i] = x->vram[i + 1];
        v->vram[i + 1] = x->vram[i];
    }
    /* CRAM as 9-bit BBBGGGRRR words; ours ----BBB-GGG-RRR- */
    for (unsigned i = 0; i < 64; i++) {
        unsigned c = le16(x->cram + 2 * i);
        if (c > 0x1FFu)
            REFUSE("CRAM entry %u = $%04X has more than 9 bits", i, c);
        v->cram[i] = (uint16_t)((c & 0x1C0u) << 3 | (c & 0x038u) << 2 | (c & 0x007u) << 1);
    }
    for (unsigned i = 0; i < 40; i++) {
        unsigned s = le16(x->vsram + 2 * i);
        if (s > 0x7FFu)
            REFUSE("VSRAM entry %u = $%04X has more than 11 bits", i, s);
        v->vsram[i] = (uint16_t)s;
    }
    memcpy(v->reg, x->reg, sizeof v->reg);
    v->addr = x->addr;
    v->code = x->code;
    v->pending = x->pending;
    v->fill = x->dmafill ? 1u : 0u;
    v->vint = x->vint_pending ? 1u : 0u;
    v->hint = x->hint_pending ? 1u : 0u;
    v->hcounter = x->h_counter;
    v->sprite_ovf = (x->status & 0x40u) ? 1u : 0u;
    v->sprite_col = (x->status & 0x20u) ? 1u : 0u;
    v->odd = 0;
    v->vflag = (x->status & 0x80u) ? 1u : 0u;
    /* saved between frames: the last active line has run, the next frame starts with the blank */
    rg__gen_vdp_view(v);
    v->view_changed = 0;
    v->vint_skip = 0;
    v->hv_latched = (uint8_t)((v->reg[0] >> 1) & (v->reg[1] >> 2) & 1u);
    v->hv_latch = 0;
    v->fifo_cnt = 0;
    v->fifo_byte = (uint8_t)((v->code & 0x0Fu) <= 2u);
    v->fifo_slots = v->fifo_next = 0;
    v->line = (uint16_t)((v->view_h + RG__GEN_LINES - 1u) % RG__GEN_LINES);
    v->pad_ = 0;
    return RG_OK;
}

int rg__gen_gpgx_read(const rg__gen_machine *m, const rg__gen_state *base, const void *src, size_t len,
                      rg__gen_state *out)
{
    rg__gpgx_state g;
    int rc = rg__gpgx_parse(src, len, 1, &g);
    if (rc != RG_OK)
        return rc;
    const uint8_t *p = src;
    for (size_t i = g.size; i < len && i < g.size + 0x10000u; i++)
        if (p[i])
            REFUSE("byte %zu after the state's blocks is not zero (not a Mega Drive state of stable-retro's Genesis "
                   "Plus GX)", i);
    if ((rc = check_map(&g)) != RG_OK)
        return rc;
    /* the Z80's registers, the YM2612 and the PSG are not converted yet: the Z80 must be held (in reset or off the
     * bus); it starts from its power-on registers when the game releases it */
    if ((g.zstate & 3u) == 1u)
        REFUSE("the Z80 is running (out of reset, bus not requested), and its registers are not converted yet");
    if (g.m68k.stopped & 2u)
        REFUSE("the 68000 is halted");
    if (g.m68k.cycles >= RG__GEN_LINE_MCLK)
        REFUSE("the 68000 stands %u master clocks into the frame (within the first line expected)", g.m68k.cycles);

    *out = *base;
    rg__gen_state *s = out;
    /* the frame count of the base (0 after power-on): the clocks of every part of the machine count from it */
    uint32_t frame = base->frame;
    memcpy(s->ram, g.work_ram, sizeof s->ram); /* both 16-bit host-order words */
    memcpy(s->zram, g.zram, sizeof s->zram);
    for (unsigned i = 0; i < 3; i++) {
        s->io_data[i] = g.io_reg[1 + i];
        s->io_ctrl[i] = g.io_reg[4 + i];
    }
    s->z80_busreq = (g.zstate & 2u) ? 1u : 0u;
    s->z80_reset = (g.zstate & 1u) ? 0u : 1u;
    if ((rc = convert_vdp(&g, &s->vdp)) != RG_OK)
        return rc;

    rg_m68k *c = &s->cpu;
    memcpy(c->d, g.m68k.d, sizeof c->d);
    memcpy(c->a, g.m68k.a, sizeof c->a);
    c->sr = g.m68k.sr;
    c->other_sp = (g.m68k.sr & 0x2000u) ? g.m68k.usp : g.m68k.isp;
    uint64_t t = (uint64_t)frame * RG__GEN_FRAME_MCLK + g.m68k.cycles;
    c->cycles = t / 7u;
    s->cpu_moff = (uint8_t)(t % 7u);
    c->stopped = (uint8_t)(g.m68k.stopped & 1u);
    c->halted = 0;
    c->nmi_seen = 0;
    c->reset_out = 0;
    c->trace_pending = 0;
    c->pad[0] = c->pad[1] = 0;
    c->ipl = (uint8_t)rg__gen_vdp_ipl(&s->vdp);
    /* our 68000 keeps its prefetch: the next instruction's first two words, read through the bus of the converted
     * machine, and pc past them */
    rg__gen_machine *tmp = malloc(sizeof *tmp);
    if (!tmp)
        return rg__error(RG_ENOMEM, "out of memory converting a Genesis Plus GX state");
    *tmp = *m;
    tmp->st = *s;
    c->ir = rg__gen_read16(tmp, g.m68k.pc);
    c->irc = rg__gen_read16(tmp, g.m68k.pc + 2u);
    free(tmp);
    c->pc = (g.m68k.pc + 4u) & 0xFFFFFFu;
    return RG_OK;
}

int rg__gen_gpgx_load(rg__gen_machine *m, const void *src, size_t len)
{
    rg__gen_machine *fresh = malloc(sizeof *fresh);
    rg__gen_state *st = malloc(sizeof *st);
    if (!fresh || !st) {
        free(fresh);
        free(st);
        return rg__error(RG_ENOMEM, "out of memory loading a Genesis Plus GX state");
    }
    *fresh = *m;
    fresh->fb = NULL;
    rg__gen_power_on(fresh);
    int rc = rg__gen_gpgx_read(m, &fresh->st, src, len, st);
    if (rc == RG_OK)
        rc = rg__gen_state_check(st);
    if (rc == RG_OK) {
        m->st = *st;
        rg__gen_frame_size(m);
    }
    free(fresh);
    free(st);
    return rc;
}
