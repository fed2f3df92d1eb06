/* The table of our own cores (src/cores/<system>/): opened without a shared object, behind the same internal core
 * interface as the libretro host. A name in this table wins over a libretro core of the same name. */
#include "emu/native.h"

#include "cores/atari2600/a26_core.h"
#include "cores/genesis/genesis_core.h"
#include "cores/nes/nes_core.h"
#include "cores/sms/sms_core.h"
#include "retrogym/version.h"

#include <string.h>
#include <strings.h>

static const rg__native_core k_native[] = {
    {"atari2600", "retrogym Atari 2600", RG_VERSION_STRING, "a26|bin", "Atari2600", rg__a26_open},
    /* not in systems/Nes.json's core list: chosen only by name until it matches FCEUmm (docs/nes.md) */
    {"nes", "retrogym NES", RG_VERSION_STRING, "nes", "Nes", rg__nes_open},
    /* genesis_plus_gx stays first in systems/Sms.json and GameGear.json, so these run by name (docs/sms.md) */
    {"sms", "retrogym SMS", RG_VERSION_STRING, "sms", "Sms", rg__sms_open},
    {"gamegear", "retrogym Game Gear", RG_VERSION_STRING, "gg", "GameGear", rg__sms_open},
    /* not in systems/Genesis.json's core list: chosen only by name until it matches Genesis Plus GX (docs/genesis.md)
     */
    {"genesis", "retrogym Genesis", RG_VERSION_STRING, "md|gen", "Genesis", rg__genesis_open},
};

#define N_NATIVE (sizeof k_native / sizeof k_native[0])

const rg__native_core *rg__native_find(const char *name)
{
    for (size_t i = 0; name && i < N_NATIVE; i++)
        if (strcasecmp(name, k_native[i].name) == 0)
            return &k_native[i];
    return NULL;
}

size_t rg_core_builtin_count(void)
{
    return N_NATIVE;
}

int rg_core_builtin_at(size_t i, rg_core_info *out)
{
    if (i >= N_NATIVE || !out)
        return rg__error(RG_EINVAL, "rg_core_builtin_at: no built-in core %zu", i);
    memset(out, 0, sizeof *out);
    out->name = k_native[i].name;
    out->path = "(built in)";
    out->library_name = k_native[i].library_name;
    out->library_version = k_native[i].version;
    out->extensions = k_native[i].extensions;
    return RG_OK;
}
