/* Max-pooling of the last two frames of a step (env_maxpool.h): per channel or by gray, scalar or AVX2 (chosen at
 * run time; the AVX2 code is compiled for AVX2 function by function, so the library runs on any x86-64). */
#include "env_maxpool.h"

#include "env_internal.h"

#include "base/luma.h" /* the order of the luma sums is the order of the grays */

static void max_rgb_scalar(uint8_t *dst, const uint8_t *other, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = dst[i] > other[i] ? dst[i] : other[i];
}

static void max_luma_scalar(uint8_t *dst, const uint8_t *other, size_t n)
{
    for (size_t i = 0; i + 3 <= n; i += 3)
        if ((dst[i] != other[i] || dst[i + 1] != other[i + 1] || dst[i + 2] != other[i + 2]) &&
            rg__luma_sum(other + i) > rg__luma_sum(dst + i))
            dst[i] = other[i], dst[i + 1] = other[i + 1], dst[i + 2] = other[i + 2];
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

AVX2 static void max_rgb_avx2(uint8_t *dst, const uint8_t *other, size_t n)
{
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        _mm256_storeu_si256((__m256i *)(dst + i), _mm256_max_epu8(_mm256_loadu_si256((const __m256i *)(dst + i)),
                                                                 _mm256_loadu_si256((const __m256i *)(other + i))));
    max_rgb_scalar(dst + i, other + i, n - i);
}

AVX2 static void max_luma_avx2(uint8_t *dst, const uint8_t *other, size_t n)
{
    /* each pixel's 32-bit compare mask spread over its 3 bytes */
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 4, 4, 4, 8, 8, 8, 12, 12, 12, -1, -1, -1, -1, /* */
                                            0, 0, 0, 4, 4, 4, 8, 8, 8, 12, 12, 12, -1, -1, -1, -1);
    const __m256i pack = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
    size_t i = 0;
    for (; i + 28 <= n; i += 24) {
        __m256i a = rg__rgb8_load_avx2(dst + i), b = rg__rgb8_load_avx2(other + i);
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b)) == -1) /* the two frames agree here (most pixels) */
            continue;
        __m256i take = _mm256_shuffle_epi8(_mm256_cmpgt_epi32(rg__luma_sums8_avx2(b), rg__luma_sums8_avx2(a)), spread);
        /* the 24 bytes made contiguous, stored as 16 + 8 (stores that overlap the next loads would stall them) */
        __m256i r = _mm256_permutevar8x32_epi32(_mm256_blendv_epi8(a, b, take), pack);
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_castsi256_si128(r));
        _mm_storel_epi64((__m128i *)(dst + i + 16), _mm256_extracti128_si256(r, 1));
    }
    max_luma_scalar(dst + i, other + i, n - i);
}

int rg__max_pool_simd(void)
{
    return __builtin_cpu_supports("avx2");
}

#else

static void max_rgb_avx2(uint8_t *dst, const uint8_t *other, size_t n)
{
    max_rgb_scalar(dst, other, n);
}

static void max_luma_avx2(uint8_t *dst, const uint8_t *other, size_t n)
{
    max_luma_scalar(dst, other, n);
}

int rg__max_pool_simd(void)
{
    return 0;
}

#endif

void rg__max_rgb(uint8_t *dst, const uint8_t *other, size_t n, int simd)
{
    if (simd)
        max_rgb_avx2(dst, other, n);
    else
        max_rgb_scalar(dst, other, n);
}

void rg__max_luma(uint8_t *dst, const uint8_t *other, size_t n, int simd)
{
    if (simd)
        max_luma_avx2(dst, other, n);
    else
        max_luma_scalar(dst, other, n);
}

void rg__env_max_pool(const rg_env *env, uint8_t *obs, const uint8_t *other, size_t n)
{
    if (env->obs_gray && env->obs == RG_OBS_IMAGE) /* two gray planes (env_gray.c) */
        rg__max_rgb(obs, other, (size_t)env->obs_h * env->obs_w, rg__max_pool_simd());
    else if (env->max_pool == RG__MAX_POOL_LUMA)
        rg__max_luma(obs, other, n, rg__max_pool_simd());
    else
        rg__max_rgb(obs, other, n, rg__max_pool_simd());
}

void rg__env_max_pool_luma(rg_env *env, int on)
{
    if (env && env->max_pool)
        env->max_pool = on ? RG__MAX_POOL_LUMA : RG__MAX_POOL_RGB;
}
