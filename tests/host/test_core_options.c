/* Core options, the log callback and audio capture, on real cores. */
#include "test_support.h"

#include <string.h>

static test_rom nes, gba;

/* nestopia masks the vertical overscan by default (224 lines); the caller can turn the option off (240). */
static void option_override_changes_output(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    rg_emu *emu = test_open(nes.path, "nestopia");
    rg_emu_run(emu);
    rg_frame f;
    rg_emu_frame(emu, &f);
    assert_int_equal(f.height, 224);
    rg_emu_free(emu);

    rg_core_option opt[] = {{"nestopia_overscan_v", "disabled"}};
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "nestopia";
    o.core_options = opt;
    o.n_core_options = 1;
    o.log = test_quiet_log;
    assert_int_equal(rg_emu_open(&emu, nes.path, &o), RG_OK);
    rg_emu_run(emu);
    rg_emu_frame(emu, &f);
    assert_int_equal(f.height, 240);
    rg_emu_free(emu);
}

typedef struct counts {
    int by_level[4];
} counts;

static void count_log(rg_log_level level, const char *message, void *user)
{
    counts *c = user;
    assert_non_null(message);
    assert_true(level >= RG_LOG_DEBUG && level <= RG_LOG_ERROR);
    c->by_level[level]++;
}

/* mGBA logs debug lines every frame; the level filter keeps them from the callback. */
static void log_levels_are_filtered(void **state)
{
    (void)state;
    if (!test_core_installed("mgba"))
        skip();
    counts all = {{0}}, warn = {{0}};
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "mgba";
    o.log = count_log;
    o.log_user = &all;
    o.log_level = RG_LOG_DEBUG;
    rg_emu *emu;
    assert_int_equal(rg_emu_open(&emu, gba.path, &o), RG_OK);
    for (int i = 0; i < 60; i++)
        rg_emu_run(emu);
    rg_emu_free(emu);
    o.log_user = &warn;
    o.log_level = RG_LOG_WARN;
    assert_int_equal(rg_emu_open(&emu, gba.path, &o), RG_OK);
    for (int i = 0; i < 60; i++)
        rg_emu_run(emu);
    rg_emu_free(emu);
    assert_true(all.by_level[RG_LOG_DEBUG] + all.by_level[RG_LOG_INFO] > 0);
    assert_int_equal(warn.by_level[RG_LOG_DEBUG], 0);
    assert_int_equal(warn.by_level[RG_LOG_INFO], 0);
}

static void audio_only_when_asked(void **state)
{
    (void)state;
    if (!test_core_installed(nes.core))
        skip();
    rg_emu *emu = test_open(nes.path, nes.core);
    const int16_t *s;
    size_t frames;
    rg_emu_run(emu);
    assert_int_equal(rg_emu_audio(emu, &s, &frames), RG_OK);
    assert_int_equal(frames, 0);
    rg_emu_free(emu);
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = nes.core;
    o.capture_audio = 1;
    o.log = test_quiet_log;
    assert_int_equal(rg_emu_open(&emu, nes.path, &o), RG_OK);
    rg_emu_run(emu);
    rg_emu_run(emu);
    assert_int_equal(rg_emu_audio(emu, &s, &frames), RG_OK);
    /* One frame of audio: sample rate / fps stereo frames (800 at 48 kHz and 60 fps for nestopia). */
    double expect = rg_emu_sample_rate(emu) / rg_emu_fps(emu);
    assert_true(frames > expect * 0.9 && frames < expect * 1.1);
    assert_non_null(s);
    rg_emu_free(emu);
}

int main(void)
{
    test_rom all[16];
    size_t n = test_roms_load(all, 16);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(all[i].system, "Nes") == 0)
            nes = all[i];
        if (strcmp(all[i].system, "GbAdvance") == 0)
            gba = all[i];
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(option_override_changes_output),
        cmocka_unit_test(log_levels_are_filtered),
        cmocka_unit_test(audio_only_when_asked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
