/* The Genesis cartridges that save in a serial (I2C) EEPROM (genesis_eeprom.c, docs/genesis.md "Cartridge"): the
 * board by the header's product code, and the chip's protocol as Genesis Plus GX (stable-retro's build) runs it. The
 * EEPROM's array is the cartridge's backup RAM buffer (rg__gen_cart.sram, the game's save RAM). */
#ifndef RG_SRC_CORES_GENESIS_GENESIS_EEPROM_H
#define RG_SRC_CORES_GENESIS_GENESIS_EEPROM_H

#include <stddef.h>
#include <stdint.h>

/* The boards (not state: from the ROM's header). */
enum {
    RG__GEN_EEPROM_NONE = 0,
    RG__GEN_EEPROM_EA,          /* EA: $200000-$3FFFFF, SCL D6, SDA D7 (in and out), byte writes at odd addresses */
    RG__GEN_EEPROM_SEGA,        /* Sega: $200000-$3FFFFF, SCL D1, SDA D0 (in and out), byte writes at odd addresses */
    RG__GEN_EEPROM_ACCLAIM16,   /* Acclaim 16 Mbit: $200000-$3FFFFF, SCL D1, SDA in D0, out D1, any write */
    RG__GEN_EEPROM_ACCLAIM32,   /* Acclaim 32 Mbit: writes to $200000-$2FFFFF: odd byte SDA D0, even byte SCL D0, a
                                 * word maps the EEPROM (D0 = 0) or the ROM (D0 = 1) for reads there; SDA out D0 */
};

typedef struct rg__gen_eeprom_board {
    uint8_t kind;      /* RG__GEN_EEPROM_* */
    uint8_t addr_bits; /* 7: X24C01 (the word address in the first byte), 8 or 16: 24Cxx (device, word address) */
    uint8_t scl_bit, sda_in_bit, sda_out_bit;
    uint16_t size_mask; /* the array's size - 1 */
    uint16_t page_mask; /* a page write's size - 1 */
} rg__gen_eeprom_board;

/* The chip's part of the machine state (plain data, in rg__gen_cart). */
typedef struct rg__gen_eeprom {
    uint8_t sda, scl, old_sda, old_scl; /* the lines as last written and before that */
    uint8_t cycles;                     /* the clock within the byte (0-9, 9 the acknowledge) */
    uint8_t rw;                         /* the operation: 1 read */
    uint8_t phase;                      /* what the chip waits for (genesis_eeprom.c) */
    uint8_t buffer;                     /* the byte being written */
    uint16_t dev;                       /* the device address's array bits */
    uint16_t word;                      /* the word address */
    uint8_t rom_reads;                  /* Acclaim 32 Mbit: reads of $200000-$2FFFFF see the ROM (1) or the EEPROM */
    uint8_t pad_[3];
} rg__gen_eeprom;

/* The board of a ROM: by product code ("product", the header's 12 bytes at $182 with NULs as spaces, checked by the
 * caller against its SRAM-patched copies), or for a header declaring an EEPROM the Sega board. Returns the kind. */
int rg__gen_eeprom_board_of(const char *product, int header_says_eeprom, rg__gen_eeprom_board *b);
void rg__gen_eeprom_power_on(rg__gen_eeprom *e);
/* RG_OK or RG_ESTATE naming the field. */
int rg__gen_eeprom_check(const rg__gen_eeprom_board *b, const rg__gen_eeprom *e);
/* The board's reads: whether addr (even, below $400000) reads the EEPROM, and the word read there. */
int rg__gen_eeprom_reads(const rg__gen_eeprom_board *b, const rg__gen_eeprom *e, uint32_t addr);
uint16_t rg__gen_eeprom_read16(const rg__gen_eeprom_board *b, const rg__gen_eeprom *e, const uint8_t *array);
/* A write below $400000 (sel as rg__gen_cart_write16): 1 when the board took it. */
int rg__gen_eeprom_write16(const rg__gen_eeprom_board *b, rg__gen_eeprom *e, uint8_t *array, uint32_t addr,
                           uint16_t v, int sel);

#endif
