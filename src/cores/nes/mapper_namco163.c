/* Namco 129/163 (mapper 19), from the nesdev wiki's "Namco 163" / "INES Mapper 019" pages. Registers span $800
 * bytes each:
 * - $4800 the data port of the chip's 128 bytes of RAM (read/write; the address from $F800 bits 0-6, bit 7
 *   increments it after each access); $5000 / $5800 the IRQ counter's low 8 / high 7 bits, $5800 bit 7 IRQ enable
 *   (both readable; writes acknowledge). While enabled the counter counts up every CPU cycle; on reaching $7FFF it
 *   raises the IRQ and stops.
 * - $8000-$B800 the eight 1 KiB pattern windows: a CHR-ROM bank, or (values $E0-$FF, unless $E800 bit 6 / bit 7
 *   turns it off for $0000-$0FFF / $1000-$1FFF) the console's nametable page (value bit 0);
 *   $C000-$D800 the four nametable windows: values $E0-$FF the console's page (bit 0), others a CHR-ROM bank (read
 *   only).
 * - $E000 bits 0-5 the 8 KiB PRG bank at $8000 (bit 6 sound off), $E800 bits 0-5 the one at $A000, $F000 the one at
 *   $C000 ($E000 the last). The sound and $F800's PRG-RAM write protection are not emulated (RAM always writable).
 * regs: [0..7] pattern windows, [8..11] nametable windows, [12] $E000, [13] $E800, [14] $F000, [15] $F800;
 * counters[0] the counter (bits 0-14) and enable (bit 15); chip_ram the 128 bytes. */
#include "cores/nes/mapper.h"

#define KIB 1024u

static void n163_power(rg__nes_machine *m)
{
    (void)m;
}

static void n163_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    for (unsigned i = 0; i < 8; i++) {
        unsigned ciram_off = (r[13] >> (i < 4 ? 6 : 7)) & 1u;
        if (r[i] >= 0xE0u && !ciram_off) {
            m->chr_map[i] = m->st.cart.vram + (size_t)(r[i] & 1u) * KIB;
            m->chr_writable = (uint8_t)(m->chr_writable | 1u << i);
        } else {
            rg__nes_map_chr1(m, i, r[i]);
        }
    }
    rg__nes_map_mirror(m, RG__NES_MIRROR_V); /* every window RAM; replaced below */
    for (unsigned i = 0; i < 4; i++) {
        uint8_t v = r[8 + i];
        if (v >= 0xE0u || !m->chr) {
            m->nt_map[i] = m->st.cart.vram + (size_t)(v & 1u) * KIB;
        } else {
            m->nt_map[i] = (uint8_t *)(uintptr_t)(m->chr + (size_t)(v % (m->chr_size / KIB)) * KIB);
            m->nt_readonly = (uint8_t)(m->nt_readonly | 1u << i);
        }
    }
    rg__nes_map_prg8(m, 0, r[12] & 0x3Fu);
    rg__nes_map_prg8(m, 1, r[13] & 0x3Fu);
    rg__nes_map_prg8(m, 2, r[14] & 0x3Fu);
    rg__nes_map_prg8(m, 3, -1);
}

static uint8_t n163_read(rg__nes_machine *m, uint16_t addr)
{
    uint8_t *r = m->st.cart.regs;
    uint16_t count = m->st.cart.counters[0];
    switch (addr & 0xF800u) {
    case 0x4800: {
        uint8_t v = m->st.cart.chip_ram[r[15] & 0x7Fu];
        if (r[15] & 0x80u)
            r[15] = (uint8_t)(0x80u | ((r[15] + 1u) & 0x7Fu));
        return v;
    }
    case 0x5000: return (uint8_t)count;
    case 0x5800: return (uint8_t)(count >> 8);
    default: return m->st.open_bus;
    }
}

static void n163_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    uint16_t *count = &m->st.cart.counters[0];
    switch (addr & 0xF800u) {
    case 0x4800:
        m->st.cart.chip_ram[r[15] & 0x7Fu] = value;
        if (r[15] & 0x80u)
            r[15] = (uint8_t)(0x80u | ((r[15] + 1u) & 0x7Fu));
        return;
    case 0x5000:
        *count = (uint16_t)((*count & 0xFF00u) | value);
        rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 0);
        return;
    case 0x5800:
        *count = (uint16_t)((*count & 0x00FFu) | value << 8);
        rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 0);
        return;
    case 0xF800: r[15] = value; return;
    default:
        if (addr < 0x8000u)
            return;
        /* a pattern or nametable window (or $E800's mode bits) may change mid-frame (the IRQ's splits): cart.c has
         * brought the PPU up to this cycle */
        r[(addr - 0x8000u) >> 11] = value; /* $8000 -> 0 ... $F000 -> 14 */
        break;
    }
    rg__nes_cart_sync(m);
}

static void n163_cpu_clock(rg__nes_machine *m, uint64_t n)
{
    uint16_t *count = &m->st.cart.counters[0];
    if (!(*count & 0x8000u))
        return;
    unsigned low = *count & 0x7FFFu;
    if (low == 0x7FFFu)
        return;
    if (n >= 0x7FFFu - low) {
        *count = 0xFFFFu;
        rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, 1);
    } else {
        *count = (uint16_t)(*count + n);
    }
}

static uint64_t n163_irq_in(const rg__nes_machine *m)
{
    uint16_t count = m->st.cart.counters[0];
    if (!(count & 0x8000u) || (count & 0x7FFFu) == 0x7FFFu)
        return 0;
    return 0x7FFFu - (count & 0x7FFFu);
}

static const char *n163_check(const rg__nes_cart *c)
{
    (void)c; /* every register value is one the chip can hold */
    return NULL;
}

const rg__nes_mapper rg__nes_mapper_namco163 = {19, "Namco 163", n163_power, n163_sync, n163_write, NULL, n163_check,
                                                n163_read, n163_cpu_clock, n163_irq_in};
