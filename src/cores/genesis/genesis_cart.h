/* The Genesis cartridge (genesis_cart.c, docs/genesis.md "Cartridge"): what each 64 KiB of $000000-$3FFFFF shows
 * (a ROM page or the backup RAM), the backup RAM (SRAM) the header's "RA" field declares, the $A130F1 SRAM
 * register and the 512 KiB bank registers $A130F3-$A130FF (Super Street Fighter II's mapper), as Genesis Plus GX
 * maps them under stable-retro. */
#ifndef RG_SRC_CORES_GENESIS_GENESIS_CART_H
#define RG_SRC_CORES_GENESIS_GENESIS_CART_H

#include <stddef.h>
#include <stdint.h>

#include "cores/genesis/genesis_eeprom.h"

#define RG__GEN_SRAM_SIZE 0x10000u
#define RG__GEN_CART_MAX (8u << 20) /* the largest ROM: 8 MiB, through the bank registers */

/* The cartridge's part of the machine state (plain data). */
typedef struct rg__gen_cart {
    uint8_t sram[RG__GEN_SRAM_SIZE]; /* backup RAM as Genesis Plus GX keeps it: the byte at 68000 address
                                      * slot * 64 KiB + a is sram[a], whatever the header's odd/even/word type */
    uint8_t page[64];       /* the ROM page (64 KiB units, 0 .. ROM size / 64 KiB - 1) each slot of 64 KiB shows */
    uint64_t sram_slots;    /* bit i: slot i shows the backup RAM instead of its ROM page */
    uint8_t sram_wp;        /* $A130F1 bit 1: the backup RAM in slot $20 ignores writes */
    uint8_t pad_[7];
    rg__gen_eeprom eeprom;  /* a serial EEPROM cartridge's chip (genesis_eeprom.c; its array is sram) */
} rg__gen_cart;

struct rg__gen_machine;

/* Reads the ROM's header (size already checked by the caller: 512 bytes to 8 MiB): where its backup RAM is, whether
 * it is a bank-switched cartridge. RG_OK, or RG_EINVAL / RG_EUNSUPPORTED with the reason (a ROM over 4 MiB without
 * the SSF2 mapper, a serial EEPROM cartridge) so that the environment falls back to another core. */
int rg__gen_cart_open(struct rg__gen_machine *m, const uint8_t *rom, size_t size);
/* Power-on: backup RAM filled with $FF, every slot its ROM page, the backup RAM in its slot. */
void rg__gen_cart_power_on(struct rg__gen_machine *m);
/* The reset button: a bank-switched cartridge maps its pages as at power-on. */
void rg__gen_cart_reset(struct rg__gen_machine *m);
/* After the state's cartridge fields changed from outside (a state loaded): the machine's read fast path. */
void rg__gen_cart_refresh(struct rg__gen_machine *m);
/* Checks a state's cartridge fields against the machine's cartridge; RG_OK or RG_ESTATE naming the field. */
int rg__gen_cart_check(const struct rg__gen_machine *m, const rg__gen_cart *c);

/* 68000 accesses below $400000 not served by the ROM fast path, and writes to $A13000-$A130FF (sel: 2 the high
 * byte, 1 the low byte, 3 the word; addr even). */
uint16_t rg__gen_cart_read16(const struct rg__gen_machine *m, uint32_t addr);
void rg__gen_cart_write16(struct rg__gen_machine *m, uint32_t addr, uint16_t v, int sel);
void rg__gen_cart_time_write(struct rg__gen_machine *m, uint32_t addr, uint16_t v, int sel);

#endif
