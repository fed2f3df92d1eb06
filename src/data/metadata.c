/* metadata.json: default_state, default_player_state, whitelist (docs/integrations.md, "Layout and the data root"). */
#define _POSIX_C_SOURCE 200809L
#include "data_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wl_entry {
    char *file;
    rg_strlist warnings;
} wl_entry;

struct rg_integration_metadata {
    char *default_state;
    rg_strlist player_states;
    wl_entry *whitelist;
    size_t n_whitelist;
};

void rg_integration_metadata_free(rg_integration_metadata *m)
{
    if (!m)
        return;
    free(m->default_state);
    rg__strlist_clear(&m->player_states);
    for (size_t i = 0; i < m->n_whitelist; i++) {
        free(m->whitelist[i].file);
        rg__strlist_clear(&m->whitelist[i].warnings);
    }
    free(m->whitelist);
    free(m);
}

/* An array of strings into a list. */
static int strings_of(const json_t *arr, rg_strlist *out, const char *what)
{
    if (!json_is_array(arr))
        return rg__error(RG_ECORRUPT, "metadata.json: %s must be an array of strings", what);
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        if (!json_is_string(v))
            return rg__error(RG_ECORRUPT, "metadata.json: %s[%zu] must be a string", what, i);
        int rc = rg__strlist_push(out, json_string_value(v));
        if (rc != RG_OK)
            return rc;
    }
    return RG_OK;
}

static int parse_whitelist(rg_integration_metadata *m, const json_t *wl)
{
    if (!json_is_object(wl))
        return rg__error(RG_ECORRUPT, "metadata.json: whitelist must be an object of arrays of strings");
    size_t n = json_object_size(wl);
    m->whitelist = calloc(n ? n : 1, sizeof *m->whitelist);
    if (!m->whitelist)
        return rg__error(RG_ENOMEM, "out of memory");
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)wl, key, v) {
        wl_entry *e = &m->whitelist[m->n_whitelist];
        int rc = RG_OK;
        if (!(e->file = rg__strdup(key, &rc)))
            return rc;
        m->n_whitelist++;
        char what[96];
        snprintf(what, sizeof what, "whitelist[\"%.60s\"]", key);
        /* Only a JSON file's entry lists warnings; for a ROM ("rom.md": true in stable-retro's Ishido) the key's
         * presence is what counts, whatever its value. */
        size_t klen = strlen(key);
        if (!json_is_array(v) && !(klen >= 5 && strcmp(key + klen - 5, ".json") == 0))
            continue;
        if ((rc = strings_of(v, &e->warnings, what)) != RG_OK)
            return rc;
    }
    return RG_OK;
}

int rg__metadata_from_json(rg_integration_metadata **out, const json_t *root)
{
    *out = NULL;
    if (!json_is_object(root))
        return rg__error(RG_ECORRUPT, "metadata.json must hold an object");
    rg_integration_metadata *m = calloc(1, sizeof *m);
    if (!m)
        return rg__error(RG_ENOMEM, "out of memory");
    int rc = RG_OK;
    const json_t *ds = json_object_get(root, "default_state");
    if (ds && !json_is_null(ds)) {
        if (!json_is_string(ds))
            rc = rg__error(RG_ECORRUPT, "metadata.json: default_state must be a string");
        else
            m->default_state = rg__strdup(json_string_value(ds), &rc);
    }
    const json_t *dps = json_object_get(root, "default_player_state");
    if (rc == RG_OK && dps && !json_is_null(dps))
        rc = strings_of(dps, &m->player_states, "default_player_state");
    const json_t *wl = json_object_get(root, "whitelist");
    if (rc == RG_OK && wl && !json_is_null(wl))
        rc = parse_whitelist(m, wl);
    if (rc != RG_OK) {
        rg_integration_metadata_free(m);
        return rc;
    }
    *out = m;
    return RG_OK;
}

int rg_integration_metadata_parse(rg_integration_metadata **out, const char *text, size_t len)
{
    if (!out || (!text && len))
        return rg__error(RG_EINVAL, "rg_integration_metadata_parse: NULL argument");
    *out = NULL;
    json_t *j;
    int rc = rg__json_load_text(text ? text : "", len, &j, NULL);
    if (rc != RG_OK)
        return rg__error_context(rc, "metadata.json");
    rc = rg__metadata_from_json(out, j);
    json_decref(j);
    return rc;
}

int rg_integration_metadata_load(rg_integration_metadata **out, const char *path)
{
    if (!out || !path)
        return rg__error(RG_EINVAL, "rg_integration_metadata_load: NULL argument");
    *out = NULL;
    json_t *j;
    int rc = rg__json_load_file(path, RG__METADATA_MAX_SIZE, &j, NULL);
    if (rc != RG_OK)
        return rc;
    rc = rg__metadata_from_json(out, j);
    json_decref(j);
    if (rc == RG_ECORRUPT)
        rg__error_context(rc, "%s", path);
    return rc;
}

const char *rg_integration_metadata_default_state(const rg_integration_metadata *m)
{
    return m ? m->default_state : NULL;
}

size_t rg_integration_metadata_player_state_count(const rg_integration_metadata *m)
{
    return m ? m->player_states.count : 0;
}

const char *rg_integration_metadata_player_state(const rg_integration_metadata *m, size_t i)
{
    return m ? rg_strlist_at(&m->player_states, i) : NULL;
}

const char *rg_integration_metadata_state_for_players(const rg_integration_metadata *m, unsigned players)
{
    if (!m || players == 0)
        return NULL;
    if (players <= m->player_states.count)
        return m->player_states.items[players - 1];
    return m->default_state;
}

static const wl_entry *wl_find(const rg_integration_metadata *m, const char *file)
{
    for (size_t i = 0; m && file && i < m->n_whitelist; i++)
        if (strcmp(m->whitelist[i].file, file) == 0)
            return &m->whitelist[i];
    return NULL;
}

size_t rg_integration_metadata_whitelist_count(const rg_integration_metadata *m, const char *file)
{
    const wl_entry *e = wl_find(m, file);
    return e ? e->warnings.count : 0;
}

const char *rg_integration_metadata_whitelist_at(const rg_integration_metadata *m, const char *file, size_t i)
{
    const wl_entry *e = wl_find(m, file);
    return e ? rg_strlist_at(&e->warnings, i) : NULL;
}

int rg_integration_default_state(const rg_integration_paths *dp, const char *game, unsigned players, unsigned flags, char **state)
{
    if (!dp || !game || !state || players == 0)
        return rg__error(RG_EINVAL, "rg_integration_default_state: NULL argument or 0 players");
    *state = NULL;
    char *path;
    int rc = rg_integration_file_path(dp, game, "metadata.json", flags, &path);
    if (rc != RG_OK)
        return rc;
    rg_integration_metadata *m;
    rc = rg_integration_metadata_load(&m, path);
    free(path);
    if (rc != RG_OK)
        return rc;
    const char *s = rg_integration_metadata_state_for_players(m, players);
    if (!s)
        rc = rg__error(RG_ENOTFOUND, "%s: metadata.json names no default state for %u player%s", game, players,
                       players == 1 ? "" : "s");
    else
        *state = rg__strdup(s, &rc);
    rg_integration_metadata_free(m);
    return rc;
}
