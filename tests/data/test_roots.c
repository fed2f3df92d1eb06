/* Several data roots with origins, the default roots, `-v0` folder names, imports into the user root, the game
 * library, and where cores come from (origins, RetroArch's Flatpak/Snap folders, stable-retro's, install hints). */
#include "data_fixture.h"

#include "retrogym/core.h"
#include "retrogym/emu.h"

static fixture fx;
/* Four roots under fx.tmp: env (given by the caller), user, own, sr (a stable-retro package: sr/data, sr/cores). */
static char r_env[700], r_user[700], r_own[700], r_sr[700], sr_pkg[700];

static void mk(const char *p)
{
    test_mkdirs(p);
}

static int setup(void **state)
{
    (void)state;
    fx_setup(&fx);
    snprintf(r_env, sizeof r_env, "%s/env", fx.tmp);
    snprintf(r_user, sizeof r_user, "%s/xdg/retrogym", fx.tmp);
    snprintf(r_own, sizeof r_own, "%s/own", fx.tmp);
    snprintf(sr_pkg, sizeof sr_pkg, "%s/site/stable_retro", fx.tmp);
    snprintf(r_sr, sizeof r_sr, "%s/data", sr_pkg);
    mk(r_env);
    mk(r_own);
    mk(r_sr);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unsetenv(RG_INTEGRATION_PATH_ENV);
    unsetenv(RG_INTEGRATION_STABLE_RETRO_ENV);
    unsetenv("XDG_DATA_HOME");
    unsetenv("RETROGYM_CORE_PATH");
    fx_teardown(&fx);
    return 0;
}

/* A handle over env, user, own and sr with their origins. */
static rg_integration_paths *four_roots(void)
{
    const char *roots[] = {r_env, r_user, r_own, r_sr};
    const rg_integration_origin origins[] = {RG_INTEGRATION_ORIGIN_ENV, RG_INTEGRATION_ORIGIN_USER, RG_INTEGRATION_ORIGIN_OWN,
                                      RG_INTEGRATION_ORIGIN_STABLE_RETRO};
    rg_integration_paths *dp = NULL;
    assert_int_equal(rg_integration_paths_create_roots(&dp, roots, origins, 4), RG_OK);
    return dp;
}

static void default_roots(void **state)
{
    (void)state;
    char xdg[700], list[1500], want[700];
    snprintf(xdg, sizeof xdg, "%s/xdg", fx.tmp);
    setenv("XDG_DATA_HOME", xdg, 1);
    snprintf(list, sizeof list, "%s:%s", r_env, r_own); /* two folders in the variable, in order */
    setenv(RG_INTEGRATION_PATH_ENV, list, 1);
    setenv(RG_INTEGRATION_STABLE_RETRO_ENV, sr_pkg, 1);
    rg_integration_paths *dp;
    assert_int_equal(rg_integration_paths_create(&dp, NULL), RG_OK);
    assert_int_equal(rg_integration_paths_root_count(dp), 5);
    assert_string_equal(rg_integration_paths_root_at(dp, 0), r_env);
    assert_int_equal(rg_integration_paths_root_origin(dp, 0), RG_INTEGRATION_ORIGIN_ENV);
    assert_string_equal(rg_integration_paths_root_at(dp, 1), r_own);
    assert_int_equal(rg_integration_paths_root_origin(dp, 1), RG_INTEGRATION_ORIGIN_ENV);
    assert_string_equal(rg_integration_paths_root_at(dp, 2), r_user);
    assert_int_equal(rg_integration_paths_root_origin(dp, 2), RG_INTEGRATION_ORIGIN_USER);
    assert_string_equal(rg_integration_paths_root_at(dp, 3), test_source_path("data", want, sizeof want));
    assert_int_equal(rg_integration_paths_root_origin(dp, 3), RG_INTEGRATION_ORIGIN_OWN);
    assert_string_equal(rg_integration_paths_root_at(dp, 4), r_sr);
    assert_int_equal(rg_integration_paths_root_origin(dp, 4), RG_INTEGRATION_ORIGIN_STABLE_RETRO);
    assert_null(rg_integration_paths_root_at(dp, 5));
    assert_string_equal(rg_integration_paths_write_root(dp), r_user);
    char text[4000];
    size_t n = rg_integration_paths_roots_text(dp, text, sizeof text);
    assert_int_equal(n, strlen(text));
    assert_non_null(strstr(text, "(env var)"));
    assert_non_null(strstr(text, "/xdg/retrogym (user)"));
    assert_non_null(strstr(text, "/data (stable-retro)"));
    char small[8];
    assert_int_equal(rg_integration_paths_roots_text(dp, small, sizeof small), n); /* cut, terminated, full length */
    assert_int_equal(strlen(small), 7);
    rg_integration_paths_free(dp);
    /* An empty RETROGYM_STABLE_RETRO leaves stable-retro out; a relative XDG_DATA_HOME falls back to HOME. */
    setenv(RG_INTEGRATION_STABLE_RETRO_ENV, "", 1);
    setenv("XDG_DATA_HOME", "relative", 1);
    unsetenv(RG_INTEGRATION_PATH_ENV);
    assert_int_equal(rg_integration_paths_create(&dp, NULL), RG_OK);
    assert_int_equal(rg_integration_paths_root_count(dp), 2);
    char home_root[1024];
    snprintf(home_root, sizeof home_root, "%s/.local/share/retrogym", getenv("HOME"));
    assert_string_equal(rg_integration_paths_root(dp), home_root);
    rg_integration_paths_free(dp);
    /* A folder of the variable that does not exist is an error naming it. */
    snprintf(list, sizeof list, "%s:%s/missing", r_env, fx.tmp);
    setenv(RG_INTEGRATION_PATH_ENV, list, 1);
    assert_int_equal(rg_integration_paths_create(&dp, NULL), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "$RETROGYM_DATA_PATH"));
    assert_non_null(strstr(rg_error_last(), "/missing"));
    /* Given roots: several, ':'-separated, origin "given". */
    snprintf(list, sizeof list, "%s:%s", r_own, r_env);
    assert_int_equal(rg_integration_paths_create(&dp, list), RG_OK);
    assert_int_equal(rg_integration_paths_root_count(dp), 2);
    assert_string_equal(rg_integration_paths_root_at(dp, 1), r_env);
    assert_int_equal(rg_integration_paths_root_origin(dp, 1), RG_INTEGRATION_ORIGIN_GIVEN);
    assert_null(rg_integration_paths_write_root(dp));
    rg_integration_paths_free(dp);
    assert_string_equal(rg_integration_origin_name(RG_INTEGRATION_ORIGIN_STABLE_RETRO), "stable-retro");
    assert_string_equal(rg_integration_origin_name((rg_integration_origin)99), "?");
}

static void explicit_roots(void **state)
{
    (void)state;
    rg_integration_paths *dp = NULL;
    const char *missing[] = {"/nonexistent/retrogym-root"};
    rg_integration_origin given = RG_INTEGRATION_ORIGIN_GIVEN, user = RG_INTEGRATION_ORIGIN_USER, bad = (rg_integration_origin)7;
    assert_int_equal(rg_integration_paths_create_roots(&dp, missing, &given, 1), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "/nonexistent/retrogym-root"));
    assert_null(dp);
    assert_int_equal(rg_integration_paths_create_roots(&dp, missing, &user, 1), RG_OK); /* a user root may not exist yet */
    rg_integration_paths_free(dp);
    assert_int_equal(rg_integration_paths_create_roots(&dp, missing, &bad, 1), RG_EINVAL);
    const char *empty[] = {""};
    assert_int_equal(rg_integration_paths_create_roots(&dp, empty, &user, 1), RG_EINVAL);
    assert_int_equal(rg_integration_paths_create_roots(&dp, missing, &user, 0), RG_EINVAL);
    assert_null(dp);
}

/* Files merge over roots: the first root holding a file wins; listings are the union. */
static void merged_lookups(void **state)
{
    (void)state;
    char base[900];
    snprintf(base, sizeof base, "%s/stable/Merge-Nes", r_sr);
    fx_text(base, "rom.sha", "0123456789abcdef0123456789abcdef01234567\n");
    fx_text(base, "Start.state", "sr");
    fx_text(base, "Level2.state", "sr");
    snprintf(base, sizeof base, "%s/stable/Merge-Nes", r_env);
    fx_text(base, "Start.state", "env");
    snprintf(base, sizeof base, "%s/contrib/Other-Snes", r_own);
    fx_text(base, "rom.sha", "0123456789abcdef0123456789abcdef01234567\n");
    rg_integration_paths *dp = four_roots();
    char *p;
    assert_int_equal(rg_integration_file_path(dp, "Merge-Nes", "Start.state", 0, &p), RG_OK);
    assert_true(strncmp(p, r_env, strlen(r_env)) == 0);
    free(p);
    assert_int_equal(rg_integration_file_path(dp, "Merge-Nes", "rom.sha", 0, &p), RG_OK);
    assert_true(strncmp(p, r_sr, strlen(r_sr)) == 0);
    free(p);
    rg_strlist *l;
    assert_int_equal(rg_integration_list_states(dp, "Merge-Nes", 0, &l), RG_OK);
    assert_int_equal(rg_strlist_count(l), 2);
    rg_strlist_free(l);
    assert_int_equal(rg_integration_list_games(dp, RG_INTEGRATIONS_ALL, &l), RG_OK);
    assert_int_equal(rg_strlist_count(l), 2);
    assert_string_equal(rg_strlist_at(l, 0), "Merge-Nes");
    assert_string_equal(rg_strlist_at(l, 1), "Other-Snes");
    rg_strlist_free(l);
    /* Not found: the message names every root searched with its origin. */
    assert_int_equal(rg_integration_file_path(dp, "Merge-Nes", "nothing.json", 0, &p), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), r_user));
    assert_non_null(strstr(rg_error_last(), "(stable-retro)"));
    assert_int_equal(rg_integration_rom_path(dp, "Merge-Nes", 0, &p), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "no ROM for game Merge-Nes: import yours with `retrogym import PATH`"));
    assert_non_null(strstr(rg_error_last(), "(own)"));
    assert_int_equal(rg_integration_rom_path(dp, "Nobody-Nes", 0, &p), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "unknown game Nobody-Nes (searched "));
    /* The directory list goes root by root, each in Gym Retro's order. */
    rg_integration_paths_free(dp);
}

/* stable-retro 1.x names folders "<Game>-<System>-v0": both forms find both kinds of folder. */
static void version_suffix(void **state)
{
    (void)state;
    char base[900];
    snprintf(base, sizeof base, "%s/stable/Jet-Genesis-v0", r_sr);
    fx_text(base, "rom.sha", "0123456789abcdef0123456789abcdef01234567\n");
    fx_text(base, "data.json", "{}");
    snprintf(base, sizeof base, "%s/stable/Plain-Nes", r_own);
    fx_text(base, "rom.sha", "0123456789abcdef0123456789abcdef01234567\n");
    rg_integration_paths *dp = four_roots();
    char *p, *name;
    assert_int_equal(rg_integration_file_path(dp, "Jet-Genesis", "data.json", 0, &p), RG_OK);
    assert_non_null(strstr(p, "/stable/Jet-Genesis-v0/data.json"));
    free(p);
    assert_int_equal(rg_integration_game_folder(dp, "Jet-Genesis", 0, &name), RG_OK);
    assert_string_equal(name, "Jet-Genesis-v0");
    free(name);
    assert_int_equal(rg_integration_game_folder(dp, "Jet-Genesis-v0", 0, &name), RG_OK);
    assert_string_equal(name, "Jet-Genesis-v0");
    free(name);
    assert_int_equal(rg_integration_game_folder(dp, "Plain-Nes-v0", 0, &name), RG_OK);
    assert_string_equal(name, "Plain-Nes");
    free(name);
    assert_int_equal(rg_integration_game_folder(dp, "Plain-Nes-v1", 0, &name), RG_OK); /* any version number */
    assert_string_equal(name, "Plain-Nes");
    free(name);
    assert_int_equal(rg_integration_game_folder(dp, "Jet-Genesis-v1", 0, &name), RG_ENOTFOUND); /* not -v0 */
    assert_non_null(strstr(rg_error_last(), "unknown game Jet-Genesis-v1"));
    assert_int_equal(rg_integration_game_folder(dp, "", 0, &name), RG_EINVAL);
    /* The exact name wins over the other form in the same folder. */
    snprintf(base, sizeof base, "%s/stable/Jet-Genesis", r_sr);
    fx_text(base, "rom.sha", "0123456789abcdef0123456789abcdef01234567\n");
    assert_int_equal(rg_integration_game_folder(dp, "Jet-Genesis", 0, &name), RG_OK);
    assert_string_equal(name, "Jet-Genesis");
    free(name);
    rg_strlist *l;
    assert_int_equal(rg_integration_list_states(dp, "Jet-Genesis-v0", 0, &l), RG_OK);
    rg_strlist_free(l);
    rg_integration_paths_free(dp);
}

/* A ROM for a game of an installed package's root (own, stable-retro) goes under the user root; a game of another
 * root gets it in its own folder. */
static void import_into_user_root(void **state)
{
    (void)state;
    uint8_t rom_a[100], rom_b[100];
    for (size_t i = 0; i < sizeof rom_a; i++) {
        rom_a[i] = (uint8_t)(i * 3 + 1);
        rom_b[i] = (uint8_t)(i * 5 + 2);
    }
    char sha_a[RG_INTEGRATION_SHA1_HEX + 1], sha_b[RG_INTEGRATION_SHA1_HEX + 1], line[64], base[900], in[800];
    rg_integration_rom_sha1(rom_a, sizeof rom_a, "a.md", sha_a);
    rg_integration_rom_sha1(rom_b, sizeof rom_b, "b.md", sha_b);
    snprintf(base, sizeof base, "%s/stable/Alpha-Genesis-v0", r_sr);
    snprintf(line, sizeof line, "%s\n", sha_a);
    fx_text(base, "rom.sha", line);
    snprintf(base, sizeof base, "%s/contrib/Beta-Genesis", r_env);
    snprintf(line, sizeof line, "%s\n", sha_b);
    fx_text(base, "rom.sha", line);
    snprintf(in, sizeof in, "%s/in", fx.tmp);
    fx_write(in, "a.md", rom_a, sizeof rom_a);
    fx_write(in, "b.md", rom_b, sizeof rom_b);
    rg_integration_paths *dp = four_roots();
    const char *paths[] = {in};
    rg_integration_import_report rep;
    assert_int_equal(rg_integration_import(dp, paths, 1, NULL, &rep), RG_OK);
    assert_int_equal(rep.imported, 2);
    assert_true(fx_exists(r_user, "stable/Alpha-Genesis-v0/rom.md"));
    assert_false(fx_exists(r_sr, "stable/Alpha-Genesis-v0/rom.md"));
    assert_true(fx_exists(r_env, "contrib/Beta-Genesis/rom.md"));
    assert_false(fx_exists(r_user, "contrib/Beta-Genesis"));
    /* Lookups merge the user root's ROM with the integration of the stable-retro root, under either name. */
    char *p;
    assert_int_equal(rg_integration_rom_path(dp, "Alpha-Genesis", 0, &p), RG_OK);
    assert_true(strncmp(p, r_user, strlen(r_user)) == 0);
    free(p);
    rg_integration_paths_free(dp);
    /* A user root that cannot be created: the import reports the write error and loses nothing. */
    char blocker[800];
    snprintf(blocker, sizeof blocker, "%s/blocked", fx.tmp);
    fx_text(fx.tmp, "blocked", "a file, not a folder");
    const char *roots[] = {blocker, r_sr};
    const rg_integration_origin origins[] = {RG_INTEGRATION_ORIGIN_USER, RG_INTEGRATION_ORIGIN_STABLE_RETRO};
    assert_int_equal(rg_integration_paths_create_roots(&dp, roots, origins, 2), RG_OK);
    assert_int_equal(rg_integration_import(dp, paths, 1, NULL, &rep), RG_EIO);
    assert_int_equal(rep.imported, 0);
    assert_false(fx_exists(r_sr, "stable/Alpha-Genesis-v0/rom.md"));
    rg_integration_paths_free(dp);
}

static const rg_integration_library_game *find_game(const rg_integration_library *lib, const char *name)
{
    for (size_t i = 0; i < rg_integration_library_count(lib); i++)
        if (strcmp(rg_integration_library_at(lib, i)->game, name) == 0)
            return rg_integration_library_at(lib, i);
    return NULL;
}

static void library(void **state)
{
    (void)state;
    setenv(RG_INTEGRATION_STABLE_RETRO_ENV, "", 1);
    setenv("RETROGYM_CORE_PATH", "", 1);
    char base[900];
    snprintf(base, sizeof base, "%s/stable/Pong-Atari2600-v0", r_sr);
    fx_text(base, "rom.sha", "0123456789abcdef0123456789abcdef01234567\n");
    fx_text(base, "metadata.json", "{\"default_state\": \"Start\"}");
    snprintf(base, sizeof base, "%s/stable/Pong-Atari2600-v0", r_user);
    fx_text(base, "rom.a26", "rom");
    snprintf(base, sizeof base, "%s/contrib/Fighter-Saturn", r_own);
    fx_text(base, "rom.sha", "0123456789abcdef0123456789abcdef01234567\n");
    snprintf(base, sizeof base, "%s/stable/Pong-Atari2600-v0", r_own); /* listed once: the first root's */
    fx_text(base, "rom.sha", "0123456789abcdef0123456789abcdef01234567\n");
    rg_integration_paths *dp = four_roots();
    rg_integration_library *lib;
    assert_int_equal(rg_integration_library_create(dp, RG_INTEGRATIONS_ALL, &lib), RG_OK);
    assert_int_equal(rg_integration_library_count(lib), 2);
    assert_string_equal(rg_integration_library_at(lib, 0)->game, "Fighter-Saturn"); /* sorted */
    const rg_integration_library_game *g = find_game(lib, "Pong-Atari2600-v0");
    assert_non_null(g);
    assert_string_equal(g->system, "Atari2600");
    assert_string_equal(g->integration, "stable");
    assert_string_equal(g->root, r_own);
    assert_int_equal(g->origin, RG_INTEGRATION_ORIGIN_OWN);
    assert_non_null(g->rom);
    assert_true(strncmp(g->rom, r_user, strlen(r_user)) == 0);
    assert_string_equal(g->state, "Start");
    assert_string_equal(g->core, "atari2600"); /* our built-in core: always there */
    assert_string_equal(g->core_origin, "own");
    assert_null(g->hint);
    g = find_game(lib, "Fighter-Saturn");
    assert_string_equal(g->system, "");
    assert_string_equal(g->integration, "contrib");
    assert_null(g->rom);
    assert_null(g->state);
    assert_null(g->core);
    assert_null(rg_integration_library_at(lib, 2));
    rg_integration_library_free(lib);
    assert_int_equal(rg_integration_library_create(dp, RG_INTEGRATIONS_STABLE, &lib), RG_OK);
    assert_int_equal(rg_integration_library_count(lib), 1);
    rg_integration_library_free(lib);
    assert_int_equal(rg_integration_library_create(NULL, 0, &lib), RG_EINVAL);
    rg_integration_paths_free(dp);
}

/* Writes an empty file (a core need only exist to be resolved by name). */
static void touch(const char *dir, const char *name)
{
    mk(dir);
    fx_text(dir, name, "");
}

static void core_origins(void **state)
{
    (void)state;
    char home[700], flat[900], snap[900], envdir[800], srcores[800], buf[4096];
    snprintf(home, sizeof home, "%s/home", fx.tmp);
    snprintf(flat, sizeof flat, "%s/.var/app/org.libretro.RetroArch/config/retroarch/cores", home);
    snprintf(snap, sizeof snap, "%s/snap/retroarch/current/.config/retroarch/cores", home);
    snprintf(envdir, sizeof envdir, "%s/mine", fx.tmp);
    snprintf(srcores, sizeof srcores, "%s/cores", sr_pkg);
    touch(flat, "flatcore_libretro.so");
    touch(snap, "snapcore_libretro.so");
    touch(envdir, "envcore_libretro.so");
    touch(srcores, "srcore_libretro.so");
    touch(srcores, "flatcore_libretro.so"); /* also in a folder searched earlier */
    char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("HOME", home, 1);
    setenv("RETROGYM_CORE_PATH", envdir, 1);
    setenv(RG_INTEGRATION_STABLE_RETRO_ENV, sr_pkg, 1);
    assert_int_equal(rg_core_resolve("flatcore", buf, sizeof buf), RG_OK);
    assert_non_null(strstr(buf, "/.var/app/org.libretro.RetroArch/"));
    assert_string_equal(rg_core_origin(buf), "RetroArch");
    assert_int_equal(rg_core_resolve("snapcore", buf, sizeof buf), RG_OK);
    assert_string_equal(rg_core_origin(buf), "RetroArch");
    assert_int_equal(rg_core_resolve("envcore", buf, sizeof buf), RG_OK);
    assert_string_equal(rg_core_origin(buf), "env var");
    assert_int_equal(rg_core_resolve("srcore", buf, sizeof buf), RG_OK);
    assert_string_equal(buf + strlen(buf) - strlen("/site/stable_retro/cores/srcore_libretro.so"),
                        "/site/stable_retro/cores/srcore_libretro.so");
    assert_string_equal(rg_core_origin(buf), "stable-retro");
    assert_string_equal(rg_core_origin("/usr/lib/x86_64-linux-gnu/libretro/nestopia_libretro.so"), "Debian");
    assert_string_equal(rg_core_origin("/opt/elsewhere/x_libretro.so"), "path");
    assert_string_equal(rg_core_origin("(built in)"), "built in");
    /* Without the variable stable-retro's folder is not searched; the message lists the folders. */
    unsetenv(RG_INTEGRATION_STABLE_RETRO_ENV);
    assert_int_equal(rg_core_resolve("srcore", buf, sizeof buf), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "/.var/app/org.libretro.RetroArch/config/retroarch/cores"));
    assert_null(strstr(rg_error_last(), "stable_retro"));
    if (old_home)
        setenv("HOME", old_home, 1);
    free(old_home);
}

static void install_hints(void **state)
{
    (void)state;
    char buf[256];
    const char *genesis[] = {"genesis_plus_gx", "picodrive", "genesis"};
    const char *nes[] = {"fceumm", "nestopia", "mesen"};
    const char *exotic[] = {"nocore"};
    unsetenv(RG_INTEGRATION_STABLE_RETRO_ENV);
    assert_int_equal(rg_core_install_hint(genesis, 3, buf, sizeof buf), RG_OK);
    assert_string_equal(buf, "pip install \"retrogym[cores]\" (stable-retro's genesis_plus_gx core)");
    assert_int_equal(rg_core_install_hint(nes, 3, buf, sizeof buf), RG_OK);
    assert_string_equal(buf, "pip install \"retrogym[cores]\" (stable-retro's fceumm core)");
    /* stable-retro installed and still nothing: Debian's package where there is one, else where to put a build. */
    setenv(RG_INTEGRATION_STABLE_RETRO_ENV, sr_pkg, 1);
    assert_int_equal(rg_core_install_hint(nes, 3, buf, sizeof buf), RG_OK);
    assert_string_equal(buf, "apt-get install libretro-nestopia");
    assert_int_equal(rg_core_install_hint(genesis, 3, buf, sizeof buf), RG_OK);
    assert_non_null(strstr(buf, "genesis_plus_gx_libretro.so"));
    assert_int_equal(rg_core_install_hint(exotic, 1, buf, sizeof buf), RG_OK);
    assert_non_null(strstr(buf, "nocore_libretro.so"));
    assert_int_equal(rg_core_install_hint(NULL, 1, buf, sizeof buf), RG_EINVAL);
}

/* A system with no core on this machine: the error names it and the one command that installs one. */
static void missing_core_message(void **state)
{
    (void)state;
    char md[512], home[700];
    test_source_path("tests/roms/bin/test.md", md, sizeof md);
    snprintf(home, sizeof home, "%s/emptyhome", fx.tmp);
    char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("HOME", home, 1);
    setenv("RETROGYM_CORE_PATH", "", 1);
    unsetenv(RG_INTEGRATION_STABLE_RETRO_ENV);
    char path[4096];
    if (rg_core_resolve("genesis_plus_gx", path, sizeof path) != RG_OK &&
        rg_core_resolve("picodrive", path, sizeof path) != RG_OK && rg_core_resolve("genesis", path, sizeof path) != RG_OK) {
        rg_emu *emu = NULL;
        assert_int_equal(rg_emu_open(&emu, md, NULL), RG_ENOTFOUND);
        assert_null(emu);
        assert_non_null(strstr(rg_error_last(), "no core for Genesis on this machine"));
        assert_non_null(strstr(rg_error_last(), "pip install \"retrogym[cores]\" (stable-retro's genesis_plus_gx core)"));
    } else {
        print_message("a Genesis core is installed system-wide: the message is not checked\n");
    }
    if (old_home)
        setenv("HOME", old_home, 1);
    free(old_home);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(default_roots, setup, teardown),
        cmocka_unit_test_setup_teardown(explicit_roots, setup, teardown),
        cmocka_unit_test_setup_teardown(merged_lookups, setup, teardown),
        cmocka_unit_test_setup_teardown(version_suffix, setup, teardown),
        cmocka_unit_test_setup_teardown(import_into_user_root, setup, teardown),
        cmocka_unit_test_setup_teardown(library, setup, teardown),
        cmocka_unit_test_setup_teardown(core_origins, setup, teardown),
        cmocka_unit_test_setup_teardown(install_hints, setup, teardown),
        cmocka_unit_test_setup_teardown(missing_core_message, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
