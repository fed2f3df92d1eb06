/* Include-template generating the Z80 interpreter (behaviour documented in z80.h and docs/z80.md).
 *
 * Before including this file, define:
 *   Z80_FN                  name of the generated function: static int Z80_FN(rg_z80 *cpu, Z80_CTX *ctx)
 *   Z80_CTX                 type of the bus context
 *   Z80_FETCH(ctx, addr, ir)  opcode fetch (M1): 4 T-states; reads the byte at addr (uint16_t) in the first half and
 *                           puts the refresh address ir (I in the high byte, R before its increment) on the bus in
 *                           the second; returns the byte
 *   Z80_READ(ctx, addr)     memory read, 3 T-states; returns the byte
 *   Z80_WRITE(ctx, addr, v) memory write, 3 T-states
 *   Z80_IN(ctx, port)       I/O read, 4 T-states (port: the full 16-bit address); returns the byte
 *   Z80_OUT(ctx, port, v)   I/O write, 4 T-states
 *   Z80_INTERNAL(ctx, n)    n T-states (1 to 7) in which the CPU works inside (the address bus keeps its last value)
 *   Z80_STOP(ctx)           checked before each instruction (and interrupt acceptance); nonzero: return
 * and optionally:
 *   Z80_INTA(ctx, ir)       the INT acknowledge cycle: 6 T-states (an M1 with two wait states, refresh address ir in
 *                           its end); returns the byte on the data bus; default: 6 internal T-states and
 *                           cpu->int_data
 *   Z80_ENTER(ctx) / Z80_LEAVE(ctx)  declarations at the start of the function / a statement before it returns
 *   Z80_READ16(ctx, addr)   two memory reads, addr then addr + 1 (wrapping at $FFFF), 6 T-states; returns them as
 *                           a little-endian word (for operands and POP); default: two Z80_READs
 *   Z80_NOW(ctx) / Z80_STOP_AT(ctx)  the bus's T-state count and the count at which Z80_STOP becomes true (both
 *                           uint64_t, Z80_STOP(ctx) being NOW >= STOP_AT, STOP_AT fixed during a call): the function
 *                           then tests the run's end and a pending interrupt/HALT with one comparison
 *   Z80_HALT_RUN(ctx)       the M1 cycles of a HALTed CPU up to the bus's next event, at once: advances the bus
 *                           time by 4 T-states for each and returns how many (at least 1); only for a bus where no
 *                           interrupt can arrive before Z80_STOP becomes true; default: one Z80_FETCH at pc a step
 *
 * Every T-state is inside exactly one of these calls, so the bus counts T-states by adding them up. The macros get
 * their address arguments as uint16_t values without side effects (they may evaluate them more than once).
 * The registers live in *cpu, except pc, the low 7 bits of R, q, ei and p: the function keeps those in locals and
 * writes them back as it returns (the bus must not look at them while it runs). The interrupt inputs (nmi_pending,
 * int_line) may change between calls and inside Z80_IN/Z80_OUT, nowhere else: the function tests them again only
 * after those.
 *
 * The file may be included several times in one translation unit with different Z80_FN/Z80_CTX/... (the includer
 * #undefs and redefines its macros between inclusions).
 */
#include "cpu/z80/z80.h"

#if !defined(Z80_FN) || !defined(Z80_CTX) || !defined(Z80_FETCH) || !defined(Z80_READ) || !defined(Z80_WRITE) || \
    !defined(Z80_IN) || !defined(Z80_OUT) || !defined(Z80_INTERNAL) || !defined(Z80_STOP)
#error "define Z80_FN, Z80_CTX, Z80_FETCH, Z80_READ, Z80_WRITE, Z80_IN, Z80_OUT, Z80_INTERNAL and Z80_STOP"
#endif

/* Arithmetic shared by every instantiation (defined once per translation unit). */
#ifndef RG_CPU_Z80_EXEC_HELPERS
#define RG_CPU_Z80_EXEC_HELPERS

/* the helpers of the common instructions: inlined even where a function has many copies of them */
#define RG__Z80_HOT static inline __attribute__((always_inline))
#define RG__Z80_XY (RG_Z80_XF | RG_Z80_YF)
#define RG__Z80_SZP (RG_Z80_SF | RG_Z80_ZF | RG_Z80_PF)

/* S, Z, Y, X of a byte. */
RG__Z80_HOT unsigned rg__z80_sz53(unsigned v)
{
    v &= 0xFFu;
    return (v & (RG_Z80_SF | RG__Z80_XY)) | (v ? 0u : RG_Z80_ZF);
}

/* P/V set when the byte has an even number of ones. */
RG__Z80_HOT unsigned rg__z80_parity(unsigned v)
{
    return __builtin_parity(v & 0xFFu) ? 0u : RG_Z80_PF;
}

RG__Z80_HOT unsigned rg__z80_sz53p(unsigned v)
{
    return rg__z80_sz53(v) | rg__z80_parity(v);
}

/* ADD/ADC/SUB/SBC/AND/XOR/OR/CP A,v (op: the opcode's bits 3-5). Returns the new A; sets *f. */
RG__Z80_HOT uint8_t rg__z80_alu(unsigned op, unsigned a, unsigned v, uint8_t *f)
{
    unsigned r, c = *f & RG_Z80_CF;
    switch (op) {
    case 0: c = 0; /* fall through */
    case 1:
        r = a + v + c;
        *f = (uint8_t)(rg__z80_sz53(r) | ((a ^ v ^ r) & RG_Z80_HF) | (((a ^ ~v) & (a ^ r) & 0x80u) >> 5) |
                       ((r >> 8) & 1u));
        return (uint8_t)r;
    case 2: c = 0; /* fall through */
    case 3:
        r = a - v - c;
        *f = (uint8_t)(rg__z80_sz53(r) | ((a ^ v ^ r) & RG_Z80_HF) | (((a ^ v) & (a ^ r) & 0x80u) >> 5) |
                       ((r >> 8) & 1u) | RG_Z80_NF);
        return (uint8_t)r;
    case 4:
        r = a & v;
        *f = (uint8_t)(rg__z80_sz53p(r) | RG_Z80_HF);
        return (uint8_t)r;
    case 5:
        r = (a ^ v) & 0xFFu;
        *f = (uint8_t)rg__z80_sz53p(r);
        return (uint8_t)r;
    case 6:
        r = (a | v) & 0xFFu;
        *f = (uint8_t)rg__z80_sz53p(r);
        return (uint8_t)r;
    default: /* CP: X and Y come from the operand */
        r = a - v;
        *f = (uint8_t)((rg__z80_sz53(r) & ~RG__Z80_XY) | (v & RG__Z80_XY) | ((a ^ v ^ r) & RG_Z80_HF) |
                       (((a ^ v) & (a ^ r) & 0x80u) >> 5) | ((r >> 8) & 1u) | RG_Z80_NF);
        return (uint8_t)a;
    }
}

RG__Z80_HOT uint8_t rg__z80_inc8(unsigned v, uint8_t *f)
{
    unsigned r = (v + 1u) & 0xFFu;
    *f = (uint8_t)((*f & RG_Z80_CF) | rg__z80_sz53(r) | ((v & 0x0Fu) == 0x0Fu ? RG_Z80_HF : 0u) |
                   (v == 0x7Fu ? RG_Z80_PF : 0u));
    return (uint8_t)r;
}

RG__Z80_HOT uint8_t rg__z80_dec8(unsigned v, uint8_t *f)
{
    unsigned r = (v - 1u) & 0xFFu;
    *f = (uint8_t)((*f & RG_Z80_CF) | rg__z80_sz53(r) | RG_Z80_NF | ((v & 0x0Fu) == 0u ? RG_Z80_HF : 0u) |
                   (v == 0x80u ? RG_Z80_PF : 0u));
    return (uint8_t)r;
}

/* The CB rotates and shifts (op: bits 3-5 of the CB opcode: RLC RRC RL RR SLA SRA SLL SRL). */
RG__Z80_HOT uint8_t rg__z80_rot(unsigned op, unsigned v, uint8_t *f)
{
    unsigned r, c;
    switch (op) {
    case 0: c = v >> 7; r = (v << 1) | c; break;
    case 1: c = v & 1u; r = (v >> 1) | (c << 7); break;
    case 2: c = v >> 7; r = (v << 1) | (*f & RG_Z80_CF); break;
    case 3: c = v & 1u; r = (v >> 1) | ((unsigned)(*f & RG_Z80_CF) << 7); break;
    case 4: c = v >> 7; r = v << 1; break;
    case 5: c = v & 1u; r = (v >> 1) | (v & 0x80u); break;
    case 6: c = v >> 7; r = (v << 1) | 1u; break;
    default: c = v & 1u; r = v >> 1; break;
    }
    r &= 0xFFu;
    *f = (uint8_t)(rg__z80_sz53p(r) | c);
    return (uint8_t)r;
}

/* BIT n,v with X/Y taken from xy. */
RG__Z80_HOT uint8_t rg__z80_bit(unsigned n, unsigned v, unsigned xy, uint8_t f)
{
    unsigned set = v & (1u << n);
    return (uint8_t)((f & RG_Z80_CF) | RG_Z80_HF | (xy & RG__Z80_XY) | (set ? (set & RG_Z80_SF) : RG_Z80_ZF | RG_Z80_PF));
}

RG__Z80_HOT uint16_t rg__z80_add16(unsigned x, unsigned v, uint8_t *f)
{
    unsigned r = x + v;
    *f = (uint8_t)((*f & RG__Z80_SZP) | (((x ^ v ^ r) >> 8) & RG_Z80_HF) | ((r >> 8) & RG__Z80_XY) | ((r >> 16) & 1u));
    return (uint16_t)r;
}

/* ADC HL,v (sub 0) and SBC HL,v (sub 1). */
static inline uint16_t rg__z80_adc16(unsigned x, unsigned v, int sub, uint8_t *f)
{
    unsigned c = *f & RG_Z80_CF, r, ov;
    if (sub) {
        r = x - v - c;
        ov = ((x ^ v) & (x ^ r) & 0x8000u) >> 13;
    } else {
        r = x + v + c;
        ov = ((x ^ ~v) & (x ^ r) & 0x8000u) >> 13;
    }
    *f = (uint8_t)(((r >> 8) & (RG_Z80_SF | RG__Z80_XY)) | ((r & 0xFFFFu) ? 0u : RG_Z80_ZF) |
                   (((x ^ v ^ r) >> 8) & RG_Z80_HF) | ov | ((r >> 16) & 1u) | (sub ? RG_Z80_NF : 0u));
    return (uint16_t)r;
}

static inline uint8_t rg__z80_daa(unsigned a, uint8_t *f)
{
    unsigned corr = 0, c = *f & RG_Z80_CF, h = *f & RG_Z80_HF, n = *f & RG_Z80_NF, r, nh;
    if (h || (a & 0x0Fu) > 9u)
        corr |= 0x06u;
    if (c || a > 0x99u) {
        corr |= 0x60u;
        c = 1;
    }
    if (n) {
        r = a - corr;
        nh = h && (a & 0x0Fu) < 6u;
    } else {
        r = a + corr;
        nh = (a & 0x0Fu) > 9u;
    }
    r &= 0xFFu;
    *f = (uint8_t)(rg__z80_sz53p(r) | (nh ? RG_Z80_HF : 0u) | n | c);
    return (uint8_t)r;
}

/* Flags of INI/IND/OUTI/OUTD: v the byte moved, k the sum that decides H and C, b the new B. */
static inline uint8_t rg__z80_io_block_flags(unsigned v, unsigned k, unsigned b)
{
    return (uint8_t)(rg__z80_sz53(b) | ((v >> 6) & RG_Z80_NF) | (k > 0xFFu ? RG_Z80_HF | RG_Z80_CF : 0u) |
                     rg__z80_parity((k & 7u) ^ b));
}

/* The repeat step of INIR/INDR/OTIR/OTDR changes H and P/V once more (David Banks' and Patrik Rak's findings);
 * X and Y come from the high byte of pc (set by the caller). */
static inline uint8_t rg__z80_io_repeat_flags(uint8_t f, unsigned b)
{
    unsigned pv = f & RG_Z80_PF, h;
    if (f & RG_Z80_CF) {
        if (f & RG_Z80_NF) {
            pv ^= rg__z80_parity((b - 1u) & 7u) ^ RG_Z80_PF;
            h = (b & 0x0Fu) == 0u;
        } else {
            pv ^= rg__z80_parity((b + 1u) & 7u) ^ RG_Z80_PF;
            h = (b & 0x0Fu) == 0x0Fu;
        }
    } else {
        pv ^= rg__z80_parity(b & 7u) ^ RG_Z80_PF;
        h = 0;
    }
    return (uint8_t)((f & ~(RG_Z80_PF | RG_Z80_HF)) | pv | (h ? RG_Z80_HF : 0u));
}

/* 8-bit register n (0..7 as encoded, 6 unused) with H/L replaced by the halves of IX (xm 1) or IY (xm 2). */
RG__Z80_HOT uint8_t rg__z80_get8(const rg_z80 *c, unsigned n, unsigned xm)
{
    if (xm && (n == 4 || n == 5)) {
        uint16_t x = xm == 1 ? c->ix : c->iy;
        return (uint8_t)(n == 4 ? x >> 8 : x);
    }
    return c->r8[n];
}

RG__Z80_HOT void rg__z80_set8(rg_z80 *c, unsigned n, unsigned xm, unsigned v)
{
    if (xm && (n == 4 || n == 5)) {
        uint16_t *x = xm == 1 ? &c->ix : &c->iy;
        *x = (uint16_t)(n == 4 ? ((*x & 0x00FFu) | (v & 0xFFu) << 8) : ((*x & 0xFF00u) | (v & 0xFFu)));
        return;
    }
    c->r8[n] = (uint8_t)v;
}

/* Register pair n (BC DE HL SP) with HL replaced by IX/IY. */
RG__Z80_HOT uint16_t rg__z80_get16(const rg_z80 *c, unsigned n, unsigned xm)
{
    switch (n) {
    case 0: return (uint16_t)(c->b << 8 | c->c);
    case 1: return (uint16_t)(c->d << 8 | c->e);
    case 2: return xm == 0 ? (uint16_t)(c->h << 8 | c->l) : xm == 1 ? c->ix : c->iy;
    default: return c->sp;
    }
}

RG__Z80_HOT void rg__z80_set16(rg_z80 *c, unsigned n, unsigned xm, unsigned v)
{
    switch (n) {
    case 0: c->b = (uint8_t)(v >> 8); c->c = (uint8_t)v; break;
    case 1: c->d = (uint8_t)(v >> 8); c->e = (uint8_t)v; break;
    case 2:
        if (xm == 0) {
            c->h = (uint8_t)(v >> 8);
            c->l = (uint8_t)v;
        } else if (xm == 1) {
            c->ix = (uint16_t)v;
        } else {
            c->iy = (uint16_t)v;
        }
        break;
    default: c->sp = (uint16_t)v; break;
    }
}

/* Condition cc (0..7: NZ Z NC C PO PE P M). */
RG__Z80_HOT int rg__z80_cond(uint8_t f, unsigned cc)
{
    static const uint8_t mask[4] = {RG_Z80_ZF, RG_Z80_CF, RG_Z80_PF, RG_Z80_SF};
    return ((f & mask[cc >> 1]) != 0) == (int)(cc & 1u);
}

#endif /* RG_CPU_Z80_EXEC_HELPERS */

#ifdef Z80_ENTER
#define Z80__ENTER Z80_ENTER(ctx);
#else
#define Z80__ENTER
#endif
#ifdef Z80_LEAVE
#define Z80__LEAVE Z80_LEAVE(ctx);
#else
#define Z80__LEAVE
#endif
#ifdef Z80_INTA
#define Z80__INTA(ir) Z80_INTA(ctx, (ir))
#else
#define Z80__INTA(ir) (Z80_INTERNAL(ctx, 6), cpu->int_data)
#endif

/* A and F live in the locals z_a and z_f while the function runs; the other 8-bit registers in *cpu. */
#define Z80__R8GET(n) ((n) == RG_Z80_A ? z_a : cpu->r8[(n)])
#define Z80__R8SET(n, v) do { \
        if ((n) == RG_Z80_A) \
            z_a = (uint8_t)(v); \
        else \
            cpu->r8[(n)] = (uint8_t)(v); \
    } while (0)
#define Z80__GET8(n, xm) ((n) == RG_Z80_A ? z_a : rg__z80_get8(cpu, (n), (xm)))
#define Z80__SET8(n, xm, v) do { \
        if ((n) == RG_Z80_A) \
            z_a = (uint8_t)(v); \
        else \
            rg__z80_set8(cpu, (n), (xm), (v)); \
    } while (0)
#define Z80__RD(ad) Z80_READ(ctx, (uint16_t)(ad))
#define Z80__WR(ad, v) Z80_WRITE(ctx, (uint16_t)(ad), (uint8_t)(v))
/* the interrupt inputs may change in an I/O access: the pending test is redone after each */
#ifdef Z80_NOW
/* z_lim: the T-state at which the head must look (the run's end, or 0 while an interrupt or HALT is pending) */
#define Z80__SETCHK(v) (z_chk = (v), z_lim = z_chk ? 0u : (uint64_t)Z80_STOP_AT(ctx))
#define Z80__SLOW() ((uint64_t)Z80_NOW(ctx) >= z_lim)
#else
#define Z80__SETCHK(v) (z_chk = (v))
#define Z80__SLOW() 1
#endif
#define Z80__PENDING() Z80__SETCHK((unsigned)(cpu->nmi_pending | cpu->int_line | cpu->halted))
#define Z80__IN(port) (z_io = Z80_IN(ctx, (uint16_t)(port)), Z80__PENDING(), z_io)
#define Z80__OUT(port, v) (Z80_OUT(ctx, (uint16_t)(port), (uint8_t)(v)), Z80__PENDING())
#define Z80__IDLE(n) Z80_INTERNAL(ctx, (n))
/* R as the CPU sees it: bit 7 in cpu->r, the low 7 bits counted in the local z_r while the function runs */
#define Z80__R ((uint8_t)((cpu->r & 0x80u) | (z_r & 0x7Fu)))
#define Z80__IR ((uint16_t)(cpu->i << 8 | Z80__R))
#define Z80__RINC() (z_r++)
#define Z80__FETCH(dst) do { \
        (dst) = Z80_FETCH(ctx, z_pc, Z80__IR); \
        z_pc++; \
        Z80__RINC(); \
    } while (0)
#define Z80__IMM(dst) do { (dst) = Z80__RD(z_pc); z_pc++; } while (0)
#ifdef Z80_READ16
#define Z80__IMM16(dst) do { \
        (dst) = (uint16_t)Z80_READ16(ctx, z_pc); \
        z_pc = (uint16_t)(z_pc + 2u); \
    } while (0)
#else
#define Z80__IMM16(dst) do { \
        unsigned lo_, hi_; \
        Z80__IMM(lo_); Z80__IMM(hi_); \
        (dst) = (uint16_t)(lo_ | hi_ << 8); \
    } while (0)
#endif
#define Z80__PUSH(v) do { \
        unsigned pv_ = (v); \
        cpu->sp--; Z80__WR(cpu->sp, pv_ >> 8); \
        cpu->sp--; Z80__WR(cpu->sp, pv_ & 0xFFu); \
    } while (0)
#ifdef Z80_READ16
#define Z80__POP(dst) do { \
        (dst) = (uint16_t)Z80_READ16(ctx, cpu->sp); \
        cpu->sp = (uint16_t)(cpu->sp + 2u); \
    } while (0)
#else
#define Z80__POP(dst) do { \
        unsigned lo_, hi_; \
        lo_ = Z80__RD(cpu->sp); cpu->sp++; \
        hi_ = Z80__RD(cpu->sp); cpu->sp++; \
        (dst) = (uint16_t)(lo_ | hi_ << 8); \
    } while (0)
#endif
#define Z80__SETF(v) (z_f = (uint8_t)(v), z_q = z_f)
/* (IX+d) / (IY+d): the displacement read, 5 internal T-states, the address in wz. */
#define Z80__XADDR(dst, idle) do { \
        unsigned d_; \
        Z80__IMM(d_); \
        Z80__IDLE(idle); \
        (dst) = (uint16_t)((xm == 1 ? cpu->ix : cpu->iy) + (uint16_t)(int8_t)(uint8_t)d_); \
        cpu->wz = (dst); \
    } while (0)

/* LD r,r' and ALU A,r with the registers as constants (each opcode its own case, so the compiler specialises them). */
#define Z80__LD_BODY(dst, src) do { \
        if ((src) == 6) { \
            if (xm) \
                Z80__XADDR(ad, 5); \
            else \
                ad = (uint16_t)(cpu->h << 8 | cpu->l); \
            Z80__R8SET((dst), Z80__RD(ad)); \
        } else if ((dst) == 6) { \
            if (xm) \
                Z80__XADDR(ad, 5); \
            else \
                ad = (uint16_t)(cpu->h << 8 | cpu->l); \
            Z80__WR(ad, Z80__R8GET(src)); \
        } else if (((dst) == 4 || (dst) == 5 || (src) == 4 || (src) == 5) && xm) { \
            Z80__SET8((dst), xm, Z80__GET8((src), xm)); \
        } else { \
            Z80__R8SET((dst), Z80__R8GET(src)); \
        } \
    } while (0)
#define Z80__ALU_BODY(aop, src) do { \
        if ((src) == 6) { \
            if (xm) \
                Z80__XADDR(ad, 5); \
            else \
                ad = (uint16_t)(cpu->h << 8 | cpu->l); \
            v = Z80__RD(ad); \
        } else if (((src) == 4 || (src) == 5) && xm) { \
            v = Z80__GET8((src), xm); \
        } else { \
            v = Z80__R8GET(src); \
        } \
        f = z_f; \
        z_a = rg__z80_alu((aop), z_a, v, &f); \
        Z80__SETF(f); \
    } while (0)
#define Z80__LD_CASE(o) case (o): Z80__LD_BODY((((o) >> 3) & 7u), ((o) & 7u)); continue;
#define Z80__ALU_CASE(o) case (o): Z80__ALU_BODY((((o) >> 3) & 7u), ((o) & 7u)); continue;
#define Z80__LD_ROW(b) Z80__LD_CASE((b) + 0) Z80__LD_CASE((b) + 1) Z80__LD_CASE((b) + 2) Z80__LD_CASE((b) + 3) \
    Z80__LD_CASE((b) + 4) Z80__LD_CASE((b) + 5) Z80__LD_CASE((b) + 6) Z80__LD_CASE((b) + 7)
#define Z80__ALU_ROW(b) Z80__ALU_CASE((b) + 0) Z80__ALU_CASE((b) + 1) Z80__ALU_CASE((b) + 2) Z80__ALU_CASE((b) + 3) \
    Z80__ALU_CASE((b) + 4) Z80__ALU_CASE((b) + 5) Z80__ALU_CASE((b) + 6) Z80__ALU_CASE((b) + 7)

/* A group of opcodes with one body, each its own case with the opcode as the constant OPC (the compiler
 * specialises the body for each). */
#define Z80__C1(o, ...) case (o): { enum { OPC = (o) }; __VA_ARGS__ } continue;
#define Z80__C2(a, b, ...) Z80__C1(a, __VA_ARGS__) Z80__C1(b, __VA_ARGS__)
#define Z80__C3(a, b, c, ...) Z80__C2(a, b, __VA_ARGS__) Z80__C1(c, __VA_ARGS__)
#define Z80__C4(a, b, c, d, ...) Z80__C2(a, b, __VA_ARGS__) Z80__C2(c, d, __VA_ARGS__)
#define Z80__C7(a, b, c, d, e, g, h, ...) Z80__C4(a, b, c, d, __VA_ARGS__) Z80__C3(e, g, h, __VA_ARGS__)
#define Z80__C8(a, b, c, d, e, g, h, k, ...) Z80__C4(a, b, c, d, __VA_ARGS__) Z80__C4(e, g, h, k, __VA_ARGS__)

/* CB o (unprefixed): rotate/shift, BIT, RES or SET of register o & 7 ((HL) for 6), bit (o >> 3) & 7. */
#define Z80__CB_CASE(o) case (o): { \
        const unsigned cy_ = ((o) >> 3) & 7u, cz_ = (o) & 7u; \
        f = z_f; \
        if (cz_ == 6) { \
            ad = (uint16_t)(cpu->h << 8 | cpu->l); \
            v = Z80__RD(ad); \
            Z80__IDLE(1); \
        } else { \
            v = Z80__R8GET(cz_); \
        } \
        if (((o) >> 6) == 1) { \
            Z80__SETF(rg__z80_bit(cy_, v, cz_ == 6 ? (unsigned)(cpu->wz >> 8) : v, f)); \
            continue; \
        } \
        if (((o) >> 6) == 0) { \
            v = rg__z80_rot(cy_, v, &f); \
            Z80__SETF(f); \
        } else if (((o) >> 6) == 2) { \
            v &= ~(1u << cy_); \
        } else { \
            v |= 1u << cy_; \
        } \
        if (cz_ == 6) \
            Z80__WR(ad, v); \
        else \
            Z80__R8SET(cz_, v); \
    } continue;
#define Z80__CB_ROW(b) Z80__CB_CASE((b) + 0) Z80__CB_CASE((b) + 1) Z80__CB_CASE((b) + 2) Z80__CB_CASE((b) + 3) \
    Z80__CB_CASE((b) + 4) Z80__CB_CASE((b) + 5) Z80__CB_CASE((b) + 6) Z80__CB_CASE((b) + 7)
#define Z80__CB_ROWS(b) Z80__CB_ROW((b) + 0) Z80__CB_ROW((b) + 8) Z80__CB_ROW((b) + 16) Z80__CB_ROW((b) + 24)

static int Z80_FN(rg_z80 *cpu, Z80_CTX *ctx)
{
    /* pc, A, F, the R counter, Q and the EI / LD A,I flags live in locals while the function runs (written back as it
     * returns), and so does whether an interrupt or HALT needs looking at (z_chk) */
    uint16_t z_pc = cpu->pc;
    uint8_t z_a = cpu->a, z_f = cpu->f;
    unsigned z_r = cpu->r, z_q = cpu->q, z_ei = cpu->ei, z_p = cpu->p, z_chk, z_io = 0;
    uint64_t z_lim = 0;
    Z80__ENTER
    Z80__PENDING();
    (void)z_io;
    (void)z_lim;
    for (;;) {
        unsigned op, xm, v, t;
        uint16_t ad = 0;
        uint8_t f, prevq;

        /* the run's end, or an interrupt or HALT to look at (one test on the common path when the bus gives
         * Z80_NOW / Z80_STOP_AT) */
        if (__builtin_expect(Z80__SLOW(), 0)) {
            if (Z80_STOP(ctx)) {
                cpu->pc = z_pc;
                cpu->a = z_a;
                cpu->f = z_f;
                cpu->r = Z80__R;
                cpu->q = (uint8_t)z_q;
                cpu->ei = (uint8_t)z_ei;
                cpu->p = (uint8_t)z_p;
                Z80__LEAVE
                return 0;
            }

            /* ---- interrupts and HALT (one test on the common path) ---- */
            if (z_chk != 0) {
                if (cpu->nmi_pending) {
                    cpu->nmi_pending = 0;
                    cpu->halted = 0;
                    z_ei = z_p = z_q = 0;
                    (void)Z80_FETCH(ctx, z_pc, Z80__IR);
                    Z80__RINC();
                    Z80__IDLE(1);
                    cpu->iff1 = 0;
                    Z80__PUSH(z_pc);
                    z_pc = cpu->wz = 0x0066u;
                    Z80__PENDING();
                    continue;
                }
                if (cpu->int_line && cpu->iff1 && !z_ei) {
                    if (z_p)
                        z_f &= (uint8_t)~RG_Z80_PF;
                    cpu->halted = 0;
                    cpu->iff1 = cpu->iff2 = 0;
                    z_ei = z_p = z_q = 0;
                    v = Z80__INTA(Z80__IR);
                    Z80__RINC();
                    Z80__IDLE(1);
                    Z80__PUSH(z_pc);
                    if (cpu->im == 2) {
                        ad = (uint16_t)(cpu->i << 8 | (v & 0xFFu));
                        t = Z80__RD(ad);
                        t |= (unsigned)Z80__RD((uint16_t)(ad + 1u)) << 8;
                        z_pc = cpu->wz = (uint16_t)t;
                    } else {
                        /* IM 1, and IM 0 with RST n on the bus (any other byte is taken as RST $38) */
                        z_pc = cpu->wz = (uint16_t)(cpu->im == 0 && (v & 0xC7u) == 0xC7u ? (v & 0x38u) : 0x38u);
                    }
                    Z80__PENDING();
                    continue;
                }
                if (cpu->halted) {
                    /* HALT: NOP-like M1 cycles at the address after the HALT, pc does not move */
                    z_q = 0;
                    z_ei = 0;
                    z_p = 0;
#ifdef Z80_HALT_RUN
                    t = Z80_HALT_RUN(ctx);
                    z_r += t;
#else
                    (void)Z80_FETCH(ctx, z_pc, Z80__IR);
                    Z80__RINC();
#endif
                    continue;
                }
            }
        }

        prevq = (uint8_t)z_q;
        z_q = 0;
        z_ei = 0;
        z_p = 0;

        xm = 0;
        Z80__FETCH(op);
    dispatch:
        switch (op) {
        /* ---------------- prefixes ---------------- */
        case 0xDD:
        case 0xFD:
            xm = op == 0xDD ? 1u : 2u;
            Z80__FETCH(op);
            if (op == 0xDD || op == 0xFD || op == 0xED) {
                /* another prefix: the previous one is forgotten */
                if (op == 0xED)
                    xm = 0;
                goto dispatch;
            }
            if (op == 0xCB) {
                unsigned cb, y, z;
                Z80__XADDR(ad, 0);
                Z80__IMM(cb);
                Z80__IDLE(2);
                y = (cb >> 3) & 7u;
                z = cb & 7u;
                v = Z80__RD(ad);
                Z80__IDLE(1);
                f = z_f;
                switch (cb >> 6) {
                case 0: v = rg__z80_rot(y, v, &f); break;
                case 1: Z80__SETF(rg__z80_bit(y, v, cpu->wz >> 8, f)); continue;
                case 2: v &= ~(1u << y); break;
                default: v |= 1u << y; break;
                }
                if ((cb >> 6) == 0)
                    Z80__SETF(f);
                Z80__WR(ad, v);
                if (z != 6)
                    Z80__R8SET(z, v);
                continue;
            }
            goto dispatch;

        case 0xCB: {
            unsigned cb;
            Z80__FETCH(cb);
            switch (cb) { /* one case per CB opcode (Z80__CB_CASE): register, bit and operation as constants */
            Z80__CB_ROWS(0x00) Z80__CB_ROWS(0x20) Z80__CB_ROWS(0x40) Z80__CB_ROWS(0x60)
            Z80__CB_ROWS(0x80) Z80__CB_ROWS(0xA0) Z80__CB_ROWS(0xC0) Z80__CB_ROWS(0xE0)
            default: continue; /* not reached */
            }
        }

        case 0xED: {
            unsigned e, y, z;
            Z80__FETCH(e);
            y = (e >> 3) & 7u;
            z = e & 7u;
            if ((e & 0xC0u) == 0x40u) {
                switch (z) {
                case 0: /* IN r,(C) ; IN (C) */
                    ad = (uint16_t)(cpu->b << 8 | cpu->c);
                    v = Z80__IN(ad);
                    cpu->wz = (uint16_t)(ad + 1u);
                    Z80__SETF((z_f & RG_Z80_CF) | rg__z80_sz53p(v));
                    if (y != 6)
                        Z80__R8SET(y, v);
                    break;
                case 1: /* OUT (C),r ; OUT (C),0 */
                    ad = (uint16_t)(cpu->b << 8 | cpu->c);
                    Z80__OUT(ad, y == 6 ? 0u : Z80__R8GET(y));
                    cpu->wz = (uint16_t)(ad + 1u);
                    break;
                case 2: /* SBC HL,rr ; ADC HL,rr */
                    Z80__IDLE(7);
                    t = rg__z80_get16(cpu, 2, 0);
                    cpu->wz = (uint16_t)(t + 1u);
                    f = z_f;
                    t = rg__z80_adc16(t, rg__z80_get16(cpu, y >> 1, 0), !(y & 1u), &f);
                    Z80__SETF(f);
                    rg__z80_set16(cpu, 2, 0, t);
                    break;
                case 3: /* LD (nn),rr ; LD rr,(nn) */
                    Z80__IMM16(ad);
                    if (y & 1u) {
                        t = Z80__RD(ad);
                        t |= (unsigned)Z80__RD((uint16_t)(ad + 1u)) << 8;
                        rg__z80_set16(cpu, y >> 1, 0, t);
                    } else {
                        t = rg__z80_get16(cpu, y >> 1, 0);
                        Z80__WR(ad, t & 0xFFu);
                        Z80__WR((uint16_t)(ad + 1u), t >> 8);
                    }
                    cpu->wz = (uint16_t)(ad + 1u);
                    break;
                case 4: /* NEG */
                    f = z_f;
                    z_a = rg__z80_alu(2, 0, z_a, &f);
                    Z80__SETF(f);
                    break;
                case 5: /* RETN ; RETI */
                    Z80__POP(z_pc);
                    cpu->wz = z_pc;
                    cpu->iff1 = cpu->iff2;
                    break;
                case 6: /* IM */
                    cpu->im = (uint8_t)((y & 3u) == 0 || (y & 3u) == 1 ? 0u : (y & 3u) - 1u);
                    break;
                default:
                    switch (y) {
                    case 0: Z80__IDLE(1); cpu->i = z_a; break;          /* LD I,A */
                    case 1: Z80__IDLE(1); cpu->r = z_a; z_r = z_a; break;          /* LD R,A */
                    case 2:                                               /* LD A,I */
                    case 3:                                               /* LD A,R */
                        Z80__IDLE(1);
                        z_a = y == 2 ? cpu->i : Z80__R;
                        Z80__SETF((z_f & RG_Z80_CF) | rg__z80_sz53(z_a) | (cpu->iff2 ? RG_Z80_PF : 0u));
                        z_p = 1;
                        break;
                    case 4: /* RRD */
                    case 5: /* RLD */
                        ad = (uint16_t)(cpu->h << 8 | cpu->l);
                        v = Z80__RD(ad);
                        Z80__IDLE(4);
                        if (y == 4) {
                            Z80__WR(ad, ((unsigned)z_a << 4 | v >> 4) & 0xFFu);
                            z_a = (uint8_t)((z_a & 0xF0u) | (v & 0x0Fu));
                        } else {
                            Z80__WR(ad, (v << 4 | (z_a & 0x0Fu)) & 0xFFu);
                            z_a = (uint8_t)((z_a & 0xF0u) | (v >> 4));
                        }
                        cpu->wz = (uint16_t)(ad + 1u);
                        Z80__SETF((z_f & RG_Z80_CF) | rg__z80_sz53p(z_a));
                        break;
                    default: break; /* ED 77, ED 7F: NOP */
                    }
                    break;
                }
            } else if ((e & 0xE4u) == 0xA0u) {
                /* block instructions: y 4 = ..I, 5 = ..D, 6 = ..IR, 7 = ..DR; z 0 LD, 1 CP, 2 IN, 3 OUT */
                int dec = y & 1u, rep = y >= 6;
                uint16_t hl = (uint16_t)(cpu->h << 8 | cpu->l), bc = (uint16_t)(cpu->b << 8 | cpu->c);
                uint16_t step = dec ? 0xFFFFu : 1u;
                switch (z) {
                case 0: { /* LDI LDD LDIR LDDR */
                    uint16_t de = (uint16_t)(cpu->d << 8 | cpu->e);
                    v = Z80__RD(hl);
                    Z80__WR(de, v);
                    Z80__IDLE(2);
                    hl = (uint16_t)(hl + step);
                    de = (uint16_t)(de + step);
                    bc--;
                    t = (v + z_a) & 0xFFu;
                    f = (uint8_t)((z_f & (RG_Z80_SF | RG_Z80_ZF | RG_Z80_CF)) | (bc ? RG_Z80_PF : 0u) |
                                  (t & RG_Z80_XF) | ((t << 4) & RG_Z80_YF));
                    cpu->d = (uint8_t)(de >> 8);
                    cpu->e = (uint8_t)de;
                    if (rep && bc) {
                        Z80__IDLE(5);
                        z_pc = (uint16_t)(z_pc - 2u);
                        cpu->wz = (uint16_t)(z_pc + 1u);
                        f = (uint8_t)((f & ~RG__Z80_XY) | ((z_pc >> 8) & RG__Z80_XY));
                    }
                    Z80__SETF(f);
                    break;
                }
                case 1: { /* CPI CPD CPIR CPDR */
                    unsigned r, h;
                    v = Z80__RD(hl);
                    Z80__IDLE(5);
                    hl = (uint16_t)(hl + step);
                    bc--;
                    r = (z_a - v) & 0xFFu;
                    h = (z_a ^ v ^ r) & RG_Z80_HF;
                    t = (r - (h ? 1u : 0u)) & 0xFFu;
                    f = (uint8_t)((z_f & RG_Z80_CF) | RG_Z80_NF | (rg__z80_sz53(r) & ~RG__Z80_XY) | h |
                                  (bc ? RG_Z80_PF : 0u) | (t & RG_Z80_XF) | ((t << 4) & RG_Z80_YF));
                    cpu->wz = (uint16_t)(cpu->wz + step);
                    if (rep && bc && r) {
                        Z80__IDLE(5);
                        z_pc = (uint16_t)(z_pc - 2u);
                        cpu->wz = (uint16_t)(z_pc + 1u);
                        f = (uint8_t)((f & ~RG__Z80_XY) | ((z_pc >> 8) & RG__Z80_XY));
                    }
                    Z80__SETF(f);
                    break;
                }
                case 2: /* INI IND INIR INDR */
                    Z80__IDLE(1);
                    v = Z80__IN(bc);
                    Z80__WR(hl, v);
                    cpu->wz = (uint16_t)(bc + step);
                    cpu->b--;
                    hl = (uint16_t)(hl + step);
                    f = rg__z80_io_block_flags(v, v + ((cpu->c + step) & 0xFFu), cpu->b);
                    goto io_repeat;
                default: /* OUTI OUTD OTIR OTDR */
                    Z80__IDLE(1);
                    v = Z80__RD(hl);
                    cpu->b--;
                    bc = (uint16_t)(cpu->b << 8 | cpu->c);
                    Z80__OUT(bc, v);
                    cpu->wz = (uint16_t)(bc + step);
                    hl = (uint16_t)(hl + step);
                    f = rg__z80_io_block_flags(v, v + (hl & 0xFFu), cpu->b);
                io_repeat:
                    if (rep && cpu->b) {
                        Z80__IDLE(5);
                        z_pc = (uint16_t)(z_pc - 2u);
                        cpu->wz = (uint16_t)(z_pc + 1u);
                        f = (uint8_t)((f & ~RG__Z80_XY) | ((z_pc >> 8) & RG__Z80_XY));
                        f = rg__z80_io_repeat_flags(f, cpu->b);
                    }
                    Z80__SETF(f);
                    break;
                }
                cpu->h = (uint8_t)(hl >> 8);
                cpu->l = (uint8_t)hl;
                if (z < 2) {
                    cpu->b = (uint8_t)(bc >> 8);
                    cpu->c = (uint8_t)bc;
                }
            }
            /* every other ED opcode is an 8 T-state NOP */
            continue;
        }

        /* ---------------- unprefixed (and DD/FD) opcodes ---------------- */
        case 0x00: continue;                                                   /* NOP */
        Z80__C4(0x01, 0x11, 0x21, 0x31, /* LD rr,nn */
            Z80__IMM16(t);
            rg__z80_set16(cpu, OPC >> 4, xm, t);
        )
        Z80__C2(0x02, 0x12, /* LD (BC),A ; LD (DE),A */
            ad = rg__z80_get16(cpu, OPC >> 4, 0);
            Z80__WR(ad, z_a);
            cpu->wz = (uint16_t)(z_a << 8 | ((ad + 1u) & 0xFFu));
        )
        Z80__C2(0x0A, 0x1A, /* LD A,(BC) ; LD A,(DE) */
            ad = rg__z80_get16(cpu, OPC >> 4, 0);
            z_a = Z80__RD(ad);
            cpu->wz = (uint16_t)(ad + 1u);
        )
        Z80__C4(0x03, 0x13, 0x23, 0x33, /* INC rr */
            Z80__IDLE(2);
            rg__z80_set16(cpu, OPC >> 4, xm, rg__z80_get16(cpu, OPC >> 4, xm) + 1u);
        )
        Z80__C4(0x0B, 0x1B, 0x2B, 0x3B, /* DEC rr */
            Z80__IDLE(2);
            rg__z80_set16(cpu, OPC >> 4, xm, rg__z80_get16(cpu, OPC >> 4, xm) - 1u);
        )
        Z80__C4(0x09, 0x19, 0x29, 0x39, /* ADD HL,rr */
            Z80__IDLE(7);
            t = rg__z80_get16(cpu, 2, xm);
            cpu->wz = (uint16_t)(t + 1u);
            f = z_f;
            t = rg__z80_add16(t, rg__z80_get16(cpu, OPC >> 4, xm), &f);
            Z80__SETF(f);
            rg__z80_set16(cpu, 2, xm, t);
        )
        Z80__C7(0x04, 0x0C, 0x14, 0x1C, 0x24, 0x2C, 0x3C, /* INC r */
            f = z_f;
            Z80__SET8(OPC >> 3, xm, rg__z80_inc8(Z80__GET8(OPC >> 3, xm), &f));
            Z80__SETF(f);
        )
        Z80__C7(0x05, 0x0D, 0x15, 0x1D, 0x25, 0x2D, 0x3D, /* DEC r */
            f = z_f;
            Z80__SET8(OPC >> 3, xm, rg__z80_dec8(Z80__GET8(OPC >> 3, xm), &f));
            Z80__SETF(f);
        )
        Z80__C2(0x34, 0x35, /* INC (HL) ; DEC (HL) */
            if (xm)
                Z80__XADDR(ad, 5);
            else
                ad = (uint16_t)(cpu->h << 8 | cpu->l);
            v = Z80__RD(ad);
            Z80__IDLE(1);
            f = z_f;
            v = OPC == 0x34 ? rg__z80_inc8(v, &f) : rg__z80_dec8(v, &f);
            Z80__SETF(f);
            Z80__WR(ad, v);
        )
        Z80__C7(0x06, 0x0E, 0x16, 0x1E, 0x26, 0x2E, 0x3E, /* LD r,n */
            Z80__IMM(v);
            Z80__SET8(OPC >> 3, xm, v);
        )
        case 0x36:                                                             /* LD (HL),n */
            if (xm) {
                Z80__XADDR(ad, 0);
                Z80__IMM(v);
                Z80__IDLE(2);
            } else {
                ad = (uint16_t)(cpu->h << 8 | cpu->l);
                Z80__IMM(v);
            }
            Z80__WR(ad, v);
            continue;
        Z80__C4(0x07, 0x0F, 0x17, 0x1F, /* RLCA RRCA RLA RRA */
            {
                unsigned a = z_a, c;
                switch (OPC >> 3) {
                case 0: c = a >> 7; a = (a << 1) | c; break;
                case 1: c = a & 1u; a = (a >> 1) | (c << 7); break;
                case 2: c = a >> 7; a = (a << 1) | (z_f & RG_Z80_CF); break;
                default: c = a & 1u; a = (a >> 1) | ((unsigned)(z_f & RG_Z80_CF) << 7); break;
                }
                z_a = (uint8_t)a;
                Z80__SETF((z_f & RG__Z80_SZP) | (z_a & RG__Z80_XY) | c);
                continue;
            }
        )
        case 0x08: {                                                           /* EX AF,AF' */
            uint16_t x = cpu->af_;
            cpu->af_ = (uint16_t)(z_a << 8 | z_f);
            z_a = (uint8_t)(x >> 8);
            z_f = (uint8_t)x;
            continue;
        }
        case 0x10:                                                             /* DJNZ e */
            Z80__IDLE(1);
            Z80__IMM(v);
            if (--cpu->b) {
                Z80__IDLE(5);
                z_pc = cpu->wz = (uint16_t)(z_pc + (uint16_t)(int8_t)(uint8_t)v);
            }
            continue;
        case 0x18:                                                             /* JR e */
            Z80__IMM(v);
            Z80__IDLE(5);
            z_pc = cpu->wz = (uint16_t)(z_pc + (uint16_t)(int8_t)(uint8_t)v);
            continue;
        Z80__C4(0x20, 0x28, 0x30, 0x38, /* JR cc,e */
            Z80__IMM(v);
            if (rg__z80_cond(z_f, (OPC >> 3) & 3u)) {
                Z80__IDLE(5);
                z_pc = cpu->wz = (uint16_t)(z_pc + (uint16_t)(int8_t)(uint8_t)v);
            }
        )
        case 0x22:                                                             /* LD (nn),HL */
            Z80__IMM16(ad);
            t = rg__z80_get16(cpu, 2, xm);
            Z80__WR(ad, t & 0xFFu);
            Z80__WR((uint16_t)(ad + 1u), t >> 8);
            cpu->wz = (uint16_t)(ad + 1u);
            continue;
        case 0x2A:                                                             /* LD HL,(nn) */
            Z80__IMM16(ad);
            t = Z80__RD(ad);
            t |= (unsigned)Z80__RD((uint16_t)(ad + 1u)) << 8;
            rg__z80_set16(cpu, 2, xm, t);
            cpu->wz = (uint16_t)(ad + 1u);
            continue;
        case 0x27:                                                             /* DAA */
            f = z_f;
            z_a = rg__z80_daa(z_a, &f);
            Z80__SETF(f);
            continue;
        case 0x2F:                                                             /* CPL */
            z_a = (uint8_t)~z_a;
            Z80__SETF((z_f & (RG__Z80_SZP | RG_Z80_CF)) | RG_Z80_HF | RG_Z80_NF | (z_a & RG__Z80_XY));
            continue;
        case 0x32:                                                             /* LD (nn),A */
            Z80__IMM16(ad);
            Z80__WR(ad, z_a);
            cpu->wz = (uint16_t)(z_a << 8 | ((ad + 1u) & 0xFFu));
            continue;
        case 0x3A:                                                             /* LD A,(nn) */
            Z80__IMM16(ad);
            z_a = Z80__RD(ad);
            cpu->wz = (uint16_t)(ad + 1u);
            continue;
        case 0x37:                                                             /* SCF */
            Z80__SETF((z_f & RG__Z80_SZP) | RG_Z80_CF | (((prevq ^ z_f) | z_a) & RG__Z80_XY));
            continue;
        case 0x3F:                                                             /* CCF */
            Z80__SETF((z_f & RG__Z80_SZP) | ((z_f & RG_Z80_CF) ? RG_Z80_HF : RG_Z80_CF) |
                      (((prevq ^ z_f) | z_a) & RG__Z80_XY));
            continue;
        case 0x76:                                                             /* HALT */
            cpu->halted = 1;
            Z80__SETCHK(1u);
            continue;
        Z80__C8(0xC0, 0xC8, 0xD0, 0xD8, 0xE0, 0xE8, 0xF0, 0xF8, /* RET cc */
            Z80__IDLE(1);
            if (rg__z80_cond(z_f, (OPC >> 3) & 7u)) {
                Z80__POP(z_pc);
                cpu->wz = z_pc;
            }
        )
        Z80__C3(0xC1, 0xD1, 0xE1, /* POP rr */
            Z80__POP(t);
            rg__z80_set16(cpu, (OPC >> 4) & 3u, xm, t);
        )
        case 0xF1:                                                             /* POP AF */
            Z80__POP(t);
            z_a = (uint8_t)(t >> 8);
            z_f = (uint8_t)t;
            continue;
        Z80__C3(0xC5, 0xD5, 0xE5, /* PUSH rr */
            Z80__IDLE(1);
            Z80__PUSH(rg__z80_get16(cpu, (OPC >> 4) & 3u, xm));
        )
        case 0xF5:                                                             /* PUSH AF */
            Z80__IDLE(1);
            Z80__PUSH((unsigned)z_a << 8 | z_f);
            continue;
        Z80__C8(0xC2, 0xCA, 0xD2, 0xDA, 0xE2, 0xEA, 0xF2, 0xFA, /* JP cc,nn */
            Z80__IMM16(ad);
            cpu->wz = ad;
            if (rg__z80_cond(z_f, (OPC >> 3) & 7u))
                z_pc = ad;
        )
        case 0xC3:                                                             /* JP nn */
            Z80__IMM16(ad);
            z_pc = cpu->wz = ad;
            continue;
        Z80__C8(0xC4, 0xCC, 0xD4, 0xDC, 0xE4, 0xEC, 0xF4, 0xFC, /* CALL cc,nn */
            Z80__IMM16(ad);
            cpu->wz = ad;
            if (rg__z80_cond(z_f, (OPC >> 3) & 7u)) {
                Z80__IDLE(1);
                Z80__PUSH(z_pc);
                z_pc = ad;
            }
        )
        case 0xCD:                                                             /* CALL nn */
            Z80__IMM16(ad);
            Z80__IDLE(1);
            Z80__PUSH(z_pc);
            z_pc = cpu->wz = ad;
            continue;
        case 0xC9:                                                             /* RET */
            Z80__POP(z_pc);
            cpu->wz = z_pc;
            continue;
        Z80__C8(0xC6, 0xCE, 0xD6, 0xDE, 0xE6, 0xEE, 0xF6, 0xFE, /* ALU A,n */
            Z80__IMM(v);
            f = z_f;
            z_a = rg__z80_alu((OPC >> 3) & 7u, z_a, v, &f);
            Z80__SETF(f);
        )
        Z80__C8(0xC7, 0xCF, 0xD7, 0xDF, 0xE7, 0xEF, 0xF7, 0xFF, /* RST p */
            Z80__IDLE(1);
            Z80__PUSH(z_pc);
            z_pc = cpu->wz = (uint16_t)(OPC & 0x38u);
        )
        case 0xD3:                                                             /* OUT (n),A */
            Z80__IMM(v);
            Z80__OUT(z_a << 8 | v, z_a);
            cpu->wz = (uint16_t)(z_a << 8 | ((v + 1u) & 0xFFu));
            continue;
        case 0xDB:                                                             /* IN A,(n) */
            Z80__IMM(v);
            ad = (uint16_t)(z_a << 8 | v);
            z_a = Z80__IN(ad);
            cpu->wz = (uint16_t)(ad + 1u);
            continue;
        case 0xD9: {                                                           /* EXX */
            uint16_t x;
            x = cpu->bc_; cpu->bc_ = (uint16_t)(cpu->b << 8 | cpu->c); cpu->b = (uint8_t)(x >> 8); cpu->c = (uint8_t)x;
            x = cpu->de_; cpu->de_ = (uint16_t)(cpu->d << 8 | cpu->e); cpu->d = (uint8_t)(x >> 8); cpu->e = (uint8_t)x;
            x = cpu->hl_; cpu->hl_ = (uint16_t)(cpu->h << 8 | cpu->l); cpu->h = (uint8_t)(x >> 8); cpu->l = (uint8_t)x;
            continue;
        }
        case 0xE3:                                                             /* EX (SP),HL */
            t = Z80__RD(cpu->sp);
            t |= (unsigned)Z80__RD((uint16_t)(cpu->sp + 1u)) << 8;
            Z80__IDLE(1);
            v = rg__z80_get16(cpu, 2, xm);
            Z80__WR((uint16_t)(cpu->sp + 1u), v >> 8);
            Z80__WR(cpu->sp, v & 0xFFu);
            Z80__IDLE(2);
            rg__z80_set16(cpu, 2, xm, t);
            cpu->wz = (uint16_t)t;
            continue;
        case 0xE9:                                                             /* JP (HL) */
            z_pc = rg__z80_get16(cpu, 2, xm);
            continue;
        case 0xEB: {                                                           /* EX DE,HL */
            uint8_t x;
            x = cpu->d; cpu->d = cpu->h; cpu->h = x;
            x = cpu->e; cpu->e = cpu->l; cpu->l = x;
            continue;
        }
        case 0xF3:                                                             /* DI */
            cpu->iff1 = cpu->iff2 = 0;
            continue;
        case 0xFB:                                                             /* EI */
            cpu->iff1 = cpu->iff2 = 1;
            z_ei = 1;
            continue;
        case 0xF9:                                                             /* LD SP,HL */
            Z80__IDLE(2);
            cpu->sp = rg__z80_get16(cpu, 2, xm);
            continue;

        /* LD r,r' (0x76 is HALT above) and ALU A,r, one case each */
        Z80__LD_ROW(0x40) Z80__LD_ROW(0x48) Z80__LD_ROW(0x50) Z80__LD_ROW(0x58) Z80__LD_ROW(0x60) Z80__LD_ROW(0x68)
        Z80__LD_CASE(0x70) Z80__LD_CASE(0x71) Z80__LD_CASE(0x72) Z80__LD_CASE(0x73) Z80__LD_CASE(0x74)
        Z80__LD_CASE(0x75) Z80__LD_CASE(0x77) Z80__LD_ROW(0x78)
        Z80__ALU_ROW(0x80) Z80__ALU_ROW(0x88) Z80__ALU_ROW(0x90) Z80__ALU_ROW(0x98) Z80__ALU_ROW(0xA0)
        Z80__ALU_ROW(0xA8) Z80__ALU_ROW(0xB0) Z80__ALU_ROW(0xB8)

        default: /* not reached: every opcode has its case */
            continue;
        }
    }
}

#undef Z80__ENTER
#undef Z80__LEAVE
#undef Z80__INTA
#undef Z80__RD
#undef Z80__WR
#undef Z80__IN
#undef Z80__OUT
#undef Z80__IDLE
#undef Z80__IR
#undef Z80__R
#undef Z80__PENDING
#undef Z80__SETCHK
#undef Z80__SLOW
#undef Z80__RINC
#undef Z80__FETCH
#undef Z80__IMM
#undef Z80__IMM16
#undef Z80__PUSH
#undef Z80__POP
#undef Z80__SETF
#undef Z80__XADDR
#undef Z80__LD_BODY
#undef Z80__ALU_BODY
#undef Z80__LD_CASE
#undef Z80__ALU_CASE
#undef Z80__LD_ROW
#undef Z80__ALU_ROW
#undef Z80__C1
#undef Z80__R8GET
#undef Z80__R8SET
#undef Z80__GET8
#undef Z80__SET8
#undef Z80__CB_CASE
#undef Z80__CB_ROW
#undef Z80__CB_ROWS
#undef Z80__C2
#undef Z80__C3
#undef Z80__C4
#undef Z80__C7
#undef Z80__C8
