/* Every integration stable-retro ships (about 1,070 games: data.json, every scenario, their Lua scripts and action
 * groups) loads with retrogym's loaders, without a single error or skipped entry. The data comes from the project's
 * .venv (make test installs stable-retro there); skipped when it is absent. */
#define _GNU_SOURCE
#include "test_support.h"

#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char data_root[1024];

static int find_data(void)
{
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s/.venv/lib/python3*/site-packages/stable_retro/data", RG_SOURCE_DIR);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)
        return 0;
    snprintf(data_root, sizeof data_root, "%s", g.gl_pathv[0]);
    globfree(&g);
    return 1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void every_integration_loads(void **state)
{
    (void)state;
    if (!find_data())
        skip();
    static uint8_t mem[64];
    static const char *const kinds[] = {"stable", "contrib", "experimental"};
    size_t games = 0, scenarios = 0, problems = 0;
    for (size_t k = 0; k < 3; k++) {
        char dir[1200];
        snprintf(dir, sizeof dir, "%s/%s", data_root, kinds[k]);
        DIR *d = opendir(dir);
        assert_non_null(d);
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.' || !strchr(e->d_name, '-'))
                continue;
            char path[2600], gdir[1800];
            snprintf(gdir, sizeof gdir, "%s/%s", dir, e->d_name);
            snprintf(path, sizeof path, "%s/data.json", gdir);
            rg_gamedata *gd;
            assert_int_equal(rg_gamedata_create(&gd), RG_OK);
            rg_mem_block b = {0, sizeof mem, mem};
            assert_int_equal(rg_gamedata_bind_blocks(gd, &b, 1, 1), RG_OK);
            if (rg_gamedata_load_file(gd, path, 0) != RG_OK || rg_gamedata_warning_count(gd)) {
                print_message("%s: %s\n", path, rg_gamedata_warning_count(gd) ? rg_gamedata_warning(gd, 0)
                                                                               : rg_error_last());
                problems++;
            }
            games++;
            const rg_system_info *sys = NULL;
            int known_system = rg_integration_game_system(e->d_name, &sys) == RG_OK;
            DIR *g = opendir(gdir);
            assert_non_null(g);
            struct dirent *f;
            while ((f = readdir(g))) {
                if (!ends_with(f->d_name, ".json") || !strcmp(f->d_name, "data.json") ||
                    !strcmp(f->d_name, "metadata.json"))
                    continue;
                snprintf(path, sizeof path, "%s/%s", gdir, f->d_name);
                rg_scenario *sc;
                assert_int_equal(rg_scenario_create(&sc), RG_OK);
                int rc = rg_scenario_load_file(sc, path, 0);
                if (rc != RG_OK || rg_scenario_warning_count(sc)) {
                    print_message("%s: %s\n", path, rc ? rg_error_last() : rg_scenario_warning(sc, 0));
                    problems++;
                }
                /* the scripts' top level runs (it may read variables: memory is bound) */
                if (rc == RG_OK && rg_scenario_reset(sc, gd) != RG_OK) {
                    print_message("%s: scripts: %s\n", path, rg_error_last());
                    problems++;
                }
                if (known_system && rc == RG_OK) {
                    rg_actionset *as;
                    if (rg_actionset_create(&as, sys, sc) != RG_OK || rg_actionset_discrete_count(as) < 2) {
                        print_message("%s: actions: %s\n", path, rg_error_last());
                        problems++;
                    }
                    rg_actionset_free(as);
                }
                scenarios++;
                rg_scenario_free(sc);
            }
            closedir(g);
            rg_gamedata_free(gd);
        }
        closedir(d);
    }
    print_message("%zu games, %zu scenarios loaded from %s\n", games, scenarios, data_root);
    assert_true(games > 1000);
    assert_true(scenarios > 1000);
    assert_int_equal(problems, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(every_integration_loads)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
