/* Grayscale and resize of one frame (pool_preproc.h): the plan, the scalar kernels and the frame loop.
 *
 * Shrinking follows the arithmetic of OpenCV's INTER_AREA (the facts our docs/python.md gives): for whole-number
 * factors kx x ky the block sum s becomes (s + 2) >> 2 for 2 x 2 and round_half_even(float(s) * (1.0f / (kx ky)))
 * otherwise; for fractional factors each destination column d takes the source columns its interval
 * [d * scale, (d + 1) * scale) covers, weighted by the covered part over the interval width (scale = 1 / (dw / sw)
 * in double, weights rounded to float), and the same for rows; a row's columns are summed first (float, in column
 * order: buf = buf + value * weight), then the rows into the destination row (sum = sum + beta * buf, the first
 * row sum = beta * buf), and the result rounded half to even and clamped to 0..255. Every product is rounded before
 * its sum (no fused multiply-add: the AVX2 kernels do not use FMA either). */
#include "pool_preproc.h"

#include "base/base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct tap {
    unsigned d, s;
    float w;
} tap;

/* OpenCV's interval weights of one axis (ssize > dsize), in its order. Returns the number of taps (<= 2 ssize). */
static unsigned axis_taps(unsigned ssize, unsigned dsize, tap *t)
{
    double scale = 1.0 / ((double)dsize / ssize);
    unsigned k = 0;
    for (unsigned d = 0; d < dsize; d++) {
        double f1 = d * scale, f2 = f1 + scale;
        double cell = scale < ssize - f1 ? scale : ssize - f1;
        int s1 = (int)ceil(f1), s2 = (int)floor(f2);
        if (s2 > (int)ssize - 1)
            s2 = (int)ssize - 1;
        if (s1 > s2)
            s1 = s2;
        if (s1 - f1 > 1e-3)
            t[k++] = (tap){d, (unsigned)s1 - 1, (float)((s1 - f1) / cell)};
        for (int s = s1; s < s2; s++)
            t[k++] = (tap){d, (unsigned)s, (float)(1.0 / cell)};
        if (f2 - s2 > 1e-3) {
            double part = f2 - s2 < 1.0 ? f2 - s2 : 1.0;
            t[k++] = (tap){d, (unsigned)s2, (float)((part < cell ? part : cell) / cell)};
        }
    }
    return k;
}

static size_t up32(size_t n)
{
    return (n + 31) & ~(size_t)31;
}

/* Where each group of 4 destination values reads at most 16 source bytes: the group's first byte and each tap's
 * byte offset from it (padding taps: weight 0, offset 0), so that the AVX2 kernel loads 16 bytes and shuffles. */
static void shuffle_tables(rg__area_plan *pl)
{
    const size_t len = pl->row_len, groups = len / 4;
    pl->gbase = malloc(groups * sizeof *pl->gbase);
    pl->gmask = malloc((size_t)pl->slots * len * 4);
    if (!pl->gbase || !pl->gmask)
        goto none;
    for (size_t g = 0; g < groups; g++) {
        int32_t lo = INT32_MAX, hi = -1;
        for (unsigned s = 0; s < pl->slots; s++)
            for (size_t i = g * 4; i < g * 4 + 4; i++)
                if (pl->xa[s * len + i] != 0.0f) {
                    lo = pl->xi[s * len + i] < lo ? pl->xi[s * len + i] : lo;
                    hi = pl->xi[s * len + i] > hi ? pl->xi[s * len + i] : hi;
                }
        if (hi < 0)
            lo = hi = 0;
        if (hi - lo > 15)
            goto none;
        pl->gbase[g] = lo;
        for (unsigned s = 0; s < pl->slots; s++)
            for (size_t i = g * 4; i < g * 4 + 4; i++) {
                uint8_t *m = pl->gmask + (s * len + i) * 4;
                m[0] = pl->xa[s * len + i] != 0.0f ? (uint8_t)(pl->xi[s * len + i] - lo) : 0;
                m[1] = m[2] = m[3] = 0x80; /* zero: the byte becomes a 32-bit value */
            }
    }
    return;
none:
    free(pl->gbase), free(pl->gmask);
    pl->gbase = NULL, pl->gmask = NULL;
}

int rg__area_plan_init(rg__area_plan *pl, unsigned sh, unsigned sw, unsigned dh, unsigned dw, int gray)
{
    memset(pl, 0, sizeof *pl);
    pl->sh = sh, pl->sw = sw, pl->dh = dh, pl->dw = dw, pl->gray = gray != 0, pl->c = gray ? 1 : 3;
    const unsigned c = pl->c;
    double scale_x = 1.0 / ((double)dw / sw), scale_y = 1.0 / ((double)dh / sh);
    if (sh == dh && sw == dw)
        pl->kind = RG__AREA_COPY;
    else if (scale_x < 1.0 || scale_y < 1.0)
        pl->kind = RG__AREA_BLOCK;
    else if (sw % dw == 0 && sh % dh == 0)
        pl->kind = RG__AREA_FAST, pl->kx = sw / dw, pl->ky = sh / dh;
    else
        pl->kind = RG__AREA_TAPS;
    pl->row_len = (dw * c + 7) & ~7u;
    if (pl->kind == RG__AREA_TAPS) {
        tap *tx = malloc(2 * (size_t)sw * sizeof *tx), *ty = malloc(2 * (size_t)sh * sizeof *ty);
        if (!tx || !ty) {
            free(tx), free(ty);
            return rg__error(RG_ENOMEM, "out of memory for the resize tables");
        }
        unsigned nx = axis_taps(sw, dw, tx), ny = axis_taps(sh, dh, ty);
        unsigned *count = calloc(dw, sizeof *count);
        unsigned slots = 0;
        for (unsigned k = 0; count && k < nx; k++)
            if (++count[tx[k].d] > slots)
                slots = count[tx[k].d];
        pl->slots = slots;
        pl->ny = ny;
        pl->xi = calloc((size_t)slots * pl->row_len, sizeof *pl->xi);
        pl->xa = calloc((size_t)slots * pl->row_len, sizeof *pl->xa);
        pl->ydst = malloc(ny * sizeof *pl->ydst);
        pl->ysrc = malloc(ny * sizeof *pl->ysrc);
        pl->ybeta = malloc(ny * sizeof *pl->ybeta);
        if (count && pl->xi && pl->xa && pl->ydst && pl->ysrc && pl->ybeta) {
            memset(count, 0, dw * sizeof *count);
            for (unsigned k = 0; k < nx; k++) { /* tap j of column d goes to slot j; shorter lists keep weight 0 */
                unsigned slot = count[tx[k].d]++;
                for (unsigned ch = 0; ch < c; ch++) {
                    size_t at = (size_t)slot * pl->row_len + tx[k].d * c + ch;
                    pl->xi[at] = (int32_t)(tx[k].s * c + ch);
                    pl->xa[at] = tx[k].w;
                }
            }
            for (unsigned k = 0; k < ny; k++)
                pl->ydst[k] = ty[k].d, pl->ysrc[k] = ty[k].s, pl->ybeta[k] = ty[k].w;
            shuffle_tables(pl); /* optional: without them the AVX2 kernel gathers */
        }
        free(tx), free(ty);
        if (!count || !pl->xi || !pl->xa || !pl->ydst || !pl->ysrc || !pl->ybeta) {
            free(count);
            rg__area_plan_free(pl);
            return rg__error(RG_ENOMEM, "out of memory for the resize tables");
        }
        free(count);
    }
    /* scratch: buf and sum (floats), integer sums, and one source row with room for 4-byte gathers past its end */
    size_t rows = pl->kind == RG__AREA_BLOCK ? sh : 1; /* BLOCK keeps the whole plane */
    pl->scratch = 2 * up32(pl->row_len * sizeof(float)) + up32((size_t)dw * c * sizeof(uint32_t)) +
                  up32(rows * sw * 3 + 32);
    return RG_OK;
}

void rg__area_plan_free(rg__area_plan *pl)
{
    free(pl->xi);
    free(pl->xa);
    free(pl->ydst);
    free(pl->ysrc);
    free(pl->ybeta);
    free(pl->gbase);
    free(pl->gmask);
    pl->gbase = NULL, pl->gmask = NULL;
    pl->xi = NULL, pl->xa = NULL, pl->ydst = pl->ysrc = NULL, pl->ybeta = NULL;
}

void rg__luma_row_scalar(const uint8_t *rgb, size_t n, uint8_t *out)
{
    uint32_t last = UINT32_MAX; /* games draw runs of one colour: its gray is computed once per run */
    uint8_t gray = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *px = rgb + 3 * i;
        uint32_t key = px[0] | (uint32_t)px[1] << 8 | (uint32_t)px[2] << 16;
        if (key != last)
            last = key, gray = rg__luma(px);
        out[i] = gray;
    }
}

void rg__taps_row_scalar(const rg__area_plan *pl, const uint8_t *row, float *buf)
{
    const size_t len = pl->row_len;
    for (size_t i = 0; i < len; i++)
        buf[i] = 0.0f;
    for (unsigned s = 0; s < pl->slots; s++) { /* slot by slot: each value still adds its taps in order */
        const int32_t *xi = pl->xi + s * len;
        const float *xa = pl->xa + s * len;
        for (size_t i = 0; i < len; i++) {
            float prod = (float)row[xi[i]] * xa[i];
            buf[i] = buf[i] + prod;
        }
    }
}

void rg__vsum_scalar(float *sum, const float *buf, float beta, size_t n, int first)
{
    for (size_t i = 0; i < n; i++) {
        float prod = beta * buf[i];
        sum[i] = first ? prod : sum[i] + prod;
    }
}

/* Rounded in the current rounding mode (half to even by default, as the AVX2 conversion and OpenCV's cvRound),
 * then clamped to 0..255. */
static uint8_t round_u8(float v)
{
    long r = lrintf(v);
    return (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
}

void rg__store_row_scalar(const float *sum, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = round_u8(sum[i]);
}

/* Row y of the plane to resize (gray or RGB bytes) into row. */
static void plane_row(const rg__area_plan *pl, const uint8_t *src, unsigned y, uint8_t *row, int simd)
{
    if (pl->src_gray) {
        memcpy(row, src + (size_t)y * pl->sw, pl->sw);
        return;
    }
    const uint8_t *s = src + (size_t)y * pl->sw * 3;
    if (!pl->gray)
        memcpy(row, s, (size_t)pl->sw * 3);
    else if (simd)
        rg__luma_row_avx2(s, pl->sw, row);
    else
        rg__luma_row_scalar(s, pl->sw, row);
}

static void frame_taps(const rg__area_plan *pl, const uint8_t *src, uint8_t *dst, float *buf, float *sum, uint8_t *row,
                       int simd)
{
    const size_t out_len = (size_t)pl->dw * pl->c;
    unsigned prev_src = UINT32_MAX, prev_dst = pl->ydst[0];
    for (unsigned j = 0; j < pl->ny; j++) {
        if (pl->ysrc[j] != prev_src) { /* a source row split between two destination rows is summed once */
            /* a gray source row equal to the one before (games repeat rows: backgrounds, walls, playfield bands)
             * has its taps already in buf */
            int same = pl->src_gray && prev_src != UINT32_MAX &&
                       memcmp(row, src + (size_t)pl->ysrc[j] * pl->sw, pl->sw) == 0;
            prev_src = pl->ysrc[j];
            if (!same) {
                plane_row(pl, src, prev_src, row, simd);
                if (simd)
                    rg__taps_row_avx2(pl, row, buf);
                else
                    rg__taps_row_scalar(pl, row, buf);
            }
        }
        int first = j == 0;
        if (pl->ydst[j] != prev_dst) {
            if (simd)
                rg__store_row_avx2(sum, out_len, dst + (size_t)prev_dst * out_len);
            else
                rg__store_row_scalar(sum, out_len, dst + (size_t)prev_dst * out_len);
            prev_dst = pl->ydst[j];
            first = 1;
        }
        if (simd)
            rg__vsum_avx2(sum, buf, pl->ybeta[j], pl->row_len, first);
        else
            rg__vsum_scalar(sum, buf, pl->ybeta[j], pl->row_len, first);
    }
    if (simd)
        rg__store_row_avx2(sum, out_len, dst + (size_t)prev_dst * out_len);
    else
        rg__store_row_scalar(sum, out_len, dst + (size_t)prev_dst * out_len);
}

static void frame_fast(const rg__area_plan *pl, const uint8_t *src, uint8_t *dst, uint32_t *acc, uint8_t *row, int simd)
{
    const unsigned c = pl->c, kx = pl->kx, ky = pl->ky, n = pl->dw * c;
    const float scale = 1.0f / (float)(kx * ky);
    for (unsigned y = 0; y < pl->dh; y++) {
        memset(acc, 0, n * sizeof *acc);
        for (unsigned r = 0; r < ky; r++) {
            plane_row(pl, src, y * ky + r, row, simd);
            for (unsigned x = 0; x < pl->dw; x++)
                for (unsigned k = 0; k < kx; k++)
                    for (unsigned ch = 0; ch < c; ch++)
                        acc[x * c + ch] += row[(x * kx + k) * c + ch];
        }
        uint8_t *d = dst + (size_t)y * n;
        for (unsigned i = 0; i < n; i++)
            d[i] = kx == 2 && ky == 2 ? (uint8_t)((acc[i] + 2) >> 2) : round_u8((float)acc[i] * scale);
    }
}

/* Enlarging on an axis: the average of whole source blocks (at least one pixel), rounded half up. */
static void frame_block(const rg__area_plan *pl, const uint8_t *src, uint8_t *dst, uint8_t *row, int simd)
{
    const unsigned H = pl->sh, W = pl->sw, c = pl->c, h = pl->dh, w = pl->dw;
    for (unsigned y = 0; y < H; y++)
        plane_row(pl, src, y, row + (size_t)y * W * c, simd);
    for (unsigned y = 0; y < h; y++) {
        unsigned y0 = (unsigned)((uint64_t)y * H / h), y1 = (unsigned)((uint64_t)(y + 1) * H / h);
        if (y1 <= y0)
            y1 = y0 + 1;
        for (unsigned x = 0; x < w; x++) {
            unsigned x0 = (unsigned)((uint64_t)x * W / w), x1 = (unsigned)((uint64_t)(x + 1) * W / w);
            if (x1 <= x0)
                x1 = x0 + 1;
            uint32_t sum[3] = {0, 0, 0};
            for (unsigned yy = y0; yy < y1; yy++)
                for (unsigned xx = x0; xx < x1; xx++)
                    for (unsigned ch = 0; ch < c; ch++)
                        sum[ch] += row[((size_t)yy * W + xx) * c + ch];
            uint32_t n = (y1 - y0) * (x1 - x0);
            for (unsigned ch = 0; ch < c; ch++)
                dst[((size_t)y * w + x) * c + ch] = (uint8_t)((sum[ch] + n / 2) / n);
        }
    }
}

void rg__area_frame(const rg__area_plan *pl, const uint8_t *src, uint8_t *dst, void *scratch, int simd)
{
    uint8_t *base = scratch;
    float *buf = (float *)base;
    float *sum = (float *)(base + up32(pl->row_len * sizeof(float)));
    uint32_t *acc = (uint32_t *)(base + 2 * up32(pl->row_len * sizeof(float)));
    uint8_t *row = base + 2 * up32(pl->row_len * sizeof(float)) + up32((size_t)pl->dw * pl->c * sizeof(uint32_t));
    switch (pl->kind) {
    case RG__AREA_COPY:
        if (pl->src_gray)
            memcpy(dst, src, (size_t)pl->sh * pl->sw);
        else if (!pl->gray)
            memcpy(dst, src, (size_t)pl->sh * pl->sw * 3);
        else if (simd)
            rg__luma_row_avx2(src, (size_t)pl->sh * pl->sw, dst);
        else
            rg__luma_row_scalar(src, (size_t)pl->sh * pl->sw, dst);
        break;
    case RG__AREA_FAST:
        frame_fast(pl, src, dst, acc, row, simd);
        break;
    case RG__AREA_TAPS:
        frame_taps(pl, src, dst, buf, sum, row, simd);
        break;
    default:
        frame_block(pl, src, dst, row, simd);
        break;
    }
}
