/* The scenario engine (docs/formats.md, "Scenarios" and "Lua scripts"; ideas of Gym Retro's data tests): operations,
 * reward and done specs, delta semantics, multiplayer, crop, "actions", lenient/strict loading and hostile inputs. Everything runs over a
 * small RAM array bound with rg_gamedata_bind_blocks, so exact rewards and done flags can be asserted. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RAM_SIZE 64
#define HI_BASE 0x1000

/* Variables used by the tests (addresses inside ram[] unless stated). */
static const char data_json[] =
    "{\"info\": {"
    "\"u\": {\"address\": 0, \"type\": \"|u1\"},"
    "\"i\": {\"address\": 1, \"type\": \"|i1\"},"
    "\"w\": {\"address\": 2, \"type\": \">u2\"},"
    "\"lives\": {\"address\": 4, \"type\": \"|u1\"},"
    "\"health\": {\"address\": 5, \"type\": \"|u1\"},"
    "\"timer\": {\"address\": 6, \"type\": \"|u1\"},"
    "\"m\": {\"address\": 7, \"type\": \"|u1\", \"mask\": 15},"
    "\"big\": {\"address\": 8, \"type\": \"<i8\"},"
    "\"score\": {\"address\": 16, \"type\": \">d4\"},"
    "\"far\": {\"address\": 200, \"type\": \"|u1\"},"
    "\"edge\": {\"address\": 63, \"type\": \">u2\"},"
    "\"hi\": {\"address\": 4096, \"type\": \"|u1\"}"
    "}}";

typedef struct fx {
    rg_gamedata *gd;
    rg_scenario *sc;
    uint8_t ram[RAM_SIZE];
    uint8_t hi[16];
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    if (!f || rg_gamedata_create(&f->gd) != RG_OK || rg_scenario_create(&f->sc) != RG_OK)
        return -1;
    if (rg_gamedata_load_string(f->gd, data_json, strlen(data_json), RG_LOAD_STRICT) != RG_OK)
        return -1;
    rg_mem_block blocks[2] = {{0, RAM_SIZE, f->ram}, {HI_BASE, sizeof f->hi, f->hi}};
    if (rg_gamedata_bind_blocks(f->gd, blocks, 2, 0) != RG_OK)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    rg_scenario_free(f->sc);
    rg_gamedata_free(f->gd);
    free(f);
    return 0;
}

/* JSON is written with ' for " to stay readable; this makes the real text (caller frees). */
static char *dq(const char *sq)
{
    char *s = strdup(sq);
    assert_non_null(s);
    for (char *p = s; *p; p++)
        if (*p == '\'')
            *p = '"';
    return s;
}

static int try_load(fx *f, const char *sq, unsigned flags)
{
    char *j = dq(sq);
    int rc = rg_scenario_load_string(f->sc, j, strlen(j), NULL, flags);
    free(j);
    return rc;
}

static void load(fx *f, const char *sq)
{
    int rc = try_load(f, sq, 0);
    if (rc != RG_OK)
        fail_msg("load %s: %s: %s", sq, rg_error_name(rc), rg_error_last());
}

/* Loads in strict mode and checks there was nothing to warn about. */
static void load_strict(fx *f, const char *sq)
{
    int rc = try_load(f, sq, RG_LOAD_STRICT);
    if (rc != RG_OK)
        fail_msg("strict load %s: %s: %s", sq, rg_error_name(rc), rg_error_last());
    if (rg_scenario_warning_count(f->sc))
        fail_msg("strict load %s warned: %s", sq, rg_scenario_warning(f->sc, 0));
}

static void step(fx *f)
{
    int rc = rg_scenario_update(f->sc, f->gd);
    if (rc != RG_OK)
        fail_msg("rg_scenario_update: %s: %s", rg_error_name(rc), rg_error_last());
}

static void reset(fx *f)
{
    int rc = rg_scenario_reset(f->sc, f->gd);
    if (rc != RG_OK)
        fail_msg("rg_scenario_reset: %s: %s", rg_error_name(rc), rg_error_last());
}

#define R0(f) rg_scenario_reward((f)->sc, 0)
#define R1(f) rg_scenario_reward((f)->sc, 1)
#define DONE(f) rg_scenario_done((f)->sc)
#define assert_reward(f, p, want) assert_float_equal(rg_scenario_reward((f)->sc, (p)), (want), 1e-6)
#define assert_total(f, p, want) assert_float_equal(rg_scenario_total_reward((f)->sc, (p)), (want), 1e-5)

static int has_warning(const rg_scenario *sc, const char *needle)
{
    for (size_t i = 0; i < rg_scenario_warning_count(sc); i++)
        if (strstr(rg_scenario_warning(sc, i), needle))
            return 1;
    return 0;
}

/* ---- operations (docs/formats.md, "Scenarios", the operations table) ---- */

/* The operations table of docs/formats.md, written independently of the library. */
static int64_t oracle(const char *op, int64_t v, int64_t r)
{
    if (!strcmp(op, "equal")) return v == r;
    if (!strcmp(op, "negative-equal")) return r != INT64_MIN && v == -r;
    if (!strcmp(op, "not-equal")) return v != r;
    if (!strcmp(op, "less-than")) return v < r;
    if (!strcmp(op, "greater-than")) return v > r;
    if (!strcmp(op, "less-or-equal")) return v <= r;
    if (!strcmp(op, "greater-or-equal")) return v >= r;
    if (!strcmp(op, "nonzero")) return v != 0;
    if (!strcmp(op, "zero")) return v == 0;
    if (!strcmp(op, "positive")) return v > 0;
    if (!strcmp(op, "negative")) return v < 0;
    if (!strcmp(op, "sign")) return v > 0 ? 1 : v < 0 ? -1 : 0;
    return v;
}

static const char *const op_names[] = {"equal", "negative-equal", "not-equal", "less-than", "greater-than",
                                       "less-or-equal", "greater-or-equal", "nonzero", "zero", "positive",
                                       "negative", "sign"};

static void op_apply_table(void **state)
{
    (void)state;
    static const struct { rg_op op; int64_t v, r, want; } cases[] = {
        {RG_OP_NOOP, 5, 0, 5}, {RG_OP_NOOP, -5, 9, -5}, {RG_OP_NOOP, INT64_MIN, 7, INT64_MIN},
        {RG_OP_NOOP, INT64_MAX, 0, INT64_MAX},
        {RG_OP_EQUAL, 2, 2, 1}, {RG_OP_EQUAL, 2, 3, 0}, {RG_OP_EQUAL, -2, 2, 0},
        {RG_OP_EQUAL, INT64_MIN, INT64_MIN, 1}, {RG_OP_EQUAL, INT64_MAX, INT64_MIN, 0},
        {RG_OP_NEGATIVE_EQUAL, -2, 2, 1}, {RG_OP_NEGATIVE_EQUAL, 2, 2, 0}, {RG_OP_NEGATIVE_EQUAL, 2, -2, 1},
        {RG_OP_NEGATIVE_EQUAL, 0, 0, 1}, {RG_OP_NEGATIVE_EQUAL, -INT64_MAX, INT64_MAX, 1},
        {RG_OP_NEGATIVE_EQUAL, INT64_MIN, INT64_MAX, 0}, {RG_OP_NEGATIVE_EQUAL, INT64_MAX, INT64_MIN, 0},
        {RG_OP_NOT_EQUAL, 1, 2, 1}, {RG_OP_NOT_EQUAL, 2, 2, 0}, {RG_OP_NOT_EQUAL, INT64_MIN, INT64_MAX, 1},
        {RG_OP_LESS_THAN, 1, 2, 1}, {RG_OP_LESS_THAN, 2, 2, 0}, {RG_OP_LESS_THAN, 3, 2, 0},
        {RG_OP_LESS_THAN, INT64_MIN, INT64_MAX, 1}, {RG_OP_LESS_THAN, INT64_MAX, INT64_MIN, 0},
        {RG_OP_LESS_THAN, -1, 0, 1},
        {RG_OP_GREATER_THAN, 3, 2, 1}, {RG_OP_GREATER_THAN, 2, 2, 0}, {RG_OP_GREATER_THAN, 1, 2, 0},
        {RG_OP_GREATER_THAN, INT64_MAX, INT64_MIN, 1}, {RG_OP_GREATER_THAN, INT64_MIN, INT64_MAX, 0},
        {RG_OP_LESS_OR_EQUAL, 2, 2, 1}, {RG_OP_LESS_OR_EQUAL, 3, 2, 0}, {RG_OP_LESS_OR_EQUAL, -5, -4, 1},
        {RG_OP_LESS_OR_EQUAL, INT64_MIN, INT64_MIN, 1},
        {RG_OP_GREATER_OR_EQUAL, 2, 2, 1}, {RG_OP_GREATER_OR_EQUAL, 1, 2, 0},
        {RG_OP_GREATER_OR_EQUAL, INT64_MAX, INT64_MAX, 1}, {RG_OP_GREATER_OR_EQUAL, -1, 0, 0},
        {RG_OP_NONZERO, 0, 0, 0}, {RG_OP_NONZERO, 0, 5, 0}, {RG_OP_NONZERO, -1, 0, 1}, {RG_OP_NONZERO, 5, 5, 1},
        {RG_OP_NONZERO, INT64_MIN, 0, 1},
        {RG_OP_ZERO, 0, 0, 1}, {RG_OP_ZERO, 0, 9, 1}, {RG_OP_ZERO, 1, 0, 0}, {RG_OP_ZERO, INT64_MIN, 0, 0},
        {RG_OP_POSITIVE, 1, 0, 1}, {RG_OP_POSITIVE, 0, 0, 0}, {RG_OP_POSITIVE, -1, 0, 0},
        {RG_OP_POSITIVE, 1, 100, 1}, {RG_OP_POSITIVE, INT64_MAX, 0, 1}, {RG_OP_POSITIVE, INT64_MIN, 0, 0},
        {RG_OP_NEGATIVE, -1, 0, 1}, {RG_OP_NEGATIVE, 0, 0, 0}, {RG_OP_NEGATIVE, 1, -100, 0},
        {RG_OP_NEGATIVE, INT64_MIN, 0, 1}, {RG_OP_NEGATIVE, INT64_MAX, 0, 0},
        {RG_OP_SIGN, -7, 0, -1}, {RG_OP_SIGN, 0, 0, 0}, {RG_OP_SIGN, 9, 0, 1}, {RG_OP_SIGN, 9, 100, 1},
        {RG_OP_SIGN, INT64_MIN, 0, -1}, {RG_OP_SIGN, INT64_MAX, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t got = rg_op_apply(cases[i].op, cases[i].v, cases[i].r);
        if (got != cases[i].want)
            fail_msg("%s(%lld, %lld) = %lld, expected %lld", rg_op_name(cases[i].op), (long long)cases[i].v,
                     (long long)cases[i].r, (long long)got, (long long)cases[i].want);
    }
    /* against the oracle over a grid of values */
    static const int64_t grid[] = {INT64_MIN, INT64_MIN + 1, -300, -5, -1, 0, 1, 5, 300, INT64_MAX - 1, INT64_MAX};
    for (size_t o = 0; o < sizeof op_names / sizeof op_names[0]; o++) {
        rg_op op;
        assert_int_equal(rg_op_parse(op_names[o], &op), RG_OK);
        for (size_t a = 0; a < sizeof grid / sizeof grid[0]; a++)
            for (size_t b = 0; b < sizeof grid / sizeof grid[0]; b++) {
                if (op == RG_OP_NEGATIVE_EQUAL && grid[b] == INT64_MIN)
                    continue; /* -INT64_MIN does not exist; see op_negative_equal_of_int64_min */
                int64_t got = rg_op_apply(op, grid[a], grid[b]), want = oracle(op_names[o], grid[a], grid[b]);
                if (got != want)
                    fail_msg("%s(%lld, %lld) = %lld, expected %lld", op_names[o], (long long)grid[a],
                             (long long)grid[b], (long long)got, (long long)want);
            }
    }
    /* values outside the enum pass through like NOOP */
    assert_int_equal(rg_op_apply(RG_OP_COUNT, 42, 1), 42);
    assert_int_equal(rg_op_apply((rg_op)99, -42, 1), -42);
}

/* negative-equal with reference INT64_MIN: -r overflows; it must not trap (UBSan) and only matches INT64_MIN
 * (two's complement wrap, what the reference's int64 negation does in practice). */
static void op_negative_equal_of_int64_min(void **state)
{
    (void)state;
    assert_int_equal(rg_op_apply(RG_OP_NEGATIVE_EQUAL, INT64_MIN, INT64_MIN), 1);
    assert_int_equal(rg_op_apply(RG_OP_NEGATIVE_EQUAL, INT64_MAX, INT64_MIN), 0);
    assert_int_equal(rg_op_apply(RG_OP_NEGATIVE_EQUAL, 0, INT64_MIN), 0);
}

static void op_names_round_trip(void **state)
{
    (void)state;
    assert_int_equal(RG_OP_COUNT, 13);
    assert_string_equal(rg_op_name(RG_OP_NOOP), "");
    size_t named = 0;
    for (int i = 1; i < RG_OP_COUNT; i++) {
        const char *name = rg_op_name((rg_op)i);
        assert_non_null(name);
        assert_true(strlen(name) > 0);
        rg_op back = RG_OP_NOOP;
        assert_int_equal(rg_op_parse(name, &back), RG_OK);
        assert_int_equal(back, i);
        for (size_t k = 0; k < sizeof op_names / sizeof op_names[0]; k++)
            named += strcmp(op_names[k], name) == 0;
    }
    assert_int_equal(named, 12); /* exactly the twelve names of docs/formats.md */
    assert_string_equal(rg_op_name(RG_OP_EQUAL), "equal");
    assert_string_equal(rg_op_name(RG_OP_SIGN), "sign");
    assert_string_equal(rg_op_name(RG_OP_COUNT), "");
    assert_string_equal(rg_op_name((rg_op)-1), "");
    static const char *const unknown[] = {"", "Equal", "EQUAL", "equal ", " equal", "eq", "==", "negative_equal",
                                          "noop", "none", "greater-or-equals", "sign\n"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        rg_op op = RG_OP_SIGN;
        assert_int_equal(rg_op_parse(unknown[i], &op), RG_ENOTFOUND);
        assert_int_equal(op, RG_OP_NOOP);
    }
    rg_op op;
    assert_int_equal(rg_op_parse(NULL, &op), RG_EINVAL);
    assert_int_equal(rg_op_parse("equal", NULL), RG_EINVAL);
}

/* ---- reward specs (docs/formats.md, "Scenarios", reward variable) ---- */

static const struct { float reward, penalty; int v; float want; } multipliers[] = {
    {1, 0, 1, 1},     {1, 0, -1, 0},    {1, 0, 0, 0},     {1, 0, 5, 5},      /* reward only */
    {0, 1, 1, 0},     {0, 1, -1, -1},   {0, 1, -3, -3},                      /* penalty only: sign kept */
    {1, 1, 2, 2},     {1, 1, -2, -2},   {1, 1, 0, 0},                        /* both */
    {-1, 0, 1, -1},   {-1, 0, -1, 0},                                        /* negative reward */
    {0, -1, -1, 1},   {0, -1, 1, 0},                                         /* negative penalty */
    {1, -1, 2, 2},    {1, -1, -2, 2},   {-1, 1, 2, -2},   {-1, 1, -2, -2},   /* opposing signs */
    {10, 10, 3, 30},  {10, 10, -3, -30}, {10, 0, 12, 120},                   /* coefficient 10 */
    {0.5f, 0.25f, 3, 1.5f}, {0.5f, 0.25f, -4, -1.0f},
    {0, 0, 100, 0},   {0, 0, -100, 0},                                       /* no coefficients */
};
#define N_MULT (sizeof multipliers / sizeof multipliers[0])

static void reward_multipliers_absolute(void **state)
{
    fx *f = *state;
    for (size_t k = 0; k < N_MULT; k++) {
        rg_scenario *sc;
        assert_int_equal(rg_scenario_create(&sc), RG_OK);
        rg_reward_spec spec = {RG_MEASURE_ABSOLUTE, RG_OP_NOOP, 0, multipliers[k].reward, multipliers[k].penalty};
        assert_int_equal(rg_scenario_set_reward(sc, 0, "i", &spec), RG_OK);
        f->ram[1] = (uint8_t)(int8_t)multipliers[k].v;
        assert_int_equal(rg_scenario_update(sc, f->gd), RG_OK);
        float got = rg_scenario_reward(sc, 0);
        if (fabsf(got - multipliers[k].want) > 1e-6f)
            fail_msg("reward %g penalty %g value %d: %g, expected %g", multipliers[k].reward, multipliers[k].penalty,
                     multipliers[k].v, got, multipliers[k].want);
        rg_scenario_free(sc);
    }
}

static void reward_multipliers_delta(void **state)
{
    fx *f = *state;
    for (size_t k = 0; k < N_MULT; k++) {
        char json[256];
        snprintf(json, sizeof json, "{'reward': {'variables': {'i': {'reward': %.9g, 'penalty': %.9g}}}}",
                 multipliers[k].reward, multipliers[k].penalty);
        load_strict(f, json);
        /* the gamedata keeps its snapshots across scenario loads: settle the delta base at 0 first */
        f->ram[1] = 0;
        step(f);
        f->ram[1] = (uint8_t)(int8_t)multipliers[k].v;
        step(f);
        float got = R0(f);
        if (fabsf(got - multipliers[k].want) > 1e-6f)
            fail_msg("delta: reward %g penalty %g delta %d: %g, expected %g", multipliers[k].reward,
                     multipliers[k].penalty, multipliers[k].v, got, multipliers[k].want);
    }
}

/* Every op through a loaded reward spec, against the oracle (absolute and delta). */
static void reward_ops_loaded(void **state)
{
    fx *f = *state;
    static const int refs[] = {-3, 0, 2};
    for (size_t o = 0; o < sizeof op_names / sizeof op_names[0]; o++)
        for (size_t r = 0; r < 3; r++) {
            char json[256];
            snprintf(json, sizeof json,
                     "{'reward': {'variables': {'i': {'measurement': 'absolute', 'op': '%s', 'reference': %d, "
                     "'reward': 3, 'penalty': 5}}}}",
                     op_names[o], refs[r]);
            load_strict(f, json);
            for (int v = -4; v <= 4; v++) {
                f->ram[1] = (uint8_t)(int8_t)v;
                step(f);
                int64_t m = oracle(op_names[o], v, refs[r]);
                float want = m > 0 ? (float)m * 3 : (float)m * 5;
                if (fabsf(R0(f) - want) > 1e-6f)
                    fail_msg("%s ref %d value %d: reward %g, expected %g", op_names[o], refs[r], v, R0(f), want);
            }
            /* the same with delta: the value goes 0 -> v */
            snprintf(json, sizeof json,
                     "{'reward': {'variables': {'i': {'measurement': 'delta', 'op': '%s', 'reference': %d, "
                     "'reward': 3, 'penalty': 5}}}}",
                     op_names[o], refs[r]);
            load_strict(f, json);
            for (int v = -4; v <= 4; v++) {
                f->ram[1] = 0;
                step(f);
                f->ram[1] = (uint8_t)(int8_t)v;
                step(f);
                int64_t m = oracle(op_names[o], v, refs[r]);
                float want = m > 0 ? (float)m * 3 : (float)m * 5;
                if (fabsf(R0(f) - want) > 1e-6f)
                    fail_msg("delta %s ref %d delta %d: reward %g, expected %g", op_names[o], refs[r], v, R0(f),
                             want);
            }
        }
}

/* data.cpp's loaded-reward cases. */
static void reward_loaded_cases(void **state)
{
    fx *f = *state;
    /* default measurement is delta; {reward: 1} alone ignores decreases */
    load_strict(f, "{'reward': {'variables': {'u': {'reward': 1}}}}");
    f->ram[0] = 5;
    step(f);
    assert_reward(f, 0, 0);
    f->ram[0] = 8;
    step(f);
    assert_reward(f, 0, 3);
    step(f);
    assert_reward(f, 0, 0);
    f->ram[0] = 6;
    step(f);
    assert_reward(f, 0, 0);

    /* penalty with |i1 1 -> 0 gives -1 */
    load_strict(f, "{'reward': {'variables': {'i': {'penalty': 1}}}}");
    f->ram[1] = 1;
    step(f);
    f->ram[1] = 0;
    step(f);
    assert_reward(f, 0, -1);

    /* several variables add up */
    load_strict(f, "{'reward': {'variables': {'u': {'reward': 1}, 'lives': {'reward': 10, 'penalty': 10}}}}");
    f->ram[0] = 0;
    f->ram[4] = 3;
    step(f);
    f->ram[0] = 2;
    f->ram[4] = 2;
    step(f);
    assert_reward(f, 0, 2 - 10);

    /* absolute: the value itself every update */
    load_strict(f, "{'reward': {'variables': {'u': {'measurement': 'absolute', 'reward': 0.5}}}}");
    f->ram[0] = 5;
    step(f);
    assert_reward(f, 0, 2.5f);
    step(f);
    assert_reward(f, 0, 2.5f);

    /* equal with reference 2, absolute and delta */
    load_strict(f, "{'reward': {'variables': {'u': {'measurement': 'absolute', 'op': 'equal', 'reference': 2, "
                   "'reward': 3}}}}");
    f->ram[0] = 2;
    step(f);
    assert_reward(f, 0, 3);
    f->ram[0] = 1;
    step(f);
    assert_reward(f, 0, 0);
    load_strict(f, "{'reward': {'variables': {'u': {'op': 'equal', 'reference': 2, 'reward': 3}}}}");
    f->ram[0] = 0;
    step(f);
    f->ram[0] = 2;
    step(f);
    assert_reward(f, 0, 3); /* delta 2 */
    step(f);
    assert_reward(f, 0, 0); /* delta 0 */

    /* a real reference is truncated to an integer */
    load_strict(f, "{'reward': {'variables': {'u': {'measurement': 'absolute', 'op': 'equal', 'reference': 2.9, "
                   "'reward': 1}}}}");
    f->ram[0] = 2;
    step(f);
    assert_reward(f, 0, 1);
    load_strict(f, "{'reward': {'variables': {'i': {'measurement': 'absolute', 'op': 'equal', 'reference': -2.9, "
                   "'reward': 1}}}}");
    f->ram[1] = (uint8_t)-2;
    step(f);
    assert_reward(f, 0, 1);

    /* a wide BCD score measured by delta */
    load_strict(f, "{'reward': {'variables': {'score': {'reward': 0.01}}}}");
    memcpy(f->ram + 16, "\x00\x00\x01\x00", 4);
    step(f);
    memcpy(f->ram + 16, "\x00\x00\x02\x50", 4);
    step(f);
    assert_reward(f, 0, 1.5f);
}

static void default_measurements(void **state)
{
    fx *f = *state;
    /* done is absolute by default: fires on the very first update */
    load_strict(f, "{'done': {'variables': {'u': {'op': 'equal', 'reference': 5}}}}");
    f->ram[0] = 5;
    step(f);
    assert_true(DONE(f));
    step(f);
    assert_true(DONE(f));
    f->ram[0] = 6;
    step(f);
    assert_false(DONE(f));

    /* a done on a delta */
    load_strict(f, "{'done': {'variables': {'lives': {'measurement': 'delta', 'op': 'negative'}}}}");
    f->ram[4] = 3;
    step(f);
    assert_false(DONE(f));
    step(f);
    assert_false(DONE(f));
    f->ram[4] = 2;
    step(f);
    assert_true(DONE(f));
    step(f);
    assert_false(DONE(f)); /* the flag is computed anew each update */

    /* explicit 'delta' on a reward is the default */
    load_strict(f, "{'reward': {'variables': {'u': {'measurement': 'delta', 'reward': 1}}}}");
    f->ram[0] = 1;
    step(f);
    f->ram[0] = 4;
    step(f);
    assert_reward(f, 0, 3);

    /* manual specs with RG_MEASURE_DEFAULT: delta for a reward, absolute for a done */
    rg_scenario *sc;
    assert_int_equal(rg_scenario_create(&sc), RG_OK);
    rg_reward_spec rs = {RG_MEASURE_DEFAULT, RG_OP_NOOP, 0, 1, 1};
    rg_done_spec ds = {RG_MEASURE_DEFAULT, RG_OP_NOOP, 0};
    assert_int_equal(rg_scenario_set_reward(sc, 0, "u", &rs), RG_OK);
    assert_int_equal(rg_scenario_set_done(sc, "lives", &ds), RG_OK);
    f->ram[0] = 10;
    f->ram[4] = 1;
    assert_int_equal(rg_scenario_update(sc, f->gd), RG_OK);
    assert_float_equal(rg_scenario_reward(sc, 0), 6, 1e-6); /* 4 -> 10 */
    assert_true(rg_scenario_done(sc));                        /* lives 1 > 0 */
    f->ram[4] = 0;
    assert_int_equal(rg_scenario_update(sc, f->gd), RG_OK);
    assert_float_equal(rg_scenario_reward(sc, 0), 0, 1e-6);
    assert_false(rg_scenario_done(sc));
    rg_scenario_free(sc);
}

static void time_reward(void **state)
{
    fx *f = *state;
    load_strict(f, "{'reward': {'time': {'reward': 0.25}}}");
    for (int k = 1; k <= 4; k++) {
        f->ram[0] = (uint8_t)(k * 7);
        step(f);
        assert_reward(f, 0, 0.25f);
        assert_total(f, 0, 0.25f * (float)k);
    }
    assert_int_equal(rg_scenario_frame(f->sc), 4);

    /* time plus a variable (the previous update leaves u's snapshot at 28) */
    load_strict(f, "{'reward': {'time': {'reward': -0.5}, 'variables': {'u': {'reward': 1, 'penalty': 1}}}}");
    f->ram[0] = 10;
    step(f);
    assert_reward(f, 0, -0.5f - 18);
    step(f);
    assert_reward(f, 0, -0.5f);
    f->ram[0] = 13;
    step(f);
    assert_reward(f, 0, 2.5f);

    /* penalty alone never applies with the default op (1 > 0) */
    load_strict(f, "{'reward': {'time': {'penalty': 3}}}");
    step(f);
    assert_reward(f, 0, 0);

    /* ops see the value 1 */
    static const struct { const char *spec; float want; } ops[] = {
        {"'op': 'negative-equal', 'reference': -1, 'reward': 2", 2},
        {"'op': 'equal', 'reference': 1, 'reward': 2", 2},
        {"'op': 'equal', 'reference': 0, 'reward': 2", 0},
        {"'op': 'zero', 'reward': 2", 0},
        {"'op': 'sign', 'reward': 2, 'penalty': 7", 2},
        {"'op': 'greater-than', 'reference': 1, 'reward': 2", 0},
        {"'op': 'less-or-equal', 'reference': 1, 'reward': 4", 4},
        {"'measurement': 'absolute', 'reward': 1.5", 1.5f},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        char json[256];
        snprintf(json, sizeof json, "{'reward': {'time': {%s}}}", ops[k].spec);
        load_strict(f, json);
        step(f);
        if (fabsf(R0(f) - ops[k].want) > 1e-6f)
            fail_msg("time {%s}: %g, expected %g", ops[k].spec, R0(f), ops[k].want);
    }

    /* by hand */
    rg_scenario *sc;
    assert_int_equal(rg_scenario_create(&sc), RG_OK);
    rg_reward_spec t = {RG_MEASURE_DEFAULT, RG_OP_NOOP, 0, 2, 0};
    assert_int_equal(rg_scenario_set_time_reward(sc, 1, &t), RG_OK);
    assert_int_equal(rg_scenario_set_time_reward(sc, RG_SCENARIO_MAX_PLAYERS, &t), RG_ERANGE);
    assert_int_equal(rg_scenario_set_time_reward(sc, 0, NULL), RG_EINVAL);
    assert_int_equal(rg_scenario_update(sc, f->gd), RG_OK);
    assert_int_equal(rg_scenario_update(sc, f->gd), RG_OK);
    assert_float_equal(rg_scenario_reward(sc, 0), 0, 0);
    assert_float_equal(rg_scenario_reward(sc, 1), 2, 1e-6);
    assert_float_equal(rg_scenario_total_reward(sc, 1), 4, 1e-6);
    assert_int_equal(rg_scenario_players(sc), 2);
    rg_scenario_free(sc);
}

/* ---- done (docs/formats.md, "Scenarios", Done) ---- */

static void done_ops(void **state)
{
    fx *f = *state;
    static const struct { const char *spec; int v; int want; } cases[] = {
        {"{}", 0, 0}, {"{}", 1, 1}, {"{}", 127, 1}, {"{}", -1, 0}, {"{}", -128, 0}, /* no op: value > 0 */
        {"{'op': 'nonzero'}", 0, 0}, {"{'op': 'nonzero'}", -1, 1}, {"{'op': 'nonzero'}", 3, 1},
        {"{'op': 'zero'}", 0, 1}, {"{'op': 'zero'}", 1, 0}, {"{'op': 'zero'}", -1, 0},
        {"{'op': 'equal', 'reference': -3}", -3, 1}, {"{'op': 'equal', 'reference': -3}", 3, 0},
        {"{'op': 'negative-equal', 'reference': -3}", 3, 1}, {"{'op': 'negative-equal', 'reference': 3}", 3, 0},
        {"{'op': 'not-equal', 'reference': 4}", 4, 0}, {"{'op': 'not-equal', 'reference': 4}", 5, 1},
        {"{'op': 'less-than', 'reference': 4}", 3, 1}, {"{'op': 'less-than', 'reference': 4}", 4, 0},
        {"{'op': 'greater-than', 'reference': 4}", 5, 1}, {"{'op': 'greater-than', 'reference': 4}", 4, 0},
        {"{'op': 'less-or-equal', 'reference': 4}", 4, 1}, {"{'op': 'less-or-equal', 'reference': 4}", 5, 0},
        {"{'op': 'greater-or-equal', 'reference': 4}", 4, 1}, {"{'op': 'greater-or-equal', 'reference': 4}", 3, 0},
        {"{'op': 'positive'}", 1, 1}, {"{'op': 'positive'}", 0, 0},
        {"{'op': 'negative'}", -1, 1}, {"{'op': 'negative'}", 0, 0},
        {"{'op': 'sign'}", 5, 1}, {"{'op': 'sign'}", -5, 0}, {"{'op': 'sign'}", 0, 0}, /* -1 is not > 0 */
        {"{'measurement': 'absolute', 'op': 'zero'}", 0, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char json[256];
        snprintf(json, sizeof json, "{'done': {'variables': {'i': %s}}}", cases[k].spec);
        load_strict(f, json);
        f->ram[1] = (uint8_t)(int8_t)cases[k].v;
        step(f);
        if (DONE(f) != cases[k].want)
            fail_msg("done %s with %d: %d, expected %d", cases[k].spec, cases[k].v, DONE(f), cases[k].want);
    }
}

static void done_any_and_all(void **state)
{
    fx *f = *state;
    static const struct { int lives, timer, any, all; } states[] = {
        {1, 1, 0, 0}, {0, 1, 1, 0}, {1, 0, 1, 0}, {0, 0, 1, 1},
    };
    const char *any = "{'done': {'variables': {'lives': {'op': 'zero'}, 'timer': {'op': 'zero'}}}}";
    const char *any2 = "{'done': {'condition': 'any', 'variables': {'lives': {'op': 'zero'}, 'timer': {'op': "
                       "'zero'}}}}";
    const char *all = "{'done': {'condition': 'all', 'variables': {'lives': {'op': 'zero'}, 'timer': {'op': "
                      "'zero'}}}}";
    for (size_t k = 0; k < 4; k++) {
        f->ram[4] = (uint8_t)states[k].lives;
        f->ram[6] = (uint8_t)states[k].timer;
        load_strict(f, any);
        step(f);
        assert_int_equal(DONE(f), states[k].any);
        load_strict(f, any2);
        step(f);
        assert_int_equal(DONE(f), states[k].any);
        load_strict(f, all);
        step(f);
        assert_int_equal(DONE(f), states[k].all);
    }
    /* by hand: the same with rg_scenario_set_done / rg_scenario_set_done_condition */
    rg_scenario *sc;
    assert_int_equal(rg_scenario_create(&sc), RG_OK);
    rg_done_spec zero = {RG_MEASURE_DEFAULT, RG_OP_ZERO, 0};
    assert_int_equal(rg_scenario_set_done(sc, "lives", &zero), RG_OK);
    assert_int_equal(rg_scenario_set_done(sc, "timer", &zero), RG_OK);
    for (int all_flag = 0; all_flag <= 1; all_flag++) {
        assert_int_equal(rg_scenario_set_done_condition(sc, all_flag), RG_OK);
        for (size_t k = 0; k < 4; k++) {
            f->ram[4] = (uint8_t)states[k].lives;
            f->ram[6] = (uint8_t)states[k].timer;
            assert_int_equal(rg_scenario_update(sc, f->gd), RG_OK);
            assert_int_equal(rg_scenario_done(sc), all_flag ? states[k].all : states[k].any);
        }
    }
    /* a condition that is not exactly "all" means any */
    static const char *const not_all[] = {"'ALL'", "'All'", "1", "true", "null", "['all']", "'all '", "'none'"};
    for (size_t k = 0; k < sizeof not_all / sizeof not_all[0]; k++) {
        char json[256];
        snprintf(json, sizeof json,
                 "{'done': {'condition': %s, 'variables': {'lives': {'op': 'zero'}, 'timer': {'op': 'zero'}}}}",
                 not_all[k]);
        load(f, json);
        f->ram[4] = 0;
        f->ram[6] = 1;
        step(f);
        if (!DONE(f))
            fail_msg("condition %s should mean any", not_all[k]);
    }
    assert_int_equal(rg_scenario_set_done_condition(NULL, 1), RG_EINVAL);
    rg_done_spec s = {0};
    assert_int_equal(rg_scenario_set_done(sc, NULL, &s), RG_EINVAL);
    assert_int_equal(rg_scenario_set_done(sc, "u", NULL), RG_EINVAL);
    rg_scenario_free(sc);
}

static void done_nodes_castlevania(void **state)
{
    fx *f = *state;
    /* CastlevaniaIII-like: done when the timer runs out, or when health AND lives are both 0 */
    load_strict(f, "{'done': {'variables': {'timer': {'op': 'zero'}}, 'nodes': {'health': {'condition': 'all', "
                   "'variables': {'health': {'op': 'zero'}, 'lives': {'op': 'zero'}}}}}}");
    static const struct { int timer, health, lives, done; } seq[] = {
        {5, 3, 2, 0}, {5, 0, 1, 0}, {5, 0, 0, 1}, {5, 3, 0, 0}, {0, 3, 1, 1}, {1, 1, 1, 0},
    };
    for (size_t k = 0; k < sizeof seq / sizeof seq[0]; k++) {
        f->ram[6] = (uint8_t)seq[k].timer;
        f->ram[5] = (uint8_t)seq[k].health;
        f->ram[4] = (uint8_t)seq[k].lives;
        step(f);
        if (DONE(f) != seq[k].done)
            fail_msg("state %zu: done %d, expected %d", k, DONE(f), seq[k].done);
    }
}

static void done_nodes_nested(void **state)
{
    fx *f = *state;
    /* all( u in {1,2}  and  any(lives == 0, all(health == 7, timer delta > 0)) ) */
    load_strict(f, "{'done': {'condition': 'all', 'nodes': {"
                   "'a': {'variables': {'u': {'op': 'equal', 'reference': 1}}, 'nodes': {'a2': {'variables': "
                   "{'u': {'op': 'equal', 'reference': 2}}}}},"
                   "'b': {'variables': {'lives': {'op': 'zero'}}, 'nodes': {'c': {'condition': 'all', 'variables': "
                   "{'health': {'op': 'equal', 'reference': 7}, 'timer': {'measurement': 'delta', 'op': "
                   "'positive'}}}}}}}}");
    static const struct { int u, lives, health, timer, done; } seq[] = {
        {1, 1, 0, 0, 0}, {1, 0, 0, 0, 1}, {2, 0, 0, 0, 1}, {3, 0, 0, 0, 0}, {2, 1, 7, 0, 0},
        {2, 1, 7, 1, 1}, {2, 1, 7, 1, 0}, {1, 1, 6, 5, 0}, {1, 1, 7, 6, 1},
    };
    for (size_t k = 0; k < sizeof seq / sizeof seq[0]; k++) {
        f->ram[0] = (uint8_t)seq[k].u;
        f->ram[4] = (uint8_t)seq[k].lives;
        f->ram[5] = (uint8_t)seq[k].health;
        f->ram[6] = (uint8_t)seq[k].timer;
        step(f);
        if (DONE(f) != seq[k].done)
            fail_msg("state %zu: done %d, expected %d", k, DONE(f), seq[k].done);
    }
}

static void done_empty_quirks(void **state)
{
    fx *f = *state;
    /* empty with "all": done immediately (docs/formats.md, "Scenarios", Done; a Gym Retro quirk) */
    static const char *const at_once[] = {
        "{'done': {'condition': 'all'}}",
        "{'done': {'condition': 'all', 'variables': {}}}",
        "{'done': {'condition': 'all', 'variables': {}, 'nodes': {}}}",
        "{'done': {'nodes': {'n': {'condition': 'all'}}}}",               /* any over an empty-all node */
        "{'done': {'nodes': {'n': {'nodes': {'m': {'condition': 'all'}}}}}}",
    };
    for (size_t k = 0; k < sizeof at_once / sizeof at_once[0]; k++) {
        load_strict(f, at_once[k]);
        memset(f->ram, 0, sizeof f->ram);
        step(f);
        if (!DONE(f))
            fail_msg("%s should be done at once", at_once[k]);
    }
    /* empty with "any" (or no done at all): never done */
    static const char *const never[] = {
        "{}", "{'done': {}}", "{'done': {'condition': 'any'}}", "{'done': {'variables': {}, 'nodes': {}}}",
        "{'done': {'condition': 'all', 'nodes': {'n': {}}}}", /* all over an empty-any node */
        "{'reward': {'variables': {'u': {'reward': 1}}}}",
    };
    for (size_t k = 0; k < sizeof never / sizeof never[0]; k++) {
        load_strict(f, never[k]);
        for (int v = 0; v < 3; v++) {
            memset(f->ram, v * 0x55, sizeof f->ram);
            step(f);
            if (DONE(f))
                fail_msg("%s should never be done", never[k]);
        }
    }
    /* by hand: an empty scenario with the condition set to all */
    rg_scenario *sc;
    assert_int_equal(rg_scenario_create(&sc), RG_OK);
    assert_int_equal(rg_scenario_update(sc, f->gd), RG_OK);
    assert_false(rg_scenario_done(sc));
    assert_int_equal(rg_scenario_set_done_condition(sc, 7), RG_OK);
    assert_int_equal(rg_scenario_update(sc, f->gd), RG_OK);
    assert_true(rg_scenario_done(sc));
    rg_scenario_free(sc);
}

/* ---- multiplayer (docs/formats.md, "Scenarios", Multiplayer) ---- */

static void per_player_rewards(void **state)
{
    fx *f = *state;
    /* Pong-like: opposite signs */
    load_strict(f, "{'rewards': [{'variables': {'u': {'reward': 1}, 'lives': {'reward': -1}}},"
                   "{'variables': {'u': {'reward': -1}, 'lives': {'reward': 1}}}]}");
    assert_int_equal(rg_scenario_players(f->sc), 2);
    f->ram[0] = 0;
    f->ram[4] = 0;
    step(f);
    f->ram[0] = 3;
    step(f);
    assert_reward(f, 0, 3);
    assert_reward(f, 1, -3);
    f->ram[4] = 2;
    step(f);
    assert_reward(f, 0, -2);
    assert_reward(f, 1, 2);
    assert_total(f, 0, 1);
    assert_total(f, 1, -1);
    assert_reward(f, 2, 0);
    assert_reward(f, RG_SCENARIO_MAX_PLAYERS, 0);
    assert_float_equal(rg_scenario_total_reward(f->sc, 1000), 0, 0);

    /* "reward" wins over rewards[0] for the same variable; other variables of rewards[0] are added. The key
     * order of the text does not matter. */
    load_strict(f, "{'rewards': [{'variables': {'u': {'reward': 100}, 'lives': {'reward': 1}}, 'time': "
                   "{'reward': 1000}}], 'reward': {'variables': {'u': {'reward': 2}}, 'time': {'reward': 0.5}}}");
    assert_int_equal(rg_scenario_players(f->sc), 1);
    f->ram[0] = 0;
    f->ram[4] = 0;
    step(f);
    assert_reward(f, 0, 0.5f);
    f->ram[0] = 1;
    f->ram[4] = 4;
    step(f);
    assert_reward(f, 0, 2 + 4 + 0.5f);
    assert_reward(f, 1, 0);

    /* only player 2 defined: player 1 gets 0, players() counts up to the last defined */
    load_strict(f, "{'rewards': [{}, {'variables': {'u': {'reward': 1}}}]}");
    assert_int_equal(rg_scenario_players(f->sc), 2);
    f->ram[0] = 0;
    step(f);
    f->ram[0] = 9;
    step(f);
    assert_reward(f, 0, 0);
    assert_reward(f, 1, 9);

    /* more players than we keep: the rest is ignored */
    load(f, "{'rewards': [{}, {}, {}, {}, {'variables': {'u': {'reward': 1}}}, {}]}");
    assert_true(rg_scenario_players(f->sc) <= RG_SCENARIO_MAX_PLAYERS);
    step(f);

    /* an empty scenario has one player */
    load_strict(f, "{}");
    assert_int_equal(rg_scenario_players(f->sc), 1);

    /* by hand */
    rg_scenario *sc;
    assert_int_equal(rg_scenario_create(&sc), RG_OK);
    rg_reward_spec s = {RG_MEASURE_ABSOLUTE, RG_OP_NOOP, 0, 1, 1};
    assert_int_equal(rg_scenario_set_reward(sc, 3, "u", &s), RG_OK);
    assert_int_equal(rg_scenario_set_reward(sc, RG_SCENARIO_MAX_PLAYERS, "u", &s), RG_ERANGE);
    assert_int_equal(rg_scenario_set_reward(sc, 0, NULL, &s), RG_EINVAL);
    assert_int_equal(rg_scenario_set_reward(sc, 0, "u", NULL), RG_EINVAL);
    assert_int_equal(rg_scenario_players(sc), 4);
    f->ram[0] = 7;
    assert_int_equal(rg_scenario_update(sc, f->gd), RG_OK);
    assert_float_equal(rg_scenario_reward(sc, 3), 7, 1e-6);
    /* setting a variable again replaces its spec */
    s.reward = 2;
    assert_int_equal(rg_scenario_set_reward(sc, 3, "u", &s), RG_OK);
    assert_int_equal(rg_scenario_update(sc, f->gd), RG_OK);
    assert_float_equal(rg_scenario_reward(sc, 3), 14, 1e-6);
    rg_scenario_free(sc);
}

/* ---- delta semantics, frame counter, totals, reset (docs/formats.md, "Scenarios", update order and reset) ---- */

static void delta_semantics_and_reset(void **state)
{
    fx *f = *state;
    load_strict(f, "{'reward': {'variables': {'u': {'reward': 1, 'penalty': 1}}}}");
    assert_int_equal(rg_scenario_frame(f->sc), 0);
    f->ram[0] = 5;
    step(f);
    assert_reward(f, 0, 0); /* no previous snapshot */
    int64_t d = 99;
    assert_int_equal(rg_gamedata_delta(f->gd, "u", &d), RG_OK);
    assert_int_equal(d, 0);
    assert_int_equal(rg_scenario_frame(f->sc), 1);
    f->ram[0] = 9;
    step(f);
    assert_reward(f, 0, 4);
    assert_total(f, 0, 4);
    step(f);
    assert_reward(f, 0, 0);
    f->ram[0] = 2;
    step(f);
    assert_reward(f, 0, -7);
    assert_total(f, 0, -3);
    assert_int_equal(rg_gamedata_delta(f->gd, "u", &d), RG_OK);
    assert_int_equal(d, -7);
    assert_int_equal(rg_scenario_frame(f->sc), 4);

    /* a change between updates that is undone before the next one is invisible */
    f->ram[0] = 100;
    f->ram[0] = 2;
    step(f);
    assert_reward(f, 0, 0);

    /* reset: rewards, totals, frame, done to zero; custom variables cleared */
    assert_int_equal(rg_gamedata_custom_set(f->gd, "foo", (rg_value){RG_VALUE_NUMBER, 3}), RG_OK);
    assert_int_equal(rg_gamedata_custom_count(f->gd), 1);
    reset(f);
    assert_reward(f, 0, 0);
    assert_total(f, 0, 0);
    assert_int_equal(rg_scenario_frame(f->sc), 0);
    assert_false(DONE(f));
    assert_int_equal(rg_gamedata_custom_count(f->gd), 0);
    rg_value v;
    assert_int_equal(rg_gamedata_custom_get(f->gd, "foo", &v), RG_ENOTFOUND);
    /* the first update after a reset compares with the previous episode's last values (docs/formats.md, "Scenarios",
     * reset) */
    f->ram[0] = 6;
    step(f);
    assert_reward(f, 0, 4);
    assert_total(f, 0, 4);
    assert_int_equal(rg_scenario_frame(f->sc), 1);

    /* reset clears the done flag too */
    load_strict(f, "{'done': {'condition': 'all'}}");
    step(f);
    assert_true(DONE(f));
    reset(f);
    assert_false(DONE(f));
    assert_int_equal(rg_scenario_reset(NULL, f->gd), RG_EINVAL);
    assert_int_equal(rg_scenario_reset(f->sc, NULL), RG_EINVAL);
}

static void delta_of_masked_wide_and_bcd(void **state)
{
    fx *f = *state;
    /* the mask applies before the delta */
    load_strict(f, "{'reward': {'variables': {'m': {'reward': 1, 'penalty': 1}}}}");
    f->ram[7] = 0x12;
    step(f);
    f->ram[7] = 0x25;
    step(f);
    assert_reward(f, 0, 3);
    f->ram[7] = 0xF5;
    step(f);
    assert_reward(f, 0, 0);
    f->ram[7] = 0x01;
    step(f);
    assert_reward(f, 0, -4);

    /* big-endian word */
    load_strict(f, "{'reward': {'variables': {'w': {'reward': 1, 'penalty': 1}}}}");
    f->ram[2] = 0x01;
    f->ram[3] = 0x00;
    step(f);
    f->ram[3] = 0x10;
    step(f);
    assert_reward(f, 0, 16);
    f->ram[2] = 0x00;
    step(f);
    assert_reward(f, 0, -256);

    /* 64-bit values: the delta is taken modulo 2^64 (INT64_MAX -> INT64_MIN is +1), never a trap */
    load_strict(f, "{'reward': {'variables': {'big': {'op': 'sign', 'reward': 1, 'penalty': 1}}}}");
    memset(f->ram + 8, 0, 8);
    step(f);
    memcpy(f->ram + 8, "\xff\xff\xff\xff\xff\xff\xff\x7f", 8);
    step(f);
    assert_reward(f, 0, 1);
    memcpy(f->ram + 8, "\x00\x00\x00\x00\x00\x00\x00\x80", 8);
    step(f);
    assert_reward(f, 0, 1);
    memcpy(f->ram + 8, "\xff\xff\xff\xff\xff\xff\xff\x7f", 8);
    step(f);
    assert_reward(f, 0, -1);
    /* and a big value through the float coefficient */
    load_strict(f, "{'reward': {'variables': {'big': {'measurement': 'absolute', 'reward': 1}}}}");
    step(f);
    assert_float_equal(R0(f), 9.2233720368547758e18f, 1e12);
}

static void frame_counter_and_totals(void **state)
{
    fx *f = *state;
    load_strict(f, "{'reward': {'time': {'reward': 1}, 'variables': {'u': {'reward': 0.5}}}}");
    float total = 0;
    for (int k = 0; k < 100; k++) {
        f->ram[0] = (uint8_t)(k * 3);
        step(f);
        float want = 1 + (k ? 1.5f : 0);
        if ((uint8_t)(k * 3) < (uint8_t)((k - 1) * 3))
            want = 1; /* the byte wrapped: a decrease, no penalty */
        assert_reward(f, 0, want);
        total += want;
        assert_total(f, 0, total);
        assert_int_equal(rg_scenario_frame(f->sc), (uint64_t)k + 1);
    }
    /* loading a scenario starts it over */
    load_strict(f, "{'reward': {'time': {'reward': 1}}}");
    assert_int_equal(rg_scenario_frame(f->sc), 0);
    assert_total(f, 0, 0);
    assert_reward(f, 0, 0);
}

/* ---- crop, actions ---- */

static void crop_and_crops(void **state)
{
    fx *f = *state;
    unsigned c[4];
    load_strict(f, "{}");
    rg_scenario_crop(f->sc, 0, c);
    assert_true(c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 0);

    load_strict(f, "{'crop': [1, 2, 300, 200]}");
    for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++) {
        rg_scenario_crop(f->sc, p, c);
        assert_true(c[0] == 1 && c[1] == 2 && c[2] == 300 && c[3] == 200);
    }
    memset(c, 0xff, sizeof c);
    rg_scenario_crop(f->sc, RG_SCENARIO_MAX_PLAYERS, c);
    assert_true(c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 0);
    rg_scenario_crop(NULL, 0, c);
    assert_true(c[0] == 0 && c[3] == 0);

    load_strict(f, "{'crops': [[1, 2, 3, 4], [5, 6, 7, 8]]}");
    rg_scenario_crop(f->sc, 0, c);
    assert_true(c[0] == 1 && c[1] == 2 && c[2] == 3 && c[3] == 4);
    rg_scenario_crop(f->sc, 1, c);
    assert_true(c[0] == 5 && c[1] == 6 && c[2] == 7 && c[3] == 8);
    rg_scenario_crop(f->sc, 2, c);
    assert_true(c[0] == 0 && c[2] == 0);

    load_strict(f, "{'crop': [0, 0, 0, 0], 'crops': [[0, 8, 0, 0]]}");
    rg_scenario_crop(f->sc, 0, c);
    assert_true(c[1] == 8);

    /* integral reals are integers */
    load_strict(f, "{'crop': [1.0, 2, 3, 4]}");
    rg_scenario_crop(f->sc, 0, c);
    assert_int_equal(c[0], 1);

    static const char *const bad[] = {"[1, 2, 3]", "[1, 2, 3, 4, 5]", "[-1, 0, 0, 0]", "[1.5, 0, 0, 0]",
                                      "[70000, 0, 0, 0]", "['1', 0, 0, 0]", "5", "{}", "null", "[]"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char json[128];
        snprintf(json, sizeof json, "{'crop': %s}", bad[k]);
        assert_int_equal(try_load(f, json, 0), RG_OK);
        if (!has_warning(f->sc, "crop"))
            fail_msg("crop %s: no warning", bad[k]);
        rg_scenario_crop(f->sc, 0, c);
        assert_true(c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 0);
        assert_int_equal(try_load(f, json, RG_LOAD_STRICT), RG_ECORRUPT);
        snprintf(json, sizeof json, "{'crops': [%s]}", bad[k]);
        assert_int_equal(try_load(f, json, 0), RG_OK);
        assert_true(has_warning(f->sc, "crops"));
        assert_int_equal(try_load(f, json, RG_LOAD_STRICT), RG_ECORRUPT);
    }
}

static void actions_parsing(void **state)
{
    fx *f = *state;
    load_strict(f, "{'actions': [[[], ['UP'], ['DOWN']], [['A', 'B'], ['START'], ['TURBO', 'A', 'TURBO']]]}");
    const rg_scenario *sc = f->sc;
    assert_int_equal(rg_scenario_action_group_count(sc), 2);
    assert_int_equal(rg_scenario_action_combo_count(sc, 0), 3);
    assert_int_equal(rg_scenario_action_button_count(sc, 0, 0), 0);
    assert_int_equal(rg_scenario_action_button_count(sc, 0, 1), 1);
    assert_string_equal(rg_scenario_action_button(sc, 0, 1, 0), "UP");
    assert_string_equal(rg_scenario_action_button(sc, 0, 2, 0), "DOWN");
    assert_int_equal(rg_scenario_action_combo_count(sc, 1), 3);
    assert_int_equal(rg_scenario_action_button_count(sc, 1, 0), 2);
    assert_string_equal(rg_scenario_action_button(sc, 1, 0, 0), "A");
    assert_string_equal(rg_scenario_action_button(sc, 1, 0, 1), "B");
    assert_string_equal(rg_scenario_action_button(sc, 1, 1, 0), "START");
    assert_int_equal(rg_scenario_action_button_count(sc, 1, 2), 3); /* kept as written */
    assert_string_equal(rg_scenario_action_button(sc, 1, 2, 2), "TURBO");
    /* out of range */
    assert_int_equal(rg_scenario_action_combo_count(sc, 2), 0);
    assert_int_equal(rg_scenario_action_button_count(sc, 0, 3), 0);
    assert_int_equal(rg_scenario_action_button_count(sc, 5, 0), 0);
    assert_null(rg_scenario_action_button(sc, 0, 1, 1));
    assert_null(rg_scenario_action_button(sc, 9, 0, 0));
    assert_null(rg_scenario_action_button(NULL, 0, 0, 0));
    assert_int_equal(rg_scenario_action_group_count(NULL), 0);

    load_strict(f, "{}");
    assert_int_equal(rg_scenario_action_group_count(f->sc), 0);
    load_strict(f, "{'actions': []}");
    assert_int_equal(rg_scenario_action_group_count(f->sc), 0);
    load_strict(f, "{'actions': [[]]}");
    assert_int_equal(rg_scenario_action_group_count(f->sc), 1);
    assert_int_equal(rg_scenario_action_combo_count(f->sc, 0), 0);

    /* a malformed "actions" is an error even when lenient (docs/formats.md, "Scenarios": Gym Retro raises) */
    static const char *const bad[] = {"5", "'UP'", "{}", "null", "true", "[5]", "['UP']", "[{}]", "[[5]]",
                                      "[['UP']]", "[[[5]]]", "[[[null]]]", "[[['A', 5]]]", "[[[['A']]]]",
                                      "[[[]], 5]", "[[[], {}]]"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char json[128];
        snprintf(json, sizeof json, "{'actions': %s}", bad[k]);
        load_strict(f, "{'actions': [[[], ['B']]]}");
        for (unsigned flags = 0; flags <= RG_LOAD_STRICT; flags += RG_LOAD_STRICT) {
            int rc = try_load(f, json, flags);
            if (rc != RG_ECORRUPT)
                fail_msg("actions %s (flags %u): %s, expected RG_ECORRUPT", bad[k], flags, rg_error_name(rc));
            /* the previous scenario is kept */
            assert_int_equal(rg_scenario_action_group_count(f->sc), 1);
            assert_string_equal(rg_scenario_action_button(f->sc, 0, 1, 0), "B");
        }
    }
}

/* ---- loading: lenient fallbacks and strict mode ---- */

typedef struct lenient_case {
    const char *json;
    const char *needle; /* part of the warning */
} lenient_case;

static const lenient_case lenient[] = {
    {"{'reward': {'variables': {'u': {'measurement': 'sideways', 'reward': 1}}}}", "measurement"},
    {"{'reward': {'variables': {'u': {'measurement': 5, 'reward': 1}}}}", "measurement"},
    {"{'reward': {'variables': {'u': {'op': 'bogus', 'reward': 1}}}}", "op"},
    {"{'reward': {'variables': {'u': {'op': 7, 'reward': 1}}}}", "op"},
    {"{'reward': {'variables': {'u': {'reference': '5', 'reward': 1}}}}", "reference"},
    {"{'reward': {'variables': {'u': {'reference': 1e300, 'reward': 1}}}}", "reference"},
    {"{'reward': {'variables': {'u': {'reward': '1'}}}}", "reward"},
    {"{'reward': {'variables': {'u': {'penalty': true}}}}", "penalty"},
    {"{'reward': {'variables': {'u': 5}}}", "u"},
    {"{'reward': {'variables': {'u': []}}}", "u"},
    {"{'reward': {'variables': []}}", "variables"},
    {"{'reward': {'variables': 'u'}}", "variables"},
    {"{'reward': 5}", "reward"},
    {"{'reward': []}", "reward"},
    {"{'reward': {'time': 1}}", "reward"},
    {"{'reward': {'script': 5}}", "script"},
    {"{'rewards': {}}", "rewards"},
    {"{'rewards': [5]}", "reward"},
    {"{'done': 5}", "done"},
    {"{'done': {'variables': {'u': {'op': 'bogus'}}}}", "op"},
    {"{'done': {'variables': {'u': {'measurement': 'relative'}}}}", "measurement"},
    {"{'done': {'variables': {'u': {'reference': [1]}}}}", "reference"},
    {"{'done': {'variables': {'u': 'zero'}}}", "u"},
    {"{'done': {'variables': ['u']}}", "variables"},
    {"{'done': {'nodes': []}}", "nodes"},
    {"{'done': {'nodes': {'n': 5}}}", "n"},
    {"{'done': {'nodes': {'n': {'variables': {'u': {'op': 'nope'}}}}}}", "op"},
    {"{'done': {'script': 5}}", "script"},
    {"{'crop': [1, 2]}", "crop"},
    {"{'crops': 5}", "crops"},
};

static void lenient_and_strict_loading(void **state)
{
    fx *f = *state;
    for (size_t k = 0; k < sizeof lenient / sizeof lenient[0]; k++) {
        load_strict(f, "{'reward': {'variables': {'lives': {'reward': 7}}}}");
        int rc = try_load(f, lenient[k].json, 0);
        if (rc != RG_OK)
            fail_msg("lenient %s: %s: %s", lenient[k].json, rg_error_name(rc), rg_error_last());
        if (rg_scenario_warning_count(f->sc) == 0)
            fail_msg("lenient %s: no warning", lenient[k].json);
        if (!has_warning(f->sc, lenient[k].needle))
            fail_msg("lenient %s: warning \"%s\" does not mention %s", lenient[k].json, rg_scenario_warning(f->sc, 0),
                     lenient[k].needle);
        for (size_t w = 0; w < rg_scenario_warning_count(f->sc); w++)
            assert_true(strlen(rg_scenario_warning(f->sc, w)) > 0);
        assert_null(rg_scenario_warning(f->sc, rg_scenario_warning_count(f->sc)));
        /* the lenient scenario evaluates */
        step(f);
        /* strict: an error, and the lenient scenario stays (with its warnings) */
        size_t nw = rg_scenario_warning_count(f->sc);
        rc = try_load(f, lenient[k].json, RG_LOAD_STRICT);
        if (rc != RG_ECORRUPT)
            fail_msg("strict %s: %s, expected RG_ECORRUPT", lenient[k].json, rg_error_name(rc));
        assert_true(strlen(rg_error_last()) > 0);
        assert_int_equal(rg_scenario_warning_count(f->sc), nw);
    }
    /* a clean load has no warnings */
    load_strict(f, "{}");
    assert_int_equal(rg_scenario_warning_count(f->sc), 0);
    assert_null(rg_scenario_warning(f->sc, 0));
    assert_int_equal(rg_scenario_warning_count(NULL), 0);
    assert_null(rg_scenario_warning(NULL, 0));
}

/* The fallbacks are the defaults of docs/formats.md, "Scenarios" (reward variable and done tables). */
static void lenient_fallback_values(void **state)
{
    fx *f = *state;
    /* unknown op: pass-through */
    load(f, "{'reward': {'variables': {'u': {'measurement': 'absolute', 'op': 'bogus', 'reference': 100, "
            "'reward': 2}}}}");
    f->ram[0] = 5;
    step(f);
    assert_reward(f, 0, 10);
    /* unknown measurement: delta for a reward */
    load(f, "{'reward': {'variables': {'u': {'measurement': 'sideways', 'reward': 1}}}}");
    f->ram[0] = 5;
    step(f);
    f->ram[0] = 8;
    step(f);
    assert_reward(f, 0, 3);
    /* unknown measurement: absolute for a done */
    load(f, "{'done': {'variables': {'u': {'measurement': 'sideways', 'op': 'equal', 'reference': 8}}}}");
    step(f);
    assert_true(DONE(f));
    /* bad reference: 0 */
    load(f, "{'done': {'variables': {'u': {'op': 'equal', 'reference': 'x'}}}}");
    f->ram[0] = 0;
    step(f);
    assert_true(DONE(f));
    /* bad coefficient: 0, the other one still applies */
    load(f, "{'reward': {'variables': {'u': {'reward': 'lots', 'penalty': 2}}}}");
    f->ram[0] = 4;
    step(f);
    f->ram[0] = 9;
    step(f);
    assert_reward(f, 0, 0);
    f->ram[0] = 8;
    step(f);
    assert_reward(f, 0, -2);
    /* a bad variable spec does not stop the others */
    load(f, "{'reward': {'variables': {'lives': 5, 'u': {'reward': 1}}}}");
    f->ram[0] = 9;
    step(f);
    assert_reward(f, 0, 1);
    /* unknown keys are ignored without a warning */
    load_strict(f, "{'reward': {'variables': {'u': {'reward': 1, 'color': 'red'}}, 'extra': 1}, 'name': 'x', "
                   "'done': {'whatever': []}}");
}

static void failed_load_keeps_previous(void **state)
{
    fx *f = *state;
    load(f, "{'reward': {'variables': {'u': {'reward': 2}}}, 'done': {'variables': {'lives': {'op': 'zero'}}}, "
            "'crop': [1, 2, 3, 4], 'actions': [[[], ['A']]], 'extra': {'op': 1}, "
            "'rewards': [{}, {'variables': {'u': {'op': 'nope', 'reward': 1}}}]}");
    size_t nw = rg_scenario_warning_count(f->sc);
    assert_int_equal(nw, 1);
    static const char *const broken[] = {
        "{", "", "[]", "null", "5", "'x'", "{'reward': }", "{'reward': {'variables': {'u': {'reward': 1}}}",
        "{'actions': 5}", "{'scripts': ['x.py']}", "{'reward': {'script': 'python:f'}}",
        "{'reward': {'variables': {'u': {'op': 'bogus'}}}}", /* strict only */
    };
    for (size_t k = 0; k < sizeof broken / sizeof broken[0]; k++) {
        unsigned flags = k + 1 == sizeof broken / sizeof broken[0] ? RG_LOAD_STRICT : 0;
        int rc = try_load(f, broken[k], flags);
        if (rc != RG_ECORRUPT)
            fail_msg("%s: %s, expected RG_ECORRUPT", broken[k], rg_error_name(rc));
        assert_true(strlen(rg_error_last()) > 0);
        /* still the first scenario */
        assert_int_equal(rg_scenario_warning_count(f->sc), nw);
        assert_int_equal(rg_scenario_players(f->sc), 2);
        unsigned c[4];
        rg_scenario_crop(f->sc, 0, c);
        assert_int_equal(c[2], 3);
        assert_int_equal(rg_scenario_action_group_count(f->sc), 1);
        f->ram[0] = 1;
        f->ram[4] = 1;
        step(f);
        f->ram[0] = 2;
        step(f);
        assert_reward(f, 0, 2);
        assert_reward(f, 1, 1);
        assert_false(DONE(f));
    }
    /* missing files */
    assert_int_equal(rg_scenario_load_file(f->sc, "/nonexistent/scenario.json", 0), RG_ENOTFOUND);
    assert_int_equal(rg_scenario_players(f->sc), 2);
    assert_int_equal(rg_scenario_load_file(f->sc, NULL, 0), RG_EINVAL);
    assert_int_equal(rg_scenario_load_file(NULL, "x", 0), RG_EINVAL);
    assert_int_equal(rg_scenario_load_string(NULL, "{}", 2, NULL, 0), RG_EINVAL);
    assert_int_equal(rg_scenario_load_string(f->sc, NULL, 2, NULL, 0), RG_EINVAL);
}

/* ---- hostile input ---- */

static void hostile_malformed_json(void **state)
{
    fx *f = *state;
    static const char *const texts[] = {
        "", " ", "{", "}", "{{}}", "[", "null", "true", "1", "\"str\"", "[{}]", "{\"a\" 1}", "{\"a\": 1,}",
        "{\"done\": {\"variables\": {\"u\": {\"op\": \"zero\"}}}", "{'single': 'quotes'}", "\xff\xfe{}",
        "{\"\xff\": 1}", "{\"reward\": {\"variables\": {\"u\": {\"reward\": NaN}}}}", "{} {}", "/* c */ {}",
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++)
        for (unsigned flags = 0; flags <= RG_LOAD_STRICT; flags += RG_LOAD_STRICT) {
            int rc = rg_scenario_load_string(f->sc, texts[k], strlen(texts[k]), NULL, flags);
            if (rc != RG_ECORRUPT)
                fail_msg("text %zu (%s): %s, expected RG_ECORRUPT", k, texts[k], rg_error_name(rc));
        }
    /* an embedded NUL: the length is what counts */
    static const char nul[] = "{}\0garbage";
    assert_int_equal(rg_scenario_load_string(f->sc, nul, sizeof nul - 1, NULL, 0), RG_ECORRUPT);
    assert_int_equal(rg_scenario_load_string(f->sc, nul, 2, NULL, 0), RG_OK);
    assert_int_equal(rg_scenario_load_string(f->sc, NULL, 0, NULL, 0), RG_ECORRUPT);
}

/* Every key of the format given values of every kind: loads never crash, strict loads that succeed have no
 * warnings, and a loaded scenario updates (or fails cleanly). */
static void hostile_wrong_types_everywhere(void **state)
{
    fx *f = *state;
    static const char *const templates[] = {
        "{'reward': %s}", "{'rewards': %s}", "{'rewards': [%s]}", "{'done': %s}", "{'actions': %s}",
        "{'scripts': %s}", "{'crop': %s}", "{'crops': %s}", "{'crops': [%s]}",
        "{'reward': {'variables': %s}}", "{'reward': {'variables': {'u': %s}}}", "{'reward': {'time': %s}}",
        "{'reward': {'script': %s}}", "{'reward': {'variables': {'u': {'measurement': %s}}}}",
        "{'reward': {'variables': {'u': {'op': %s}}}}", "{'reward': {'variables': {'u': {'reference': %s}}}}",
        "{'reward': {'variables': {'u': {'reward': %s}}}}", "{'reward': {'variables': {'u': {'penalty': %s}}}}",
        "{'done': {'variables': %s}}", "{'done': {'variables': {'u': %s}}}", "{'done': {'nodes': %s}}",
        "{'done': {'nodes': {'n': %s}}}", "{'done': {'condition': %s}}", "{'done': {'script': %s}}",
        "{'done': {'variables': {'u': {'op': %s}}}}", "{'done': {'variables': {'u': {'reference': %s}}}}",
        "{'done': {'variables': {'u': {'measurement': %s}}}}", "{'actions': [%s]}", "{'actions': [[%s]]}",
        "{'actions': [[[%s]]]}",
    };
    static const char *const values[] = {
        "5", "-1", "0", "1.5", "-1e300", "1e300", "9223372036854775807", "-9223372036854775808", "'x'", "''",
        "'lua:'", "'lua:f'", "'python:f'", "':'", "'all'", "'zero'", "'delta'", "true", "false", "null", "[]",
        "{}", "[1, 2, 3, 4]", "[[]]", "[[[]]]", "{'u': {}}", "['a.lua']", "[5]", "{'variables': {}}",
    };
    char json[512];
    for (size_t t = 0; t < sizeof templates / sizeof templates[0]; t++)
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            snprintf(json, sizeof json, templates[t], values[v]);
            for (unsigned flags = 0; flags <= RG_LOAD_STRICT; flags += RG_LOAD_STRICT) {
                load_strict(f, "{}");
                int rc = try_load(f, json, flags);
                if (rc != RG_OK && rc != RG_ECORRUPT)
                    fail_msg("%s (flags %u): %s", json, flags, rg_error_name(rc));
                if (rc != RG_OK)
                    continue;
                if ((flags & RG_LOAD_STRICT) && rg_scenario_warning_count(f->sc))
                    fail_msg("%s: strict load succeeded with warning %s", json, rg_scenario_warning(f->sc, 0));
                rc = rg_scenario_update(f->sc, f->gd);
                if (rc != RG_OK && rc != RG_ENOTFOUND && rc != RG_ERANGE && rc != RG_ECORRUPT)
                    fail_msg("%s: update %s: %s", json, rg_error_name(rc), rg_error_last());
            }
        }
}

static void hostile_huge_numbers(void **state)
{
    fx *f = *state;
    /* references at the int64 limits are exact */
    load_strict(f, "{'done': {'variables': {'big': {'op': 'equal', 'reference': 9223372036854775807}}}}");
    memcpy(f->ram + 8, "\xff\xff\xff\xff\xff\xff\xff\x7f", 8);
    step(f);
    assert_true(DONE(f));
    load_strict(f, "{'done': {'variables': {'big': {'op': 'less-or-equal', 'reference': -9223372036854775808}}}}");
    step(f);
    assert_false(DONE(f));
    memcpy(f->ram + 8, "\x00\x00\x00\x00\x00\x00\x00\x80", 8);
    step(f);
    assert_true(DONE(f));
    /* integers outside int64 are refused cleanly (not silently wrapped) */
    assert_int_equal(try_load(f, "{'done': {'variables': {'big': {'reference': 9223372036854775808}}}}", 0),
                     RG_ECORRUPT);
    assert_int_equal(try_load(f, "{'done': {'variables': {'big': {'reference': 1e19}}}}", RG_LOAD_STRICT),
                     RG_ECORRUPT);
    /* a coefficient outside float32 (rewards would be infinite or NaN) is refused, lenient or not (issue 16) */
    assert_int_equal(
        try_load(f, "{'reward': {'variables': {'u': {'measurement': 'absolute', 'reward': 1e300, 'penalty': -1e300}}}}",
                 0),
        RG_ECORRUPT);
    assert_non_null(strstr(rg_error_last(), "outside the range of a 32-bit float"));
    /* large-but-finite coefficients and references */
    load_strict(f, "{'reward': {'variables': {'u': {'measurement': 'absolute', 'op': 'less-than', "
                   "'reference': 1e18, 'reward': 1e30}}}}");
    step(f);
    assert_float_equal(R0(f), 1e30f, 1e24);
    /* a long string and a long variable name */
    char *json = malloc(300000);
    assert_non_null(json);
    int n = snprintf(json, 300000, "{\"reward\": {\"variables\": {\"");
    memset(json + n, 'v', 200000);
    snprintf(json + n + 200000, 300000 - (size_t)n - 200000, "\": {\"reward\": 1}}}}");
    assert_int_equal(rg_scenario_load_string(f->sc, json, strlen(json), NULL, RG_LOAD_STRICT), RG_OK);
    assert_int_equal(rg_scenario_update(f->sc, f->gd), RG_ENOTFOUND);
    free(json);
}

static char *nested_done(int levels)
{
    size_t cap = (size_t)levels * 40 + 200;
    char *s = malloc(cap), *p = s;
    assert_non_null(s);
    p += sprintf(p, "{\"done\": ");
    for (int i = 0; i < levels; i++)
        p += sprintf(p, "{\"nodes\": {\"n\": ");
    p += sprintf(p, "{\"condition\": \"all\"}");
    for (int i = 0; i < levels; i++)
        p += sprintf(p, "}}");
    sprintf(p, "}");
    return s;
}

static void hostile_deep_nesting(void **state)
{
    fx *f = *state;
    /* The root done object counts as level 0 and each "nodes" child one more: 32 levels load, 33 do not. */
    for (int levels = 1; levels <= 32; levels++) {
        char *json = nested_done(levels);
        int rc = rg_scenario_load_string(f->sc, json, strlen(json), NULL, RG_LOAD_STRICT);
        if (rc != RG_OK)
            fail_msg("%d levels: %s: %s", levels, rg_error_name(rc), rg_error_last());
        free(json);
        step(f);
        assert_true(DONE(f)); /* any -> any -> ... -> empty all */
    }
    static const int too_deep[] = {33, 34, 100, 1000, 5000};
    for (size_t k = 0; k < sizeof too_deep / sizeof too_deep[0]; k++)
        for (unsigned flags = 0; flags <= RG_LOAD_STRICT; flags += RG_LOAD_STRICT) {
            char *json = nested_done(too_deep[k]);
            int rc = rg_scenario_load_string(f->sc, json, strlen(json), NULL, flags);
            free(json);
            if (rc != RG_ECORRUPT)
                fail_msg("%d levels: %s, expected RG_ECORRUPT", too_deep[k], rg_error_name(rc));
            assert_true(strlen(rg_error_last()) > 0);
        }
    /* the last good scenario (32 levels) is kept */
    step(f);
    assert_true(DONE(f));
    /* deep JSON elsewhere (arrays in "actions", objects under an ignored key) fails or loads cleanly */
    size_t cap = 20000 * 2 + 64;
    char *deep = malloc(cap), *p = deep;
    assert_non_null(deep);
    p += sprintf(p, "{\"actions\": ");
    for (int i = 0; i < 20000; i++)
        *p++ = '[';
    for (int i = 0; i < 20000; i++)
        *p++ = ']';
    sprintf(p, "}");
    assert_int_equal(rg_scenario_load_string(f->sc, deep, strlen(deep), NULL, 0), RG_ECORRUPT);
    free(deep);
}

static void scripts_languages(void **state)
{
    fx *f = *state;
    static const char *const bad[] = {
        "{'scripts': ['script.py']}", "{'scripts': ['python:script.py']}", "{'scripts': ['js:x.lua']}",
        "{'scripts': ['script']}", "{'scripts': ['lua:']}", "{'scripts': [5]}",
        "{'scripts': [null]}", "{'scripts': 'script.lua'}", "{'scripts': {'a': 'script.lua'}}",
        "{'reward': {'script': 'python:f'}}", "{'reward': {'script': 'lua:'}}", "{'reward': {'script': ''}}",
        "{'done': {'script': 'js:isdone'}}", "{'done': {'script': 'luajit:isdone'}}",
        "{'rewards': [{}, {'script': 'py:f'}]}",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        for (unsigned flags = 0; flags <= RG_LOAD_STRICT; flags += RG_LOAD_STRICT) {
            int rc = try_load(f, bad[k], flags);
            if (rc != RG_ECORRUPT)
                fail_msg("%s (flags %u): %s, expected RG_ECORRUPT", bad[k], flags, rg_error_name(rc));
        }
    static const char *const good[] = {
        "{'scripts': ['script.lua']}", "{'scripts': ['lua:script.lua']}", "{'scripts': ['lua:script']}",
        "{'scripts': []}", "{'reward': {'script': 'lua:f'}}", "{'reward': {'script': 'f'}}",
        "{'done': {'script': 'lua:isdone'}}", "{'scripts': ['/abs/script.lua']}",
    };
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++)
        load_strict(f, good[k]);
    /* hand-built references */
    assert_int_equal(rg_scenario_set_reward_script(f->sc, 0, "python:f"), RG_ECORRUPT);
    assert_int_equal(rg_scenario_set_done_script(f->sc, "js:f"), RG_ECORRUPT);
    assert_int_equal(rg_scenario_set_reward_script(f->sc, 0, "lua:"), RG_ECORRUPT);
    assert_int_equal(rg_scenario_set_reward_script(f->sc, RG_SCENARIO_MAX_PLAYERS, "f"), RG_ERANGE);
    assert_int_equal(rg_scenario_set_reward_script(f->sc, 0, "lua:f"), RG_OK);
    assert_int_equal(rg_scenario_set_reward_script(f->sc, 0, NULL), RG_OK);
    assert_int_equal(rg_scenario_set_done_script(f->sc, NULL), RG_OK);
    assert_int_equal(rg_scenario_add_script_file(f->sc, NULL), RG_EINVAL);
    assert_int_equal(rg_scenario_add_script_source(f->sc, "x", NULL), RG_EINVAL);
}

/* ---- update errors ---- */

static void update_errors(void **state)
{
    fx *f = *state;
    /* a variable the gamedata does not have */
    static const char *const missing[] = {
        "{'reward': {'variables': {'nope': {'reward': 1}}}}",
        "{'rewards': [{}, {'variables': {'nope': {'reward': 1}}}]}",
        "{'done': {'variables': {'nope': {'op': 'zero'}}}}",
        "{'done': {'nodes': {'a': {'nodes': {'b': {'variables': {'nope': {}}}}}}}}",
        "{'reward': {'variables': {'U': {'reward': 1}}}}",
    };
    for (size_t k = 0; k < sizeof missing / sizeof missing[0]; k++) {
        load_strict(f, missing[k]);
        int rc = rg_scenario_update(f->sc, f->gd);
        if (rc != RG_ENOTFOUND)
            fail_msg("%s: %s, expected RG_ENOTFOUND", missing[k], rg_error_name(rc));
        assert_non_null(strstr(rg_error_last(), k == 4 ? "U" : "nope"));
    }
    /* adding the variable afterwards makes it work (names are resolved again) */
    load_strict(f, "{'reward': {'variables': {'extra': {'measurement': 'absolute', 'reward': 1}}}}");
    assert_int_equal(rg_scenario_update(f->sc, f->gd), RG_ENOTFOUND);
    assert_int_equal(rg_gamedata_set_variable(f->gd, "extra", 40, "|u1", RG_MASK_ALL), RG_OK);
    f->ram[40] = 12;
    step(f);
    assert_reward(f, 0, 12);
    assert_int_equal(rg_gamedata_remove_variable(f->gd, "extra"), RG_OK);
    assert_int_equal(rg_scenario_update(f->sc, f->gd), RG_ENOTFOUND);

    /* unmapped addresses, in every place a variable is read */
    static const char *const unmapped[] = {
        "{'reward': {'variables': {'far': {'reward': 1}}}}",
        "{'reward': {'variables': {'far': {'measurement': 'absolute', 'reward': 1}}}}",
        "{'rewards': [{}, {'variables': {'far': {'reward': 1}}}]}",
        "{'done': {'variables': {'far': {'op': 'zero'}}}}",
        "{'done': {'variables': {'far': {'measurement': 'delta'}}}}",
        "{'done': {'nodes': {'a': {'variables': {'far': {}}}}}}",
        "{'reward': {'variables': {'edge': {'reward': 1}}}}",  /* crosses the end of its block */
        "{'done': {'variables': {'edge': {'op': 'zero'}}}}",
    };
    for (size_t k = 0; k < sizeof unmapped / sizeof unmapped[0]; k++) {
        load_strict(f, unmapped[k]);
        for (int rep = 0; rep < 2; rep++) {
            int rc = rg_scenario_update(f->sc, f->gd);
            if (rc != RG_ERANGE)
                fail_msg("%s: %s, expected RG_ERANGE", unmapped[k], rg_error_name(rc));
        }
    }
    /* a variable in the second block works; unmapped variables that nobody uses are no error */
    load_strict(f, "{'reward': {'variables': {'hi': {'measurement': 'absolute', 'reward': 1}}}}");
    f->hi[0] = 42;
    step(f);
    assert_reward(f, 0, 42);
    /* an any-done that fires before reaching an unmapped variable still reads it? Either outcome is clean. */
    load_strict(f, "{'done': {'variables': {'u': {'op': 'zero'}, 'far': {}}}}");
    f->ram[0] = 0;
    int rc = rg_scenario_update(f->sc, f->gd);
    assert_true(rc == RG_OK || rc == RG_ERANGE);

    /* no memory bound */
    rg_gamedata *bare;
    assert_int_equal(rg_gamedata_create(&bare), RG_OK);
    assert_int_equal(rg_gamedata_load_string(bare, data_json, strlen(data_json), 0), RG_OK);
    load_strict(f, "{'reward': {'variables': {'u': {'reward': 1}}}}");
    assert_int_equal(rg_scenario_update(f->sc, bare), RG_EMISUSE);
    rg_gamedata_free(bare);
    assert_int_equal(rg_scenario_update(NULL, f->gd), RG_EINVAL);
    assert_int_equal(rg_scenario_update(f->sc, NULL), RG_EINVAL);

    /* a failed update changes neither the reward nor the frame counter */
    load_strict(f, "{'reward': {'time': {'reward': 1}, 'variables': {'far': {'reward': 1}}}}");
    assert_int_equal(rg_scenario_update(f->sc, f->gd), RG_ERANGE);
    assert_int_equal(rg_scenario_frame(f->sc), 0);
    assert_total(f, 0, 0);
}

/* Variables of a player with a reward script are ignored (they need not exist); so are done variables under a
 * done script. */
static void script_overrides_variables(void **state)
{
    fx *f = *state;
    load_strict(f, "{'reward': {'variables': {'nope': {'reward': 1}}, 'time': {'reward': 5}, 'script': 'lua:r'}, "
                   "'done': {'condition': 'all', 'variables': {'nope2': {}}, 'script': 'd'}}");
    assert_int_equal(rg_scenario_add_script_source(f->sc, "inline",
                                                   "function r() return 7 end\nfunction d() return false end\n"),
                     RG_OK);
    reset(f);
    step(f);
    assert_reward(f, 0, 7);
    assert_false(DONE(f));
}

/* Lua call order (docs/formats.md, "Lua scripts"): done first, then the reward of each player; top-level code runs
 * again at each reset; scenario.frame counts the updates before this one. */
static void lua_order_frame_and_reset(void **state)
{
    fx *f = *state;
    load_strict(f, "{'rewards': [{'script': 'lua:r0'}, {'script': 'r1'}], 'done': {'script': 'lua:isdone'}}");
    assert_int_equal(rg_scenario_add_script_source(f->sc, "order",
                                                   "calls = ''\n"
                                                   "function isdone() calls = calls .. 'd'\n"
                                                   "  return scenario.frame >= 2 end\n"
                                                   "function r0() calls = calls .. '0'; return #calls end\n"
                                                   "function r1() calls = calls .. '1'; return #calls * 10 + "
                                                   "scenario.frame end\n"),
                     RG_OK);
    reset(f);
    step(f);
    assert_reward(f, 0, 2);  /* "d0" */
    assert_reward(f, 1, 30); /* "d01", frame 0 */
    assert_false(DONE(f));
    step(f);
    assert_reward(f, 0, 5);
    assert_reward(f, 1, 61);
    step(f);
    assert_true(DONE(f)); /* frame 2 during the third update */
    assert_total(f, 0, 2 + 5 + 8);
    reset(f);
    step(f);
    assert_reward(f, 0, 2);
    assert_reward(f, 1, 30);
    assert_int_equal(rg_scenario_frame(f->sc), 1);

    /* timestep = frame / 4 (integer) */
    load_strict(f, "{'reward': {'script': 'ts'}}");
    assert_int_equal(rg_scenario_add_script_source(f->sc, "ts", "function ts() return scenario.timestep end"),
                     RG_OK);
    reset(f);
    for (int k = 0; k < 10; k++) {
        step(f);
        assert_reward(f, 0, (float)(k / 4));
    }

    /* return values: booleans 0/1, nil and others 0 */
    load_strict(f, "{'rewards': [{'script': 'a'}, {'script': 'b'}, {'script': 'c'}, {'script': 'e'}], "
                   "'done': {'script': 'dn'}}");
    assert_int_equal(rg_scenario_add_script_source(f->sc, "ret",
                                                   "function a() return true end\nfunction b() return 'str' end\n"
                                                   "function c() end\nfunction e() return -2.5 end\n"
                                                   "function dn() return 0 end\n"),
                     RG_OK);
    reset(f);
    step(f);
    assert_reward(f, 0, 1);
    assert_reward(f, 1, 0);
    assert_reward(f, 2, 0);
    assert_reward(f, 3, -2.5f);
    /* 0 is falsy here although Lua calls it true (docs/formats.md, "Lua scripts": a number is used as is) */
    assert_false(DONE(f));

    /* a failing script is RG_ECORRUPT with "Lua call failed"; a missing function too is an error */
    load_strict(f, "{'reward': {'script': 'boom'}}");
    assert_int_equal(rg_scenario_add_script_source(f->sc, "boom", "function boom() error('kaput') end"), RG_OK);
    reset(f);
    assert_int_equal(rg_scenario_update(f->sc, f->gd), RG_ECORRUPT);
    assert_non_null(strstr(rg_error_last(), "kaput"));
    load_strict(f, "{'reward': {'script': 'absent'}}");
    reset(f);
    assert_true(rg_scenario_update(f->sc, f->gd) < 0);
}

/* Lua's data global over our RAM: variables, raw bytes, custom variables (cleared on reset), writes. */
static void lua_data_global(void **state)
{
    fx *f = *state;
    load_strict(f, "{'reward': {'script': 'r'}, 'done': {'script': 'd'}}");
    assert_int_equal(rg_scenario_add_script_source(f->sc, "data",
                                                   "data.seen = 0\n"
                                                   "function d() return data.lives == 0 end\n"
                                                   "function r()\n"
                                                   "  data.seen = data.seen + 1\n"
                                                   "  data.flag = data.seen > 1\n"
                                                   "  data.health = data.u + 1\n"
                                                   "  return data.w + data[3] * 1000 + data.i\n"
                                                   "end\n"),
                     RG_OK);
    f->ram[0] = 9;
    f->ram[1] = 0xfe;
    f->ram[2] = 1;
    f->ram[3] = 2;
    f->ram[4] = 1;
    reset(f);
    assert_int_equal(rg_gamedata_custom_count(f->gd), 1); /* data.seen from the top level */
    step(f);
    assert_reward(f, 0, 258 + 2000 - 2);
    assert_int_equal(f->ram[5], 10); /* data.health = u + 1 written to RAM */
    rg_value v;
    assert_int_equal(rg_gamedata_custom_get(f->gd, "seen", &v), RG_OK);
    assert_int_equal(v.kind, RG_VALUE_NUMBER);
    assert_float_equal(v.number, 1, 0);
    assert_int_equal(rg_gamedata_custom_get(f->gd, "flag", &v), RG_OK);
    assert_int_equal(v.kind, RG_VALUE_BOOL);
    assert_float_equal(v.number, 0, 0);
    step(f);
    assert_int_equal(rg_gamedata_custom_get(f->gd, "flag", &v), RG_OK);
    assert_float_equal(v.number, 1, 0);
    f->ram[4] = 0;
    step(f);
    assert_true(DONE(f));
    reset(f);
    assert_int_equal(rg_gamedata_custom_count(f->gd), 1);
    assert_int_equal(rg_gamedata_custom_get(f->gd, "seen", &v), RG_OK);
    assert_float_equal(v.number, 0, 0);
    assert_int_equal(rg_gamedata_custom_get(f->gd, "flag", &v), RG_ENOTFOUND);
}

/* Files: scripts are found beside scenario.json; an absolute script path is taken inside that folder. */
static void load_file_and_script_paths(void **state)
{
    fx *f = *state;
    const char *tmp = getenv("TMPDIR");
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/scenario-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/script.lua", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("bonus = 3\nfunction r() return data.u * bonus end\nfunction d() return data.u > 100 end\n", fp);
    fclose(fp);
    static const char *const variants[] = {
        "{\"reward\": {\"script\": \"lua:r\"}, \"done\": {\"script\": \"d\"}, \"scripts\": [\"script.lua\"]}",
        "{\"reward\": {\"script\": \"lua:r\"}, \"scripts\": [\"lua:script.lua\"]}",
        "{\"reward\": {\"script\": \"lua:r\"}, \"scripts\": [\"/script.lua\"]}",
        "{\"reward\": {\"script\": \"r\"}, \"crop\": [0, 0, 0, 0], \"scripts\": [\"script.lua\"]}",
    };
    snprintf(path, sizeof path, "%s/scenario.json", dir);
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        fp = fopen(path, "w");
        assert_non_null(fp);
        fputs(variants[k], fp);
        fclose(fp);
        int rc = rg_scenario_load_file(f->sc, path, RG_LOAD_STRICT);
        if (rc != RG_OK)
            fail_msg("%s: %s: %s", variants[k], rg_error_name(rc), rg_error_last());
        reset(f);
        f->ram[0] = 5;
        step(f);
        assert_reward(f, 0, 15);
    }
    /* a script file that is not there: reset fails cleanly, and so does an update */
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("{\"reward\": {\"script\": \"lua:r\"}, \"scripts\": [\"missing.lua\"]}", fp);
    fclose(fp);
    assert_int_equal(rg_scenario_load_file(f->sc, path, RG_LOAD_STRICT), RG_OK);
    assert_true(rg_scenario_reset(f->sc, f->gd) < 0);
    assert_true(rg_scenario_update(f->sc, f->gd) < 0);
    /* a scenario.json that is a folder */
    assert_true(rg_scenario_load_file(f->sc, dir, 0) < 0);
    snprintf(path, sizeof path, "%s/script.lua", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/scenario.json", dir);
    unlink(path);
    rmdir(dir);
}

/* In lenient mode a malformed key must not stop the keys after it from loading: "crops" of the wrong kind (a
 * warning) and the "scripts" that come after it in the file. */
static void lenient_fallback_keeps_later_keys(void **state)
{
    fx *f = *state;
    const char *tmp = getenv("TMPDIR");
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/scenario-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/script.lua", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("function r() return 11 end\n", fp);
    fclose(fp);
    static const char *const variants[] = {
        "{\"crops\": 5, \"reward\": {\"script\": \"r\"}, \"scripts\": [\"script.lua\"]}",
        "{\"crop\": 5, \"reward\": {\"script\": \"r\"}, \"scripts\": [\"script.lua\"]}",
        "{\"done\": 5, \"reward\": {\"script\": \"r\"}, \"scripts\": [\"script.lua\"]}",
        "{\"rewards\": 5, \"reward\": {\"script\": \"r\"}, \"scripts\": [\"script.lua\"]}",
    };
    snprintf(path, sizeof path, "%s/scenario.json", dir);
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        fp = fopen(path, "w");
        assert_non_null(fp);
        fputs(variants[k], fp);
        fclose(fp);
        assert_int_equal(rg_scenario_load_file(f->sc, path, 0), RG_OK);
        assert_true(rg_scenario_warning_count(f->sc) > 0);
        int rc = rg_scenario_reset(f->sc, f->gd);
        if (rc == RG_OK)
            rc = rg_scenario_update(f->sc, f->gd);
        if (rc != RG_OK || fabsf(R0(f) - 11) > 1e-6f)
            fail_msg("%s: the scripts after the bad key were not loaded (%s: %s)", variants[k], rg_error_name(rc),
                     rc ? rg_error_last() : "reward wrong");
    }
    snprintf(path, sizeof path, "%s/script.lua", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/scenario.json", dir);
    unlink(path);
    rmdir(dir);
}

/* A hostile scenario.json well under the 16 MiB limit with many variables must load in reasonable time: JSON keys
 * are unique, so nothing needs a quadratic scan (40000 reward and 40000 done terms, about 1.6 MB; a loader without
 * quadratic scans needs well under 0.5 s, even under ASan). */
static void hostile_many_variables(void **state)
{
    fx *f = *state;
    const int n = 150000; /* near the 16 MiB limit: a quadratic loader would run for minutes */
    size_t cap = (size_t)n * 80 + 100;
    char *json = malloc(cap), *p = json;
    assert_non_null(json);
    p += sprintf(p, "{\"reward\": {\"variables\": {");
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s\"v%07d\": {\"reward\": 1}", i ? "," : "", n - i);
    p += sprintf(p, "}}, \"done\": {\"variables\": {");
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s\"d%07d\": {}", i ? "," : "", i);
    sprintf(p, "}}}");
    int rc = rg_scenario_load_string(f->sc, json, strlen(json), NULL, RG_LOAD_STRICT);
    free(json);
    assert_int_equal(rc, RG_OK);
    assert_int_equal(rg_scenario_update(f->sc, f->gd), RG_ENOTFOUND);
}

/* Clearing a reward or done script after updates must bring the variables back: their names have to be resolved
 * then (they were skipped while the script was set). Kept last: with the bug this reads outside the variable array,
 * which ASan aborts on. */
static void script_cleared_uses_variables(void **state)
{
    fx *f = *state;
    load_strict(f, "{'reward': {'variables': {'u': {'measurement': 'absolute', 'reward': 1}}, 'script': 'r'}, "
                   "'done': {'variables': {'lives': {'op': 'zero'}}, 'script': 'd'}}");
    assert_int_equal(rg_scenario_add_script_source(f->sc, "s", "function r() return -1 end\n"
                                                               "function d() return true end\n"),
                     RG_OK);
    reset(f);
    f->ram[0] = 6;
    f->ram[4] = 3;
    step(f);
    assert_reward(f, 0, -1);
    assert_true(DONE(f));
    assert_int_equal(rg_scenario_set_reward_script(f->sc, 0, NULL), RG_OK);
    assert_int_equal(rg_scenario_set_done_script(f->sc, NULL), RG_OK);
    int rc = rg_scenario_update(f->sc, f->gd);
    if (rc != RG_OK)
        fail_msg("update after clearing the scripts: %s: %s", rg_error_name(rc), rg_error_last());
    assert_reward(f, 0, 6);
    assert_false(DONE(f)); /* lives 3 is not zero */
}

static void null_and_free(void **state)
{
    (void)state;
    rg_scenario_free(NULL);
    assert_int_equal(rg_scenario_create(NULL), RG_EINVAL);
    assert_float_equal(rg_scenario_reward(NULL, 0), 0, 0);
    assert_float_equal(rg_scenario_total_reward(NULL, 0), 0, 0);
    assert_int_equal(rg_scenario_done(NULL), 0);
    assert_int_equal(rg_scenario_frame(NULL), 0);
    assert_int_equal(rg_scenario_players(NULL), 1);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(op_apply_table),
        cmocka_unit_test(op_negative_equal_of_int64_min),
        cmocka_unit_test(op_names_round_trip),
        T(reward_multipliers_absolute),
        T(reward_multipliers_delta),
        T(reward_ops_loaded),
        T(reward_loaded_cases),
        T(default_measurements),
        T(time_reward),
        T(done_ops),
        T(done_any_and_all),
        T(done_nodes_castlevania),
        T(done_nodes_nested),
        T(done_empty_quirks),
        T(per_player_rewards),
        T(delta_semantics_and_reset),
        T(delta_of_masked_wide_and_bcd),
        T(frame_counter_and_totals),
        T(crop_and_crops),
        T(actions_parsing),
        T(lenient_and_strict_loading),
        T(lenient_fallback_values),
        T(failed_load_keeps_previous),
        T(hostile_malformed_json),
        T(hostile_wrong_types_everywhere),
        T(hostile_huge_numbers),
        T(hostile_deep_nesting),
        T(scripts_languages),
        T(update_errors),
        T(script_overrides_variables),
        T(lua_order_frame_and_reset),
        T(lua_data_global),
        T(load_file_and_script_paths),
        T(lenient_fallback_keeps_later_keys),
        cmocka_unit_test(null_and_free),
        T(hostile_many_variables),
        T(script_cleared_uses_variables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
