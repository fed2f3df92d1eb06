/* Include-template generating the 6502 interpreter (behaviour documented in m6502.h).
 *
 * Before including this file, define:
 *   M6502_FN               name of the generated function: int M6502_FN(rg_m6502 *cpu, M6502_CTX *ctx)
 *   M6502_CTX              type of the bus context (e.g. struct a26_machine)
 *   M6502_READ(ctx, addr)  returns the byte at addr (uint16_t); exactly one bus cycle
 *   M6502_WRITE(ctx, addr, v)  writes v (uint8_t); exactly one bus cycle
 *   M6502_STOP(ctx)        checked before each instruction (and before each interrupt sequence); nonzero: return
 * and optionally:
 *   M6502_ENTER(ctx)       declarations placed at the start of the function body (after the jam test), e.g. a
 *                          local copy of the bus's cycle counter that the READ/WRITE macros use, so that it can live
 *                          in a register; default nothing
 *   M6502_LEAVE(ctx)       a statement run before the function returns (after ENTER), e.g. storing that copy back
 *   M6502_INTERRUPTS       0 to compile out NMI/IRQ handling (the 6507 has no interrupt pins); default 1
 *   M6502_LINES_LATE       1 when the machine raises NMI/IRQ one bus cycle after the chip would see them (the
 *                          convention m6502.h describes for machines that need the poll cycle exact): a taken
 *                          branch within its page then samples its interrupt decision after the operand fetch
 *                          instead of before it, which is the chip's poll point seen through that one-cycle shift;
 *                          default 0
 *   M6502_LXA_MAGIC        the constant LXA ($AB) ors into A: default $EE (Stella's, the 2600); the NES's 2A03
 *                          behaves as $FF
 *   M6502_DECIMAL          0 to compile out decimal mode (a 2A03-only build); default 1 (then `no_decimal` decides)
 *   M6502_ATTR             attributes placed before the generated function (e.g. per-function optimisation
 *                          options); default nothing
 *   M6502_LINKAGE          the generated function's storage class: default static; defined empty, the function
 *                          has external linkage (one instance per translation unit, called from another file)
 *   M6502_FETCH2(ctx, pc)  the opcode fetch at pc and the read of the byte after it (the second cycle of every
 *                          instruction), both at once: returns opcode | byte << 8; exactly two bus cycles, as two
 *                          M6502_READs in that order would be (a bus reads plain ROM with one load). Only without
 *                          interrupts (M6502_INTERRUPTS 0); default: one M6502_READ each, made where the cycle falls
 *   M6502_READ_LD_ABS(ctx, addr, pc)  the data read of LDA, LDX and LDY absolute ($AD $AE $AC), with pc the
 *                          address after the instruction (uint16_t): a bus may recognise a polling loop there (the
 *                          2600's timer wait); it must behave as one M6502_READ of addr as far as the program can
 *                          tell; default M6502_READ(ctx, addr)
 *
 * The function runs instructions until M6502_STOP(ctx) is true and returns 0, or returns 1 when the CPU jammed on a
 * KIL opcode (cpu->jammed set; it then returns 1 at once until the machine clears it). Every bus cycle of the chip is
 * one READ or WRITE, dummy accesses included, so the bus counts cycles by counting calls.
 *
 * While it runs, the registers live in locals: the fields of *cpu are stale until it returns, except nmi_pending and
 * irq_line, which the bus may set or clear at any time (they are read at instruction boundaries). The macros receive
 * addresses as uint16_t values without side effects, so they may evaluate their arguments more than once.
 *
 * The file may be included several times in one translation unit with different M6502_FN/M6502_CTX/... (the
 * includer #undefs and redefines its macros between inclusions).
 *
 * Example (a machine whose bus functions are static inline in the same file):
 *     #define M6502_FN        a26_cpu_run
 *     #define M6502_CTX       struct a26_machine
 *     #define M6502_READ(m, addr)     a26_bus_read((m), (addr))
 *     #define M6502_WRITE(m, addr, v) a26_bus_write((m), (addr), (v))
 *     #define M6502_STOP(m)   ((m)->cycles >= (m)->cycle_limit)
 *     #define M6502_INTERRUPTS 0
 *     #include "cpu/m6502/m6502_exec.h"
 * A stalled CPU (the 2600's WSYNC pulling RDY) is the bus's business: the chip only halts on read cycles, so the bus
 * adds the stall to its cycle counter in the next M6502_READ after the stall began.
 */
#include "cpu/m6502/m6502.h"

#if !defined(M6502_FN) || !defined(M6502_CTX) || !defined(M6502_READ) || !defined(M6502_WRITE) || \
    !defined(M6502_STOP)
#error "define M6502_FN, M6502_CTX, M6502_READ, M6502_WRITE and M6502_STOP before including m6502_exec.h"
#endif

/* Arithmetic shared by every instantiation (defined once per translation unit). */
#ifndef RG_CPU_M6502_EXEC_HELPERS
#define RG_CPU_M6502_EXEC_HELPERS

#if defined(__GNUC__)
#define RG__M6502_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define RG__M6502_UNLIKELY(x) (x)
#endif

/* Result of a decimal ADC: the accumulator and the flags (n: bit 7 is N; z: zero means Z set). */
typedef struct rg__m6502_bcd {
    uint8_t a, n, z, v, c;
} rg__m6502_bcd;

/* NMOS decimal ADC: each nibble is corrected by +6 when above 9; the low nibble's correction carries into the high
 * one. Z comes from the binary sum; N and V from the high part after the low correction, before the high one. */
static inline rg__m6502_bcd rg__m6502_adc_decimal(unsigned a, unsigned m, unsigned c)
{
    rg__m6502_bcd r;
    unsigned lo = (a & 0x0Fu) + (m & 0x0Fu) + c;
    unsigned hi = (a & 0xF0u) + (m & 0xF0u);
    r.z = (uint8_t)(a + m + c);
    if (lo > 0x09u) {
        lo += 0x06u;
        hi += 0x10u;
    }
    r.n = (uint8_t)hi;
    r.v = (uint8_t)(((~(a ^ m) & (a ^ hi)) >> 7) & 1u);
    if (hi > 0x90u)
        hi += 0x60u;
    r.c = hi > 0xFFu;
    r.a = (uint8_t)((lo & 0x0Fu) | (hi & 0xF0u));
    return r;
}

/* NMOS decimal SBC: the accumulator only (flags are those of the binary subtraction). A borrow out of a nibble
 * corrects it by -6; the low nibble's borrow propagates into the high one. */
static inline uint8_t rg__m6502_sbc_decimal(unsigned a, unsigned m, unsigned c)
{
    int lo = (int)(a & 0x0Fu) - (int)(m & 0x0Fu) - (int)(1u - c);
    int hi = (int)(a & 0xF0u) - (int)(m & 0xF0u);
    if (lo < 0) {
        lo -= 6;
        hi -= 0x10;
    }
    if (hi < 0)
        hi -= 0x60;
    return (uint8_t)(((unsigned)lo & 0x0Fu) | ((unsigned)hi & 0xF0u));
}

#endif /* RG_CPU_M6502_EXEC_HELPERS */

#ifdef M6502_ENTER
#define M6502__ENTER M6502_ENTER(ctx);
#else
#define M6502__ENTER
#endif
#ifdef M6502_LEAVE
#define M6502__LEAVE M6502_LEAVE(ctx);
#else
#define M6502__LEAVE
#endif
#ifdef M6502_LINES_LATE
#define M6502__LATE (M6502_LINES_LATE)
#else
#define M6502__LATE 0
#endif
#ifdef M6502_LXA_MAGIC
#define M6502__LXA_MAGIC (M6502_LXA_MAGIC)
#else
#define M6502__LXA_MAGIC 0xEEu
#endif
#ifdef M6502_INTERRUPTS
#define M6502__INT (M6502_INTERRUPTS)
#else
#define M6502__INT 1
#endif
#ifdef M6502_DECIMAL
#define M6502__DEC (M6502_DECIMAL)
#else
#define M6502__DEC 1
#endif

/* ---- bus and registers ---- */
#define M6502__RD(ad) M6502_READ(ctx, (uint16_t)(ad))
#define M6502__WR(ad, val) M6502_WRITE(ctx, (uint16_t)(ad), (uint8_t)(val))
#ifdef M6502_READ_LD_ABS
#define M6502__RD_LD_ABS(ad) M6502_READ_LD_ABS(ctx, (uint16_t)(ad), (uint16_t)pc)
#else
#define M6502__RD_LD_ABS(ad) M6502__RD(ad)
#endif
#define M6502__FETCH(dst) do { (dst) = M6502__RD(pc); pc++; } while (0)
/* The opcode fetch, and the instruction's second cycle, which always reads the byte after the opcode (its operand,
 * or the dummy read of a one-byte instruction): with M6502_FETCH2 both at once at the dispatch (op holds the
 * second byte above the opcode), else one access each where the instruction makes it. */
#ifdef M6502_FETCH2
#if M6502__INT
#error "M6502_FETCH2 is for CPUs without interrupts (M6502_INTERRUPTS 0): a branch samples its poll between the two"
#endif
/* op holds both bytes (one register): the opcode below, the second byte above */
#define M6502__FETCH_OP do { op = M6502_FETCH2(ctx, (uint16_t)pc); pc++; } while (0)
#define M6502__OPCODE (op & 0xFFu)
#define M6502__FIRST(dst) do { (dst) = op >> 8; pc++; } while (0)
#define M6502__FIRST_DUMMY (void)0
#else
#define M6502__FETCH_OP M6502__FETCH(op)
#define M6502__OPCODE op
#define M6502__FIRST(dst) M6502__FETCH(dst)
#define M6502__FIRST_DUMMY (void)M6502__RD(pc)
#endif
#define M6502__PUSH(val) do { M6502__WR(0x100u | s, (val)); s--; } while (0)
#define M6502__PULL(dst) do { s++; (dst) = M6502__RD(0x100u | s); } while (0)
#define M6502__NZ(r) (fn = fz = (uint8_t)(r))
#define M6502__PACK() \
    ((uint8_t)((fn & 0x80u) | (unsigned)fv << 6 | 0x20u | (unsigned)fd << 3 | (unsigned)fi << 2 | \
               (unsigned)(fz == 0) << 1 | fc))
#define M6502__UNPACK(pv) do { \
        unsigned up_ = (pv); \
        fn = (uint8_t)up_; fz = (uint8_t)(~up_ & 2u); fc = up_ & 1u; \
        fv = (up_ >> 6) & 1u; fd = (up_ >> 3) & 1u; fi = (up_ >> 2) & 1u; \
    } while (0)
#define M6502__DECIMAL_ON (fd && dec_ok)
/* Sign-extends a branch offset without relying on implementation-defined conversions. */
#define M6502__REL(off) ((int)((off) ^ 0x80u) - 0x80)

/* ---- addressing modes: leave the effective address in ea (v: immediate operand) ---- */
#define M6502__IMM M6502__FIRST(v)
#define M6502__ZP M6502__FIRST(ea)
#define M6502__ZPI(r) do { M6502__FIRST(ea); (void)M6502__RD(ea); ea = (ea + (r)) & 0xFFu; } while (0)
#define M6502__ABS do { M6502__FIRST(ea); M6502__FETCH(t); ea |= t << 8; } while (0)
/* Indexed reads touch the unfixed address (old high byte) only when the index carries into the high byte. */
#define M6502__ABI_R(r) do { \
        M6502__FIRST(ea); M6502__FETCH(t); ea += (r); \
        if (ea > 0xFFu) (void)M6502__RD(t << 8 | (ea & 0xFFu)); \
        ea = (ea + (t << 8)) & 0xFFFFu; \
    } while (0)
/* Stores and read-modify-write always read the unfixed address first. */
#define M6502__ABI_W(r) do { \
        M6502__FIRST(ea); M6502__FETCH(t); ea += (r); \
        (void)M6502__RD(t << 8 | (ea & 0xFFu)); \
        ea = (ea + (t << 8)) & 0xFFFFu; \
    } while (0)
#define M6502__IZX do { \
        M6502__FIRST(t); (void)M6502__RD(t); t = (t + x) & 0xFFu; \
        ea = M6502__RD(t); ea |= (unsigned)M6502__RD((t + 1u) & 0xFFu) << 8; \
    } while (0)
#define M6502__IZY_R do { \
        M6502__FIRST(t); ea = M6502__RD(t); t = M6502__RD((t + 1u) & 0xFFu); ea += y; \
        if (ea > 0xFFu) (void)M6502__RD(t << 8 | (ea & 0xFFu)); \
        ea = (ea + (t << 8)) & 0xFFFFu; \
    } while (0)
#define M6502__IZY_W do { \
        M6502__FIRST(t); ea = M6502__RD(t); t = M6502__RD((t + 1u) & 0xFFu); ea += y; \
        (void)M6502__RD(t << 8 | (ea & 0xFFu)); \
        ea = (ea + (t << 8)) & 0xFFFFu; \
    } while (0)
/* SHA/SHX/SHY/TAS: ea holds low byte + index and t the base's high byte H, the unfixed address was read; the value
 * is reg & (H + 1), and a page cross puts that value in the address's high byte. */
#define M6502__SH_STORE(reg) do { \
        v = (reg) & (t + 1u) & 0xFFu; \
        ea = ea > 0xFFu ? (v << 8 | (ea & 0xFFu)) : (t << 8 | ea); \
        M6502__WR(ea, v); \
    } while (0)
#define M6502__SH_ABS(r) do { \
        M6502__FIRST(ea); M6502__FETCH(t); ea += (r); (void)M6502__RD(t << 8 | (ea & 0xFFu)); \
    } while (0)

/* ---- operations on v (the operand) ---- */
#define M6502__ADC_V do { \
        if (RG__M6502_UNLIKELY(M6502__DECIMAL_ON)) { \
            rg__m6502_bcd bcd_ = rg__m6502_adc_decimal(a, v, fc); \
            a = bcd_.a; fn = bcd_.n; fz = bcd_.z; fv = bcd_.v; fc = bcd_.c; \
        } else { \
            unsigned sum_ = a + v + fc; \
            fv = (uint8_t)(((~(a ^ v) & (a ^ sum_)) >> 7) & 1u); \
            fc = (uint8_t)(sum_ >> 8); a = (uint8_t)sum_; M6502__NZ(a); \
        } \
    } while (0)
#define M6502__SBC_V do { \
        unsigned nv_ = v ^ 0xFFu, dif_ = a + nv_ + fc; \
        uint8_t bin_ = (uint8_t)dif_; \
        if (RG__M6502_UNLIKELY(M6502__DECIMAL_ON)) bin_ = rg__m6502_sbc_decimal(a, v, fc); \
        fv = (uint8_t)(((~(a ^ nv_) & (a ^ dif_)) >> 7) & 1u); \
        fc = (uint8_t)(dif_ >> 8); M6502__NZ(dif_); a = bin_; \
    } while (0)
#define M6502__CMP_V(reg) do { unsigned c_ = (reg) + (v ^ 0xFFu) + 1u; fc = (uint8_t)(c_ >> 8); M6502__NZ(c_); } while (0)
#define M6502__ORA_V do { a |= (uint8_t)v; M6502__NZ(a); } while (0)
#define M6502__AND_V do { a &= (uint8_t)v; M6502__NZ(a); } while (0)
#define M6502__EOR_V do { a ^= (uint8_t)v; M6502__NZ(a); } while (0)
#define M6502__LDA_V do { a = (uint8_t)v; M6502__NZ(a); } while (0)
#define M6502__LDX_V do { x = (uint8_t)v; M6502__NZ(x); } while (0)
#define M6502__LDY_V do { y = (uint8_t)v; M6502__NZ(y); } while (0)
#define M6502__LAX_V do { a = x = (uint8_t)v; M6502__NZ(a); } while (0)
#define M6502__BIT_V do { fz = a & (uint8_t)v; fn = (uint8_t)v; fv = (v >> 6) & 1u; } while (0)
#define M6502__ASL_V do { fc = (uint8_t)(v >> 7); v = (v << 1) & 0xFFu; M6502__NZ(v); } while (0)
#define M6502__LSR_V do { fc = v & 1u; v >>= 1; M6502__NZ(v); } while (0)
#define M6502__ROL_V do { t = fc; fc = (uint8_t)(v >> 7); v = ((v << 1) | t) & 0xFFu; M6502__NZ(v); } while (0)
#define M6502__ROR_V do { t = fc; fc = v & 1u; v = (v >> 1) | (t << 7); M6502__NZ(v); } while (0)
#define M6502__INC_V do { v = (v + 1u) & 0xFFu; M6502__NZ(v); } while (0)
#define M6502__DEC_V do { v = (v - 1u) & 0xFFu; M6502__NZ(v); } while (0)
#define M6502__SLO_V do { M6502__ASL_V; M6502__ORA_V; } while (0)
#define M6502__RLA_V do { M6502__ROL_V; M6502__AND_V; } while (0)
#define M6502__SRE_V do { M6502__LSR_V; M6502__EOR_V; } while (0)
#define M6502__RRA_V do { M6502__ROR_V; M6502__ADC_V; } while (0)
#define M6502__DCP_V do { M6502__DEC_V; M6502__CMP_V(a); } while (0)
#define M6502__ISB_V do { M6502__INC_V; M6502__SBC_V; } while (0)

/* ---- instruction shapes ---- */
#define M6502__READ(MODE, OP) MODE; v = M6502__RD(ea); OP; M6502__NEXT
#define M6502__STORE(MODE, val) MODE; M6502__WR(ea, (val)); M6502__NEXT
/* Read-modify-write: the chip writes the unmodified value back before the result. */
#define M6502__RMW(MODE, OP) MODE; v = M6502__RD(ea); M6502__WR(ea, v); OP; M6502__WR(ea, v); M6502__NEXT
#define M6502__ACC(OP) M6502__FIRST_DUMMY; v = a; OP; a = (uint8_t)v; M6502__NEXT
#define M6502__IMPLIED(stmt) M6502__FIRST_DUMMY; stmt; M6502__NEXT

#if M6502__INT
/* The decision a plain poll would make now. */
#define M6502__WANTS_INT(ival) (cpu->nmi_pending || (cpu->irq_line && !(ival)))
#define M6502__BRANCH_START uint8_t br_take_ = (uint8_t)M6502__WANTS_INT(fi)
/* A taken branch within its page does not poll again: keep the decision from its start when it differs. */
#define M6502__BRANCH_NOPOLL do { \
        if ((uint8_t)M6502__WANTS_INT(fi) != br_take_) { poll = RG__M6502_POLL_SAMPLE; poll_arg = br_take_; } \
    } while (0)
#define M6502__I_CHANGE(stmt) do { poll = RG__M6502_POLL_OLD_I; poll_arg = fi; stmt; } while (0)
/* Whether the instruction boundary must look at the interrupt logic: a latency carried over (poll), an NMI, or an
 * IRQ line that I does not mask. A held IRQ line with I set (a level a handler has not acknowledged yet, or a
 * program that runs with interrupts off) decides nothing there (a plain poll would not take it), so it costs no trip
 * through the poll switch. irq_line is 0 or 1; any other value only takes the slow path, which decides correctly. */
#define M6502__POLL_DUE (poll | cpu->nmi_pending | ((unsigned)cpu->irq_line & ~(unsigned)fi))
#else
#define M6502__BRANCH_START (void)0
#define M6502__BRANCH_NOPOLL (void)0
#define M6502__I_CHANGE(stmt) do { stmt; } while (0)
#endif

/* Branch: operand fetch; if taken, a read at the next opcode address, and on a page cross one more read at the
 * target's low byte within the old page. */
#if M6502__INT && M6502__LATE
#define M6502__BRANCH_PRE (void)0
#define M6502__BRANCH_POST M6502__BRANCH_START
#else
#define M6502__BRANCH_PRE M6502__BRANCH_START
#define M6502__BRANCH_POST (void)0
#endif
#define M6502__BRANCH(cond) do { \
        M6502__BRANCH_PRE; \
        M6502__FIRST(v); \
        M6502__BRANCH_POST; \
        if (cond) { \
            (void)M6502__RD(pc); \
            t = (unsigned)(pc + M6502__REL(v)) & 0xFFFFu; \
            if ((t ^ pc) & 0xFF00u) (void)M6502__RD((pc & 0xFF00u) | (t & 0xFFu)); \
            else M6502__BRANCH_NOPOLL; \
            pc = (uint16_t)t; \
        } \
    } while (0); M6502__NEXT

/* Vector fetch of BRK, IRQ and NMI; an NMI pending by now takes over the sequence. */
#define M6502__VECTOR(vec) do { \
        t = (vec); \
        if (M6502__INT && cpu->nmi_pending) { cpu->nmi_pending = 0; t = 0xFFFAu; } \
        ea = M6502__RD(t); ea |= (unsigned)M6502__RD(t + 1u) << 8; pc = (uint16_t)ea; \
    } while (0)

/* ---- dispatch ----
 * With GCC/Clang the opcodes are threaded: every instruction ends with its own copy of the next instruction's stop
 * test, fetch and indirect jump through a table of label addresses (each jump site predicted on its own, instead of
 * the switch's single one), so the next opcode's handler is found without going back to the loop head. The switch
 * stays for the first opcode of a run (and is all there is with other compilers). */
#if defined(__GNUC__) && !defined(M6502_NO_THREADED)
#define M6502__THREADED 1
#define M6502__OP(n) case n: m6502_op_##n:
#define M6502__OP_KIL default: m6502_kil_:
#if M6502__INT
#define M6502__NEXT_INT if (RG__M6502_UNLIKELY(M6502__POLL_DUE)) goto m6502_poll_;
#else
#define M6502__NEXT_INT
#endif
#define M6502__NEXT do { \
        if (M6502_STOP(ctx)) goto out; \
        M6502__NEXT_INT \
        M6502__FETCH_OP; \
        goto *m6502_table_[M6502__OPCODE]; \
    } while (0)
#else
#define M6502__THREADED 0
#define M6502__OP(n) case n:
#define M6502__OP_KIL default:
#define M6502__NEXT break
#endif

#ifdef M6502_ATTR
M6502_ATTR
#endif
#ifdef M6502_LINKAGE
M6502_LINKAGE
#else
static
#endif
int M6502_FN(rg_m6502 *cpu, M6502_CTX *ctx)
{
    if (cpu->jammed)
        return 1;
    M6502__ENTER
    /* pc is kept as a full-width unsigned (taken modulo 2^16 wherever it is used: bus addresses are cast to 16
     * bits, pushes to 8): a 16-bit local that the compiler spills is reloaded wider than it was stored, which
     * defeats the CPU's store forwarding on every opcode fetch. */
    unsigned pc = cpu->pc;
    uint8_t a = cpu->a, x = cpu->x, y = cpu->y, s = cpu->s;
    uint8_t fn, fz, fc, fv, fd, fi;
    M6502__UNPACK(cpu->p);
#if M6502__INT
    uint8_t poll = cpu->poll, poll_arg = cpu->poll_arg;
#endif
    const uint8_t dec_ok = M6502__DEC && !cpu->no_decimal;
    unsigned ea, v, t, op;
    int jammed = 0;
#if M6502__THREADED
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
    static const void *const m6502_table_[256] = {
        &&m6502_op_0x00, &&m6502_op_0x01, &&m6502_kil_, &&m6502_op_0x03, &&m6502_op_0x04, &&m6502_op_0x05, &&m6502_op_0x06, &&m6502_op_0x07,
        &&m6502_op_0x08, &&m6502_op_0x09, &&m6502_op_0x0A, &&m6502_op_0x0B, &&m6502_op_0x0C, &&m6502_op_0x0D, &&m6502_op_0x0E, &&m6502_op_0x0F,
        &&m6502_op_0x10, &&m6502_op_0x11, &&m6502_kil_, &&m6502_op_0x13, &&m6502_op_0x14, &&m6502_op_0x15, &&m6502_op_0x16, &&m6502_op_0x17,
        &&m6502_op_0x18, &&m6502_op_0x19, &&m6502_op_0x1A, &&m6502_op_0x1B, &&m6502_op_0x1C, &&m6502_op_0x1D, &&m6502_op_0x1E, &&m6502_op_0x1F,
        &&m6502_op_0x20, &&m6502_op_0x21, &&m6502_kil_, &&m6502_op_0x23, &&m6502_op_0x24, &&m6502_op_0x25, &&m6502_op_0x26, &&m6502_op_0x27,
        &&m6502_op_0x28, &&m6502_op_0x29, &&m6502_op_0x2A, &&m6502_op_0x2B, &&m6502_op_0x2C, &&m6502_op_0x2D, &&m6502_op_0x2E, &&m6502_op_0x2F,
        &&m6502_op_0x30, &&m6502_op_0x31, &&m6502_kil_, &&m6502_op_0x33, &&m6502_op_0x34, &&m6502_op_0x35, &&m6502_op_0x36, &&m6502_op_0x37,
        &&m6502_op_0x38, &&m6502_op_0x39, &&m6502_op_0x3A, &&m6502_op_0x3B, &&m6502_op_0x3C, &&m6502_op_0x3D, &&m6502_op_0x3E, &&m6502_op_0x3F,
        &&m6502_op_0x40, &&m6502_op_0x41, &&m6502_kil_, &&m6502_op_0x43, &&m6502_op_0x44, &&m6502_op_0x45, &&m6502_op_0x46, &&m6502_op_0x47,
        &&m6502_op_0x48, &&m6502_op_0x49, &&m6502_op_0x4A, &&m6502_op_0x4B, &&m6502_op_0x4C, &&m6502_op_0x4D, &&m6502_op_0x4E, &&m6502_op_0x4F,
        &&m6502_op_0x50, &&m6502_op_0x51, &&m6502_kil_, &&m6502_op_0x53, &&m6502_op_0x54, &&m6502_op_0x55, &&m6502_op_0x56, &&m6502_op_0x57,
        &&m6502_op_0x58, &&m6502_op_0x59, &&m6502_op_0x5A, &&m6502_op_0x5B, &&m6502_op_0x5C, &&m6502_op_0x5D, &&m6502_op_0x5E, &&m6502_op_0x5F,
        &&m6502_op_0x60, &&m6502_op_0x61, &&m6502_kil_, &&m6502_op_0x63, &&m6502_op_0x64, &&m6502_op_0x65, &&m6502_op_0x66, &&m6502_op_0x67,
        &&m6502_op_0x68, &&m6502_op_0x69, &&m6502_op_0x6A, &&m6502_op_0x6B, &&m6502_op_0x6C, &&m6502_op_0x6D, &&m6502_op_0x6E, &&m6502_op_0x6F,
        &&m6502_op_0x70, &&m6502_op_0x71, &&m6502_kil_, &&m6502_op_0x73, &&m6502_op_0x74, &&m6502_op_0x75, &&m6502_op_0x76, &&m6502_op_0x77,
        &&m6502_op_0x78, &&m6502_op_0x79, &&m6502_op_0x7A, &&m6502_op_0x7B, &&m6502_op_0x7C, &&m6502_op_0x7D, &&m6502_op_0x7E, &&m6502_op_0x7F,
        &&m6502_op_0x80, &&m6502_op_0x81, &&m6502_op_0x82, &&m6502_op_0x83, &&m6502_op_0x84, &&m6502_op_0x85, &&m6502_op_0x86, &&m6502_op_0x87,
        &&m6502_op_0x88, &&m6502_op_0x89, &&m6502_op_0x8A, &&m6502_op_0x8B, &&m6502_op_0x8C, &&m6502_op_0x8D, &&m6502_op_0x8E, &&m6502_op_0x8F,
        &&m6502_op_0x90, &&m6502_op_0x91, &&m6502_kil_, &&m6502_op_0x93, &&m6502_op_0x94, &&m6502_op_0x95, &&m6502_op_0x96, &&m6502_op_0x97,
        &&m6502_op_0x98, &&m6502_op_0x99, &&m6502_op_0x9A, &&m6502_op_0x9B, &&m6502_op_0x9C, &&m6502_op_0x9D, &&m6502_op_0x9E, &&m6502_op_0x9F,
        &&m6502_op_0xA0, &&m6502_op_0xA1, &&m6502_op_0xA2, &&m6502_op_0xA3, &&m6502_op_0xA4, &&m6502_op_0xA5, &&m6502_op_0xA6, &&m6502_op_0xA7,
        &&m6502_op_0xA8, &&m6502_op_0xA9, &&m6502_op_0xAA, &&m6502_op_0xAB, &&m6502_op_0xAC, &&m6502_op_0xAD, &&m6502_op_0xAE, &&m6502_op_0xAF,
        &&m6502_op_0xB0, &&m6502_op_0xB1, &&m6502_kil_, &&m6502_op_0xB3, &&m6502_op_0xB4, &&m6502_op_0xB5, &&m6502_op_0xB6, &&m6502_op_0xB7,
        &&m6502_op_0xB8, &&m6502_op_0xB9, &&m6502_op_0xBA, &&m6502_op_0xBB, &&m6502_op_0xBC, &&m6502_op_0xBD, &&m6502_op_0xBE, &&m6502_op_0xBF,
        &&m6502_op_0xC0, &&m6502_op_0xC1, &&m6502_op_0xC2, &&m6502_op_0xC3, &&m6502_op_0xC4, &&m6502_op_0xC5, &&m6502_op_0xC6, &&m6502_op_0xC7,
        &&m6502_op_0xC8, &&m6502_op_0xC9, &&m6502_op_0xCA, &&m6502_op_0xCB, &&m6502_op_0xCC, &&m6502_op_0xCD, &&m6502_op_0xCE, &&m6502_op_0xCF,
        &&m6502_op_0xD0, &&m6502_op_0xD1, &&m6502_kil_, &&m6502_op_0xD3, &&m6502_op_0xD4, &&m6502_op_0xD5, &&m6502_op_0xD6, &&m6502_op_0xD7,
        &&m6502_op_0xD8, &&m6502_op_0xD9, &&m6502_op_0xDA, &&m6502_op_0xDB, &&m6502_op_0xDC, &&m6502_op_0xDD, &&m6502_op_0xDE, &&m6502_op_0xDF,
        &&m6502_op_0xE0, &&m6502_op_0xE1, &&m6502_op_0xE2, &&m6502_op_0xE3, &&m6502_op_0xE4, &&m6502_op_0xE5, &&m6502_op_0xE6, &&m6502_op_0xE7,
        &&m6502_op_0xE8, &&m6502_op_0xE9, &&m6502_op_0xEA, &&m6502_op_0xEB, &&m6502_op_0xEC, &&m6502_op_0xED, &&m6502_op_0xEE, &&m6502_op_0xEF,
        &&m6502_op_0xF0, &&m6502_op_0xF1, &&m6502_kil_, &&m6502_op_0xF3, &&m6502_op_0xF4, &&m6502_op_0xF5, &&m6502_op_0xF6, &&m6502_op_0xF7,
        &&m6502_op_0xF8, &&m6502_op_0xF9, &&m6502_op_0xFA, &&m6502_op_0xFB, &&m6502_op_0xFC, &&m6502_op_0xFD, &&m6502_op_0xFE, &&m6502_op_0xFF,
    };
#pragma GCC diagnostic pop
#endif

    for (;;) {
        if (M6502_STOP(ctx))
            break;
#if M6502__INT
#if M6502__THREADED
    m6502_poll_:
#endif
        if (RG__M6502_UNLIKELY(M6502__POLL_DUE)) {
            int take;
            switch (poll) {
            case RG__M6502_POLL_NOW: take = M6502__WANTS_INT(fi); break;
            case RG__M6502_POLL_OLD_I: take = M6502__WANTS_INT(poll_arg); break;
            case RG__M6502_POLL_SAMPLE: take = poll_arg; break;
            default: take = 0; break;
            }
            poll = RG__M6502_POLL_NOW;
            if (take) {
                (void)M6502__RD(pc);
                (void)M6502__RD(pc);
                M6502__PUSH(pc >> 8);
                M6502__PUSH(pc & 0xFFu);
                M6502__PUSH(M6502__PACK());
                fi = 1;
                M6502__VECTOR(0xFFFEu);
                poll = RG__M6502_POLL_SKIP;
                continue;
            }
        }
#endif
        M6502__FETCH_OP;
        switch (M6502__OPCODE) {
        /* ---- loads, logic and arithmetic (read instructions) ---- */
        M6502__OP(0x09) M6502__IMM; M6502__ORA_V; M6502__NEXT;
        M6502__OP(0x05) M6502__READ(M6502__ZP, M6502__ORA_V);
        M6502__OP(0x15) M6502__READ(M6502__ZPI(x), M6502__ORA_V);
        M6502__OP(0x0D) M6502__READ(M6502__ABS, M6502__ORA_V);
        M6502__OP(0x1D) M6502__READ(M6502__ABI_R(x), M6502__ORA_V);
        M6502__OP(0x19) M6502__READ(M6502__ABI_R(y), M6502__ORA_V);
        M6502__OP(0x01) M6502__READ(M6502__IZX, M6502__ORA_V);
        M6502__OP(0x11) M6502__READ(M6502__IZY_R, M6502__ORA_V);

        M6502__OP(0x29) M6502__IMM; M6502__AND_V; M6502__NEXT;
        M6502__OP(0x25) M6502__READ(M6502__ZP, M6502__AND_V);
        M6502__OP(0x35) M6502__READ(M6502__ZPI(x), M6502__AND_V);
        M6502__OP(0x2D) M6502__READ(M6502__ABS, M6502__AND_V);
        M6502__OP(0x3D) M6502__READ(M6502__ABI_R(x), M6502__AND_V);
        M6502__OP(0x39) M6502__READ(M6502__ABI_R(y), M6502__AND_V);
        M6502__OP(0x21) M6502__READ(M6502__IZX, M6502__AND_V);
        M6502__OP(0x31) M6502__READ(M6502__IZY_R, M6502__AND_V);

        M6502__OP(0x49) M6502__IMM; M6502__EOR_V; M6502__NEXT;
        M6502__OP(0x45) M6502__READ(M6502__ZP, M6502__EOR_V);
        M6502__OP(0x55) M6502__READ(M6502__ZPI(x), M6502__EOR_V);
        M6502__OP(0x4D) M6502__READ(M6502__ABS, M6502__EOR_V);
        M6502__OP(0x5D) M6502__READ(M6502__ABI_R(x), M6502__EOR_V);
        M6502__OP(0x59) M6502__READ(M6502__ABI_R(y), M6502__EOR_V);
        M6502__OP(0x41) M6502__READ(M6502__IZX, M6502__EOR_V);
        M6502__OP(0x51) M6502__READ(M6502__IZY_R, M6502__EOR_V);

        M6502__OP(0x69) M6502__IMM; M6502__ADC_V; M6502__NEXT;
        M6502__OP(0x65) M6502__READ(M6502__ZP, M6502__ADC_V);
        M6502__OP(0x75) M6502__READ(M6502__ZPI(x), M6502__ADC_V);
        M6502__OP(0x6D) M6502__READ(M6502__ABS, M6502__ADC_V);
        M6502__OP(0x7D) M6502__READ(M6502__ABI_R(x), M6502__ADC_V);
        M6502__OP(0x79) M6502__READ(M6502__ABI_R(y), M6502__ADC_V);
        M6502__OP(0x61) M6502__READ(M6502__IZX, M6502__ADC_V);
        M6502__OP(0x71) M6502__READ(M6502__IZY_R, M6502__ADC_V);

        M6502__OP(0xE9)
        M6502__OP(0xEB) M6502__IMM; M6502__SBC_V; M6502__NEXT;
        M6502__OP(0xE5) M6502__READ(M6502__ZP, M6502__SBC_V);
        M6502__OP(0xF5) M6502__READ(M6502__ZPI(x), M6502__SBC_V);
        M6502__OP(0xED) M6502__READ(M6502__ABS, M6502__SBC_V);
        M6502__OP(0xFD) M6502__READ(M6502__ABI_R(x), M6502__SBC_V);
        M6502__OP(0xF9) M6502__READ(M6502__ABI_R(y), M6502__SBC_V);
        M6502__OP(0xE1) M6502__READ(M6502__IZX, M6502__SBC_V);
        M6502__OP(0xF1) M6502__READ(M6502__IZY_R, M6502__SBC_V);

        M6502__OP(0xC9) M6502__IMM; M6502__CMP_V(a); M6502__NEXT;
        M6502__OP(0xC5) M6502__READ(M6502__ZP, M6502__CMP_V(a));
        M6502__OP(0xD5) M6502__READ(M6502__ZPI(x), M6502__CMP_V(a));
        M6502__OP(0xCD) M6502__READ(M6502__ABS, M6502__CMP_V(a));
        M6502__OP(0xDD) M6502__READ(M6502__ABI_R(x), M6502__CMP_V(a));
        M6502__OP(0xD9) M6502__READ(M6502__ABI_R(y), M6502__CMP_V(a));
        M6502__OP(0xC1) M6502__READ(M6502__IZX, M6502__CMP_V(a));
        M6502__OP(0xD1) M6502__READ(M6502__IZY_R, M6502__CMP_V(a));

        M6502__OP(0xE0) M6502__IMM; M6502__CMP_V(x); M6502__NEXT;
        M6502__OP(0xE4) M6502__READ(M6502__ZP, M6502__CMP_V(x));
        M6502__OP(0xEC) M6502__READ(M6502__ABS, M6502__CMP_V(x));
        M6502__OP(0xC0) M6502__IMM; M6502__CMP_V(y); M6502__NEXT;
        M6502__OP(0xC4) M6502__READ(M6502__ZP, M6502__CMP_V(y));
        M6502__OP(0xCC) M6502__READ(M6502__ABS, M6502__CMP_V(y));

        M6502__OP(0x24) M6502__READ(M6502__ZP, M6502__BIT_V);
        M6502__OP(0x2C) M6502__READ(M6502__ABS, M6502__BIT_V);

        M6502__OP(0xA9) M6502__IMM; M6502__LDA_V; M6502__NEXT;
        M6502__OP(0xA5) M6502__READ(M6502__ZP, M6502__LDA_V);
        M6502__OP(0xB5) M6502__READ(M6502__ZPI(x), M6502__LDA_V);
        M6502__OP(0xAD) M6502__ABS; v = M6502__RD_LD_ABS(ea); M6502__LDA_V; M6502__NEXT;
        M6502__OP(0xBD) M6502__READ(M6502__ABI_R(x), M6502__LDA_V);
        M6502__OP(0xB9) M6502__READ(M6502__ABI_R(y), M6502__LDA_V);
        M6502__OP(0xA1) M6502__READ(M6502__IZX, M6502__LDA_V);
        M6502__OP(0xB1) M6502__READ(M6502__IZY_R, M6502__LDA_V);

        M6502__OP(0xA2) M6502__IMM; M6502__LDX_V; M6502__NEXT;
        M6502__OP(0xA6) M6502__READ(M6502__ZP, M6502__LDX_V);
        M6502__OP(0xB6) M6502__READ(M6502__ZPI(y), M6502__LDX_V);
        M6502__OP(0xAE) M6502__ABS; v = M6502__RD_LD_ABS(ea); M6502__LDX_V; M6502__NEXT;
        M6502__OP(0xBE) M6502__READ(M6502__ABI_R(y), M6502__LDX_V);

        M6502__OP(0xA0) M6502__IMM; M6502__LDY_V; M6502__NEXT;
        M6502__OP(0xA4) M6502__READ(M6502__ZP, M6502__LDY_V);
        M6502__OP(0xB4) M6502__READ(M6502__ZPI(x), M6502__LDY_V);
        M6502__OP(0xAC) M6502__ABS; v = M6502__RD_LD_ABS(ea); M6502__LDY_V; M6502__NEXT;
        M6502__OP(0xBC) M6502__READ(M6502__ABI_R(x), M6502__LDY_V);

        /* ---- stores ---- */
        M6502__OP(0x85) M6502__STORE(M6502__ZP, a);
        M6502__OP(0x95) M6502__STORE(M6502__ZPI(x), a);
        M6502__OP(0x8D) M6502__STORE(M6502__ABS, a);
        M6502__OP(0x9D) M6502__STORE(M6502__ABI_W(x), a);
        M6502__OP(0x99) M6502__STORE(M6502__ABI_W(y), a);
        M6502__OP(0x81) M6502__STORE(M6502__IZX, a);
        M6502__OP(0x91) M6502__STORE(M6502__IZY_W, a);
        M6502__OP(0x86) M6502__STORE(M6502__ZP, x);
        M6502__OP(0x96) M6502__STORE(M6502__ZPI(y), x);
        M6502__OP(0x8E) M6502__STORE(M6502__ABS, x);
        M6502__OP(0x84) M6502__STORE(M6502__ZP, y);
        M6502__OP(0x94) M6502__STORE(M6502__ZPI(x), y);
        M6502__OP(0x8C) M6502__STORE(M6502__ABS, y);

        /* ---- read-modify-write ---- */
        M6502__OP(0x0A) M6502__ACC(M6502__ASL_V);
        M6502__OP(0x06) M6502__RMW(M6502__ZP, M6502__ASL_V);
        M6502__OP(0x16) M6502__RMW(M6502__ZPI(x), M6502__ASL_V);
        M6502__OP(0x0E) M6502__RMW(M6502__ABS, M6502__ASL_V);
        M6502__OP(0x1E) M6502__RMW(M6502__ABI_W(x), M6502__ASL_V);
        M6502__OP(0x4A) M6502__ACC(M6502__LSR_V);
        M6502__OP(0x46) M6502__RMW(M6502__ZP, M6502__LSR_V);
        M6502__OP(0x56) M6502__RMW(M6502__ZPI(x), M6502__LSR_V);
        M6502__OP(0x4E) M6502__RMW(M6502__ABS, M6502__LSR_V);
        M6502__OP(0x5E) M6502__RMW(M6502__ABI_W(x), M6502__LSR_V);
        M6502__OP(0x2A) M6502__ACC(M6502__ROL_V);
        M6502__OP(0x26) M6502__RMW(M6502__ZP, M6502__ROL_V);
        M6502__OP(0x36) M6502__RMW(M6502__ZPI(x), M6502__ROL_V);
        M6502__OP(0x2E) M6502__RMW(M6502__ABS, M6502__ROL_V);
        M6502__OP(0x3E) M6502__RMW(M6502__ABI_W(x), M6502__ROL_V);
        M6502__OP(0x6A) M6502__ACC(M6502__ROR_V);
        M6502__OP(0x66) M6502__RMW(M6502__ZP, M6502__ROR_V);
        M6502__OP(0x76) M6502__RMW(M6502__ZPI(x), M6502__ROR_V);
        M6502__OP(0x6E) M6502__RMW(M6502__ABS, M6502__ROR_V);
        M6502__OP(0x7E) M6502__RMW(M6502__ABI_W(x), M6502__ROR_V);
        M6502__OP(0xE6) M6502__RMW(M6502__ZP, M6502__INC_V);
        M6502__OP(0xF6) M6502__RMW(M6502__ZPI(x), M6502__INC_V);
        M6502__OP(0xEE) M6502__RMW(M6502__ABS, M6502__INC_V);
        M6502__OP(0xFE) M6502__RMW(M6502__ABI_W(x), M6502__INC_V);
        M6502__OP(0xC6) M6502__RMW(M6502__ZP, M6502__DEC_V);
        M6502__OP(0xD6) M6502__RMW(M6502__ZPI(x), M6502__DEC_V);
        M6502__OP(0xCE) M6502__RMW(M6502__ABS, M6502__DEC_V);
        M6502__OP(0xDE) M6502__RMW(M6502__ABI_W(x), M6502__DEC_V);

        /* ---- register transfers, increments, flags (implied: read of the next byte) ---- */
        M6502__OP(0xAA) M6502__IMPLIED(x = a; M6502__NZ(x));
        M6502__OP(0xA8) M6502__IMPLIED(y = a; M6502__NZ(y));
        M6502__OP(0x8A) M6502__IMPLIED(a = x; M6502__NZ(a));
        M6502__OP(0x98) M6502__IMPLIED(a = y; M6502__NZ(a));
        M6502__OP(0xBA) M6502__IMPLIED(x = s; M6502__NZ(x));
        M6502__OP(0x9A) M6502__IMPLIED(s = x);
        M6502__OP(0xE8) M6502__IMPLIED(x++; M6502__NZ(x));
        M6502__OP(0xC8) M6502__IMPLIED(y++; M6502__NZ(y));
        M6502__OP(0xCA) M6502__IMPLIED(x--; M6502__NZ(x));
        M6502__OP(0x88) M6502__IMPLIED(y--; M6502__NZ(y));
        M6502__OP(0x18) M6502__IMPLIED(fc = 0);
        M6502__OP(0x38) M6502__IMPLIED(fc = 1);
        M6502__OP(0xD8) M6502__IMPLIED(fd = 0);
        M6502__OP(0xF8) M6502__IMPLIED(fd = 1);
        M6502__OP(0xB8) M6502__IMPLIED(fv = 0);
        M6502__OP(0x58) M6502__IMPLIED(M6502__I_CHANGE(fi = 0));
        M6502__OP(0x78) M6502__IMPLIED(M6502__I_CHANGE(fi = 1));
        M6502__OP(0xEA)
        M6502__OP(0x1A) M6502__OP(0x3A) M6502__OP(0x5A) M6502__OP(0x7A) M6502__OP(0xDA) M6502__OP(0xFA)
            M6502__IMPLIED((void)0);

        /* ---- branches ---- */
        M6502__OP(0x10) M6502__BRANCH(!(fn & 0x80u));
        M6502__OP(0x30) M6502__BRANCH(fn & 0x80u);
        M6502__OP(0x50) M6502__BRANCH(!fv);
        M6502__OP(0x70) M6502__BRANCH(fv);
        M6502__OP(0x90) M6502__BRANCH(!fc);
        M6502__OP(0xB0) M6502__BRANCH(fc);
        M6502__OP(0xD0) M6502__BRANCH(fz);
        M6502__OP(0xF0) M6502__BRANCH(!fz);

        /* ---- jumps, stack, interrupts ---- */
        M6502__OP(0x4C) /* JMP abs: the high byte is fetched straight into PCH */
            M6502__FIRST(ea);
            t = M6502__RD(pc);
            pc = (uint16_t)(ea | t << 8);
            M6502__NEXT;
        M6502__OP(0x6C) /* JMP (ind): the pointer's high byte is read without carry into its page */
            M6502__ABS;
            v = M6502__RD(ea);
            t = M6502__RD((ea & 0xFF00u) | ((ea + 1u) & 0xFFu));
            pc = (uint16_t)(v | t << 8);
            M6502__NEXT;
        M6502__OP(0x20) /* JSR: pushes the address of its own last byte, then fetches it */
            M6502__FIRST(ea);
            (void)M6502__RD(0x100u | s);
            M6502__PUSH(pc >> 8);
            M6502__PUSH(pc & 0xFFu);
            t = M6502__RD(pc);
            pc = (uint16_t)(ea | t << 8);
            M6502__NEXT;
        M6502__OP(0x60) /* RTS */
            M6502__FIRST_DUMMY;
            (void)M6502__RD(0x100u | s);
            M6502__PULL(ea);
            M6502__PULL(t);
            pc = (uint16_t)(ea | t << 8);
            (void)M6502__RD(pc);
            pc++;
            M6502__NEXT;
        M6502__OP(0x40) /* RTI: the restored I applies to the very next poll */
            M6502__FIRST_DUMMY;
            (void)M6502__RD(0x100u | s);
            M6502__PULL(v);
            M6502__UNPACK(v);
            M6502__PULL(ea);
            M6502__PULL(t);
            pc = (uint16_t)(ea | t << 8);
            M6502__NEXT;
        M6502__OP(0x00) /* BRK: skips a padding byte, pushes P with B set */
            M6502__FIRST_DUMMY;
            pc++;
            M6502__PUSH(pc >> 8);
            M6502__PUSH(pc & 0xFFu);
            M6502__PUSH(M6502__PACK() | RG_M6502_B);
            fi = 1;
            M6502__VECTOR(0xFFFEu);
#if M6502__INT
            poll = RG__M6502_POLL_SKIP;
#endif
            M6502__NEXT;
        M6502__OP(0x48) M6502__FIRST_DUMMY; M6502__PUSH(a); M6502__NEXT;
        M6502__OP(0x08) M6502__FIRST_DUMMY; M6502__PUSH(M6502__PACK() | RG_M6502_B); M6502__NEXT;
        M6502__OP(0x68)
            M6502__FIRST_DUMMY;
            (void)M6502__RD(0x100u | s);
            M6502__PULL(a);
            M6502__NZ(a);
            M6502__NEXT;
        M6502__OP(0x28)
            M6502__FIRST_DUMMY;
            (void)M6502__RD(0x100u | s);
            M6502__PULL(v);
            M6502__I_CHANGE(M6502__UNPACK(v));
            M6502__NEXT;

        /* ---- undocumented: combined read-modify-write ---- */
        M6502__OP(0x07) M6502__RMW(M6502__ZP, M6502__SLO_V);
        M6502__OP(0x17) M6502__RMW(M6502__ZPI(x), M6502__SLO_V);
        M6502__OP(0x0F) M6502__RMW(M6502__ABS, M6502__SLO_V);
        M6502__OP(0x1F) M6502__RMW(M6502__ABI_W(x), M6502__SLO_V);
        M6502__OP(0x1B) M6502__RMW(M6502__ABI_W(y), M6502__SLO_V);
        M6502__OP(0x03) M6502__RMW(M6502__IZX, M6502__SLO_V);
        M6502__OP(0x13) M6502__RMW(M6502__IZY_W, M6502__SLO_V);
        M6502__OP(0x27) M6502__RMW(M6502__ZP, M6502__RLA_V);
        M6502__OP(0x37) M6502__RMW(M6502__ZPI(x), M6502__RLA_V);
        M6502__OP(0x2F) M6502__RMW(M6502__ABS, M6502__RLA_V);
        M6502__OP(0x3F) M6502__RMW(M6502__ABI_W(x), M6502__RLA_V);
        M6502__OP(0x3B) M6502__RMW(M6502__ABI_W(y), M6502__RLA_V);
        M6502__OP(0x23) M6502__RMW(M6502__IZX, M6502__RLA_V);
        M6502__OP(0x33) M6502__RMW(M6502__IZY_W, M6502__RLA_V);
        M6502__OP(0x47) M6502__RMW(M6502__ZP, M6502__SRE_V);
        M6502__OP(0x57) M6502__RMW(M6502__ZPI(x), M6502__SRE_V);
        M6502__OP(0x4F) M6502__RMW(M6502__ABS, M6502__SRE_V);
        M6502__OP(0x5F) M6502__RMW(M6502__ABI_W(x), M6502__SRE_V);
        M6502__OP(0x5B) M6502__RMW(M6502__ABI_W(y), M6502__SRE_V);
        M6502__OP(0x43) M6502__RMW(M6502__IZX, M6502__SRE_V);
        M6502__OP(0x53) M6502__RMW(M6502__IZY_W, M6502__SRE_V);
        M6502__OP(0x67) M6502__RMW(M6502__ZP, M6502__RRA_V);
        M6502__OP(0x77) M6502__RMW(M6502__ZPI(x), M6502__RRA_V);
        M6502__OP(0x6F) M6502__RMW(M6502__ABS, M6502__RRA_V);
        M6502__OP(0x7F) M6502__RMW(M6502__ABI_W(x), M6502__RRA_V);
        M6502__OP(0x7B) M6502__RMW(M6502__ABI_W(y), M6502__RRA_V);
        M6502__OP(0x63) M6502__RMW(M6502__IZX, M6502__RRA_V);
        M6502__OP(0x73) M6502__RMW(M6502__IZY_W, M6502__RRA_V);
        M6502__OP(0xC7) M6502__RMW(M6502__ZP, M6502__DCP_V);
        M6502__OP(0xD7) M6502__RMW(M6502__ZPI(x), M6502__DCP_V);
        M6502__OP(0xCF) M6502__RMW(M6502__ABS, M6502__DCP_V);
        M6502__OP(0xDF) M6502__RMW(M6502__ABI_W(x), M6502__DCP_V);
        M6502__OP(0xDB) M6502__RMW(M6502__ABI_W(y), M6502__DCP_V);
        M6502__OP(0xC3) M6502__RMW(M6502__IZX, M6502__DCP_V);
        M6502__OP(0xD3) M6502__RMW(M6502__IZY_W, M6502__DCP_V);
        M6502__OP(0xE7) M6502__RMW(M6502__ZP, M6502__ISB_V);
        M6502__OP(0xF7) M6502__RMW(M6502__ZPI(x), M6502__ISB_V);
        M6502__OP(0xEF) M6502__RMW(M6502__ABS, M6502__ISB_V);
        M6502__OP(0xFF) M6502__RMW(M6502__ABI_W(x), M6502__ISB_V);
        M6502__OP(0xFB) M6502__RMW(M6502__ABI_W(y), M6502__ISB_V);
        M6502__OP(0xE3) M6502__RMW(M6502__IZX, M6502__ISB_V);
        M6502__OP(0xF3) M6502__RMW(M6502__IZY_W, M6502__ISB_V);

        /* ---- undocumented: loads and stores ---- */
        M6502__OP(0xA7) M6502__READ(M6502__ZP, M6502__LAX_V);
        M6502__OP(0xB7) M6502__READ(M6502__ZPI(y), M6502__LAX_V);
        M6502__OP(0xAF) M6502__READ(M6502__ABS, M6502__LAX_V);
        M6502__OP(0xBF) M6502__READ(M6502__ABI_R(y), M6502__LAX_V);
        M6502__OP(0xA3) M6502__READ(M6502__IZX, M6502__LAX_V);
        M6502__OP(0xB3) M6502__READ(M6502__IZY_R, M6502__LAX_V);
        M6502__OP(0x87) M6502__STORE(M6502__ZP, a & x);
        M6502__OP(0x97) M6502__STORE(M6502__ZPI(y), a & x);
        M6502__OP(0x8F) M6502__STORE(M6502__ABS, a & x);
        M6502__OP(0x83) M6502__STORE(M6502__IZX, a & x);
        M6502__OP(0xBB) /* LAS */
            M6502__ABI_R(y);
            v = M6502__RD(ea) & s;
            a = x = s = (uint8_t)v;
            M6502__NZ(a);
            M6502__NEXT;
        M6502__OP(0x9F) M6502__SH_ABS(y); M6502__SH_STORE(a & x); M6502__NEXT;      /* SHA abs,Y */
        M6502__OP(0x93) /* SHA (zp),Y */
            M6502__FIRST(t);
            ea = M6502__RD(t);
            t = M6502__RD((t + 1u) & 0xFFu);
            ea += y;
            (void)M6502__RD(t << 8 | (ea & 0xFFu));
            M6502__SH_STORE(a & x);
            M6502__NEXT;
        M6502__OP(0x9E) M6502__SH_ABS(y); M6502__SH_STORE(x); M6502__NEXT;          /* SHX abs,Y */
        M6502__OP(0x9C) M6502__SH_ABS(x); M6502__SH_STORE(y); M6502__NEXT;          /* SHY abs,X */
        M6502__OP(0x9B) M6502__SH_ABS(y); s = a & x; M6502__SH_STORE(s); M6502__NEXT; /* TAS abs,Y */

        /* ---- undocumented: immediate ---- */
        M6502__OP(0x0B)
        M6502__OP(0x2B) M6502__IMM; M6502__AND_V; fc = a >> 7; M6502__NEXT;        /* ANC */
        M6502__OP(0x4B) M6502__IMM; a &= (uint8_t)v; fc = a & 1u; a >>= 1; M6502__NZ(a); M6502__NEXT; /* ALR */
        M6502__OP(0x6B) /* ARR: AND, then ROR with flags from the adder; in decimal mode a BCD-like correction */
            M6502__IMM;
            v &= a;
            t = (v >> 1) | (unsigned)fc << 7;
            if (RG__M6502_UNLIKELY(M6502__DECIMAL_ON)) {
                fn = (uint8_t)t;
                fz = (uint8_t)t;
                fv = (uint8_t)(((v ^ t) >> 6) & 1u);
                if ((v & 0x0Fu) + (v & 0x01u) > 0x05u)
                    t = (t & 0xF0u) | ((t + 0x06u) & 0x0Fu);
                if ((v & 0xF0u) + (v & 0x10u) > 0x50u) {
                    t = (t + 0x60u) & 0xFFu;
                    fc = 1;
                } else {
                    fc = 0;
                }
            } else {
                M6502__NZ(t);
                fc = (t >> 6) & 1u;
                fv = ((t >> 6) ^ (t >> 5)) & 1u;
            }
            a = (uint8_t)t;
            M6502__NEXT;
        M6502__OP(0xCB) /* SBX: X = (A & X) - imm, flags like CMP, D ignored */
            M6502__IMM;
            t = (unsigned)(a & x) + (v ^ 0xFFu) + 1u;
            fc = (uint8_t)(t >> 8);
            x = (uint8_t)t;
            M6502__NZ(x);
            M6502__NEXT;
        M6502__OP(0x8B) M6502__IMM; a = (uint8_t)((a | 0xEEu) & x & v); M6502__NZ(a); M6502__NEXT;     /* ANE */
        M6502__OP(0xAB) M6502__IMM; a = x = (uint8_t)((a | M6502__LXA_MAGIC) & v); M6502__NZ(a); M6502__NEXT; /* LXA */

        /* ---- undocumented NOPs with their reads ---- */
        M6502__OP(0x80) M6502__OP(0x82) M6502__OP(0x89) M6502__OP(0xC2) M6502__OP(0xE2) M6502__IMM; M6502__NEXT;
        M6502__OP(0x04) M6502__OP(0x44) M6502__OP(0x64) M6502__READ(M6502__ZP, (void)0);
        M6502__OP(0x14) M6502__OP(0x34) M6502__OP(0x54) M6502__OP(0x74) M6502__OP(0xD4) M6502__OP(0xF4) M6502__READ(M6502__ZPI(x), (void)0);
        M6502__OP(0x0C) M6502__READ(M6502__ABS, (void)0);
        M6502__OP(0x1C) M6502__OP(0x3C) M6502__OP(0x5C) M6502__OP(0x7C) M6502__OP(0xDC) M6502__OP(0xFC) M6502__READ(M6502__ABI_R(x), (void)0);

        /* ---- KIL: the chip stops; pc stays at the opcode ---- */
        M6502__OP_KIL
            M6502__FIRST_DUMMY;
            pc--;
            jammed = 1;
            goto out;
        }
    }
out:
    M6502__LEAVE
    cpu->pc = (uint16_t)pc;
    cpu->a = a;
    cpu->x = x;
    cpu->y = y;
    cpu->s = s;
    cpu->p = M6502__PACK();
#if M6502__INT
    cpu->poll = poll;
    cpu->poll_arg = poll_arg;
#endif
    if (jammed) {
        cpu->jammed = 1;
        return 1;
    }
    return 0;
}

#undef M6502__ENTER
#undef M6502__LEAVE
#undef M6502__INT
#undef M6502__LATE
#undef M6502__LXA_MAGIC
#undef M6502__BRANCH_PRE
#undef M6502__BRANCH_POST
#undef M6502__DEC
#undef M6502__RD
#undef M6502__WR
#undef M6502__RD_LD_ABS
#undef M6502__FETCH
#undef M6502__FETCH_OP
#undef M6502__OPCODE
#undef M6502__FIRST
#undef M6502__FIRST_DUMMY
#undef M6502__PUSH
#undef M6502__PULL
#undef M6502__NZ
#undef M6502__PACK
#undef M6502__UNPACK
#undef M6502__DECIMAL_ON
#undef M6502__REL
#undef M6502__IMM
#undef M6502__ZP
#undef M6502__ZPI
#undef M6502__ABS
#undef M6502__ABI_R
#undef M6502__ABI_W
#undef M6502__IZX
#undef M6502__IZY_R
#undef M6502__IZY_W
#undef M6502__SH_STORE
#undef M6502__SH_ABS
#undef M6502__ADC_V
#undef M6502__SBC_V
#undef M6502__CMP_V
#undef M6502__ORA_V
#undef M6502__AND_V
#undef M6502__EOR_V
#undef M6502__LDA_V
#undef M6502__LDX_V
#undef M6502__LDY_V
#undef M6502__LAX_V
#undef M6502__BIT_V
#undef M6502__ASL_V
#undef M6502__LSR_V
#undef M6502__ROL_V
#undef M6502__ROR_V
#undef M6502__INC_V
#undef M6502__DEC_V
#undef M6502__SLO_V
#undef M6502__RLA_V
#undef M6502__SRE_V
#undef M6502__RRA_V
#undef M6502__DCP_V
#undef M6502__ISB_V
#undef M6502__READ
#undef M6502__STORE
#undef M6502__RMW
#undef M6502__ACC
#undef M6502__IMPLIED
#undef M6502__WANTS_INT
#undef M6502__BRANCH_START
#undef M6502__BRANCH_NOPOLL
#undef M6502__I_CHANGE
#undef M6502__POLL_DUE
#undef M6502__BRANCH
#undef M6502__VECTOR
#undef M6502__THREADED
#undef M6502__OP
#undef M6502__OP_KIL
#undef M6502__NEXT_INT
#undef M6502__NEXT
