/* MMC5 (mapper 5, ExROM): PRG modes 0-3 with RAM/ROM banks, CHR modes 0-3 with the sprite (A) and background (B)
 * sets, nametable mapping with ExRAM and fill mode, ExRAM modes, the scanline IRQ and the multiplier.
 * regs: [0] $5100 PRG mode, [1] $5101 CHR mode, [2] $5102, [3] $5103 (RAM protect), [4] $5104 ExRAM mode,
 * [5] $5105 nametables, [6] $5106 fill tile, [7] $5107 fill attribute, [8-12] $5113-$5117, [13] $5130,
 * [14] $5203 IRQ compare, [15] IRQ enabled, [16] IRQ pending, [17] in-frame, [18] scanline counter,
 * [19] $5205, [20] $5206, [21] CHR set last written (0 A, 1 B), [22] the set the PPU fetches with now (0 the last
 * written, 1 A: sprite fetches of 8x16 sprites, 2 B: background fetches of 8x16 sprites).
 * chip_ram[2i, 2i+1] (i = 0-11): $5120-$512B with the $5130 bits of their write (10 bits, little-endian).
 * ExRAM is the four-screen page st.cart.vram[$800-$BFF] (MMC5 boards have no four-screen RAM); the fill-mode
 * nametable is built in vram[$C00-$FFF] from $5106/$5107.
 * The PPU calls rg__nes_mmc5_phase (cart.c) at dot 257 (sprite fetches), dot 321 (background fetches) of rendered
 * lines, at dot 2 of lines 0-239 (the scanline the chip detects) and at the vblank flag (line 241: rendering over).
 * Not emulated: sound ($5000-$5015 writes ignored, reads open bus), vertical split ($5200-$5202), ExRAM writes
 * outside rendering in modes 0/1 storing 0. */
#include "cores/nes/mapper.h"

#include "base/base.h"

#include <string.h>

#define EXRAM(m) ((m)->st.cart.vram + 0x800u)
#define FILL(m) ((m)->st.cart.vram + 0xC00u)

static void mmc5_power(rg__nes_machine *m)
{
    uint8_t *r = m->st.cart.regs;
    r[0] = 3;
    r[1] = 3;
    r[12] = 0xFF;
    r[11] = 0xFF;
    r[10] = 0xFF;
    r[9] = 0xFF;
    r[21] = 0;
}

/* The 8 KiB PRG bank of slot 0-3 ($8000-$FFFF) and whether it is ROM. */
static void prg_bank(const uint8_t *r, unsigned slot, unsigned *bank, int *rom)
{
    unsigned v;
    switch (r[0] & 3u) {
    case 0:
        v = (r[12] & 0x7Cu) | slot;
        *bank = v;
        *rom = 1;
        return;
    case 1:
        v = slot < 2 ? r[10] : r[12];
        *bank = (v & 0x7Eu) | (slot & 1u);
        *rom = slot >= 2 || (v & 0x80u);
        return;
    case 2:
        if (slot < 2) {
            *bank = (r[10] & 0x7Eu) | slot;
            *rom = (r[10] & 0x80u) != 0;
        } else {
            v = r[9 + slot];
            *bank = v & 0x7Fu;
            *rom = slot == 3 || (v & 0x80u);
        }
        return;
    default:
        v = r[9 + slot];
        *bank = v & 0x7Fu;
        *rom = slot == 3 || (v & 0x80u);
        return;
    }
}

static uint8_t *ram_bank(rg__nes_machine *m, unsigned bank)
{
    size_t n = m->info.prg_ram_size / 0x2000u;
    return n ? m->st.cart.prg_ram + (size_t)(bank % n) * 0x2000u : NULL;
}

/* CHR register i ($5120 + i) */
static unsigned chr_reg(const rg__nes_cart *c, unsigned i)
{
    return (unsigned)c->chip_ram[2 * i] | (unsigned)c->chip_ram[2 * i + 1] << 8;
}

static void chr_set(rg__nes_machine *m, int set_b)
{
    unsigned c[12];
    for (unsigned i = 0; i < 12; i++)
        c[i] = chr_reg(&m->st.cart, i);
    unsigned mode = m->st.cart.regs[1] & 3u;
    for (unsigned i = 0; i < 8; i++) {
        unsigned bank;
        if (!set_b) {
            switch (mode) {
            case 0: bank = c[7] * 8u + i; break;
            case 1: bank = c[3 + (i & 4u)] * 4u + (i & 3u); break;
            case 2: bank = c[1 + (i & 6u)] * 2u + (i & 1u); break;
            default: bank = c[i]; break;
            }
        } else {
            unsigned j = i & 3u;
            switch (mode) {
            case 0: bank = c[11] * 8u + i; break;
            case 1: bank = c[11] * 4u + j; break;
            case 2: bank = c[9 + (j & 2u)] * 2u + (j & 1u); break;
            default: bank = c[8 + j]; break;
            }
        }
        rg__nes_map_chr1(m, i, bank);
    }
}

static void chr_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    chr_set(m, r[22] ? r[22] == 2 : r[21]);
}

static void mmc5_sync(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    for (unsigned s = 0; s < 4; s++) {
        unsigned bank;
        int rom;
        prg_bank(r, s, &bank, &rom);
        if (rom) {
            rg__nes_map_prg8(m, s, (int)bank);
        } else {
            uint8_t *p = ram_bank(m, bank);
            if (p)
                m->prg_map[s] = p;
            else
                rg__nes_map_prg8(m, s, (int)bank);
        }
    }
    uint8_t *ram = ram_bank(m, r[8] & 0x7Fu);
    m->prg_ram_map = ram;
    m->prg_ram_writable = (uint8_t)(ram && r[2] == 2 && r[3] == 1);
    chr_sync(m);
    /* fill mode's nametable: the tile everywhere, the attribute in all four quadrants of every byte */
    uint8_t *fill = FILL(m);
    memset(fill, r[6], 960);
    memset(fill + 960, (r[7] & 3u) * 0x55u, 64);
    m->nt_readonly = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned src = (r[5] >> (2 * i)) & 3u;
        m->nt_map[i] = src == 3 ? fill : m->st.cart.vram + (size_t)src * 0x400u;
        if (src == 3)
            m->nt_readonly = (uint8_t)(m->nt_readonly | 1u << i);
    }
    m->ppu_exattr = (r[4] & 3u) == 1 ? EXRAM(m) : NULL;
    m->ppu_exattr_hi = (uint8_t)(r[13] & 3u);
}

static void irq_line(rg__nes_machine *m)
{
    const uint8_t *r = m->st.cart.regs;
    rg__nes_irq_set(&m->st, RG__NES_IRQ_MAPPER, r[15] && r[16]);
}

static void mmc5_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    uint8_t *r = m->st.cart.regs;
    if (addr >= 0x8000u) {
        /* PRG-RAM mapped at $8000-$DFFF */
        unsigned bank;
        int rom;
        prg_bank(r, (addr >> 13) & 3u, &bank, &rom);
        if (!rom && r[2] == 2 && r[3] == 1) {
            uint8_t *p = ram_bank(m, bank);
            if (p)
                p[addr & 0x1FFFu] = value;
        }
        return;
    }
    /* CHR banks, nametables, fill, ExRAM may change mid-frame (splits timed by the IRQ): cart.c has brought the PPU
     * up to this cycle */
    if (addr >= 0x5C00u && addr < 0x6000u) {
        if ((r[4] & 3u) != 3)
            EXRAM(m)[addr & 0x3FFu] = value;
        return;
    }
    if (addr >= 0x5120u && addr < 0x512Cu) {
        unsigned i = addr - 0x5120u;
        m->st.cart.chip_ram[2 * i] = value;
        m->st.cart.chip_ram[2 * i + 1] = (uint8_t)(r[13] & 3u);
        r[21] = addr >= 0x5128u;
        chr_sync(m);
        return;
    }
    switch (addr) {
    case 0x5100: r[0] = value & 3u; break;
    case 0x5101: r[1] = value & 3u; break;
    case 0x5102: r[2] = value & 3u; break;
    case 0x5103: r[3] = value & 3u; break;
    case 0x5104: r[4] = value & 3u; break;
    case 0x5105: r[5] = value; break;
    case 0x5106: r[6] = value; break;
    case 0x5107: r[7] = value & 3u; break;
    case 0x5113: case 0x5114: case 0x5115: case 0x5116: case 0x5117: r[8 + (addr - 0x5113u)] = value; break;
    case 0x5130: r[13] = value & 3u; break;
    case 0x5203: r[14] = value; return;
    case 0x5204: r[15] = value >> 7; irq_line(m); return;
    case 0x5205: r[19] = value; return;
    case 0x5206: r[20] = value; return;
    default: return;
    }
    rg__nes_cart_sync(m);
}

static uint8_t mmc5_read(rg__nes_machine *m, uint16_t addr)
{
    uint8_t *r = m->st.cart.regs;
    if (addr >= 0x5C00u && addr < 0x6000u)
        return (r[4] & 3u) >= 2 ? EXRAM(m)[addr & 0x3FFu] : m->st.open_bus;
    switch (addr) {
    case 0x5204: {
        uint8_t v = (uint8_t)(r[16] << 7 | r[17] << 6 | (m->st.open_bus & 0x3Fu));
        r[16] = 0;
        irq_line(m);
        return v;
    }
    case 0x5205: return (uint8_t)(r[19] * r[20]);
    case 0x5206: return (uint8_t)((r[19] * r[20]) >> 8);
    default: return m->st.open_bus;
    }
}

void rg__nes_mmc5_phase(rg__nes_machine *m, unsigned phase)
{
    uint8_t *r = m->st.cart.regs;
    int tall = (m->st.ppu.ctrl & 0x20u) != 0;
    switch (phase) {
    case RG__NES_PHASE_SPRITES:
    case RG__NES_PHASE_BG: {
        uint8_t set = tall ? (uint8_t)(phase == RG__NES_PHASE_SPRITES ? 1 : 2) : 0;
        if (set != r[22]) {
            r[22] = set;
            chr_sync(m);
        }
        return;
    }
    case RG__NES_PHASE_LINE:
        if (!r[17]) {
            r[17] = 1;
            r[18] = 0;
            r[16] = 0;
        } else if (++r[18] == r[14]) {
            r[16] = 1;
        }
        irq_line(m);
        return;
    default: /* the frame's rendering is over */
        r[17] = 0;
        if (r[22]) {
            r[22] = 0;
            chr_sync(m);
        }
        return;
    }
}

static const char *mmc5_check(const rg__nes_cart *c)
{
    const uint8_t *r = c->regs;
    if (r[0] > 3 || r[1] > 3 || r[2] > 3 || r[3] > 3 || r[4] > 3 || r[7] > 3 || r[13] > 3)
        return "MMC5 mode register out of range";
    if (r[15] > 1 || r[16] > 1 || r[17] > 1 || r[21] > 1 || r[22] > 2)
        return "MMC5 IRQ or CHR-set flag out of range";
    for (unsigned i = 0; i < 12; i++)
        if (chr_reg(c, i) > 0x3FFu)
            return "MMC5 CHR bank above 10 bits";
    return NULL;
}

const rg__nes_mapper rg__nes_mapper_mmc5 = {5, "MMC5", mmc5_power, mmc5_sync, mmc5_write, NULL,
                                             mmc5_check, mmc5_read, NULL, NULL};
