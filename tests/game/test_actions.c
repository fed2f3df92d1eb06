/* Action groups (docs/formats.md, "Action groups"): the ordered default groups of every system, FILTERED, DISCRETE and
 * MULTI_DISCRETE decoding, and the scenario "actions" override. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 4
#define MAX_COMBOS 16

/* The ordered groups of docs/formats.md, "Action groups" (combo values ascending, groups by ascending mask). */
typedef struct expected_group {
    uint32_t mask;
    size_t n;
    uint32_t combos[MAX_COMBOS];
} expected_group;

typedef struct expected_system {
    const char *name;
    uint64_t discrete;
    size_t n_groups;
    expected_group groups[MAX_GROUPS];
} expected_system;

#define G_UPDOWN {48, 3, {0, 16, 32}}
#define G_LEFTRIGHT {192, 3, {0, 64, 128}}
#define G_NES_FACE {257, 4, {0, 1, 256, 257}}
#define G_GB_FACE {261, 8, {0, 1, 4, 5, 256, 257, 260, 261}}
#define G_SHOULDERS {3072, 4, {0, 1024, 2048, 3072}}

static const expected_system systems[] = {
    {"Genesis", 126, 3,
     {G_UPDOWN, G_LEFTRIGHT,
      {3843, 14, {0, 1, 2, 3, 256, 257, 512, 513, 1024, 1026, 1536, 2048, 2304, 2560}}}},
    {"Snes", 468, 4,
     {G_UPDOWN, G_LEFTRIGHT, {771, 13, {0, 1, 2, 3, 256, 257, 259, 512, 514, 515, 768, 770, 771}}, G_SHOULDERS}},
    {"Nes", 36, 3, {G_UPDOWN, G_LEFTRIGHT, G_NES_FACE}},
    {"Sms", 36, 3, {G_UPDOWN, G_LEFTRIGHT, G_NES_FACE}},
    {"GameGear", 36, 3, {G_UPDOWN, G_LEFTRIGHT, G_NES_FACE}},
    {"Atari2600", 18, 3, {{1, 2, {0, 1}}, G_UPDOWN, G_LEFTRIGHT}},
    {"GameBoy", 72, 3, {G_UPDOWN, G_LEFTRIGHT, G_GB_FACE}},
    {"GbColor", 72, 3, {G_UPDOWN, G_LEFTRIGHT, G_GB_FACE}},
    {"GbAdvance", 288, 4, {G_UPDOWN, G_LEFTRIGHT, G_GB_FACE, G_SHOULDERS}},
    {"PCEngine", 117, 3,
     {G_UPDOWN, G_LEFTRIGHT, {3843, 13, {0, 1, 2, 3, 256, 257, 512, 768, 1024, 1025, 1536, 2050, 3072}}}},
};
#define N_SYSTEMS (sizeof systems / sizeof systems[0])

static const rg_system_info *sys_named(const char *name)
{
    const rg_system_info *s = NULL;
    if (rg_system_find(&s, name) != RG_OK)
        fail_msg("no system %s: %s", name, rg_error_last());
    return s;
}

static rg_actionset *defaults_of(const char *name)
{
    rg_actionset *as = NULL;
    int rc = rg_actionset_create(&as, sys_named(name), NULL);
    if (rc != RG_OK)
        fail_msg("rg_actionset_create(%s): %s: %s", name, rg_error_name(rc), rg_error_last());
    return as;
}

/* A scenario whose "actions" are the given JSON (written with ' for "). */
static rg_scenario *scenario_with(const char *sq)
{
    char *json = strdup(sq);
    assert_non_null(json);
    for (char *p = json; *p; p++)
        if (*p == '\'')
            *p = '"';
    rg_scenario *sc;
    assert_int_equal(rg_scenario_create(&sc), RG_OK);
    int rc = rg_scenario_load_string(sc, json, strlen(json), NULL, RG_LOAD_STRICT);
    if (rc != RG_OK)
        fail_msg("load %s: %s: %s", json, rg_error_name(rc), rg_error_last());
    free(json);
    return sc;
}

static rg_actionset *override(const char *system, const char *sq_scenario)
{
    rg_scenario *sc = scenario_with(sq_scenario);
    rg_actionset *as = NULL;
    int rc = rg_actionset_create(&as, sys_named(system), sc);
    if (rc != RG_OK)
        fail_msg("rg_actionset_create: %s: %s", rg_error_name(rc), rg_error_last());
    rg_scenario_free(sc);
    return as;
}

static void assert_groups(const rg_actionset *as, const expected_group *want, size_t n, const char *what)
{
    if (rg_actionset_group_count(as) != n)
        fail_msg("%s: %zu groups, expected %zu", what, rg_actionset_group_count(as), n);
    for (size_t g = 0; g < n; g++) {
        if (rg_actionset_group_mask(as, g) != want[g].mask)
            fail_msg("%s: group %zu has mask %u, expected %u", what, g, rg_actionset_group_mask(as, g), want[g].mask);
        if (rg_actionset_combo_count(as, g) != want[g].n)
            fail_msg("%s: group %zu has %zu combos, expected %zu", what, g, rg_actionset_combo_count(as, g),
                     want[g].n);
        for (size_t c = 0; c < want[g].n; c++)
            if (rg_actionset_combo(as, g, c) != want[g].combos[c])
                fail_msg("%s: group %zu combo %zu is %u, expected %u", what, g, c, rg_actionset_combo(as, g, c),
                         want[g].combos[c]);
    }
}

/* ---- the defaults of every system ---- */

static const expected_system *expected_for(const char *name)
{
    for (size_t i = 0; i < N_SYSTEMS; i++)
        if (strcmp(systems[i].name, name) == 0)
            return &systems[i];
    return NULL;
}

static void every_system_has_the_spec_groups(void **state)
{
    (void)state;
    size_t n = rg_system_count();
    assert_int_equal(n, N_SYSTEMS);
    for (size_t i = 0; i < n; i++) {
        const rg_system_info *s = rg_system_at(i);
        assert_non_null(s);
        const expected_system *e = expected_for(s->name);
        if (!e)
            fail_msg("system %s has no expectation in this test (add its groups from docs/formats.md)", s->name);
        rg_actionset *as = NULL;
        assert_int_equal(rg_actionset_create(&as, s, NULL), RG_OK);
        assert_groups(as, e->groups, e->n_groups, s->name);
        if (rg_actionset_discrete_count(as) != e->discrete)
            fail_msg("%s: %llu DISCRETE actions, expected %llu", s->name,
                     (unsigned long long)rg_actionset_discrete_count(as), (unsigned long long)e->discrete);
        /* MULTI_DISCRETE nvec = the group sizes (docs/formats.md, "Environment"). */
        uint64_t product = 1;
        for (size_t g = 0; g < e->n_groups; g++)
            product *= rg_actionset_combo_count(as, g);
        assert_int_equal(product, e->discrete);
        /* group masks are the OR of their combos, ascending */
        for (size_t g = 0; g < e->n_groups; g++) {
            uint32_t or = 0;
            for (size_t c = 0; c < rg_actionset_combo_count(as, g); c++)
                or |= rg_actionset_combo(as, g, c);
            assert_int_equal(or, rg_actionset_group_mask(as, g));
            if (g)
                assert_true(rg_actionset_group_mask(as, g - 1) < rg_actionset_group_mask(as, g));
        }
        rg_actionset_free(as);
    }
}

static void multi_discrete_sizes(void **state)
{
    (void)state;
    static const struct { const char *name; size_t n; size_t nvec[4]; } nvec[] = {
        {"Genesis", 3, {3, 3, 14}}, {"Snes", 4, {3, 3, 13, 4}}, {"Nes", 3, {3, 3, 4}},
        {"Sms", 3, {3, 3, 4}}, {"GameGear", 3, {3, 3, 4}}, {"Atari2600", 3, {2, 3, 3}},
        {"GameBoy", 3, {3, 3, 8}}, {"GbColor", 3, {3, 3, 8}}, {"GbAdvance", 4, {3, 3, 8, 4}},
        {"PCEngine", 3, {3, 3, 13}},
    };
    for (size_t i = 0; i < sizeof nvec / sizeof nvec[0]; i++) {
        rg_actionset *as = defaults_of(nvec[i].name);
        assert_int_equal(rg_actionset_group_count(as), nvec[i].n);
        for (size_t g = 0; g < nvec[i].n; g++)
            if (rg_actionset_combo_count(as, g) != nvec[i].nvec[g])
                fail_msg("%s group %zu: %zu combos, expected %zu", nvec[i].name, g, rg_actionset_combo_count(as, g),
                         nvec[i].nvec[g]);
        rg_actionset_free(as);
    }
}

static void out_of_range_accessors(void **state)
{
    (void)state;
    rg_actionset *as = defaults_of("Nes");
    assert_int_equal(rg_actionset_group_mask(as, 3), 0);
    assert_int_equal(rg_actionset_combo_count(as, 3), 0);
    assert_int_equal(rg_actionset_combo(as, 0, 3), 0);
    assert_int_equal(rg_actionset_combo(as, 99, 0), 0);
    assert_int_equal(rg_actionset_group_count(NULL), 0);
    assert_int_equal(rg_actionset_discrete_count(NULL), 1);
    assert_int_equal(rg_actionset_filter(NULL, 0xffff), 0);
    rg_actionset_free(as);
    rg_actionset_free(NULL);
    rg_actionset *out = NULL;
    assert_int_equal(rg_actionset_create(&out, NULL, NULL), RG_EINVAL);
    assert_int_equal(rg_actionset_create(NULL, sys_named("Nes"), NULL), RG_EINVAL);
}

/* ---- FILTERED ---- */

static void filtered_examples(void **state)
{
    (void)state;
    static const struct { const char *sys; uint32_t in, out; } cases[] = {
        {"Nes", 16 | 32 | 64, 64},                /* UP+DOWN+LEFT -> LEFT (docs/formats.md, FILTERED) */
        {"Nes", 16 | 32, 0},                      /* UP+DOWN clears the group */
        {"Nes", 1 | 256 | 4 | 8 | 128, 1 | 256 | 128}, /* SELECT and START dropped */
        {"Nes", 2, 0},                            /* joypad id 1: no NES button */
        {"Nes", 0x10000 | 1, 1},                  /* bits past 16 dropped */
        {"Nes", 0xffffffffu, 257},                /* UP+DOWN, LEFT+RIGHT illegal; A+B kept */
        {"Genesis", 8, 0},                        /* START -> nothing */
        {"Genesis", 4 | 8 | 1, 1},                /* MODE, START dropped */
        {"Genesis", 1 | 2 | 256 | 16, 16},        /* A+B+C is no combo: face group cleared */
        {"Genesis", 256 | 2048 | 32 | 128, 2304 | 32 | 128}, /* C+Z */
        {"Genesis", 2 | 1024, 1026},              /* A+X */
        {"Genesis", 1 | 1024, 0},                 /* B+X is no combo */
        {"Snes", 1024 | 2048, 3072},              /* L+R */
        {"Snes", 1 | 2 | 256 | 512 | 1024, 771 | 1024},
        {"Snes", 4 | 8, 0},
        {"Atari2600", 1 | 8 | 16 | 64, 1 | 16 | 64}, /* RESET dropped */
        {"Atari2600", 4, 0},                      /* SELECT dropped */
        {"PCEngine", 2048, 0},                    /* lone VI is no combo */
        {"PCEngine", 2 | 2048, 2050},             /* III+VI */
        {"PCEngine", 4 | 8 | 256, 256},           /* SELECT, RUN dropped */
        {"GameBoy", 1 | 4 | 256 | 8, 261},        /* START dropped, A+B+SELECT kept */
        {"GbAdvance", 4 | 1024, 4 | 1024},
        {"Sms", 8 | 256, 256},                    /* PAUSE dropped */
        {"GameGear", 8 | 1, 1},                   /* START dropped */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rg_actionset *as = defaults_of(cases[i].sys);
        uint32_t got = rg_actionset_filter(as, cases[i].in);
        if (got != cases[i].out)
            fail_msg("%s: filter(%u) = %u, expected %u", cases[i].sys, cases[i].in, got, cases[i].out);
        rg_actionset_free(as);
    }
}

/* For every 16-bit input of every system: each group's bits of the output are the input's bits of that group when
 * they form a combo, else none; no bit outside the groups survives. */
static void filtered_exhaustive(void **state)
{
    (void)state;
    for (size_t i = 0; i < rg_system_count(); i++) {
        const rg_system_info *s = rg_system_at(i);
        rg_actionset *as = NULL;
        assert_int_equal(rg_actionset_create(&as, s, NULL), RG_OK);
        size_t ng = rg_actionset_group_count(as);
        uint32_t all = 0;
        for (size_t g = 0; g < ng; g++)
            all |= rg_actionset_group_mask(as, g);
        for (uint32_t in = 0; in < 0x10000; in++) {
            uint32_t out = rg_actionset_filter(as, in);
            if (out & ~all)
                fail_msg("%s: filter(%u) = %u keeps bits outside every group", s->name, in, out);
            for (size_t g = 0; g < ng; g++) {
                uint32_t m = rg_actionset_group_mask(as, g), part = in & m;
                int legal = 0;
                for (size_t c = 0; c < rg_actionset_combo_count(as, g); c++)
                    legal |= rg_actionset_combo(as, g, c) == part;
                if ((out & m) != (legal ? part : 0))
                    fail_msg("%s: filter(%u) = %u, group %zu wrong", s->name, in, out, g);
            }
        }
        rg_actionset_free(as);
    }
}

/* ---- DISCRETE ---- */

static void discrete_examples(void **state)
{
    (void)state;
    static const struct { const char *sys; uint64_t action; uint32_t buttons; uint64_t rest; } cases[] = {
        {"Nes", 0, 0, 0},
        {"Nes", 1, 16, 0},               /* UP */
        {"Nes", 2, 32, 0},               /* DOWN */
        {"Nes", 3, 64, 0},               /* LEFT: second group, index 1 */
        {"Nes", 6, 128, 0},              /* RIGHT */
        {"Nes", 9, 1, 0},                /* B: third group, index 1 */
        {"Nes", 18, 256, 0},             /* A */
        {"Nes", 27, 257, 0},             /* A+B */
        {"Nes", 35, 32 | 128 | 257, 0},  /* the last one */
        {"Nes", 36, 0, 1},               /* the rest is player 2's */
        {"Nes", 36 * 5 + 9, 1, 5},
        {"Atari2600", 1, 1, 0},          /* the fire group comes first */
        {"Atari2600", 2, 16, 0},         /* then UP */
        {"Atari2600", 6, 64, 0},         /* then LEFT */
        {"Atari2600", 17, 1 | 32 | 128, 0},
        {"Genesis", 9, 1, 0},
        {"Genesis", 9 * 13, 2560, 0},    /* Y+Z: the last face combo */
        {"Genesis", 125, 32 | 128 | 2560, 0},
        {"Snes", 9 * 13 * 3, 3072, 0},   /* L+R: fourth group */
        {"Snes", 467, 32 | 128 | 771 | 3072, 0},
        {"PCEngine", 9 * 11, 2050, 0},   /* III+VI */
        {"PCEngine", 117 * 117 - 1, 32 | 128 | 3072, 116},
        {"GbAdvance", 9 * 2, 4, 0},      /* SELECT */
        {"GbAdvance", 288 + 9 * 8, 1024, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rg_actionset *as = defaults_of(cases[i].sys);
        uint64_t a = cases[i].action;
        uint32_t got = rg_actionset_discrete(as, &a);
        if (got != cases[i].buttons || a != cases[i].rest)
            fail_msg("%s: discrete(%llu) = %u rest %llu, expected %u rest %llu", cases[i].sys,
                     (unsigned long long)cases[i].action, got, (unsigned long long)a, cases[i].buttons,
                     (unsigned long long)cases[i].rest);
        rg_actionset_free(as);
    }
}

/* index_g = a mod len_g, a /= len_g, groups in ascending-mask order; the two players share one integer. */
static void discrete_formula_every_system(void **state)
{
    (void)state;
    for (size_t i = 0; i < rg_system_count(); i++) {
        const rg_system_info *s = rg_system_at(i);
        rg_actionset *as = NULL;
        assert_int_equal(rg_actionset_create(&as, s, NULL), RG_OK);
        uint64_t n = rg_actionset_discrete_count(as);
        size_t ng = rg_actionset_group_count(as);
        uint32_t *seen = calloc((size_t)n, sizeof *seen);
        assert_non_null(seen);
        for (uint64_t a = 0; a < n; a++) {
            uint64_t rest = a, want = 0;
            for (size_t g = 0; g < ng; g++) {
                size_t len = rg_actionset_combo_count(as, g);
                want |= rg_actionset_combo(as, g, (size_t)(rest % len));
                rest /= len;
            }
            uint64_t act = a;
            uint32_t got = rg_actionset_discrete(as, &act);
            if (got != want || act != 0)
                fail_msg("%s: discrete(%llu) = %u, expected %llu", s->name, (unsigned long long)a, got,
                         (unsigned long long)want);
            /* every DISCRETE action is a distinct, already filtered button set */
            assert_int_equal(rg_actionset_filter(as, got), got);
            for (uint64_t b = 0; b < a; b++)
                if (seen[b] == got)
                    fail_msg("%s: discrete %llu and %llu both give %u", s->name, (unsigned long long)b,
                             (unsigned long long)a, got);
            seen[a] = got;
            /* two players: a + n*b gives player 1 the buttons of a and leaves b */
            uint64_t two = a + n * (a % 7);
            uint32_t p1 = rg_actionset_discrete(as, &two);
            assert_int_equal(p1, got);
            assert_int_equal(two, a % 7);
        }
        free(seen);
        uint64_t big = UINT64_MAX;
        (void)rg_actionset_discrete(as, &big);
        assert_int_equal(big, UINT64_MAX / n);
        assert_int_equal(rg_actionset_discrete(as, NULL), 0);
        rg_actionset_free(as);
    }
}

/* ---- MULTI_DISCRETE ---- */

static void multi_discrete_ranges(void **state)
{
    (void)state;
    for (size_t i = 0; i < rg_system_count(); i++) {
        const rg_system_info *s = rg_system_at(i);
        rg_actionset *as = NULL;
        assert_int_equal(rg_actionset_create(&as, s, NULL), RG_OK);
        size_t ng = rg_actionset_group_count(as);
        int64_t ids[MAX_GROUPS + 1] = {0};
        uint32_t buttons = 0xdead;
        assert_int_equal(rg_actionset_multi_discrete(as, ids, ng, &buttons), RG_OK);
        assert_int_equal(buttons, 0);
        for (size_t g = 0; g < ng; g++) {
            int64_t len = (int64_t)rg_actionset_combo_count(as, g);
            for (int64_t id = 0; id < len; id++) {
                memset(ids, 0, sizeof ids);
                ids[g] = id;
                assert_int_equal(rg_actionset_multi_discrete(as, ids, ng, &buttons), RG_OK);
                assert_int_equal(buttons, rg_actionset_combo(as, g, (size_t)id));
            }
            static const int64_t bad[] = {-1, INT64_MIN, INT64_MAX};
            memset(ids, 0, sizeof ids);
            ids[g] = len;
            assert_int_equal(rg_actionset_multi_discrete(as, ids, ng, &buttons), RG_ERANGE);
            for (size_t b = 0; b < 3; b++) {
                ids[g] = bad[b];
                assert_int_equal(rg_actionset_multi_discrete(as, ids, ng, &buttons), RG_ERANGE);
            }
        }
        /* all last ids together = the OR of every group's last combo */
        uint32_t want = 0;
        for (size_t g = 0; g < ng; g++) {
            ids[g] = (int64_t)rg_actionset_combo_count(as, g) - 1;
            want |= rg_actionset_combo(as, g, rg_actionset_combo_count(as, g) - 1);
        }
        assert_int_equal(rg_actionset_multi_discrete(as, ids, ng, &buttons), RG_OK);
        assert_int_equal(buttons, want);
        /* wrong counts */
        assert_int_equal(rg_actionset_multi_discrete(as, ids, ng - 1, &buttons), RG_EINVAL);
        assert_int_equal(rg_actionset_multi_discrete(as, ids, ng + 1, &buttons), RG_EINVAL);
        assert_int_equal(rg_actionset_multi_discrete(as, NULL, 0, &buttons), RG_EINVAL);
        assert_int_equal(rg_actionset_multi_discrete(as, NULL, ng, &buttons), RG_EINVAL);
        assert_int_equal(rg_actionset_multi_discrete(as, ids, ng, NULL), RG_EINVAL);
        assert_int_equal(rg_actionset_multi_discrete(NULL, ids, ng, &buttons), RG_EINVAL);
        rg_actionset_free(as);
    }
    /* a concrete one: Snes [DOWN, RIGHT, A+X+Y, R] */
    rg_actionset *as = defaults_of("Snes");
    int64_t ids[4] = {2, 2, 11, 2};
    uint32_t buttons;
    assert_int_equal(rg_actionset_multi_discrete(as, ids, 4, &buttons), RG_OK);
    assert_int_equal(buttons, 32 | 128 | 770 | 2048);
    rg_actionset_free(as);
}

/* ---- the scenario override ---- */

static void override_kid_chameleon_adds_start(void **state)
{
    (void)state;
    /* JSON order is not the numbering: the LEFT/RIGHT group is listed first but sorts after UP/DOWN. */
    rg_actionset *as = override("Genesis", "{'actions': ["
                                           "[['LEFT'], ['RIGHT'], []],"
                                           "[[], ['UP'], ['DOWN']],"
                                           "[[], ['C'], ['B'], ['A'], ['START'], ['A', 'B']]]}");
    static const expected_group want[] = {G_UPDOWN, G_LEFTRIGHT, {267, 6, {0, 1, 2, 3, 8, 256}}};
    assert_groups(as, want, 3, "KidChameleon-style");
    assert_int_equal(rg_actionset_discrete_count(as), 54);
    assert_int_equal(rg_actionset_filter(as, 8), 8);       /* START now survives FILTERED */
    assert_int_equal(rg_actionset_filter(as, 8 | 2), 0);   /* START+A is no combo */
    assert_int_equal(rg_actionset_filter(as, 4 | 16), 16); /* MODE still dropped */
    uint64_t a = 9 * 4;
    assert_int_equal(rg_actionset_discrete(as, &a), 8);
    rg_actionset_free(as);
}

static void override_unknown_names_map_to_n_buttons(void **state)
{
    (void)state;
    /* Nes has 9 buttons: unknown names are bit 9; Genesis 12: bit 12. Known names of another system too. */
    rg_actionset *as = override("Nes", "{'actions': [[[], ['TURBO']], [[], ['A'], ['X', 'A'], ['C']]]}");
    static const expected_group nes[] = {{256 | 512, 4, {0, 256, 512, 768}}, {512, 2, {0, 512}}};
    /* groups sort by mask: 512 (TURBO) before 768 (A|unknown) */
    static const expected_group sorted[] = {nes[1], nes[0]};
    assert_groups(as, sorted, 2, "Nes unknown names");
    rg_actionset_free(as);

    as = override("Genesis", "{'actions': [[[], ['TURBO']]]}");
    static const expected_group gen[] = {{4096, 2, {0, 4096}}};
    assert_groups(as, gen, 1, "Genesis unknown name");
    assert_int_equal(rg_actionset_filter(as, 4096), 4096);
    rg_actionset_free(as);

    /* a name of an unused joypad id (Nes id 1 is null) is unknown too, and so is "" */
    as = override("Nes", "{'actions': [[[], ['Y'], ['']]]}");
    static const expected_group nul[] = {{512, 2, {0, 512}}};
    assert_groups(as, nul, 1, "Nes null button");
    rg_actionset_free(as);
}

static void override_duplicates(void **state)
{
    (void)state;
    /* duplicate combos merge; repeated buttons in a combo are one bit; same-mask groups: the first wins */
    rg_actionset *as = override("Nes", "{'actions': ["
                                       "[[], ['UP'], ['UP'], [], ['DOWN'], ['UP', 'UP']],"
                                       "[[], ['A'], ['A', 'B']],"
                                       "[['B'], ['A'], ['A', 'B']],"
                                       "[[], ['DOWN'], ['UP'], ['UP', 'DOWN']]]}");
    static const expected_group want[] = {G_UPDOWN, {257, 3, {0, 256, 257}}};
    assert_groups(as, want, 2, "duplicates");
    assert_int_equal(rg_actionset_discrete_count(as), 9);
    assert_int_equal(rg_actionset_filter(as, 1), 0);     /* lone B is not in the group that won */
    assert_int_equal(rg_actionset_filter(as, 48), 0);    /* UP+DOWN from the losing group stays illegal */
    rg_actionset_free(as);

    /* groups that are only NOOP have mask 0 and sort first */
    as = override("Nes", "{'actions': [[[], ['A']], [[]], [[], []]]}");
    static const expected_group noop[] = {{0, 1, {0}}, {256, 2, {0, 256}}};
    assert_groups(as, noop, 2, "noop group");
    assert_int_equal(rg_actionset_discrete_count(as), 2);
    int64_t ids[2] = {0, 1};
    uint32_t b;
    assert_int_equal(rg_actionset_multi_discrete(as, ids, 2, &b), RG_OK);
    assert_int_equal(b, 256);
    rg_actionset_free(as);
}

static void override_absent_or_empty_keeps_defaults(void **state)
{
    (void)state;
    static const expected_group nes[] = {G_UPDOWN, G_LEFTRIGHT, G_NES_FACE};
    rg_actionset *as = override("Nes", "{}");
    assert_groups(as, nes, 3, "no actions key");
    rg_actionset_free(as);
    /* An empty list has no groups, so the system's defaults apply (the header's rule: zero groups = defaults). */
    as = override("Nes", "{'actions': []}");
    assert_groups(as, nes, 3, "empty actions");
    rg_actionset_free(as);
}

static void override_is_independent_of_the_scenario(void **state)
{
    (void)state;
    /* The action set copies what it needs: it stays valid after the scenario is freed or reloaded. */
    rg_scenario *sc = scenario_with("{'actions': [[[], ['A'], ['B']]]}");
    rg_actionset *as = NULL;
    assert_int_equal(rg_actionset_create(&as, sys_named("Nes"), sc), RG_OK);
    const char *other = "{\"actions\": [[[], [\"UP\"]]]}";
    assert_int_equal(rg_scenario_load_string(sc, other, strlen(other), NULL, 0), RG_OK);
    rg_scenario_free(sc);
    static const expected_group want[] = {{257, 3, {0, 1, 256}}};
    assert_groups(as, want, 1, "after free");
    rg_actionset_free(as);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_system_has_the_spec_groups),
        cmocka_unit_test(multi_discrete_sizes),
        cmocka_unit_test(out_of_range_accessors),
        cmocka_unit_test(filtered_examples),
        cmocka_unit_test(filtered_exhaustive),
        cmocka_unit_test(discrete_examples),
        cmocka_unit_test(discrete_formula_every_system),
        cmocka_unit_test(multi_discrete_ranges),
        cmocka_unit_test(override_kid_chameleon_adds_start),
        cmocka_unit_test(override_unknown_names_map_to_n_buttons),
        cmocka_unit_test(override_duplicates),
        cmocka_unit_test(override_absent_or_empty_keeps_defaults),
        cmocka_unit_test(override_is_independent_of_the_scenario),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
