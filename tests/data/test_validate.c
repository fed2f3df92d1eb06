/* The validators of Gym Retro's integration test-suite: each rule with a passing and a failing case, whitelists,
 * and hostile JSON (malformed, wrong types, deep nesting, huge numbers) that must give findings, never crashes. */
#include "data_fixture.h"

static fixture fx;
static char game_dir[800];

#define GAME "Valid-Nes"

static int setup(void **state)
{
    (void)state;
    fx_setup(&fx);
    snprintf(game_dir, sizeof game_dir, "%s/stable/" GAME, fx.root);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fx_teardown(&fx);
    return 0;
}

static int fresh_game(void **state)
{
    (void)state;
    rg__remove_tree(game_dir);
    fx_game(&fx, "stable", GAME, NULL);
    return 0;
}

typedef int (*validator)(const rg_integration_paths *, const char *, unsigned, rg_integration_diags *);

/* Writes file (when text is non-NULL), runs a validator and returns its findings. */
static rg_integration_diags *check(validator v, const char *file, const char *text)
{
    if (text)
        fx_text(game_dir, file, text);
    rg_integration_diags *d;
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(v(fx.dp, GAME, RG_INTEGRATIONS_STABLE, d), RG_OK);
    return d;
}

static int scenario_validator(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *d)
{
    return rg_integration_validate_scenario(dp, game, "scenario", flags, d);
}

/* Asserts exactly one finding, with a severity and a message containing text; frees d. */
static void expect_one(rg_integration_diags *d, rg_integration_severity sev, const char *text)
{
    if (rg_integration_diags_count(d) != 1 || fx_count(d, sev, text) != 1) {
        fx_dump(d);
        fail_msg("wanted exactly one %s containing \"%s\"", sev == RG_INTEGRATION_SEVERITY_ERROR ? "error" : "warning", text);
    }
    rg_integration_diags_free(d);
}

static void expect_none(rg_integration_diags *d)
{
    if (rg_integration_diags_count(d) != 0) {
        fx_dump(d);
        fail_msg("wanted no findings");
    }
    rg_integration_diags_free(d);
}

#define DATA(vars) "{\"info\": {" vars "}}"

static void data_rules(void **state)
{
    (void)state;
    expect_none(check(rg_integration_validate_data, "data.json", NULL));
    expect_none(
        check(rg_integration_validate_data, "data.json", DATA("\"x\": {\"address\": 16.0, \"type\": \">d4\", \"mask\": 7}")));
    expect_one(check(rg_integration_validate_data, "data.json", "{\"info\": "), RG_INTEGRATION_SEVERITY_ERROR, "fail decode");
    expect_one(check(rg_integration_validate_data, "data.json", "[1, 2]"), RG_INTEGRATION_SEVERITY_ERROR, "fail decode: not a JSON object");
    expect_one(check(rg_integration_validate_data, "data.json", "{\"other\": {}}"), RG_INTEGRATION_SEVERITY_ERROR, "missing info");
    expect_one(check(rg_integration_validate_data, "data.json", DATA("")), RG_INTEGRATION_SEVERITY_ERROR, "missing info");
    expect_one(check(rg_integration_validate_data, "data.json", "{\"info\": [1]}"), RG_INTEGRATION_SEVERITY_ERROR, "info is not an object");
    expect_one(check(rg_integration_validate_data, "data.json", DATA("\"x\": 5")), RG_INTEGRATION_SEVERITY_ERROR, "invalid definition for x");
    expect_one(check(rg_integration_validate_data, "data.json", DATA("\"x\": {\"type\": \"|u1\"}")), RG_INTEGRATION_SEVERITY_ERROR,
               "missing address for x");
    static const char *const bad_addr[] = {"\"16\"", "-1", "1.5", "null", "[16]", "true"};
    for (size_t i = 0; i < sizeof bad_addr / sizeof bad_addr[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, DATA("\"x\": {\"address\": %s, \"type\": \"|u1\"}"), bad_addr[i]);
        expect_one(check(rg_integration_validate_data, "data.json", text), RG_INTEGRATION_SEVERITY_ERROR, "invalid address for x");
    }
    expect_one(check(rg_integration_validate_data, "data.json", DATA("\"x\": {\"address\": 1}")), RG_INTEGRATION_SEVERITY_ERROR,
               "missing type for x");
    expect_one(check(rg_integration_validate_data, "data.json", DATA("\"x\": {\"address\": 1, \"type\": 5}")), RG_INTEGRATION_SEVERITY_ERROR,
               "invalid type (not a string) for x");
    expect_one(check(rg_integration_validate_data, "data.json",
                     DATA("\"x\": {\"address\": 1, \"type\": \"|u1\", \"mask\": \"7\"}")),
               RG_INTEGRATION_SEVERITY_ERROR, "invalid mask for x");
    static const char *const bad_types[] = {"|u2", "<u9", "u1", "|u1 ", ">x2", "<>>u4", "", "?u4", ">u0"};
    for (size_t i = 0; i < sizeof bad_types / sizeof bad_types[0]; i++) {
        char text[200], msg[64];
        snprintf(text, sizeof text, DATA("\"x\": {\"address\": 1, \"type\": \"%s\"}"), bad_types[i]);
        snprintf(msg, sizeof msg, "invalid type %s for x", bad_types[i]);
        expect_one(check(rg_integration_validate_data, "data.json", text), RG_INTEGRATION_SEVERITY_ERROR, msg);
    }
    static const char *const odd_types[] = {"><u4", "<>d4", ">=i2", "=<n2", ">d5", "<d8"};
    for (size_t i = 0; i < sizeof odd_types / sizeof odd_types[0]; i++) {
        char text[200], msg[64];
        snprintf(text, sizeof text, DATA("\"x\": {\"address\": 1, \"type\": \"%s\"}"), odd_types[i]);
        snprintf(msg, sizeof msg, "suspicious type %s for x", odd_types[i]);
        expect_one(check(rg_integration_validate_data, "data.json", text), RG_INTEGRATION_SEVERITY_WARNING, msg);
    }
    /* Name-based hints: lives of more than a byte, a score of one byte or signed. */
    expect_one(check(rg_integration_validate_data, "data.json", DATA("\"lives\": {\"address\": 1, \"type\": \">u2\"}")),
               RG_INTEGRATION_SEVERITY_WARNING, "suspicious type >u2 for lives");
    expect_none(check(rg_integration_validate_data, "data.json", DATA("\"lives\": {\"address\": 1, \"type\": \"|d1\"}")));
    /* The same text from two rules counts once. */
    expect_one(check(rg_integration_validate_data, "data.json", DATA("\"lives\": {\"address\": 1, \"type\": \"><u4\"}")),
               RG_INTEGRATION_SEVERITY_WARNING, "suspicious type ><u4 for lives");
    static const char *const odd_scores[] = {"|u1", "|d1", "|n1", ">n2", ">i2", "|i1"};
    for (size_t i = 0; i < sizeof odd_scores / sizeof odd_scores[0]; i++) {
        char text[200], msg[64];
        snprintf(text, sizeof text, DATA("\"score\": {\"address\": 1, \"type\": \"%s\"}"), odd_scores[i]);
        snprintf(msg, sizeof msg, "suspicious type %s for score", odd_scores[i]);
        expect_one(check(rg_integration_validate_data, "data.json", text), RG_INTEGRATION_SEVERITY_WARNING, msg);
    }
    expect_none(check(rg_integration_validate_data, "data.json", DATA("\"score\": {\"address\": 1, \"type\": \">d3\"}")));
}

static void data_whitelist(void **state)
{
    (void)state;
    const char *odd = DATA("\"x\": {\"address\": 1, \"type\": \"><u4\"}");
    fx_text(game_dir, "metadata.json",
            "{\"default_state\": \"Start\", \"whitelist\": {\"data.json\": [\"suspicious type ><u4 for x\"]}}");
    expect_none(check(rg_integration_validate_data, "data.json", odd));
    /* A listed warning that does not occur is an error of metadata.json. */
    rg_integration_diags *d = check(rg_integration_validate_data, "data.json", DATA("\"x\": {\"address\": 1, \"type\": \">u4\"}"));
    assert_int_equal(rg_integration_diags_count(d), 1);
    const rg_integration_diag *g = rg_integration_diags_at(d, 0);
    assert_int_equal(g->severity, RG_INTEGRATION_SEVERITY_ERROR);
    assert_string_equal(g->message, "missing warning \"" GAME "/data.json: suspicious type ><u4 for x\"");
    assert_non_null(strstr(g->file, "metadata.json"));
    rg_integration_diags_free(d);
    /* The whitelist of another file does not apply. */
    fx_text(game_dir, "metadata.json",
            "{\"default_state\": \"Start\", \"whitelist\": {\"scenario.json\": [\"suspicious type ><u4 for x\"]}}");
    expect_one(check(rg_integration_validate_data, "data.json", odd), RG_INTEGRATION_SEVERITY_WARNING, "suspicious type ><u4 for x");
    /* A broken metadata.json or whitelist is reported. */
    fx_text(game_dir, "metadata.json", "{\"whitelist\": ");
    d = check(rg_integration_validate_data, "data.json", odd);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_ERROR, "fail decode"), 1);
    rg_integration_diags_free(d);
    fx_text(game_dir, "metadata.json", "{\"whitelist\": [\"x\"]}");
    d = check(rg_integration_validate_data, "data.json", odd);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_ERROR, "whitelist is not an object"), 1);
    rg_integration_diags_free(d);
    fx_text(game_dir, "metadata.json", "{\"whitelist\": {\"data.json\": [1]}}");
    d = check(rg_integration_validate_data, "data.json", odd);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_ERROR, "whitelist[\"data.json\"][0] is not a string"), 1);
    rg_integration_diags_free(d);
}

static void data_hostile(void **state)
{
    (void)state;
    /* Huge numbers: beyond 64 bits the parser refuses; 1e400 is not a number at all. */
    expect_one(check(rg_integration_validate_data, "data.json",
                     DATA("\"x\": {\"address\": 99999999999999999999999, \"type\": \"|u1\"}")),
               RG_INTEGRATION_SEVERITY_ERROR, "fail decode");
    expect_one(check(rg_integration_validate_data, "data.json", DATA("\"x\": {\"address\": 1e400, \"type\": \"|u1\"}")),
               RG_INTEGRATION_SEVERITY_ERROR, "fail decode");
    expect_one(check(rg_integration_validate_data, "data.json", DATA("\"x\": {\"address\": 1e30, \"type\": \"|u1\"}")),
               RG_INTEGRATION_SEVERITY_ERROR, "invalid address for x");
    /* Deep nesting: refused by the parser beyond its depth limit, a wrong definition below it. */
    size_t n = 100000;
    char *deep = malloc(2 * n + 64);
    size_t len = (size_t)sprintf(deep, "{\"info\": {\"x\": ");
    memset(deep + len, '[', n);
    memset(deep + len + n, ']', n);
    strcpy(deep + len + 2 * n, "}}");
    expect_one(check(rg_integration_validate_data, "data.json", deep), RG_INTEGRATION_SEVERITY_ERROR, "fail decode");
    free(deep);
    expect_one(check(rg_integration_validate_data, "data.json", DATA("\"x\": [[[[[[[[[[]]]]]]]]]]")), RG_INTEGRATION_SEVERITY_ERROR,
               "invalid definition for x");
    /* Control characters in names do not reach the findings. */
    rg_integration_diags *d = check(rg_integration_validate_data, "data.json", DATA("\"evil\\u001b[2J\": {\"type\": \"|u1\"}"));
    assert_int_equal(rg_integration_diags_count(d), 1);
    assert_string_equal(rg_integration_diags_at(d, 0)->message, "missing address for evil?[2J");
    rg_integration_diags_free(d);
    /* Binary junk, an empty file, and a file over the size limit. */
    fx_write(game_dir, "data.json", "\x00\xff\xfe", 3);
    expect_one(check(rg_integration_validate_data, "data.json", NULL), RG_INTEGRATION_SEVERITY_ERROR, "fail decode");
    expect_one(check(rg_integration_validate_data, "data.json", ""), RG_INTEGRATION_SEVERITY_ERROR, "fail decode");
    char path[900];
    snprintf(path, sizeof path, "%s/data.json", game_dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fseek(f, 17l << 20, SEEK_SET), 0);
    fputc(' ', f);
    fclose(f);
    expect_one(check(rg_integration_validate_data, "data.json", NULL), RG_INTEGRATION_SEVERITY_ERROR, "fail I/O");
}

#define SCEN_REWARD "\"reward\": {\"variables\": {\"score\": {\"reward\": 1}}}"
#define SCEN_DONE "\"done\": {\"variables\": {\"lives\": {\"op\": \"zero\"}}}"

static void scenario_presence(void **state)
{
    (void)state;
    validator v = scenario_validator;
    const char *f = "scenario.json";
    expect_none(check(v, f, NULL));
    rg_integration_diags *d = check(v, f, "{}");
    assert_int_equal(rg_integration_diags_count(d), 2);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_WARNING, "missing reward"), 1);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_WARNING, "missing done"), 1);
    rg_integration_diags_free(d);
    expect_one(check(v, f, "{\"reward\": {\"time\": {}}, " SCEN_DONE "}"), RG_INTEGRATION_SEVERITY_WARNING, "missing reward");
    expect_one(check(v, f, "{\"reward\": {\"variables\": {}, \"script\": \"lua:r\"}, " SCEN_DONE "}"),
               RG_INTEGRATION_SEVERITY_WARNING, "both variables and script present in reward");
    expect_none(check(v, f, "{\"reward\": {\"script\": \"lua:r\"}, \"done\": {\"script\": \"lua:d\"}}"));
    expect_one(check(v, f, "{\"rewards\": [{}], " SCEN_DONE "}"), RG_INTEGRATION_SEVERITY_WARNING, "missing reward in rewards[0]");
    expect_one(check(v, f,
                     "{\"rewards\": [{\"script\": \"a\"}, {\"variables\": {}, \"script\": \"b\"}], " SCEN_DONE "}"),
               RG_INTEGRATION_SEVERITY_WARNING, "both variables and script present in rewards[1]");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"rewards\": [{\"script\": \"a\"}], " SCEN_DONE "}"),
               RG_INTEGRATION_SEVERITY_WARNING, "reward and rewards both present");
    expect_one(check(v, f, "{\"rewards\": {}, " SCEN_DONE "}"), RG_INTEGRATION_SEVERITY_ERROR, "rewards is not an array");
    expect_one(check(v, f, "{\"rewards\": [5], " SCEN_DONE "}"), RG_INTEGRATION_SEVERITY_ERROR, "rewards[0] is not an object");
    expect_one(check(v, f, "{\"reward\": 5, " SCEN_DONE "}"), RG_INTEGRATION_SEVERITY_ERROR, "reward is not an object");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": []}"), RG_INTEGRATION_SEVERITY_ERROR, "done is not an object");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"condition\": \"all\"}}"), RG_INTEGRATION_SEVERITY_WARNING,
               "missing done");
    expect_one(check(v, f, "\"just a string\""), RG_INTEGRATION_SEVERITY_ERROR, "not a JSON object");
    expect_one(check(v, f, "{\"reward\": {\"variables\": {\"score\": "), RG_INTEGRATION_SEVERITY_ERROR, "fail decode");
}

static void scenario_reward_vars(void **state)
{
    (void)state;
    validator v = scenario_validator;
    const char *f = "scenario.json";
    expect_one(check(v, f, "{\"reward\": {\"variables\": {\"nope\": {\"reward\": 1}}}, " SCEN_DONE "}"),
               RG_INTEGRATION_SEVERITY_ERROR, "invalid variable nope");
    expect_one(check(v, f, "{\"reward\": {\"variables\": {\"score\": {}}}, " SCEN_DONE "}"), RG_INTEGRATION_SEVERITY_ERROR,
               "invalid definition score");
    expect_one(check(v, f, "{\"reward\": {\"variables\": {\"score\": 3}}, " SCEN_DONE "}"), RG_INTEGRATION_SEVERITY_ERROR,
               "invalid definition score");
    expect_one(check(v, f,
                     "{\"reward\": {\"variables\": {\"score\": {\"measurement\": \"absolute\"}}}, " SCEN_DONE "}"),
               RG_INTEGRATION_SEVERITY_ERROR, "blank reward score");
    expect_none(check(v, f, "{\"reward\": {\"variables\": {\"score\": {\"penalty\": 1}}}, " SCEN_DONE "}"));
    expect_one(check(v, f, "{\"reward\": {\"variables\": [1]}, " SCEN_DONE "}"), RG_INTEGRATION_SEVERITY_ERROR,
               "reward variables is not an object");
    /* The per-player rewards are checked the same way. */
    expect_one(check(v, f, "{\"rewards\": [{\"variables\": {\"score\": {\"reward\": 1}}}, {\"variables\": {\"p2\": "
                           "{\"reward\": 1}}}], " SCEN_DONE "}"),
               RG_INTEGRATION_SEVERITY_ERROR, "invalid variable p2");
    /* Without a readable data.json, variables cannot be looked up: only the definitions are checked. */
    fx_text(game_dir, "data.json", "{broken");
    expect_none(check(v, f, "{\"reward\": {\"variables\": {\"nope\": {\"reward\": 1}}}, " SCEN_DONE "}"));
    expect_one(check(v, f, "{\"reward\": {\"variables\": {\"nope\": {}}}, " SCEN_DONE "}"), RG_INTEGRATION_SEVERITY_ERROR,
               "invalid definition nope");
}

static void scenario_done_rules(void **state)
{
    (void)state;
    validator v = scenario_validator;
    const char *f = "scenario.json";
    fx_text(game_dir, "data.json",
            DATA("\"score\": {\"address\": 1, \"type\": \">u2\"}, \"lives\": {\"address\": 3, \"type\": \"|u1\"},"
                 "\"health\": {\"address\": 4, \"type\": \"|i1\"}, \"x\": {\"address\": 5, \"type\": \"|d1\"}"));
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": {\"score\": {\"op\": \"zero\"}}}}"),
               RG_INTEGRATION_SEVERITY_WARNING, "suspicious variable in done condition: score");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": {\"health\": {\"op\": \"zero\"}, \"lives\": "
                           "{\"op\": \"zero\"}}}}"),
               RG_INTEGRATION_SEVERITY_WARNING, "suspicious done condition: health OR lives");
    expect_none(check(v, f, "{" SCEN_REWARD ", \"done\": {\"condition\": \"any\", \"variables\": {\"health\": {\"op\": "
                            "\"zero\"}, \"lives\": {\"op\": \"zero\"}}}}"));
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"condition\": \"all\", \"variables\": {\"lives\": {\"op\": "
                           "\"zero\"}}}}"),
               RG_INTEGRATION_SEVERITY_ERROR, "incorrect done condition all with only 1 check");
    expect_none(check(v, f, "{" SCEN_REWARD ", \"done\": {\"condition\": \"all\", \"variables\": {\"lives\": {\"op\": "
                            "\"zero\"}}, \"nodes\": {\"n\": {\"variables\": {\"x\": {\"op\": \"zero\"}}}}}}"));
    /* Inside a done node a lone check under `all` is only a warning (stable-retro accepts ForemanForReal's). */
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": {\"lives\": {\"op\": \"zero\"}}, "
                           "\"nodes\": {\"n\": {\"condition\": \"all\", \"variables\": {\"x\": {\"op\": "
                           "\"zero\"}}}}}}"),
               RG_INTEGRATION_SEVERITY_WARNING, "incorrect done condition all with only 1 check in a done node");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": {\"lives\": {\"op\": \"zero\"}, \"x\": {"
                           "\"op\": "
                           "\"zero\"}, \"health\": {\"op\": \"zero\"}}, \"condition\": \"any\"}}"),
               RG_INTEGRATION_SEVERITY_WARNING, "suspicious done condition any with more than 2 checks");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": {\"lives\": {\"reference\": 0}}}}"),
               RG_INTEGRATION_SEVERITY_ERROR, "invalid done condition lives");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": {\"lives\": 0}}}"), RG_INTEGRATION_SEVERITY_ERROR,
               "invalid done condition lives");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": {\"gone\": {\"op\": \"zero\"}}}}"),
               RG_INTEGRATION_SEVERITY_ERROR, "invalid variable gone");
    /* `negative` can never fire on an unsigned absolute value; signed or delta is fine. */
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": {\"lives\": {\"op\": \"negative\"}}}}"),
               RG_INTEGRATION_SEVERITY_ERROR, "op: negative on unsigned lives");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": {\"x\": {\"op\": \"negative\"}}}}"),
               RG_INTEGRATION_SEVERITY_ERROR, "op: negative on unsigned x");
    expect_none(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": {\"health\": {\"op\": \"negative\"}}}}"));
    expect_none(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": {\"lives\": {\"op\": \"negative\", "
                            "\"measurement\": \"delta\"}}}}"));
    /* Nodes: their variables follow the same rules; malformed nodes are errors. */
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"nodes\": {\"n\": {\"variables\": {\"lives\": {}}}}}}"),
               RG_INTEGRATION_SEVERITY_ERROR, "invalid done condition lives");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"nodes\": {\"n\": 1}}}"), RG_INTEGRATION_SEVERITY_ERROR,
               "done node n is not an object");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"nodes\": [1]}}"), RG_INTEGRATION_SEVERITY_ERROR,
               "done nodes is not an object");
    expect_one(check(v, f, "{" SCEN_REWARD ", \"done\": {\"variables\": 7}}"), RG_INTEGRATION_SEVERITY_ERROR,
               "done variables is not an object");
    /* 40 levels of nodes: refused past 32, without deep recursion. */
    char text[4096];
    size_t len = (size_t)sprintf(text, "{" SCEN_REWARD ", \"done\": ");
    for (int i = 0; i < 40; i++)
        len += (size_t)sprintf(text + len, "{\"nodes\": {\"n\": ");
    len += (size_t)sprintf(text + len, "{}");
    for (int i = 0; i < 40; i++)
        len += (size_t)sprintf(text + len, "}}");
    sprintf(text + len, "}");
    expect_one(check(v, f, text), RG_INTEGRATION_SEVERITY_ERROR, "done nodes nested deeper than 32");
}

static void scenario_whitelist_and_files(void **state)
{
    (void)state;
    fx_text(game_dir, "metadata.json",
            "{\"default_state\": \"Start\", \"whitelist\": {\"scenario.json\": [\"missing done\"], \"contest.json\": "
            "[\"missing reward\", \"missing done\"]}}");
    expect_none(check(scenario_validator, "scenario.json", "{" SCEN_REWARD "}"));
    fx_text(game_dir, "contest.json", "{\"done\": {\"variables\": {\"lives\": {\"op\": \"zero\"}}}}");
    rg_integration_diags *d;
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_scenario(fx.dp, GAME, "contest", RG_INTEGRATIONS_STABLE, d), RG_OK);
    assert_int_equal(rg_integration_validate_scenario(fx.dp, GAME, "contest.json", RG_INTEGRATIONS_STABLE, d), RG_OK);
    assert_int_equal(rg_integration_diags_count(d), 1); /* the same finding twice is kept once */
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_ERROR, "missing warning \"" GAME "/contest.json: missing done\""), 1);
    /* A scenario that does not exist gives nothing (the missing-file scan covers scenario.json). */
    assert_int_equal(rg_integration_validate_scenario(fx.dp, GAME, "nothing", RG_INTEGRATIONS_STABLE, d), RG_OK);
    assert_int_equal(rg_integration_validate_scenario(fx.dp, GAME, "", RG_INTEGRATIONS_STABLE, d), RG_EINVAL);
    assert_int_equal(rg_integration_validate_scenario(fx.dp, "Nobody-Nes", "scenario", RG_INTEGRATIONS_STABLE, d), RG_ENOTFOUND);
    assert_int_equal(rg_integration_diags_count(d), 1);
    rg_integration_diags_free(d);
}

static void default_state_rules(void **state)
{
    (void)state;
    validator v = rg_integration_validate_default_state;
    const char *f = "metadata.json";
    expect_none(check(v, f, NULL));
    expect_one(check(v, f, "{}"), RG_INTEGRATION_SEVERITY_ERROR, "default state missing");
    expect_one(check(v, f, "{\"default_state\": \"\"}"), RG_INTEGRATION_SEVERITY_ERROR, "default state missing");
    expect_one(check(v, f, "{\"default_state\": 3}"), RG_INTEGRATION_SEVERITY_ERROR, "invalid default state (not a string)");
    expect_one(check(v, f, "{\"default_state\": \"Nope\"}"), RG_INTEGRATION_SEVERITY_ERROR, "invalid default state Nope");
    expect_one(check(v, f, "{\"default_state\": \"Start\", \"default_player_state\": [\"Start\", \"Gone\"]}"),
               RG_INTEGRATION_SEVERITY_ERROR, "invalid default player state Gone");
    expect_one(check(v, f, "{\"default_state\": \"Start\", \"default_player_state\": \"Start\"}"), RG_INTEGRATION_SEVERITY_ERROR,
               "default_player_state is not an array");
    expect_one(check(v, f, "{\"default_state\": \"Start\", \"default_player_state\": [null]}"), RG_INTEGRATION_SEVERITY_ERROR,
               "default_player_state[0] is not a string");
    expect_one(check(v, f, "{\"default_state\""), RG_INTEGRATION_SEVERITY_ERROR, "fail decode");
    expect_one(check(v, f, "[]"), RG_INTEGRATION_SEVERITY_ERROR, "not a JSON object");
    /* A state starting with '_' is hidden and so not a valid default. */
    fx_write(game_dir, "_Hidden.state", "x", 1);
    expect_one(check(v, f, "{\"default_state\": \"_Hidden\"}"), RG_INTEGRATION_SEVERITY_ERROR, "invalid default state _Hidden");
    /* A contrib copy may rely on the states of stable. */
    char contrib[800];
    snprintf(contrib, sizeof contrib, "%s/contrib/" GAME, fx.root);
    fx_text(contrib, "metadata.json", "{\"default_state\": \"Start\"}");
    rg_integration_diags *d;
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_default_state(fx.dp, GAME, RG_INTEGRATIONS_CONTRIB_ONLY, d), RG_OK);
    expect_none(d);
    rg__remove_tree(contrib);
}

static void missing_files(void **state)
{
    (void)state;
    char p[800];
    snprintf(p, sizeof p, "%s/experimental/Bare-Snes", fx.root);
    fx_text(p, "rom.sha", "");
    rg_integration_diags *d;
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_missing(fx.dp, RG_INTEGRATIONS_ALL, d), RG_OK);
    static const char *const want[] = {"missing data.json", "missing scenario.json", "missing metadata.json",
                                       "missing *.state"};
    assert_int_equal(rg_integration_diags_count(d), 4);
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(rg_integration_diags_at(d, i)->message, want[i]);
        assert_string_equal(rg_integration_diags_at(d, i)->file, "Bare-Snes");
        assert_int_equal(rg_integration_diags_at(d, i)->severity, RG_INTEGRATION_SEVERITY_ERROR);
    }
    assert_int_equal(rg_integration_diags_severity_count(d, RG_INTEGRATION_SEVERITY_ERROR), 4);
    assert_int_equal(rg_integration_diags_severity_count(d, RG_INTEGRATION_SEVERITY_WARNING), 0);
    rg_integration_diags_free(d);
    /* A folder without rom.sha is not a game; with it, rom.sha is found. */
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_missing(fx.dp, RG_INTEGRATIONS_STABLE, d), RG_OK);
    expect_none(d);
    rg__remove_tree(p);
}

static void whole_game_and_folder(void **state)
{
    (void)state;
    rg_integration_diags *d;
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_game(fx.dp, GAME, 0, d), RG_OK);
    assert_int_equal(rg_integration_validate_dir(game_dir, d), RG_OK);
    expect_none(d);
    /* Every listed scenario is checked, and several problems are found at once. */
    fx_text(game_dir, "contest.json",
            "{\"done\": {\"condition\": \"all\", \"variables\": {\"lives\": {\"op\": \"zero\"}}}}");
    fx_text(game_dir, "metadata.json", "{\"default_state\": \"Gone\"}");
    char with_slash[900];
    snprintf(with_slash, sizeof with_slash, "%s/", game_dir);
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_dir(with_slash, d), RG_OK);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_ERROR, "incorrect done condition all"), 1);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_WARNING, "missing reward"), 1);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_ERROR, "invalid default state Gone"), 1);
    assert_int_equal(rg_integration_diags_count(d), 3);
    rg_integration_diags_free(d);
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_game(fx.dp, "Nobody-Nes", 0, d), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "Nobody-Nes"));
    assert_int_equal(rg_integration_validate_dir("/nonexistent/Game-Nes", d), RG_ENOTFOUND);
    assert_int_equal(rg_integration_validate_game(fx.dp, GAME, 0x40, d), RG_EINVAL);
    assert_int_equal(rg_integration_validate_game(fx.dp, GAME, 0, NULL), RG_EINVAL);
    assert_int_equal(rg_integration_diags_count(d), 0);
    assert_null(rg_integration_diags_at(d, 0));
    rg_integration_diags_free(d);
    rg_integration_diags_free(NULL);
}

/* stable-retro's IshidoTheWayOfStones whitelists its ROM as `"rom.md": true`: metadata.json loads (its presence is
 * what counts), while a JSON file's entry must still list warnings. */
static void whitelist_flag_for_a_rom(void **state)
{
    (void)state;
    rg_integration_metadata *m = NULL;
    const char *ok = "{\"default_state\": \"Level1\", \"whitelist\": {\"rom.md\": true}}";
    assert_int_equal(rg_integration_metadata_parse(&m, ok, strlen(ok)), RG_OK);
    assert_string_equal(rg_integration_metadata_default_state(m), "Level1");
    assert_int_equal(rg_integration_metadata_whitelist_count(m, "rom.md"), 0);
    rg_integration_metadata_free(m);
    const char *bad = "{\"whitelist\": {\"data.json\": true}}";
    m = (rg_integration_metadata *)&m;
    assert_int_equal(rg_integration_metadata_parse(&m, bad, strlen(bad)), RG_ECORRUPT);
    assert_non_null(strstr(rg_error_last(), "whitelist[\"data.json\"] must be an array"));
    assert_null(m);
}

/* A reward coefficient outside a 32-bit float's range (rewards are float32) would make rewards infinite or NaN:
 * validate flags it and loading the scenario refuses it, naming the field; the largest float still loads. */
static void scenario_infinite_coefficients(void **state)
{
    (void)state;
    const char *huge = "{\"reward\": {\"variables\": {\"score\": {\"reward\": 1e39}}}, \"done\": {\"variables\": "
                       "{\"lives\": {\"op\": \"zero\"}}}}";
    expect_one(check(scenario_validator, "scenario.json", huge), RG_INTEGRATION_SEVERITY_ERROR,
               "reward of score is 1e+39, outside the range of a 32-bit float");
    const char *pen = "{\"reward\": {\"variables\": {\"score\": {\"penalty\": -1e300}}}, \"done\": {\"variables\": "
                      "{\"lives\": {\"op\": \"zero\"}}}}";
    expect_one(check(scenario_validator, "scenario.json", pen), RG_INTEGRATION_SEVERITY_ERROR, "penalty of score is -1e+300");
    const char *time = "{\"reward\": {\"time\": {\"reward\": 5e38}}}";
    const char *ok = "{\"reward\": {\"variables\": {\"score\": {\"reward\": 3.4028234e38}}}}";
    rg_scenario *sc;
    assert_int_equal(rg_scenario_create(&sc), RG_OK);
    TEST_EXPECT_ERROR(rg_scenario_load_string(sc, huge, strlen(huge), NULL, 0), RG_ECORRUPT,
                      "\"reward\" is 1e+39, outside the range of a 32-bit float");
    TEST_EXPECT_ERROR(rg_scenario_load_string(sc, pen, strlen(pen), NULL, 0), RG_ECORRUPT, "\"penalty\" is -1e+300");
    TEST_EXPECT_ERROR(rg_scenario_load_string(sc, time, strlen(time), NULL, 0), RG_ECORRUPT, "\"reward\" is 5e+38");
    assert_int_equal(rg_scenario_load_string(sc, ok, strlen(ok), NULL, 0), RG_OK);
    rg_scenario_free(sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(data_rules, fresh_game),
        cmocka_unit_test_setup(data_whitelist, fresh_game),
        cmocka_unit_test_setup(data_hostile, fresh_game),
        cmocka_unit_test_setup(scenario_presence, fresh_game),
        cmocka_unit_test_setup(scenario_reward_vars, fresh_game),
        cmocka_unit_test_setup(scenario_done_rules, fresh_game),
        cmocka_unit_test_setup(scenario_whitelist_and_files, fresh_game),
        cmocka_unit_test_setup(default_state_rules, fresh_game),
        cmocka_unit_test_setup(missing_files, fresh_game),
        cmocka_unit_test_setup(whole_game_and_folder, fresh_game),
        cmocka_unit_test(whitelist_flag_for_a_rom),
        cmocka_unit_test_setup(scenario_infinite_coefficients, fresh_game),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
