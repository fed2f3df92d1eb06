/* ALE's grayscale of XRGB8888 pixels (luma.h): (299 R + 587 G + 114 B + 500) / 1000, scalar or AVX2 (chosen by the
 * caller at run time; the AVX2 code is compiled for AVX2 function by function, so the library runs on any x86-64).
 * Used for the envs' gray observations (src/env/env_gray.c) and the emulator's gray screen (src/emu/screen.c). */
#include "luma.h"

static inline uint8_t luma_xrgb(uint32_t p)
{
    const uint8_t px[3] = {(uint8_t)(p >> 16), (uint8_t)(p >> 8), (uint8_t)p};
    return (uint8_t)((rg__luma_sum(px) + 500u) / 1000u);
}

static void gray_xrgb_scalar(const uint32_t *px, size_t n, uint8_t *out)
{
    uint32_t last = px[0] ^ 1u; /* games draw runs of one colour: its gray is computed once per run */
    uint8_t gray = 0;
    for (size_t i = 0; i < n; i++) {
        if (px[i] != last)
            last = px[i], gray = luma_xrgb(last);
        out[i] = gray;
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#define AVX2 __attribute__((target("avx2")))

/* The grays of 8 XRGB8888 pixels as 32-bit lanes: (s + 500) / 1000 as floor((s + 500.5) * 0.001f), the pool's
 * arithmetic (src/pool/pool_preproc_avx2.c; exact for every colour, tests/pool/test_preproc.c). */
AVX2 static inline __m256i gray8_xrgb(const uint32_t *px)
{
    const __m256i v = _mm256_loadu_si256((const __m256i *)px), low = _mm256_set1_epi32(0x00ff00ff);
    __m256i br = _mm256_madd_epi16(_mm256_and_si256(v, low), _mm256_set1_epi32(114 | 299 << 16));
    __m256i g = _mm256_madd_epi16(_mm256_and_si256(_mm256_srli_epi32(v, 8), _mm256_set1_epi32(0xff)),
                                  _mm256_set1_epi32(587));
    __m256 f = _mm256_mul_ps(_mm256_add_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(br, g)), _mm256_set1_ps(500.5f)),
                             _mm256_set1_ps(0.001f));
    return _mm256_cvttps_epi32(f);
}

AVX2 static void gray_xrgb_avx2(const uint32_t *px, size_t n, uint8_t *out)
{
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    /* Blocks of 32 pixels; a block equal to the one before (the background of most rows: games draw wide runs of
     * one colour) takes its grays as they are. The X byte takes part in the comparison: never a wrong gray. */
    __m256i p0 = _mm256_set1_epi32(-1), p1 = p0, p2 = p0, p3 = p0, g = _mm256_setzero_si256();
    int have = 0;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i v0 = _mm256_loadu_si256((const __m256i *)(px + i)), v1 = _mm256_loadu_si256((const __m256i *)(px + i + 8));
        __m256i v2 = _mm256_loadu_si256((const __m256i *)(px + i + 16)),
                v3 = _mm256_loadu_si256((const __m256i *)(px + i + 24));
        __m256i same = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi32(v0, p0), _mm256_cmpeq_epi32(v1, p1)),
                                        _mm256_and_si256(_mm256_cmpeq_epi32(v2, p2), _mm256_cmpeq_epi32(v3, p3)));
        if (!have || _mm256_movemask_epi8(same) != -1) {
            __m256i ab = _mm256_packus_epi32(gray8_xrgb(px + i), gray8_xrgb(px + i + 8));
            __m256i cd = _mm256_packus_epi32(gray8_xrgb(px + i + 16), gray8_xrgb(px + i + 24));
            g = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(ab, cd), order);
            p0 = v0, p1 = v1, p2 = v2, p3 = v3, have = 1;
        }
        _mm256_storeu_si256((__m256i *)(out + i), g);
    }
    if (i < n)
        gray_xrgb_scalar(px + i, n - i, out + i);
}

int rg__gray_simd(void)
{
    return __builtin_cpu_supports("avx2");
}

#else

static void gray_xrgb_avx2(const uint32_t *px, size_t n, uint8_t *out)
{
    gray_xrgb_scalar(px, n, out);
}

int rg__gray_simd(void)
{
    return 0;
}

#endif

void rg__gray_xrgb(const uint32_t *px, size_t n, uint8_t *out, int simd)
{
    if (!n)
        return;
    if (simd)
        gray_xrgb_avx2(px, n, out);
    else
        gray_xrgb_scalar(px, n, out);
}
