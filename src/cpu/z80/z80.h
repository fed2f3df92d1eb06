/* The Zilog Z80 CPU (NMOS), as in the Master System, the Game Gear and the Genesis' sound CPU.
 *
 * The CPU knows nothing of any machine. Its state is plain data (a snapshot is a copy). The interpreter is an
 * include-template, z80_exec.h, so that the machine's bus inlines into it; see that file for how to instantiate it.
 * docs/z80.md describes the behaviour in full; in short:
 * - All opcodes, the undocumented ones included: IX/IY halves (IXH, IXL, IYH, IYL), the DDCB/FDCB forms that also
 *   copy the result into a register, SLL, the duplicate ED opcodes (NEG, RETN, IM, IN/OUT (C)), ED NOPs (8 T-states),
 *   a DD/FD prefix before an opcode that does not use HL (the opcode runs as usual, 4 T-states and one R later).
 * - Flags exact, the undocumented X (bit 3) and Y (bit 5) included: MEMPTR (wz) for BIT n,(HL), Q for SCF/CCF,
 *   the block instructions' X/Y and, for INI/OUTI and friends, H, C and P/V from the transferred value.
 * - T-states exact, as bus cycles in the chip's order: opcode fetch (M1, 4 T-states with the refresh address I:R on
 *   the bus in its second half), memory read and write (3), I/O read and write (4), internal T-states between them.
 * - R: its low 7 bits count opcode fetches (each prefix is one); bit 7 is only changed by LD R,A.
 * - Interrupts: NMI (edge latched by the machine in `nmi_pending`), INT (level `int_line`, accepted when iff1 is
 *   set, not right after EI) in IM 0, 1 and 2; HALT; the LD A,I / LD A,R P/V quirk (an INT accepted right after
 *   them clears P/V).
 */
#ifndef RG_CPU_Z80_H
#define RG_CPU_Z80_H

#include <stddef.h>
#include <stdint.h>

/* Bits of `f`. */
#define RG_Z80_CF 0x01u
#define RG_Z80_NF 0x02u
#define RG_Z80_PF 0x04u /* parity / overflow */
#define RG_Z80_XF 0x08u /* undocumented: a copy of bit 3 of some result */
#define RG_Z80_HF 0x10u
#define RG_Z80_YF 0x20u /* undocumented: a copy of bit 5 of some result */
#define RG_Z80_ZF 0x40u
#define RG_Z80_SF 0x80u

/* Index of the 8-bit registers in r8[], in the order the opcodes encode them (6 is F, not (HL)). */
enum { RG_Z80_B, RG_Z80_C, RG_Z80_D, RG_Z80_E, RG_Z80_H, RG_Z80_L, RG_Z80_F, RG_Z80_A };

typedef struct rg_z80 {
    union {
        uint8_t r8[8];
        struct {
            uint8_t b, c, d, e, h, l, f, a;
        };
    };
    uint16_t ix, iy, sp, pc;
    uint16_t wz;                       /* MEMPTR, the internal address register */
    uint16_t af_, bc_, de_, hl_;       /* the alternate set (A in the high byte of af_) */
    uint8_t i, r;                      /* r: bit 7 only changes on LD R,A */
    uint8_t iff1, iff2, im;            /* im 0, 1 or 2 */
    uint8_t ei;                        /* the last instruction was EI: INT is not accepted before the next one */
    uint8_t p;                         /* the last instruction was LD A,I or LD A,R */
    uint8_t q;                         /* F if the last instruction changed the flags, else 0 (for SCF/CCF X/Y) */
    uint8_t halted;                    /* HALT ran: M1 cycles at pc until an interrupt */
    uint8_t nmi_pending;               /* edge latched by the machine; cleared when accepted */
    uint8_t int_line;                  /* level set by the machine */
    uint8_t int_data;                  /* the byte on the data bus during an INT acknowledge (IM 0 opcode, IM 2
                                          vector low byte) unless the bus defines Z80_INTA */
} rg_z80;

/* Power-on values: af = sp = $FFFF, every other register 0, pc 0, iff1 = iff2 = 0, IM 0, int_data $FF. */
void rg__z80_init(rg_z80 *c);

/* Checks a CPU state taken from outside (a save state): iff1, iff2, ei, p, halted, nmi_pending and int_line 0 or 1,
 * im 0 to 2, q either 0 or equal to f. Returns NULL when it is valid, else a short description of the first bad field
 * (static text). */
const char *rg__z80_check(const rg_z80 *c);

/* ---- Disassembly (not used by the interpreter) ---- */

/* Length in bytes (1 to 4) of the instruction whose bytes start at `bytes` (4 bytes must be readable). */
int rg__z80_op_length(const uint8_t *bytes);

/* Writes "LD (IX+$05),A" style text for the instruction at `bytes` (4 readable bytes) located at `pc` (for relative
 * jump targets); undocumented forms get their usual names (SLL, IXH, "LD B,RLC (IX+d)", "NOP*" for ED NOPs).
 * Returns the length in bytes. */
int rg__z80_disasm(uint16_t pc, const uint8_t *bytes, char *out, size_t cap);

/* Base T-states of an unprefixed opcode (the shorter time for conditional ones); 0 for prefixes. */
extern const uint8_t rg__z80_cycles[256];

#endif
