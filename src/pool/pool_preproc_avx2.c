/* AVX2 versions of the preprocessing kernels (pool_preproc.h), compiled for AVX2 function by function so that the
 * library still runs on any x86-64 (rg__pre_simd picks them at run time) and builds elsewhere (scalar stand-ins).
 * They do the scalar kernels' arithmetic in the same order, 8 values at a time: the same bytes. No FMA. */
#include "pool_preproc.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

AVX2 void rg__luma_row_avx2(const uint8_t *rgb, size_t n, uint8_t *out)
{
    size_t i = 0;
    /* (s + 500) / 1000 as floor((s + 500.5) * 0.001f): s + 500.5 is exact in float and the product is within
     * 2e-5 of the quotient, whose fraction is never closer than 5e-4 to the next integer (checked for every
     * colour by tests/pool/test_preproc.c). */
    const __m256 half = _mm256_set1_ps(500.5f), milli = _mm256_set1_ps(0.001f);
    const __m256i pick = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, /* */
                                          0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i lanes = _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1);
    uint8_t tail[32];
    while (i + 8 <= n) {
        const uint8_t *p = rgb + 3 * i;
        if ((i + 8) * 3 + 4 > n * 3) /* the last 8 pixels: from a copy, no read past the end */
            p = memcpy(tail, p, 24);
        __m256 f = _mm256_mul_ps(_mm256_add_ps(_mm256_cvtepi32_ps(rg__luma_sums8_avx2(rg__rgb8_load_avx2(p))), half), milli);
        __m256i g = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(_mm256_cvttps_epi32(f), pick), lanes);
        _mm_storel_epi64((__m128i *)(out + i), _mm256_castsi256_si128(g));
        i += 8;
    }
    for (; i < n; i++)
        out[i] = rg__luma(rgb + 3 * i);
}

AVX2 void rg__taps_row_avx2(const rg__area_plan *pl, const uint8_t *row, float *buf)
{
    const size_t len = pl->row_len;
    if (pl->gbase) { /* two groups of 4 per register: 16 source bytes each, picked by shuffles */
        for (size_t i = 0; i < len; i += 8) {
            __m256i win = _mm256_inserti128_si256(
                _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(row + pl->gbase[i / 4]))),
                _mm_loadu_si128((const __m128i *)(row + pl->gbase[i / 4 + 1])), 1);
            __m256 acc = _mm256_setzero_ps();
            for (unsigned s = 0; s < pl->slots; s++) {
                __m256i pick = _mm256_loadu_si256((const __m256i *)(pl->gmask + (s * len + i) * 4));
                __m256 v = _mm256_cvtepi32_ps(_mm256_shuffle_epi8(win, pick));
                acc = _mm256_add_ps(acc, _mm256_mul_ps(v, _mm256_loadu_ps(pl->xa + s * len + i)));
            }
            _mm256_storeu_ps(buf + i, acc);
        }
        return;
    }
    const __m256i low = _mm256_set1_epi32(0xff);
    for (size_t i = 0; i < len; i += 8) {
        __m256 acc = _mm256_setzero_ps();
        for (unsigned s = 0; s < pl->slots; s++) {
            __m256i at = _mm256_loadu_si256((const __m256i *)(pl->xi + s * len + i));
            __m256i v = _mm256_and_si256(_mm256_i32gather_epi32((const int *)(const void *)row, at, 1), low);
            acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_cvtepi32_ps(v), _mm256_loadu_ps(pl->xa + s * len + i)));
        }
        _mm256_storeu_ps(buf + i, acc);
    }
}

AVX2 void rg__vsum_avx2(float *sum, const float *buf, float beta, size_t n, int first)
{
    const __m256 b = _mm256_set1_ps(beta);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 prod = _mm256_mul_ps(b, _mm256_loadu_ps(buf + i));
        _mm256_storeu_ps(sum + i, first ? prod : _mm256_add_ps(_mm256_loadu_ps(sum + i), prod));
    }
    rg__vsum_scalar(sum + i, buf + i, beta, n - i, first);
}

AVX2 void rg__store_row_avx2(const float *sum, size_t n, uint8_t *out)
{
    size_t i = 0;
    const __m256i lanes = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (; i + 8 <= n; i += 8) {
        __m256i r = _mm256_cvtps_epi32(_mm256_loadu_ps(sum + i)); /* round half to even */
        __m256i w = _mm256_packs_epi32(r, r);                     /* lanes: 0-3 0-3 | 4-7 4-7 */
        __m256i b = _mm256_packus_epi16(w, w);                    /* clamped to 0..255 */
        b = _mm256_permutevar8x32_epi32(b, lanes);
        _mm_storel_epi64((__m128i *)(out + i), _mm256_castsi256_si128(b));
    }
    rg__store_row_scalar(sum + i, n - i, out + i);
}

static int detect(void)
{
    const char *off = getenv("RG_PREPROC_SCALAR");
    if (off && *off && *off != '0')
        return 0;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

#else /* no AVX2 here: the scalar kernels stand in (never chosen: rg__pre_simd is 0) */

void rg__luma_row_avx2(const uint8_t *rgb, size_t n, uint8_t *out)
{
    rg__luma_row_scalar(rgb, n, out);
}

void rg__taps_row_avx2(const rg__area_plan *pl, const uint8_t *row, float *buf)
{
    rg__taps_row_scalar(pl, row, buf);
}

void rg__vsum_avx2(float *sum, const float *buf, float beta, size_t n, int first)
{
    rg__vsum_scalar(sum, buf, beta, n, first);
}

void rg__store_row_avx2(const float *sum, size_t n, uint8_t *out)
{
    rg__store_row_scalar(sum, n, out);
}

static int detect(void)
{
    return 0;
}

#endif

int rg__pre_simd(void)
{
    return detect(); /* no cached global: asked at pool creation only */
}
