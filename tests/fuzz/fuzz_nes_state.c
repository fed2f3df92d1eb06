/* Fuzz target "nes_state": FCEUmm save states (src/cores/nes/nes_fceumm_state.c) loaded into our NES core.
 *
 * The first byte picks the cartridge (its value mod 4): tests/roms/bin/test.nes, or one built here of NOPs with
 * mapper 1 (MMC1), 4 (MMC3) or 2 (UxROM). The second byte picks the mode (mod 2):
 *   0  the rest is the state's bytes (after an "FCS" header so that the core takes it for FCEUmm's);
 *   1  edits of a valid FCEUmm state built here for that cartridge with every entry FCEUmm writes (3-byte records:
 *      offset, little-endian 16 bits, taken modulo the state's size, and a byte XORed in there).
 * Invariants: a load succeeds or is refused with RG_ESTATE; a refused state leaves the machine exactly as it was; an
 * accepted one runs a few frames with input, and our own snapshot of it loads back. The built state must load. */
#include "fuzz.h"

#include <retrogym/emu.h>
#include <retrogym/error.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CARTS 4
#define STATE_CAP 32768u

static rg_emu *emus[CARTS];
static uint8_t *valid[CARTS];
static size_t valid_len[CARTS];
static uint8_t *clean[CARTS];
static size_t snap_len;
static uint8_t *scratch, *before, *after;

/* --- an FCEUmm state, written the way FCEUmm lays it out */

typedef struct writer {
    uint8_t *p;
    size_t n;
    size_t section; /* offset of the open section's size */
} writer;

static void put(writer *w, const void *b, size_t n)
{
    FUZZ_CHECK(w->n + n <= STATE_CAP);
    memcpy(w->p + w->n, b, n);
    w->n += n;
}

static void put32(writer *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(w, b, 4);
}

static void set32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void section(writer *w, uint8_t type)
{
    if (w->section)
        set32(w->p + w->section, (uint32_t)(w->n - w->section - 4));
    if (!type) {
        w->section = 0;
        return;
    }
    put(w, &type, 1);
    w->section = w->n;
    put32(w, 0);
}

static void ent(writer *w, const char *name, const void *b, uint32_t n)
{
    char n4[4] = {0};
    memcpy(n4, name, strlen(name));
    put(w, n4, 4);
    put32(w, n);
    put(w, b, n);
}

static void ent8(writer *w, const char *name, uint8_t v)
{
    ent(w, name, &v, 1);
}

static void ent32(writer *w, const char *name, uint32_t v)
{
    uint8_t b[4];
    set32(b, v);
    ent(w, name, b, 4);
}

static size_t build_state(uint8_t *out, int mapper, int chr_ram)
{
    static uint8_t zero[0x2000];
    writer w = {out, 0, 0};
    uint8_t head[16] = {'F', 'C', 'S', 0xFF};
    set32(head + 8, 9813);
    put(&w, head, 16);
    section(&w, 1);
    uint8_t pc[2] = {0x00, 0x80};
    ent(&w, "PC", pc, 2);
    ent8(&w, "A", 0x12);
    ent8(&w, "X", 0x34);
    ent8(&w, "Y", 0x56);
    ent8(&w, "S", 0xFD);
    ent8(&w, "P", 0x24);
    ent8(&w, "DB", 0x80);
    ent(&w, "RAM", zero, 0x800);
    section(&w, 2);
    ent8(&w, "JAMM", 0);
    ent32(&w, "IQLB", 0);
    ent32(&w, "ICoa", 0);
    ent32(&w, "ICou", (uint32_t)-32);
    uint8_t tsbs[8] = {0x10, 0x27, 0x10};
    ent(&w, "TSBS", tsbs, 8);
    section(&w, 3);
    ent(&w, "NTAR", zero, 0x800);
    uint8_t pal[32];
    for (int i = 0; i < 32; i++)
        pal[i] = (uint8_t)(i * 2);
    ent(&w, "PRAM", pal, 32);
    ent(&w, "SPRA", zero, 256);
    uint8_t ppur[4] = {0x90, 0x1E, 0x00, 0x00};
    ent(&w, "PPUR", ppur, 4);
    ent8(&w, "KOOK", 1);
    ent8(&w, "DEAD", 0);
    ent8(&w, "PSPL", 0);
    ent8(&w, "XOFF", 3);
    ent8(&w, "VTGL", 0);
    uint8_t addr[2] = {0x00, 0x20};
    ent(&w, "RADD", addr, 2);
    ent(&w, "TADD", addr, 2);
    ent8(&w, "VBUF", 0);
    ent8(&w, "PGEN", 0x90);
    section(&w, 4);
    uint8_t rb[2] = {8, 8};
    ent(&w, "JYRB", rb, 2);
    ent32(&w, "JOYS", 0);
    ent8(&w, "LSTS", 0);
    section(&w, 5);
    ent32(&w, "FHCN", 100000);
    ent8(&w, "FCNT", 1);
    uint8_t psg[16] = {0x9F, 0x08, 0x40, 0x09, 0x9F, 0x08, 0x80, 0x09, 0x81, 0, 0x20, 0x09, 0x1F, 0, 0x05, 0x08};
    ent(&w, "PSG", psg, 16);
    ent8(&w, "ENCH", 0x0F);
    ent8(&w, "IQFM", 0);
    uint8_t nreg[2] = {1, 0};
    ent(&w, "NREG", nreg, 2);
    ent8(&w, "TRIM", 0);
    ent8(&w, "TRIC", 1);
    const char *env[4] = {"E0", "E1", "E2", NULL};
    for (int i = 0; env[i]; i++) {
        char n[5];
        snprintf(n, sizeof n, "%sSP", env[i]);
        ent8(&w, n, 15);
        snprintf(n, sizeof n, "%sMO", env[i]);
        ent8(&w, n, 1);
        snprintf(n, sizeof n, "%sD1", env[i]);
        ent8(&w, n, 3);
        snprintf(n, sizeof n, "%sDV", env[i]);
        ent8(&w, n, 10);
    }
    ent32(&w, "LEN0", 20);
    ent32(&w, "LEN1", 0);
    ent32(&w, "LEN2", 254);
    ent32(&w, "LEN3", 6);
    uint8_t two[2] = {0, 0};
    ent(&w, "SWEE", two, 2);
    ent32(&w, "CRF1", 0x140);
    ent32(&w, "CRF2", 0x180);
    uint8_t swct[2] = {1, 8};
    ent(&w, "SWCT", swct, 2);
    ent8(&w, "SIRQ", 0);
    ent32(&w, "5ACC", 100);
    ent8(&w, "5BIT", 3);
    ent32(&w, "5ADD", 0x4000);
    ent32(&w, "5SIZ", 0);
    ent8(&w, "5SHF", 0);
    ent8(&w, "5VDM", 0);
    ent8(&w, "5VSP", 0);
    ent8(&w, "5SZL", 0);
    ent8(&w, "5ADL", 0);
    ent8(&w, "5FMT", 0x0F);
    ent8(&w, "RWDA", 0x40);
    section(&w, 0x10);
    if (mapper != 2)
        ent(&w, "WRAM", zero, 0x2000);
    if (chr_ram)
        ent(&w, "CHRR", zero, 0x2000);
    if (mapper == 1) {
        uint8_t dreg[4] = {0x0C, 0, 1, 0};
        ent(&w, "DREG", dreg, 4);
        ent(&w, "LRST", zero, 8);
        ent8(&w, "BFFR", 0);
        ent8(&w, "BFRS", 0);
    } else if (mapper == 4) {
        uint8_t regs[8] = {0, 2, 4, 5, 6, 7, 0, 1};
        ent8(&w, "KTEX", 0);
        ent(&w, "REGS", regs, 8);
        ent8(&w, "CMD", 0);
        ent8(&w, "A000", 1);
        ent8(&w, "A001", 0x80);
        ent8(&w, "IRQR", 0);
        ent8(&w, "IRQC", 10);
        ent8(&w, "IRQL", 20);
        ent8(&w, "IRQA", 1);
    } else if (mapper == 2) {
        ent8(&w, "LATC", 1);
        ent8(&w, "BUSC", 0);
    }
    section(&w, 0);
    set32(out + 4, (uint32_t)(w.n - 16));
    return w.n;
}

/* A cartridge of NOPs with the mapper's board: 128 KiB PRG; 32 KiB CHR-ROM (MMC1, MMC3) or CHR-RAM (UxROM). */
static const char *built_rom(int mapper)
{
    size_t prg = 128u << 10, chr = mapper == 2 ? 0 : 32u << 10, n = 16 + prg + chr;
    uint8_t *rom = calloc(1, n);
    FUZZ_CHECK(rom != NULL);
    memcpy(rom, "NES\x1a", 4);
    rom[4] = (uint8_t)(prg >> 14);
    rom[5] = (uint8_t)(chr >> 13);
    rom[6] = (uint8_t)((mapper & 15) << 4);
    memset(rom + 16, 0xEA, prg);
    char name[32];
    snprintf(name, sizeof name, "mapper%d.nes", mapper);
    const char *path = fuzz_write_temp(name, rom, n);
    free(rom);
    return path;
}

static void setup(void)
{
    static const int k_mapper[CARTS] = {0, 1, 4, 2};
    scratch = malloc(STATE_CAP + 64);
    FUZZ_CHECK(scratch != NULL);
    for (int i = 0; i < CARTS; i++) {
        char path[4200];
        if (i == 0)
            snprintf(path, sizeof path, "%s/tests/roms/bin/test.nes", fuzz_source_dir());
        else
            snprintf(path, sizeof path, "%s", built_rom(k_mapper[i]));
        rg_emu_options o = RG_EMU_OPTIONS_INIT;
        o.core = "nes";
        o.system = "Nes";
        o.log_level = RG_LOG_NONE;
        if (rg_emu_open(&emus[i], path, &o) != RG_OK) {
            fprintf(stderr, "fuzz_nes_state: cannot open %s in the nes core: %s\n", path, rg_error_last());
            abort();
        }
        valid[i] = malloc(STATE_CAP);
        FUZZ_CHECK(valid[i] != NULL);
        valid_len[i] = build_state(valid[i], k_mapper[i], i == 3);
        if (rg_emu_state_load(emus[i], valid[i], valid_len[i]) != RG_OK) {
            fprintf(stderr, "fuzz_nes_state: the built state of cartridge %d is refused: %s\n", i, rg_error_last());
            abort();
        }
        FUZZ_CHECK(rg_emu_run(emus[i]) == RG_OK);
        FUZZ_CHECK(rg_emu_state_size(emus[i], &snap_len) == RG_OK && snap_len > 0);
        clean[i] = malloc(snap_len);
        FUZZ_CHECK(clean[i] != NULL);
        size_t written;
        FUZZ_CHECK(rg_emu_state_save(emus[i], clean[i], snap_len, &written) == RG_OK && written == snap_len);
    }
    before = malloc(snap_len);
    after = malloc(snap_len);
    FUZZ_CHECK(before && after);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!emus[0])
        setup();
    if (size < 2)
        return 0;
    int cart = data[0] % CARTS, mode = data[1] % 2;
    rg_emu *emu = emus[cart];
    data += 2;
    size -= 2;
    size_t len;
    if (mode == 0) {
        len = size > STATE_CAP ? STATE_CAP : size;
        memcpy(scratch, "FCS", 3);
        memcpy(scratch + 3, data, len);
        len += 3;
    } else {
        len = valid_len[cart];
        memcpy(scratch, valid[cart], len);
        for (size_t i = 0; i + 3 <= size; i += 3) {
            size_t off = (size_t)(data[i] | data[i + 1] << 8) % len;
            scratch[off] ^= data[i + 2];
        }
    }
    size_t w;
    FUZZ_CHECK(rg_emu_state_save(emu, before, snap_len, &w) == RG_OK);
    int rc = rg_emu_state_load(emu, scratch, len);
    FUZZ_CHECK(rc == RG_OK || rc == RG_ESTATE);
    fuzz_note("cartridge %d mode %d: %zu bytes: %s", cart, mode, len, rc == RG_OK ? "loaded" : rg_error_last());
    if (rc != RG_OK) {
        FUZZ_CHECK(rg_emu_state_save(emu, after, snap_len, &w) == RG_OK);
        FUZZ_CHECK(memcmp(before, after, snap_len) == 0);
        return 0;
    }
    for (unsigned f = 0; f < 3; f++) {
        FUZZ_CHECK(rg_emu_set_buttons(emu, 0, (uint16_t)(f * 0x41u)) == RG_OK);
        FUZZ_CHECK(rg_emu_run(emu) == RG_OK);
    }
    /* our own snapshot of what was accepted loads back */
    FUZZ_CHECK(rg_emu_state_save(emu, after, snap_len, &w) == RG_OK);
    FUZZ_CHECK(rg_emu_state_load(emu, after, snap_len) == RG_OK);
    FUZZ_CHECK(rg_emu_state_load(emu, clean[cart], snap_len) == RG_OK);
    return 0;
}
