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
    return rg__m68k_check_mode(c, 0);
}

const char *rg__m68k_check_mode(const rg_m68k *c, int odd_pc_ok)
{
    if (c->sr & ~RG_M68K_SR_MASK)
        return "sr has bits the 68000 does not have";
    if (c->stopped > 1 || c->halted > 1 || c->nmi_seen > 1 || c->reset_out > 1 || c->trace_pending > 1)
        return "a flag field is not 0 or 1";
    if (c->ipl > 7)
        return "ipl above 7";
    if ((c->pc & 1) && !odd_pc_ok)
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

/* ---- disassembler ---- */

typedef struct dis {
    const uint16_t *w;
    int n, i;     /* words available, next word */
    uint32_t pc;  /* address of the opcode */
    int bad;      /* ran past the words given */
} dis;

static uint16_t dis_word(dis *d)
{
    if (d->i >= d->n) {
        d->bad = 1;
        return 0;
    }
    return d->w[d->i++];
}

static void dis_ea(dis *d, unsigned mode, unsigned reg, int sz, char *o, size_t cap)
{
    switch (mode) {
    case 0: snprintf(o, cap, "D%u", reg); return;
    case 1: snprintf(o, cap, "A%u", reg); return;
    case 2: snprintf(o, cap, "(A%u)", reg); return;
    case 3: snprintf(o, cap, "(A%u)+", reg); return;
    case 4: snprintf(o, cap, "-(A%u)", reg); return;
    case 5: snprintf(o, cap, "%d(A%u)", (int16_t)dis_word(d), reg); return;
    case 6: {
        uint16_t x = dis_word(d);
        snprintf(o, cap, "%d(A%u,%c%u.%c)", (int8_t)x, reg, (x & 0x8000) ? 'A' : 'D', (x >> 12) & 7u,
                 (x & 0x800) ? 'l' : 'w');
        return;
    }
    default: break;
    }
    switch (reg) {
    case 0: snprintf(o, cap, "$%X.w", (unsigned)(uint32_t)(int32_t)(int16_t)dis_word(d) & 0xFFFFFFu); return;
    case 1: {
        uint32_t hi = dis_word(d);
        snprintf(o, cap, "$%X.l", (unsigned)(hi << 16 | dis_word(d)));
        return;
    }
    case 2: {
        uint32_t base = d->pc + 2u * (unsigned)d->i;
        snprintf(o, cap, "$%X(PC)", (unsigned)((base + (uint32_t)(int32_t)(int16_t)dis_word(d)) & 0xFFFFFFu));
        return;
    }
    case 3: {
        uint16_t x = dis_word(d);
        snprintf(o, cap, "%d(PC,%c%u.%c)", (int8_t)x, (x & 0x8000) ? 'A' : 'D', (x >> 12) & 7u, (x & 0x800) ? 'l' : 'w');
        return;
    }
    case 4:
        if (sz == 2) {
            uint32_t hi = dis_word(d);
            snprintf(o, cap, "#$%X", (unsigned)(hi << 16 | dis_word(d)));
        } else {
            snprintf(o, cap, "#$%X", (unsigned)(dis_word(d) & (sz == 0 ? 0xFFu : 0xFFFFu)));
        }
        return;
    default: snprintf(o, cap, "?"); return;
    }
}

static void dis_regs(uint16_t mask, int reversed, char *o, size_t cap)
{
    size_t k = 0;
    o[0] = 0;
    for (int i = 0; i < 16; i++) {
        int bit = reversed ? 15 - i : i;
        if (!(mask & (1u << bit)) || k + 5 >= cap)
            continue;
        k += (size_t)snprintf(o + k, cap - k, "%s%c%d", k ? "/" : "", i < 8 ? 'D' : 'A', i & 7);
    }
}

int rg__m68k_disasm(uint32_t pc, const uint16_t *words, int nwords, char *out, size_t cap)
{
    static const char sfx[4] = {'b', 'w', 'l', '?'};
    dis d = {words, nwords, 0, pc, 0};
    uint16_t op = dis_word(&d);
    char name[24], a[48] = "", b[48] = "";
    rg__m68k_name(op, name, sizeof name);
    unsigned mode = (op >> 3) & 7, reg = op & 7, rx = (op >> 9) & 7;
    int sz = (op >> 6) & 3;
    const char *n = name;
    char nb[32];
    switch (op >> 12) {
    case 0x0:
        if (!strcmp(name, "MOVEP")) {
            int16_t disp = (int16_t)dis_word(&d);
            snprintf(nb, sizeof nb, "MOVEP.%c", (op & 0x40) ? 'l' : 'w');
            n = nb;
            if (op & 0x80) { snprintf(a, sizeof a, "D%u", rx); snprintf(b, sizeof b, "%d(A%u)", disp, reg); }
            else { snprintf(a, sizeof a, "%d(A%u)", disp, reg); snprintf(b, sizeof b, "D%u", rx); }
        } else if ((op & 0x100) || rx == 4) {
            if (op & 0x100) snprintf(a, sizeof a, "D%u", rx);
            else snprintf(a, sizeof a, "#%u", dis_word(&d) & 0xFFu);
            dis_ea(&d, mode, reg, 0, b, sizeof b);
        } else if (strcmp(name, "ILLEGAL")) {
            dis_ea(&d, 7, 4, sz, a, sizeof a);
            if (mode == 7 && reg == 4) snprintf(b, sizeof b, sz == 0 ? "CCR" : "SR");
            else dis_ea(&d, mode, reg, sz, b, sizeof b);
        }
        break;
    case 0x1: case 0x2: case 0x3: {
        int msz = (op >> 12) == 1 ? 0 : (op >> 12) == 3 ? 1 : 2;
        dis_ea(&d, mode, reg, msz, a, sizeof a);
        dis_ea(&d, (op >> 6) & 7, rx, msz, b, sizeof b);
        break;
    }
    case 0x4:
        if (!strcmp(name, "LEA") || !strcmp(name, "CHK")) {
            dis_ea(&d, mode, reg, 1, a, sizeof a);
            snprintf(b, sizeof b, name[0] == 'L' ? "A%u" : "D%u", rx);
        } else if (!strcmp(name, "TRAP")) {
            snprintf(a, sizeof a, "#%u", op & 15u);
        } else if (!strcmp(name, "LINK")) {
            snprintf(a, sizeof a, "A%u", reg);
            snprintf(b, sizeof b, "#%d", (int16_t)dis_word(&d));
        } else if (!strcmp(name, "UNLK") || !strcmp(name, "SWAP")) {
            snprintf(a, sizeof a, name[0] == 'U' ? "A%u" : "D%u", reg);
        } else if (!strcmp(name, "MOVE USP")) {
            n = "MOVE";
            if (op & 8) { snprintf(a, sizeof a, "USP"); snprintf(b, sizeof b, "A%u", reg); }
            else { snprintf(a, sizeof a, "A%u", reg); snprintf(b, sizeof b, "USP"); }
        } else if (!strcmp(name, "STOP")) {
            snprintf(a, sizeof a, "#$%X", dis_word(&d));
        } else if (!strcmp(name, "EXT")) {
            snprintf(nb, sizeof nb, "EXT.%c", (op & 0x40) ? 'l' : 'w');
            n = nb;
            snprintf(a, sizeof a, "D%u", reg);
        } else if (!strcmp(name, "MOVEM")) {
            uint16_t mask = dis_word(&d);
            char regs[48], ea[48];
            snprintf(nb, sizeof nb, "MOVEM.%c", (op & 0x40) ? 'l' : 'w');
            n = nb;
            dis_regs(mask, mode == 4, regs, sizeof regs);
            dis_ea(&d, mode, reg, 1, ea, sizeof ea);
            if (op & 0x400) { snprintf(a, sizeof a, "%s", ea); snprintf(b, sizeof b, "%s", regs); }
            else { snprintf(a, sizeof a, "%s", regs); snprintf(b, sizeof b, "%s", ea); }
        } else if (!strcmp(name, "MOVE from SR")) {
            n = "MOVE";
            snprintf(a, sizeof a, "SR");
            dis_ea(&d, mode, reg, 1, b, sizeof b);
        } else if (!strcmp(name, "MOVE to CCR") || !strcmp(name, "MOVE to SR")) {
            n = "MOVE";
            dis_ea(&d, mode, reg, 1, a, sizeof a);
            snprintf(b, sizeof b, name[8] == 'C' ? "CCR" : "SR");
        } else if (!strcmp(name, "NEGX") || !strcmp(name, "CLR") || !strcmp(name, "NEG") || !strcmp(name, "NOT") ||
                   !strcmp(name, "TST")) {
            snprintf(nb, sizeof nb, "%s.%c", name, sfx[sz]);
            n = nb;
            dis_ea(&d, mode, reg, sz, a, sizeof a);
        } else if (!strcmp(name, "NBCD") || !strcmp(name, "TAS") || !strcmp(name, "PEA") || !strcmp(name, "JSR") ||
                   !strcmp(name, "JMP")) {
            dis_ea(&d, mode, reg, 0, a, sizeof a);
        }
        break;
    case 0x5:
        if (sz == 3) {
            if (mode == 1) {
                uint32_t base = pc + 2;
                snprintf(a, sizeof a, "D%u", reg);
                snprintf(b, sizeof b, "$%X", (unsigned)((base + (uint32_t)(int32_t)(int16_t)dis_word(&d)) & 0xFFFFFFu));
            } else {
                dis_ea(&d, mode, reg, 0, a, sizeof a);
            }
        } else {
            snprintf(nb, sizeof nb, "%s.%c", name, sfx[sz]);
            n = nb;
            snprintf(a, sizeof a, "#%u", rx ? rx : 8u);
            dis_ea(&d, mode, reg, sz, b, sizeof b);
        }
        break;
    case 0x6: {
        int32_t disp = (int8_t)op;
        if (!disp) disp = (int16_t)dis_word(&d);
        snprintf(a, sizeof a, "$%X", (unsigned)((pc + 2 + (uint32_t)disp) & 0xFFFFFFu));
        break;
    }
    case 0x7:
        if (op & 0x100) break;
        snprintf(a, sizeof a, "#%d", (int8_t)op);
        snprintf(b, sizeof b, "D%u", rx);
        break;
    case 0xA: case 0xF:
        snprintf(a, sizeof a, "$%04X", op);
        break;
    case 0xE:
        if (sz == 3) {
            snprintf(nb, sizeof nb, "%s.w", name);
            n = nb;
            dis_ea(&d, mode, reg, 1, a, sizeof a);
        } else {
            snprintf(nb, sizeof nb, "%s.%c", name, sfx[sz]);
            n = nb;
            if (op & 0x20) snprintf(a, sizeof a, "D%u", rx);
            else snprintf(a, sizeof a, "#%u", rx ? rx : 8u);
            snprintf(b, sizeof b, "D%u", reg);
        }
        break;
    default: /* 8, 9, B, C, D */
        if (!strcmp(name, "DIVU") || !strcmp(name, "DIVS") || !strcmp(name, "MULU") || !strcmp(name, "MULS")) {
            dis_ea(&d, mode, reg, 1, a, sizeof a);
            snprintf(b, sizeof b, "D%u", rx);
        } else if (!strcmp(name, "ABCD") || !strcmp(name, "SBCD") || !strcmp(name, "ADDX") || !strcmp(name, "SUBX")) {
            if (name[3] == 'X') { /* ADDX, SUBX */
                snprintf(nb, sizeof nb, "%s.%c", name, sfx[sz]);
                n = nb;
            }
            if (op & 8) { snprintf(a, sizeof a, "-(A%u)", reg); snprintf(b, sizeof b, "-(A%u)", rx); }
            else { snprintf(a, sizeof a, "D%u", reg); snprintf(b, sizeof b, "D%u", rx); }
        } else if (!strcmp(name, "EXG")) {
            unsigned om = (op >> 3) & 0x1F;
            snprintf(a, sizeof a, "%c%u", om == 9 ? 'A' : 'D', rx);
            snprintf(b, sizeof b, "%c%u", om == 8 ? 'D' : 'A', reg);
        } else if (!strcmp(name, "CMPM")) {
            snprintf(nb, sizeof nb, "CMPM.%c", sfx[sz]);
            n = nb;
            snprintf(a, sizeof a, "(A%u)+", reg);
            snprintf(b, sizeof b, "(A%u)+", rx);
        } else if (sz == 3) { /* ADDA SUBA CMPA */
            snprintf(nb, sizeof nb, "%s.%c", name, (op & 0x100) ? 'l' : 'w');
            n = nb;
            dis_ea(&d, mode, reg, (op & 0x100) ? 2 : 1, a, sizeof a);
            snprintf(b, sizeof b, "A%u", rx);
        } else {
            snprintf(nb, sizeof nb, "%s.%c", name, sfx[sz]);
            n = nb;
            if ((op & 0x100) && strcmp(name, "CMP")) { snprintf(a, sizeof a, "D%u", rx); dis_ea(&d, mode, reg, sz, b, sizeof b); }
            else { dis_ea(&d, mode, reg, sz, a, sizeof a); snprintf(b, sizeof b, "D%u", rx); }
        }
        break;
    }
    if (d.bad) {
        snprintf(out, cap, "(truncated)");
        return -1;
    }
    if (b[0]) snprintf(out, cap, "%s %s,%s", n, a, b);
    else if (a[0]) snprintf(out, cap, "%s %s", n, a);
    else snprintf(out, cap, "%s", n);
    return d.i;
}
