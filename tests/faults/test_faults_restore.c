/* A refused rg_env_restore leaves the environment exactly as it was: RAM, observation, the scripts' globals and the
 * rest of a snapshot taken before, and the next step. Three refusals on a real env (our Atari core, a Lua reward
 * script): a snapshot cut short in its scripts' part (read after the emulator's), one whose emulator bytes the core
 * refuses, and one whose game variables differ. */
#define _GNU_SOURCE /* memmem */
#include "faults_util.h"

static char root[512];
static char dir[1024];

static int setup(void **state)
{
    (void)state;
    test_integration_dir("restore", "Test-Atari2600", "test.a26", root, sizeof root, dir, sizeof dir);
    test_write_text(dir, "data.json", "{\"info\": {\"byte\": {\"address\": 0, \"type\": \"|u1\"}}}");
    test_write_text(dir, "scenario.json", "{\"scripts\": [\"script.lua\"], \"reward\": {\"script\": \"lua:reward\"}}");
    test_write_text(dir, "script.lua", "n = 0\nname = 'start'\nfunction reward() n = n + 1 name = 'at ' .. n "
                                       "return n end\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rg__remove_tree(root);
    return 0;
}

typedef struct env_fx {
    rg_integration_paths *dp;
    rg_env *env;
    uint8_t *obs;
    size_t obs_size;
} env_fx;

static void open_env(env_fx *fx)
{
    EXPECT_OK(rg_integration_paths_create(&fx->dp, root));
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "Test-Atari2600";
    o.paths = fx->dp;
    o.core = "atari2600";
    o.log = test_quiet_log;
    EXPECT_OK(rg_env_create(&fx->env, &o));
    fx->obs_size = rg_env_obs_size(fx->env);
    fx->obs = malloc(fx->obs_size);
    assert_non_null(fx->obs);
    EXPECT_OK(rg_env_reset(fx->env, 1, 7, fx->obs, fx->obs_size));
}

static void close_env(env_fx *fx)
{
    free(fx->obs);
    rg_env_free(fx->env);
    rg_integration_paths_free(fx->dp);
}

static void steps(env_fx *fx, unsigned n, unsigned salt)
{
    size_t len = rg_env_action_length(fx->env);
    int64_t action[64] = {0};
    assert_true(len <= 64);
    for (unsigned i = 0; i < n; i++) {
        for (size_t k = 0; k < len; k++)
            action[k] = (int64_t)((i * 7 + k * 3 + salt) % 2);
        rg_step_result res;
        EXPECT_OK(rg_env_step(fx->env, action, len, fx->obs, fx->obs_size, &res));
    }
}

static uint8_t *clone_of(rg_env *env, size_t *len)
{
    size_t cap;
    EXPECT_OK(rg_env_clone_size(env, &cap));
    uint8_t *buf = malloc(cap);
    assert_non_null(buf);
    EXPECT_OK(rg_env_clone(env, buf, cap, len));
    return buf;
}

/* What the user can see of the env now. */
typedef struct seen {
    uint64_t ram;
    uint8_t *obs;
    uint8_t *snap;
    size_t snap_len;
    rg_step_result next;
    uint8_t *next_obs;
} seen;

/* RAM, observation and full snapshot now; then one step (whose result is kept), undone by restoring the snapshot. */
static seen look(env_fx *fx)
{
    seen s;
    s.ram = test_ram_hash(rg_env_emu(fx->env));
    s.obs = malloc(fx->obs_size);
    assert_non_null(s.obs);
    EXPECT_OK(rg_env_observe(fx->env, s.obs, fx->obs_size));
    s.snap = clone_of(fx->env, &s.snap_len);
    size_t len = rg_env_action_length(fx->env);
    int64_t action[64] = {0};
    action[0] = 1;
    s.next_obs = malloc(fx->obs_size);
    assert_non_null(s.next_obs);
    EXPECT_OK(rg_env_step(fx->env, action, len, s.next_obs, fx->obs_size, &s.next));
    EXPECT_OK(rg_env_restore(fx->env, s.snap, s.snap_len));
    return s;
}

static void forget(seen *s)
{
    free(s->obs);
    free(s->snap);
    free(s->next_obs);
}

static void expect_same(const seen *a, const seen *b, size_t obs_size, const char *what)
{
    if (a->ram != b->ram)
        fail_msg("%s changed the RAM", what);
    if (memcmp(a->obs, b->obs, obs_size) != 0)
        fail_msg("%s changed the observation", what);
    if (a->snap_len != b->snap_len || memcmp(a->snap, b->snap, a->snap_len) != 0)
        fail_msg("%s changed the environment's state (snapshot of %zu bytes, then %zu)", what, a->snap_len,
                 b->snap_len);
    if (memcmp(a->next_obs, b->next_obs, obs_size) != 0 || memcmp(a->next.rewards, b->next.rewards, sizeof a->next.rewards) != 0 ||
        a->next.terminated != b->next.terminated || a->next.truncated != b->next.truncated)
        fail_msg("%s changed the next step", what);
}

/* Restoring bad (len bytes) is refused with `code` and leaves fx's env as it was. */
static void refused_leaves_all(env_fx *fx, const uint8_t *bad, size_t len, int code, const char *what)
{
    seen before = look(fx);
    int rc = rg_env_restore(fx->env, bad, len);
    if (rc != code)
        fail_msg("%s: restore gave %s (%s), expected %s", what, rg_error_name(rc), rg_error_last(),
                 rg_error_name(code));
    seen after = look(fx);
    expect_same(&before, &after, fx->obs_size, what);
    forget(&before);
    forget(&after);
}

static void refused_restore_changes_nothing(void **state)
{
    (void)state;
    env_fx fx;
    open_env(&fx);
    steps(&fx, 5, 0);
    size_t old_len;
    uint8_t *old = clone_of(fx.env, &old_len);
    uint64_t old_ram = test_ram_hash(rg_env_emu(fx.env));
    size_t emu_len;
    EXPECT_OK(rg_emu_state_size(rg_env_emu(fx.env), &emu_len));
    uint8_t *emu = malloc(emu_len);
    assert_non_null(emu);
    EXPECT_OK(rg_emu_state_save(rg_env_emu(fx.env), emu, emu_len, &emu_len));
    steps(&fx, 40, 1);
    /* the env has moved on: a restore that went through would show */
    assert_true(test_ram_hash(rg_env_emu(fx.env)) != old_ram);

    /* 1. cut short in the scripts' part, after the emulator's bytes */
    refused_leaves_all(&fx, old, old_len - 1, RG_ECORRUPT, "a snapshot cut short");

    /* 2. emulator bytes the core refuses (its header damaged) */
    uint8_t *bad = malloc(old_len);
    assert_non_null(bad);
    memcpy(bad, old, old_len);
    uint8_t *at = memmem(bad, old_len, emu, emu_len);
    assert_non_null(at);
    memset(at, 0xA5, emu_len < 64 ? emu_len : 64);
    refused_leaves_all(&fx, bad, old_len, RG_ESTATE, "damaged emulator bytes");

    /* 3. the game variables differ (the variable's name in the game layer's part changed) */
    memcpy(bad, old, old_len);
    uint8_t *var = memmem(bad + (at - bad) + emu_len, old_len - (size_t)(at - bad) - emu_len, "byte", 4);
    assert_non_null(var);
    var[0] = 'B';
    refused_leaves_all(&fx, bad, old_len, RG_ECORRUPT, "other game variables");

    /* the snapshot itself still restores, and then the RAM is the old one */
    EXPECT_OK(rg_env_restore(fx.env, old, old_len));
    assert_true(test_ram_hash(rg_env_emu(fx.env)) == old_ram);
    free(bad);
    free(emu);
    free(old);
    close_env(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(refused_restore_changes_nothing)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
