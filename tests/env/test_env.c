/* The C environment API on our own game (StarCatcher-Nes): spaces, the reset sequence, every action mode, frame
 * skip, sticky actions, max-pooling, no-op starts, truncation, clone/restore, RAM observations, crops, and every
 * error path. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static rg_env_options opts(void)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = GAME;
    o.paths = paths;
    o.log = test_quiet_log;
    return o;
}

static rg_env *make(rg_env_options o)
{
    if (!test_core_installed("nestopia"))
        skip();
    rg_env *env;
    if (rg_env_create(&env, &o) != RG_OK)
        fail_msg("create: %s", rg_error_last());
    return env;
}

static int64_t info(rg_env *env, const char *want)
{
    for (size_t i = 0; i < rg_env_info_count(env); i++) {
        const char *name;
        int64_t v;
        if (rg_env_info_at(env, i, &name, &v) == RG_OK && strcmp(name, want) == 0)
            return v;
    }
    fail_msg("no info %s", want);
    return 0;
}

/* ALL/FILTERED action for one player from button names. */
static void buttons_action(rg_env *env, const char *names, int64_t *a)
{
    memset(a, 0, rg_env_action_length(env) * sizeof *a);
    char buf[64];
    snprintf(buf, sizeof buf, "%s", names ? names : "");
    for (char *save = NULL, *t = strtok_r(buf, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
        int id = rg_system_button_id(rg_env_system(env), t);
        assert_true(id >= 0);
        a[id] = 1;
    }
}

static void spaces_and_shapes(void **state)
{
    (void)state;
    rg_env *env = make(opts());
    unsigned h, w, c;
    rg_env_obs_shape(env, &h, &w, &c);
    assert_int_equal(c, 3);
    assert_true(h >= 224 && h <= 240);
    assert_int_equal(w, 256);
    assert_int_equal(rg_env_obs_size(env), (size_t)h * w * 3);
    assert_int_equal(rg_env_num_buttons(env), 9);
    assert_string_equal(rg_env_button_name(env, 8), "A");
    assert_null(rg_env_button_name(env, 1));
    assert_int_equal(rg_env_action_length(env), 9);
    assert_int_equal(rg_env_discrete_count(env), 36);
    assert_string_equal(rg_env_state_name(env), "Start");
    assert_string_equal(rg_env_game(env), GAME);
    assert_string_equal(rg_env_system(env)->name, "Nes");
    rg_env_free(env);
    rg_env_options o = opts();
    o.obs = RG_OBS_RAM;
    o.actions = RG_ACTIONS_MULTI_DISCRETE;
    o.players = 2;
    env = make(o);
    rg_env_obs_shape(env, &h, &w, &c);
    assert_int_equal(h, 2048);
    assert_int_equal(w * c, 1);
    assert_int_equal(rg_env_action_length(env), 6);
    rg_env_free(env);
    o.actions = RG_ACTIONS_DISCRETE;
    env = make(o);
    assert_int_equal(rg_env_discrete_count(env), 36 * 36);
    rg_env_free(env);
}

/* The scripted check of games/starcatcher/README.md through the env: reward 30 over 3600 steps. */
static void scripted_episode(void **state)
{
    (void)state;
    rg_env *env = make(opts());
    size_t size = rg_env_obs_size(env);
    uint8_t *obs = malloc(size);
    assert_int_equal(rg_env_reset(env, 1, 0, obs, size), RG_OK);
    int64_t a[9];
    float total = 0;
    rg_step_result r;
    const struct { unsigned step; const char *b; } script[] = {
        {30, "RIGHT"}, {80, NULL}, {500, "LEFT"}, {600, NULL}, {1200, "A+RIGHT"}, {1230, NULL}, {2500, "LEFT"}};
    size_t next = 0;
    buttons_action(env, NULL, a);
    for (unsigned s = 0; s < 3600; s++) {
        if (next < 7 && script[next].step == s)
            buttons_action(env, script[next++].b, a);
        assert_int_equal(rg_env_step(env, a, 9, obs, size, &r), RG_OK);
        total += r.rewards[0];
        assert_int_equal(r.frames, 1);
        assert_false(r.terminated);
    }
    assert_true(total == 30.0f);
    assert_int_equal(info(env, "score"), 30);
    assert_int_equal(info(env, "lives"), 3);
    assert_int_equal(rg_env_episode_steps(env), 3600);
    free(obs);
    rg_env_free(env);
}

static void action_modes_decode(void **state)
{
    (void)state;
    rg_env_options o = opts();
    o.players = 2;
    rg_env *env = make(o); /* FILTERED: UP+DOWN+LEFT -> LEFT; START dropped */
    const rg_system_info *sys = rg_env_system(env);
    int64_t a[18] = {0};
    a[rg_system_button_id(sys, "UP")] = 1;
    a[rg_system_button_id(sys, "DOWN")] = 1;
    a[rg_system_button_id(sys, "LEFT")] = 5; /* any non-zero value presses */
    a[9 + rg_system_button_id(sys, "START")] = 1;
    a[9 + rg_system_button_id(sys, "A")] = 1;
    uint16_t b[RG_SCENARIO_MAX_PLAYERS];
    assert_int_equal(rg_env_decode_action(env, a, 18, b), RG_OK);
    assert_int_equal(b[0], 1u << rg_system_button_id(sys, "LEFT"));
    assert_int_equal(b[1], 1u << rg_system_button_id(sys, "A"));
    rg_env_free(env);
    o.actions = RG_ACTIONS_ALL;
    env = make(o);
    assert_int_equal(rg_env_decode_action(env, a, 18, b), RG_OK);
    assert_int_equal(b[1], (1u << rg_system_button_id(sys, "A")) | (1u << rg_system_button_id(sys, "START")));
    rg_env_free(env);
    /* DISCRETE: groups in order (UP/DOWN, LEFT/RIGHT, B/A), player 2 continues the same number */
    o.actions = RG_ACTIONS_DISCRETE;
    env = make(o);
    int64_t d = 2 + 3 * 1 + 9 * 2 + 36 * (1 + 3 * 2 + 9 * 3);
    assert_int_equal(rg_env_decode_action(env, &d, 1, b), RG_OK);
    const rg_actionset *as = rg_env_actionset(env);
    assert_int_equal(b[0], rg_actionset_combo(as, 0, 2) | rg_actionset_combo(as, 1, 1) | rg_actionset_combo(as, 2, 2));
    assert_int_equal(b[1], rg_actionset_combo(as, 0, 1) | rg_actionset_combo(as, 1, 2) | rg_actionset_combo(as, 2, 3));
    d = 36 * 36;
    assert_int_equal(rg_env_decode_action(env, &d, 1, b), RG_ERANGE);
    d = -1;
    assert_int_equal(rg_env_decode_action(env, &d, 1, b), RG_ERANGE);
    rg_env_free(env);
    /* MULTI_DISCRETE: player 2's slice starts at 3 (the reference took it at 9) */
    o.actions = RG_ACTIONS_MULTI_DISCRETE;
    env = make(o);
    int64_t m[6] = {1, 2, 3, 2, 0, 1};
    assert_int_equal(rg_env_decode_action(env, m, 6, b), RG_OK);
    as = rg_env_actionset(env);
    assert_int_equal(b[0], rg_actionset_combo(as, 0, 1) | rg_actionset_combo(as, 1, 2) | rg_actionset_combo(as, 2, 3));
    assert_int_equal(b[1], rg_actionset_combo(as, 0, 2) | rg_actionset_combo(as, 2, 1));
    m[2] = 4;
    assert_int_equal(rg_env_decode_action(env, m, 6, b), RG_ERANGE);
    assert_int_equal(rg_env_decode_action(env, m, 5, b), RG_EINVAL);
    rg_env_free(env);
}

/* Runs `steps` DISCRETE steps from reset(seed) with actions from a fixed sequence; returns a hash of everything. */
static uint64_t run_hash(rg_env *env, uint64_t seed, unsigned steps, float *total)
{
    size_t size = rg_env_obs_size(env);
    uint8_t *obs = malloc(size);
    assert_int_equal(rg_env_reset(env, 1, seed, obs, size), RG_OK);
    uint64_t h = test_hash(obs, size, 1);
    *total = 0;
    for (unsigned s = 0; s < steps; s++) {
        int64_t a = (int64_t)((s / 7 * 2654435761u) % 36);
        rg_step_result r;
        assert_int_equal(rg_env_step(env, &a, 1, obs, size, &r), RG_OK);
        h = test_hash(obs, size, h ^ (uint64_t)(r.rewards[0] * 1000) ^ (uint64_t)r.terminated << 40);
        *total += r.rewards[0];
        if (r.terminated || r.truncated)
            break;
    }
    free(obs);
    return h;
}

static void determinism_and_options(void **state)
{
    (void)state;
    rg_env_options o = opts();
    o.actions = RG_ACTIONS_DISCRETE;
    o.frameskip = 4;
    o.sticky_prob = 0.25;
    o.noop_max = 30;
    rg_env *a = make(o), *b = make(o);
    float ta, tb;
    uint64_t ha = run_hash(a, 7, 600, &ta), hb = run_hash(b, 7, 600, &tb);
    assert_true(ha == hb && ta == tb); /* same seed, same everything, in two envs */
    assert_true(run_hash(a, 7, 600, &ta) == ha); /* and again after another reset */
    assert_true(run_hash(a, 8, 600, &tb) != ha); /* another seed: other no-ops and sticky draws */
    rg_env_free(a);
    rg_env_free(b);
    /* frameskip: frames per step, fewer when done comes first */
    o = opts();
    o.frameskip = 3;
    o.max_episode_steps = 50;
    a = make(o);
    size_t size = rg_env_obs_size(a);
    uint8_t *obs = malloc(size);
    assert_int_equal(rg_env_reset(a, 1, 0, obs, size), RG_OK);
    int64_t act[9] = {0};
    rg_step_result r;
    for (unsigned s = 1; s <= 50; s++) {
        assert_int_equal(rg_env_step(a, act, 9, obs, size, &r), RG_OK);
        assert_int_equal(r.frames, 3);
        assert_int_equal(r.truncated, s == 50);
    }
    rg_emu *emu = rg_env_emu(a);
    assert_true(rg_emu_frame_count(emu) > 150);
    free(obs);
    rg_env_free(a);
}

/* The max-pooled observation is the per-pixel max of the last two frames of the step. */
static void max_pool(void **state)
{
    (void)state;
    rg_env_options o = opts();
    o.frameskip = 2;
    o.max_pool = 1;
    o.actions = RG_ACTIONS_DISCRETE;
    rg_env *pooled = make(o);
    o.max_pool = 0;
    o.frameskip = 1;
    rg_env *plain = make(o);
    size_t size = rg_env_obs_size(plain);
    uint8_t *p = malloc(size), *f1 = malloc(size), *f2 = malloc(size);
    assert_int_equal(rg_env_reset(pooled, 1, 0, p, size), RG_OK);
    assert_int_equal(rg_env_reset(plain, 1, 0, f1, size), RG_OK);
    rg_step_result r;
    int differs = 0;
    for (unsigned s = 0; s < 200; s++) {
        int64_t a = (int64_t)(s % 36);
        assert_int_equal(rg_env_step(pooled, &a, 1, p, size, &r), RG_OK);
        assert_int_equal(rg_env_step(plain, &a, 1, f1, size, &r), RG_OK);
        assert_int_equal(rg_env_step(plain, &a, 1, f2, size, &r), RG_OK);
        for (size_t i = 0; i < size; i++)
            if (p[i] != (f1[i] > f2[i] ? f1[i] : f2[i]))
                fail_msg("step %u byte %zu: pooled %u, frames %u %u", s, i, p[i], f1[i], f2[i]);
        differs |= memcmp(f1, f2, size) != 0;
    }
    assert_true(differs); /* the check saw moving pictures */
    free(p);
    free(f1);
    free(f2);
    rg_env_free(pooled);
    rg_env_free(plain);
}

static void clone_and_restore(void **state)
{
    (void)state;
    rg_env_options o = opts();
    o.actions = RG_ACTIONS_DISCRETE;
    o.sticky_prob = 0.3;
    rg_env *env = make(o), *other = make(o);
    size_t size = rg_env_obs_size(env);
    uint8_t *obs = malloc(size);
    assert_int_equal(rg_env_reset(env, 1, 3, obs, size), RG_OK);
    rg_step_result r;
    for (unsigned s = 0; s < 300; s++) {
        int64_t a = (int64_t)(s * 7 % 36);
        assert_int_equal(rg_env_step(env, &a, 1, obs, size, &r), RG_OK);
    }
    size_t snap_size;
    assert_int_equal(rg_env_clone_size(env, &snap_size), RG_OK);
    uint8_t *snap = malloc(snap_size);
    size_t written;
    assert_int_equal(rg_env_clone(env, snap, snap_size, &written), RG_OK);
    assert_true(written <= snap_size);
    assert_int_equal(rg_env_clone(env, snap, 10, &written), RG_EBUFFER);
    assert_int_equal(rg_env_clone(env, snap, snap_size, &written), RG_OK);
    /* play on, remember, restore, play the same: identical; also in another env */
    uint64_t h[3] = {0};
    float tot[3] = {0};
    for (int round = 0; round < 3; round++) {
        rg_env *e = round == 2 ? other : env;
        if (round > 0)
            assert_int_equal(rg_env_restore(e, snap, written), RG_OK);
        for (unsigned s = 0; s < 400; s++) {
            int64_t a = (int64_t)(s * 11 % 36);
            assert_int_equal(rg_env_step(e, &a, 1, obs, size, &r), RG_OK);
            h[round] = test_hash(obs, size, h[round] ^ r.terminated);
            tot[round] += r.rewards[0];
        }
        if (round == 0)
            assert_int_equal(rg_env_episode_steps(e), 700);
    }
    assert_true(h[0] == h[1] && h[1] == h[2]);
    assert_true(tot[0] == tot[1] && tot[1] == tot[2]);
    assert_true(rg_scenario_total_reward(rg_env_scenario(env), 0) == rg_scenario_total_reward(rg_env_scenario(other), 0));
    /* damaged snapshots change nothing and say so */
    assert_int_equal(rg_env_restore(env, snap, 5), RG_ECORRUPT);
    assert_int_equal(rg_env_restore(env, snap, written / 2), RG_ECORRUPT);
    uint8_t junk[64] = {0};
    assert_int_equal(rg_env_restore(env, junk, sizeof junk), RG_ECORRUPT);
    /* a snapshot of an env with other options is refused */
    o.frameskip = 4;
    rg_env *skip4 = make(o);
    assert_int_equal(rg_env_restore(skip4, snap, written), RG_ECORRUPT);
    assert_non_null(strstr(rg_error_last(), "other options"));
    rg_env_free(skip4);
    snap[17] ^= 0x20; /* the game's name */
    assert_int_equal(rg_env_restore(env, snap, written), RG_ECORRUPT);
    free(snap);
    free(obs);
    rg_env_free(env);
    rg_env_free(other);
}

static void errors(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    rg_env *env = NULL;
    rg_env_options o = opts();
    o.game = "NoSuchGame-Nes";
    assert_int_equal(rg_env_create(&env, &o), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "unknown game"));
    assert_null(env);
    o = opts();
    o.state = "Nowhere";
    assert_int_equal(rg_env_create(&env, &o), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "Nowhere"));
    o = opts();
    o.scenario = "missing";
    assert_int_equal(rg_env_create(&env, &o), RG_ENOTFOUND);
    o = opts();
    o.players = 0;
    assert_int_equal(rg_env_create(&env, &o), RG_EINVAL);
    o = opts();
    o.sticky_prob = 1.5;
    assert_int_equal(rg_env_create(&env, &o), RG_EINVAL);
    o = opts();
    o.actions = (rg_action_mode)9;
    assert_int_equal(rg_env_create(&env, &o), RG_EINVAL);
    o = opts();
    o.game = NULL;
    assert_int_equal(rg_env_create(&env, &o), RG_EINVAL);
    o = opts();
    o.version = 99;
    assert_int_equal(rg_env_create(&env, &o), RG_EINVAL);
    /* a game whose ROM was never imported */
    char root[600], dir[700];
    snprintf(root, sizeof root, "%s/env-noroms-%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    snprintf(dir, sizeof dir, "%s/stable/Nothing-Nes", root);
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && echo 0000000000000000000000000000000000000000 > '%s/rom.sha'", dir, dir);
    assert_int_equal(system(cmd), 0);
    rg_integration_paths *dp;
    assert_int_equal(rg_integration_paths_create(&dp, root), RG_OK);
    o = opts();
    o.paths = dp;
    o.game = "Nothing-Nes";
    assert_int_equal(rg_env_create(&env, &o), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "retrogym import"));
    rg_integration_paths_free(dp);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
    /* misuse of a good env */
    env = make(opts());
    int64_t a[9] = {0};
    rg_step_result r;
    uint8_t small[16];
    assert_int_equal(rg_env_step(env, a, 9, NULL, 0, &r), RG_EMISUSE);
    assert_int_equal(rg_env_reset(env, 0, 0, small, sizeof small), RG_EBUFFER);
    assert_int_equal(rg_env_reset(env, 0, 0, NULL, 0), RG_OK);
    assert_int_equal(rg_env_step(env, a, 8, NULL, 0, &r), RG_EINVAL);
    assert_int_equal(rg_env_step(env, a, 9, small, sizeof small, &r), RG_EBUFFER);
    assert_int_equal(rg_env_step(env, a, 9, NULL, 0, &r), RG_OK);
    assert_int_equal(rg_env_observe(env, small, sizeof small), RG_EBUFFER);
    assert_int_equal(rg_env_set_start_state(env, "Nowhere"), RG_ENOTFOUND);
    assert_string_equal(rg_env_state_name(env), "Start");
    rg_env_free(env);
    rg_env_free(NULL);
}

/* No start state: reset is a power-on reset, and the title screen is the same each time. */
static void power_on_reset(void **state)
{
    (void)state;
    rg_env_options o = opts();
    o.state = RG_STATE_NONE;
    o.actions = RG_ACTIONS_DISCRETE;
    o.max_episode_steps = 5;
    rg_env *env = make(o);
    assert_string_equal(rg_env_state_name(env), "");
    float t1, t2;
    uint64_t h1 = run_hash(env, 0, 100, &t1), h2 = run_hash(env, 0, 100, &t2);
    assert_true(h1 == h2);
    rg_env_free(env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spaces_and_shapes), cmocka_unit_test(scripted_episode),
        cmocka_unit_test(action_modes_decode), cmocka_unit_test(determinism_and_options),
        cmocka_unit_test(max_pool), cmocka_unit_test(clone_and_restore),
        cmocka_unit_test(errors), cmocka_unit_test(power_on_reset),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
