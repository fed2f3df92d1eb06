/* The start state's file picks the core: a NES integration whose state was saved by nestopia runs on nestopia and
 * one saved by FCEUmm on our core `nes`, which converts FCEUmm's states and comes first in the system's list (FCEUmm
 * itself when named), with no fallback and no warning; a damaged state still goes through the fallback and ends in an
 * error naming what to do; a ROM our core has no mapper for runs on the next installed core. The FCEUmm state is
 * stable-retro's own (the Core.bin of the reference movie it recorded on our NES test ROM); the nestopia one is
 * saved here by Debian's nestopia. `retrogym library` names the same core. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char root[512];
static char dir[1024];

static int setup(void **state)
{
    (void)state;
    test_use_wheel_cores();
    test_integration_dir("statecore", "Test-Nes", "test.nes", root, sizeof root, dir, sizeof dir);
    char path[1200];
    snprintf(path, sizeof path, "%s/rom.nes", dir);
    test_write_text(dir, "data.json", "{\"info\": {\"frame\": {\"address\": 16, \"type\": \"|u1\"}}}");
    test_write_text(dir, "scenario.json", "{\"reward\": {\"variables\": {\"frame\": {\"reward\": 1}}}}");
    /* FCEUmm's state, as stable-retro saved it */
    const uint8_t *st;
    size_t st_len;
    rg_movie *m = test_movie_start_state("sr-Nes.bk2", &st, &st_len);
    assert_true(st_len > 3 && memcmp(st, "FCS", 3) == 0);
    test_write_gz(dir, "Fceumm.state", st, st_len);
    test_write_gz(dir, "Damaged.state", st, st_len / 2); /* FCEUmm's signature, cut in half */
    rg_movie_free(m);
    /* nestopia's, saved by Debian's core from power-on plus a few frames */
    if (test_core_installed("nestopia")) {
        rg_emu_options eo = RG_EMU_OPTIONS_INIT;
        eo.core = "nestopia";
        eo.log = test_quiet_log;
        rg_emu *emu;
        assert_int_equal(rg_emu_open(&emu, path, &eo), RG_OK);
        for (int i = 0; i < 10; i++)
            assert_int_equal(rg_emu_run(emu), RG_OK);
        size_t n;
        assert_int_equal(rg_emu_state_size(emu, &n), RG_OK);
        uint8_t *buf = malloc(n);
        assert_int_equal(rg_emu_state_save(emu, buf, n, &n), RG_OK);
        assert_true(n > 4 && memcmp(buf, "NST\x1a", 4) == 0);
        test_write_gz(dir, "Nestopia.state", buf, n);
        test_write_text(dir, "metadata.json", "{\"default_state\": \"Nestopia\"}");
        free(buf);
        rg_emu_free(emu);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rg__remove_tree(root);
    return 0;
}

static int warnings;

static void count_warnings(rg_log_level level, const char *message, void *user)
{
    (void)message;
    (void)user;
    if (level >= RG_LOG_WARN)
        warnings++;
}

/* The core an env made from the named state runs on, with no core named; NULL when creation failed. */
static int last_rc;

static const char *core_for_named(const char *state_name, const char *core_name, rg_env **env)
{
    rg_integration_paths *dp;
    assert_int_equal(rg_integration_paths_create(&dp, root), RG_OK);
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "Test-Nes";
    o.core = core_name;
    o.paths = dp;
    o.state = state_name;
    o.log = count_warnings;
    o.log_level = RG_LOG_DEBUG;
    warnings = 0;
    int rc = last_rc = rg_env_create(env, &o);
    rg_integration_paths_free(dp);
    return rc == RG_OK ? rg_emu_core_name(rg_env_emu(*env)) : NULL;
}

static const char *core_for(const char *state_name, rg_env **env)
{
    return core_for_named(state_name, NULL, env);
}

static void each_state_runs_on_its_own_core(void **state)
{
    (void)state;
    int ran = 0;
    rg_env *env;
    {
        /* FCEUmm's state goes to our core, installed or not FCEUmm: it converts the state and comes first */
        const char *core = core_for("Fceumm", &env);
        assert_non_null(core);
        assert_string_equal(core, "nes");
        assert_int_equal(warnings, 0);
        rg_env_free(env);
        ran++;
    }
    if (test_core_installed("fceumm")) {
        const char *core = core_for_named("Fceumm", "fceumm", &env);
        assert_non_null(core);
        assert_string_equal(core, "fceumm");
        assert_int_equal(warnings, 0);
        rg_env_free(env);
        ran++;
    }
    if (test_core_installed("nestopia")) {
        const char *core = core_for("Nestopia", &env);
        assert_non_null(core);
        assert_string_equal(core, "nestopia");
        assert_int_equal(warnings, 0);
        /* it runs: the state came from frame 10 of power-on, and the episode goes on from it */
        size_t size = rg_env_obs_size(env);
        uint8_t *obs = malloc(size);
        assert_int_equal(rg_env_reset(env, 1, 0, obs, size), RG_OK);
        free(obs);
        rg_env_free(env);
        ran++;
    }
    if (!ran)
        skip();
}

static void a_damaged_state_is_refused_by_every_core(void **state)
{
    (void)state;
    rg_env *env = NULL; /* our core refuses it first, then every other installed one */
    assert_null(core_for("Damaged", &env));
    assert_null(env);
    assert_int_equal(last_rc, RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "no other installed core of Nes loads it either"));
}

/* A ROM whose mapper our core does not have (34, BNROM: the test ROM's header changed) runs on the next installed
 * core of the list, with a warning naming the mapper; with none installed the error is our core's. */
static void a_rom_our_core_lacks_runs_on_the_next_core(void **state)
{
    (void)state;
    char path[1200];
    snprintf(path, sizeof path, "%s/rom.nes", dir);
    uint8_t *bytes;
    size_t size;
    assert_int_equal(rg__read_file(path, 1 << 20, &bytes, &size), RG_OK);
    bytes[6] = (uint8_t)((bytes[6] & 0x0F) | 0x20);
    bytes[7] = (uint8_t)((bytes[7] & 0x0F) | 0x20); /* mapper 34 */
    snprintf(path, sizeof path, "%s/mapper34.nes", dir);
    assert_int_equal(rg__write_file_atomic(path, bytes, size), RG_OK);
    free(bytes);
    rg_integration_paths *dp;
    assert_int_equal(rg_integration_paths_create(&dp, root), RG_OK);
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "Test-Nes";
    o.rom = path;
    o.state = ""; /* power-on */
    o.paths = dp;
    o.log = count_warnings;
    o.log_level = RG_LOG_DEBUG;
    warnings = 0;
    rg_env *env = NULL;
    int rc = rg_env_create(&env, &o);
    rg_integration_paths_free(dp);
    const char *next = test_core_installed("fceumm") ? "fceumm" : test_core_installed("nestopia") ? "nestopia" : NULL;
    if (next) {
        assert_int_equal(rc, RG_OK);
        assert_string_equal(rg_emu_core_name(rg_env_emu(env)), next);
        assert_int_equal(warnings, 1);
        rg_env_free(env);
    } else {
        assert_int_equal(rc, RG_EUNSUPPORTED);
        assert_null(env);
        assert_non_null(strstr(rg_error_last(), "mapper 34 is not supported"));
    }
    /* our core named: its own error, no fallback */
    assert_int_equal(rg_integration_paths_create(&dp, root), RG_OK);
    o.paths = dp;
    o.core = "nes";
    assert_int_equal(rg_env_create(&env, &o), RG_EUNSUPPORTED);
    assert_non_null(strstr(rg_error_last(), "mapper 34 is not supported"));
    rg_integration_paths_free(dp);
}

/* The library names the core the environment will pick: nestopia for a game whose default state is nestopia's. */
static void library_names_the_state_core(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    rg_integration_paths *dp;
    assert_int_equal(rg_integration_paths_create(&dp, root), RG_OK);
    rg_integration_library *lib;
    assert_int_equal(rg_integration_library_create(dp, RG_INTEGRATIONS_ALL, &lib), RG_OK);
    const rg_integration_library_game *g = NULL;
    for (size_t i = 0; i < rg_integration_library_count(lib); i++)
        if (strcmp(rg_integration_library_at(lib, i)->game, "Test-Nes") == 0)
            g = rg_integration_library_at(lib, i);
    assert_non_null(g);
    assert_string_equal(g->state, "Nestopia");
    assert_string_equal(g->core, "nestopia");
    rg_integration_library_free(lib);
    rg_integration_paths_free(dp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(each_state_runs_on_its_own_core),
                                       cmocka_unit_test(a_damaged_state_is_refused_by_every_core),
                                       cmocka_unit_test(a_rom_our_core_lacks_runs_on_the_next_core),
                                       cmocka_unit_test(library_names_the_state_core)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
