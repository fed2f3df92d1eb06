/* Conversion of a core's frame to packed RGB24. */
#ifndef RG_SRC_EMU_VIDEO_CONVERT_H
#define RG_SRC_EMU_VIDEO_CONVERT_H

#include "retrogym/emu.h"

/* Writes f->width * f->height * 3 bytes to dst. RGB565 and 0RGB1555 channels are widened with plain shifts and
 * no bit replication (max 248/252/248), exactly as stable-retro does, so observations match it. */
void rg__convert_rgb24(const rg_frame *f, uint8_t *dst);

/* The same without the SIMD paths (the reference the tests compare against). */
void rg__convert_rgb24_scalar(const rg_frame *f, uint8_t *dst);

/* For the tests: how many paths this CPU runs (1: scalar only; 2: + SSSE3; 3: + AVX2), and the
 * conversion through one of them (0 = scalar; a level the CPU lacks gives the scalar one). */
int rg__convert_rgb24_levels(void);
void rg__convert_rgb24_at(const rg_frame *f, uint8_t *dst, int level);

#endif
