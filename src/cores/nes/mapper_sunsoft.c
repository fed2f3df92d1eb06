/* Sunsoft-3 (mapper 67) and Sunsoft FME-7 / 5A / 5B (mapper 69), from the nesdev wiki's "INES Mapper 067" and
 * "Sunsoft FME-7" pages. Both count CPU cycles down with a 16-bit counter and raise the IRQ when it wraps from
 * $0000 to $FFFF. The 5B's sound is not emulated.
 * - 67: writes with A11 clear ($8000, $9000, ...) acknowledge the IRQ; by $F800 mask: $8800/$9800/$A800/$B800 the
 *   2 KiB CHR banks, $C800 the counter itself (high byte, then low byte), $D800 bit 4 count/pause (and the next
 *   $C800 write is the high byte), $E800 mirroring (0 vertical, 1 horizontal, 2/3 one-screen A/B), $F800 the 16 KiB
 *   PRG bank at $8000 ($C000 the last). The wrap pauses the counter.
 *   regs: [0..3] CHR, [4] mirroring, [5] PRG, [6] counting (0/1), [7] the $C800 toggle; counters[0] the counter.
 * - 69: $8000-$9FFF the command (4 bits), $A000-$BFFF its parameter: 0-7 the 1 KiB CHR banks; 8 $6000-$7FFF (bits
 *   0-5 bank, bit 6 RAM instead of ROM, bit 7 RAM enabled); 9-B the 8 KiB PRG banks at $8000/$A000/$C000 ($E000 the
 *   last); C mirroring (0 vertical, 1 horizontal, 2/3 one-screen A/B); D IRQ control (bit 0 IRQ on wrap, bit 7
 *   counting; acknowledges); E/F the counter's low/high byte.
 *   regs: [0..7] CHR, [8] $6000, [9..11] PRG, [12] mirroring, [13] IRQ control, [14] command; counters[0]. */
#include "cores/nes/mapper.h"

static const int k_mirror[4] = {RG__NES_MIRROR_V, RG__NES_MIRROR_H, RG__NES_MIRROR_A, RG__NES_MIRROR_B};

static void power_zero(rg__nes_machine *m)
{
    (void)m;
}

/* --- Sunsoft-3 */

static void s3_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    for (unsigned i = 0; i < 4; i++)
        rg__nes_map_chr2(m, i, r[i]);
    rg__nes_map_prg16(m, 0, r[5]);
    rg__nes_map_prg16(m, 1, -1);
    rg__nes_map_mirror(m, k_mirror[r[4] & 3u]);
}

static void s3_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    if (addr < 0x8000u)
        return;
    if (!(addr & 0x0800u)) {
        rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 0);
        return;
    }
    uint16_t *count = &m->st.cart.counters[0];
    switch (addr & 0xF800u) {
    case 0x8800: case 0x9800: case 0xA800: case 0xB800: r[(addr >> 12) & 3u] = value & 0x3Fu; break;
    case 0xC800:
        *count = r[7] ? (uint16_t)((*count & 0xFF00u) | value) : (uint16_t)((*count & 0x00FFu) | value << 8);
        r[7] ^= 1u;
        return;
    case 0xD800:
        r[6] = (value >> 4) & 1u;
        r[7] = 0;
        return;
    case 0xE800: r[4] = value & 3u; break;
    default: r[5] = value & 0x0Fu; break;
    }
    rg__nes_cart_sync(m);
}

static void s3_cpu_clock(rg__nes_machine *m, uint64_t n)
{
    uint8_t *r = m->st.cart.regs;
    uint16_t *count = &m->st.cart.counters[0];
    if (!r[6])
        return;
    if (n > *count) {
        *count = 0xFFFF;
        r[6] = 0;
        rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 1);
    } else {
        *count = (uint16_t)(*count - n);
    }
}

static uint64_t s3_irq_in(const rg__nes_machine *m)
{
    return m->st.cart.regs[6] ? (uint64_t)m->st.cart.counters[0] + 1u : 0;
}

static const char *s3_check(const rg__nes_cart *c)
{
    const uint8_t *r = c->regs;
    if (r[0] > 0x3F || r[1] > 0x3F || r[2] > 0x3F || r[3] > 0x3F || r[4] > 3 || r[5] > 15 || r[6] > 1 || r[7] > 1)
        return "Sunsoft-3 register above its width";
    return NULL;
}

/* --- FME-7 */

static void fme7_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    for (unsigned i = 0; i < 8; i++)
        rg__nes_map_chr1(m, i, r[i]);
    for (unsigned i = 0; i < 3; i++)
        rg__nes_map_prg8(m, i, r[9 + i]);
    rg__nes_map_prg8(m, 3, -1);
    if (!(r[8] & 0x40u))
        rg__nes_map_prg_rom6000(m, r[8] & 0x3Fu);
    else
        rg__nes_map_prg_ram(m, r[8] & 0x3Fu, (r[8] & 0x80u) != 0, 1);
    rg__nes_map_mirror(m, k_mirror[r[12] & 3u]);
}

static void fme7_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    if (addr < 0x8000u || addr >= 0xC000u) /* $C000-$FFFF: the 5B's sound */
        return;
    if (addr < 0xA000u) {
        r[14] = value & 0x0Fu;
        return;
    }
    uint16_t *count = &m->st.cart.counters[0];
    switch (r[14]) {
    case 9: case 10: case 11: r[r[14]] = value & 0x3Fu; break;
    case 12: r[12] = value & 3u; break;
    case 13:
        r[13] = value & 0x81u;
        rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 0);
        return;
    case 14: *count = (uint16_t)((*count & 0xFF00u) | value); return;
    case 15: *count = (uint16_t)((*count & 0x00FFu) | value << 8); return;
    default: r[r[14]] = value; break; /* 0-8 */
    }
    rg__nes_cart_sync(m);
}

static void fme7_cpu_clock(rg__nes_machine *m, uint64_t n)
{
    const uint8_t *r = m->st.cart.regs;
    uint16_t *count = &m->st.cart.counters[0];
    if (!(r[13] & 0x80u))
        return;
    if (n > *count && (r[13] & 1u))
        rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 1);
    *count = (uint16_t)(*count - n);
}

static uint64_t fme7_irq_in(const rg__nes_machine *m)
{
    return (m->st.cart.regs[13] & 0x81u) == 0x81u ? (uint64_t)m->st.cart.counters[0] + 1u : 0;
}

static const char *fme7_check(const rg__nes_cart *c)
{
    const uint8_t *r = c->regs;
    if (r[9] > 0x3F || r[10] > 0x3F || r[11] > 0x3F || r[12] > 3 || (r[13] & ~0x81u) || r[14] > 15)
        return "FME-7 register above its width";
    return NULL;
}

const rg__nes_mapper rg__nes_mapper_sunsoft3 = {67, "Sunsoft-3", power_zero, s3_sync, s3_write, NULL, s3_check,
                                                NULL, s3_cpu_clock, s3_irq_in};
const rg__nes_mapper rg__nes_mapper_fme7 = {69, "Sunsoft FME-7", power_zero, fme7_sync, fme7_write, NULL, fme7_check,
                                            NULL, fme7_cpu_clock, fme7_irq_in};
