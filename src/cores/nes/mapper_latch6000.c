/* Discrete-logic boards whose latch sits at $6000-$7FFF (no PRG-RAM there), and CNROM with CHR copy protection.
 * Facts from the nesdev wiki's mapper pages (INES Mapper 087, 140, 184, 185).
 * - 87 (Jaleco JF-05..10, Konami 74*139/74): CHR 8 KiB bank = latch bit 1 as bank bit 0, latch bit 0 as bank bit 1;
 *   PRG fixed. regs[0]: the bank (0-3).
 * - 140 (Jaleco JF-11/14): PRG 32 KiB bank = bits 4-5, CHR 8 KiB bank = bits 0-3. regs[0]: the latch (bits 0-5).
 * - 184 (Sunsoft-1): CHR 4 KiB bank at $0000 = bits 0-2, at $1000 = bits 4-6; PRG fixed. regs[0]: the latch
 *   (bits 0-2, 4-6).
 * - 185 (CNROM, CHR enabled by a diode key): latch at $8000-$FFFF; CHR-ROM reads as $FF while the key does not
 *   match. NES 2.0 submappers 4-7 name the key (CHR on when bits 1-0 equal submapper - 4); without one, FCEUmm's
 *   rule for iNES 1.0 dumps (it covers the keys of the known games): on when bits 1-0 are not both 0 and the value
 *   is not $13.
 *   regs[0]: the last value written. */
#include "cores/nes/mapper.h"

#define FF16 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
#define FF128 FF16, FF16, FF16, FF16, FF16, FF16, FF16, FF16
/* what a disabled CHR-ROM reads as (never written: those windows are not writable) */
static const uint8_t k_chr_off[1024] = {FF128, FF128, FF128, FF128, FF128, FF128, FF128, FF128};

static void power_zero(rg__nes_machine *m)
{
    (void)m;
}

static void header_mirror(rg__nes_machine *m)
{
    rg__nes_map_mirror(m, m->info.mirroring == 1 ? RG__NES_MIRROR_V : RG__NES_MIRROR_H);
}

static int latch6000(rg__nes_machine *m, uint16_t addr, uint8_t value, uint8_t keep)
{
    if (addr < 0x6000u || addr >= 0x8000u)
        return 0;
    m->st.cart.regs[0] = (uint8_t)(value & keep);
    rg__nes_cart_sync(m);
    return 1;
}

/* --- 87 */

/* the latch holds no defined value at power-on; all ones, as FCEUmm starts it (CHR bank 3) */
static void m87_power(rg__nes_machine *m)
{
    m->st.cart.regs[0] = 3;
}

static void m87_sync(rg__nes_machine *m)
{
    rg__nes_map_prg_ram(m, 0, 0, 0);
    rg__nes_map_prg32(m, 0);
    rg__nes_map_chr8(m, m->st.cart.regs[0]);
    header_mirror(m);
}

static void m87_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    latch6000(m, addr, (uint8_t)(((value >> 1) & 1u) | ((value << 1) & 2u)), 3u);
}

static const char *m87_check(const rg__nes_cart *c)
{
    return c->regs[0] > 3 ? "mapper 87 CHR bank above 3" : NULL;
}

/* --- 140 */

static void m140_sync(rg__nes_machine *m)
{
    uint8_t r = m->st.cart.regs[0];
    rg__nes_map_prg_ram(m, 0, 0, 0);
    rg__nes_map_prg32(m, (r >> 4) & 3u);
    rg__nes_map_chr8(m, r & 0x0Fu);
    header_mirror(m);
}

static void m140_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    latch6000(m, addr, value, 0x3Fu);
}

static const char *m140_check(const rg__nes_cart *c)
{
    return (c->regs[0] & ~0x3Fu) ? "mapper 140 latch bits 6-7 set" : NULL;
}

/* --- 184 */

static void m184_sync(rg__nes_machine *m)
{
    uint8_t r = m->st.cart.regs[0];
    rg__nes_map_prg_ram(m, 0, 0, 0);
    rg__nes_map_prg32(m, 0);
    rg__nes_map_chr4(m, 0, r & 7u);
    rg__nes_map_chr4(m, 1, (r >> 4) & 7u);
    header_mirror(m);
}

static void m184_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    latch6000(m, addr, value, 0x77u);
}

static const char *m184_check(const rg__nes_cart *c)
{
    return (c->regs[0] & 0x88u) ? "mapper 184 latch bits 3 or 7 set" : NULL;
}

/* --- 185 */

static int m185_chr_on(const rg__nes_machine *m, uint8_t v)
{
    if (m->info.nes2 && m->info.submapper >= 4 && m->info.submapper <= 7)
        return (v & 3u) == (unsigned)(m->info.submapper - 4u);
    return (v & 3u) != 0 && v != 0x13u;
}

static void m185_sync(rg__nes_machine *m)
{
    rg__nes_map_prg32(m, 0);
    rg__nes_map_chr8(m, 0);
    if (!m185_chr_on(m, m->st.cart.regs[0])) {
        for (unsigned i = 0; i < 8; i++)
            m->chr_map[i] = (uint8_t *)(uintptr_t)k_chr_off;
        m->chr_writable = 0;
    }
    header_mirror(m);
}

static void m185_write(rg__nes_machine *m, uint16_t addr, uint8_t value)
{
    if (addr < 0x8000u)
        return;
    m->st.cart.regs[0] = value;
    rg__nes_cart_sync(m);
}

const rg__nes_mapper rg__nes_mapper_87 = {87, "Jaleco JF-xx / Konami 74*139/74", m87_power, m87_sync, m87_write,
                                          NULL, m87_check, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_140 = {140, "Jaleco JF-11/14", power_zero, m140_sync, m140_write, NULL,
                                           m140_check, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_184 = {184, "Sunsoft-1", power_zero, m184_sync, m184_write, NULL, m184_check, NULL, NULL, NULL};
const rg__nes_mapper rg__nes_mapper_185 = {185, "CNROM with CHR key", power_zero, m185_sync, m185_write, NULL,
                                           NULL, NULL, NULL, NULL};
