/* The NES core glue (nes_core.c) and its palette (palette.c); the core is registered in src/emu/native.c as core
 * "nes" and carried by the libretro export (libretro_export/libretro_shim.c). */
#ifndef RG_SRC_CORES_NES_NES_CORE_H
#define RG_SRC_CORES_NES_NES_CORE_H

#include <stdint.h>

#include "emu/core_iface.h"

/* Opens an iNES / NES 2.0 image; core_path is unused. Same contract as every backend's open (src/emu/core_iface.h). */
int rg__nes_open(void **core, const rg__core_ops **ops, const rg__core_open_args *args);

/* The picture the core hands out: FCEUmm's default crop of 8 pixels on every side (what stable-retro observes). */
#define RG__NES_VIEW_X 8
#define RG__NES_VIEW_Y 8
#define RG__NES_VIEW_W 240
#define RG__NES_VIEW_H 224

/* RGB565 colours of the 512 framebuffer values (palette index | emphasis << 6). */
void rg__nes_palette_build(uint16_t out[512]);

#endif
