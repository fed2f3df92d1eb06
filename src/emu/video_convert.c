#include "video_convert.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RG_HAVE_X86 1
#endif

static void row_565(const uint16_t *s, uint8_t *d, unsigned w)
{
    for (unsigned x = 0; x < w; x++, d += 3) {
        unsigned p = s[x];
        d[0] = (uint8_t)((p >> 8) & 0xF8);
        d[1] = (uint8_t)((p >> 3) & 0xFC);
        d[2] = (uint8_t)((p << 3) & 0xF8);
    }
}

static void row_1555(const uint16_t *s, uint8_t *d, unsigned w)
{
    for (unsigned x = 0; x < w; x++, d += 3) {
        unsigned p = s[x];
        d[0] = (uint8_t)((p >> 7) & 0xF8);
        d[1] = (uint8_t)((p >> 2) & 0xF8);
        d[2] = (uint8_t)((p << 3) & 0xF8);
    }
}

static void row_8888(const uint32_t *s, uint8_t *d, unsigned w)
{
    for (unsigned x = 0; x < w; x++, d += 3) {
        uint32_t p = s[x];
        d[0] = (uint8_t)(p >> 16);
        d[1] = (uint8_t)(p >> 8);
        d[2] = (uint8_t)p;
    }
}

#ifdef RG_HAVE_X86
/* 8 pixels of RGB565 (16 bytes) become 24 bytes: the three channels are computed in 16-bit lanes, then bytes are
 * placed with two shuffles per output vector. */
__attribute__((target("ssse3"))) static void row_565_ssse3(const uint16_t *s, uint8_t *d, unsigned w)
{
    const __m128i mr = _mm_set1_epi16(0xF8), mg = _mm_set1_epi16(0xFC);
    const __m128i lo_rg = _mm_setr_epi8(0, 1, -1, 2, 3, -1, 4, 5, -1, 6, 7, -1, 8, 9, -1, 10);
    const __m128i lo_b = _mm_setr_epi8(-1, -1, 0, -1, -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1);
    const __m128i hi_rg = _mm_setr_epi8(11, -1, 12, 13, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i hi_b = _mm_setr_epi8(-1, 5, -1, -1, 6, -1, -1, 7, -1, -1, -1, -1, -1, -1, -1, -1);
    unsigned x = 0;
    for (; x + 8 <= w; x += 8, d += 24) {
        __m128i p = _mm_loadu_si128((const __m128i *)(s + x));
        __m128i r = _mm_and_si128(_mm_srli_epi16(p, 8), mr);
        __m128i g = _mm_and_si128(_mm_srli_epi16(p, 3), mg);
        __m128i b = _mm_and_si128(_mm_slli_epi16(p, 3), mr);
        __m128i rg = _mm_or_si128(r, _mm_slli_epi16(g, 8));
        __m128i bb = _mm_packus_epi16(b, b);
        __m128i o0 = _mm_or_si128(_mm_shuffle_epi8(rg, lo_rg), _mm_shuffle_epi8(bb, lo_b));
        __m128i o1 = _mm_or_si128(_mm_shuffle_epi8(rg, hi_rg), _mm_shuffle_epi8(bb, hi_b));
        _mm_storeu_si128((__m128i *)d, o0);
        _mm_storel_epi64((__m128i *)(d + 16), o1);
    }
    row_565(s + x, d, w - x);
}

/* 4 pixels of XRGB8888 (bytes B G R X each) become 12 bytes R G B. */
__attribute__((target("ssse3"))) static void row_8888_ssse3(const uint32_t *s, uint8_t *d, unsigned w)
{
    const __m128i shuf = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    unsigned x = 0;
    for (; x + 4 <= w; x += 4, d += 12) {
        __m128i o = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(s + x)), shuf);
        _mm_storel_epi64((__m128i *)d, o);
        uint32_t tail = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(o, 8));
        memcpy(d + 8, &tail, 4);
    }
    row_8888(s + x, d, w - x);
}

/* Two groups of 8 pixels per iteration, one per 128-bit lane (shuffles stay inside a lane). */
__attribute__((target("avx2"))) static void row_565_avx2(const uint16_t *s, uint8_t *d, unsigned w)
{
    const __m256i mr = _mm256_set1_epi16(0xF8), mg = _mm256_set1_epi16(0xFC);
    const __m256i lo_rg = _mm256_setr_epi8(0, 1, -1, 2, 3, -1, 4, 5, -1, 6, 7, -1, 8, 9, -1, 10, 0, 1, -1, 2, 3, -1,
                                           4, 5, -1, 6, 7, -1, 8, 9, -1, 10);
    const __m256i lo_b = _mm256_setr_epi8(-1, -1, 0, -1, -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1, -1, -1, 0, -1,
                                          -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1);
    const __m256i hi_rg = _mm256_setr_epi8(11, -1, 12, 13, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, 11, -1, 12,
                                           13, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i hi_b = _mm256_setr_epi8(-1, 5, -1, -1, 6, -1, -1, 7, -1, -1, -1, -1, -1, -1, -1, -1, -1, 5, -1, -1,
                                          6, -1, -1, 7, -1, -1, -1, -1, -1, -1, -1, -1);
    unsigned x = 0;
    for (; x + 16 <= w; x += 16, d += 48) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(s + x));
        __m256i r = _mm256_and_si256(_mm256_srli_epi16(p, 8), mr);
        __m256i g = _mm256_and_si256(_mm256_srli_epi16(p, 3), mg);
        __m256i b = _mm256_and_si256(_mm256_slli_epi16(p, 3), mr);
        __m256i rg = _mm256_or_si256(r, _mm256_slli_epi16(g, 8));
        __m256i bb = _mm256_packus_epi16(b, b);
        __m256i o0 = _mm256_or_si256(_mm256_shuffle_epi8(rg, lo_rg), _mm256_shuffle_epi8(bb, lo_b));
        __m256i o1 = _mm256_or_si256(_mm256_shuffle_epi8(rg, hi_rg), _mm256_shuffle_epi8(bb, hi_b));
        _mm_storeu_si128((__m128i *)d, _mm256_castsi256_si128(o0));
        _mm_storel_epi64((__m128i *)(d + 16), _mm256_castsi256_si128(o1));
        _mm_storeu_si128((__m128i *)(d + 24), _mm256_extracti128_si256(o0, 1));
        _mm_storel_epi64((__m128i *)(d + 40), _mm256_extracti128_si256(o1, 1));
    }
    row_565_ssse3(s + x, d, w - x);
}

/* 8 pixels of XRGB8888 per iteration: each 128-bit lane packs its 4 pixels into 12 bytes, a dword permute joins
 * them into 24, stored with a 32-byte write whose last 8 bytes the next iteration overwrites (so the loop stops
 * while 32 bytes of the row remain, 11 pixels; the SSSE3 row does the rest). */
__attribute__((target("avx2"))) static void row_8888_avx2(const uint32_t *s, uint8_t *d, unsigned w)
{
    const __m256i shuf = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2, 1, 0, 6, 5, 4,
                                          10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    const __m256i join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
    unsigned x = 0;
    for (; x + 11 <= w; x += 8, d += 24) {
        __m256i o = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(s + x)), shuf);
        _mm256_storeu_si256((__m256i *)d, _mm256_permutevar8x32_epi32(o, join));
    }
    row_8888_ssse3(s + x, d, w - x);
}

/* 0 = scalar, 1 = SSSE3, 2 = AVX2 */
static int simd_level(void)
{
    if (__builtin_cpu_supports("avx2"))
        return 2;
    return __builtin_cpu_supports("ssse3") ? 1 : 0;
}
#endif

static void convert(const rg_frame *f, uint8_t *dst, int simd)
{
    size_t bpp = f->format == RG_PIXEL_XRGB8888 ? 4 : 2;
    if (f->height > 1 && f->pitch == f->width * bpp && (size_t)f->width * f->height <= 0xFFFFFFFFu) {
        /* rows without padding: one row of all the pixels (fewer row starts and tails) */
        rg_frame one = *f;
        one.width = f->width * f->height;
        one.height = 1;
        one.pitch = one.width * bpp;
        convert(&one, dst, simd);
        return;
    }
    const uint8_t *src = f->data;
    size_t out_row = (size_t)f->width * 3;
    (void)simd;
    for (unsigned y = 0; y < f->height; y++, src += f->pitch, dst += out_row) {
        switch (f->format) {
        case RG_PIXEL_RGB565:
#ifdef RG_HAVE_X86
            if (simd == 2) {
                row_565_avx2((const uint16_t *)src, dst, f->width);
                break;
            }
            if (simd) {
                row_565_ssse3((const uint16_t *)src, dst, f->width);
                break;
            }
#endif
            row_565((const uint16_t *)src, dst, f->width);
            break;
        case RG_PIXEL_XRGB8888:
#ifdef RG_HAVE_X86
            if (simd == 2) {
                row_8888_avx2((const uint32_t *)src, dst, f->width);
                break;
            }
            if (simd) {
                row_8888_ssse3((const uint32_t *)src, dst, f->width);
                break;
            }
#endif
            row_8888((const uint32_t *)src, dst, f->width);
            break;
        case RG_PIXEL_0RGB1555:
            row_1555((const uint16_t *)src, dst, f->width);
            break;
        }
    }
}

void rg__convert_rgb24(const rg_frame *f, uint8_t *dst)
{
#ifdef RG_HAVE_X86
    convert(f, dst, simd_level());
#else
    convert(f, dst, 0);
#endif
}

void rg__convert_rgb24_scalar(const rg_frame *f, uint8_t *dst)
{
    convert(f, dst, 0);
}

int rg__convert_rgb24_levels(void)
{
#ifdef RG_HAVE_X86
    return simd_level() + 1;
#else
    return 1;
#endif
}

void rg__convert_rgb24_at(const rg_frame *f, uint8_t *dst, int level)
{
    convert(f, dst, level < rg__convert_rgb24_levels() ? level : 0);
}
