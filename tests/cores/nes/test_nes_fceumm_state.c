/* FCEUmm save states (the start states of stable-retro's NES integrations) loaded into our NES core: every
 * SuperMarioBros-Nes state (gym-super-mario-bros' ROM) converts, its RAM and registers arrive as FCEUmm saved them
 * and our own snapshot of it reloads; SuperMarioBros3-Nes' MMC3 states convert on a cartridge built here with that
 * game's board (PRG all NOPs: the wheel has no SMB3 ROM), and so do the further mappers' (MMC5 from CastlevaniaIII, also with hostile entries; Namco 163 also in the
 * entries newer FCEUmm versions add: its IRQ counter arrives running and fires); truncated, damaged, hostile and foreign states are refused
 * with RG_ESTATE naming what is wrong and the machine unchanged; through the env a state our core refuses still runs
 * on FCEUmm. Skipped without the stable-retro data or the gym-super-mario-bros ROM in .venv. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include "base/base.h"
#include "cores/nes/nes.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define OUR_HEADER 24 /* nes_core.c's snapshot header before the rg__nes_state copy */

static char g_site[1024];
static char g_smb_rom[1200];
static char g_data[1200];
static char g_tmp[1200];

static int exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

static int setup(void **state)
{
    (void)state;
    glob_t g;
    if (glob(RG_SOURCE_DIR "/.venv/lib/python3*/site-packages", 0, NULL, &g) == 0 && g.gl_pathc > 0)
        snprintf(g_site, sizeof g_site, "%s", g.gl_pathv[0]);
    globfree(&g);
    snprintf(g_smb_rom, sizeof g_smb_rom, "%s/gym_super_mario_bros/_roms/super-mario-bros.nes", g_site);
    snprintf(g_data, sizeof g_data, "%s/stable_retro/data/stable", g_site);
    snprintf(g_tmp, sizeof g_tmp, "%s/nes-fceumm-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(g_tmp))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rg__remove_tree(g_tmp);
    return 0;
}

static int have_smb(void)
{
    char p[1400];
    snprintf(p, sizeof p, "%s/SuperMarioBros-Nes-v0/Level1-1.state", g_data);
    return g_site[0] && exists(g_smb_rom) && exists(p);
}

/* A gzipped state file, uncompressed (malloc'd). */
static uint8_t *read_gz(const char *path, size_t *len)
{
    gzFile f = gzopen(path, "rb");
    assert_non_null(f);
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    int k;
    while ((k = gzread(f, buf + n, (unsigned)(cap - n))) > 0) {
        n += (size_t)k;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
        assert_non_null(buf);
    }
    gzclose(f);
    *len = n;
    return buf;
}

static uint8_t *smb_state(const char *name, size_t *len)
{
    char p[1400];
    snprintf(p, sizeof p, "%s/%s.state", g_data, name);
    return read_gz(p, len);
}

/* The bytes of entry `name` (4 characters, NUL padded) of an FCEUmm state; NULL when absent. */
static uint8_t *entry(uint8_t *st, size_t len, const char *name, uint32_t *size)
{
    char n4[4] = {0};
    memcpy(n4, name, strlen(name));
    size_t off = 16;
    while (off + 5 <= len) {
        uint32_t ssize = (uint32_t)(st[off + 1] | st[off + 2] << 8 | st[off + 3] << 16 | (uint32_t)st[off + 4] << 24);
        size_t end = off + 5 + ssize, e = off + 5;
        while (e + 8 <= end) {
            uint32_t es = (uint32_t)(st[e + 4] | st[e + 5] << 8 | st[e + 6] << 16 | (uint32_t)st[e + 7] << 24);
            if (memcmp(st + e, n4, 4) == 0) {
                if (size)
                    *size = es;
                return st + e + 8;
            }
            e += 8 + es;
        }
        off = end;
    }
    return NULL;
}

/* An iNES image for mapper `mapper` (flag-6 bits `flags6` besides its number) with `prg` bytes of PRG-ROM, all NOP
 * ($EA), and `chr` bytes of CHR-ROM, zeros (none: CHR-RAM); *len gets its size, the caller frees it. */
static uint8_t *nop_cart(size_t prg, size_t chr, unsigned mapper, unsigned flags6, size_t *len)
{
    *len = 16 + prg + chr;
    uint8_t *rom = calloc(1, *len);
    assert_non_null(rom);
    memcpy(rom, "NES\x1a", 4);
    rom[4] = (uint8_t)(prg >> 14);
    rom[5] = (uint8_t)(chr >> 13);
    rom[6] = (uint8_t)((mapper & 15u) << 4 | flags6);
    rom[7] = (uint8_t)(mapper & 0xF0u);
    memset(rom + 16, 0xEA, prg);
    return rom;
}

/* nop_cart written to path. */
static void write_nop_cart(const char *path, size_t prg, size_t chr, unsigned mapper, unsigned flags6)
{
    size_t rl;
    uint8_t *rom = nop_cart(prg, chr, mapper, flags6, &rl);
    assert_int_equal(rg__write_file_atomic(path, rom, rl), RG_OK);
    free(rom);
}

static rg_emu *open_nes(const char *rom)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "nes";
    o.system = "Nes";
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, rom, &o) != RG_OK)
        fail_msg("cannot open %s: %s", rom, rg_error_last());
    return emu;
}

/* Our snapshot of the machine (header + rg__nes_state). */
static uint8_t *snapshot(rg_emu *emu, size_t *len)
{
    assert_int_equal(rg_emu_state_size(emu, len), RG_OK);
    uint8_t *b = malloc(*len);
    assert_non_null(b);
    size_t w;
    assert_int_equal(rg_emu_state_save(emu, b, *len, &w), RG_OK);
    assert_int_equal(w, *len);
    assert_int_equal(*len, OUR_HEADER + sizeof(rg__nes_state));
    return b;
}

static const rg__nes_state *as_state(const uint8_t *snap)
{
    return (const rg__nes_state *)(const void *)(snap + OUR_HEADER);
}

static void smb_states_convert(void **state)
{
    (void)state;
    if (!have_smb())
        skip();
    char pattern[1400];
    snprintf(pattern, sizeof pattern, "%s/SuperMarioBros-Nes-v0/*.state", g_data);
    glob_t g;
    assert_int_equal(glob(pattern, 0, NULL, &g), 0);
    assert_true(g.gl_pathc >= 10);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        size_t len;
        uint8_t *st = read_gz(g.gl_pathv[i], &len);
        rg_emu *emu = open_nes(g_smb_rom);
        if (rg_emu_state_load(emu, st, len) != RG_OK)
            fail_msg("%s: %s", g.gl_pathv[i], rg_error_last());
        /* SMB waits for its NMI in a loop that touches no RAM: the RAM is FCEUmm's */
        uint8_t ram[0x800];
        assert_int_equal(rg_emu_mem_read(emu, 0, ram, sizeof ram), RG_OK);
        assert_memory_equal(ram, entry(st, len, "RAM", NULL), sizeof ram);
        size_t sl;
        uint8_t *snap = snapshot(emu, &sl);
        const rg__nes_state *s = as_state(snap);
        /* the registers arrive as saved; the machine has run to our frame end, the vblank of line 241 */
        const uint8_t *ppur = entry(st, len, "PPUR", NULL), *pram = entry(st, len, "PRAM", NULL);
        assert_int_equal(s->ppu.ctrl, ppur[0]);
        assert_int_equal(s->ppu.mask, ppur[1]);
        assert_int_equal(s->ppu.line, 241);
        assert_true(s->ppu.status & 0x80);
        assert_memory_equal(s->ppu.oam, entry(st, len, "SPRA", NULL), 256);
        assert_memory_equal(s->cart.vram, entry(st, len, "NTAR", NULL), 0x800);
        assert_memory_equal(s->cart.prg_ram, entry(st, len, "WRAM", NULL), 0x2000);
        for (int k = 0; k < 32; k++)
            assert_int_equal(s->ppu.palette[k], pram[k] & 0x3F);
        const uint8_t *tsbs = entry(st, len, "TSBS", NULL);
        uint64_t t = (uint64_t)tsbs[0] | (uint64_t)tsbs[1] << 8 | (uint64_t)tsbs[2] << 16 | (uint64_t)tsbs[3] << 24;
        assert_true(s->cycles > t && s->cycles < t + 120); /* the post-render line: 113.7 cycles */
        assert_int_equal(s->apu.enabled, entry(st, len, "ENCH", NULL)[0] & 0x0F);
        /* our own snapshot of the converted machine loads back and runs the same */
        rg_emu *b = open_nes(g_smb_rom);
        assert_int_equal(rg_emu_state_load(b, snap, sl), RG_OK);
        for (int f = 0; f < 30; f++) {
            rg_emu_set_buttons(emu, 0, 0x80);
            rg_emu_set_buttons(b, 0, 0x80);
            assert_int_equal(rg_emu_run(emu), RG_OK);
            assert_int_equal(rg_emu_run(b), RG_OK);
        }
        assert_int_equal(test_ram_hash(emu), test_ram_hash(b));
        assert_int_equal(test_frame_hash(emu), test_frame_hash(b));
        rg_emu_free(b);
        free(snap);
        rg_emu_free(emu);
        free(st);
    }
    globfree(&g);
}

/* Loading `bad` must fail with RG_ESTATE naming `what` (when given) and leave the machine as it was. */
static void refused(rg_emu *emu, const uint8_t *bad, size_t len, const char *what)
{
    size_t n0, n1;
    uint8_t *before = snapshot(emu, &n0);
    int rc = rg_emu_state_load(emu, bad, len);
    if (rc != RG_ESTATE)
        fail_msg("a bad state (%zu bytes, %s) gave %d", len, what ? what : "-", rc);
    if (what && !strstr(rg_error_last(), what))
        fail_msg("the error \"%s\" does not name %s", rg_error_last(), what);
    uint8_t *after = snapshot(emu, &n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
}

static void bad_states_refused(void **state)
{
    (void)state;
    if (!have_smb())
        skip();
    size_t len;
    uint8_t *st = smb_state("SuperMarioBros-Nes-v0/Level1-1", &len);
    rg_emu *emu = open_nes(g_smb_rom);
    assert_int_equal(rg_emu_run(emu), RG_OK);
    uint8_t *bad = malloc(len);
    assert_non_null(bad);
    /* truncated anywhere */
    for (size_t cut = 0; cut < len; cut += cut < 64 ? 1 : 97)
        refused(emu, st, cut < 3 ? 3 : cut, NULL);
    /* an old FCE Ultra header, a payload size beyond the file */
    memcpy(bad, st, len);
    bad[3] = 0x53;
    refused(emu, bad, len, "old FCE Ultra");
    memcpy(bad, st, len);
    bad[6] = 0x7F;
    refused(emu, bad, len, "truncated");
    /* an entry size that runs past its section */
    memcpy(bad, st, len);
    uint8_t *pc = entry(bad, len, "PC", NULL);
    pc[-4] = 0xF0;
    pc[-1] = 0xFF;
    refused(emu, bad, len, "truncated entry");
    /* a missing entry, an entry of another size */
    memcpy(bad, st, len);
    entry(bad, len, "PC", NULL)[-8] = 'Q';
    refused(emu, bad, len, "PC is missing");
    memcpy(bad, st, len);
    uint8_t *v = entry(bad, len, "XOFF", NULL);
    v[0] = 9;
    refused(emu, bad, len, "XOFF");
    memcpy(bad, st, len);
    v = entry(bad, len, "RADD", NULL);
    v[1] = 0x80;
    refused(emu, bad, len, "RADD");
    memcpy(bad, st, len);
    v = entry(bad, len, "LEN0", NULL);
    v[1] = 1;
    refused(emu, bad, len, "LEN0");
    memcpy(bad, st, len);
    v = entry(bad, len, "ICou", NULL);
    v[0] = 0x10;
    v[1] = v[2] = v[3] = 0;
    refused(emu, bad, len, "ICou");
    memcpy(bad, st, len);
    v = entry(bad, len, "P", NULL);
    v[-4] = 2; /* the entry claims 2 bytes: it then swallows the next entry's name */
    refused(emu, bad, len, NULL);
    /* a cartridge entry NROM does not have */
    memcpy(bad, st, len);
    entry(bad, len, "WRAM", NULL)[-5] = 'X';
    refused(emu, bad, len, "WRAX");
    free(bad);
    /* a state of another cartridge: SuperMarioBros2Japan-Nes (its mapper's IRQ counter) on SMB's NROM */
    char p[1400];
    snprintf(p, sizeof p, "%s/SuperMarioBros2Japan-Nes-v0/Level1-1.state", g_data);
    if (exists(p)) {
        size_t l2;
        uint8_t *j = read_gz(p, &l2);
        refused(emu, j, l2, "IRQC");
        free(j);
    }
    /* and the real one still loads after all that */
    assert_int_equal(rg_emu_state_load(emu, st, len), RG_OK);
    rg_emu_free(emu);
    free(st);
}

/* An MMC3 cartridge with SMB3's board (256 KiB PRG of NOPs, 128 KiB CHR, 8 KiB PRG-RAM) for SMB3's states. */
static void mmc3_states_convert(void **state)
{
    (void)state;
    char dir[1400];
    snprintf(dir, sizeof dir, "%s/SuperMarioBros3-Nes-v0", g_data);
    glob_t g;
    char pattern[1500];
    snprintf(pattern, sizeof pattern, "%s/*.state", dir);
    if (!g_site[0] || glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc == 0)
        skip();
    char path[1400];
    snprintf(path, sizeof path, "%s/mmc3.nes", g_tmp);
    write_nop_cart(path, 256u << 10, 128u << 10, 4, 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        size_t len;
        uint8_t *st = read_gz(g.gl_pathv[i], &len);
        rg_emu *emu = open_nes(path);
        if (rg_emu_state_load(emu, st, len) != RG_OK)
            fail_msg("%s: %s", g.gl_pathv[i], rg_error_last());
        uint8_t ram[0x800];
        assert_int_equal(rg_emu_mem_read(emu, 0, ram, sizeof ram), RG_OK);
        assert_memory_equal(ram, entry(st, len, "RAM", NULL), sizeof ram);
        size_t sl;
        uint8_t *snap = snapshot(emu, &sl);
        const rg__nes_state *s = as_state(snap);
        assert_memory_equal(s->cart.regs, entry(st, len, "REGS", NULL), 8);
        assert_int_equal(s->cart.regs[8], entry(st, len, "CMD", NULL)[0]);
        assert_int_equal(s->cart.regs[9], entry(st, len, "A000", NULL)[0] & 1);
        assert_int_equal(s->cart.regs[11], entry(st, len, "IRQL", NULL)[0]);
        assert_int_equal(s->cart.regs[14], entry(st, len, "IRQA", NULL)[0] ? 1 : 0);
        assert_memory_equal(s->cart.prg_ram, entry(st, len, "WRAM", NULL), 0x2000);
        /* a damaged MMC3 entry is refused */
        uint8_t *bad = malloc(len);
        memcpy(bad, st, len);
        entry(bad, len, "IRQR", NULL)[0] = 2;
        refused(emu, bad, len, "IRQR");
        free(bad);
        free(snap);
        rg_emu_free(emu);
        free(st);
    }
    globfree(&g);
}

/* The start states of stable-retro's games on the mappers added after the first eleven (docs/nes.md), each on a
 * cartridge built here with the game's board (mapper, PRG/CHR sizes, mirroring from the NES 2.0-era databases;
 * PRG of NOPs): the state converts, RAM arrives, the mapper's registers hold what the entries say, and a damaged
 * entry is refused. */
typedef struct {
    const char *game;
    unsigned mapper, prg_kib, chr_kib;
    uint8_t flags6;
    const char *bad_entry; /* damaged by setting its first byte to bad_value */
    uint8_t bad_value;
} board_case;

static void check_regs(unsigned mapper, const rg__nes_state *s, uint8_t *st, size_t len)
{
    const uint8_t *r = s->cart.regs;
    switch (mapper) {
    case 87: {
        unsigned v = entry(st, len, "LATC", NULL)[0];
        assert_int_equal(r[0], ((v >> 1) & 1u) | ((v << 1) & 2u));
        break;
    }
    case 140: assert_int_equal(r[0], entry(st, len, "LATC", NULL)[0] & 0x3F); break;
    case 184: assert_int_equal(r[0], entry(st, len, "LATC", NULL)[0] & 0x77); break;
    case 185: assert_int_equal(r[0], entry(st, len, "DREG", NULL)[0]); break;
    case 9:
        assert_memory_equal(r + 1, entry(st, len, "CREG", NULL), 4);
        assert_int_equal(r[5], entry(st, len, "MIRR", NULL)[0] ^ 1);
        assert_int_equal(r[6], entry(st, len, "LAT0", NULL)[0]);
        assert_int_equal(r[7], entry(st, len, "LAT1", NULL)[0]);
        break;
    case 33: {
        const uint8_t *p = entry(st, len, "PREG", NULL);
        assert_int_equal(r[0] & 0x3F, p[0] & 0x3F);
        assert_int_equal((r[0] >> 6) & 1, entry(st, len, "MIRR", NULL)[0] ? 0 : 1);
        assert_memory_equal(r + 2, p + 2, 6);
        break;
    }
    case 32:
        assert_int_equal(r[0], entry(st, len, "PREG", NULL)[0] & 0x1F);
        assert_int_equal(r[2], entry(st, len, "PREG", NULL)[1] & 0x1F);
        assert_memory_equal(r + 8, entry(st, len, "CREG", NULL), 8);
        break;
    case 75:
        assert_int_equal(r[1], entry(st, len, "MODE", NULL)[0] & 7);
        assert_int_equal(r[3], entry(st, len, "PREG", NULL)[2] & 15);
        assert_int_equal(r[5], entry(st, len, "CREG", NULL)[1]);
        break;
    case 22:
        assert_int_equal(r[0], entry(st, len, "PREG", NULL)[0] & 0x1F);
        assert_int_equal(r[2], entry(st, len, "MIRR", NULL)[0]);
        assert_memory_equal(r + 8, entry(st, len, "CREG", NULL), 8);
        break;
    case 118:
        assert_memory_equal(r, entry(st, len, "REGS", NULL), 8);
        assert_int_equal(r[8], entry(st, len, "CMD", NULL)[0]);
        break;
    case 206:
        assert_int_equal(r[8], entry(st, len, "CMD", NULL)[0] & 7);
        assert_int_equal(r[7], entry(st, len, "REGS", NULL)[7] & 15);
        break;
    case 25: {
        const uint8_t *c = entry(st, len, "CREG", NULL);
        assert_int_equal(r[0], entry(st, len, "PREG", NULL)[0] & 0x1F);
        assert_int_equal(r[2], entry(st, len, "MIRR", NULL)[0]);
        assert_int_equal(r[3], entry(st, len, "CMDR", NULL)[0] & 3);
        for (int i = 0; i < 8; i++)
            assert_int_equal(r[8 + i] | r[16 + i] << 4, c[i]);
        break;
    }
    case 67:
        assert_int_equal(r[5], entry(st, len, "PREG", NULL)[0] & 15);
        assert_memory_equal(r, entry(st, len, "CREG", NULL), 4);
        assert_int_equal(r[4], entry(st, len, "MIRR", NULL)[0]);
        break;
    case 69:
        assert_memory_equal(r, entry(st, len, "CREG", NULL), 8);
        assert_int_equal(r[9], entry(st, len, "PREG", NULL)[0] & 0x3F);
        assert_int_equal(r[8], entry(st, len, "PREG", NULL)[3]);
        assert_int_equal(r[14], entry(st, len, "CMDR", NULL)[0] & 15);
        break;
    case 65:
        assert_int_equal(r[0], entry(st, len, "PREG", NULL)[0] & 0x3F);
        assert_int_equal(r[1], entry(st, len, "PREG", NULL)[1] & 0x3F);
        assert_memory_equal(r + 8, entry(st, len, "CREG", NULL), 8);
        assert_int_equal(r[3], entry(st, len, "MIRR", NULL)[0] ? 0x00 : 0x80);
        break;
    case 18:
        assert_memory_equal(r, entry(st, len, "PREG", NULL), 3);
        assert_memory_equal(r + 8, entry(st, len, "CREG", NULL), 8);
        assert_int_equal(r[3], 3);
        assert_int_equal(s->cart.counters[1], entry(st, len, "IRQL", NULL)[0] | entry(st, len, "IRQL", NULL)[1] << 8);
        break;
    case 19:
        /* stable-retro's FCEUmm saves no IRQ, address-port or $E800-mode entries: counter stopped, port 0, $E800
         * bits 6-7 set as FCEUmm's power-on leaves them */
        assert_memory_equal(r, entry(st, len, "CHR", NULL), 8);
        assert_memory_equal(r + 8, entry(st, len, "NTA", NULL), 4);
        assert_int_equal(r[12], entry(st, len, "PRG", NULL)[0]);
        assert_int_equal(r[13], entry(st, len, "PRG", NULL)[1] | 0xC0);
        assert_int_equal(r[14], entry(st, len, "PRG", NULL)[2]);
        assert_int_equal(r[15], 0);
        assert_memory_equal(s->cart.chip_ram, entry(st, len, "IRAM", NULL), 128);
        assert_memory_equal(s->cart.prg_ram, entry(st, len, "WRAM", NULL), 0x2000);
        assert_int_equal(s->cart.counters[0], 0);
        break;
    case 5: {
        /* MMC5: the registers as mapper_mmc5.c keeps them, the 10-bit CHR registers in chip_ram, ExRAM in vram */
        const uint8_t *cra = entry(st, len, "CHRA", NULL), *crb = entry(st, len, "CHRB", NULL);
        assert_int_equal(r[0], entry(st, len, "PSIZ", NULL)[0] & 3);
        assert_int_equal(r[1], entry(st, len, "VSIZ", NULL)[0] & 3);
        assert_int_equal(r[2], entry(st, len, "WRME", NULL)[0] & 3);
        assert_int_equal(r[3], entry(st, len, "WRME", NULL)[1] & 3);
        assert_int_equal(r[4], entry(st, len, "CHRM", NULL)[0] & 3);
        assert_int_equal(r[5], entry(st, len, "NTAM", NULL)[0]);
        assert_int_equal(r[6], entry(st, len, "NTFL", NULL)[0]);
        assert_int_equal(r[8], entry(st, len, "WRMP", NULL)[0]);
        assert_memory_equal(r + 9, entry(st, len, "PRGB", NULL), 4);
        assert_int_equal(r[14], entry(st, len, "IRQS", NULL)[0]);
        assert_int_equal(r[15], entry(st, len, "IRQE", NULL)[0] >> 7);
        assert_int_equal(r[19], entry(st, len, "MUL2", NULL)[0]);
        assert_int_equal(r[20], entry(st, len, "MUL2", NULL)[1]);
        assert_int_equal(r[21], entry(st, len, "ABMD", NULL)[0]);
        assert_memory_equal(s->cart.chip_ram, cra, 16);
        assert_memory_equal(s->cart.chip_ram + 16, crb, 8);
        assert_memory_equal(s->cart.vram + 0x800, entry(st, len, "ERAM", NULL), 0x400);
        break;
    }
    default:
        fail_msg("no check for mapper %u", mapper);
    }
}

static void more_mapper_states_convert(void **state)
{
    (void)state;
    static const board_case k_cases[] = {
        {"PunchOut-Nes-v0", 9, 128, 128, 0x00, "LAT1", 2},
        {"Argus-Nes-v0", 87, 32, 16, 0x00, NULL, 0}, /* 87-185: any latch value is one the board can hold */
        {"TwinBee-Nes-v0", 87, 32, 16, 0x01, NULL, 0},
        {"YoukaiClub-Nes-v0", 140, 128, 32, 0x00, NULL, 0},
        {"AtlantisNoNazo-Nes-v0", 184, 32, 16, 0x00, NULL, 0},
        {"BWings-Nes-v0", 185, 32, 8, 0x01, NULL, 0},
        {"DonDokoDon-Nes-v0", 33, 128, 256, 0x00, "MIRR", 2},
        {"InsectorX-Nes-v0", 33, 128, 128, 0x00, "IRQA", 1},
        {"KaiketsuYanchaMaru2KarakuriLand-Nes-v0", 32, 128, 128, 0x00, NULL, 0},
        {"TetsuwanAtom-Nes-v0", 75, 128, 128, 0x00, "CREG", 0x10},
        {"TwinBee3PokoPokoDaimaou-Nes-v0", 22, 128, 128, 0x00, "CRGH", 1},
        {"Armadillo-Nes-v0", 118, 256, 128, 0x00, "IRQR", 2},
        {"SuperXeviousGumpNoNazo-Nes-v0", 206, 128, 32, 0x01, "IRQA", 1},
        /* the mappers with CPU-clocked counters: a running FCEUmm counter is refused */
        {"BioMiracleBokutteUpa-Nes-v0", 25, 256, 128, 0x00, "IRQA", 2},
        {"GradiusII-Nes-v0", 25, 256, 128, 0x00, "BIGB", 0x10},
        {"FantasyZoneIIOpaOpaNoNamida-Nes-v0", 67, 128, 128, 0x00, "IRQA", 0x10},
        {"Gimmick-Nes-v0", 69, 256, 128, 0x00, "IRQA", 0x81},
        {"KaiketsuYanchaMaru3TaiketsuZouringen-Nes-v0", 65, 256, 128, 0x00, "IRQA", 0x80},
        {"SpartanX2-Nes-v0", 65, 128, 128, 0x00, "MIRR", 2},
        {"PizzaPop-Nes-v0", 18, 128, 128, 0x00, "IRQA", 1},
        {"YoukaiDouchuuki-Nes-v0", 19, 128, 128, 0x00, "PRG", 0x40}, /* Namco 163: a bank FCEUmm never stores */
        /* MMC5 (ELROM: 256 KiB PRG, 128 KiB CHR, no PRG-RAM): IRQE holds $5204 bit 7 only */
        {"CastlevaniaIIIDraculasCurse-Nes-v0", 5, 256, 128, 0x00, "IRQE", 0x40},
    };
    int ran = 0;
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
        const board_case *bc = &k_cases[c];
        char pattern[1500];
        snprintf(pattern, sizeof pattern, "%s/%s/*.state", g_data, bc->game);
        glob_t g;
        if (!g_site[0] || glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc == 0)
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/m%u.nes", g_tmp, bc->mapper);
        write_nop_cart(path, (size_t)bc->prg_kib << 10, (size_t)bc->chr_kib << 10, bc->mapper, bc->flags6);
        for (size_t i = 0; i < g.gl_pathc; i++) {
            size_t len;
            uint8_t *st = read_gz(g.gl_pathv[i], &len);
            rg_emu *emu = open_nes(path);
            if (rg_emu_state_load(emu, st, len) != RG_OK)
                fail_msg("%s: %s", g.gl_pathv[i], rg_error_last());
            uint8_t ram[0x800];
            assert_int_equal(rg_emu_mem_read(emu, 0, ram, sizeof ram), RG_OK);
            /* GradiusII's state stops in code it runs from PRG-RAM ($7AFA), which the run to our frame boundary
             * executes (NOPs only in ROM): its stack page moves; the rest of RAM must arrive */
            const uint8_t *want = entry(st, len, "RAM", NULL);
            int code_in_ram = strstr(g.gl_pathv[i], "GradiusII-Nes") != NULL;
            if (memcmp(ram, want, code_in_ram ? 0x100u : sizeof ram) != 0 ||
                memcmp(ram + 0x200, want + 0x200, sizeof ram - 0x200) != 0)
                fail_msg("%s: RAM differs after the conversion", g.gl_pathv[i]);
            size_t sl;
            uint8_t *snap = snapshot(emu, &sl);
            check_regs(bc->mapper, as_state(snap), st, len);
            if (bc->bad_entry) {
                uint8_t *bad = malloc(len);
                assert_non_null(bad);
                memcpy(bad, st, len);
                entry(bad, len, bc->bad_entry, NULL)[0] = bc->bad_value;
                refused(emu, bad, len, bc->bad_entry);
                free(bad);
            }
            free(snap);
            rg_emu_free(emu);
            free(st);
            ran++;
        }
        globfree(&g);
    }
    if (!ran)
        skip();
}

/* MMC5: CastlevaniaIIIDraculasCurse-Nes' state on its board (ELROM, PRG of NOPs) with one entry at a time made
 * hostile or unrepresentable: RG_ESTATE naming the entry, the machine unchanged; the real state loads after. */
static void mmc5_bad_entries(void **state)
{
    (void)state;
    char p[1400];
    snprintf(p, sizeof p, "%s/CastlevaniaIIIDraculasCurse-Nes-v0/Level1.state", g_data);
    if (!g_site[0] || !exists(p))
        skip();
    char path[1400];
    snprintf(path, sizeof path, "%s/mmc5.nes", g_tmp);
    write_nop_cart(path, 256u << 10, 128u << 10, 5, 0);
    size_t len;
    uint8_t *st = read_gz(p, &len);
    rg_emu *emu = open_nes(path);
    assert_int_equal(rg_emu_run(emu), RG_OK);
    static const struct {
        const char *name;
        unsigned at;
        uint8_t value;
    } k_bad[] = {
        {"CHRA", 1, 0x04},  /* a CHR register above 10 bits */
        {"CHRB", 7, 0x80},
        {"SPLM", 0, 0x80},  /* the vertical split on: not emulated */
        {"ATFL", 0, 0x06},  /* a fill attribute FCEUmm spreads otherwise than the chip */
        {"ABMD", 0, 2},
        {"IRQR", 0, 0x01},  /* status bits the chip has not */
        {"IRQR", 0, 0x80},  /* pending while FCEUmm's IRQ line is low (IRQE clear: fine) ... */
    };
    uint8_t *bad = malloc(len + 64);
    assert_non_null(bad);
    for (size_t i = 0; i < sizeof k_bad / sizeof k_bad[0] - 1; i++) {
        memcpy(bad, st, len);
        entry(bad, len, k_bad[i].name, NULL)[k_bad[i].at] = k_bad[i].value;
        refused(emu, bad, len, k_bad[i].name);
    }
    /* ... but pending and enabled with the line low cannot be represented (ours raises it) */
    memcpy(bad, st, len);
    entry(bad, len, "IRQR", NULL)[0] = 0x80;
    entry(bad, len, "IRQE", NULL)[0] = 0x80;
    refused(emu, bad, len, "IRQR");
    /* an entry of another size, a missing one, one MMC5 has not */
    memcpy(bad, st, len);
    entry(bad, len, "MUL2", NULL)[-4] = 1;
    refused(emu, bad, len, NULL);
    memcpy(bad, st, len);
    entry(bad, len, "PRGB", NULL)[-8] = 'Q';
    refused(emu, bad, len, "PRGB");
    memcpy(bad, st, len);
    entry(bad, len, "LCTR", NULL)[-5] = 'X';
    refused(emu, bad, len, "LCTR is missing");
    memcpy(bad, st, len);
    entry(bad, len, "SDRC", NULL)[-5] = 'X';
    refused(emu, bad, len, "SDRX");
    free(bad);
    /* FCEUmm's power-on CHR value $FFFF is the last bank */
    entry(st, len, "CHRB", NULL)[0] = 0xFF;
    entry(st, len, "CHRB", NULL)[1] = 0xFF;
    assert_int_equal(rg_emu_state_load(emu, st, len), RG_OK);
    size_t sl;
    uint8_t *snap = snapshot(emu, &sl);
    assert_int_equal(as_state(snap)->cart.chip_ram[16] | as_state(snap)->cart.chip_ram[17] << 8, 0x3FF);
    free(snap);
    rg_emu_free(emu);
    free(st);
}

/* `st` (an FCEUmm state whose last section is the cartridge's) with entry `name` of `size` bytes appended to it. */
static uint8_t *append_entry(uint8_t *st, size_t *len, const char *name, const void *bytes, uint32_t size)
{
    size_t off = 16, last = 0;
    while (off + 5 <= *len) {
        last = off;
        off += 5 + (size_t)(st[off + 1] | st[off + 2] << 8 | st[off + 3] << 16 | (uint32_t)st[off + 4] << 24);
    }
    assert_int_equal(off, *len);
    assert_int_equal(st[last], 0x10);
    uint8_t *n = realloc(st, *len + 8 + size);
    assert_non_null(n);
    memset(n + *len, 0, 4);
    memcpy(n + *len, name, strlen(name));
    for (int i = 0; i < 4; i++)
        n[*len + 4 + i] = (uint8_t)(size >> 8 * i);
    memcpy(n + *len + 8, bytes, size);
    *len += 8 + size;
    uint32_t ssize = (uint32_t)(*len - last - 5), total = (uint32_t)(*len - 16);
    for (int i = 0; i < 4; i++) {
        n[last + 1 + i] = (uint8_t)(ssize >> 8 * i);
        n[4 + i] = (uint8_t)(total >> 8 * i);
    }
    return n;
}

/* Namco 163 (mapper 19) as newer FCEUmm versions save it: YoukaiDouchuuki-Nes' state with the entries they add
 * (IRQC/IRQA the counter, GORF the address port, DOPO/GORK the $E800/$E000 mode bits, the sound's play positions)
 * on a cartridge of NOPs with that game's board: the counter arrives running and raises its IRQ on time, the port
 * and mode bits arrive; a counter, enable or nametable value the chip cannot hold is refused naming the entry. */
static void namco163_newer_entries(void **state)
{
    (void)state;
    char path[1500];
    snprintf(path, sizeof path, "%s/YoukaiDouchuuki-Nes-v0/Level1.state", g_data);
    if (!g_site[0] || !exists(path))
        skip();
    size_t len;
    uint8_t *st = read_gz(path, &len);
    const uint8_t irqc[2] = {0x00, 0x7F}, irqa = 0x80, gorf = 0x85, dopo = 0x40, gork = 0x40, zero4[4] = {0};
    st = append_entry(st, &len, "IRQC", irqc, 2);
    st = append_entry(st, &len, "IRQA", &irqa, 1);
    st = append_entry(st, &len, "GORF", &gorf, 1);
    st = append_entry(st, &len, "DOPO", &dopo, 1);
    st = append_entry(st, &len, "GORK", &gork, 1);
    st = append_entry(st, &len, "IDX0", zero4, 4);
    st = append_entry(st, &len, "BC00", zero4, 4);
    size_t prg = 128u << 10;
    char rpath[1400];
    snprintf(rpath, sizeof rpath, "%s/m19.nes", g_tmp);
    write_nop_cart(rpath, prg, 128u << 10, 19, 0);
    rg_emu *emu = open_nes(rpath);
    if (rg_emu_state_load(emu, st, len) != RG_OK)
        fail_msg("%s: %s", path, rg_error_last());
    size_t sl;
    uint8_t *snap = snapshot(emu, &sl);
    const rg__nes_state *s = as_state(snap);
    /* the load ran about 114 cycles to our frame boundary: the counter ($7F00 + those, counting the cycles the
     * lazily clocked mapper has yet to add) still below $7FFF */
    assert_true(s->cart.counters[0] & 0x8000u);
    assert_true(s->cart.clock_cycle <= s->cycles);
    uint64_t c0 = (s->cart.counters[0] & 0x7FFFu) + (s->cycles - s->cart.clock_cycle);
    assert_in_range(c0, 0x7F00u + 100u, 0x7F00u + 130u);
    assert_int_equal(s->cart.regs[15], 0x85);
    assert_int_equal(s->cart.regs[13], entry(st, len, "PRG", NULL)[1] | 0x40);
    assert_int_equal(s->cart.regs[12], entry(st, len, "PRG", NULL)[0] | 0x40);
    assert_int_equal(s->irq & RG__NES_IRQ_MAPPER, 0);
    /* hostile values: refused naming the entry, the machine unchanged. A refused load restores our own snapshot,
     * which brings the lazily run APU up to the CPU (same behaviour, other bytes): load that snapshot first. */
    assert_int_equal(rg_emu_state_load(emu, snap, sl), RG_OK);
    free(snap);
    uint8_t *bad = malloc(len);
    assert_non_null(bad);
    static const struct { const char *name; uint8_t at, value; } k_bad[] = {
        {"IRQC", 1, 0x80}, {"IRQA", 0, 0x01}, {"IRQA", 0, 0x81}, {"PRG", 2, 0x40}};
    for (size_t i = 0; i < sizeof k_bad / sizeof k_bad[0]; i++) {
        memcpy(bad, st, len);
        entry(bad, len, k_bad[i].name, NULL)[k_bad[i].at] = k_bad[i].value;
        refused(emu, bad, len, k_bad[i].name);
    }
    /* IRQC without IRQA: the counter's enable would be lost */
    memcpy(bad, st, len);
    entry(bad, len, "IRQA", NULL)[-8] = 'X';
    refused(emu, bad, len, "IRQA");
    free(bad);
    assert_int_equal(rg_emu_run(emu), RG_OK);
    snap = snapshot(emu, &sl);
    s = as_state(snap);
    assert_int_equal(s->cart.counters[0], 0xFFFF); /* reached $7FFF, stopped */
    assert_int_not_equal(s->irq & RG__NES_IRQ_MAPPER, 0);
    free(snap);
    rg_emu_free(emu);
    /* on a CHR-RAM cartridge a nametable window below $E0 (FCEUmm: CHR-RAM there) is refused */
    write_nop_cart(rpath, prg, 0, 19, 0);
    emu = open_nes(rpath);
    snap = snapshot(emu, &sl);
    assert_int_equal(rg_emu_state_load(emu, snap, sl), RG_OK); /* the APU brought up to the CPU, as above */
    free(snap);
    memcpy(st + (entry(st, len, "NTA", NULL) - st), "\xE0\xE1\x10\xE1", 4);
    refused(emu, st, len, "NTA");
    rg_emu_free(emu);
    free(st);
}

/* A Namco 163 program of our own (code in the fixed bank at $E000): it sets the PRG, pattern and nametable windows,
 * turns off the APU's frame IRQ, fills the palette and a nametable, and turns on NMI and the background. Each NMI counts frames in $10, switches
 * pattern windows 0 and 1 and the PRG bank at $8000, writes the chip RAM through the auto-incrementing port, and arms
 * the IRQ counter at $5800 (it fires about 90 lines later, mid-frame); the IRQ disables and acknowledges it, counts in
 * $11 and switches pattern window 2, which the background's tiles $80-$BF show (tile rows 4-5, 12-13, ...: the IRQ
 * lands between them, so the rows above it show the old bank and those below the new one; FCEUmm draws a line at a
 * time, so an IRQ inside a shown row would differ by design). The main loop is one JMP, so the stack is the same
 * wherever an interrupt comes. */
static const uint8_t k_n163_code[] = {
    0x78, 0xD8, 0xA2, 0xFF, 0x9A, 0xA9, 0x40, 0x8D, 0x17, 0x40, 0x2C, 0x02, 0x20, 0x10, 0xFB, 0x2C, 0x02, 0x20,
    0x10, 0xFB, 0xA9, 0x00, 0x8D, 0x00, 0xE0, 0xA9, 0xC1, 0x8D, 0x00, 0xE8, 0xA9, 0x02, 0x8D, 0x00, 0xF0, 0xA9,
    0xE0, 0x8D, 0x00, 0xC0, 0xA9, 0xE1, 0x8D, 0x00, 0xC8, 0xA9, 0xE0, 0x8D, 0x00, 0xD0, 0xA9, 0xE1, 0x8D, 0x00,
    0xD8, 0xA9, 0x00, 0x8D, 0x00, 0x80, 0xA9, 0x01, 0x8D, 0x00, 0x88, 0xA9, 0x02, 0x8D, 0x00, 0x90, 0xA9, 0x03,
    0x8D, 0x00, 0x98, 0xA9, 0x04, 0x8D, 0x00, 0xA0, 0xA9, 0x05, 0x8D, 0x00, 0xA8, 0xA9, 0x06, 0x8D, 0x00, 0xB0,
    0xA9, 0x07, 0x8D, 0x00, 0xB8, 0xA9, 0x3F, 0x8D, 0x06, 0x20, 0xA9, 0x00, 0x8D, 0x06, 0x20, 0xA2, 0x00, 0x8A,
    0x8D, 0x07, 0x20, 0xE8, 0xE0, 0x20, 0xD0, 0xF7, 0xA9, 0x20, 0x8D, 0x06, 0x20, 0xA9, 0x00, 0x8D, 0x06, 0x20,
    0xA0, 0x04, 0xA2, 0x00, 0x8A, 0x8D, 0x07, 0x20, 0xE8, 0xD0, 0xF9, 0x88, 0xD0, 0xF6, 0xA9, 0x00, 0x8D, 0x05,
    0x20, 0x8D, 0x05, 0x20, 0xA9, 0x80, 0x8D, 0x00, 0x20, 0xA9, 0x0A, 0x8D, 0x01, 0x20, 0x58, 0x4C, 0x9F, 0xE0,
    0x48, 0xE6, 0x10, 0xA5, 0x10, 0x8D, 0x00, 0x80, 0x4A, 0x8D, 0x00, 0x88, 0xA5, 0x10, 0x29, 0x03, 0x8D, 0x00,
    0xE0, 0xA9, 0x80, 0x8D, 0x00, 0xF8, 0xA5, 0x10, 0x8D, 0x00, 0x48, 0xA9, 0x00, 0x8D, 0x00, 0x50, 0xA9, 0xD8,
    0x8D, 0x00, 0x58, 0xA9, 0x00, 0x8D, 0x05, 0x20, 0x8D, 0x05, 0x20, 0x68, 0x40, 0x48, 0xE6, 0x11, 0xA9, 0x00,
    0x8D, 0x00, 0x58, 0x8D, 0x00, 0x50, 0xA5, 0x11, 0x8D, 0x00, 0x90, 0x8D, 0x00, 0x48, 0x68, 0x40
};

/* The 2 KiB of system RAM (the first block of the core's memory map). */
static void ram_of(const rg_emu *emu, uint8_t out[0x800])
{
    static uint8_t all[1 << 20];
    size_t n = rg_emu_ram_size(emu);
    assert_true(n >= 0x800 && n <= sizeof all);
    if (rg_emu_ram_copy(emu, all, sizeof all) != RG_OK)
        fail_msg("RAM of %s: %s", rg_emu_core_name(emu), rg_error_last());
    memcpy(out, all, 0x800);
}

/* A real FCEUmm state of that program (the stable-retro wheel's FCEUmm through our host, 40 frames after power-on)
 * loads into a fresh FCEUmm and into ours; then RAM and pixels agree on every one of 300 frames. */
static void namco163_vs_fceumm(void **state)
{
    (void)state;
    if (!g_site[0])
        skip();
    test_use_wheel_cores();
    if (!test_core_installed("fceumm"))
        skip();
    size_t prg = 32u << 10, chr = 32u << 10, rl;
    uint8_t *rom = nop_cart(prg, chr, 19, 0, &rl);
    memcpy(rom + 16 + 0x6000, k_n163_code, sizeof k_n163_code);
    const uint16_t vec[3] = {0xE0A2, 0xE000, 0xE0D3}; /* NMI, reset, IRQ */
    for (int i = 0; i < 3; i++) {
        rom[16 + 0x7FFA + 2 * i] = (uint8_t)vec[i];
        rom[16 + 0x7FFB + 2 * i] = (uint8_t)(vec[i] >> 8);
    }
    for (size_t j = 0; j < chr; j++)
        rom[16 + prg + j] = (uint8_t)((j >> 10) * 29u + j * 7u + (j >> 4));
    char path[1400];
    snprintf(path, sizeof path, "%s/n163prog.nes", g_tmp);
    assert_int_equal(rg__write_file_atomic(path, rom, rl), RG_OK);
    free(rom);
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "fceumm";
    o.system = "Nes";
    o.log = test_quiet_log;
    rg_emu *fc = NULL;
    if (rg_emu_open(&fc, path, &o) != RG_OK)
        fail_msg("fceumm: %s", rg_error_last());
    for (int f = 0; f < 40; f++)
        assert_int_equal(rg_emu_run(fc), RG_OK);
    size_t len, w;
    assert_int_equal(rg_emu_state_size(fc, &len), RG_OK);
    uint8_t *st = malloc(len);
    assert_non_null(st);
    assert_int_equal(rg_emu_state_save(fc, st, len, &w), RG_OK);
    len = w;
    assert_memory_equal(st, "FCS", 3);
    assert_non_null(entry(st, len, "IRAM", NULL));
    rg_emu_free(fc);
    fc = NULL;
    assert_int_equal(rg_emu_open(&fc, path, &o), RG_OK);
    assert_int_equal(rg_emu_state_load(fc, st, len), RG_OK);
    rg_emu *us = open_nes(path);
    if (rg_emu_state_load(us, st, len) != RG_OK)
        fail_msg("our core refuses FCEUmm's mapper-19 state: %s", rg_error_last());
    static uint8_t a[256 * 240 * 3], b[256 * 240 * 3];
    uint8_t ra[0x800], rb[0x800];
    for (unsigned f = 0; f < 300; f++) {
        assert_int_equal(rg_emu_run(fc), RG_OK);
        assert_int_equal(rg_emu_run(us), RG_OK);
        ram_of(fc, ra);
        ram_of(us, rb);
        if (memcmp(ra, rb, sizeof ra) != 0) {
            int k = 0;
            while (ra[k] == rb[k])
                k++;
            fail_msg("frame %u: RAM $%03X is %02x in FCEUmm, %02x in ours", f, k, ra[k], rb[k]);
        }
        rg_frame fa, fb;
        rg_emu_frame(fc, &fa);
        rg_emu_frame(us, &fb);
        assert_int_equal(fa.width, fb.width);
        assert_int_equal(fa.height, fb.height);
        size_t n = (size_t)fa.width * fa.height * 3;
        assert_true(n <= sizeof a);
        assert_int_equal(rg_emu_frame_rgb24(fc, a, sizeof a), RG_OK);
        assert_int_equal(rg_emu_frame_rgb24(us, b, sizeof b), RG_OK);
        if (memcmp(a, b, n) != 0) {
            size_t k = 0;
            while (a[k] == b[k])
                k++;
            size_t last = n - 1, rows = 0;
            while (a[last] == b[last])
                last--;
            for (size_t y = 0; y < fa.height; y++)
                rows += memcmp(a + y * fa.width * 3, b + y * fa.width * 3, fa.width * 3) != 0;
            fail_msg("frame %u: pixels differ from row %zu column %zu to row %zu (%zu rows of %u)", f, k / 3 / fa.width,
                     k / 3 % fa.width, last / 3 / fa.width, rows, fa.height);
        }
    }
    /* the program ran: frames counted, the IRQ fired once a frame */
    assert_int_equal((uint8_t)(rb[0x10] - rb[0x11]), (uint8_t)(ra[0x10] - ra[0x11]));
    assert_true(rb[0x11] != 0);
    rg_emu_free(fc);
    rg_emu_free(us);
    free(st);
}

/* Through the env: our core named, a state it refuses gives RG_ESTATE naming the entry; with no core named the
 * state's own core (FCEUmm, by its header) runs it. */
static void env_refusal_and_fceumm(void **state)
{
    (void)state;
    if (!have_smb())
        skip();
    test_use_wheel_cores();
    char root[1400], dir[1500];
    snprintf(root, sizeof root, "%s/data", g_tmp);
    snprintf(dir, sizeof dir, "%s/stable/SuperMarioBros-Nes", root);
    test_mkdirs(dir);
    uint8_t *bytes;
    size_t size;
    assert_int_equal(rg__read_file(g_smb_rom, 1 << 20, &bytes, &size), RG_OK);
    char p[1600];
    snprintf(p, sizeof p, "%s/rom.nes", dir);
    assert_int_equal(rg__write_file_atomic(p, bytes, size), RG_OK);
    char sha[RG_INTEGRATION_SHA1_HEX + 2];
    assert_int_equal(rg_integration_rom_sha1(bytes, size, "rom.nes", sha), RG_OK);
    free(bytes);
    strcat(sha, "\n");
    test_write_text(dir, "rom.sha", sha);
    test_write_text(dir, "data.json", "{\"info\": {\"lives\": {\"address\": 1882, \"type\": \"|u1\"}}}");
    test_write_text(dir, "scenario.json", "{\"reward\": {\"variables\": {}}}");
    test_write_text(dir, "metadata.json", "{\"default_state\": \"Start\"}");
    size_t len;
    uint8_t *st = smb_state("SuperMarioBros-Nes-v0/Level1-1", &len);
    entry(st, len, "WRAM", NULL)[-5] = 'X'; /* FCEUmm skips an entry it does not know; we refuse it */
    test_write_gz(dir, "Start.state", st, len);
    free(st);
    rg_integration_paths *dp;
    assert_int_equal(rg_integration_paths_create(&dp, root), RG_OK);
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "SuperMarioBros-Nes";
    o.paths = dp;
    o.core = "nes";
    o.log = test_quiet_log;
    rg_env *env;
    assert_int_equal(rg_env_create(&env, &o), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "WRAX"));
    o.core = NULL;
    int rc = rg_env_create(&env, &o);
    if (!test_core_installed("fceumm")) {
        rg_integration_paths_free(dp);
        skip();
    }
    if (rc != RG_OK)
        fail_msg("no core named: %s", rg_error_last());
    assert_string_equal(rg_emu_core_name(rg_env_emu(env)), "fceumm");
    rg_env_free(env);
    rg_integration_paths_free(dp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(smb_states_convert),
        cmocka_unit_test(bad_states_refused),
        cmocka_unit_test(mmc3_states_convert),
        cmocka_unit_test(more_mapper_states_convert),
        cmocka_unit_test(mmc5_bad_entries),
        cmocka_unit_test(namco163_newer_entries),
        cmocka_unit_test(namco163_vs_fceumm),
        cmocka_unit_test(env_refusal_and_fceumm),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
