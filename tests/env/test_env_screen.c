/* The observed screen (src/emu/screen.c, docs/compat.md "Observation size"): its size is fixed at load as stable-retro
 * fixes it, and every frame is read at that size with the frame's pitch. On our Genesis ROM that switches between 320
 * and 256 pixels (tests/roms/md/modes) with stable-retro's Genesis Plus GX: the observation stays 224x320 (the core's
 * first frame is 256x192), a 256-pixel frame shows the last 320-pixel frame's columns 256-319, a crop cuts the same
 * picture, and the RAM byte the ROM keeps says which width each frame was drawn in; the gray screen
 * (rg_emu_screen_gray) is ALE's formula of the RGB24 one, pixel for pixel. Skipped without stable-retro. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 320
#define H 224
#define RAM_MODE 0xFF000C

static char gpgx[2048], rom[2048];

static rg_env *make(const char *scenario)
{
    if (!test_wheel_core("genesis_plus_gx", gpgx, sizeof gpgx))
        skip();
    test_source_path("tests/roms/bin/md/modes.md", rom, sizeof rom);
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "RetrogymModes-Genesis";
    o.rom = rom;
    o.state = RG_STATE_NONE;
    o.scenario = scenario;
    o.core = gpgx;
    o.actions = RG_ACTIONS_ALL; /* Start included */
    o.log = test_quiet_log;
    rg_env *env;
    if (rg_env_create(&env, &o) != RG_OK)
        fail_msg("%s", rg_error_last());
    return env;
}

/* The width the frame just run was drawn in, from the core itself. */
static unsigned frame_width(rg_env *env)
{
    rg_frame f;
    assert_int_equal(rg_emu_frame(rg_env_emu(env), &f), RG_OK);
    return f.width;
}

static int uniform(const uint8_t *obs, unsigned x0, unsigned x1, const uint8_t px[3])
{
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = x0; x < x1; x++)
            if (memcmp(obs + ((size_t)y * W + x) * 3, px, 3) != 0)
                return 0;
    return 1;
}

static void width_switches_keep_the_shape(void **state)
{
    (void)state;
    rg_env *env = make(NULL);
    unsigned h, w, c;
    rg_env_obs_shape(env, &h, &w, &c);
    assert_int_equal(h, H);
    assert_int_equal(w, W);
    assert_int_equal(rg_env_obs_size(env), (size_t)W * H * 3);
    uint8_t *obs = malloc((size_t)W * H * 3), last_wide[3] = {0}, *gray = malloc((size_t)W * H);
    assert_non_null(obs);
    assert_non_null(gray);
    assert_int_equal(rg_env_reset(env, 1, 1, obs, (size_t)W * H * 3), RG_OK);
    int64_t action[12] = {0};
    unsigned narrow = 0, wide = 0;
    rg_step_result r;
    uint8_t before = 2;
    for (unsigned s = 0; s < 200; s++) {
        uint8_t mode;
        assert_int_equal(rg_env_step(env, action, 12, obs, (size_t)W * H * 3, &r), RG_OK);
        assert_int_equal(rg_emu_mem_read(rg_env_emu(env), RAM_MODE, &mode, 1), RG_OK);
        assert_int_equal(rg_emu_screen_gray(rg_env_emu(env), gray, (size_t)W * H), RG_OK);
        for (size_t i = 0; i < (size_t)W * H; i++) {
            const uint8_t *px = obs + 3 * i;
            unsigned want = (299u * px[0] + 587u * px[1] + 114u * px[2] + 500u) / 1000u;
            if (gray[i] != want)
                fail_msg("step %u, pixel %zu: gray %u, RGB24 (%u, %u, %u) gives %u", s, i, gray[i], px[0], px[1], px[2],
                         want);
        }
        unsigned fw = frame_width(env);
        if (mode == before) /* the ROM asked for the same width two VBlanks running: the frame has it */
            assert_int_equal(fw, mode ? 256 : 320);
        before = mode;
        if (fw == 320) {
            assert_true(uniform(obs, 0, W, obs)); /* one colour over the whole screen */
            memcpy(last_wide, obs, 3);
            wide++;
        } else {
            assert_true(uniform(obs, 0, 256, obs));
            /* columns 256-319: the last 320-pixel frame's, left in the core's buffer */
            if (wide)
                assert_true(uniform(obs, 256, W, last_wide));
            if (wide && memcmp(obs, last_wide, 3) == 0)
                fail_msg("step %u: the colour did not change, so the stale columns prove nothing", s);
            narrow++;
        }
    }
    assert_true(narrow >= 60 && wide >= 60);
    /* observe and the emulator's screen give the same picture */
    uint8_t *again = malloc((size_t)W * H * 3);
    assert_non_null(again);
    assert_int_equal(rg_env_observe(env, again, (size_t)W * H * 3), RG_OK);
    assert_memory_equal(obs, again, (size_t)W * H * 3);
    assert_int_equal(rg_emu_screen_rgb24(rg_env_emu(env), again, (size_t)W * H * 3), RG_OK);
    assert_memory_equal(obs, again, (size_t)W * H * 3);
    assert_int_equal(rg_emu_screen_rgb24(rg_env_emu(env), again, (size_t)W * H * 3 - 1), RG_EBUFFER);
    assert_int_equal(rg_emu_screen_gray(rg_env_emu(env), gray, (size_t)W * H - 1), RG_EBUFFER);
    free(gray);
    free(again);
    free(obs);
    rg_env_free(env);
}

static void crop_cuts_the_same_picture(void **state)
{
    (void)state;
    char scen[1024];
    snprintf(scen, sizeof scen, "%s/crop.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    FILE *f = fopen(scen, "w");
    assert_non_null(f);
    fputs("{\"crop\": [8, 16, 280, 0]}", f);
    fclose(f);
    rg_env *full = make(NULL), *cropped = make(scen);
    unsigned h, w, c;
    rg_env_obs_shape(cropped, &h, &w, &c);
    assert_int_equal(h, H - 16);
    assert_int_equal(w, 280);
    size_t fs = rg_env_obs_size(full), cs = rg_env_obs_size(cropped);
    uint8_t *a = malloc(fs), *b = malloc(cs);
    assert_true(a && b);
    assert_int_equal(rg_env_reset(full, 1, 1, a, fs), RG_OK);
    assert_int_equal(rg_env_reset(cropped, 1, 1, b, cs), RG_OK);
    int64_t action[12] = {0};
    rg_step_result r;
    for (unsigned s = 0; s < 100; s++) {
        action[3] = (s / 10) % 2; /* Start: switches the width at once */
        assert_int_equal(rg_env_step(full, action, 12, a, fs, &r), RG_OK);
        assert_int_equal(rg_env_step(cropped, action, 12, b, cs, &r), RG_OK);
        for (unsigned y = 0; y < h; y++)
            if (memcmp(b + (size_t)y * w * 3, a + ((size_t)(y + 16) * W + 8) * 3, (size_t)w * 3) != 0)
                fail_msg("step %u, row %u: the crop is not the full screen's part", s, y);
    }
    free(a);
    free(b);
    rg_env_free(full);
    rg_env_free(cropped);
    remove(scen);
}

/* The emulator alone: the screen size is known from load, the picture only after a frame. */
static void screen_before_the_first_frame(void **state)
{
    (void)state;
    if (!test_wheel_core("genesis_plus_gx", gpgx, sizeof gpgx))
        skip();
    rg_emu *emu = test_open(test_source_path("tests/roms/bin/md/modes.md", rom, sizeof rom), gpgx);
    unsigned w = 0, h = 0;
    assert_int_equal(rg_emu_screen_size(emu, &w, &h), RG_OK);
    assert_int_equal(w, W);
    assert_int_equal(h, H);
    uint8_t px[3];
    assert_int_equal(rg_emu_screen_rgb24(emu, px, sizeof px), RG_EMISUSE);
    assert_int_equal(rg_emu_screen_size(emu, NULL, &h), RG_EINVAL);
    assert_int_equal(rg_emu_screen_rgb24(NULL, px, sizeof px), RG_EINVAL);
    assert_int_equal(rg_emu_screen_gray(emu, px, sizeof px), RG_EMISUSE);
    assert_int_equal(rg_emu_screen_gray(emu, NULL, sizeof px), RG_EINVAL);
    assert_int_equal(rg_emu_run(emu), RG_OK);
    rg_frame f;
    assert_int_equal(rg_emu_frame(emu, &f), RG_OK);
    assert_int_equal(f.width, 256); /* the core's boot frame, as it sends it */
    assert_int_equal(f.height, 192);
    uint8_t *obs = malloc((size_t)W * H * 3);
    assert_non_null(obs);
    assert_int_equal(rg_emu_screen_rgb24(emu, obs, (size_t)W * H * 3), RG_OK);
    /* rows below the 192 the core sent are black */
    for (size_t i = (size_t)192 * W * 3; i < (size_t)W * H * 3; i++)
        if (obs[i])
            fail_msg("byte %zu below the frame is not black", i);
    assert_int_equal(rg_emu_screen_gray(emu, obs, (size_t)W * H), RG_OK);
    for (size_t i = (size_t)192 * W; i < (size_t)W * H; i++)
        if (obs[i])
            fail_msg("gray pixel %zu below the frame is not black", i);
    free(obs);
    rg_emu_free(emu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(width_switches_keep_the_shape),
        cmocka_unit_test(crop_cuts_the_same_picture),
        cmocka_unit_test(screen_before_the_first_frame),
    };
    return cmocka_run_group_tests_name("env_screen", tests, NULL, NULL);
}
