/* The NES APU: registers, length counters, envelopes, sweeps, the frame counter and its IRQ, the DMC's memory reader
 * and output unit, power-on and reset. What a game can read ($4015) or what raises an IRQ is computed always; the
 * tone generators and samples are apu_synth.c's, run only while audio is observed.
 *
 * The APU runs lazily: between two events (a frame-counter step, a DMC output clock, a pending $4017 restart or
 * $4015 DMC start) it only counts, so a run costs a few steps per frame. Timing facts (NTSC, CPU cycles, c = the
 * cycle of the register write): a $4017 write restarts the sequence at c + 2 (c even) or c + 3 (c odd); from there
 * the four-step sequence clocks the envelopes/linear counter at 7457, 14913, 22371 and 29829, the length
 * counters/sweeps at 14913 and 29829, sets the IRQ flag at 29828, 29829 and 29830 and starts over at 29830; the
 * five-step one clocks at 7457, 14913, 22371 and 37281 (lengths at 14913 and 37281) and starts over at 37282, and
 * clocks everything once when it starts. Power-on acts as a $00 write two cycles before cycle 0. */
#include "cores/nes/nes.h"

#include <string.h>

static const uint8_t k_length[32] = {10, 254, 20, 2,  40, 4,  80, 6,  160, 8,  60, 10, 14, 12, 26, 14,
                                     12, 16,  24, 18, 48, 20, 96, 22, 192, 24, 72, 26, 16, 28, 32, 30};

static const uint16_t k_dmc_rate[16] = {428, 380, 340, 320, 286, 254, 226, 214,
                                        190, 160, 142, 128, 106, 84,  72,  54};

/* Frame-counter step points (fc_count values). */
#define FC_Q1 7457u
#define FC_Q2 14913u
#define FC_Q3 22371u
#define FC_IRQ0 29828u
#define FC_Q4 29829u
#define FC_WRAP0 29830u
#define FC_Q5 37281u
#define FC_WRAP1 37282u

#define NO_EVENT UINT64_MAX

void rg__nes_apu_power(rg__nes_apu *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < 2; i++)
        a->pulse[i].timer = 2;
    a->tri.timer = 1;
    a->noise.timer = 4;
    a->noise.lfsr = 1;
    a->dmc.timer = k_dmc_rate[0];
    a->dmc.bits = 8;
    a->dmc.silence = 1;
    a->dmc.addr = 0xC000;
    /* as if $00 had been written to $4017 two cycles before cycle 0 */
    a->fc_pending = 1;
    a->fc_pending_mode = 0;
    a->fc_reset_at = 0;
}

void rg__nes_apu_reset(rg__nes_apu *a)
{
    /* $4015 = 0: lengths cleared, the DMC stopped and its IRQ flag cleared */
    a->enabled = 0;
    a->pulse[0].length = a->pulse[1].length = a->tri.length = a->noise.length = 0;
    a->dmc.remaining = 0;
    a->dmc.irq = 0;
    a->dmc_fetch = 0;
    a->dmc_request_at = 0;
    a->dmc.level &= 1u;
    a->tri.seq = 0;
    /* the last $4017 value written again (the write lands on an even cycle, as at power-on) */
    a->fc_irq = 0;
    a->fc_line_at = 0;
    a->fc_pending = 1;
    a->fc_pending_mode = (uint8_t)(a->fc_reg >> 7);
    a->fc_reset_at = a->cycle + (a->cycle & 1u);
    a->len_done_at = 0;
}

unsigned rg__nes_apu_irq_bits(const rg__nes_apu *a)
{
    return (a->fc_irq && !a->fc_line_at ? RG__NES_IRQ_FRAME : 0u) | (a->dmc.irq ? RG__NES_IRQ_DMC : 0u);
}

/* --- the units clocked by the frame counter --- */

static void env_clock(rg__nes_apu_env *e, uint8_t ctrl)
{
    if (e->start) {
        e->start = 0;
        e->decay = 15;
        e->divider = ctrl & 15u;
    } else if (e->divider) {
        e->divider--;
    } else {
        e->divider = ctrl & 15u;
        if (e->decay)
            e->decay--;
        else if (ctrl & 0x20u)
            e->decay = 15;
    }
}

static void quarter_clock(rg__nes_apu *a)
{
    env_clock(&a->pulse[0].env, a->pulse[0].ctrl);
    env_clock(&a->pulse[1].env, a->pulse[1].ctrl);
    env_clock(&a->noise.env, a->noise.ctrl);
    rg__nes_apu_triangle *t = &a->tri;
    if (t->linear_reload)
        t->linear = t->ctrl & 0x7Fu;
    else if (t->linear)
        t->linear--;
    if (!(t->ctrl & 0x80u))
        t->linear_reload = 0;
}

int rg__nes_apu_pulse_muted(const rg__nes_apu_pulse *p)
{
    if (p->period < 8)
        return 1;
    if (p->sweep & 0x08u)
        return 0; /* a negated target is never above the period */
    return (unsigned)p->period + ((unsigned)p->period >> (p->sweep & 7u)) > 0x7FFu;
}

static void sweep_clock(rg__nes_apu_pulse *p, int ch)
{
    unsigned shift = p->sweep & 7u;
    if (p->sweep_div == 0 && (p->sweep & 0x80u) && shift && !rg__nes_apu_pulse_muted(p)) {
        unsigned change = p->period >> shift;
        if (p->sweep & 0x08u) /* pulse 1 adds the ones' complement, pulse 2 the two's */
            p->period = (uint16_t)(p->period - change - (ch == 0 ? 1u : 0u));
        else
            p->period = (uint16_t)(p->period + change);
    }
    if (p->sweep_div == 0 || p->sweep_reload) {
        p->sweep_div = (p->sweep >> 4) & 7u;
        p->sweep_reload = 0;
    } else {
        p->sweep_div--;
    }
}

/* Decrements the unhalted non-zero length counters; returns the mask of those it decremented. */
static unsigned length_clock(rg__nes_apu *a)
{
    unsigned done = 0;
    uint8_t *len[4] = {&a->pulse[0].length, &a->pulse[1].length, &a->tri.length, &a->noise.length};
    uint8_t halt[4] = {(uint8_t)(a->pulse[0].ctrl & 0x20u), (uint8_t)(a->pulse[1].ctrl & 0x20u),
                       (uint8_t)(a->tri.ctrl & 0x80u), (uint8_t)(a->noise.ctrl & 0x20u)};
    for (unsigned i = 0; i < 4; i++)
        if (*len[i] && !halt[i]) {
            (*len[i])--;
            done |= 1u << i;
        }
    return done;
}

static void half_clock(rg__nes_apu *a, uint64_t tick)
{
    if (a->len_done_at != tick + 1) /* else a register write in this cycle ran it already */
        length_clock(a);
    a->len_done_at = 0;
    sweep_clock(&a->pulse[0], 0);
    sweep_clock(&a->pulse[1], 1);
}

/* Whether the frame counter's step of cycle `tick` (not yet run) clocks the length counters. */
static int half_step_at(const rg__nes_apu *a, uint64_t tick)
{
    if (a->fc_pending && a->fc_reset_at == tick)
        return a->fc_pending_mode == 1;
    unsigned next = a->fc_count + 1u;
    return next == FC_Q2 || next == (a->fc_mode ? FC_Q5 : FC_Q4);
}

/* A write to a length-halt or length-load register in the cycle of a half-frame step: the hardware applies the
 * write after the step's length clock (a halt written then does not stop it, a reload of a counter the step
 * decrements is lost), so the length clock runs now, before the write. */
static void length_step_before_write(rg__nes_apu *a)
{
    uint64_t tick = a->cycle;
    if (a->len_done_at == tick + 1 || !half_step_at(a, tick))
        return;
    a->len_clocked = (uint8_t)length_clock(a);
    a->len_done_at = tick + 1;
}

static void length_load(rg__nes_apu *a, unsigned ch, uint8_t *len, uint8_t value)
{
    if (!(a->enabled & (1u << ch)))
        return;
    if (a->len_done_at == a->cycle + 1 && (a->len_clocked & (1u << ch)))
        return; /* reload in the cycle its counter was clocked: ignored */
    *len = k_length[value >> 3];
}

/* --- DMC --- */

static void dmc_restart(rg__nes_apu *a)
{
    a->dmc.addr = (uint16_t)(0xC000u | ((unsigned)a->dmc.start << 6));
    a->dmc.remaining = (uint16_t)(a->dmc.len * 16u + 1u);
}

static void dmc_request(rg__nes_apu *a)
{
    if (!a->dmc.full && a->dmc.remaining && !a->dmc_fetch) {
        a->dmc_fetch = 1;
        a->dmc_fetch_addr = a->dmc.addr;
    }
}

/* The output clock of cycle `tick`. A byte taken from the buffer makes the reader request the next one in the
 * following cycle. */
static void dmc_output_clock(rg__nes_apu *a, uint64_t tick)
{
    rg__nes_apu_dmc *d = &a->dmc;
    if (!d->silence) {
        if (d->shift & 1u) {
            if (d->level <= 125)
                d->level = (uint8_t)(d->level + 2u);
        } else if (d->level >= 2) {
            d->level = (uint8_t)(d->level - 2u);
        }
        d->shift >>= 1;
    }
    if (--d->bits == 0) {
        d->bits = 8;
        if (d->full) {
            d->silence = 0;
            d->shift = d->buffer;
            d->full = 0;
            if (d->remaining && !a->dmc_fetch)
                a->dmc_request_at = tick + 1u;
        } else {
            d->silence = 1;
        }
    }
}

void rg__nes_apu_dmc_fill(struct rg__nes_machine *m, uint8_t value)
{
    rg__nes_apu *a = &m->st.apu;
    if (!a->dmc_fetch)
        return;
    rg__nes_apu_dmc *d = &a->dmc;
    a->dmc_fetch = 0;
    d->buffer = value;
    d->full = 1;
    d->addr = d->addr == 0xFFFFu ? 0x8000u : (uint16_t)(d->addr + 1u);
    if (d->remaining && --d->remaining == 0) {
        if (d->ctrl & 0x40u) {
            dmc_restart(a);
        } else if (d->ctrl & 0x80u) {
            d->irq = 1;
            rg__nes_irq_set(&m->st, RG__NES_IRQ_DMC, 1);
        }
    }
    rg__nes_apu_run(m, a->cycle); /* reschedule */
}

/* --- running --- */

/* The fc_count value of the frame counter's next step after `count` in `mode`. */
static unsigned fc_next_step(unsigned mode, unsigned count)
{
    static const uint16_t steps0[] = {FC_Q1, FC_Q2, FC_Q3, FC_IRQ0, FC_Q4, FC_WRAP0};
    static const uint16_t steps1[] = {FC_Q1, FC_Q2, FC_Q3, FC_Q5, FC_WRAP1};
    const uint16_t *s = mode ? steps1 : steps0;
    unsigned n = mode ? 5u : 6u;
    for (unsigned i = 0; i < n; i++)
        if (s[i] > count)
            return s[i];
    return s[n - 1]; /* not reached: count stays below the wrap */
}

/* The first cycle >= a->cycle at which something other than counting happens. */
static uint64_t next_event(const rg__nes_apu *a)
{
    uint64_t t = a->cycle;
    uint64_t ev = t + (fc_next_step(a->fc_mode, a->fc_count) - a->fc_count - 1u);
    if (a->fc_pending && a->fc_reset_at < ev)
        ev = a->fc_reset_at;
    uint64_t dmc = t + a->dmc.timer - 1u;
    if (dmc < ev)
        ev = dmc;
    if (a->dmc_request_at && a->dmc_request_at < ev)
        ev = a->dmc_request_at;
    if (a->fc_line_at && a->fc_line_at < ev)
        ev = a->fc_line_at;
    return ev;
}

/* One cycle with an event (the cycle a->cycle). */
static void step(rg__nes_machine *m)
{
    rg__nes_apu *a = &m->st.apu;
    uint64_t tick = a->cycle;
    if (a->fc_line_at == tick) { /* the line follows the flag of the cycle before */
        a->fc_line_at = 0;
        rg__nes_irq_set(&m->st, RG__NES_IRQ_FRAME, a->fc_irq);
    }
    if (a->fc_pending && a->fc_reset_at == tick) {
        a->fc_pending = 0;
        a->fc_count = 0;
        a->fc_mode = a->fc_pending_mode;
        if (a->fc_mode) {
            quarter_clock(a);
            half_clock(a, tick);
        }
    } else {
        unsigned c = ++a->fc_count;
        int irq = 0;
        if (c == FC_Q1 || c == FC_Q3) {
            quarter_clock(a);
        } else if (c == FC_Q2) {
            quarter_clock(a);
            half_clock(a, tick);
        } else if (a->fc_mode == 0) {
            if (c == FC_IRQ0) {
                irq = 1;
            } else if (c == FC_Q4) {
                quarter_clock(a);
                half_clock(a, tick);
                irq = 1;
            } else if (c == FC_WRAP0) {
                irq = 1;
                a->fc_count = 0;
            }
        } else {
            if (c == FC_Q5) {
                quarter_clock(a);
                half_clock(a, tick);
            } else if (c == FC_WRAP1) {
                a->fc_count = 0;
            }
        }
        if (irq && !(a->fc_reg & 0x40u)) {
            a->fc_irq = 1;
            if (!(m->st.irq & RG__NES_IRQ_FRAME) && !a->fc_line_at)
                a->fc_line_at = tick + 1u;
        }
    }
    if (--a->dmc.timer == 0) {
        dmc_output_clock(a, tick);
        a->dmc.timer = k_dmc_rate[a->dmc.ctrl & 15u];
    }
    if (a->dmc_request_at == tick) {
        a->dmc_request_at = 0;
        dmc_request(a);
    }
    if (m->audio)
        rg__nes_apu_synth(m, 1);
    a->cycle = tick + 1;
}

/* The next cycle at which the CPU may see a change: the frame IRQ line raised (a cycle after its flag), a DMC
 * fetch requested. */
static void schedule(rg__nes_machine *m)
{
    const rg__nes_apu *a = &m->st.apu;
    uint64_t t = a->cycle;
    uint64_t at = NO_EVENT;
    if (!(a->fc_reg & 0x40u)) {
        /* the flag is set at counts 29828, 29829 and 29830 of the four-step sequence, in the sequence running
         * (before a pending restart) or in the restarted one */
        if (a->fc_mode == 0) {
            unsigned e = a->fc_count < FC_IRQ0 ? FC_IRQ0 : a->fc_count + 1u;
            uint64_t old = t + (e - a->fc_count - 1u);
            if (!a->fc_pending || old < a->fc_reset_at)
                at = old + 1u;
        }
        if (a->fc_pending && a->fc_pending_mode == 0 && a->fc_reset_at + FC_IRQ0 + 1u < at)
            at = a->fc_reset_at + FC_IRQ0 + 1u;
    }
    if (a->fc_line_at && a->fc_line_at < at)
        at = a->fc_line_at;
    if (a->dmc_request_at && a->dmc_request_at < at)
        at = a->dmc_request_at;
    if (!a->dmc_fetch && !a->dmc_request_at && a->dmc.full && a->dmc.remaining) {
        /* the output clock that empties the buffer, and the request a cycle later */
        uint64_t d = t + a->dmc.timer + (uint64_t)(a->dmc.bits - 1u) * k_dmc_rate[a->dmc.ctrl & 15u];
        if (d < at)
            at = d;
    }
    m->apu_sync_at = at == NO_EVENT ? NO_EVENT : at + 1u;
    if (m->cart_clocked && m->cart_sync_at < m->apu_sync_at) /* the cartridge's counter rides on our checks */
        m->apu_sync_at = m->cart_sync_at;
}

void rg__nes_apu_run(struct rg__nes_machine *m, uint64_t cycle)
{
    rg__nes_apu *a = &m->st.apu;
    while (a->cycle < cycle) {
        uint64_t ev = next_event(a);
        uint64_t end = ev < cycle ? ev : cycle;
        uint64_t n = end - a->cycle;
        if (n) {
            a->fc_count = (uint16_t)(a->fc_count + n);
            a->dmc.timer = (uint16_t)(a->dmc.timer - n);
            if (m->audio)
                rg__nes_apu_synth(m, n);
            a->cycle = end;
        }
        if (ev < cycle)
            step(m);
    }
    /* the APU's IRQ lines as its flags say (after a reset, which cannot reach st.irq, or a state load) */
    unsigned bits = rg__nes_apu_irq_bits(a);
    if ((m->st.irq & (RG__NES_IRQ_FRAME | RG__NES_IRQ_DMC)) != bits) {
        rg__nes_irq_set(&m->st, RG__NES_IRQ_FRAME, bits & RG__NES_IRQ_FRAME);
        rg__nes_irq_set(&m->st, RG__NES_IRQ_DMC, bits & RG__NES_IRQ_DMC);
    }
    schedule(m);
}

/* --- registers --- */

static void write_status(rg__nes_machine *m, uint8_t v)
{
    rg__nes_apu *a = &m->st.apu;
    a->enabled = v & 0x0Fu;
    if (!(v & 1u))
        a->pulse[0].length = 0;
    if (!(v & 2u))
        a->pulse[1].length = 0;
    if (!(v & 4u))
        a->tri.length = 0;
    if (!(v & 8u))
        a->noise.length = 0;
    a->dmc.irq = 0;
    rg__nes_irq_set(&m->st, RG__NES_IRQ_DMC, 0);
    if (v & 0x10u) {
        if (!a->dmc.remaining)
            dmc_restart(a);
        /* an empty buffer is filled at once: the fetch is requested in the next odd cycle after this one */
        if (!a->dmc.full && !a->dmc_fetch && !a->dmc_request_at)
            a->dmc_request_at = a->cycle + 1u + (a->cycle & 1u);
    } else {
        a->dmc.remaining = 0;
        a->dmc_fetch = 0;
        a->dmc_request_at = 0;
    }
}

void rg__nes_apu_write(struct rg__nes_machine *m, uint16_t addr, uint8_t v)
{
    rg__nes_apu *a = &m->st.apu;
    switch (addr) {
    case 0x4000:
    case 0x4004:
        length_step_before_write(a);
        a->pulse[(addr >> 2) & 1u].ctrl = v;
        break;
    case 0x4001:
    case 0x4005: {
        rg__nes_apu_pulse *p = &a->pulse[(addr >> 2) & 1u];
        p->sweep = v;
        p->sweep_reload = 1;
        break;
    }
    case 0x4002:
    case 0x4006: {
        rg__nes_apu_pulse *p = &a->pulse[(addr >> 2) & 1u];
        p->period = (uint16_t)((p->period & 0x700u) | v);
        break;
    }
    case 0x4003:
    case 0x4007: {
        unsigned ch = (addr >> 2) & 1u;
        rg__nes_apu_pulse *p = &a->pulse[ch];
        length_step_before_write(a);
        p->period = (uint16_t)((p->period & 0xFFu) | ((v & 7u) << 8));
        length_load(a, ch, &p->length, v);
        p->seq = 0;
        p->env.start = 1;
        break;
    }
    case 0x4008:
        length_step_before_write(a);
        a->tri.ctrl = v;
        break;
    case 0x400A:
        a->tri.period = (uint16_t)((a->tri.period & 0x700u) | v);
        break;
    case 0x400B:
        length_step_before_write(a);
        a->tri.period = (uint16_t)((a->tri.period & 0xFFu) | ((v & 7u) << 8));
        length_load(a, 2, &a->tri.length, v);
        a->tri.linear_reload = 1;
        break;
    case 0x400C:
        length_step_before_write(a);
        a->noise.ctrl = v;
        break;
    case 0x400E:
        a->noise.mode_period = v & 0x8Fu;
        break;
    case 0x400F:
        length_step_before_write(a);
        length_load(a, 3, &a->noise.length, v);
        a->noise.env.start = 1;
        break;
    case 0x4010:
        a->dmc.ctrl = v & 0xCFu;
        if (!(v & 0x80u)) {
            a->dmc.irq = 0;
            rg__nes_irq_set(&m->st, RG__NES_IRQ_DMC, 0);
        }
        break;
    case 0x4011:
        a->dmc.level = v & 0x7Fu;
        break;
    case 0x4012:
        a->dmc.start = v;
        break;
    case 0x4013:
        a->dmc.len = v;
        break;
    case 0x4015:
        write_status(m, v);
        break;
    case 0x4017:
        a->fc_reg = v & 0xC0u;
        if (v & 0x40u) {
            a->fc_irq = 0;
            a->fc_line_at = 0;
            rg__nes_irq_set(&m->st, RG__NES_IRQ_FRAME, 0);
        }
        a->fc_pending = 1;
        a->fc_pending_mode = (uint8_t)(v >> 7);
        a->fc_reset_at = a->cycle + 2u + (a->cycle & 1u);
        break;
    default: /* $4009, $400D, unused */
        break;
    }
    schedule(m);
}

uint8_t rg__nes_apu_read_status(struct rg__nes_machine *m)
{
    rg__nes_apu *a = &m->st.apu;
    uint8_t v = (uint8_t)(m->st.open_bus & 0x20u);
    if (a->pulse[0].length)
        v |= 0x01u;
    if (a->pulse[1].length)
        v |= 0x02u;
    if (a->tri.length)
        v |= 0x04u;
    if (a->noise.length)
        v |= 0x08u;
    if (a->dmc.remaining)
        v |= 0x10u;
    if (a->fc_irq)
        v |= 0x40u;
    if (a->dmc.irq)
        v |= 0x80u;
    if (a->fc_irq) {
        a->fc_irq = 0;
        a->fc_line_at = 0;
        rg__nes_irq_set(&m->st, RG__NES_IRQ_FRAME, 0);
        schedule(m);
    }
    return v;
}

/* --- loaded states --- */

const char *rg__nes_apu_check_at(const rg__nes_apu *a, uint64_t cycles, unsigned irq)
{
    if (a->cycle > cycles || cycles - a->cycle > RG__NES_RUN_CYCLES_MAX)
        return "apu clock not within a run of the cpu's";
    if ((irq & (RG__NES_IRQ_FRAME | RG__NES_IRQ_DMC)) != rg__nes_apu_irq_bits(a))
        return "apu irq bits disagree with its flags";
    return NULL;
}

static const char *check_env(const rg__nes_apu_env *e)
{
    if (e->start > 1 || e->divider > 15 || e->decay > 15)
        return "apu envelope out of range";
    return NULL;
}

const char *rg__nes_apu_check(const rg__nes_apu *a)
{
    for (int i = 0; i < 2; i++) {
        const rg__nes_apu_pulse *p = &a->pulse[i];
        if (p->period > 0x7FFu || p->timer < 1 || p->timer > 4096u || p->seq > 7 || p->sweep_div > 7 ||
            p->sweep_reload > 1)
            return "apu pulse timer/sequencer/sweep out of range";
        if (p->length > 254)
            return "apu pulse length counter out of range";
        const char *e = check_env(&p->env);
        if (e)
            return e;
    }
    const rg__nes_apu_triangle *t = &a->tri;
    if (t->period > 0x7FFu || t->timer < 1 || t->timer > 2048u || t->seq > 31 || t->linear > 127 ||
        t->linear_reload > 1 || t->length > 254)
        return "apu triangle out of range";
    const rg__nes_apu_noise *n = &a->noise;
    if (n->timer < 1 || n->timer > 4068u || n->lfsr == 0 || n->lfsr > 0x7FFFu || n->length > 254 ||
        (n->mode_period & 0x70u))
        return "apu noise out of range";
    const char *e = check_env(&n->env);
    if (e)
        return e;
    const rg__nes_apu_dmc *d = &a->dmc;
    if ((d->ctrl & 0x30u) || d->level > 127 || d->addr < 0x8000u || d->remaining > 4081u || d->timer < 1 ||
        d->timer > 428u || d->full > 1 || d->bits < 1 || d->bits > 8 || d->silence > 1 || d->irq > 1)
        return "apu dmc out of range";
    if (a->dmc_fetch > 1 || (a->dmc_fetch && (a->dmc_fetch_addr != d->addr || d->full || !d->remaining)))
        return "apu dmc fetch inconsistent";
    if (a->dmc_request_at && (a->dmc_request_at < a->cycle || a->dmc_request_at > a->cycle + 3u))
        return "apu dmc request time out of range";
    if (a->enabled > 0x0F || (a->fc_reg & 0x3Fu) || a->fc_mode > 1 || a->fc_irq > 1 || a->fc_pending > 1 ||
        a->fc_pending_mode > 1 || a->fc_count > (a->fc_mode ? FC_WRAP1 - 1u : FC_WRAP0 - 1u) ||
        a->len_clocked > 0x0F)
        return "apu frame counter out of range";
    if (a->fc_pending && (a->fc_reset_at < a->cycle || a->fc_reset_at > a->cycle + 3u))
        return "apu frame counter restart time out of range";
    if (a->fc_line_at && (!a->fc_irq || a->fc_line_at < a->cycle || a->fc_line_at > a->cycle + 1u))
        return "apu frame irq line time out of range";
    if (a->len_done_at > a->cycle + 1u)
        return "apu length step time out of range";
    if (a->sample_acc >= RG__NES_APU_CLOCK_DEN || a->sum_n > 41 || a->sum_pulse > a->sum_n * 30u ||
        a->sum_tri > a->sum_n * 15u || a->sum_noise > a->sum_n * 15u || a->sum_dmc > a->sum_n * 127u)
        return "apu sample accumulator out of range";
    return NULL;
}
