/* Finding a game's files and listing games, states and scenarios (docs/integrations.md, "Finding and listing"). */
#define _POSIX_C_SOURCE 200809L
#include "data_internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *rg__find_in(const rg_strlist *dirs, const char *file, int *rc)
{
    for (size_t i = 0; i < dirs->count; i++) {
        char *p = rg__path_join(dirs->items[i], file);
        if (!p) {
            *rc = rg__error(RG_ENOMEM, "out of memory");
            return NULL;
        }
        if (rg__path_exists(p))
            return p;
        free(p);
    }
    return NULL;
}

int rg_integration_file_path(const rg_integration_paths *dp, const char *game, const char *file, unsigned flags, char **path)
{
    if (!dp || !game || !file || !path)
        return rg__error(RG_EINVAL, "rg_integration_file_path: NULL argument");
    *path = NULL;
    rg_strlist dirs = {0};
    int rc = rg__game_dirs(dp, game, flags, 0, &dirs);
    if (rc != RG_OK)
        return rc;
    *path = rg__find_in(&dirs, file, &rc);
    rg__strlist_clear(&dirs);
    if (!*path && rc == RG_OK) {
        char *roots = rg__roots_message(dp);
        rc = rg__error(RG_ENOTFOUND, "%s%s%s not found in the integration folders of %s", game, *game ? "/" : "",
                       file, roots ? roots : "the data roots");
        free(roots);
    }
    return rc;
}

int rg_integration_game_folder(const rg_integration_paths *dp, const char *game, unsigned flags, char **name)
{
    if (!dp || !game || !name || !*game)
        return rg__error(RG_EINVAL, "rg_integration_game_folder: NULL argument");
    *name = NULL;
    rg_strlist dirs = {0};
    int rc = rg__game_dirs(dp, game, flags, 1, &dirs);
    if (rc != RG_OK)
        return rc;
    if (dirs.count) {
        const char *base = strrchr(dirs.items[0], '/');
        *name = rg__strdup(base ? base + 1 : dirs.items[0], &rc);
    } else {
        char *roots = rg__roots_message(dp);
        rc = rg__error(RG_ENOTFOUND, "unknown game %s (searched %s; see retrogym games)", game,
                       roots ? roots : "the data roots");
        free(roots);
    }
    rg__strlist_clear(&dirs);
    return rc;
}

int rg_integration_game_system(const char *game, const rg_system_info **out)
{
    if (!game || !out)
        return rg__error(RG_EINVAL, "rg_integration_game_system: NULL argument");
    *out = NULL;
    /* "<Name>-<System>", optionally followed by a version "-v<digits>" (as stable-retro accepts). */
    const char *end = game + strlen(game);
    const char *dash = strrchr(game, '-');
    if (dash && dash[1] == 'v' && dash[2] && strspn(dash + 2, "0123456789") == strlen(dash + 2)) {
        end = dash;
        while (dash > game && *--dash != '-')
            ;
        if (*dash != '-')
            dash = NULL;
    }
    char name[64];
    if (dash && (size_t)(end - dash - 1) < sizeof name) {
        memcpy(name, dash + 1, (size_t)(end - dash - 1));
        name[end - dash - 1] = '\0';
        if (rg_system_find(out, name) == RG_OK)
            return RG_OK;
    }
    return rg__error(RG_ENOTFOUND, "game %s has no known -<System> suffix", game);
}

/* Tries rom.<ext> for each extension of sys, or of every system when sys is NULL. */
static char *find_rom_for(const rg_strlist *dirs, const rg_system_info *sys, int *rc)
{
    size_t n_sys = sys ? 1 : rg_system_count();
    for (size_t s = 0; s < n_sys; s++) {
        const rg_system_info *si = sys ? sys : rg_system_at(s);
        for (size_t e = 0; si && e < si->n_extensions; e++) {
            char name[64];
            snprintf(name, sizeof name, "rom.%s", si->extensions[e]);
            char *p = rg__find_in(dirs, name, rc);
            if (p || *rc != RG_OK)
                return p;
        }
    }
    return NULL;
}

char *rg__find_rom_in(const rg_strlist *dirs, const char *game, int *rc)
{
    const rg_system_info *sys = NULL;
    if (rg_integration_game_system(game, &sys) == RG_OK) {
        char *p = find_rom_for(dirs, sys, rc);
        if (p || *rc != RG_OK)
            return p;
    }
    return find_rom_for(dirs, NULL, rc);
}

int rg_integration_rom_path(const rg_integration_paths *dp, const char *game, unsigned flags, char **path)
{
    if (!dp || !game || !path)
        return rg__error(RG_EINVAL, "rg_integration_rom_path: NULL argument");
    *path = NULL;
    rg_strlist dirs = {0};
    int rc = rg__game_dirs(dp, game, flags, 1, &dirs);
    if (rc != RG_OK)
        return rc;
    *path = rg__find_rom_in(&dirs, game, &rc);
    if (!*path && rc == RG_OK) {
        char *roots = rg__roots_message(dp);
        if (dirs.count)
            rc = rg__error(RG_ENOTFOUND, "no ROM for game %s: import yours with `retrogym import PATH` or `python -m "
                           "retrogym.import PATH` (its SHA-1 must match the game's rom.sha; searched %s)", game,
                           roots ? roots : "the data roots");
        else
            rc = rg__error(RG_ENOTFOUND, "unknown game %s (searched %s; see retrogym games)", game,
                           roots ? roots : "the data roots");
        free(roots);
    }
    rg__strlist_clear(&dirs);
    return rc;
}

/* Calls fn for each entry name of a folder (silently nothing when it cannot be read). */
static int each_entry(const char *dir, int (*fn)(const char *dir, const char *name, rg_strlist *out),
                      rg_strlist *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return RG_OK;
    int rc = RG_OK;
    struct dirent *e;
    while (rc == RG_OK && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' || (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0))
            rc = fn(dir, e->d_name, out);
    closedir(d);
    return rc;
}

static int add_game(const char *dir, const char *name, rg_strlist *out)
{
    int yes;
    int rc = rg__is_game_dir(dir, name, &yes);
    return rc == RG_OK && yes ? rg__strlist_push(out, name) : rc;
}

/* A stem ending in suffix; NULL-free: *rc set on out of memory. */
static int add_stem(rg_strlist *out, const char *name, size_t suffix_len)
{
    size_t n = strlen(name) - suffix_len;
    char *stem = malloc(n + 1);
    if (!stem)
        return rg__error(RG_ENOMEM, "out of memory");
    memcpy(stem, name, n);
    stem[n] = '\0';
    return rg__strlist_push_own(out, stem);
}

static int add_state(const char *dir, const char *name, rg_strlist *out)
{
    (void)dir;
    size_t n = strlen(name);
    if (name[0] == '_' || n < 6 || strcmp(name + n - 6, ".state") != 0)
        return RG_OK;
    return add_stem(out, name, 6);
}

/* A key with a non-null value (Python's `scen.get(key) is not None`). */
static int present(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    return v && !json_is_null(v);
}

static int add_scenario(const char *dir, const char *name, rg_strlist *out)
{
    size_t n = strlen(name);
    if (n < 5 || strcmp(name + n - 5, ".json") != 0)
        return RG_OK;
    char *path = rg__path_join(dir, name);
    if (!path)
        return rg__error(RG_ENOMEM, "out of memory");
    json_t *j = NULL;
    char *err = NULL;
    int rc = rg__json_load_file(path, RG__JSON_MAX_SIZE, &j, &err);
    free(path);
    free(err);
    if (rc == RG_ENOMEM)
        return rc;
    rc = RG_OK;
    if (j && json_is_object(j) && (present(j, "reward") || present(j, "rewards") || present(j, "done")))
        rc = add_stem(out, name, 5);
    json_decref(j);
    return rc;
}

static int list_over(const rg_strlist *dirs, int (*fn)(const char *, const char *, rg_strlist *), rg_strlist *out)
{
    int rc = RG_OK;
    for (size_t i = 0; rc == RG_OK && i < dirs->count; i++)
        rc = each_entry(dirs->items[i], fn, out);
    if (rc == RG_OK)
        rg__strlist_sort_unique(out);
    else
        rg__strlist_clear(out);
    return rc;
}

int rg__list_states_in(const rg_strlist *dirs, rg_strlist *out)
{
    return list_over(dirs, add_state, out);
}

int rg__list_scenarios_in(const rg_strlist *dirs, rg_strlist *out)
{
    return list_over(dirs, add_scenario, out);
}

/* Common shape of the public listings: game folders (or data folders for games), then a listing into a new list. */
static int list_public(const rg_integration_paths *dp, const char *game, unsigned flags,
                       int (*fn)(const char *, const char *, rg_strlist *), rg_strlist **out)
{
    if (!dp || !out || (fn != add_game && !game))
        return rg__error(RG_EINVAL, "listing: NULL argument");
    *out = NULL;
    rg_strlist dirs = {0};
    int rc = fn == add_game ? rg__data_dirs(dp, flags, &dirs) : rg__game_dirs(dp, game, flags, 1, &dirs);
    rg_strlist *l = NULL;
    if (rc == RG_OK)
        rc = rg__strlist_new(&l);
    if (rc == RG_OK)
        rc = list_over(&dirs, fn, l);
    rg__strlist_clear(&dirs);
    if (rc != RG_OK) {
        rg_strlist_free(l);
        return rc;
    }
    *out = l;
    return RG_OK;
}

int rg_integration_list_games(const rg_integration_paths *dp, unsigned flags, rg_strlist **out)
{
    return list_public(dp, NULL, flags, add_game, out);
}

int rg_integration_list_states(const rg_integration_paths *dp, const char *game, unsigned flags, rg_strlist **out)
{
    return list_public(dp, game, flags, add_state, out);
}

int rg_integration_list_scenarios(const rg_integration_paths *dp, const char *game, unsigned flags, rg_strlist **out)
{
    return list_public(dp, game, flags, add_scenario, out);
}
