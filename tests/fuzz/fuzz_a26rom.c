/* Fuzz target "a26rom": Atari 2600 cartridge images. The layout detection (rg__a26_cart_detect, internal to our
 * core) on the bytes, then the image opened in the built-in "atari2600" core (through a file, as rg_emu_open reads
 * ROMs) and run for a few frames with input, a soft and a power-on reset, a state round trip. The core spends at
 * most a fixed number of instructions per frame, so no image can hang it (libFuzzer's -timeout catches one that
 * does). Invariants: detection names a known layout or refuses with RG_EUNSUPPORTED; opening succeeds exactly for
 * images whose layout is detected; a state saved by the core loads back. */
#include "fuzz.h"

#include "cores/atari2600/cart.h"

#include <retrogym/emu.h>
#include <retrogym/error.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static uint16_t pad(const uint8_t *data, size_t size, unsigned f)
{
    return size ? (uint16_t)(data[f % size] << 1) : 0; /* ids 1-8: fire, select, reset, stick */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rg__a26_cart_type type = RG__A26_CART_COUNT;
    int detect_rc = rg__a26_cart_detect(data, size, &type);
    FUZZ_CHECK(detect_rc == RG_OK || detect_rc == RG__A26_CART_EFORMAT);
    if (detect_rc == RG_OK) {
        FUZZ_CHECK(type < RG__A26_CART_COUNT);
        rg__a26_cart_type again;
        FUZZ_CHECK(rg__a26_cart_type_from_name(rg__a26_cart_type_name(type), &again) == RG_OK && again == type);
    }

    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "atari2600";
    o.system = "Atari2600";
    o.log_level = RG_LOG_NONE;
    rg_emu *emu = NULL;
    int rc = rg_emu_open(&emu, fuzz_write_temp("fuzz.a26", data, size), &o);
    if (rc != RG_OK) {
        FUZZ_CHECK(emu == NULL);
        /* too small for the system's sanity check, or a layout the core does not know */
        FUZZ_CHECK(detect_rc != RG_OK || size < 2048);
        return 0;
    }
    FUZZ_CHECK(detect_rc == RG_OK);
    fuzz_exercise_emu(emu, data, size, 4, pad, 0);
    rg_emu_free(emu);
    return 0;
}
