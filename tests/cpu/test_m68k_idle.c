/* The 68000's idle-loop skip (m68k_exec.h, M68K_PURE_READ / M68K_PURE_BYTE / M68K_STOP_AT): the same programs run
 * by the plain interpreter and by one with the skip, stopped at many different clocks; the CPU state must be equal
 * byte for byte at every stop, and the skipping one must have started far fewer instructions on the loops it may
 * skip and the same number on those it may not (a write in the loop, an impure address, a long body). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <string.h>

#include "cpu/m68k/m68k.h"

/* 64 KiB of RAM mirrored; words at $C000-$C0FF are "impure" (a device), the byte at $C100 pure though its word is
 * not. */
typedef struct ibus {
    uint8_t mem[65536];
    uint64_t stop_at;
    long checks; /* M68K_STOP evaluations: instructions started + 1 */
    rg_m68k *cpu;
} ibus;

static uint16_t ib_read(ibus *b, uint32_t a)
{
    a &= 0xFFFEu;
    return (uint16_t)(b->mem[a] << 8 | b->mem[a + 1]);
}
static void ib_write(ibus *b, uint32_t a, uint16_t v, int sel)
{
    a &= 0xFFFEu;
    if (sel & 2) b->mem[a] = (uint8_t)(v >> 8);
    if (sel & 1) b->mem[a + 1] = (uint8_t)v;
}

#define M68K_FN plain_run
#define M68K_CTX ibus
#define M68K_READ(b, addr, sel) ((void)(sel), ib_read((b), (addr)))
#define M68K_WRITE(b, addr, v, sel) ib_write((b), (addr), (v), (sel))
#define M68K_STOP(b) ((b)->checks++, (b)->cpu->cycles >= (b)->stop_at)
#include "cpu/m68k/m68k_exec.h"
#undef M68K_FN

#define M68K_FN skip_run
#define M68K_PURE_READ(b, addr) (((addr) & 0xFF00u) != 0xC000u && ((addr) & 0xFF00u) != 0xC100u)
#define M68K_PURE_BYTE(b, addr) (M68K_PURE_READ((b), (addr) & 0xFFFFFEu) || ((addr) & 0xFFFFu) == 0xC100u)
#define M68K_STOP_AT(b) ((b)->stop_at)
#define M68K_PURE_WRITE(b, addr) M68K_PURE_READ((b), (addr))
#include "cpu/m68k/m68k_exec.h"

static ibus bus_a, bus_b;
/* the handler of the line A, line F and trace vectors (at $3000), the stack pointer and the SR runs start with */
static uint16_t storm_handler[2] = {0x4E73, 0x4E71}; /* rte */
static uint32_t storm_sp = 0xF000;
static int start_sr = -1; /* -1: $2300 with an interrupt to come, else $2700 */
static uint32_t prog_at = 0x1000; /* where the program is put and started */
static unsigned stop_mul = 1;     /* the clocks between stops, times this */

/* Runs the program (words at $1000, registers as given) in both, stopping at each of a series of clocks; returns
 * the instructions the skipping run started divided by the plain run's (x1000). */
static long run_both(const uint16_t *prog, size_t n, uint32_t a4, uint8_t ram8000, int ipl)
{
    rg_m68k ca, cb;
    ibus *b[2] = {&bus_a, &bus_b};
    rg_m68k *c[2] = {&ca, &cb};
    for (int k = 0; k < 2; k++) {
        memset(b[k], 0, sizeof *b[k]);
        for (size_t i = 0; i < n; i++) {
            b[k]->mem[prog_at + 2 * i] = (uint8_t)(prog[i] >> 8);
            b[k]->mem[prog_at + 1 + 2 * i] = (uint8_t)prog[i];
        }
        b[k]->mem[0x8000] = ram8000;
        b[k]->mem[0x8001] = 0x05;
        b[k]->mem[0xC008] = 0x77;
        b[k]->mem[0xC100] = 0x34;
        /* level-4 autovector handler at $2000: clears $8000, RTE */
        b[k]->mem[0x70] = 0x00; b[k]->mem[0x71] = 0x00; b[k]->mem[0x72] = 0x20; b[k]->mem[0x73] = 0x00;
        static const uint16_t h[] = {0x4238, 0x8000, 0x4E73}; /* clr.b $8000.w; rte */
        for (int i = 0; i < 3; i++) {
            b[k]->mem[0x2000 + 2 * i] = (uint8_t)(h[i] >> 8);
            b[k]->mem[0x2001 + 2 * i] = (uint8_t)h[i];
        }
        rg__m68k_init(c[k]);
        /* line A, line F and trace vectors: storm_handler's words at $3000 */
        for (unsigned v = 9; v <= 11; v++) {
            b[k]->mem[v * 4 + 2] = 0x30;
            b[k]->mem[v * 4 + 3] = 0x00;
        }
        for (int i = 0; i < 2; i++) {
            b[k]->mem[0x3000 + 2 * i] = (uint8_t)(storm_handler[i] >> 8);
            b[k]->mem[0x3001 + 2 * i] = (uint8_t)storm_handler[i];
        }
        c[k]->a[7] = storm_sp;
        c[k]->a[4] = a4;
        c[k]->a[0] = 0x8000;
        c[k]->d[1] = 0x12;
        c[k]->sr = (uint16_t)(start_sr >= 0 ? start_sr : ipl ? 0x2300 : 0x2700);
        c[k]->other_sp = 0xE000;
        c[k]->ir = ib_read(b[k], prog_at);
        c[k]->irc = ib_read(b[k], prog_at + 2);
        c[k]->pc = prog_at + 4;
    }
    uint64_t t = 0;
    for (int run = 0; run < 300; run++) {
        t += (37 + (uint64_t)(run * 7919 % 613)) * stop_mul; /* stops at irregular clocks */
        for (int k = 0; k < 2; k++) {
            b[k]->stop_at = t;
            c[k]->ipl = (uint8_t)(ipl && run == 150 ? 4 : 0);
            b[k]->cpu = c[k];
            if (k == 0)
                assert_int_equal(plain_run(c[k], b[k]), 0);
            else
                assert_int_equal(skip_run(c[k], b[k]), 0);
        }
        assert_memory_equal(&ca, &cb, sizeof ca);
        assert_memory_equal(bus_a.mem, bus_b.mem, sizeof bus_a.mem);
    }
    return bus_b.checks * 1000 / bus_a.checks;
}

static void test_skipped_loops(void **state)
{
    (void)state;
    /* tst.b $8000.w; beq.s -6 */
    static const uint16_t p1[] = {0x4A38, 0x8000, 0x67FA};
    assert_true(run_both(p1, 3, 0, 0, 0) < 300);
    /* cmp.b 8(a4),d1; bne.s -6 with a4 = $8000 (RAM holds 0, d1 $12) */
    static const uint16_t p2[] = {0xB22C, 0x0008, 0x66FA};
    assert_true(run_both(p2, 3, 0x8000, 0, 0) < 300);
    /* cmpi.w #7,(a0); bne.s -6 */
    static const uint16_t p3[] = {0x0C50, 0x0007, 0x66FA};
    assert_true(run_both(p3, 3, 0, 0, 0) < 300);
    /* btst #3,$8001.w; beq.s -8 ($05: bit 3 clear) */
    static const uint16_t p4[] = {0x0838, 0x0003, 0x8001, 0x67F8};
    assert_true(run_both(p4, 4, 0, 0, 0) < 300);
    /* tst.l $00008000.l; bne.s -8 */
    static const uint16_t p5[] = {0x4AB9, 0x0000, 0x8000, 0x66F8};
    assert_true(run_both(p5, 4, 0, 0, 0) < 300);
    /* the pure byte of an impure word: cmp.b 0(a4),d1 with a4 = $C100 ($34 vs $12) */
    static const uint16_t p6[] = {0xB22C, 0x0000, 0x66FA};
    assert_true(run_both(p6, 3, 0xC100, 0, 0) < 300);
    /* an interrupt (level 4 at the 150th stop) clears the byte the loop waits on: it leaves, then waits in a second
     * loop while the byte is 0 */
    static const uint16_t p7[] = {0x4A38, 0x8000, 0x66FA, 0x4A38, 0x8000, 0x67FA};
    assert_true(run_both(p7, 6, 0, 1, 1) < 300);
    assert_int_equal(bus_b.mem[0x8000], 0);
    assert_true(bus_b.cpu->pc == 0x1006 + 4 || bus_b.cpu->pc == 0x100A + 4); /* in the second loop */
}

static void test_loops_not_skipped(void **state)
{
    (void)state;
    /* an impure operand: cmp.b 8(a4),d1 with a4 = $C000 */
    static const uint16_t p1[] = {0xB22C, 0x0008, 0x66FA};
    assert_int_equal(run_both(p1, 3, 0xC000, 0, 0), 1000);
    /* the impure byte's word read as a word: cmp.w 0(a4),d1 with a4 = $C100 */
    static const uint16_t p2[] = {0xB26C, 0x0000, 0x66FA};
    assert_int_equal(run_both(p2, 3, 0xC100, 0, 0), 1000);
    /* a loop that writes: addq.b #0 is not allowed, so: move.b d0,$8002.w; bra.s -6 */
    static const uint16_t p3[] = {0x11C0, 0x8002, 0x60FA};
    assert_int_equal(run_both(p3, 3, 0, 0, 0), 1000);
    /* two instructions in the loop: tst.b (a0); nop; beq.s -6 */
    static const uint16_t p4[] = {0x4A10, 0x4E71, 0x67FA};
    assert_int_equal(run_both(p4, 3, 0, 0, 0), 1000);
    /* (a0)+ changes a0: tst.b (a0)+; bra.s -4 is not a candidate */
    static const uint16_t p5[] = {0x4A18, 0x60FC};
    assert_int_equal(run_both(p5, 2, 0, 0, 0), 1000);
}

/* The exception-storm skip: a line-A or line-F word whose vector leads to a lone RTE traps and returns to itself
 * forever (the Dekadrive dump on the Genesis); its turns are skipped like an idle loop's, the frame written with the
 * same words each turn. */
static void test_storms_skipped(void **state)
{
    (void)state;
    stop_mul = 4; /* a turn is 54 clocks: runs long enough for several */
    static const uint16_t lf[] = {0xF123, 0x4E71};
    assert_true(run_both(lf, 2, 0, 0, 0) < 300);
    assert_int_equal(bus_b.cpu->pc, 0x1004);
    /* the frame: SR $2700, PC $00001000 */
    assert_int_equal(bus_b.mem[0xEFFA], 0x27);
    assert_int_equal(bus_b.mem[0xEFFD], 0x00);
    assert_int_equal(bus_b.mem[0xEFFE], 0x10);
    static const uint16_t la[] = {0xA000, 0x4E71};
    assert_true(run_both(la, 2, 0, 0, 0) < 300);
    /* from user mode: the frame on the supervisor stack, RTE back to user mode each turn */
    start_sr = 0x0000;
    assert_true(run_both(lf, 2, 0, 0, 0) < 300);
    assert_int_equal(bus_b.mem[0xDFFE], 0x10);
    start_sr = -1;
    /* a level-4 interrupt at the 150th stop enters its handler (clr.b $8000.w; rte) and the storm goes on */
    assert_true(run_both(lf, 2, 0, 1, 1) < 300);
    assert_int_equal(bus_b.mem[0x8000], 0);
    stop_mul = 1;
}

static void test_storms_not_skipped(void **state)
{
    (void)state;
    stop_mul = 4;
    static const uint16_t lf[] = {0xF123, 0x4E71};
    /* a handler that counts before its RTE */
    storm_handler[0] = 0x5282; /* addq.l #1,d2 */
    storm_handler[1] = 0x4E73;
    assert_int_equal(run_both(lf, 2, 0, 0, 0), 1000);
    storm_handler[0] = 0x4E73;
    storm_handler[1] = 0x4E71;
    /* the frame in impure memory ($C000-$C1FF) */
    storm_sp = 0xC010;
    assert_int_equal(run_both(lf, 2, 0, 0, 0), 1000);
    storm_sp = 0xF000;
    /* trace on: each turn adds a trace exception */
    start_sr = 0xA700;
    assert_int_equal(run_both(lf, 2, 0, 0, 0), 1000);
    start_sr = -1;
    /* the trapping word in impure memory ($C000-$C1FF) */
    prog_at = 0xC020;
    assert_int_equal(run_both(lf, 2, 0, 0, 0), 1000);
    prog_at = 0x1000;
    stop_mul = 1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skipped_loops),
        cmocka_unit_test(test_loops_not_skipped),
        cmocka_unit_test(test_storms_skipped),
        cmocka_unit_test(test_storms_not_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
