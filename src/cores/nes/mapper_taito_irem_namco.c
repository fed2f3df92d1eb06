/* Three ASIC mappers without IRQs, from the nesdev wiki's mapper pages (INES Mapper 032, 033, 206).
 * - 33 (Taito TC0190): $8000 bits 0-5 the 8 KiB PRG bank at $8000, bit 6 mirroring (0 vertical, 1 horizontal);
 *   $8001 the PRG bank at $A000; $8002/$8003 2 KiB CHR banks at $0000/$0800; $A000-$A003 1 KiB CHR banks at
 *   $1000-$1C00 (registers decoded by A15, A13, A1, A0); $C000-$FFFF the last 16 KiB.
 *   regs: [0] $8000 (bits 0-6), [1] $8001, [2] [3] the 2 KiB banks, [4..7] the 1 KiB banks.
 * - 206 (Namco 108 / DxROM): MMC3's $8000 bank select (bits 0-2) and $8001 bank data only ($8000-$9FFF, A0);
 *   R0/R1 2 KiB CHR at $0000/$0800, R2-R5 1 KiB CHR at $1000-$1C00 (6 bits), R6/R7 8 KiB PRG at $8000/$A000
 *   (4 bits), $C000-$FFFF the last 16 KiB; mirroring from the header. regs: [0..7] R0-R7, [8] bank select.
 * - 32 (Irem G-101): $8000-$8FFF PRG register 0 (5 bits); $9000-$9FFF bit 0 mirroring (0 vertical,
 *   1 horizontal), bit 1 PRG mode (0: register 0 at $8000, second-last bank at $C000; 1: the reverse);
 *   $A000-$AFFF the PRG bank at $A000; $B000-$BFFF (A2-A0) the eight 1 KiB CHR banks; $E000 the last bank.
 *   regs: [0] PRG 0, [1] $9000 (bits 0-1), [2] PRG 1, [8..15] CHR. */
#include "cores/nes/mapper.h"

static void power_zero(rg__nes_machine *m)
{
    (void)m;
}

/* --- 33 */

static void taito_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    rg__nes_map_prg8(m, 0, r[0] & 0x3Fu);
    rg__nes_map_prg8(m, 1, r[1]);
    rg__nes_map_prg8(m, 2, -2);
    rg__nes_map_prg8(m, 3, -1);
    rg__nes_map_chr2(m, 0, r[2]);
    rg__nes_map_chr2(m, 1, r[3]);
    for (unsigned i = 0; i < 4; i++)
        rg__nes_map_chr1(m, 4u + i, r[4 + i]);
    rg__nes_map_mirror(m, (r[0] & 0x40u) ? RG__NES_MIRROR_H : RG__NES_MIRROR_V);
}

static void taito_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    switch (addr & 0xE003u) {
    case 0x8000: r[0] = value & 0x7Fu; break;
    case 0x8001: r[1] = value & 0x3Fu; break;
    case 0x8002: r[2] = value; break;
    case 0x8003: r[3] = value; break;
    case 0xA000: case 0xA001: case 0xA002: case 0xA003: r[4 + (addr & 3u)] = value; break;
    default: return;
    }
    rg__nes_cart_sync(m);
}

static const char *taito_check(const rg__nes_cart *c)
{
    return (c->regs[0] > 0x7F || c->regs[1] > 0x3F) ? "mapper 33 PRG register above its width" : NULL;
}

/* --- 206 */

static void n108_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    rg__nes_map_chr2(m, 0, (r[0] & 0x3Fu) >> 1);
    rg__nes_map_chr2(m, 1, (r[1] & 0x3Fu) >> 1);
    for (unsigned i = 0; i < 4; i++)
        rg__nes_map_chr1(m, 4u + i, r[2 + i] & 0x3Fu);
    rg__nes_map_prg8(m, 0, r[6] & 0x0F);
    rg__nes_map_prg8(m, 1, r[7] & 0x0F);
    rg__nes_map_prg8(m, 2, -2);
    rg__nes_map_prg8(m, 3, -1);
    rg__nes_map_mirror(m, m->info.mirroring == 1 ? RG__NES_MIRROR_V : RG__NES_MIRROR_H);
}

static void n108_power(rg__nes_machine *m)
{
    m->st.cart.regs[7] = 1;
}

static void n108_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    if (addr < 0x8000u || addr >= 0xA000u)
        return;
    if (addr & 1u)
        r[r[8]] = (uint8_t)(value & (r[8] >= 6 ? 0x0Fu : 0x3Fu));
    else
        r[8] = value & 7u;
    rg__nes_cart_sync(m);
}

static const char *n108_check(const rg__nes_cart *c)
{
    const uint8_t *r = c->regs;
    if (r[8] > 7 || r[6] > 15 || r[7] > 15)
        return "mapper 206 bank select or PRG bank above its width";
    for (int i = 0; i < 6; i++)
        if (r[i] > 0x3F)
            return "mapper 206 CHR bank above its width";
    return NULL;
}

/* --- 32 */

static void g101_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    if (r[1] & 2u) {
        rg__nes_map_prg8(m, 0, -2);
        rg__nes_map_prg8(m, 2, r[0]);
    } else {
        rg__nes_map_prg8(m, 0, r[0]);
        rg__nes_map_prg8(m, 2, -2);
    }
    rg__nes_map_prg8(m, 1, r[2]);
    rg__nes_map_prg8(m, 3, -1);
    for (unsigned i = 0; i < 8; i++)
        rg__nes_map_chr1(m, i, r[8 + i]);
    rg__nes_map_mirror(m, (r[1] & 1u) ? RG__NES_MIRROR_H : RG__NES_MIRROR_V);
}

static void g101_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    switch (addr & 0xF000u) {
    case 0x8000: r[0] = value & 0x1Fu; break;
    case 0x9000: r[1] = value & 3u; break;
    case 0xA000: r[2] = value & 0x1Fu; break;
    case 0xB000: r[8 + (addr & 7u)] = value; break;
    default: return;
    }
    rg__nes_cart_sync(m);
}

static const char *g101_check(const rg__nes_cart *c)
{
    if (c->regs[0] > 0x1F || c->regs[2] > 0x1F || c->regs[1] > 3)
        return "mapper 32 register above its width";
    return NULL;
}

const rg__nes_mapper rg__nes_mapper_taito_tc0190 = {33, "Taito TC0190", power_zero, taito_sync, taito_write, NULL,
                                                    taito_check, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_namco108 = {206, "Namco 108", n108_power, n108_sync, n108_write, NULL,
                                                n108_check, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_irem_g101 = {32, "Irem G-101", power_zero, g101_sync, g101_write, NULL,
                                                 g101_check, NULL, NULL, NULL};
