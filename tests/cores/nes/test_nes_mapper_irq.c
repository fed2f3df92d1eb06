/* The NES mappers with CPU-clocked IRQ counters (25 VRC4, 65 Irem H3001, 18 Jaleco SS88006, 67 Sunsoft-3, 69 Sunsoft
 * FME-7, 19 Namco 163) on images built here.
 * - Windows: every 8 KiB PRG bank and every 1 KiB CHR bank holds its own number, register writes go through the
 *   cartridge's CPU-side entry (rg__nes_cart_write); checked: PRG/CHR windows, mirroring, PRG-RAM, chip RAM.
 * - IRQ timing: a test program in the fixed last bank (6502 machine code written below) programs the counter, the
 *   last write in CPU cycle W, then runs LDX #0, CLI and a run of INX; its IRQ handler stores X at $00, 1 at $01 and
 *   acknowledges. A counter that raises its IRQ in cycle W + d is taken after the first INX whose first cycle is at
 *   or after it (the CPU polls before an instruction's last cycle): INX k runs in W + 3 + 2k and W + 4 + 2k, so
 *   X = ceil((d - 3) / 2). d per mapper from its documented counting (mapper_*.c); d and d + 2 are both run.
 * - State: a machine saved mid-count (plain copy, checked field by field) and loaded into a second machine runs on
 *   byte for byte like the first; hostile register values and a counter ahead of the CPU are refused. */
#include "nes_harness.h"
#include "test_support.h"
#include "nes_banked_image.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define CODE_BANK_OFF(prg) ((prg) - 8192u) /* the last 8 KiB bank: CPU $E000 */

typedef struct wlist {
    uint16_t addr[12];
    uint8_t val[12];
    unsigned n;
} wlist;

static void add(wlist *w, uint16_t addr, uint8_t v)
{
    w->addr[w->n] = addr;
    w->val[w->n] = v;
    w->n++;
}

static size_t emit_writes(uint8_t *p, const wlist *w)
{
    size_t k = 0;
    for (unsigned i = 0; i < w->n; i++) {
        p[k++] = 0xA9; /* LDA #v */
        p[k++] = w->val[i];
        p[k++] = 0x8D; /* STA abs */
        p[k++] = (uint8_t)w->addr[i];
        p[k++] = (uint8_t)(w->addr[i] >> 8);
    }
    return k;
}

/* The test program in the last bank. sled: the INX run (the timing test) or a counting loop (the state test). */
static void put_program(uint8_t *bank, const wlist *setup, const wlist *ack, int sled)
{
    memset(bank, 0xEA, 8192);
    uint8_t *p = bank; /* $E000: reset */
    size_t k = 0;
    static const uint8_t k_head[] = {0x78, 0xA2, 0xFF, 0x9A, 0xA9, 0x00, 0x85, 0x00, 0x85, 0x01, 0x85, 0x03,
                                     0x85, 0x10, 0x85, 0x11}; /* SEI; LDX #$FF; TXS; LDA #0; STA $00,$01,$03,$10,$11 */
    memcpy(p, k_head, sizeof k_head);
    k += sizeof k_head;
    k += emit_writes(p + k, setup);
    p[k++] = 0xA2; /* LDX #0 */
    p[k++] = 0x00;
    p[k++] = 0x58; /* CLI */
    if (sled) {
        for (int i = 0; i < 255; i++)
            p[k++] = 0xE8; /* INX */
        p[k++] = 0xA9; /* LDA #$EE; STA $03: the run ended without an IRQ */
        p[k++] = 0xEE;
        p[k++] = 0x85;
        p[k++] = 0x03;
    } else {
        uint16_t loop = (uint16_t)(0xE000u + k);
        static const uint8_t k_loop[] = {0xE6, 0x10, 0xD0, 0xFC, 0xE6, 0x11}; /* INC $10; BNE -4; INC $11 */
        memcpy(p + k, k_loop, sizeof k_loop);
        k += sizeof k_loop;
        p[k++] = 0x4C; /* JMP loop */
        p[k++] = (uint8_t)loop;
        p[k++] = (uint8_t)(loop >> 8);
    }
    uint16_t hang = (uint16_t)(0xE000u + k);
    p[k++] = 0x4C; /* JMP hang */
    p[k++] = (uint8_t)hang;
    p[k++] = (uint8_t)(hang >> 8);

    p = bank + 0x1000; /* $F000: IRQ */
    k = 0;
    static const uint8_t k_irq[] = {0x86, 0x00, 0xA9, 0x01, 0x85, 0x01}; /* STX $00; LDA #1; STA $01 */
    memcpy(p, k_irq, sizeof k_irq);
    k += sizeof k_irq;
    k += emit_writes(p + k, ack);
    hang = (uint16_t)(0xF000u + k);
    p[k++] = 0x4C;
    p[k++] = (uint8_t)hang;
    p[k++] = (uint8_t)(hang >> 8);

    bank[0x1800] = 0x40; /* $F800: RTI (NMI, never enabled) */
    bank[0x1FFA] = 0x00;
    bank[0x1FFB] = 0xF8;
    bank[0x1FFC] = 0x00;
    bank[0x1FFD] = 0xE0;
    bank[0x1FFE] = 0x00;
    bank[0x1FFF] = 0xF0;
}

static void open_program(nes_harness *h, unsigned mapper, const wlist *setup, const wlist *ack, int sled)
{
    size_t len;
    uint8_t *img = nes_banked_image(mapper, 16, 32, 0, &len);
    put_program(img + 16 + CODE_BANK_OFF(16u * 16384u), setup, ack, sled);
    if (nes_harness_open_bytes(h, img, len) != RG_OK)
        fail_msg("mapper %u: %s", mapper, rg_error_last());
    free(img);
}

/* the 1 KiB CHR bank in pattern window `slot` */
static size_t chr_bank(nes_harness *h, unsigned slot)
{
    return (size_t)(h->m->chr_map[slot] - h->m->chr) / 1024u;
}

/* --- the IRQ programs per mapper: the counter set to raise its IRQ in cycle W + d (W: the last write) */

static void setup_for(unsigned mapper, unsigned d, wlist *s, wlist *ack)
{
    memset(s, 0, sizeof *s);
    memset(ack, 0, sizeof *ack);
    switch (mapper) {
    case 25: { /* cycle mode: 256 - L clocks, the last one raises */
        unsigned l = 255u - d;
        add(s, 0xF000, (uint8_t)(l & 15u));
        add(s, 0xF002, (uint8_t)(l >> 4)); /* VRC4b: chip A0 = CPU A1: the latch's high nibble */
        add(s, 0xF001, 0x06);             /* control: M = 1, E = 1 */
        add(ack, 0xF003, 0);
        break;
    }
    case 67: /* N + 1 decrements to the wrap */
        add(s, 0xC800, (uint8_t)(d >> 8));
        add(s, 0xC800, (uint8_t)d);
        add(s, 0xD800, 0x10);
        add(ack, 0x8000, 0);
        break;
    case 69:
        add(s, 0x8000, 0x0E);
        add(s, 0xA000, (uint8_t)d);
        add(s, 0x8000, 0x0F);
        add(s, 0xA000, (uint8_t)(d >> 8));
        add(s, 0x8000, 0x0D);
        add(s, 0xA000, 0x81);
        add(ack, 0x8000, 0x0D);
        add(ack, 0xA000, 0x00);
        break;
    case 65: { /* N decrements to 0 */
        unsigned n = d + 1u;
        add(s, 0x9005, (uint8_t)(n >> 8));
        add(s, 0x9006, (uint8_t)n);
        add(s, 0x9003, 0x80);
        add(s, 0x9004, 0x00);
        add(ack, 0x9003, 0x00);
        break;
    }
    case 18:
        for (unsigned i = 0; i < 4; i++)
            add(s, (uint16_t)(0xE000u + i), (uint8_t)((d >> (4 * i)) & 15u));
        add(s, 0xF000, 0);
        add(s, 0xF001, 0x01); /* 16-bit counter, counting */
        add(ack, 0xF001, 0x00);
        break;
    default: { /* 19: counts up to $7FFF */
        unsigned c = 0x7FFFu - d - 1u;
        add(s, 0x5000, (uint8_t)c);
        add(s, 0x5800, (uint8_t)(0x80u | c >> 8));
        add(ack, 0x5800, 0x00);
        break;
    }
    }
}

static unsigned expected_x(unsigned d)
{
    return (d - 3u + 1u) / 2u;
}

static void run_irq(unsigned mapper, const wlist *s, const wlist *ack, unsigned d)
{
    nes_harness h;
    open_program(&h, mapper, s, ack, 1);
    rg__nes_run_frame(h.m);
    if (h.m->st.ram[1] != 1)
        fail_msg("mapper %u, d %u: no IRQ (X ran to the end: $03 = %02X)", mapper, d, h.m->st.ram[3]);
    if (h.m->st.ram[0] != expected_x(d))
        fail_msg("mapper %u, d %u: the IRQ came after %u INX, expected %u", mapper, d, h.m->st.ram[0],
                 expected_x(d));
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, 0); /* the handler acknowledged it */
    nes_harness_free(&h);
}

static void irq_timing(void **state)
{
    (void)state;
    static const unsigned k_mappers[] = {25, 67, 69, 65, 18, 19};
    for (size_t i = 0; i < sizeof k_mappers / sizeof k_mappers[0]; i++) {
        for (unsigned d = 150; d <= 153; d++) {
            wlist s, ack;
            setup_for(k_mappers[i], d, &s, &ack);
            run_irq(k_mappers[i], &s, &ack, d);
        }
        /* without the enabling write nothing fires: the INX run ends */
        wlist s, ack;
        setup_for(k_mappers[i], 150, &s, &ack);
        s.n--;
        nes_harness h;
        open_program(&h, k_mappers[i], &s, &ack, 1);
        rg__nes_run_frame(h.m);
        assert_int_equal(h.m->st.ram[1], 0);
        assert_int_equal(h.m->st.ram[3], 0xEE);
        nes_harness_free(&h);
    }
}

/* VRC4's scanline mode: the prescaler clocks the counter after 114, 114, 113 ... cycles */
static void vrc4_scanline_mode(void **state)
{
    (void)state;
    static const struct { uint8_t latch; unsigned d; } k_cases[] = {{0xFF, 113}, {0xFE, 227}};
    for (size_t i = 0; i < 2; i++) {
        wlist s, ack;
        memset(&s, 0, sizeof s);
        memset(&ack, 0, sizeof ack);
        add(&s, 0xF000, k_cases[i].latch & 15u);
        add(&s, 0xF002, k_cases[i].latch >> 4);
        add(&s, 0xF001, 0x02); /* M = 0, E = 1 */
        add(&ack, 0xF003, 0);
        run_irq(25, &s, &ack, k_cases[i].d);
    }
    /* three clocks in 341 cycles: 114 + 114 + 113 */
    nes_harness h;
    nes_open_banked(&h, 25, 16, 32, 0);
    nes_cart_wr(&h, 0xF000, 0x0D);
    nes_cart_wr(&h, 0xF002, 0x0F); /* latch $FD */
    nes_cart_wr(&h, 0xF001, 0x02);
    uint64_t w = h.m->st.cycles;
    rg__nes_cart_clock(h.m, w + 340);
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, 0);
    assert_int_equal(h.m->st.cart.regs[6], 0xFF);
    rg__nes_cart_clock(h.m, w + 341);
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, RG__NES_IRQ_MAPPER);
    assert_int_equal(h.m->st.cart.regs[6], 0xFD); /* reloaded */
    assert_int_equal(h.m->st.cart.counters[0], 341);
    nes_cart_wr(&h, 0xF003, 0); /* acknowledge; A (0) moves to E: stopped */
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, 0);
    rg__nes_cart_clock(h.m, h.m->st.cycles + 100000);
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, 0);
    nes_harness_free(&h);
}

/* SS88006's narrower counters: the bits above keep their value ($1232 in 4-bit mode: $1231, $1230, $123F + IRQ) */
static void ss88006_counter_width(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 18, 16, 32, 0);
    nes_cart_wr(&h, 0xE000, 2);
    nes_cart_wr(&h, 0xE001, 3);
    nes_cart_wr(&h, 0xE002, 2);
    nes_cart_wr(&h, 0xE003, 1);
    nes_cart_wr(&h, 0xF000, 0);
    nes_cart_wr(&h, 0xF001, 0x09); /* 4-bit, counting */
    uint64_t w = h.m->st.cycles;
    rg__nes_cart_clock(h.m, w + 2);
    assert_int_equal(h.m->st.cart.counters[0], 0x1230);
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, 0);
    rg__nes_cart_clock(h.m, w + 3);
    assert_int_equal(h.m->st.cart.counters[0], 0x123F);
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, RG__NES_IRQ_MAPPER);
    nes_cart_wr(&h, 0xF001, 0x05); /* 8-bit; acknowledges */
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, 0);
    nes_harness_free(&h);
}

/* --- windows */

static void vrc4_windows(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 25, 16, 64, 0); /* 256 KiB PRG, 512 KiB CHR (9-bit banks) */
    nes_cart_wr(&h, 0x8000, 5);
    nes_cart_wr(&h, 0xA000, 0x27); /* 5 bits: 7 */
    assert_int_equal(nes_prg_at(&h, 0x8000), 5);
    assert_int_equal(nes_prg_at(&h, 0xA000), 7);
    assert_int_equal(nes_prg_at(&h, 0xC000), 30);
    assert_int_equal(nes_prg_at(&h, 0xE000), 31);
    nes_cart_wr(&h, 0x9001, 2); /* VRC4b ($9001: chip A1): swap mode */
    assert_int_equal(nes_prg_at(&h, 0x8000), 30);
    assert_int_equal(nes_prg_at(&h, 0xC000), 5);
    nes_cart_wr(&h, 0x9004, 0); /* VRC4d ($9004: chip A1) */
    assert_int_equal(nes_prg_at(&h, 0x8000), 5);
    nes_cart_wr(&h, 0x9000, 1);
    nes_expect_nt(&h, 0, 0, 1, 1);
    nes_cart_wr(&h, 0x9000, 2);
    nes_expect_nt(&h, 0, 0, 0, 0);
    nes_cart_wr(&h, 0x9000, 3);
    nes_expect_nt(&h, 1, 1, 1, 1);
    nes_cart_wr(&h, 0x9000, 0);
    nes_expect_nt(&h, 0, 1, 0, 1);
    nes_cart_wr(&h, 0xB000, 0x05); /* bank 0 low nibble */
    nes_cart_wr(&h, 0xB002, 0x13); /* VRC4b: bank 0 high bits */
    assert_int_equal(chr_bank(&h, 0), 0x135);
    nes_cart_wr(&h, 0xB004, 0x02); /* VRC4d $B004 = chip A1: bank 1 low */
    nes_cart_wr(&h, 0xB00C, 0x01); /* bank 1 high */
    assert_int_equal(chr_bank(&h, 1), 0x12);
    nes_cart_wr(&h, 0xE001, 0x0F); /* VRC4b: bank 7 low */
    nes_cart_wr(&h, 0xE003, 0x1F); /* bank 7 high */
    assert_int_equal(chr_bank(&h, 7), 0x1FF);
    nes_cart_wr(&h, 0x6000, 0x5A); /* PRG-RAM */
    assert_int_equal(rg__nes_cart_read(h.m, 0x6000), 0x5A);
    nes_harness_free(&h);
}

static void sunsoft_windows(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 67, 8, 16, 0); /* 128 KiB PRG, 128 KiB CHR */
    nes_cart_wr(&h, 0xF800, 3);
    assert_int_equal(nes_prg_at(&h, 0x8000), 6);
    assert_int_equal(nes_prg_at(&h, 0xA000), 7);
    assert_int_equal(nes_prg_at(&h, 0xC000), 14);
    assert_int_equal(nes_prg_at(&h, 0xE000), 15);
    nes_cart_wr(&h, 0x8800, 5);
    nes_cart_wr(&h, 0xB800, 2);
    assert_int_equal(chr_bank(&h, 0), 10);
    assert_int_equal(chr_bank(&h, 1), 11);
    assert_int_equal(chr_bank(&h, 6), 4);
    nes_cart_wr(&h, 0xE800, 1);
    nes_expect_nt(&h, 0, 0, 1, 1);
    nes_cart_wr(&h, 0xE800, 3);
    nes_expect_nt(&h, 1, 1, 1, 1);
    nes_cart_wr(&h, 0x9000, 7); /* A11 clear: only an acknowledge */
    assert_int_equal(chr_bank(&h, 2), 0);
    nes_harness_free(&h);

    nes_open_banked(&h, 69, 16, 32, 0);
    nes_cart_wr(&h, 0x8000, 9);
    nes_cart_wr(&h, 0xA000, 7);
    nes_cart_wr(&h, 0x8000, 11);
    nes_cart_wr(&h, 0xA000, 0x49); /* 6 bits: 9 */
    assert_int_equal(nes_prg_at(&h, 0x8000), 7);
    assert_int_equal(nes_prg_at(&h, 0xC000), 9);
    assert_int_equal(nes_prg_at(&h, 0xE000), 31);
    nes_cart_wr(&h, 0x8000, 0);
    nes_cart_wr(&h, 0xA000, 0x21);
    nes_cart_wr(&h, 0x8000, 7);
    nes_cart_wr(&h, 0xA000, 0xF0);
    assert_int_equal(chr_bank(&h, 0), 0x21);
    assert_int_equal(chr_bank(&h, 7), 0xF0);
    nes_cart_wr(&h, 0x8000, 8); /* $6000: ROM bank 3 (power-on: ROM bank 0) */
    nes_cart_wr(&h, 0xA000, 3);
    assert_int_equal(rg__nes_cart_read(h.m, 0x6000), 3);
    nes_cart_wr(&h, 0x6000, 0x77); /* ROM: not written */
    assert_int_equal(rg__nes_cart_read(h.m, 0x6000), 3);
    nes_cart_wr(&h, 0xA000, 0xC0); /* RAM, enabled */
    nes_cart_wr(&h, 0x6000, 0x77);
    assert_int_equal(rg__nes_cart_read(h.m, 0x6000), 0x77);
    nes_cart_wr(&h, 0xA000, 0x40); /* RAM, disabled: open bus */
    assert_null(h.m->prg_ram_map);
    nes_cart_wr(&h, 0x8000, 12);
    nes_cart_wr(&h, 0xA000, 1);
    nes_expect_nt(&h, 0, 0, 1, 1);
    nes_cart_wr(&h, 0xA000, 2);
    nes_expect_nt(&h, 0, 0, 0, 0);
    nes_harness_free(&h);
}

static void irem_jaleco_windows(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 65, 16, 32, 0);
    assert_int_equal(nes_prg_at(&h, 0x8000), 0); /* power-on: 0 and 1 */
    assert_int_equal(nes_prg_at(&h, 0xA000), 1);
    nes_cart_wr(&h, 0x8000, 4);
    assert_int_equal(nes_prg_at(&h, 0x8000), 4);
    assert_int_equal(nes_prg_at(&h, 0xC000), 30);
    nes_cart_wr(&h, 0x9000, 0x80);
    assert_int_equal(nes_prg_at(&h, 0x8000), 30);
    assert_int_equal(nes_prg_at(&h, 0xC000), 4);
    nes_cart_wr(&h, 0x9001, 0x80);
    nes_expect_nt(&h, 0, 0, 1, 1);
    nes_cart_wr(&h, 0x9001, 0x40);
    nes_expect_nt(&h, 0, 0, 0, 0);
    nes_cart_wr(&h, 0x9001, 0x00);
    nes_expect_nt(&h, 0, 1, 0, 1);
    nes_cart_wr(&h, 0xB003, 9);
    assert_int_equal(chr_bank(&h, 3), 9);
    nes_harness_free(&h);

    nes_open_banked(&h, 18, 16, 32, 0);
    nes_cart_wr(&h, 0x8000, 5);
    nes_cart_wr(&h, 0x8001, 1);
    nes_cart_wr(&h, 0x8002, 6);
    nes_cart_wr(&h, 0x9000, 8);
    nes_cart_wr(&h, 0x9001, 1);
    assert_int_equal(nes_prg_at(&h, 0x8000), 0x15);
    assert_int_equal(nes_prg_at(&h, 0xA000), 6);
    assert_int_equal(nes_prg_at(&h, 0xC000), 0x18);
    assert_int_equal(nes_prg_at(&h, 0xE000), 31);
    nes_cart_wr(&h, 0xB002, 4); /* bank 3 */
    nes_cart_wr(&h, 0xB003, 2);
    nes_cart_wr(&h, 0xD002, 0xF); /* bank 7 */
    nes_cart_wr(&h, 0xD003, 0xF);
    assert_int_equal(chr_bank(&h, 3), 0x24);
    assert_int_equal(chr_bank(&h, 7), 0xFF);
    nes_cart_wr(&h, 0xF002, 0);
    nes_expect_nt(&h, 0, 0, 1, 1);
    nes_cart_wr(&h, 0xF002, 1);
    nes_expect_nt(&h, 0, 1, 0, 1);
    nes_cart_wr(&h, 0xF002, 3);
    nes_expect_nt(&h, 1, 1, 1, 1);
    assert_null(h.m->prg_ram_map); /* power-on: PRG-RAM off */
    nes_cart_wr(&h, 0x9002, 3);
    nes_cart_wr(&h, 0x6001, 0x42);
    assert_int_equal(rg__nes_cart_read(h.m, 0x6001), 0x42);
    nes_cart_wr(&h, 0x9002, 1); /* read-only */
    nes_cart_wr(&h, 0x6001, 0x43);
    assert_int_equal(rg__nes_cart_read(h.m, 0x6001), 0x42);
    nes_harness_free(&h);
}

static void namco163_windows(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 19, 16, 32, 0); /* 256 KiB CHR: 256 banks */
    nes_cart_wr(&h, 0x8000, 5);
    assert_int_equal(chr_bank(&h, 0), 5);
    nes_cart_wr(&h, 0x8800, 0xE1); /* the console's page 1 */
    assert_ptr_equal(h.m->chr_map[1], h.m->st.cart.vram + 1024);
    assert_true(h.m->chr_writable & 2u);
    nes_cart_wr(&h, 0xE800, 0x40); /* CIRAM off for $0000-$0FFF: bank $E1 of the ROM */
    assert_int_equal(chr_bank(&h, 1), 0xE1);
    assert_false(h.m->chr_writable & 2u);
    nes_cart_wr(&h, 0xC000, 0xE0);
    nes_cart_wr(&h, 0xC800, 0xE1);
    nes_cart_wr(&h, 0xD000, 0xE0);
    nes_cart_wr(&h, 0xD800, 0xE1);
    nes_expect_nt(&h, 0, 1, 0, 1);
    assert_int_equal(h.m->nt_readonly, 0);
    nes_cart_wr(&h, 0xC000, 3); /* a CHR-ROM nametable, read-only */
    assert_ptr_equal(h.m->nt_map[0], h.m->chr + 3 * 1024);
    assert_int_equal(h.m->nt_readonly, 1);
    nes_cart_wr(&h, 0xE000, 4);
    nes_cart_wr(&h, 0xE800, 0x45);
    nes_cart_wr(&h, 0xF000, 6);
    assert_int_equal(nes_prg_at(&h, 0x8000), 4);
    assert_int_equal(nes_prg_at(&h, 0xA000), 5);
    assert_int_equal(nes_prg_at(&h, 0xC000), 6);
    assert_int_equal(nes_prg_at(&h, 0xE000), 31);
    /* chip RAM through $4800, the address auto-incremented by $F800 bit 7 */
    nes_cart_wr(&h, 0xF800, 0x90);
    nes_cart_wr(&h, 0x4800, 0xAB);
    nes_cart_wr(&h, 0x4800, 0xCD);
    nes_cart_wr(&h, 0xF800, 0x10);
    assert_int_equal(rg__nes_cart_read(h.m, 0x4800), 0xAB);
    assert_int_equal(rg__nes_cart_read(h.m, 0x4800), 0xAB);
    nes_cart_wr(&h, 0xF800, 0x91);
    assert_int_equal(rg__nes_cart_read(h.m, 0x4800), 0xCD);
    /* the counter reads back; it counts only when enabled */
    nes_cart_wr(&h, 0x5000, 0x34);
    nes_cart_wr(&h, 0x5800, 0x12);
    h.m->st.cycles += 100;
    assert_int_equal(rg__nes_cart_read(h.m, 0x5000), 0x34);
    assert_int_equal(rg__nes_cart_read(h.m, 0x5800), 0x12);
    nes_cart_wr(&h, 0x5800, 0x92);
    h.m->st.cycles += 100;
    assert_int_equal(rg__nes_cart_read(h.m, 0x5000), 0x34 + 100);
    assert_int_equal(rg__nes_cart_read(h.m, 0x5800), 0x92);
    nes_harness_free(&h);
}

/* --- state */

static void state_round_trip(void **state)
{
    (void)state;
    static const struct { unsigned mapper, d; } k_cases[] = {
        {25, 200}, {67, 65535}, {69, 65535}, {65, 65534}, {18, 65535}, {19, 32766},
    };
    rg__nes_state *saved = malloc(sizeof *saved);
    assert_non_null(saved);
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
        unsigned mapper = k_cases[i].mapper;
        wlist s, ack;
        setup_for(mapper, k_cases[i].d, &s, &ack);
        if (mapper == 25) { /* scanline mode, latch 0: 256 lines, past the first frame */
            s.n = 0;
            add(&s, 0xF000, 0);
            add(&s, 0xF002, 0);
            add(&s, 0xF001, 0x02);
        }
        nes_harness a, b;
        open_program(&a, mapper, &s, &ack, 0);
        open_program(&b, mapper, &s, &ack, 0);
        rg__nes_run_frame(a.m);
        assert_int_equal(a.m->st.ram[1], 0); /* still counting */
        *saved = a.m->st;
        assert_int_equal(rg__nes_state_check(saved, b.m), RG_OK);
        b.m->st = *saved;
        rg__nes_cart_sync(b.m);
        rg__nes_ppu_sync(b.m);
        rg__nes_apu_run(b.m, b.m->st.cycles);
        b.m->frame_done = 0;
        for (int f = 0; f < 3; f++) {
            rg__nes_run_frame(a.m);
            rg__nes_run_frame(b.m);
        }
        if (a.m->st.ram[1] != 1)
            fail_msg("mapper %u: no IRQ after the state was saved", mapper);
        if (memcmp(&a.m->st, &b.m->st, sizeof a.m->st) != 0)
            fail_msg("mapper %u: the loaded state ran differently", mapper);

        /* refused: a counter ahead of the CPU, a register above its width */
        *saved = a.m->st;
        saved->cart.clock_cycle = saved->cycles + 1;
        assert_int_equal(rg__nes_state_check(saved, b.m), RG_ESTATE);
        assert_non_null(strstr(rg_error_last(), "clock_cycle"));
        nes_harness_free(&a);
        nes_harness_free(&b);
    }
    free(saved);
}

static void hostile_registers(void **state)
{
    (void)state;
    static const struct { unsigned mapper, reg; uint8_t bad; const char *name; } k_cases[] = {
        {25, 5, 8, "VRC4"}, {25, 16, 0x20, "VRC4"}, {67, 4, 4, "Sunsoft-3"}, {67, 6, 2, "Sunsoft-3"},
        {69, 13, 0x02, "FME-7"}, {69, 12, 4, "FME-7"}, {65, 3, 0x01, "H3001"}, {18, 5, 0x10, "SS88006"},
    };
    rg__nes_state *st = malloc(sizeof *st);
    assert_non_null(st);
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
        nes_harness h;
        nes_open_banked(&h, k_cases[i].mapper, 16, 32, 0);
        *st = h.m->st;
        assert_int_equal(rg__nes_state_check(st, h.m), RG_OK);
        st->cart.regs[k_cases[i].reg] = k_cases[i].bad;
        assert_int_equal(rg__nes_state_check(st, h.m), RG_ESTATE);
        assert_non_null(strstr(rg_error_last(), k_cases[i].name));
        nes_harness_free(&h);
    }
    nes_harness h;
    nes_open_banked(&h, 25, 16, 32, 0);
    *st = h.m->st;
    st->cart.counters[0] = 0; /* the prescaler runs 1..341 */
    assert_int_equal(rg__nes_state_check(st, h.m), RG_ESTATE);
    nes_harness_free(&h);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vrc4_windows),
        cmocka_unit_test(sunsoft_windows),
        cmocka_unit_test(irem_jaleco_windows),
        cmocka_unit_test(namco163_windows),
        cmocka_unit_test(irq_timing),
        cmocka_unit_test(vrc4_scanline_mode),
        cmocka_unit_test(ss88006_counter_width),
        cmocka_unit_test(state_round_trip),
        cmocka_unit_test(hostile_registers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
