/* Mappers of discrete logic (one latch register): NROM (0), UxROM (2), CNROM (3), AxROM (7), Color Dreams (11),
 * GxROM (66), Camerica BF909x (71). regs[0] holds the latch; 71 keeps its mirroring in regs[1..2].
 * Bus conflicts (the latch sees the written value ANDed with the ROM byte at the address) only where the NES 2.0
 * header says so (submapper 2 of 2, 3 and 7). */
#include "cores/nes/mapper.h"

static void header_mirror(rg__nes_machine *m)
{
    rg__nes_map_mirror(m, m->info.mirroring == 1 ? RG__NES_MIRROR_V : RG__NES_MIRROR_H);
}

static uint8_t latch_value(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    if (m->info.nes2 && m->info.submapper == 2 && addr >= 0x8000u)
        value &= m->prg_map[(addr >> 13) & 3u][addr & 0x1FFFu];
    return value;
}

static void power_zero(rg__nes_machine *m)
{
    (void)m;
}

static void write_latch(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    if (addr < 0x8000u)
        return;
    m->st.cart.regs[0] = latch_value(m, addr, value);
    rg__nes_cart_sync(m);
}

static void nrom_sync(rg__nes_machine *m)
{
    rg__nes_map_prg32(m, 0);
    rg__nes_map_chr8(m, 0);
    header_mirror(m);
}

static void nrom_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    (void)m;
    (void)addr;
    (void)value;
}

static void uxrom_sync(rg__nes_machine *m)
{
    rg__nes_map_prg16(m, 0, m->st.cart.regs[0]);
    rg__nes_map_prg16(m, 1, -1);
    rg__nes_map_chr8(m, 0);
    header_mirror(m);
}

static void cnrom_sync(rg__nes_machine *m)
{
    rg__nes_map_prg32(m, 0);
    rg__nes_map_chr8(m, m->st.cart.regs[0]);
    header_mirror(m);
}

static void axrom_sync(rg__nes_machine *m)
{
    uint8_t r = m->st.cart.regs[0];
    rg__nes_map_prg32(m, r & 7u);
    rg__nes_map_chr8(m, 0);
    rg__nes_map_mirror(m, (r & 0x10u) ? RG__NES_MIRROR_B : RG__NES_MIRROR_A);
}

static void colordreams_sync(rg__nes_machine *m)
{
    uint8_t r = m->st.cart.regs[0];
    rg__nes_map_prg32(m, r & 3u);
    rg__nes_map_chr8(m, r >> 4);
    header_mirror(m);
}

static void gxrom_sync(rg__nes_machine *m)
{
    uint8_t r = m->st.cart.regs[0];
    rg__nes_map_prg32(m, (r >> 4) & 3u);
    rg__nes_map_chr8(m, r & 3u);
    header_mirror(m);
}

/* 71: $C000-$FFFF selects the 16 KiB bank at $8000; $9000-$9FFF (Fire Hawk's board) one-screen mirroring by bit 4. */
static void camerica_sync(rg__nes_machine *m)
{
    rg__nes_map_prg16(m, 0, m->st.cart.regs[0]);
    rg__nes_map_prg16(m, 1, -1);
    rg__nes_map_chr8(m, 0);
    if (m->st.cart.regs[1])
        rg__nes_map_mirror(m, (m->st.cart.regs[2] & 0x10u) ? RG__NES_MIRROR_B : RG__NES_MIRROR_A);
    else
        header_mirror(m);
}

static void camerica_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    if (addr >= 0xC000u) {
        m->st.cart.regs[0] = value;
    } else if (addr >= 0x9000u && addr < 0xA000u) {
        m->st.cart.regs[1] = 1;
        m->st.cart.regs[2] = value & 0x10u;
    } else {
        return;
    }
    rg__nes_cart_sync(m);
}

static const char *camerica_check(const rg__nes_cart *c)
{
    if (c->regs[1] > 1 || (c->regs[2] & ~0x10u))
        return "mapper 71 mirroring register";
    return NULL;
}

const rg__nes_mapper rg__nes_mapper_nrom = {0, "NROM", power_zero, nrom_sync, nrom_write, NULL, NULL, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_uxrom = {2, "UxROM", power_zero, uxrom_sync, write_latch, NULL, NULL, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_cnrom = {3, "CNROM", power_zero, cnrom_sync, write_latch, NULL, NULL, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_axrom = {7, "AxROM", power_zero, axrom_sync, write_latch, NULL, NULL, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_colordreams = {11, "Color Dreams", power_zero, colordreams_sync, write_latch,
                                                    NULL, NULL, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_gxrom = {66, "GxROM", power_zero, gxrom_sync, write_latch, NULL, NULL, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_camerica = {71, "Camerica BF909x", power_zero, camerica_sync, camerica_write,
                                                 NULL, camerica_check, NULL, NULL, NULL};
