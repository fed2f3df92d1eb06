#define _POSIX_C_SOURCE 200809L
/* The Lua sandbox against hostile scripts (issue 16): patterns that would overflow the matcher's recursion, work
 * inside one library call that the instruction hook cannot see, the scripts' own random generator (seeded, and
 * replayed by a restore), custom-variable memory given back by a restore, and script paths kept in the game
 * folder. Budgets are set small so every test takes well under a second. */
#include "test_support.h"

#include "game/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint8_t ram[32];

typedef struct fixture {
    rg_gamedata *gd;
    rg_scenario *sc;
} fixture;

static fixture make(const char *source, const char *reward)
{
    fixture f;
    assert_int_equal(rg_gamedata_create(&f.gd), RG_OK);
    rg_mem_block b = {0x10, sizeof ram, ram};
    assert_int_equal(rg_gamedata_bind_blocks(f.gd, &b, 1, 1), RG_OK);
    memset(ram, 0, sizeof ram);
    assert_int_equal(rg_gamedata_set_variable(f.gd, "foo", 0x10, "|u1", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_scenario_create(&f.sc), RG_OK);
    assert_int_equal(rg_scenario_add_script_source(f.sc, "test", source), RG_OK);
    if (reward)
        assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, reward), RG_OK);
    return f;
}

static void drop(fixture *f)
{
    rg_scenario_free(f->sc);
    rg_gamedata_free(f->gd);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One call of `reward` in a fresh scenario: its code, its error message checked to contain `needle`. */
static void expect_call(const char *source, const rg_script_limits *lim, int code, const char *needle)
{
    fixture f = make(source, "reward");
    if (lim)
        assert_int_equal(rg_scenario_set_script_limits(f.sc, lim), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    double t0 = now();
    int rc = rg_scenario_update(f.sc, f.gd);
    if (rc != code || (needle && !strstr(rg_error_last(), needle)))
        fail_msg("%s\n  rc %d (want %d) \"%s\" (want \"%s\")", source, rc, code, rc ? rg_error_last() : "",
                 needle ? needle : "");
    assert_true(now() - t0 < 2.0);
    drop(&f);
}

/* Patterns with thousands of quantifiers crashed the process (C stack overflow in the matcher on an empty
 * subject); they are refused before matching, while patterns up to the limit still match. */
static void pattern_bombs_refused(void **state)
{
    (void)state;
    static const char *const bombs[] = {
        "function reward() return string.find('', string.rep('a*', 100000)) or 0 end",
        "function reward() return string.find('', string.rep('.*', 100000)) or 0 end",
        "function reward() return string.find('', string.rep('a-', 100000)) or 0 end",
        "function reward() return string.match('', string.rep('a?', 100000)) and 1 or 0 end",
        "function reward() return select(2, string.gsub('', string.rep('a*', 100000), '')) end",
        "function reward() for _ in string.gmatch('', string.rep('%a+', 100000)) do end return 0 end",
        "function reward() return ('x'):find(string.rep('()', 100000)) or 0 end",
        "function reward() return string.find('', string.rep('[a]*', 201)) or 0 end",
    };
    for (size_t i = 0; i < sizeof bombs / sizeof *bombs; i++)
        expect_call(bombs[i], NULL, RG_ECORRUPT, "pattern too complex");
    /* up to 200 items, long literal runs and plain finds are fine */
    expect_call("function reward() return string.find('', string.rep('a*', 200)) end", NULL, RG_OK, NULL);
    expect_call("function reward() return select('#', string.match('', string.rep('(a*)', 32))) end", NULL,
                RG_OK, NULL);
    expect_call("function reward() return string.find('xy', string.rep('x', 5000) .. 'y') or 3 end", NULL, RG_OK,
                NULL);
    expect_call("function reward() return string.find('', string.rep('a*', 1000), 1, true) or 0 end", NULL, RG_OK,
                NULL);
    /* the error is an ordinary Lua error: pcall catches it and the interpreter goes on */
    fixture f = make("function reward() local ok, e = pcall(string.find, '', string.rep('a*', 300))\n"
                     "  return (not ok and e:find('too complex', 1, true)) and 5 or 0 end",
                     "reward");
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    assert_true(rg_scenario_reward(f.sc, 0) == 5);
    drop(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pattern_bombs_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
