/* Luma sums of RGB24 pixels, 299 R + 587 G + 114 B, whose (sum + 500) / 1000 is ALE's grayscale of the NTSC palette:
 * shared by the environment's max-pool by gray (src/env/env_maxpool.c, which compares sums) and the pool's
 * grayscale (src/pool/pool_preproc*.c, which divides them); the gray of XRGB8888 pixels (gray.c) for the envs' gray
 * observations (src/env/env_gray.c) and the emulator's gray screen (src/emu/screen.c). The AVX2 forms are compiled for AVX2 where they are
 * used (function by function), so callers must be AVX2 functions picked at run time. */
#ifndef RG_SRC_BASE_LUMA_H
#define RG_SRC_BASE_LUMA_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t rg__luma_sum(const uint8_t *px)
{
    return 299u * px[0] + 587u * px[1] + 114u * px[2];
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* 8 pixels (24 bytes) at p as two lanes of 4 pixels each (bytes 0-11 of each lane; reads 28 bytes). */
__attribute__((target("avx2"))) static inline __m256i rg__rgb8_load_avx2(const uint8_t *p)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p)),
                                   _mm_loadu_si128((const __m128i *)(p + 12)), 1);
}

/* The luma sums of the 8 pixels of rg__rgb8_load_avx2, as 32-bit lanes. */
__attribute__((target("avx2"))) static inline __m256i rg__luma_sums8_avx2(__m256i v)
{
    const __m256i rg = _mm256_setr_epi8(0, -1, 1, -1, 3, -1, 4, -1, 6, -1, 7, -1, 9, -1, 10, -1, /* */
                                        0, -1, 1, -1, 3, -1, 4, -1, 6, -1, 7, -1, 9, -1, 10, -1);
    const __m256i b = _mm256_setr_epi8(2, -1, -1, -1, 5, -1, -1, -1, 8, -1, -1, -1, 11, -1, -1, -1, /* */
                                       2, -1, -1, -1, 5, -1, -1, -1, 8, -1, -1, -1, 11, -1, -1, -1);
    return _mm256_add_epi32(_mm256_madd_epi16(_mm256_shuffle_epi8(v, rg), _mm256_set1_epi32(299 | 587 << 16)),
                            _mm256_madd_epi16(_mm256_shuffle_epi8(v, b), _mm256_set1_epi32(114)));
}
#endif

/* n XRGB8888 pixels to their grays, (luma sum + 500) / 1000, scalar (simd 0) or AVX2 (1, only where rg__gray_simd()
 * says the CPU has it): the same bytes (gray.c). */
void rg__gray_xrgb(const uint32_t *px, size_t n, uint8_t *out, int simd);
int rg__gray_simd(void);

#endif
