/* A start state the system's first core refuses is loaded by the next installed core of the system's list: a
 * stable-retro Atari integration (its Start.state saved by Stella) works with our own Atari core as the default,
 * through Stella when stable-retro's cores are present. The state here is stable-retro's own: the Core.bin of the
 * reference movie it recorded on our test ROM (tests/movie/data/sr-Atari2600.bk2), with one byte changed so that our
 * core (which converts valid Stella 3.9.3 states) refuses it and Stella does not notice. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char root[512];

/* data root/stable/Test-Atari2600: our test ROM, its SHA-1, empty variables, and Stella's state as Start.state */
static int setup(void **state)
{
    (void)state;
    test_use_wheel_cores();
    char dir[1024];
    test_integration_dir("fallback", "Test-Atari2600", "test.a26", root, sizeof root, dir, sizeof dir);
    test_write_text(dir, "data.json", "{\"info\": {\"frame\": {\"address\": 136, \"type\": \"|u1\"}}}");
    test_write_text(dir, "scenario.json", "{\"reward\": {\"variables\": {\"frame\": {\"reward\": 1}}}}");
    test_write_text(dir, "metadata.json", "{\"default_state\": \"Start\"}");
    const uint8_t *st;
    size_t st_len;
    rg_movie *m = test_movie_start_state("sr-Atari2600.bk2", &st, &st_len);
    assert_true(st_len > 0);
    /* Our core converts Stella 3.9.3 states, but strictly: a boolean must be one of the two bytes Stella writes
     * (0xFE, 0x01), while Stella reads any byte other than 0xFE as false. One false flag of the CPU written as 0x00
     * makes a state that Stella loads as it was and our core refuses. */
    uint8_t *mutated = malloc(st_len);
    assert_non_null(mutated);
    memcpy(mutated, st, st_len);
    size_t flags = 0;
    for (size_t i = 0; i + 9 <= st_len && !flags; i++)
        if (memcmp(mutated + i, "\x05\0\0\0M6502", 9) == 0)
            flags = i + 9 + 7; /* after the name: A X Y SP IR, PC (2 bytes), then the 7 flags */
    assert_true(flags > 0 && flags + 7 <= st_len);
    size_t k = 0;
    while (k < 7 && mutated[flags + k] != 0x01)
        k++;
    assert_true(k < 7);
    mutated[flags + k] = 0x00;
    test_write_gz(dir, "Start.state", mutated, st_len);
    free(mutated);
    rg_movie_free(m);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rg__remove_tree(root);
    return 0;
}

static rg_env_options options(rg_integration_paths *dp, const char *core)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "Test-Atari2600";
    o.paths = dp;
    o.core = core;
    o.log = test_quiet_log;
    return o;
}

static void stella_state_falls_back_to_stella(void **state)
{
    (void)state;
    rg_integration_paths *dp;
    assert_int_equal(rg_integration_paths_create(&dp, root), RG_OK);
    /* Our core refuses Stella's state when it is named... */
    rg_env_options o = options(dp, "atari2600");
    rg_env *env;
    assert_int_equal(rg_env_create(&env, &o), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "atari2600"));
    /* ...and without a core named, the next core of Atari2600's list that loads it is used. */
    o = options(dp, NULL);
    int rc = rg_env_create(&env, &o);
    if (!test_core_installed("stella")) {
        assert_int_equal(rc, RG_ESTATE);
        assert_non_null(strstr(rg_error_last(), "no other installed core"));
        rg_integration_paths_free(dp);
        skip();
    }
    assert_int_equal(rc, RG_OK);
    assert_string_equal(rg_emu_core_name(rg_env_emu(env)), "stella");
    size_t size = rg_env_obs_size(env);
    uint8_t *obs = malloc(size);
    assert_int_equal(rg_env_reset(env, 1, 0, obs, size), RG_OK);
    /* the frame counter the test ROM keeps goes on from the state's value, one per frame */
    int64_t before, after;
    const char *name;
    assert_int_equal(rg_env_info_at(env, 0, &name, &before), RG_OK);
    int64_t action[32] = {0}; /* no buttons, whatever the action mode's length */
    assert_true(rg_env_action_length(env) <= 32);
    rg_step_result r;
    for (int i = 0; i < 10; i++)
        assert_int_equal(rg_env_step(env, action, rg_env_action_length(env), obs, size, &r), RG_OK);
    assert_int_equal(rg_env_info_at(env, 0, &name, &after), RG_OK);
    assert_int_equal((after - before) & 0xFF, 10);
    free(obs);
    rg_env_free(env);
    rg_integration_paths_free(dp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(stella_state_falls_back_to_stella)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
