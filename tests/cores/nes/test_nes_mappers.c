/* The NES mappers (src/cores/nes/mapper_*.c) on images built here: every 8 KiB PRG bank and every 1 KiB CHR bank is
 * filled with its own number, so a window shows which bank it holds. Register writes go through the cartridge's
 * CPU-side entry (rg__nes_cart_write), the PPU's pattern addresses through rg__nes_cart_ppu_addr; checked: the
 * CPU windows, the CHR windows, mirroring, PRG-RAM, MMC3's scanline IRQ, MMC2/MMC4 latches, battery RAM across
 * a power cycle, and mapper registers a loaded state may not hold. */
#include "nes_harness.h"
#include "test_support.h"
#include "nes_banked_image.h"
#include "cores/nes/mapper.h"

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

/* --- mid-frame mapper writes (issue 18): the PPU runs lazily, so a mapper register write must bring it up to the
 * write's cycle before the windows change, else lines drawn after the last PPU access but before the write use the
 * new CHR bank or mirroring. A program (built below, at $E000) waits for sprite-0 hit by polling $2002, waits ~23
 * lines more touching no PPU register, switches the 8 KiB CHR bank (background tile 1: colour 1 in bank 0, colour 2
 * in bank 1), and on MMC1 ~45 lines later the mirroring (one-screen page 0, all tile 1, to page 1, all tile 2: colour
 * 3 in bank 0, colour 0 in bank 1). Rows above each switch must show the old tiles, rows below the new ones, and the
 * picture must equal the one of a machine that answers every $2002 read by running the PPU (m->idle_off). */

typedef struct asm6 {
    uint8_t *code; /* $E000 */
    unsigned pc;
} asm6;

static void asm_b(asm6 *a, unsigned v) { a->code[a->pc++ - 0xE000u] = (uint8_t)v; }
static void asm_imm(asm6 *a, unsigned op, unsigned v) { asm_b(a, op); asm_b(a, v); }
static void asm_abs(asm6 *a, unsigned op, unsigned addr) { asm_b(a, op); asm_b(a, addr & 0xFFu); asm_b(a, addr >> 8); }
static void asm_back(asm6 *a, unsigned op, unsigned target) { asm_b(a, op); asm_b(a, (target - (a->pc + 1u)) & 0xFFu); }

enum { LDA_I = 0xA9, LDX_I = 0xA2, LDY_I = 0xA0, STA = 0x8D, BIT = 0x2C, BPL = 0x10, BVC = 0x50, BVS = 0x70,
       BNE = 0xD0, DEX = 0xCA, DEY = 0x88, LSR_A = 0x4A, JMP = 0x4C };

/* MMC1's serial port: 5 writes, low bit first */
static void asm_mmc1(asm6 *a, unsigned addr, unsigned v)
{
    asm_imm(a, LDA_I, v);
    for (unsigned i = 0; i < 5; i++) {
        if (i)
            asm_b(a, LSR_A);
        asm_abs(a, STA, addr);
    }
}

/* CNROM (bus conflicts: the byte written equals the ROM byte at $FFF0 + bank) or MMC1 */
static void asm_chr_bank(asm6 *a, unsigned mapper, unsigned bank)
{
    if (mapper == 3) {
        asm_imm(a, LDA_I, bank);
        asm_abs(a, STA, 0xFFF0u + bank);
    } else {
        asm_mmc1(a, 0xA000u, bank * 2u);
    }
}

static void asm_fill_nt(asm6 *a, unsigned tile)
{
    asm_imm(a, LDA_I, 0x20);
    asm_abs(a, STA, 0x2006);
    asm_imm(a, LDA_I, 0x00);
    asm_abs(a, STA, 0x2006);
    asm_imm(a, LDY_I, 4);
    unsigned l1 = a->pc;
    asm_imm(a, LDX_I, 240);
    unsigned l2 = a->pc;
    asm_imm(a, LDA_I, tile);
    asm_abs(a, STA, 0x2007);
    asm_b(a, DEX);
    asm_back(a, BNE, l2);
    asm_b(a, DEY);
    asm_back(a, BNE, l1);
    asm_imm(a, LDX_I, 64);
    asm_imm(a, LDA_I, 0);
    unsigned l3 = a->pc;
    asm_abs(a, STA, 0x2007);
    asm_b(a, DEX);
    asm_back(a, BNE, l3);
}

/* about units x 11.25 lines (x 1280 cycles) */
static void asm_delay(asm6 *a, unsigned units)
{
    asm_imm(a, LDY_I, units);
    unsigned l1 = a->pc;
    asm_imm(a, LDX_I, 0);
    unsigned l2 = a->pc;
    asm_b(a, DEX);
    asm_back(a, BNE, l2);
    asm_b(a, DEY);
    asm_back(a, BNE, l1);
}

static uint8_t *split_image(unsigned mapper, size_t *len)
{
    uint8_t *img = nes_banked_image(mapper, 2, 2, mapper == 3 ? 1 : 0, len);
    uint8_t *prg = img + 16, *chr = img + 16 + 32768;
    memset(chr, 0, 16384);
    memset(chr + 0x0010, 0xFF, 8);        /* bank 0 tile 1: colour 1 */
    memset(chr + 0x2018, 0xFF, 8);        /* bank 1 tile 1: colour 2 */
    memset(chr + 0x0020, 0xFF, 16);       /* bank 0 tile 2: colour 3 (bank 1's: colour 0) */
    memset(chr + 0x1010, 0xFF, 16);       /* sprite tile 1, both banks: colour 3 */
    memset(chr + 0x3010, 0xFF, 16);
    prg[0x7FF0] = 0;
    prg[0x7FF1] = 1;
    asm6 a = {prg + 0x6000, 0xE000};
    asm_b(&a, 0x78); /* SEI */
    asm_b(&a, 0xD8); /* CLD */
    asm_imm(&a, LDA_I, 0);
    asm_abs(&a, STA, 0x2000);
    asm_abs(&a, STA, 0x2001);
    for (unsigned i = 0; i < 2; i++) {
        unsigned w = a.pc;
        asm_abs(&a, BIT, 0x2002);
        asm_back(&a, BPL, w);
    }
    if (mapper == 1) {
        asm_imm(&a, LDA_I, 0x80);
        asm_abs(&a, STA, 0x8000);
        asm_mmc1(&a, 0x8000, 0x0D); /* one-screen page 1, PRG mode 3, CHR 8 KiB */
        asm_fill_nt(&a, 2);
        asm_mmc1(&a, 0x8000, 0x0C); /* page 0 */
    }
    asm_chr_bank(&a, mapper, 0);
    asm_fill_nt(&a, 1);
    /* palette: backdrop $0F, colours $16 $2A $12 */
    static const uint8_t pal[4] = {0x0F, 0x16, 0x2A, 0x12};
    asm_imm(&a, LDA_I, 0x3F);
    asm_abs(&a, STA, 0x2006);
    asm_imm(&a, LDA_I, 0x00);
    asm_abs(&a, STA, 0x2006);
    for (unsigned i = 0; i < 4; i++) {
        asm_imm(&a, LDA_I, pal[i]);
        asm_abs(&a, STA, 0x2007);
    }
    /* sprite 0 at (100, 60), tile 1; the others below the screen */
    asm_imm(&a, LDA_I, 0);
    asm_abs(&a, STA, 0x2003);
    static const uint8_t spr0[4] = {60, 1, 0, 100};
    for (unsigned i = 0; i < 4; i++) {
        asm_imm(&a, LDA_I, spr0[i]);
        asm_abs(&a, STA, 0x2004);
    }
    asm_imm(&a, LDX_I, 252);
    asm_imm(&a, LDA_I, 0xF0);
    unsigned l = a.pc;
    asm_abs(&a, STA, 0x2004);
    asm_b(&a, DEX);
    asm_back(&a, BNE, l);
    unsigned w = a.pc;
    asm_abs(&a, BIT, 0x2002);
    asm_back(&a, BPL, w);
    asm_imm(&a, LDA_I, 0);
    asm_abs(&a, STA, 0x2005);
    asm_abs(&a, STA, 0x2005);
    asm_imm(&a, LDA_I, 0x08); /* sprites from $1000 */
    asm_abs(&a, STA, 0x2000);
    asm_imm(&a, LDA_I, 0x1E);
    asm_abs(&a, STA, 0x2001);
    /* every frame: in vblank back to bank 0 (page 0); sprite-0 hit; ~23 lines; bank 1; (MMC1: ~45 lines; page 1) */
    unsigned frame = a.pc;
    asm_abs(&a, BIT, 0x2002);
    asm_back(&a, BPL, frame);
    asm_chr_bank(&a, mapper, 0);
    if (mapper == 1)
        asm_mmc1(&a, 0x8000, 0x0C);
    unsigned c = a.pc;
    asm_abs(&a, BIT, 0x2002);
    asm_back(&a, BVS, c);
    unsigned h = a.pc;
    asm_abs(&a, BIT, 0x2002);
    asm_back(&a, BVC, h);
    asm_delay(&a, 2);
    asm_chr_bank(&a, mapper, 1);
    if (mapper == 1) {
        asm_delay(&a, 4);
        asm_mmc1(&a, 0x8000, 0x0D);
    }
    asm_abs(&a, JMP, frame);
    assert_true(a.pc < 0xFFF0u);
    return img;
}

static void mid_frame_bank_switch(void **state)
{
    (void)state;
    static const unsigned k_mappers[2] = {3, 1};
    for (unsigned k = 0; k < 2; k++) {
        unsigned mapper = k_mappers[k];
        size_t len;
        uint8_t *img = split_image(mapper, &len);
        nes_harness a, b;
        assert_int_equal(nes_harness_open_bytes(&a, img, len), RG_OK);
        assert_int_equal(nes_harness_open_bytes(&b, img, len), RG_OK);
        free(img);
        b.m->idle_off = 1;
        for (unsigned f = 0; f < 8; f++) {
            rg__nes_run_frame(a.m);
            rg__nes_run_frame(b.m);
            if (f < 5)
                continue;
            /* the colour of each row (column 20, away from sprite 0), then the rows where it changes */
            uint8_t row[RG__NES_HEIGHT];
            unsigned cuts[4], ncut = 0;
            for (unsigned y = 0; y < RG__NES_HEIGHT; y++) {
                row[y] = (uint8_t)(a.fb[y * RG__NES_WIDTH + 20] & 0x3Fu);
                if (y && row[y] != row[y - 1] && ncut < 4)
                    cuts[ncut++] = y;
            }
            fprintf(stderr, "mapper %u frame %u: rows 0-%u %02x", mapper, f, ncut ? cuts[0] - 1 : 239, row[0]);
            for (unsigned i = 0; i < ncut; i++)
                fprintf(stderr, ", from %u %02x", cuts[i], row[cuts[i]]);
            fprintf(stderr, "\n");
            /* sprite 0 is on lines 61-68, hit on 61; the bank switch ~23 lines later, the page switch ~45 after */
            assert_int_equal(row[0], 0x16);
            assert_int_equal(ncut, mapper == 1 ? 2 : 1);
            assert_in_range(cuts[0], 80, 90);
            assert_int_equal(row[cuts[0]], 0x2A);
            if (mapper == 1) {
                assert_in_range(cuts[1], 125, 136);
                assert_int_equal(row[cuts[1]], 0x0F);
            }
            assert_memory_equal(a.fb, b.fb, (size_t)RG__NES_WIDTH * RG__NES_HEIGHT * sizeof *a.fb);
        }
        nes_harness_free(&a);
        nes_harness_free(&b);
    }
}

/* every mapper: a register write while rendering brings the PPU up to the write's cycle (cart.c), a PRG-RAM write
 * does not need to; with rendering off nothing is fetched, so none is needed */
static void mapper_writes_catch_up(void **state)
{
    (void)state;
    unsigned n = 0;
    for (unsigned number = 0; number < 4096; number++) {
        if (!rg__nes_mapper_find((uint16_t)number))
            continue;
        nes_harness h;
        nes_open_banked(&h, number, 8, 16, 0);
        rg__nes_machine *m = h.m;
        m->st.ppu.mask = 0x18;
        rg__nes_ppu_sync(m);
        static const uint16_t k_addrs[] = {0x8000, 0xA000, 0xC001, 0xE000, 0x9003, 0xB002, 0xF000, 0x4100,
                                           0x5000, 0x5105, 0x5120};
        for (size_t i = 0; i < sizeof k_addrs / sizeof k_addrs[0]; i++) {
            m->st.cycles = m->st.ppu.cycle + 40;
            rg__nes_cart_write(m, k_addrs[i], 0);
            if (m->st.ppu.cycle != m->st.cycles)
                fail_msg("mapper %u: a write to $%04X left the PPU %llu cycles behind", number, k_addrs[i],
                         (unsigned long long)(m->st.cycles - m->st.ppu.cycle));
        }
        uint64_t at = m->st.ppu.cycle;
        if (m->prg_ram_writable) {
            m->st.cycles += 40;
            rg__nes_cart_write(m, 0x6000, 1);
            assert_int_equal(m->st.ppu.cycle, at);
        }
        m->st.ppu.mask = 0;
        m->st.cycles += 40;
        rg__nes_cart_write(m, 0x8000, 0);
        assert_int_equal(m->st.ppu.cycle, at);
        nes_harness_free(&h);
        n++;
    }
    assert_true(n >= 28);
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
        cmocka_unit_test(mid_frame_bank_switch),
        cmocka_unit_test(mapper_writes_catch_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
