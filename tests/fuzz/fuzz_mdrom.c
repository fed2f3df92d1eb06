/* Fuzz target "mdrom": Genesis / Mega Drive cartridge images, opened in our built-in core "genesis" (through a
 * file, as rg_emu_open reads ROMs): the size checks (512 bytes to 4 MiB, the interleaved SMD format refused; over
 * 4 MiB, up to 8, only a header naming SSF2's board, which a fuzzed image hardly does), the cartridge header (a
 * serial EEPROM or backup RAM outside the cartridge refused with RG_EUNSUPPORTED, docs/genesis.md "Cartridge"),
 * then the 68000 started from whatever vectors the image holds and run for a few frames with input (illegal
 * opcodes, odd addresses and wild jumps end in its exceptions, never in the host), a soft and a power-on reset and a
 * state round trip. Every frame ends: the VDP counts its lines whatever the CPU does. Invariants: opening succeeds
 * for the sizes the core documents unless the header names hardware it refuses (RG_EUNSUPPORTED with a message); a state saved by the core loads back; a state with one flipped byte
 * loads or is refused with RG_ESTATE, never anything else. */
#include "fuzz.h"

#include <retrogym/emu.h>
#include <retrogym/error.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint16_t pad(const uint8_t *data, size_t size, unsigned f)
{
    return size ? (uint16_t)(data[(f * 7u) % size] | (data[(f * 13u) % size] & 15u) << 8) : 0;
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
        if (rc == RG_EUNSUPPORTED && size_ok(data, size)) { /* the header names a serial EEPROM or far backup RAM */
            FUZZ_CHECK(strstr(rg_error_last(), "genesis_plus_gx") != NULL);
            return 0;
        }
        if (size_ok(data, size))
            fprintf(stderr, "genesis refused a %zu-byte image: %s\n", size, rg_error_last());
        FUZZ_CHECK(!size_ok(data, size));
        return 0;
    }
    FUZZ_CHECK(size_ok(data, size));
    fuzz_exercise_emu(emu, data, size, 3, pad, 1);
    rg_frame fr;
    FUZZ_CHECK(rg_emu_frame(emu, &fr) == RG_OK && fr.data != NULL && fr.width > 0 && fr.height > 0);
    rg_emu_free(emu);
    return 0;
}
