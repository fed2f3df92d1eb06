/* Fuzz target "nesrom": NES cartridge images (iNES / NES 2.0). The header parser (rg__nes_cart_parse, internal to
 * our core) on the bytes, then the image opened in the built-in "nes" core (through a file, as rg_emu_open reads
 * ROMs) and run for a few frames with input, a soft and a power-on reset, a state round trip. A run ends after a
 * fixed number of CPU cycles even without a frame end, so no image can hang the core. Invariants: the parser accepts
 * an image or refuses it with RG_ECORRUPT / RG_EUNSUPPORTED, and what it accepts lies inside the image; opening
 * succeeds exactly for images the parser accepts (and the system's size check lets through); a state saved by the
 * core loads back; a state with a flipped byte loads or is refused with RG_ESTATE, never anything else. */
#include "fuzz.h"

#include "cores/nes/nes.h"

#include <retrogym/emu.h>
#include <retrogym/error.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t pixels[256 * 240 * 3];

static void run_frames(rg_emu *emu, const uint8_t *data, size_t size, unsigned frames)
{
    for (unsigned f = 0; f < frames; f++) {
        uint16_t buttons = size ? (uint16_t)(data[(f * 7u) % size] | (data[(f * 13u) % size] & 1u) << 8) : 0;
        FUZZ_CHECK(rg_emu_set_buttons(emu, 0, buttons) == RG_OK);
        FUZZ_CHECK(rg_emu_set_buttons(emu, 1, (uint16_t)~buttons) == RG_OK);
        FUZZ_CHECK(rg_emu_run(emu) == RG_OK);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rg__nes_cart_info info;
    const uint8_t *prg = NULL, *chr = NULL;
    size_t prg_size = 0, chr_size = 0;
    int parse_rc = rg__nes_cart_parse(data, size, &info, &prg, &prg_size, &chr, &chr_size);
    FUZZ_CHECK(parse_rc == RG_OK || parse_rc == RG_ECORRUPT || parse_rc == RG_EUNSUPPORTED);
    if (parse_rc == RG_OK) {
        FUZZ_CHECK(prg_size > 0 && prg_size % 8192 == 0);
        FUZZ_CHECK(prg >= data && prg + prg_size <= data + size);
        FUZZ_CHECK(!chr || (chr >= data && chr + chr_size <= data + size && chr_size % 1024 == 0));
        FUZZ_CHECK(chr || info.chr_ram_size > 0);
    }

    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "nes";
    o.system = "Nes";
    o.log_level = RG_LOG_NONE;
    rg_emu *emu = NULL;
    int rc = rg_emu_open(&emu, fuzz_write_temp("fuzz.nes", data, size), &o);
    if (rc != RG_OK) {
        FUZZ_CHECK(emu == NULL);
        /* refused by the parser, or too small for the system's sanity check */
        FUZZ_CHECK(parse_rc != RG_OK || size < 16400);
        return 0;
    }
    FUZZ_CHECK(parse_rc == RG_OK);
    run_frames(emu, data, size, 3);
    rg_frame fr;
    FUZZ_CHECK(rg_emu_frame(emu, &fr) == RG_OK);
    if (fr.data && (size_t)fr.width * fr.height * 3 <= sizeof pixels)
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
    /* one flipped byte of the state (chosen by the input): loaded or refused as a bad state */
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
