/* Our own Z80 tests: what the SingleStepTests suite does not cover (it runs one instruction with no interrupt
 * pending): INT in IM 0/1/2, NMI, EI's one-instruction delay, DI, HALT and its wake-up, RETN, the LD A,I P/V quirk,
 * R's bit 7; the T-state table against the interpreter; the state check; the disassembler. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cpu/z80/z80.h"

typedef struct cbus {
    uint8_t mem[65536];
    uint64_t t;     /* T-states */
    long steps;     /* instructions or interrupt acceptances left */
    unsigned inta;  /* INT acknowledge cycles seen */
    uint8_t io_last;
} cbus;

static inline uint8_t c_inta(cbus *b, uint8_t data)
{
    b->inta++;
    b->t += 6;
    return data;
}

#define Z80_FN cbus_run
#define Z80_CTX cbus
#define Z80_FETCH(b, ad, ir) ((b)->t += 4, (void)(ir), (b)->mem[(ad)])
#define Z80_READ(b, ad) ((b)->t += 3, (b)->mem[(ad)])
#define Z80_WRITE(b, ad, v) ((b)->t += 3, (void)((b)->mem[(ad)] = (v)))
#define Z80_IN(b, port) ((b)->t += 4, (void)(port), (uint8_t)0xA5)
#define Z80_OUT(b, port, v) ((b)->t += 4, (void)(port), (void)((b)->io_last = (v)))
#define Z80_INTERNAL(b, n) ((b)->t += (uint64_t)(n))
#define Z80_STOP(b) ((b)->steps-- <= 0)
#define Z80_INTA(b, ir) ((void)(ir), c_inta((b), cpu->int_data))
#include "cpu/z80/z80_exec.h"

static cbus bus;

/* Runs n steps; returns the T-states they took. */
static unsigned steps(rg_z80 *c, long n)
{
    uint64_t t0 = bus.t;
    bus.steps = n;
    assert_int_equal(cbus_run(c, &bus), 0);
    return (unsigned)(bus.t - t0);
}

static void setup_cpu(rg_z80 *c, uint16_t pc, const uint8_t *prog, size_t len)
{
    memset(&bus, 0, sizeof bus);
    rg__z80_init(c);
    memcpy(bus.mem + pc, prog, len);
    c->pc = pc;
    c->sp = 0x8000;
}

static uint16_t peek16(uint16_t ad)
{
    return (uint16_t)(bus.mem[ad] | bus.mem[(uint16_t)(ad + 1u)] << 8);
}

static void test_power_on(void **state)
{
    (void)state;
    rg_z80 c;
    rg__z80_init(&c);
    assert_int_equal(c.pc, 0);
    assert_int_equal(c.sp, 0xFFFF);
    assert_int_equal(c.a, 0xFF);
    assert_int_equal(c.f, 0xFF);
    assert_int_equal(c.iff1, 0);
    assert_int_equal(c.im, 0);
    assert_null(rg__z80_check(&c));
}

static void test_im1(void **state)
{
    (void)state;
    static const uint8_t prog[] = {0xED, 0x56, 0xFB, 0x00, 0x00}; /* IM 1; EI; NOP; NOP */
    rg_z80 c;
    setup_cpu(&c, 0x0100, prog, sizeof prog);
    assert_int_equal(steps(&c, 2), 8 + 4);
    assert_int_equal(c.im, 1);
    c.int_line = 1;
    /* EI's delay: the NOP after it runs first */
    assert_int_equal(steps(&c, 1), 4);
    assert_int_equal(c.pc, 0x0104);
    uint8_t r0 = c.r;
    assert_int_equal(steps(&c, 1), 13);
    assert_int_equal(bus.inta, 1);
    assert_int_equal(c.pc, 0x0038);
    assert_int_equal(c.wz, 0x0038);
    assert_int_equal(c.sp, 0x7FFE);
    assert_int_equal(peek16(0x7FFE), 0x0104);
    assert_int_equal(c.iff1, 0);
    assert_int_equal(c.iff2, 0);
    assert_int_equal(c.r, (uint8_t)(r0 + 1u)); /* the acknowledge cycle refreshes */
    /* iff1 is clear now: the line still high is ignored */
    bus.mem[0x38] = 0x00;
    assert_int_equal(steps(&c, 1), 4);
    assert_int_equal(c.pc, 0x0039);
}

static void test_im2(void **state)
{
    (void)state;
    static const uint8_t prog[] = {0xED, 0x5E, 0x3E, 0x12, 0xED, 0x47, 0xFB, 0x00}; /* IM 2; LD A,$12; LD I,A; EI */
    rg_z80 c;
    setup_cpu(&c, 0x0200, prog, sizeof prog);
    bus.mem[0x12FE] = 0x34;
    bus.mem[0x12FF] = 0x56;
    assert_int_equal(steps(&c, 4), 8 + 7 + 9 + 4);
    assert_int_equal(c.i, 0x12);
    c.int_line = 1;
    c.int_data = 0xFE;
    assert_int_equal(steps(&c, 1), 4); /* the NOP after EI */
    assert_int_equal(steps(&c, 1), 19);
    assert_int_equal(c.pc, 0x5634);
    assert_int_equal(c.wz, 0x5634);
    assert_int_equal(peek16(c.sp), 0x0208);
}

static void test_im0_rst(void **state)
{
    (void)state;
    static const uint8_t prog[] = {0xED, 0x46, 0xFB, 0x00}; /* IM 0; EI; NOP */
    rg_z80 c;
    setup_cpu(&c, 0x0300, prog, sizeof prog);
    assert_int_equal(steps(&c, 3), 8 + 4 + 4);
    c.int_line = 1;
    c.int_data = 0xD7; /* RST $10 */
    assert_int_equal(steps(&c, 1), 13);
    assert_int_equal(c.pc, 0x0010);
    assert_int_equal(peek16(c.sp), 0x0304);
    /* a byte that is no RST is taken as RST $38 */
    c.iff1 = c.iff2 = 1;
    c.int_data = 0x00;
    assert_int_equal(steps(&c, 1), 13);
    assert_int_equal(c.pc, 0x0038);
}

static void test_di_blocks_int_not_nmi(void **state)
{
    (void)state;
    static const uint8_t prog[] = {0xF3, 0x00, 0x00, 0x00}; /* DI; NOP... */
    rg_z80 c;
    setup_cpu(&c, 0x0400, prog, sizeof prog);
    c.iff1 = c.iff2 = 1;
    c.int_line = 1;
    /* INT is taken before DI runs (it is pending at the boundary) unless iff1 is clear: clear it by running DI with
     * the line low first */
    c.int_line = 0;
    assert_int_equal(steps(&c, 1), 4);
    c.int_line = 1;
    assert_int_equal(steps(&c, 2), 8);
    assert_int_equal(c.pc, 0x0403);
    c.nmi_pending = 1;
    c.iff2 = 1; /* as if saved: NMI copies nothing into iff2 */
    assert_int_equal(steps(&c, 1), 11);
    assert_int_equal(c.nmi_pending, 0);
    assert_int_equal(c.pc, 0x0066);
    assert_int_equal(peek16(c.sp), 0x0403);
    assert_int_equal(c.iff1, 0);
    assert_int_equal(c.iff2, 1);
    /* RETN restores iff1 from iff2 */
    bus.mem[0x66] = 0xED;
    bus.mem[0x67] = 0x45;
    c.int_line = 0;
    assert_int_equal(steps(&c, 1), 14);
    assert_int_equal(c.pc, 0x0403);
    assert_int_equal(c.iff1, 1);
}

static void test_nmi_right_after_ei(void **state)
{
    (void)state;
    static const uint8_t prog[] = {0xFB, 0x00};
    rg_z80 c;
    setup_cpu(&c, 0x0500, prog, sizeof prog);
    assert_int_equal(steps(&c, 1), 4);
    c.nmi_pending = 1;
    c.int_line = 1;
    /* EI delays INT only: the NMI is taken at once, and INT waits (iff1 is clear after the NMI) */
    assert_int_equal(steps(&c, 1), 11);
    assert_int_equal(c.pc, 0x0066);
    assert_int_equal(c.iff1, 0);
    assert_int_equal(c.iff2, 1);
}

static void test_halt(void **state)
{
    (void)state;
    static const uint8_t prog[] = {0xFB, 0x76, 0x00}; /* EI; HALT */
    rg_z80 c;
    setup_cpu(&c, 0x0600, prog, sizeof prog);
    c.im = 1;
    c.r = 0x80 | 0x7E;
    assert_int_equal(steps(&c, 2), 8);
    assert_int_equal(c.halted, 1);
    assert_int_equal(c.pc, 0x0602); /* pc is past the HALT */
    /* halted: 4 T-state M1 cycles that only count R (bit 7 kept, the low 7 bits wrap) */
    assert_int_equal(steps(&c, 10), 40);
    assert_int_equal(c.pc, 0x0602);
    assert_int_equal(c.r, 0x80 | ((0x7E + 12) & 0x7F));
    c.int_line = 1;
    assert_int_equal(steps(&c, 1), 13);
    assert_int_equal(c.halted, 0);
    assert_int_equal(c.pc, 0x0038);
    assert_int_equal(peek16(c.sp), 0x0602); /* the return address is the instruction after HALT */
    /* NMI also ends HALT */
    static const uint8_t prog2[] = {0x76};
    setup_cpu(&c, 0x0700, prog2, sizeof prog2);
    assert_int_equal(steps(&c, 3), 12);
    c.nmi_pending = 1;
    assert_int_equal(steps(&c, 1), 11);
    assert_int_equal(c.halted, 0);
    assert_int_equal(peek16(c.sp), 0x0701);
}

static void test_ld_a_i_quirk(void **state)
{
    (void)state;
    static const uint8_t prog[] = {0xED, 0x57, 0xED, 0x57}; /* LD A,I; LD A,I */
    rg_z80 c;
    setup_cpu(&c, 0x0800, prog, sizeof prog);
    c.iff1 = c.iff2 = 1;
    c.im = 1;
    c.i = 0x00;
    assert_int_equal(steps(&c, 1), 9);
    assert_true(c.f & RG_Z80_PF); /* P/V = iff2 */
    assert_int_equal(c.p, 1);
    c.int_line = 1;
    assert_int_equal(steps(&c, 1), 13);
    assert_false(c.f & RG_Z80_PF); /* an INT accepted right after LD A,I clears P/V */
    /* without the quirk, P/V stays */
    setup_cpu(&c, 0x0800, prog, sizeof prog);
    c.iff1 = c.iff2 = 1;
    c.im = 1;
    steps(&c, 1);
    c.p = 0;
    c.int_line = 1;
    steps(&c, 1);
    assert_true(c.f & RG_Z80_PF);
}

static void test_r_register(void **state)
{
    (void)state;
    /* LD A,$FF; LD R,A; NOP; DD NOP; LD A,R */
    static const uint8_t prog[] = {0x3E, 0xFF, 0xED, 0x4F, 0x00, 0xDD, 0x00, 0xED, 0x5F};
    rg_z80 c;
    setup_cpu(&c, 0x0900, prog, sizeof prog);
    assert_int_equal(steps(&c, 2), 7 + 9);
    assert_int_equal(c.r, 0xFF);
    assert_int_equal(steps(&c, 3), 4 + 8 + 9);
    /* NOP: 1, DD+NOP: 2, ED+5F: 2 before the copy; bit 7 stays set */
    assert_int_equal(c.a, 0x80 | ((0x7F + 5) & 0x7F));
}

/* rg__z80_cycles against the interpreter for every unprefixed opcode, conditions false, DJNZ not taken. */
static void test_cycle_table(void **state)
{
    (void)state;
    for (unsigned op = 0; op < 256; op++) {
        if (op == 0xCB || op == 0xDD || op == 0xED || op == 0xFD)
            continue;
        rg_z80 c;
        uint8_t prog[4] = {(uint8_t)op, 0x00, 0x00, 0x00};
        setup_cpu(&c, 0x1000, prog, sizeof prog);
        unsigned y = (op >> 3) & 7u;
        if ((op & 0xC7u) == 0xC0u || (op & 0xC7u) == 0xC2u || (op & 0xC7u) == 0xC4u)
            c.f = (y & 1u) ? 0x00 : 0xFF;
        else if (op >= 0x20 && op <= 0x38 && (op & 7u) == 0)
            c.f = ((y - 4u) & 1u) ? 0x00 : 0xFF;
        c.b = 1;
        unsigned t = steps(&c, 1);
        if (t != rg__z80_cycles[op])
            fail_msg("opcode %02X took %u T-states, the table says %u", op, t, rg__z80_cycles[op]);
    }
}

static void test_check(void **state)
{
    (void)state;
    rg_z80 c;
    rg__z80_init(&c);
    assert_null(rg__z80_check(&c));
    c.iff1 = 2;
    assert_non_null(rg__z80_check(&c));
    rg__z80_init(&c);
    c.im = 3;
    assert_non_null(strstr(rg__z80_check(&c), "interrupt mode"));
    rg__z80_init(&c);
    c.halted = 7;
    assert_non_null(rg__z80_check(&c));
    rg__z80_init(&c);
    c.int_line = 2;
    assert_non_null(rg__z80_check(&c));
    rg__z80_init(&c);
    c.q = 0x12; /* f is $FF */
    assert_non_null(strstr(rg__z80_check(&c), "q"));
    c.q = c.f;
    assert_null(rg__z80_check(&c));
}

static void dis_is(uint16_t pc, const uint8_t *b, const char *want, int len)
{
    char out[40];
    int n = rg__z80_disasm(pc, b, out, sizeof out);
    if (strcmp(out, want) != 0 || n != len)
        fail_msg("%02X %02X %02X %02X: \"%s\" (%d bytes), want \"%s\" (%d)", b[0], b[1], b[2], b[3], out, n, want,
                 len);
    assert_int_equal(rg__z80_op_length(b), len);
}

static void test_disasm(void **state)
{
    (void)state;
    dis_is(0, (const uint8_t[]){0x00, 0, 0, 0}, "NOP", 1);
    dis_is(0, (const uint8_t[]){0x21, 0x34, 0x12, 0}, "LD HL,$1234", 3);
    dis_is(0, (const uint8_t[]){0xDD, 0x21, 0x34, 0x12}, "LD IX,$1234", 4);
    dis_is(0, (const uint8_t[]){0xDD, 0x77, 0xFE, 0}, "LD (IX-$02),A", 3);
    dis_is(0, (const uint8_t[]){0xFD, 0x66, 0x05, 0}, "LD H,(IY+$05)", 3);
    dis_is(0, (const uint8_t[]){0xDD, 0x65, 0, 0}, "LD IXH,IXL", 2);
    dis_is(0, (const uint8_t[]){0xFD, 0x36, 0x03, 0x99}, "LD (IY+$03),$99", 4);
    dis_is(0, (const uint8_t[]){0xDD, 0xCB, 0x01, 0x06}, "RLC (IX+$01)", 4);
    dis_is(0, (const uint8_t[]){0xDD, 0xCB, 0x01, 0x00}, "LD B,RLC (IX+$01)", 4);
    dis_is(0, (const uint8_t[]){0xFD, 0xCB, 0x80, 0x7E}, "BIT 7,(IY-$80)", 4);
    dis_is(0, (const uint8_t[]){0xCB, 0x37, 0, 0}, "SLL A", 2);
    dis_is(0x100, (const uint8_t[]){0x10, 0xFE, 0, 0}, "DJNZ $0100", 2);
    dis_is(0x100, (const uint8_t[]){0x38, 0x10, 0, 0}, "JR C,$0112", 2);
    dis_is(0, (const uint8_t[]){0xED, 0xB0, 0, 0}, "LDIR", 2);
    dis_is(0, (const uint8_t[]){0xED, 0x4C, 0, 0}, "NEG*", 2);
    dis_is(0, (const uint8_t[]){0xED, 0x71, 0, 0}, "OUT (C),0", 2);
    dis_is(0, (const uint8_t[]){0xED, 0x00, 0, 0}, "NOP*", 2);
    dis_is(0, (const uint8_t[]){0xED, 0x73, 0x00, 0xC0}, "LD ($C000),SP", 4);
    dis_is(0, (const uint8_t[]){0xE3, 0, 0, 0}, "EX (SP),HL", 1);
    dis_is(0, (const uint8_t[]){0xFD, 0xE9, 0, 0}, "JP (IY)", 2);
    dis_is(0, (const uint8_t[]){0xDD, 0xEB, 0, 0}, "EX DE,HL", 2);
    dis_is(0, (const uint8_t[]){0xF5, 0, 0, 0}, "PUSH AF", 1);
    dis_is(0, (const uint8_t[]){0xFE, 0x7F, 0, 0}, "CP $7F", 2);
    dis_is(0, (const uint8_t[]){0xDD, 0xFD, 0, 0}, "NOP*", 1);
    dis_is(0, (const uint8_t[]){0xFF, 0, 0, 0}, "RST $38", 1);
    /* every byte sequence decodes to 1-4 bytes */
    for (unsigned p = 0; p < 4; p++) {
        static const uint8_t pre[4] = {0x00, 0xDD, 0xED, 0xCB};
        for (unsigned op = 0; op < 256; op++) {
            uint8_t b[5] = {pre[p], (uint8_t)op, 0x00, 0x00, 0x00};
            int n = rg__z80_op_length(p ? b : b + 1);
            assert_true(n >= 1 && n <= 4);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_power_on),
        cmocka_unit_test(test_im1),
        cmocka_unit_test(test_im2),
        cmocka_unit_test(test_im0_rst),
        cmocka_unit_test(test_di_blocks_int_not_nmi),
        cmocka_unit_test(test_nmi_right_after_ei),
        cmocka_unit_test(test_halt),
        cmocka_unit_test(test_ld_a_i_quirk),
        cmocka_unit_test(test_r_register),
        cmocka_unit_test(test_cycle_table),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_disasm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
