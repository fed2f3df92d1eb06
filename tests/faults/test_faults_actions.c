/* A scenario with so many action groups that DISCRETE actions would number more than an int64 holds: an env in
 * DISCRETE mode is refused at creation with our error naming the limit (never a wrapped count), the counts say 0
 * rather than wrap, and MULTI_DISCRETE and ALL (MultiBinary) envs of the same game still work. */
#include "faults_util.h"

#include <retrogym/actions.h>

static char root[512];
static char dir[1024];
static size_t n_groups;

static int setup(void **state)
{
    (void)state;
    test_integration_dir("actions", "Test-Atari2600", "test.a26", root, sizeof root, dir, sizeof dir);
    test_write_text(dir, "data.json", "{\"info\": {\"byte\": {\"address\": 128, \"type\": \"|u1\"}}}");
    /* one group per pair and per triple of the system's buttons: [[], [a], [b]] and [[], [a], [b], [c]] */
    const rg_system_info *sys;
    EXPECT_OK(rg_system_find(&sys, "Atari2600"));
    const char *names[RG_MAX_BUTTONS];
    size_t n = 0;
    for (unsigned i = 0; i < sys->n_buttons; i++)
        if (sys->buttons[i])
            names[n++] = sys->buttons[i];
    assert_true(n >= 6);
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)snprintf(text + len, cap - len, "{\"reward\": {\"variables\": {\"byte\": {\"reward\": 1}}}, "
                                                    "\"actions\": [");
    n_groups = 0;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            len += (size_t)snprintf(text + len, cap - len, "%s[[], [\"%s\"], [\"%s\"]]", n_groups ? ", " : "",
                                    names[a], names[b]);
            n_groups++;
            for (size_t c = b + 1; c < n; c++, n_groups++)
                len += (size_t)snprintf(text + len, cap - len, ", [[], [\"%s\"], [\"%s\"], [\"%s\"]]", names[a],
                                        names[b], names[c]);
        }
    snprintf(text + len, cap - len, "]}");
    assert_true(len < cap - 8);
    test_write_text(dir, "scenario.json", text);
    free(text);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rg__remove_tree(root);
    return 0;
}

static int create(rg_env **env, rg_action_mode actions, unsigned players)
{
    rg_integration_paths *dp;
    EXPECT_OK(rg_integration_paths_create(&dp, root));
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "Test-Atari2600";
    o.paths = dp;
    o.core = "atari2600";
    o.actions = actions;
    o.players = players;
    o.log = test_quiet_log;
    int rc = rg_env_create(env, &o);
    rg_integration_paths_free(dp);
    return rc;
}

static void discrete_over_the_limit_refused(void **state)
{
    (void)state;
    rg_env *env = NULL;
    EXPECT(create(&env, RG_ACTIONS_DISCRETE, 1), RG_EINVAL, "more combinations than the limit of 9223372036854775807");
    assert_null(env);
    assert_non_null(strstr(rg_error_last(), "use MULTI_DISCRETE, FILTERED or ALL"));
    /* the other modes work, and the counts say 0 rather than wrap */
    EXPECT_OK(create(&env, RG_ACTIONS_MULTI_DISCRETE, 1));
    assert_int_equal(rg_actionset_group_count(rg_env_actionset(env)), n_groups);
    assert_true(n_groups >= 40);
    assert_int_equal(rg_actionset_discrete_count(rg_env_actionset(env)), 0);
    assert_int_equal(rg_env_discrete_count(env), 0);
    size_t len = rg_env_action_length(env), size = rg_env_obs_size(env);
    assert_int_equal(len, n_groups);
    uint8_t *obs = malloc(size);
    int64_t *action = calloc(len, sizeof *action);
    assert_non_null(obs);
    assert_non_null(action);
    EXPECT_OK(rg_env_reset(env, 1, 1, obs, size));
    action[len - 1] = 3;
    rg_step_result res;
    EXPECT_OK(rg_env_step(env, action, len, obs, size, &res));
    free(action);
    free(obs);
    rg_env_free(env);
    EXPECT_OK(create(&env, RG_ACTIONS_ALL, 1));
    rg_env_free(env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(discrete_over_the_limit_refused)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
