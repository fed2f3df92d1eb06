/* The NES APU (src/cores/nes/apu*.c) driven through its machine interface by a bare machine (no CPU, no cartridge):
 * the test plays the CPU, running the APU to a cycle and then reading or writing a register at that cycle, and
 * serves the DMC's fetches itself. The cycle figures are the hardware's as blargg's APU test ROMs measure them
 * (docs/nes.md, APU). */
#include "nes_harness.h"
#include "test_support.h"

#include "cores/nes/nes.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static rg__nes_machine *machine(void)
{
    rg__nes_machine *m = calloc(1, sizeof *m);
    assert_non_null(m);
    rg__nes_apu_power(&m->st.apu);
    rg__nes_apu_run(m, 0);
    return m;
}

static void done(rg__nes_machine *m)
{
    free(m->abuf);
    free(m);
}

static void wr(rg__nes_machine *m, uint64_t cycle, uint16_t addr, uint8_t v)
{
    rg__nes_apu_run(m, cycle);
    rg__nes_apu_write(m, addr, v);
}

static uint8_t rd(rg__nes_machine *m, uint64_t cycle)
{
    rg__nes_apu_run(m, cycle);
    return rg__nes_apu_read_status(m);
}

/* The frame IRQ flag as a $4015 read `delay` cycles after a $00 write to $4017 at cycle w sees it. */
static unsigned irq_flag_after(uint64_t w, uint64_t delay)
{
    rg__nes_machine *m = machine();
    wr(m, w, 0x4017, 0x40); /* clear the flag of the power-on sequence if any */
    wr(m, w, 0x4017, 0x00);
    unsigned f = rd(m, w + delay) & 0x40u;
    done(m);
    return f;
}

static void power_on(void **state)
{
    (void)state;
    rg__nes_machine *m = machine();
    assert_int_equal(rd(m, 10), 0);
    assert_null(rg__nes_apu_check(&m->st.apu));
    /* power-on acts as $00 written to $4017 two cycles before cycle 0: the flag is set in cycle 29828, the IRQ
     * line follows in cycle 29829 */
    assert_int_equal(m->apu_sync_at, 29830);
    assert_int_equal(rd(m, 29828) & 0x40, 0);
    assert_int_equal(m->st.irq, 0);
    rg__nes_apu_run(m, 29829);
    assert_int_equal(m->st.irq, 0);
    assert_int_equal(rg__nes_apu_irq_bits(&m->st.apu), 0);
    rg__nes_apu_run(m, 29830);
    assert_int_equal(m->st.irq, RG__NES_IRQ_FRAME);
    assert_int_equal(rg__nes_apu_irq_bits(&m->st.apu), RG__NES_IRQ_FRAME);
    assert_int_equal(rd(m, 29830) & 0x40, 0x40);
    assert_int_equal(m->st.irq, 0);
    done(m);
}

static void frame_irq_timing_mode0(void **state)
{
    (void)state;
    /* a write on an even cycle: the sequence starts 2 cycles later, the flag is first seen 29831 cycles after */
    assert_int_equal(irq_flag_after(1000, 29830), 0);
    assert_int_equal(irq_flag_after(1000, 29831), 0x40);
    /* on an odd cycle one cycle later (the APU's clock jitter) */
    assert_int_equal(irq_flag_after(1001, 29831), 0);
    assert_int_equal(irq_flag_after(1001, 29832), 0x40);

    /* set three cycles in a row: a read in the last of them clears it and it is set again; one cycle later not */
    rg__nes_machine *m = machine();
    wr(m, 1000, 0x4017, 0x40);
    wr(m, 1000, 0x4017, 0x00);
    assert_int_equal(m->apu_sync_at, 1000 + 29832);
    assert_int_equal(rd(m, 1000 + 29832) & 0x40, 0x40);
    assert_int_equal(m->st.irq, 0);
    assert_int_equal(rd(m, 1000 + 29836) & 0x40, 0x40);
    assert_int_equal(m->st.irq, 0);
    done(m);

    m = machine();
    wr(m, 1000, 0x4017, 0x40);
    wr(m, 1000, 0x4017, 0x00);
    assert_int_equal(rd(m, 1000 + 29833) & 0x40, 0x40);
    assert_int_equal(rd(m, 1000 + 29837) & 0x40, 0);
    done(m);
    m = machine();
    wr(m, 1000, 0x4017, 0x40);
    wr(m, 1000, 0x4017, 0x00);
    assert_int_equal(rd(m, 1000 + 29833) & 0x40, 0x40);
    /* the IRQ line: raised by the flag, dropped by the read; the next frame's flag 29830 cycles later */
    rg__nes_apu_run(m, 1000 + 29832 + 29830 - 1);
    assert_int_equal(m->st.irq, 0);
    assert_int_equal(m->apu_sync_at, 1000 + 29832 + 29830);
    rg__nes_apu_run(m, 1000 + 29832 + 29830);
    assert_int_equal(m->st.irq, RG__NES_IRQ_FRAME);
    /* writing $00 or $80 leaves the flag, $40 or $C0 clears it */
    wr(m, 70000, 0x4017, 0x00);
    assert_int_equal(m->st.irq, RG__NES_IRQ_FRAME);
    wr(m, 70004, 0x4017, 0x80);
    assert_int_equal(rg__nes_apu_irq_bits(&m->st.apu), RG__NES_IRQ_FRAME);
    wr(m, 70008, 0x4017, 0xC0);
    assert_int_equal(m->st.irq, 0);
    assert_int_equal(rd(m, 70012) & 0x40, 0);
    done(m);
}

static void frame_irq_inhibit_and_mode1(void **state)
{
    (void)state;
    /* $40 (inhibit) and $80 / $C0 (five-step) never set the flag */
    static const uint8_t modes[] = {0x40, 0x80, 0xC0};
    for (size_t i = 0; i < sizeof modes; i++) {
        rg__nes_machine *m = machine();
        wr(m, 100, 0x4017, modes[i]);
        assert_int_equal(m->apu_sync_at, UINT64_MAX);
        rg__nes_apu_run(m, 100 + 4 * 37282);
        assert_int_equal(m->st.irq, 0);
        assert_int_equal(rd(m, 100 + 4 * 37282) & 0x40, 0);
        done(m);
    }
}

static void length_counters(void **state)
{
    (void)state;
    rg__nes_machine *m = machine();
    wr(m, 10, 0x4017, 0x40);
    wr(m, 20, 0x4015, 0x0F);
    wr(m, 24, 0x4003, 0x18); /* index 3: 2 */
    wr(m, 28, 0x4007, 0x08); /* index 1: 254 */
    wr(m, 32, 0x400B, 0xF8); /* index 31: 30 */
    wr(m, 36, 0x400F, 0x00); /* index 0: 10 */
    assert_int_equal(m->st.apu.pulse[0].length, 2);
    assert_int_equal(m->st.apu.pulse[1].length, 254);
    assert_int_equal(m->st.apu.tri.length, 30);
    assert_int_equal(m->st.apu.noise.length, 10);
    assert_int_equal(rd(m, 40) & 0x1F, 0x0F);

    /* $80 clocks the lengths at once (when the sequence restarts), $00 does not */
    wr(m, 100, 0x4017, 0x80);
    assert_int_equal(rd(m, 104) & 0x0F, 0x0F);
    assert_int_equal(m->st.apu.pulse[0].length, 1);
    wr(m, 108, 0x4017, 0x00);
    wr(m, 112, 0x4017, 0x00);
    assert_int_equal(m->st.apu.pulse[0].length, 1);
    wr(m, 116, 0x4017, 0xC0);
    assert_int_equal(rd(m, 120) & 0x0F, 0x0E);
    assert_int_equal(m->st.apu.noise.length, 8);

    /* disabling clears, and a disabled counter does not load */
    wr(m, 130, 0x4015, 0x00);
    assert_int_equal(rd(m, 134) & 0x0F, 0);
    wr(m, 138, 0x4003, 0x18);
    assert_int_equal(rd(m, 142) & 0x0F, 0);
    wr(m, 146, 0x4015, 0x01);
    assert_int_equal(rd(m, 150) & 0x0F, 0);

    /* halt suspends clocking */
    wr(m, 160, 0x4000, 0x30);
    wr(m, 164, 0x4003, 0x18);
    wr(m, 168, 0x4017, 0x80);
    wr(m, 172, 0x4017, 0x80);
    assert_int_equal(rd(m, 176) & 1, 1);
    assert_int_equal(m->st.apu.pulse[0].length, 2);
    wr(m, 180, 0x4000, 0x10);
    wr(m, 184, 0x4017, 0x80);
    wr(m, 188, 0x4017, 0x80);
    assert_int_equal(rd(m, 192) & 1, 0);
    /* the triangle's halt is its control bit */
    wr(m, 200, 0x4015, 0x04);
    wr(m, 204, 0x4008, 0x80);
    wr(m, 208, 0x400B, 0x18);
    wr(m, 212, 0x4017, 0x80);
    assert_int_equal(rd(m, 216) & 4, 4);
    done(m);
}

static void length_table(void **state)
{
    (void)state;
    static const uint8_t table[32] = {10, 254, 20, 2,  40, 4,  80, 6,  160, 8,  60, 10, 14, 12, 26, 14,
                                      12, 16,  24, 18, 48, 20, 96, 22, 192, 24, 72, 26, 16, 28, 32, 30};
    for (unsigned i = 0; i < 32; i++) {
        rg__nes_machine *m = machine();
        wr(m, 10, 0x4017, 0x40);
        wr(m, 20, 0x4015, 0x08);
        wr(m, 24, 0x400F, (uint8_t)(i << 3));
        /* count the $C0 writes (one length clock each) until the noise stops */
        unsigned n = 0;
        uint64_t c = 30;
        while (rd(m, c) & 0x08) {
            wr(m, c + 4, 0x4017, 0xC0);
            c += 8;
            n++;
            assert_true(n <= 254);
        }
        assert_int_equal(n, table[i]);
        done(m);
    }
}

/* Whether pulse 1 still plays when read at `read` cycles after a $4017 write of `mode` (blargg's 5-len_timing). */
static unsigned len_after(unsigned len_reg, int clock_first, uint8_t mode, uint64_t read)
{
    rg__nes_machine *m = machine();
    wr(m, 10, 0x4015, 0x01);
    wr(m, 20, 0x4003, (uint8_t)len_reg);
    if (clock_first)
        wr(m, 24, 0x4017, 0xC0);
    uint64_t w = 1000;
    wr(m, w, 0x4017, mode);
    unsigned v = rd(m, w + read) & 1u;
    done(m);
    return v;
}

static void length_clock_timing(void **state)
{
    (void)state;
    /* four-step: the lengths are clocked in cycles 14915 and 29831 after the write (seen a cycle later) */
    assert_int_equal(len_after(0x18, 1, 0x00, 14915), 1);
    assert_int_equal(len_after(0x18, 1, 0x00, 14916), 0);
    assert_int_equal(len_after(0x18, 0, 0x00, 29831), 1);
    assert_int_equal(len_after(0x18, 0, 0x00, 29832), 0);
    assert_int_equal(len_after(0x28, 1, 0x00, 44745), 1);
    assert_int_equal(len_after(0x28, 1, 0x00, 44746), 0);
    /* five-step: at once, then 14915, 37283, 52197 */
    assert_int_equal(len_after(0x18, 0, 0x80, 14915), 1);
    assert_int_equal(len_after(0x18, 0, 0x80, 14916), 0);
    assert_int_equal(len_after(0x28, 1, 0x80, 37283), 1);
    assert_int_equal(len_after(0x28, 1, 0x80, 37284), 0);
    assert_int_equal(len_after(0x28, 0, 0x80, 52197), 1);
    assert_int_equal(len_after(0x28, 0, 0x80, 52198), 0);
}

/* Pulse 1's length after a register write in cycle `at` (relative to a $00 write to $4017) around the half-frame
 * step of cycle 14915. */
static unsigned length_after_write(uint8_t ctrl, int clear_len, uint16_t addr, uint8_t v, uint64_t at)
{
    rg__nes_machine *m = machine();
    wr(m, 10, 0x4015, 0x01);
    wr(m, 14, 0x4000, ctrl);
    wr(m, 18, 0x4003, 0x38); /* 6 */
    if (clear_len) {
        wr(m, 22, 0x4015, 0x00);
        wr(m, 26, 0x4015, 0x01);
    }
    uint64_t w = 1000;
    wr(m, w, 0x4017, 0x00);
    wr(m, w + at, addr, v);
    rg__nes_apu_run(m, w + 14920);
    unsigned len = m->st.apu.pulse[0].length;
    done(m);
    return len;
}

static void length_halt_and_reload_timing(void **state)
{
    (void)state;
    /* a halt written one cycle before the step stops it; written in the step's cycle it comes too late */
    assert_int_equal(length_after_write(0x10, 0, 0x4000, 0x30, 14914), 6);
    assert_int_equal(length_after_write(0x10, 0, 0x4000, 0x30, 14915), 5);
    assert_int_equal(length_after_write(0x30, 0, 0x4000, 0x10, 14914), 5);
    assert_int_equal(length_after_write(0x30, 0, 0x4000, 0x10, 14915), 6);
    /* a reload one cycle before is clocked; in the step's cycle it is lost when the counter was clocked ... */
    assert_int_equal(length_after_write(0x10, 0, 0x4003, 0x18, 14914), 1);
    assert_int_equal(length_after_write(0x10, 0, 0x4003, 0x18, 14915), 5);
    /* ... and kept, unclocked, when the counter was 0 */
    assert_int_equal(length_after_write(0x10, 1, 0x4003, 0x18, 14915), 2);
}

static void sweep_mute(void **state)
{
    (void)state;
    rg__nes_apu_pulse p;
    memset(&p, 0, sizeof p);
    p.period = 7;
    assert_true(rg__nes_apu_pulse_muted(&p));
    p.period = 8;
    assert_false(rg__nes_apu_pulse_muted(&p));
    /* target above $7FF mutes even with the sweep disabled (shift 0: target = 2 * period) */
    p.period = 0x400;
    assert_true(rg__nes_apu_pulse_muted(&p));
    p.period = 0x3FF;
    assert_false(rg__nes_apu_pulse_muted(&p));
    p.period = 0x700;
    p.sweep = 0x03; /* 0x700 + 0xE0 */
    assert_false(rg__nes_apu_pulse_muted(&p));
    p.sweep = 0x02; /* 0x700 + 0x1C0 */
    assert_true(rg__nes_apu_pulse_muted(&p));
    p.sweep = 0x0A; /* negated: never above */
    assert_false(rg__nes_apu_pulse_muted(&p));

    /* negate: pulse 1 subtracts the change and one more (ones' complement), pulse 2 only the change */
    rg__nes_machine *m = machine();
    wr(m, 10, 0x4017, 0x40);
    for (unsigned ch = 0; ch < 2; ch++) {
        uint16_t base = (uint16_t)(0x4000 + 4 * ch);
        wr(m, 20 + ch, (uint16_t)(base + 2), 0x00);
        wr(m, 30 + ch, (uint16_t)(base + 3), 0x01); /* period $100 */
        wr(m, 40 + ch, (uint16_t)(base + 1), 0x89); /* enabled, divider period 0, negate, shift 1 */
    }
    wr(m, 100, 0x4017, 0xC0); /* one half-frame clock */
    rg__nes_apu_run(m, 110);
    assert_int_equal(m->st.apu.pulse[0].period, 0x100 - 0x80 - 1);
    assert_int_equal(m->st.apu.pulse[1].period, 0x100 - 0x80);
    /* adding: $100 + $80 */
    wr(m, 120, 0x4002, 0x00);
    wr(m, 124, 0x4003, 0x01);
    wr(m, 128, 0x4001, 0x81);
    wr(m, 200, 0x4017, 0xC0);
    rg__nes_apu_run(m, 210);
    assert_int_equal(m->st.apu.pulse[0].period, 0x180);
    /* a muted channel's period does not change */
    wr(m, 220, 0x4002, 0x05);
    wr(m, 224, 0x4003, 0x00);
    wr(m, 300, 0x4017, 0xC0);
    rg__nes_apu_run(m, 310);
    assert_int_equal(m->st.apu.pulse[0].period, 5);
    done(m);
}

/* Serves a pending DMC fetch with the low byte of its address; returns the address or -1. */
static long serve(rg__nes_machine *m)
{
    if (!m->st.apu.dmc_fetch)
        return -1;
    long addr = m->st.apu.dmc_fetch_addr;
    rg__nes_apu_dmc_fill(m, (uint8_t)addr);
    return addr;
}

static void dmc_fetches_and_irq(void **state)
{
    (void)state;
    rg__nes_machine *m = machine();
    wr(m, 10, 0x4017, 0x40);
    wr(m, 20, 0x4010, 0x8F); /* IRQ on, rate 15: 54 cycles a bit */
    wr(m, 24, 0x4012, 0xFF); /* $FFC0 */
    wr(m, 28, 0x4013, 0x04); /* 65 bytes: crosses $FFFF */
    assert_int_equal(rd(m, 30) & 0x10, 0);
    wr(m, 100, 0x4015, 0x10);
    assert_int_equal(rd(m, 100) & 0x10, 0x10);
    /* the empty buffer asks for its first byte in the next odd cycle (seen by the machine one cycle later) */
    assert_int_equal(m->apu_sync_at, 102);
    rg__nes_apu_run(m, 101);
    assert_int_equal(m->st.apu.dmc_fetch, 0);
    rg__nes_apu_run(m, 102);
    assert_int_equal(m->st.apu.dmc_fetch, 1);
    assert_int_equal(serve(m), 0xFFC0);

    /* then one fetch per 8 output clocks (8 x 54 cycles), each predicted by apu_sync_at */
    uint64_t last = 0;
    long expect = 0xFFC1;
    for (int i = 1; i < 65; i++) {
        uint64_t at = m->apu_sync_at;
        assert_true(at != UINT64_MAX);
        rg__nes_apu_run(m, at - 1);
        assert_int_equal(m->st.apu.dmc_fetch, 0);
        rg__nes_apu_run(m, at);
        if (last)
            assert_int_equal(at - last, 8 * 54);
        last = at;
        assert_int_equal(serve(m), expect);
        expect = expect == 0xFFFF ? 0x8000 : expect + 1;
        if (i < 64)
            assert_int_equal(m->st.irq, 0);
    }
    /* the last byte fetched: bytes remaining 0, IRQ flag and line up; reading does not clear it */
    assert_int_equal(m->st.irq, RG__NES_IRQ_DMC);
    uint8_t s = rd(m, last + 10);
    assert_int_equal(s & 0x90, 0x80);
    assert_int_equal(rd(m, last + 14) & 0x80, 0x80);
    assert_int_equal(m->apu_sync_at, UINT64_MAX);
    /* writing $4015 clears it */
    wr(m, last + 20, 0x4015, 0x00);
    assert_int_equal(m->st.irq, 0);
    assert_int_equal(rd(m, last + 24) & 0x80, 0);

    /* clearing the IRQ enable clears the flag too; $4013 = 0 gives a one-byte sample */
    wr(m, last + 30, 0x4013, 0x00);
    wr(m, last + 34, 0x4015, 0x10);
    rg__nes_apu_run(m, m->apu_sync_at);
    assert_int_equal(serve(m), 0xFFC0);
    assert_int_equal(rd(m, m->st.apu.cycle) & 0x90, 0x80);
    wr(m, m->st.apu.cycle + 4, 0x4010, 0x0F);
    assert_int_equal(m->st.irq, 0);
    assert_null(rg__nes_apu_check(&m->st.apu));
    done(m);
}

static void dmc_loop_and_stop(void **state)
{
    (void)state;
    rg__nes_machine *m = machine();
    wr(m, 10, 0x4017, 0x40);
    wr(m, 20, 0x4010, 0xCF); /* IRQ on, loop */
    wr(m, 24, 0x4012, 0x00);
    wr(m, 28, 0x4013, 0x01); /* 17 bytes */
    wr(m, 100, 0x4015, 0x10);
    long want = 0xC000;
    for (int i = 0; i < 40; i++) { /* wraps back to the start after 17 bytes, never an IRQ */
        rg__nes_apu_run(m, m->apu_sync_at);
        assert_int_equal(serve(m), want);
        want = want == 0xC010 ? 0xC000 : want + 1;
        assert_int_equal(m->st.irq, 0);
        assert_int_equal(rd(m, m->st.apu.cycle) & 0x90, 0x10);
    }
    /* $00 to $4015 stops it: no more fetches */
    wr(m, m->st.apu.cycle + 4, 0x4015, 0x00);
    assert_int_equal(rd(m, m->st.apu.cycle + 4) & 0x10, 0);
    rg__nes_apu_run(m, m->st.apu.cycle + 20000);
    assert_int_equal(m->st.apu.dmc_fetch, 0);
    assert_int_equal(m->apu_sync_at, UINT64_MAX);
    done(m);
}

static void dmc_output_level(void **state)
{
    (void)state;
    rg__nes_machine *m = machine();
    wr(m, 10, 0x4017, 0x40);
    wr(m, 20, 0x4011, 0x40);
    wr(m, 24, 0x4010, 0x0F);
    wr(m, 28, 0x4013, 0x00);
    wr(m, 100, 0x4015, 0x10);
    rg__nes_apu_run(m, m->apu_sync_at);
    assert_int_equal(m->st.apu.dmc_fetch_addr, 0xC000);
    rg__nes_apu_dmc_fill(m, 0xFF); /* eight +2 steps once the byte reaches the output */
    /* the silent output cycle running since power-on ends first (its first step still at rate 0) */
    rg__nes_apu_run(m, m->st.apu.cycle + 428 + 24 * 54);
    assert_int_equal(m->st.apu.dmc.level, 0x40 + 16);
    /* the sample is over: bytes remaining 0, and the output unit stays silent */
    assert_int_equal(rd(m, m->st.apu.cycle) & 0x10, 0);
    rg__nes_apu_run(m, m->st.apu.cycle + 100 * 54);
    assert_int_equal(m->st.apu.dmc.level, 0x40 + 16);
    done(m);
}

static void reset_behaviour(void **state)
{
    (void)state;
    rg__nes_machine *m = machine();
    wr(m, 10, 0x4017, 0x80);
    wr(m, 14, 0x4015, 0x1F);
    wr(m, 18, 0x4008, 0x80);
    wr(m, 22, 0x4003, 0xF8);
    wr(m, 26, 0x400B, 0xF8);
    wr(m, 30, 0x4013, 0x10);
    rg__nes_apu_run(m, 1001);
    rg__nes_apu_reset(&m->st.apu);
    assert_null(rg__nes_apu_check(&m->st.apu));
    /* $4015 cleared */
    assert_int_equal(rd(m, 1001) & 0x1F, 0);
    /* the five-step mode written again: no frame IRQ */
    rg__nes_apu_run(m, 1001 + 3 * 37282);
    assert_int_equal(m->st.irq, 0);
    /* the triangle's control bit is kept */
    assert_int_equal(m->st.apu.tri.ctrl, 0x80);
    done(m);

    /* after $00 the four-step mode restarts at once: the flag is set 29828 cycles later, the line a cycle after */
    m = machine();
    wr(m, 10, 0x4017, 0x00);
    rg__nes_apu_run(m, 40000);
    assert_int_equal(m->st.irq, RG__NES_IRQ_FRAME); /* the flag of the sequence started at 10 */
    rg__nes_apu_reset(&m->st.apu);
    rg__nes_apu_run(m, 40000); /* the reset's flag clear reaches the line at the next run */
    assert_int_equal(m->st.irq, 0);
    rg__nes_apu_run(m, 40000 + 29829);
    assert_int_equal(m->st.irq, 0);
    assert_int_equal(rg__nes_apu_read_status(m) & 0x40, 0x40);
    wr(m, 40000 + 29829, 0x4017, 0x40);
    assert_int_equal(m->st.irq, 0);
    done(m);
    m = machine();
    rg__nes_apu_run(m, 40000);
    rg__nes_apu_read_status(m);
    rg__nes_apu_reset(&m->st.apu);
    rg__nes_apu_run(m, 40000 + 29829);
    assert_int_equal(m->st.irq, 0);
    rg__nes_apu_run(m, 40000 + 29830);
    assert_int_equal(m->st.irq, RG__NES_IRQ_FRAME);
    done(m);
}

/* A busy program of writes: the APU run in one go and cycle by cycle ends in identical bytes, samples included. */
static void play(rg__nes_machine *m, int stepwise)
{
    static const struct { uint32_t at; uint16_t addr; uint8_t v; } prog[] = {
        {30, 0x4015, 0x1F},   {40, 0x4000, 0xBF},    {44, 0x4002, 0x80},  {48, 0x4003, 0x09},  {52, 0x4004, 0x4A},
        {56, 0x4006, 0x30},   {60, 0x4007, 0x12},    {64, 0x4005, 0x9A},  {68, 0x4008, 0x40},  {72, 0x400A, 0x55},
        {76, 0x400B, 0x13},   {80, 0x400C, 0x07},    {84, 0x400E, 0x83},  {88, 0x400F, 0x20},  {92, 0x4010, 0x8D},
        {96, 0x4013, 0x03},   {100, 0x4015, 0x1F},   {7000, 0x4017, 0x80}, {20001, 0x4001, 0xF3},
        {30000, 0x4017, 0x00}, {45000, 0x4011, 0x33}, {59661, 0x4003, 0x30}, {70000, 0x4015, 0x17}};
    size_t k = 0;
    uint64_t end = 120000;
    for (uint64_t c = 0; c <= end; c++) {
        if (stepwise || (k < sizeof prog / sizeof prog[0] && prog[k].at == c) || c == end ||
            c >= m->apu_sync_at)
            rg__nes_apu_run(m, c);
        while (k < sizeof prog / sizeof prog[0] && prog[k].at == c) {
            rg__nes_apu_write(m, prog[k].addr, prog[k].v);
            k++;
        }
        serve(m);
        if (c % 5000 == 0)
            rg__nes_apu_read_status(m);
    }
}

static void lazy_equals_stepwise(void **state)
{
    (void)state;
    for (int audio = 0; audio < 2; audio++) {
        rg__nes_machine *a = machine(), *b = machine();
        a->audio = b->audio = (uint8_t)audio;
        play(a, 0);
        play(b, 1);
        assert_memory_equal(&a->st, &b->st, sizeof a->st);
        assert_int_equal(a->alen, b->alen);
        if (audio) {
            /* 120000 cycles at 44100 Hz */
            assert_in_range(a->alen, 2955, 2957);
            assert_memory_equal(a->abuf, b->abuf, a->alen * sizeof *a->abuf);
        } else {
            assert_int_equal(a->alen, 0);
        }
        assert_null(rg__nes_apu_check(&a->st.apu));
        done(a);
        done(b);
    }
}

static void samples(void **state)
{
    (void)state;
    rg__nes_machine *m = machine();
    m->audio = 1;
    wr(m, 10, 0x4017, 0x40);
    wr(m, 20, 0x4015, 0x01);
    wr(m, 24, 0x4000, 0xBF); /* duty 50%, constant volume 15 */
    wr(m, 28, 0x4002, 0xFD);
    wr(m, 32, 0x4003, 0x00); /* period 253: 2 x 254 cycles, ~3.5 kHz */
    size_t from = m->alen;
    rg__nes_apu_run(m, 29800);
    assert_in_range(m->alen - from, 733, 735);
    int lo = 32767, hi = 0;
    for (size_t i = from + 10; i < m->alen; i++) {
        lo = m->abuf[i] < lo ? m->abuf[i] : lo;
        hi = m->abuf[i] > hi ? m->abuf[i] : hi;
    }
    /* a square of pulse volume 15: 95.88 / (8128 / 15 + 100) x 32767 high, on the triangle's level 15 (its
     * power-on step): 159.79 / (8227 / 15 + 100) x 32767 */
    assert_in_range(lo, 8000, 8150);
    assert_in_range(hi - lo, 4750, 4950);
    /* muted by a period below 8: only the triangle's constant level */
    wr(m, 29800, 0x4002, 0x05);
    from = m->alen;
    rg__nes_apu_run(m, 59600);
    for (size_t i = from + 2; i < m->alen; i++)
        assert_int_equal(m->abuf[i], lo);
    done(m);
}

static void state_check(void **state)
{
    (void)state;
    rg__nes_machine *m = machine();
    wr(m, 100, 0x4015, 0x10);
    rg__nes_apu_run(m, 200);
    assert_null(rg__nes_apu_check(&m->st.apu));
    rg__nes_apu good = m->st.apu;
#define BAD(field, value)                                                                                          \
    do {                                                                                                          \
        m->st.apu = good;                                                                                         \
        m->st.apu.field = (value);                                                                                \
        assert_non_null(rg__nes_apu_check(&m->st.apu));                                                           \
    } while (0)
    BAD(dmc_fetch, 2);
    BAD(dmc_fetch_addr, 0x1234);
    BAD(pulse[0].period, 0x800);
    BAD(pulse[1].timer, 0);
    BAD(pulse[0].seq, 8);
    BAD(pulse[1].env.decay, 16);
    BAD(pulse[0].length, 255);
    BAD(tri.seq, 32);
    BAD(tri.linear, 128);
    BAD(noise.lfsr, 0);
    BAD(noise.timer, 5000);
    BAD(noise.mode_period, 0x10);
    BAD(dmc.level, 128);
    BAD(dmc.bits, 0);
    BAD(dmc.timer, 429);
    BAD(dmc.addr, 0x7FFF);
    BAD(dmc.remaining, 4082);
    BAD(fc_mode, 2);
    BAD(fc_count, 29830);
    BAD(fc_reg, 0x01);
    BAD(len_done_at, 1000);
    BAD(dmc_request_at, 5);
    BAD(sample_acc, RG__NES_APU_CLOCK_DEN);
    BAD(sum_n, 42);
    /* against the machine: the clock within a run of the CPU's, the IRQ bits as the flags say */
    m->st.apu = good;
    assert_null(rg__nes_apu_check_at(&m->st.apu, good.cycle, 0));
    assert_null(rg__nes_apu_check_at(&m->st.apu, good.cycle + RG__NES_RUN_CYCLES_MAX, 0));
    assert_non_null(rg__nes_apu_check_at(&m->st.apu, good.cycle + RG__NES_RUN_CYCLES_MAX + 1, 0));
    assert_non_null(rg__nes_apu_check_at(&m->st.apu, good.cycle - 1, 0));
    assert_non_null(rg__nes_apu_check_at(&m->st.apu, good.cycle, RG__NES_IRQ_FRAME));
    m->st.apu.dmc.irq = 1;
    assert_non_null(rg__nes_apu_check_at(&m->st.apu, good.cycle, 0));
    assert_null(rg__nes_apu_check_at(&m->st.apu, good.cycle, RG__NES_IRQ_DMC | RG__NES_IRQ_MAPPER));
    m->st.apu = good;
    m->st.apu.fc_pending = 1;
    m->st.apu.fc_reset_at = good.cycle + 9;
    assert_non_null(rg__nes_apu_check(&m->st.apu));
#undef BAD
    done(m);
}

/* --- conformance ROMs whose result is only on screen (the runner's list, tests/cores/nes_testroms.txt, has the
 * ones that report at $6000) --- */

/* Nametable 0 as text (these ROMs' fonts put ASCII at the tile numbers), blanks collapsed. */
static void screen(const nes_harness *h, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < 0x3C0 && o + 1 < cap; i++) {
        char c = (char)h->m->st.cart.vram[i];
        if (c < 32 || c > 126)
            c = ' ';
        if (c == ' ' && (o == 0 || out[o - 1] == ' '))
            continue;
        out[o++] = c;
    }
    while (o > 0 && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
}

/* Runs a ROM of ../shared/test-roms/nes until its screen shows `want` (any of the '|'-separated strings; NULL: a
 * result code $XX) or
 * `frames` pass; returns 1 when it did, 0 otherwise (the text in text), -1 when the ROM is absent. */
static int run_until_text(const char *base, const char *rom, unsigned frames, const char *want, char *text,
                          size_t cap)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", base, rom);
    nes_harness h;
    int rc = nes_harness_open(&h, path);
    if (rc == RG_EIO)
        return -1;
    if (rc != RG_OK)
        fail_msg("%s: %s", rom, rg_error_last());
    int found = 0;
    text[0] = '\0';
    for (unsigned f = 1; f <= frames && !found; f++) {
        rg__nes_run_frame(h.m);
        if (f % 10)
            continue;
        screen(&h, text, cap);
        if (!want) { /* a result code: '$' and two hex digits */
            const char *d = strchr(text, '$');
            found = d && isxdigit((unsigned char)d[1]) && isxdigit((unsigned char)d[2]);
            continue;
        }
        char alt[256];
        snprintf(alt, sizeof alt, "%s", want);
        for (char *tok = strtok(alt, "|"); tok && !found; tok = strtok(NULL, "|"))
            found = strstr(text, tok) != NULL;
    }
    nes_harness_free(&h);
    return found;
}

static void screen_roms(void **state)
{
    (void)state;
    const char *shared = test_shared_roms();
    if (!shared) {
        print_message("../shared is absent: skipped\n");
        skip();
    }
    char base[1024];
    snprintf(base, sizeof base, "%s/../test-roms/nes", shared);
    /* blargg's 2005 frame-counter ROMs print their result code, $01 = every test passed */
    static const char *const apu2005[] = {
        "01.len_ctr",          "02.len_table",      "03.irq_flag",   "04.clock_jitter",
        "05.len_timing_mode0", "06.len_timing_mode1", "07.irq_flag_timing", "08.irq_timing",
        "09.reset_timing",     "10.len_halt_timing", "11.len_reload_timing"};
    char text[1024];
    unsigned ran = 0;
    for (size_t i = 0; i < sizeof apu2005 / sizeof apu2005[0]; i++) {
        char rom[128];
        snprintf(rom, sizeof rom, "blargg_apu_2005.07.30/%s.nes", apu2005[i]);
        /* any code shown ends the run; only $01 passes */
        int r = run_until_text(base, rom, 200, NULL, text, sizeof text);
        if (r < 0)
            continue;
        ran++;
        printf("%-44s %s\n", rom, text);
        if (strcmp(text, "$01") != 0)
            fail_msg("%s: the screen shows \"%s\", not the pass code $01", rom, text);
    }
    /* a DMC fetch in the middle of a $2007 read: the CRC of the printed reads is one of the hardware's two */
    int r = run_until_text(base, "dmc_dma_during_read4/dma_2007_read.nes", 600, "5E3DF9C4|159A7A8F", text,
                           sizeof text);
    if (r >= 0) {
        ran++;
        printf("%-44s %s\n", "dmc_dma_during_read4/dma_2007_read.nes", text);
        if (!strstr(text, "5E3DF9C4") && !strstr(text, "159A7A8F"))
            fail_msg("dma_2007_read: \"%s\" has neither of the hardware's CRCs", text);
    }
    if (!ran) {
        print_message("the ROMs are not in ../shared: skipped\n");
        skip();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(power_on),
        cmocka_unit_test(frame_irq_timing_mode0),
        cmocka_unit_test(frame_irq_inhibit_and_mode1),
        cmocka_unit_test(length_counters),
        cmocka_unit_test(length_table),
        cmocka_unit_test(length_clock_timing),
        cmocka_unit_test(length_halt_and_reload_timing),
        cmocka_unit_test(sweep_mute),
        cmocka_unit_test(dmc_fetches_and_irq),
        cmocka_unit_test(dmc_loop_and_stop),
        cmocka_unit_test(dmc_output_level),
        cmocka_unit_test(reset_behaviour),
        cmocka_unit_test(lazy_equals_stepwise),
        cmocka_unit_test(samples),
        cmocka_unit_test(state_check),
        cmocka_unit_test(screen_roms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
