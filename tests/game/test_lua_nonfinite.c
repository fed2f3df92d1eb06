#define _POSIX_C_SOURCE 200809L
/* A Lua reward or done function that returns NaN or an infinity (0/0, 1/0, -1/0, or a number past the float range
 * for a reward) fails the step with an error naming the function; the scenario keeps the values of the last good
 * step, and a later step with a finite result goes on. */
#include "test_support.h"

#include <string.h>

static uint8_t ram[4];

typedef struct fixture {
    rg_gamedata *gd;
    rg_scenario *sc;
} fixture;

/* data.foo picks what the scripts return: 0 a finite value, 1 NaN, 2 inf, 3 -inf, 4 1e300, 5 1e39 (double, not float). */
static const char SOURCE[] = "local bad = {0/0, 1/0, -1/0, 1e300, 1e39}\n"
                             "function rew() if data.foo == 0 then return 5 end return bad[data.foo] end\n"
                             "function fin() if data.foo == 0 then return false end return bad[data.foo] end\n";

static fixture make(int with_done)
{
    fixture f;
    assert_int_equal(rg_gamedata_create(&f.gd), RG_OK);
    rg_mem_block b = {0x10, sizeof ram, ram};
    assert_int_equal(rg_gamedata_bind_blocks(f.gd, &b, 1, 1), RG_OK);
    memset(ram, 0, sizeof ram);
    assert_int_equal(rg_gamedata_set_variable(f.gd, "foo", 0x10, "|u1", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_scenario_create(&f.sc), RG_OK);
    assert_int_equal(rg_scenario_add_script_source(f.sc, "test", SOURCE), RG_OK);
    assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "lua:rew"), RG_OK);
    if (with_done)
        assert_int_equal(rg_scenario_set_done_script(f.sc, "fin"), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    return f;
}

static void drop(fixture *f)
{
    rg_scenario_free(f->sc);
    rg_gamedata_free(f->gd);
}

static void expect_refused(fixture *f, uint8_t which, const char *message)
{
    ram[0] = which;
    int rc = rg_scenario_update(f->sc, f->gd);
    if (rc != RG_ECORRUPT || !strstr(rg_error_last(), message))
        fail_msg("foo=%u: rc %d, \"%s\" (wanted \"%s\")", which, rc, rg_error_last(), message);
    /* nothing of the refused step is kept */
    assert_true(rg_scenario_reward(f->sc, 0) == 5.0f);
    assert_true(rg_scenario_total_reward(f->sc, 0) == 5.0f);
    assert_int_equal(rg_scenario_frame(f->sc), 1);
    assert_int_equal(rg_scenario_done(f->sc), 0);
}

static void non_finite_rewards_are_errors(void **state)
{
    (void)state;
    fixture f = make(0);
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    assert_true(rg_scenario_reward(f.sc, 0) == 5.0f);
    expect_refused(&f, 1, "reward script \"rew\" returned NaN");
    expect_refused(&f, 2, "reward script \"rew\" returned inf");
    expect_refused(&f, 3, "reward script \"rew\" returned -inf");
    expect_refused(&f, 4, "reward script \"rew\" returned 1e+300, outside the range of a float");
    expect_refused(&f, 5, "reward script \"rew\" returned 1e+39, outside the range of a float");
    /* the scenario goes on once the script returns a finite number again */
    ram[0] = 0;
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    assert_true(rg_scenario_total_reward(f.sc, 0) == 10.0f);
    drop(&f);
}

static void non_finite_done_is_an_error(void **state)
{
    (void)state;
    fixture f = make(1);
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    expect_refused(&f, 1, "done script \"fin\" returned NaN");
    expect_refused(&f, 2, "done script \"fin\" returned inf");
    expect_refused(&f, 3, "done script \"fin\" returned -inf");
    /* a large finite number is a true done value, as any non-zero number is */
    ram[0] = 4;
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_ECORRUPT); /* the reward (1e300) is refused */
    assert_non_null(strstr(rg_error_last(), "reward script \"rew\""));
    drop(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(non_finite_rewards_are_errors),
        cmocka_unit_test(non_finite_done_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
