#define _POSIX_C_SOURCE 200809L
/* What a hostile scenario script can make us hold or spend beyond one call's budget (issue 16):
 *  - the scripts' globals are part of every env snapshot: a 12 MB global string made each rg_env_clone 12 MB. A
 *    snapshot now refuses (RG_ETOOBIG, naming the size) when the globals take more than 1 MiB, normal scripts'
 *    snapshots stay small, locals and tables (not in snapshots) are free, and a restore is not limited;
 *  - the VM's own `..` is not a library call the sandbox can charge: a loop of concatenations ends by the memory
 *    limit, the instruction budget or the time budget, promptly, and the interpreter goes on working.
 * Real environments (our Atari core, a temporary integration with script.lua) and real interpreters. */
#include "test_support.h"

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct env_fx {
    char root[512], dir[1024];
    rg_integration_paths *dp;
    rg_env *env;
    uint8_t *obs;
    size_t obs_size;
} env_fx;

/* An env of the test Atari game whose reward is `reward` of this script. */
static int open_env(env_fx *fx, const char *script)
{
    memset(fx, 0, sizeof *fx);
    test_integration_dir("luabounds", "Test-Atari2600", "test.a26", fx->root, sizeof fx->root, fx->dir,
                         sizeof fx->dir);
    test_write_text(fx->dir, "data.json", "{\"info\": {\"byte\": {\"address\": 128, \"type\": \"|u1\"}}}");
    test_write_text(fx->dir, "scenario.json",
                    "{\"scripts\": [\"script.lua\"], \"reward\": {\"script\": \"lua:reward\"}}");
    test_write_text(fx->dir, "script.lua", script);
    EXPECT_OK(rg_integration_paths_create(&fx->dp, fx->root));
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "Test-Atari2600";
    o.paths = fx->dp;
    o.core = "atari2600";
    o.log = test_quiet_log;
    int rc = rg_env_create(&fx->env, &o);
    if (rc != RG_OK)
        return rc;
    fx->obs_size = rg_env_obs_size(fx->env);
    fx->obs = malloc(fx->obs_size);
    assert_non_null(fx->obs);
    return rg_env_reset(fx->env, 1, 7, fx->obs, fx->obs_size);
}

static void close_env(env_fx *fx)
{
    free(fx->obs);
    rg_env_free(fx->env);
    rg_integration_paths_free(fx->dp);
    rg__remove_tree(fx->root);
}

static float step(env_fx *fx)
{
    int64_t action[64] = {0};
    size_t len = rg_env_action_length(fx->env);
    assert_true(len <= 64);
    action[0] = 1;
    rg_step_result res;
    EXPECT_OK(rg_env_step(fx->env, action, len, fx->obs, fx->obs_size, &res));
    return res.rewards[0];
}

static uint8_t *clone_of(rg_env *env, size_t *len)
{
    size_t cap;
    EXPECT_OK(rg_env_clone_size(env, &cap));
    uint8_t *buf = malloc(cap);
    assert_non_null(buf);
    EXPECT_OK(rg_env_clone(env, buf, cap, len));
    assert_int_equal(*len, cap);
    return buf;
}

/* What a snapshot of this env holds besides the scripts' globals: the emulator state, the observation and the game
 * layer's few hundred bytes. */
static size_t base_size(env_fx *fx)
{
    size_t emu;
    EXPECT_OK(rg_emu_state_size(rg_env_emu(fx->env), &emu));
    return emu + fx->obs_size;
}

/* Both snapshot calls refuse with RG_ETOOBIG and a message naming the size and the limit. */
static void expect_too_big(env_fx *fx, const char *size_text)
{
    size_t cap = 0;
    TEST_EXPECT_ERROR(rg_env_clone_size(fx->env, &cap), RG_ETOOBIG, "snapshot");
    if (!strstr(rg_error_last(), size_text) || !strstr(rg_error_last(), "limit of 1024 KiB") ||
        !strstr(rg_error_last(), "local variables or tables"))
        fail_msg("message \"%s\" does not name %s and the limit", rg_error_last(), size_text);
    uint8_t buf[64];
    size_t written = 0;
    TEST_EXPECT_ERROR(rg_env_clone(fx->env, buf, sizeof buf, &written), RG_ETOOBIG, size_text);
    assert_int_equal(written, 0);
}

/* Normal scripts: a snapshot is the emulator, the observation and a few hundred bytes. A 12 MB string in a
 * global (made at load) is refused with a clear error instead of being copied into every snapshot; the same string
 * in a local or a table costs the snapshot nothing, and the env works on either way. */
static void large_globals_refused_small_ones_kept(void **state)
{
    (void)state;
    static const char *const small[] = {
        "n = 0\nname = 'start'\nflag = true\nfunction reward() n = n + 1 name = 'at ' .. n return n end\n",
        "local big = string.rep('x', 12 * 1024 * 1024)\nfunction reward() return #big end\n",
        "t = {string.rep('x', 12 * 1024 * 1024)}\nfunction reward() return #t[1] end\n",
        "s = string.rep('y', 1000 * 1000)\nfunction reward() return #s end\n", /* just under the limit */
    };
    static const size_t extra_max[] = {1024, 1024, 1024, 1000 * 1000 + 1024};
    for (size_t i = 0; i < sizeof small / sizeof *small; i++) {
        env_fx fx;
        EXPECT_OK(open_env(&fx, small[i]));
        step(&fx);
        size_t len;
        uint8_t *snap = clone_of(fx.env, &len);
        if (len > base_size(&fx) + extra_max[i])
            fail_msg("script %zu: a snapshot of %zu bytes, %zu beyond the emulator and observation", i, len,
                     len - base_size(&fx));
        EXPECT_OK(rg_env_restore(fx.env, snap, len));
        free(snap);
        close_env(&fx);
    }

    env_fx fx;
    EXPECT_OK(open_env(&fx, "big = string.rep('x', 12 * 1024 * 1024)\nfunction reward() return #big / 1024 end\n"));
    expect_too_big(&fx, "12.0 MiB");
    assert_true(step(&fx) == 12 * 1024); /* the env goes on */
    close_env(&fx);
    /* many small globals add up the same way */
    EXPECT_OK(open_env(&fx, "for i = 1, 40000 do _G['g' .. i] = i end\nfunction reward() return g7 end\n"));
    expect_too_big(&fx, "MiB");
    assert_true(step(&fx) == 7);
    close_env(&fx);
}

/* A global that grows during the episode: snapshots work before, are refused while it is there (the env steps on
 * and restores an earlier snapshot, which removes it), and work again once the script lets go of it. Restores are
 * exact: the same rewards after each. */
static void growing_global_and_restore(void **state)
{
    (void)state;
    env_fx fx;
    EXPECT_OK(open_env(&fx, "n = -1\n" /* the reset's update is the first call: n is 1 at the first step */
                            "function reward()\n"
                            "  n = n + 1\n"
                            "  if n == 3 then big = string.rep('z', 3 * 1024 * 1024) .. n end\n"
                            "  if n == 6 then big = nil end\n"
                            "  return n + (big and 1000 or 0)\n"
                            "end\n"));
    float first = step(&fx);
    if (first != 1)
        fail_msg("first step %g", first);
    size_t len1;
    uint8_t *snap1 = clone_of(fx.env, &len1);
    assert_true(step(&fx) == 2);
    assert_true(step(&fx) == 1003);
    expect_too_big(&fx, "3.0 MiB");
    assert_true(step(&fx) == 1004);
    expect_too_big(&fx, "3.0 MiB");
    /* a restore is not limited (its roll-back copy holds the big string) and takes the string away */
    EXPECT_OK(rg_env_restore(fx.env, snap1, len1));
    assert_true(step(&fx) == 2);
    size_t len2;
    uint8_t *snap2 = clone_of(fx.env, &len2);
    free(snap2);
    for (int i = 3; i <= 5; i++)
        assert_true(step(&fx) == 1000 + i);
    assert_true(step(&fx) == 6); /* big = nil */
    size_t len3;
    uint8_t *snap3 = clone_of(fx.env, &len3);
    assert_true(len3 < base_size(&fx) + 1024);
    float after[3], replay[3];
    for (int i = 0; i < 3; i++)
        after[i] = step(&fx);
    EXPECT_OK(rg_env_restore(fx.env, snap3, len3));
    for (int i = 0; i < 3; i++)
        replay[i] = step(&fx);
    assert_memory_equal(after, replay, sizeof after);
    free(snap1);
    free(snap3);
    close_env(&fx);
    /* the script memory limit (64 MiB by default) still ends a larger string, at load */
    int rc = open_env(&fx, "big = string.rep('x', 100 * 1024 * 1024)\nfunction reward() return 0 end\n");
    if (rc != RG_ENOMEM && rc != RG_ETIMEOUT)
        fail_msg("a 100 MiB string at load: %s (%s)", rg_error_name(rc), rg_error_last());
    close_env(&fx);
}

/* ---- the VM's `..` ---- */

static uint8_t ram[16];

typedef struct scen {
    rg_gamedata *gd;
    rg_scenario *sc;
} scen;

/* A scenario whose reward is the script's `reward`, reset; `var` (or NULL) a <u4 variable at address 0. */
static scen make(const char *source, const rg_script_limits *lim, const char *var)
{
    scen s;
    EXPECT_OK(rg_gamedata_create(&s.gd));
    rg_mem_block b = {0, sizeof ram, ram};
    EXPECT_OK(rg_gamedata_bind_blocks(s.gd, &b, 1, 1));
    if (var)
        EXPECT_OK(rg_gamedata_set_variable(s.gd, var, 0, "<u4", RG_MASK_ALL));
    EXPECT_OK(rg_scenario_create(&s.sc));
    if (lim)
        EXPECT_OK(rg_scenario_set_script_limits(s.sc, lim));
    EXPECT_OK(rg_scenario_add_script_source(s.sc, "concat", source));
    EXPECT_OK(rg_scenario_set_reward_script(s.sc, 0, "reward"));
    EXPECT_OK(rg_scenario_reset(s.sc, s.gd));
    return s;
}

static void drop(scen *s)
{
    rg_scenario_free(s->sc);
    rg_gamedata_free(s->gd);
}

/* One update: its code (with a message containing `needle`) and how long it took. */
static double expect_update(scen *s, int code, const char *needle)
{
    double t0 = now();
    int rc = rg_scenario_update(s->sc, s->gd);
    double took = now() - t0;
    if (rc != code || (needle && !strstr(rg_error_last(), needle)))
        fail_msg("rc %s (want %s) \"%s\" (want \"%s\")", rg_error_name(rc), rg_error_name(code),
                 rc ? rg_error_last() : "", needle ? needle : "");
    return took;
}

/* `s = s .. s` doubles until the memory limit; the same concatenation of a 10 MB string whose result already exists
 * (so nothing new is allocated: the VM copies into its buffer and finds the string) ends by the time budget, read
 * more often as the interpreter's heap grows; many operands at once too. Each stop is prompt and leaves the
 * interpreter working. */
static void concat_loops_end_promptly(void **state)
{
    (void)state;
    char src[1024];
    /* 1. doubling: the memory limit */
    snprintf(src, sizeof src, "function reward() local s = 'x' while true do s = s .. s end end");
    rg_script_limits lim = {.instructions = UINT64_MAX, .seconds = 30, .memory = 64u << 20};
    scen s = make(src, &lim, NULL);
    double took = expect_update(&s, RG_ENOMEM, "not enough memory");
    assert_true(took < 2.0);
    drop(&s);
    /* 2. the default budgets: doubling into a table ends too (memory or instructions) */
    snprintf(src, sizeof src, "t = {}\nfunction reward() local s = 'x' for i = 1, 60 do s = s .. s t[i] = s end "
                              "return 0 end");
    s = make(src, NULL, NULL);
    double t0 = now();
    int rc = rg_scenario_update(s.sc, s.gd);
    assert_true(rc == RG_ENOMEM || rc == RG_ETIMEOUT);
    assert_true(now() - t0 < 2.0);
    drop(&s);
    /* 3. copies that allocate nothing (the result exists already: the VM copies into its buffer and finds it):
     * only the time budget ends them, and it must do so promptly; then the interpreter works on (each script's
     * second call returns 7) */
    static const char *const copies[] = {
        "s = string.rep('a', 10 * 1024 * 1024)\nkeep = s .. s\n"
        "function reward() while true do local u = s .. s end end",
        "s = string.rep('a', 2 * 1024 * 1024)\nkeep = s .. s .. s .. s .. s .. s .. s .. s\n"
        "function reward() while true do local u = s .. s .. s .. s .. s .. s .. s .. s end end",
        "s = string.rep('a', 10 * 1024 * 1024)\nkeep = s .. 'x'\n"
        "function reward() for i = 1, 1e9 do local u = s .. 'x' end return 0 end",
        "function reward() local s = string.rep('a', 10 * 1024 * 1024) local k = s .. s\n"
        "  while true do local u = s .. s end end",
        "s = string.rep('a', 10 * 1024 * 1024)\nt = s .. ''\n" /* `<` compares the bytes of two equal strings */
        "function reward() while true do local u = s < t end end",
    };
    /* 1 s: the scripts' top level (a 10 MB string and its 20 MB copy) must fit it even on a loaded machine */
    lim = (rg_script_limits){.instructions = UINT64_MAX, .seconds = 1.0, .memory = 64u << 20};
    for (size_t i = 0; i < sizeof copies / sizeof *copies; i++) {
        snprintf(src, sizeof src, "calls = 0\n%s\nlocal loop = reward\n"
                                  "function reward() calls = calls + 1 if calls > 1 then return 7 end loop() end",
                 copies[i]);
        s = make(src, &lim, NULL);
        took = expect_update(&s, RG_ETIMEOUT, "time budget of 1 s");
        /* the overrun: one clock read's worth of copies, 1-10 ms here (0.43 s before the fix, whatever the
         * budget); the margin is for a loaded machine */
        if (took > 1.0 + 0.15)
            fail_msg("copy loop %zu ended after %.3f s on a 1 s budget", i, took);
        expect_update(&s, RG_OK, NULL);
        assert_true(rg_scenario_reward(s.sc, 0) == 7);
        drop(&s);
    }
    /* 4. with a large heap the clock is read more often, and the instruction budget still counts every
     * instruction: a loop of 2 x 1,900,000 instructions fits a budget of 4,000,000, one of 2 x 2,100,000 does not */
    lim = (rg_script_limits){.instructions = 4000000, .seconds = 30};
    snprintf(src, sizeof src, "big = string.rep('b', 3 * 1024 * 1024)\n"
                              "function reward() local x = 0 for i = 1, data.n do x = x + 1 end return x end");
    uint32_t n = 0;
    memcpy(ram, &n, 4);
    s = make(src, &lim, "n");
    n = 1900000;
    memcpy(ram, &n, 4);
    expect_update(&s, RG_OK, NULL);
    assert_true(rg_scenario_reward(s.sc, 0) == 1900000.0f);
    n = 2100000;
    memcpy(ram, &n, 4);
    expect_update(&s, RG_ETIMEOUT, "budget of 4000000 instructions");
    drop(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(large_globals_refused_small_ones_kept),
        cmocka_unit_test(growing_global_and_restore),
        cmocka_unit_test(concat_loops_end_promptly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
