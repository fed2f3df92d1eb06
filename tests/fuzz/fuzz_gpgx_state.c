/* Fuzz target "gpgx_state": Genesis Plus GX save states (src/cores/gpgx_state, converted by
 * src/cores/sms/sms_gpgx_state.c and src/cores/genesis/genesis_gpgx_state.c) loaded into our cores.
 *
 * The first byte picks the machine (its value mod 3): tests/roms/bin/test.sms in core "sms", test.gg in "gamegear",
 * test.md in "genesis". The second byte picks the mode (mod 2):
 *   0  the rest is the state's bytes after a "GENPLUS-GX 1.7.5" header (so that the core takes it for GPGX's);
 *   1  edits of a valid state built here in the layout of docs/sms.md / docs/genesis.md ("State import"): 3-byte
 *      records (offset, little-endian 16 bits scaled to the state's blocks, and a byte XORed in there).
 * Invariants: a load succeeds or is refused with RG_ESTATE; a refused state leaves the machine exactly as it was; an
 * accepted one runs a few frames with input, and our own snapshot of it loads back. The built states must load. */
#include "fuzz.h"

#include <retrogym/emu.h>
#include <retrogym/error.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MACHINES 3
#define HEADER "GENPLUS-GX 1.7.5"
/* the blocks' sizes (docs/sms.md, docs/genesis.md): SMS/GG 81,346 bytes, Mega Drive 144,681 */
#define SMS_SIZE 81346u
#define MD_SIZE 144681u
#define PAD 256u

static const struct {
    const char *rom, *core, *system;
} k_machines[MACHINES] = {
    {"tests/roms/bin/test.sms", "sms", "Sms"},
    {"tests/roms/bin/test.gg", "gamegear", "GameGear"},
    {"tests/roms/bin/test.md", "genesis", "Genesis"},
};

static rg_emu *emus[MACHINES];
static uint8_t *valid[MACHINES];
static size_t valid_len[MACHINES];
static uint8_t *clean[MACHINES];
static size_t clean_len[MACHINES];
static uint8_t *scratch, *before, *after;
static size_t snap_cap;

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* A state between frames with everything at rest: the VDP in its mode (4 on the SMS/GG, 5 on the Mega Drive), the
 * PSG's flip-flops +1, no 32-bit command pending, the Z80 held on the Mega Drive; some RAM and VRAM content. */
static uint8_t *build(int md, size_t *len)
{
    size_t n = (md ? MD_SIZE : SMS_SIZE) + PAD;
    uint8_t *s = calloc(1, n);
    FUZZ_CHECK(s != NULL);
    memcpy(s, HEADER, 16);
    size_t ram = md ? 0x10000u : 0x2000u;
    for (size_t i = 0; i < ram; i += 7)
        s[16 + i] = (uint8_t)(i * 13u);
    size_t io = 16 + ram + (md ? 0x2000u + 5u : 0u);
    size_t vdp = io + 16;
    for (size_t i = 0; i < 0x4000u; i += 5)
        s[vdp + 0x400 + i] = (uint8_t)(i * 29u);
    size_t reg = vdp + 0x400 + 0x10000 + 0x100;
    s[reg + 0] = md ? 0x04 : 0x36;
    s[reg + 1] = md ? 0x64 : 0xE0;
    s[reg + 12] = md ? 0x81 : 0x00;
    size_t tail = reg + 0x20;
    put32(s + tail + 34, 0xFFFFFFFFu); /* cached_write: none */
    size_t psg = tail + 38 + (md ? 3624u : 5984u);
    if (md) { /* the YM2612 after its reset: timer A and B periods 1024 and 256 x 16 samples (TAL, TBL) */
        put32(s + tail + 38 + 2408 + 16, 1024);
        put32(s + tail + 38 + 2408 + 28, 4096);
    }
    for (unsigned i = 0; i < 4; i++)
        put32(s + psg + 76 + 4 * i, 1);
    if (md) {
        size_t cpu = psg + 160;
        put32(s + cpu + 60, 0xFFFFF0u); /* A7 = ISP in supervisor mode */
        put32(s + cpu + 64, 0x200u);     /* PC */
        s[cpu + 68] = 0x00, s[cpu + 69] = 0x27;
        put32(s + cpu + 74, 0xFFFFF0u);
        size_t cart = cpu + 90 + 88;
        for (unsigned i = 0; i < 64; i++)
            s[cart + i] = (uint8_t)(i & 7u);
    } else {
        size_t z80 = psg + 160;
        s[z80 + 4] = 0xF0, s[z80 + 5] = 0xDF; /* SP */
        s[z80 + 57] = 1;                      /* IM 1 */
        s[z80 + 88 + 2] = 1, s[z80 + 88 + 3] = 2; /* mapper pages 0, 1, 2 */
    }
    *len = n;
    return s;
}

static void init(void)
{
    if (scratch)
        return;
    scratch = malloc(MD_SIZE + PAD + 65536);
    FUZZ_CHECK(scratch != NULL);
    for (unsigned i = 0; i < MACHINES; i++) {
        size_t rom_size;
        uint8_t *rom = fuzz_read_source_file(k_machines[i].rom, &rom_size);
        const char *ext = strrchr(k_machines[i].rom, '.');
        rg_emu_options o = RG_EMU_OPTIONS_INIT;
        o.core = k_machines[i].core;
        o.system = k_machines[i].system;
        char name[32];
        snprintf(name, sizeof name, "fuzz%u%s", i, ext);
        FUZZ_CHECK(rg_emu_open(&emus[i], fuzz_write_temp(name, rom, rom_size), &o) == RG_OK);
        free(rom);
        valid[i] = build(i == 2, &valid_len[i]);
        FUZZ_CHECK(rg_emu_state_load(emus[i], valid[i], valid_len[i]) == RG_OK);
        FUZZ_CHECK(rg_emu_state_size(emus[i], &clean_len[i]) == RG_OK);
        if (clean_len[i] > snap_cap)
            snap_cap = clean_len[i];
        clean[i] = malloc(clean_len[i]);
        FUZZ_CHECK(clean[i] != NULL);
        FUZZ_CHECK(rg_emu_state_save(emus[i], clean[i], clean_len[i], NULL) == RG_OK);
    }
    before = malloc(snap_cap);
    after = malloc(snap_cap);
    FUZZ_CHECK(before && after);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init();
    if (size < 2)
        return 0;
    unsigned k = data[0] % MACHINES;
    rg_emu *emu = emus[k];
    FUZZ_CHECK(rg_emu_state_load(emu, clean[k], clean_len[k]) == RG_OK);
    size_t len;
    if (data[1] % 2u == 0) {
        size_t body = size - 2 > MD_SIZE + PAD ? MD_SIZE + PAD : size - 2;
        memcpy(scratch, HEADER, 16);
        memcpy(scratch + 16, data + 2, body);
        len = 16 + body;
    } else {
        memcpy(scratch, valid[k], valid_len[k]);
        len = valid_len[k];
        for (size_t i = 2; i + 3 <= size; i += 3) {
            size_t at = (size_t)(data[i] | data[i + 1] << 8) * len / 65536u;
            scratch[at] ^= data[i + 2];
        }
    }
    FUZZ_CHECK(rg_emu_state_save(emu, before, clean_len[k], NULL) == RG_OK);
    int rc = rg_emu_state_load(emu, scratch, len);
    fuzz_note("machine %u mode %u: %s", k, data[1] % 2u, rc == RG_OK ? "loaded" : rg_error_last());
    if (rc != RG_OK) {
        FUZZ_CHECK(rc == RG_ESTATE);
        FUZZ_CHECK(rg_emu_state_save(emu, after, clean_len[k], NULL) == RG_OK);
        FUZZ_CHECK(memcmp(before, after, clean_len[k]) == 0);
        return 0;
    }
    for (unsigned f = 0; f < 3; f++) {
        FUZZ_CHECK(rg_emu_set_buttons(emu, 0, (uint16_t)(data[1] << 4 | f)) == RG_OK);
        FUZZ_CHECK(rg_emu_run(emu) == RG_OK);
    }
    FUZZ_CHECK(rg_emu_state_save(emu, after, clean_len[k], NULL) == RG_OK);
    FUZZ_CHECK(rg_emu_state_load(emu, after, clean_len[k]) == RG_OK);
    return 0;
}
