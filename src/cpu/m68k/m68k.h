/* The Motorola 68000 CPU.
 *
 * The CPU knows nothing of any machine. Its state is plain data (a snapshot is a copy). The interpreter is an
 * include-template, m68k_exec.h, so that the machine's bus inlines into it; see that file for how to instantiate it.
 * docs/m68k.md describes the behaviour, the timing model and what the conformance suite shows.
 *
 * Model: `pc` is the address of the next prefetch (the chip's "au": the executing instruction's address + 4 when it
 * starts), `ir` holds the opcode being executed and `irc` the word after it (the two-word prefetch queue). Every bus
 * access costs 4 clocks, internal work adds idle clocks; `cycles` counts clocks.
 */
#ifndef RG_CPU_M68K_H
#define RG_CPU_M68K_H

#include <stddef.h>
#include <stdint.h>

/* Bits of `sr`. */
#define RG_M68K_C 0x0001u
#define RG_M68K_V 0x0002u
#define RG_M68K_Z 0x0004u
#define RG_M68K_N 0x0008u
#define RG_M68K_X 0x0010u
#define RG_M68K_IMASK 0x0700u
#define RG_M68K_S 0x2000u
#define RG_M68K_T 0x8000u
#define RG_M68K_SR_MASK 0xA71Fu /* the bits that exist */

typedef struct rg_m68k {
    uint32_t d[8];
    uint32_t a[8];      /* a[7] is the active stack pointer (SSP in supervisor mode, USP in user mode) */
    uint32_t other_sp;  /* the inactive stack pointer: USP while S is set, SSP while it is clear */
    uint32_t pc;        /* next prefetch address */
    uint64_t cycles;    /* clocks run */
    uint16_t sr;
    uint16_t ir, irc;   /* prefetch queue: opcode being executed, following word */
    uint8_t stopped;    /* STOP: waiting for an interrupt above the mask (or trace) */
    uint8_t halted;     /* double bus/address fault: only a reset restarts it */
    uint8_t ipl;        /* interrupt level the machine requests (0..7); level 7 is edge-triggered */
    uint8_t nmi_seen;   /* internal: level 7 already taken since it was raised */
    uint8_t reset_out;  /* set each time RESET runs (the machine may reset its devices and clear it) */
    uint8_t trace_pending; /* internal: the instruction ran with T set; its trace exception starts the next step */
    uint8_t pad[2];
} rg_m68k;

/* Power-on register values: everything 0, sr = $2700. The machine then performs the reset (rg__m68k_reset). */
void rg__m68k_init(rg_m68k *c);

/* The chip's reset sequence once the machine has read the vectors: ssp from the long at 0, pc from the long at 4,
 * and the two words at pc (the queue). Sets S, clears T, mask 7, leaves STOP and the halt, swaps nothing (a[7]
 * becomes ssp; the USP keeps its value in other_sp), and adds the sequence's 40 clocks to `cycles`. */
void rg__m68k_reset(rg_m68k *c, uint32_t ssp, uint32_t pc, uint16_t w0, uint16_t w1);

/* Checks a CPU state taken from outside (a save state): sr with only existing bits, `stopped`/`halted`/`nmi_seen`
 * 0 or 1, ipl 0..7, pc even. Returns NULL when valid, else a short description (static). */
const char *rg__m68k_check(const rg_m68k *c);

/* The same for a machine built with M68K_NO_ADDRESS_ERRORS when odd_pc_ok is nonzero: there a jump to an odd address
 * raises no exception and the PC stays odd (instructions are fetched at the even address below), so a state it saves
 * may hold an odd PC. */
const char *rg__m68k_check_mode(const rg_m68k *c, int odd_pc_ok);

/* Writes the mnemonic family of an opcode ("MOVE.w", "ADDQ.l", "ILLEGAL", ...) into out. Returns out. */
const char *rg__m68k_name(uint16_t op, char *out, size_t cap);

/* Writes "ADD.l D1,(A0)+" style text for the instruction whose words start at words[0] (nwords of them), located
 * at pc (for branch and PC-relative targets). Returns its length in words, or -1 when it needs more than nwords
 * (out then says so). */
int rg__m68k_disasm(uint32_t pc, const uint16_t *words, int nwords, char *out, size_t cap);

#endif
