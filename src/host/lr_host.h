/* The libretro host's entry point (lr_host.c): the backend that runs a libretro core from a shared object. */
#ifndef RG_SRC_HOST_LR_HOST_H
#define RG_SRC_HOST_LR_HOST_H

#include "emu/core_iface.h"

/* Loads args->core_path (a private copy of it when the file is already loaded) and the ROM into it. Same contract as
 * every backend's open (src/emu/core_iface.h). */
int rg__libretro_open(void **core, const rg__core_ops **ops, const rg__core_open_args *args);

#endif
