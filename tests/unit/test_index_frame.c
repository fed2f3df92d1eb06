/* Palette-index frames (src/emu/index_frame.c): the AVX-512 lookups give the scalar ones' bytes for XRGB8888, RGB24
 * and gray, at every length (all tails), with indices of both palette halves; the gray table is ALE's formula. */
#include "test_support.h"

#include "emu/index_frame.h"

#include <stdlib.h>
#include <string.h>

static uint32_t palette[256];
static uint8_t gray[256];

static void fill_random(uint8_t *p, size_t n, int high)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(rand() & (high ? 0xFF : 0x7F));
}

static void gray_table_is_ales(void **state)
{
    (void)state;
    const uint32_t pal[256] = {0x000000, 0xFFFFFF, 0xFF0000, 0x00FF00, 0x0000FF, 0x123456};
    uint8_t g[256];
    rg__index_gray_table(pal, g);
    const uint8_t want[6] = {0, 255, 76, 150, 29, (299 * 0x12 + 587 * 0x34 + 114 * 0x56 + 500) / 1000};
    assert_memory_equal(g, want, 6);
}

/* Every length 0..300 (the 64-pixel blocks and their tails), both with indices below 128 only (the first half of the
 * palette: the path without the blend) and with any byte. Output guards: nothing written past n pixels. */
static void simd_equals_scalar(void **state)
{
    (void)state;
    if (!rg__index_simd())
        print_message("no AVX-512 VBMI on this CPU: the scalar forms are compared with themselves\n");
    enum { MAX = 300, GUARD = 64 };
    static uint8_t idx[MAX], ga[MAX + GUARD], gb[MAX + GUARD], ra[3 * MAX + GUARD], rb[3 * MAX + GUARD];
    static uint32_t xa[MAX + GUARD], xb[MAX + GUARD];
    for (int high = 0; high < 2; high++)
        for (size_t n = 0; n <= MAX; n++) {
            fill_random(idx, n, high);
            memset(xa, 0x5A, sizeof xa), memset(xb, 0x5A, sizeof xb);
            memset(ra, 0x5A, sizeof ra), memset(rb, 0x5A, sizeof rb);
            memset(ga, 0x5A, sizeof ga), memset(gb, 0x5A, sizeof gb);
            rg__index_xrgb(idx, n, palette, xa, rg__index_simd());
            rg__index_xrgb(idx, n, palette, xb, 0);
            rg__index_rgb24(idx, n, palette, ra, rg__index_simd());
            rg__index_rgb24(idx, n, palette, rb, 0);
            rg__index_gray(idx, n, gray, ga, rg__index_simd());
            rg__index_gray(idx, n, gray, gb, 0);
            assert_memory_equal(xa, xb, sizeof xa);
            assert_memory_equal(ra, rb, sizeof ra);
            assert_memory_equal(ga, gb, sizeof ga);
            for (size_t i = 0; i < n; i++) { /* and the scalar forms are the palette's */
                assert_int_equal(xb[i], palette[idx[i]]);
                assert_int_equal(rb[3 * i], (uint8_t)(palette[idx[i]] >> 16));
                assert_int_equal(rb[3 * i + 1], (uint8_t)(palette[idx[i]] >> 8));
                assert_int_equal(rb[3 * i + 2], (uint8_t)palette[idx[i]]);
                assert_int_equal(gb[i], gray[idx[i]]);
            }
            assert_int_equal(xb[n], 0x5A5A5A5Au);
            assert_int_equal(rb[3 * n], 0x5A);
            assert_int_equal(gb[n], 0x5A);
        }
}

int main(void)
{
    srand(77);
    for (int i = 0; i < 256; i++)
        palette[i] = (uint32_t)rand() << 8 ^ (uint32_t)rand();
    rg__index_gray_table(palette, gray);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gray_table_is_ales),
        cmocka_unit_test(simd_equals_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
