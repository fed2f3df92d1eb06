/* The NMOS 6502 CPU (and the 6507 of the Atari 2600, and the 2A03 of the NES with `no_decimal`).
 *
 * The CPU knows nothing of any machine. Its state is plain data (a snapshot is a copy). The interpreter is an
 * include-template, m6502_exec.h, so that the machine's bus inlines into it; see that file for how to instantiate it.
 *
 * Behaviour (what the interpreter implements, and where it is a choice):
 * - All 256 opcodes. The 151 documented ones with the real chip's cycle counts (page-cross penalty of indexed reads,
 *   +1 for a taken branch, +2 for a taken branch to another page). Every bus cycle is one READ or WRITE call, in the
 *   chip's order, dummy accesses included: the read of the byte after a one-byte opcode, the read of the unfixed
 *   address by indexed modes (on a page cross for reads; always for stores and read-modify-write), the read of the
 *   zero-page base by (zp,X) and zp-indexed modes, the double write of read-modify-write (old value, then new), the
 *   stack read before a pull, the read at the return address minus one by RTS, and so on. So cycles == bus calls.
 * - Decimal mode as the NMOS chip computes it, for valid and invalid BCD operands alike:
 *   ADC: A and C are the decimally corrected sum; Z is set from the binary sum A+M+C; N and V come from the sum
 *   after the low nibble was corrected but before the high nibble was (V with the binary overflow rule on that
 *   intermediate). SBC: A is the decimally corrected difference; N, V, Z and C are exactly those of the binary SBC.
 *   `no_decimal` (2A03) makes ADC/SBC/ARR/RRA/ISB ignore D (the flag itself still exists).
 * - Undocumented opcodes as described by the NMOS 6510 references (64doc, "No More Secrets"):
 *   SLO RLA SRE RRA DCP ISB (all 7 modes each), LAX (6 modes), SAX (4 modes), ANC (0B, 2B), ALR (4B), ARR (6B, with
 *   its decimal-mode correction), SBX (CB), SBC #imm (EB), NOPs of 1 byte (1A 3A 5A 7A DA FA: read the next byte),
 *   2 bytes (80 82 89 C2 E2: read the operand; 04 44 64: also read the zero-page address; 14 34 54 74 D4 F4: dummy
 *   read of the base, then read of base+X) and 3 bytes (0C: read the address; 1C 3C 5C 7C DC FC: like LDA abs,X,
 *   page-cross penalty included).
 *   Unstable ones, with the behaviour the references describe: ANE/XAA (8B): A = (A | $EE) & X & imm; LXA (AB):
 *   A = X = (A | $EE) & imm ($EE is a value common on real chips and the one Stella uses; an includer sets another
 *   with M6502_LXA_MAGIC: the NES's 2A03 behaves as $FF);
 *   SHA (93, 9F), SHX (9E), SHY (9C), TAS (9B): the stored value is reg & (H + 1) where H is the high byte of the base
 *   address before indexing (TAS first sets S = A & X and stores S & (H + 1)); when the indexing crosses a page the
 *   high byte of the target address becomes that stored value (Stella differs there: it uses the high byte of the
 *   final address + 1 and keeps the address). LAS (BB): A = X = S = M & S.
 *   KIL/JAM (02 12 22 32 42 52 62 72 92 B2 D2 F2): after the opcode fetch and one read of the next byte the CPU stops:
 *   `jammed` is set, pc is left at the KIL opcode, the run function returns 1 (and returns 1 at once until the
 *   machine clears `jammed`, e.g. on reset).
 * - Interrupts (compiled in unless M6502_INTERRUPTS is 0; the 2600's 6507 has no interrupt pins):
 *   NMI (edge latched by the machine in `nmi_pending`, cleared here when serviced) and IRQ (level `irq_line`, masked
 *   by I) take 7 cycles: two reads at pc, pushes of PCH, PCL and P with B clear, I set, vector reads at $FFFA/$FFFB
 *   (NMI) or $FFFE/$FFFF (IRQ). BRK is the same sequence with pc+2 pushed and B set in the pushed P. D is not
 *   cleared (NMOS). An NMI pending when the sequence fetches its vector takes the NMI vector instead (the NMOS
 *   "hijack" of BRK and IRQ; B stays as it was). The first instruction of a handler always runs before another
 *   interrupt is taken.
 *   Polling: the real chip samples the interrupt lines before the last cycle of an instruction; this interpreter
 *   samples them between instructions, so a line raised during the very last bus cycle of an instruction is taken
 *   one instruction earlier than on the chip (a machine that needs that cycle exact raises it one cycle later and
 *   defines M6502_LINES_LATE, so that a taken in-page branch samples its decision after its operand fetch).
 *   The latencies the chip shows are reproduced: after CLI, SEI and PLP the IRQ decision uses the I flag from before
 *   the instruction (so CLI lets one more instruction run before a pending IRQ; an IRQ pending during SEI is still
 *   taken, with I set in the pushed P); RTI's new I applies at once; a taken branch that stays on its page only
 *   services an interrupt that was already pending when the branch started (one arriving during it waits one more
 *   instruction); a taken branch crossing a page polls normally.
 * - Reset is the machine's job: it reads the vector at $FFFC/$FFFD into pc, does s -= 3 and sets I (that is what the
 *   chip's reset sequence leaves; its three stack accesses are reads). rg__m6502_init gives the power-on values
 *   (s = $00, so that a reset leaves $FD).
 */
#ifndef RG_CPU_M6502_H
#define RG_CPU_M6502_H

#include <stddef.h>
#include <stdint.h>

/* Bits of `p`. B is not a register bit on the chip: it only exists in the byte pushed by PHP/BRK. */
#define RG_M6502_C 0x01u
#define RG_M6502_Z 0x02u
#define RG_M6502_I 0x04u
#define RG_M6502_D 0x08u
#define RG_M6502_B 0x10u
#define RG_M6502_U 0x20u /* always 1 */
#define RG_M6502_V 0x40u
#define RG_M6502_N 0x80u

typedef struct rg_m6502 {
    uint16_t pc;
    uint8_t a, x, y, s, p;   /* p: N V 1 B D I Z C; stored with bit 5 set and B clear */
    uint8_t jammed;          /* a KIL/JAM opcode stopped the CPU */
    uint8_t nmi_pending;     /* edge latched by the machine; serviced before the next instruction */
    uint8_t irq_line;        /* level; serviced when I is clear (with the chip's latency after CLI/SEI/PLP) */
    uint8_t no_decimal;      /* 1 on the NES's 2A03: D exists but ADC/SBC ignore it */
    uint8_t poll;            /* internal: interrupt-poll latency carried to the next instruction (RG__M6502_POLL_*) */
    uint8_t poll_arg;        /* internal: the I flag or the sampled decision that goes with `poll` */
} rg_m6502;

/* Values of rg_m6502.poll: how the next instruction boundary decides whether to take an interrupt. */
#define RG__M6502_POLL_NOW    0u /* the lines and I as they are now */
#define RG__M6502_POLL_OLD_I  1u /* after CLI/SEI/PLP: I as it was before (poll_arg) */
#define RG__M6502_POLL_SAMPLE 2u /* after a taken branch within its page: the decision sampled at its start (poll_arg) */
#define RG__M6502_POLL_SKIP   3u /* after an interrupt sequence or BRK: the handler's first instruction runs first */

/* Power-on register values: a = x = y = 0, s = $00, p = $24 (I set), pc = 0, no interrupt pending, not jammed.
 * The machine then performs the reset (see above). `no_decimal` is cleared; set it afterwards for a 2A03. */
void rg__m6502_init(rg_m6502 *c);

/* Checks a CPU state taken from outside (a save state) against what the interpreter can leave: p with bit 5 set and
 * B clear, `jammed` 0 or 1, `poll` one of RG__M6502_POLL_* with `poll_arg` 0 or 1 (the machine's lines
 * nmi_pending and irq_line are the machine's to check). Returns NULL when it is valid, else a short description of
 * the first bad field (static text). */
const char *rg__m6502_check(const rg_m6502 *c);

/* ---- Opcode table for disassembly and tracing (not used by the interpreter) ---- */

typedef enum rg__m6502_mode {
    RG__M6502_IMP,   /* implied (1 byte) */
    RG__M6502_ACC,   /* accumulator: ASL A (1 byte) */
    RG__M6502_IMM,   /* #$nn */
    RG__M6502_ZP,    /* $nn */
    RG__M6502_ZPX,   /* $nn,X */
    RG__M6502_ZPY,   /* $nn,Y */
    RG__M6502_ABS,   /* $nnnn */
    RG__M6502_ABX,   /* $nnnn,X */
    RG__M6502_ABY,   /* $nnnn,Y */
    RG__M6502_IND,   /* ($nnnn) (JMP only) */
    RG__M6502_IZX,   /* ($nn,X) */
    RG__M6502_IZY,   /* ($nn),Y */
    RG__M6502_REL    /* branch target */
} rg__m6502_mode;

/* Flags of an opcode-table entry. */
#define RG__M6502_OP_PAGE     0x01u /* +1 cycle when the indexed address crosses a page (reads) */
#define RG__M6502_OP_BRANCH   0x02u /* +1 taken, +2 taken to another page */
#define RG__M6502_OP_UNDOC    0x04u /* not in the MOS documentation */
#define RG__M6502_OP_UNSTABLE 0x08u /* result depends on the chip (constants chosen as documented above) */
#define RG__M6502_OP_JAM      0x10u /* KIL: stops the CPU */

typedef struct rg__m6502_opinfo {
    char name[4];     /* upper-case mnemonic, e.g. "LDA", "LAX", "KIL" */
    uint8_t mode;     /* rg__m6502_mode */
    uint8_t cycles;   /* base cycle count (0 for KIL, which never ends) */
    uint8_t flags;    /* RG__M6502_OP_* */
} rg__m6502_opinfo;

extern const rg__m6502_opinfo rg__m6502_ops[256];

/* Instruction length in bytes (1 to 3) of an opcode. */
int rg__m6502_op_length(uint8_t opcode);

/* Writes "LDA $1234,X" style text for the instruction whose bytes start at `bytes` (at least
 * rg__m6502_op_length(bytes[0]) of them) located at `pc` (for branch targets). Returns the length in bytes. */
int rg__m6502_disasm(uint16_t pc, const uint8_t *bytes, char *out, size_t cap);

#endif
