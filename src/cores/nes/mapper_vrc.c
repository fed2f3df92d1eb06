/* Konami VRC1 (mapper 75), VRC2a (mapper 22) and VRC4b/d (mapper 25), from the nesdev wiki's VRC1, VRC2 and VRC4,
 * "INES Mapper 025" and "VRC IRQ" pages. Only the VRC4 has an IRQ counter.
 * - VRC1: $8000/$A000/$C000 the 8 KiB PRG banks there ($E000 the last); $9000 bit 0 mirroring (0 vertical,
 *   1 horizontal), bits 1-2 bit 4 of the two 4 KiB CHR banks; $E000/$F000 bits 0-3 of the CHR banks at
 *   $0000/$1000. regs: [0] $8000, [1] $9000, [2] $A000, [3] $C000, [4] $E000, [5] $F000.
 * - VRC2a: the chip's A0/A1 are the CPU's A1/A0. $8000-$8003 PRG bank at $8000, $A000-$A003 at $A000 ($C000 the
 *   second-last, $E000 the last); $9000-$9003 bit 0 mirroring (0 vertical, 1 horizontal); $B000-$E003 the eight
 *   1 KiB CHR banks as low and high nibbles (register 2k+0 low / 2k+1 high of bank k, 2k at $B000 + k/2 x $1000 +
 *   (k odd ? 2 : 0)); mapper 22 drops the bank's low bit (CHR A10 comes from the chip's A11 line).
 *   regs: [0] PRG $8000, [1] PRG $A000, [2] mirroring, [8..15] the CHR banks (8 bits, nibbles joined).
 * - VRC4 (mapper 25: VRC4b has the chip's A0/A1 on the CPU's A1/A0, VRC4d on A3/A2; both are decoded, OR-ed):
 *   $8000 the 5-bit PRG bank at $8000 (or $C000 in swap mode), $A000 the one at $A000, the other of $8000/$C000 the
 *   second-last bank, $E000 the last; $9000/$9001 mirroring (0 vertical, 1 horizontal, 2/3 one-screen A/B);
 *   $9002/$9003 bit 1 the PRG swap mode; $B000-$E003 the eight 1 KiB CHR banks as low nibble / high 5 bits;
 *   $F000/$F001 the IRQ latch's low/high nibble, $F002 IRQ control (M E A: acknowledges; with E set the counter is
 *   reloaded from the latch and the prescaler restarts), $F003 acknowledge (A moves to E). While E is set the
 *   8-bit counter is clocked every CPU cycle (M = 1) or by the prescaler (M = 0: 341 less 3 each cycle, a clock when
 *   it would reach 0 or below, then 341 more: 114, 114, 113 cycles); a clock at $FF reloads the latch and raises
 *   the IRQ. regs: [0] [1] PRG, [2] mirroring, [3] $9002, [4] latch, [5] control, [6] counter, [8..15] CHR low
 *   nibbles, [16..23] CHR high bits; counters[0] the prescaler (1..341). */
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

/* --- VRC4 (mapper 25) */

static void vrc4_power(rg__nes_machine *m)
{
    m->st.cart.counters[0] = 341;
}

static void vrc4_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    int swap = (r[3] & 2u) != 0;
    rg__nes_map_prg8(m, 0, swap ? -2 : r[0]);
    rg__nes_map_prg8(m, 1, r[1]);
    rg__nes_map_prg8(m, 2, swap ? r[0] : -2);
    rg__nes_map_prg8(m, 3, -1);
    for (unsigned i = 0; i < 8; i++)
        rg__nes_map_chr1(m, i, (unsigned)(r[16 + i] << 4 | r[8 + i]));
    static const int k_mirror[4] = {RG__NES_MIRROR_V, RG__NES_MIRROR_H, RG__NES_MIRROR_A, RG__NES_MIRROR_B};
    rg__nes_map_mirror(m, k_mirror[r[2] & 3u]);
}

/* one clock of the 8-bit counter */
static void vrc4_counter_clock(rg__nes_machine *m)
{
    uint8_t *r = m->st.cart.regs;
    if (r[6] == 0xFF) {
        r[6] = r[4];
        rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 1);
    } else {
        r[6]++;
    }
}

static void vrc4_cpu_clock(rg__nes_machine *m, uint64_t n)
{
    uint8_t *r = m->st.cart.regs;
    uint16_t *p = &m->st.cart.counters[0];
    if (!(r[5] & 2u))
        return;
    while (n) {
        if (r[5] & 4u) { /* cycle mode: up to the next overflow at once */
            uint64_t k = 256u - r[6];
            if (k > n) {
                r[6] = (uint8_t)(r[6] + n);
                return;
            }
            r[6] = 0xFF;
            n -= k;
            vrc4_counter_clock(m);
            continue;
        }
        uint64_t j = (*p + 2u) / 3u; /* cycles to the prescaler's next clock */
        if (j > n) {
            *p = (uint16_t)(*p - 3u * n);
            return;
        }
        n -= j;
        *p = (uint16_t)(*p - 3u * (j - 1u) + 338u);
        vrc4_counter_clock(m);
    }
}

static uint64_t vrc4_irq_in(const rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    if (!(r[5] & 2u))
        return 0;
    uint64_t clocks = 256u - r[6];
    if (r[5] & 4u)
        return clocks;
    unsigned p = m->st.cart.counters[0];
    uint64_t cycles = 0;
    while (clocks--) {
        uint64_t j = (p + 2u) / 3u;
        cycles += j;
        p = p - 3u * ((unsigned)j - 1u) + 338u;
    }
    return cycles;
}

static void vrc4_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    if (addr < 0x8000u)
        return;
    unsigned a0 = ((addr >> 1) | (addr >> 3)) & 1u, a1 = (addr | (addr >> 2)) & 1u;
    unsigned sub = a1 << 1 | a0;
    unsigned page = (addr >> 12) & 7u;
    switch (page) {
    case 0: r[0] = value & 0x1Fu; break;
    case 1:
        if (sub < 2)
            r[2] = value & 3u;
        else
            r[3] = value & 3u;
        break;
    case 2: r[1] = value & 0x1Fu; break;
    case 7:
        switch (sub) {
        case 0: r[4] = (uint8_t)((r[4] & 0xF0u) | (value & 0x0Fu)); break;
        case 1: r[4] = (uint8_t)((r[4] & 0x0Fu) | (value & 0x0Fu) << 4); break;
        case 2:
            r[5] = value & 7u;
            rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 0);
            if (r[5] & 2u) {
                r[6] = r[4];
                m->st.cart.counters[0] = 341;
            }
            break;
        default:
            rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 0);
            r[5] = (uint8_t)((r[5] & ~2u) | (r[5] & 1u) << 1);
            break;
        }
        return;
    default: {
        unsigned bank = (page - 3u) * 2u + (sub >> 1);
        if (sub & 1u)
            r[16 + bank] = value & 0x1Fu;
        else
            r[8 + bank] = value & 0x0Fu;
        break;
    }
    }
    rg__nes_cart_sync(m);
}

static const char *vrc4_check(const rg__nes_cart *c)
{
    const uint8_t *r = c->regs;
    if (r[0] > 0x1F || r[1] > 0x1F || r[2] > 3 || r[3] > 3 || r[5] > 7)
        return "VRC4 PRG, mirroring or IRQ control register above its width";
    for (int i = 0; i < 8; i++)
        if (r[8 + i] > 0x0F || r[16 + i] > 0x1F)
            return "VRC4 CHR register above its width";
    if (c->counters[0] < 1 || c->counters[0] > 341)
        return "VRC4 prescaler out of range";
    return NULL;
}

const rg__nes_mapper rg__nes_mapper_vrc4_25 = {25, "Konami VRC4b/d", vrc4_power, vrc4_sync, vrc4_write, NULL,
                                               vrc4_check, NULL, vrc4_cpu_clock, vrc4_irq_in};

const rg__nes_mapper rg__nes_mapper_vrc1 = {75, "Konami VRC1", power_zero, vrc1_sync, vrc1_write, NULL, vrc1_check, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_vrc2a = {22, "Konami VRC2a", power_zero, vrc2a_sync, vrc2a_write, NULL,
                                             vrc2a_check, NULL, NULL, NULL};
