/* Irem H3001 (mapper 65) and Jaleco SS88006 (mapper 18), from the nesdev wiki's "INES Mapper 065" and "INES Mapper
 * 018" pages. Both count CPU cycles down with a 16-bit counter.
 * - 65: $8000 the 8 KiB PRG bank at $8000 (or $C000), $A000 the one at $A000, $9000 bit 7 the layout (1: register 0
 *   at $C000, the second-last bank at $8000), $E000 the last bank; $9001 bits 7-6 mirroring (00 vertical, 10
 *   horizontal, x1 one-screen A); $9003 bit 7 IRQ enable, $9004 reload the counter, $9005/$9006 the reload value's
 *   high/low byte (writes to $9003/$9004 acknowledge); $B000-$B007 the eight 1 KiB CHR banks. While enabled the
 *   counter counts down to 0, raises the IRQ there and stays. Power-on: PRG registers 0 and 1.
 *   regs: [0] PRG 0, [1] PRG 1, [2] $9000 bit 7, [3] $9001 bits 7-6, [4] IRQ enable (0/1), [5] [6] the reload
 *   value's high/low byte, [8..15] CHR; counters[0] the counter.
 * - 18: registers by A15-A12 and A1-A0, 4 bits each: $8000/$8001 the PRG bank at $8000 (low/high nibble), $8002/
 *   $8003 at $A000, $9000/$9001 at $C000 ($E000 the last); $9002 PRG-RAM enable/write (bits 0/1); $A000-$D003 the
 *   eight 1 KiB CHR banks (bank k: $A000 + (k/2) x $1000 + (k odd ? 2 : 0), low then high nibble); $E000-$E003 the
 *   reload value's nibbles (low first); $F000 reload (and acknowledge), $F001 bit 0 counting, bits 1-3 the counter's
 *   width (0: 16 bits, 1: 12, 2-3: 8, 4-7: 4; acknowledges); $F002 mirroring (0 horizontal, 1 vertical, 2/3
 *   one-screen A/B). The IRQ is raised when the counting bits wrap from 0; the bits above them keep their value.
 *   regs: [0..2] PRG, [3] $9002, [4] mirroring, [5] $F001, [8..15] CHR; counters[0] the counter, [1] reload. */
#include "cores/nes/mapper.h"

/* --- Irem H3001 */

static void h3001_power(rg__nes_machine *m)
{
    m->st.cart.regs[1] = 1;
}

static void h3001_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    rg__nes_map_prg8(m, 0, r[2] ? -2 : r[0]);
    rg__nes_map_prg8(m, 1, r[1]);
    rg__nes_map_prg8(m, 2, r[2] ? r[0] : -2);
    rg__nes_map_prg8(m, 3, -1);
    for (unsigned i = 0; i < 8; i++)
        rg__nes_map_chr1(m, i, r[8 + i]);
    rg__nes_map_mirror(m, (r[3] & 0x40u) ? RG__NES_MIRROR_A : (r[3] & 0x80u) ? RG__NES_MIRROR_H : RG__NES_MIRROR_V);
}

static void h3001_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    switch (addr & 0xF000u) {
    case 0x8000: r[0] = value & 0x3Fu; break;
    case 0xA000: r[1] = value & 0x3Fu; break;
    case 0xB000: r[8 + (addr & 7u)] = value; break;
    case 0x9000:
        switch (addr & 7u) {
        case 0: r[2] = (value >> 7) & 1u; break;
        case 1: r[3] = value & 0xC0u; break;
        case 3:
            r[4] = (value >> 7) & 1u;
            rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 0);
            return;
        case 4:
            m->st.cart.counters[0] = (uint16_t)(r[5] << 8 | r[6]);
            rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 0);
            return;
        case 5: r[5] = value; return;
        case 6: r[6] = value; return;
        default: return;
        }
        break;
    default: return;
    }
    rg__nes_cart_sync(m);
}

static void h3001_cpu_clock(rg__nes_machine *m, uint64_t n)
{
    uint16_t *count = &m->st.cart.counters[0];
    if (!m->st.cart.regs[4] || *count == 0)
        return;
    if (n >= *count) {
        *count = 0;
        rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 1);
    } else {
        *count = (uint16_t)(*count - n);
    }
}

static uint64_t h3001_irq_in(const rg__nes_machine *m)
{
    return m->st.cart.regs[4] ? m->st.cart.counters[0] : 0;
}

static const char *h3001_check(const rg__nes_cart *c)
{
    const uint8_t *r = c->regs;
    if (r[0] > 0x3F || r[1] > 0x3F || r[2] > 1 || (r[3] & 0x3Fu) || r[4] > 1)
        return "Irem H3001 register above its width";
    return NULL;
}

/* --- Jaleco SS88006 */

static void power_zero_ss(rg__nes_machine *m)
{
    (void)m;
}

static const uint16_t k_ss_mask[8] = {0xFFFF, 0x0FFF, 0x00FF, 0x00FF, 0x000F, 0x000F, 0x000F, 0x000F};

static void ss_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    for (unsigned i = 0; i < 3; i++)
        rg__nes_map_prg8(m, i, r[i]);
    rg__nes_map_prg8(m, 3, -1);
    for (unsigned i = 0; i < 8; i++)
        rg__nes_map_chr1(m, i, r[8 + i]);
    rg__nes_map_prg_ram(m, 0, r[3] & 1u, (r[3] & 2u) != 0);
    static const int k_mirror[4] = {RG__NES_MIRROR_H, RG__NES_MIRROR_V, RG__NES_MIRROR_A, RG__NES_MIRROR_B};
    rg__nes_map_mirror(m, k_mirror[r[4] & 3u]);
}

static void nibble(uint8_t *reg, unsigned high, uint8_t value)
{
    *reg = high ? (uint8_t)((*reg & 0x0Fu) | (value & 0x0Fu) << 4) : (uint8_t)((*reg & 0xF0u) | (value & 0x0Fu));
}

static void ss_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    if (addr < 0x8000u)
        return;
    unsigned page = (addr >> 12) & 7u, sub = addr & 3u;
    switch (page) {
    case 0: nibble(&r[sub >> 1], sub & 1u, value); break;
    case 1:
        if (sub < 2)
            nibble(&r[2], sub, value);
        else if (sub == 2)
            r[3] = value & 3u;
        else
            return;
        break;
    case 6: {
        uint16_t *reload = &m->st.cart.counters[1];
        unsigned shift = sub * 4u;
        *reload = (uint16_t)((*reload & ~(0x0Fu << shift)) | (value & 0x0Fu) << shift);
        return;
    }
    case 7:
        if (sub == 0) {
            m->st.cart.counters[0] = m->st.cart.counters[1];
            rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 0);
            return;
        }
        if (sub == 1) {
            r[5] = value & 0x0Fu;
            rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 0);
            return;
        }
        if (sub == 3)
            return; /* the sound chip's register */
        r[4] = value & 3u;
        break;
    default: { /* $A000-$DFFF: CHR */
        unsigned bank = (page - 2u) * 2u + (sub >> 1);
        nibble(&r[8 + bank], sub & 1u, value);
        break;
    }
    }
    rg__nes_cart_sync(m);
}

static void ss_cpu_clock(rg__nes_machine *m, uint64_t n)
{
    const uint8_t *r = m->st.cart.regs;
    uint16_t *count = &m->st.cart.counters[0];
    if (!(r[5] & 1u))
        return;
    uint16_t mask = k_ss_mask[(r[5] >> 1) & 7u];
    uint64_t low = *count & mask;
    if (n > low)
        rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 1);
    *count = (uint16_t)((*count & ~mask) | ((low - n) & mask));
}

static uint64_t ss_irq_in(const rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    if (!(r[5] & 1u))
        return 0;
    return (uint64_t)(m->st.cart.counters[0] & k_ss_mask[(r[5] >> 1) & 7u]) + 1u;
}

static const char *ss_check(const rg__nes_cart *c)
{
    const uint8_t *r = c->regs;
    if (r[3] > 3 || r[4] > 3 || r[5] > 15)
        return "Jaleco SS88006 register above its width";
    return NULL;
}

const rg__nes_mapper rg__nes_mapper_irem_h3001 = {65, "Irem H3001", h3001_power, h3001_sync, h3001_write, NULL,
                                                  h3001_check, NULL, h3001_cpu_clock, h3001_irq_in};
const rg__nes_mapper rg__nes_mapper_jaleco_ss88006 = {18, "Jaleco SS88006", power_zero_ss, ss_sync, ss_write, NULL,
                                                      ss_check, NULL, ss_cpu_clock, ss_irq_in};
