#define _POSIX_C_SOURCE 200809L
/* The Lua sandbox against hostile scripts (issue 16): patterns that would overflow the matcher's recursion, work
 * inside one library call that the instruction hook cannot see, the scripts' own random generator (seeded, and
 * replayed by a restore), custom-variable memory given back by a restore, and script paths kept in the game
 * folder. Budgets are set small so every test takes well under a second. */
#include "test_support.h"

#include "game/snapshot.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
    if (rg_scenario_reset(f.sc, f.gd) != RG_OK)
        fail_msg("%s\n  reset: %s", source, rg_error_last());
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

/* Work inside one library call was invisible to the count hook: sorts, shifts, concatenations and walks of large
 * tables in a loop ran for minutes. Each is now charged by its input (and the comparisons of a sort as they
 * happen), so a small instruction budget ends every one of these quickly. */
static void library_calls_charged(void **state)
{
    (void)state;
    static const char *const loops[] = {
        "t = {} for i = 1, 20000 do t[i] = (i * 7919) % 10007 end\n"
        "function reward() while true do table.sort(t) end end",
        "t = {} for i = 1, 20000 do t[i] = (i * 7919) % 10007 end\n"
        "function reward() for k = 1, 50 do table.sort(t, function(a, b) return a > b end) end return 0 end",
        "t = {} for i = 1, 20000 do t[i] = i end\n"
        "function reward() while true do table.sort(t, rawequal) end end",
        "t = {} for i = 1, 20000 do t[i] = i end\n"
        "function reward() while true do table.insert(t, 1, 0) table.remove(t, 1) end end",
        "t = {} for i = 1, 20000 do t[i] = 'ab' end\n"
        "function reward() while true do local s = table.concat(t) end end",
        "t = {} for i = 1, 20000 do t[i * 2] = i end\n"
        "function reward() while true do table.maxn(t) end end",
        "t = {} for i = 1, 20000 do t['k' .. i] = i end\n"
        "function reward() while true do table.foreach(t, rawequal) end end",
        "t = {} for i = 1, 20000 do t[i] = i end\n"
        "function reward() while true do table.foreachi(t, rawequal) end end",
        "s = string.rep('a', 200000) u = s:sub(1, -2)\n"
        "function reward() while true do local v = s:sub(1, -2) local w = s:upper() end end",
        "function reward() local s = string.rep('ab', 100000) while true do local v = string.format('%s%s', s, s) end end",
    };
    rg_script_limits lim = {.instructions = 1000000, .seconds = 30};
    for (size_t i = 0; i < sizeof loops / sizeof *loops; i++)
        expect_call(loops[i], &lim, RG_ETIMEOUT, "instructions");
    /* the time budget holds too when the instruction budget is unlimited */
    lim = (rg_script_limits){.instructions = UINT64_MAX, .seconds = 0.2};
    expect_call(loops[0], &lim, RG_ETIMEOUT, "time budget");
    expect_call(loops[3], &lim, RG_ETIMEOUT, "time budget");
    /* a single call whose work cannot fit the budget is refused before it runs (Lua 5.1 moves 10^9 nils here) */
    expect_call("function reward() table.insert({1, 2, 3}, -1e9, 0) return 0 end", NULL, RG_ETIMEOUT, "table.insert");
    /* and the functions still do what they do */
    expect_call("function reward()\n"
                "  local t = {5, 3, 9, 1} table.sort(t) local u = {5, 3, 9, 1} table.sort(u, function(a, b) return a > b end)\n"
                "  table.insert(t, 1, 0) table.insert(t, 7) local r = table.remove(t, 1)\n"
                "  local seen = 0 table.foreach({a = 1, b = 2}, function(k, v) seen = seen + v end)\n"
                "  local first = table.foreach({x = 4}, function(k, v) return v end)\n"
                "  if table.concat(t, ',') ~= '1,3,5,9,7' or table.concat(u, '', 2, 3) ~= '53' or r ~= 0 then return 1 end\n"
                "  if table.maxn({[3] = 1, [7.5] = 2, x = 3}) ~= 7.5 or seen ~= 3 or first ~= 4 then return 2 end\n"
                "  if ('abc'):sub(2) ~= 'bc' or ('abc'):upper() ~= 'ABC' or string.format('%d-%s', 4, 'x') ~= '4-x' then return 3 end\n"
                "  if not pcall(table.sort, {1, 'x'}) == false then return 4 end\n"
                "  return 0 end",
                NULL, RG_OK, NULL);
}

/* The gamedata and scenario parts of an env snapshot (what rg_env_clone writes for them). */
static uint8_t *snapshot(const fixture *f, size_t *len)
{
    rg__wbuf count = {NULL, 0, 0, 0};
    rg__gamedata_snapshot(f->gd, &count);
    rg__scenario_snapshot(f->sc, &count);
    uint8_t *buf = malloc(count.len);
    assert_non_null(buf);
    rg__wbuf w = {buf, 0, count.len, 0};
    rg__gamedata_snapshot(f->gd, &w);
    rg__scenario_snapshot(f->sc, &w);
    assert_false(w.overflow);
    *len = w.len;
    return buf;
}

static void restore(fixture *f, const uint8_t *buf, size_t len)
{
    rg__rbuf r = {buf, len, 0, 0};
    assert_int_equal(rg__gamedata_restore(f->gd, &r), RG_OK);
    assert_int_equal(rg__scenario_restore(f->sc, f->gd, &r), RG_OK);
}

static void draws(fixture *f, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(rg_scenario_update(f->sc, f->gd), RG_OK);
        out[i] = rg_scenario_reward(f->sc, 0);
    }
}

/* math.random was C's rand(), shared by the process: streams changed with other environments and threads, and a
 * restore did not replay them. Each interpreter now has its own generator, seeded by the env's reset seed,
 * advanced per episode and kept in snapshots. */
static void random_is_private_seeded_and_restored(void **state)
{
    (void)state;
    const char *src = "first = math.random(1000000)\nfunction reward() return math.random(1000000) + first * 0 end";
    fixture a = make(src, "reward"), b = make(src, "reward"), c = make(src, "reward");
    fixture noise = make("function reward() for i = 1, 100 do math.random() end return 0 end", "reward");
    rg__scenario_seed(a.sc, 7);
    rg__scenario_seed(b.sc, 7);
    rg__scenario_seed(c.sc, 8);
    assert_int_equal(rg_scenario_reset(a.sc, a.gd), RG_OK);
    assert_int_equal(rg_scenario_reset(b.sc, b.gd), RG_OK);
    assert_int_equal(rg_scenario_reset(c.sc, c.gd), RG_OK);
    assert_int_equal(rg_scenario_reset(noise.sc, noise.gd), RG_OK);
    float ra[8], rb[8], rc[8], tmp[1];
    for (size_t i = 0; i < 8; i++) { /* another interpreter drawing in between changes nothing */
        draws(&a, &ra[i], 1);
        draws(&noise, tmp, 1);
        draws(&b, &rb[i], 1);
    }
    draws(&c, rc, 8);
    assert_memory_equal(ra, rb, sizeof ra);
    assert_memory_not_equal(ra, rc, sizeof ra);
    /* an unseeded reset starts another stream; seeding again repeats the first */
    float again[8];
    assert_int_equal(rg_scenario_reset(a.sc, a.gd), RG_OK);
    draws(&a, again, 8);
    assert_memory_not_equal(ra, again, sizeof ra);
    rg__scenario_seed(a.sc, 7);
    assert_int_equal(rg_scenario_reset(a.sc, a.gd), RG_OK);
    draws(&a, again, 8);
    assert_memory_equal(ra, again, sizeof ra);
    /* a restore replays the draws after the snapshot, and the next reset's stream too */
    rg__scenario_seed(a.sc, 7);
    assert_int_equal(rg_scenario_reset(a.sc, a.gd), RG_OK);
    draws(&a, again, 3);
    size_t len;
    uint8_t *snap = snapshot(&a, &len);
    float tail[5], replay[5], next_episode[4], next_replay[4];
    draws(&a, tail, 5);
    assert_memory_equal(tail, ra + 3, sizeof tail);
    assert_int_equal(rg_scenario_reset(a.sc, a.gd), RG_OK);
    draws(&a, next_episode, 4);
    restore(&a, snap, len);
    draws(&a, replay, 5);
    assert_memory_equal(tail, replay, sizeof tail);
    assert_int_equal(rg_scenario_reset(a.sc, a.gd), RG_OK);
    draws(&a, next_replay, 4);
    assert_memory_equal(next_episode, next_replay, sizeof next_episode);
    /* into another scenario of the same game (its interpreter made by the restore) */
    restore(&c, snap, len);
    draws(&c, replay, 5);
    assert_memory_equal(tail, replay, sizeof tail);
    free(snap);
    drop(&a);
    drop(&b);
    drop(&c);
    drop(&noise);
    /* Lua 5.1's arguments and ranges; randomseed gives the same draws in any interpreter */
    expect_call("function reward()\n"
                "  local seen = {}\n"
                "  for i = 1, 300 do\n"
                "    local x, k, m = math.random(), math.random(3), math.random(-2, 2)\n"
                "    if x < 0 or x >= 1 or k < 1 or k > 3 or k % 1 ~= 0 or m < -2 or m > 2 or m % 1 ~= 0 then return 1 end\n"
                "    seen[k] = true seen[m + 10] = true\n"
                "  end\n"
                "  for _, v in ipairs({1, 2, 3, 8, 9, 10, 11, 12}) do if not seen[v] then return 2 end end\n"
                "  if pcall(math.random, 0) or pcall(math.random, 3, 2) or pcall(math.random, 1, 2, 3) then return 3 end\n"
                "  if not select(2, pcall(math.random, 0)):find('interval is empty', 1, true) then return 4 end\n"
                "  return 0 end",
                NULL, RG_OK, NULL);
    fixture d = make("function reward() math.randomseed(42) return math.random(1000000) end", "reward");
    fixture e = make("function reward() math.randomseed(42) return math.random(1000000) end", "reward");
    rg__scenario_seed(d.sc, 1);
    rg__scenario_seed(e.sc, 2);
    assert_int_equal(rg_scenario_reset(d.sc, d.gd), RG_OK);
    assert_int_equal(rg_scenario_reset(e.sc, e.gd), RG_OK);
    draws(&d, ra, 1);
    draws(&e, rb, 1);
    assert_true(ra[0] == rb[0]);
    drop(&d);
    drop(&e);
}

/* Custom variables count against the script memory limit, but a restore never gave theirs back: a search agent
 * (restore, step, in a loop) ran into "custom variables exceed the script memory limit" after ~850 rounds. */
static void restore_gives_custom_memory_back(void **state)
{
    (void)state;
    const char *src = "function reward() n = (n or 0) + 1 data['visit_' .. n] = n return 0 end";
    rg_script_limits lim = {.memory = 64u << 10};
    fixture f = make(src, "reward");
    assert_int_equal(rg_scenario_set_script_limits(f.sc, &lim), RG_OK);
    assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
    size_t len;
    uint8_t *snap = snapshot(&f, &len);
    for (int round = 0; round < 3000; round++) {
        restore(&f, snap, len);
        int rc = rg_scenario_update(f.sc, f.gd);
        if (rc != RG_OK)
            fail_msg("round %d: %s", round, rg_error_last());
        rg_value v;
        assert_int_equal(rg_gamedata_custom_get(f.gd, "visit_4", &v), RG_OK);
        assert_int_equal(rg_gamedata_custom_get(f.gd, "visit_5", &v), RG_ENOTFOUND);
    }
    /* the limit still holds for variables that are really new */
    int rc = RG_OK;
    for (int i = 0; i < 3000 && rc == RG_OK; i++)
        rc = rg_scenario_update(f.sc, f.gd);
    assert_int_equal(rc, RG_ENOMEM);
    assert_non_null(strstr(rg_error_last(), "custom variables exceed"));
    free(snap);
    drop(&f);
}

static void write_text(const char *dir, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs(text, out);
    fclose(out);
}

/* Loads {"scripts": [entry], "reward": {"script": "reward"}} from the folder game; its code. */
static int load_scripts_entry(const char *game, const char *entry, fixture *f)
{
    char json[512];
    snprintf(json, sizeof json, "{\"scripts\": [\"%s\"], \"reward\": {\"script\": \"lua:reward\"}}", entry);
    return rg_scenario_load_string(f->sc, json, strlen(json), game, 0);
}

/* "scripts" paths could name files outside the game folder (`..`, or a link leading out); they are a load error
 * now, while files in the folder, its subfolders and links inside it still load. */
static void script_paths_stay_in_the_game_folder(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char root[512], game[600], sub[700], path[800];
    snprintf(root, sizeof root, "%s/lua-paths-XXXXXX", tmp);
    assert_non_null(mkdtemp(root));
    snprintf(game, sizeof game, "%s/game", root);
    snprintf(sub, sizeof sub, "%s/sub", game);
    assert_int_equal(mkdir(game, 0700), 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    write_text(root, "outside.lua", "function reward() return 666 end");
    write_text(game, "script.lua", "function reward() return 1 end");
    write_text(sub, "s.lua", "function reward() return 2 end");
    snprintf(path, sizeof path, "%s/link_in.lua", game);
    assert_int_equal(symlink("sub/s.lua", path), 0);
    snprintf(path, sizeof path, "%s/link_out.lua", game);
    assert_int_equal(symlink("../outside.lua", path), 0);
    snprintf(path, sizeof path, "%s/dir_out", game);
    assert_int_equal(symlink("..", path), 0);
    static const struct {
        const char *entry;
        float reward; /* 0: refused at load */
        const char *error;
    } cases[] = {
        {"script.lua", 1, NULL},
        {"sub/s.lua", 2, NULL},
        {"lua:sub/s.lua", 2, NULL},
        {"link_in.lua", 2, NULL},
        {"/script.lua", 1, NULL}, /* a leading / is taken inside the folder, as stable-retro does */
        {"../outside.lua", 0, "leaves the game folder"},
        {"sub/../../outside.lua", 0, "leaves the game folder"},
        {"lua:../outside.lua", 0, "leaves the game folder"},
        {"link_out.lua", 0, "outside the game folder"},
        {"dir_out/outside.lua", 0, "outside the game folder"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fixture f = make("", NULL);
        int rc = load_scripts_entry(game, cases[i].entry, &f);
        if (cases[i].reward == 0) {
            if (rc != RG_ECORRUPT || !strstr(rg_error_last(), cases[i].error))
                fail_msg("%s: rc %d \"%s\"", cases[i].entry, rc, rc ? rg_error_last() : "");
        } else {
            if (rc != RG_OK)
                fail_msg("%s: %s", cases[i].entry, rg_error_last());
            assert_int_equal(rg_scenario_reset(f.sc, f.gd), RG_OK);
            assert_int_equal(rg_scenario_update(f.sc, f.gd), RG_OK);
            assert_true(rg_scenario_reward(f.sc, 0) == cases[i].reward);
        }
        drop(&f);
    }
    static const char *const made[] = {"game/link_in.lua", "game/link_out.lua", "game/dir_out", "game/sub/s.lua",
                                       "game/script.lua", "outside.lua"};
    for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
        snprintf(path, sizeof path, "%s/%s", root, made[i]);
        assert_int_equal(unlink(path), 0);
    }
    assert_int_equal(rmdir(sub), 0);
    assert_int_equal(rmdir(game), 0);
    assert_int_equal(rmdir(root), 0);
}

/* The deepest patterns still allowed (200 items, each a level of the matcher's recursion) on a thread of 256 KiB
 * stack: Python's and most pools' threads have far more. */
static void *deepest_patterns(void *arg)
{
    (void)arg;
    static const char *const deep[] = {
        "function reward() return string.find('', string.rep('a*', 200)) end",
        "function reward() return string.find('', string.rep('a-', 136) .. string.rep('()', 32)) end",
        "function reward() return select('#', string.match('', string.rep('(a*)', 32) .. string.rep('.-', 104))) end",
        "function reward() return select(2, string.gsub('', string.rep('[%a%d]*', 200), 'x')) end",
    };
    static const float want[] = {1, 1, 32, 1};
    for (size_t i = 0; i < sizeof deep / sizeof *deep; i++) {
        fixture f = make(deep[i], "reward");
        if (rg_scenario_reset(f.sc, f.gd) != RG_OK || rg_scenario_update(f.sc, f.gd) != RG_OK ||
            rg_scenario_reward(f.sc, 0) != want[i]) {
            drop(&f);
            return (void *)deep[i];
        }
        drop(&f);
    }
    return NULL;
}

static void allowed_patterns_fit_a_small_stack(void **state)
{
    (void)state;
    pthread_attr_t attr;
    pthread_t thread;
    void *failed = NULL;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstacksize(&attr, 256u << 10), 0);
    assert_int_equal(pthread_create(&thread, &attr, deepest_patterns, NULL), 0);
    assert_int_equal(pthread_join(thread, &failed), 0);
    pthread_attr_destroy(&attr);
    if (failed)
        fail_msg("%s: %s", (const char *)failed, rg_error_last());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pattern_bombs_refused),
        cmocka_unit_test(allowed_patterns_fit_a_small_stack),
        cmocka_unit_test(library_calls_charged),
        cmocka_unit_test(random_is_private_seeded_and_restored),
        cmocka_unit_test(restore_gives_custom_memory_back),
        cmocka_unit_test(script_paths_stay_in_the_game_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
