/* iNES images built by the mapper tests (test_nes_mappers.c, test_nes_mapper_irq.c): every 8 KiB PRG bank and every
 * 1 KiB CHR bank is filled with its own number, so a window shows which bank it holds; the last bank's vectors point
 * at $E000. And the probes those tests share: register writes through the cartridge's CPU-side entry
 * (rg__nes_cart_write), the bank behind a CPU address, the nametable page behind each window. Needs cmocka
 * (test_support.h) and nes_harness.h included first. */
#ifndef RG_TESTS_CORES_NES_BANKED_IMAGE_H
#define RG_TESTS_CORES_NES_BANKED_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint8_t *nes_banked_image(unsigned mapper, unsigned prg16, unsigned chr8, uint8_t flags6, size_t *len)
{
    size_t prg = (size_t)prg16 * 16384, chr = (size_t)chr8 * 8192, n = 16 + prg + chr;
    uint8_t *img = calloc(1, n);
    assert_non_null(img);
    memcpy(img, "NES\x1A", 4);
    img[4] = (uint8_t)prg16;
    img[5] = (uint8_t)chr8;
    img[6] = (uint8_t)((mapper & 15u) << 4 | flags6);
    img[7] = (uint8_t)(mapper & 0xF0u);
    for (size_t i = 0; i < prg; i++)
        img[16 + i] = (uint8_t)(i / 8192);
    for (size_t i = 0; i < chr; i++)
        img[16 + prg + i] = (uint8_t)(i / 1024);
    /* the vectors of the last bank: $E000 (a test that runs the machine writes its own program there) */
    img[16 + prg - 6] = img[16 + prg - 4] = img[16 + prg - 2] = 0x00;
    img[16 + prg - 5] = img[16 + prg - 3] = img[16 + prg - 1] = 0xE0;
    *len = n;
    return img;
}

static inline void nes_open_banked(nes_harness *h, unsigned mapper, unsigned prg16, unsigned chr8, uint8_t flags6)
{
    size_t len;
    uint8_t *img = nes_banked_image(mapper, prg16, chr8, flags6, &len);
    if (nes_harness_open_bytes(h, img, len) != RG_OK)
        fail_msg("mapper %u: %s", mapper, rg_error_last());
    free(img);
}

/* a register write, two cycles after the one before (writes on consecutive cycles are a case of their own: MMC1) */
static inline void nes_cart_wr(nes_harness *h, uint16_t addr, uint8_t v)
{
    h->m->st.cycles += 2;
    rg__nes_cart_write(h->m, addr, v);
}

/* the 8 KiB PRG bank at a CPU address (the bytes hold their bank number; the vectors aside) */
static inline unsigned nes_prg_at(nes_harness *h, uint16_t addr)
{
    return rg__nes_cart_read(h->m, addr);
}

/* which of the 1 KiB nametable pages each of the four windows shows */
static inline void nes_expect_nt(nes_harness *h, unsigned a, unsigned b, unsigned c, unsigned d)
{
    unsigned want[4] = {a, b, c, d};
    for (int i = 0; i < 4; i++)
        assert_int_equal((size_t)(h->m->nt_map[i] - h->m->st.cart.vram) / 1024u, want[i]);
}

#endif
