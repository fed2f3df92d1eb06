/* The 68000 outside the SingleStepTests suite (which runs one instruction from a state and has no interrupt pins):
 * clock counts of a small program against the figures of Motorola's timing tables, interrupts (autovector, vector
 * from the acknowledge, the mask, level 7 as an edge), STOP and its wake-up, the USP/SSP swap, privilege
 * violation, trace, illegal and line A, odd jump (address error frame), divide by zero, RESET and the state check. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "m68k_testbus.h"

static mbus bus;

static void setup_bus(void)
{
    memset(&bus, 0, sizeof bus);
    bus.iack_vector = -1;
    for (uint32_t v = 2; v < 64; v++) /* every vector to its own handler: 0x4000 + 16 * v, each a NOP loop */
        mbus_put32(&bus, v * 4, 0x4000 + 16 * v);
    for (uint32_t a = 0x4000; a < 0x4400; a += 2)
        mbus_put16(&bus, a, 0x4E71);
}

static void step(rg_m68k *c, long n)
{
    bus.steps = n;
    assert_int_equal(mbus_run(c, &bus), 0);
}

static void test_program_clocks(void **state)
{
    (void)state;
    setup_bus();
    mbus_load_mixed(&bus);
    rg_m68k c;
    mbus_start(&c, &bus, 0x1000, 0xF000);
    step(&c, 3); /* moveq 4, move.w #imm,Dn 8, lea abs.w 8 */
    assert_int_equal(c.cycles, 20);
    assert_int_equal(c.a[0], 0xFFFF8000u); /* abs.w is sign-extended */
    step(&c, 7); /* add.l 8, move.w Dn,(An)+ 8, lsl.w #1 6+2, mulu 38+2*8 (255 has 8 ones), tst 4, beq taken 10,
                    dbra taken 10 */
    assert_int_equal(c.cycles, 20 + 8 + 8 + 8 + 54 + 4 + 10 + 10);
    assert_int_equal(c.d[0], 0x1FE);
    assert_int_equal(c.d[1], 0xFE);
    assert_int_equal(c.a[0], 0xFFFF8002u);
    assert_int_equal(bus.mem[0x8000], 0x00);
    assert_int_equal(bus.mem[0x8001], 0xFF);
    assert_int_equal(c.pc, 0x100A + 4);
}

static void test_interrupts(void **state)
{
    (void)state;
    setup_bus();
    for (uint32_t a = 0x1000; a < 0x1100; a += 2)
        mbus_put16(&bus, a, 0x4E71);
    rg_m68k c;
    mbus_start(&c, &bus, 0x1000, 0xF000);
    c.sr = 0x2200;
    c.ipl = 2; /* not above the mask */
    step(&c, 1);
    assert_int_equal(c.pc, 0x1006);
    c.ipl = 3; /* autovector 27 */
    uint64_t t0 = c.cycles;
    step(&c, 1); /* the interrupt sequence is one step of its own */
    assert_int_equal(bus.iack_level, 3);
    assert_int_equal(c.sr, 0x2300);
    assert_int_equal(c.a[7], 0xF000 - 6);
    assert_int_equal(mbus_get32(&bus, 0xF000 - 4), 0x1002); /* the instruction not yet run */
    assert_int_equal(bus.mem[0xF000 - 6] << 8 | bus.mem[0xF000 - 5], 0x2200);
    assert_int_equal(c.pc, 0x4000 + 16 * 27 + 4);
    assert_int_equal(c.cycles - t0, 44);
    /* a vector from the acknowledge; level 7 is taken at mask 7, once per edge */
    mbus_start(&c, &bus, 0x1000, 0xF000);
    c.sr = 0x2700;
    bus.iack_vector = 40;
    c.ipl = 7;
    step(&c, 1);
    assert_int_equal(bus.iack_level, 7);
    assert_int_equal(c.pc, 0x4000 + 16 * 40 + 4);
    step(&c, 3); /* held at 7: no second interrupt */
    assert_int_equal(c.pc, 0x4000 + 16 * 40 + 10);
    assert_int_equal(c.a[7], 0xF000 - 6);
}

static void test_stop_and_stacks(void **state)
{
    (void)state;
    setup_bus();
    mbus_put16(&bus, 0x1000, 0x4E72); /* stop #$2100 */
    mbus_put16(&bus, 0x1002, 0x2100);
    mbus_put16(&bus, 0x1004, 0x4E71);
    rg_m68k c;
    mbus_start(&c, &bus, 0x1000, 0xF000);
    step(&c, 5);
    assert_int_equal(c.stopped, 1);
    assert_int_equal(c.sr, 0x2100);
    c.ipl = 1; /* not above the new mask: still stopped */
    step(&c, 2);
    assert_int_equal(c.stopped, 1);
    c.ipl = 2;
    step(&c, 1);
    assert_int_equal(c.stopped, 0);
    assert_int_equal(mbus_get32(&bus, 0xF000 - 4), 0x1004); /* returns after the STOP */

    /* move #0,sr: to user mode, the stack pointers swap; then a privileged instruction traps with the SSP */
    setup_bus();
    mbus_put16(&bus, 0x1000, 0x46FC);
    mbus_put16(&bus, 0x1002, 0x0000);
    mbus_put16(&bus, 0x1004, 0x46FC);
    mbus_put16(&bus, 0x1006, 0x2700);
    mbus_start(&c, &bus, 0x1000, 0xF000);
    c.other_sp = 0x7000;
    step(&c, 1);
    assert_int_equal(c.sr, 0x0000);
    assert_int_equal(c.a[7], 0x7000);
    assert_int_equal(c.other_sp, 0xF000);
    uint64_t t0 = c.cycles;
    step(&c, 1);
    assert_int_equal(c.sr & 0x2000, 0x2000);
    assert_int_equal(c.a[7], 0xF000 - 6);
    assert_int_equal(c.other_sp, 0x7000);
    assert_int_equal(mbus_get32(&bus, 0xF000 - 4), 0x1004); /* the privileged instruction itself */
    assert_int_equal(c.pc, 0x4000 + 16 * 8 + 4);
    assert_int_equal(c.cycles - t0, 34);
}

static void test_exceptions(void **state)
{
    (void)state;
    rg_m68k c;
    /* trace: after the traced NOP, vector 9 with the next instruction's address */
    setup_bus();
    for (uint32_t a = 0x1000; a < 0x1010; a += 2)
        mbus_put16(&bus, a, 0x4E71);
    mbus_start(&c, &bus, 0x1000, 0xF000);
    c.sr = 0xA700;
    step(&c, 2);
    assert_int_equal(mbus_get32(&bus, 0xF000 - 4), 0x1002);
    assert_int_equal(c.sr, 0x2700);
    assert_int_equal(c.pc, 0x4000 + 16 * 9 + 6);
    /* illegal (4AFC) and line A: the instruction's own address, 34 clocks */
    /* illegal: 4AFC, and encodings with an effective address the instruction does not allow (move.b a0,d0;
     * lea d0,a0; clr.l a0; add.b a0,d0; moveq with bit 8 set; jmp (a0)+) */
    static const struct { uint16_t op; uint32_t vec; } ex[] = {{0x4AFC, 4}, {0xA123, 10}, {0xF123, 11},
                                                                {0x1008, 4}, {0x41C0, 4}, {0x4288, 4},
                                                                {0xD008, 4}, {0x7100, 4}, {0x4ED8, 4}};
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        setup_bus();
        mbus_put16(&bus, 0x1000, ex[i].op);
        mbus_start(&c, &bus, 0x1000, 0xF000);
        step(&c, 1);
        assert_int_equal(mbus_get32(&bus, 0xF000 - 4), 0x1000);
        assert_int_equal(c.pc, 0x4000 + 16 * ex[i].vec + 4);
        assert_int_equal(c.cycles, 34);
    }
    /* jmp (a0) with a0 odd: address error, 7-word frame */
    setup_bus();
    mbus_put16(&bus, 0x1000, 0x4ED0);
    mbus_start(&c, &bus, 0x1000, 0xF000);
    c.a[0] = 0x3001;
    step(&c, 1);
    assert_int_equal(c.a[7], 0xF000 - 14);
    assert_int_equal(mbus_get32(&bus, 0xF000 - 12), 0x3001);  /* access address */
    assert_int_equal(bus.mem[0xF000 - 8] << 8 | bus.mem[0xF000 - 7], 0x4ED0); /* IR */
    assert_int_equal(c.pc, 0x4000 + 16 * 3 + 4);
    /* divu #0,d0: vector 5, 38 clocks (+4 for the immediate) */
    setup_bus();
    mbus_put16(&bus, 0x1000, 0x80FC);
    mbus_put16(&bus, 0x1002, 0x0000);
    mbus_start(&c, &bus, 0x1000, 0xF000);
    step(&c, 1);
    assert_int_equal(c.pc, 0x4000 + 16 * 5 + 4);
    assert_int_equal(mbus_get32(&bus, 0xF000 - 4), 0x1004);
    assert_int_equal(c.cycles, 38 + 4);
    /* RESET: 132 clocks, reported to the machine */
    setup_bus();
    mbus_put16(&bus, 0x1000, 0x4E70);
    mbus_start(&c, &bus, 0x1000, 0xF000);
    step(&c, 1);
    assert_int_equal(c.reset_out, 1);
    assert_int_equal(c.cycles, 132);
    /* the reset sequence from user mode: USP kept aside, supervisor with mask 7, the queue from the vector */
    c.sr = 0x8000;
    c.a[7] = 0x1234;
    c.stopped = 1;
    rg__m68k_reset(&c, 0xF000, 0x1000, 0x4E70, 0x4E71);
    assert_int_equal(c.sr, 0x2700);
    assert_int_equal(c.a[7], 0xF000);
    assert_int_equal(c.other_sp, 0x1234);
    assert_int_equal(c.pc, 0x1004);
    assert_int_equal(c.ir, 0x4E70);
    assert_int_equal(c.stopped, 0);
    assert_int_equal(c.cycles, 132 + 40);
    assert_null(rg__m68k_check(&c));
}

static void test_state_check(void **state)
{
    (void)state;
    rg_m68k c;
    rg__m68k_init(&c);
    assert_null(rg__m68k_check(&c));
    rg_m68k bad = c;
    bad.sr = 0x4000;
    assert_non_null(rg__m68k_check(&bad));
    bad = c;
    bad.ipl = 8;
    assert_non_null(rg__m68k_check(&bad));
    bad = c;
    bad.pc = 0x1001;
    assert_non_null(rg__m68k_check(&bad));
    assert_null(rg__m68k_check_mode(&bad, 1)); /* a machine without address errors keeps odd PCs */
    bad.ipl = 8;
    assert_non_null(rg__m68k_check_mode(&bad, 1));
    bad = c;
    bad.stopped = 2;
    assert_non_null(rg__m68k_check(&bad));
    bad = c;
    bad.trace_pending = 3;
    assert_non_null(rg__m68k_check(&bad));
    char name[32];
    assert_string_equal(rg__m68k_name(0x4E71, name, sizeof name), "NOP");
    assert_string_equal(rg__m68k_name(0xD081, name, sizeof name), "ADD");
    assert_string_equal(rg__m68k_name(0x51C9, name, sizeof name), "DBF");
}

static void test_disasm(void **state)
{
    (void)state;
    static const struct {
        uint16_t w[5];
        int len;
        const char *text;
    } cases[] = {
        {{0x4E71}, 1, "NOP"},
        {{0xD081}, 1, "ADD.l D1,D0"},
        {{0xD358}, 1, "ADD.w D1,(A0)+"},
        {{0x323C, 0x00FF}, 2, "MOVE.w #$FF,D1"},
        {{0x41F8, 0x8000}, 2, "LEA $FF8000.w,A0"},
        {{0x51C9, 0xFFF0}, 2, "DBF D1,$100A"},
        {{0x60E2}, 1, "BRA $FE4"},
        {{0x0680, 0x1234, 0x5678}, 3, "ADDI.l #$12345678,D0"},
        {{0x48E7, 0xC0C0}, 2, "MOVEM.l D0/D1/A0/A1,-(A7)"},
        {{0x4CDF, 0x0303}, 2, "MOVEM.l (A7)+,D0/D1/A0/A1"},
        {{0x23F0, 0x1804, 0x00FF, 0x0000}, 4, "MOVE.l 4(A0,D1.l),$FF0000.l"},
        {{0xC340}, 1, "EXG D1,D0"},
        {{0xE5A8}, 1, "LSL.l D2,D0"},
        {{0x4E72, 0x2700}, 2, "STOP #$2700"},
        {{0x70FF}, 1, "MOVEQ #-1,D0"},
        {{0xC308}, 1, "ABCD -(A0),-(A1)"},
    };
    char out[96];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n = rg__m68k_disasm(0x1018 + (i == 6 ? 4 : 0), cases[i].w, 5, out, sizeof out);
        if (i == 6) /* BRA at $101C */
            assert_int_equal(n, 1);
        assert_int_equal(n, cases[i].len);
        if (i == 5 || i == 6)
            continue;
        assert_string_equal(out, cases[i].text);
    }
    assert_int_equal(rg__m68k_disasm(0x1018, cases[5].w, 2, out, sizeof out), 2);
    assert_string_equal(out, "DBF D1,$100A");
    assert_int_equal(rg__m68k_disasm(0x101C, cases[6].w, 1, out, sizeof out), 1);
    assert_string_equal(out, "BRA $1000");
    /* too few words: -1, never a read past them */
    assert_int_equal(rg__m68k_disasm(0, cases[7].w, 2, out, sizeof out), -1);
    /* every opcode with any extension words: a length of 1 to 5 words */
    uint16_t w[5] = {0, 0x1234, 0x5678, 0x9ABC, 0xDEF0};
    for (uint32_t op = 0; op < 0x10000; op++) {
        w[0] = (uint16_t)op;
        int n = rg__m68k_disasm(0x1000, w, 5, out, sizeof out);
        assert_true(n >= 1 && n <= 5);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_program_clocks), cmocka_unit_test(test_interrupts),
        cmocka_unit_test(test_stop_and_stacks), cmocka_unit_test(test_exceptions),
        cmocka_unit_test(test_state_check), cmocka_unit_test(test_disasm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
