/* The screen as stable-retro observes it: a size fixed once the game is loaded, read from every frame at that size
 * with the frame's pitch (docs/formats.md, "Screen"; docs/compat.md, "Host"). */
#ifndef RG_SRC_EMU_SCREEN_H
#define RG_SRC_EMU_SCREEN_H

#include <stdint.h>

#include "core_iface.h"

typedef struct rg__screen {
    unsigned width, height; /* 0 until decided */
} rg__screen;

/* Decides the size from the geometry the core reported at load, corrected as stable-retro corrects it by the core's
 * library name and the last character of the ROM path. Leaves it undecided (0) when the core reported none or an
 * absurd one; rg__screen_settle then takes the first frame's size. */
void rg__screen_decide(rg__screen *s, const rg__core_io *io, const char *library_name, const char *rom_path);

/* An undecided size becomes the frame's (no-op once decided or without a frame). */
void rg__screen_settle(rg__screen *s, const rg_frame *f);

/* Writes width * height * 3 bytes of RGB24: the frame's rows and columns read at the screen's size with its pitch
 * (columns past the frame's width but within its pitch are the core's buffer as it stands, as in stable-retro);
 * what lies beyond the pitch or below the frame's last row is black. f->data must be set. */
void rg__screen_rgb24(const rg__screen *s, const rg_frame *f, uint8_t *dst);
/* The same screen as ALE's grayscale, one byte a pixel: (299 R + 587 G + 114 B + 500) / 1000 of its RGB24
 * (base/luma.h); padding black as in rg__screen_rgb24. */
void rg__screen_gray(const rg__screen *s, const rg_frame *f, uint8_t *dst);
/* Both from the frame's palette indices (io->index; f gives the rows): the same bytes as from its XRGB8888. */
void rg__screen_rgb24_index(const rg__screen *s, const rg_frame *f, const rg__index_frame *ix, uint8_t *dst);
void rg__screen_gray_index(const rg__screen *s, const rg_frame *f, const rg__index_frame *ix, uint8_t *dst);

#endif
