/* MMC3 (mapper 4, TxROM): eight bank registers, mirroring, and the scanline counter clocked by rises of the PPU's
 * A12 (seen through rg__nes_cart_ppu_addr).
 * regs: [0..7] R0-R7, [8] bank select, [9] mirroring, [10] PRG-RAM protect, [11] IRQ latch, [12] IRQ counter,
 * [13] reload requested, [14] IRQ enabled, [15] the level of A12 last seen (st.cart.a12_dot: the dot it fell).
 * The counter follows the later chips (MMC3B/C): a clock with the counter at 0 or a reload requested loads the latch,
 * else decrements; the IRQ is raised whenever the counter is 0 after a clock while enabled. A rise of A12 counts only
 * after A12 was low for a while (the chip counts M2 edges): here, when the address that brought it low came at
 * least MMC3_A12_LOW_DOTS dots before. The PPU reports pattern fetches and $2006/$2007 addresses only, so A12 keeps
 * the level of the last one between them.
 * The PRG-RAM protect register is kept but not enforced (the RAM is always readable and writable), as most emulators
 * do for compatibility. */
#include "cores/nes/mapper.h"

#define MMC3_A12_LOW_DOTS 10u

static void mmc3_power(rg__nes_machine *m)
{
    uint8_t *r = m->st.cart.regs;
    r[6] = 0;
    r[7] = 1;
    r[9] = m->info.mirroring == 0 ? 1 : 0;
}

static void mmc3_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    unsigned inv = (r[8] & 0x80u) ? 4u : 0u;
    rg__nes_map_chr1(m, 0 ^ inv, r[0] & 0xFEu);
    rg__nes_map_chr1(m, 1 ^ inv, r[0] | 1u);
    rg__nes_map_chr1(m, 2 ^ inv, r[1] & 0xFEu);
    rg__nes_map_chr1(m, 3 ^ inv, r[1] | 1u);
    for (unsigned i = 0; i < 4; i++)
        rg__nes_map_chr1(m, (4u + i) ^ inv, r[2 + i]);
    if (r[8] & 0x40u) {
        rg__nes_map_prg8(m, 0, -2);
        rg__nes_map_prg8(m, 2, r[6] & 0x3F);
    } else {
        rg__nes_map_prg8(m, 0, r[6] & 0x3F);
        rg__nes_map_prg8(m, 2, -2);
    }
    rg__nes_map_prg8(m, 1, r[7] & 0x3F);
    rg__nes_map_prg8(m, 3, -1);
    rg__nes_map_mirror(m, (r[9] & 1u) ? RG__NES_MIRROR_H : RG__NES_MIRROR_V);
}

static void mmc3_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    if (addr < 0x8000u)
        return;
    switch (addr & 0xE001u) {
    case 0x8000: r[8] = value; break;
    case 0x8001: r[r[8] & 7u] = value; break;
    case 0xA000: r[9] = value & 1u; break;
    case 0xA001: r[10] = value; return;
    case 0xC000: r[11] = value; return;
    case 0xC001: r[12] = 0; r[13] = 1; return;
    case 0xE000: r[14] = 0; rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 0); return;
    default: r[14] = 1; return;
    }
    rg__nes_cart_sync(m);
}

static void mmc3_ppu_addr(rg__nes_machine *m, uint16_t addr, uint64_t dot)
{
    rg__nes_cart *c = &m->st.cart;
    uint8_t *r = c->regs;
    if (!(addr & 0x1000u)) {
        if (r[15]) { /* A12 falls: remember when */
            r[15] = 0;
            c->a12_dot = dot;
        }
        return;
    }
    if (r[15])
        return;
    r[15] = 1;
    if (dot - c->a12_dot < MMC3_A12_LOW_DOTS)
        return;
    if (r[12] == 0 || r[13]) {
        r[12] = r[11];
        r[13] = 0;
    } else {
        r[12]--;
    }
    if (r[12] == 0 && r[14])
        rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 1);
}

static const char *mmc3_check(const rg__nes_cart *c)
{
    const uint8_t *r = c->regs;
    if (r[9] > 1 || r[13] > 1 || r[14] > 1 || r[15] > 1)
        return "MMC3 mirroring or IRQ flag above 1";
    return NULL;
}

const rg__nes_mapper rg__nes_mapper_mmc3 = {4, "MMC3", mmc3_power, mmc3_sync, mmc3_write, mmc3_ppu_addr,
                                             mmc3_check, NULL, NULL, NULL};
