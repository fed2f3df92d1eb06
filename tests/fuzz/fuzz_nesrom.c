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

static uint16_t pad(const uint8_t *data, size_t size, unsigned f)
{
    return size ? (uint16_t)(data[(f * 7u) % size] | (data[(f * 13u) % size] & 1u) << 8) : 0;
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
    fuzz_exercise_emu(emu, data, size, 3, pad, 1);
    rg_emu_free(emu);
    return 0;
}
