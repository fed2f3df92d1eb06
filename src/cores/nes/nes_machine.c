/* The NES machine: the 2A03's bus (RAM, PPU and APU registers, joypads, OAM and DMC DMA, the cartridge), power-on,
 * reset and the frame loop. The PPU and APU are brought up to the CPU lazily (nes.h). */
#include "cores/nes/mapper.h"

#include "base/base.h"

#include <string.h>

#if defined(__GNUC__)
#define NES_INLINE static inline __attribute__((always_inline))
#define NES_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define NES_NOINLINE static __attribute__((noinline))
#else
#define NES_NOINLINE static
#define NES_INLINE static inline
#define NES_UNLIKELY(x) (x)
#endif

#define DMA_NONE 0x100u

/* --- the chips. Running a chip to cycle c processes the cycles before c (it is then at the start of cycle c): what
 * it raises there was raised in an earlier cycle and is shown to the CPU at once. A register write happens in the
 * cycle itself: the NMI edge it raises ($2000 enabling NMI in vblank) is held back one cycle (nes.h). */

static void ppu_catch_up(rg__nes_machine *m, uint64_t cycle)
{
    rg__nes_ppu_run(m, cycle);
}

/* The cartridge's CPU-clocked IRQ counter (VRC4, FME-7, ...) rides on the APU's schedule: m->apu_sync_at is never
 * later than m->cart_sync_at, so a machine without one pays nothing per cycle. */
static void apu_catch_up(rg__nes_machine *m, uint64_t cycle)
{
    if (NES_UNLIKELY(cycle >= m->cart_sync_at))
        rg__nes_cart_clock(m, cycle);
    rg__nes_apu_run(m, cycle);
}

/* A $2002 read may cancel an NMI edge of the cycles just before (the PPU decides): it sees both the edge of this
 * cycle and the one already shown. */
/* A $2002 read at `cycle` that the PPU can answer at its own position (rg__nes_ppu_quiet; tests turn it off with
 * m->idle_off). */
NES_INLINE int status_read_quiet(rg__nes_machine *m, uint64_t cycle)
{
    if (!m->ppu_quiet_ok) {
        if (m->idle_off)
            return 0;
        rg__nes_ppu_quiet(m);
    }
    return cycle < m->ppu_quiet_at;
}

static uint8_t ppu_reg_read(rg__nes_machine *m, unsigned reg)
{
    rg__nes_state *s = &m->st;
    if (reg != 2 || !status_read_quiet(m, s->cycles))
        ppu_catch_up(m, s->cycles);
    if (reg == 7) {
        /* $2007 read in two consecutive cycles (an indexed read whose dummy read and read both hit $2007): the
         * second is not seen (no buffer refill, no address step) and reads the PPU's open bus, the byte the first
         * returned (one of the outcomes blargg's double_2007_read accepts; it depends on the CPU-PPU alignment) */
        uint32_t c = (uint32_t)s->cycles;
        uint32_t prev = s->ppu_data_next;
        s->ppu_data_next = c + 1u;
        if (prev == c && c != 0)
            reg = 0; /* a write-only register: reads the open bus, nothing else */
    }
    uint8_t shown = s->cpu.nmi_pending, next = s->nmi_next;
    s->cpu.nmi_pending = (uint8_t)(shown | next);
    uint8_t v = rg__nes_ppu_read(m, reg);
    if (!s->cpu.nmi_pending) {
        s->nmi_next = 0;
        shown = 0;
    }
    s->cpu.nmi_pending = shown;
    return v;
}

static void ppu_reg_write(rg__nes_machine *m, unsigned reg, uint8_t v)
{
    rg__nes_state *s = &m->st;
    ppu_catch_up(m, s->cycles);
    uint8_t shown = s->cpu.nmi_pending;
    s->cpu.nmi_pending = s->nmi_next;
    rg__nes_ppu_write(m, reg, v);
    s->nmi_next = s->cpu.nmi_pending;
    s->cpu.nmi_pending = shown;
}

/* One CPU cycle starts: the chips catch up where they asked to, and the lines raised before it become visible. */
NES_INLINE void tick(rg__nes_machine *m)
{
    rg__nes_state *s = &m->st;
    uint64_t c = ++s->cycles;
    if (NES_UNLIKELY(s->nmi_next)) {
        s->cpu.nmi_pending = 1;
        s->nmi_next = 0;
    }
    if (NES_UNLIKELY(c >= m->ppu_sync_at))
        ppu_catch_up(m, c);
    if (NES_UNLIKELY(c >= m->apu_sync_at))
        apu_catch_up(m, c);
    s->cpu.irq_line = s->irq != 0;
}

/* --- joypads */

static uint8_t pad_read(rg__nes_machine *m, unsigned p)
{
    rg__nes_state *s = &m->st;
    uint8_t bit;
    uint64_t last = s->pad_read_cycle[p];
    s->pad_read_cycle[p] = s->cycles;
    if (s->pad_strobe) {
        bit = m->buttons[p] & 1u;
    } else if (last + 1u == s->cycles && s->cycles > 1u) {
        bit = s->pad_bit[p]; /* the read of the previous cycle goes on: no new clock */
    } else {
        bit = s->pad_shift[p] & 1u;
        s->pad_shift[p] = (uint8_t)(s->pad_shift[p] >> 1 | 0x80u); /* a standard pad reads 1 after its 8 buttons */
        if (s->pad_read[p] < 8)
            s->pad_read[p]++;
    }
    s->pad_bit[p] = bit;
    return (uint8_t)((s->open_bus & 0xE0u) | bit);
}

static void pad_strobe(rg__nes_machine *m, uint8_t v)
{
    rg__nes_state *s = &m->st;
    uint8_t on = v & 1u;
    if (on || s->pad_strobe) {
        s->pad_shift[0] = m->buttons[0];
        s->pad_shift[1] = m->buttons[1];
        s->pad_read[0] = s->pad_read[1] = 0;
    }
    s->pad_strobe = on;
}

/* --- bus */

/* Everything but RAM and $8000-$FFFF; the cycle has been counted. */
static uint8_t read_slow(rg__nes_machine *m, uint16_t addr)
{
    rg__nes_state *s = &m->st;
    uint8_t v;
    if (addr < 0x4000u) {
        v = ppu_reg_read(m, addr & 7u);
    } else if (addr < 0x4020u) {
        switch (addr) {
        case 0x4015:
            apu_catch_up(m, s->cycles);
            /* an internal register: the data bus keeps its value (bit 5 is open) */
            return (uint8_t)(rg__nes_apu_read_status(m) | (s->open_bus & 0x20u));
        case 0x4016: v = pad_read(m, 0); break;
        case 0x4017: v = pad_read(m, 1); break;
        default: v = s->open_bus; break;
        }
    } else if (addr >= 0x6000u && addr < 0x8000u) {
        v = m->prg_ram_map ? m->prg_ram_map[addr & 0x1FFFu] : s->open_bus;
    } else {
        v = rg__nes_cart_read(m, addr);
    }
    s->open_bus = v;
    return v;
}

/* A read that is one cycle: RAM and ROM inline. */
NES_INLINE uint8_t read_cycle(rg__nes_machine *m, uint16_t addr)
{
    rg__nes_state *s = &m->st;
    tick(m);
    uint8_t v;
    if (addr < 0x2000u)
        v = s->ram[addr & 0x7FFu];
    else if (addr >= 0x8000u)
        v = m->prg_map[(addr >> 13) & 3u][addr & 0x1FFFu];
    else
        return read_slow(m, addr);
    s->open_bus = v;
    return v;
}

static void write_slow(rg__nes_machine *m, uint16_t addr, uint8_t v)
{
    rg__nes_state *s = &m->st;
    if (addr < 0x4000u) {
        ppu_reg_write(m, addr & 7u, v);
    } else if (addr < 0x4020u) {
        if (addr == 0x4014u) {
            s->dma_page = v;
        } else if (addr == 0x4016u) {
            pad_strobe(m, v);
        } else if (addr <= 0x4017u) {
            apu_catch_up(m, s->cycles);
            rg__nes_apu_write(m, addr, v);
        }
    } else {
        rg__nes_cart_write(m, addr, v);
    }
}

NES_INLINE void write_cycle(rg__nes_machine *m, uint16_t addr, uint8_t v)
{
    rg__nes_state *s = &m->st;
    tick(m);
    s->open_bus = v;
    if (addr < 0x2000u)
        s->ram[addr & 0x7FFu] = v;
    else
        write_slow(m, addr, v);
}

/* The DMC's sample fetch: one read cycle on the bus. */
static void dmc_fetch(rg__nes_machine *m)
{
    rg__nes_state *s = &m->st;
    uint8_t v = read_cycle(m, s->apu.dmc_fetch_addr);
    rg__nes_apu_dmc_fill(m, v);
}

/* DMA halts the CPU on a read cycle (`addr`, the read the CPU wanted: the halted CPU repeats it on the bus).
 * Reads of the DMA units happen on odd CPU cycles ("get"; the cycle the APU asks for DMC fetches), writes on even
 * ones.
 * DMC alone: halt, dummy, an alignment cycle when needed, the fetch (3 or 4 cycles).
 * OAM ($4014): halt, an alignment cycle when needed, then 256 reads of page:00-FF each written to $2004 (513 or
 * 514 cycles); a DMC fetch during it takes a get cycle and one more for alignment. */
static void dma(rg__nes_machine *m, uint16_t addr)
{
    rg__nes_state *s = &m->st;
    if (s->dma_page == DMA_NONE) {
        (void)read_cycle(m, addr);
        s->ppu_data_next = 0; /* the halted CPU's repeated $2007 reads are each seen (dma_2007_read) */
        (void)read_cycle(m, addr);
        s->ppu_data_next = 0;
        if (s->cycles & 1u) {
            (void)read_cycle(m, addr);
            s->ppu_data_next = 0;
        }
        if (s->apu.dmc_fetch)
            dmc_fetch(m);
        return;
    }
    uint16_t page = (uint16_t)(s->dma_page << 8);
    s->dma_page = DMA_NONE;
    /* OAM DMA, cycle by cycle. A DMC fetch asked for meanwhile needs a halt and a dummy cycle first: any DMA cycle
     * counts as those (the OAM DMA's own included), then it takes the next get cycle, and the OAM DMA realigns
     * (usually 2 cycles stolen; 1 or 3 when the fetch falls at the OAM DMA's end). */
    unsigned dmc_wait = s->apu.dmc_fetch ? 2u : 0u; /* halt and dummy cycles the DMC fetch still needs */
    unsigned dmc_on = s->apu.dmc_fetch != 0;
    (void)read_cycle(m, addr); /* halt */
    s->ppu_data_next = 0;
    if (dmc_wait)
        dmc_wait--;
    unsigned i = 0, have = 0;
    uint8_t v = 0;
    while (i < 256 || dmc_on) {
        if (!dmc_on && s->apu.dmc_fetch) {
            dmc_on = 1;
            dmc_wait = 2;
        }
        int get = (s->cycles & 1u) == 0; /* the next cycle is odd */
        unsigned ready = dmc_on && !dmc_wait;
        if (dmc_wait)
            dmc_wait--;
        if (get && ready) {
            dmc_fetch(m);
            dmc_on = 0;
        } else if (get && i < 256 && !have) {
            v = read_cycle(m, (uint16_t)(page | i));
            have = 1;
        } else if (!get && have) {
            tick(m);
            ppu_reg_write(m, 4, v);
            have = 0;
            i++;
        } else {
            (void)read_cycle(m, addr); /* alignment, or a DMC dummy cycle */
            s->ppu_data_next = 0;
        }
    }
}

NES_INLINE uint8_t bus_read(rg__nes_machine *m, uint16_t addr)
{
    rg__nes_state *s = &m->st;
    if (NES_UNLIKELY((s->dma_page != DMA_NONE) | (s->apu.dmc_fetch != 0))) /* one branch for both */
        dma(m, addr);
    return read_cycle(m, addr);
}

/* --- the interpreter's bus: a cycle counter in a register
 *
 * Inside nes_cpu_run the cycle count lives in a local (`fast.cyc`, stored to st.cycles before anything else looks at
 * it) beside `fast.lim`, the first cycle at which tick() has more to do than count: a chip's sync point, or the next
 * cycle at once when an interrupt line must follow st.irq or st.nmi_next, or a DMA waits. A RAM or PRG-ROM access
 * before that cycle is the cycle count and the byte; every other access goes through bus_read / write_cycle above,
 * so the machine behaves as if every cycle went through tick(). */
typedef struct nes_fast {
    uint64_t cyc;      /* st.cycles */
    uint64_t lim;      /* tick() only counts before this cycle */
    uint64_t stop;     /* M6502_STOP: the run's end (0 once the frame is done) */
    /* the idle-loop watch (loop_boundary): instruction boundaries since the last slow cycle or write */
    unsigned last_pc;  /* the last boundary's pc */
    unsigned loop_pc;  /* the last boundary that moved pc backwards (above $FFFF: none) */
    unsigned loop_rep; /* loops of loop_len cycles in a row that came back to it */
    uint64_t loop_cyc; /* the cycle of that boundary */
    uint64_t loop_len;
    unsigned not_loop; /* a loop head whose code is no idle loop (above $FFFF: none); PRG-ROM changes only by a
                        * slow cycle, which clears it */
} nes_fast;

/* What tick() and bus_read() would do beyond counting, from the next cycle on. */
NES_INLINE void fast_load(const rg__nes_machine *m, nes_fast *f)
{
    const rg__nes_state *s = &m->st;
    f->cyc = s->cycles;
    f->last_pc = 0;
    f->loop_pc = 0x10000u; /* no loop seen since the last slow cycle */
    f->not_loop = 0x10000u;
    f->stop = m->frame_done ? 0 : m->cycle_cap;
    if (s->nmi_next || s->cpu.irq_line != (s->irq != 0) || s->dma_page != DMA_NONE || s->apu.dmc_fetch)
        f->lim = 0;
    else
        f->lim = m->ppu_sync_at < m->apu_sync_at ? m->ppu_sync_at : m->apu_sync_at;
}

/* The accesses that do more than count (out of line: the interpreter inlines its accesses hundreds of times). */
NES_NOINLINE uint8_t fast_read_slow(rg__nes_machine *m, nes_fast *f, uint16_t addr)
{
    uint64_t c = f->cyc + 1;
    if ((addr & 0xE007u) == 0x2002u && c < f->lim && status_read_quiet(m, c)) {
        /* $2002 answered at the PPU's position: before lim no interrupt line is due (ppu_reg_read's edge
         * handling has nothing to do), and nothing else changes, so the idle-loop watch goes on */
        f->cyc = c;
        uint8_t v = rg__nes_ppu_read(m, 2);
        m->st.open_bus = v;
        return v;
    }
    m->st.cycles = f->cyc;
    uint8_t v = bus_read(m, addr);
    fast_load(m, f);
    return v;
}

NES_NOINLINE void fast_write_slow(rg__nes_machine *m, nes_fast *f, uint16_t addr, uint8_t v)
{
    m->st.cycles = f->cyc;
    write_cycle(m, addr, v);
    fast_load(m, f);
}

NES_INLINE uint8_t fast_read(rg__nes_machine *m, nes_fast *f, uint16_t addr)
{
    uint64_t c = f->cyc + 1;
    if (NES_UNLIKELY(c >= f->lim) || (addr >= 0x2000u && addr < 0x8000u))
        return fast_read_slow(m, f, addr);
    f->cyc = c;
    uint8_t v = addr < 0x2000u ? m->st.ram[addr & 0x7FFu] : m->prg_map[(addr >> 13) & 3u][addr & 0x1FFFu];
    m->st.open_bus = v;
    return v;
}

NES_INLINE void fast_write(rg__nes_machine *m, nes_fast *f, uint16_t addr, uint8_t v)
{
    uint64_t c = f->cyc + 1;
    if (NES_UNLIKELY(c >= f->lim) || addr >= 0x2000u) {
        fast_write_slow(m, f, addr, v);
        return;
    }
    f->cyc = c;
    f->loop_pc = 0x10000u; /* a write: no idle loop */
    m->st.open_bus = v;
    m->st.ram[addr & 0x7FFu] = v;
}

/* --- idle loops
 *
 * Games wait for their NMI in a loop that does nothing but read: `A: JMP A`, or `A: LDA mem [CMP/AND #imm] Bxx A`
 * on a byte only the NMI handler changes. Such a loop in PRG-ROM runs in one step up to the next cycle at which
 * anything can change. The watch is kept at instruction boundaries (M6502_STOP, with the interpreter's pc): a
 * boundary whose pc is not above the one before records it as a loop head A. When the boundary at A comes back twice
 * in a row after exactly the cycles of the loop decoded at A, with no slow cycle and no write since (either clears
 * the watch):
 * - the CPU ran that loop twice, its branch taken (an interrupt sequence writes; a branch not taken leaves too few
 *   cycles to come back), reading the same byte;
 * - the boundary at A in between took no interrupt with the poll state the loop leaves (none: the boundary before
 *   it cleared it, and the branch samples the same lines throughout) and the interrupt lines and I as they are now;
 * - until a slow cycle (f->lim) nothing changes the lines, the byte (RAM changes only by CPU writes) or the poll
 *   state, so every later loop runs the same: its reads have no effect but the bus value, which at A is the same
 *   after every loop, and the run stops only at the boundaries M6502_STOP sees (f->stop). So the cycles of whole
 *   loops up to lim are counted at once. */

/* A byte of PRG-ROM ($8000-$FFFF). */
static uint8_t prg_byte(const rg__nes_machine *m, unsigned a)
{
    return m->prg_map[(a >> 13) & 3u][a & 0x1FFFu];
}

/* The cycles of one loop of a pure idle loop at a ($8000-$FFFF), or 0 when the code there is none; *status set when
 * the loop reads $2002 (answered at the PPU's position until m->ppu_quiet_at, the same byte after the first). */
static unsigned idle_loop_cycles(const rg__nes_machine *m, unsigned a, int *status)
{
    *status = 0;
    if (a < 0x8000u || a > 0xFFF5u)
        return 0;
    uint8_t op = prg_byte(m, a);
    if (op == 0x4Cu) /* JMP a */
        return (prg_byte(m, a + 1u) | (unsigned)prg_byte(m, a + 2u) << 8) == a ? 3u : 0u;
    unsigned n, b;
    if (op == 0xA5u) { /* LDA zp */
        n = 3;
        b = a + 2u;
    } else if (op == 0xADu) { /* LDA abs: RAM, PRG-ROM or $2002 (other reads are slow cycles) */
        unsigned at = prg_byte(m, a + 1u) | (unsigned)prg_byte(m, a + 2u) << 8;
        *status = (at & 0xE007u) == 0x2002u;
        if (at >= 0x2000u && at < 0x8000u && !*status)
            return 0;
        n = 4;
        b = a + 3u;
    } else {
        return 0;
    }
    op = prg_byte(m, b);
    if (op == 0xC9u || op == 0x29u) { /* CMP #imm, AND #imm */
        n += 2;
        b += 2u;
        op = prg_byte(m, b);
    }
    if ((op & 0x1Fu) != 0x10u) /* a conditional branch */
        return 0;
    unsigned next = b + 2u, rel = prg_byte(m, b + 1u);
    unsigned to = (next + rel - ((rel & 0x80u) << 1)) & 0xFFFFu;
    if (to != a || ((to ^ next) & 0xFF00u)) /* back to a, within the page (3 cycles) */
        return 0;
    return n + 3u;
}

/* A boundary at pc not above the last one's (see above). */
static void loop_boundary(rg__nes_machine *m, nes_fast *f, unsigned pc)
{
    uint64_t c = f->cyc;
    if (pc != f->loop_pc) {
        f->loop_pc = pc;
        f->loop_rep = 0;
        f->loop_cyc = c;
        return;
    }
    uint64_t len = c - f->loop_cyc;
    f->loop_rep = len == f->loop_len ? f->loop_rep + 1u : 1u;
    f->loop_len = len;
    f->loop_cyc = c;
    int status;
    if (f->loop_rep < 2 || m->idle_off || pc == f->not_loop)
        return;
    unsigned n = idle_loop_cycles(m, pc, &status);
    if (n != len) {
        if (n == 0)
            f->not_loop = pc; /* a busy loop (a delay count, say): not decoded again at every turn */
        return;
    }
    /* k loops: cycles c + 1 .. c + k len fast (below lim), the boundaries before c + k len not stopping; a $2002
     * loop's reads before ppu_quiet_at (the watch survived, so its reads were answered so: ppu_quiet_ok holds) */
    uint64_t room = f->lim - 1u - c;
    if (status) {
        if (!m->ppu_quiet_ok || m->ppu_quiet_at <= c + 1u)
            return;
        if (m->ppu_quiet_at - 1u - c < room)
            room = m->ppu_quiet_at - 1u - c;
    }
    uint64_t by_stop = f->stop > c ? f->stop - c : 0;
    if (by_stop < room)
        room = by_stop;
    f->cyc = c + room / len * len;
    f->loop_cyc = f->cyc;
    m->idle_cycles += room / len * len;
}

/* M6502_STOP: at an instruction boundary (pc: the interpreter's program counter, taken modulo 2^16). */
NES_INLINE int boundary(rg__nes_machine *m, nes_fast *f, unsigned pc)
{
    pc &= 0xFFFFu;
    if (NES_UNLIKELY(pc <= f->last_pc))
        loop_boundary(m, f, pc);
    f->last_pc = pc;
    return f->cyc >= f->stop;
}

/* Reads at the program counter (almost always PRG-ROM) and zero-page/stack accesses (always RAM). */
NES_INLINE uint8_t fast_fetch(rg__nes_machine *m, nes_fast *f, uint16_t addr)
{
    uint64_t c = f->cyc + 1;
    if (NES_UNLIKELY(c >= f->lim) || addr < 0x8000u)
        return fast_read(m, f, addr);
    f->cyc = c;
    uint8_t v = m->prg_map[(addr >> 13) & 3u][addr & 0x1FFFu];
    m->st.open_bus = v;
    return v;
}

NES_INLINE uint8_t fast_read_zp(rg__nes_machine *m, nes_fast *f, uint16_t addr)
{
    uint64_t c = f->cyc + 1;
    if (NES_UNLIKELY(c >= f->lim))
        return fast_read_slow(m, f, addr);
    f->cyc = c;
    uint8_t v = m->st.ram[addr & 0x1FFu];
    m->st.open_bus = v;
    return v;
}

NES_INLINE void fast_write_zp(rg__nes_machine *m, nes_fast *f, uint16_t addr, uint8_t v)
{
    uint64_t c = f->cyc + 1;
    if (NES_UNLIKELY(c >= f->lim)) {
        fast_write_slow(m, f, addr, v);
        return;
    }
    f->cyc = c;
    f->loop_pc = 0x10000u;
    m->st.open_bus = v;
    m->st.ram[addr & 0x1FFu] = v;
}

#define M6502_FN nes_cpu_run
#define M6502_CTX rg__nes_machine
#define M6502_FETCH(ctx, addr) fast_fetch((ctx), &fast, (addr))
#define M6502_READ_ZP(ctx, addr) fast_read_zp((ctx), &fast, (addr))
#define M6502_WRITE_ZP(ctx, addr, v) fast_write_zp((ctx), &fast, (addr), (v))
#define M6502_ENTER(ctx) nes_fast fast; fast_load((ctx), &fast)
#define M6502_LEAVE(ctx) ((ctx)->st.cycles = fast.cyc)
#define M6502_READ(ctx, addr) fast_read((ctx), &fast, (addr))
#define M6502_WRITE(ctx, addr, v) fast_write((ctx), &fast, (addr), (v))
/* checked before each instruction; `pc` is the interpreter's program counter (m6502_exec.h) */
#define M6502_STOP(ctx) boundary((ctx), &fast, pc)
#define M6502_DECIMAL 0
#define M6502_LINES_LATE 1 /* interrupt lines are raised one cycle late (see tick) */
#define M6502_LXA_MAGIC 0xFFu /* the 2A03's LXA */
#include "cpu/m6502/m6502_exec.h"

/* --- power, reset, frames */

/* The CPU's reset sequence: 7 cycles whose stack accesses are reads; s -= 3, I set, pc from $FFFC. */
static void cpu_reset(rg__nes_machine *m)
{
    rg__nes_state *s = &m->st;
    for (int i = 0; i < 5; i++)
        (void)read_cycle(m, (uint16_t)(i < 2 ? s->cpu.pc : 0x100u | (uint8_t)(s->cpu.s - (i - 2))));
    s->cpu.s = (uint8_t)(s->cpu.s - 3u);
    s->cpu.p |= RG_M6502_I;
    uint16_t lo = read_cycle(m, 0xFFFC), hi = read_cycle(m, 0xFFFD);
    s->cpu.pc = (uint16_t)(lo | hi << 8);
    s->cpu.jammed = 0;
    s->cpu.poll = RG__M6502_POLL_NOW;
    s->cpu.poll_arg = 0;
}

void rg__nes_power_on(rg__nes_machine *m)
{
    rg__nes_state *s = &m->st;
    rg__nes_cart cart = s->cart; /* battery RAM survives power cycles */
    memset(s, 0, sizeof *s);
    s->cart = cart;
    memset(s->ram, 0xFF, sizeof s->ram); /* FCEUmm's power-on RAM */
    rg__m6502_init(&s->cpu);
    s->cpu.no_decimal = 1;
    s->dma_page = DMA_NONE;
    rg__nes_ppu_power(&s->ppu);
    rg__nes_apu_power(&s->apu);
    rg__nes_cart_power(m);
    m->ppu_sync_at = 0;
    m->apu_sync_at = 0;
    m->frame_done = 0;
    cpu_reset(m);
}

void rg__nes_soft_reset(rg__nes_machine *m)
{
    rg__nes_state *s = &m->st;
    ppu_catch_up(m, s->cycles);
    apu_catch_up(m, s->cycles);
    rg__nes_ppu_reset(&s->ppu);
    rg__nes_apu_reset(&s->apu);
    s->dma_page = DMA_NONE;
    s->nmi_next = 0;
    s->cpu.nmi_pending = 0;
    m->ppu_sync_at = 0;
    m->apu_sync_at = 0;
    cpu_reset(m);
}

void rg__nes_run_frame(rg__nes_machine *m)
{
    rg__nes_state *s = &m->st;
    m->frame_done = 0;
    m->alen = 0;
    m->cycle_cap = s->cycles + RG__NES_RUN_CYCLES_MAX;
    /* the chips recompute when they must next run (a state may have been loaded) */
    ppu_catch_up(m, s->cycles);
    apu_catch_up(m, s->cycles);
    if (nes_cpu_run(&s->cpu, m)) {
        /* jammed: time goes on (the PPU still ends frames) until a reset */
        while (!m->frame_done && s->cycles < m->cycle_cap)
            tick(m);
    }
    ppu_catch_up(m, s->cycles);
    apu_catch_up(m, s->cycles);
    s->frame++;
}

int rg__nes_state_check(const rg__nes_state *s, const rg__nes_machine *m)
{
    const char *why = rg__m6502_check(&s->cpu);
    if (why)
        return rg__error(RG_ESTATE, "nes state: %s", why);
    if (s->cpu.nmi_pending > 1 || s->cpu.irq_line > 1 || s->cpu.no_decimal != 1)
        return rg__error(RG_ESTATE, "nes state: cpu interrupt lines or decimal flag out of range");
    if (s->nmi_next > 1)
        return rg__error(RG_ESTATE, "nes state: nmi_next above 1");
    if (s->irq & ~(RG__NES_IRQ_FRAME | RG__NES_IRQ_DMC | RG__NES_IRQ_MAPPER))
        return rg__error(RG_ESTATE, "nes state: unknown irq source bits");
    if (s->pad_strobe > 1 || s->pad_read[0] > 8 || s->pad_read[1] > 8 || s->pad_bit[0] > 1 || s->pad_bit[1] > 1)
        return rg__error(RG_ESTATE, "nes state: joypad strobe or read count out of range");
    if (s->dma_page > DMA_NONE)
        return rg__error(RG_ESTATE, "nes state: dma_page above 0x100");
    if (s->dmc_halt > 1)
        return rg__error(RG_ESTATE, "nes state: dmc_halt above 1");
    if (s->cycles > ((uint64_t)1 << 52))
        return rg__error(RG_ESTATE, "nes state: cycles beyond any run");
    if ((why = rg__nes_ppu_check(&s->ppu)) != NULL)
        return rg__error(RG_ESTATE, "nes state: %s", why);
    if ((why = rg__nes_apu_check(&s->apu)) != NULL)
        return rg__error(RG_ESTATE, "nes state: %s", why);
    if ((s->irq & (RG__NES_IRQ_FRAME | RG__NES_IRQ_DMC)) != rg__nes_apu_irq_bits(&s->apu))
        return rg__error(RG_ESTATE, "nes state: the irq sources disagree with the APU's flags");
    if (m->cart_clocked && s->cart.clock_cycle > s->cycles)
        return rg__error(RG_ESTATE, "nes state: the mapper's counter is ahead of the CPU (clock_cycle > cycles)");
    if ((why = rg__nes_cart_check(m, &s->cart)) != NULL)
        return rg__error(RG_ESTATE, "nes state: %s", why);
    return RG_OK;
}
