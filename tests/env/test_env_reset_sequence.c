/* rg_env_options.reset_sequence (src/env/env_create.c): a console's start sequence from power-on (ALE's reset on the
 * Atari 2600), run once at creation and loaded by every reset; on our Atari test ROM, whose RAM holds a frame counter
 * ($88) and the input ($89, the console's RESET switch included). */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#define RESET_SWITCH 8 /* button 3 of Atari2600: the console's RESET switch */

static rg_integration_paths *paths;
static char rom[1024];

static int setup(void **state)
{
    (void)state;
    test_source_path("tests/roms/bin/test.a26", rom, sizeof rom);
    return rg_integration_paths_create(&paths, NULL) == RG_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rg_integration_paths_free(paths);
    return 0;
}

static int make(rg_env **env, const uint16_t *seq, size_t n, const char *st)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "Test-Atari2600";
    o.rom = rom;
    o.state = st;
    o.paths = paths;
    o.log = test_quiet_log;
    o.actions = RG_ACTIONS_ALL;
    o.obs = RG_OBS_RAM;
    o.reset_sequence = seq;
    o.n_reset_sequence = n;
    return rg_env_create(env, &o);
}

static void step_mask(rg_env *env, uint16_t mask, uint8_t *obs, size_t cap)
{
    int64_t a[8];
    for (unsigned i = 0; i < 8; i++)
        a[i] = (mask >> i) & 1;
    rg_step_result r;
    assert_int_equal(rg_env_step(env, a, 8, obs, cap, &r), RG_OK);
}

/* With the sequence (noops, RESET held, noops) the reset's RAM is the RAM of an env without one that played the
 * same frames by hand; every reset starts there again; the start state is the sequence's end. */
static void sequence_equals_frames_played(void **state)
{
    (void)state;
    uint16_t seq[10] = {0, 0, 0, 0, 0, RESET_SWITCH, RESET_SWITCH, RESET_SWITCH, 0, 0};
    rg_env *with, *by_hand;
    assert_int_equal(make(&with, seq, 10, RG_STATE_NONE), RG_OK);
    assert_int_equal(make(&by_hand, NULL, 0, RG_STATE_NONE), RG_OK);
    size_t n = rg_env_obs_size(with);
    uint8_t *a = malloc(n), *b = malloc(n), *c = malloc(n);
    assert_true(a && b && c && n >= 128);
    assert_int_equal(rg_env_reset(with, 1, 0, a, n), RG_OK);
    /* by hand: the reset frame (no buttons), then the sequence but its first frame, then one no-op frame */
    assert_int_equal(rg_env_reset(by_hand, 1, 0, b, n), RG_OK);
    assert_int_not_equal(a[8], b[8]); /* the frame counters differ by the 10 frames */
    for (unsigned i = 1; i < 10; i++)
        step_mask(by_hand, seq[i], b, n);
    step_mask(by_hand, 0, b, n);
    assert_memory_equal(a, b, n);
    /* a reset after steps starts from the same place */
    step_mask(with, RESET_SWITCH, c, n);
    step_mask(with, 0x10, c, n);
    assert_int_equal(rg_env_reset(with, 1, 0, c, n), RG_OK);
    assert_memory_equal(a, c, n);
    const void *data;
    size_t len;
    assert_int_equal(rg_env_start_state(with, &data, &len), RG_OK);
    assert_non_null(data);
    assert_true(len > 0);
    assert_int_equal(rg_env_start_state(by_hand, &data, &len), RG_OK);
    assert_null(data);
    free(a);
    free(b);
    free(c);
    rg_env_free(with);
    rg_env_free(by_hand);
}

static void bad_sequences_refused(void **state)
{
    (void)state;
    rg_env *env = (rg_env *)1;
    assert_int_equal(make(&env, NULL, 3, RG_STATE_NONE), RG_EINVAL);
    assert_null(env);
    assert_non_null(strstr(rg_error_last(), "reset_sequence is NULL"));
    uint16_t *big = calloc(RG_ENV_MAX_RESET_SEQUENCE + 1, sizeof *big);
    assert_non_null(big);
    assert_int_equal(make(&env, big, RG_ENV_MAX_RESET_SEQUENCE + 1, RG_STATE_NONE), RG_EINVAL);
    assert_non_null(strstr(rg_error_last(), "at most"));
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sequence_equals_frames_played),
        cmocka_unit_test(bad_sequences_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
