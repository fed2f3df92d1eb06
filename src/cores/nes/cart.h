/* NES cartridges: iNES / NES 2.0 headers and the mappers (owned by cart*.c and mapper*.c).
 *
 * The mapper's registers and the cartridge's RAM are state (rg__nes_cart, inside rg__nes_state); the windows the
 * CPU and PPU read through (m->prg_map, m->chr_map, m->nt_map, m->prg_ram_map) are derived from them by
 * rg__nes_cart_sync. */
#ifndef RG_SRC_CORES_NES_CART_H
#define RG_SRC_CORES_NES_CART_H

#include <stddef.h>
#include <stdint.h>

struct rg__nes_machine;

/* Header facts. */
typedef struct rg__nes_cart_info {
    uint16_t mapper;
    uint8_t submapper;
    uint8_t mirroring;        /* 0 horizontal, 1 vertical, 2 four-screen */
    uint8_t battery;
    uint8_t nes2;
    uint32_t prg_ram_size;    /* bytes */
    uint32_t chr_ram_size;    /* bytes (0 with CHR-ROM) */
} rg__nes_cart_info;

#define RG__NES_PRG_RAM_MAX 0x8000u  /* SXROM's 32 KiB */
#define RG__NES_CHR_RAM_MAX 0x2000u

typedef struct rg__nes_cart {
    uint64_t a12_dot;         /* MMC3: the PPU dot at which A12 was last seen high */
    uint64_t last_write;      /* MMC1: the CPU cycle of the last register write (writes on consecutive cycles are
                               * ignored) */
    uint64_t clock_cycle;     /* mappers with a CPU-clocked counter: the cycles before this one are counted */
    uint8_t prg_ram[RG__NES_PRG_RAM_MAX];
    uint8_t chr_ram[0x2000];
    uint8_t vram[0x1000];     /* 2 KiB console nametable RAM + 2 KiB four-screen RAM */
    uint8_t regs[32];         /* the mapper's registers (meaning per mapper) */
    uint16_t counters[8];     /* the mapper's counters (meaning per mapper) */
    uint8_t chip_ram[128];    /* RAM inside the mapper chip (Namco 163's sound/IRQ RAM) */
} rg__nes_cart;

/* Parses an iNES / NES 2.0 image: header facts, PRG and CHR slices of `rom`. RG_ECORRUPT (not an iNES image,
 * truncated, sizes the mapper cannot have) or RG_EUNSUPPORTED (a mapper we do not have) with a message naming the
 * problem. */
int rg__nes_cart_parse(const uint8_t *rom, size_t size, rg__nes_cart_info *info, const uint8_t **prg,
                       size_t *prg_size, const uint8_t **chr, size_t *chr_size);
void rg__nes_cart_power(struct rg__nes_machine *m);
void rg__nes_cart_sync(struct rg__nes_machine *m);
uint8_t rg__nes_cart_read(struct rg__nes_machine *m, uint16_t addr);           /* $4020-$FFFF */
void rg__nes_cart_write(struct rg__nes_machine *m, uint16_t addr, uint8_t value); /* $4020-$FFFF */
/* A pattern-table address on the PPU bus (only while m->ppu_watch): MMC3's A12, MMC2/MMC4's latches. `dot` is the
 * PPU dot counter since power-on (for A12 filtering). Called after the byte at addr was fetched (a latch that it
 * switches applies from the next fetch on). */
void rg__nes_cart_ppu_addr(struct rg__nes_machine *m, uint16_t addr, uint64_t dot);
/* Mappers with a CPU-clocked IRQ counter: count the cycles before `cycle` (raising the IRQ where it fires) and
 * work out the cycle at which the machine must call again (m->cart_sync_at, which m->apu_sync_at never passes).
 * Nothing for other mappers. */
void rg__nes_cart_clock(struct rg__nes_machine *m, uint64_t cycle);
/* The PPU's fetch phases for a mapper that follows them (only while m->ppu_phase: MMC5): the sprite fetches start
 * (dot 257 of a rendered line), the background fetches start (dot 321), a visible line starts (dot 2 of lines
 * 0-239), the frame's rendering is over (the vblank flag). */
enum { RG__NES_PHASE_SPRITES, RG__NES_PHASE_BG, RG__NES_PHASE_LINE, RG__NES_PHASE_END };
void rg__nes_cart_phase(struct rg__nes_machine *m, unsigned phase);
/* NULL when the mapper registers of `c` (a state from outside) are values this cartridge's mapper can produce. */
const char *rg__nes_cart_check(const struct rg__nes_machine *m, const rg__nes_cart *c);

#endif
