/* Frames painted as 8-bit palette indices (our Atari core, where the CPU has AVX-512): their XRGB8888, RGB24 and gray
 * pixels through a 256-colour palette, so that an observation is made from a quarter of the bytes and the XRGB8888
 * frame only when someone asks for it (rg__io_video_fresh). */
#ifndef RG_SRC_EMU_INDEX_FRAME_H
#define RG_SRC_EMU_INDEX_FRAME_H

#include <stddef.h>
#include <stdint.h>

typedef struct rg__index_frame {
    const uint8_t *data;     /* the frame's rows (the rg_frame's width and height), pitch bytes apart; NULL: none */
    size_t pitch;
    const uint32_t *palette; /* 256 XRGB8888 colours */
    const uint8_t *gray;     /* their grays, (299 R + 587 G + 114 B + 500) / 1000 (base/luma.h) */
    uint32_t *xrgb;          /* the core's XRGB8888 buffer (what the frame's data points at), written from them */
} rg__index_frame;

/* The grays of a 256-colour palette (for rg__index_frame.gray). */
void rg__index_gray_table(const uint32_t palette[256], uint8_t gray[256]);

/* n pixels: XRGB8888, RGB24 (3n bytes) or gray. level: 0 scalar, 1 AVX-512 VBMI (only where rg__index_simd() says
 * the CPU has it); the same bytes. */
void rg__index_xrgb(const uint8_t *idx, size_t n, const uint32_t palette[256], uint32_t *out, int level);
void rg__index_rgb24(const uint8_t *idx, size_t n, const uint32_t palette[256], uint8_t *out, int level);
void rg__index_gray(const uint8_t *idx, size_t n, const uint8_t gray[256], uint8_t *out, int level);
int rg__index_simd(void);

#endif
