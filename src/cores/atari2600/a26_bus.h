/* The Atari 2600 bus as the CPU loops see it (13-bit 6507 address space with its mirrors), inlined into each loop:
 * a26_machine.c runs the frame and picks the loop for the cart, a26_cpu_<kind>.c each compile one instance of the
 * threaded 6502 template (m6502_exec.h) for one bus kind through a26_cpu_loop.h. One translation unit per loop so
 * that a build compiles them in parallel: each is a large function, and all five in one file were the longest
 * single compile of the project (the sanitizer build's critical path). */
#ifndef RG_CORES_ATARI2600_A26_BUS_H
#define RG_CORES_ATARI2600_A26_BUS_H

#include "cores/atari2600/a26.h"

#include <string.h>

/* Decode (A12 = cartridge; else A7 = 0: TIA; A9 = 0: RAM; else RIOT). Each call is one CPU cycle, counted first
 * as Stella does, so a TIA access sees the clock at the end of its cycle. */
#if defined(__GNUC__)
#define A26_INLINE static inline __attribute__((always_inline))
#else
#define A26_INLINE static inline
#endif

/* The cartridge kinds the CPU loop is compiled for (a constant at each use): plain 2K/4K images (ROM reads, writes
 * ignored, no snooping), 4K-bank switching without snooping (the bank's ROM through one pointer, refreshed after
 * every access that may switch), E0 (four 1 KiB slices through pointers; only $1FE0-$1FFF can switch), FE (the 4K-bank
 * path for the cart, and outside it the cart sees only $01FE and the access after it instead of every access), and
 * all the others through the cart's own fast path with every access below $1000 shown to carts that snoop. */
enum { BUS_ANY, BUS_PLAIN, BUS_4K, BUS_E0, BUS_FE };

/* E0: window offsets below this are plain ROM reads (and ignored writes); the hot spots are $1FE0-$1FF7. */
#define E0_HOT 0xFE0u

/* The machine's copies of the cart's mapping, refreshed at each run's start (the state may have been loaded or
 * reset) and after every access that may switch banks: 4K banks (the selected bank copied into rom4k, so that the
 * CPU loop reads it at a constant offset from the machine pointer as for plain carts; copied again only when the
 * bank changed: F8/F6/F4 games switch a few times a frame, Activision's FE ones a few dozen) ... */
static inline void refresh_bank(rg__a26_machine *m)
{
    const uint8_t *bank = m->rom + m->st.cart.seg[0];
    if (bank != m->bank) {
        m->bank = bank;
        memcpy(m->rom4k, bank, sizeof m->rom4k);
    }
    m->fast_lo = m->st.cart.fast_lo;
    m->fast_len = m->st.cart.fast_len;
    m->fast_len2 = m->fast_len ? (uint16_t)(m->fast_len - 1u) : 0u;
}

/* ... and 1 KiB slices (seg[] holds ROM offsets relative to the window offset). */
static inline void refresh_slices(rg__a26_machine *m)
{
    for (unsigned i = 0; i < 4; i++)
        m->slice[i] = m->rom + (uint32_t)(m->st.cart.seg[i] + (i << 10));
}

/* What the CPU loop keeps in a local while it runs (a register, not the machine in memory): the frame's cycle
 * counter and the instruction budget, packed in one 64-bit word (cycles << 20 | budget: one register for both, a
 * cycle is one add of an immediate, the stop test one test of the low bits). They are written back around every
 * call that reads or changes them (TIA accesses; the RIOT gets the count as an argument) and when the loop returns. */
#define CB_SHIFT 20
#define CB_BUDGET ((1u << CB_SHIFT) - 1u)
_Static_assert(RG__A26_INSN_BUDGET <= CB_BUDGET, "the budget fits below the cycles");
typedef struct bus_regs {
    uint64_t cb;
} bus_regs;

A26_INLINE uint32_t regs_cycles(const bus_regs *r) { return (uint32_t)(r->cb >> CB_SHIFT); }
A26_INLINE uint32_t regs_budget(const bus_regs *r) { return (uint32_t)r->cb & CB_BUDGET; }
A26_INLINE void regs_set_cycles(bus_regs *r, uint32_t c) { r->cb = (uint64_t)c << CB_SHIFT | (r->cb & CB_BUDGET); }
A26_INLINE void regs_set_budget(bus_regs *r, uint32_t b) { r->cb = (r->cb & ~(uint64_t)CB_BUDGET) | b; }
/* One bus cycle: the count after it. */
A26_INLINE uint32_t regs_tick(bus_regs *r)
{
    r->cb += (uint64_t)1 << CB_SHIFT;
    return regs_cycles(r);
}

A26_INLINE uint8_t bus_read(rg__a26_machine *m, bus_regs *r, uint16_t addr, int kind)
{
    rg__a26_state *s = &m->st;
    uint8_t v;
    uint32_t now = regs_tick(r);
    if (addr & 0x1000u) {
        unsigned a = addr & 0x0FFFu;
        if (kind == BUS_PLAIN) {
            v = m->rom4k[a];
        } else if (kind == BUS_4K || kind == BUS_FE) {
            if ((unsigned)(a - m->fast_lo) < m->fast_len) {
                v = m->rom4k[a];
            } else {
                v = rg__a26_cart_read_slow(&s->cart, m->rom, a, s->databus, &s->rng);
                refresh_bank(m);
            }
        } else if (kind == BUS_E0) {
            if (a < E0_HOT) {
                v = m->slice[a >> 10][a & 0x3FFu];
            } else {
                v = rg__a26_cart_read_slow(&s->cart, m->rom, a, s->databus, &s->rng);
                refresh_slices(m);
            }
        } else if ((unsigned)(a - s->cart.fast_lo) < s->cart.fast_len) { /* the cart's documented fast path */
            v = m->rom[s->cart.seg[a >> 10] + a];
        } else {
            v = rg__a26_cart_read_slow(&s->cart, m->rom, a, s->databus, &s->rng);
        }
    } else {
        if (!(addr & 0x80u)) {
            s->cycles = now;
            v = rg__tia_read(m, addr);
        } else if (!(addr & 0x200u)) {
            v = s->ram[addr & 0x7Fu];
        } else {
            v = rg__a26_riot_read(&s->riot, addr, now, &m->in);
        }
        if (kind == BUS_ANY && m->snoop)
            rg__a26_cart_snoop(&s->cart, addr & 0x1FFFu, v, 0);
        if (kind == BUS_FE && (s->cart.fe_armed || (addr & 0x1FFFu) == 0x01FEu)) {
            rg__a26_cart_snoop(&s->cart, addr & 0x1FFFu, v, 0);
            refresh_bank(m);
        }
    }
    s->databus = v;
    return v;
}

/* Two bytes, the first one low. */
A26_INLINE unsigned load16(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint16_t w;
    memcpy(&w, p, sizeof w);
    return w;
#else
    return p[0] | (unsigned)p[1] << 8;
#endif
}

/* The opcode fetch at pc and the read of the byte after it (M6502_FETCH2): opcode | byte << 8. Where both bytes
 * are plain ROM of the window (no bank-switching address, no cart that watches the bus) they are read together:
 * two cycles, and the data bus holds the second byte, as two bus_read calls would leave them; anywhere else (code
 * in RAM, at the window's last byte, a hot spot, on E0 a pair across two slices) it is those two calls. The
 * bank-switching loops use it (A26_FETCH2, a26_cpu_attr.h). */
A26_INLINE unsigned bus_fetch2(rg__a26_machine *m, bus_regs *r, uint16_t pc, int kind)
{
    /* pc and pc + 1 in the window: pc's 13-bit address is $1000-$1FFE, the window offset a below $FFF (a below
     * $1000 wraps around to a huge value: one unsigned compare tests both ends) */
    unsigned a = (pc & 0x1FFFu) - 0x1000u, w;
    if (kind == BUS_ANY || kind == BUS_PLAIN) { /* not used by these loops (a26_cpu_attr.h) */
        goto slow;
    } else if (kind == BUS_4K || kind == BUS_FE) {
        if ((unsigned)(a - m->fast_lo) >= m->fast_len2) /* the fast window lies within $000-$FFF */
            goto slow;
        w = load16(m->rom4k + a);
    } else { /* BUS_E0 */
        if (a >= E0_HOT - 1u || (a & 0x3FFu) == 0x3FFu) /* the pair within one slice: one load */
            goto slow;
        w = load16(m->slice[a >> 10] + (a & 0x3FFu));
    }
    r->cb += (uint64_t)2 << CB_SHIFT;
    m->st.databus = (uint8_t)(w >> 8);
    return w;
slow:
    w = bus_read(m, r, pc, kind);
    return w | (unsigned)bus_read(m, r, (uint16_t)(pc + 1u), kind) << 8;
}

/* The TIA writes that need no drawing, done here without the call into tia_regs.c (the same steps as
 * rg__tia_write's for them): WSYNC (every line of every game writes it) and, on frames nobody observes, the colour
 * registers. Both leave the TIA clock at the write (no delay) and end the frame when the line limit is passed. */
A26_INLINE void tia_write_quick(rg__a26_machine *m, bus_regs *r, int32_t clock, int delay)
{
    rg__a26_tia *t = &m->st.tia;
    m->tia_clock = clock + delay;
    if (clock - t->frame_start >= (int32_t)m->max_lines * RG__TIA_LINE) { /* no VSYNC in time */
        regs_set_budget(r, 0);
        m->st.partial = 0;
    }
}

A26_INLINE void tia_wsync(rg__a26_machine *m, bus_regs *r, uint32_t now)
{
    /* the 6507 halts only on a read cycle: the second write of a read-modify-write does not halt it */
    uint32_t phase = rg__tia_line_phase(&m->st.tia, now);
    tia_write_quick(m, r, (int32_t)(now * 3u), 0);
    if (phase && m->prev_write_cycle != now - 1u) {
        regs_set_cycles(r, now + 76u - phase);
        m->write_cycle = now + 76u - phase; /* the next cycle follows this write */
    }
}

/* A TIA write that changes no state at all (the register already holds the value, and nothing derived from it or
 * marked for rebuilding changes; no side effect such as GRP1's copy into the delayed registers): the picture
 * before and after it is the same, so it needs no catch-up, only the clock of the access (+ its delay, which
 * rg__tia_write would have drawn up to) and the line-limit test. Its delay (tia_regs.c's k_delay), or -1 for a
 * write that must go through rg__tia_write. Only registers whose rg__tia_write case leaves every byte of the
 * state alone when the value is the same qualify (NUSIZ and CTRLPF mark bitmaps dirty on every write: not these). */
A26_INLINE int tia_write_idle(const rg__a26_tia *t, unsigned reg, uint8_t v, uint32_t now)
{
    switch (reg) {
    case 0x01: /* VBLANK */
        return t->vblank == v && t->dump == ((v & 0x80u) != 0) ? 1 : -1;
    case 0x06: case 0x07: case 0x08: case 0x09: /* COLUP0..COLUBK */
        return t->colu[reg - 0x06u] == (v & 0xFEu) ? 0 : -1;
    case 0x0B: case 0x0C: /* REFP0, REFP1 */
        return t->refp[reg - 0x0Bu] == (v & 8u) ? 1 : -1;
    case 0x0D: case 0x0E: case 0x0F: /* PF0..PF2: the playfield's delay by the CPU cycle modulo 4 */
        return t->pf[reg - 0x0Du] == v ? rg__tia_pf_delay(t, now) : -1;
    case 0x1B: /* GRP0 (and GRP1's delayed copy) */
        return t->grp[0] == v && t->dgrp[1] == t->grp[1] ? 1 : -1;
    case 0x1C: /* GRP1 (and GRP0's and ENABL's delayed copies) */
        return t->grp[1] == v && t->dgrp[0] == t->grp[0] && t->denabl == t->enabl ? 1 : -1;
    case 0x1D: case 0x1E: /* ENAM0, ENAM1 */
        return t->enam[reg - 0x1Du] == (v & 2u) ? 1 : -1;
    case 0x1F: /* ENABL */
        return t->enabl == (v & 2u) ? 1 : -1;
    case 0x20: return t->hm[RG__TIA_P0] == (v & 0xF0u) ? 0 : -1; /* HMP0 */
    case 0x21: return t->hm[RG__TIA_P1] == (v & 0xF0u) ? 0 : -1; /* HMP1 */
    case 0x22: return t->hm[RG__TIA_M0] == (v & 0xF0u) ? 0 : -1; /* HMM0 */
    case 0x23: return t->hm[RG__TIA_M1] == (v & 0xF0u) ? 0 : -1; /* HMM1 */
    case 0x24: return t->hm[RG__TIA_BL] == (v & 0xF0u) ? 0 : -1; /* HMBL */
    case 0x25: case 0x26: /* VDELP0, VDELP1 */
        return t->vdelp[reg - 0x25u] == (v & 1u) ? 0 : -1;
    case 0x27: /* VDELBL */
        return t->vdelbl == (v & 1u) ? 0 : -1;
    default: return -1;
    }
}

A26_INLINE void bus_write(rg__a26_machine *m, bus_regs *r, uint16_t addr, uint8_t v, int kind)
{
    rg__a26_state *s = &m->st;
    int delay;
    uint32_t now = regs_tick(r);
    s->databus = v;
    m->prev_write_cycle = m->write_cycle;
    m->write_cycle = now;
    if (addr & 0x1000u) {
        if (kind == BUS_E0) {
            if ((addr & 0x0FFFu) >= E0_HOT) {
                rg__a26_cart_write_slow(&s->cart, m->rom, addr & 0x0FFFu, v);
                refresh_slices(m);
            }
        } else if (kind != BUS_PLAIN) {
            rg__a26_cart_write(&s->cart, m->rom, addr, v);
            if (kind == BUS_4K || kind == BUS_FE)
                refresh_bank(m);
        }
        return;
    }
    if (!(addr & 0x80u)) {
        unsigned reg = addr & 0x3Fu;
        if (reg == 0x02u) { /* WSYNC */
            tia_wsync(m, r, now);
        } else if (reg - 0x06u < 4u && !m->video) { /* COLUP0..COLUBK */
            tia_write_quick(m, r, (int32_t)(now * 3u), 0);
            s->tia.colu[reg - 0x06u] = v & 0xFEu;
        } else if ((delay = tia_write_idle(&s->tia, reg, v, now)) >= 0) {
            tia_write_quick(m, r, (int32_t)(now * 3u), delay);
        } else {
            /* the TIA reads the count, may halt the CPU (RSYNC) and may end the run (frame end) */
            s->cycles = now;
            m->budget = regs_budget(r);
            rg__tia_write(m, addr, v);
            r->cb = (uint64_t)s->cycles << CB_SHIFT | m->budget;
        }
    } else if (!(addr & 0x200u)) {
        s->ram[addr & 0x7Fu] = v;
    } else {
        rg__a26_riot_write(&s->riot, addr, v, now);
    }
    if (kind == BUS_ANY && m->snoop)
        rg__a26_cart_snoop(&s->cart, addr & 0x1FFFu, v, 1);
    if (kind == BUS_FE && (s->cart.fe_armed || (addr & 0x1FFFu) == 0x01FEu)) {
        rg__a26_cart_snoop(&s->cart, addr & 0x1FFFu, v, 1);
        refresh_bank(m);
    }
}

/* The timer waits (the loops most games spend their vertical blank and overscan in), fast-forwarded: called at the
 * timer read of a load absolute (LDA, LDX, LDY), with pc after it, when a branch back to the load follows:
 *   L: LDx INTIM / BNE L    while the value is nonzero: skipped while the count is at least one interval;
 *   L: LDx INTIM / BPL L    while bit 7 is clear: skipped while 0 <= count < 128 intervals;
 *   L: LDx INTIM / BMI L    while bit 7 is set: skipped while the count is at least 128 intervals, or after zero
 *                           while it reads $80-$FE (count -128..-2);
 *   L: LDx TIMINT / BPL L   while the timer flag is clear: skipped while the count has not passed zero.
 * Each skipped iteration takes 7 cycles (8 when the branch back crosses a page: its extra read is a ROM read too)
 * and 2 instructions of the run's budget, as the CPU would run it (the skip stops where the budget would run out);
 * the last skipped INTIM read's clearing of the timer flag is kept (a skipped read never sees the count -1, the
 * one that does not clear it), and a TIMINT read's clearing of the PA7 flag. Nothing else sees these iterations:
 * their fetches are plain ROM reads (no bank-switching address: the code must lie in the cart's plain window; no
 * cart that watches the bus), no TIA access, the registers and flags are those the real read then loads, and the
 * data bus holds the load's operand byte again when the real read comes. Counted over ale-py's ROMs (600 frames at
 * frame skip 4): the BPL and BMI forms and page-crossing loops were up to 36% of the instructions some games ran
 * (King Kong, Klax, Frogger, Mr. Do!, Beam Rider, Sir Lancelot, Casino). */
A26_INLINE void timer_wait(rg__a26_machine *m, bus_regs *r, unsigned addr, unsigned pc, int kind)
{
    unsigned lda = (pc - 3u) & 0xFFFFu, end = (pc + 2u) & 0xFFFFu; /* the loop's bytes: lda..end (dummy read) */
    if (!(lda & 0x1000u) || (lda & 0xF000u) != (end & 0xF000u))
        return;
    unsigned cross = (lda & 0xFF00u) != (end & 0xFF00u);
    unsigned a = lda & 0x0FFFu, d = (end & 0x0F00u) | (lda & 0xFFu); /* window offsets: the load, the cross read */
    uint8_t b0, b1;
    if (kind == BUS_PLAIN) {
        b0 = m->rom4k[a + 3u];
        b1 = m->rom4k[a + 4u];
    } else if (kind == BUS_4K || kind == BUS_FE) {
        if ((unsigned)(a - m->fast_lo) >= m->fast_len || (unsigned)(a + 5u - m->fast_lo) >= m->fast_len ||
            (unsigned)(d - m->fast_lo) >= m->fast_len)
            return;
        b0 = m->rom4k[a + 3u];
        b1 = m->rom4k[a + 4u];
    } else { /* BUS_E0 */
        if (a + 5u >= E0_HOT || d >= E0_HOT)
            return;
        b0 = m->slice[(a + 3u) >> 10][(a + 3u) & 0x3FFu];
        b1 = m->slice[(a + 4u) >> 10][(a + 4u) & 0x3FFu];
    }
    if (b1 != 0xFBu) /* a branch back by 5: to the load */
        return;
    rg__a26_riot *riot = &m->st.riot;
    uint32_t first = regs_cycles(r) + 1u, period = 7u + cross; /* the cycle of this read; cycles per iteration */
    int32_t count = rg__a26_riot_count(riot, first), high = (int32_t)128 << riot->shift;
    uint32_t k; /* iterations (this read's first) whose read lets the branch go back */
    if (addr & 1u) { /* TIMINT */
        if (b0 != 0x10u || count < 0)
            return;
        k = (uint32_t)count / period + 1u;
    } else if (b0 == 0xD0u) { /* BNE */
        int32_t least = (int32_t)1 << riot->shift;
        if (count < least)
            return;
        k = (uint32_t)(count - least) / period + 1u;
    } else if (b0 == 0x10u) { /* BPL */
        if (count < 0 || count >= high)
            return;
        k = (uint32_t)count / period + 1u;
    } else if (b0 == 0x30u) { /* BMI */
        if (count >= high)
            k = (uint32_t)(count - high) / period + 1u;
        else if (count <= -2 && count >= -128)
            k = (uint32_t)(count + 128) / period + 1u;
        else
            return;
    } else {
        return;
    }
    if (k > regs_budget(r) / 2u)
        k = regs_budget(r) / 2u;
    if (!k)
        return;
    r->cb += ((uint64_t)(period * k) << CB_SHIFT) - 2u * k;
    if (addr & 1u)
        riot->int_flag &= (uint8_t)~0x40u; /* PA7 */
    else
        riot->cleared = first + period * (k - 1u);
}

A26_INLINE uint8_t bus_read_ld_abs(rg__a26_machine *m, bus_regs *r, uint16_t addr, uint16_t pc, int kind)
{
    /* FE: unless the cart waits for the access after a $01FE one, it sees none of the loop's */
    if ((addr & 0x1284u) == 0x0284u &&
        (kind == BUS_PLAIN || kind == BUS_4K || kind == BUS_E0 || (kind == BUS_FE && !m->st.cart.fe_armed)))
        timer_wait(m, r, addr, pc, kind);
    return bus_read(m, r, addr, kind);
}

/* A frame end (VSYNC, the line limit) empties the budget, so one test covers both. */
A26_INLINE int should_stop(bus_regs *r)
{
    if (regs_budget(r) == 0)
        return 1;
    r->cb--;
    return 0;
}

/* The CPU loops (a26_cpu_<kind>.c): run until the budget is spent or the frame ends; 1 when the CPU jammed. */
int rg__a26_cpu_run_any(rg_m6502 *cpu, rg__a26_machine *m);
int rg__a26_cpu_run_plain(rg_m6502 *cpu, rg__a26_machine *m);
int rg__a26_cpu_run_4k(rg_m6502 *cpu, rg__a26_machine *m);
int rg__a26_cpu_run_e0(rg_m6502 *cpu, rg__a26_machine *m);
int rg__a26_cpu_run_fe(rg_m6502 *cpu, rg__a26_machine *m);

#endif
