/* Palette-index frames to XRGB8888, RGB24 and gray (index_frame.h). The AVX-512 forms look 64 indices up at a time
 * with byte permutes over the palette's channel planes (128 entries per two-register permute; indices with bit 7 set
 * take the second half of the palette through a blend), then interleave the planes. */
#include "index_frame.h"

#include "core_iface.h"

#include "base/luma.h"

void rg__index_gray_table(const uint32_t palette[256], uint8_t gray[256])
{
    for (unsigned i = 0; i < 256; i++) {
        uint8_t px[3] = {(uint8_t)(palette[i] >> 16), (uint8_t)(palette[i] >> 8), (uint8_t)palette[i]};
        gray[i] = (uint8_t)((rg__luma_sum(px) + 500u) / 1000u);
    }
}

static void xrgb_scalar(const uint8_t *idx, size_t n, const uint32_t *pal, uint32_t *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = pal[idx[i]];
}

static void rgb24_scalar(const uint8_t *idx, size_t n, const uint32_t *pal, uint8_t *out)
{
    for (size_t i = 0; i < n; i++, out += 3) {
        uint32_t p = pal[idx[i]];
        out[0] = (uint8_t)(p >> 16);
        out[1] = (uint8_t)(p >> 8);
        out[2] = (uint8_t)p;
    }
}

static void gray_scalar(const uint8_t *idx, size_t n, const uint8_t *gray, uint8_t *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = gray[idx[i]];
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))
#define HAVE_VBMI 1

/* A 256-entry byte table as four registers. */
typedef struct table4 {
    __m512i t[4];
} table4;

VBMI static table4 load_table(const uint8_t *bytes)
{
    table4 r;
    for (int i = 0; i < 4; i++)
        r.t[i] = _mm512_loadu_si512(bytes + 64 * i);
    return r;
}

/* 64 lookups; the second half of the table only when an index has bit 7 set. */
VBMI static inline __m512i lookup(const table4 *tb, __m512i x)
{
    __m512i lo = _mm512_permutex2var_epi8(tb->t[0], x, tb->t[1]);
    __mmask64 high = _mm512_movepi8_mask(x);
    if (!high)
        return lo;
    return _mm512_mask_blend_epi8(high, lo, _mm512_permutex2var_epi8(tb->t[2], x, tb->t[3]));
}

/* The palette's channel planes (shift 16: red, 8: green, 0: blue). */
static void plane(const uint32_t *pal, int shift, uint8_t out[256])
{
    for (unsigned i = 0; i < 256; i++)
        out[i] = (uint8_t)(pal[i] >> shift);
}

VBMI static void xrgb_vbmi(const uint8_t *idx, size_t n, const uint32_t *pal, uint32_t *out)
{
    uint8_t r[256], g[256], b[256], x[256], ord[64];
    plane(pal, 16, r), plane(pal, 8, g), plane(pal, 0, b), plane(pal, 24, x);
    table4 tr = load_table(r), tg = load_table(g), tb = load_table(b), tx = load_table(x);
    int any_x = 0; /* the X byte: zero in every palette of ours, looked up only when it is not */
    for (unsigned i = 0; i < 256; i++)
        any_x |= x[i];
    /* the in-lane unpacks below leave output register k, lane L with source bytes 16L + 4k ..: feed them in the order
     * that makes that pixels 16k + 4L .. */
    for (int k = 0; k < 4; k++)
        for (int l = 0; l < 4; l++)
            for (int j = 0; j < 4; j++)
                ord[l * 16 + k * 4 + j] = (uint8_t)(k * 16 + l * 4 + j);
    const __m512i perm = _mm512_loadu_si512(ord), zero = _mm512_setzero_si512();
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512i v = _mm512_permutexvar_epi8(perm, _mm512_loadu_si512(idx + i));
        __m512i R = lookup(&tr, v), G = lookup(&tg, v), B = lookup(&tb, v), X = any_x ? lookup(&tx, v) : zero;
        __m512i bg_lo = _mm512_unpacklo_epi8(B, G), bg_hi = _mm512_unpackhi_epi8(B, G);
        __m512i r_lo = _mm512_unpacklo_epi8(R, X), r_hi = _mm512_unpackhi_epi8(R, X);
        _mm512_storeu_si512(out + i, _mm512_unpacklo_epi16(bg_lo, r_lo));
        _mm512_storeu_si512(out + i + 16, _mm512_unpackhi_epi16(bg_lo, r_lo));
        _mm512_storeu_si512(out + i + 32, _mm512_unpacklo_epi16(bg_hi, r_hi));
        _mm512_storeu_si512(out + i + 48, _mm512_unpackhi_epi16(bg_hi, r_hi));
    }
    xrgb_scalar(idx + i, n - i, pal, out + i);
}

VBMI static void rgb24_vbmi(const uint8_t *idx, size_t n, const uint32_t *pal, uint8_t *out)
{
    uint8_t r[256], g[256], b[256], rg_ord[3][64], b_ord[3][64];
    plane(pal, 16, r), plane(pal, 8, g), plane(pal, 0, b);
    table4 tr = load_table(r), tg = load_table(g), tb = load_table(b);
    /* output byte o of register k is channel c = (64k + o) % 3 of pixel p = (64k + o) / 3: first red and green
     * from R (0..63) and G (64..127), then blue from B (64 + p) over the result (o: its own byte) */
    for (int k = 0; k < 3; k++)
        for (int o = 0; o < 64; o++) {
            int at = 64 * k + o, p = at / 3, c = at % 3;
            rg_ord[k][o] = (uint8_t)(c == 1 ? 64 + p : p);
            b_ord[k][o] = (uint8_t)(c == 2 ? 64 + p : o);
        }
    __m512i rgo[3], bo[3];
    for (int k = 0; k < 3; k++) {
        rgo[k] = _mm512_loadu_si512(rg_ord[k]);
        bo[k] = _mm512_loadu_si512(b_ord[k]);
    }
    size_t i = 0;
    for (; i + 64 <= n; i += 64, out += 192) {
        __m512i x = _mm512_loadu_si512(idx + i);
        __m512i R = lookup(&tr, x), G = lookup(&tg, x), B = lookup(&tb, x);
        for (int k = 0; k < 3; k++)
            _mm512_storeu_si512(out + 64 * k,
                                _mm512_permutex2var_epi8(_mm512_permutex2var_epi8(R, rgo[k], G), bo[k], B));
    }
    rgb24_scalar(idx + i, n - i, pal, out);
}

VBMI static void gray_vbmi(const uint8_t *idx, size_t n, const uint8_t *gray, uint8_t *out)
{
    table4 tg = load_table(gray);
    size_t i = 0;
    for (; i + 64 <= n; i += 64)
        _mm512_storeu_si512(out + i, lookup(&tg, _mm512_loadu_si512(idx + i)));
    gray_scalar(idx + i, n - i, gray, out + i);
}

#else
/* no AVX-512 forms here: rg__index_simd() says 0, and a level asked for anyway gets the scalar ones */
#define xrgb_vbmi xrgb_scalar
#define rgb24_vbmi rgb24_scalar
#define gray_vbmi gray_scalar
#endif

int rg__index_simd(void)
{
#ifdef HAVE_VBMI
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi");
#else
    return 0;
#endif
}

void rg__index_xrgb(const uint8_t *idx, size_t n, const uint32_t palette[256], uint32_t *out, int level)
{
    (level ? xrgb_vbmi : xrgb_scalar)(idx, n, palette, out);
}

void rg__index_rgb24(const uint8_t *idx, size_t n, const uint32_t palette[256], uint8_t *out, int level)
{
    (level ? rgb24_vbmi : rgb24_scalar)(idx, n, palette, out);
}

void rg__index_gray(const uint8_t *idx, size_t n, const uint8_t gray[256], uint8_t *out, int level)
{
    (level ? gray_vbmi : gray_scalar)(idx, n, gray, out);
}

void rg__io_video_fresh(rg__core_io *io)
{
    if (!io->video_stale)
        return;
    io->video_stale = 0;
    const rg_frame *f = &io->video;
    const rg__index_frame *ix = &io->index;
    if (!ix->data || !ix->xrgb || f->format != RG_PIXEL_XRGB8888 || f->pitch % 4)
        return;
    int level = rg__index_simd();
    if (ix->pitch == f->width && f->pitch == (size_t)f->width * 4) { /* rows back to back: one call */
        rg__index_xrgb(ix->data, (size_t)f->width * f->height, ix->palette, ix->xrgb, level);
        return;
    }
    for (unsigned y = 0; y < f->height; y++)
        rg__index_xrgb(ix->data + (size_t)y * ix->pitch, f->width, ix->palette, ix->xrgb + (size_t)y * (f->pitch / 4),
                       level);
}
