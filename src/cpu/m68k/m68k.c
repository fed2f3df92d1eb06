/* 68000 state helpers: power-on values, the check of loaded states, opcode names (the interpreter is m68k_exec.h). */
#include "cpu/m68k/m68k.h"

#include <stdio.h>
#include <string.h>

void rg__m68k_init(rg_m68k *c)
{
    memset(c, 0, sizeof *c);
    c->sr = 0x2700;
}

void rg__m68k_reset(rg_m68k *c, uint32_t ssp, uint32_t pc, uint16_t w0, uint16_t w1)
{
    if (!(c->sr & RG_M68K_S))
        c->other_sp = c->a[7]; /* the USP */
    c->sr = 0x2700;
    c->a[7] = ssp;
    c->pc = pc + 4;
    c->ir = w0;
    c->irc = w1;
    c->stopped = 0;
    c->halted = 0;
    c->trace_pending = 0;
    c->nmi_seen = 0;
    c->cycles += 40;
}

const char *rg__m68k_check(const rg_m68k *c)
{
    if (c->sr & ~RG_M68K_SR_MASK)
        return "sr has bits the 68000 does not have";
    if (c->stopped > 1 || c->halted > 1 || c->nmi_seen > 1 || c->reset_out > 1 || c->trace_pending > 1)
        return "a flag field is not 0 or 1";
    if (c->ipl > 7)
        return "ipl above 7";
    if (c->pc & 1)
        return "pc is odd";
    if (c->pad[0] || c->pad[1])
        return "padding is not zero";
    return NULL;
}

static const char *const rg__m68k_cc[16] = {"T", "F", "HI", "LS", "CC", "CS", "NE", "EQ",
                                            "VC", "VS", "PL", "MI", "GE", "LT", "GT", "LE"};

const char *rg__m68k_name(uint16_t op, char *out, size_t cap)
{
    static const char sfx[4] = {'b', 'w', 'l', '?'};
    int sz = (op >> 6) & 3;
    const char *n = "ILLEGAL";
    char buf[24];
    switch (op >> 12) {
    case 0x0:
        if ((op & 0x138) == 0x108) n = "MOVEP";
        else if ((op & 0x100) || ((op >> 9) & 7) == 4) {
            static const char *const b[4] = {"BTST", "BCHG", "BCLR", "BSET"};
            n = b[sz];
        } else {
            static const char *const im[8] = {"ORI", "ANDI", "SUBI", "ADDI", "", "EORI", "CMPI", "ILLEGAL"};
            if (sz == 3 || ((op >> 9) & 7) == 7) break;
            snprintf(buf, sizeof buf, "%s.%c", im[(op >> 9) & 7], sfx[sz]);
            n = buf;
        }
        break;
    case 0x1: n = "MOVE.b"; break;
    case 0x2: n = ((op >> 6) & 7) == 1 ? "MOVEA.l" : "MOVE.l"; break;
    case 0x3: n = ((op >> 6) & 7) == 1 ? "MOVEA.w" : "MOVE.w"; break;
    case 0x4:
        if ((op & 0x1C0) == 0x1C0) n = "LEA";
        else if ((op & 0x1C0) == 0x180) n = "CHK";
        else if ((op & 0xFFF0) == 0x4E40) n = "TRAP";
        else if ((op & 0xFFF8) == 0x4E50) n = "LINK";
        else if ((op & 0xFFF8) == 0x4E58) n = "UNLK";
        else if ((op & 0xFFF0) == 0x4E60) n = "MOVE USP";
        else if (op == 0x4E70) n = "RESET";
        else if (op == 0x4E71) n = "NOP";
        else if (op == 0x4E72) n = "STOP";
        else if (op == 0x4E73) n = "RTE";
        else if (op == 0x4E75) n = "RTS";
        else if (op == 0x4E76) n = "TRAPV";
        else if (op == 0x4E77) n = "RTR";
        else if ((op & 0xFFC0) == 0x4E80) n = "JSR";
        else if ((op & 0xFFC0) == 0x4EC0) n = "JMP";
        else if ((op & 0xFFC0) == 0x4AC0) n = op == 0x4AFC ? "ILLEGAL" : "TAS";
        else if ((op & 0xFF00) == 0x4A00) n = "TST";
        else if ((op & 0xFFC0) == 0x40C0) n = "MOVE from SR";
        else if ((op & 0xFFC0) == 0x44C0) n = "MOVE to CCR";
        else if ((op & 0xFFC0) == 0x46C0) n = "MOVE to SR";
        else if ((op & 0xFF00) == 0x4000) n = "NEGX";
        else if ((op & 0xFF00) == 0x4200) n = "CLR";
        else if ((op & 0xFF00) == 0x4400) n = "NEG";
        else if ((op & 0xFF00) == 0x4600) n = "NOT";
        else if ((op & 0xFFC0) == 0x4800) n = "NBCD";
        else if ((op & 0xFFF8) == 0x4840) n = "SWAP";
        else if ((op & 0xFFC0) == 0x4840) n = "PEA";
        else if ((op & 0xFFB8) == 0x4880) n = "EXT";
        else if ((op & 0xFB80) == 0x4880) n = "MOVEM";
        break;
    case 0x5:
        if (sz == 3) {
            snprintf(buf, sizeof buf, "%s%s", ((op >> 3) & 7) == 1 ? "DB" : "S", rg__m68k_cc[(op >> 8) & 15]);
            n = buf;
        } else {
            n = (op & 0x100) ? "SUBQ" : "ADDQ";
        }
        break;
    case 0x6:
        snprintf(buf, sizeof buf, "B%s", ((op >> 8) & 15) == 0 ? "RA" : ((op >> 8) & 15) == 1 ? "SR"
                                                                       : rg__m68k_cc[(op >> 8) & 15]);
        n = buf;
        break;
    case 0x7: n = (op & 0x100) ? "ILLEGAL" : "MOVEQ"; break;
    case 0x8: n = (op & 0x1C0) == 0xC0 ? "DIVU" : (op & 0x1C0) == 0x1C0 ? "DIVS" : (op & 0x1F0) == 0x100 ? "SBCD" : "OR"; break;
    case 0x9: n = sz == 3 ? "SUBA" : (op & 0x130) == 0x100 ? "SUBX" : "SUB"; break;
    case 0xA: n = "LINE A"; break;
    case 0xB: n = sz == 3 ? "CMPA" : (op & 0x138) == 0x108 ? "CMPM" : (op & 0x100) ? "EOR" : "CMP"; break;
    case 0xC: n = (op & 0x1C0) == 0xC0 ? "MULU" : (op & 0x1C0) == 0x1C0 ? "MULS" : (op & 0x1F0) == 0x100 ? "ABCD"
                  : (op & 0x130) == 0x100 ? "EXG" : "AND"; break;
    case 0xD: n = sz == 3 ? "ADDA" : (op & 0x130) == 0x100 ? "ADDX" : "ADD"; break;
    case 0xE: {
        static const char *const sh[4] = {"AS", "LS", "ROX", "RO"};
        int k = sz == 3 ? (op >> 9) & 3 : (op >> 3) & 3;
        snprintf(buf, sizeof buf, "%s%c", sh[k], (op & 0x100) ? 'L' : 'R');
        n = buf;
        break;
    }
    default: n = "LINE F"; break;
    }
    snprintf(out, cap, "%s", n);
    return out;
}
