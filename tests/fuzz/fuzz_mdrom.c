/* Fuzz target "mdrom": Genesis / Mega Drive cartridge images, opened in our built-in core "genesis" (through a
 * file, as rg_emu_open reads ROMs): the size checks (512 bytes to 4 MiB, the interleaved SMD format refused),
 * then the 68000 started from whatever vectors the image holds and run for a few frames with input (illegal
 * opcodes, odd addresses and wild jumps end in its exceptions, never in the host), a soft and a power-on reset and a
 * state round trip. Every frame ends: the VDP counts its lines whatever the CPU does. Invariants: opening succeeds
 * exactly for the sizes the core documents; a state saved by the core loads back; a state with one flipped byte
 * loads or is refused with RG_ESTATE, never anything else. */
#include "fuzz.h"

#include <retrogym/emu.h>
#include <retrogym/error.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t pixels[320 * 240 * 3];

static void run_frames(rg_emu *emu, const uint8_t *data, size_t size, unsigned frames)
{
    for (unsigned f = 0; f < frames; f++) {
        uint16_t buttons = size ? (uint16_t)(data[(f * 7u) % size] | (data[(f * 13u) % size] & 15u) << 8) : 0;
        FUZZ_CHECK(rg_emu_set_buttons(emu, 0, buttons) == RG_OK);
        FUZZ_CHECK(rg_emu_set_buttons(emu, 1, (uint16_t)~buttons) == RG_OK);
        FUZZ_CHECK(rg_emu_run(emu) == RG_OK);
    }
}

static int size_ok(const uint8_t *data, size_t size)
{
    if (size < 512u || size > 4u * 1024u * 1024u) /* an odd size is taken, its last byte padded (docs/genesis.md) */
        return 0;
    return !(size % 16384u == 512u && data[8] == 0xAA && data[9] == 0xBB); /* SMD interleaved: refused */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "genesis";
    o.system = "Genesis";
    o.log_level = RG_LOG_NONE;
    rg_emu *emu = NULL;
    int rc = rg_emu_open(&emu, fuzz_write_temp("fuzz.md", data, size), &o);
    if (rc != RG_OK) {
        FUZZ_CHECK(emu == NULL);
        if (size_ok(data, size))
            fprintf(stderr, "genesis refused a %zu-byte image: %s\n", size, rg_error_last());
        FUZZ_CHECK(!size_ok(data, size));
        return 0;
    }
    FUZZ_CHECK(size_ok(data, size));
    run_frames(emu, data, size, 3);
    rg_frame fr;
    FUZZ_CHECK(rg_emu_frame(emu, &fr) == RG_OK);
    FUZZ_CHECK(fr.data != NULL && fr.width > 0 && fr.height > 0);
    if ((size_t)fr.width * fr.height * 3 <= sizeof pixels)
        FUZZ_CHECK(rg_emu_frame_rgb24(emu, pixels, sizeof pixels) == RG_OK);
    size_t n, written;
    FUZZ_CHECK(rg_emu_state_size(emu, &n) == RG_OK && n > 0);
    uint8_t *state = malloc(n);
    FUZZ_CHECK(state != NULL);
    FUZZ_CHECK(rg_emu_state_save(emu, state, n, &written) == RG_OK);
    FUZZ_CHECK(rg_emu_soft_reset(emu) == RG_OK);
    run_frames(emu, data, size, 2);
    rc = rg_emu_state_load(emu, state, written);
    if (rc != RG_OK)
        fprintf(stderr, "loading the state the core saved: %s\n", rg_error_last());
    FUZZ_CHECK(rc == RG_OK);
    if (size >= 4 && written > 24) {
        size_t at = 24 + ((size_t)data[1] << 8 | data[2]) * 7u % (written - 24);
        state[at] ^= (uint8_t)(data[3] | 1u);
        rc = rg_emu_state_load(emu, state, written);
        FUZZ_CHECK(rc == RG_OK || rc == RG_ESTATE);
    }
    run_frames(emu, data, size, 1);
    FUZZ_CHECK(rg_emu_reset(emu) == RG_OK);
    run_frames(emu, data, size, 2);
    free(state);
    rg_emu_free(emu);
    return 0;
}
