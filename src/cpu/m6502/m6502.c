/* The 6502's non-inline parts: power-on state and the opcode table used for disassembly and traces. */
#include "cpu/m6502/m6502.h"

#include <stdio.h>
#include <string.h>

void rg__m6502_init(rg_m6502 *c)
{
    memset(c, 0, sizeof *c);
    c->p = RG_M6502_U | RG_M6502_I;
}

const char *rg__m6502_check(const rg_m6502 *c)
{
    if ((c->p & (RG_M6502_U | RG_M6502_B)) != RG_M6502_U)
        return "the status register must have bit 5 set and B clear";
    if (c->jammed > 1u)
        return "the CPU's jammed flag is above 1";
    if (c->poll > RG__M6502_POLL_SKIP || c->poll_arg > 1u)
        return "the interrupt poll state is out of range";
    return NULL;
}

#define P RG__M6502_OP_PAGE
#define B RG__M6502_OP_BRANCH
#define U RG__M6502_OP_UNDOC
#define X (RG__M6502_OP_UNDOC | RG__M6502_OP_UNSTABLE)
#define J (RG__M6502_OP_UNDOC | RG__M6502_OP_JAM)

#define IMP RG__M6502_IMP
#define ACC RG__M6502_ACC
#define IMM RG__M6502_IMM
#define ZP RG__M6502_ZP
#define ZPX RG__M6502_ZPX
#define ZPY RG__M6502_ZPY
#define ABS RG__M6502_ABS
#define ABX RG__M6502_ABX
#define ABY RG__M6502_ABY
#define IND RG__M6502_IND
#define IZX RG__M6502_IZX
#define IZY RG__M6502_IZY
#define REL RG__M6502_REL

const rg__m6502_opinfo rg__m6502_ops[256] = {
    /* 0x00 */
    {"BRK", IMP, 7, 0}, {"ORA", IZX, 6, 0}, {"KIL", IMP, 0, J}, {"SLO", IZX, 8, U},
    {"NOP", ZP, 3, U}, {"ORA", ZP, 3, 0}, {"ASL", ZP, 5, 0}, {"SLO", ZP, 5, U},
    {"PHP", IMP, 3, 0}, {"ORA", IMM, 2, 0}, {"ASL", ACC, 2, 0}, {"ANC", IMM, 2, U},
    {"NOP", ABS, 4, U}, {"ORA", ABS, 4, 0}, {"ASL", ABS, 6, 0}, {"SLO", ABS, 6, U},
    /* 0x10 */
    {"BPL", REL, 2, B}, {"ORA", IZY, 5, P}, {"KIL", IMP, 0, J}, {"SLO", IZY, 8, U},
    {"NOP", ZPX, 4, U}, {"ORA", ZPX, 4, 0}, {"ASL", ZPX, 6, 0}, {"SLO", ZPX, 6, U},
    {"CLC", IMP, 2, 0}, {"ORA", ABY, 4, P}, {"NOP", IMP, 2, U}, {"SLO", ABY, 7, U},
    {"NOP", ABX, 4, P | U}, {"ORA", ABX, 4, P}, {"ASL", ABX, 7, 0}, {"SLO", ABX, 7, U},
    /* 0x20 */
    {"JSR", ABS, 6, 0}, {"AND", IZX, 6, 0}, {"KIL", IMP, 0, J}, {"RLA", IZX, 8, U},
    {"BIT", ZP, 3, 0}, {"AND", ZP, 3, 0}, {"ROL", ZP, 5, 0}, {"RLA", ZP, 5, U},
    {"PLP", IMP, 4, 0}, {"AND", IMM, 2, 0}, {"ROL", ACC, 2, 0}, {"ANC", IMM, 2, U},
    {"BIT", ABS, 4, 0}, {"AND", ABS, 4, 0}, {"ROL", ABS, 6, 0}, {"RLA", ABS, 6, U},
    /* 0x30 */
    {"BMI", REL, 2, B}, {"AND", IZY, 5, P}, {"KIL", IMP, 0, J}, {"RLA", IZY, 8, U},
    {"NOP", ZPX, 4, U}, {"AND", ZPX, 4, 0}, {"ROL", ZPX, 6, 0}, {"RLA", ZPX, 6, U},
    {"SEC", IMP, 2, 0}, {"AND", ABY, 4, P}, {"NOP", IMP, 2, U}, {"RLA", ABY, 7, U},
    {"NOP", ABX, 4, P | U}, {"AND", ABX, 4, P}, {"ROL", ABX, 7, 0}, {"RLA", ABX, 7, U},
    /* 0x40 */
    {"RTI", IMP, 6, 0}, {"EOR", IZX, 6, 0}, {"KIL", IMP, 0, J}, {"SRE", IZX, 8, U},
    {"NOP", ZP, 3, U}, {"EOR", ZP, 3, 0}, {"LSR", ZP, 5, 0}, {"SRE", ZP, 5, U},
    {"PHA", IMP, 3, 0}, {"EOR", IMM, 2, 0}, {"LSR", ACC, 2, 0}, {"ALR", IMM, 2, U},
    {"JMP", ABS, 3, 0}, {"EOR", ABS, 4, 0}, {"LSR", ABS, 6, 0}, {"SRE", ABS, 6, U},
    /* 0x50 */
    {"BVC", REL, 2, B}, {"EOR", IZY, 5, P}, {"KIL", IMP, 0, J}, {"SRE", IZY, 8, U},
    {"NOP", ZPX, 4, U}, {"EOR", ZPX, 4, 0}, {"LSR", ZPX, 6, 0}, {"SRE", ZPX, 6, U},
    {"CLI", IMP, 2, 0}, {"EOR", ABY, 4, P}, {"NOP", IMP, 2, U}, {"SRE", ABY, 7, U},
    {"NOP", ABX, 4, P | U}, {"EOR", ABX, 4, P}, {"LSR", ABX, 7, 0}, {"SRE", ABX, 7, U},
    /* 0x60 */
    {"RTS", IMP, 6, 0}, {"ADC", IZX, 6, 0}, {"KIL", IMP, 0, J}, {"RRA", IZX, 8, U},
    {"NOP", ZP, 3, U}, {"ADC", ZP, 3, 0}, {"ROR", ZP, 5, 0}, {"RRA", ZP, 5, U},
    {"PLA", IMP, 4, 0}, {"ADC", IMM, 2, 0}, {"ROR", ACC, 2, 0}, {"ARR", IMM, 2, U},
    {"JMP", IND, 5, 0}, {"ADC", ABS, 4, 0}, {"ROR", ABS, 6, 0}, {"RRA", ABS, 6, U},
    /* 0x70 */
    {"BVS", REL, 2, B}, {"ADC", IZY, 5, P}, {"KIL", IMP, 0, J}, {"RRA", IZY, 8, U},
    {"NOP", ZPX, 4, U}, {"ADC", ZPX, 4, 0}, {"ROR", ZPX, 6, 0}, {"RRA", ZPX, 6, U},
    {"SEI", IMP, 2, 0}, {"ADC", ABY, 4, P}, {"NOP", IMP, 2, U}, {"RRA", ABY, 7, U},
    {"NOP", ABX, 4, P | U}, {"ADC", ABX, 4, P}, {"ROR", ABX, 7, 0}, {"RRA", ABX, 7, U},
    /* 0x80 */
    {"NOP", IMM, 2, U}, {"STA", IZX, 6, 0}, {"NOP", IMM, 2, U}, {"SAX", IZX, 6, U},
    {"STY", ZP, 3, 0}, {"STA", ZP, 3, 0}, {"STX", ZP, 3, 0}, {"SAX", ZP, 3, U},
    {"DEY", IMP, 2, 0}, {"NOP", IMM, 2, U}, {"TXA", IMP, 2, 0}, {"ANE", IMM, 2, X},
    {"STY", ABS, 4, 0}, {"STA", ABS, 4, 0}, {"STX", ABS, 4, 0}, {"SAX", ABS, 4, U},
    /* 0x90 */
    {"BCC", REL, 2, B}, {"STA", IZY, 6, 0}, {"KIL", IMP, 0, J}, {"SHA", IZY, 6, X},
    {"STY", ZPX, 4, 0}, {"STA", ZPX, 4, 0}, {"STX", ZPY, 4, 0}, {"SAX", ZPY, 4, U},
    {"TYA", IMP, 2, 0}, {"STA", ABY, 5, 0}, {"TXS", IMP, 2, 0}, {"TAS", ABY, 5, X},
    {"SHY", ABX, 5, X}, {"STA", ABX, 5, 0}, {"SHX", ABY, 5, X}, {"SHA", ABY, 5, X},
    /* 0xA0 */
    {"LDY", IMM, 2, 0}, {"LDA", IZX, 6, 0}, {"LDX", IMM, 2, 0}, {"LAX", IZX, 6, U},
    {"LDY", ZP, 3, 0}, {"LDA", ZP, 3, 0}, {"LDX", ZP, 3, 0}, {"LAX", ZP, 3, U},
    {"TAY", IMP, 2, 0}, {"LDA", IMM, 2, 0}, {"TAX", IMP, 2, 0}, {"LXA", IMM, 2, X},
    {"LDY", ABS, 4, 0}, {"LDA", ABS, 4, 0}, {"LDX", ABS, 4, 0}, {"LAX", ABS, 4, U},
    /* 0xB0 */
    {"BCS", REL, 2, B}, {"LDA", IZY, 5, P}, {"KIL", IMP, 0, J}, {"LAX", IZY, 5, P | U},
    {"LDY", ZPX, 4, 0}, {"LDA", ZPX, 4, 0}, {"LDX", ZPY, 4, 0}, {"LAX", ZPY, 4, U},
    {"CLV", IMP, 2, 0}, {"LDA", ABY, 4, P}, {"TSX", IMP, 2, 0}, {"LAS", ABY, 4, P | U},
    {"LDY", ABX, 4, P}, {"LDA", ABX, 4, P}, {"LDX", ABY, 4, P}, {"LAX", ABY, 4, P | U},
    /* 0xC0 */
    {"CPY", IMM, 2, 0}, {"CMP", IZX, 6, 0}, {"NOP", IMM, 2, U}, {"DCP", IZX, 8, U},
    {"CPY", ZP, 3, 0}, {"CMP", ZP, 3, 0}, {"DEC", ZP, 5, 0}, {"DCP", ZP, 5, U},
    {"INY", IMP, 2, 0}, {"CMP", IMM, 2, 0}, {"DEX", IMP, 2, 0}, {"SBX", IMM, 2, U},
    {"CPY", ABS, 4, 0}, {"CMP", ABS, 4, 0}, {"DEC", ABS, 6, 0}, {"DCP", ABS, 6, U},
    /* 0xD0 */
    {"BNE", REL, 2, B}, {"CMP", IZY, 5, P}, {"KIL", IMP, 0, J}, {"DCP", IZY, 8, U},
    {"NOP", ZPX, 4, U}, {"CMP", ZPX, 4, 0}, {"DEC", ZPX, 6, 0}, {"DCP", ZPX, 6, U},
    {"CLD", IMP, 2, 0}, {"CMP", ABY, 4, P}, {"NOP", IMP, 2, U}, {"DCP", ABY, 7, U},
    {"NOP", ABX, 4, P | U}, {"CMP", ABX, 4, P}, {"DEC", ABX, 7, 0}, {"DCP", ABX, 7, U},
    /* 0xE0 */
    {"CPX", IMM, 2, 0}, {"SBC", IZX, 6, 0}, {"NOP", IMM, 2, U}, {"ISB", IZX, 8, U},
    {"CPX", ZP, 3, 0}, {"SBC", ZP, 3, 0}, {"INC", ZP, 5, 0}, {"ISB", ZP, 5, U},
    {"INX", IMP, 2, 0}, {"SBC", IMM, 2, 0}, {"NOP", IMP, 2, 0}, {"SBC", IMM, 2, U},
    {"CPX", ABS, 4, 0}, {"SBC", ABS, 4, 0}, {"INC", ABS, 6, 0}, {"ISB", ABS, 6, U},
    /* 0xF0 */
    {"BEQ", REL, 2, B}, {"SBC", IZY, 5, P}, {"KIL", IMP, 0, J}, {"ISB", IZY, 8, U},
    {"NOP", ZPX, 4, U}, {"SBC", ZPX, 4, 0}, {"INC", ZPX, 6, 0}, {"ISB", ZPX, 6, U},
    {"SED", IMP, 2, 0}, {"SBC", ABY, 4, P}, {"NOP", IMP, 2, U}, {"ISB", ABY, 7, U},
    {"NOP", ABX, 4, P | U}, {"SBC", ABX, 4, P}, {"INC", ABX, 7, 0}, {"ISB", ABX, 7, U},
};

int rg__m6502_op_length(uint8_t opcode)
{
    switch (rg__m6502_ops[opcode].mode) {
    case RG__M6502_IMP:
    case RG__M6502_ACC:
        /* BRK skips a padding byte, but it is not part of the instruction as assemblers write it. */
        return 1;
    case RG__M6502_ABS:
    case RG__M6502_ABX:
    case RG__M6502_ABY:
    case RG__M6502_IND:
        return 3;
    default:
        return 2;
    }
}

int rg__m6502_disasm(uint16_t pc, const uint8_t *bytes, char *out, size_t cap)
{
    const rg__m6502_opinfo *op = &rg__m6502_ops[bytes[0]];
    int len = rg__m6502_op_length(bytes[0]);
    unsigned b1 = len > 1 ? bytes[1] : 0;
    unsigned w = len > 2 ? (b1 | (unsigned)bytes[2] << 8) : b1;
    if (cap == 0)
        return len;
    switch (op->mode) {
    case RG__M6502_IMP: snprintf(out, cap, "%s", op->name); break;
    case RG__M6502_ACC: snprintf(out, cap, "%s A", op->name); break;
    case RG__M6502_IMM: snprintf(out, cap, "%s #$%02X", op->name, b1); break;
    case RG__M6502_ZP: snprintf(out, cap, "%s $%02X", op->name, b1); break;
    case RG__M6502_ZPX: snprintf(out, cap, "%s $%02X,X", op->name, b1); break;
    case RG__M6502_ZPY: snprintf(out, cap, "%s $%02X,Y", op->name, b1); break;
    case RG__M6502_ABS: snprintf(out, cap, "%s $%04X", op->name, w); break;
    case RG__M6502_ABX: snprintf(out, cap, "%s $%04X,X", op->name, w); break;
    case RG__M6502_ABY: snprintf(out, cap, "%s $%04X,Y", op->name, w); break;
    case RG__M6502_IND: snprintf(out, cap, "%s ($%04X)", op->name, w); break;
    case RG__M6502_IZX: snprintf(out, cap, "%s ($%02X,X)", op->name, b1); break;
    case RG__M6502_IZY: snprintf(out, cap, "%s ($%02X),Y", op->name, b1); break;
    case RG__M6502_REL:
        snprintf(out, cap, "%s $%04X", op->name, (unsigned)(uint16_t)(pc + 2 + (int8_t)b1));
        break;
    default: snprintf(out, cap, "???"); break;
    }
    return len;
}
