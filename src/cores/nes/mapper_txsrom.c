/* TxSROM (mapper 118; TKSROM, TLSROM): an MMC3 whose CHR A17 line drives the nametable RAM's A10 instead of the
 * mirroring register (nesdev wiki, INES Mapper 118). Everything else is MMC3 (mapper_mmc3.c, whose register layout
 * this follows): each nametable $2000/$2400/$2800/$2C00 shows the 1 KiB page named by bit 7 of the CHR bank that
 * the pattern window $0000/$0400/$0800/$0C00 holds (R0, R0, R1, R1; with CHR inversion R2-R5). */
#include "cores/nes/mapper.h"

static void txsrom_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    rg__nes_mapper_mmc3.sync(m);
    if (m->info.mirroring == 2)
        return;
    for (unsigned i = 0; i < 4; i++) {
        uint8_t bank = (r[8] & 0x80u) ? r[2 + i] : r[i >> 1];
        m->nt_map[i] = m->st.cart.vram + (size_t)((bank >> 7) & 1u) * 1024u;
    }
}

static void txsrom_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    rg__nes_mapper_mmc3.write(m, addr, value); /* the bank writes resync through cart.c, i.e. txsrom_sync */
}

static void txsrom_power(rg__nes_machine *m)
{
    rg__nes_mapper_mmc3.power(m);
}

static void txsrom_ppu_addr(rg__nes_machine *m, uint16_t addr, uint64_t dot)
{
    rg__nes_mapper_mmc3.ppu_addr(m, addr, dot);
}

static const char *txsrom_check(const rg__nes_cart *c)
{
    return rg__nes_mapper_mmc3.check(c);
}

const rg__nes_mapper rg__nes_mapper_txsrom = {118, "TxSROM (MMC3)", txsrom_power, txsrom_sync, txsrom_write,
                                              txsrom_ppu_addr, txsrom_check, NULL, NULL, NULL};
