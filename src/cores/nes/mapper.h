/* The mappers behind cart.c: one table entry per iNES mapper number, and the window helpers they build their
 * CPU/PPU maps with (mapper*.c). */
#ifndef RG_SRC_CORES_NES_MAPPER_H
#define RG_SRC_CORES_NES_MAPPER_H

#include "cores/nes/nes.h"

typedef struct rg__nes_mapper {
    uint16_t number;
    const char *name;
    /* registers at power-on (st.cart.regs/counters are zero before) */
    void (*power)(rg__nes_machine *m);
    /* the windows from the registers (m->prg_map, chr_map, nt_map, prg_ram_map, ppu_watch) */
    void (*sync)(rg__nes_machine *m);
    /* a CPU write at $4020-$FFFF (PRG-RAM writes at $6000-$7FFF are done by cart.c before) */
    void (*write)(rg__nes_machine *m, uint16_t addr, uint8_t value);
    /* a pattern-table address on the PPU bus (NULL: the mapper does not watch) */
    void (*ppu_addr)(rg__nes_machine *m, uint16_t addr, uint64_t dot);
    /* NULL when c's registers hold values this mapper can produce */
    const char *(*check)(const rg__nes_cart *c);
    /* (optional, after check) a CPU read at $4020-$5FFF (NULL: open bus) */
    uint8_t (*read)(rg__nes_machine *m, uint16_t addr);
    /* CPU-clocked counters (NULL: none; the machine then pays nothing). cpu_clock counts `n` more cycles and raises
     * the mapper IRQ where it fires; irq_in says after how many more cycles the next IRQ is raised (0: none ahead).
     * cart.c calls them (rg__nes_cart_clock) before every access to the mapper and when that cycle comes. */
    void (*cpu_clock)(rg__nes_machine *m, uint64_t n);
    uint64_t (*irq_in)(const rg__nes_machine *m);
} rg__nes_mapper;

/* NULL when we have no such mapper. */
const rg__nes_mapper *rg__nes_mapper_find(uint16_t number);

enum { RG__NES_MIRROR_H, RG__NES_MIRROR_V, RG__NES_MIRROR_A, RG__NES_MIRROR_B, RG__NES_MIRROR_FOUR };

/* Banks count from 0; a negative bank counts from the end (-1: the last). Banks wrap at the ROM's size. */
void rg__nes_map_prg8(rg__nes_machine *m, unsigned slot, int bank);
void rg__nes_map_prg16(rg__nes_machine *m, unsigned slot, int bank);
void rg__nes_map_prg32(rg__nes_machine *m, int bank);
/* CHR-ROM, or the cartridge's CHR-RAM (writable) when it has no ROM. */
void rg__nes_map_chr1(rg__nes_machine *m, unsigned slot, unsigned bank);
void rg__nes_map_chr2(rg__nes_machine *m, unsigned slot, unsigned bank);
void rg__nes_map_chr4(rg__nes_machine *m, unsigned slot, unsigned bank);
void rg__nes_map_chr8(rg__nes_machine *m, unsigned bank);
/* Four-screen carts keep their four nametables whatever the mapper asks. */
void rg__nes_map_mirror(rg__nes_machine *m, int mode);
/* 8 KiB of PRG-ROM at $6000 (read-only). */
void rg__nes_map_prg_rom6000(rg__nes_machine *m, int bank);
/* 8 KiB of PRG-RAM at $6000 (bank wraps at the cart's RAM size; no RAM: open bus). */
void rg__nes_map_prg_ram(rg__nes_machine *m, unsigned bank, int enabled, int writable);

/* The table (mapper_*.c). */
extern const rg__nes_mapper rg__nes_mapper_nrom, rg__nes_mapper_uxrom, rg__nes_mapper_cnrom, rg__nes_mapper_axrom,
    rg__nes_mapper_colordreams, rg__nes_mapper_gxrom, rg__nes_mapper_camerica, rg__nes_mapper_mmc1,
    rg__nes_mapper_mmc3, rg__nes_mapper_mmc2, rg__nes_mapper_mmc4;
/* mapper_latch6000.c, mapper_vrc.c, mapper_taito_irem_namco.c, mapper_txsrom.c */
extern const rg__nes_mapper rg__nes_mapper_87, rg__nes_mapper_140, rg__nes_mapper_184, rg__nes_mapper_185,
    rg__nes_mapper_vrc1, rg__nes_mapper_vrc2a, rg__nes_mapper_taito_tc0190, rg__nes_mapper_namco108,
    rg__nes_mapper_irem_g101, rg__nes_mapper_txsrom;
/* the mappers with CPU-clocked IRQ counters: mapper_vrc.c (25), mapper_sunsoft.c (67, 69), mapper_irem_jaleco.c
 * (65, 18), mapper_namco163.c (19) */
extern const rg__nes_mapper rg__nes_mapper_vrc4_25, rg__nes_mapper_sunsoft3, rg__nes_mapper_fme7,
    rg__nes_mapper_irem_h3001, rg__nes_mapper_jaleco_ss88006, rg__nes_mapper_namco163;
/* mapper_mmc5.c; its PPU phases (cart.h, rg__nes_cart_phase) */
extern const rg__nes_mapper rg__nes_mapper_mmc5;
void rg__nes_mmc5_phase(rg__nes_machine *m, unsigned phase);

#endif
