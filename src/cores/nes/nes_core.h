/* The NES core glue (nes_core.c) and its palette (palette.c). */
#ifndef RG_SRC_CORES_NES_NES_CORE_H
#define RG_SRC_CORES_NES_NES_CORE_H

#include <stdint.h>

/* The picture the core hands out: FCEUmm's default crop of 8 pixels on every side (what stable-retro observes). */
#define RG__NES_VIEW_X 8
#define RG__NES_VIEW_Y 8
#define RG__NES_VIEW_W 240
#define RG__NES_VIEW_H 224

/* RGB565 colours of the 512 framebuffer values (palette index | emphasis << 6). */
void rg__nes_palette_build(uint16_t out[512]);

#endif
