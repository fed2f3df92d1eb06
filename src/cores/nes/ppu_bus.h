/* The PPU's own bus (inside ppu*.c): pattern tables, nametables, palette RAM, the loopy increments. */
#ifndef RG_SRC_CORES_NES_PPU_BUS_H
#define RG_SRC_CORES_NES_PPU_BUS_H

#include "cores/nes/nes.h"

static inline uint8_t rg__ppu_chr(const rg__nes_machine *m, unsigned a)
{
    return m->chr_map[(a >> 10) & 7][a & 0x3FF];
}

static inline uint8_t rg__ppu_nt(const rg__nes_machine *m, unsigned a)
{
    return m->nt_map[(a >> 10) & 3][a & 0x3FF];
}

/* MMC5 ExRAM mode 1 (m->ppu_exattr): a background pattern byte from the 4 KiB CHR bank the tile's ExRAM byte
 * (at v's nametable offset) names, above the windows. */
static inline uint8_t rg__ppu_chr_ex(const rg__nes_machine *m, unsigned v, unsigned a)
{
    size_t off = ((size_t)(m->ppu_exattr[v & 0x3FFu] & 0x3Fu) | (size_t)m->ppu_exattr_hi << 6) * 0x1000u + (a & 0xFFFu);
    if (m->chr)
        return m->chr[off % m->chr_size];
    return m->st.cart.chr_ram[off % m->info.chr_ram_size];
}

/* Palette RAM index of a $3F00-$3FFF address: $3F10/14/18/1C are $3F00/04/08/0C. */
static inline unsigned rg__ppu_pal_index(unsigned a)
{
    a &= 0x1F;
    return (a & 0x13) == 0x10 ? a & 0x0F : a;
}

static inline int rg__ppu_rendering(const rg__nes_ppu *p)
{
    return (p->mask & 0x18) != 0;
}

/* Coarse X + 1, into the next horizontal nametable past 31. */
static inline uint16_t rg__ppu_inc_x(uint16_t v)
{
    return (v & 0x1F) == 31 ? (uint16_t)((v & ~0x1Fu) ^ 0x400u) : (uint16_t)(v + 1);
}

/* Fine Y + 1, carrying into coarse Y; coarse Y 29 wraps into the next vertical nametable, 31 wraps without. */
static inline uint16_t rg__ppu_inc_y(uint16_t v)
{
    if ((v & 0x7000) != 0x7000)
        return (uint16_t)(v + 0x1000);
    v &= 0x0FFF;
    unsigned y = (v >> 5) & 31;
    if (y == 29) {
        y = 0;
        v ^= 0x800;
    } else if (y == 31) {
        y = 0;
    } else {
        y++;
    }
    return (uint16_t)((v & ~0x3E0u) | y << 5);
}

#endif
