/* The 6502 interpreter on a flat RAM bus: undocumented opcodes (values and flags worked out from the NMOS
 * references), cycle counts of every opcode and addressing mode with and without page crossing, exact bus access
 * sequences, interrupts and their latencies, KIL, and the disassembler table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "m6502_testbus.h"

#define N_ RG_M6502_N
#define V_ RG_M6502_V
#define U_ RG_M6502_U
#define B_ RG_M6502_B
#define D_ RG_M6502_D
#define I_ RG_M6502_I
#define Z_ RG_M6502_Z
#define C_ RG_M6502_C

static tbus bus;
static rg_m6502 cpu;

/* Fresh machine at pc with the given code bytes there. */
#define CODE(pc, ...) do { \
        static const uint8_t code_[] = {__VA_ARGS__}; \
        tbus_setup(&bus, &cpu, (pc)); \
        tbus_poke(&bus, (pc), code_, sizeof code_); \
    } while (0)

static void run1(void)
{
    assert_int_equal(tbus_step(&bus, &cpu, 1), 0);
}

#define R(ad, val) {(ad), (val), 0}
#define W(ad, val) {(ad), (val), 1}

/* The last run's bus accesses must be exactly these. */
static void expect_bus(const tbus_access *want, size_t n)
{
    for (size_t i = 0; i < n && i < bus.nlog; i++) {
        const tbus_access *g = &bus.log[i];
        if (g->addr != want[i].addr || g->value != want[i].value || g->write != want[i].write)
            fail_msg("access %zu: got %s $%04X=$%02X, want %s $%04X=$%02X", i, g->write ? "W" : "R", g->addr,
                     g->value, want[i].write ? "W" : "R", want[i].addr, want[i].value);
    }
    assert_int_equal(bus.nlog, n);
    assert_int_equal(bus.cycles, n);
}
#define EXPECT_BUS(...) do { \
        const tbus_access want_[] = {__VA_ARGS__}; \
        expect_bus(want_, sizeof want_ / sizeof want_[0]); \
    } while (0)

/* ------------------------------------------------------------------------------------------------------------ */
/* Undocumented opcodes */

static void test_lax_sax(void **state)
{
    (void)state;
    CODE(0x0400, 0xA7, 0x10); /* LAX $10 */
    bus.mem[0x10] = 0x80;
    run1();
    assert_int_equal(cpu.a, 0x80);
    assert_int_equal(cpu.x, 0x80);
    assert_int_equal(cpu.p, U_ | N_);
    assert_int_equal(bus.cycles, 3);

    CODE(0x0400, 0xBF, 0xF0, 0x12); /* LAX $12F0,Y crossing into $1310 */
    cpu.y = 0x20;
    cpu.a = cpu.x = 0x55;
    run1();
    assert_int_equal(cpu.a, 0x00);
    assert_int_equal(cpu.x, 0x00);
    assert_int_equal(cpu.p, U_ | Z_);
    assert_int_equal(bus.cycles, 5);

    CODE(0x0400, 0xB3, 0x20); /* LAX ($20),Y */
    bus.mem[0x20] = 0x00;
    bus.mem[0x21] = 0x30;
    bus.mem[0x3005] = 0x7F;
    cpu.y = 5;
    run1();
    assert_int_equal(cpu.a, 0x7F);
    assert_int_equal(cpu.x, 0x7F);
    assert_int_equal(cpu.p, U_);
    assert_int_equal(bus.cycles, 5);

    CODE(0x0400, 0x87, 0x10); /* SAX $10: A & X, flags untouched */
    cpu.a = 0xF0;
    cpu.x = 0x3C;
    cpu.p = U_ | N_ | Z_ | C_;
    run1();
    assert_int_equal(bus.mem[0x10], 0x30);
    assert_int_equal(cpu.p, U_ | N_ | Z_ | C_);
    assert_int_equal(bus.cycles, 3);

    CODE(0x0400, 0x97, 0xF0); /* SAX $F0,Y wraps in the zero page */
    cpu.a = 0xFF;
    cpu.x = 0x81;
    cpu.y = 0x20;
    run1();
    assert_int_equal(bus.mem[0x10], 0x81);
    assert_int_equal(bus.cycles, 4);

    CODE(0x0400, 0x83, 0x20); /* SAX ($20,X) */
    cpu.a = 0x0F;
    cpu.x = 0x04;
    bus.mem[0x24] = 0x00;
    bus.mem[0x25] = 0x31;
    run1();
    assert_int_equal(bus.mem[0x3100], 0x04);
    assert_int_equal(bus.cycles, 6);

    CODE(0x0400, 0x8F, 0x00, 0x31); /* SAX $3100 */
    cpu.a = 0x3C;
    cpu.x = 0x0F;
    run1();
    assert_int_equal(bus.mem[0x3100], 0x0C);
    assert_int_equal(bus.cycles, 4);
}

/* One read-modify-write opcode on zero page $10 holding m, from A and P; returns the new P. */
static uint8_t rmw_zp(uint8_t opcode, uint8_t m, uint8_t a, uint8_t p)
{
    tbus_setup(&bus, &cpu, 0x0400);
    bus.mem[0x0400] = opcode;
    bus.mem[0x0401] = 0x10;
    bus.mem[0x10] = m;
    cpu.a = a;
    cpu.p = p;
    run1();
    assert_int_equal(bus.cycles, 5);
    assert_int_equal(cpu.pc, 0x0402);
    return cpu.p;
}

static void test_combined_rmw(void **state)
{
    (void)state;
    /* SLO: ASL memory, then ORA */
    assert_int_equal(rmw_zp(0x07, 0x81, 0x40, U_), U_ | C_);
    assert_int_equal(bus.mem[0x10], 0x02);
    assert_int_equal(cpu.a, 0x42);
    /* RLA: ROL memory (carry in), then AND */
    assert_int_equal(rmw_zp(0x27, 0x81, 0xFF, U_ | C_), U_ | C_);
    assert_int_equal(bus.mem[0x10], 0x03);
    assert_int_equal(cpu.a, 0x03);
    /* SRE: LSR memory, then EOR */
    assert_int_equal(rmw_zp(0x47, 0x03, 0xFF, U_), U_ | N_ | C_);
    assert_int_equal(bus.mem[0x10], 0x01);
    assert_int_equal(cpu.a, 0xFE);
    /* RRA: ROR memory, then ADC with the carry the rotate produced */
    assert_int_equal(rmw_zp(0x67, 0x02, 0x10, U_ | C_), U_ | N_);
    assert_int_equal(bus.mem[0x10], 0x81);
    assert_int_equal(cpu.a, 0x91);
    assert_int_equal(rmw_zp(0x67, 0x03, 0x10, U_), U_);
    assert_int_equal(bus.mem[0x10], 0x01);
    assert_int_equal(cpu.a, 0x12); /* $10 + $01 + carry out of the rotate */
    /* RRA in decimal mode adds decimally: 19 + 09 = 28 */
    assert_int_equal(rmw_zp(0x67, 0x12, 0x19, U_ | D_), U_ | D_);
    assert_int_equal(bus.mem[0x10], 0x09);
    assert_int_equal(cpu.a, 0x28);
    /* DCP: DEC memory, then CMP */
    assert_int_equal(rmw_zp(0xC7, 0x10, 0x0F, U_), U_ | Z_ | C_);
    assert_int_equal(bus.mem[0x10], 0x0F);
    assert_int_equal(cpu.a, 0x0F);
    assert_int_equal(rmw_zp(0xC7, 0x00, 0x01, U_ | C_), U_); /* $01 < $FF: carry clear, result $02 */
    assert_int_equal(bus.mem[0x10], 0xFF);
    /* ISB: INC memory, then SBC */
    assert_int_equal(rmw_zp(0xE7, 0x0F, 0x20, U_ | C_), U_ | C_);
    assert_int_equal(bus.mem[0x10], 0x10);
    assert_int_equal(cpu.a, 0x10);
    assert_int_equal(rmw_zp(0xE7, 0xFF, 0x00, U_ | C_), U_ | Z_ | C_);
    assert_int_equal(bus.mem[0x10], 0x00);
    assert_int_equal(cpu.a, 0x00);
    /* ISB in decimal mode subtracts decimally: 20 - 09 = 11 */
    assert_int_equal(rmw_zp(0xE7, 0x08, 0x20, U_ | D_ | C_), U_ | D_ | C_);
    assert_int_equal(cpu.a, 0x11);

    /* The same operations in their longest modes: abs,Y (7 cycles) and (zp),Y / (zp,X) (8 cycles). */
    CODE(0x0400, 0x1B, 0x00, 0x12); /* SLO $1200,Y */
    cpu.y = 0x34;
    bus.mem[0x1234] = 0x40;
    run1();
    assert_int_equal(bus.mem[0x1234], 0x80);
    assert_int_equal(cpu.a, 0x80);
    assert_int_equal(bus.cycles, 7);
    CODE(0x0400, 0xD3, 0x20); /* DCP ($20),Y */
    bus.mem[0x20] = 0x00;
    bus.mem[0x21] = 0x12;
    bus.mem[0x1205] = 0x43;
    cpu.y = 5;
    cpu.a = 0x42;
    run1();
    assert_int_equal(bus.mem[0x1205], 0x42);
    assert_int_equal(cpu.p, U_ | Z_ | C_);
    assert_int_equal(bus.cycles, 8);
    CODE(0x0400, 0x63, 0x20); /* RRA ($20,X) */
    cpu.x = 2;
    bus.mem[0x22] = 0x00;
    bus.mem[0x23] = 0x12;
    bus.mem[0x1200] = 0x01;
    cpu.a = 0x7F;
    run1();
    assert_int_equal(bus.mem[0x1200], 0x00);
    assert_int_equal(cpu.a, 0x80); /* $7F + $00 + 1 */
    assert_int_equal(cpu.p, U_ | N_ | V_);
    assert_int_equal(bus.cycles, 8);
}

/* One immediate opcode with operand m, from A, X and P; returns the new P. */
static uint8_t imm(uint8_t opcode, uint8_t m, uint8_t a, uint8_t x, uint8_t p)
{
    tbus_setup(&bus, &cpu, 0x0400);
    bus.mem[0x0400] = opcode;
    bus.mem[0x0401] = m;
    cpu.a = a;
    cpu.x = x;
    cpu.p = p;
    run1();
    assert_int_equal(bus.cycles, 2);
    assert_int_equal(cpu.pc, 0x0402);
    return cpu.p;
}

static void test_immediate_undocumented(void **state)
{
    (void)state;
    /* ANC: AND, carry = bit 7 of the result (both opcodes) */
    assert_int_equal(imm(0x0B, 0x80, 0xFF, 0, U_), U_ | N_ | C_);
    assert_int_equal(cpu.a, 0x80);
    assert_int_equal(imm(0x2B, 0x7F, 0xFF, 0, U_ | C_), U_);
    assert_int_equal(cpu.a, 0x7F);
    /* ALR: AND, then LSR */
    assert_int_equal(imm(0x4B, 0xFF, 0x03, 0, U_), U_ | C_);
    assert_int_equal(cpu.a, 0x01);
    assert_int_equal(imm(0x4B, 0x01, 0x81, 0, U_ | N_), U_ | Z_ | C_);
    assert_int_equal(cpu.a, 0x00);
    /* ARR, binary: AND, ROR with the carry in; C = bit 6, V = bit 6 xor bit 5 of the result */
    assert_int_equal(imm(0x6B, 0xFF, 0xFF, 0, U_ | C_), U_ | N_ | C_);
    assert_int_equal(cpu.a, 0xFF);
    assert_int_equal(imm(0x6B, 0xFF, 0x80, 0, U_), U_ | V_ | C_);
    assert_int_equal(cpu.a, 0x40);
    assert_int_equal(imm(0x6B, 0xFF, 0xC0, 0, U_), U_ | C_);
    assert_int_equal(cpu.a, 0x60);
    assert_int_equal(imm(0x6B, 0xF0, 0x4F, 0, U_), U_ | V_);
    assert_int_equal(cpu.a, 0x20);
    assert_int_equal(imm(0x6B, 0x01, 0x01, 0, U_), U_ | Z_);
    /* ARR, decimal: N = the carry in, Z from the rotated value, V = bit 6 changed by the rotate, then each nibble
     * of the AND result decides a +6 / +$60 correction (the high one sets C). */
    assert_int_equal(imm(0x6B, 0xFF, 0xFF, 0, U_ | D_), U_ | D_ | C_);
    assert_int_equal(cpu.a, 0xD5); /* $7F, low fix to $75, high fix to $D5 */
    assert_int_equal(imm(0x6B, 0xFF, 0x24, 0, U_ | D_ | C_), U_ | D_ | N_);
    assert_int_equal(cpu.a, 0x92);
    assert_int_equal(imm(0x6B, 0xFF, 0x06, 0, U_ | D_), U_ | D_);
    assert_int_equal(cpu.a, 0x09); /* $03 + 6 in the low nibble */
    assert_int_equal(imm(0x6B, 0xFF, 0x40, 0, U_ | D_), U_ | D_ | V_);
    assert_int_equal(cpu.a, 0x20);
    assert_int_equal(imm(0x6B, 0xFF, 0x01, 0, U_ | D_), U_ | D_ | Z_);
    assert_int_equal(cpu.a, 0x00);
    /* ...and with no_decimal the binary rule applies */
    tbus_setup(&bus, &cpu, 0x0400);
    bus.mem[0x0400] = 0x6B;
    bus.mem[0x0401] = 0xFF;
    cpu.a = 0xFF;
    cpu.p = U_ | D_;
    cpu.no_decimal = 1;
    run1();
    assert_int_equal(cpu.a, 0x7F);
    assert_int_equal(cpu.p, U_ | D_ | C_);
    /* SBX: X = (A & X) - imm, carry like CMP, V and D ignored, A kept */
    assert_int_equal(imm(0xCB, 0x10, 0xF0, 0x3C, U_ | V_), U_ | V_ | C_);
    assert_int_equal(cpu.x, 0x20);
    assert_int_equal(cpu.a, 0xF0);
    assert_int_equal(imm(0xCB, 0x30, 0xF0, 0x3C, U_), U_ | Z_ | C_);
    assert_int_equal(cpu.x, 0x00);
    assert_int_equal(imm(0xCB, 0x40, 0xF0, 0x3C, U_ | D_ | C_), U_ | D_ | N_);
    assert_int_equal(cpu.x, 0xF0);
    /* ANE (XAA): A = (A | $EE) & X & imm */
    assert_int_equal(imm(0x8B, 0xFF, 0x00, 0xFF, U_), U_ | N_);
    assert_int_equal(cpu.a, 0xEE);
    assert_int_equal(imm(0x8B, 0xFF, 0x11, 0x0F, U_), U_);
    assert_int_equal(cpu.a, 0x0F);
    /* LXA: A = X = (A | $EE) & imm */
    assert_int_equal(imm(0xAB, 0x0F, 0x00, 0x55, U_), U_);
    assert_int_equal(cpu.a, 0x0E);
    assert_int_equal(cpu.x, 0x0E);
    assert_int_equal(imm(0xAB, 0xFF, 0x11, 0x00, U_), U_ | N_);
    assert_int_equal(cpu.a, 0xFF);
    assert_int_equal(cpu.x, 0xFF);
    assert_int_equal(imm(0xAB, 0x00, 0xFF, 0x12, U_), U_ | Z_);
    /* SBC #imm's twin */
    assert_int_equal(imm(0xEB, 0x10, 0x50, 0, U_ | C_), U_ | C_);
    assert_int_equal(cpu.a, 0x40);
}

static void test_unstable_stores(void **state)
{
    (void)state;
    /* SHX $1200,Y: X & (H + 1), no page cross */
    CODE(0x0400, 0x9E, 0x00, 0x12);
    cpu.x = 0xFF;
    cpu.y = 0x10;
    run1();
    EXPECT_BUS(R(0x0400, 0x9E), R(0x0401, 0x00), R(0x0402, 0x12), R(0x1210, 0x00), W(0x1210, 0x13));
    /* SHX $02FF,Y crossing: the value (5 & 3 = 1) becomes the high byte of the address */
    CODE(0x0400, 0x9E, 0xFF, 0x02);
    cpu.x = 0x05;
    cpu.y = 0x01;
    run1();
    EXPECT_BUS(R(0x0400, 0x9E), R(0x0401, 0xFF), R(0x0402, 0x02), R(0x0200, 0x00), W(0x0100, 0x01));
    /* SHY $12F0,X crossing: $F1 & $13 = $11, written to $1110 instead of $1310 */
    CODE(0x0400, 0x9C, 0xF0, 0x12);
    cpu.x = 0x20;
    cpu.y = 0xF1;
    run1();
    EXPECT_BUS(R(0x0400, 0x9C), R(0x0401, 0xF0), R(0x0402, 0x12), R(0x1210, 0x00), W(0x1110, 0x11));
    /* SHA $1200,Y: A & X & (H + 1) */
    CODE(0x0400, 0x9F, 0x00, 0x12);
    cpu.a = 0xF0;
    cpu.x = 0x3F;
    cpu.y = 0x05;
    run1();
    EXPECT_BUS(R(0x0400, 0x9F), R(0x0401, 0x00), R(0x0402, 0x12), R(0x1205, 0x00), W(0x1205, 0x10));
    /* SHA ($20),Y crossing: 6 cycles, $FF & $F1 & $13 = $11 to $1110 */
    CODE(0x0400, 0x93, 0x20);
    bus.mem[0x20] = 0xF0;
    bus.mem[0x21] = 0x12;
    cpu.a = 0xFF;
    cpu.x = 0xF1;
    cpu.y = 0x20;
    run1();
    EXPECT_BUS(R(0x0400, 0x93), R(0x0401, 0x20), R(0x0020, 0xF0), R(0x0021, 0x12), R(0x1210, 0x00),
               W(0x1110, 0x11));
    /* TAS $1200,Y: S = A & X, then stores S & (H + 1) */
    CODE(0x0400, 0x9B, 0x00, 0x12);
    cpu.a = 0xFF;
    cpu.x = 0x0F;
    cpu.y = 0x10;
    run1();
    assert_int_equal(cpu.s, 0x0F);
    EXPECT_BUS(R(0x0400, 0x9B), R(0x0401, 0x00), R(0x0402, 0x12), R(0x1210, 0x00), W(0x1210, 0x03));
    /* LAS $1200,Y: A = X = S = M & S; a read with the page-cross penalty */
    CODE(0x0400, 0xBB, 0x00, 0x12);
    bus.mem[0x1210] = 0xF0;
    cpu.s = 0x3F;
    cpu.y = 0x10;
    run1();
    assert_int_equal(cpu.a, 0x30);
    assert_int_equal(cpu.x, 0x30);
    assert_int_equal(cpu.s, 0x30);
    assert_int_equal(cpu.p, U_);
    assert_int_equal(bus.cycles, 4);
    CODE(0x0400, 0xBB, 0xF0, 0x12);
    bus.mem[0x1300] = 0x80;
    cpu.s = 0xFF;
    cpu.y = 0x10;
    run1();
    assert_int_equal(cpu.a, 0x80);
    assert_int_equal(cpu.p, U_ | N_);
    assert_int_equal(bus.cycles, 5);
}

static void test_nops(void **state)
{
    (void)state;
    static const uint8_t one_byte[] = {0x1A, 0x3A, 0x5A, 0x7A, 0xDA, 0xFA, 0xEA};
    for (size_t i = 0; i < sizeof one_byte; i++) {
        tbus_setup(&bus, &cpu, 0x0400);
        bus.mem[0x0400] = one_byte[i];
        bus.mem[0x0401] = 0x77;
        cpu.p = U_ | N_ | C_;
        run1();
        EXPECT_BUS(R(0x0400, one_byte[i]), R(0x0401, 0x77));
        assert_int_equal(cpu.pc, 0x0401);
        assert_int_equal(cpu.p, U_ | N_ | C_);
    }
    static const uint8_t imm_nops[] = {0x80, 0x82, 0x89, 0xC2, 0xE2};
    for (size_t i = 0; i < sizeof imm_nops; i++) {
        tbus_setup(&bus, &cpu, 0x0400);
        bus.mem[0x0400] = imm_nops[i];
        bus.mem[0x0401] = 0x55;
        run1();
        EXPECT_BUS(R(0x0400, imm_nops[i]), R(0x0401, 0x55));
        assert_int_equal(cpu.pc, 0x0402);
        assert_int_equal(cpu.p, U_);
    }
    static const uint8_t zp_nops[] = {0x04, 0x44, 0x64};
    for (size_t i = 0; i < sizeof zp_nops; i++) {
        tbus_setup(&bus, &cpu, 0x0400);
        bus.mem[0x0400] = zp_nops[i];
        bus.mem[0x0401] = 0x10;
        bus.mem[0x0010] = 0x99;
        run1();
        EXPECT_BUS(R(0x0400, zp_nops[i]), R(0x0401, 0x10), R(0x0010, 0x99));
        assert_int_equal(cpu.pc, 0x0402);
        assert_int_equal(cpu.a, 0);
    }
    static const uint8_t zpx_nops[] = {0x14, 0x34, 0x54, 0x74, 0xD4, 0xF4};
    for (size_t i = 0; i < sizeof zpx_nops; i++) {
        tbus_setup(&bus, &cpu, 0x0400);
        bus.mem[0x0400] = zpx_nops[i];
        bus.mem[0x0401] = 0xF0;
        cpu.x = 0x20;
        run1();
        EXPECT_BUS(R(0x0400, zpx_nops[i]), R(0x0401, 0xF0), R(0x00F0, 0x00), R(0x0010, 0x00));
        assert_int_equal(cpu.pc, 0x0402);
    }
    CODE(0x0400, 0x0C, 0x34, 0x12);
    run1();
    EXPECT_BUS(R(0x0400, 0x0C), R(0x0401, 0x34), R(0x0402, 0x12), R(0x1234, 0x00));
    assert_int_equal(cpu.pc, 0x0403);
    static const uint8_t abx_nops[] = {0x1C, 0x3C, 0x5C, 0x7C, 0xDC, 0xFC};
    for (size_t i = 0; i < sizeof abx_nops; i++) {
        tbus_setup(&bus, &cpu, 0x0400);
        bus.mem[0x0400] = abx_nops[i];
        bus.mem[0x0401] = 0xF0;
        bus.mem[0x0402] = 0x12;
        cpu.x = 0x20;
        run1();
        EXPECT_BUS(R(0x0400, abx_nops[i]), R(0x0401, 0xF0), R(0x0402, 0x12), R(0x1210, 0x00), R(0x1310, 0x00));
        assert_int_equal(cpu.pc, 0x0403);
        cpu.pc = 0x0400;
        cpu.x = 0x0F;
        run1();
        EXPECT_BUS(R(0x0400, abx_nops[i]), R(0x0401, 0xF0), R(0x0402, 0x12), R(0x12FF, 0x00));
    }
}

static void test_kil(void **state)
{
    (void)state;
    static const uint8_t kils[] = {0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2};
    for (size_t i = 0; i < sizeof kils; i++) {
        tbus_setup(&bus, &cpu, 0x0400);
        bus.mem[0x0400] = kils[i];
        bus.mem[0x0401] = 0xEA;
        assert_int_equal(tbus_step(&bus, &cpu, 10), 1);
        assert_true(cpu.jammed);
        assert_int_equal(cpu.pc, 0x0400);
        EXPECT_BUS(R(0x0400, kils[i]), R(0x0401, 0xEA));
        /* Jammed: nothing runs until the machine clears the flag. */
        assert_int_equal(tbus_step(&bus, &cpu, 10), 1);
        assert_int_equal(bus.cycles, 0);
        cpu.jammed = 0;
        cpu.pc = 0x0401;
        assert_int_equal(tbus_step(&bus, &cpu, 1), 0);
        assert_int_equal(cpu.pc, 0x0402);
    }
    /* A KIL later in a run stops it there. */
    CODE(0x0400, 0xE8, 0xE8, 0x02, 0xE8);
    assert_int_equal(tbus_step(&bus, &cpu, 100), 1);
    assert_int_equal(cpu.x, 2);
    assert_int_equal(cpu.pc, 0x0402);
    assert_int_equal(bus.cycles, 6);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Cycle counts of every opcode and addressing mode */

/* Base cycles, typed from the NMOS opcode matrix (0: KIL). */
static const uint8_t base_cycles[256] = {
    /*      0  1  2  3  4  5  6  7  8  9  A  B  C  D  E  F */
    /* 0 */ 7, 6, 0, 8, 3, 3, 5, 5, 3, 2, 2, 2, 4, 4, 6, 6,
    /* 1 */ 2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
    /* 2 */ 6, 6, 0, 8, 3, 3, 5, 5, 4, 2, 2, 2, 4, 4, 6, 6,
    /* 3 */ 2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
    /* 4 */ 6, 6, 0, 8, 3, 3, 5, 5, 3, 2, 2, 2, 3, 4, 6, 6,
    /* 5 */ 2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
    /* 6 */ 6, 6, 0, 8, 3, 3, 5, 5, 4, 2, 2, 2, 5, 4, 6, 6,
    /* 7 */ 2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
    /* 8 */ 2, 6, 2, 6, 3, 3, 3, 3, 2, 2, 2, 2, 4, 4, 4, 4,
    /* 9 */ 2, 6, 0, 6, 4, 4, 4, 4, 2, 5, 2, 5, 5, 5, 5, 5,
    /* A */ 2, 6, 2, 6, 3, 3, 3, 3, 2, 2, 2, 2, 4, 4, 4, 4,
    /* B */ 2, 5, 0, 5, 4, 4, 4, 4, 2, 4, 2, 4, 4, 4, 4, 4,
    /* C */ 2, 6, 2, 8, 3, 3, 5, 5, 2, 2, 2, 2, 4, 4, 6, 6,
    /* D */ 2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
    /* E */ 2, 6, 2, 8, 3, 3, 5, 5, 2, 2, 2, 2, 4, 4, 6, 6,
    /* F */ 2, 5, 0, 8, 4, 4, 6, 6, 2, 4, 2, 7, 4, 4, 7, 7,
};

/* Reads whose indexed address crossing a page costs one more cycle. */
static int page_penalty(unsigned op)
{
    unsigned lo = op & 0x1F;
    if (op == 0xB3 || op == 0xBB || op == 0xBE || op == 0xBF || op == 0xBC)
        return 1;                                      /* LAX (zp),Y, LAS, LDX abs,Y, LAX abs,Y, LDY abs,X */
    if ((op & 0x03) == 0x01 && op != 0x91 && op != 0x99 && op != 0x9D)
        return lo == 0x11 || lo == 0x19 || lo == 0x1D; /* ORA..SBC (zp),Y abs,Y abs,X, but not STA */
    return lo == 0x1C && op != 0x9C;                   /* NOP abs,X (not SHY) */
}

static int is_kil(unsigned op)
{
    return (op & 0x0F) == 0x02 && (op & 0x10 || op < 0x80);
}

/* Instruction length from the structure of the opcode matrix; 0 for opcodes that set pc themselves. */
static int op_length(unsigned op)
{
    unsigned col = op & 0x0F, row = op >> 4;
    if (op == 0x00 || op == 0x20 || op == 0x40 || op == 0x60 || op == 0x4C || op == 0x6C || (op & 0x1F) == 0x10)
        return 0;
    if (col == 0x8 || col == 0xA)
        return 1;
    if (col == 0x9 || col == 0xB)
        return row & 1 ? 3 : 2;
    if (col >= 0xC)
        return 3;
    return 2;
}

/* Sets up opcode at $0400 with operands that reach $1230 + index through every mode; `cross` picks index $F0 (page
 * crossed) or $10. Returns the bus cycles of one instruction. */
static uint64_t cycles_of(unsigned op, int cross)
{
    tbus_setup(&bus, &cpu, 0x0400);
    uint8_t index = cross ? 0xF0 : 0x10;
    cpu.x = cpu.y = index;
    bus.mem[0x0400] = (uint8_t)op;
    bus.mem[0x0401] = 0x30;  /* zp operand or low byte of $1230 */
    bus.mem[0x0402] = 0x12;
    bus.mem[0x30] = 0x30;    /* ($30),Y -> $1230 */
    bus.mem[0x31] = 0x12;
    bus.mem[(0x30 + index) & 0xFF] = 0x30; /* ($30,X) -> $1230 */
    bus.mem[(0x31 + index) & 0xFF] = 0x12;
    assert_int_equal(tbus_step(&bus, &cpu, 1), 0);
    int len = op_length(op);
    if (len && cpu.pc != 0x0400 + len)
        fail_msg("opcode $%02X: pc $%04X after it, want $%04X", op, cpu.pc, 0x0400 + len);
    return bus.cycles;
}

/* A branch at `at` with offset `off`; taken or not by the flags. Returns its cycles. */
static uint64_t branch_cycles(unsigned op, uint16_t at, uint8_t off, int taken)
{
    static const uint8_t flag_of[4] = {N_, V_, C_, Z_};
    tbus_setup(&bus, &cpu, at);
    bus.mem[at] = (uint8_t)op;
    bus.mem[(uint16_t)(at + 1)] = off;
    unsigned i = op >> 6;
    int set = op & 0x20 ? taken : !taken; /* odd rows branch on a set flag */
    cpu.p = (uint8_t)(U_ | (set ? flag_of[i] : 0));
    assert_int_equal(tbus_step(&bus, &cpu, 1), 0);
    uint16_t want = (uint16_t)(at + 2 + (taken ? (int)(int8_t)off : 0));
    assert_int_equal(cpu.pc, want);
    return bus.cycles;
}

static void test_cycle_table(void **state)
{
    (void)state;
    for (unsigned op = 0; op < 256; op++) {
        if (is_kil(op)) {
            assert_int_equal(base_cycles[op], 0);
            continue;
        }
        if ((op & 0x1F) == 0x10) {
            assert_int_equal(branch_cycles(op, 0x0400, 0x10, 0), 2);
            assert_int_equal(branch_cycles(op, 0x0400, 0x10, 1), 3);
            assert_int_equal(branch_cycles(op, 0x04F0, 0x20, 1), 4); /* forward to the next page */
            assert_int_equal(branch_cycles(op, 0x0500, 0xF0, 1), 4); /* backward to the previous page */
            assert_int_equal(branch_cycles(op, 0x0480, 0x80, 1), 3); /* -128 within the page */
            continue;
        }
        uint64_t plain = cycles_of(op, 0), crossed = cycles_of(op, 1);
        unsigned want_crossed = base_cycles[op] + (unsigned)page_penalty(op);
        if (plain != base_cycles[op] || crossed != want_crossed)
            fail_msg("opcode $%02X (%s): %llu/%llu cycles, want %u/%u", op, rg__m6502_ops[op].name,
                     (unsigned long long)plain, (unsigned long long)crossed, base_cycles[op], want_crossed);
    }
}

/* The disassembler's table agrees with the cycle matrix and the matrix's structure. */
static void test_op_table(void **state)
{
    (void)state;
    int undocumented = 0;
    for (unsigned op = 0; op < 256; op++) {
        const rg__m6502_opinfo *o = &rg__m6502_ops[op];
        assert_int_equal(o->cycles, base_cycles[op]);
        assert_int_equal(!!(o->flags & RG__M6502_OP_PAGE), page_penalty(op));
        assert_int_equal(!!(o->flags & RG__M6502_OP_JAM), is_kil(op));
        assert_int_equal(!!(o->flags & RG__M6502_OP_BRANCH), (op & 0x1F) == 0x10);
        int len = is_kil(op) ? 1 : op_length(op);
        if (len && rg__m6502_op_length((uint8_t)op) != len)
            fail_msg("opcode $%02X: length %d, want %d", op, rg__m6502_op_length((uint8_t)op), len);
        undocumented += !!(o->flags & RG__M6502_OP_UNDOC);
    }
    assert_int_equal(undocumented, 256 - 151);

    char text[32];
    static const struct {
        uint16_t pc;
        uint8_t bytes[3];
        const char *want;
    } cases[] = {
        {0x1000, {0xBD, 0x34, 0x12}, "LDA $1234,X"}, {0x1000, {0xB1, 0x80, 0}, "LDA ($80),Y"},
        {0x1000, {0xA7, 0x80, 0}, "LAX $80"},        {0x1000, {0xD0, 0xFE, 0}, "BNE $1000"},
        {0x10F0, {0x10, 0x20, 0}, "BPL $1112"},      {0x1000, {0x6C, 0xFF, 0x12}, "JMP ($12FF)"},
        {0x1000, {0x0A, 0, 0}, "ASL A"},             {0x1000, {0x02, 0, 0}, "KIL"},
        {0x1000, {0xA1, 0x10, 0}, "LDA ($10,X)"},    {0x1000, {0xCB, 0x05, 0}, "SBX #$05"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int len = rg__m6502_disasm(cases[i].pc, cases[i].bytes, text, sizeof text);
        assert_string_equal(text, cases[i].want);
        assert_int_equal(len, rg__m6502_op_length(cases[i].bytes[0]));
    }
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Bus access sequences */

static void test_bus_sequences(void **state)
{
    (void)state;
    /* STA abs,X always reads the unfixed address first (here on the wrong page), then writes */
    CODE(0x0400, 0x9D, 0xF0, 0x12);
    bus.mem[0x1210] = 0xAB;
    cpu.x = 0x20;
    cpu.a = 0x77;
    run1();
    EXPECT_BUS(R(0x0400, 0x9D), R(0x0401, 0xF0), R(0x0402, 0x12), R(0x1210, 0xAB), W(0x1310, 0x77));
    CODE(0x0400, 0x9D, 0x00, 0x12);
    cpu.x = 0x20;
    cpu.a = 0x77;
    run1();
    EXPECT_BUS(R(0x0400, 0x9D), R(0x0401, 0x00), R(0x0402, 0x12), R(0x1220, 0x00), W(0x1220, 0x77));

    /* LDA abs,Y reads the unfixed address only when it crosses */
    CODE(0x0400, 0xB9, 0xF0, 0x12);
    cpu.y = 0x20;
    bus.mem[0x1310] = 0x5A;
    run1();
    EXPECT_BUS(R(0x0400, 0xB9), R(0x0401, 0xF0), R(0x0402, 0x12), R(0x1210, 0x00), R(0x1310, 0x5A));
    assert_int_equal(cpu.a, 0x5A);

    /* LDA (zp),Y crossing */
    CODE(0x0400, 0xB1, 0x10);
    bus.mem[0x10] = 0xF0;
    bus.mem[0x11] = 0x12;
    cpu.y = 0x20;
    run1();
    EXPECT_BUS(R(0x0400, 0xB1), R(0x0401, 0x10), R(0x0010, 0xF0), R(0x0011, 0x12), R(0x1210, 0x00),
               R(0x1310, 0x00));

    /* LDA (zp,X): dummy read of the base, the pointer wraps inside the zero page */
    CODE(0x0400, 0xA1, 0xFE);
    cpu.x = 0x01;
    bus.mem[0xFF] = 0x34;
    bus.mem[0x00] = 0x12;
    bus.mem[0x1234] = 0x99;
    run1();
    EXPECT_BUS(R(0x0400, 0xA1), R(0x0401, 0xFE), R(0x00FE, 0x00), R(0x00FF, 0x34), R(0x0000, 0x12),
               R(0x1234, 0x99));

    /* LDA zp,X: dummy read of the base, then the wrapped address */
    CODE(0x0400, 0xB5, 0xF0);
    cpu.x = 0x20;
    run1();
    EXPECT_BUS(R(0x0400, 0xB5), R(0x0401, 0xF0), R(0x00F0, 0x00), R(0x0010, 0x00));

    /* INC abs writes the old value, then the new one */
    CODE(0x0400, 0xEE, 0x34, 0x12);
    bus.mem[0x1234] = 0x41;
    run1();
    EXPECT_BUS(R(0x0400, 0xEE), R(0x0401, 0x34), R(0x0402, 0x12), R(0x1234, 0x41), W(0x1234, 0x41),
               W(0x1234, 0x42));

    /* ASL abs,X crossing: unfixed read, read, old write, new write */
    CODE(0x0400, 0x1E, 0xF0, 0x12);
    cpu.x = 0x20;
    bus.mem[0x1310] = 0x81;
    run1();
    EXPECT_BUS(R(0x0400, 0x1E), R(0x0401, 0xF0), R(0x0402, 0x12), R(0x1210, 0x00), R(0x1310, 0x81),
               W(0x1310, 0x81), W(0x1310, 0x02));

    /* DEC zp,X */
    CODE(0x0400, 0xD6, 0xF0);
    cpu.x = 0x20;
    bus.mem[0x10] = 0x00;
    run1();
    EXPECT_BUS(R(0x0400, 0xD6), R(0x0401, 0xF0), R(0x00F0, 0x00), R(0x0010, 0x00), W(0x0010, 0x00),
               W(0x0010, 0xFF));

    /* ISB ($10),Y without crossing still reads the (already right) address before the real read */
    CODE(0x0400, 0xF3, 0x10);
    bus.mem[0x10] = 0x00;
    bus.mem[0x11] = 0x12;
    bus.mem[0x1210] = 0x05;
    cpu.y = 0x10;
    run1();
    EXPECT_BUS(R(0x0400, 0xF3), R(0x0401, 0x10), R(0x0010, 0x00), R(0x0011, 0x12), R(0x1210, 0x05),
               R(0x1210, 0x05), W(0x1210, 0x05), W(0x1210, 0x06));

    /* An implied instruction reads the byte after it */
    CODE(0x0400, 0xE8, 0x33);
    run1();
    EXPECT_BUS(R(0x0400, 0xE8), R(0x0401, 0x33));

    /* JSR: stack read, pushes of the address of its last byte, then that byte; RTS reads it again */
    CODE(0x0400, 0x20, 0x00, 0x30);
    bus.mem[0x3000] = 0x60;
    bus.mem[0x3001] = 0xEE;
    run1();
    EXPECT_BUS(R(0x0400, 0x20), R(0x0401, 0x00), R(0x01FD, 0x00), W(0x01FD, 0x04), W(0x01FC, 0x02),
               R(0x0402, 0x30));
    assert_int_equal(cpu.pc, 0x3000);
    assert_int_equal(cpu.s, 0xFB);
    run1();
    EXPECT_BUS(R(0x3000, 0x60), R(0x3001, 0xEE), R(0x01FB, 0x00), R(0x01FC, 0x02), R(0x01FD, 0x04),
               R(0x0402, 0x30));
    assert_int_equal(cpu.pc, 0x0403);
    assert_int_equal(cpu.s, 0xFD);

    /* JMP abs and JMP (ind) with the page-wrap of the pointer */
    CODE(0x0400, 0x4C, 0x34, 0x12);
    run1();
    EXPECT_BUS(R(0x0400, 0x4C), R(0x0401, 0x34), R(0x0402, 0x12));
    assert_int_equal(cpu.pc, 0x1234);
    CODE(0x0400, 0x6C, 0xFF, 0x12);
    bus.mem[0x12FF] = 0x78;
    bus.mem[0x1200] = 0x56;
    bus.mem[0x1300] = 0xEE;
    run1();
    EXPECT_BUS(R(0x0400, 0x6C), R(0x0401, 0xFF), R(0x0402, 0x12), R(0x12FF, 0x78), R(0x1200, 0x56));
    assert_int_equal(cpu.pc, 0x5678);

    /* PHA, then PLA with its stack read before the pull */
    CODE(0x0400, 0x48, 0x68, 0x00);
    cpu.a = 0x80;
    run1();
    EXPECT_BUS(R(0x0400, 0x48), R(0x0401, 0x68), W(0x01FD, 0x80));
    cpu.a = 0;
    run1();
    EXPECT_BUS(R(0x0401, 0x68), R(0x0402, 0x00), R(0x01FC, 0x00), R(0x01FD, 0x80));
    assert_int_equal(cpu.a, 0x80);
    assert_int_equal(cpu.p, U_ | N_);

    /* PHP pushes B and bit 5; PLP ignores them */
    CODE(0x0400, 0x08, 0x28);
    cpu.p = U_ | N_ | C_;
    run1();
    EXPECT_BUS(R(0x0400, 0x08), R(0x0401, 0x28), W(0x01FD, U_ | B_ | N_ | C_));
    bus.mem[0x01FD] = 0xFF;
    run1();
    assert_int_equal(cpu.p, 0xFF & ~B_);

    /* Branches: not taken; taken in the page; taken forward and backward across a page */
    CODE(0x0400, 0xD0, 0x10);
    cpu.p = U_ | Z_;
    run1();
    EXPECT_BUS(R(0x0400, 0xD0), R(0x0401, 0x10));
    CODE(0x0400, 0xD0, 0x10);
    run1();
    EXPECT_BUS(R(0x0400, 0xD0), R(0x0401, 0x10), R(0x0402, 0x00));
    assert_int_equal(cpu.pc, 0x0412);
    CODE(0x04F0, 0xD0, 0x20);
    run1();
    EXPECT_BUS(R(0x04F0, 0xD0), R(0x04F1, 0x20), R(0x04F2, 0x00), R(0x0412, 0x00));
    assert_int_equal(cpu.pc, 0x0512);
    CODE(0x0500, 0xD0, 0xFB);
    run1();
    EXPECT_BUS(R(0x0500, 0xD0), R(0x0501, 0xFB), R(0x0502, 0x00), R(0x05FD, 0x00));
    assert_int_equal(cpu.pc, 0x04FD);

    /* No instruction at all when STOP holds from the start */
    CODE(0x0400, 0xE8);
    assert_int_equal(tbus_step(&bus, &cpu, 0), 0);
    assert_int_equal(bus.cycles, 0);
    assert_int_equal(cpu.pc, 0x0400);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Interrupts */

static void vectors(uint16_t nmi, uint16_t irq)
{
    bus.mem[0xFFFA] = (uint8_t)nmi;
    bus.mem[0xFFFB] = (uint8_t)(nmi >> 8);
    bus.mem[0xFFFE] = (uint8_t)irq;
    bus.mem[0xFFFF] = (uint8_t)(irq >> 8);
    for (int i = 0; i < 4; i++) {
        bus.mem[(uint16_t)(nmi + i)] = 0xEA;
        bus.mem[(uint16_t)(irq + i)] = 0xEA;
    }
}

static void hook(uint64_t cycle, int irq, int nmi)
{
    bus.hook_cycle = cycle;
    bus.hook_cpu = &cpu;
    bus.hook_irq = (uint8_t)irq;
    bus.hook_nmi = (uint8_t)nmi;
}

/* The return address and P pushed by the last interrupt sequence (s points below them). */
static uint16_t pushed_pc(void)
{
    return (uint16_t)(bus.mem[0x100 | (uint8_t)(cpu.s + 2)] | bus.mem[0x100 | (uint8_t)(cpu.s + 3)] << 8);
}
static uint8_t pushed_p(void)
{
    return bus.mem[0x100 | (uint8_t)(cpu.s + 1)];
}

static void test_nmi_irq_brk_rti(void **state)
{
    (void)state;
    /* NMI: 7 cycles, B clear in the pushed P, I set, vector $FFFA, the latch cleared */
    CODE(0x0400, 0xEA);
    vectors(0x8000, 0x9000);
    cpu.p = U_ | D_ | C_;
    cpu.nmi_pending = 1;
    run1();
    EXPECT_BUS(R(0x0400, 0xEA), R(0x0400, 0xEA), W(0x01FD, 0x04), W(0x01FC, 0x00), W(0x01FB, U_ | D_ | C_),
               R(0xFFFA, 0x00), R(0xFFFB, 0x80));
    assert_int_equal(cpu.pc, 0x8000);
    assert_int_equal(cpu.s, 0xFA);
    assert_int_equal(cpu.p, U_ | I_ | D_ | C_); /* D stays (NMOS) */
    assert_false(cpu.nmi_pending);
    /* The handler's first instruction runs before a new NMI */
    cpu.nmi_pending = 1;
    run1();
    assert_int_equal(cpu.pc, 0x8001);
    assert_int_equal(bus.cycles, 2);
    run1();
    assert_int_equal(cpu.pc, 0x8000);
    assert_int_equal(bus.cycles, 7);

    /* IRQ while I is set: nothing */
    CODE(0x0400, 0xEA, 0xEA);
    vectors(0x8000, 0x9000);
    cpu.p = U_ | I_;
    cpu.irq_line = 1;
    run1();
    assert_int_equal(cpu.pc, 0x0401);
    assert_int_equal(bus.cycles, 2);
    /* IRQ with I clear: vector $FFFE, B clear */
    cpu.p = U_ | N_;
    run1();
    EXPECT_BUS(R(0x0401, 0xEA), R(0x0401, 0xEA), W(0x01FD, 0x04), W(0x01FC, 0x01), W(0x01FB, U_ | N_),
               R(0xFFFE, 0x00), R(0xFFFF, 0x90));
    assert_int_equal(cpu.pc, 0x9000);
    assert_int_equal(cpu.p, U_ | N_ | I_);
    /* The line is a level: with I set by the sequence, the handler runs on */
    run1();
    run1();
    assert_int_equal(cpu.pc, 0x9002);

    /* BRK: skips its padding byte, pushes pc + 2 and P with B set */
    CODE(0x0400, 0x00, 0xFF);
    vectors(0x8000, 0x9000);
    cpu.p = U_ | Z_;
    run1();
    EXPECT_BUS(R(0x0400, 0x00), R(0x0401, 0xFF), W(0x01FD, 0x04), W(0x01FC, 0x02), W(0x01FB, U_ | B_ | Z_),
               R(0xFFFE, 0x00), R(0xFFFF, 0x90));
    assert_int_equal(cpu.p, U_ | I_ | Z_);

    /* RTI: P (B and bit 5 ignored), then pc; no +1 as RTS does */
    CODE(0x0400, 0x40, 0x00);
    cpu.s = 0xFA;
    bus.mem[0x01FB] = 0xFF;
    bus.mem[0x01FC] = 0x34;
    bus.mem[0x01FD] = 0x12;
    run1();
    EXPECT_BUS(R(0x0400, 0x40), R(0x0401, 0x00), R(0x01FA, 0x00), R(0x01FB, 0xFF), R(0x01FC, 0x34),
               R(0x01FD, 0x12));
    assert_int_equal(cpu.pc, 0x1234);
    assert_int_equal(cpu.p, 0xFF & ~B_);
    assert_int_equal(cpu.s, 0xFD);
}

static void test_interrupt_latency(void **state)
{
    (void)state;
    /* CLI with an IRQ waiting: one more instruction runs first */
    CODE(0x0400, 0x58, 0xEA, 0xEA);
    vectors(0x8000, 0x9000);
    cpu.p = U_ | I_;
    cpu.irq_line = 1;
    run1();
    run1();
    assert_int_equal(cpu.pc, 0x0402);
    run1();
    assert_int_equal(cpu.pc, 0x9000);
    assert_int_equal(pushed_pc(), 0x0402);

    /* SEI while the IRQ arrives: taken right after it, with I set in the pushed P */
    CODE(0x0400, 0x78, 0xEA);
    vectors(0x8000, 0x9000);
    hook(1, 1, 0);
    run1();
    assert_int_equal(cpu.pc, 0x0401);
    run1();
    assert_int_equal(cpu.pc, 0x9000);
    assert_int_equal(pushed_pc(), 0x0401);
    assert_int_equal(pushed_p(), U_ | I_);

    /* PLP clearing I: one more instruction first */
    CODE(0x0400, 0x28, 0xEA, 0xEA);
    vectors(0x8000, 0x9000);
    cpu.p = U_ | I_;
    cpu.s = 0xFC;
    bus.mem[0x01FD] = U_;
    cpu.irq_line = 1;
    run1();
    assert_int_equal(cpu.p, U_);
    run1();
    assert_int_equal(cpu.pc, 0x0402);
    run1();
    assert_int_equal(cpu.pc, 0x9000);
    /* PLP setting I with the IRQ raised during it: still taken once */
    CODE(0x0400, 0x28, 0xEA);
    vectors(0x8000, 0x9000);
    cpu.s = 0xFC;
    bus.mem[0x01FD] = U_ | I_;
    hook(2, 1, 0);
    run1();
    run1();
    assert_int_equal(cpu.pc, 0x9000);
    assert_int_equal(pushed_pc(), 0x0401);

    /* RTI clearing I: taken at once */
    CODE(0x0400, 0x40);
    vectors(0x8000, 0x9000);
    cpu.p = U_ | I_;
    cpu.s = 0xFA;
    bus.mem[0x01FB] = U_;
    bus.mem[0x01FC] = 0x00;
    bus.mem[0x01FD] = 0x05;
    cpu.irq_line = 1;
    run1();
    assert_int_equal(cpu.pc, 0x0500);
    run1();
    assert_int_equal(cpu.pc, 0x9000);
    assert_int_equal(pushed_pc(), 0x0500);

    /* A taken branch within its page delays an IRQ that arrives during it by one instruction */
    CODE(0x0400, 0xD0, 0x10);
    vectors(0x8000, 0x9000);
    bus.mem[0x0412] = 0xEA;
    hook(2, 1, 0);
    run1();
    assert_int_equal(cpu.pc, 0x0412);
    run1();
    assert_int_equal(cpu.pc, 0x0413);
    run1();
    assert_int_equal(cpu.pc, 0x9000);
    assert_int_equal(pushed_pc(), 0x0413);
    /* ...and an NMI likewise */
    CODE(0x0400, 0xD0, 0x10);
    vectors(0x8000, 0x9000);
    bus.mem[0x0412] = 0xEA;
    hook(3, 0, 1);
    run1();
    run1();
    assert_int_equal(cpu.pc, 0x0413);
    run1();
    assert_int_equal(cpu.pc, 0x8000);
    /* A taken branch to another page does not */
    CODE(0x04F0, 0xD0, 0x20);
    vectors(0x8000, 0x9000);
    hook(2, 1, 0);
    run1();
    assert_int_equal(cpu.pc, 0x0512);
    run1();
    assert_int_equal(cpu.pc, 0x9000);
    assert_int_equal(pushed_pc(), 0x0512);
    /* Nor does a branch not taken */
    CODE(0x0400, 0xF0, 0x10);
    vectors(0x8000, 0x9000);
    hook(1, 1, 0);
    run1();
    run1();
    assert_int_equal(cpu.pc, 0x9000);
    assert_int_equal(pushed_pc(), 0x0402);
    /* An IRQ already wanted when the branch starts (after CLI) is taken right after it */
    CODE(0x0400, 0x58, 0xD0, 0x10);
    vectors(0x8000, 0x9000);
    cpu.p = U_ | I_;
    cpu.irq_line = 1;
    run1();
    run1();
    assert_int_equal(cpu.pc, 0x0413);
    run1();
    assert_int_equal(cpu.pc, 0x9000);
    assert_int_equal(pushed_pc(), 0x0413);

    /* An NMI during BRK's pushes takes over its vector; B stays set in the pushed P */
    CODE(0x0400, 0x00, 0x00);
    vectors(0x8000, 0x9000);
    hook(4, 0, 1);
    run1();
    assert_int_equal(cpu.pc, 0x8000);
    assert_int_equal(pushed_p(), U_ | B_);
    assert_int_equal(pushed_pc(), 0x0402);
    assert_false(cpu.nmi_pending);
    /* ...and an IRQ's sequence, with B clear */
    CODE(0x0400, 0xEA);
    vectors(0x8000, 0x9000);
    cpu.irq_line = 1;
    hook(3, 0, 1);
    run1();
    assert_int_equal(cpu.pc, 0x8000);
    assert_int_equal(pushed_p(), U_);
    /* An NMI after BRK fetched its vector waits for the handler's first instruction */
    CODE(0x0400, 0x00, 0x00);
    vectors(0x8000, 0x9000);
    hook(7, 0, 1);
    run1();
    assert_int_equal(cpu.pc, 0x9000);
    assert_true(cpu.nmi_pending);
    run1();
    assert_int_equal(cpu.pc, 0x9001);
    run1();
    assert_int_equal(cpu.pc, 0x8000);
    assert_int_equal(pushed_pc(), 0x9001);

    /* The latency state survives a return from the run function in between */
    CODE(0x0400, 0x58, 0xEA, 0xEA);
    vectors(0x8000, 0x9000);
    cpu.p = U_ | I_;
    cpu.irq_line = 1;
    run1();
    rg_m6502 saved = cpu; /* a snapshot is a copy */
    memset(&cpu, 0xCC, sizeof cpu);
    cpu = saved;
    run1();
    assert_int_equal(cpu.pc, 0x0402);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lax_sax),
        cmocka_unit_test(test_combined_rmw),
        cmocka_unit_test(test_immediate_undocumented),
        cmocka_unit_test(test_unstable_stores),
        cmocka_unit_test(test_nops),
        cmocka_unit_test(test_kil),
        cmocka_unit_test(test_cycle_table),
        cmocka_unit_test(test_op_table),
        cmocka_unit_test(test_bus_sequences),
        cmocka_unit_test(test_nmi_irq_brk_rti),
        cmocka_unit_test(test_interrupt_latency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
