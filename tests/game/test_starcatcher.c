#define _POSIX_C_SOURCE 200809L
/* Our own game, StarCatcher-Nes (games/starcatcher, data/stable/StarCatcher-Nes), loaded and scored the way an
 * environment does it: start state, one frame with no buttons, scenario reset and update, then one scenario
 * update per frame. The expected figures are the scripted check of games/starcatcher/README.md. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAME "StarCatcher-Nes"

typedef struct session {
    rg_integration_paths *dp;
    rg_emu *emu;
    rg_gamedata *gd;
    rg_scenario *sc;
} session;

static char *game_file(rg_integration_paths *dp, const char *file)
{
    char *path = NULL;
    if (rg_integration_file_path(dp, GAME, file, RG_INTEGRATIONS_STABLE, &path) != RG_OK)
        fail_msg("%s: %s", file, rg_error_last());
    return path;
}

static int open_session(session *s)
{
    memset(s, 0, sizeof *s);
    char root[1024];
    assert_int_equal(rg_integration_paths_create(&s->dp, test_source_path("data", root, sizeof root)), RG_OK);
    char *rom = NULL;
    assert_int_equal(rg_integration_rom_path(s->dp, GAME, RG_INTEGRATIONS_STABLE, &rom), RG_OK);
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "nestopia";
    o.log = test_quiet_log;
    int rc = rg_emu_open(&s->emu, rom, &o);
    free(rom);
    if (rc != RG_OK)
        return -1;
    char *data = game_file(s->dp, "data.json"), *scen = game_file(s->dp, "scenario.json");
    assert_int_equal(rg_gamedata_create(&s->gd), RG_OK);
    assert_int_equal(rg_gamedata_bind_emu(s->gd, s->emu), RG_OK);
    assert_int_equal(rg_gamedata_load_file(s->gd, data, RG_LOAD_STRICT), RG_OK);
    assert_int_equal(rg_scenario_create(&s->sc), RG_OK);
    assert_int_equal(rg_scenario_load_file(s->sc, scen, RG_LOAD_STRICT), RG_OK);
    free(data);
    free(scen);
    return 0;
}

static void close_session(session *s)
{
    rg_scenario_free(s->sc);
    rg_gamedata_free(s->gd);
    rg_emu_free(s->emu);
    rg_integration_paths_free(s->dp);
}

static void start_episode(session *s)
{
    char *state_name = NULL;
    assert_int_equal(rg_integration_default_state(s->dp, GAME, 1, RG_INTEGRATIONS_STABLE, &state_name), RG_OK);
    assert_string_equal(state_name, "Start");
    free(state_name);
    char *state = game_file(s->dp, "Start.state");
    assert_int_equal(rg_emu_state_load_file(s->emu, state), RG_OK);
    free(state);
    assert_int_equal(rg_emu_set_buttons(s->emu, 0, 0), RG_OK);
    assert_int_equal(rg_emu_run(s->emu), RG_OK);
    assert_int_equal(rg_scenario_reset(s->sc, s->gd), RG_OK);
    assert_int_equal(rg_scenario_update(s->sc, s->gd), RG_OK);
}

static int64_t var(session *s, const char *name)
{
    int64_t v;
    if (rg_gamedata_get(s->gd, name, &v) != RG_OK)
        fail_msg("%s: %s", name, rg_error_last());
    return v;
}

static uint16_t mask_of(session *s, const char *names)
{
    const rg_system_info *sys = rg_emu_system(s->emu);
    uint16_t m = 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", names);
    for (char *save = NULL, *tok = strtok_r(buf, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
        int id = rg_system_button_id(sys, tok);
        assert_true(id >= 0);
        m |= (uint16_t)(1u << id);
    }
    return m;
}

/* The README's input: RIGHT@30 0@80 LEFT@500 0@600 A+RIGHT@1200 0@1230 LEFT@2500, 3600 steps. */
static void scripted_input_reaches_known_score(void **state)
{
    (void)state;
    session s;
    if (!test_core_installed("nestopia") || open_session(&s) != 0)
        skip();
    start_episode(&s);
    const struct { unsigned step; const char *buttons; } script[] = {
        {30, "RIGHT"}, {80, NULL}, {500, "LEFT"}, {600, NULL}, {1200, "A+RIGHT"}, {1230, NULL}, {2500, "LEFT"},
    };
    size_t next = 0;
    unsigned rewarded[8], n_rewarded = 0;
    for (unsigned step = 0; step < 3600; step++) {
        if (next < sizeof script / sizeof *script && script[next].step == step) {
            rg_emu_set_buttons(s.emu, 0, script[next].buttons ? mask_of(&s, script[next].buttons) : 0);
            next++;
        }
        assert_int_equal(rg_emu_run(s.emu), RG_OK);
        assert_int_equal(rg_scenario_update(s.sc, s.gd), RG_OK);
        if (rg_scenario_reward(s.sc, 0) != 0.0f && n_rewarded < 8)
            rewarded[n_rewarded++] = step;
        assert_false(rg_scenario_done(s.sc));
    }
    assert_true(rg_scenario_total_reward(s.sc, 0) == 30.0f);
    assert_int_equal(var(&s, "score"), 30);
    assert_int_equal(var(&s, "lives"), 3);
    assert_int_equal(n_rewarded, 3);
    assert_int_equal(rewarded[0], 469);
    assert_int_equal(rewarded[1], 1237);
    assert_int_equal(rewarded[2], 2069);
    close_session(&s);
}

/* A player who does nothing loses every life: done at step 10127, having caught 11 stars by luck. */
static void losing_all_lives_sets_done(void **state)
{
    (void)state;
    session s;
    if (!test_core_installed("nestopia") || open_session(&s) != 0)
        skip();
    start_episode(&s);
    int64_t lives = var(&s, "lives");
    assert_int_equal(lives, 3);
    unsigned step = 0, life_lost = 0;
    for (; step < 20000 && !rg_scenario_done(s.sc); step++) {
        assert_int_equal(rg_emu_run(s.emu), RG_OK);
        assert_int_equal(rg_scenario_update(s.sc, s.gd), RG_OK);
        int64_t now = var(&s, "lives");
        life_lost += now < lives;
        lives = now;
    }
    assert_true(rg_scenario_done(s.sc));
    assert_int_equal(step - 1, 10127);
    assert_int_equal(life_lost, 3);
    assert_int_equal(var(&s, "gameover"), 1);
    assert_true(rg_scenario_total_reward(s.sc, 0) == 110.0f);
    /* a new episode starts over from the state, with totals and done cleared */
    start_episode(&s);
    assert_false(rg_scenario_done(s.sc));
    assert_true(rg_scenario_total_reward(s.sc, 0) == 0.0f);
    assert_int_equal(var(&s, "lives"), 3);
    close_session(&s);
}

/* The integration is complete and valid: files, types, scenario rules, default state, ROM hash. */
static void integration_validates(void **state)
{
    (void)state;
    session s;
    memset(&s, 0, sizeof s);
    char root[1024];
    assert_int_equal(rg_integration_paths_create(&s.dp, test_source_path("data", root, sizeof root)), RG_OK);
    rg_integration_diags *d;
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_game(s.dp, GAME, RG_INTEGRATIONS_STABLE, d), RG_OK);
    for (size_t i = 0; i < rg_integration_diags_count(d); i++)
        print_message("%s: %s\n", rg_integration_diags_at(d, i)->file, rg_integration_diags_at(d, i)->message);
    assert_int_equal(rg_integration_diags_count(d), 0);
    rg_integration_diags_free(d);
    rg_strlist *games;
    assert_int_equal(rg_integration_list_games(s.dp, RG_INTEGRATIONS_STABLE, &games), RG_OK);
    int found = 0;
    for (size_t i = 0; i < rg_strlist_count(games); i++)
        found |= strcmp(rg_strlist_at(games, i), GAME) == 0;
    assert_true(found);
    rg_strlist_free(games);
    rg_integration_paths_free(s.dp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integration_validates),
        cmocka_unit_test(scripted_input_reaches_known_score),
        cmocka_unit_test(losing_all_lives_sets_done),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
