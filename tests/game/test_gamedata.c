/* Variables of a game (data.json): manual and loaded sets, memory binding and overlays, deltas, custom variables,
 * saving, and every bad-input path of the loader. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint8_t ram[64];
static uint8_t hi[16];

static rg_gamedata *bound(void)
{
    rg_gamedata *gd;
    assert_int_equal(rg_gamedata_create(&gd), RG_OK);
    rg_mem_block blocks[] = {{0x100, sizeof ram, ram}, {0x8000, sizeof hi, hi}};
    assert_int_equal(rg_gamedata_bind_blocks(gd, blocks, 2, 1), RG_OK);
    memset(ram, 0, sizeof ram);
    memset(hi, 0, sizeof hi);
    return gd;
}

static int64_t get(rg_gamedata *gd, const char *name)
{
    int64_t v;
    int rc = rg_gamedata_get(gd, name, &v);
    if (rc != RG_OK)
        fail_msg("%s: %s", name, rg_error_last());
    return v;
}

static void manual_variables(void **state)
{
    (void)state;
    rg_gamedata *gd = bound();
    ram[0] = 1;
    ram[1] = 2;
    assert_int_equal(rg_gamedata_set_variable(gd, "a", 0x100, "|u1", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(gd, "b", 0x100, ">n2", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(gd, "c", 0x101, ">n1", RG_MASK_ALL), RG_OK);
    assert_int_equal(get(gd, "a"), 1);
    assert_int_equal(get(gd, "b"), 12);
    assert_int_equal(get(gd, "c"), 2);
    /* live: the value follows memory */
    ram[0] = 7;
    assert_int_equal(get(gd, "a"), 7);
    /* listing is by name */
    assert_int_equal(rg_gamedata_variable_count(gd), 3);
    rg_variable v;
    assert_int_equal(rg_gamedata_variable_at(gd, 1, &v), RG_OK);
    assert_string_equal(v.name, "b");
    assert_int_equal(v.address, 0x100);
    assert_int_equal(rg_gamedata_variable_at(gd, 3, &v), RG_ERANGE);
    /* replace and remove */
    assert_int_equal(rg_gamedata_set_variable(gd, "a", 0x101, "|u1", RG_MASK_ALL), RG_OK);
    assert_int_equal(get(gd, "a"), 2);
    assert_int_equal(rg_gamedata_remove_variable(gd, "a"), RG_OK);
    int64_t x;
    assert_int_equal(rg_gamedata_get(gd, "a", &x), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "\"a\""));
    assert_int_equal(rg_gamedata_remove_variable(gd, "a"), RG_ENOTFOUND);
    assert_int_equal(rg_gamedata_set_variable(gd, "", 0, "|u1", RG_MASK_ALL), RG_EINVAL);
    assert_int_equal(rg_gamedata_set_variable(gd, "bad", 0, "|u9", RG_MASK_ALL), RG_EINVAL);
    rg_gamedata_free(gd);
}

static void empty_and_unbound(void **state)
{
    (void)state;
    rg_gamedata *gd;
    assert_int_equal(rg_gamedata_create(&gd), RG_OK);
    int64_t v;
    assert_int_equal(rg_gamedata_get(gd, "x", &v), RG_ENOTFOUND);
    assert_int_equal(rg_gamedata_delta(gd, "x", &v), RG_ENOTFOUND);
    assert_int_equal(rg_gamedata_variable_count(gd), 0);
    assert_int_equal(rg_gamedata_set_variable(gd, "x", 0, "|u1", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_gamedata_get(gd, "x", &v), RG_EMISUSE);
    assert_int_equal(rg_gamedata_update(gd), RG_EMISUSE);
    uint8_t b;
    assert_int_equal(rg_gamedata_read(gd, 0, &b, 1), RG_EMISUSE);
    rg_gamedata_free(gd);
    rg_gamedata_free(NULL);
}

static void mask_on_read_only(void **state)
{
    (void)state;
    rg_gamedata *gd = bound();
    assert_int_equal(rg_gamedata_set_variable(gd, "lives", 0x110, "|u1", 0xF0), RG_OK);
    ram[0x10] = 0x3C;
    assert_int_equal(get(gd, "lives"), 0x30);
    assert_int_equal(rg_gamedata_set(gd, "lives", 0x0F), RG_OK);
    assert_int_equal(ram[0x10], 0x0F); /* writes overwrite every bit */
    assert_int_equal(get(gd, "lives"), 0);
    rg_gamedata_free(gd);
}

static void unmapped_and_block_ends(void **state)
{
    (void)state;
    rg_gamedata *gd = bound();
    assert_int_equal(rg_gamedata_set_variable(gd, "gap", 0x200, "|u1", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(gd, "edge", 0x100 + sizeof ram - 2, "<u4", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(gd, "top", 0x8000 + sizeof hi - 1, "|u1", RG_MASK_ALL), RG_OK);
    int64_t v;
    assert_int_equal(rg_gamedata_get(gd, "gap", &v), RG_ERANGE);
    assert_non_null(strstr(rg_error_last(), "not mapped"));
    assert_int_equal(rg_gamedata_get(gd, "edge", &v), RG_ERANGE);
    assert_non_null(strstr(rg_error_last(), "past the end"));
    /* a write that would cross the end changes nothing */
    ram[sizeof ram - 2] = 0xAA;
    ram[sizeof ram - 1] = 0xBB;
    assert_int_equal(rg_gamedata_set(gd, "edge", 0), RG_ERANGE);
    assert_int_equal(ram[sizeof ram - 2], 0xAA);
    assert_int_equal(ram[sizeof ram - 1], 0xBB);
    hi[sizeof hi - 1] = 9;
    assert_int_equal(get(gd, "top"), 9);
    /* update survives unreadable variables; their delta is the error */
    assert_int_equal(rg_gamedata_update(gd), RG_OK);
    assert_int_equal(rg_gamedata_delta(gd, "gap", &v), RG_ERANGE);
    assert_int_equal(rg_gamedata_delta(gd, "top", &v), RG_OK);
    rg_gamedata_free(gd);
}

/* Genesis-style overlay: words stored little-endian, seen big-endian (docs/formats.md, "Address space"). */
static void overlay_words(void **state)
{
    (void)state;
    uint8_t mem[8] = {0x01, 0x00, 0x03, 0x02, 0, 0, 0, 0};
    rg_gamedata *gd;
    assert_int_equal(rg_gamedata_create(&gd), RG_OK);
    rg_mem_block b = {0xFF0000, sizeof mem, mem};
    assert_int_equal(rg_gamedata_bind_blocks(gd, &b, 1, 2), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(gd, "w", 0xFF0000, ">u4", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(gd, "even", 0xFF0000, "|u1", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(gd, "odd", 0xFF0001, "|u1", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(gd, "score", 0xFF0004, ">u4", RG_MASK_ALL), RG_OK);
    assert_int_equal(get(gd, "w"), 0x00010203);
    assert_int_equal(get(gd, "even"), 0x00);
    assert_int_equal(get(gd, "odd"), 0x01);
    assert_int_equal(rg_gamedata_set(gd, "score", 0x11223344), RG_OK);
    assert_memory_equal(mem + 4, ((uint8_t[]){0x22, 0x11, 0x44, 0x33}), 4);
    assert_int_equal(get(gd, "score"), 0x11223344);
    assert_int_equal(rg_gamedata_set(gd, "odd", 0x7F), RG_OK);
    assert_int_equal(mem[0], 0x7F);
    assert_int_equal(mem[1], 0x00);
    /* a word width that is not a power of two is refused */
    assert_int_equal(rg_gamedata_bind_blocks(gd, &b, 1, 3), RG_EINVAL);
    rg_gamedata_free(gd);
}

static void deltas(void **state)
{
    (void)state;
    rg_gamedata *gd = bound();
    assert_int_equal(rg_gamedata_set_variable(gd, "x", 0x100, "|i1", RG_MASK_ALL), RG_OK);
    int64_t d = 99;
    assert_int_equal(rg_gamedata_delta(gd, "x", &d), RG_OK);
    assert_int_equal(d, 0);
    ram[0] = 5;
    assert_int_equal(rg_gamedata_update(gd), RG_OK);
    assert_int_equal(rg_gamedata_delta(gd, "x", &d), RG_OK);
    assert_int_equal(d, 0); /* one update: nothing to compare with */
    ram[0] = 2;
    assert_int_equal(rg_gamedata_update(gd), RG_OK);
    assert_int_equal(rg_gamedata_delta(gd, "x", &d), RG_OK);
    assert_int_equal(d, -3);
    ram[0] = 0xFF; /* -1 */
    assert_int_equal(rg_gamedata_update(gd), RG_OK);
    assert_int_equal(rg_gamedata_delta(gd, "x", &d), RG_OK);
    assert_int_equal(d, -3);
    /* deltas change only at updates */
    ram[0] = 100;
    assert_int_equal(rg_gamedata_delta(gd, "x", &d), RG_OK);
    assert_int_equal(d, -3);
    rg_gamedata_free(gd);
}

static void custom_variables(void **state)
{
    (void)state;
    rg_gamedata *gd = bound();
    rg_value v;
    assert_int_equal(rg_gamedata_custom_get(gd, "foo", &v), RG_ENOTFOUND);
    assert_int_equal(rg_gamedata_custom_set(gd, "foo", (rg_value){RG_VALUE_NUMBER, 1.5}), RG_OK);
    assert_int_equal(rg_gamedata_custom_set(gd, "bar", (rg_value){RG_VALUE_BOOL, 7}), RG_OK);
    assert_int_equal(rg_gamedata_custom_set(gd, "nil", (rg_value){RG_VALUE_NIL, 3}), RG_OK);
    assert_int_equal(rg_gamedata_custom_get(gd, "foo", &v), RG_OK);
    assert_int_equal(v.kind, RG_VALUE_NUMBER);
    assert_true(v.number == 1.5);
    assert_int_equal(rg_gamedata_custom_get(gd, "bar", &v), RG_OK);
    assert_int_equal(v.kind, RG_VALUE_BOOL);
    assert_true(v.number == 1);
    assert_int_equal(rg_gamedata_custom_get(gd, "nil", &v), RG_OK);
    assert_int_equal(v.kind, RG_VALUE_NIL);
    assert_int_equal(rg_gamedata_custom_count(gd), 3);
    const char *name;
    assert_int_equal(rg_gamedata_custom_at(gd, 0, &name, &v), RG_OK);
    assert_string_equal(name, "bar");
    assert_int_equal(rg_gamedata_custom_set(gd, "x", (rg_value){(rg_value_kind)9, 0}), RG_EINVAL);
    rg_gamedata_clear_custom(gd);
    assert_int_equal(rg_gamedata_custom_count(gd), 0);
    assert_int_equal(rg_gamedata_custom_get(gd, "foo", &v), RG_ENOTFOUND);
    rg_gamedata_free(gd);
}

static int load(rg_gamedata *gd, const char *json, unsigned flags)
{
    return rg_gamedata_load_string(gd, json, strlen(json), flags);
}

static void load_json(void **state)
{
    (void)state;
    rg_gamedata *gd = bound();
    const char *json = "{\"info\": {"
                       "\"score\": {\"address\": 256, \"type\": \">d2\"},"
                       "\"lives\": {\"address\": 258, \"type\": \"|u1\", \"mask\": 7, \"note\": \"ignored\"},"
                       "\"short\": {\"address\": 259, \"type\": \"u1\"},"
                       "\"wide\": {\"address\": 259, \"type\": \">u9\"}},"
                       "\"other\": 1}";
    assert_int_equal(load(gd, json, 0), RG_OK);
    assert_int_equal(rg_gamedata_variable_count(gd), 2);
    assert_int_equal(rg_gamedata_warning_count(gd), 2);
    int saw_short = 0, saw_wide = 0;
    for (size_t i = 0; i < 2; i++) {
        saw_short |= strstr(rg_gamedata_warning(gd, i), "short") != NULL;
        saw_wide |= strstr(rg_gamedata_warning(gd, i), "wide") != NULL;
    }
    assert_true(saw_short && saw_wide);
    ram[0] = 0x12;
    ram[1] = 0x34;
    ram[2] = 0xFF;
    assert_int_equal(get(gd, "score"), 1234);
    assert_int_equal(get(gd, "lives"), 7);
    /* a negative mask is two's complement (stable-retro's Amidar-Atari2600 lives: -113 on an |i1) */
    rg_gamedata *neg = bound();
    assert_int_equal(load(neg, "{\"info\": {\"l\": {\"address\": 256, \"type\": \"|i1\", \"mask\": -113}}}", RG_LOAD_STRICT),
                     RG_OK);
    ram[0] = 0xFF; /* -1 & ~0x70 */
    assert_int_equal(get(neg, "l"), -1 & -113);
    rg_gamedata_free(neg);
    ram[0] = 0x12;
    ram[1] = 0x34;
    ram[2] = 0xFF;
    /* strict: the skipped entries are errors, and the previous set stays */
    assert_int_equal(load(gd, json, RG_LOAD_STRICT), RG_ECORRUPT);
    assert_int_equal(rg_gamedata_variable_count(gd), 2);
    assert_int_equal(get(gd, "score"), 1234);
    rg_gamedata_free(gd);
}

static void load_failures_keep_previous(void **state)
{
    (void)state;
    rg_gamedata *gd = bound();
    assert_int_equal(load(gd, "{\"info\": {\"keep\": {\"address\": 256, \"type\": \"|u1\"}}}", 0), RG_OK);
    static const struct { const char *json; const char *message; } bad[] = {
        {"", "not valid JSON"},
        {"{\"info\": {", "not valid JSON"},
        {"[1, 2]", "not a JSON object"},
        {"{}", "no \"info\""},
        {"{\"info\": []}", "no \"info\""},
        {"{\"info\": {\"a\": {\"type\": \"|u1\"}}}", "has no address"},
        {"{\"info\": {\"a\": {\"address\": 1}}}", "has no type"},
        {"{\"info\": {\"a\": 5}}", "not an object"},
        {"{\"info\": {\"a\": {\"address\": \"0x10\", \"type\": \"|u1\"}}}", "non-negative integer"},
        {"{\"info\": {\"a\": {\"address\": -1, \"type\": \"|u1\"}}}", "non-negative integer"},
        {"{\"info\": {\"a\": {\"address\": 1.5, \"type\": \"|u1\"}}}", "non-negative integer"},
        {"{\"info\": {\"a\": {\"address\": 1e300, \"type\": \"|u1\"}}}", "non-negative integer"},
        {"{\"info\": {\"a\": {\"address\": 123456789012345678901234567890, \"type\": \"|u1\"}}}", "not valid JSON"},
        {"{\"info\": {\"a\": {\"address\": 1, \"type\": 5}}}", "must be a string"},
        {"{\"info\": {\"a\": {\"address\": 1, \"type\": \"|u1\"}, \"b\": {\"address\": 2}}}", "has no type"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = load(gd, bad[i].json, 0);
        if (rc != RG_ECORRUPT || !strstr(rg_error_last(), bad[i].message))
            fail_msg("case %zu: rc %d, message \"%s\"", i, rc, rg_error_last());
        assert_int_equal(rg_gamedata_variable_count(gd), 1);
        assert_int_equal(rg_gamedata_find_variable(gd, "keep", &(rg_variable){0}), RG_OK);
    }
    /* deep nesting */
    size_t depth = 100000;
    char *deep = malloc(2 * depth + 32);
    assert_non_null(deep);
    strcpy(deep, "{\"info\": ");
    size_t n = strlen(deep);
    for (size_t i = 0; i < depth; i++)
        deep[n++] = '[';
    for (size_t i = 0; i < depth; i++)
        deep[n++] = ']';
    deep[n++] = '}';
    assert_int_equal(rg_gamedata_load_string(gd, deep, n, 0), RG_ECORRUPT);
    free(deep);
    /* a NUL inside the text */
    assert_int_equal(rg_gamedata_load_string(gd, "{\"info\":\0{}}", 12, 0), RG_ECORRUPT);
    assert_int_equal(rg_gamedata_variable_count(gd), 1);
    /* files */
    assert_int_equal(rg_gamedata_load_file(gd, "/nonexistent/data.json", 0), RG_ENOTFOUND);
    assert_int_equal(rg_gamedata_load_file(gd, "/", 0) < 0, 1);
    rg_gamedata_free(gd);
}

/* A data.json near the size limit with very many variables loads (and in linear-ish time: the loader sorts once). */
static void many_variables(void **state)
{
    (void)state;
    const int n = 200000;
    char *json = malloc((size_t)n * 64 + 32), *p = json;
    assert_non_null(json);
    p += sprintf(p, "{\"info\": {");
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s\"v%07d\": {\"address\": %d, \"type\": \"|u1\"}", i ? "," : "", n - i, 0x100 + i % 64);
    sprintf(p, "}}");
    rg_gamedata *gd = bound();
    assert_int_equal(rg_gamedata_load_string(gd, json, strlen(json), RG_LOAD_STRICT), RG_OK);
    free(json);
    assert_int_equal(rg_gamedata_variable_count(gd), n);
    rg_variable v;
    assert_int_equal(rg_gamedata_variable_at(gd, 0, &v), RG_OK);
    assert_string_equal(v.name, "v0000001");
    ram[5] = 9;
    assert_int_equal(get(gd, "v0199995"), 9); /* i = 5 */
    assert_int_equal(rg_gamedata_update(gd), RG_OK);
    rg_gamedata_free(gd);
}

static void save_round_trip(void **state)
{
    (void)state;
    rg_gamedata *gd = bound();
    assert_int_equal(rg_gamedata_set_variable(gd, "score", 0x100, ">d4", RG_MASK_ALL), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(gd, "lives", 0x104, "|u1", 0xF0), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(gd, "mixed", 0x8000, "><u4", RG_MASK_ALL), RG_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/data-%d.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    assert_int_equal(rg_gamedata_save_file(gd, path), RG_OK);
    uint8_t *text;
    size_t len;
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char buf[4096];
    len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    text = (uint8_t *)buf;
    assert_non_null(strstr((char *)text, "\n  \"info\": {"));
    assert_non_null(strstr((char *)text, "\"mask\": 240"));
    assert_null(strstr(strstr((char *)text, "\"score\""), "mask\": 1844"));
    rg_gamedata *back;
    assert_int_equal(rg_gamedata_create(&back), RG_OK);
    assert_int_equal(rg_gamedata_load_file(back, path, RG_LOAD_STRICT), RG_OK);
    assert_int_equal(rg_gamedata_variable_count(back), 3);
    for (size_t i = 0; i < 3; i++) {
        rg_variable a, b;
        assert_int_equal(rg_gamedata_variable_at(gd, i, &a), RG_OK);
        assert_int_equal(rg_gamedata_variable_at(back, i, &b), RG_OK);
        assert_string_equal(a.name, b.name);
        assert_int_equal(a.address, b.address);
        assert_string_equal(a.type.repr, b.type.repr);
        assert_int_equal(a.mask, b.mask);
    }
    remove(path);
    rg_gamedata_free(back);
    rg_gamedata_free(gd);
}

/* Reading a real emulator's memory: the NES test ROM's frame counter moves one per frame. */
static void bound_to_emulator(void **state)
{
    (void)state;
    test_rom rom;
    test_rom_get("Nes", &rom);
    if (!test_core_installed(rom.core))
        skip();
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = rom.core;
    o.log = test_quiet_log;
    rg_emu *emu;
    assert_int_equal(rg_emu_open(&emu, rom.path, &o), RG_OK);
    rg_gamedata *gd;
    assert_int_equal(rg_gamedata_create(&gd), RG_OK);
    assert_int_equal(rg_gamedata_bind_emu(gd, emu), RG_OK);
    assert_int_equal(rg_gamedata_set_variable(gd, "counter", rom.counter_addr, "|u1", RG_MASK_ALL), RG_OK);
    for (unsigned i = 0; i < rom.warmup + 2; i++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    assert_int_equal(rg_gamedata_update(gd), RG_OK);
    int64_t before = get(gd, "counter");
    assert_int_equal(rg_emu_run(emu), RG_OK);
    assert_int_equal(rg_gamedata_update(gd), RG_OK);
    int64_t d;
    assert_int_equal(rg_gamedata_delta(gd, "counter", &d), RG_OK);
    assert_int_equal(d, 1);
    assert_int_equal(get(gd, "counter"), (before + 1) & 0xFF);
    rg_gamedata_free(gd);
    rg_emu_free(emu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(manual_variables),  cmocka_unit_test(empty_and_unbound),
        cmocka_unit_test(mask_on_read_only), cmocka_unit_test(unmapped_and_block_ends),
        cmocka_unit_test(overlay_words),     cmocka_unit_test(deltas),
        cmocka_unit_test(custom_variables),  cmocka_unit_test(load_json),
        cmocka_unit_test(load_failures_keep_previous), cmocka_unit_test(save_round_trip),
        cmocka_unit_test(many_variables),
        cmocka_unit_test(bound_to_emulator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
