/* The Z80's non-inline parts: power-on state, the state check, T-states and disassembly. */
#include "cpu/z80/z80.h"

#include <stdio.h>
#include <string.h>

void rg__z80_init(rg_z80 *c)
{
    memset(c, 0, sizeof *c);
    c->a = c->f = 0xFFu;
    c->sp = 0xFFFFu;
    c->int_data = 0xFFu;
}

const char *rg__z80_check(const rg_z80 *c)
{
    if (c->iff1 > 1u || c->iff2 > 1u)
        return "the Z80's interrupt flip-flops iff1/iff2 must be 0 or 1";
    if (c->im > 2u)
        return "the Z80's interrupt mode must be 0, 1 or 2";
    if (c->ei > 1u || c->p > 1u || c->halted > 1u)
        return "the Z80's ei, p and halted flags must be 0 or 1";
    if (c->nmi_pending > 1u || c->int_line > 1u)
        return "the Z80's nmi_pending and int_line must be 0 or 1";
    if (c->q != 0u && c->q != c->f)
        return "the Z80's q must be 0 or equal to f";
    return NULL;
}

/* Unprefixed opcodes: T-states when a condition is false (JR cc, DJNZ, RET cc, CALL cc); 0 for the prefixes. */
const uint8_t rg__z80_cycles[256] = {
    4, 10, 7, 6, 4, 4, 7, 4, 4, 11, 7, 6, 4, 4, 7, 4,       /* 00 */
    8, 10, 7, 6, 4, 4, 7, 4, 12, 11, 7, 6, 4, 4, 7, 4,      /* 10 */
    7, 10, 16, 6, 4, 4, 7, 4, 7, 11, 16, 6, 4, 4, 7, 4,     /* 20 */
    7, 10, 13, 6, 11, 11, 10, 4, 7, 11, 13, 6, 4, 4, 7, 4,  /* 30 */
    4, 4, 4, 4, 4, 4, 7, 4, 4, 4, 4, 4, 4, 4, 7, 4,         /* 40 */
    4, 4, 4, 4, 4, 4, 7, 4, 4, 4, 4, 4, 4, 4, 7, 4,         /* 50 */
    4, 4, 4, 4, 4, 4, 7, 4, 4, 4, 4, 4, 4, 4, 7, 4,         /* 60 */
    7, 7, 7, 7, 7, 7, 4, 7, 4, 4, 4, 4, 4, 4, 7, 4,         /* 70 */
    4, 4, 4, 4, 4, 4, 7, 4, 4, 4, 4, 4, 4, 4, 7, 4,         /* 80 */
    4, 4, 4, 4, 4, 4, 7, 4, 4, 4, 4, 4, 4, 4, 7, 4,         /* 90 */
    4, 4, 4, 4, 4, 4, 7, 4, 4, 4, 4, 4, 4, 4, 7, 4,         /* A0 */
    4, 4, 4, 4, 4, 4, 7, 4, 4, 4, 4, 4, 4, 4, 7, 4,         /* B0 */
    5, 10, 10, 10, 10, 11, 7, 11, 5, 10, 10, 0, 10, 17, 7, 11, /* C0 */
    5, 10, 10, 11, 10, 11, 7, 11, 5, 4, 10, 11, 10, 0, 7, 11,  /* D0 */
    5, 10, 10, 19, 10, 11, 7, 11, 5, 4, 10, 4, 10, 0, 7, 11,   /* E0 */
    5, 10, 10, 4, 10, 11, 7, 11, 5, 6, 10, 4, 10, 0, 7, 11,    /* F0 */
};

static const char *const R8[8] = {"B", "C", "D", "E", "H", "L", "(HL)", "A"};
static const char *const RP[4] = {"BC", "DE", "HL", "SP"};
static const char *const RP2[4] = {"BC", "DE", "HL", "AF"};
static const char *const CC[8] = {"NZ", "Z", "NC", "C", "PO", "PE", "P", "M"};
static const char *const ALU[8] = {"ADD A,", "ADC A,", "SUB ", "SBC A,", "AND ", "XOR ", "OR ", "CP "};
static const char *const ROT[8] = {"RLC", "RRC", "RL", "RR", "SLA", "SRA", "SLL", "SRL"};

/* Decoding context: the bytes, how many were used, the index prefix and its displacement. */
typedef struct dis {
    const uint8_t *b;
    int n;       /* bytes consumed */
    int xm;      /* 0 none, 1 IX, 2 IY */
    int disp;    /* displacement of (IX+d), read once */
    int have_disp;
    int mem;     /* the instruction uses (HL): H and L are not replaced */
    char t[3][16];
} dis;

static int dis_disp(dis *d)
{
    if (!d->have_disp) {
        d->disp = (int8_t)d->b[d->n++];
        d->have_disp = 1;
    }
    return d->disp;
}

/* Name of register n; slot picks one of three buffers so that two operands can coexist. */
static const char *dis_r8(dis *d, unsigned n, int slot)
{
    if (d->xm && n == 6) {
        int v = dis_disp(d);
        snprintf(d->t[slot], sizeof d->t[slot], "(%s%c$%02X)", d->xm == 1 ? "IX" : "IY", v < 0 ? '-' : '+',
                 (unsigned)(v < 0 ? -v : v));
        return d->t[slot];
    }
    if (d->xm && !d->mem && (n == 4 || n == 5)) {
        snprintf(d->t[slot], sizeof d->t[slot], "%s%s", d->xm == 1 ? "IX" : "IY", n == 4 ? "H" : "L");
        return d->t[slot];
    }
    return R8[n];
}

static const char *dis_rp(const dis *d, unsigned n, int af)
{
    if (n == 2 && d->xm)
        return d->xm == 1 ? "IX" : "IY";
    return af ? RP2[n] : RP[n];
}

static unsigned dis_imm16(dis *d)
{
    unsigned v = (unsigned)d->b[d->n] | (unsigned)d->b[d->n + 1] << 8;
    d->n += 2;
    return v;
}

static void dis_ed(dis *d, uint16_t pc, char *out, size_t cap)
{
    (void)pc;
    unsigned op = d->b[d->n++], x = op >> 6, y = (op >> 3) & 7u, z = op & 7u;
    static const char *const BLK[4][4] = {{"LDI", "CPI", "INI", "OUTI"}, {"LDD", "CPD", "IND", "OUTD"},
                                          {"LDIR", "CPIR", "INIR", "OTIR"}, {"LDDR", "CPDR", "INDR", "OTDR"}};
    static const char *const IMS[8] = {"0", "0", "1", "2", "0", "0", "1", "2"};
    static const char *const MISC[8] = {"LD I,A", "LD R,A", "LD A,I", "LD A,R", "RRD", "RLD", "NOP*", "NOP*"};
    if (x == 1) {
        switch (z) {
        case 0: snprintf(out, cap, y == 6 ? "IN (C)" : "IN %s,(C)", R8[y]); return;
        case 1: snprintf(out, cap, y == 6 ? "OUT (C),0" : "OUT (C),%s", R8[y]); return;
        case 2: snprintf(out, cap, "%s HL,%s", y & 1u ? "ADC" : "SBC", RP[y >> 1]); return;
        case 3: {
            unsigned nn = dis_imm16(d);
            if (y & 1u)
                snprintf(out, cap, "LD %s,($%04X)", RP[y >> 1], nn);
            else
                snprintf(out, cap, "LD ($%04X),%s", nn, RP[y >> 1]);
            return;
        }
        case 4: snprintf(out, cap, y ? "NEG*" : "NEG"); return;
        case 5: snprintf(out, cap, y == 1 ? "RETI" : y ? "RETN*" : "RETN"); return;
        case 6: snprintf(out, cap, "IM %s", IMS[y]); return;
        default: snprintf(out, cap, "%s", MISC[y]); return;
        }
    }
    if (x == 2 && z < 4 && y >= 4) {
        snprintf(out, cap, "%s", BLK[y - 4][z]);
        return;
    }
    snprintf(out, cap, "NOP*");
}

int rg__z80_disasm(uint16_t pc, const uint8_t *bytes, char *out, size_t cap)
{
    dis d;
    memset(&d, 0, sizeof d);
    d.b = bytes;
    unsigned op = bytes[d.n++];
    if (op == 0xDD || op == 0xFD) {
        d.xm = op == 0xDD ? 1 : 2;
        op = bytes[d.n++];
        if (op == 0xDD || op == 0xFD || op == 0xED) {
            /* a prefix followed by another: the first one alone acts as a 4 T-state NOP */
            snprintf(out, cap, "NOP*");
            return 1;
        }
    }
    if (op == 0xED) {
        dis_ed(&d, pc, out, cap);
        return d.n;
    }
    unsigned x = op >> 6, y = (op >> 3) & 7u, z = op & 7u;
    if (op == 0xCB) {
        unsigned cb;
        const char *target;
        if (d.xm) {
            dis_disp(&d);
            cb = bytes[d.n++];
            d.mem = 1;
            target = dis_r8(&d, 6, 0);
        } else {
            cb = bytes[d.n++];
            target = R8[cb & 7u];
        }
        unsigned cy = (cb >> 3) & 7u, cz = cb & 7u;
        char head[16] = "";
        if (d.xm && cz != 6 && (cb >> 6) != 1)
            snprintf(head, sizeof head, "LD %s,", R8[cz]);
        switch (cb >> 6) {
        case 0: snprintf(out, cap, "%s%s %s", head, ROT[cy], target); break;
        case 1: snprintf(out, cap, "BIT %u,%s", cy, target); break;
        case 2: snprintf(out, cap, "%sRES %u,%s", head, cy, target); break;
        default: snprintf(out, cap, "%sSET %u,%s", head, cy, target); break;
        }
        return d.n;
    }
    d.mem = (x == 1 && (y == 6 || z == 6)) || (x == 2 && z == 6) || (x == 0 && y == 6 && z >= 4 && z <= 6);
    const char *hl = dis_rp(&d, 2, 0);
    switch (x) {
    case 1:
        if (op == 0x76) {
            snprintf(out, cap, "HALT");
        } else {
            const char *dst = dis_r8(&d, y, 0);
            snprintf(out, cap, "LD %s,%s", dst, dis_r8(&d, z, 1));
        }
        return d.n;
    case 2:
        snprintf(out, cap, "%s%s", ALU[y], dis_r8(&d, z, 0));
        return d.n;
    case 0:
        switch (z) {
        case 0:
            if (y == 0) {
                snprintf(out, cap, "NOP");
            } else if (y == 1) {
                snprintf(out, cap, "EX AF,AF'");
            } else {
                int e = (int8_t)bytes[d.n++];
                unsigned target = (unsigned)(pc + d.n + e) & 0xFFFFu;
                if (y == 2)
                    snprintf(out, cap, "DJNZ $%04X", target);
                else if (y == 3)
                    snprintf(out, cap, "JR $%04X", target);
                else
                    snprintf(out, cap, "JR %s,$%04X", CC[y - 4], target);
            }
            return d.n;
        case 1:
            if (y & 1u)
                snprintf(out, cap, "ADD %s,%s", hl, dis_rp(&d, y >> 1, 0));
            else
                snprintf(out, cap, "LD %s,$%04X", dis_rp(&d, y >> 1, 0), dis_imm16(&d));
            return d.n;
        case 2: {
            static const char *const IND[8] = {"LD (BC),A", "LD A,(BC)", "LD (DE),A", "LD A,(DE)"};
            if (y < 4) {
                snprintf(out, cap, "%s", IND[y]);
            } else {
                unsigned nn = dis_imm16(&d);
                if (y == 4)
                    snprintf(out, cap, "LD ($%04X),%s", nn, hl);
                else if (y == 5)
                    snprintf(out, cap, "LD %s,($%04X)", hl, nn);
                else if (y == 6)
                    snprintf(out, cap, "LD ($%04X),A", nn);
                else
                    snprintf(out, cap, "LD A,($%04X)", nn);
            }
            return d.n;
        }
        case 3: snprintf(out, cap, "%s %s", y & 1u ? "DEC" : "INC", dis_rp(&d, y >> 1, 0)); return d.n;
        case 4: snprintf(out, cap, "INC %s", dis_r8(&d, y, 0)); return d.n;
        case 5: snprintf(out, cap, "DEC %s", dis_r8(&d, y, 0)); return d.n;
        case 6: {
            const char *dst = dis_r8(&d, y, 0);
            snprintf(out, cap, "LD %s,$%02X", dst, bytes[d.n]);
            d.n++;
            return d.n;
        }
        default: {
            static const char *const ACC[8] = {"RLCA", "RRCA", "RLA", "RRA", "DAA", "CPL", "SCF", "CCF"};
            snprintf(out, cap, "%s", ACC[y]);
            return d.n;
        }
        }
    default:
        switch (z) {
        case 0: snprintf(out, cap, "RET %s", CC[y]); return d.n;
        case 1: {
            static const char *const M[4] = {"RET", "EXX", "JP (%s)", "LD SP,%s"};
            if (y & 1u)
                snprintf(out, cap, M[y >> 1], hl);
            else
                snprintf(out, cap, "POP %s", dis_rp(&d, y >> 1, 1));
            return d.n;
        }
        case 2: snprintf(out, cap, "JP %s,$%04X", CC[y], dis_imm16(&d)); return d.n;
        case 3:
            switch (y) {
            case 0: snprintf(out, cap, "JP $%04X", dis_imm16(&d)); break;
            case 2: snprintf(out, cap, "OUT ($%02X),A", bytes[d.n]); d.n++; break;
            case 3: snprintf(out, cap, "IN A,($%02X)", bytes[d.n]); d.n++; break;
            case 4: snprintf(out, cap, "EX (SP),%s", hl); break;
            case 5: snprintf(out, cap, "EX DE,HL"); break;
            case 6: snprintf(out, cap, "DI"); break;
            default: snprintf(out, cap, "EI"); break;
            }
            return d.n;
        case 4: snprintf(out, cap, "CALL %s,$%04X", CC[y], dis_imm16(&d)); return d.n;
        case 5:
            if (y & 1u)
                snprintf(out, cap, "CALL $%04X", dis_imm16(&d));
            else
                snprintf(out, cap, "PUSH %s", dis_rp(&d, y >> 1, 1));
            return d.n;
        case 6: snprintf(out, cap, "%s$%02X", ALU[y], bytes[d.n]); d.n++; return d.n;
        default: snprintf(out, cap, "RST $%02X", y * 8u); return d.n;
        }
    }
}

int rg__z80_op_length(const uint8_t *bytes)
{
    char scratch[32];
    return rg__z80_disasm(0, bytes, scratch, sizeof scratch);
}
