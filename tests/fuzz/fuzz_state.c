/* Fuzz target "state": gzipped save states (src/emu/state_file.c) and states fed to a real core: our Atari 2600
 * core (built in, "atari2600") running tests/roms/bin/test.a26.
 *
 * The first byte picks the mode (its value mod 4); the rest is:
 *   0  a gzip stream for rg__gzip_decompress (limit 64 KiB); one that inflates is compressed and inflated again
 *      and must give the same bytes;
 *   1  edits of a valid state of the core (3-byte records: offset, little-endian 16 bits, taken modulo the state
 *      size, and a byte XORed in there), loaded with rg_emu_state_load;
 *   2  a `.state` file's bytes (gzip or raw), loaded with rg_emu_state_load_file;
 *   3  as 1, then compressed and loaded as a gzipped `.state` file.
 * A refused state must leave the machine exactly as it was; an accepted one is run for a few frames with input,
 * its picture, RAM and state read, and the machine is put back to the valid state before the next input. */
#include "fuzz.h"

#include "emu/state_file.h"

#include <retrogym/emu.h>
#include <retrogym/error.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GZIP_LIMIT (64u << 10)

static rg_emu *emu;
static uint8_t *clean, *scratch, *before;
static size_t state_len;
static uint8_t pixels[320 * 256 * 3];

static void setup(void)
{
    char rom[4200];
    snprintf(rom, sizeof rom, "%s/tests/roms/bin/test.a26", fuzz_source_dir());
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "atari2600";
    o.log_level = RG_LOG_NONE;
    if (rg_emu_open(&emu, rom, &o) != RG_OK) {
        fprintf(stderr, "fuzz_state: cannot open %s in the atari2600 core: %s\n", rom, rg_error_last());
        abort();
    }
    for (int i = 0; i < 30; i++) {
        rg_emu_set_buttons(emu, 0, (uint16_t)(i & 1 ? 1u << 8 : 1u << 4));
        FUZZ_CHECK(rg_emu_run(emu) == RG_OK);
    }
    FUZZ_CHECK(rg_emu_state_size(emu, &state_len) == RG_OK && state_len > 0);
    clean = malloc(state_len);
    scratch = malloc(state_len);
    before = malloc(state_len);
    FUZZ_CHECK(clean && scratch && before);
    size_t written;
    FUZZ_CHECK(rg_emu_state_save(emu, clean, state_len, &written) == RG_OK && written == state_len);
}

static void fuzz_gzip(const uint8_t *data, size_t size)
{
    uint8_t *out, *packed, *again;
    size_t out_size, packed_size, again_size;
    int rc = rg__gzip_decompress(data, size, GZIP_LIMIT, &out, &out_size);
    FUZZ_CHECK(rc == RG_OK || rc == RG_ECORRUPT || rc == RG_ETOOBIG || rc == RG_ENOMEM);
    if (rc != RG_OK) {
        FUZZ_CHECK(out == NULL && out_size == 0);
        return;
    }
    FUZZ_CHECK(out_size <= GZIP_LIMIT);
    FUZZ_CHECK(rg__is_gzip(data, size));
    if (rg__gzip_compress(out, out_size, &packed, &packed_size) == RG_OK) {
        FUZZ_CHECK(rg__is_gzip(packed, packed_size));
        FUZZ_CHECK(rg__gzip_decompress(packed, packed_size, out_size, &again, &again_size) == RG_OK);
        FUZZ_CHECK(again_size == out_size && memcmp(again, out, out_size) == 0);
        free(again);
        if (out_size > 0) /* one byte less than it holds is over the limit */
            FUZZ_CHECK(rg__gzip_decompress(packed, packed_size, out_size - 1, &again, &again_size) == RG_ETOOBIG);
        free(packed);
    }
    free(out);
}

static void apply_edits(const uint8_t *data, size_t size)
{
    memcpy(scratch, clean, state_len);
    for (size_t i = 0; i + 3 <= size; i += 3) {
        size_t off = ((size_t)data[i] | (size_t)data[i + 1] << 8) % state_len;
        scratch[off] ^= data[i + 2];
    }
}

/* Runs a few frames on whatever state the machine is in now, reading everything a caller may read. */
static void exercise(void)
{
    for (unsigned f = 0; f < 3; f++) {
        rg_emu_set_buttons(emu, 0, (uint16_t)(0x1F0u >> f));
        FUZZ_CHECK(rg_emu_run(emu) == RG_OK);
    }
    rg_frame fr;
    FUZZ_CHECK(rg_emu_frame(emu, &fr) == RG_OK);
    if (fr.data && (size_t)fr.width * fr.height * 3 <= sizeof pixels)
        FUZZ_CHECK(rg_emu_frame_rgb24(emu, pixels, sizeof pixels) == RG_OK);
    size_t ram = rg_emu_ram_size(emu);
    uint8_t ram_copy[4096];
    if (ram <= sizeof ram_copy)
        FUZZ_CHECK(rg_emu_ram_copy(emu, ram_copy, sizeof ram_copy) == RG_OK);
    size_t n, written;
    FUZZ_CHECK(rg_emu_state_size(emu, &n) == RG_OK && n == state_len);
    FUZZ_CHECK(rg_emu_state_save(emu, scratch, state_len, &written) == RG_OK);
    FUZZ_CHECK(rg_emu_state_load(emu, scratch, written) == RG_OK); /* what the core saved it takes back */
}

/* Loads a state through `load`; checks that a refusal changed nothing. */
static void try_load(int rc)
{
    if (rc == RG_OK) {
        exercise();
        return;
    }
    FUZZ_CHECK(rc == RG_ESTATE || rc == RG_ENOMEM || rc == RG_EIO);
    size_t written;
    FUZZ_CHECK(rg_emu_state_save(emu, scratch, state_len, &written) == RG_OK);
    FUZZ_CHECK(memcmp(scratch, before, state_len) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned mode = data[0] % 4;
    data++, size--;
    if (mode == 0) {
        fuzz_gzip(data, size);
        return 0;
    }
    if (!emu)
        setup();
    FUZZ_CHECK(rg_emu_state_load(emu, clean, state_len) == RG_OK);
    size_t written;
    FUZZ_CHECK(rg_emu_state_save(emu, before, state_len, &written) == RG_OK);
    if (mode == 1) {
        apply_edits(data, size);
        try_load(rg_emu_state_load(emu, scratch, state_len));
    } else if (mode == 2) {
        try_load(rg_emu_state_load_file(emu, fuzz_write_temp("fuzz.state", data, size)));
    } else {
        apply_edits(data, size);
        uint8_t *packed;
        size_t packed_size;
        FUZZ_CHECK(rg__gzip_compress(scratch, state_len, &packed, &packed_size) == RG_OK);
        const char *path = fuzz_write_temp("fuzz.state", packed, packed_size);
        free(packed);
        try_load(rg_emu_state_load_file(emu, path));
    }
    return 0;
}
