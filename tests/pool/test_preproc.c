/* The preprocessing kernels (src/pool/pool_preproc*.c, src/env/env_maxpool.c): the AVX2 and the scalar versions give
 * the same bytes, on every colour, on random frames of many sizes and on real frames through pools; the resize is
 * the area average it claims to be; the max-pool by gray keeps the gray maximum. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include "env/env_maxpool.h"
#include "pool/pool_preproc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

/* A frame of a few palette colours in runs (as games draw) or of noise. */
static void random_frame(uint8_t *f, size_t pixels, int noise)
{
    static const uint8_t colours[6][3] = {{0, 0, 0},       {144, 72, 17},   {236, 236, 236},
                                          {92, 186, 92},   {213, 130, 74},  {252, 252, 84}};
    size_t i = 0;
    while (i < pixels) {
        size_t run = 1 + rnd() % 12;
        const uint8_t *c = colours[rnd() % 6];
        for (; run && i < pixels; run--, i++)
            for (unsigned k = 0; k < 3; k++)
                f[3 * i + k] = noise ? (uint8_t)rnd() : c[k];
    }
}

static void skip_without_avx2(void)
{
    if (!rg__pre_simd() || !rg__max_pool_simd())
        skip();
}

/* Every 24-bit colour: the AVX2 gray equals the scalar one, which equals (299 R + 587 G + 114 B) / 1000 rounded. */
static void luma_every_colour(void **state)
{
    (void)state;
    const size_t n = 1u << 16; /* one R value at a time: 65,536 pixels */
    uint8_t *rgb = malloc(3 * n + 32), *a = malloc(n), *b = malloc(n);
    for (unsigned r = 0; r < 256; r++) {
        for (size_t i = 0; i < n; i++)
            rgb[3 * i] = (uint8_t)r, rgb[3 * i + 1] = (uint8_t)(i >> 8), rgb[3 * i + 2] = (uint8_t)i;
        rg__luma_row_scalar(rgb, n, a);
        for (size_t i = 0; i < n; i++) {
            unsigned weighted = 299 * r + 587 * (unsigned)(i >> 8) + 114 * (unsigned)(i & 255);
            assert_int_equal(a[i], weighted / 1000 + (weighted % 1000 >= 500));
        }
        if (rg__pre_simd()) {
            rg__luma_row_avx2(rgb, n, b);
            assert_memory_equal(a, b, n);
        }
    }
    free(rgb), free(a), free(b);
}

/* Every 24-bit colour as an XRGB8888 pixel (the X byte set to junk): the env's gray straight from the core's frame
 * (env_gray.c), scalar and AVX2, equals the gray of its RGB24 pixel; rows whose length is not a multiple of 32 too. */
static void gray_xrgb_every_colour(void **state)
{
    (void)state;
    const size_t n = 1u << 16;
    uint32_t *px = malloc(4 * n);
    uint8_t *a = malloc(n), *b = malloc(n);
    for (unsigned r = 0; r < 256; r++) {
        for (size_t i = 0; i < n; i++)
            px[i] = (uint32_t)(rnd() & 0xff) << 24 | (uint32_t)r << 16 | (uint32_t)i;
        rg__gray_xrgb(px, n, a, 0);
        for (size_t i = 0; i < n; i++) {
            unsigned weighted = 299 * r + 587 * (unsigned)(i >> 8) + 114 * (unsigned)(i & 255);
            if (a[i] != weighted / 1000 + (weighted % 1000 >= 500))
                fail_msg("scalar gray of %06x: %u", (unsigned)(px[i] & 0xffffff), a[i]);
        }
        if (rg__max_pool_simd()) {
            rg__gray_xrgb(px, n, b, 1);
            assert_memory_equal(a, b, n);
            memset(b, 0, 100);
            rg__gray_xrgb(px + 7, 77, b, 1); /* 2 blocks of 32 and a scalar tail of 13 */
            assert_memory_equal(a + 7, b, 77);
            assert_int_equal(b[77], 0);
        }
    }
    free(px), free(a), free(b);
}

/* Random frames of many sizes through each kind of resize, gray and RGB: AVX2 = scalar byte for byte, and each
 * output value within 1 of the exact area average of its source (so the plan covers the right pixels). */
static void frames_scalar_equals_simd(void **state)
{
    (void)state;
    skip_without_avx2();
    static const unsigned sizes[][4] = {
        {210, 160, 84, 84}, {210, 160, 84, 84}, {250, 160, 84, 84}, {224, 240, 84, 84}, {210, 160, 105, 80},
        {210, 160, 70, 40}, {210, 160, 210, 160}, {100, 77, 33, 20}, {7, 9, 3, 5},  {210, 160, 64, 64},
        {210, 160, 300, 100}, {31, 29, 31, 13}};
    unsigned shuffled = 0, gathered = 0; /* the two AVX2 ways of reading the taps */
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int gray = 0; gray <= 1; gray++)
            for (int noise = 0; noise <= 1; noise++) {
                unsigned H = sizes[s][0], W = sizes[s][1], h = sizes[s][2], w = sizes[s][3], c = gray ? 1 : 3;
                rg__area_plan pl;
                assert_int_equal(rg__area_plan_init(&pl, H, W, h, w, gray), RG_OK);
                shuffled += pl.kind == RG__AREA_TAPS && pl.gbase;
                gathered += pl.kind == RG__AREA_TAPS && !pl.gbase;
                uint8_t *src = malloc((size_t)H * W * 3), *plane = malloc((size_t)H * W * c);
                uint8_t *a = malloc((size_t)h * w * c), *b = malloc((size_t)h * w * c);
                void *scratch = aligned_alloc(64, (pl.scratch + 63) & ~(size_t)63);
                random_frame(src, (size_t)H * W, noise);
                rg__area_frame(&pl, src, a, scratch, 0);
                rg__area_frame(&pl, src, b, scratch, 1);
                if (memcmp(a, b, (size_t)h * w * c))
                    fail_msg("%ux%u -> %ux%u gray %d: AVX2 and scalar differ", H, W, h, w, gray);
                for (size_t i = 0; i < (size_t)H * W; i++)
                    for (unsigned k = 0; k < c; k++)
                        plane[i * c + k] = gray ? rg__luma(src + 3 * i) : src[3 * i + k];
                if (pl.kind != RG__AREA_BLOCK) /* shrinking: the area average over [x sx, (x + 1) sx) */
                    for (unsigned y = 0; y < h; y++)
                        for (unsigned x = 0; x < w; x++)
                            for (unsigned k = 0; k < c; k++) {
                                double sx = (double)W / w, sy = (double)H / h, sum = 0;
                                for (unsigned yy = (unsigned)(y * sy); yy < H && yy < (y + 1) * sy + 1; yy++)
                                    for (unsigned xx = (unsigned)(x * sx); xx < W && xx < (x + 1) * sx + 1; xx++) {
                                        double ox = fmin(xx + 1, (x + 1) * sx) - fmax(xx, x * sx);
                                        double oy = fmin(yy + 1, (y + 1) * sy) - fmax(yy, y * sy);
                                        if (ox > 0 && oy > 0)
                                            sum += ox * oy * plane[((size_t)yy * W + xx) * c + k];
                                    }
                                double avg = sum / (sx * sy);
                                int got = a[((size_t)y * w + x) * c + k];
                                if (fabs(got - avg) > 1.0)
                                    fail_msg("%ux%u -> %ux%u at %u,%u: %d, area average %.3f", H, W, h, w, x, y,
                                             got, avg);
                            }
                free(scratch), free(src), free(plane), free(a), free(b);
                rg__area_plan_free(&pl);
            }
    assert_true(shuffled > 0 && gathered > 0);
}

/* The max-pool kernels on random frames of every length up to 100 pixels and a full screen: AVX2 = scalar; per
 * channel is the channel maximum; by gray keeps a whole pixel of one frame, of the higher gray. */
static void max_pool_kernels(void **state)
{
    (void)state;
    skip_without_avx2();
    const size_t big = 210 * 160;
    uint8_t *x = malloc(3 * big), *y = malloc(3 * big), *a = malloc(3 * big), *b = malloc(3 * big);
    for (size_t pixels = 1; pixels <= big; pixels = pixels < 100 ? pixels + 1 : big) {
        for (int noise = 0; noise <= 2; noise++) {
            size_t n = 3 * pixels;
            random_frame(x, pixels, noise == 1);
            random_frame(y, pixels, noise == 1);
            if (noise == 2) /* consecutive frames: mostly equal (the AVX2 kernel skips equal stretches) */
                for (size_t i = 0; i < n; i++)
                    y[i] = rnd() % 16 ? x[i] : (uint8_t)rnd();
            memcpy(a, x, n), memcpy(b, x, n);
            rg__max_rgb(a, y, n, 0);
            rg__max_rgb(b, y, n, 1);
            assert_memory_equal(a, b, n);
            for (size_t i = 0; i < n; i++)
                assert_int_equal(a[i], x[i] > y[i] ? x[i] : y[i]);
            memcpy(a, x, n), memcpy(b, x, n);
            rg__max_luma(a, y, n, 0);
            rg__max_luma(b, y, n, 1);
            assert_memory_equal(a, b, n);
            for (size_t i = 0; i < pixels; i++) {
                uint8_t gx = rg__luma(x + 3 * i), gy = rg__luma(y + 3 * i);
                assert_int_equal(rg__luma(a + 3 * i), gx > gy ? gx : gy);
                assert_true(!memcmp(a + 3 * i, x + 3 * i, 3) || !memcmp(a + 3 * i, y + 3 * i, 3));
            }
        }
        if (pixels == big)
            break;
    }
    free(x), free(y), free(a), free(b);
}

static rg_integration_paths *paths;

static rg_pool *star_pool(int gray, unsigned size, int scalar)
{
    rg_env_options eo = RG_ENV_OPTIONS_INIT;
    eo.game = "StarCatcher-Nes";
    eo.paths = paths;
    eo.log = test_quiet_log;
    eo.actions = RG_ACTIONS_DISCRETE;
    eo.frameskip = 4;
    eo.max_pool = 1;
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.envs = &eo;
    po.n_env_options = 1;
    po.num_envs = 3;
    po.num_threads = 2;
    po.seed = 11;
    po.grayscale = gray;
    po.resize_width = po.resize_height = size;
    po.frame_stack = 4;
    if (scalar)
        setenv("RG_PREPROC_SCALAR", "1", 1); /* read at pool creation */
    rg_pool *p;
    int rc = rg_pool_create(&p, &po);
    unsetenv("RG_PREPROC_SCALAR");
    if (rc != RG_OK)
        fail_msg("pool: %s", rg_error_last());
    return p;
}

/* Real frames (our NES game, frame skip 4 with max-pool): pools on the AVX2 and on the scalar kernels give the same
 * stacked observations, gray and RGB, and the frames change (the test sees motion). */
static void real_frames(void **state)
{
    (void)state;
    skip_without_avx2();
    if (!test_core_installed("nestopia"))
        skip();
    assert_int_equal(test_data_setup(&paths, NULL), RG_OK);
    for (int gray = 0; gray <= 1; gray++) {
        rg_pool *fast = star_pool(gray, 84, 0), *slow = star_pool(gray, 84, 1);
        size_t size = rg_pool_obs_size(fast), frame = size / 4, changed = 0;
        assert_int_equal(size, (size_t)4 * 84 * 84 * (gray ? 1 : 3));
        rg_pool_batch a, b;
        assert_int_equal(rg_pool_reset(fast, NULL, 0, &a), RG_OK);
        assert_int_equal(rg_pool_reset(slow, NULL, 0, &b), RG_OK);
        uint8_t *prev = calloc(1, frame);
        for (unsigned step = 0; step < 150; step++) {
            int64_t acts[3] = {step / 7 % 36, step / 3 % 36, 5};
            assert_int_equal(rg_pool_step(fast, acts, &a), RG_OK);
            assert_int_equal(rg_pool_step(slow, acts, &b), RG_OK);
            if (memcmp(a.obs, b.obs, 3 * size))
                fail_msg("gray %d step %u: the AVX2 and scalar pools differ", gray, step);
            changed += memcmp(prev, a.obs + 3 * frame, frame) != 0;
            memcpy(prev, a.obs + 3 * frame, frame);
        }
        assert_true(changed > 50);
        free(prev);
        rg_pool_free(fast);
        rg_pool_free(slow);
    }
    test_data_teardown(paths, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(luma_every_colour),
        cmocka_unit_test(gray_xrgb_every_colour),
        cmocka_unit_test(frames_scalar_equals_simd),
        cmocka_unit_test(max_pool_kernels),
        cmocka_unit_test(real_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
