/* The scenario conformance corpus (tests/game/corpus, see its README.md): every folder's data.json and scenario.json
 * load in strict mode, and a scripted RAM sequence gives the rewards, done flags, values and custom variables that
 * its expected.json lists. A last test checks that the folders together use every feature. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef CORPUS_DIR
#error "CORPUS_DIR must name tests/game/corpus"
#endif

#define MAX_FOLDERS 64
#define MAX_BLOCKS 8

static char *folders[MAX_FOLDERS];
static size_t n_folders;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_folders(void)
{
    DIR *d = opendir(CORPUS_DIR);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) && n_folders < MAX_FOLDERS) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", CORPUS_DIR, e->d_name);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            folders[n_folders++] = strdup(path);
    }
    closedir(d);
    qsort(folders, n_folders, sizeof *folders, cmp_str);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static json_t *read_json(const char *dir, const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    json_error_t err;
    json_t *j = json_load_file(path, 0, &err);
    if (!j)
        fail_msg("%s: line %d: %s", path, err.line, err.text);
    return j;
}

static uint64_t parse_addr(const char *ctx, const char *key)
{
    char *end;
    unsigned long long a = strtoull(key, &end, 0);
    if (!*key || *end)
        fail_msg("%s: bad address \"%s\"", ctx, key);
    return (uint64_t)a;
}

static int near(double got, double want)
{
    if (isinf(want))
        return got == want;
    return fabs(got - want) <= 1e-4 * fmax(1.0, fabs(want));
}

/* The memory of one folder: zero-filled blocks. */
typedef struct memory {
    rg_mem_block blocks[MAX_BLOCKS];
    size_t n;
} memory;

static uint8_t *locate(memory *m, const char *ctx, uint64_t addr, size_t len)
{
    for (size_t i = 0; i < m->n; i++)
        if (addr >= m->blocks[i].base && addr - m->blocks[i].base + len <= m->blocks[i].size)
            return m->blocks[i].data + (addr - m->blocks[i].base);
    fail_msg("%s: %zu bytes at 0x%llx are outside the corpus blocks", ctx, len, (unsigned long long)addr);
    return NULL;
}

static void write_bytes(memory *m, const char *ctx, json_t *writes)
{
    const char *key;
    json_t *bytes;
    json_object_foreach(writes, key, bytes) {
        if (!json_is_array(bytes))
            fail_msg("%s: write %s is not a list", ctx, key);
        uint8_t *p = locate(m, ctx, parse_addr(ctx, key), json_array_size(bytes));
        for (size_t i = 0; i < json_array_size(bytes); i++)
            p[i] = (uint8_t)json_integer_value(json_array_get(bytes, i));
    }
}

static void check_actions(const char *name, json_t *a, const rg_scenario *sc)
{
    const rg_system_info *sys;
    const char *sname = json_string_value(json_object_get(a, "system"));
    if (!sname || rg_system_find(&sys, sname) != RG_OK)
        fail_msg("%s: unknown system in actions", name);
    rg_actionset *as = NULL;
    assert_int_equal(rg_actionset_create(&as, sys, sc), RG_OK);
    json_t *groups = json_object_get(a, "groups"), *masks = json_object_get(a, "masks");
    if (rg_actionset_group_count(as) != json_array_size(groups))
        fail_msg("%s: %zu action groups, expected %zu", name, rg_actionset_group_count(as), json_array_size(groups));
    for (size_t g = 0; g < json_array_size(groups); g++) {
        json_t *combos = json_array_get(groups, g);
        if (rg_actionset_combo_count(as, g) != json_array_size(combos))
            fail_msg("%s: group %zu has %zu combos, expected %zu", name, g, rg_actionset_combo_count(as, g),
                     json_array_size(combos));
        for (size_t c = 0; c < json_array_size(combos); c++)
            if (rg_actionset_combo(as, g, c) != (uint32_t)json_integer_value(json_array_get(combos, c)))
                fail_msg("%s: group %zu combo %zu is %u, expected %lld", name, g, c, rg_actionset_combo(as, g, c),
                         (long long)json_integer_value(json_array_get(combos, c)));
        if (masks && rg_actionset_group_mask(as, g) != (uint32_t)json_integer_value(json_array_get(masks, g)))
            fail_msg("%s: group %zu mask %u", name, g, rg_actionset_group_mask(as, g));
    }
    json_t *n = json_object_get(a, "discrete");
    if (n && rg_actionset_discrete_count(as) != (uint64_t)json_integer_value(n))
        fail_msg("%s: %llu DISCRETE actions, expected %lld", name,
                 (unsigned long long)rg_actionset_discrete_count(as), (long long)json_integer_value(n));
    size_t i;
    json_t *pair;
    json_array_foreach(json_object_get(a, "filter"), i, pair) {
        uint32_t in = (uint32_t)json_integer_value(json_array_get(pair, 0));
        uint32_t want = (uint32_t)json_integer_value(json_array_get(pair, 1));
        if (rg_actionset_filter(as, in) != want)
            fail_msg("%s: filter(%u) = %u, expected %u", name, in, rg_actionset_filter(as, in), want);
    }
    json_array_foreach(json_object_get(a, "decode"), i, pair) {
        uint64_t act = (uint64_t)json_integer_value(json_array_get(pair, 0)), rest = act;
        uint32_t want = (uint32_t)json_integer_value(json_array_get(pair, 1));
        uint32_t got = rg_actionset_discrete(as, &rest);
        if (got != want || rest != act / rg_actionset_discrete_count(as))
            fail_msg("%s: discrete(%llu) = %u, expected %u", name, (unsigned long long)act, got, want);
    }
    rg_actionset_free(as);
}

static void check_step(const char *ctx, json_t *st, rg_scenario *sc, rg_gamedata *gd, memory *m)
{
    json_t *j;
    if ((j = json_object_get(st, "reward")) && !near(rg_scenario_reward(sc, 0), json_number_value(j)))
        fail_msg("%s: reward %.9g, expected %.9g", ctx, rg_scenario_reward(sc, 0), json_number_value(j));
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(st, "rewards"), i, v)
        if (!near(rg_scenario_reward(sc, (unsigned)i), json_number_value(v)))
            fail_msg("%s: reward of player %zu %.9g, expected %.9g", ctx, i + 1, rg_scenario_reward(sc, (unsigned)i),
                     json_number_value(v));
    json_array_foreach(json_object_get(st, "totals"), i, v)
        if (!near(rg_scenario_total_reward(sc, (unsigned)i), json_number_value(v)))
            fail_msg("%s: total of player %zu %.9g, expected %.9g", ctx, i + 1,
                     rg_scenario_total_reward(sc, (unsigned)i), json_number_value(v));
    if ((j = json_object_get(st, "done")) && rg_scenario_done(sc) != json_is_true(j))
        fail_msg("%s: done %d, expected %d", ctx, rg_scenario_done(sc), json_is_true(j));
    if ((j = json_object_get(st, "frame")) && rg_scenario_frame(sc) != (uint64_t)json_integer_value(j))
        fail_msg("%s: frame %llu, expected %lld", ctx, (unsigned long long)rg_scenario_frame(sc),
                 (long long)json_integer_value(j));
    const char *key;
    json_object_foreach(json_object_get(st, "values"), key, v) {
        int64_t got;
        int rc = rg_gamedata_get(gd, key, &got);
        if (rc != RG_OK)
            fail_msg("%s: %s: %s", ctx, key, rg_error_last());
        if (got != (int64_t)json_integer_value(v))
            fail_msg("%s: %s = %lld, expected %lld", ctx, key, (long long)got, (long long)json_integer_value(v));
    }
    json_object_foreach(json_object_get(st, "value_errors"), key, v) {
        int64_t got;
        int rc = rg_gamedata_get(gd, key, &got);
        if (strcmp(rg_error_name(rc), json_string_value(v)) != 0)
            fail_msg("%s: reading %s gave %s, expected %s", ctx, key, rg_error_name(rc), json_string_value(v));
    }
    json_object_foreach(json_object_get(st, "custom"), key, v) {
        rg_value cv;
        if (rg_gamedata_custom_get(gd, key, &cv) != RG_OK)
            fail_msg("%s: no custom variable %s", ctx, key);
        if (json_is_null(v)) {
            if (cv.kind != RG_VALUE_NIL)
                fail_msg("%s: custom %s is not nil", ctx, key);
        } else if (json_is_boolean(v)) {
            if (cv.kind != RG_VALUE_BOOL || (cv.number != 0) != json_is_true(v))
                fail_msg("%s: custom %s is not %s", ctx, key, json_is_true(v) ? "true" : "false");
        } else if (cv.kind != RG_VALUE_NUMBER || !near(cv.number, json_number_value(v))) {
            fail_msg("%s: custom %s = %g (kind %d), expected %g", ctx, key, cv.number, (int)cv.kind,
                     json_number_value(v));
        }
    }
    json_object_foreach(json_object_get(st, "ram"), key, v) {
        const uint8_t *p = locate(m, ctx, parse_addr(ctx, key), json_array_size(v));
        for (i = 0; i < json_array_size(v); i++)
            if (p[i] != (uint8_t)json_integer_value(json_array_get(v, i)))
                fail_msg("%s: byte at %s+%zu is %u, expected %lld", ctx, key, i, p[i],
                         (long long)json_integer_value(json_array_get(v, i)));
    }
}

static void run_folder(void **state)
{
    const char *dir = *state, *name = base_name(dir);
    char path[1024];
    rg_gamedata *gd;
    rg_scenario *sc;
    assert_int_equal(rg_gamedata_create(&gd), RG_OK);
    assert_int_equal(rg_scenario_create(&sc), RG_OK);
    snprintf(path, sizeof path, "%s/data.json", dir);
    int rc = rg_gamedata_load_file(gd, path, RG_LOAD_STRICT);
    if (rc != RG_OK || rg_gamedata_warning_count(gd))
        fail_msg("%s: data.json: %s", name, rc ? rg_error_last() : rg_gamedata_warning(gd, 0));
    snprintf(path, sizeof path, "%s/scenario.json", dir);
    rc = rg_scenario_load_file(sc, path, RG_LOAD_STRICT);
    if (rc != RG_OK || rg_scenario_warning_count(sc))
        fail_msg("%s: scenario.json: %s", name, rc ? rg_error_last() : rg_scenario_warning(sc, 0));
    snprintf(path, sizeof path, "%s/README", dir);
    struct stat st;
    if (stat(path, &st) != 0 || st.st_size < 10)
        fail_msg("%s: no README", name);

    json_t *exp = read_json(dir, "expected.json");
    memory m = {0};
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(exp, "blocks"), i, b) {
        assert_true(m.n < MAX_BLOCKS);
        size_t size = (size_t)json_integer_value(json_object_get(b, "size"));
        m.blocks[m.n].base = (uint64_t)json_integer_value(json_object_get(b, "base"));
        m.blocks[m.n].size = size;
        m.blocks[m.n].data = calloc(size ? size : 1, 1);
        assert_non_null(m.blocks[m.n].data);
        m.n++;
    }
    unsigned overlay = (unsigned)json_integer_value(json_object_get(exp, "overlay"));
    assert_int_equal(rg_gamedata_bind_blocks(gd, m.blocks, m.n, overlay), RG_OK);

    json_t *j;
    if ((j = json_object_get(exp, "players")) && rg_scenario_players(sc) != (unsigned)json_integer_value(j))
        fail_msg("%s: %u players, expected %lld", name, rg_scenario_players(sc), (long long)json_integer_value(j));
    json_t *crop;
    json_array_foreach(json_object_get(exp, "crop"), i, crop) {
        unsigned c[4];
        rg_scenario_crop(sc, (unsigned)i, c);
        for (size_t k = 0; k < 4; k++)
            if (c[k] != (unsigned)json_integer_value(json_array_get(crop, k)))
                fail_msg("%s: crop of player %zu [%u %u %u %u]", name, i + 1, c[0], c[1], c[2], c[3]);
    }
    if ((j = json_object_get(exp, "actions")))
        check_actions(name, j, sc);

    rc = rg_scenario_reset(sc, gd);
    if (rc != RG_OK)
        fail_msg("%s: reset: %s", name, rg_error_last());
    json_t *steps = json_object_get(exp, "steps");
    assert_true(json_array_size(steps) > 0);
    json_t *stp;
    json_array_foreach(steps, i, stp) {
        char ctx[256];
        snprintf(ctx, sizeof ctx, "%s step %zu", name, i + 1);
        if (json_is_true(json_object_get(stp, "reset")) && (rc = rg_scenario_reset(sc, gd)) != RG_OK)
            fail_msg("%s: reset: %s", ctx, rg_error_last());
        write_bytes(&m, ctx, json_object_get(stp, "write"));
        rc = rg_scenario_update(sc, gd);
        const char *want = json_string_value(json_object_get(stp, "error"));
        if (strcmp(rg_error_name(rc), want ? want : "RG_OK") != 0)
            fail_msg("%s: update gave %s (%s), expected %s", ctx, rg_error_name(rc), rc ? rg_error_last() : "",
                     want ? want : "RG_OK");
        check_step(ctx, stp, sc, gd, &m);
    }
    json_decref(exp);
    rg_scenario_free(sc);
    rg_gamedata_free(gd);
    for (i = 0; i < m.n; i++)
        free(m.blocks[i].data);
}

/* ---- coverage of the corpus as a whole ---- */

typedef struct feature {
    const char *name;
    int seen;
} feature;

static feature features[] = {
    {"op:", 0}, {"op:equal", 0}, {"op:negative-equal", 0}, {"op:not-equal", 0}, {"op:less-than", 0},
    {"op:greater-than", 0}, {"op:less-or-equal", 0}, {"op:greater-or-equal", 0}, {"op:nonzero", 0},
    {"op:zero", 0}, {"op:positive", 0}, {"op:negative", 0}, {"op:sign", 0},
    {"reward-measurement:default", 0}, {"reward-measurement:delta", 0}, {"reward-measurement:absolute", 0},
    {"done-measurement:default", 0}, {"done-measurement:delta", 0}, {"done-measurement:absolute", 0},
    {"reward-penalty", 0}, {"reward-reference", 0}, {"time", 0}, {"reward", 0}, {"rewards", 0},
    {"reward-script", 0}, {"done-script", 0}, {"done-any", 0}, {"done-all", 0}, {"done-nodes", 0},
    {"done-nodes-nested", 0}, {"done-empty-all", 0}, {"scripts", 0}, {"scripts-lua-prefix", 0}, {"crop", 0},
    {"crops", 0}, {"actions", 0},
    {"sigil:|", 0}, {"sigil:<", 0}, {"sigil:>", 0}, {"sigil:=", 0}, {"sigil:><", 0}, {"sigil:<>", 0},
    {"sigil:>=", 0}, {"sigil:<=", 0}, {"sigil:other", 0},
    {"format:u", 0}, {"format:i", 0}, {"format:d", 0}, {"format:n", 0}, {"format:other", 0},
    {"width:1", 0}, {"width:2", 0}, {"width:3", 0}, {"width:4", 0}, {"width:5", 0}, {"width:6", 0},
    {"width:7", 0}, {"width:8", 0}, {"mask", 0}, {"overlay", 0},
    {"lua-custom-number", 0}, {"lua-custom-bool", 0}, {"lua-custom-nil", 0}, {"lua-ram-write", 0},
    {"lua-file", 0}, {"reset-step", 0}, {"update-error", 0},
};

static void mark(const char *fmt, const char *arg)
{
    char name[64];
    snprintf(name, sizeof name, fmt, arg ? arg : "");
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
        if (strcmp(features[i].name, name) == 0)
            features[i].seen = 1;
}

static void cover_spec(json_t *spec, const char *kind)
{
    const char *op = json_string_value(json_object_get(spec, "op"));
    mark("op:%s", op);
    const char *meas = json_string_value(json_object_get(spec, "measurement"));
    mark(strcmp(kind, "reward") == 0 ? "reward-measurement:%s" : "done-measurement:%s", meas ? meas : "default");
    if (strcmp(kind, "reward") == 0) {
        if (json_object_get(spec, "penalty"))
            mark("reward-penalty", NULL);
        if (json_object_get(spec, "reference"))
            mark("reward-reference", NULL);
    }
}

static void cover_reward(json_t *r)
{
    const char *key;
    json_t *spec;
    json_object_foreach(json_object_get(r, "variables"), key, spec)
        cover_spec(spec, "reward");
    if ((spec = json_object_get(r, "time"))) {
        mark("time", NULL);
        cover_spec(spec, "reward");
    }
    if (json_object_get(r, "script"))
        mark("reward-script", NULL);
}

static void cover_done(json_t *d, int depth)
{
    const char *cond = json_string_value(json_object_get(d, "condition"));
    int all = cond && strcmp(cond, "all") == 0;
    mark(all ? "done-all" : "done-any", NULL);
    json_t *vars = json_object_get(d, "variables"), *nodes = json_object_get(d, "nodes");
    if (all && json_object_size(vars) == 0 && json_object_size(nodes) == 0)
        mark("done-empty-all", NULL);
    const char *key;
    json_t *v;
    json_object_foreach(vars, key, v)
        cover_spec(v, "done");
    json_object_foreach(nodes, key, v) {
        mark(depth ? "done-nodes-nested" : "done-nodes", NULL);
        cover_done(v, depth + 1);
    }
    if (json_object_get(d, "script"))
        mark("done-script", NULL);
}

static void cover_type(const char *type)
{
    size_t len = strlen(type);
    assert_true(len >= 3);
    char sigil[16] = {0}, fmt[2] = {type[len - 2], 0}, width[2] = {type[len - 1], 0};
    memcpy(sigil, type, len - 2 < sizeof sigil - 1 ? len - 2 : sizeof sigil - 1);
    static const char *const known[] = {"|", "<", ">", "=", "><", "<>", ">=", "<="};
    int k = 0;
    for (size_t i = 0; i < 8; i++)
        k |= strcmp(known[i], sigil) == 0;
    mark("sigil:%s", k ? sigil : "other");
    mark("format:%s", strchr("uidn", fmt[0]) ? fmt : "other");
    mark("width:%s", width);
}

static void cover_expected(json_t *exp)
{
    if (json_integer_value(json_object_get(exp, "overlay")) > 1)
        mark("overlay", NULL);
    size_t i;
    json_t *st;
    json_array_foreach(json_object_get(exp, "steps"), i, st) {
        const char *key;
        json_t *v;
        json_object_foreach(json_object_get(st, "custom"), key, v)
            mark(json_is_null(v) ? "lua-custom-nil" : json_is_boolean(v) ? "lua-custom-bool" : "lua-custom-number",
                 NULL);
        if (json_object_get(st, "ram"))
            mark("lua-ram-write", NULL);
        if (json_is_true(json_object_get(st, "reset")))
            mark("reset-step", NULL);
        if (json_object_get(st, "error"))
            mark("update-error", NULL);
    }
}

static void corpus_covers_every_feature(void **state)
{
    (void)state;
    assert_true(n_folders >= 5);
    for (size_t f = 0; f < n_folders; f++) {
        json_t *sc = read_json(folders[f], "scenario.json"), *data = read_json(folders[f], "data.json");
        json_t *exp = read_json(folders[f], "expected.json"), *j;
        if ((j = json_object_get(sc, "reward"))) {
            mark("reward", NULL);
            cover_reward(j);
        }
        size_t i;
        json_t *r;
        json_array_foreach(json_object_get(sc, "rewards"), i, r) {
            mark("rewards", NULL);
            cover_reward(r);
        }
        if ((j = json_object_get(sc, "done")))
            cover_done(j, 0);
        if (json_object_get(sc, "actions"))
            mark("actions", NULL);
        if (json_object_get(sc, "crop"))
            mark("crop", NULL);
        if (json_object_get(sc, "crops"))
            mark("crops", NULL);
        json_array_foreach(json_object_get(sc, "scripts"), i, r) {
            mark("scripts", NULL);
            if (strncmp(json_string_value(r), "lua:", 4) == 0)
                mark("scripts-lua-prefix", NULL);
        }
        const char *key;
        json_object_foreach(json_object_get(data, "info"), key, r) {
            cover_type(json_string_value(json_object_get(r, "type")));
            if (json_object_get(r, "mask"))
                mark("mask", NULL);
        }
        cover_expected(exp);
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/script.lua", folders[f]);
        if (stat(path, &st) == 0)
            mark("lua-file", NULL);
        json_decref(sc);
        json_decref(data);
        json_decref(exp);
    }
    int missing = 0;
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
        if (!features[i].seen) {
            print_error("the corpus does not exercise %s\n", features[i].name);
            missing++;
        }
    assert_int_equal(missing, 0);
}

int main(void)
{
    list_folders();
    struct CMUnitTest *tests = calloc(n_folders + 1, sizeof *tests);
    if (!tests)
        return 1;
    for (size_t i = 0; i < n_folders; i++)
        tests[i] = (struct CMUnitTest){base_name(folders[i]), run_folder, NULL, NULL, folders[i]};
    tests[n_folders] =
        (struct CMUnitTest){"corpus_covers_every_feature", corpus_covers_every_feature, NULL, NULL, NULL};
    int rc = _cmocka_run_group_tests("game_corpus", tests, n_folders + 1, NULL, NULL);
    for (size_t i = 0; i < n_folders; i++)
        free(folders[i]);
    free(tests);
    return rc;
}
