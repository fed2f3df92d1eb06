/* The game library: every integration over the data roots with its ROM, default state and the core that would run it
 * (rg_integration_library_create; `retrogym library`, retrogym.data.library()). */
#define _POSIX_C_SOURCE 200809L
#include "data_internal.h"

#include "emu/state_core.h"
#include "retrogym/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rg_integration_library {
    rg_integration_library_game *items;
    size_t count, cap;
    rg_strlist strings; /* owns every string of the items */
};

/* A copy owned by the library (NULL stays NULL). */
static const char *keep(rg_integration_library *lib, const char *s, int *rc)
{
    if (!s || *rc != RG_OK)
        return NULL;
    if ((*rc = rg__strlist_push(&lib->strings, s)) != RG_OK)
        return NULL;
    return lib->strings.items[lib->strings.count - 1];
}

/* The core a system would run on: the first of its cores that is built in or installed. */
typedef struct sys_core {
    const rg_system_info *sys;
    char name[128];
    char path[4096];
    const char *origin;
    char hint[256];
} sys_core;

static void find_core(sys_core *sc)
{
    sc->name[0] = sc->path[0] = sc->hint[0] = '\0';
    sc->origin = NULL;
    for (size_t i = 0; i < sc->sys->n_cores; i++) {
        const char *name = sc->sys->cores[i];
        for (size_t b = 0; b < rg_core_builtin_count(); b++) {
            rg_core_info info;
            if (rg_core_builtin_at(b, &info) == RG_OK && strcmp(info.name, name) == 0) {
                snprintf(sc->name, sizeof sc->name, "%s", name);
                snprintf(sc->path, sizeof sc->path, "%s", info.path);
                sc->origin = "own";
                return;
            }
        }
        if (rg_core_resolve(name, sc->path, sizeof sc->path) == RG_OK) {
            snprintf(sc->name, sizeof sc->name, "%s", name);
            sc->origin = rg_core_origin(sc->path);
            return;
        }
    }
    sc->path[0] = '\0';
    rg_core_install_hint(sc->sys->cores, sc->sys->n_cores, sc->hint, sizeof sc->hint);
}

static int add_item(rg_integration_library *lib, const rg_integration_library_game *g)
{
    if (lib->count == lib->cap) {
        size_t cap = lib->cap ? lib->cap * 2 : 64;
        rg_integration_library_game *items = realloc(lib->items, cap * sizeof *items);
        if (!items)
            return rg__error(RG_ENOMEM, "out of memory");
        lib->items = items;
        lib->cap = cap;
    }
    lib->items[lib->count++] = *g;
    return RG_OK;
}

static int cmp_game(const void *a, const void *b)
{
    return strcmp(((const rg_integration_library_game *)a)->game, ((const rg_integration_library_game *)b)->game);
}

/* The core that saved the game's default state, when its file says so and it is installed: the environment picks
 * it too (src/emu/state_core.c). */
static void state_core(rg_integration_library *lib, const rg_integration_paths *dp, unsigned flags, rg_integration_library_game *g,
                       const rg_system_info *sys, int *rc)
{
    if (!g->state || *rc != RG_OK)
        return;
    char *file = rg__asprintf("%s.state", g->state), *path = NULL;
    const char *core = NULL;
    char core_path[4096];
    if (file && rg_integration_file_path(dp, g->game, file, flags, &path) == RG_OK)
        core = rg_core_for_state_file(path, sys);
    if (core && strcmp(core, g->core) != 0 && rg_core_resolve(core, core_path, sizeof core_path) == RG_OK) {
        g->core = keep(lib, core, rc);
        g->core_path = keep(lib, core_path, rc);
        g->core_origin = rg_core_origin(g->core_path);
    }
    free(file);
    free(path);
}

/* One game folder `name` found in data folder `dir`. */
static int add_game(rg_integration_library *lib, const rg_integration_paths *dp, unsigned flags, const char *dir, const char *name,
                    sys_core *cores, size_t n_cores)
{
    rg_integration_library_game g = {0};
    int rc = RG_OK;
    g.game = keep(lib, name, &rc);
    size_t r = rg__root_of(dp, dir);
    if (r < dp->n_roots) {
        g.root = keep(lib, dp->roots[r].path, &rc);
        g.origin = dp->roots[r].origin;
        const char *rest = dir + strlen(dp->roots[r].path);
        g.integration = keep(lib, *rest == '/' ? rest + 1 : rest, &rc);
    } else {
        g.origin = RG_INTEGRATION_ORIGIN_GIVEN;
        g.integration = keep(lib, dir, &rc);
    }
    const rg_system_info *sys = NULL;
    g.system = keep(lib, rg_integration_game_system(name, &sys) == RG_OK ? sys->name : "", &rc);
    char *rom = NULL, *state = NULL;
    if (rc == RG_OK) {
        int r2 = rg_integration_rom_path(dp, name, flags, &rom);
        if (r2 == RG_ENOMEM)
            rc = r2;
        r2 = rg_integration_default_state(dp, name, 1, flags, &state);
        if (r2 == RG_ENOMEM)
            rc = r2;
    }
    g.rom = keep(lib, rom, &rc);
    g.state = keep(lib, state, &rc);
    free(rom);
    free(state);
    for (size_t i = 0; sys && i < n_cores; i++)
        if (cores[i].sys == sys) {
            if (!cores[i].name[0] && !cores[i].hint[0])
                find_core(&cores[i]);
            if (cores[i].name[0]) {
                g.core = keep(lib, cores[i].name, &rc);
                g.core_path = keep(lib, cores[i].path, &rc);
                g.core_origin = cores[i].origin;
                state_core(lib, dp, flags, &g, sys, &rc);
            } else {
                g.hint = keep(lib, cores[i].hint, &rc);
            }
        }
    if (rc == RG_OK)
        rc = add_item(lib, &g);
    return rc;
}

int rg_integration_library_create(const rg_integration_paths *dp, unsigned flags, rg_integration_library **out)
{
    if (!dp || !out)
        return rg__error(RG_EINVAL, "rg_integration_library_create: NULL argument");
    *out = NULL;
    rg_integration_library *lib = calloc(1, sizeof *lib);
    size_t n_cores = rg_system_count();
    sys_core *cores = calloc(n_cores ? n_cores : 1, sizeof *cores);
    if (!lib || !cores) {
        free(lib);
        free(cores);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n_cores; i++)
        cores[i].sys = rg_system_at(i);
    rg_strlist dirs = {0}, seen = {0};
    int rc = rg__data_dirs(dp, flags, &dirs);
    for (size_t d = 0; rc == RG_OK && d < dirs.count; d++) {
        rg_strlist names = {0};
        rc = rg__folder_names(dirs.items[d], &names);
        for (size_t i = 0; rc == RG_OK && i < names.count; i++) {
            int yes;
            if (names.items[i][0] == '.' || rg__strlist_contains(&seen, names.items[i]))
                continue; /* hidden entries, and games an earlier folder gave */
            if ((rc = rg__is_game_dir(dirs.items[d], names.items[i], &yes)) == RG_OK && yes &&
                (rc = rg__strlist_push(&seen, names.items[i])) == RG_OK)
                rc = add_game(lib, dp, flags, dirs.items[d], names.items[i], cores, n_cores);
        }
        rg__strlist_clear(&names);
    }
    rg__strlist_clear(&dirs);
    rg__strlist_clear(&seen);
    free(cores);
    if (rc != RG_OK) {
        rg_integration_library_free(lib);
        return rc;
    }
    if (lib->count > 1)
        qsort(lib->items, lib->count, sizeof *lib->items, cmp_game);
    *out = lib;
    return RG_OK;
}

size_t rg_integration_library_count(const rg_integration_library *lib)
{
    return lib ? lib->count : 0;
}

const rg_integration_library_game *rg_integration_library_at(const rg_integration_library *lib, size_t i)
{
    return lib && i < lib->count ? &lib->items[i] : NULL;
}

void rg_integration_library_free(rg_integration_library *lib)
{
    if (!lib)
        return;
    rg__strlist_clear(&lib->strings);
    free(lib->items);
    free(lib);
}
