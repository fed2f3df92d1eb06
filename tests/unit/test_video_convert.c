/* RGB24 conversion: exact channel values (stable-retro's plain shifts) and SIMD == scalar everywhere. */
#include "test_support.h"

#include "emu/video_convert.h"

#include <stdlib.h>
#include <string.h>

static void convert_one(rg_pixel_format fmt, uint32_t pixel, uint8_t out[3])
{
    uint8_t src[4];
    memcpy(src, &pixel, 4);
    rg_frame f = {src, 1, 1, 4, fmt};
    rg__convert_rgb24(&f, out);
}

static void channel_values(void **state)
{
    (void)state;
    static const struct { rg_pixel_format fmt; uint32_t px; uint8_t rgb[3]; } cases[] = {
        {RG_PIXEL_RGB565, 0xFFFF, {248, 252, 248}}, {RG_PIXEL_RGB565, 0xF800, {248, 0, 0}},
        {RG_PIXEL_RGB565, 0x07E0, {0, 252, 0}},     {RG_PIXEL_RGB565, 0x001F, {0, 0, 248}},
        {RG_PIXEL_RGB565, 0x0821, {8, 4, 8}},       {RG_PIXEL_XRGB8888, 0xFF123456, {0x12, 0x34, 0x56}},
        {RG_PIXEL_0RGB1555, 0x7FFF, {248, 248, 248}}, {RG_PIXEL_0RGB1555, 0x7C00, {248, 0, 0}},
        {RG_PIXEL_0RGB1555, 0x03E0, {0, 248, 0}},   {RG_PIXEL_0RGB1555, 0x8001, {0, 0, 8}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t out[3];
        convert_one(cases[i].fmt, cases[i].px, out);
        assert_memory_equal(out, cases[i].rgb, 3);
    }
}

/* Every width from 1 to 70 (all SIMD tails), odd pitches in pixels, random content: every path this CPU runs. */
static void simd_matches_scalar(void **state)
{
    (void)state;
    srand(1234);
    const rg_pixel_format fmts[] = {RG_PIXEL_RGB565, RG_PIXEL_XRGB8888, RG_PIXEL_0RGB1555};
    for (size_t k = 0; k < 3; k++) {
        size_t bpp = fmts[k] == RG_PIXEL_XRGB8888 ? 4 : 2;
        for (unsigned w = 1; w <= 70; w++) {
            unsigned h = 3;
            size_t pitch = (w + 5) * bpp;
            uint8_t *src = malloc(pitch * h);
            uint8_t *a = malloc((size_t)w * h * 3), *b = malloc((size_t)w * h * 3);
            assert_true(src && a && b);
            for (size_t i = 0; i < pitch * h; i++)
                src[i] = (uint8_t)rand();
            rg_frame f = {src, w, h, pitch, fmts[k]};
            memset(b, 0x22, (size_t)w * h * 3);
            rg__convert_rgb24_scalar(&f, b);
            for (int level = 1; level < rg__convert_rgb24_levels(); level++) {
                memset(a, 0x11, (size_t)w * h * 3);
                rg__convert_rgb24_at(&f, a, level);
                assert_memory_equal(a, b, (size_t)w * h * 3);
            }
            memset(a, 0x11, (size_t)w * h * 3);
            rg__convert_rgb24(&f, a);
            assert_memory_equal(a, b, (size_t)w * h * 3);
            free(src), free(a), free(b);
        }
    }
}

/* Rows without padding (pitch = width: converted as one long row) for every width 1..70 and 1..4 rows: SIMD equals
 * scalar, and nothing is written past the end of the output (the wide stores stop short of it). */
static void unpadded_rows(void **state)
{
    (void)state;
    srand(99);
    const rg_pixel_format fmts[] = {RG_PIXEL_RGB565, RG_PIXEL_XRGB8888, RG_PIXEL_0RGB1555};
    for (size_t k = 0; k < 3; k++) {
        size_t bpp = fmts[k] == RG_PIXEL_XRGB8888 ? 4 : 2;
        for (unsigned w = 1; w <= 70; w++) {
            for (unsigned h = 1; h <= 4; h++) {
                size_t n = (size_t)w * h * 3;
                uint8_t *src = malloc((size_t)w * h * bpp), *a = malloc(n + 64), *b = malloc(n + 64);
                assert_true(src && a && b);
                for (size_t i = 0; i < (size_t)w * h * bpp; i++)
                    src[i] = (uint8_t)rand();
                rg_frame f = {src, w, h, w * bpp, fmts[k]};
                memset(b, 0x11, n + 64);
                rg__convert_rgb24_scalar(&f, b);
                for (int level = 1; level <= rg__convert_rgb24_levels(); level++) {
                    memset(a, 0x11, n + 64);
                    if (level == rg__convert_rgb24_levels())
                        rg__convert_rgb24(&f, a); /* what the library picks */
                    else
                        rg__convert_rgb24_at(&f, a, level);
                    assert_memory_equal(a, b, n + 64); /* the guard bytes after n too */
                    for (size_t i = n; i < n + 64; i++)
                        assert_int_equal(a[i], 0x11);
                }
                free(src), free(a), free(b);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(channel_values),
        cmocka_unit_test(simd_matches_scalar),
        cmocka_unit_test(unpadded_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
