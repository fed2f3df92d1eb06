/* Include-template generating the 68000 interpreter (behaviour in m68k.h and docs/m68k.md).
 *
 * Before including this file, define:
 *   M68K_FN                   name of the generated function: static int M68K_FN(rg_m68k *cpu, M68K_CTX *ctx)
 *   M68K_CTX                  type of the bus context
 *   M68K_READ(ctx, addr, sel) returns the 16-bit word at the even 24-bit address addr; sel: 3 both bytes, 2 upper
 *                             only (UDS, even byte), 1 lower only (LDS, odd byte); one bus cycle of 4 clocks
 *   M68K_WRITE(ctx, addr, v, sel)  writes the 16-bit v (a byte write has the byte in both halves) with the selects
 *   M68K_STOP(ctx)            checked before each instruction; nonzero: return
 * and optionally:
 *   M68K_IACK(ctx, level)     vector number for an interrupt of that level, or -1 for the autovector (default -1)
 *   M68K_NO_ADDRESS_ERRORS    (defined) odd word/long accesses and jumps raise no address error; the access is made
 *                             at the even address below
 *   M68K_PURE_READ(ctx, addr) nonzero when reading the word at addr has no side effect and gives the same value until
 *                             the 68000 itself writes there, for the rest of this call (ROM, work RAM); with
 *   M68K_STOP_AT(ctx)         the clock from which M68K_STOP is true (it must be `cpu->cycles >= M68K_STOP_AT(ctx)`)
 *   M68K_PURE_BYTE(ctx, addr) (optional, default M68K_PURE_READ of the word) the same for a byte read at addr, which
 *                             may be odd: a byte that keeps its value until M68K_STOP_AT though its word does not
 *                             (a counter's upper byte that changes only at the run's end)
 *                             these turn on the idle-loop skip: a backward Bcc.s around one instruction that only tests
 *                             such memory (TST, CMP <ea>,Dn, CMPI, BTST on (An), d16(An), abs.w, abs.l), once one
 *                             whole turn has been timed, jumps over the turns that would start before the stop. Each
 *                             turn repeats the last exactly (same registers, memory, flags; no interrupt can arrive
 *                             within the call, since ipl changes only through the bus), so the state after the skip
 *                             is the one the turns would leave: only the time the host spends differs.
 *
 * cpu->cycles grows by 4 before each bus call and by the idle clocks of the instruction, so the bus may read it.
 * The function returns 0 when M68K_STOP stopped it, 1 when the CPU is halted (double fault). It may be included
 * several times in one translation unit with different M68K_FN.
 */
#include <setjmp.h>
#include "cpu/m68k/m68k.h"

#if !defined(M68K_FN) || !defined(M68K_CTX) || !defined(M68K_READ) || !defined(M68K_WRITE) || !defined(M68K_STOP)
#error "define M68K_FN, M68K_CTX, M68K_READ, M68K_WRITE and M68K_STOP before including m68k_exec.h"
#endif
#ifndef M68K_IACK
#define M68K_IACK(ctx, level) (-1)
#endif

#ifndef RG_CPU_M68K_EXEC_HELPERS
#define RG_CPU_M68K_EXEC_HELPERS
#define RG__M68K_CAT2(a, b) a##b
#define RG__M68K_CAT(a, b) RG__M68K_CAT2(a, b)

static const uint32_t rg__m68k_mask[3] = {0xFFu, 0xFFFFu, 0xFFFFFFFFu};
static const uint32_t rg__m68k_msb[3] = {0x80u, 0x8000u, 0x80000000u};

static inline int rg__m68k_cond(uint16_t sr, int cc)
{
    int c = sr & 1, v = (sr >> 1) & 1, z = (sr >> 2) & 1, n = (sr >> 3) & 1;
    switch (cc) {
    case 0: return 1;
    case 1: return 0;
    case 2: return !c && !z;
    case 3: return c || z;
    case 4: return !c;
    case 5: return c;
    case 6: return !z;
    case 7: return z;
    case 8: return !v;
    case 9: return v;
    case 10: return !n;
    case 11: return n;
    case 12: return n == v;
    case 13: return n != v;
    case 14: return !z && n == v;
    default: return z || n != v;
    }
}

/* Allowed effective-address classes: bit i for mode i (0..6), bits 7..11 for mode 7 registers 0..4. */
#define RG__M68K_EA_ALL 0xFFFu
#define RG__M68K_EA_DATA 0xFFDu
#define RG__M68K_EA_MEMALT 0x1FCu
#define RG__M68K_EA_DATALT 0x1FDu
#define RG__M68K_EA_ALT 0x1FFu
#define RG__M68K_EA_CTRL 0x7E4u
static inline int rg__m68k_ea_ok(unsigned mode, unsigned reg, unsigned cls)
{
    unsigned bit = mode < 7 ? mode : (reg < 5 ? 7 + reg : 31);
    return bit < 31 && ((cls >> bit) & 1);
}
#endif

#define F_(n) RG__M68K_CAT(M68K_FN, RG__M68K_CAT(__, n))

typedef struct F_(run) {
    rg_m68k *c;
    M68K_CTX *ctx;
    uint32_t pc0;    /* pc when the instruction started */
    uint32_t aepc;   /* the PC an address error pushes */
#ifdef M68K_PURE_READ
    uint64_t insns;       /* instructions started in this call */
    uint64_t loop_insns;  /* insns and cycles when the idle-loop candidate's head was last reached */
    uint64_t loop_cycles;
    uint32_t loop_head;   /* that head (odd: none) */
    int loop_pure;        /* the body's verdict while the loop keeps turning: 0 not yet asked, 1 pure, -1 not */
#endif
    jmp_buf jb;
} F_(run);

typedef struct F_(ea) {
    int kind;        /* 0 data register, 1 address register, 2 memory, 3 immediate */
    int pcrel;
    uint32_t addr;   /* memory address, register number or immediate value */
} F_(ea);

#define C (r->c)
#define IDLE(n) (C->cycles += (unsigned)(n))
#define SUP (C->sr & RG_M68K_S)
#define FC_DATA (SUP ? 5 : 1)
#define FC_PROG (SUP ? 6 : 2)

static void F_(set_sr)(F_(run) *r, uint32_t v)
{
    v &= RG_M68K_SR_MASK;
    if ((v ^ C->sr) & RG_M68K_S) {
        uint32_t t = C->a[7];
        C->a[7] = C->other_sp;
        C->other_sp = t;
    }
    C->sr = (uint16_t)v;
}

static void F_(addr_error)(F_(run) *r, uint32_t addr, int read, int instr, int fc);

static inline uint16_t F_(bus_r)(F_(run) *r, uint32_t addr, int sel)
{
    C->cycles += 4;
    return (uint16_t)(M68K_READ(r->ctx, (addr & 0xFFFFFEu), sel));
}
static inline void F_(bus_w)(F_(run) *r, uint32_t addr, uint16_t v, int sel)
{
    C->cycles += 4;
#ifdef M68K_NO_ADDRESS_ERRORS
    /* a word at an odd address (no address error in this build) reaches the machine with bit 0 set */
    M68K_WRITE(r->ctx, sel == 3 ? addr & 0xFFFFFFu : addr & 0xFFFFFEu, v, sel);
#else
    M68K_WRITE(r->ctx, (addr & 0xFFFFFEu), v, sel);
#endif
}
static inline uint32_t F_(rd)(F_(run) *r, uint32_t addr, int sz, int fc)
{
    if (sz == 0) {
        uint16_t w = F_(bus_r)(r, addr, (addr & 1) ? 1 : 2);
        return (addr & 1) ? (w & 0xFFu) : (uint32_t)(w >> 8);
    }
    if (addr & 1)
        F_(addr_error)(r, addr, 1, 0, fc);
    if (sz == 1)
        return F_(bus_r)(r, addr, 3);
    uint32_t hi = F_(bus_r)(r, addr, 3);
    return hi << 16 | F_(bus_r)(r, addr + 2, 3);
}
static inline void F_(wr)(F_(run) *r, uint32_t addr, int sz, uint32_t v)
{
    if (sz == 0) {
        F_(bus_w)(r, addr, (uint16_t)((v & 0xFF) * 0x101u), (addr & 1) ? 1 : 2);
        return;
    }
    if (addr & 1)
        F_(addr_error)(r, addr, 0, 0, FC_DATA);
    if (sz == 1) {
        F_(bus_w)(r, addr, (uint16_t)v, 3);
        return;
    }
    F_(bus_w)(r, addr, (uint16_t)(v >> 16), 3);
    F_(bus_w)(r, addr + 2, (uint16_t)v, 3);
}
/* Takes the word in irc (an extension word) and refills it. */
static inline uint16_t F_(ext)(F_(run) *r)
{
    uint16_t w = C->irc;
    C->irc = F_(bus_r)(r, C->pc, 3);
    C->pc += 2;
    return w;
}
static inline uint32_t F_(ext32)(F_(run) *r)
{
    uint32_t hi = F_(ext)(r);
    return hi << 16 | F_(ext)(r);
}
/* The prefetch that ends an instruction: irc moves to ir, a new irc is read. */
static inline void F_(prefetch)(F_(run) *r)
{
    C->ir = C->irc;
    C->irc = F_(bus_r)(r, C->pc, 3);
    C->pc += 2;
}
/* Fills the queue from a new address (branches, jumps, returns, exceptions); idle clocks between the two reads. */
static void F_(jump)(F_(run) *r, uint32_t to, int idle)
{
    if (to & 1) {
        C->pc = to;
        F_(addr_error)(r, to, 1, 0, FC_PROG);
    }
    C->pc = to;
    C->ir = F_(bus_r)(r, C->pc, 3);
    IDLE(idle);
    C->irc = F_(bus_r)(r, C->pc + 2, 3);
    C->pc += 4;
}
static inline void F_(push16)(F_(run) *r, uint32_t v)
{
    C->a[7] -= 2;
    F_(wr)(r, C->a[7], 1, v);
}
static inline void F_(push32)(F_(run) *r, uint32_t v)
{
    C->a[7] -= 4;
    if (C->a[7] & 1)
        F_(addr_error)(r, C->a[7], 0, 0, FC_DATA);
    F_(bus_w)(r, C->a[7], (uint16_t)(v >> 16), 3);
    F_(bus_w)(r, C->a[7] + 2, (uint16_t)v, 3);
}
static inline uint32_t F_(pop32)(F_(run) *r)
{
    uint32_t v = F_(rd)(r, C->a[7], 2, FC_DATA);
    C->a[7] += 4;
    return v;
}

/* Group 1 and 2 exceptions: frame of PC and SR, vector fetch, queue refill. */
static void F_(exception)(F_(run) *r, int vec, uint32_t pushed_pc, int idle)
{
    uint16_t old = C->sr;
    F_(set_sr)(r, (old | RG_M68K_S) & ~RG_M68K_T);
    IDLE(idle);
    C->a[7] -= 6;
    if (C->a[7] & 1)
        F_(addr_error)(r, C->a[7], 0, 0, 5);
    F_(bus_w)(r, C->a[7] + 4, (uint16_t)pushed_pc, 3);
    F_(bus_w)(r, C->a[7], old, 3);
    F_(bus_w)(r, C->a[7] + 2, (uint16_t)(pushed_pc >> 16), 3);
    uint32_t to = F_(rd)(r, (uint32_t)vec * 4u, 2, 5);
    C->stopped = 0;
    F_(jump)(r, to, 2);
}

/* Address error: the 7-word frame, then vector 3. Leaves through the instruction's jmp_buf. */
static void F_(addr_error)(F_(run) *r, uint32_t addr, int read, int instr, int fc)
{
#ifdef M68K_NO_ADDRESS_ERRORS
    /* the machine turned address errors off (as Genesis Plus GX runs under stable-retro): the access goes on at
     * the even address below */
    (void)r, (void)addr, (void)read, (void)instr, (void)fc;
    return;
#endif
    if (r->pc0 == 0xFFFFFFFFu) { /* a fault while building a group 0 frame: the chip halts */
        C->halted = 1;
        longjmp(r->jb, 2);
    }
    uint32_t pushed = r->aepc;
    uint16_t old = C->sr;
    r->pc0 = 0xFFFFFFFFu;
    C->cycles += 4 + 8;
    F_(set_sr)(r, (old | RG_M68K_S) & ~RG_M68K_T);
    uint32_t sp = C->a[7] - 14;
    C->a[7] = sp;
    if (sp & 1) {
        C->halted = 1;
        longjmp(r->jb, 2);
    }
    F_(bus_w)(r, sp + 12, (uint16_t)pushed, 3);
    F_(bus_w)(r, sp + 8, old, 3);
    F_(bus_w)(r, sp + 10, (uint16_t)(pushed >> 16), 3);
    F_(bus_w)(r, sp + 6, C->ir, 3);
    F_(bus_w)(r, sp + 4, (uint16_t)addr, 3);
    F_(bus_w)(r, sp, (uint16_t)((C->ir & 0xFFE0u) | (read ? 0x10u : 0u) | (instr ? 0x08u : 0u) | (unsigned)fc), 3);
    F_(bus_w)(r, sp + 2, (uint16_t)(addr >> 16), 3);
    uint32_t to = F_(rd)(r, 12, 2, 5);
    C->stopped = 0;
    F_(jump)(r, to, 2);
    longjmp(r->jb, 1);
}

/* Effective address: computes the address (extension words, pre-decrement, index idle clocks). */
#if defined(M68K_PURE_READ) && defined(M68K_PURE_WRITE)
#define RG__M68K_STORM 1
static void F_(storm)(F_(run) *r, uint32_t head, uint32_t rte);
#endif

static F_(ea) F_(ea_calc)(F_(run) *r, unsigned mode, unsigned reg, int sz)
{
    F_(ea) e = {2, 0, 0};
    switch (mode) {
    case 0: e.kind = 0; e.addr = reg; break;
    case 1: e.kind = 1; e.addr = reg; break;
    case 2: e.addr = C->a[reg]; break;
    case 3:
        e.addr = C->a[reg];
        if (sz == 2 && (e.addr & 1)) /* a long access faults before the increment */
            break;
        C->a[reg] += (sz == 0) ? (reg == 7 ? 2 : 1) : (sz == 1 ? 2 : 4);
        break;
    case 4:
        IDLE(2);
        if (sz != 2)
            r->aepc = r->pc0;
        C->a[reg] -= (sz == 0) ? (reg == 7 ? 2 : 1) : (sz == 1 ? 2 : 4);
        e.addr = C->a[reg];
        break;
    case 5: e.addr = C->a[reg] + (uint32_t)(int32_t)(int16_t)F_(ext)(r); break;
    case 6: {
        uint16_t x = F_(ext)(r);
        uint32_t xr = (x & 0x8000) ? C->a[(x >> 12) & 7] : C->d[(x >> 12) & 7];
        if (!(x & 0x800))
            xr = (uint32_t)(int32_t)(int16_t)xr;
        IDLE(2);
        e.addr = C->a[reg] + xr + (uint32_t)(int32_t)(int8_t)x;
        break;
    }
    default:
        switch (reg) {
        case 0: e.addr = (uint32_t)(int32_t)(int16_t)F_(ext)(r); r->aepc = C->pc - 2; break;
        case 1: e.addr = F_(ext32)(r); r->aepc = C->pc - 2; break;
        case 2: e.pcrel = 1; e.addr = C->pc - 2; e.addr += (uint32_t)(int32_t)(int16_t)F_(ext)(r); break;
        case 3: {
            uint32_t base = C->pc - 2;
            uint16_t x = F_(ext)(r);
            uint32_t xr = (x & 0x8000) ? C->a[(x >> 12) & 7] : C->d[(x >> 12) & 7];
            if (!(x & 0x800))
                xr = (uint32_t)(int32_t)(int16_t)xr;
            IDLE(2);
            e.pcrel = 1;
            e.addr = base + xr + (uint32_t)(int32_t)(int8_t)x;
            break;
        }
        default:
            e.kind = 3;
            e.addr = sz == 2 ? F_(ext32)(r) : (sz == 1 ? F_(ext)(r) : (F_(ext)(r) & 0xFFu));
            break;
        }
    }
    return e;
}
static inline uint32_t F_(ea_read)(F_(run) *r, F_(ea) e, int sz)
{
    switch (e.kind) {
    case 0: return C->d[e.addr] & rg__m68k_mask[sz];
    case 1: return C->a[e.addr] & rg__m68k_mask[sz];
    case 2: return F_(rd)(r, e.addr, sz, e.pcrel ? FC_PROG : FC_DATA);
    default: return e.addr;
    }
}
static inline void F_(ea_write)(F_(run) *r, F_(ea) e, int sz, uint32_t v)
{
    if (e.kind == 0)
        C->d[e.addr] = (C->d[e.addr] & ~rg__m68k_mask[sz]) | (v & rg__m68k_mask[sz]);
    else if (e.kind == 1)
        C->a[e.addr] = v;
    else
        F_(wr)(r, e.addr, sz, v);
}

/* The write of a read-modify-write instruction: a long goes low word first. */
static inline void F_(ea_write_rmw)(F_(run) *r, F_(ea) e, int sz, uint32_t v)
{
    if (e.kind != 2 || sz != 2) {
        F_(ea_write)(r, e, sz, v);
        return;
    }
    if (e.addr & 1)
        F_(addr_error)(r, e.addr, 0, 0, FC_DATA);
    F_(bus_w)(r, e.addr + 2, (uint16_t)v, 3);
    F_(bus_w)(r, e.addr, (uint16_t)(v >> 16), 3);
}

static inline void F_(nz)(F_(run) *r, uint32_t v, int sz)
{
    uint16_t f = C->sr & ~(RG_M68K_N | RG_M68K_Z | RG_M68K_V | RG_M68K_C);
    v &= rg__m68k_mask[sz];
    if (!v)
        f |= RG_M68K_Z;
    if (v & rg__m68k_msb[sz])
        f |= RG_M68K_N;
    C->sr = f;
}
/* a + b (+ x); flags; addx keeps Z when the result is 0. */
static inline uint32_t F_(add)(F_(run) *r, uint32_t a, uint32_t b, int x, int sz, int setx, int addx)
{
    uint32_t m = rg__m68k_mask[sz], s = rg__m68k_msb[sz];
    a &= m; b &= m;
    uint64_t full = (uint64_t)a + b + (unsigned)x;
    uint32_t res = (uint32_t)full & m;
    uint16_t f = C->sr & (uint16_t)~(RG_M68K_N | RG_M68K_V | RG_M68K_C | (setx ? RG_M68K_X : 0) | (addx ? 0 : RG_M68K_Z));
    if (full > m) f |= RG_M68K_C | (setx ? RG_M68K_X : 0);
    if (res & s) f |= RG_M68K_N;
    if (~(a ^ b) & (a ^ res) & s) f |= RG_M68K_V;
    if (addx) { if (res) f &= ~RG_M68K_Z; }
    else if (!res) f |= RG_M68K_Z;
    C->sr = f;
    return res;
}
/* a - b (- x); cmp: X untouched. */
static inline uint32_t F_(sub)(F_(run) *r, uint32_t a, uint32_t b, int x, int sz, int setx, int subx)
{
    uint32_t m = rg__m68k_mask[sz], s = rg__m68k_msb[sz];
    a &= m; b &= m;
    uint64_t full = (uint64_t)a - b - (unsigned)x;
    uint32_t res = (uint32_t)full & m;
    uint16_t f = C->sr & (uint16_t)~(RG_M68K_N | RG_M68K_V | RG_M68K_C | (setx ? RG_M68K_X : 0) | (subx ? 0 : RG_M68K_Z));
    if ((uint64_t)b + (unsigned)x > a) f |= RG_M68K_C | (setx ? RG_M68K_X : 0);
    if (res & s) f |= RG_M68K_N;
    if ((a ^ b) & (a ^ res) & s) f |= RG_M68K_V;
    if (subx) { if (res) f &= ~RG_M68K_Z; }
    else if (!res) f |= RG_M68K_Z;
    C->sr = f;
    return res;
}
static inline uint32_t F_(abcd)(F_(run) *r, uint32_t src, uint32_t dst)
{
    uint32_t x = (C->sr >> 4) & 1;
    uint32_t ss = dst + src + x;
    uint32_t bc = ((dst & src) | (~ss & dst) | (~ss & src)) & 0x88u;
    uint32_t dc = (((ss + 0x66u) ^ ss) & 0x110u) >> 1;
    uint32_t corf = (bc | dc) - ((bc | dc) >> 2);
    uint32_t res = ss + corf;
    uint16_t f = C->sr & (uint16_t)~(RG_M68K_X | RG_M68K_N | RG_M68K_V | RG_M68K_C);
    if (((bc | (ss & ~res)) >> 7) & 1) f |= RG_M68K_X | RG_M68K_C;
    if (((~ss & res) >> 7) & 1) f |= RG_M68K_V;
    if (res & 0x80u) f |= RG_M68K_N;
    if (res & 0xFFu) f &= ~RG_M68K_Z;
    C->sr = f;
    return res & 0xFFu;
}
static inline uint32_t F_(sbcd)(F_(run) *r, uint32_t src, uint32_t dst)
{
    uint32_t x = (C->sr >> 4) & 1;
    uint32_t dd = dst - src - x;
    uint32_t bc = ((~dst & src) | (dd & ~dst) | (dd & src)) & 0x88u;
    uint32_t corf = bc - (bc >> 2);
    uint32_t res = dd - corf;
    uint16_t f = C->sr & (uint16_t)~(RG_M68K_X | RG_M68K_N | RG_M68K_V | RG_M68K_C);
    if (((bc | (~dd & res)) >> 7) & 1) f |= RG_M68K_X | RG_M68K_C;
    if (((dd & ~res) >> 7) & 1) f |= RG_M68K_V;
    if (res & 0x80u) f |= RG_M68K_N;
    if (res & 0xFFu) f &= ~RG_M68K_Z;
    C->sr = f;
    return res & 0xFFu;
}

/* Shifts and rotates: kind 0 AS, 1 LS, 2 ROX, 3 RO; left or right; count 0..63. */
static uint32_t F_(shift)(F_(run) *r, int kind, int left, uint32_t v, int cnt, int sz)
{
    uint32_t m = rg__m68k_mask[sz], s = rg__m68k_msb[sz];
    uint16_t f = C->sr & (uint16_t)~(RG_M68K_N | RG_M68K_Z | RG_M68K_V | RG_M68K_C);
    uint32_t x = (C->sr >> 4) & 1, c = 0, vflag = 0;
    v &= m;
    for (int i = 0; i < cnt; i++) {
        uint32_t out;
        if (left) {
            out = (v & s) ? 1u : 0u;
            uint32_t in = kind == 2 ? x : (kind == 3 ? out : 0u);
            uint32_t nv = ((v << 1) | in) & m;
            if (kind == 0 && ((nv ^ v) & s))
                vflag = 1;
            v = nv;
        } else {
            out = v & 1u;
            uint32_t in = kind == 0 ? ((v & s) ? 1u : 0u) : kind == 2 ? x : kind == 3 ? out : 0u;
            v = (v >> 1) | (in ? s : 0u);
        }
        c = out;
        if (kind != 3)
            x = out;
    }
    if (cnt == 0)
        c = kind == 2 ? x : 0u;
    if (c) f |= RG_M68K_C;
    if (vflag) f |= RG_M68K_V;
    if (!v) f |= RG_M68K_Z;
    if (v & s) f |= RG_M68K_N;
    if (kind != 3 && cnt > 0)
        f = (uint16_t)((f & ~RG_M68K_X) | (x ? RG_M68K_X : 0));
    C->sr = f;
    return v;
}

static int F_(divu_idle)(uint32_t dividend, uint16_t divisor)
{
    uint32_t hd = (uint32_t)divisor << 16;
    int mc = 38;
    for (int i = 0; i < 15; i++) {
        uint32_t t = dividend;
        dividend <<= 1;
        if ((int32_t)t < 0) {
            dividend -= hd;
        } else {
            mc += 2;
            if (dividend >= hd) {
                dividend -= hd;
                mc--;
            }
        }
    }
    return mc * 2;
}
static int F_(divs_idle)(int32_t dividend, int16_t divisor)
{
    int mc = 6;
    if (dividend < 0)
        mc++;
    uint32_t ad = dividend < 0 ? 0u - (uint32_t)dividend : (uint32_t)dividend;
    uint32_t av = divisor < 0 ? (uint32_t)(-(int32_t)divisor) : (uint32_t)divisor;
    if ((ad >> 16) >= av)
        return (mc + 2) * 2;
    mc += 55;
    if (divisor >= 0) {
        if (dividend >= 0) mc--;
        else mc++;
    }
    uint32_t q = ad / av;
    for (int i = 0; i < 15; i++) {
        if (!(q & 0x8000u))
            mc++;
        q <<= 1;
    }
    return mc * 2;
}

#define ILLEGAL() do { F_(exception)(r, 4, r->pc0 - 4, 4); return; } while (0)
#define PRIV() do { if (!SUP) { F_(exception)(r, 8, r->pc0 - 4, 4); return; } } while (0)
#define EAOK(m, rg, cls) do { if (!rg__m68k_ea_ok((m), (rg), (cls))) ILLEGAL(); } while (0)

/* MOVEM; dir 0 registers to memory, 1 memory to registers. */
static void F_(movem)(F_(run) *r, uint16_t op)
{
    int sz = (op & 0x40) ? 2 : 1, dir = (op >> 10) & 1;
    unsigned mode = (op >> 3) & 7, reg = op & 7;
    if (dir ? !rg__m68k_ea_ok(mode, reg, 0x7ECu) : !rg__m68k_ea_ok(mode, reg, 0x1F4u))
        ILLEGAL();
    uint16_t mask = F_(ext)(r);
    uint32_t addr;
    int step = sz == 2 ? 4 : 2;
    if (mode == 3 || mode == 4) {
        addr = C->a[reg];
    } else {
        F_(ea) e = F_(ea_calc)(r, mode, reg, sz);
        addr = e.addr;
    }
    r->aepc = C->pc;
    if (dir == 0) {
        if (mode == 4) {
            for (int i = 15; i >= 0; i--) {
                if (!(mask & (1u << (15 - i))))
                    continue;
                addr -= (uint32_t)step;
                uint32_t v = i < 8 ? C->d[i] : C->a[i - 8];
                if (sz == 2) {
                    if (addr & 1) F_(addr_error)(r, addr + 2, 0, 0, FC_DATA);
                    F_(bus_w)(r, addr + 2, (uint16_t)v, 3);
                    F_(bus_w)(r, addr, (uint16_t)(v >> 16), 3);
                } else {
                    F_(wr)(r, addr, 1, v);
                }
            }
            C->a[reg] = addr;
        } else {
            for (int i = 0; i < 16; i++) {
                if (!(mask & (1u << i)))
                    continue;
                F_(wr)(r, addr, sz, i < 8 ? C->d[i] : C->a[i - 8]);
                addr += (uint32_t)step;
            }
        }
    } else {
        int fc = (mode == 7 && reg >= 2) ? FC_PROG : FC_DATA;
        for (int i = 0; i < 16; i++) {
            if (!(mask & (1u << i)))
                continue;
            uint32_t v = F_(rd)(r, addr, sz, fc);
            if (sz == 1)
                v = (uint32_t)(int32_t)(int16_t)v;
            if (i < 8) C->d[i] = v;
            else C->a[i - 8] = v;
            addr += (uint32_t)step;
        }
        F_(rd)(r, addr, 1, fc); /* the extra read */
        if (mode == 3)
            C->a[reg] = addr;
    }
    F_(prefetch)(r);
}

static void F_(line0)(F_(run) *r, uint16_t op)
{
    unsigned mode = (op >> 3) & 7, reg = op & 7;
    if (op & 0x100) {
        if (mode == 1) { /* MOVEP */
            unsigned dn = (op >> 9) & 7;
            int lng = (op >> 6) & 1, tomem = (op >> 7) & 1;
            uint32_t addr = C->a[reg] + (uint32_t)(int32_t)(int16_t)F_(ext)(r);
            int n = lng ? 4 : 2;
            if (tomem) {
                for (int i = 0; i < n; i++)
                    F_(wr)(r, addr + 2u * (unsigned)i, 0, C->d[dn] >> (8 * (n - 1 - i)));
            } else {
                uint32_t v = 0;
                for (int i = 0; i < n; i++)
                    v = v << 8 | F_(rd)(r, addr + 2u * (unsigned)i, 0, FC_DATA);
                if (lng) C->d[dn] = v;
                else C->d[dn] = (C->d[dn] & 0xFFFF0000u) | v;
            }
            F_(prefetch)(r);
            return;
        }
    }
    int bitop = (op & 0x100) || ((op >> 9) & 7) == 4;
    if (bitop) {
        int kind = (op >> 6) & 3; /* 0 BTST 1 BCHG 2 BCLR 3 BSET */
        uint32_t bit;
        if (op & 0x100) {
            EAOK(mode, reg, kind == 0 ? RG__M68K_EA_DATA : RG__M68K_EA_DATALT);
            bit = C->d[(op >> 9) & 7];
        } else {
            EAOK(mode, reg, kind == 0 ? 0x7FDu : RG__M68K_EA_DATALT);
            bit = F_(ext)(r);
        }
        if (mode == 0) {
            bit &= 31;
            uint32_t m = 1u << bit;
            uint32_t v = C->d[reg];
            C->sr = (uint16_t)((C->sr & ~RG_M68K_Z) | ((v & m) ? 0 : RG_M68K_Z));
            if (kind == 1) v ^= m;
            else if (kind == 2) v &= ~m;
            else if (kind == 3) v |= m;
            C->d[reg] = v;
            F_(prefetch)(r);
            if (kind == 0) IDLE(2);
            else if (kind == 2) IDLE(bit < 16 ? 4 : 6);
            else IDLE(bit < 16 ? 2 : 4);
            return;
        }
        bit &= 7;
        F_(ea) e = F_(ea_calc)(r, mode, reg, 0);
        uint32_t v = F_(ea_read)(r, e, 0);
        C->sr = (uint16_t)((C->sr & ~RG_M68K_Z) | ((v & (1u << bit)) ? 0 : RG_M68K_Z));
        if (kind == 0) {
            F_(prefetch)(r);
            if (mode == 7 && reg == 4)
                IDLE(2);
            return;
        }
        if (kind == 1) v ^= 1u << bit;
        else if (kind == 2) v &= ~(1u << bit);
        else v |= 1u << bit;
        F_(prefetch)(r);
        F_(ea_write)(r, e, 0, v);
        return;
    }
    int which = (op >> 9) & 7, sz = (op >> 6) & 3;
    if (which == 7 || sz == 3)
        ILLEGAL();
    if (mode == 7 && reg == 4 && (which == 0 || which == 1 || which == 5)) { /* to CCR / SR */
        if (sz == 2)
            ILLEGAL();
        if (sz == 1)
            PRIV();
        uint32_t imm = F_(ext)(r);
        uint32_t cur = C->sr;
        uint32_t v = which == 0 ? cur | imm : which == 1 ? cur & imm : cur ^ imm;
        if (sz == 0)
            v = (cur & 0xFF00u) | (v & 0xFFu);
        F_(set_sr)(r, v);
        IDLE(8);
        F_(bus_r)(r, C->pc - 2, 3); /* re-read of the queue */
        F_(prefetch)(r);
        return;
    }
    EAOK(mode, reg, which == 6 ? 0x7FDu : RG__M68K_EA_DATALT);
    uint32_t imm = sz == 2 ? F_(ext32)(r) : (sz == 1 ? F_(ext)(r) : (F_(ext)(r) & 0xFFu));
    r->aepc = C->pc - 2;
    F_(ea) e = F_(ea_calc)(r, mode, reg, sz);
    if (mode == 4 && sz != 2)
        r->aepc = C->pc;
    uint32_t d = F_(ea_read)(r, e, sz), res;
    switch (which) {
    case 0: res = d | imm; F_(nz)(r, res, sz); break;
    case 1: res = d & imm; F_(nz)(r, res, sz); break;
    case 2: res = F_(sub)(r, d, imm, 0, sz, 1, 0); break;
    case 3: res = F_(add)(r, d, imm, 0, sz, 1, 0); break;
    case 5: res = d ^ imm; F_(nz)(r, res, sz); break;
    default:
        F_(sub)(r, d, imm, 0, sz, 0, 0);
        F_(prefetch)(r);
        if (sz == 2 && mode == 0) IDLE(2);
        return;
    }
    F_(prefetch)(r);
    if (mode == 0 && sz == 2) IDLE(4);
    F_(ea_write_rmw)(r, e, sz, res);
}

static void F_(move)(F_(run) *r, uint16_t op)
{
    int sz = (op >> 12) == 1 ? 0 : (op >> 12) == 3 ? 1 : 2;
    unsigned sm = (op >> 3) & 7, sr = op & 7, dm = (op >> 6) & 7, dr = (op >> 9) & 7;
    EAOK(sm, sr, RG__M68K_EA_ALL);
    if (sz == 0 && sm == 1) ILLEGAL();
    if (dm == 1) {
        if (sz == 0) ILLEGAL();
        F_(ea) e = F_(ea_calc)(r, sm, sr, sz);
        uint32_t v = F_(ea_read)(r, e, sz);
        C->a[dr] = sz == 1 ? (uint32_t)(int32_t)(int16_t)v : v;
        F_(prefetch)(r);
        return;
    }
    EAOK(dm, dr, RG__M68K_EA_DATALT);
    F_(ea) e = F_(ea_calc)(r, sm, sr, sz);
    uint32_t v = F_(ea_read)(r, e, sz);
    uint16_t sr_before = C->sr;
    F_(nz)(r, v, sz);
    uint32_t pc_src = C->pc;
    if (dm == 4) {
        r->aepc = pc_src;
        if (sz == 2 && (C->a[dr] & 1)) { /* the long write faults after the queue read, before the decrement */
            F_(bus_r)(r, C->pc, 3);
            F_(addr_error)(r, C->a[dr] - 2, 0, 0, FC_DATA);
        }
        C->a[dr] -= (sz == 0) ? (dr == 7 ? 2 : 1) : (sz == 1 ? 2 : 4);
        F_(prefetch)(r);
        if (sz == 2) { /* low word first */
            F_(bus_w)(r, C->a[dr] + 2, (uint16_t)v, 3);
            F_(bus_w)(r, C->a[dr], (uint16_t)(v >> 16), 3);
        } else {
            F_(wr)(r, C->a[dr], sz, v);
        }
        return;
    }
    if ((dm == 2 || dm == 3) && sz && (C->a[dr] & 1)) { /* faults before the increment */
        r->aepc = pc_src;
        if (sz == 2) { /* the flags as far as the chip got: from the low word after a memory read, else none */
            if (sm >= 2 && !(sm == 7 && sr == 4)) {
                F_(nz)(r, v, 1);
            } else {
                C->sr = sr_before;
            }
        }
        F_(wr)(r, C->a[dr], sz, v);
#ifdef M68K_NO_ADDRESS_ERRORS
        /* no fault: that was the write; the instruction ends as without one (else it wrote twice, 4 clocks more) */
        if (dm == 3)
            C->a[dr] += sz == 1 ? 2u : 4u;
        F_(prefetch)(r);
        return;
#endif
    }
    if (dm == 7 && dr == 1 && sm >= 2 && !(sm == 7 && sr == 4)) {
        /* after a memory read, (xxx).l: the second address word is refilled after the write */
        uint32_t hi = F_(ext)(r);
        F_(ea) d = {2, 0, hi << 16 | C->irc};
        r->aepc = pc_src;
        if (sz == 2 && (d.addr & 1)) {
            uint16_t f = sr_before & (uint16_t)~(RG_M68K_N | RG_M68K_Z | RG_M68K_V | RG_M68K_C);
            if (!(v >> 16)) f |= RG_M68K_Z;
            if (v & 0x80000000u) f |= RG_M68K_N;
            C->sr = f;
        }
        F_(ea_write)(r, d, sz, v);
        F_(ext)(r);
        F_(prefetch)(r);
        return;
    }
    F_(ea) d = F_(ea_calc)(r, dm, dr, sz);
    r->aepc = pc_src + (dm == 7 && dr == 1 && sm < 2 ? 2u : 0u);
    if (sz == 2 && dm >= 5 && (d.addr & 1)) { /* N and Z from the high word; V and C not yet */
        uint16_t f = sr_before & (uint16_t)~(RG_M68K_N | RG_M68K_Z);
        if ((sm >= 2 && !(sm == 7 && sr == 4)) || (dm == 7 && dr == 1)) /* V and C already cleared */
            f &= (uint16_t)~(RG_M68K_V | RG_M68K_C);
        if (!(v >> 16)) f |= RG_M68K_Z;
        if (v & 0x80000000u) f |= RG_M68K_N;
        C->sr = f;
    }
    if (dm == 7 && dr == 1) {
        F_(ea_write)(r, d, sz, v);
        F_(prefetch)(r);
        return;
    }
    F_(ea_write)(r, d, sz, v);
    F_(prefetch)(r);
}

static void F_(line4)(F_(run) *r, uint16_t op)
{
    unsigned mode = (op >> 3) & 7, reg = op & 7;
    int sz = (op >> 6) & 3;
    if (op & 0x100) {
        if ((op & 0x1C0) == 0x1C0) { /* LEA */
            EAOK(mode, reg, RG__M68K_EA_CTRL);
            F_(ea) e = F_(ea_calc)(r, mode, reg, 2);
            if (mode == 6 || (mode == 7 && reg == 3)) IDLE(2);
            C->a[(op >> 9) & 7] = e.addr;
            F_(prefetch)(r);
            return;
        }
        if ((op & 0x1C0) == 0x180) { /* CHK.w */
            EAOK(mode, reg, RG__M68K_EA_DATA);
            F_(ea) e = F_(ea_calc)(r, mode, reg, 1);
            int16_t bound = (int16_t)F_(ea_read)(r, e, 1);
            int16_t v = (int16_t)C->d[(op >> 9) & 7];
            uint16_t f = C->sr & (uint16_t)~(RG_M68K_N | RG_M68K_Z | RG_M68K_V | RG_M68K_C);
            if (!v) f |= RG_M68K_Z;
            if (v < 0 || v > bound) {
                if (v < 0) f |= RG_M68K_N;
                C->sr = f;
                /* below zero but not above the bound: 2 clocks more unless bound - v overflows 16 bits */
                IDLE(v > bound || (int32_t)bound - v > 32767 ? 4 : 6);
                F_(exception)(r, 6, C->pc - 2, 4);
                return;
            }
            C->sr = f;
            IDLE(6);
            F_(prefetch)(r);
            return;
        }
        ILLEGAL();
    }
    switch ((op >> 8) & 0xF) {
    case 0x0: case 0x2: case 0x4: case 0x6: {
        int which = (op >> 9) & 3; /* 0 NEGX 1 CLR 2 NEG 3 NOT */
        if (sz == 3) {
            if (which == 0) { /* MOVE from SR */
                EAOK(mode, reg, RG__M68K_EA_DATALT);
                F_(ea) e = F_(ea_calc)(r, mode, reg, 1);
                if (mode == 0) {
                    F_(prefetch)(r);
                    IDLE(2);
                    F_(ea_write)(r, e, 1, C->sr);
                } else {
                    F_(ea_read)(r, e, 1);
                    F_(prefetch)(r);
                    F_(ea_write)(r, e, 1, C->sr);
                }
                return;
            }
            if (which == 1) ILLEGAL();
            if (which == 3) PRIV();
            EAOK(mode, reg, RG__M68K_EA_DATA);
            F_(ea) e = F_(ea_calc)(r, mode, reg, 1);
            uint32_t v = F_(ea_read)(r, e, 1);
            IDLE(4);
            if (which == 2) F_(set_sr)(r, (C->sr & 0xFF00u) | (v & 0xFFu));
            else F_(set_sr)(r, v);
            F_(bus_r)(r, C->pc - 2, 3);
            F_(prefetch)(r);
            return;
        }
        EAOK(mode, reg, RG__M68K_EA_DATALT);
        F_(ea) e = F_(ea_calc)(r, mode, reg, sz);
        uint32_t v = F_(ea_read)(r, e, sz), res;
        if (which == 0) res = F_(sub)(r, 0, v, (C->sr >> 4) & 1, sz, 1, 1);
        else if (which == 1) { res = 0; F_(nz)(r, 0, sz); }
        else if (which == 2) res = F_(sub)(r, 0, v, 0, sz, 1, 0);
        else { res = ~v; F_(nz)(r, res, sz); }
        F_(prefetch)(r);
        if (mode == 0 && sz == 2) IDLE(2);
        F_(ea_write_rmw)(r, e, sz, res);
        return;
    }
    case 0x8:
        if (sz == 0) { /* NBCD */
            EAOK(mode, reg, RG__M68K_EA_DATALT);
            F_(ea) e = F_(ea_calc)(r, mode, reg, 0);
            uint32_t v = F_(ea_read)(r, e, 0);
            uint32_t res = F_(sbcd)(r, v, 0);
            F_(prefetch)(r);
            if (mode == 0) IDLE(2);
            F_(ea_write)(r, e, 0, res);
            return;
        }
        if (sz == 1) {
            if (mode == 0) { /* SWAP */
                uint32_t v = C->d[reg];
                v = v << 16 | v >> 16;
                C->d[reg] = v;
                F_(nz)(r, v, 2);
                F_(prefetch)(r);
                return;
            }
            EAOK(mode, reg, RG__M68K_EA_CTRL); /* PEA */
            F_(ea) e = F_(ea_calc)(r, mode, reg, 2);
            if (mode == 6 || (mode == 7 && reg == 3)) IDLE(2);
            if (mode == 7 && (reg == 0 || reg == 1)) {
                F_(push32)(r, e.addr);
                F_(prefetch)(r);
            } else {
                F_(prefetch)(r);
                F_(push32)(r, e.addr);
            }
            return;
        }
        if (mode == 0) { /* EXT */
            uint32_t v = C->d[reg];
            if (sz == 2) {
                v = (v & 0xFFFF0000u) | (uint16_t)(int16_t)(int8_t)v;
                F_(nz)(r, v, 1);
            } else {
                v = (uint32_t)(int32_t)(int16_t)v;
                F_(nz)(r, v, 2);
            }
            C->d[reg] = v;
            F_(prefetch)(r);
            return;
        }
        F_(movem)(r, op);
        return;
    case 0xA:
        if (sz == 3) {
            if (op == 0x4AFC) ILLEGAL();
            EAOK(mode, reg, RG__M68K_EA_DATALT); /* TAS */
            F_(ea) e = F_(ea_calc)(r, mode, reg, 0);
            uint32_t v = F_(ea_read)(r, e, 0);
            F_(nz)(r, v, 0);
            if (mode != 0) IDLE(2);
            F_(ea_write)(r, e, 0, v | 0x80u);
            F_(prefetch)(r);
            return;
        }
        EAOK(mode, reg, sz == 0 ? RG__M68K_EA_DATA : RG__M68K_EA_ALL);
        {
            F_(ea) e = F_(ea_calc)(r, mode, reg, sz);
            F_(nz)(r, F_(ea_read)(r, e, sz), sz);
            F_(prefetch)(r);
        }
        return;
    case 0xC:
        if (sz >= 2) {
            F_(movem)(r, op);
            return;
        }
        ILLEGAL();
    case 0xE:
        break;
    default:
        ILLEGAL();
    }
    /* 0x4E.. */
    if (sz == 1) {
        switch ((op >> 3) & 7) {
        case 0: case 1: /* TRAP */
            F_(exception)(r, 32 + (op & 15), C->pc - 2, 4);
            return;
        case 2: { /* LINK */
            uint32_t disp = (uint32_t)(int32_t)(int16_t)F_(ext)(r);
            F_(push32)(r, C->a[reg]); /* LINK A7 pushes A7 as it was */
            C->a[reg] = C->a[7];
            C->a[7] += disp;
            F_(prefetch)(r);
            return;
        }
        case 3: { /* UNLK */
            r->aepc = r->pc0;
            uint32_t v = F_(rd)(r, C->a[reg], 2, FC_DATA);
            C->a[7] = C->a[reg] + 4;
            C->a[reg] = v;
            F_(prefetch)(r);
            return;
        }
        case 4: PRIV(); C->other_sp = C->a[reg]; F_(prefetch)(r); return;
        case 5: PRIV(); C->a[reg] = C->other_sp; F_(prefetch)(r); return;
        case 6:
            switch (reg) {
            case 0: PRIV(); C->reset_out = 1; IDLE(128); F_(prefetch)(r); return;
            case 1: F_(prefetch)(r); return;
            case 2: {
                PRIV();
                uint16_t v = C->irc;
                F_(set_sr)(r, v);
                IDLE(4);
                C->stopped = 1;
                return;
            }
            case 3: { /* RTE */
                PRIV();
                uint32_t sp = C->a[7];
                uint16_t nsr = (uint16_t)F_(rd)(r, sp, 1, FC_DATA);
                uint32_t npc = F_(rd)(r, sp + 2, 2, FC_DATA);
                C->a[7] = sp + 6;
                F_(set_sr)(r, nsr);
                F_(jump)(r, npc, 0);
#ifdef RG__M68K_STORM
                F_(storm)(r, npc, r->pc0 - 4u);
#endif
                return;
            }
            case 5: F_(jump)(r, F_(pop32)(r), 0); return;
            case 6:
                if (C->sr & RG_M68K_V) {
                    F_(bus_r)(r, C->pc, 3);
                    F_(exception)(r, 7, C->pc - 2, 0);
                    return;
                }
                F_(prefetch)(r);
                return;
            case 7: {
                uint16_t ccr = (uint16_t)F_(rd)(r, C->a[7], 1, FC_DATA);
                C->a[7] += 2;
                C->sr = (uint16_t)((C->sr & 0xFF00u) | (ccr & 0x1Fu));
                F_(jump)(r, F_(pop32)(r), 0);
                return;
            }
            default: ILLEGAL();
            }
        default: ILLEGAL();
        }
    }
    if (sz >= 2) { /* JSR / JMP */
        EAOK(mode, reg, RG__M68K_EA_CTRL);
        uint32_t to;
        switch (mode) {
        case 2: to = C->a[reg]; break;
        case 5: to = C->a[reg] + (uint32_t)(int32_t)(int16_t)C->irc; IDLE(2); break;
        case 6: case 7: {
            if (mode == 7 && reg == 0) { to = (uint32_t)(int32_t)(int16_t)C->irc; IDLE(2); break; }
            if (mode == 7 && reg == 1) { to = (uint32_t)C->irc << 16; F_(ext)(r); to |= C->irc; break; }
            if (mode == 7 && reg == 2) { to = C->pc - 2 + (uint32_t)(int32_t)(int16_t)C->irc; IDLE(2); break; }
            uint32_t base = mode == 6 ? C->a[reg] : C->pc - 2;
            uint16_t x = C->irc;
            uint32_t xr = (x & 0x8000) ? C->a[(x >> 12) & 7] : C->d[(x >> 12) & 7];
            if (!(x & 0x800)) xr = (uint32_t)(int32_t)(int16_t)xr;
            to = base + xr + (uint32_t)(int32_t)(int8_t)x;
            IDLE(6);
            break;
        }
        default: to = 0; break;
        }
        if (sz == 2) {
            uint32_t ret = (mode == 2) ? C->pc - 2 : C->pc;
            r->aepc = ret;
            if (to & 1)
                F_(jump)(r, to, 0); /* the address error */
            /* the new opcode is read, the return address pushed, then the word after the opcode read */
            C->ir = F_(bus_r)(r, to, 3);
            F_(push32)(r, ret);
            C->irc = F_(bus_r)(r, to + 2, 3);
            C->pc = to + 4;
        } else {
            F_(jump)(r, to, 0);
        }
        return;
    }
    ILLEGAL();
}

static void F_(line5)(F_(run) *r, uint16_t op)
{
    unsigned mode = (op >> 3) & 7, reg = op & 7;
    int sz = (op >> 6) & 3;
    if (sz == 3) {
        int cc = (op >> 8) & 15;
        if (mode == 1) { /* DBcc */
            if (rg__m68k_cond(C->sr, cc)) {
                IDLE(4);
                F_(ext)(r);
                F_(prefetch)(r);
                return;
            }
            uint16_t cnt = (uint16_t)(C->d[reg] - 1);
            if (cnt != 0xFFFFu) {
                IDLE(2);
                uint32_t to = C->pc - 2 + (uint32_t)(int32_t)(int16_t)C->irc;
                r->aepc = r->pc0;
                if (to & 1)
                    F_(jump)(r, to, 0);
                C->d[reg] = (C->d[reg] & 0xFFFF0000u) | cnt;
                F_(jump)(r, C->pc - 2 + (uint32_t)(int32_t)(int16_t)C->irc, 0);
                return;
            }
            C->d[reg] = (C->d[reg] & 0xFFFF0000u) | cnt;
            IDLE(6);
            F_(ext)(r);
            F_(prefetch)(r);
            return;
        }
        EAOK(mode, reg, RG__M68K_EA_DATALT); /* Scc */
        int t = rg__m68k_cond(C->sr, cc);
        F_(ea) e = F_(ea_calc)(r, mode, reg, 0);
        if (mode != 0)
            F_(ea_read)(r, e, 0);
        F_(prefetch)(r);
        if (mode == 0 && t) IDLE(2);
        F_(ea_write)(r, e, 0, t ? 0xFFu : 0u);
        return;
    }
    EAOK(mode, reg, RG__M68K_EA_ALT);
    if (mode == 1 && sz == 0) ILLEGAL();
    uint32_t q = (op >> 9) & 7;
    if (!q) q = 8;
    if (mode == 1) {
        C->a[reg] = (op & 0x100) ? C->a[reg] - q : C->a[reg] + q;
        F_(prefetch)(r);
        IDLE(4);
        return;
    }
    F_(ea) e = F_(ea_calc)(r, mode, reg, sz);
    uint32_t v = F_(ea_read)(r, e, sz);
    uint32_t res = (op & 0x100) ? F_(sub)(r, v, q, 0, sz, 1, 0) : F_(add)(r, v, q, 0, sz, 1, 0);
    F_(prefetch)(r);
    if (mode == 0 && sz == 2) IDLE(4);
    F_(ea_write_rmw)(r, e, sz, res);
}

#if defined(M68K_PURE_READ) && !defined(M68K_PURE_BYTE)
#define M68K_PURE_BYTE(ctx, addr) M68K_PURE_READ((ctx), (addr) & 0xFFFFFEu)
#define RG__M68K_PURE_BYTE_DEFAULT
#endif
#ifdef M68K_PURE_READ
/* The word at addr, read without a bus cycle (only where M68K_PURE_READ allows). */
static inline int F_(peek)(F_(run) *r, uint32_t addr, uint16_t *w)
{
    addr &= 0xFFFFFEu;
    if (!M68K_PURE_READ(r->ctx, addr))
        return 0;
    *w = (uint16_t)M68K_READ(r->ctx, addr, 3);
    return 1;
}

/* Whether the instruction at head (now in ir) ends right at bcc and only tests pure memory without changing any
 * register: TST, CMP <ea>,Dn, CMPI #,<ea>, BTST #,<ea>, BTST Dn,<ea>, the <ea> (An), d16(An), abs.w or abs.l. */
static int F_(pure_body)(F_(run) *r, uint32_t head, uint32_t bcc)
{
    uint16_t op = C->ir, w;
    unsigned mode = (op >> 3) & 7u, reg = op & 7u, sz = (op >> 6) & 3u, pre;
    if ((op & 0xFF00u) == 0x4A00u && sz < 3)
        pre = 0; /* TST */
    else if ((op & 0xF100u) == 0xB000u && sz < 3)
        pre = 0; /* CMP <ea>,Dn */
    else if ((op & 0xFF00u) == 0x0C00u && sz < 3)
        pre = sz == 2 ? 2u : 1u; /* CMPI */
    else if ((op & 0xFFC0u) == 0x0800u)
        sz = 0, pre = 1; /* BTST #n */
    else if ((op & 0xF1C0u) == 0x0100u)
        sz = 0, pre = 0; /* BTST Dn (mode 1 would be MOVEP: refused below) */
    else
        return 0;
    for (uint32_t a = head; a < bcc + 2u; a += 2)
        if (!M68K_PURE_READ(r->ctx, a & 0xFFFFFEu))
            return 0;
    uint32_t wa = head + 2u + 2u * pre, addr, ext;
    switch (mode) {
    case 2: ext = 0; addr = C->a[reg]; break;
    case 5:
        if (!F_(peek)(r, wa, &w)) return 0;
        ext = 1; addr = C->a[reg] + (uint32_t)(int32_t)(int16_t)w;
        break;
    case 7:
        if (reg == 0) {
            if (!F_(peek)(r, wa, &w)) return 0;
            ext = 1; addr = (uint32_t)(int32_t)(int16_t)w;
        } else if (reg == 1) {
            uint16_t lo;
            if (!F_(peek)(r, wa, &w) || !F_(peek)(r, wa + 2u, &lo)) return 0;
            ext = 2; addr = (uint32_t)w << 16 | lo;
        } else {
            return 0;
        }
        break;
    default: return 0;
    }
    if (head + 2u * (1u + pre + ext) != bcc)
        return 0;
    addr &= 0xFFFFFFu;
    if (sz && (addr & 1u))
        return 0;
    if (sz == 0)
        return M68K_PURE_BYTE(r->ctx, addr);
    return M68K_PURE_READ(r->ctx, addr) && (sz < 2 || M68K_PURE_READ(r->ctx, (addr + 2u) & 0xFFFFFEu));
}

/* A taken backward Bcc.s at bcc has just refilled the queue at head. When the last arrival here was one turn ago (the
 * body and this branch, nothing between) and the body is pure, skip the whole turns that would start before the
 * stop: turn j runs both instructions when it starts before c + (j + 1) * T <= stop. */
static void F_(idle_loop)(F_(run) *r, uint32_t head, uint32_t bcc)
{
    if (r->loop_head == head && r->insns == r->loop_insns + 2u) {
        /* still turning: registers as they were, so the verdict stands */
        if (!r->loop_pure)
            r->loop_pure = F_(pure_body)(r, head, bcc) ? 1 : -1;
        if (r->loop_pure > 0 && !(C->sr & RG_M68K_T) && C->cycles > r->loop_cycles) {
            uint64_t t = C->cycles - r->loop_cycles, stop = M68K_STOP_AT(r->ctx);
            if (stop > C->cycles)
                C->cycles += (stop - C->cycles) / t * t;
        }
    } else {
        r->loop_pure = 0;
    }
    r->loop_head = head;
    r->loop_insns = r->insns;
    r->loop_cycles = C->cycles;
}

#ifdef RG__M68K_STORM
/* Whether [a, a + n) and [b, b + m) share a byte (24-bit addresses, no wrap: the callers' ranges end below 2^24). */
static inline int F_(overlap)(uint32_t a, uint32_t n, uint32_t b, uint32_t m)
{
    return a < b + m && b < a + n;
}

/* Whether the turn that just ended at head, [the instruction at head, the RTE at rte], repeats exactly: the
 * instruction is a line-A or line-F word (it always traps, whatever the registers, and its frame returns to itself),
 * its vector leads to rte, where the RTE is; all these words are pure, and the frame (on the supervisor stack) is pure
 * to write and to read and overlaps none of them; trace is off. */
static int F_(storm_turn)(F_(run) *r, uint32_t head, uint32_t rte)
{
    uint16_t op, w, hi, lo;
    head &= 0xFFFFFFu;
    rte &= 0xFFFFFFu;
    if ((head & 1u) || (rte & 1u) || head > 0xFFFFFCu || (C->sr & RG_M68K_T))
        return 0;
    if (!F_(peek)(r, head, &op) || !F_(peek)(r, head + 2u, &w) || ((op >> 12) != 0xAu && (op >> 12) != 0xFu))
        return 0;
    uint32_t va = (op >> 12) == 0xAu ? 40u : 44u;
    if (!F_(peek)(r, va, &hi) || !F_(peek)(r, va + 2u, &lo) || (((uint32_t)hi << 16 | lo) & 0xFFFFFFu) != rte)
        return 0;
    if (!F_(peek)(r, rte, &w) || w != 0x4E73u)
        return 0;
    uint32_t frame = ((SUP ? C->a[7] : C->other_sp) - 6u) & 0xFFFFFFu;
    if ((frame & 1u) || frame > 0xFFFFFAu)
        return 0;
    for (uint32_t a = frame; a < frame + 6u; a += 2u)
        if (!M68K_PURE_WRITE(r->ctx, a) || !M68K_PURE_READ(r->ctx, a))
            return 0;
    return !F_(overlap)(frame, 6u, head, 4u) && !F_(overlap)(frame, 6u, va, 4u) && !F_(overlap)(frame, 6u, rte, 2u);
}

/* The exception-storm skip: an RTE has just returned to head. When the last arrival at head was one turn ago (two
 * instructions: the trap at head and this RTE, nothing between: an interrupt's handler would add one) and the turn
 * repeats exactly (F_(storm_turn)), the turns that would start before the stop are skipped as F_(idle_loop) skips a
 * loop's: each writes the same frame with the same values and leaves every register as it found it. */
static void F_(storm)(F_(run) *r, uint32_t head, uint32_t rte)
{
    if (r->loop_head == head && r->insns == r->loop_insns + 2u && C->cycles > r->loop_cycles &&
        F_(storm_turn)(r, head, rte)) {
        uint64_t t = C->cycles - r->loop_cycles, stop = M68K_STOP_AT(r->ctx);
        if (stop > C->cycles)
            C->cycles += (stop - C->cycles) / t * t;
    }
    r->loop_pure = 0; /* (F_(idle_loop)'s verdict is on another kind of turn) */
    r->loop_head = head;
    r->loop_insns = r->insns;
    r->loop_cycles = C->cycles;
}
#endif
#endif

static void F_(line6)(F_(run) *r, uint16_t op)
{
    int cc = (op >> 8) & 15;
    uint32_t base = C->pc - 2;
    int8_t d8 = (int8_t)op;
    if (cc == 1) { /* BSR */
        uint32_t disp = d8 ? (uint32_t)(int32_t)d8 : (uint32_t)(int32_t)(int16_t)C->irc;
        uint32_t ret = d8 ? C->pc - 2 : C->pc;
        IDLE(2);
        F_(push32)(r, ret);
        r->aepc = base + disp;
        F_(jump)(r, base + disp, 0);
        return;
    }
    if (rg__m68k_cond(C->sr, cc)) {
        uint32_t disp = d8 ? (uint32_t)(int32_t)d8 : (uint32_t)(int32_t)(int16_t)C->irc;
        IDLE(2);
        F_(jump)(r, base + disp, 0);
#ifdef M68K_PURE_READ
        if (d8 < 0 && d8 >= -10)
            F_(idle_loop)(r, base + disp, base - 2u);
#endif
        return;
    }
    IDLE(4);
    if (!d8)
        F_(ext)(r);
    F_(prefetch)(r);
}

/* OR, AND, SUB, ADD, CMP, EOR families (lines 8, 9, B, C, D). */
static void F_(alu)(F_(run) *r, uint16_t op, int fam)
{
    unsigned mode = (op >> 3) & 7, reg = op & 7, dn = (op >> 9) & 7;
    int sz = (op >> 6) & 3;
    /* fam: 0 OR 1 AND 2 SUB 3 ADD 4 CMP/EOR */
    if (sz == 3) { /* ADDA/SUBA/CMPA */
        int asz = (op & 0x100) ? 2 : 1;
        EAOK(mode, reg, RG__M68K_EA_ALL);
        F_(ea) e = F_(ea_calc)(r, mode, reg, asz);
        uint32_t v = F_(ea_read)(r, e, asz);
        if (asz == 1) v = (uint32_t)(int32_t)(int16_t)v;
        if (fam == 4) {
            F_(sub)(r, C->a[dn], v, 0, 2, 0, 0);
            F_(prefetch)(r);
            IDLE(2);
            return;
        }
        C->a[dn] = fam == 3 ? C->a[dn] + v : C->a[dn] - v;
        F_(prefetch)(r);
        IDLE(asz == 1 || mode <= 1 || (mode == 7 && reg == 4) ? 4 : 2);
        return;
    }
    if (!(op & 0x100) || (fam == 4 && !(op & 0x100))) { /* <ea>,Dn */
        EAOK(mode, reg, (fam == 0 || fam == 1) ? RG__M68K_EA_DATA : RG__M68K_EA_ALL);
        if (sz == 0 && mode == 1) ILLEGAL();
        F_(ea) e = F_(ea_calc)(r, mode, reg, sz);
        uint32_t v = F_(ea_read)(r, e, sz), d = C->d[dn], res;
        switch (fam) {
        case 0: res = d | v; F_(nz)(r, res, sz); break;
        case 1: res = d & v; F_(nz)(r, res, sz); break;
        case 2: res = F_(sub)(r, d, v, 0, sz, 1, 0); break;
        case 3: res = F_(add)(r, d, v, 0, sz, 1, 0); break;
        default:
            F_(sub)(r, d, v, 0, sz, 0, 0);
            F_(prefetch)(r);
            if (sz == 2) IDLE(2);
            return;
        }
        F_(prefetch)(r);
        if (sz == 2) IDLE(mode <= 1 || (mode == 7 && reg == 4) ? 4 : 2);
        C->d[dn] = (d & ~rg__m68k_mask[sz]) | (res & rg__m68k_mask[sz]);
        return;
    }
    /* Dn,<ea> (and EOR) */
    if (fam == 4) {
        if (mode == 1) { /* CMPM */
            r->aepc = r->pc0;
            if (sz && (C->a[reg] & 1)) {
                C->a[reg] += 2;
                F_(addr_error)(r, C->a[reg] - 2, 1, 0, FC_DATA);
            }
            F_(ea) s = F_(ea_calc)(r, 3, reg, sz);
            uint32_t v = F_(ea_read)(r, s, sz);
            if (sz && (C->a[dn] & 1))
                F_(addr_error)(r, C->a[dn], 1, 0, FC_DATA);
            F_(ea) d = F_(ea_calc)(r, 3, dn, sz);
            uint32_t w = F_(ea_read)(r, d, sz);
            F_(sub)(r, w, v, 0, sz, 0, 0);
            F_(prefetch)(r);
            return;
        }
        EAOK(mode, reg, RG__M68K_EA_DATALT);
        F_(ea) e = F_(ea_calc)(r, mode, reg, sz);
        uint32_t res = F_(ea_read)(r, e, sz) ^ C->d[dn];
        F_(nz)(r, res, sz);
        F_(prefetch)(r);
        if (mode == 0 && sz == 2) IDLE(4);
        F_(ea_write_rmw)(r, e, sz, res);
        return;
    }
    if (mode <= 1) { /* ABCD/SBCD (fam 1/0), ADDX/SUBX (fam 3/2), EXG (fam 1) */
        if (fam == 1 && sz != 0) { /* EXG */
            unsigned om = (op >> 3) & 0x1F;
            uint32_t *x, *y;
            if (om == 8) { x = &C->d[dn]; y = &C->d[reg]; }
            else if (om == 9) { x = &C->a[dn]; y = &C->a[reg]; }
            else if (om == 0x11) { x = &C->d[dn]; y = &C->a[reg]; }
            else ILLEGAL();
            uint32_t t = *x; *x = *y; *y = t;
            F_(prefetch)(r);
            IDLE(2);
            return;
        }
        if (fam == 0 && sz != 0) ILLEGAL(); /* DIVS/DIVU handled before */
        if (mode == 0) {
            uint32_t s = C->d[reg], d = C->d[dn], res;
            if (fam <= 1) res = fam == 1 ? F_(abcd)(r, s & 0xFF, d & 0xFF) : F_(sbcd)(r, s & 0xFF, d & 0xFF);
            else res = fam == 3 ? F_(add)(r, d, s, (C->sr >> 4) & 1, sz, 1, 1) : F_(sub)(r, d, s, (C->sr >> 4) & 1, sz, 1, 1);
            F_(prefetch)(r);
            if (fam <= 1) IDLE(2);
            else if (sz == 2) IDLE(4);
            C->d[dn] = (d & ~rg__m68k_mask[sz]) | (res & rg__m68k_mask[sz]);
            return;
        }
        r->aepc = r->pc0;
        if (sz == 2 && (C->a[reg] & 1)) {
            IDLE(2);
            F_(addr_error)(r, C->a[reg] - 2, 1, 0, FC_DATA);
        }
        F_(ea) s = F_(ea_calc)(r, 4, reg, sz);
        uint32_t v, w, res;
        if (sz == 2) { /* long operands are read low word first */
            v = F_(bus_r)(r, s.addr + 2, 3);
            v |= (uint32_t)F_(bus_r)(r, s.addr, 3) << 16;
        } else {
            v = F_(ea_read)(r, s, sz);
        }
        if (sz == 2 && (C->a[dn] & 1))
            F_(addr_error)(r, C->a[dn] - 2, 1, 0, FC_DATA);
        C->a[dn] -= (sz == 0) ? (dn == 7 ? 2 : 1) : (sz == 1 ? 2 : 4);
        F_(ea) d = {2, 0, C->a[dn]};
        if (sz == 2) {
            w = F_(bus_r)(r, d.addr + 2, 3);
            w |= (uint32_t)F_(bus_r)(r, d.addr, 3) << 16;
        } else {
            w = F_(ea_read)(r, d, sz);
        }
        if (fam <= 1) res = fam == 1 ? F_(abcd)(r, v, w) : F_(sbcd)(r, v, w);
        else res = fam == 3 ? F_(add)(r, w, v, (C->sr >> 4) & 1, sz, 1, 1) : F_(sub)(r, w, v, (C->sr >> 4) & 1, sz, 1, 1);
        if (sz == 2) { /* low word, queue refill, high word */
            F_(bus_w)(r, d.addr + 2, (uint16_t)res, 3);
            F_(prefetch)(r);
            F_(bus_w)(r, d.addr, (uint16_t)(res >> 16), 3);
            return;
        }
        F_(prefetch)(r);
        F_(ea_write)(r, d, sz, res);
        return;
    }
    EAOK(mode, reg, RG__M68K_EA_MEMALT);
    F_(ea) e = F_(ea_calc)(r, mode, reg, sz);
    uint32_t v = F_(ea_read)(r, e, sz), s = C->d[dn], res;
    switch (fam) {
    case 0: res = v | s; F_(nz)(r, res, sz); break;
    case 1: res = v & s; F_(nz)(r, res, sz); break;
    case 2: res = F_(sub)(r, v, s, 0, sz, 1, 0); break;
    default: res = F_(add)(r, v, s, 0, sz, 1, 0); break;
    }
    F_(prefetch)(r);
    F_(ea_write_rmw)(r, e, sz, res);
}

static void F_(muldiv)(F_(run) *r, uint16_t op)
{
    unsigned mode = (op >> 3) & 7, reg = op & 7, dn = (op >> 9) & 7;
    int sgn = (op >> 8) & 1, div = (op >> 12) == 8;
    EAOK(mode, reg, RG__M68K_EA_DATA);
    F_(ea) e = F_(ea_calc)(r, mode, reg, 1);
    uint16_t s = (uint16_t)F_(ea_read)(r, e, 1);
    uint16_t f = C->sr & (uint16_t)~(RG_M68K_N | RG_M68K_Z | RG_M68K_V | RG_M68K_C);
    if (!div) {
        uint32_t res;
        int n = 0;
        if (sgn) {
            res = (uint32_t)((int32_t)(int16_t)s * (int32_t)(int16_t)C->d[dn]);
            uint32_t t = ((uint32_t)s << 1) ^ s;
            for (int i = 0; i < 16; i++) n += (t >> i) & 1;
        } else {
            res = (uint32_t)s * (uint16_t)C->d[dn];
            for (int i = 0; i < 16; i++) n += (s >> i) & 1;
        }
        C->d[dn] = res;
        if (!res) f |= RG_M68K_Z;
        if (res & 0x80000000u) f |= RG_M68K_N;
        C->sr = f;
        F_(prefetch)(r);
        IDLE(34 + 2 * n);
        return;
    }
    uint32_t dd = C->d[dn];
    if (s == 0) {
        C->sr = f;
        IDLE(4);
        F_(exception)(r, 5, C->pc - 2, 4);
        return;
    }
    if (!sgn) {
        uint32_t q = dd / s, rem = dd % s;
        if (q > 0xFFFFu) {
            f |= RG_M68K_V | RG_M68K_N;
            IDLE(6);
        } else {
            IDLE(F_(divu_idle)(dd, s) - 4);
            if (!q) f |= RG_M68K_Z;
            if (q & 0x8000u) f |= RG_M68K_N;
            C->d[dn] = rem << 16 | q;
        }
    } else {
        int32_t a = (int32_t)dd, b = (int16_t)s;
        IDLE(F_(divs_idle)(a, (int16_t)s) - 4);
        int64_t q = (int64_t)a / b, rem = (int64_t)a % b;
        if (q > 32767 || q < -32768) {
            f |= RG_M68K_V | RG_M68K_N;
        } else {
            if (!q) f |= RG_M68K_Z;
            if (q < 0) f |= RG_M68K_N;
            C->d[dn] = ((uint32_t)rem & 0xFFFFu) << 16 | ((uint32_t)q & 0xFFFFu);
        }
    }
    C->sr = f;
    F_(prefetch)(r);
}

static void F_(lineE)(F_(run) *r, uint16_t op)
{
    int sz = (op >> 6) & 3, left = (op >> 8) & 1;
    if (sz == 3) {
        unsigned mode = (op >> 3) & 7, reg = op & 7;
        if (op & 0x800) ILLEGAL();
        EAOK(mode, reg, RG__M68K_EA_MEMALT);
        F_(ea) e = F_(ea_calc)(r, mode, reg, 1);
        uint32_t v = F_(ea_read)(r, e, 1);
        v = F_(shift)(r, (op >> 9) & 3, left, v, 1, 1);
        F_(prefetch)(r);
        F_(ea_write)(r, e, 1, v);
        return;
    }
    unsigned reg = op & 7, cnt = (op >> 9) & 7;
    int kind = (op >> 3) & 3;
    if (op & 0x20) cnt = C->d[cnt] & 63;
    else if (!cnt) cnt = 8;
    uint32_t v = F_(shift)(r, kind, left, C->d[reg], (int)cnt, sz);
    C->d[reg] = (C->d[reg] & ~rg__m68k_mask[sz]) | v;
    F_(prefetch)(r);
    IDLE((sz == 2 ? 4 : 2) + 2 * (int)cnt);
}

static void F_(step)(F_(run) *r)
{
    uint16_t op = C->ir;
    switch (op >> 12) {
    case 0x0: F_(line0)(r, op); return;
    case 0x1: case 0x2: case 0x3: F_(move)(r, op); return;
    case 0x4: F_(line4)(r, op); return;
    case 0x5: F_(line5)(r, op); return;
    case 0x6: F_(line6)(r, op); return;
    case 0x7:
        if (op & 0x100) ILLEGAL();
        C->d[(op >> 9) & 7] = (uint32_t)(int32_t)(int8_t)op;
        F_(nz)(r, (uint32_t)(int32_t)(int8_t)op, 2);
        F_(prefetch)(r);
        return;
    case 0x8:
        if ((op & 0xC0) == 0xC0) { F_(muldiv)(r, op); return; }
        F_(alu)(r, op, 0);
        return;
    case 0x9: F_(alu)(r, op, 2); return;
    case 0xB: F_(alu)(r, op, 4); return;
    case 0xC:
        if ((op & 0xC0) == 0xC0) { F_(muldiv)(r, op); return; }
        F_(alu)(r, op, 1);
        return;
    case 0xD: F_(alu)(r, op, 3); return;
    case 0xE: F_(lineE)(r, op); return;
    case 0xA: F_(exception)(r, 10, r->pc0 - 4, 4); return;
    default: F_(exception)(r, 11, r->pc0 - 4, 4); return;
    }
}

static int M68K_FN(rg_m68k *cpu, M68K_CTX *ctx)
{
    F_(run) run, *r = &run;
    r->c = cpu;
    r->ctx = ctx;
#ifdef M68K_PURE_READ
    r->insns = r->loop_insns = r->loop_cycles = 0;
    r->loop_head = 1;
    r->loop_pure = 0;
#endif
    if (cpu->halted)
        return 1;
    /* An address error leaves its instruction through longjmp (m68k state lives in *cpu, never in locals here;
     * the run record is refreshed from the unmodified parameters). */
    int jr = setjmp(r->jb);
    if (jr) {
        r->c = cpu;
        r->ctx = ctx;
#ifdef M68K_PURE_READ
        r->loop_head = 1;
#endif
        if (jr == 2)
            return 1;
    }
    while (!(M68K_STOP(ctx))) {
        if (cpu->trace_pending) {
            cpu->trace_pending = 0;
            r->pc0 = cpu->pc;
            r->aepc = cpu->pc - 2;
            F_(exception)(r, 9, cpu->pc - 4, 4);
        }
        int lvl = cpu->ipl & 7;
        if (lvl < 7)
            cpu->nmi_seen = 0;
        if ((lvl == 7 && !cpu->nmi_seen) || lvl > (int)((cpu->sr >> 8) & 7)) {
            if (lvl == 7)
                cpu->nmi_seen = 1;
            r->pc0 = cpu->pc;
            r->aepc = cpu->pc - 2;
            uint16_t old = cpu->sr;
            uint32_t ret = cpu->stopped ? cpu->pc : cpu->pc - 4;
            cpu->stopped = 0;
            F_(set_sr)(r, ((old | RG_M68K_S) & ~RG_M68K_T & ~RG_M68K_IMASK) | (uint32_t)lvl << 8);
            IDLE(6);
            cpu->a[7] -= 6;
            F_(bus_w)(r, cpu->a[7] + 4, (uint16_t)ret, 3);
            int vec = M68K_IACK(ctx, lvl);
            cpu->cycles += 4 + 4; /* the acknowledge cycle and its autovector wait */
            if (vec < 0) vec = 24 + lvl;
            F_(bus_w)(r, cpu->a[7], old, 3);
            F_(bus_w)(r, cpu->a[7] + 2, (uint16_t)(ret >> 16), 3);
            uint32_t to = F_(rd)(r, (uint32_t)vec * 4u, 2, 5);
            F_(jump)(r, to, 2);
            continue;
        }
        if (cpu->stopped) {
            cpu->cycles += 4;
            continue;
        }
        int trace = (cpu->sr & RG_M68K_T) != 0;
        r->pc0 = cpu->pc;
        r->aepc = cpu->pc - 2;
#ifdef M68K_PURE_READ
        r->insns++;
#endif
        F_(step)(r);
        cpu->trace_pending = (uint8_t)trace;
    }
    return 0;
}

#undef ILLEGAL
#undef PRIV
#undef EAOK
#undef C
#undef IDLE
#undef SUP
#undef FC_DATA
#undef FC_PROG
#undef F_
#undef RG__M68K_STORM
#ifdef RG__M68K_PURE_BYTE_DEFAULT
#undef M68K_PURE_BYTE
#undef RG__M68K_PURE_BYTE_DEFAULT
#endif
