#define _POSIX_C_SOURCE 200809L
/* Lua scenario scripts (docs/formats.md, "Lua scripts"): the data and scenario globals, custom variables, call
 * order, reloading on reset, and the sandbox: no escape to files or the process, runaway loops and memory bombs end
 * with an error. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint8_t ram[32];

typedef struct fixture {
    rg_gamedata *gd;
    rg_scenario *sc;
} fixture;

static fixture make(const char *source)
{
    fixture f;
    assert_int_equal(rg_gamedata_create(&f.gd), RG_OK);
    rg_mem_block b = {0x10, sizeof ram, ram};
    assert_int_equal(rg_gamedata_bind_blocks(f.gd, &b, 1, 1), RG_OK);
    memset(ram, 0, sizeof ram);
    assert_int_equal(rg_gamedata_set_variable(f.gd, "foo", 0x10, "|u1", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(f.gd, "score", 0x11, ">d2", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_scenario_create(&f.sc), RG_OK);
    if (source)
        assert_int_equal(rg_scenario_add_script_source(f.sc, "test", source), RG_OK);
    return f;
}

static void drop(fixture *f)
{
    rg_scenario_free(f->sc);
    rg_gamedata_free(f->gd);
}

static double custom_number(rg_gamedata *gd, const char *name)
{
    rg_value v;
    if (rg_gamedata_custom_get(gd, name, &v) != RG_OK)
        fail_msg("custom %s: %s", name, rg_error_last());
    return v.number;
}

static void reads_track_ram(void **state)
{
    (void)state;
    fixture f = make("function reward() return data.foo end\nfunction done() return data.foo == 63 end\n");
    assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "lua:reward"), RG_OK);
    assert_int_equal(rg_scenario_set_done_script(f.sc, "done"), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    for (unsigned i = 0; i < 64; i++) {
        ram[0] = (uint8_t)i;
        assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
        assert_true(rg_scenario_reward(f.sc, 0) == (float)i);
        assert_int_equal(rg_scenario_done(f.sc), i == 63);
    }
    drop(&f);
}

static void writes_and_custom_variables(void **state)
{
    (void)state;
    fixture f = make("function step()\n"
                     "  data.foo = 2\n"
                     "  data.score = 1234.9\n"
                     "  data.flag = true\n"
                     "  data.count = (data.count or 0) + 1\n"
                     "  data[7] = 5\n"
                     "  return data[0x11]\n"
                     "end\n"
                     "data.count = 10\n");
    assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "step"), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    assert_int_equal(ram[0], 2);
    assert_int_equal(ram[1], 0x12);
    assert_int_equal(ram[2], 0x34);
    assert_true(rg_scenario_reward(f.sc, 0) == 0x12); /* data[addr] reads a byte */
    rg_value v;
    assert_int_equal(rg_gamedata_custom_get(f.gd, "flag", &v), RG_OK);
    assert_int_equal(v.kind, RG_VALUE_BOOL);
    assert_true(custom_number(f.gd, "count") == 11);
    assert_true(custom_number(f.gd, "7") == 5); /* numeric names are coerced, as in Gym Retro */
    /* reset: custom variables cleared, then the script's top level runs again */
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    assert_int_equal(rg_gamedata_custom_get(f.gd, "flag", &v), RG_ENOTFOUND);
    assert_true(custom_number(f.gd, "count") == 10);
    drop(&f);
}

static void call_order_and_frames(void **state)
{
    (void)state;
    fixture f = make("order = 0\n"
                     "function d() order = order * 10 + 1; return false end\n"
                     "function r0() order = order * 10 + 2; data.order = order; return scenario.frame end\n"
                     "function r1() order = order * 10 + 3; data.order = order; return scenario.timestep end\n");
    assert_int_equal(rg_scenario_set_done_script(f.sc, "d"), RG_OK);
    assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "r0"), RG_OK);
    assert_int_equal(rg_scenario_set_reward_script(f.sc, 1, "r1"), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    assert_true(custom_number(f.gd, "order") == 123);
    for (int i = 0; i < 8; i++)
        assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    assert_true(rg_scenario_reward(f.sc, 0) == 8);
    assert_true(rg_scenario_reward(f.sc, 1) == 2);
    assert_int_equal(rg_scenario_frame(f.sc), 9);
    drop(&f);
}

static void script_errors(void **state)
{
    (void)state;
    static const struct { const char *source; const char *message; } cases[] = {
        {"function r() return data.nope end", "Unknown variable: nope"},
        {"function r() return data[-1] end", "Out of bounds access"},
        {"function r() return data[0x1000] end", "Out of bounds access"},
        {"function r() data.x = {} end", "Invalid variable type"},
        {"function r() data[{}] = 1 end", "Invalid variable name"},
        {"function r() return scenario.nope end", "Unknown scenario property"},
        {"function r() error('boom') end", "boom"},
        {"function r() return nil + 1 end", "arithmetic"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fixture f = make(cases[i].source);
        assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "r"), RG_OK);
        assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
        int rc = rg_scenario_update(f.sc, f.gd);
        if (rc != RG_ECORRUPT || !strstr(rg_error_last(), cases[i].message) ||
            !strstr(rg_error_last(), "Lua call failed"))
            fail_msg("case %zu: rc %d, \"%s\"", i, rc, rg_error_last());
        drop(&f);
    }
    /* a function that does not exist */
    fixture f = make("x = 1");
    assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "missing"), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_ENOTFOUND);
    drop(&f);
    /* a syntax error fails the reset that loads it */
    f = make("function (");
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_ECORRUPT);
    drop(&f);
    /* other languages */
    f = make(NULL);
    assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "python:r"), RG_ECORRUPT);
    drop(&f);
}

/* Nothing outside base/table/string/math is reachable, nor can bytecode be produced or loaded. */
static void sandbox(void **state)
{
    (void)state;
    fixture f = make("function probe()\n"
                     "  local reach = {io, os, require, dofile, loadfile, load, loadstring, debug, package,\n"
                     "                 string.dump, getfenv, setfenv, newproxy, collectgarbage, module,\n"
                     "                 coroutine and coroutine.create, coroutine and coroutine.wrap}\n"
                     "  for k = 1, 17 do if reach[k] ~= nil then return k end end\n"
                     "  if getmetatable(data) ~= false then return 100 end\n"
                     "  if pcall(setmetatable, data, {}) then return 101 end\n"
                     "  if getmetatable('').__index ~= string then return 102 end\n"
                     "  return 0\n"
                     "end\n");
    assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "probe"), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    if (rg_scenario_reward(f.sc, 0) != 0)
        fail_msg("sandbox hole %g", (double)rg_scenario_reward(f.sc, 0));
    drop(&f);
    /* a precompiled chunk is refused */
    char path[512];
    snprintf(path, sizeof path, "%s/bytecode.lua", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    FILE *out = fopen(path, "wb");
    assert_non_null(out);
    fputs("\033Lua\x51\x00\x01\x04\x08\x04\x08\x00", out);
    fclose(out);
    f = make(NULL);
    assert_int_equal(rg_scenario_add_script_file(f.sc, path), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_ECORRUPT);
    assert_non_null(strstr(rg_error_last(), "bytecode"));
    drop(&f);
    remove(path);
    /* a missing script file */
    f = make(NULL);
    assert_int_equal(rg_scenario_add_script_file(f.sc, "/nonexistent/script.lua"), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_ENOTFOUND);
    drop(&f);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runaway loops end with RG_ETIMEOUT within the limits, and the interpreter keeps working afterwards. */
static void runaway_scripts_end(void **state)
{
    (void)state;
    fixture f = make("n = 0\nfunction spin() n = n + 1; if n == 1 then while true do end end return 7 end\n"
                     "function spin_pcall() while true do pcall(function() while true do end end) end end\n");
    rg_script_limits lim = {.instructions = 2000000, .seconds = 5};
    assert_int_equal(rg_scenario_set_script_limits(f.sc, &lim), RG_OK);
    assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "spin"), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    double t0 = now();
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_ETIMEOUT);
    assert_non_null(strstr(rg_error_last(), "instructions"));
    assert_true(now() - t0 < 5);
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    assert_true(rg_scenario_reward(f.sc, 0) == 7);
    /* pcall cannot swallow the budget for good: the outer loop keeps counting */
    assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "spin_pcall"), RG_OK);
    t0 = now();
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_ETIMEOUT);
    assert_true(now() - t0 < 5);
    drop(&f);
    /* the time limit: a loop of expensive C calls */
    f = make("function slow() local s = string.rep('x', 100000) while true do s:find('y') end end\n");
    lim = (rg_script_limits){.instructions = UINT64_MAX, .seconds = 0.3};
    assert_int_equal(rg_scenario_set_script_limits(f.sc, &lim), RG_OK);
    assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "slow"), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    t0 = now();
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_ETIMEOUT);
    assert_non_null(strstr(rg_error_last(), "time"));
    assert_true(now() - t0 < 3);
    drop(&f);
    /* a runaway top level fails the reset */
    f = make("while true do end");
    lim = (rg_script_limits){.instructions = 1000000};
    assert_int_equal(rg_scenario_set_script_limits(f.sc, &lim), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_ETIMEOUT);
    drop(&f);
}

static void memory_bombs_end(void **state)
{
    (void)state;
    static const char *const bombs[] = {
        "function r() local t = {} while true do t[#t + 1] = string.rep('x', 1000000) .. #t end end",
        "function r() return #string.rep('x', 2000000000) end",
        "function r() local s = 'x' while true do s = s .. s end end",
    };
    for (size_t i = 0; i < sizeof bombs / sizeof *bombs; i++) {
        fixture f = make(bombs[i]);
        rg_script_limits lim = {.memory = 16u << 20};
        assert_int_equal(rg_scenario_set_script_limits(f.sc, &lim), RG_OK);
        assert_int_equal(rg_scenario_set_reward_script(f.sc, 0, "r"), RG_OK);
        assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
        int rc = rg_scenario_update(f.sc, f.gd);
        if (rc != RG_ENOMEM)
            fail_msg("bomb %zu: rc %d \"%s\"", i, rc, rg_error_last());
        drop(&f);
    }
}

/* Reward and done terms may name custom variables set by scripts or callers (Gym Retro's lookupValue finds them
 * too): absolute values count, deltas are 0; a name that exists nowhere is RG_ENOTFOUND. */
static void scenario_terms_on_custom_variables(void **state)
{
    (void)state;
    fixture f = make("data.progress = 5\ndata.finished = false\n");
    const char *json = "{\"reward\": {\"variables\": {\"progress\": {\"measurement\": \"absolute\", \"reward\": 1},"
                       " \"speed\": {\"reward\": 1}}}, \"done\": {\"variables\": {\"finished\": {\"op\": \"nonzero\"}}}}";
    assert_int_equal(rg_scenario_load_string(f.sc, json, strlen(json), NULL, RG_LOAD_STRICT), RG_OK);
    assert_int_equal(rg_scenario_add_script_source(f.sc, "t", "data.progress = 5\ndata.finished = false\n"
                                                              "data.speed = 3\n"),
                     RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    assert_true(rg_scenario_reward(f.sc, 0) == 5); /* absolute 5, speed's delta 0 */
    assert_int_equal(rg_scenario_done(f.sc), 0);
    assert_int_equal(rg_gamedata_custom_set(f.gd, "finished", (rg_value){RG_VALUE_BOOL, 1}), RG_OK);
    assert_int_equal(rg_gamedata_custom_set(f.gd, "speed", (rg_value){RG_VALUE_NUMBER, 40}), RG_OK);
    assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    assert_true(rg_scenario_reward(f.sc, 0) == 5);
    assert_int_equal(rg_scenario_done(f.sc), 1);
    /* after a reset without the script defining them, the names exist nowhere */
    rg_scenario *bare;
    assert_int_equal(rg_scenario_create(&bare), RG_OK);
    assert_int_equal(rg_scenario_load_string(bare, json, strlen(json), NULL, RG_LOAD_STRICT), RG_OK);
    assert_int_equal(rg_scenario_reset(bare, f.gd), RG_OK);
    assert_int_equal(rg_scenario_update(bare, f.gd), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "not defined"));
    rg_scenario_free(bare);
    drop(&f);
}

/* Two scenarios never share an interpreter. */
static void interpreters_are_private(void **state)
{
    (void)state;
    fixture a = make("shared = 1\nfunction r() shared = shared + 1; return shared end\n");
    fixture b = make("function r() return shared or -1 end\n");
    assert_int_equal(rg_scenario_set_reward_script(a.sc, 0, "r"), RG_OK);
    assert_int_equal(rg_scenario_set_reward_script(b.sc, 0, "r"), RG_OK);
    assert_int_equal(rg_scenario_reset(a.sc, a.gd), RG_OK);
    assert_int_equal(rg_scenario_reset(b.sc, b.gd), RG_OK);
    assert_int_equal(rg_scenario_update(a.sc, a.gd), RG_OK);
    assert_int_equal(rg_scenario_update(b.sc, b.gd), RG_OK);
    assert_true(rg_scenario_reward(a.sc, 0) == 2);
    assert_true(rg_scenario_reward(b.sc, 0) == -1);
    drop(&a);
    drop(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_track_ram),     cmocka_unit_test(writes_and_custom_variables),
        cmocka_unit_test(call_order_and_frames), cmocka_unit_test(script_errors),
        cmocka_unit_test(sandbox),             cmocka_unit_test(runaway_scripts_end),
        cmocka_unit_test(memory_bombs_end),    cmocka_unit_test(interpreters_are_private),
        cmocka_unit_test(scenario_terms_on_custom_variables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
