/* Genesis Plus GX states converted into our Genesis machine state (docs/genesis.md, "State import"). GPGX saves
 * between frames, so the position in the frame is the 68000's overshoot
 * past the frame's start (both cores start a frame at the blank's first line: docs/genesis.md). What is not converted
 * or emulated yet and a state may be in the middle of (a VRAM fill or copy under way, a half-written 32-bit command,
 * special cartridge hardware) is refused, naming it. Interlace converts: GPGX keeps neither its interlace mode nor
 * the field in its states, and starts from interlace off, field 0 after a load, as ours does. */
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

/* The 64 KiB slots of $000000-$3FFFFF (docs/genesis.md "Cartridge" and "State import"): each GPGX slot byte is a
 * ROM page, $FF the backup RAM or $FE the boot ROM. GPGX maps slot i at power-on to page i modulo its ROM size
 * rounded up to a power of two; ours to page i modulo our ROM image's (at least 512 KiB, a smaller ROM repeated).
 * A page that shows what power-on shows in our image (the same page modulo the image's period, a power of two of
 * pages) keeps our power-on page, so the ROM fast path stays; another page (bank switching: the 512 KiB banks, the
 * SSF2 mapper, the multi-game mapper) is copied when our image has it. The backup RAM only where our cartridge maps
 * it (its slot or $20), writable (GPGX restores it so); its contents are the machine's own (GPGX states hold none,
 * and GPGX keeps the current ones on a load). */
static unsigned rom_period_pages(const rg__gen_machine *m)
{
    size_t pages = ((size_t)m->rom_mask >> 16) + 1u, q = 1;
    while (q < pages && memcmp(m->rom, m->rom + (q << 16), (pages - q) << 16) != 0)
        q *= 2u;
    return (unsigned)q;
}

static int convert_cart(const rg__gen_machine *m, const rg__gpgx_state *g, rg__gen_cart *c)
{
    for (unsigned i = 0; i < 4; i++)
        if (g->cart_regs[i])
            REFUSE("cartridge hardware register %u = $%02X (a mapper or protection chip), which our core does not "
                   "emulate", i, g->cart_regs[i]);
    unsigned mask = m->rom_mask >> 16, period = rom_period_pages(m);
    c->sram_slots = 0;
    for (unsigned i = 0; i < 64; i++) {
        unsigned p = g->map[i];
        c->page[i] = (uint8_t)(i & mask);
        if (p == 0xFEu)
            REFUSE("the boot ROM (TMSS) is mapped at $%06X, which our core does not emulate", i << 16);
        if (p == 0xFFu) {
            if (!m->sram_on || (i != m->sram_slot && i != 0x20u))
                REFUSE("the backup RAM is mapped at $%06X, where this cartridge has none in our core", i << 16);
            c->sram_slots |= 1ull << i;
        } else if (p % period != i % period) {
            if (p > mask)
                REFUSE("$%06X maps ROM page %u (bank switching), beyond this %u KiB ROM", i << 16, p,
                       (mask + 1u) * 64u);
            c->page[i] = (uint8_t)p;
        }
    }
    memcpy(c->sram, m->st.cart.sram, sizeof c->sram);
    c->sram_wp = 0;
    memset(c->pad_, 0, sizeof c->pad_);
    rg__gen_eeprom_power_on(&c->eeprom); /* GPGX's state holds no serial EEPROM protocol state: idle */
    return rg__gen_cart_check(m, c);
}

static int convert_vdp(const rg__gpgx_state *g, rg__gen_vdp *v, unsigned lines)
{
    const rg__gpgx_vdp *x = &g->vdp;
    if (x->dma_length && (!(x->code & 0x20u) || (x->reg[23] & 0x80u) || x->dmafill))
        REFUSE("a VRAM fill or copy is under way (%u units left), which our core does not convert yet",
               x->dma_length);
    if (x->cached_write >= 0)
        REFUSE("the second word of a 32-bit VDP command write ($%04X) is pending, which our core does not keep",
               (unsigned)x->cached_write & 0xFFFFu);
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
    /* GPGX stores whole words in VSRAM and uses (and reads back) their 11 bits, as ours keeps them */
    for (unsigned i = 0; i < 40; i++)
        v->vsram[i] = (uint16_t)(le16(x->vsram + 2 * i) & 0x7FFu);
    /* the VDP's own sprite table copy: GPGX's 1 KiB as host-order (little-endian) words, ours in the 68000's order */
    for (unsigned i = 0; i < sizeof v->sat; i++)
        v->sat[i] = x->sat[i ^ 1u];
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
    /* the FIFO's last four words and the oldest's place (the parser checked it is 0-3): the bits a CRAM or VSRAM read
     * does not drive come from there */
    memcpy(v->fifo, x->fifo, sizeof v->fifo);
    v->fifo_idx = (uint8_t)x->fifo_idx;
    v->line = (uint16_t)((v->view_h + lines - 1u) % lines);
    v->pad_ = 0;
    return RG_OK;
}

static int32_t le32s(const uint8_t *b)
{
    return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
}

/* GPGX's YM2612 context (its chip struct as the x86-64 build lays it out, then a detune index per operator): the
 * timer fields of its general state (docs/genesis.md, "State import") */
#define YM_ST 2408u /* after the six channels (400 bytes each), the DAC flag and output */
#define YM_SAMPLE_MCLK 1008u

/* The YM2612's timers, flags and address latch. */
static int convert_ym(const rg__gpgx_state *g, rg__gen_state *s)
{
    const uint8_t *st = g->fm + YM_ST;
    unsigned addr = le16(st), status = st[2], mode = (unsigned)le32s(st + 4);
    int32_t ta = le32s(st + 12), tal = le32s(st + 16), tac = le32s(st + 20);
    int32_t tb = le32s(st + 24), tbl = le32s(st + 28), tbc = le32s(st + 32);
    if (addr > 0x1FFu || status > 3u || mode > 0xFFu)
        REFUSE("the YM2612's address latch $%X, status $%X or mode $%X is out of range", addr, status, mode);
    if (ta < 0 || ta > 0x3FF || tal != 1024 - ta || tb < 0 || tb > 0xFF || tbl != (256 - tb) * 16)
        REFUSE("the YM2612's timer values (A %d/%d, B %d/%d) do not agree", (int)ta, (int)tal, (int)tb, (int)tbl);
    if (tac < 0 || tac > 1024 || tbc < 0 || tbc > 256 * 16)
        REFUSE("the YM2612's timer counters (A %d, B %d) are out of range", (int)tac, (int)tbc);
    s->ym_ta = (uint16_t)ta;
    s->ym_tb = (uint8_t)tb;
    s->ym_tac = tac;
    s->ym_tbc = tbc;
    s->ym_mode = (uint8_t)(mode & 0xCFu);
    s->ym_status = (uint8_t)status;
    /* one address latch in GPGX (bit 8: part II); ours has one per part */
    s->ym_addr[0] = s->ym_addr[1] = (uint8_t)addr;
    return RG_OK;
}

/* The YM2612's FM side (audio only: nothing the machine's RAM or picture depends on), from GPGX's decoded fields
 * back to the registers, then its operators' phase and envelope. The chip struct: six channels of 400 bytes, each
 * four operators of 80 (in register order: +0, +4, +8, +12) and the channel's own fields from 320; the DAC flag at
 * 2400 and output at 2404; after the general state (YM_ST) the channel 3 frequencies at 3468, the pan masks at 3500,
 * the envelope and LFO counters at 3548; after the struct (3576) a 16-bit detune index per operator. */
static void convert_fm(const rg__gpgx_state *g, rg__gen_state *s)
{
    const uint8_t *y = g->fm;
    rg__gen_fm *f = &s->fm;
    rg__gen_fm_reset(f);
    static const uint8_t k_ams[9] = {3, 2, 2, 1, 1, 1, 1, 1, 0}; /* GPGX's AM shift 0, 1, 3, 8 back to AMS 3-0 */
    static const uint8_t k_op[4] = {0, 2, 1, 3};                 /* register order to operators 1-4 */
    for (unsigned ch = 0; ch < 6; ch++) {
        const uint8_t *c = y + 400u * ch;
        unsigned part = ch / 3u, r = ch % 3u;
        for (unsigned i = 0; i < 4; i++) {
            const uint8_t *sl = c + 80u * i;
            unsigned a = r + 4u * i;
            unsigned dt = le16(y + 3576u + 2u * (4u * ch + i)) & 7u;
            unsigned mul = (unsigned)le32s(sl + 32), ar = (unsigned)le32s(sl + 12), d1r = (unsigned)le32s(sl + 16);
            unsigned d2r = (unsigned)le32s(sl + 20), rr = (unsigned)le32s(sl + 24), tl = (unsigned)le32s(sl + 48);
            unsigned slv = (unsigned)le32s(sl + 56), ksr = sl[8] & 3u;
            rg__gen_fm_write(f, part, (uint8_t)(0x30u + a), (uint8_t)(dt << 4 | (mul >= 2u ? (mul / 2u) & 15u : 0u)));
            rg__gen_fm_write(f, part, (uint8_t)(0x40u + a), (uint8_t)((tl >> 3) & 0x7Fu));
            rg__gen_fm_write(f, part, (uint8_t)(0x50u + a),
                             (uint8_t)((3u - ksr) << 6 | (ar >= 32u ? ((ar - 32u) / 2u) & 31u : 0u)));
            rg__gen_fm_write(f, part, (uint8_t)(0x60u + a), (uint8_t)((le32s(sl + 76) ? 0x80u : 0u) |
                                                                        (d1r >= 32u ? ((d1r - 32u) / 2u) & 31u : 0u)));
            rg__gen_fm_write(f, part, (uint8_t)(0x70u + a), (uint8_t)(d2r >= 32u ? ((d2r - 32u) / 2u) & 31u : 0u));
            rg__gen_fm_write(f, part, (uint8_t)(0x80u + a), (uint8_t)((slv >= 992u ? 15u : (slv / 32u) & 15u) << 4 |
                                                                        (rr >= 34u ? ((rr - 34u) / 4u) & 15u : 0u)));
            rg__gen_fm_write(f, part, (uint8_t)(0x90u + a), (uint8_t)(sl[72] & 15u));
            /* the operator: phase (GPGX's sine index in bits 25-16, ours 19-10), attenuation, envelope phase */
            rg__gen_fm_op *op = &f->op[ch][k_op[i]];
            int32_t vol = le32s(sl + 52);
            op->phase = ((uint32_t)le32s(sl + 36) >> 6) & 0xFFFFFu;
            op->att = (uint16_t)(vol < 0 ? 0 : vol > 0x3FF ? 0x3FF : vol);
            switch (sl[44]) {
            case 4: op->eg = RG__FM_ATTACK; break;
            case 3: op->eg = RG__FM_DECAY; break;
            case 2: op->eg = RG__FM_SUSTAIN; break;
            case 1: op->eg = RG__FM_RELEASE; break;
            default: op->eg = RG__FM_RELEASE, op->att = 0x3FF; break; /* off */
            }
            op->key = sl[74] ? 1u : 0u;
            op->ssg_inv = sl[73] ? 1u : 0u;
        }
        /* F-number and block (the latch written first), algorithm and feedback (GPGX keeps 10 - feedback; 0 before
         * any write), pan, AMS, PMS */
        unsigned bf = (unsigned)le32s(c + 396);
        rg__gen_fm_write(f, part, (uint8_t)(0xA4u + r), (uint8_t)((bf >> 8) & 0x3Fu));
        rg__gen_fm_write(f, part, (uint8_t)(0xA0u + r), (uint8_t)bf);
        unsigned fb = c[321] >= 3u && c[321] <= 10u ? 10u - c[321] : 0u;
        rg__gen_fm_write(f, part, (uint8_t)(0xB0u + r), (uint8_t)(fb << 3 | (c[320] & 7u)));
        unsigned pms = (unsigned)le32s(c + 380) / 32u, ams = c[384] <= 8u ? k_ams[c[384]] : 0u;
        unsigned lr = (le32s(y + 3500u + 8u * ch) ? 0x80u : 0u) | (le32s(y + 3504u + 8u * ch) ? 0x40u : 0u);
        rg__gen_fm_write(f, part, (uint8_t)(0xB4u + r), (uint8_t)(lr | ams << 4 | (pms & 7u)));
        for (unsigned k = 0; k < 2; k++) {
            int32_t o = le32s(c + 324u + 4u * k);
            f->fb[ch][k] = (int16_t)(o < -8192 ? -8192 : o > 8191 ? 8191 : o);
        }
    }
    /* channel 3's own frequencies ($AC-$AE then $A8-$AA) and the latches as GPGX holds them */
    for (unsigned i = 0; i < 3; i++) {
        unsigned bf = (unsigned)le32s(y + 3484u + 4u * i);
        rg__gen_fm_write(f, 0, (uint8_t)(0xACu + i), (uint8_t)((bf >> 8) & 0x3Fu));
        rg__gen_fm_write(f, 0, (uint8_t)(0xA8u + i), (uint8_t)bf);
    }
    f->fn_latch = y[YM_ST + 8];
    f->fn_latch3 = y[3480];
    /* LFO ($22: the samples per step GPGX keeps back to the rate), timers, mode, DAC */
    static const uint8_t k_lfo[8] = {108, 77, 71, 67, 62, 44, 8, 5};
    unsigned lfo = (unsigned)le32s(y + 3564), lv = 0;
    for (unsigned i = 0; i < 8; i++)
        if (lfo && k_lfo[i] == lfo)
            lv = 8u | i;
    rg__gen_fm_write(f, 0, 0x22, (uint8_t)lv);
    rg__gen_fm_write(f, 0, 0x24, (uint8_t)(s->ym_ta >> 2));
    rg__gen_fm_write(f, 0, 0x25, (uint8_t)(s->ym_ta & 3u));
    rg__gen_fm_write(f, 0, 0x26, s->ym_tb);
    rg__gen_fm_write(f, 0, 0x27, s->ym_mode);
    rg__gen_fm_write(f, 0, 0x2A, (uint8_t)((le32s(y + 2404) >> 6) + 0x80));
    rg__gen_fm_write(f, 0, 0x2B, (uint8_t)(y[2400] & 0x80u));
    f->lfo_step = (uint8_t)(lv ? y[3556] & 127u : 0u);
    uint32_t lt = (uint32_t)le32s(y + 3560);
    f->lfo_cnt = (uint8_t)(lv && lt < lfo ? lt : 0u);
    uint32_t egt = (uint32_t)le32s(y + 3552);
    f->eg_div = (uint8_t)(egt < 3u ? egt : 0u);
    f->eg_cnt = (uint16_t)((uint32_t)le32s(y + 3548) & 0xFFFu);
    f->t = s->ym_samples;
}

/* The PSG's registers (the parser gives them as the chip's: periods, attenuations, noise control) and generators
 * (GPGX's counters in master clocks, ours in PSG clocks of 240). */
static void convert_psg(const rg__gpgx_state *g, rg__gen_state *s)
{
    for (unsigned i = 0; i < 8; i++)
        s->psg_reg[i] = (uint16_t)g->psg.regs[i];
    s->psg_latch = (uint8_t)g->psg.latch;
    rg__gen_fm *f = &s->fm;
    for (unsigned i = 0; i < 4; i++) {
        uint32_t t = ((uint32_t)g->psg.freq_counter[i] + 239u) / 240u;
        f->psg_cnt[i] = (uint16_t)(t > 0x400u ? 0x400u : t);
        f->psg_out[i] = g->psg.polarity[i] > 0 ? 1u : 0u;
    }
    f->psg_lfsr = g->psg.noise_shift ? (uint16_t)g->psg.noise_shift : 0x8000u;
    f->psg_rem = 0;
}

/* The Z80's registers (the state's Z80 is running: out of reset, bus not requested) and its clock, mclk the master
 * clock of the frame's start. GPGX keeps HALT's pc on the HALT, ours past it. */
static int convert_z80(const rg__gpgx_state *g, uint64_t mclk, rg__gen_state *s)
{
    const rg__gpgx_z80 *z = &g->z80;
    if (z->nmi_pending || z->nmi_state)
        REFUSE("the Z80's NMI line is active, which the Mega Drive does not wire");
    if (z->cycles >= RG__GEN_LINE_MCLK)
        REFUSE("the Z80 stands %u master clocks into the frame (within the first line expected)", z->cycles);
    rg_z80 *c = &s->z80;
    memset(c, 0, sizeof *c);
    c->a = (uint8_t)(z->af >> 8), c->f = (uint8_t)z->af;
    c->b = (uint8_t)(z->bc >> 8), c->c = (uint8_t)z->bc;
    c->d = (uint8_t)(z->de >> 8), c->e = (uint8_t)z->de;
    c->h = (uint8_t)(z->hl >> 8), c->l = (uint8_t)z->hl;
    c->ix = z->ix, c->iy = z->iy, c->sp = z->sp, c->wz = z->wz;
    c->pc = (uint16_t)(z->pc + (z->halt ? 1u : 0u));
    c->af_ = z->af2, c->bc_ = z->bc2, c->de_ = z->de2, c->hl_ = z->hl2;
    c->i = z->i;
    c->r = (uint8_t)((z->r & 0x7Fu) | (z->r2 & 0x80u));
    c->iff1 = z->iff1, c->iff2 = z->iff2, c->im = z->im;
    c->ei = z->after_ei;
    c->halted = z->halt;
    c->int_data = 0xFF;
    s->z80_int = c->int_line = z->irq_state ? 1u : 0u;
    /* Genesis Plus GX 1.7.4 keeps the Z80's clock off the 15-clock grid ours keeps from power-on: the nearest T-state
     * boundary (at most 7 master clocks off; from power-on ours runs 4 behind GPGX's on the Z80 test program) */
    s->z80_cycles = (mclk + z->cycles + 7u) / 15u;
    return RG_OK;
}

/* A 68000-to-VDP transfer under way (GPGX's dma_length words left, its source word address dma_src in the 128 KiB
 * block of register 23; registers 19-22 as the transfer started): our core moves a transfer's words at once, so the
 * rest moves now, through the converted machine's bus (tmp), to the address register by register 15's step, and
 * the 68000 (frozen at the frame's start in GPGX's state) resumes when the rest would have moved: in the blank, at
 * 166 / 204 units a line (H32 / H40; VRAM takes half as many words). Returns the master clocks into the frame the
 * transfer ends at, or 0 when none. */
static int convert_dma(const rg__gpgx_state *g, rg__gen_machine *tmp, rg__gen_state *s, uint64_t *end)
{
    const rg__gpgx_vdp *x = &g->vdp;
    rg__gen_vdp *v = &s->vdp;
    *end = 0;
    if (!x->dma_length)
        return RG_OK;
    if (x->dma_length > 0x10000u)
        REFUSE("a DMA under way has %u words left (at most 65,536)", x->dma_length);
    unsigned half = (v->code & 6u) ? 0u : 1u, rate = ((v->reg[12] & 1u) ? 204u : 166u) >> half;
    uint64_t dc = (uint64_t)x->dma_length * RG__GEN_LINE_MCLK / rate;
    if (dc > (uint64_t)(rg__gen_lines(s) - 1u - v->view_h) * RG__GEN_LINE_MCLK)
        REFUSE("a DMA under way (%u words left) runs past the vertical blank, which our core does not convert yet",
               x->dma_length);
    uint32_t hi = (uint32_t)(v->reg[23] & 0x7Fu) << 16;
    unsigned lo = x->dma_src;
    for (unsigned i = 0; i < x->dma_length; i++) {
        uint16_t w = rg__gen_read16(tmp, ((hi | lo) << 1) & 0xFFFFFEu);
        switch (v->code & 0x0Fu) {
        case 1: {
            uint16_t b = (v->addr & 1u) ? (uint16_t)(w << 8 | w >> 8) : w;
            v->vram[v->addr & 0xFFFEu] = (uint8_t)(b >> 8);
            v->vram[v->addr | 1u] = (uint8_t)b;
            break;
        }
        case 3:
            v->cram[(v->addr >> 1) & 0x3Fu] = w & 0x0EEEu;
            break;
        case 5:
            if (((v->addr >> 1) & 0x3Fu) < 40u)
                v->vsram[(v->addr >> 1) & 0x3Fu] = w & 0x07FFu;
            break;
        default:
            break;
        }
        v->addr = (uint16_t)(v->addr + v->reg[15]);
        lo = (lo + 1u) & 0xFFFFu;
    }
    v->reg[19] = v->reg[20] = 0;
    v->reg[21] = (uint8_t)lo;
    v->reg[22] = (uint8_t)(lo >> 8);
    *end = dc;
    return RG_OK;
}

int rg__gen_gpgx_read(const rg__gen_machine *m, const rg__gen_state *base, const void *src, size_t len,
                      rg__gen_state *out)
{
    rg__gpgx_state g;
    int rc = rg__gpgx_parse(src, len, 1, &g);
    if (rc != RG_OK)
        return rc;
    /* the buffer after the blocks is not read: stable-retro's states hold whatever its memory held there (zeros in
     * most, leftovers in 61 of the 928) */
    if (g.m68k.stopped & 2u)
        REFUSE("the 68000 is halted");
    if (g.m68k.cycles >= RG__GEN_LINE_MCLK)
        REFUSE("the 68000 stands %u master clocks into the frame (within the first line expected)", g.m68k.cycles);

    if (g.fm_cycles_start >= YM_SAMPLE_MCLK)
        REFUSE("the YM2612's next sample starts %u master clocks into the frame (under %u expected)",
               g.fm_cycles_start, YM_SAMPLE_MCLK);

    *out = *base;
    rg__gen_state *s = out;
    if ((rc = convert_cart(m, &g, &s->cart)) != RG_OK)
        return rc;
    /* The frame count: the clocks of every part of the machine count from it, and our YM2612's samples start every
     * 1008 master clocks from power-on, GPGX's at fm_cycles_start into the frame. An NTSC frame is 896,040 master
     * clocks, 1008 - 72 modulo 1008, so frame 14 + k puts a sample at the frame's start plus 72 k (k 0-13); a PAL
     * frame 1,070,460, 1008 - 36, so frame 28 + k puts one at 36 k (k 0-27). GPGX's start is a multiple of that step
     * after frames of one length (between, as after a region change: rounded to the nearest). */
    uint64_t frame_mclk = rg__gen_frame_mclk(base);
    unsigned step = YM_SAMPLE_MCLK - (unsigned)(frame_mclk % YM_SAMPLE_MCLK), cycle = YM_SAMPLE_MCLK / step;
    unsigned k = (g.fm_cycles_start + step / 2u) / step;
    if (k > cycle - 1u)
        k = cycle - 1u;
    uint32_t frame = cycle + k;
    uint64_t base_mclk = (uint64_t)frame * frame_mclk;
    s->frame = frame;
    s->ym_samples = (base_mclk + (uint64_t)k * step) / YM_SAMPLE_MCLK;
    memcpy(s->ram, g.work_ram, sizeof s->ram); /* both 16-bit host-order words */
    memcpy(s->zram, g.zram, sizeof s->zram);
    for (unsigned i = 0; i < 3; i++) {
        s->io_data[i] = g.io_reg[1 + i];
        s->io_ctrl[i] = g.io_reg[4 + i];
    }
    s->z80_busreq = (g.zstate & 2u) ? 1u : 0u;
    s->z80_reset = (g.zstate & 1u) ? 0u : 1u;
    s->z80_bank = (uint16_t)(g.zbank >> 15);
    if (!s->z80_reset) { /* out of reset (running, or paused for the 68000): its registers */
        if ((rc = convert_z80(&g, base_mclk, s)) != RG_OK)
            return rc;
    } else { /* held in reset: GPGX's Z80 waits with its power-on registers, and so does ours */
        s->z80_cycles = base_mclk / 15u;
    }
    if ((rc = convert_ym(&g, s)) != RG_OK)
        return rc;
    convert_fm(&g, s);
    convert_psg(&g, s);
    if ((rc = convert_vdp(&g, &s->vdp, rg__gen_lines(s))) != RG_OK)
        return rc;

    rg__gen_machine *tmp = malloc(sizeof *tmp);
    if (!tmp)
        return rg__error(RG_ENOMEM, "out of memory converting a Genesis Plus GX state");
    *tmp = *m;
    tmp->st = *s;
    uint64_t dma_end;
    if ((rc = convert_dma(&g, tmp, s, &dma_end)) != RG_OK) {
        free(tmp);
        return rc;
    }
    rg_m68k *c = &s->cpu;
    memcpy(c->d, g.m68k.d, sizeof c->d);
    memcpy(c->a, g.m68k.a, sizeof c->a);
    c->sr = g.m68k.sr;
    c->other_sp = (g.m68k.sr & 0x2000u) ? g.m68k.usp : g.m68k.isp;
    uint64_t t = base_mclk + (g.m68k.cycles > dma_end ? g.m68k.cycles : dma_end);
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
