/* The NES mappers (src/cores/nes/mapper_*.c) on images built here: every 8 KiB PRG bank and every 1 KiB CHR bank is
 * filled with its own number, so a window shows which bank it holds. Register writes go through the cartridge's
 * CPU-side entry (rg__nes_cart_write), the PPU's pattern addresses through rg__nes_cart_ppu_addr; checked: the
 * CPU windows, the CHR windows, mirroring, PRG-RAM, MMC3's scanline IRQ, MMC2/MMC4 latches, battery RAM across
 * a power cycle, and mapper registers a loaded state may not hold. */
#include "nes_harness.h"
#include "test_support.h"
#include "nes_banked_image.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static unsigned chr_at(nes_harness *h, unsigned slot)
{
    return h->m->chr_map[slot][0];
}

static void nrom(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 0, 1, 1, 0x01); /* 16 KiB, vertical */
    assert_int_equal(nes_prg_at(&h, 0x8000), 0);
    assert_int_equal(nes_prg_at(&h, 0xA000), 1);
    assert_int_equal(nes_prg_at(&h, 0xC000), 0); /* mirrored */
    nes_expect_nt(&h, 0, 1, 0, 1);
    /* PRG-RAM at $6000 */
    nes_cart_wr(&h, 0x6123, 0x5A);
    assert_int_equal(rg__nes_cart_read(h.m, 0x6123), 0x5A);
    nes_harness_free(&h);
    nes_open_banked(&h, 0, 2, 1, 0x08); /* 32 KiB, four-screen */
    assert_int_equal(nes_prg_at(&h, 0xC000), 2);
    nes_expect_nt(&h, 0, 1, 2, 3);
    nes_harness_free(&h);
}

static void uxrom_cnrom_axrom(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 2, 8, 0, 0);
    nes_cart_wr(&h, 0x8000, 3);
    assert_int_equal(nes_prg_at(&h, 0x8000), 6);
    assert_int_equal(nes_prg_at(&h, 0xA000), 7);
    assert_int_equal(nes_prg_at(&h, 0xC000), 14);
    assert_true(h.m->chr_writable == 0xFF); /* CHR-RAM */
    nes_cart_wr(&h, 0xFFFF, 9); /* wraps at 8 banks */
    assert_int_equal(nes_prg_at(&h, 0x8000), 2);
    nes_harness_free(&h);

    nes_open_banked(&h, 3, 2, 4, 0);
    nes_cart_wr(&h, 0x8000, 2);
    assert_int_equal(chr_at(&h, 0), 16);
    assert_int_equal(chr_at(&h, 7), 23);
    assert_int_equal(h.m->chr_writable, 0);
    nes_harness_free(&h);

    nes_open_banked(&h, 7, 16, 0, 0);
    nes_cart_wr(&h, 0x8000, 0x13);
    assert_int_equal(nes_prg_at(&h, 0x8000), 12);
    assert_int_equal(nes_prg_at(&h, 0xE000), 15);
    nes_expect_nt(&h, 1, 1, 1, 1);
    nes_cart_wr(&h, 0x8000, 0x01);
    nes_expect_nt(&h, 0, 0, 0, 0);
    nes_harness_free(&h);
}

static void colordreams_gxrom_camerica(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 11, 8, 8, 0);
    nes_cart_wr(&h, 0x8000, 0x52);
    assert_int_equal(nes_prg_at(&h, 0x8000), 8);
    assert_int_equal(chr_at(&h, 0), 40);
    nes_harness_free(&h);

    nes_open_banked(&h, 66, 8, 4, 0);
    nes_cart_wr(&h, 0x8000, 0x21);
    assert_int_equal(nes_prg_at(&h, 0x8000), 8);
    assert_int_equal(chr_at(&h, 0), 8);
    nes_harness_free(&h);

    nes_open_banked(&h, 71, 8, 0, 0);
    nes_cart_wr(&h, 0xC000, 5);
    assert_int_equal(nes_prg_at(&h, 0x8000), 10);
    assert_int_equal(nes_prg_at(&h, 0xC000), 14);
    nes_expect_nt(&h, 0, 0, 1, 1); /* the header's horizontal mirroring until $9000 is written */
    nes_cart_wr(&h, 0x9000, 0x10);
    nes_expect_nt(&h, 1, 1, 1, 1);
    nes_cart_wr(&h, 0x8000, 1); /* $8000-$8FFF does nothing */
    assert_int_equal(nes_prg_at(&h, 0x8000), 10);
    nes_harness_free(&h);
}

/* one MMC1 register written through the serial port, lowest bit first */
static void mmc1_reg(nes_harness *h, uint16_t addr, uint8_t v)
{
    for (int i = 0; i < 5; i++)
        nes_cart_wr(h, addr, (uint8_t)((v >> i) & 1u));
}

static void mmc1(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 1, 16, 16, 0);
    /* power-on: PRG mode 3, the last bank at $C000 */
    assert_int_equal(nes_prg_at(&h, 0xC000), 30);
    mmc1_reg(&h, 0xE000, 5);
    assert_int_equal(nes_prg_at(&h, 0x8000), 10);
    assert_int_equal(nes_prg_at(&h, 0xC000), 30);
    mmc1_reg(&h, 0x8000, 0x0B); /* mode 2: first bank fixed at $8000; horizontal mirroring; 8 KiB CHR */
    assert_int_equal(nes_prg_at(&h, 0x8000), 0);
    assert_int_equal(nes_prg_at(&h, 0xC000), 10);
    nes_expect_nt(&h, 0, 0, 1, 1);
    mmc1_reg(&h, 0xA000, 5); /* CHR bank 0 in 8 KiB mode: bank 4 (low bit ignored) */
    assert_int_equal(chr_at(&h, 0), 16);
    assert_int_equal(chr_at(&h, 4), 20);
    mmc1_reg(&h, 0x8000, 0x12); /* 4 KiB CHR, vertical, 32 KiB PRG */
    mmc1_reg(&h, 0xC000, 3);
    assert_int_equal(chr_at(&h, 0), 20);
    assert_int_equal(chr_at(&h, 4), 12);
    nes_expect_nt(&h, 0, 1, 0, 1);
    assert_int_equal(nes_prg_at(&h, 0x8000), 8); /* 32 KiB mode: bank 5 & ~1 */
    /* a write with bit 7 resets the shift register and sets PRG mode 3 */
    nes_cart_wr(&h, 0x8000, 1);
    nes_cart_wr(&h, 0x8000, 1);
    nes_cart_wr(&h, 0x8000, 0x80);
    assert_int_equal(h.m->st.cart.regs[1], 0);
    assert_int_equal(nes_prg_at(&h, 0xC000), 30);
    /* the second of two writes on consecutive cycles is ignored */
    h.m->st.cycles += 5;
    rg__nes_cart_write(h.m, 0x8000, 1);
    h.m->st.cycles += 1;
    rg__nes_cart_write(h.m, 0x8000, 1);
    assert_int_equal(h.m->st.cart.regs[1], 1);
    /* PRG-RAM disabled by bit 4 of the PRG register */
    nes_cart_wr(&h, 0x8000, 0x80);
    nes_cart_wr(&h, 0x6000, 0x77);
    assert_int_equal(rg__nes_cart_read(h.m, 0x6000), 0x77);
    mmc1_reg(&h, 0xE000, 0x10);
    assert_null(h.m->prg_ram_map);
    nes_harness_free(&h);

    /* SUROM: 512 KiB; CHR bank 0 bit 4 selects the 256 KiB half (both windows) */
    nes_open_banked(&h, 1, 32, 0, 0);
    assert_int_equal(nes_prg_at(&h, 0xC000), 30);
    mmc1_reg(&h, 0xA000, 0x10);
    assert_int_equal(nes_prg_at(&h, 0xC000), 62);
    mmc1_reg(&h, 0xE000, 2);
    assert_int_equal(nes_prg_at(&h, 0x8000), 36);
    nes_harness_free(&h);
}

static void ppu_rise(nes_harness *h, uint64_t *dot, unsigned low_dots)
{
    rg__nes_cart_ppu_addr(h->m, 0x0000, *dot);
    *dot += low_dots;
    rg__nes_cart_ppu_addr(h->m, 0x1000, *dot);
    *dot += 4;
}

static void mmc3(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 4, 16, 16, 0);
    assert_true(h.m->ppu_watch);
    assert_int_equal(nes_prg_at(&h, 0xC000), 30);
    assert_int_equal(nes_prg_at(&h, 0xE000), 31);
    nes_cart_wr(&h, 0x8000, 6);
    nes_cart_wr(&h, 0x8001, 5);
    nes_cart_wr(&h, 0x8000, 7);
    nes_cart_wr(&h, 0x8001, 9);
    assert_int_equal(nes_prg_at(&h, 0x8000), 5);
    assert_int_equal(nes_prg_at(&h, 0xA000), 9);
    nes_cart_wr(&h, 0x8000, 0x40); /* PRG mode 1: R6 at $C000, the second-last bank at $8000 */
    assert_int_equal(nes_prg_at(&h, 0x8000), 30);
    assert_int_equal(nes_prg_at(&h, 0xC000), 5);
    /* CHR: R0 (2 KiB, low bit ignored) and R2 (1 KiB); inversion swaps the halves */
    nes_cart_wr(&h, 0x8000, 0);
    nes_cart_wr(&h, 0x8001, 7);
    nes_cart_wr(&h, 0x8000, 2);
    nes_cart_wr(&h, 0x8001, 40);
    assert_int_equal(chr_at(&h, 0), 6);
    assert_int_equal(chr_at(&h, 1), 7);
    assert_int_equal(chr_at(&h, 4), 40);
    nes_cart_wr(&h, 0x8000, 0x80);
    assert_int_equal(chr_at(&h, 4), 6);
    assert_int_equal(chr_at(&h, 0), 40);
    nes_cart_wr(&h, 0xA000, 1);
    nes_expect_nt(&h, 0, 0, 1, 1);
    nes_cart_wr(&h, 0xA000, 0);
    nes_expect_nt(&h, 0, 1, 0, 1);

    /* the scanline counter: latch 2, reload, enable; clocks on A12 rises after a long enough low */
    uint64_t dot = 1000;
    nes_cart_wr(&h, 0xC000, 2);
    nes_cart_wr(&h, 0xC001, 0);
    nes_cart_wr(&h, 0xE001, 0);
    ppu_rise(&h, &dot, 40); /* reload: 2 */
    ppu_rise(&h, &dot, 40); /* 1 */
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, 0);
    ppu_rise(&h, &dot, 4); /* low too short: no clock */
    rg__nes_cart_ppu_addr(h.m, 0x1008, dot + 2); /* still high: no clock */
    assert_int_equal(h.m->st.cart.regs[12], 1);
    ppu_rise(&h, &dot, 40); /* 0: IRQ */
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, RG__NES_IRQ_MAPPER);
    nes_cart_wr(&h, 0xE000, 0); /* acknowledge and disable */
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, 0);
    ppu_rise(&h, &dot, 40);
    ppu_rise(&h, &dot, 40);
    assert_int_equal(h.m->st.irq & RG__NES_IRQ_MAPPER, 0);
    nes_harness_free(&h);
}

static void mmc2_mmc4(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 9, 8, 16, 0);
    assert_int_equal(nes_prg_at(&h, 0xA000), 13);
    nes_cart_wr(&h, 0xA000, 4);
    assert_int_equal(nes_prg_at(&h, 0x8000), 4);
    nes_cart_wr(&h, 0xB000, 1); /* $0000 for $FD */
    nes_cart_wr(&h, 0xC000, 2); /* $0000 for $FE */
    nes_cart_wr(&h, 0xD000, 3);
    nes_cart_wr(&h, 0xE000, 4);
    assert_int_equal(chr_at(&h, 0), 8); /* latches start at $FE */
    assert_int_equal(chr_at(&h, 4), 16);
    rg__nes_cart_ppu_addr(h.m, 0x0FD8, 10);
    assert_int_equal(chr_at(&h, 0), 4);
    rg__nes_cart_ppu_addr(h.m, 0x0FE9, 20); /* MMC2: only $0FE8 itself for the left table */
    assert_int_equal(chr_at(&h, 0), 4);
    rg__nes_cart_ppu_addr(h.m, 0x0FE8, 30);
    assert_int_equal(chr_at(&h, 0), 8);
    rg__nes_cart_ppu_addr(h.m, 0x1FDD, 40); /* the right table: the range */
    assert_int_equal(chr_at(&h, 4), 12);
    nes_cart_wr(&h, 0xF000, 1);
    nes_expect_nt(&h, 0, 0, 1, 1);
    nes_harness_free(&h);

    nes_open_banked(&h, 10, 8, 16, 0);
    nes_cart_wr(&h, 0xA000, 3);
    assert_int_equal(nes_prg_at(&h, 0x8000), 6);
    assert_int_equal(nes_prg_at(&h, 0xC000), 14);
    nes_cart_wr(&h, 0xB000, 1);
    rg__nes_cart_ppu_addr(h.m, 0x0FDB, 10); /* MMC4: the range for the left table too */
    assert_int_equal(chr_at(&h, 0), 4);
    nes_harness_free(&h);
}

static void battery_and_power(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 0, 2, 1, 0x02); /* battery */
    nes_cart_wr(&h, 0x6000, 0x42);
    rg__nes_power_on(h.m);
    assert_int_equal(rg__nes_cart_read(h.m, 0x6000), 0x42);
    nes_harness_free(&h);
    nes_open_banked(&h, 0, 2, 1, 0x00);
    nes_cart_wr(&h, 0x6000, 0x42);
    rg__nes_power_on(h.m);
    assert_int_equal(rg__nes_cart_read(h.m, 0x6000), 0);
    nes_harness_free(&h);
}

static void hostile_mapper_state(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 1, 8, 0, 0);
    rg__nes_state *st = malloc(sizeof *st);
    assert_non_null(st);
    *st = h.m->st;
    assert_int_equal(rg__nes_state_check(st, h.m), RG_OK);
    st->cart.regs[1] = 7;
    assert_int_equal(rg__nes_state_check(st, h.m), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "MMC1"));
    st->cart.regs[1] = 0;
    st->cart.regs[5] = 0x20;
    assert_int_equal(rg__nes_state_check(st, h.m), RG_ESTATE);
    nes_harness_free(&h);
    nes_open_banked(&h, 4, 8, 8, 0);
    *st = h.m->st;
    st->cart.regs[14] = 2;
    assert_int_equal(rg__nes_state_check(st, h.m), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "MMC3"));
    free(st);
    nes_harness_free(&h);
}

/* --- the mappers of stable-retro's games beyond the first eleven (docs/nes.md) */

static void latch6000_boards(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 87, 2, 4, 0); /* 32 KiB CHR: 4 banks */
    assert_null(h.m->prg_ram_map); /* the latch, not RAM, answers at $6000 */
    assert_int_equal(chr_at(&h, 0), 24); /* power-on: bank 3 */
    nes_cart_wr(&h, 0x6000, 0x01);        /* bit 0 is bank bit 1 */
    assert_int_equal(chr_at(&h, 0), 16);
    nes_cart_wr(&h, 0x7FFF, 0x02);        /* bit 1 is bank bit 0 */
    assert_int_equal(chr_at(&h, 7), 15);
    nes_cart_wr(&h, 0x8000, 0x03);        /* not a register */
    assert_int_equal(chr_at(&h, 0), 8);
    assert_int_equal(nes_prg_at(&h, 0xC000), 2);
    nes_harness_free(&h);

    nes_open_banked(&h, 140, 8, 16, 0);
    nes_cart_wr(&h, 0x6000, 0x25);
    assert_int_equal(nes_prg_at(&h, 0x8000), 8);
    assert_int_equal(nes_prg_at(&h, 0xE000), 11);
    assert_int_equal(chr_at(&h, 0), 40);
    nes_harness_free(&h);

    nes_open_banked(&h, 184, 2, 2, 0x01); /* 16 KiB CHR: four 4 KiB banks */
    nes_cart_wr(&h, 0x6000, 0x21);
    assert_int_equal(chr_at(&h, 0), 4);
    assert_int_equal(chr_at(&h, 4), 8);
    nes_cart_wr(&h, 0x6000, 0x73); /* bank 7 wraps to 3 */
    assert_int_equal(chr_at(&h, 4), 12);
    assert_int_equal(chr_at(&h, 3), 15);
    nes_expect_nt(&h, 0, 1, 0, 1);
    nes_harness_free(&h);

    nes_open_banked(&h, 185, 2, 1, 0);
    nes_cart_wr(&h, 0x8000, 0x00); /* key does not match: CHR reads $FF */
    assert_int_equal(chr_at(&h, 0), 0xFF);
    assert_int_equal(h.m->chr_writable, 0);
    nes_cart_wr(&h, 0x8000, 0x21);
    assert_int_equal(chr_at(&h, 5), 5);
    nes_cart_wr(&h, 0x8000, 0x13);
    assert_int_equal(chr_at(&h, 5), 0xFF);
    nes_harness_free(&h);
}

static void vrc1_vrc2a(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 75, 8, 16, 0);
    nes_cart_wr(&h, 0x8000, 3);
    nes_cart_wr(&h, 0xA000, 5);
    nes_cart_wr(&h, 0xC000, 0x1E); /* 4 bits: 14 */
    assert_int_equal(nes_prg_at(&h, 0x8000), 3);
    assert_int_equal(nes_prg_at(&h, 0xA000), 5);
    assert_int_equal(nes_prg_at(&h, 0xC000), 14);
    assert_int_equal(nes_prg_at(&h, 0xE000), 15);
    nes_cart_wr(&h, 0xE000, 2);
    nes_cart_wr(&h, 0xF000, 1);
    nes_cart_wr(&h, 0x9000, 0x05); /* horizontal; bit 4 of the $1000 bank */
    assert_int_equal(chr_at(&h, 0), 8);
    assert_int_equal(chr_at(&h, 4), 68);
    nes_expect_nt(&h, 0, 0, 1, 1);
    nes_cart_wr(&h, 0x9000, 0x00);
    nes_expect_nt(&h, 0, 1, 0, 1);
    nes_harness_free(&h);

    nes_open_banked(&h, 22, 8, 16, 0);
    nes_cart_wr(&h, 0x8000, 4);
    nes_cart_wr(&h, 0xA000, 6);
    assert_int_equal(nes_prg_at(&h, 0x8000), 4);
    assert_int_equal(nes_prg_at(&h, 0xA000), 6);
    assert_int_equal(nes_prg_at(&h, 0xC000), 14);
    /* CHR bank 1 ($B002/$B003 on VRC2a: A0/A1 swapped, so $B001/$B003 reach it) = 0x2A, mapper 22 drops bit 0 */
    nes_cart_wr(&h, 0xB001, 0x0A);
    nes_cart_wr(&h, 0xB003, 0x02);
    assert_int_equal(chr_at(&h, 1), 0x15);
    nes_cart_wr(&h, 0xE003, 0x06); /* bank 7 high nibble */
    nes_cart_wr(&h, 0xE001, 0x04); /* bank 7 low nibble */
    nes_cart_wr(&h, 0xE002, 0x01); /* bank 6 high nibble */
    assert_int_equal(chr_at(&h, 7), 0x32);
    assert_int_equal(chr_at(&h, 6), 0x08);
    nes_cart_wr(&h, 0x9000, 1);
    nes_expect_nt(&h, 0, 0, 1, 1);
    nes_harness_free(&h);
}

static void taito_namco_irem(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 33, 8, 16, 0);
    nes_cart_wr(&h, 0x8000, 0x45); /* PRG 5, horizontal */
    nes_cart_wr(&h, 0x8001, 9);
    assert_int_equal(nes_prg_at(&h, 0x8000), 5);
    assert_int_equal(nes_prg_at(&h, 0xA000), 9);
    assert_int_equal(nes_prg_at(&h, 0xC000), 14);
    nes_expect_nt(&h, 0, 0, 1, 1);
    nes_cart_wr(&h, 0x8002, 3);
    nes_cart_wr(&h, 0x8003, 7);
    nes_cart_wr(&h, 0xA002, 100);
    assert_int_equal(chr_at(&h, 0), 6);
    assert_int_equal(chr_at(&h, 3), 15);
    assert_int_equal(chr_at(&h, 6), 100);
    nes_harness_free(&h);

    nes_open_banked(&h, 206, 8, 4, 0x01);
    assert_int_equal(nes_prg_at(&h, 0xA000), 1);
    nes_cart_wr(&h, 0x8000, 6);
    nes_cart_wr(&h, 0x8001, 0x13); /* 4 bits of PRG */
    assert_int_equal(nes_prg_at(&h, 0x8000), 3);
    nes_cart_wr(&h, 0x8000, 0xC1); /* MMC3's mode bits do nothing here */
    nes_cart_wr(&h, 0x8001, 5);    /* 2 KiB: bank 4-5 */
    assert_int_equal(chr_at(&h, 2), 4);
    assert_int_equal(chr_at(&h, 3), 5);
    assert_int_equal(nes_prg_at(&h, 0x8000), 3);
    nes_cart_wr(&h, 0xA000, 0x01); /* no mirroring register */
    nes_expect_nt(&h, 0, 1, 0, 1);
    nes_harness_free(&h);

    nes_open_banked(&h, 32, 8, 16, 0);
    nes_cart_wr(&h, 0x8000, 3);
    nes_cart_wr(&h, 0xA000, 4);
    assert_int_equal(nes_prg_at(&h, 0x8000), 3);
    assert_int_equal(nes_prg_at(&h, 0xC000), 14);
    nes_cart_wr(&h, 0x9000, 3); /* PRG mode 1, horizontal */
    assert_int_equal(nes_prg_at(&h, 0x8000), 14);
    assert_int_equal(nes_prg_at(&h, 0xC000), 3);
    assert_int_equal(nes_prg_at(&h, 0xA000), 4);
    nes_expect_nt(&h, 0, 0, 1, 1);
    nes_cart_wr(&h, 0xB005, 77);
    assert_int_equal(chr_at(&h, 5), 77);
    nes_harness_free(&h);
}

static void txsrom(void **state)
{
    (void)state;
    nes_harness h;
    nes_open_banked(&h, 118, 8, 16, 0);
    nes_cart_wr(&h, 0x8000, 0);
    nes_cart_wr(&h, 0x8001, 0x80); /* R0: bit 7 set: $2000/$2400 page 1 */
    nes_cart_wr(&h, 0x8000, 1);
    nes_cart_wr(&h, 0x8001, 0x02);
    nes_expect_nt(&h, 1, 1, 0, 0);
    assert_int_equal(chr_at(&h, 0), 0); /* 128 KiB of CHR: bank $80 is bank 0 */
    nes_cart_wr(&h, 0xA000, 1); /* the mirroring register does not count */
    nes_expect_nt(&h, 1, 1, 0, 0);
    nes_cart_wr(&h, 0x8000, 0x82); /* CHR inversion: R2-R5 name the pages */
    nes_cart_wr(&h, 0x8001, 0x80);
    nes_expect_nt(&h, 1, 0, 0, 0);
    nes_harness_free(&h);
}

static void hostile_new_mappers(void **state)
{
    (void)state;
    static const struct { unsigned mapper, reg; uint8_t bad; const char *name; } k_cases[] = {
        {87, 0, 4, "87"}, {140, 0, 0x40, "140"}, {184, 0, 0x08, "184"}, {75, 1, 8, "VRC1"},
        {22, 2, 2, "VRC2"}, {33, 0, 0x80, "33"}, {206, 8, 8, "206"}, {32, 1, 4, "32"}, {118, 14, 2, "MMC3"},
    };
    rg__nes_state *st = malloc(sizeof *st);
    assert_non_null(st);
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
        nes_harness h;
        nes_open_banked(&h, k_cases[i].mapper, 8, 16, 0);
        *st = h.m->st;
        assert_int_equal(rg__nes_state_check(st, h.m), RG_OK);
        st->cart.regs[k_cases[i].reg] = k_cases[i].bad;
        assert_int_equal(rg__nes_state_check(st, h.m), RG_ESTATE);
        assert_non_null(strstr(rg_error_last(), k_cases[i].name));
        nes_harness_free(&h);
    }
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nrom),
        cmocka_unit_test(uxrom_cnrom_axrom),
        cmocka_unit_test(colordreams_gxrom_camerica),
        cmocka_unit_test(mmc1),
        cmocka_unit_test(mmc3),
        cmocka_unit_test(mmc2_mmc4),
        cmocka_unit_test(battery_and_power),
        cmocka_unit_test(hostile_mapper_state),
        cmocka_unit_test(latch6000_boards),
        cmocka_unit_test(vrc1_vrc2a),
        cmocka_unit_test(taito_namco_irem),
        cmocka_unit_test(txsrom),
        cmocka_unit_test(hostile_new_mappers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
