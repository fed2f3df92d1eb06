/* Fuzz target "smsrom": Master System and Game Gear cartridge images, opened in our built-in cores "sms" and
 * "gamegear" (through a file, as rg_emu_open reads ROMs): the size check and 512-byte copier header, the mapper
 * detection (Sega, Codemasters, none) on whatever the header holds, then a few frames with input (joypads and
 * the pause button), a soft and a power-on reset and a state round trip. Every frame ends: the VDP counts its lines
 * whatever the Z80 runs, so no image can hang the core. Invariants: opening succeeds exactly for the sizes the core
 * documents (whole KiB from 1 KiB to 4 MiB, optionally after a 512-byte header, and the system's minimum); a state
 * saved by the core loads back; a state with one flipped byte loads or is refused with RG_ESTATE, never anything
 * else. */
#include "fuzz.h"

#include <retrogym/emu.h>
#include <retrogym/error.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint16_t pad(const uint8_t *data, size_t size, unsigned f)
{
    return size ? (uint16_t)(data[(f * 7u) % size] | (data[(f * 13u) % size] & 1u) << 8) : 0;
}

static int size_ok(size_t size)
{
    size_t body = size % 1024u == 512u ? size - 512u : size;
    return size >= 8192u && body >= 1024u && body <= 4u * 1024u * 1024u && body % 1024u == 0;
}

static void one_system(const uint8_t *data, size_t size, const char *core, const char *system, const char *file)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = core;
    o.system = system;
    o.log_level = RG_LOG_NONE;
    rg_emu *emu = NULL;
    int rc = rg_emu_open(&emu, fuzz_write_temp(file, data, size), &o);
    if (rc != RG_OK) {
        FUZZ_CHECK(emu == NULL);
        if (size_ok(size))
            fprintf(stderr, "%s refused a %zu-byte image: %s\n", core, size, rg_error_last());
        FUZZ_CHECK(!size_ok(size));
        return;
    }
    FUZZ_CHECK(size_ok(size));
    fuzz_exercise_emu(emu, data, size, 3, pad, 1);
    rg_frame fr;
    FUZZ_CHECK(rg_emu_frame(emu, &fr) == RG_OK && fr.data != NULL && fr.width > 0 && fr.height > 0);
    rg_emu_free(emu);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    one_system(data, size, "sms", "Sms", "fuzz.sms");
    one_system(data, size, "gamegear", "GameGear", "fuzz.gg");
    return 0;
}
