/* Atari 2600 cartridges: bank switching, extra RAM ports, FE/3F/UA bus snooping, detection and rejection, all on
 * synthetic images built here (no commercial ROMs). */
#include "test_support.h"

#include "cores/atari2600/cart.h"

#include <stdlib.h>
#include <string.h>

#define OPEN_BUS 0xA5

/* An image whose every byte of bank b (of bank_size bytes) is b. */
static uint8_t *banked_image(size_t size, size_t bank_size)
{
    uint8_t *rom = malloc(size);
    assert_non_null(rom);
    for (size_t i = 0; i < size; i++)
        rom[i] = (uint8_t)(i / bank_size);
    return rom;
}

/* An image with no filler areas, no two equal 2 KiB blocks (up to 32 KiB) and no opcode bytes: detection falls
 * through to the size default. */
static uint8_t *plain_image(size_t size)
{
    uint8_t *rom = malloc(size);
    assert_non_null(rom);
    for (size_t i = 0; i < size; i++)
        rom[i] = (uint8_t)((i & 1) ? (i >> 11) & 0x0F : 0x10 | ((i >> 1) & 0x0F));
    return rom;
}

static void put(uint8_t *rom, size_t at, const uint8_t *bytes, size_t n)
{
    memcpy(rom + at, bytes, n);
}

static uint8_t rd(rg__a26_cart *c, const uint8_t *rom, uint16_t addr)
{
    return rg__a26_cart_read(c, rom, addr, OPEN_BUS);
}

static void wr(rg__a26_cart *c, const uint8_t *rom, uint16_t addr, uint8_t v)
{
    rg__a26_cart_write(c, rom, addr, v);
}

static void init_ok(rg__a26_cart *c, rg__a26_cart_type t, const uint8_t *rom, size_t size)
{
    int rc = rg__a26_cart_init(c, t, rom, size);
    if (rc != RG_OK)
        fail_msg("init %s: %s", rg__a26_cart_type_name(t), rg_error_last());
}

/* F8/F6/F4: start bank, switching on reads and on writes of each hot spot, other addresses leave the bank. */
static void atari_banks(void **state)
{
    (void)state;
    static const struct { rg__a26_cart_type t; unsigned banks, hot, start; } cases[] = {
        {RG__A26_CART_F8, 2, 0x1FF8, 1}, {RG__A26_CART_F6, 4, 0x1FF6, 0}, {RG__A26_CART_F4, 8, 0x1FF4, 0},
        {RG__A26_CART_F8SC, 2, 0x1FF8, 1}, {RG__A26_CART_F6SC, 4, 0x1FF6, 0}, {RG__A26_CART_F4SC, 8, 0x1FF4, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t size = cases[k].banks * 4096u;
        uint8_t *rom = banked_image(size, 4096);
        rg__a26_cart c;
        init_ok(&c, cases[k].t, rom, size);
        assert_int_equal(c.bank, cases[k].start);
        assert_int_equal(rd(&c, rom, 0x1200), cases[k].start);
        assert_int_equal(rd(&c, rom, 0x1FFC), cases[k].start); /* reset vector area, no switch */
        for (unsigned b = 0; b < cases[k].banks; b++) {
            /* Reading a hot spot returns the byte of the bank it selects. */
            assert_int_equal(rd(&c, rom, (uint16_t)(cases[k].hot + b)), b);
            assert_int_equal(rd(&c, rom, 0x1800), b);
            assert_int_equal(rd(&c, rom, 0x1FF0), b);
        }
        for (unsigned b = cases[k].banks; b-- > 0;) {
            wr(&c, rom, (uint16_t)(cases[k].hot + b), 0x00);
            assert_int_equal(rd(&c, rom, 0x1400), b);
        }
        /* The bytes before the first and after the last hot spot do not switch; the CPU's $Fxxx address of a hot
         * spot does (only the low 12 bits count). */
        wr(&c, rom, (uint16_t)(cases[k].hot + 1), 0);
        rd(&c, rom, (uint16_t)(cases[k].hot - 1));
        rd(&c, rom, (uint16_t)(cases[k].hot + cases[k].banks));
        assert_int_equal(rd(&c, rom, 0x1400), 1);
        assert_int_equal(rd(&c, rom, (uint16_t)(0xF000 | (cases[k].hot & 0xFFF))), 0);
        free(rom);
    }
}

/* Superchip: 128 bytes written at $1000-$107F read back at $1080-$10FF in every bank; a read of the write port
 * stores the open-bus byte; a write to the read port is ignored. */
static void superchip_ram(void **state)
{
    (void)state;
    static const rg__a26_cart_type types[] = {RG__A26_CART_F8SC, RG__A26_CART_F6SC, RG__A26_CART_F4SC};
    static const size_t sizes[] = {8192, 16384, 32768};
    for (size_t k = 0; k < 3; k++) {
        uint8_t *rom = banked_image(sizes[k], 4096);
        rg__a26_cart c;
        init_ok(&c, types[k], rom, sizes[k]);
        for (unsigned i = 0; i < 128; i++)
            assert_int_equal(rd(&c, rom, (uint16_t)(0x1080 + i)), 0); /* power-on RAM is zero */
        for (unsigned i = 0; i < 128; i++)
            wr(&c, rom, (uint16_t)(0x1000 + i), (uint8_t)(i * 3 + 1));
        rd(&c, rom, 0x1FF9); /* another bank: the RAM is the same */
        for (unsigned i = 0; i < 128; i++)
            assert_int_equal(rd(&c, rom, (uint16_t)(0x1080 + i)), (uint8_t)(i * 3 + 1));
        wr(&c, rom, 0x1085, 0x77);
        assert_int_equal(rd(&c, rom, 0x1085), 16);
        assert_int_equal(rg__a26_cart_read(&c, rom, 0x1005, 0x5A), 0x5A);
        assert_int_equal(rd(&c, rom, 0x1085), 0x5A);
        /* Just above the read port is ROM again. */
        assert_int_equal(rd(&c, rom, 0x1100), c.bank);
        free(rom);
    }
}

static void e0_slices(void **state)
{
    (void)state;
    uint8_t *rom = banked_image(8192, 1024);
    rg__a26_cart c;
    init_ok(&c, RG__A26_CART_E0, rom, 8192);
    assert_int_equal(rd(&c, rom, 0x1000), 4);
    assert_int_equal(rd(&c, rom, 0x1400), 5);
    assert_int_equal(rd(&c, rom, 0x1800), 6);
    assert_int_equal(rd(&c, rom, 0x1C00), 7);
    for (unsigned s = 0; s < 3; s++)
        for (unsigned b = 0; b < 8; b++) {
            uint16_t hot = (uint16_t)(0x1FE0 + s * 8 + b);
            if (b & 1)
                wr(&c, rom, hot, 0xFF);
            else
                assert_int_equal(rd(&c, rom, hot), 7); /* hot spots sit in the fixed slice */
            assert_int_equal(rd(&c, rom, (uint16_t)(0x1000 + s * 0x400 + 0x123)), b);
            assert_int_equal(rd(&c, rom, (uint16_t)(0x13FF + s * 0x400)), b);
            assert_int_equal(rd(&c, rom, 0x1FFF), 7);
        }
    /* Each slice kept its last choice (bank 7); $1FF8-$1FFF switch nothing. */
    rd(&c, rom, 0x1FE2);
    rd(&c, rom, 0x1FF8);
    assert_int_equal(rd(&c, rom, 0x1000), 2);
    assert_int_equal(rd(&c, rom, 0x1400), 7);
    assert_int_equal(rd(&c, rom, 0x1800), 7);
    free(rom);
}

static void tigervision_3f(void **state)
{
    (void)state;
    const size_t size = 16384; /* 8 banks of 2 KiB */
    uint8_t *rom = banked_image(size, 2048);
    rg__a26_cart c;
    init_ok(&c, RG__A26_CART_3F, rom, size);
    assert_true(rg__a26_cart_snoops(&c));
    assert_int_equal(rd(&c, rom, 0x1000), 0);
    assert_int_equal(rd(&c, rom, 0x17FF), 0);
    assert_int_equal(rd(&c, rom, 0x1800), 7); /* last 2 KiB fixed */
    rg__a26_cart_snoop(&c, 0x003F, 3, 1);
    assert_int_equal(rd(&c, rom, 0x1000), 3);
    rg__a26_cart_snoop(&c, 0x0000, 5, 1); /* any write to $00-$3F */
    assert_int_equal(rd(&c, rom, 0x1234), 5);
    rg__a26_cart_snoop(&c, 0x003F, 2, 0); /* reads do not switch */
    rg__a26_cart_snoop(&c, 0x0040, 2, 1); /* nor writes above $3F */
    rg__a26_cart_snoop(&c, 0x0280, 2, 1);
    assert_int_equal(rd(&c, rom, 0x1234), 5);
    rg__a26_cart_snoop(&c, 0x003F, 8 + 6, 1); /* bank numbers wrap to the image */
    assert_int_equal(rd(&c, rom, 0x1000), 6);
    assert_int_equal(rd(&c, rom, 0x1FFF), 7);
    free(rom);
}

/* FE: the data byte of the access after $01FE selects the bank by bit 5 (set: first 4 KiB, as at $Fxxx). */
static void activision_fe(void **state)
{
    (void)state;
    uint8_t *rom = banked_image(8192, 4096);
    rom[0x0100] = 0xD0; /* bank 0 operand: JSR $Dxxx high byte */
    rom[0x1100] = 0xF0; /* bank 1 operand: JSR $Fxxx high byte */
    rg__a26_cart c;
    init_ok(&c, RG__A26_CART_FE, rom, 8192);
    assert_true(rg__a26_cart_snoops(&c));
    assert_int_equal(rd(&c, rom, 0x1000), 0);

    /* JSR from bank 0 to $D000: dummy read $01FF, push PCH to $01FF, PCL to $01FE, fetch the target high byte. */
    rg__a26_cart_snoop(&c, 0x01FF, 0x33, 0);
    rg__a26_cart_snoop(&c, 0x01FF, 0xF0, 1);
    rg__a26_cart_snoop(&c, 0x01FE, 0x12, 1);
    assert_int_equal(rd(&c, rom, 0x1100), 0xD0); /* the operand comes from the old bank */
    assert_int_equal(rd(&c, rom, 0x1000), 1);
    assert_int_equal(c.bank, 1);

    /* RTS back: dummy read $01FD, pull PCL from $01FE, pull PCH ($F0) from $01FF. */
    rg__a26_cart_snoop(&c, 0x01FD, 0x00, 0);
    rg__a26_cart_snoop(&c, 0x01FE, 0x12, 0);
    rg__a26_cart_snoop(&c, 0x01FF, 0xF0, 0);
    assert_int_equal(rd(&c, rom, 0x1000), 0);

    /* Only the access right after $01FE counts; other stack slots and data bytes do nothing. */
    rg__a26_cart_snoop(&c, 0x01FC, 0xD0, 1);
    rg__a26_cart_snoop(&c, 0x01FF, 0xD0, 1);
    rg__a26_cart_snoop(&c, 0x00FE, 0xD0, 1);
    assert_int_equal(rd(&c, rom, 0x1000), 0);
    rg__a26_cart_snoop(&c, 0x01FE, 0x00, 1);
    assert_int_equal(rd(&c, rom, 0x1300), 0); /* byte 0x00: bit 5 clear, bank 1 from now on */
    assert_int_equal(rd(&c, rom, 0x1300), 1);
    /* A write into cart space right after $01FE uses the written byte. */
    rg__a26_cart_snoop(&c, 0x01FE, 0x00, 1);
    wr(&c, rom, 0x1000, 0x20);
    assert_int_equal(rd(&c, rom, 0x1FFF), 0);
    assert_int_equal(c.fe_armed, 0);

    /* The state is plain data: a copy taken while armed resolves the same way. */
    rg__a26_cart_snoop(&c, 0x01FE, 0x00, 0);
    rg__a26_cart copy;
    memcpy(&copy, &c, sizeof c);
    rg__a26_cart_snoop(&c, 0x01FF, 0xD0, 0);
    rg__a26_cart_snoop(&copy, 0x01FF, 0xD0, 0);
    assert_memory_equal(&c, &copy, sizeof c);
    assert_int_equal(rd(&copy, rom, 0x1000), 1);
    free(rom);
}

static void cbs_fa(void **state)
{
    (void)state;
    uint8_t *rom = banked_image(12288, 4096);
    rg__a26_cart c;
    init_ok(&c, RG__A26_CART_FA, rom, 12288);
    assert_int_equal(rd(&c, rom, 0x1400), 2);
    for (unsigned i = 0; i < 256; i++)
        wr(&c, rom, (uint16_t)(0x1000 + i), (uint8_t)(255 - i));
    for (unsigned b = 0; b < 3; b++) {
        rd(&c, rom, (uint16_t)(0x1FF8 + b));
        assert_int_equal(rd(&c, rom, 0x1200), b);
        for (unsigned i = 0; i < 256; i += 17)
            assert_int_equal(rd(&c, rom, (uint16_t)(0x1100 + i)), (uint8_t)(255 - i));
    }
    wr(&c, rom, 0x1FF8, 0);
    assert_int_equal(rd(&c, rom, 0x1FFB), 0);
    rd(&c, rom, 0x1FFB); /* not a hot spot */
    assert_int_equal(rd(&c, rom, 0x1300), 0);
    assert_int_equal(rd(&c, rom, 0x10FF), OPEN_BUS); /* write port read: open bus, stored */
    assert_int_equal(rd(&c, rom, 0x11FF), OPEN_BUS);
    wr(&c, rom, 0x11FF, 1); /* read port write: ignored */
    assert_int_equal(rd(&c, rom, 0x11FF), OPEN_BUS);
    free(rom);
}

static void mnetwork_e7(void **state)
{
    (void)state;
    uint8_t *rom = banked_image(16384, 2048);
    rg__a26_cart c;
    init_ok(&c, RG__A26_CART_E7, rom, 16384);
    assert_int_equal(rd(&c, rom, 0x1000), 0);
    assert_int_equal(rd(&c, rom, 0x17FF), 0);
    assert_int_equal(rd(&c, rom, 0x1A00), 7);
    assert_int_equal(rd(&c, rom, 0x1FFF), 7);
    for (unsigned b = 0; b < 7; b++) {
        rd(&c, rom, (uint16_t)(0x1FE0 + b));
        assert_int_equal(rd(&c, rom, 0x1000), b);
        assert_int_equal(rd(&c, rom, 0x1456), b);
        assert_int_equal(rd(&c, rom, 0x1C00), 7);
    }
    /* Bank 7 at $1000: 1 KiB RAM, write $1000-$13FF, read $1400-$17FF. */
    wr(&c, rom, 0x1FE7, 0);
    for (unsigned i = 0; i < 1024; i += 7)
        wr(&c, rom, (uint16_t)(0x1000 + i), (uint8_t)(i >> 2));
    for (unsigned i = 0; i < 1024; i += 7)
        assert_int_equal(rd(&c, rom, (uint16_t)(0x1400 + i)), (uint8_t)(i >> 2));
    /* 256-byte RAM banks: write $1800-$18FF, read $1900-$19FF. */
    for (unsigned rb = 0; rb < 4; rb++) {
        wr(&c, rom, (uint16_t)(0x1FE8 + rb), 0);
        assert_int_equal(rd(&c, rom, 0x1910), 0);
        wr(&c, rom, 0x1810, (uint8_t)(0x40 + rb));
    }
    for (unsigned rb = 0; rb < 4; rb++) {
        rd(&c, rom, (uint16_t)(0x1FE8 + rb));
        assert_int_equal(rd(&c, rom, 0x1910), 0x40 + rb);
    }
    /* The 1 KiB RAM survives switching it out and back. */
    rd(&c, rom, 0x1FE3);
    assert_int_equal(rd(&c, rom, 0x1400), 3);
    wr(&c, rom, 0x1000, 0x99); /* ROM: ignored */
    rd(&c, rom, 0x1FE7);
    assert_int_equal(rd(&c, rom, 0x1400 + 7), 1);
    assert_int_equal(rd(&c, rom, 0x1000 + 7), OPEN_BUS);
    assert_int_equal(rd(&c, rom, 0x1400 + 7), OPEN_BUS);
    assert_int_equal(rd(&c, rom, 0x1910), 0x43);
    free(rom);
}

static void commavid_cv(void **state)
{
    (void)state;
    uint8_t *rom = banked_image(4096, 1024); /* 1 KiB initial RAM (0s), then 1 KiB 1s; ROM is bytes 2048.. */
    rg__a26_cart c;
    init_ok(&c, RG__A26_CART_CV, rom, 4096);
    assert_int_equal(rd(&c, rom, 0x1800), 2);
    assert_int_equal(rd(&c, rom, 0x1FFF), 3);
    memset(rom, 0x42, 1024);
    init_ok(&c, RG__A26_CART_CV, rom, 4096);
    assert_int_equal(rd(&c, rom, 0x1000), 0x42); /* initial RAM from the image */
    wr(&c, rom, 0x1400 + 10, 0x11);
    assert_int_equal(rd(&c, rom, 0x1000 + 10), 0x11);
    wr(&c, rom, 0x1000 + 10, 0x22); /* read port: ignored */
    assert_int_equal(rd(&c, rom, 0x1000 + 10), 0x11);
    init_ok(&c, RG__A26_CART_CV, rom + 2048, 2048);
    assert_int_equal(rd(&c, rom + 2048, 0x1000), 0);
    assert_int_equal(rd(&c, rom + 2048, 0x1800), 2);
    free(rom);
}

static void ua_limited(void **state)
{
    (void)state;
    uint8_t *rom = banked_image(8192, 4096);
    rg__a26_cart c;
    init_ok(&c, RG__A26_CART_UA, rom, 8192);
    assert_true(rg__a26_cart_snoops(&c));
    assert_int_equal(rd(&c, rom, 0x1000), 0);
    rg__a26_cart_snoop(&c, 0x0240, 0, 0);
    assert_int_equal(rd(&c, rom, 0x1000), 1);
    rg__a26_cart_snoop(&c, 0x0221, 0, 0);
    rg__a26_cart_snoop(&c, 0x0241, 0, 1);
    assert_int_equal(rd(&c, rom, 0x1FFF), 1);
    rg__a26_cart_snoop(&c, 0x0220, 0, 1);
    assert_int_equal(rd(&c, rom, 0x1FFF), 0);
    free(rom);
}

static void small_carts(void **state)
{
    (void)state;
    uint8_t *rom = banked_image(4096, 1024);
    rg__a26_cart c;
    init_ok(&c, RG__A26_CART_2K, rom, 2048);
    assert_false(rg__a26_cart_snoops(&c));
    assert_int_equal(rd(&c, rom, 0x1000), 0);
    assert_int_equal(rd(&c, rom, 0x1400), 1);
    assert_int_equal(rd(&c, rom, 0x1800), 0); /* mirror */
    assert_int_equal(rd(&c, rom, 0x1FFF), 1);
    init_ok(&c, RG__A26_CART_4K, rom, 4096);
    assert_int_equal(rd(&c, rom, 0x1800), 2);
    assert_int_equal(rd(&c, rom, 0x1FFF), 3);
    wr(&c, rom, 0x1FF8, 0);
    assert_int_equal(rd(&c, rom, 0x1FFF), 3);
    /* Sizes that do not fit the type are refused. */
    assert_int_equal(rg__a26_cart_init(&c, RG__A26_CART_2K, rom, 4096), RG__A26_CART_EFORMAT);
    assert_non_null(strstr(rg_error_last(), "2K cartridge needs"));
    assert_int_equal(rg__a26_cart_init(&c, RG__A26_CART_F8, rom, 4096), RG__A26_CART_EFORMAT);
    assert_non_null(strstr(rg_error_last(), "4096 bytes"));
    assert_int_equal(rg__a26_cart_init(&c, RG__A26_CART_3F, rom, 3000), RG__A26_CART_EFORMAT);
    free(rom);
}

static void names(void **state)
{
    (void)state;
    for (int t = 0; t < RG__A26_CART_COUNT; t++) {
        rg__a26_cart_type back;
        const char *n = rg__a26_cart_type_name((rg__a26_cart_type)t);
        assert_int_equal(rg__a26_cart_type_from_name(n, &back), RG_OK);
        assert_int_equal(back, t);
    }
    rg__a26_cart_type t;
    assert_int_equal(rg__a26_cart_type_from_name("f8sc", &t), RG_OK);
    assert_int_equal(t, RG__A26_CART_F8SC);
    assert_int_equal(rg__a26_cart_type_from_name("e0", &t), RG_OK);
    assert_int_equal(t, RG__A26_CART_E0);
    assert_int_equal(rg__a26_cart_type_from_name("F8S", &t), RG_EINVAL);
    assert_int_equal(rg__a26_cart_type_from_name("F8SCX", &t), RG_EINVAL);
    assert_int_equal(rg__a26_cart_type_from_name("", &t), RG_EINVAL);
    assert_string_equal(rg__a26_cart_type_name(RG__A26_CART_COUNT), "?");
}

static rg__a26_cart_type detect_ok(const uint8_t *rom, size_t size)
{
    rg__a26_cart_type t = RG__A26_CART_COUNT;
    if (rg__a26_cart_detect(rom, size, &t) != RG_OK)
        fail_msg("detect %zu bytes: %s", size, rg_error_last());
    return t;
}

/* One synthetic image per layout, carrying the code signature that identifies it. */
static void detection(void **state)
{
    (void)state;
    uint8_t *rom;
    static const uint8_t cv_sig[] = {0x9D, 0xFF, 0xF3}, e0_sig[] = {0xAD, 0xE0, 0x1F}, e7_sig[] = {0x8D, 0xE7, 0x1F},
                         sta3f[] = {0x85, 0x3F}, ua_sig[] = {0x8D, 0x40, 0x02},
                         fe_sig[] = {0x20, 0x00, 0xD0, 0xC6, 0xC5}, sta1ff9[] = {0x8D, 0xF9, 0x1F},
                         sta3e[] = {0x85, 0x3E, 0xA9, 0x00};

    rom = plain_image(2048);
    assert_int_equal(detect_ok(rom, 2048), RG__A26_CART_2K);
    put(rom, 100, cv_sig, 3);
    assert_int_equal(detect_ok(rom, 2048), RG__A26_CART_CV);
    free(rom);

    rom = plain_image(4096);
    assert_int_equal(detect_ok(rom, 4096), RG__A26_CART_4K);
    memcpy(rom + 2048, rom, 2048); /* a doubled 2K dump */
    assert_int_equal(detect_ok(rom, 4096), RG__A26_CART_2K);
    free(rom);
    rom = plain_image(4096);
    put(rom, 3000, cv_sig, 3);
    assert_int_equal(detect_ok(rom, 4096), RG__A26_CART_CV);
    free(rom);

    /* 8K: F8 by default; the signatures in Stella's order. */
    rom = plain_image(8192);
    assert_int_equal(detect_ok(rom, 8192), RG__A26_CART_F8);
    put(rom, 5000, fe_sig, 5);
    assert_int_equal(detect_ok(rom, 8192), RG__A26_CART_FE);
    put(rom, 6000, sta1ff9, 3); /* one STA $1FF9 is not enough to call it F8 */
    assert_int_equal(detect_ok(rom, 8192), RG__A26_CART_FE);
    put(rom, 6100, sta1ff9, 3);
    assert_int_equal(detect_ok(rom, 8192), RG__A26_CART_F8);
    put(rom, 7000, ua_sig, 3);
    assert_int_equal(detect_ok(rom, 8192), RG__A26_CART_UA);
    put(rom, 10, sta3f, 2);
    assert_int_equal(detect_ok(rom, 8192), RG__A26_CART_UA); /* one STA $3F is not enough */
    put(rom, 4100, sta3f, 2);
    assert_int_equal(detect_ok(rom, 8192), RG__A26_CART_3F);
    put(rom, 300, e0_sig, 3);
    assert_int_equal(detect_ok(rom, 8192), RG__A26_CART_E0);
    memcpy(rom + 4096, rom, 4096);
    assert_int_equal(detect_ok(rom, 8192), RG__A26_CART_4K);
    memset(rom, 0xFF, 256); /* filler RAM areas in both banks: Superchip */
    memset(rom + 4096, 0x00, 256);
    assert_int_equal(detect_ok(rom, 8192), RG__A26_CART_F8SC);
    rom[4096 + 200] = 1;
    assert_int_not_equal(detect_ok(rom, 8192), RG__A26_CART_F8SC);
    free(rom);

    rom = plain_image(12288);
    assert_int_equal(detect_ok(rom, 12288), RG__A26_CART_FA);
    free(rom);

    rom = plain_image(16384);
    assert_int_equal(detect_ok(rom, 16384), RG__A26_CART_F6);
    put(rom, 9000, e7_sig, 3);
    assert_int_equal(detect_ok(rom, 16384), RG__A26_CART_E7);
    for (size_t b = 0; b < 16384; b += 4096)
        memset(rom + b, 0xEA, 256);
    assert_int_equal(detect_ok(rom, 16384), RG__A26_CART_F6SC);
    free(rom);

    rom = plain_image(32768);
    assert_int_equal(detect_ok(rom, 32768), RG__A26_CART_F4);
    put(rom, 100, sta3f, 2);
    put(rom, 20000, sta3f, 2);
    assert_int_equal(detect_ok(rom, 32768), RG__A26_CART_3F);
    for (size_t b = 0; b < 32768; b += 4096)
        memset(rom + b, 0x00, 256);
    assert_int_equal(detect_ok(rom, 32768), RG__A26_CART_F4SC);
    free(rom);

    /* Big Tigervision images. */
    rom = plain_image(65536);
    put(rom, 100, sta3f, 2);
    put(rom, 30000, sta3f, 2);
    assert_int_equal(detect_ok(rom, 65536), RG__A26_CART_3F);
    put(rom, 40000, sta3e, 4);
    rg__a26_cart_type t;
    assert_int_equal(rg__a26_cart_detect(rom, 65536, &t), RG__A26_CART_EFORMAT);
    free(rom);

    /* Known layouts we do not emulate are named. */
    rom = plain_image(8192);
    put(rom, 100, sta3e, 4);
    assert_int_equal(rg__a26_cart_detect(rom, 8192, &t), RG__A26_CART_EFORMAT);
    assert_non_null(strstr(rg_error_last(), "3E"));
    free(rom);
    rom = plain_image(10495);
    assert_int_equal(rg__a26_cart_detect(rom, 10495, &t), RG__A26_CART_EFORMAT);
    assert_non_null(strstr(rg_error_last(), "DPC"));
    free(rom);
    rom = plain_image(8448);
    assert_int_equal(rg__a26_cart_detect(rom, 8448, &t), RG__A26_CART_EFORMAT);
    assert_non_null(strstr(rg_error_last(), "Supercharger"));
    free(rom);
}

/* Sizes no layout fits: a clear message with the size. */
static void rejection(void **state)
{
    (void)state;
    rg__a26_cart_type t = RG__A26_CART_COUNT;
    uint8_t *rom = plain_image(1u << 20);
    assert_int_equal(rg__a26_cart_detect(rom, 3000, &t), RG__A26_CART_EFORMAT);
    assert_non_null(strstr(rg_error_last(), "3000-byte image"));
    assert_non_null(strstr(rg_error_last(), "supported:"));
    assert_int_equal(rg__a26_cart_detect(rom, 0, &t), RG__A26_CART_EFORMAT);
    assert_non_null(strstr(rg_error_last(), "empty"));
    assert_int_equal(rg__a26_cart_detect(NULL, 0, &t), RG__A26_CART_EFORMAT);
    assert_int_equal(rg__a26_cart_detect(rom, 1u << 20, &t), RG__A26_CART_EFORMAT);
    assert_non_null(strstr(rg_error_last(), "1048576-byte image"));
    assert_int_equal(rg__a26_cart_detect(rom, 1024, &t), RG__A26_CART_EFORMAT);
    assert_non_null(strstr(rg_error_last(), "1024 bytes"));
    assert_int_equal(rg__a26_cart_detect(rom, 8191, &t), RG__A26_CART_EFORMAT);
    assert_int_equal(t, RG__A26_CART_COUNT); /* untouched on failure */
    free(rom);
}

/* Snapshots are copies: a cart copied mid-game behaves exactly like the original from then on. */
static void copy_is_snapshot(void **state)
{
    (void)state;
    uint8_t *rom = banked_image(16384, 2048);
    rg__a26_cart a, b;
    init_ok(&a, RG__A26_CART_E7, rom, 16384);
    wr(&a, rom, 0x1FE7, 0);
    wr(&a, rom, 0x1003, 9);
    wr(&a, rom, 0x1FE9, 0);
    wr(&a, rom, 0x1803, 8);
    memcpy(&b, &a, sizeof a);
    for (unsigned i = 0; i < 4000; i++) {
        uint16_t addr = (uint16_t)(0x1000 + (i * 2654435761u >> 20) % 0x1000);
        if (i % 3 == 0) {
            wr(&a, rom, addr, (uint8_t)i);
            wr(&b, rom, addr, (uint8_t)i);
        } else {
            assert_int_equal(rd(&a, rom, addr), rd(&b, rom, addr));
        }
    }
    assert_memory_equal(&a, &b, sizeof a);
    free(rom);
}

/* States from outside: every layout's state after random traffic passes the check; tampered ones do not. */
static void state_check(void **state)
{
    (void)state;
    static const struct { rg__a26_cart_type t; size_t size; } cases[] = {
        {RG__A26_CART_2K, 2048},    {RG__A26_CART_4K, 4096},    {RG__A26_CART_F8, 8192},
        {RG__A26_CART_F8SC, 8192},  {RG__A26_CART_F6, 16384},   {RG__A26_CART_F6SC, 16384},
        {RG__A26_CART_F4, 32768},   {RG__A26_CART_F4SC, 32768}, {RG__A26_CART_FE, 8192},
        {RG__A26_CART_E0, 8192},    {RG__A26_CART_3F, 8192},    {RG__A26_CART_FA, 12288},
        {RG__A26_CART_E7, 16384},   {RG__A26_CART_CV, 2048},    {RG__A26_CART_UA, 8192},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint8_t *rom = banked_image(cases[k].size, 1024);
        rg__a26_cart c;
        init_ok(&c, cases[k].t, rom, cases[k].size);
        assert_int_equal(rg__a26_cart_check(&c, rom, cases[k].size), RG_OK);
        for (unsigned i = 0; i < 3000; i++) {
            uint32_t x = i * 2654435761u;
            uint16_t addr = (uint16_t)(0x1000 + (x >> 20) % 0x1000);
            if (i % 50 == 0)
                addr = (uint16_t)(0x1FE0 + (x >> 27));
            if (i % 3 == 0)
                wr(&c, rom, addr, (uint8_t)(x >> 8));
            else
                rd(&c, rom, addr);
            if (rg__a26_cart_snoops(&c))
                rg__a26_cart_snoop(&c, (uint16_t)((x >> 9) % 0x300), (uint8_t)x, i & 1);
            if (i % 97 == 0)
                rg__a26_cart_snoop(&c, i & 1 ? 0x01FE : 0x0240, (uint8_t)x, 1);
            if (rg__a26_cart_check(&c, rom, cases[k].size) != RG_OK)
                fail_msg("%s after %u accesses: %s", rg__a26_cart_type_name(cases[k].t), i, rg_error_last());
        }
        rg__a26_cart bad = c;
        bad.seg[1] += 4096;
        assert_int_equal(rg__a26_cart_check(&bad, rom, cases[k].size), RG_ESTATE);
        bad = c;
        bad.fast_len = 0x1000;
        bad.fast_lo = 0;
        if (memcmp(&bad, &c, sizeof c) != 0)
            assert_int_equal(rg__a26_cart_check(&bad, rom, cases[k].size), RG_ESTATE);
        bad = c;
        bad.bank = 200;
        assert_int_equal(rg__a26_cart_check(&bad, rom, cases[k].size), RG_ESTATE);
        bad = c;
        bad.ram_bank = 200;
        assert_int_equal(rg__a26_cart_check(&bad, rom, cases[k].size), RG_ESTATE);
        bad = c;
        bad.type = (uint8_t)((cases[k].t + 1) % RG__A26_CART_COUNT);
        assert_int_equal(rg__a26_cart_check(&bad, rom, cases[k].size), RG_ESTATE);
        bad = c;
        bad.type = RG__A26_CART_COUNT;
        assert_int_equal(rg__a26_cart_check(&bad, rom, cases[k].size), RG_ESTATE);
        assert_int_equal(rg__a26_cart_check(&c, rom, cases[k].size / 2), RG_ESTATE);
        free(rom);
    }
}

/* Stella's values: a read of a write port ORs the data bus with one generator draw; power-on RAM from the
 * generator in Stella's amounts. Other accesses leave the generator alone. */
static void stella_randomness(void **state)
{
    (void)state;
    uint8_t *rom = banked_image(16384, 2048);
    rg__a26_cart c;
    init_ok(&c, RG__A26_CART_F6SC, rom, 16384);
    uint32_t rng = 543, expect = 543;
    for (unsigned a = 0x1080; a < 0x2000; a += 0x35)
        rg__a26_cart_read_stella(&c, rom, (uint16_t)a, 0x12, &rng);
    rg__a26_cart_write(&c, rom, 0x1003, 7);
    assert_int_equal(rng, expect); /* ROM, read port, hot spots, writes: no draw */
    uint8_t v = rg__a26_cart_read_stella(&c, rom, 0x1003, 0x12, &rng);
    uint32_t draw = rg__a26_rng_next(&expect);
    assert_int_equal(rng, expect);
    assert_int_equal(v, (uint8_t)(0x12 | draw));
    assert_int_equal(rd(&c, rom, 0x1083), v);

    static const struct { rg__a26_cart_type t; size_t size; size_t n; } cases[] = {
        {RG__A26_CART_F8SC, 8192, 128}, {RG__A26_CART_F4SC, 32768, 128}, {RG__A26_CART_FA, 12288, 256},
        {RG__A26_CART_E7, 16384, 2048}, {RG__A26_CART_CV, 2048, 1024},   {RG__A26_CART_CV, 4096, 0},
        {RG__A26_CART_F8, 8192, 0},     {RG__A26_CART_E0, 8192, 0},      {RG__A26_CART_2K, 2048, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        init_ok(&c, cases[k].t, rom, cases[k].size);
        rng = expect = 1000;
        assert_int_equal(rg__a26_cart_randomize_ram(&c, &rng), cases[k].n);
        for (size_t i = 0; i < cases[k].n; i++)
            assert_int_equal(c.ram[i], (uint8_t)rg__a26_rng_next(&expect));
        assert_int_equal(rng, expect);
        assert_int_equal(rg__a26_cart_check(&c, rom, cases[k].size), RG_OK);
    }
    free(rom);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(atari_banks),   cmocka_unit_test(superchip_ram), cmocka_unit_test(e0_slices),
        cmocka_unit_test(tigervision_3f), cmocka_unit_test(activision_fe), cmocka_unit_test(cbs_fa),
        cmocka_unit_test(mnetwork_e7),   cmocka_unit_test(commavid_cv),   cmocka_unit_test(ua_limited),
        cmocka_unit_test(small_carts),   cmocka_unit_test(names),         cmocka_unit_test(detection),
        cmocka_unit_test(rejection),     cmocka_unit_test(copy_is_snapshot), cmocka_unit_test(state_check),
        cmocka_unit_test(stella_randomness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
