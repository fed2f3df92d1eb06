/* MMC2 (mapper 9, PxROM) and MMC4 (mapper 10, FxROM): CHR banks chosen by two latches that the PPU's fetches of
 * tiles $FD and $FE flip (seen through rg__nes_cart_ppu_addr).
 * regs: [0] PRG bank, [1] CHR $0000 for latch $FD, [2] ... for $FE, [3] CHR $1000 for $FD, [4] ... for $FE,
 * [5] mirroring, [6] latch 0 (0: $FD, 1: $FE), [7] latch 1. */
#include "cores/nes/mapper.h"

static void mmc2_power(rg__nes_machine *m)
{
    m->st.cart.regs[6] = 1;
    m->st.cart.regs[7] = 1;
}

static void chr_and_mirror(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    rg__nes_map_chr4(m, 0, r[6] ? r[2] : r[1]);
    rg__nes_map_chr4(m, 1, r[7] ? r[4] : r[3]);
    rg__nes_map_mirror(m, (r[5] & 1u) ? RG__NES_MIRROR_H : RG__NES_MIRROR_V);
}

static void mmc2_sync(rg__nes_machine *m)
{
    rg__nes_map_prg8(m, 0, m->st.cart.regs[0]);
    rg__nes_map_prg8(m, 1, -3);
    rg__nes_map_prg8(m, 2, -2);
    rg__nes_map_prg8(m, 3, -1);
    chr_and_mirror(m);
}

static void mmc4_sync(rg__nes_machine *m)
{
    rg__nes_map_prg16(m, 0, m->st.cart.regs[0]);
    rg__nes_map_prg16(m, 1, -1);
    chr_and_mirror(m);
}

static void mmc2_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    if (addr < 0xA000u)
        return;
    unsigned reg = (addr >> 12) - 0xAu; /* $A000 PRG, $B000-$E000 CHR, $F000 mirroring */
    m->st.cart.regs[reg] = (uint8_t)(reg == 0 ? value & 0x0Fu : reg == 5 ? value & 1u : value & 0x1Fu);
    rg__nes_cart_sync(m);
}

static void set_latch(rg__nes_machine *m, unsigned which, uint8_t v)
{
    if (m->st.cart.regs[6 + which] != v) {
        m->st.cart.regs[6 + which] = v;
        chr_and_mirror(m);
    }
}

/* MMC2: $0FD8 / $0FE8 exactly for latch 0, $1FD8-$1FDF / $1FE8-$1FEF for latch 1; MMC4: the ranges for both. */
static void latch_addr(rg__nes_machine *m, uint16_t addr, int exact_low)
{
    uint16_t row = addr & 0x0FF8u;
    if (row != 0x0FD8u && row != 0x0FE8u)
        return;
    unsigned which = (addr >> 12) & 1u;
    if (which == 0 && exact_low && (addr & 7u))
        return;
    set_latch(m, which, row == 0x0FE8u);
}

static void mmc2_ppu_addr(rg__nes_machine *m, uint16_t addr, uint64_t dot)
{
    (void)dot;
    latch_addr(m, addr, 1);
}

static void mmc4_ppu_addr(rg__nes_machine *m, uint16_t addr, uint64_t dot)
{
    (void)dot;
    latch_addr(m, addr, 0);
}

static const char *mmc2_check(const rg__nes_cart *c)
{
    const uint8_t *r = c->regs;
    if (r[0] > 0x0Fu || r[1] > 0x1Fu || r[2] > 0x1Fu || r[3] > 0x1Fu || r[4] > 0x1Fu || r[5] > 1 || r[6] > 1 ||
        r[7] > 1)
        return "MMC2/MMC4 register out of range";
    return NULL;
}

const rg__nes_mapper rg__nes_mapper_mmc2 = {9, "MMC2", mmc2_power, mmc2_sync, mmc2_write, mmc2_ppu_addr,
                                             mmc2_check, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_mmc4 = {10, "MMC4", mmc2_power, mmc4_sync, mmc2_write, mmc4_ppu_addr,
                                             mmc2_check, NULL, NULL, NULL};
