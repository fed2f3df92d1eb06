/* Listing games, states and scenarios; finding ROMs; metadata.json and the default state. */
#include "data_fixture.h"

static fixture fx;

static int setup(void **state)
{
    (void)state;
    fx_setup(&fx);
    /* Games: two in stable, one shadowed in contrib, one only in experimental; folders without rom.sha don't count. */
    fx_game(&fx, "stable", "Beta-Snes", NULL);
    fx_game(&fx, "stable", "Alpha-Nes", NULL);
    fx_game(&fx, "contrib", "Alpha-Nes", NULL);
    fx_game(&fx, "experimental", "Gamma-Genesis", NULL);
    char p[800];
    snprintf(p, sizeof p, "%s/stable/NoSha-Nes", fx.root);
    fx_text(p, "data.json", "{}");
    snprintf(p, sizeof p, "%s/stable", fx.root);
    fx_text(p, "stray-file", "not a game");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fx_teardown(&fx);
    return 0;
}

static void expect_list(rg_strlist *l, const char *const *want)
{
    size_t n = 0;
    while (want[n])
        n++;
    for (size_t i = 0; i < rg_strlist_count(l) && rg_strlist_count(l) != n; i++)
        print_message("  got %s\n", rg_strlist_at(l, i));
    assert_int_equal(rg_strlist_count(l), n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(rg_strlist_at(l, i), want[i]);
    rg_strlist_free(l);
}

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})

static void games(void **state)
{
    (void)state;
    rg_strlist *l;
    assert_int_equal(rg_integration_list_games(fx.dp, RG_INTEGRATIONS_STABLE, &l), RG_OK);
    expect_list(l, LIST("Alpha-Nes", "Beta-Snes"));
    assert_int_equal(rg_integration_list_games(fx.dp, RG_INTEGRATIONS_ALL, &l), RG_OK);
    expect_list(l, LIST("Alpha-Nes", "Beta-Snes", "Gamma-Genesis"));
    assert_int_equal(rg_integration_list_games(fx.dp, RG_INTEGRATIONS_EXPERIMENTAL_ONLY, &l), RG_OK);
    expect_list(l, LIST("Gamma-Genesis"));
    assert_int_equal(rg_integration_list_games(fx.dp, RG_INTEGRATIONS_CUSTOM_ONLY, &l), RG_OK);
    assert_int_equal(rg_strlist_count(l), 0);
    assert_null(rg_strlist_at(l, 0));
    rg_strlist_free(l);
    rg_strlist_free(NULL);
    assert_int_equal(rg_strlist_count(NULL), 0);
    /* A root without integration folders lists nothing. */
    rg_integration_paths *empty;
    assert_int_equal(rg_integration_paths_create(&empty, fx.tmp), RG_OK);
    assert_int_equal(rg_integration_list_games(empty, RG_INTEGRATIONS_ALL, &l), RG_OK);
    assert_int_equal(rg_strlist_count(l), 0);
    rg_strlist_free(l);
    rg_integration_paths_free(empty);
}

static void states(void **state)
{
    (void)state;
    char p[800];
    snprintf(p, sizeof p, "%s/stable/Alpha-Nes", fx.root);
    fx_write(p, "Level2.state", "x", 1);
    fx_write(p, "_hidden.state", "x", 1);
    fx_write(p, "notes.txt", "x", 1);
    fx_write(p, "Level1.state.bak", "x", 1);
    snprintf(p, sizeof p, "%s/contrib/Alpha-Nes", fx.root);
    fx_write(p, "Contrib.state", "x", 1);
    rg_strlist *l;
    assert_int_equal(rg_integration_list_states(fx.dp, "Alpha-Nes", RG_INTEGRATIONS_STABLE, &l), RG_OK);
    expect_list(l, LIST("Level2", "Start"));
    assert_int_equal(rg_integration_list_states(fx.dp, "Alpha-Nes", RG_INTEGRATIONS_CONTRIB, &l), RG_OK);
    expect_list(l, LIST("Contrib", "Level2", "Start"));
    assert_int_equal(rg_integration_list_states(fx.dp, "Nobody-Nes", RG_INTEGRATIONS_ALL, &l), RG_OK);
    expect_list(l, (const char *const[]){NULL});
    assert_int_equal(rg_integration_list_states(fx.dp, NULL, RG_INTEGRATIONS_ALL, &l), RG_EINVAL);
}

static void scenarios(void **state)
{
    (void)state;
    char p[800];
    snprintf(p, sizeof p, "%s/stable/Beta-Snes", fx.root);
    fx_text(p, "contest.json", "{\"done\": {}}");
    fx_text(p, "xpos.json", "{\"rewards\": []}");
    fx_text(p, "broken.json", "{\"reward\": ");
    fx_text(p, "array.json", "[{\"reward\": 1}]");
    fx_text(p, "nullreward.json", "{\"reward\": null}");
    fx_text(p, "other.json", "{\"crop\": [0, 0, 0, 0]}");
    fx_text(p, "deep.json", "");
    /* Hostile: nesting deeper than the parser allows. */
    char deep[10000];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = '\0';
    fx_text(p, "deep.json", deep);
    rg_strlist *l;
    assert_int_equal(rg_integration_list_scenarios(fx.dp, "Beta-Snes", RG_INTEGRATIONS_STABLE, &l), RG_OK);
    /* metadata.json and data.json are not scenarios; a null "reward" does not count (Python: `is not None`). */
    expect_list(l, LIST("contest", "scenario", "xpos"));
}

static void rom_paths(void **state)
{
    (void)state;
    char p[800];
    char *rom = NULL;
    assert_int_equal(rg_integration_rom_path(fx.dp, "Alpha-Nes", RG_INTEGRATIONS_STABLE, &rom), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "no ROM for game Alpha-Nes: import yours with `retrogym import PATH`"));
    snprintf(p, sizeof p, "%s/stable/Beta-Snes", fx.root);
    fx_write(p, "rom.smc", "x", 1);
    assert_int_equal(rg_integration_rom_path(fx.dp, "Beta-Snes", RG_INTEGRATIONS_STABLE, &rom), RG_OK);
    assert_non_null(strstr(rom, "/stable/Beta-Snes/rom.smc"));
    free(rom);
    fx_write(p, "rom.sfc", "x", 1); /* the system's first extension comes first */
    assert_int_equal(rg_integration_rom_path(fx.dp, "Beta-Snes", RG_INTEGRATIONS_STABLE, &rom), RG_OK);
    assert_non_null(strstr(rom, "/stable/Beta-Snes/rom.sfc"));
    free(rom);
    /* Unknown suffix: every extension is tried. */
    snprintf(p, sizeof p, "%s/stable/Odd-Thing", fx.root);
    fx_write(p, "rom.gb", "x", 1);
    assert_int_equal(rg_integration_rom_path(fx.dp, "Odd-Thing", RG_INTEGRATIONS_STABLE, &rom), RG_OK);
    assert_non_null(strstr(rom, "/Odd-Thing/rom.gb"));
    free(rom);
    const rg_system_info *sys;
    assert_int_equal(rg_integration_game_system("StarCatcher-Nes", &sys), RG_OK);
    assert_string_equal(sys->name, "Nes");
    assert_int_equal(rg_integration_game_system("Sonic-The-Hedgehog-Genesis", &sys), RG_OK);
    assert_string_equal(sys->name, "Genesis");
    assert_int_equal(rg_integration_game_system("NoSuffix", &sys), RG_ENOTFOUND);
    assert_int_equal(rg_integration_game_system("Game-Nintendo", &sys), RG_ENOTFOUND);
    assert_int_equal(rg_integration_game_system("Game-Snes-v2", &sys), RG_OK);
    assert_string_equal(sys->name, "Snes");
    assert_int_equal(rg_integration_game_system("Game-v2", &sys), RG_ENOTFOUND);
    assert_int_equal(rg_integration_game_system("Nes-v", &sys), RG_ENOTFOUND);
    assert_int_equal(rg_integration_game_system("-Nes", &sys), RG_OK);
}

static void metadata_parse(void **state)
{
    (void)state;
    rg_integration_metadata *m;
    const char *ok = "{\"default_state\": \"Level1\", \"default_player_state\": [\"P1\", \"P2\"],"
                     " \"whitelist\": {\"data.json\": [\"w1\", \"w2\"], \"scenario.json\": []},"
                     " \"states\": {\"Level1\": {\"runs\": 3}}, \"tags\": [1, 2]}";
    assert_int_equal(rg_integration_metadata_parse(&m, ok, strlen(ok)), RG_OK);
    assert_string_equal(rg_integration_metadata_default_state(m), "Level1");
    assert_int_equal(rg_integration_metadata_player_state_count(m), 2);
    assert_string_equal(rg_integration_metadata_player_state(m, 1), "P2");
    assert_null(rg_integration_metadata_player_state(m, 2));
    assert_string_equal(rg_integration_metadata_state_for_players(m, 1), "P1");
    assert_string_equal(rg_integration_metadata_state_for_players(m, 2), "P2");
    assert_string_equal(rg_integration_metadata_state_for_players(m, 3), "Level1");
    assert_null(rg_integration_metadata_state_for_players(m, 0));
    assert_int_equal(rg_integration_metadata_whitelist_count(m, "data.json"), 2);
    assert_string_equal(rg_integration_metadata_whitelist_at(m, "data.json", 1), "w2");
    assert_int_equal(rg_integration_metadata_whitelist_count(m, "scenario.json"), 0);
    assert_int_equal(rg_integration_metadata_whitelist_count(m, "nothing.json"), 0);
    assert_null(rg_integration_metadata_whitelist_at(m, "data.json", 5));
    rg_integration_metadata_free(m);
    assert_int_equal(rg_integration_metadata_parse(&m, "{}", 2), RG_OK);
    assert_null(rg_integration_metadata_default_state(m));
    assert_null(rg_integration_metadata_state_for_players(m, 1));
    rg_integration_metadata_free(m);
    rg_integration_metadata_free(NULL);
}

static void metadata_hostile(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *msg;
    } bad[] = {
        {"", "invalid JSON"},
        {"{\"default_state\": ", "invalid JSON"},
        {"[]", "must hold an object"},
        {"42", "must hold an object"},
        {"{\"default_state\": 5}", "default_state must be a string"},
        {"{\"default_player_state\": \"P1\"}", "default_player_state must be an array"},
        {"{\"default_player_state\": [\"P1\", 2]}", "default_player_state[1] must be a string"},
        {"{\"whitelist\": []}", "whitelist must be an object"},
        {"{\"whitelist\": {\"data.json\": \"w\"}}", "whitelist[\"data.json\"] must be an array"},
        {"{\"whitelist\": {\"data.json\": [{}]}}", "whitelist[\"data.json\"][0] must be a string"},
        {"{\"default_state\": 1e999999}", "invalid JSON"},
        {"{\"x\": 123456789012345678901234567890}", "invalid JSON"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rg_integration_metadata *m = (rg_integration_metadata *)&m;
        int rc = rg_integration_metadata_parse(&m, bad[i].text, strlen(bad[i].text));
        if (rc != RG_ECORRUPT || !strstr(rg_error_last(), bad[i].msg))
            fail_msg("%s: rc %d, message \"%s\"", bad[i].text, rc, rg_error_last());
        assert_null(m);
    }
    /* Deep nesting is refused by the parser, not by the stack. */
    size_t n = 200000;
    char *deep = malloc(n + 1);
    memset(deep, '[', n);
    deep[n] = '\0';
    rg_integration_metadata *m;
    assert_int_equal(rg_integration_metadata_parse(&m, deep, n), RG_ECORRUPT);
    free(deep);
    assert_int_equal(rg_integration_metadata_parse(NULL, "{}", 2), RG_EINVAL);
    assert_int_equal(rg_integration_metadata_load(&m, "/nonexistent/metadata.json"), RG_ENOTFOUND);
}

static void default_state(void **state)
{
    (void)state;
    char p[800];
    snprintf(p, sizeof p, "%s/stable/Beta-Snes", fx.root);
    fx_text(p, "metadata.json", "{\"default_state\": \"Start\", \"default_player_state\": [\"OneP\", \"TwoP\"]}");
    char *s = NULL;
    assert_int_equal(rg_integration_default_state(fx.dp, "Beta-Snes", 1, RG_INTEGRATIONS_STABLE, &s), RG_OK);
    assert_string_equal(s, "OneP");
    free(s);
    assert_int_equal(rg_integration_default_state(fx.dp, "Beta-Snes", 2, RG_INTEGRATIONS_STABLE, &s), RG_OK);
    assert_string_equal(s, "TwoP");
    free(s);
    assert_int_equal(rg_integration_default_state(fx.dp, "Beta-Snes", 3, RG_INTEGRATIONS_STABLE, &s), RG_OK);
    assert_string_equal(s, "Start");
    free(s);
    assert_int_equal(rg_integration_default_state(fx.dp, "Beta-Snes", 0, RG_INTEGRATIONS_STABLE, &s), RG_EINVAL);
    assert_int_equal(rg_integration_default_state(fx.dp, "Nobody-Nes", 1, RG_INTEGRATIONS_ALL, &s), RG_ENOTFOUND);
    fx_text(p, "metadata.json", "{\"tags\": []}");
    assert_int_equal(rg_integration_default_state(fx.dp, "Beta-Snes", 1, RG_INTEGRATIONS_STABLE, &s), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "no default state"));
    fx_text(p, "metadata.json", "{\"default_state\": [1]}");
    assert_int_equal(rg_integration_default_state(fx.dp, "Beta-Snes", 1, RG_INTEGRATIONS_STABLE, &s), RG_ECORRUPT);
    assert_non_null(strstr(rg_error_last(), "metadata.json"));
    assert_null(s);
    fx_text(p, "metadata.json", "{\"default_state\": \"Start\"}");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(games),          cmocka_unit_test(states),           cmocka_unit_test(scenarios),
        cmocka_unit_test(rom_paths),      cmocka_unit_test(metadata_parse),   cmocka_unit_test(metadata_hostile),
        cmocka_unit_test(default_state),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
