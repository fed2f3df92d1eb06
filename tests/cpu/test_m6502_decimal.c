/* ADC and SBC for every operand pair and carry, in decimal and binary mode, against reference models written from
 * the NMOS 6502's documented arithmetic (Bruce Clark's "Decimal Mode" sequences: the accumulator and carry from
 * one, N and V from a signed version of it, Z from the binary sum; SBC's flags are the binary ones), plus a few
 * values worked out by hand, and the 2A03's `no_decimal`. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>

#include "m6502_testbus.h"

static tbus bus;
static rg_m6502 cpu;

typedef struct ref {
    uint8_t a;
    int n, v, z, c;
} ref;

static int sext(int x)
{
    return x & 0x80 ? x - 0x100 : x;
}

/* Decimal ADC on the NMOS chip. */
static ref ref_adc_decimal(int a, int b, int c)
{
    ref r;
    int al = (a & 0x0F) + (b & 0x0F) + c;          /* low digit with the carry in */
    if (al >= 0x0A)
        al = ((al + 0x06) & 0x0F) + 0x10;           /* corrected digit plus a carry into the high digit */
    int sum = (a & 0xF0) + (b & 0xF0) + al;
    if (sum >= 0xA0)
        sum += 0x60;
    r.a = (uint8_t)sum;
    r.c = sum >= 0x100;
    int ssum = sext(a & 0xF0) + sext(b & 0xF0) + al; /* the same, high digits signed, before their correction */
    r.n = (ssum & 0x80) != 0;
    r.v = ssum < -128 || ssum > 127;
    r.z = ((a + b + c) & 0xFF) == 0;
    return r;
}

static ref ref_adc_binary(int a, int b, int c)
{
    ref r;
    int sum = a + b + c, ssum = sext(a) + sext(b) + c;
    r.a = (uint8_t)sum;
    r.c = sum > 0xFF;
    r.n = (sum & 0x80) != 0;
    r.v = ssum < -128 || ssum > 127;
    r.z = (sum & 0xFF) == 0;
    return r;
}

static ref ref_sbc_binary(int a, int b, int c)
{
    ref r;
    int dif = a - b - (1 - c), sdif = sext(a) - sext(b) - (1 - c);
    r.a = (uint8_t)dif;
    r.c = dif >= 0;
    r.n = (dif & 0x80) != 0;
    r.v = sdif < -128 || sdif > 127;
    r.z = (dif & 0xFF) == 0;
    return r;
}

/* Decimal SBC on the NMOS chip: the accumulator is corrected, the flags are the binary subtraction's. */
static ref ref_sbc_decimal(int a, int b, int c)
{
    ref r = ref_sbc_binary(a, b, c);
    int al = (a & 0x0F) - (b & 0x0F) + c - 1;
    if (al < 0)
        al = ((al - 0x06 + 0x20) & 0x0F) - 0x10;     /* corrected digit minus a borrow from the high digit */
    int dif = (a & 0xF0) - (b & 0xF0) + al;
    if (dif < 0)
        dif -= 0x60;
    r.a = (uint8_t)(dif & 0xFF);
    return r;
}

/* Runs `opcode #b` with A = a, carry c and D as given; returns the result as a ref. */
static ref run_imm(uint8_t opcode, int a, int b, int c, int d)
{
    tbus_setup(&bus, &cpu, 0x0200);
    bus.mem[0x0200] = opcode;
    bus.mem[0x0201] = (uint8_t)b;
    cpu.a = (uint8_t)a;
    cpu.p = (uint8_t)(RG_M6502_U | (c ? RG_M6502_C : 0) | (d ? RG_M6502_D : 0));
    assert_int_equal(tbus_step(&bus, &cpu, 1), 0);
    assert_int_equal(bus.cycles, 2);
    assert_int_equal(cpu.pc, 0x0202);
    ref r = {cpu.a, !!(cpu.p & RG_M6502_N), !!(cpu.p & RG_M6502_V), !!(cpu.p & RG_M6502_Z), !!(cpu.p & RG_M6502_C)};
    /* I and D are untouched. */
    assert_int_equal(cpu.p & (RG_M6502_I | RG_M6502_D | RG_M6502_U), RG_M6502_U | (d ? RG_M6502_D : 0));
    return r;
}

static void check(const char *what, int a, int b, int c, ref got, ref want)
{
    if (got.a != want.a || got.n != want.n || got.v != want.v || got.z != want.z || got.c != want.c)
        fail_msg("%s A=$%02X M=$%02X C=%d: got A=$%02X N%d V%d Z%d C%d, want A=$%02X N%d V%d Z%d C%d", what, a, b,
                 c, got.a, got.n, got.v, got.z, got.c, want.a, want.n, want.v, want.z, want.c);
}

static void test_adc_sbc_exhaustive(void **state)
{
    (void)state;
    for (int a = 0; a < 256; a++)
        for (int b = 0; b < 256; b++)
            for (int c = 0; c < 2; c++) {
                check("ADC decimal", a, b, c, run_imm(0x69, a, b, c, 1), ref_adc_decimal(a, b, c));
                check("SBC decimal", a, b, c, run_imm(0xE9, a, b, c, 1), ref_sbc_decimal(a, b, c));
                check("ADC binary", a, b, c, run_imm(0x69, a, b, c, 0), ref_adc_binary(a, b, c));
                check("SBC binary", a, b, c, run_imm(0xE9, a, b, c, 0), ref_sbc_binary(a, b, c));
            }
}

/* Values worked out by hand from the documented rules (they also check the reference models). */
static void test_decimal_examples(void **state)
{
    (void)state;
    static const struct {
        uint8_t op, a, m, c;
        ref want;
    } cases[] = {
        {0x69, 0x09, 0x01, 0, {0x10, 0, 0, 0, 0}},
        {0x69, 0x58, 0x46, 1, {0x05, 1, 1, 0, 1}},  /* 58 + 46 + 1 = 105; N and V from the intermediate $A5 */
        /* 99 + 01 = 00 with carry; Z is clear (binary sum $9A) and N set (high digit $A before correction) */
        {0x69, 0x99, 0x01, 0, {0x00, 1, 0, 0, 1}},
        {0x69, 0x79, 0x00, 1, {0x80, 1, 1, 0, 0}},  /* 79 + 1: N and V from the intermediate $80 */
        {0x69, 0x0F, 0x0F, 0, {0x14, 0, 0, 0, 0}},  /* invalid digits: F + F = 1E, corrected to 4 carry 1 */
        {0xE9, 0x00, 0x01, 1, {0x99, 1, 0, 0, 0}},  /* 00 - 01 = 99 with borrow; flags of $00 - $01 */
        {0xE9, 0x46, 0x12, 1, {0x34, 0, 0, 0, 1}},
        {0xE9, 0x40, 0x13, 1, {0x27, 0, 0, 0, 1}},
        {0xE9, 0x32, 0x02, 0, {0x29, 0, 0, 0, 1}},  /* borrow in: 32 - 02 - 1 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *what = cases[i].op == 0x69 ? "ADC example" : "SBC example";
        check(what, cases[i].a, cases[i].m, cases[i].c, run_imm(cases[i].op, cases[i].a, cases[i].m, cases[i].c, 1),
              cases[i].want);
        ref model = cases[i].op == 0x69 ? ref_adc_decimal(cases[i].a, cases[i].m, cases[i].c)
                                        : ref_sbc_decimal(cases[i].a, cases[i].m, cases[i].c);
        check("model", cases[i].a, cases[i].m, cases[i].c, model, cases[i].want);
    }
}

/* The 2A03 keeps the D flag but adds and subtracts in binary. */
static void test_no_decimal(void **state)
{
    (void)state;
    for (int a = 0; a < 256; a += 3)
        for (int b = 0; b < 256; b += 5)
            for (int c = 0; c < 2; c++) {
                tbus_setup(&bus, &cpu, 0x0200);
                bus.mem[0x0200] = 0x69;
                bus.mem[0x0201] = (uint8_t)b;
                cpu.no_decimal = 1;
                cpu.a = (uint8_t)a;
                cpu.p = (uint8_t)(RG_M6502_U | RG_M6502_D | (c ? RG_M6502_C : 0));
                assert_int_equal(tbus_step(&bus, &cpu, 1), 0);
                ref got = {cpu.a, !!(cpu.p & RG_M6502_N), !!(cpu.p & RG_M6502_V), !!(cpu.p & RG_M6502_Z),
                           !!(cpu.p & RG_M6502_C)};
                check("ADC no_decimal", a, b, c, got, ref_adc_binary(a, b, c));
                assert_true(cpu.p & RG_M6502_D);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decimal_examples),
        cmocka_unit_test(test_adc_sbc_exhaustive),
        cmocka_unit_test(test_no_decimal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
