/* The SMS/GG machine: memory map and mappers, I/O ports, interrupts, the frame loop, and the state check. */
#include "cores/sms/sms.h"

#include "base/base.h"

#include <string.h>

unsigned rg__sms_detect_mapper(const uint8_t *rom, size_t size)
{
    if (size < 0x8000)
        return RG__SMS_MAPPER_SEGA;
    unsigned sum = (unsigned)(rom[0x7FE6] | rom[0x7FE7] << 8);
    unsigned inv = (unsigned)(rom[0x7FE8] | rom[0x7FE9] << 8);
    return (sum + inv == 0x10000u && sum != 0) ? RG__SMS_MAPPER_CODEMASTERS : RG__SMS_MAPPER_SEGA;
}

static inline const uint8_t *page(const rg__sms_machine *m, unsigned bank)
{
    return m->rom + (size_t)(bank % m->pages) * 0x4000u;
}

/* The memory map as 1 KiB pages, from the mapper registers (see "Memory" in docs/sms.md). */
static void map_update(rg__sms_machine *m)
{
    rg__sms_state *s = &m->st;
    for (unsigned i = 0; i < 16; i++) {
        m->rd[i] = page(m, s->bank[0]) + i * 0x400u;
        m->rd[16 + i] = page(m, s->bank[1]) + i * 0x400u;
        m->rd[32 + i] = page(m, s->bank[2]) + i * 0x400u;
        m->rd[48 + i] = m->wr[48 + i] = &s->ram[(i & 7u) * 0x400u];
        m->wr[i] = m->wr[16 + i] = m->wr[32 + i] = NULL;
    }
    if (m->mapper == RG__SMS_MAPPER_SEGA) {
        m->rd[0] = m->rom; /* the first 1 KiB is always page 0 */
        m->wr[63] = NULL;  /* $FFFC-$FFFF: the mapper registers */
        if (s->mapper_ctl & 0x08u)
            for (unsigned i = 0; i < 16; i++)
                m->rd[32 + i] = &s->cart_ram[((s->mapper_ctl & 0x04u) ? 0x4000u : 0u) + i * 0x400u];
    }
}

static inline uint8_t mem_read(const rg__sms_machine *m, uint16_t a)
{
    return m->rd[a >> 10][a & 0x3FFu];
}

/* The bytes at a and a + 1: one page table look-up when both are in the same 1 KiB page. */
static inline unsigned mem_read16(const rg__sms_machine *m, uint16_t a)
{
    if ((a & 0x3FFu) != 0x3FFu) {
        const uint8_t *p = m->rd[a >> 10] + (a & 0x3FFu);
        return (unsigned)p[0] | (unsigned)p[1] << 8;
    }
    return (unsigned)mem_read(m, a) | (unsigned)mem_read(m, (uint16_t)(a + 1u)) << 8;
}

/* A write that is not to plain RAM: the mapper registers (they are RAM addresses too), cartridge RAM, a ROM. */
static void mem_write_slow(rg__sms_machine *m, uint16_t a, uint8_t v)
{
    rg__sms_state *s = &m->st;
    if (a >= 0xC000u) {
        s->ram[a & 0x1FFFu] = v;
        if (a >= 0xFFFCu && m->mapper == RG__SMS_MAPPER_SEGA) {
            if (a == 0xFFFCu)
                s->mapper_ctl = v;
            else
                s->bank[a - 0xFFFDu] = v;
            map_update(m);
        }
        return;
    }
    if (m->mapper == RG__SMS_MAPPER_NONE)
        return;
    if (m->mapper == RG__SMS_MAPPER_CODEMASTERS) {
        if (a == 0x0000u || a == 0x4000u || a == 0x8000u) {
            s->bank[a >> 14] = v;
            map_update(m);
        }
        return;
    }
    if (a >= 0x8000u && (s->mapper_ctl & 0x08u)) {
        s->cart_ram[((s->mapper_ctl & 0x04u) ? 0x4000u : 0u) + (a & 0x3FFFu)] = v;
        s->cart_ram_used = 1;
    }
}

static inline void mem_write(rg__sms_machine *m, uint16_t a, uint8_t v)
{
    uint8_t *p = m->wr[a >> 10];
    if (p)
        p[a & 0x3FFu] = v;
    else
        mem_write_slow(m, a, v);
}

static inline void irq_update(rg__sms_machine *m)
{
    m->st.cpu.int_line = m->st.vdp.irq;
}

/* master clocks since the frame started, at the end of the running instruction */
static inline unsigned frame_clock(const rg__sms_machine *m)
{
    return (unsigned)(m->st.cycles - (uint64_t)m->st.frame * RG__SMS_FRAME_T) * 15u;
}

static inline int late(const rg__sms_machine *m)
{
    return m->st.cycles >= m->line_end;
}

static uint8_t io_read(rg__sms_machine *m, uint16_t port)
{
    rg__sms_state *s = &m->st;
    unsigned p = port & 0xFFu;
    if (m->gg && p < 7u) {
        const uint8_t *g = s->gg_reg;
        switch (p) {
        case 0: return (uint8_t)(g[0] & (m->start ? 0x7Fu : 0xFFu));
        case 1: return (uint8_t)(g[1] | (g[2] & 0x7Fu));
        case 6: return 0xFF;
        default: return g[p];
        }
    }
    switch (p & 0xC1u) {
    case 0x40:
        return rg__sms_vdp_vcounter(&s->vdp, late(m));
    case 0x41:
        if (s->vdp.hc_latch & 0x100u)
            return (uint8_t)s->vdp.hc_latch;
        return rg__sms_vdp_hcounter(frame_clock(m));
    case 0x80:
        return rg__sms_vdp_read_data(&s->vdp);
    case 0x81: {
        uint8_t r = rg__sms_vdp_read_status(&s->vdp, frame_clock(m), late(m), m->draw, m->gg);
        irq_update(m);
        return r;
    }
    case 0xC0: {
        uint8_t r = (uint8_t)~((m->buttons[0] & 0x3Fu) | (m->buttons[1] & 0x03u) << 6);
        if (!(s->io_ctl & 0x01u)) /* port A TR as an output */
            r = (uint8_t)((r & ~0x20u) | (s->io_ctl & 0x10u) << 1);
        return r;
    }
    case 0xC1: {
        uint8_t r = (uint8_t)~((m->buttons[1] >> 2) & 0x0Fu);
        /* TH and TR lines read back as outputs when port $3F makes them outputs */
        if (!(s->io_ctl & 0x08u))
            r = (uint8_t)((r & ~0x80u) | (s->io_ctl & 0x80u));
        if (!(s->io_ctl & 0x02u))
            r = (uint8_t)((r & ~0x40u) | (s->io_ctl & 0x20u) << 1);
        if (!(s->io_ctl & 0x04u))
            r = (uint8_t)((r & ~0x08u) | (s->io_ctl & 0x40u) >> 3);
        return r;
    }
    default:
        return 0xFF;
    }
}

static void io_write(rg__sms_machine *m, uint16_t port, uint8_t v)
{
    rg__sms_state *s = &m->st;
    unsigned p = port & 0xFFu;
    if (m->gg && p < 7u) {
        if (p == 5)
            v &= 0xF8u;
        if (p != 0 && p != 4)
            s->gg_reg[p] = v;
        if (p == 6)
            s->psg.stereo = v;
        return;
    }
    switch (p & 0xC1u) {
    case 0x00:
        s->mem_ctl = v;
        break;
    case 0x01:
        /* a TH line going high latches the H counter */
        if ((!(s->io_ctl & 0x80u) && (v & 0x80u)) || (!(s->io_ctl & 0x20u) && (v & 0x20u)))
            s->vdp.hc_latch = (uint16_t)(0x100u | rg__sms_vdp_hcounter(frame_clock(m) + 530u));
        s->io_ctl = v;
        break;
    case 0x40:
    case 0x41:
        rg__sms_psg_run(m, s->cycles);
        rg__sms_psg_write(&s->psg, v);
        break;
    case 0x80:
        rg__sms_vdp_write_data(&s->vdp, v, late(m), m->draw, m->gg);
        break;
    case 0x81:
        rg__sms_vdp_write_ctrl(&s->vdp, v, (unsigned)(s->cycles - (m->line_end - RG__SMS_LINE_T)) * 15u, m->draw,
                               m->gg);
        irq_update(m);
        break;
    default:
        break;
    }
}

/* The T-state count lives in a local (clk_) while the Z80 runs; it is written back to st.cycles before each port
 * access (the ports look at it) and on return. */
#define Z80_FN sms_z80_run
#define Z80_CTX rg__sms_machine
#define Z80_ENTER(ctx) uint64_t clk_ = (ctx)->st.cycles; const uint64_t stop_ = (ctx)->stop_at
#define Z80_LEAVE(ctx) ((ctx)->st.cycles = clk_)
#define Z80_FETCH(ctx, addr, ir) (clk_ += 4, mem_read((ctx), (addr)))
#define Z80_READ(ctx, addr) (clk_ += 3, mem_read((ctx), (addr)))
#define Z80_READ16(ctx, addr) (clk_ += 6, mem_read16((ctx), (addr)))
#define Z80_WRITE(ctx, addr, v) (clk_ += 3, mem_write((ctx), (addr), (v)))
#define Z80_IN(ctx, port) ((ctx)->st.cycles = (clk_ += 4), io_read((ctx), (port)))
#define Z80_OUT(ctx, port, v) ((ctx)->st.cycles = (clk_ += 4), io_write((ctx), (port), (v)))
#define Z80_INTERNAL(ctx, n) (clk_ += (unsigned)(n))
#define Z80_STOP(ctx) (clk_ >= stop_)
#define Z80_NOW(ctx) clk_
#define Z80_STOP_AT(ctx) stop_
/* a HALTed CPU: nothing reaches it before the run's end (interrupts are raised between runs) */
#define Z80_HALT_RUN(ctx) halt_run(&clk_, stop_)

static inline unsigned halt_run(uint64_t *clk, uint64_t stop)
{
    unsigned n = *clk < stop ? (unsigned)((stop - *clk + 3u) / 4u) : 1u;
    *clk += 4u * (uint64_t)n;
    return n;
}
#include "cpu/z80/z80_exec.h"

/* Power-on as Genesis Plus GX without a BIOS: the frame starts at line 192 and the Z80 comes out of reset 52,278
 * T-states later (line 159 of the first frame); A = 0, SP = $DFF0. */
#define POWER_ON_T 52278u

void rg__sms_power_on(rg__sms_machine *m)
{
    rg__sms_state *s = &m->st;
    memset(s, 0, sizeof *s);
    rg__z80_init(&s->cpu);
    s->cpu.a = 0;
    s->cpu.f = 0;
    s->cpu.sp = 0xDFF0;
    s->cpu.im = 1;
    s->cycles = POWER_ON_T;
    s->bank[0] = 0;
    s->bank[1] = 1;
    s->bank[2] = m->mapper == RG__SMS_MAPPER_CODEMASTERS ? 0 : 2;
    s->io_ctl = 0xFF;
    s->mem_ctl = 0xA8;
    if (!m->gg)
        s->ram[0] = 0xA8; /* the SMS BIOS leaves its port $3E value at $C000 */
    /* GG ports $00-$06: export machine (bit 6), Start released (bit 7) */
    static const uint8_t gg_init[7] = {0xC0, 0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF};
    memcpy(s->gg_reg, gg_init, sizeof gg_init);
    rg__sms_vdp_power_on(&s->vdp, m->gg);
    s->vdp.line_counter = 0xFF;
    rg__sms_psg_power_on(&s->psg);
    m->alen = 0;
}

/* The line interrupt counter as a line starts (lines 0-192); on underflow the interrupt is raised, one instruction
 * late when the CPU stands exactly at the line's start. */
static void line_counter(rg__sms_machine *m, int reload)
{
    rg__sms_vdp *v = &m->st.vdp;
    if (v->line_counter != 0) {
        if (reload)
            v->line_counter--;
        return;
    }
    if (reload)
        v->line_counter = v->reg[10];
    v->line_irq = 1;
    if (v->reg[0] & 0x10u) {
        uint64_t base = (uint64_t)m->st.frame * RG__SMS_FRAME_T;
        if ((m->st.cycles - base) % RG__SMS_LINE_T == 0) {
            m->stop_at = m->st.cycles + 1u;
            sms_z80_run(&m->st.cpu, m);
        }
        v->irq = 1;
        irq_update(m);
    }
}

void rg__sms_run_frame(rg__sms_machine *m)
{
    rg__sms_state *s = &m->st;
    rg__sms_vdp *v = &s->vdp;
    uint64_t start = (uint64_t)s->frame * RG__SMS_FRAME_T;
    m->alen = 0;
    m->draw = m->video ? m->fb : NULL;
    map_update(m); /* the state may have been loaded or changed from outside since the last frame */
    for (unsigned i = 0; i < RG__SMS_LINES; i++, start += RG__SMS_LINE_T) {
        unsigned line = i + RG__SMS_FRAME_LINE;
        if (line >= RG__SMS_LINES)
            line -= RG__SMS_LINES;
        m->line_end = start + RG__SMS_LINE_T;
        if (line < RG__SMS_HEIGHT) {
            if (v->line != line) {
                v->line = (uint16_t)line;
                rg__sms_vdp_render_line(v, line, m->draw, m->gg);
            }
            line_counter(m, 1);
        } else if (line == RG__SMS_HEIGHT) {
            v->line = (uint16_t)line;
            line_counter(m, 0);
        } else if (line == RG__SMS_LINES - 1u) {
            v->line = (uint16_t)line;
            v->line_counter = v->reg[10];
            if (!m->gg && m->start && !s->pause_prev)
                s->cpu.nmi_pending = 1;
            s->pause_prev = m->start;
            rg__sms_vdp_parse_first(v);
        } else {
            v->line = (uint16_t)line;
        }
        m->stop_at = m->line_end;
        sms_z80_run(&s->cpu, m);
        if (line == RG__SMS_HEIGHT && v->line == RG__SMS_HEIGHT) {
            v->status |= 0x80u;
            if (v->reg[1] & 0x20u) {
                v->irq = 1;
                irq_update(m);
            }
        } else if (line == RG__SMS_LINES - 1u) {
            v->vscroll = v->reg[9];
        }
        rg__sms_psg_run(m, m->line_end);
    }
    m->draw = NULL;
    s->frame++;
}

#define CHECK(cond, field) do { if (!(cond)) return rg__error(RG_ESTATE, "sms state: bad %s", field); } while (0)

int rg__sms_state_check(const rg__sms_state *s, const rg__sms_machine *m)
{
    const char *why = rg__z80_check(&s->cpu);
    if (why)
        return rg__error(RG_ESTATE, "sms state: bad cpu (%s)", why);
    uint64_t base = (uint64_t)s->frame * RG__SMS_FRAME_T;
    CHECK(s->cycles >= base && s->cycles - base < RG__SMS_FRAME_T, "cycles (not in the frame's first line)");
    CHECK(m->mapper == RG__SMS_MAPPER_SEGA || (s->mapper_ctl == 0), "mapper_ctl");
    CHECK(s->pause_prev <= 1, "pause_prev");
    CHECK(s->cart_ram_used <= 1, "cart_ram_used");
    const rg__sms_vdp *v = &s->vdp;
    CHECK(v->addr < 0x4000u, "vdp.addr");
    CHECK(v->code <= 3, "vdp.code");
    CHECK(v->latch <= 1, "vdp.latch");
    CHECK((v->status & 0x1Fu) == 0, "vdp.status");
    CHECK(v->line_irq <= 1, "vdp.line_irq");
    CHECK(v->line == RG__SMS_HEIGHT - 1u || (s->frame == 0 && v->line == RG__SMS_FRAME_LINE), "vdp.line");
    CHECK(v->irq <= 1, "vdp.irq");
    CHECK(v->spr_ovr == 0 || v->spr_ovr == 0x40, "vdp.spr_ovr");
    CHECK(v->spr_count <= 8, "vdp.spr_count");
    CHECK(v->hc_latch < 0x200u, "vdp.hc_latch");
    for (unsigned i = 0; i < 32; i++) {
        if (m->gg)
            CHECK(v->cram[2 * i + 1] < 16u, "vdp.cram");
        else
            CHECK(v->cram[i] < 64u && v->cram[32 + i] == 0, "vdp.cram");
    }
    const rg__sms_psg *p = &s->psg;
    for (unsigned i = 0; i < 3; i++)
        CHECK(p->tone[i] < 0x400u, "psg.tone");
    CHECK(p->noise < 8u, "psg.noise");
    for (unsigned i = 0; i < 4; i++) {
        CHECK(p->vol[i] < 16u, "psg.vol");
        CHECK(p->out[i] <= 1u, "psg.out");
    }
    CHECK(p->latch < 8u, "psg.latch");
    CHECK(p->tick_rem < 16u, "psg.tick_rem");
    CHECK(p->sample_acc < 3579545u, "psg.sample_acc");
    CHECK(p->t <= s->cycles, "psg.t");
    return RG_OK;
}
