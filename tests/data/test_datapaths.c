/* The data root, integration flags and search order: Gym Retro's tests/test_paths.py, ported, and more. */
#include "data_fixture.h"

static fixture fx;

static int setup(void **state)
{
    (void)state;
    fx_setup(&fx);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fx_teardown(&fx);
    return 0;
}

/* Asserts the folders of flags, given as a NULL-terminated list. */
static void expect_dirs(const rg_integration_paths *dp, unsigned flags, const char *const *want)
{
    rg_strlist *l;
    assert_int_equal(rg_integration_paths_dirs(dp, flags, &l), RG_OK);
    size_t n = 0;
    while (want[n])
        n++;
    if (rg_strlist_count(l) != n) {
        for (size_t i = 0; i < rg_strlist_count(l); i++)
            print_message("  got %s\n", rg_strlist_at(l, i));
        fail_msg("flags %u: %zu folders, wanted %zu", flags, rg_strlist_count(l), n);
    }
    for (size_t i = 0; i < n; i++)
        assert_string_equal(rg_strlist_at(l, i), want[i]);
    assert_null(rg_strlist_at(l, n));
    rg_strlist_free(l);
}

#define DIRS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define NO_DIRS ((const char *const[]){NULL})

static void basic_paths(void **state)
{
    (void)state;
    expect_dirs(fx.dp, RG_INTEGRATIONS_STABLE, DIRS("stable"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_CONTRIB_ONLY, DIRS("contrib"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_EXPERIMENTAL_ONLY, DIRS("experimental"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM_ONLY, NO_DIRS);
    expect_dirs(fx.dp, RG_INTEGRATIONS_CONTRIB, DIRS("contrib", "stable"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_EXPERIMENTAL, DIRS("experimental", "stable"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM, DIRS("stable"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_ALL, DIRS("contrib", "experimental", "stable"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_DEFAULT, DIRS("stable"));
    assert_int_equal(rg_integration_paths_default(fx.dp), RG_INTEGRATIONS_STABLE);
    rg_strlist *l = NULL;
    assert_int_equal(rg_integration_paths_dirs(fx.dp, 16, &l), RG_EINVAL);
    assert_null(l);
    assert_int_equal(rg_integration_paths_dirs(NULL, 1, &l), RG_EINVAL);
}

static void custom_path(void **state)
{
    (void)state;
    rg_integration_paths_clear_custom_paths(fx.dp);
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM, DIRS("stable"));
    assert_int_equal(rg_integration_paths_add_custom_path(fx.dp, "a"), RG_OK);
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM_ONLY, DIRS("a"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM, DIRS("a", "stable"));
    assert_int_equal(rg_integration_paths_add_custom_path(fx.dp, "b"), RG_OK);
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM_ONLY, DIRS("a", "b"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM, DIRS("a", "b", "stable"));
    /* Search order: contrib, experimental, custom paths in insertion order, stable. */
    expect_dirs(fx.dp, RG_INTEGRATIONS_ALL, DIRS("contrib", "experimental", "a", "b", "stable"));
    /* Adding a path does not change the default. */
    expect_dirs(fx.dp, RG_INTEGRATIONS_DEFAULT, DIRS("stable"));
    assert_int_equal(rg_integration_paths_add_custom_path(fx.dp, ""), RG_EINVAL);
    rg_integration_paths_clear_custom_paths(fx.dp);
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM_ONLY, NO_DIRS);
}

static void custom_path_default(void **state)
{
    (void)state;
    rg_integration_paths_clear_custom_paths(fx.dp);
    expect_dirs(fx.dp, RG_INTEGRATIONS_DEFAULT, DIRS("stable"));
    assert_int_equal(rg_integration_paths_add_custom_integration(fx.dp, "a"), RG_OK);
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM_ONLY, DIRS("a"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM, DIRS("a", "stable"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_DEFAULT, DIRS("a", "stable"));
    assert_int_equal(rg_integration_paths_default(fx.dp), RG_INTEGRATIONS_CUSTOM);
    rg_integration_paths_reset_default(fx.dp);
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM_ONLY, DIRS("a"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_CUSTOM, DIRS("a", "stable"));
    expect_dirs(fx.dp, RG_INTEGRATIONS_DEFAULT, DIRS("stable"));
    assert_int_equal(rg_integration_paths_add_integrations(fx.dp, RG_INTEGRATIONS_CONTRIB_ONLY), RG_OK);
    expect_dirs(fx.dp, RG_INTEGRATIONS_DEFAULT, DIRS("contrib", "stable"));
    assert_int_equal(rg_integration_paths_add_integrations(fx.dp, 0x30), RG_EINVAL);
    rg_integration_paths_reset_default(fx.dp);
    rg_integration_paths_clear_custom_paths(fx.dp);
}

static void custom_path_absolute(void **state)
{
    (void)state;
    char *p = NULL;
    char roms[700];
    snprintf(roms, sizeof roms, "%s/roms", fx.tmp);
    fx_text(roms, "Dekadence-Dekadrive.md", "rom");
    assert_int_equal(rg_integration_file_path(fx.dp, "", "Dekadence-Dekadrive.md", RG_INTEGRATIONS_CUSTOM_ONLY, &p),
                     RG_ENOTFOUND);
    assert_null(p);
    assert_non_null(strstr(rg_error_last(), "Dekadence-Dekadrive.md"));
    assert_int_equal(rg_integration_paths_add_custom_path(fx.dp, roms), RG_OK);
    assert_int_equal(rg_integration_file_path(fx.dp, "", "Dekadence-Dekadrive.md", RG_INTEGRATIONS_CUSTOM_ONLY, &p), RG_OK);
    char want[800];
    snprintf(want, sizeof want, "%s/Dekadence-Dekadrive.md", roms);
    assert_string_equal(p, want);
    free(p);
    /* An absolute file is used as is. */
    assert_int_equal(rg_integration_file_path(fx.dp, "Whatever-Nes", want, RG_INTEGRATIONS_STABLE, &p), RG_OK);
    assert_string_equal(p, want);
    free(p);
    rg_integration_paths_clear_custom_paths(fx.dp);
}

static void custom_path_relative(void **state)
{
    (void)state;
    char base[800];
    snprintf(base, sizeof base, "%s/stable/Airstriker-Genesis", fx.root);
    fx_text(base, "rom.md", "rom");
    char *p = NULL, *q = NULL;
    assert_int_equal(rg_integration_file_path(fx.dp, "Airstriker-Genesis", "rom.md", RG_INTEGRATIONS_CUSTOM_ONLY, &p),
                     RG_ENOTFOUND);
    assert_int_equal(rg_integration_paths_add_custom_path(fx.dp, "stable"), RG_OK);
    assert_int_equal(rg_integration_file_path(fx.dp, "Airstriker-Genesis", "rom.md", RG_INTEGRATIONS_CUSTOM_ONLY, &p), RG_OK);
    assert_int_equal(rg_integration_file_path(fx.dp, "Airstriker-Genesis", "rom.md", RG_INTEGRATIONS_STABLE, &q), RG_OK);
    assert_string_equal(p, q);
    free(p);
    free(q);
    rg_integration_paths_clear_custom_paths(fx.dp);
}

static void file_path_priority(void **state)
{
    (void)state;
    char base[800];
    snprintf(base, sizeof base, "%s", fx.root);
    fx_text(base, "stable/Prio-Nes/scenario.json", "{}");
    fx_text(base, "contrib/Prio-Nes/scenario.json", "{}");
    fx_text(base, "experimental/Prio-Nes/scenario.json", "{}");
    fx_text(base, "stable/Prio-Nes/data.json", "{}");
    char *p;
    assert_int_equal(rg_integration_file_path(fx.dp, "Prio-Nes", "scenario.json", RG_INTEGRATIONS_ALL, &p), RG_OK);
    assert_non_null(strstr(p, "/contrib/Prio-Nes/scenario.json"));
    free(p);
    assert_int_equal(rg_integration_file_path(fx.dp, "Prio-Nes", "scenario.json", RG_INTEGRATIONS_EXPERIMENTAL, &p), RG_OK);
    assert_non_null(strstr(p, "/experimental/Prio-Nes/scenario.json"));
    free(p);
    assert_int_equal(rg_integration_file_path(fx.dp, "Prio-Nes", "data.json", RG_INTEGRATIONS_ALL, &p), RG_OK);
    assert_non_null(strstr(p, "/stable/Prio-Nes/data.json"));
    free(p);
    assert_int_equal(rg_integration_file_path(fx.dp, "Prio-Nes", "data.json", RG_INTEGRATIONS_CONTRIB_ONLY, &p),
                     RG_ENOTFOUND);
    /* An empty file names the game's folder. */
    assert_int_equal(rg_integration_file_path(fx.dp, "Prio-Nes", "", RG_INTEGRATIONS_CONTRIB_ONLY, &p), RG_OK);
    free(p);
    assert_int_equal(rg_integration_file_path(NULL, "a", "b", 0, &p), RG_EINVAL);
}

static void root_sources(void **state)
{
    (void)state;
    rg_integration_paths *dp = NULL;
    char missing[700];
    snprintf(missing, sizeof missing, "%s/nowhere", fx.tmp);
    assert_int_equal(rg_integration_paths_create(&dp, missing), RG_ENOTFOUND);
    assert_null(dp);
    assert_non_null(strstr(rg_error_last(), "nowhere"));
    /* The environment variable, then the built-in root. */
    setenv(RG_INTEGRATION_PATH_ENV, fx.root, 1);
    assert_int_equal(rg_integration_paths_create(&dp, NULL), RG_OK);
    assert_string_equal(rg_integration_paths_root(dp), fx.root);
    rg_integration_paths_free(dp);
    setenv(RG_INTEGRATION_PATH_ENV, missing, 1);
    assert_int_equal(rg_integration_paths_create(&dp, NULL), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), RG_INTEGRATION_PATH_ENV));
    unsetenv(RG_INTEGRATION_PATH_ENV);
    unsetenv(RG_INTEGRATION_STABLE_RETRO_ENV);
    char xdg[700], user[720];
    snprintf(xdg, sizeof xdg, "%s/xdg", fx.tmp);
    snprintf(user, sizeof user, "%s/retrogym", xdg);
    setenv("XDG_DATA_HOME", xdg, 1);
    assert_int_equal(rg_integration_paths_create(&dp, NULL), RG_OK);
    char want[600];
    /* Without the variable: the user root (first, even before it exists), then the source tree's data. */
    assert_int_equal(rg_integration_paths_root_count(dp), 2);
    assert_string_equal(rg_integration_paths_root(dp), user);
    assert_int_equal(rg_integration_paths_root_origin(dp, 0), RG_INTEGRATION_ORIGIN_USER);
    assert_string_equal(rg_integration_paths_root_at(dp, 1), test_source_path("data", want, sizeof want));
    assert_int_equal(rg_integration_paths_root_origin(dp, 1), RG_INTEGRATION_ORIGIN_OWN);
    rg_integration_paths_free(dp);
    unsetenv("XDG_DATA_HOME");
    /* Trailing slashes are dropped. */
    char slashed[700];
    snprintf(slashed, sizeof slashed, "%s//", fx.root);
    assert_int_equal(rg_integration_paths_create(&dp, slashed), RG_OK);
    assert_string_equal(rg_integration_paths_root(dp), fx.root);
    rg_integration_paths_free(dp);
    rg_integration_paths_free(NULL);
    assert_int_equal(rg_integration_paths_create(NULL, NULL), RG_EINVAL);
}

static void flag_names(void **state)
{
    (void)state;
    unsigned f = 99;
    assert_int_equal(rg_integrations_parse("stable", &f), RG_OK);
    assert_int_equal(f, RG_INTEGRATIONS_STABLE);
    assert_int_equal(rg_integrations_parse("contrib", &f), RG_OK);
    assert_int_equal(f, RG_INTEGRATIONS_CONTRIB);
    assert_int_equal(rg_integrations_parse("experimental-only|custom-only", &f), RG_OK);
    assert_int_equal(f, RG_INTEGRATIONS_EXPERIMENTAL_ONLY | RG_INTEGRATIONS_CUSTOM_ONLY);
    assert_int_equal(rg_integrations_parse("all", &f), RG_OK);
    assert_int_equal(f, RG_INTEGRATIONS_ALL);
    assert_int_equal(rg_integrations_parse("default", &f), RG_OK);
    assert_int_equal(f, RG_INTEGRATIONS_DEFAULT);
    assert_int_equal(rg_integrations_parse("stable,bogus", &f), RG_EINVAL);
    assert_non_null(strstr(rg_error_last(), "\"bogus\""));
    assert_int_equal(rg_integrations_parse("", &f), RG_EINVAL);
    char buf[64];
    assert_string_equal(rg_integrations_name(RG_INTEGRATIONS_ALL, buf, sizeof buf), "all");
    assert_string_equal(rg_integrations_name(RG_INTEGRATIONS_STABLE, buf, sizeof buf), "stable");
    assert_string_equal(rg_integrations_name(RG_INTEGRATIONS_CONTRIB, buf, sizeof buf), "stable|contrib");
    assert_string_equal(rg_integrations_name(RG_INTEGRATIONS_CUSTOM_ONLY, buf, sizeof buf), "custom");
    assert_string_equal(rg_integrations_name(0, buf, sizeof buf), "default");
    assert_string_equal(rg_integrations_name(RG_INTEGRATIONS_CONTRIB, buf, 4), "sta");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(basic_paths),          cmocka_unit_test(custom_path),
        cmocka_unit_test(custom_path_default),  cmocka_unit_test(custom_path_absolute),
        cmocka_unit_test(custom_path_relative), cmocka_unit_test(file_path_priority),
        cmocka_unit_test(root_sources),         cmocka_unit_test(flag_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
