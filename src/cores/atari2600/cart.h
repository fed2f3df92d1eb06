/* Atari 2600 cartridges: layout detection, power-on state, and the CPU's view of $1000-$1FFF.
 *
 * The state is plain data (a snapshot is a copy); the ROM bytes stay outside it and are passed on every call.
 * Hot path: rg__a26_cart_read/write are inline and resolve ordinary ROM reads through precomputed 1 KiB slice
 * offsets; only RAM ports, hot spots and armed FE switches take the out-of-line slow path.
 *
 * Power-on: start banks as Stella 3.9.3 (F8/F8SC bank 1 (bank 0 for five reversed dumps, by MD5), F6/F4/UA/3F/E7/FE
 * bank 0, FA bank 2, E0 slices 4/5/6 with slice 3 fixed to bank 7, E7 RAM bank 0). Extra RAM powers on as zero,
 * except a 4 KiB CommaVid image whose first 1 KiB is the initial RAM contents (as Stella loads it);
 * rg__a26_cart_randomize_ram gives Stella's random contents instead. Superchip/FA/E7/CV RAM: a read of a write port
 * returns the open-bus value and stores it into the RAM cell (what the hardware and Stella do; see
 * rg__a26_cart_read_stella for Stella's exact value); a write to a read port is ignored. Bank-switch hot spots act
 * on reads and writes alike; a read of a hot spot returns the byte of the newly selected bank.
 *
 * FE (Activision) works like the real cartridge: after an access to $01FE (JSR's second push, RTS's first pull),
 * bit 5 of the next byte on the data bus (the target's or return address's high byte) selects the bank: set is
 * the $F000 bank (image offset 0), clear the $D000 bank (offset 4096). Stella 3.9.3 instead picks the bank from A13
 * of the CPU's 16-bit address on every access; both agree for code that switches banks by JSR/RTS as Activision's
 * games do (Robot Tank runs identically for 3,000 frames). */
#ifndef RG_SRC_CORES_ATARI2600_CART_H
#define RG_SRC_CORES_ATARI2600_CART_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

/* The error code of unknown or unsupported layouts and sizes (the message names the reason). */
#define RG__A26_CART_EFORMAT RG_EUNSUPPORTED

typedef enum rg__a26_cart_type {
    RG__A26_CART_2K, RG__A26_CART_4K, RG__A26_CART_F8, RG__A26_CART_F8SC,
    RG__A26_CART_F6, RG__A26_CART_F6SC, RG__A26_CART_F4, RG__A26_CART_F4SC, RG__A26_CART_FE, RG__A26_CART_E0,
    RG__A26_CART_3F, RG__A26_CART_FA, RG__A26_CART_E7, RG__A26_CART_CV, RG__A26_CART_UA,
    RG__A26_CART_COUNT
} rg__a26_cart_type;

#define RG__A26_CART_RAM_MAX 2048

typedef struct rg__a26_cart {
    /* seg[a >> 10] + a is the ROM offset of window offset a (a = addr & 0xFFF) for each 1 KiB slice. */
    uint32_t seg[4];
    /* Window offsets a with (unsigned)(a - fast_lo) < fast_len are plain ROM reads (and ignored writes). */
    uint16_t fast_lo, fast_len;
    uint16_t hot_lo;   /* F8/F6/F4/FA (+SC): window offset of the first hot spot (bank i at hot_lo + i) */
    uint16_t nbanks;   /* 4 KiB banks (F8/F6/F4/FA/UA/FE), 2 KiB banks (3F, E7) */
    uint32_t rom_size;
    uint8_t type;      /* rg__a26_cart_type */
    uint8_t bank;      /* current bank; E7: the 2 KiB bank at $1000-$17FF (7 = the 1 KiB RAM) */
    uint8_t slice[4];  /* E0: the 1 KiB bank in each slice (slice 3 is always 7) */
    uint8_t ram_bank;  /* E7: the 256-byte RAM bank at $1800-$19FF */
    uint8_t fe_armed;  /* FE: the previous bus access was $01FE; this access's data bit 5 picks the bank */
    uint8_t pad[4];
    uint8_t ram[RG__A26_CART_RAM_MAX]; /* Superchip 128 B, FA 256 B, CV 1 KiB, E7 1 KiB + 4 x 256 B */
} rg__a26_cart;

/* Detects the layout from size and signatures like Stella 3.9.3; RG__A26_CART_EFORMAT with a clear message for
 * unknown or unsupported layouts and sizes. */
int rg__a26_cart_detect(const uint8_t *rom, size_t size, rg__a26_cart_type *type);
/* Parses a type name ("F8SC", "e0", ... case-insensitive) for a caller override; RG_EINVAL for unknown names. */
int rg__a26_cart_type_from_name(const char *name, rg__a26_cart_type *type);
/* "F8SC"; "?" for out-of-range values. */
const char *rg__a26_cart_type_name(rg__a26_cart_type type);
/* Power-on state. Checks that the image size fits the type (RG__A26_CART_EFORMAT otherwise). The ROM pointer
 * given to read/write must be this image. */
int rg__a26_cart_init(rg__a26_cart *c, rg__a26_cart_type type, const uint8_t *rom, size_t size);

/* Checks a cart state taken from outside (a save state) against the image: same layout and size, registers in
 * range, and slice offsets and fast-path window exactly those the registers imply, so no access can leave the
 * ROM or the RAM. RG_ESTATE with a message otherwise. */
int rg__a26_cart_check(const rg__a26_cart *c, const uint8_t *rom, size_t size);

/* Re-applies the slice offsets and fast-path window that the registers (bank, slice, ram_bank, fe_armed) imply,
 * for a state built from outside (e.g. converted from another emulator's save state); check it afterwards with
 * rg__a26_cart_check. */
void rg__a26_cart_remap(rg__a26_cart *c);

/* Stella's random generator (Random::next), on which its undriven data bus bits and power-on RAM draw. */
#define RG__A26_RNG_MOD 1771875u /* its values are below this */
static inline uint32_t rg__a26_rng_next(uint32_t *rng)
{
    *rng = (*rng * 2416u + 374441u) % RG__A26_RNG_MOD;
    return *rng;
}

/* Out-of-line halves of read/write (RAM ports, hot spots, FE); a is the window offset addr & 0xFFF. A read of a
 * RAM write port yields open_bus, or with rng != NULL open_bus | the low byte of the generator's next value. */
uint8_t rg__a26_cart_read_slow(rg__a26_cart *c, const uint8_t *rom, unsigned a, uint8_t open_bus, uint32_t *rng);
void rg__a26_cart_write_slow(rg__a26_cart *c, const uint8_t *rom, unsigned a, uint8_t value);

/* CPU read of $1000-$1FFF (addr masked to 13 bits, A12 set; only the low 12 bits are used). */
static inline uint8_t rg__a26_cart_read(rg__a26_cart *c, const uint8_t *rom, uint16_t addr, uint8_t open_bus)
{
    unsigned a = addr & 0x0FFFu;
    if ((unsigned)(a - c->fast_lo) < c->fast_len)
        return rom[c->seg[a >> 10] + a];
    return rg__a26_cart_read_slow(c, rom, a, open_bus, NULL);
}

/* The same read with Stella 3.9.3's value for a read of a RAM write port: the last data bus byte ORed with a draw
 * of its generator (System::getDataBusState(0xFF)), which also advances the generator. */
static inline uint8_t rg__a26_cart_read_stella(rg__a26_cart *c, const uint8_t *rom, uint16_t addr, uint8_t databus,
                                               uint32_t *rng)
{
    unsigned a = addr & 0x0FFFu;
    if ((unsigned)(a - c->fast_lo) < c->fast_len)
        return rom[c->seg[a >> 10] + a];
    return rg__a26_cart_read_slow(c, rom, a, databus, rng);
}

/* Stella 3.9.3 (setting "ramrandom", on in its libretro core) fills the extra RAM with generator draws when the
 * cartridge resets: Superchip 128, FA 256, E7 2048 bytes, CV 1 KiB (unless the image carries initial RAM). Call
 * right after rg__a26_cart_init, at the point of the reset where Stella resets the cartridge; returns the count. */
size_t rg__a26_cart_randomize_ram(rg__a26_cart *c, uint32_t *rng);

/* CPU write to $1000-$1FFF: RAM write ports and hot spots; other writes are ignored. */
static inline void rg__a26_cart_write(rg__a26_cart *c, const uint8_t *rom, uint16_t addr, uint8_t value)
{
    unsigned a = addr & 0x0FFFu;
    if ((unsigned)(a - c->fast_lo) < c->fast_len)
        return;
    rg__a26_cart_write_slow(c, rom, a, value);
}

/* Nonzero when the cart must also see accesses outside $1000-$1FFF (3F: writes to $00-$3F; FE: $01FE and the
 * access after it; UA: $0220/$0240). Then the machine calls rg__a26_cart_snoop for EVERY bus access with A12
 * clear (reads and writes, dummy accesses included), after the access, with addr masked to 13 bits and value the
 * byte on the data bus (the byte written, or the byte the read returned). */
static inline int rg__a26_cart_snoops(const rg__a26_cart *c)
{
    return c->type == RG__A26_CART_3F || c->type == RG__A26_CART_FE || c->type == RG__A26_CART_UA;
}
void rg__a26_cart_snoop(rg__a26_cart *c, uint16_t addr, uint8_t value, int is_write);

#endif
