/* MMC1 (mapper 1, SxROM): a 5-bit serial port into four registers.
 * regs: [0] shift register, [1] bits shifted in, [2] control, [3] CHR bank 0, [4] CHR bank 1, [5] PRG bank.
 * Writes on consecutive CPU cycles (the second write of a read-modify-write instruction) are ignored.
 * Board variants from the header: PRG-ROM above 256 KiB is SUROM (CHR bank 0 bit 4 selects the 256 KiB half);
 * 16 KiB of PRG-RAM is SOROM (bank by CHR bank 0 bit 3), 32 KiB SXROM (bits 2-3). Bit 4 of the PRG register
 * disables the PRG-RAM (MMC1B). */
#include "cores/nes/mapper.h"

static void mmc1_power(rg__nes_machine *m)
{
    m->st.cart.regs[2] = 0x0C;
}

static void mmc1_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    uint8_t control = r[2], chr0 = r[3], chr1 = r[4], prg = r[5];
    static const int k_mirror[4] = {RG__NES_MIRROR_A, RG__NES_MIRROR_B, RG__NES_MIRROR_V, RG__NES_MIRROR_H};
    rg__nes_map_mirror(m, k_mirror[control & 3u]);
    if (control & 0x10u) {
        rg__nes_map_chr4(m, 0, chr0);
        rg__nes_map_chr4(m, 1, chr1);
    } else {
        rg__nes_map_chr4(m, 0, chr0 & 0x1Eu);
        rg__nes_map_chr4(m, 1, chr0 | 1u);
    }
    int base = m->prg_size > 256u * 1024u ? (chr0 & 0x10u) : 0;
    int bank = prg & 0x0F;
    switch ((control >> 2) & 3u) {
    case 0:
    case 1:
        rg__nes_map_prg16(m, 0, base | (bank & 0x0E));
        rg__nes_map_prg16(m, 1, base | (bank & 0x0E) | 1);
        break;
    case 2:
        rg__nes_map_prg16(m, 0, base);
        rg__nes_map_prg16(m, 1, base | bank);
        break;
    default:
        rg__nes_map_prg16(m, 0, base | bank);
        rg__nes_map_prg16(m, 1, base | 0x0F);
        break;
    }
    unsigned ram_bank = m->info.prg_ram_size > 16384u ? (chr0 >> 2) & 3u
                        : m->info.prg_ram_size > 8192u ? (chr0 >> 3) & 1u : 0u;
    int on = !(prg & 0x10u);
    rg__nes_map_prg_ram(m, ram_bank, on, on);
}

static void mmc1_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    rg__nes_cart *c = &m->st.cart;
    if (addr < 0x8000u)
        return;
    uint64_t now = m->st.cycles;
    int consecutive = now == c->last_write + 1u;
    c->last_write = now;
    if (consecutive)
        return;
    if (value & 0x80u) {
        c->regs[0] = 0;
        c->regs[1] = 0;
        c->regs[2] |= 0x0Cu;
        rg__nes_cart_sync(m);
        return;
    }
    c->regs[0] = (uint8_t)(c->regs[0] | (value & 1u) << c->regs[1]);
    if (++c->regs[1] < 5)
        return;
    c->regs[2 + ((addr >> 13) & 3u)] = c->regs[0];
    c->regs[0] = 0;
    c->regs[1] = 0;
    rg__nes_cart_sync(m);
}

static const char *mmc1_check(const rg__nes_cart *c)
{
    const uint8_t *r = c->regs;
    if (r[1] > 4 || r[0] >> r[1])
        return "MMC1 shift register";
    for (int i = 2; i < 6; i++)
        if (r[i] > 0x1Fu)
            return "MMC1 register above 5 bits";
    return NULL;
}

const rg__nes_mapper rg__nes_mapper_mmc1 = {1, "MMC1", mmc1_power, mmc1_sync, mmc1_write, NULL, mmc1_check, NULL, NULL, NULL};
