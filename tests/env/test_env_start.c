/* The start state as bytes (rg_env_start_state, rg_env_set_start_state_data: stable-retro's env.initial_state) and a
 * caller's ROM (rg_env_options.rom), on our own game StarCatcher-Nes. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAME "StarCatcher-Nes"

static rg_integration_paths *paths;

static int setup(void **state)
{
    (void)state;
    char root[1024];
    return rg_integration_paths_create(&paths, test_source_path("data", root, sizeof root)) == RG_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rg_integration_paths_free(paths);
    return 0;
}

static rg_env *make(const char *game, const char *rom, const char *st)
{
    if (!test_core_installed("nestopia"))
        skip();
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = game;
    o.rom = rom;
    o.state = st;
    o.paths = paths;
    o.log = test_quiet_log;
    o.actions = RG_ACTIONS_DISCRETE;
    rg_env *env;
    if (rg_env_create(&env, &o) != RG_OK)
        fail_msg("create: %s", rg_error_last());
    return env;
}

/* The observation after a reset, as a hash. */
static uint64_t reset_hash(rg_env *env)
{
    size_t n = rg_env_obs_size(env);
    uint8_t *obs = malloc(n);
    assert_non_null(obs);
    assert_int_equal(rg_env_reset(env, 1, 1, obs, n), RG_OK);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ obs[i]) * 1099511628211ull;
    free(obs);
    return h;
}

static void start_state_bytes(void **state)
{
    (void)state;
    rg_env *env = make(GAME, NULL, RG_STATE_DEFAULT);
    const void *data;
    size_t len;
    assert_int_equal(rg_env_start_state(env, &data, &len), RG_OK);
    assert_non_null(data);
    assert_true(len > 0);
    uint8_t *orig = malloc(len);
    size_t orig_len = len;
    memcpy(orig, data, len);
    uint64_t from_start = reset_hash(env);

    /* A state 300 frames later becomes the start of later resets, byte for byte. */
    int64_t a = 0;
    rg_step_result r;
    for (int i = 0; i < 300; i++)
        assert_int_equal(rg_env_step(env, &a, 1, NULL, 0, &r), RG_OK);
    size_t size;
    assert_int_equal(rg_emu_state_size(rg_env_emu(env), &size), RG_OK);
    uint8_t *later = malloc(size);
    assert_int_equal(rg_emu_state_save(rg_env_emu(env), later, size, &size), RG_OK);
    assert_int_equal(rg_env_set_start_state_data(env, later, size), RG_OK);
    assert_int_equal(rg_env_start_state(env, &data, &len), RG_OK);
    assert_int_equal(len, size);
    assert_memory_equal(data, later, size);
    uint64_t from_later = reset_hash(env);
    assert_true(from_later != from_start);
    assert_true(reset_hash(env) == from_later);

    /* Refused bytes change nothing. */
    static const uint8_t junk[64] = {1, 2, 3};
    assert_int_not_equal(rg_env_set_start_state_data(env, junk, sizeof junk), RG_OK);
    assert_int_equal(rg_env_start_state(env, &data, &len), RG_OK);
    assert_int_equal(len, size);
    assert_memory_equal(data, later, size);
    assert_int_equal(rg_env_set_start_state_data(env, NULL, 5), RG_EINVAL);
    assert_int_equal(rg_env_set_start_state_data(NULL, later, size), RG_EINVAL);
    assert_int_equal(rg_env_start_state(NULL, &data, &len), RG_EINVAL);

    /* The original bytes bring the original start back; none is a power-on start. */
    assert_int_equal(rg_env_set_start_state_data(env, orig, orig_len), RG_OK);
    assert_true(reset_hash(env) == from_start);
    assert_int_equal(rg_env_set_start_state_data(env, NULL, 0), RG_OK);
    assert_int_equal(rg_env_start_state(env, &data, &len), RG_OK);
    assert_null(data);
    assert_int_equal(len, 0);
    assert_string_equal(rg_env_state_name(env), "");
    assert_true(reset_hash(env) != from_start);
    free(later);
    free(orig);
    rg_env_free(env);
}

/* A caller's ROM: the game may name no integration; its data files are given as paths. */
static void callers_rom(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    char rom[1024], data[1024], scen[1024];
    test_source_path("data/stable/" GAME "/rom.nes", rom, sizeof rom);
    test_source_path("data/stable/" GAME "/data.json", data, sizeof data);
    test_source_path("data/stable/" GAME "/scenario.json", scen, sizeof scen);
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "SomeRom";
    o.rom = rom;
    o.state = RG_STATE_NONE;
    o.info = data;
    o.scenario = scen;
    o.paths = paths;
    o.log = test_quiet_log;
    rg_env *env;
    if (rg_env_create(&env, &o) != RG_OK)
        fail_msg("create: %s", rg_error_last());
    assert_string_equal(rg_env_system(env)->name, "Nes");
    assert_int_equal(rg_env_reset(env, 1, 0, NULL, 0), RG_OK);
    rg_env_free(env);
    /* The game's own folder still gives its start state when the ROM is elsewhere. */
    rg_env *named = make(GAME, rom, RG_STATE_DEFAULT);
    assert_string_equal(rg_env_state_name(named), "Start");
    rg_env_free(named);
    o.rom = "/nonexistent/game.nes";
    assert_int_equal(rg_env_create(&env, &o), RG_ENOTFOUND);
    assert_null(env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(start_state_bytes),
        cmocka_unit_test(callers_rom),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
