/* The Atari 2600 core's entry point (a26_core.c), registered in src/emu/native.c as core "atari2600" and carried
 * by the libretro export (libretro_export/libretro_shim.c). */
#ifndef RG_SRC_CORES_ATARI2600_A26_CORE_H
#define RG_SRC_CORES_ATARI2600_A26_CORE_H

#include "emu/core_iface.h"

/* Opens a 2600 cartridge image (the bank scheme detected, or given by the atari2600_cart_type option); core_path is
 * unused. Same contract as every backend's open (src/emu/core_iface.h). */
int rg__a26_open(void **core, const rg__core_ops **ops, const rg__core_open_args *args);

#endif
