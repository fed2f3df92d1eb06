/* The Genesis cartridge (docs/genesis.md, "Cartridge"): the 64 slots of 64 KiB in $000000-$3FFFFF, each showing a
 * ROM page or the backup RAM; the header's backup RAM field; the registers at $A13000-$A130FF as Genesis Plus GX
 * (stable-retro's build) decodes them for a cartridge without special hardware: $A13000-$A1303F the multi-game
 * mapper, $A13040-$A130F1 the SRAM register (bit 0 maps the backup RAM at $200000, bit 1 write-protects it; 0 maps
 * the ROM at $200000-$3FFFFF), $A130F2-$A130FF the eight 512 KiB banks (bank 0 at $A130F1 is the SRAM register). */
#include "cores/genesis/genesis_cart.h"
#include "cores/genesis/genesis.h"

#include "base/base.h"

#include <string.h>

/* --- the header */

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A header text field with runs of spaces made one space, as Genesis Plus GX compares names (NUL-terminated). */
static void header_text(const uint8_t *rom, size_t off, size_t n, char *out)
{
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = (char)rom[off + i];
        if (ch == ' ' && j > 0 && out[j - 1] == ' ')
            continue;
        out[j++] = ch ? ch : ' ';
    }
    out[j] = 0;
}

/* The ROMs whose cartridge saves in a serial (I2C) EEPROM, which this core does not emulate: found by the product
 * code at $182 (12 bytes), and where two share one, the header checksum ($18E) and the first long word (the stack
 * pointer). A code starting with a space names a game whose SRAM-patched copies (a backup RAM field of more than two
 * bytes) run without the EEPROM. Facts from Genesis Plus GX's cartridge list. */
static const struct {
    const char *id;
    uint32_t sp;
    uint16_t chk;
    const char *title;
} k_eeprom_games[] = {
    {"T-50176", 0, 0, "Rings of Power"},
    {"T-50396", 0, 0, "NHLPA Hockey 93"},
    {"T-50446", 0, 0, "John Madden Football 93"},
    {"T-50516", 0, 0, "John Madden Football 93 Championship Edition"},
    {"T-50606", 0, 0, "Bill Walsh College Football"},
    {" T-12046", 0, 0, "Mega Man - The Wily Wars"},
    {" T-12053", 0, 0, "Rockman Mega World"},
    {"MK-1215", 0, 0, "Evander Holyfield's Real Deal Boxing"},
    {"MK-1228", 0, 0, "Greatest Heavyweights"},
    {"G-5538", 0, 0, "Greatest Heavyweights (Japan)"},
    {"PR-1993", 0, 0, "Greatest Heavyweights (prototype)"},
    {" G-4060", 0, 0, "Wonder Boy in Monster World"},
    {"00001211", 0, 0, "Sports Talk Baseball"},
    {"00004076", 0, 0, "Honoo no Toukyuuji Dodge Danpei"},
    {"G-4524", 0, 0, "Ninja Burai Densetsu"},
    {"00054503", 0, 0, "Game Toshokan"},
    {"T-81033", 0, 0, "NBA Jam (Japan)"},
    {"T-081326", 0, 0, "NBA Jam"},
    {"T-081276", 0, 0, "NFL Quarterback Club"},
    {"T-81406", 0, 0, "NBA Jam Tournament Edition"},
    {"T-081586", 0, 0, "NFL Quarterback Club 96"},
    {"T-81476", 0, 0, "Frank Thomas Big Hurt Baseball"},
    {"T-81576", 0, 0, "College Slam"},
    {"T-120106", 0, 0, "Brian Lara Cricket"},
    {"00000000", 0x444E4C44u, 0x168B, "Micro Machines Military"},
    {"00000000", 0x444E4C44u, 0x165E, "Micro Machines Turbo Tournament 96"},
    {"T-120096", 0, 0, "Micro Machines 2 - Turbo Tournament"},
    {"T-120146", 0, 0, "Brian Lara Cricket 96"},
};

/* The first entry (from the end, as Genesis Plus GX searches) whose product code the header's holds. */
static const char *eeprom_game(const uint8_t *rom, uint32_t sram_span)
{
    char product[13];
    memcpy(product, rom + 0x182, 12);
    for (size_t i = 0; i < 12; i++)
        if (!product[i])
            product[i] = ' ';
    product[12] = 0;
    uint16_t chk = (uint16_t)(rom[0x18E] << 8 | rom[0x18F]);
    for (size_t i = sizeof k_eeprom_games / sizeof k_eeprom_games[0]; i-- > 0;) {
        if (!strstr(product, k_eeprom_games[i].id))
            continue;
        if (k_eeprom_games[i].id[0] == ' ' && sram_span > 2u)
            return NULL;
        if ((k_eeprom_games[i].chk == 0 || k_eeprom_games[i].chk == chk) &&
            (k_eeprom_games[i].sp == 0 || k_eeprom_games[i].sp == be32(rom)))
            return k_eeprom_games[i].title;
    }
    return NULL;
}

int rg__gen_cart_open(rg__gen_machine *m, const uint8_t *rom, size_t size)
{
    char product[13], name[49], console[17];
    header_text(rom, 0x182, 12, product);
    header_text(rom, 0x150, 48, name);
    header_text(rom, 0x100, 16, console);
    char domestic[49];
    header_text(rom, 0x120, 48, domestic);
    m->bankshift = strstr(console, "SEGA SSF") ? 2u : strstr(domestic, "SUPER STREET FIGHTER2") ? 1u : 0u;
    if (size > (4u << 20) && !m->bankshift)
        return rg__error(RG_EINVAL, "a Genesis ROM over 4 MiB (this one is %zu bytes) runs in the genesis core only "
                         "with the SSF2 bank registers (a header naming SUPER STREET FIGHTER2 or SEGA SSF); use "
                         "core genesis_plus_gx", size);
    uint32_t start = 0, end = 0;
    m->sram_on = 0;
    memset(&m->eeprom, 0, sizeof m->eeprom);
    if (rom[0x1B0] == 'R' && rom[0x1B1] == 'A') {
        start = be32(rom + 0x1B4) & 0xFFFFFFu;
        end = be32(rom + 0x1B8) & 0xFFFFFFu;
        m->sram_on = 1;
        if (strstr(product, "T-26013")) { /* Psy-O-Blade: a wrong header */
            start = 0x200001u;
            end = 0x203FFFu;
        } else if (start == 0xFF0000u) { /* work RAM named as backup RAM: none */
            m->sram_on = 0;
        } else if (start >= 0x800000u) { /* no cartridge address: 64 KiB at $200000 (as upstream Genesis Plus GX) */
            start = 0x200000u;
            end = 0x20FFFFu;
        } else if (start > end || end - start >= 0x10000u) {
            end = start + 0xFFFFu;
        }
        if (m->sram_on && (rom[0x1B2] == 0xE8u || end - start < 2u)) {
            /* a header declaring an EEPROM: the board of the product code, else the Sega board (as Genesis Plus GX
             * assumes); the Codemasters boards are refused below */
            const char *listed = eeprom_game(rom, end - start);
            if (!listed || rg__gen_eeprom_board_of(product, 0, &m->eeprom)) {
                if (!listed)
                    rg__gen_eeprom_board_of("", 1, &m->eeprom);
                m->sram_on = 0;
                return RG_OK;
            }
        }
        if (m->sram_on && start >= 0x400000u)
            return rg__error(RG_EUNSUPPORTED, "this Genesis ROM's backup RAM is at $%06X, outside the cartridge's "
                             "$000000-$3FFFFF, which the genesis core does not map; use core genesis_plus_gx",
                             (unsigned)start);
    } else if (strstr(product, "T-50086") || strstr(product, "T-50286")) { /* PGA Tour Golf, Buck Rogers */
        m->sram_on = 1;
        start = 0x200001u;
        end = 0x203FFFu;
    } else if (strstr(product, "ACLD007")) { /* Winter Challenge */
        m->sram_on = 1;
        start = 0x200001u;
        end = 0x200FFFu;
    } else if (strstr(name, "SONIC & KNUCKLES")) { /* Sonic 3 & Knuckles (4 MiB) reaches Sonic 3's backup RAM */
        if (size == (4u << 20)) {
            m->sram_on = 1;
            start = 0x200001u;
            end = 0x203FFFu;
        }
    } else if (strstr(product, "T-113016") || strstr(name, "SONIC THE HEDGEHOG 2")) {
        m->sram_on = 0; /* Pugsy, Sonic 2: no backup RAM */
    } else if (size <= (2u << 20)) {
        /* Genesis Plus GX gives any ROM of up to 2 MiB 64 KiB of backup RAM at $200000 */
        m->sram_on = 1;
        start = 0x200000u;
        end = 0x20FFFFu;
    }
    const char *eeprom = eeprom_game(rom, m->sram_on ? end - start : 0u);
    /* a board genesis_eeprom.c emulates (the Codemasters J-Cart boards are refused) */
    if (rg__gen_eeprom_board_of(product, 0, &m->eeprom) && eeprom) {
        m->sram_on = 0;
        return RG_OK;
    }
    if (eeprom)
        return rg__error(RG_EUNSUPPORTED, "this Genesis ROM (%s, product code %s) saves in a serial EEPROM, which "
                         "the genesis core does not emulate; use core genesis_plus_gx", eeprom, product);
    m->sram_slot = (uint8_t)(start >> 16);
    return RG_OK;
}

/* --- mapping */

void rg__gen_cart_refresh(rg__gen_machine *m)
{
    const rg__gen_cart *c = &m->st.cart;
    unsigned mask = m->rom_mask >> 16;
    uint32_t fast = 0x400000u;
    for (unsigned i = 0; i < 64; i++)
        if ((c->sram_slots >> i & 1u) || c->page[i] != (i & mask)) {
            fast = i << 16;
            break;
        }
    if (m->eeprom.kind && fast > 0x200000u && rg__gen_eeprom_reads(&m->eeprom, &c->eeprom, 0x200000u))
        fast = 0x200000u; /* the EEPROM's reads */
    m->rom_fast = fast;
}

static void pages_as_power_on(rg__gen_machine *m, unsigned from, unsigned to)
{
    for (unsigned i = from; i < to; i++)
        m->st.cart.page[i] = (uint8_t)(i & (m->rom_mask >> 16));
}

void rg__gen_cart_power_on(rg__gen_machine *m)
{
    rg__gen_cart *c = &m->st.cart;
    memset(c->sram, 0xFF, sizeof c->sram);
    pages_as_power_on(m, 0, 64);
    c->sram_slots = m->sram_on ? 1ull << m->sram_slot : 0u;
    c->sram_wp = 0;
    memset(c->pad_, 0, sizeof c->pad_);
    rg__gen_eeprom_power_on(&c->eeprom);
    rg__gen_cart_refresh(m);
}

void rg__gen_cart_reset(rg__gen_machine *m)
{
    if (!m->bankshift)
        return;
    pages_as_power_on(m, 0, 64);
    rg__gen_cart_refresh(m);
}

int rg__gen_cart_check(const rg__gen_machine *m, const rg__gen_cart *c)
{
    unsigned mask = m->rom_mask >> 16;
    for (unsigned i = 0; i < 64; i++)
        if (c->page[i] > mask)
            return rg__error(RG_ESTATE, "genesis state: bad cart.page (slot %u shows page %u of a %u-page ROM)", i,
                             c->page[i], mask + 1u);
    uint64_t allowed = m->sram_on ? (1ull << m->sram_slot | 1ull << 0x20) : 0u;
    if (c->sram_slots & ~allowed)
        return rg__error(RG_ESTATE, "genesis state: bad cart.sram_slots (backup RAM where the cartridge has none)");
    if (c->sram_wp > 1u)
        return rg__error(RG_ESTATE, "genesis state: bad cart.sram_wp");
    for (size_t i = 0; i < sizeof c->pad_; i++)
        if (c->pad_[i])
            return rg__error(RG_ESTATE, "genesis state: bad cart padding");
    return rg__gen_eeprom_check(&m->eeprom, &c->eeprom);
}

uint16_t rg__gen_cart_read16(const rg__gen_machine *m, uint32_t addr)
{
    const rg__gen_cart *c = &m->st.cart;
    unsigned slot = (addr >> 16) & 0x3Fu;
    uint32_t off = addr & 0xFFFEu;
    if (m->eeprom.kind && rg__gen_eeprom_reads(&m->eeprom, &c->eeprom, addr & 0x3FFFFEu))
        return rg__gen_eeprom_read16(&m->eeprom, &c->eeprom, c->sram);
    if (c->sram_slots >> slot & 1u)
        return (uint16_t)(c->sram[off] << 8 | c->sram[off + 1u]);
    uint32_t a = ((uint32_t)c->page[slot] << 16 | off) & m->rom_mask;
    return (uint16_t)(m->rom[a] << 8 | m->rom[a + 1u]);
}

void rg__gen_cart_write16(rg__gen_machine *m, uint32_t addr, uint16_t v, int sel)
{
    rg__gen_cart *c = &m->st.cart;
    unsigned slot = (addr >> 16) & 0x3Fu;
    if (m->eeprom.kind && rg__gen_eeprom_write16(&m->eeprom, &c->eeprom, c->sram, addr & 0x3FFFFEu, v, sel)) {
        rg__gen_cart_refresh(m); /* an Acclaim 32 Mbit board's word write maps the ROM or the EEPROM for reads */
        return;
    }
    if (!(c->sram_slots >> slot & 1u) || (slot == 0x20u && c->sram_wp))
        return; /* ROM, or write-protected backup RAM: the write is lost */
    uint32_t off = addr & 0xFFFEu;
    if (sel & 2)
        c->sram[off] = (uint8_t)(v >> 8);
    if (sel & 1)
        c->sram[off + 1u] = (uint8_t)v;
}

void rg__gen_cart_time_write(rg__gen_machine *m, uint32_t addr, uint16_t v, int sel)
{
    rg__gen_cart *c = &m->st.cart;
    /* Genesis Plus GX hands the register the byte's own address and value, or a word's even address and 16 bits */
    uint32_t a = addr & 0xFFu;
    unsigned data = v;
    if (sel == 1) {
        a |= 1u;
        data = v & 0xFFu;
    } else if (sel == 2) {
        data = v >> 8;
    }
    unsigned mask = m->rom_mask >> 16;
    if (m->bankshift) {
        /* Super Street Fighter II's board decodes address bits 3-1 only: banks 1-7 (a write with bits 3-1 zero, the
         * SRAM register's $A130F1 among them, does nothing); the extended SSF board ("SEGA SSF") banks 0-7 */
        if (m->bankshift == 2u || (a & 0x0Eu)) {
            unsigned first = (a << 2) & 0x38u;
            for (unsigned i = 0; i < 8; i++)
                c->page[first + i] = (uint8_t)((data * 8u + i) & mask);
        }
    } else if (a < 0x40u) {
        /* the multi-game mapper: slot i shows page (address + i) mod 64 */
        for (unsigned i = 0; i < 64; i++)
            c->page[i] = (uint8_t)(((a + i) & 0x3Fu) & mask);
    } else if (a > 0xF1u) {
        /* a 512 KiB bank: $A130F2/3 bank 1 ... $A130FE/F bank 7 */
        unsigned first = (a << 2) & 0x38u;
        for (unsigned i = 0; i < 8; i++)
            c->page[first + i] = (uint8_t)((data * 8u + i) & mask);
    } else if (data & 1u) {
        /* the backup RAM at $200000-$20FFFF, bit 1 its write protection */
        if (m->sram_on) {
            c->sram_slots |= 1ull << 0x20;
            c->sram_wp = (uint8_t)((data >> 1) & 1u);
        }
    } else {
        /* the ROM at $200000-$3FFFFF */
        pages_as_power_on(m, 0x20, 0x40);
        c->sram_slots &= 0xFFFFFFFFull;
        c->sram_wp = 0;
    }
    rg__gen_cart_refresh(m);
}
