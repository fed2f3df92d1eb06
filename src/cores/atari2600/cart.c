/* Atari 2600 cartridges: power-on state, bank switching, extra RAM ports (see cart.h). */
#include "cores/atari2600/cart.h"

#include <string.h>

#include <nettle/md5.h>

static const char *const k_names[RG__A26_CART_COUNT] = {
    "2K", "4K", "F8", "F8SC", "F6", "F6SC", "F4", "F4SC", "FE", "E0", "3F", "FA", "E7", "CV", "UA",
};

const char *rg__a26_cart_type_name(rg__a26_cart_type type)
{
    return (unsigned)type < RG__A26_CART_COUNT ? k_names[type] : "?";
}

static int ascii_upper(int ch)
{
    return ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch;
}

int rg__a26_cart_type_from_name(const char *name, rg__a26_cart_type *type)
{
    if (name == NULL || type == NULL)
        return rg__error(RG_EINVAL, "atari2600: no cartridge type name");
    for (int t = 0; t < RG__A26_CART_COUNT; t++) {
        const char *a = k_names[t], *b = name;
        while (*a != '\0' && ascii_upper((unsigned char)*b) == *a) {
            a++;
            b++;
        }
        if (*a == '\0' && *b == '\0') {
            *type = (rg__a26_cart_type)t;
            return RG_OK;
        }
    }
    return rg__error(RG_EINVAL,
                     "atari2600: unknown cartridge type '%s' (known: 2K 4K F8 F8SC F6 F6SC F4 F4SC FE E0 3F FA E7 "
                     "CV UA)", name);
}

/* --- mapping helpers: keep seg[] (ROM offset minus window offset per 1 KiB slice) in step with the registers */

static void map_4k(rg__a26_cart *c, unsigned bank)
{
    c->bank = (uint8_t)bank;
    for (int i = 0; i < 4; i++)
        c->seg[i] = (uint32_t)bank << 12;
}

static void map_e0(rg__a26_cart *c)
{
    for (unsigned i = 0; i < 4; i++)
        c->seg[i] = ((uint32_t)c->slice[i] << 10) - (i << 10);
}

/* 3F and E7: a 2 KiB bank at $1000-$17FF; $1800-$1FFF is fixed (set at init). */
static void map_low_2k(rg__a26_cart *c, unsigned bank)
{
    c->bank = (uint8_t)bank;
    c->seg[0] = c->seg[1] = (uint32_t)bank << 11;
}

static void fe_select(rg__a26_cart *c, uint8_t data)
{
    /* Data bit 5 is A13 of the address the CPU jumps to: set ($Fxxx) is the first 4 KiB, clear ($Dxxx) the second. */
    map_4k(c, (data & 0x20) ? 0 : 1);
    c->fe_armed = 0;
    c->fast_len = 0x1000;
}

static void fe_arm(rg__a26_cart *c)
{
    c->fe_armed = 1;
    c->fast_len = 0; /* every cart access goes through the slow path until the switch resolves */
}

/* F8/F6/F4/FA (+SC) hot spots: bank i at hot_lo + i. */
static void hot_4k(rg__a26_cart *c, unsigned a)
{
    unsigned i = a - c->hot_lo;
    if (i < c->nbanks)
        map_4k(c, i);
}

static void hot_e0(rg__a26_cart *c, unsigned a)
{
    unsigned i = a - 0xFE0u;
    if (i < 24) {
        c->slice[i >> 3] = (uint8_t)(i & 7);
        map_e0(c);
    }
}

static void hot_e7(rg__a26_cart *c, unsigned a)
{
    if (a >= 0xFE0 && a <= 0xFE7)
        map_low_2k(c, a & 7);
    else if (a >= 0xFE8 && a <= 0xFEB)
        c->ram_bank = (uint8_t)(a & 3);
}

static inline uint8_t rom_at(const rg__a26_cart *c, const uint8_t *rom, unsigned a)
{
    return rom[c->seg[a >> 10] + a];
}

uint8_t rg__a26_cart_read_slow(rg__a26_cart *c, const uint8_t *rom, unsigned a, uint8_t open_bus, uint32_t *rng)
{
    /* Only a read of a write port uses the open-bus value; draw from the generator just then (as Stella does). */
#define OPEN_BUS() (rng ? (uint8_t)(open_bus | rg__a26_rng_next(rng)) : open_bus)
    switch ((rg__a26_cart_type)c->type) {
    case RG__A26_CART_F8SC:
    case RG__A26_CART_F6SC:
    case RG__A26_CART_F4SC:
        if (a < 0x080)
            return c->ram[a] = OPEN_BUS(); /* a read of the write port writes what floats on the bus */
        if (a < 0x100)
            return c->ram[a & 0x7F];
        hot_4k(c, a);
        return rom_at(c, rom, a);
    case RG__A26_CART_FA:
        if (a < 0x100)
            return c->ram[a] = OPEN_BUS();
        if (a < 0x200)
            return c->ram[a & 0xFF];
        hot_4k(c, a);
        return rom_at(c, rom, a);
    case RG__A26_CART_F8:
    case RG__A26_CART_F6:
    case RG__A26_CART_F4:
        hot_4k(c, a);
        return rom_at(c, rom, a);
    case RG__A26_CART_E0:
        hot_e0(c, a);
        return rom_at(c, rom, a);
    case RG__A26_CART_E7:
        hot_e7(c, a);
        if (a < 0x800) {
            if (c->bank != 7)
                return rom_at(c, rom, a);
            if (a < 0x400)
                return c->ram[a] = OPEN_BUS();
            return c->ram[a & 0x3FF];
        }
        if (a < 0xA00) {
            uint8_t *cell = &c->ram[1024u + ((unsigned)c->ram_bank << 8) + (a & 0xFF)];
            if (a < 0x900)
                *cell = OPEN_BUS();
            return *cell;
        }
        return rom_at(c, rom, a);
    case RG__A26_CART_CV:
        if (a < 0x400)
            return c->ram[a];
        if (a < 0x800)
            return c->ram[a & 0x3FF] = OPEN_BUS();
        return rom_at(c, rom, a);
    case RG__A26_CART_FE: {
        uint8_t v = rom_at(c, rom, a); /* the byte comes from the bank selected before this access */
        if (c->fe_armed)
            fe_select(c, v);
        return v;
    }
    default:
        return rom_at(c, rom, a);
    }
#undef OPEN_BUS
}

void rg__a26_cart_write_slow(rg__a26_cart *c, const uint8_t *rom, unsigned a, uint8_t value)
{
    (void)rom;
    switch ((rg__a26_cart_type)c->type) {
    case RG__A26_CART_F8SC:
    case RG__A26_CART_F6SC:
    case RG__A26_CART_F4SC:
        if (a < 0x080)
            c->ram[a] = value;
        else if (a >= 0x100)
            hot_4k(c, a);
        return;
    case RG__A26_CART_FA:
        if (a < 0x100)
            c->ram[a] = value;
        else if (a >= 0x200)
            hot_4k(c, a);
        return;
    case RG__A26_CART_F8:
    case RG__A26_CART_F6:
    case RG__A26_CART_F4:
        hot_4k(c, a);
        return;
    case RG__A26_CART_E0:
        hot_e0(c, a);
        return;
    case RG__A26_CART_E7:
        hot_e7(c, a);
        if (a < 0x400 && c->bank == 7)
            c->ram[a] = value;
        else if (a >= 0x800 && a < 0x900)
            c->ram[1024u + ((unsigned)c->ram_bank << 8) + (a & 0xFF)] = value;
        return;
    case RG__A26_CART_CV:
        if (a >= 0x400 && a < 0x800)
            c->ram[a & 0x3FF] = value;
        return;
    case RG__A26_CART_FE:
        if (c->fe_armed)
            fe_select(c, value);
        return;
    default:
        return;
    }
}

void rg__a26_cart_snoop(rg__a26_cart *c, uint16_t addr, uint8_t value, int is_write)
{
    addr &= 0x1FFF;
    switch ((rg__a26_cart_type)c->type) {
    case RG__A26_CART_3F:
        /* Stella decodes exactly $00-$3F (not the TIA mirrors above); the written byte is the bank number. */
        if (is_write && addr <= 0x3F)
            map_low_2k(c, value % c->nbanks);
        return;
    case RG__A26_CART_FE:
        /* JSR writes the return address to $01FF/$01FE and then fetches the target's high byte; RTS reads $01FE
         * then $01FF (the return address's high byte). Either way the access after $01FE carries the bank. */
        if (c->fe_armed)
            fe_select(c, value);
        if (addr == 0x01FE)
            fe_arm(c);
        return;
    case RG__A26_CART_UA:
        if (addr == 0x0220)
            map_4k(c, 0);
        else if (addr == 0x0240)
            map_4k(c, 1);
        return;
    default:
        return;
    }
}

/* Re-applies the mapping the registers (bank, slice, ram_bank, fe_armed) imply, for a state built from outside
 * (a converted save state); registers out of range are left for rg__a26_cart_check to refuse. */
void rg__a26_cart_remap(rg__a26_cart *c)
{
    switch ((rg__a26_cart_type)c->type) {
    case RG__A26_CART_F8: case RG__A26_CART_F8SC: case RG__A26_CART_F6: case RG__A26_CART_F6SC:
    case RG__A26_CART_F4: case RG__A26_CART_F4SC: case RG__A26_CART_FA: case RG__A26_CART_UA:
    case RG__A26_CART_FE:
        if (c->bank < c->nbanks)
            map_4k(c, c->bank);
        if (c->type == RG__A26_CART_FE && c->fe_armed)
            fe_arm(c);
        return;
    case RG__A26_CART_E0:
        if (c->slice[0] < 8 && c->slice[1] < 8 && c->slice[2] < 8 && c->slice[3] < 8)
            map_e0(c);
        return;
    case RG__A26_CART_3F:
    case RG__A26_CART_E7:
        if (c->bank < c->nbanks)
            map_low_2k(c, c->bank);
        return;
    default:
        return;
    }
}

/* --- power-on */

/* F8 images whose banks were dumped in the opposite order start in bank 0 (Stella 3.9.3's list, by MD5). */
static int f8_starts_low(const uint8_t *rom, size_t size)
{
    static const char *const md5s[] = {
        "bc24440b59092559a1ec26055fd1270e", /* Private Eye [a] */
        "75ea60884c05ba496473c23a58edf12f", /* 8-in-1 Yars Revenge */
        "75ee371ccfc4f43e7d9b8f24e1266b55", /* Snow White */
        "74c8a6f20f8adaa7e05183f796eda796", /* Tricade Demo */
        "9905f9f4706223dadee84f6867ede8e3", /* Challenge */
    };
    struct md5_ctx ctx;
    uint8_t digest[MD5_DIGEST_SIZE];
    char hex[2 * MD5_DIGEST_SIZE + 1];
    md5_init(&ctx);
    md5_update(&ctx, size, rom);
    md5_digest(&ctx, sizeof digest, digest);
    for (size_t i = 0; i < MD5_DIGEST_SIZE; i++) {
        hex[2 * i] = "0123456789abcdef"[digest[i] >> 4];
        hex[2 * i + 1] = "0123456789abcdef"[digest[i] & 15];
    }
    hex[sizeof hex - 1] = '\0';
    for (size_t i = 0; i < sizeof md5s / sizeof md5s[0]; i++)
        if (strcmp(hex, md5s[i]) == 0)
            return 1;
    return 0;
}

static int size_error(rg__a26_cart_type type, size_t size, const char *need)
{
    return rg__error(RG__A26_CART_EFORMAT, "atari2600: a %s cartridge needs %s, this image has %zu bytes",
                     rg__a26_cart_type_name(type), need, size);
}

int rg__a26_cart_init(rg__a26_cart *c, rg__a26_cart_type type, const uint8_t *rom, size_t size)
{
    if (c == NULL || rom == NULL || (unsigned)type >= RG__A26_CART_COUNT)
        return rg__error(RG_EINVAL, "atari2600: bad cartridge arguments");
    memset(c, 0, sizeof *c);
    c->type = (uint8_t)type;
    c->rom_size = (uint32_t)(size > 0xFFFFFFFFu ? 0xFFFFFFFFu : size);
    c->fast_lo = 0;
    c->fast_len = 0x1000;

    switch (type) {
    case RG__A26_CART_2K:
        /* A 4 KiB dump of a 2 KiB game has two equal halves; the first is used. */
        if (size != 2048 && !(size == 4096 && memcmp(rom, rom + 2048, 2048) == 0))
            return size_error(type, size, "2048 bytes (or 4096 with two equal halves)");
        c->seg[0] = c->seg[1] = 0;
        c->seg[2] = c->seg[3] = (uint32_t)0 - 0x800u; /* $1800-$1FFF mirrors $1000-$17FF */
        c->nbanks = 1;
        return RG_OK;
    case RG__A26_CART_4K:
        if (size != 4096 && !(size == 8192 && memcmp(rom, rom + 4096, 4096) == 0))
            return size_error(type, size, "4096 bytes (or 8192 with two equal halves)");
        c->nbanks = 1;
        map_4k(c, 0);
        return RG_OK;
    case RG__A26_CART_F8:
    case RG__A26_CART_F8SC:
    case RG__A26_CART_F6:
    case RG__A26_CART_F6SC:
    case RG__A26_CART_F4:
    case RG__A26_CART_F4SC: {
        int sc = type == RG__A26_CART_F8SC || type == RG__A26_CART_F6SC || type == RG__A26_CART_F4SC;
        int f8 = type == RG__A26_CART_F8 || type == RG__A26_CART_F8SC;
        int f6 = type == RG__A26_CART_F6 || type == RG__A26_CART_F6SC;
        c->nbanks = f8 ? 2 : f6 ? 4 : 8;
        if (size != (size_t)c->nbanks * 4096)
            return size_error(type, size, f8 ? "8192 bytes" : f6 ? "16384 bytes" : "32768 bytes");
        c->hot_lo = f8 ? 0xFF8 : f6 ? 0xFF6 : 0xFF4;
        c->fast_lo = sc ? 0x100 : 0;
        c->fast_len = (uint16_t)(c->hot_lo - c->fast_lo);
        /* Stella 3.9.3 starts F8 in bank 1 (the bank real F8 games reset into) except for a few odd dumps. */
        map_4k(c, type == RG__A26_CART_F8 ? !f8_starts_low(rom, size) : f8 ? 1 : 0);
        return RG_OK;
    }
    case RG__A26_CART_FA:
        if (size != 12288)
            return size_error(type, size, "12288 bytes");
        c->nbanks = 3;
        c->hot_lo = 0xFF8;
        c->fast_lo = 0x200;
        c->fast_len = 0xFF8 - 0x200;
        map_4k(c, 2);
        return RG_OK;
    case RG__A26_CART_UA:
    case RG__A26_CART_FE:
        if (size != 8192)
            return size_error(type, size, "8192 bytes");
        c->nbanks = 2;
        map_4k(c, 0);
        return RG_OK;
    case RG__A26_CART_E0:
        if (size != 8192)
            return size_error(type, size, "8192 bytes");
        c->nbanks = 8;
        c->slice[0] = 4;
        c->slice[1] = 5;
        c->slice[2] = 6;
        c->slice[3] = 7;
        map_e0(c);
        c->fast_len = 0xFE0;
        return RG_OK;
    case RG__A26_CART_3F:
        if (size < 2048 || size % 2048 != 0 || size > 256u * 2048u)
            return size_error(type, size, "a multiple of 2048 bytes up to 512 KiB");
        c->nbanks = (uint16_t)(size / 2048);
        map_low_2k(c, 0);
        c->seg[2] = c->seg[3] = (uint32_t)(size - 2048) - 0x800u;
        return RG_OK;
    case RG__A26_CART_E7:
        if (size != 16384)
            return size_error(type, size, "16384 bytes");
        c->nbanks = 8;
        map_low_2k(c, 0);
        c->seg[2] = c->seg[3] = 7u * 2048u - 0x800u;
        c->fast_lo = 0xA00;
        c->fast_len = 0xFE0 - 0xA00;
        return RG_OK;
    case RG__A26_CART_CV:
        if (size != 2048 && size != 4096)
            return size_error(type, size, "2048 or 4096 bytes");
        /* A 4 KiB image holds the initial 1 KiB RAM contents first and the 2 KiB ROM in its second half. */
        if (size == 4096)
            memcpy(c->ram, rom, 1024);
        c->nbanks = 1;
        c->seg[2] = c->seg[3] = (uint32_t)(size - 2048) - 0x800u;
        c->fast_lo = 0x800;
        c->fast_len = 0x800;
        return RG_OK;
    default:
        return rg__error(RG_EINVAL, "atari2600: bad cartridge type %d", (int)type);
    }
}

size_t rg__a26_cart_randomize_ram(rg__a26_cart *c, uint32_t *rng)
{
    size_t n;
    switch ((rg__a26_cart_type)c->type) {
    case RG__A26_CART_F8SC:
    case RG__A26_CART_F6SC:
    case RG__A26_CART_F4SC:
        n = 128;
        break;
    case RG__A26_CART_FA:
        n = 256;
        break;
    case RG__A26_CART_E7:
        n = 2048;
        break;
    case RG__A26_CART_CV:
        n = c->rom_size == 4096 ? 0 : 1024; /* a 4 KiB image brings its initial RAM */
        break;
    default:
        n = 0;
        break;
    }
    for (size_t i = 0; i < n; i++)
        c->ram[i] = (uint8_t)rg__a26_rng_next(rng);
    return n;
}

/* --- states from outside */

int rg__a26_cart_check(const rg__a26_cart *c, const uint8_t *rom, size_t size)
{
    rg__a26_cart ref;
    if (c == NULL || rom == NULL || c->type >= RG__A26_CART_COUNT)
        return rg__error(RG_ESTATE, "atari2600: the state has no valid cartridge type");
    if (rg__a26_cart_init(&ref, (rg__a26_cart_type)c->type, rom, size) != RG_OK)
        return rg__error(RG_ESTATE, "atari2600: the state's %s cartridge does not fit this %zu-byte image",
                         rg__a26_cart_type_name((rg__a26_cart_type)c->type), size);
    int ok = c->fe_armed <= 1;
    switch ((rg__a26_cart_type)c->type) {
    case RG__A26_CART_F8:
    case RG__A26_CART_F8SC:
    case RG__A26_CART_F6:
    case RG__A26_CART_F6SC:
    case RG__A26_CART_F4:
    case RG__A26_CART_F4SC:
    case RG__A26_CART_FA:
    case RG__A26_CART_UA:
        ok = ok && c->bank < ref.nbanks;
        if (ok)
            map_4k(&ref, c->bank);
        break;
    case RG__A26_CART_FE:
        ok = ok && c->bank < 2;
        if (ok) {
            map_4k(&ref, c->bank);
            if (c->fe_armed)
                fe_arm(&ref);
        }
        break;
    case RG__A26_CART_E0:
        ok = ok && c->slice[0] < 8 && c->slice[1] < 8 && c->slice[2] < 8 && c->slice[3] == 7;
        if (ok) {
            memcpy(ref.slice, c->slice, sizeof ref.slice);
            map_e0(&ref);
        }
        break;
    case RG__A26_CART_3F:
    case RG__A26_CART_E7:
        ok = ok && c->bank < ref.nbanks && c->ram_bank < 4;
        if (ok) {
            map_low_2k(&ref, c->bank);
            ref.ram_bank = c->ram_bank;
        }
        break;
    default:
        break;
    }
    memcpy(ref.ram, c->ram, sizeof ref.ram);
    if (!ok || memcmp(&ref, c, sizeof ref) != 0)
        return rg__error(RG_ESTATE, "atari2600: the state's %s cartridge registers are inconsistent",
                         rg__a26_cart_type_name((rg__a26_cart_type)c->type));
    return RG_OK;
}
