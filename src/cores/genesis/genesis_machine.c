/* The Genesis machine (docs/genesis.md): the 68000's memory map (cartridge ROM, Z80 RAM and bus control, I/O with
 * the pads, the VDP's ports, work RAM), the frame loop in Genesis Plus GX's phase, power-on and the state check. */
#include "cores/genesis/genesis.h"

#include "base/base.h"

#include <string.h>

/* --- I/O ($A10000-$A1001F) */

/* the version register: the region (st.region), no expansion unit ($20), hardware version 0 (no TMSS) */
#define VERSION_NO_EXPANSION 0x20u

/* The port's input lines (bits 0-6) of a pad, as Genesis Plus GX models it (a 3-button pad never counts past step 1);
 * 0 = pressed. libretro bits
 * (GPGX's mapping): B 0, A 1 (Y), MODE 2 (SELECT), START 3, UP 4, DOWN 5, LEFT 6, RIGHT 7, C 8 (A), Y 9 (X),
 * X 10 (L), Z 11 (R). step = the count of TH high-to-low edges times 2, plus TH: 3-button reads for steps 0-5, then
 * TH low: ?0SA0000, TH high: ?1CBMXYZ, then ?xSA1111 / ?xCB1111 until the count restarts. */
static uint8_t pad6_lines(uint16_t b, unsigned th, unsigned step)
{
    unsigned up = (b >> 4) & 1u, down = (b >> 5) & 1u, left = (b >> 6) & 1u, right = (b >> 7) & 1u;
    unsigned bb = b & 1u, c = (b >> 8) & 1u, a = (b >> 1) & 1u, start = (b >> 3) & 1u;
    unsigned mode = (b >> 2) & 1u, x = (b >> 10) & 1u, y = (b >> 9) & 1u, z = (b >> 11) & 1u;
    unsigned v = th | 0x3Fu, pressed;
    switch (step) {
    case 1: case 3: case 5:
        pressed = c << 5 | bb << 4 | right << 3 | left << 2 | down << 1 | up;
        break;
    case 0: case 2: case 4:
        pressed = start << 5 | a << 4 | 0x0Cu | down << 1 | up;
        break;
    case 6:
        pressed = start << 5 | a << 4 | 0x0Fu;
        break;
    case 7:
        pressed = c << 5 | bb << 4 | mode << 3 | x << 2 | y << 1 | z;
        break;
    default:
        pressed = th ? (c << 5 | bb << 4) : (start << 5 | a << 4);
        break;
    }
    return (uint8_t)(v & ~pressed);
}

/* A write to a pad port's data or direction register: TH driven by the port (direction bit 6) counts its high-to-low
 * edges; released to input it is pulled high, which the pad sees 172 master clocks later. */
static void pad_write(rg__gen_machine *m, unsigned p)
{
    rg__gen_state *s = &m->st;
    uint8_t th;
    if (s->io_ctrl[p] & 0x40u) {
        th = s->io_data[p] & 0x40u;
        s->pad_latency[p] = 0;
        if (m->pad6 && !th && s->pad_th[p]) {
            s->pad_count[p] = (uint8_t)(s->pad_count[p] + 2u);
            s->pad_timeout[p] = 0;
        }
    } else {
        th = 0x40u;
        if (!s->pad_th[p])
            s->pad_latency[p] = m->insn_mclk + m->freeze_add + 172u;
    }
    s->pad_th[p] = th;
}

/* Once a line: a pad whose TH has not fallen for 26 lines starts its count again. */
void rg__gen_pads_line(rg__gen_state *s)
{
    for (unsigned p = 0; p < 2; p++)
        if (s->pad_timeout[p]++ > 25u) {
            s->pad_count[p] = 0;
            s->pad_timeout[p] = 0;
        }
}

static uint8_t io_read(rg__gen_machine *m, unsigned reg)
{
    rg__gen_state *s = &m->st;
    if (reg == 0)
        return (uint8_t)(s->region | VERSION_NO_EXPANSION);
    if (reg >= 1 && reg <= 3) {
        unsigned p = reg - 1;
        uint8_t ctrl = s->io_ctrl[p];
        uint8_t in = 0x7Fu;
        if (p < 2) {
            unsigned step = s->pad_count[p] | (unsigned)(s->pad_th[p] >> 6);
            if (m->insn_mclk + m->freeze_add < s->pad_latency[p])
                step &= ~1u; /* TH's rise has not reached the pad yet */
            in = pad6_lines(m->pad[p], s->pad_th[p], step);
        }
        return (uint8_t)((s->io_data[p] & 0x80u) | (s->io_data[p] & ctrl & 0x7Fu) | (in & ~ctrl & 0x7Fu));
    }
    if (reg >= 4 && reg <= 6)
        return s->io_ctrl[reg - 4];
    return 0;
}

static void io_write(rg__gen_machine *m, unsigned reg, uint8_t v)
{
    if (reg >= 1 && reg <= 3) {
        m->st.io_data[reg - 1] = v;
        if (reg <= 2)
            pad_write(m, reg - 1u);
    } else if (reg >= 4 && reg <= 6) {
        if (v != m->st.io_ctrl[reg - 4]) {
            m->st.io_ctrl[reg - 4] = v;
            if (reg <= 5)
                pad_write(m, reg - 4u);
        }
    }
}

/* --- the bus */

uint16_t rg__gen_read16(rg__gen_machine *m, uint32_t addr)
{
    rg__gen_state *s = &m->st;
    const uint32_t asked = addr;
    addr &= 0xFFFFFEu;
    if (addr < 0x400000u) {
        if (__builtin_expect(addr >= m->rom_fast, 0)) /* bank-switched ROM or backup RAM */
            return rg__gen_cart_read16(m, addr);
        uint32_t a = addr & m->rom_mask; /* ROM as at power-on (genesis_cart.c keeps rom_fast) */
        return (uint16_t)(m->rom[a] << 8 | m->rom[a + 1]);
    }
    if (addr >= 0xE00000u) {
        uint32_t a = addr & 0xFFFEu;
        return (uint16_t)(s->ram[a + 1] << 8 | s->ram[a]);
    }
    if (addr >= 0xC00000u && addr < 0xE00000u && (addr & 0xE700E0u) == 0xC00000u) {
        unsigned port = addr & 0x1Fu;
        if (port < 4)
            return rg__gen_vdp_data_read(m);
        if (port < 8)
            return rg__gen_vdp_status(m);
        if (port < 0x10)
            return rg__gen_vdp_hv(m);
        return 0xFFFFu;
    }
    if (addr >= 0xA00000u && addr < 0xA10000u) {
        /* the Z80's side (its RAM, the YM2612) answers only while the 68000 holds the Z80's bus out of reset;
         * otherwise the read is open bus (the prefetched word), as in Genesis Plus GX */
        if (!s->z80_busreq || s->z80_reset)
            return s->cpu.irc;
        if (addr < 0xA04000u) { /* Z80 RAM: the byte at the address asked on both halves (odd: a byte read there) */
            uint8_t b = s->zram[asked & 0x1FFFu];
            return (uint16_t)(b << 8 | b);
        }
        if (addr < 0xA06000u) { /* YM2612 status: the timer flags, never busy */
            uint8_t b = rg__gen_ym_read(m, m->insn_mclk);
            return (uint16_t)(b << 8 | b);
        }
        return 0xFFFFu;
    }
    if (addr >= 0xA10000u && addr < 0xA10020u) {
        uint8_t b = io_read(m, (addr >> 1) & 0x0Fu);
        return (uint16_t)(b << 8 | b);
    }
    if (addr == 0xA11100u) /* bit 8: 0 while the 68000 has the Z80's bus */
        return (uint16_t)((s->z80_busreq ? 0u : 0x100u) | (s->cpu.irc & 0xFEFFu));
    return 0;
}

void rg__gen_write16(rg__gen_machine *m, uint32_t addr, uint16_t v, int sel)
{
    rg__gen_state *s = &m->st;
    if ((addr & 1u) && sel == 3 && addr >= 0xE00000u) {
        /* a word at an odd work-RAM address (address errors off, as stable-retro runs Genesis Plus GX): GPGX stores
         * it as a host word at the odd offset of its byte-swapped RAM, so the low byte lands on the even byte below
         * and the high byte on the byte after it (past $FFFFFF: outside work RAM, lost) */
        uint32_t o = addr & 0xFFFFu;
        s->ram[o] = (uint8_t)v;
        if (o + 1u < 0x10000u)
            s->ram[o + 1u] = (uint8_t)(v >> 8);
        return;
    }
    addr &= 0xFFFFFEu;
    if (addr >= 0xE00000u) {
        uint32_t a = addr & 0xFFFEu;
        if (sel & 2)
            s->ram[a + 1] = (uint8_t)(v >> 8);
        if (sel & 1)
            s->ram[a] = (uint8_t)v;
        return;
    }
    if (addr < 0x400000u) {
        rg__gen_cart_write16(m, addr, v, sel); /* backup RAM, or lost */
        return;
    }
    if (addr >= 0xC00000u && (addr & 0xE700E0u) == 0xC00000u) {
        unsigned port = addr & 0x1Fu;
        if (port < 4)
            rg__gen_vdp_data_write(m, v);
        else if (port < 8)
            rg__gen_vdp_ctrl_write(m, v);
        else if (port >= 0x10 && port < 0x18 && (sel & 1)) /* the PSG at the odd addresses */
            rg__gen_psg_write(m, m->insn_mclk, (uint8_t)v);
        return;
    }
    if (addr >= 0xA00000u && addr < 0xA08000u) {
        if (!s->z80_busreq || s->z80_reset) /* not the 68000's bus: nothing happens */
            return;
        /* byte writes reach their byte; a word write stores its high byte at the even address */
        uint32_t a = sel == 1 ? addr + 1u : addr;
        uint8_t b = sel == 1 ? (uint8_t)v : (uint8_t)(v >> 8);
        if (a < 0xA04000u) {
            s->zram[a & 0x1FFFu] = b;
            m->freeze_add += 14u; /* a Z80 RAM write holds the 68000 2 clocks longer (Genesis Plus GX) */
        }
        else if (a < 0xA06000u)
            rg__gen_ym_write(m, m->insn_mclk, a & 3u, b);
        else if (a < 0xA06100u)
            s->z80_bank = (uint16_t)((s->z80_bank >> 1) | (unsigned)(b & 1u) << 8);
        return;
    }
    if (addr >= 0xA10000u && addr < 0xA10020u) {
        if (sel & 1)
            io_write(m, (addr >> 1) & 0x0Fu, (uint8_t)v);
        return;
    }
    if ((addr & 0xFFFF00u) == 0xA13000u) { /* the cartridge's registers (SRAM, banks) */
        rg__gen_cart_time_write(m, addr, v, sel);
        return;
    }
    if (addr == 0xA11100u && (sel & 2)) {
        rg__gen_z80_run_to(m, m->insn_mclk); /* the Z80 catches up to the moment of the request */
        s->z80_busreq = (uint8_t)((v >> 8) & 1u);
        return;
    }
    if (addr == 0xA11200u && (sel & 2)) {
        rg__gen_z80_run_to(m, m->insn_mclk);
        uint8_t held = (uint8_t)!((v >> 8) & 1u);
        if (held && !s->z80_reset)
            rg__gen_z80_reset(m);
        s->z80_reset = held;
        return;
    }
}

static int iack(rg__gen_machine *m, int level)
{
    rg__gen_vdp *v = &m->st.vdp;
    if (level == 6) {
        v->vint = 0;
        v->vflag = 0;
    } else if (level == 4) {
        v->hint = 0;
    }
    m->st.cpu.ipl = (uint8_t)rg__gen_vdp_ipl(v);
    /* the interrupt sequence: the interpreter counts the 68000 manual's 44 clocks; stable-retro's Genesis Plus GX
     * (1.7.4) counts 54 for an autovectored interrupt (its table; upstream has counted 44 plus an E-clock wait of 6-15
     * since 2024), and a game's timing after its first interrupt follows that count (Airstriker's sound driver) */
    m->st.cpu.cycles += 10u;
    return -1;
}

#define M68K_FN gen_m68k_run
#define M68K_CTX rg__gen_machine
/* a byte read at an odd address (sel 1: the lower byte only) reaches the bus with bit 0 set, which only Z80 RAM
 * heeds (its odd byte; a word read or an even byte read gets the even one); sel is a constant 3 at most call sites */
#define M68K_READ(m, addr, sel) gen_read_inline((m), (addr) | (uint32_t)((sel) == 1))

/* The 68000's reads of ROM as at power-on and of work RAM, inline in the interpreter (exception frames, RTE and
 * vector fetches read through here: a call each cost the Dekadrive dump, which loops on a line-F exception, a fifth
 * of its time); the rest through rg__gen_read16, which answers these two the same way. */
static inline uint16_t gen_read_inline(rg__gen_machine *m, uint32_t addr)
{
    if (addr < m->rom_fast) {
        uint32_t a = addr & 0xFFFFFEu & m->rom_mask;
        return (uint16_t)(m->rom[a] << 8 | m->rom[a + 1]);
    }
    if (addr >= 0xE00000u) {
        uint32_t a = addr & 0xFFFEu;
        return (uint16_t)(m->st.ram[a + 1] << 8 | m->st.ram[a]);
    }
    return rg__gen_read16(m, addr);
}

/* The 68000's writes to work RAM at even addresses (stack frames), inline; the rest, odd-address words included,
 * through rg__gen_write16, which stores these the same way. */
static inline void gen_write_inline(rg__gen_machine *m, uint32_t addr, uint16_t v, int sel)
{
    if (addr >= 0xE00000u && !(addr & 1u)) {
        uint32_t a = addr & 0xFFFEu;
        if (sel & 2)
            m->st.ram[a + 1] = (uint8_t)(v >> 8);
        if (sel & 1)
            m->st.ram[a] = (uint8_t)v;
        return;
    }
    rg__gen_write16(m, addr, v, sel);
}
#define M68K_WRITE(m, addr, v, sel) gen_write_inline((m), (addr), (v), (sel))
/* stable-retro's Genesis Plus GX (1.7.4, a Musashi-based 68000 with a clock table per opcode) counts a few
 * register-only instructions otherwise than the 68000 (our interpreter's counts, which the SingleStepTests hold to the
 * chip's; upstream Genesis Plus GX corrected these in 2019-2023): ANDI.L #,Dn 14 clocks (the chip: 16), ADDQ.W #,An 4
 * (8), BTST Dn,#imm 8 (10), and BCHG/BCLR/BSET on a data register always their longest count, which the chip takes
 * only for bits 16-31 (2 fewer for bits 0-15). Equivalence with it (RAM equal every frame) needs its counts:
 * Airstriker's sound driver runs ANDI.L five times per YM2612 register it writes. Returns the clocks to add to the
 * instruction about to run (opcode in ir, its first extension word in irc). Since 10:20 also TRAP #n 38 (34), TRAPV
 * 38 when it traps (34), TAS to memory 4 more, CHK.W Dn,Dx and #imm,Dx when they trap ea + 50 (the chip: ea + 38,
 * or ea + 40 below zero but not above): the counts of its opcode table and exception table (CHK 40); a CHK with its
 * bound in memory is not adjusted. The machine keeps these per opcode (m->quirk, made at power-on), RG__GEN_QUIRK_REG
 * where the count depends on registers (gpgx_clock_quirk_reg). */
static int gpgx_clock_quirk_op(uint16_t op)
{
    if ((op >> 12) == 0xAu || (op >> 12) == 0xFu) /* line A / line F: the whole exception 4 clocks (the chip: 34) */
        return -30;
    if ((op & 0xFFF8u) == 0x0280u) /* ANDI.L #,Dn */
        return -2;
    if ((op & 0xF1F8u) == 0x5048u) /* ADDQ.W #,An */
        return -4;
    if ((op & 0xF1FFu) == 0x013Cu) /* BTST Dn,#imm */
        return -2;
    unsigned t = op & 0xF1F8u;
    if (t == 0x0140u || t == 0x0180u || t == 0x01C0u) /* BCHG/BCLR/BSET Dn,Dn */
        return RG__GEN_QUIRK_REG;
    t = op & 0xFFF8u;
    if (t == 0x0840u || t == 0x0880u || t == 0x08C0u) /* BCHG/BCLR/BSET #,Dn */
        return RG__GEN_QUIRK_REG;
    if ((op & 0xFFF0u) == 0x4E40u) /* TRAP #n */
        return 4;
    if (op == 0x4E76u) /* TRAPV */
        return RG__GEN_QUIRK_REG;
    if ((op & 0xFFC0u) == 0x4AC0u && (op & 0x38u) && op != 0x4AFCu && (op & 0x3Fu) < 0x3Au) /* TAS to memory */
        return RG__GEN_QUIRK_REG;
    if ((op & 0xF1C0u) == 0x4180u && ((op & 0x38u) == 0 || (op & 0x3Fu) == 0x3Cu)) /* CHK.W Dn / #imm,Dx */
        return RG__GEN_QUIRK_REG;
    return 0;
}

/* TAS to memory: GPGX never writes its result back (the console's bus drops the write of its read-modify-write
 * cycle; Gargoyles relies on it). A work-RAM byte it addresses is kept here and put back before the next step
 * (gen_stop's freeze path, with no time added). */
static void tas_keep(rg__gen_machine *m)
{
    const rg_m68k *c = &m->st.cpu;
    uint16_t op = c->ir;
    unsigned mode = (op >> 3) & 7u, n = op & 7u;
    uint32_t a;
    if (mode == 2 || mode == 3)
        a = c->a[n];
    else if (mode == 4)
        a = c->a[n] - (n == 7 ? 2u : 1u);
    else if (mode == 5)
        a = c->a[n] + (uint32_t)(int32_t)(int16_t)c->irc;
    else if (mode == 6) {
        unsigned x = (c->irc >> 12) & 7u;
        uint32_t xv = (c->irc & 0x8000u) ? c->a[x] : c->d[x];
        if (!(c->irc & 0x0800u))
            xv = (uint32_t)(int32_t)(int16_t)xv;
        a = c->a[n] + xv + (uint32_t)(int32_t)(int8_t)c->irc;
    } else if (n == 0)
        a = (uint32_t)(int32_t)(int16_t)c->irc;
    else
        a = (uint32_t)c->irc << 16 | rg__gen_read16(m, c->pc & 0xFFFFFEu);
    a &= 0xFFFFFFu;
    if (a < 0xE00000u)
        return;
    m->tas_at = (a & 0xFFFFu) ^ 1u;
    m->tas_byte = m->st.ram[m->tas_at];
    m->tas_keep = 1;
    m->freeze_to = 1; /* (gen_stop's freeze path: no time added, then the byte put back) */
}

static __attribute__((noinline)) int gpgx_clock_quirk_reg(rg__gen_machine *m, const rg_m68k *c)
{
    uint16_t op = c->ir;
    if ((op & 0xFFC0u) == 0x4AC0u) { /* TAS to memory: 4 more (14 + ea) */
        tas_keep(m);
        return 4;
    }
    if ((op & 0xF000u) == 0x0000u) {
        if (op & 0x0100u) /* BCHG/BCLR/BSET Dn,Dn: bits 16-31's count for every bit */
            return (c->d[(op >> 9) & 7u] & 31u) < 16u ? 2 : 0;
        return (c->irc & 31u) < 16u ? 2 : 0; /* #,Dn */
    }
    if (op == 0x4E76u) /* TRAPV: 38 when it traps */
        return (c->sr & RG_M68K_V) ? 4 : 0;
    /* CHK.W: when it traps, its no-trap count and the 40-clock exception */
    int16_t v = (int16_t)c->d[(op >> 9) & 7u];
    int16_t bound = (int16_t)((op & 0x38u) ? c->irc : c->d[op & 7u]);
    if (v > bound || (v < 0 && (int32_t)bound - v > 32767))
        return 12;
    return v < 0 ? 10 : 0;
}


/* The 68000 in STOP before its next step: if an interrupt ends the STOP now, where its handler starts. Woken at a
 * run's start (a STOP of an earlier run), it starts at that moment, as in Genesis Plus GX; let in by the STOP just
 * run (its new mask below the pending level), GPGX 1.7.4 takes it and then sets its clock to the run's end (its
 * STOP's jump to the end, made even when the interrupt was taken; upstream fixed that in 2019), so the handler
 * starts there (the next gen_stop applies it as a freeze until then). */
static __attribute__((noinline)) void stop_wake(rg__gen_machine *m, unsigned lvl)
{
    const rg_m68k *c = &m->st.cpu;
    if (!(lvl == 7u ? !c->nmi_seen : lvl > ((c->sr >> 8) & 7u)))
        return;
    if (m->stopped_at_start) {
        m->stopped_at_start = 0;
    } else {
        m->stop_irq = 1;
        m->freeze_to = m->stop_mclk;
    }
}

/* Checked before each instruction and exception: ends a DMA's freeze of the 68000 and marks the instruction's
 * start. */
/* gen_stop's rare path: a DMA's freeze of the 68000 ends (or a STOP's interrupt waits for the run's end); a TAS's
 * work-RAM byte is put back */
static __attribute__((noinline)) void freeze_end(rg__gen_machine *m)
{
    rg__gen_state *s = &m->st;
    uint64_t now = s->cpu.cycles * 7u + s->cpu_moff;
    uint64_t to = m->freeze_to ? (m->freeze_to > now || m->stop_irq ? m->freeze_to : now) : now + m->freeze_add;
    m->freeze_add = m->freeze_to = 0;
    m->stop_irq = 0;
    if (m->tas_keep) { /* the TAS just run: its work-RAM byte as it was */
        m->tas_keep = 0;
        s->ram[m->tas_at] = m->tas_byte;
    }
    s->cpu.cycles = to / 7u;
    s->cpu_moff = (uint8_t)(to % 7u);
    m->stop_at = (m->stop_mclk + 6u - s->cpu_moff) / 7u;
}

static inline int gen_stop(rg__gen_machine *m)
{
    rg__gen_state *s = &m->st;
    if (m->freeze_add | m->freeze_to)
        freeze_end(m);
    if (m->ipl_delay && --m->ipl_delay == 0)
        s->cpu.ipl = (uint8_t)rg__gen_vdp_ipl(&s->vdp);
    m->insn_mclk = s->cpu.cycles * 7u + s->cpu_moff;
    if (s->cpu.cycles >= m->stop_at)
        return 1;
    /* the instruction in ir runs next unless an interrupt, a pending trace or STOP comes first (m68k_exec.h's order):
     * Genesis Plus GX's count for it (its bus accesses happen at no other time: the quirks are register-only) */
    int q = m->quirk[s->cpu.ir];
    if (__builtin_expect(!(q | s->cpu.stopped), 1)) /* most instructions: nothing to add, no STOP to leave */
        return 0;
    unsigned lvl = s->cpu.ipl & 7u;
    if (!s->cpu.stopped && !s->cpu.trace_pending && !(lvl == 7u ? !s->cpu.nmi_seen : lvl > ((s->cpu.sr >> 8) & 7u))) {
        if (q == RG__GEN_QUIRK_REG)
            q = gpgx_clock_quirk_reg(m, &s->cpu);
        if (q)
            s->cpu.cycles = (uint64_t)((int64_t)s->cpu.cycles + q);
    } else if (s->cpu.stopped) {
        stop_wake(m, lvl);
    }
    return 0;
}

#define M68K_STOP(m) gen_stop(m)
#define M68K_IACK(m, level) iack((m), (level))
/* the idle-loop skip (m68k_exec.h): ROM and work RAM reads have no side effect and change only by the 68000's writes
 * within one run (the Z80 and the VDP's events run between runs) */
#define M68K_PURE_READ(m, addr) ((addr) < 0x400000u || (addr) >= 0xE00000u)
#define M68K_STOP_AT(m) ((m)->stop_at)
/* a write to work RAM only stores: the exception-storm skip (m68k_exec.h) may repeat a frame written there */
#define M68K_PURE_WRITE(m, addr) ((addr) >= 0xE00000u)
/* and the byte at an even HV counter address ($C00008-$C0000E): the V counter, which changes only at a line's end,
 * where a run ends (frame_pos uses the instruction's start, before the run's stop) */
#define M68K_PURE_BYTE(m, addr)                                                                                 \
    (M68K_PURE_READ((m), (addr) & 0xFFFFFEu) || (((addr) & 0xE700E1u) == 0xC00000u && ((addr) & 0x18u) == 0x08u))
/* stable-retro runs Genesis Plus GX with genesis_plus_gx_addr_error disabled, and games rely on it (Airstriker reads
 * a word at an odd YM2612 address) */
#define M68K_NO_ADDRESS_ERRORS
#include "cpu/m68k/m68k_exec.h"

/* --- power, reset, frame */

static void cpu_reset(rg__gen_machine *m)
{
    uint32_t ssp = (uint32_t)rg__gen_read16(m, 0) << 16 | rg__gen_read16(m, 2);
    uint32_t pc = (uint32_t)rg__gen_read16(m, 4) << 16 | rg__gen_read16(m, 6);
    rg__m68k_reset(&m->st.cpu, ssp, pc, rg__gen_read16(m, pc), rg__gen_read16(m, pc + 2));
}

/* Genesis Plus GX's power-on: the 68000 starts a fixed time into the first frame (which begins at line 192, mode 4's
 * blank): 229 lines and 1004 master clocks, rounded down to the 68000's clock, then its reset's 40 clocks; that first
 * frame has no V interrupt. */
#define POWER_ON_MCLK(s) ((rg__gen_lines(s) - 192u + 159u - ((s)->region & 0x40u ? 27u : 0u)) * RG__GEN_LINE_MCLK + 1004u)

/* The console's region from the ROM header as Genesis Plus GX picks it (core option region_detect "auto", as
 * stable-retro runs it): the field at $1F0 read as "EUR"/"eur"/"Eur", "JAP"/"jap" or "USA"/"usa", else its first 4
 * characters each naming regions (U USA, J and K Japan, E Europe, 0-9 and A-F a bit mask: 1 Japan, 2 Japan PAL, 4
 * USA, 8 Europe; a byte below 16 the same); USA first, then Japan, Europe, Japan PAL; none: USA. Four European
 * games with a wrong header (by product code) are Europe. Returns the version register's bits 7-6. */
static uint8_t header_region(const rg__gen_machine *m)
{
    if (m->rom_mask < 0x1FFu)
        return 0x80u;
    const char *c = (const char *)m->rom + 0x1F0;
    unsigned mask = 0;
    if (!memcmp(c, "EUR", 3) || !memcmp(c, "eur", 3) || !memcmp(c, "Eur", 3))
        mask = 8;
    else if (!memcmp(c, "JAP", 3) || !memcmp(c, "jap", 3))
        mask = 1;
    else if (!memcmp(c, "USA", 3) || !memcmp(c, "usa", 3))
        mask = 4;
    else
        for (unsigned i = 0; i < 4; i++) {
            unsigned ch = (uint8_t)c[i];
            if (ch >= 'a' && ch <= 'z')
                ch -= 'a' - 'A';
            if (ch == 'U')
                mask |= 4;
            else if (ch == 'J' || ch == 'K')
                mask |= 1;
            else if (ch == 'E')
                mask |= 8;
            else if (ch < 16)
                mask |= ch;
            else if (ch >= '0' && ch <= '9')
                mask |= ch - '0';
            else if (ch >= 'A' && ch <= 'F')
                mask |= ch - 'A' + 10;
        }
    uint8_t region = (mask & 4) ? 0x80u : (mask & 1) ? 0x00u : (mask & 8) ? 0xC0u : (mask & 2) ? 0x40u : 0x80u;
    /* the product code field ($182, 12 bytes) of European releases GPGX knows to need PAL */
    static const char *const pal_products[] = {"T-69046-50", "T-120106-00", "T-97126 -50", "T-70096 -00"};
    char product[13];
    memcpy(product, m->rom + 0x182, 12);
    product[12] = '\0';
    for (unsigned i = 0; i < 12; i++)
        if (!product[i])
            product[i] = ' ';
    for (unsigned i = 0; i < sizeof pal_products / sizeof pal_products[0]; i++)
        if (strstr(product, pal_products[i]))
            region = 0xC0u;
    if (strstr(product, "T-45033") && m->rom[0x18E] == 0x0F && m->rom[0x18F] == 0x81) /* Alisia Dragon (Europe) */
        region = 0xC0u;
    return region;
}

void rg__gen_power_on(rg__gen_machine *m)
{
    for (unsigned op = 0; op < 0x10000u; op++)
        m->quirk[op] = (int8_t)gpgx_clock_quirk_op((uint16_t)op);
    memset(&m->st, 0, sizeof m->st);
    rg__gen_cart_power_on(m);
    m->st.z80_reset = 1;
    rg__gen_z80_reset(m);
    rg__gen_psg_power_on(&m->st);
    rg__gen_vdp *v = &m->st.vdp;
    /* register 10 (the H interrupt counter's reload) is $FF at power-on, as Genesis Plus GX sets it from its author's
     * measurements on consoles: H interrupts stay far apart until the game writes it */
    v->reg[10] = 0xFF;
    v->hcounter = 0xFF;
    v->fifo_byte = 1;
    m->st.pad_th[0] = m->st.pad_th[1] = 0x40u;
    m->pad6 = 0;
    for (unsigned i = 0x190; i < 0x19E && m->rom_mask >= 0x19Eu; i++)
        if (m->rom[i] == '6')
            m->pad6 = 1;
    m->st.region = header_region(m);
    v->hv_latched = 1;
    v->vint_skip = 1;
    rg__gen_vdp_view(v);
    v->line = v->view_h;
    rg__m68k_init(&m->st.cpu);
    m->st.cpu.cycles = POWER_ON_MCLK(&m->st) / 7u;
    m->st.z80_cycles = POWER_ON_MCLK(&m->st) / 7u * 7u / 15u;
    cpu_reset(m);
    m->insn_mclk = m->st.cpu.cycles * 7u;
    m->freeze_add = m->freeze_to = 0;
    m->ipl_delay = 0;
    rg__gen_frame_size(m);
}

void rg__gen_frame_size(rg__gen_machine *m)
{
    m->width = m->st.vdp.view_w;
    m->height = m->st.vdp.view_h;
}

void rg__gen_reset_soft(rg__gen_machine *m)
{
    uint64_t cycles = m->st.cpu.cycles;
    rg__m68k_init(&m->st.cpu);
    m->st.cpu.cycles = cycles;
    m->st.vdp.pending = 0;
    m->st.vdp.fill = 0;
    /* the reset button resets the Z80 (held until the 68000 releases it) and the YM2612 too */
    if (!m->st.z80_reset)
        rg__gen_z80_reset(m);
    m->st.z80_reset = 1;
    m->st.z80_busreq = 0;
    rg__gen_cart_reset(m);
    cpu_reset(m);
}

/* Runs the 68000, then the Z80, up to master clock mclk. */
static void run_to(rg__gen_machine *m, uint64_t mclk)
{
    rg__gen_state *s = &m->st;
    if (!m->ipl_delay)
        s->cpu.ipl = (uint8_t)rg__gen_vdp_ipl(&s->vdp);
    m->stop_mclk = mclk;
    m->stop_at = (mclk + 6u - s->cpu_moff) / 7u;
    uint64_t before = s->cpu.cycles * 7u + s->cpu_moff;
    m->stopped_at_start = s->cpu.stopped;
    gen_m68k_run(&s->cpu, m);
    if (s->cpu.cycles < m->stop_at) /* a halted 68000 lets the time pass */
        s->cpu.cycles = m->stop_at;
    /* a 68000 in STOP (which our interpreter passes 4 clocks at a time) is, as in Genesis Plus GX, exactly at the
     * run's end: GPGX's STOP sets its clock to the run's end, and each run while stopped starts there, so an
     * interrupt wakes it at the master clock the VDP raised it (ours woke up to 27 master clocks later, 1-2 steps
     * of the H counter) */
    if (s->cpu.stopped && !s->cpu.halted && before < mclk) {
        s->cpu.cycles = mclk / 7u;
        s->cpu_moff = (uint8_t)(mclk % 7u);
    }
    rg__gen_z80_run_to(m, mclk);
    s->cpu.reset_out = 0;
}

/* Draws line y. Genesis Plus GX draws a line only as wide as the picture it shows: a switch to H40 made in the
 * picture waits for the next frame, and until then the lines are drawn 256 wide, the framebuffer's columns 256-319
 * keeping what they held (black after power-on; the observation reads them, as stable-retro's does GPGX's). */
static void draw_line(rg__gen_machine *m, unsigned y)
{
    if (m->st.vdp.view_w < 320u && (m->st.vdp.reg[12] & 1u)) {
        uint32_t keep[64], *right = m->fb + (size_t)y * RG__GEN_WIDTH + 256u;
        memcpy(keep, right, sizeof keep);
        rg__gen_render_line(m, y);
        memcpy(right, keep, sizeof keep);
    } else {
        rg__gen_render_line(m, y);
    }
}

/* One frame as Genesis Plus GX runs it: the vertical blank first (its first line raises the V interrupt 788 master
 * clocks in and asserts the Z80's INT until the line's end; its last line, 261, reloads the H interrupt counter),
 * then the active lines, each drawn (or its sprites walked) at its start, where the H interrupt counter counts; a
 * line's sprites are read from VRAM one line before (line 0's in line 261), as GPGX does. */
void rg__gen_run_frame(rg__gen_machine *m)
{
    rg__gen_state *s = &m->st;
    rg__gen_vdp *v = &s->vdp;
    uint64_t base = rg__gen_frame_base(s);
    unsigned lines = rg__gen_lines(s);
    if (v->view_changed) {
        rg__gen_vdp_view(v);
        v->view_changed = 0;
    }
    rg__gen_field_start(v);
    unsigned first = v->view_h;
    v->fifo_cnt = 0;
    v->fifo_slots = 0;
    for (unsigned i = 0; i < lines; i++) {
        unsigned line = (first + i) % lines;
        uint64_t t0 = base + (uint64_t)i * RG__GEN_LINE_MCLK;
        v->line = (uint16_t)line;
        rg__gen_pads_line(s);
        if (i == 0) {
            if (v->hcounter == 0)
                v->hint = 1;
            run_to(m, t0 + 788u);
            if (!v->vint_skip) {
                v->vint = 1;
                v->vflag = 1;
                s->z80_int = s->z80.int_line = 1;
            }
            v->vint_skip = 0;
        } else if (line == lines - 1u) {
            v->hcounter = v->reg[10];
            if (v->reg[1] & 0x40u)
                rg__gen_sprite_parse(m, 0);
            else
                m->sprites.next_n[0] = 0; /* GPGX keeps an older list here; none, so a loaded state runs the same */
        } else if (line < first) {
            if (m->video)
                draw_line(m, line);
            else
                rg__gen_sprite_line(m, line);
            if (v->hcounter == 0) {
                v->hcounter = v->reg[10];
                v->hint = 1;
            } else {
                v->hcounter--;
            }
        }
        run_to(m, t0 + RG__GEN_LINE_MCLK);
        s->z80_int = s->z80.int_line = 0;
    }
    s->cpu.ipl = (uint8_t)rg__gen_vdp_ipl(v);
    s->frame++;
    rg__gen_frame_size(m);
}

#define CHECK(cond, what)                                                                                   \
    do {                                                                                                    \
        if (!(cond))                                                                                        \
            return rg__error(RG_ESTATE, "genesis state: bad %s", what);                                     \
    } while (0)

int rg__gen_state_check(const rg__gen_state *s)
{
    const char *why = rg__m68k_check_mode(&s->cpu, 1); /* built with M68K_NO_ADDRESS_ERRORS */
    if (why)
        return rg__error(RG_ESTATE, "genesis state: bad cpu (%s)", why);
    CHECK((s->region & 0x3Fu) == 0 && s->pad4_ == 0, "region");
    uint64_t base = rg__gen_frame_base(s), frame_mclk = rg__gen_frame_mclk(s);
    unsigned lines = rg__gen_lines(s);
    /* at the frame's start, the last instruction's overshoot past it, or a 68000 frozen by a 68000-to-VDP DMA
     * (dma_freeze: its end can lie frames ahead; the longest, 64 Ki words at 16 bytes a line, about 32 frames) */
    CHECK(s->cpu_moff < 7u, "cpu_moff");
    uint64_t now = s->cpu.cycles * 7u + s->cpu_moff; /* the 68000's master clock */
    if (!((now >= base && now < base + 2u * RG__GEN_LINE_MCLK + 32u * frame_mclk) ||
          (s->frame == 0 && s->cpu.cycles == POWER_ON_MCLK(s) / 7u + 40u)))
        return rg__error(RG_ESTATE, "genesis state: bad cpu cycles (master clock %llu, frame %llu starts at %llu)",
                         (unsigned long long)now, (unsigned long long)s->frame, (unsigned long long)base);
    const rg__gen_vdp *v = &s->vdp;
    for (unsigned i = 0; i < 64; i++)
        CHECK((v->cram[i] & ~0x0EEEu) == 0, "vdp.cram");
    for (unsigned i = 0; i < 40; i++)
        CHECK(v->vsram[i] < 0x800u, "vdp.vsram");
    CHECK(v->code < 0x40u, "vdp.code");
    CHECK(v->pending <= 1 && v->fill <= 1 && v->vint <= 1 && v->hint <= 1, "vdp flags");
    CHECK(v->sprite_ovf <= 1 && v->sprite_col <= 1 && v->odd <= 1 && v->vflag <= 1, "vdp status bits");
    CHECK((v->lflags & ~(RG__GEN_LF_SPRMASK | RG__GEN_LF_INTERLACE | RG__GEN_LF_IM2)) == 0 &&
              (!(v->lflags & RG__GEN_LF_IM2) || (v->lflags & RG__GEN_LF_INTERLACE)) &&
              (v->odd == 0 || (v->lflags & RG__GEN_LF_INTERLACE)),
          "vdp.lflags (picture carry and interlace)");
    CHECK(v->view_h == 192u || v->view_h == 224u || v->view_h == 240u, "vdp.view_h");
    CHECK(v->view_w == 256u || v->view_w == 320u, "vdp.view_w");
    CHECK(v->view_changed <= 1 && v->vint_skip <= 1 && v->hv_latched <= 1, "vdp view/latch flags");
    CHECK(v->line == (v->view_h + lines - 1u) % lines || (s->frame == 0 && v->line == v->view_h),
          "vdp.line");
    CHECK(s->z80_busreq <= 1 && s->z80_reset <= 1, "z80 bus control");
    CHECK(s->cpu.ipl == rg__gen_vdp_ipl(v), "cpu.ipl (not the VDP's)");
    CHECK(s->cpu_moff < 7u, "cpu_moff");
    for (unsigned p = 0; p < 2; p++)
        CHECK((s->pad_th[p] & ~0x40u) == 0 && s->pad_count[p] < 0x80u && s->pad_timeout[p] <= 27u, "pad state");
    CHECK(v->fifo_cnt <= 4u && v->fifo_byte <= 1u && v->pad3_ == 0 && v->fifo_idx <= 3u && !v->pad4_[0] &&
          !v->pad4_[1] && !v->pad4_[2], "vdp fifo");
    CHECK(s->dma_end <= base + 32u * frame_mclk, "dma_end (a DMA longer than any)");
    const char *sound = rg__gen_sound_check(s);
    if (sound)
        return rg__error(RG_ESTATE, "genesis state: bad z80/sound (%s)", sound);
    return RG_OK;
}
