/* Konami VRC1 (mapper 75) and VRC2a (mapper 22), from the nesdev wiki's VRC1 and VRC2/VRC4 pages. Neither has an
 * IRQ counter.
 * - VRC1: $8000/$A000/$C000 the 8 KiB PRG banks there ($E000 the last); $9000 bit 0 mirroring (0 vertical,
 *   1 horizontal), bits 1-2 bit 4 of the two 4 KiB CHR banks; $E000/$F000 bits 0-3 of the CHR banks at
 *   $0000/$1000. regs: [0] $8000, [1] $9000, [2] $A000, [3] $C000, [4] $E000, [5] $F000.
 * - VRC2a: the chip's A0/A1 are the CPU's A1/A0. $8000-$8003 PRG bank at $8000, $A000-$A003 at $A000 ($C000 the
 *   second-last, $E000 the last); $9000-$9003 bit 0 mirroring (0 vertical, 1 horizontal); $B000-$E003 the eight
 *   1 KiB CHR banks as low and high nibbles (register 2k+0 low / 2k+1 high of bank k, 2k at $B000 + k/2 x $1000 +
 *   (k odd ? 2 : 0)); mapper 22 drops the bank's low bit (CHR A10 comes from the chip's A11 line).
 *   regs: [0] PRG $8000, [1] PRG $A000, [2] mirroring, [8..15] the CHR banks (8 bits, nibbles joined). */
#include "cores/nes/mapper.h"

static void power_zero(rg__nes_machine *m)
{
    (void)m;
}

/* --- VRC1 */

static void vrc1_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    rg__nes_map_prg8(m, 0, r[0]);
    rg__nes_map_prg8(m, 1, r[2]);
    rg__nes_map_prg8(m, 2, r[3]);
    rg__nes_map_prg8(m, 3, -1);
    rg__nes_map_chr4(m, 0, (unsigned)(r[4] | (r[1] & 2u) << 3));
    rg__nes_map_chr4(m, 1, (unsigned)(r[5] | (r[1] & 4u) << 2));
    if (m->info.mirroring == 2)
        rg__nes_map_mirror(m, RG__NES_MIRROR_FOUR);
    else
        rg__nes_map_mirror(m, (r[1] & 1u) ? RG__NES_MIRROR_H : RG__NES_MIRROR_V);
}

static void vrc1_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    static const int8_t k_reg[8] = {0, 1, 2, -1, 3, -1, 4, 5}; /* by (addr >> 12) & 7 */
    if (addr < 0x8000u || k_reg[(addr >> 12) & 7u] < 0)
        return;
    unsigned i = (unsigned)k_reg[(addr >> 12) & 7u];
    m->st.cart.regs[i] = (uint8_t)(value & (i == 1 ? 7u : 0x0Fu));
    rg__nes_cart_sync(m);
}

static const char *vrc1_check(const rg__nes_cart *c)
{
    const uint8_t *r = c->regs;
    if (r[1] > 7 || r[0] > 15 || r[2] > 15 || r[3] > 15 || r[4] > 15 || r[5] > 15)
        return "VRC1 register above its width";
    return NULL;
}

/* --- VRC2a */

static void vrc2a_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    rg__nes_map_prg8(m, 0, r[0]);
    rg__nes_map_prg8(m, 1, r[1]);
    rg__nes_map_prg8(m, 2, -2);
    rg__nes_map_prg8(m, 3, -1);
    for (unsigned i = 0; i < 8; i++)
        rg__nes_map_chr1(m, i, (unsigned)(r[8 + i] >> 1));
    rg__nes_map_mirror(m, (r[2] & 1u) ? RG__NES_MIRROR_H : RG__NES_MIRROR_V);
}

static void vrc2a_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    if (addr < 0x8000u)
        return;
    unsigned sub = ((addr >> 1) & 1u) | ((addr << 1) & 2u); /* the chip's A1 A0 */
    unsigned page = (addr >> 12) & 7u;                      /* $8000 = 0 ... $F000 = 7 */
    switch (page) {
    case 0: r[0] = value & 0x1Fu; break;
    case 1: r[2] = value & 1u; break;
    case 2: r[1] = value & 0x1Fu; break;
    case 7: return;
    default: {
        unsigned bank = (page - 3u) * 2u + (sub >> 1);
        if (sub & 1u)
            r[8 + bank] = (uint8_t)((r[8 + bank] & 0x0Fu) | (value & 0x0Fu) << 4);
        else
            r[8 + bank] = (uint8_t)((r[8 + bank] & 0xF0u) | (value & 0x0Fu));
        break;
    }
    }
    rg__nes_cart_sync(m);
}

static const char *vrc2a_check(const rg__nes_cart *c)
{
    if (c->regs[0] > 0x1F || c->regs[1] > 0x1F || c->regs[2] > 1)
        return "VRC2 PRG bank or mirroring register above its width";
    return NULL;
}

const rg__nes_mapper rg__nes_mapper_vrc1 = {75, "Konami VRC1", power_zero, vrc1_sync, vrc1_write, NULL, vrc1_check};
const rg__nes_mapper rg__nes_mapper_vrc2a = {22, "Konami VRC2a", power_zero, vrc2a_sync, vrc2a_write, NULL,
                                             vrc2a_check};
