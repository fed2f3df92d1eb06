/* NES cartridges: the iNES / NES 2.0 header, the mapper table and the windows the mappers build. */
#include "cores/nes/mapper.h"

#include "base/base.h"

#include <string.h>

#define KIB 1024u

static const rg__nes_mapper *const k_mappers[] = {
    &rg__nes_mapper_nrom, &rg__nes_mapper_mmc1, &rg__nes_mapper_uxrom, &rg__nes_mapper_cnrom,
    &rg__nes_mapper_mmc3, &rg__nes_mapper_axrom, &rg__nes_mapper_mmc2, &rg__nes_mapper_mmc4,
    &rg__nes_mapper_colordreams, &rg__nes_mapper_gxrom, &rg__nes_mapper_camerica,
    &rg__nes_mapper_vrc2a, &rg__nes_mapper_irem_g101, &rg__nes_mapper_taito_tc0190, &rg__nes_mapper_vrc1,
    &rg__nes_mapper_87, &rg__nes_mapper_txsrom, &rg__nes_mapper_140, &rg__nes_mapper_184, &rg__nes_mapper_185,
    &rg__nes_mapper_namco108, &rg__nes_mapper_vrc4_25, &rg__nes_mapper_sunsoft3, &rg__nes_mapper_fme7,
    &rg__nes_mapper_irem_h3001, &rg__nes_mapper_jaleco_ss88006, &rg__nes_mapper_namco163, &rg__nes_mapper_mmc5,
};

const rg__nes_mapper *rg__nes_mapper_find(uint16_t number)
{
    for (size_t i = 0; i < sizeof k_mappers / sizeof k_mappers[0]; i++)
        if (k_mappers[i]->number == number)
            return k_mappers[i];
    return NULL;
}

/* NES 2.0 ROM sizes: a 12-bit count of units, or (top nibble $F) 2^E x (2M + 1) bytes. */
static uint64_t nes2_rom_size(unsigned lsb, unsigned msb, uint64_t unit)
{
    if (msb == 0xFu) {
        unsigned e = (lsb >> 2) & 0x3Fu, mul = (lsb & 3u) * 2u + 1u;
        return e > 40 ? UINT64_MAX : ((uint64_t)1 << e) * mul;
    }
    return (uint64_t)(msb << 8 | lsb) * unit;
}

/* NES 2.0 RAM sizes: 0 none, else 64 << n bytes. */
static uint32_t nes2_ram_size(unsigned n)
{
    return n ? (uint32_t)(64u << n) : 0;
}

int rg__nes_cart_parse(const uint8_t *rom, size_t size, rg__nes_cart_info *info, const uint8_t **prg,
                       size_t *prg_size, const uint8_t **chr, size_t *chr_size)
{
    memset(info, 0, sizeof *info);
    if (size < 16)
        return rg__error(RG_ECORRUPT, "nes: the image is %zu bytes, shorter than the 16-byte iNES header", size);
    if (memcmp(rom, "NES\x1A", 4) != 0)
        return rg__error(RG_ECORRUPT, "nes: not an iNES image (no \"NES\\x1A\" at the start)");
    const uint8_t *h = rom;
    uint64_t prg_bytes, chr_bytes;
    info->nes2 = (h[7] & 0x0Cu) == 0x08u;
    if (info->nes2) {
        info->mapper = (uint16_t)((h[6] >> 4) | (h[7] & 0xF0u) | (h[8] & 0x0Fu) << 8);
        info->submapper = (uint8_t)(h[8] >> 4);
        prg_bytes = nes2_rom_size(h[4], h[9] & 0x0Fu, 16u * KIB);
        chr_bytes = nes2_rom_size(h[5], h[9] >> 4, 8u * KIB);
        info->prg_ram_size = nes2_ram_size(h[10] & 0x0Fu) + nes2_ram_size(h[10] >> 4);
        info->chr_ram_size = nes2_ram_size(h[11] & 0x0Fu) + nes2_ram_size(h[11] >> 4);
        if ((h[12] & 3u) == 1u)
            return rg__error(RG_EUNSUPPORTED, "nes: the image is for a PAL console only (NTSC is emulated)");
    } else {
        /* bytes 7-15 of old dumps sometimes hold text ("DiskDude!"): then byte 7 is not a mapper nibble */
        int clean = h[12] == 0 && h[13] == 0 && h[14] == 0 && h[15] == 0;
        info->mapper = (uint16_t)((h[6] >> 4) | (clean ? (h[7] & 0xF0u) : 0u));
        prg_bytes = (uint64_t)h[4] * 16u * KIB;
        chr_bytes = (uint64_t)h[5] * 8u * KIB;
        info->prg_ram_size = (h[8] ? h[8] : 1u) * 8u * KIB;
        info->chr_ram_size = chr_bytes ? 0 : 8u * KIB;
    }
    info->mirroring = (h[6] & 0x08u) ? 2 : (h[6] & 1u);
    info->battery = (h[6] >> 1) & 1u;
    size_t off = 16 + ((h[6] & 0x04u) ? 512u : 0u);
    if (prg_bytes == 0 || prg_bytes % (8u * KIB) != 0)
        return rg__error(RG_ECORRUPT, "nes: the header gives %llu bytes of PRG-ROM (a non-zero multiple of 8 KiB "
                         "is needed)", (unsigned long long)prg_bytes);
    if (chr_bytes % KIB != 0)
        return rg__error(RG_ECORRUPT, "nes: the header gives %llu bytes of CHR-ROM (not a multiple of 1 KiB)",
                         (unsigned long long)chr_bytes);
    if (size < off || size - off < prg_bytes || size - off - prg_bytes < chr_bytes)
        return rg__error(RG_ECORRUPT, "nes: the image is truncated: the header promises %zu bytes (header%s, %llu "
                         "PRG, %llu CHR), the file has %zu", off + (size_t)(prg_bytes + chr_bytes),
                         off > 16 ? ", trainer" : "", (unsigned long long)prg_bytes,
                         (unsigned long long)chr_bytes, size);
    if (!rg__nes_mapper_find(info->mapper))
        return rg__error(RG_EUNSUPPORTED, "nes: mapper %u is not supported by the nes core", info->mapper);
    if (info->prg_ram_size > RG__NES_PRG_RAM_MAX)
        info->prg_ram_size = RG__NES_PRG_RAM_MAX;
    if (!chr_bytes && info->chr_ram_size == 0)
        info->chr_ram_size = 8u * KIB;
    if (info->chr_ram_size > RG__NES_CHR_RAM_MAX)
        info->chr_ram_size = RG__NES_CHR_RAM_MAX;
    *prg = rom + off;
    *prg_size = (size_t)prg_bytes;
    *chr = chr_bytes ? rom + off + prg_bytes : NULL;
    *chr_size = (size_t)chr_bytes;
    return RG_OK;
}

/* --- windows */

static unsigned wrap(int bank, size_t count)
{
    if (count == 0)
        return 0;
    if (bank < 0)
        bank += (int)(count * ((size_t)(-bank) / count + 1));
    return (unsigned)((size_t)bank % count);
}

void rg__nes_map_prg8(rg__nes_machine *m, unsigned slot, int bank)
{
    m->prg_map[slot & 3u] = m->prg + (size_t)wrap(bank, m->prg_size / (8u * KIB)) * 8u * KIB;
}

void rg__nes_map_prg16(rg__nes_machine *m, unsigned slot, int bank)
{
    size_t n = m->prg_size / (16u * KIB);
    if (n == 0) { /* 8 KiB of PRG: mirrored */
        rg__nes_map_prg8(m, slot * 2u, 0);
        rg__nes_map_prg8(m, slot * 2u + 1u, 0);
        return;
    }
    unsigned b = wrap(bank, n);
    rg__nes_map_prg8(m, slot * 2u, (int)(b * 2u));
    rg__nes_map_prg8(m, slot * 2u + 1u, (int)(b * 2u + 1u));
}

void rg__nes_map_prg32(rg__nes_machine *m, int bank)
{
    size_t n = m->prg_size / (32u * KIB);
    if (n == 0) {
        rg__nes_map_prg16(m, 0, 0);
        rg__nes_map_prg16(m, 1, -1);
        return;
    }
    unsigned b = wrap(bank, n);
    for (unsigned i = 0; i < 4; i++)
        rg__nes_map_prg8(m, i, (int)(b * 4u + i));
}

void rg__nes_map_chr1(rg__nes_machine *m, unsigned slot, unsigned bank)
{
    slot &= 7u;
    if (m->chr) {
        m->chr_map[slot] = (uint8_t *)(uintptr_t)(m->chr + (size_t)(bank % (m->chr_size / KIB)) * KIB);
        m->chr_writable = (uint8_t)(m->chr_writable & ~(1u << slot));
    } else {
        size_t n = m->info.chr_ram_size / KIB;
        m->chr_map[slot] = m->st.cart.chr_ram + (size_t)(bank % n) * KIB;
        m->chr_writable = (uint8_t)(m->chr_writable | 1u << slot);
    }
}

void rg__nes_map_chr2(rg__nes_machine *m, unsigned slot, unsigned bank)
{
    rg__nes_map_chr1(m, slot * 2u, bank * 2u);
    rg__nes_map_chr1(m, slot * 2u + 1u, bank * 2u + 1u);
}

void rg__nes_map_chr4(rg__nes_machine *m, unsigned slot, unsigned bank)
{
    for (unsigned i = 0; i < 4; i++)
        rg__nes_map_chr1(m, slot * 4u + i, bank * 4u + i);
}

void rg__nes_map_chr8(rg__nes_machine *m, unsigned bank)
{
    for (unsigned i = 0; i < 8; i++)
        rg__nes_map_chr1(m, i, bank * 8u + i);
}

void rg__nes_map_mirror(rg__nes_machine *m, int mode)
{
    static const uint8_t k_pages[5][4] = {{0, 0, 1, 1}, {0, 1, 0, 1}, {0, 0, 0, 0}, {1, 1, 1, 1}, {0, 1, 2, 3}};
    if (m->info.mirroring == 2)
        mode = RG__NES_MIRROR_FOUR;
    for (unsigned i = 0; i < 4; i++)
        m->nt_map[i] = m->st.cart.vram + (size_t)k_pages[mode][i] * KIB;
    m->nt_readonly = 0;
}

void rg__nes_map_prg_rom6000(rg__nes_machine *m, int bank)
{
    m->prg_ram_map = (uint8_t *)(uintptr_t)(m->prg + (size_t)wrap(bank, m->prg_size / (8u * KIB)) * 8u * KIB);
    m->prg_ram_writable = 0;
}

void rg__nes_map_prg_ram(rg__nes_machine *m, unsigned bank, int enabled, int writable)
{
    size_t n = m->info.prg_ram_size / (8u * KIB);
    if (!enabled || n == 0) {
        m->prg_ram_map = NULL;
        m->prg_ram_writable = 0;
        return;
    }
    m->prg_ram_map = m->st.cart.prg_ram + (size_t)(bank % n) * 8u * KIB;
    m->prg_ram_writable = (uint8_t)(writable != 0);
}

/* --- the cartridge as the machine sees it */

void rg__nes_cart_power(rg__nes_machine *m)
{
    rg__nes_cart *c = &m->st.cart;
    /* battery-backed RAM keeps its contents across a power cycle; everything else starts cleared */
    if (!m->info.battery)
        memset(c->prg_ram, 0, sizeof c->prg_ram);
    memset(c->chr_ram, 0, sizeof c->chr_ram);
    memset(c->vram, 0, sizeof c->vram);
    memset(c->regs, 0, sizeof c->regs);
    memset(c->counters, 0, sizeof c->counters);
    memset(c->chip_ram, 0, sizeof c->chip_ram);
    c->a12_dot = 0;
    c->last_write = 0;
    c->clock_cycle = m->st.cycles;
    m->mapper = rg__nes_mapper_find(m->info.mapper);
    m->mapper->power(m);
    rg__nes_cart_sync(m);
}

/* When the clocked counter next needs the machine: the cycle after the one that raises the IRQ. */
static void cart_schedule(rg__nes_machine *m)
{
    uint64_t k = m->mapper->irq_in(m);
    m->cart_sync_at = k ? m->st.cart.clock_cycle + k : UINT64_MAX;
    if (m->cart_sync_at < m->apu_sync_at)
        m->apu_sync_at = m->cart_sync_at;
}

void rg__nes_cart_clock(rg__nes_machine *m, uint64_t cycle)
{
    if (!m->cart_clocked)
        return;
    rg__nes_cart *c = &m->st.cart;
    if (cycle > c->clock_cycle) {
        m->mapper->cpu_clock(m, cycle - c->clock_cycle);
        c->clock_cycle = cycle;
    }
    cart_schedule(m);
}

void rg__nes_cart_sync(rg__nes_machine *m)
{
    m->ppu_phase = m->mapper == &rg__nes_mapper_mmc5;
    m->ppu_watch = m->mapper->ppu_addr != NULL || m->ppu_phase;
    m->ppu_exattr = NULL;
    m->cart_clocked = m->mapper->cpu_clock != NULL;
    if (!m->cart_clocked)
        m->cart_sync_at = UINT64_MAX;
    rg__nes_map_prg_ram(m, 0, 1, 1);
    m->mapper->sync(m);
    if (m->cart_clocked)
        cart_schedule(m);
}

uint8_t rg__nes_cart_read(rg__nes_machine *m, uint16_t addr)
{
    if (addr >= 0x8000u)
        return m->prg_map[(addr >> 13) & 3u][addr & 0x1FFFu];
    if (addr >= 0x6000u)
        return m->prg_ram_map ? m->prg_ram_map[addr & 0x1FFFu] : m->st.open_bus;
    if (m->mapper->read) {
        rg__nes_cart_clock(m, m->st.cycles);
        return m->mapper->read(m, addr);
    }
    return m->st.open_bus;
}

void rg__nes_cart_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    if (addr >= 0x6000u && addr < 0x8000u && m->prg_ram_writable)
        m->prg_ram_map[addr & 0x1FFFu] = value;
    else if (m->st.ppu.mask & 0x18u)
        /* a mapper register may change what the PPU fetches (CHR banks, nametable mirroring, fill modes) mid-frame:
         * the lazily run PPU first draws up to this cycle with the windows it had (docs/nes.md "Clocks"). With
         * rendering off at the PPU's position nothing is fetched until a $2001 write, which runs the PPU itself. */
        rg__nes_ppu_run(m, m->st.cycles);
    if (m->cart_clocked) {
        /* the counter has counted the cycles before this one; the write then lands */
        rg__nes_cart_clock(m, m->st.cycles);
        m->mapper->write(m, addr, value);
        cart_schedule(m);
        return;
    }
    m->mapper->write(m, addr, value);
}

void rg__nes_cart_ppu_addr(rg__nes_machine *m, uint16_t addr, uint64_t dot)
{
    if (m->mapper->ppu_addr)
        m->mapper->ppu_addr(m, addr, dot);
}

void rg__nes_cart_phase(rg__nes_machine *m, unsigned phase)
{
    rg__nes_mmc5_phase(m, phase);
}

const char *rg__nes_cart_check(const rg__nes_machine *m, const rg__nes_cart *c)
{
    return m->mapper->check ? m->mapper->check(c) : NULL;
}
