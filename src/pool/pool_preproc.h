/* The image kernels of the pool's preprocessing (docs/python.md, "Preprocessing"): grayscale, then a resize that
 * gives the bytes of OpenCV's cv2.resize(..., interpolation=INTER_AREA) when shrinking, as Gymnasium's
 * AtariPreprocessing computes them. Each kernel has a scalar version (pool_preproc_area.c) and an AVX2 one
 * (pool_preproc_avx2.c, chosen at run time) that give the same bytes. */
#ifndef RG_SRC_POOL_POOL_PREPROC_H
#define RG_SRC_POOL_POOL_PREPROC_H

#include <stddef.h>
#include <stdint.h>

#include "base/luma.h"

enum {
    RG__AREA_COPY = 0,   /* same size: no resize */
    RG__AREA_FAST = 1,   /* both factors whole numbers: integer block sums */
    RG__AREA_TAPS = 2,   /* shrinking by fractional factors: OpenCV's weighted taps in float */
    RG__AREA_BLOCK = 3   /* enlarging on an axis (OpenCV switches to bilinear there; we average whole blocks) */
};

/* What resizes one frame; built once by rg__area_plan_init, read-only after (shared by the workers). */
typedef struct rg__area_plan {
    unsigned sh, sw, dh, dw, c; /* source and destination sizes; c: bytes per pixel of the plane resized (1 or 3) */
    int gray;                   /* the source is RGB24, converted to gray (c = 1) before resizing ... */
    int src_gray;               /* ... or, set after rg__area_plan_init with gray on, already a gray plane (sw bytes a
                                 * row: the envs' gray observations, env/env_maxpool.h) */
    int kind;                   /* RG__AREA_* */
    unsigned kx, ky;            /* FAST: the factors */
    unsigned row_len;           /* TAPS: dw * c rounded up to 8 */
    unsigned slots;             /* TAPS: taps per destination value, short lists padded with zero weights */
    int32_t *xi;                /* TAPS: slots x row_len source offsets into a row of the plane */
    float *xa;                  /* TAPS: slots x row_len weights */
    int32_t *gbase;             /* TAPS, when every 4 consecutive destination values take their taps from 16
                                 * source bytes (NULL otherwise): row_len / 4 first bytes ... */
    uint8_t *gmask;             /* ... and slots x row_len x 4 byte picks from there (AVX2 shuffles, no gathers) */
    unsigned ny;                /* TAPS: row taps, in OpenCV's order */
    uint32_t *ydst, *ysrc;
    float *ybeta;
    size_t scratch;             /* bytes of scratch one frame needs (rg__area_frame) */
} rg__area_plan;

/* sh x sw RGB24 frames into dh x dw x (gray ? 1 : 3). Returns RG_OK or RG_ENOMEM. */
int rg__area_plan_init(rg__area_plan *pl, unsigned sh, unsigned sw, unsigned dh, unsigned dw, int gray);
void rg__area_plan_free(rg__area_plan *pl);

/* One frame through the plan: src RGB24, dst the output; scratch: pl->scratch bytes, 32-byte aligned. simd: use the
 * AVX2 kernels (only where rg__pre_simd() says they run here). */
void rg__area_frame(const rg__area_plan *pl, const uint8_t *src, uint8_t *dst, void *scratch, int simd);

/* 1 where the AVX2 kernels can run on this CPU and RG_PREPROC_SCALAR is not set (or "0") in the environment; a pool
 * asks once, at its creation. */
int rg__pre_simd(void);

/* Gray of an RGB pixel: ALE's grayscale of the NTSC palette colours, (299 R + 587 G + 114 B) / 1000 rounded. */
static inline uint8_t rg__luma(const uint8_t *px)
{
    return (uint8_t)((rg__luma_sum(px) + 500u) / 1000u);
}

/* Kernels: scalar and AVX2 (same results). */
void rg__luma_row_scalar(const uint8_t *rgb, size_t n, uint8_t *out);
void rg__taps_row_scalar(const rg__area_plan *pl, const uint8_t *row, float *buf);
void rg__vsum_scalar(float *sum, const float *buf, float beta, size_t n, int first);
void rg__store_row_scalar(const float *sum, size_t n, uint8_t *out);
void rg__luma_row_avx2(const uint8_t *rgb, size_t n, uint8_t *out);
void rg__taps_row_avx2(const rg__area_plan *pl, const uint8_t *row, float *buf);
void rg__vsum_avx2(float *sum, const float *buf, float beta, size_t n, int first);
void rg__store_row_avx2(const float *sum, size_t n, uint8_t *out);

#endif
