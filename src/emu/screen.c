/* The screen as stable-retro observes it (screen.h). */
#include "screen.h"

#include "index_frame.h"
#include "video_convert.h"

#include "base/luma.h"

#include <string.h>

/* Larger sizes are not a console's: such a core is taken at its frames' size. */
#define MAX_SIDE 4096u

void rg__screen_decide(rg__screen *s, const rg__core_io *io, const char *library_name, const char *rom_path)
{
    unsigned w = io->base_width, h = io->base_height;
    size_t n = rom_path ? strlen(rom_path) : 0;
    char last = n ? rom_path[n - 1] : '\0';
    const char *lib = library_name ? library_name : "";
    /* stable-retro's corrections (docs/formats.md, "Screen"): GPGX reports its boot geometry, Stella a doubled width,
     * Mednafen PCE Fast its largest mode. Debian names the PCE core "Beetle PCE Fast". */
    if (strcmp(lib, "Genesis Plus GX") == 0) {
        if (last == 'd')
            w = 320, h = 224;
        else if (last == 's')
            w = 256, h = 192;
        else if (last == 'g')
            w = 160, h = 144;
    } else if (strcmp(lib, "Stella") == 0) {
        w = 160;
    } else if (strcmp(lib, "Mednafen PCE Fast") == 0 || strcmp(lib, "Beetle PCE Fast") == 0) {
        w = 256, h = 242;
    }
    if (w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE)
        w = h = 0;
    s->width = w;
    s->height = h;
}

void rg__screen_settle(rg__screen *s, const rg_frame *f)
{
    if (s->width || !f->data)
        return;
    s->width = f->width;
    s->height = f->height;
}

/* The part of the screen a frame covers: the columns its pitch holds and the rows it has (the rest is black). */
static void covered(const rg__screen *s, const rg_frame *f, size_t *bpp, unsigned *cols, unsigned *rows)
{
    *bpp = f->format == RG_PIXEL_XRGB8888 ? 4 : 2;
    size_t in_pitch = f->pitch / *bpp;
    *cols = s->width < in_pitch ? s->width : (unsigned)in_pitch;
    *rows = s->height < f->height ? s->height : f->height;
}

void rg__screen_rgb24(const rg__screen *s, const rg_frame *f, uint8_t *dst)
{
    size_t bpp;
    unsigned cols, rows;
    covered(s, f, &bpp, &cols, &rows);
    size_t out_row = (size_t)s->width * 3;
    rg_frame part = *f;
    if (cols == s->width) { /* the usual case: one call over every row */
        part.width = cols;
        part.height = rows;
        rg__convert_rgb24(&part, dst);
    } else {
        part.width = cols;
        part.height = 1;
        for (unsigned y = 0; y < rows; y++) {
            part.data = (const uint8_t *)f->data + (size_t)y * f->pitch;
            rg__convert_rgb24(&part, dst + y * out_row);
            memset(dst + y * out_row + (size_t)cols * 3, 0, out_row - (size_t)cols * 3);
        }
    }
    if (rows < s->height)
        memset(dst + rows * out_row, 0, (s->height - rows) * out_row);
}

/* Row y of a frame in another format than XRGB8888: its RGB24 in chunks, then the grays. */
static void gray_row_rgb24(const rg_frame *f, unsigned y, unsigned cols, size_t bpp, uint8_t *out)
{
    enum { CHUNK = 256 };
    uint8_t rgb[CHUNK * 3];
    rg_frame part = *f;
    part.height = 1;
    for (unsigned x = 0; x < cols; x += CHUNK) {
        unsigned n = cols - x < CHUNK ? cols - x : CHUNK;
        part.width = n;
        part.data = (const uint8_t *)f->data + (size_t)y * f->pitch + (size_t)x * bpp;
        rg__convert_rgb24(&part, rgb);
        uint32_t last = UINT32_MAX; /* games draw runs of one colour: its gray is computed once per run */
        uint8_t gray = 0;
        for (unsigned i = 0; i < n; i++) {
            const uint8_t *px = rgb + 3 * i;
            uint32_t key = (uint32_t)px[0] << 16 | (uint32_t)px[1] << 8 | px[2];
            if (key != last)
                last = key, gray = (uint8_t)((rg__luma_sum(px) + 500u) / 1000u);
            out[x + i] = gray;
        }
    }
}

void rg__screen_gray(const rg__screen *s, const rg_frame *f, uint8_t *dst)
{
    size_t bpp;
    unsigned cols, rows;
    covered(s, f, &bpp, &cols, &rows);
    /* XRGB8888 (most cores, ours included): straight from the pixels, AVX2 where the CPU has it (base/gray.c) */
    const int xrgb = f->format == RG_PIXEL_XRGB8888 && f->pitch % 4 == 0, simd = xrgb && rg__gray_simd();
    if (xrgb && cols == s->width && f->pitch == (size_t)cols * 4) { /* rows back to back: one call */
        rg__gray_xrgb(f->data, (size_t)rows * cols, dst, simd);
    } else {
        for (unsigned y = 0; y < rows; y++) {
            uint8_t *out = dst + (size_t)y * s->width;
            if (xrgb)
                rg__gray_xrgb((const uint32_t *)((const uint8_t *)f->data + (size_t)y * f->pitch), cols, out, simd);
            else
                gray_row_rgb24(f, y, cols, bpp, out);
            memset(out + cols, 0, s->width - cols);
        }
    }
    if (rows < s->height)
        memset(dst + (size_t)rows * s->width, 0, (size_t)(s->height - rows) * s->width);
}

/* The same two from a palette-index frame (index_frame.h): the columns its pitch holds, the frame's rows, each row
 * looked up as RGB24 (bpp 3) or gray (bpp 1). */
static void index_screen(const rg__screen *s, const rg_frame *f, const rg__index_frame *ix, uint8_t *dst, size_t bpp)
{
    unsigned cols = s->width < ix->pitch ? s->width : (unsigned)ix->pitch;
    unsigned rows = s->height < f->height ? s->height : f->height;
    size_t out_row = (size_t)s->width * bpp, whole = cols == s->width && ix->pitch == cols; /* one call for all */
    size_t count = whole ? 1 : rows, len = whole ? (size_t)rows * cols : cols;
    int level = rg__index_simd();
    for (size_t y = 0; y < count; y++) {
        uint8_t *out = dst + y * out_row;
        if (bpp == 3)
            rg__index_rgb24(ix->data + y * ix->pitch, len, ix->palette, out, level);
        else
            rg__index_gray(ix->data + y * ix->pitch, len, ix->gray, out, level);
        if (!whole)
            memset(out + (size_t)cols * bpp, 0, out_row - (size_t)cols * bpp);
    }
    if (rows < s->height)
        memset(dst + rows * out_row, 0, (s->height - rows) * out_row);
}

void rg__screen_rgb24_index(const rg__screen *s, const rg_frame *f, const rg__index_frame *ix, uint8_t *dst)
{
    index_screen(s, f, ix, dst, 3);
}

void rg__screen_gray_index(const rg__screen *s, const rg_frame *f, const rg__index_frame *ix, uint8_t *dst)
{
    index_screen(s, f, ix, dst, 1);
}
