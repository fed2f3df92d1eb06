/* The table of known ROM hashes of an import (docs/integrations.md, "Import"). */
#define _POSIX_C_SOURCE 200809L
#include "import_internal.h"

#include <stdlib.h>
#include <string.h>

void rg__known_clear(rg__known_table *t)
{
    for (size_t i = 0; i < t->count; i++) {
        free(t->items[i].game);
        free(t->items[i].game_dir);
    }
    free(t->items);
    t->items = NULL;
    t->count = t->cap = 0;
}

static int known_add(rg__known_table *t, const char *sha, const char *game, const char *game_dir, const char *ext,
                     size_t order)
{
    int rc = rg__reserve(&t->items, &t->cap, t->count + 1, sizeof *t->items);
    if (rc != RG_OK)
        return rc;
    rg__known *k = &t->items[t->count];
    memcpy(k->sha, sha, sizeof k->sha);
    k->game = rg__strdup(game, &rc);
    k->game_dir = rg__strdup(game_dir, &rc);
    k->ext = ext;
    k->order = order;
    rg__rom_name_key(game, 0, k->key, sizeof k->key);
    if (rc != RG_OK) {
        free(k->game);
        free(k->game_dir);
        return rc;
    }
    t->count++;
    return RG_OK;
}

/* Gym Retro iterates games (sorted), then folders in priority order, and the last assignment of a hash wins: so
 * precedence is (game name, folder position). */
static int cmp_known(const void *pa, const void *pb)
{
    const rg__known *a = pa, *b = pb;
    int c = strcmp(a->sha, b->sha);
    if (c == 0)
        c = strcmp(a->game, b->game);
    if (c == 0)
        c = a->order < b->order ? -1 : a->order > b->order;
    return c;
}

/* Sorts and keeps the winner of each hash. */
static void known_finish(rg__known_table *t)
{
    if (t->count == 0)
        return;
    qsort(t->items, t->count, sizeof *t->items, cmp_known);
    size_t w = 0;
    for (size_t r = 0; r < t->count; r++) {
        if (r + 1 < t->count && strcmp(t->items[r].sha, t->items[r + 1].sha) == 0) {
            free(t->items[r].game);
            free(t->items[r].game_dir);
            continue;
        }
        t->items[w++] = t->items[r];
    }
    t->count = w;
}

const rg__known *rg__known_find(const rg__known_table *t, const char *sha)
{
    size_t lo = 0, hi = t->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(t->items[mid].sha, sha);
        if (c == 0)
            return &t->items[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The hashes of one game folder. */
static int add_game(rg__import *im, const char *game, const char *game_dir, size_t order)
{
    char *sha_path = rg__path_join(game_dir, "rom.sha");
    if (!sha_path)
        return rg__error(RG_ENOMEM, "out of memory");
    int rc = RG_OK;
    if (rg__path_exists(sha_path)) {
        const rg_system_info *sys = NULL;
        rg_strlist *shas = NULL;
        if (rg_integration_game_system(game, &sys) != RG_OK || sys->n_extensions == 0) {
            size_t r = rg__root_of(im->dp, game_dir); /* an installed package's games of other systems: quietly */
            if (r == im->dp->n_roots || (im->dp->roots[r].origin != RG_INTEGRATION_ORIGIN_STABLE_RETRO &&
                                         im->dp->roots[r].origin != RG_INTEGRATION_ORIGIN_OWN))
                rg__import_warn(im, "ignoring %s: no known system for its -<System> suffix", game_dir);
        } else if ((rc = rg_integration_romsha_load(sha_path, &shas)) != RG_OK) {
            if (rc != RG_ENOMEM) {
                rg__import_warn(im, "ignoring %s: %s", sha_path, rg_error_last());
                rc = RG_OK;
            }
        } else {
            for (size_t i = 0; rc == RG_OK && i < shas->count; i++)
                rc = known_add(&im->known, shas->items[i], game, game_dir, sys->extensions[0], order);
        }
        rg_strlist_free(shas);
    }
    free(sha_path);
    return rc;
}

int rg__known_build(rg__import *im)
{
    rg_strlist dirs = {0};
    int rc = rg__data_dirs(im->dp, RG_INTEGRATIONS_ALL, &dirs);
    for (size_t d = 0; rc == RG_OK && d < dirs.count; d++) {
        rg_strlist names = {0};
        rc = rg__folder_names(dirs.items[d], &names);
        for (size_t g = 0; rc == RG_OK && g < names.count; g++) {
            char *game_dir = rg__path_join(dirs.items[d], names.items[g]);
            if (!game_dir)
                rc = rg__error(RG_ENOMEM, "out of memory");
            else if (rg__is_dir(game_dir))
                rc = add_game(im, names.items[g], game_dir, d);
            free(game_dir);
        }
        rg__strlist_clear(&names);
    }
    rg__strlist_clear(&dirs);
    if (rc == RG_OK)
        known_finish(&im->known);
    return rc;
}

void rg__rom_name_key(const char *name, int is_file, char *out, size_t cap)
{
    const char *start = name, *end = name + strlen(name);
    if (is_file) {
        for (const char *p = name; *p; p++)
            if (*p == '/' || *p == ':')
                start = p + 1;
        const char *dot = strrchr(start, '.');
        if (dot && dot > start)
            end = dot;
        for (const char *p = start; p < end; p++)
            if (*p == '(' || *p == '[') {
                end = p;
                break;
            }
    } else {
        for (int strip = 0; strip < 2; strip++) { /* "-v0", then "-System" */
            const char *dash = NULL;
            for (const char *p = start; p < end; p++)
                if (*p == '-')
                    dash = p;
            if (!dash)
                break;
            int version = dash[1] == 'v' && dash + 2 < end;
            for (const char *p = dash + 2; version && p < end; p++)
                version = *p >= '0' && *p <= '9';
            if (strip == 0 && !version)
                continue;
            end = dash;
        }
    }
    size_t n = 0;
    for (const char *p = start; p < end && n + 1 < cap; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out[n++] = c;
    }
    if (cap)
        out[n] = '\0';
}

const rg__known *rg__known_by_file_name(const rg__known_table *t, const char *file_name)
{
    char key[64];
    rg__rom_name_key(file_name, 1, key, sizeof key);
    const rg_system_info *file_sys;
    if (!key[0] || rg_system_for_path(&file_sys, file_name) != RG_OK)
        return NULL;
    for (size_t i = 0; i < t->count; i++) {
        const rg_system_info *game_sys;
        if (strcmp(t->items[i].key, key) == 0 && rg_integration_game_system(t->items[i].game, &game_sys) == RG_OK &&
            game_sys == file_sys)
            return &t->items[i];
    }
    return NULL;
}

const rg__known *rg__known_by_game(const rg__known_table *t, const char *game)
{
    char *alias = rg__game_alias(game);
    const rg__known *found = NULL;
    for (size_t i = 0; i < t->count && !found; i++)
        if (strcmp(t->items[i].game, game) == 0 || (alias && strcmp(t->items[i].game, alias) == 0))
            found = &t->items[i];
    free(alias);
    return found;
}
