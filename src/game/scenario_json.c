/* scenario.json loading (docs/formats.md, "Scenarios"): lenient like Gym Retro, every fallback reported. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "json_util.h"
#include "scenario_types.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCENARIO_JSON_MAX_SIZE (16u << 20)

typedef struct loader {
    rg_scenario *sc;
    unsigned flags;
    const char *base_dir;
} loader;

/* A field of the wrong kind: a warning, or an error in strict mode. */
static int bad_field(loader *ld, const char *where, const char *field, const char *want)
{
    if (ld->flags & RG_LOAD_STRICT)
        return rg__error(RG_ECORRUPT, "%s: \"%s\" must be %s", where, field, want);
    return rg__scenario_warn(ld->sc, "%s: \"%s\" is not %s, default used", where, field, want);
}

/* An optional object field: *out is NULL when absent, or when of the wrong kind (a warning, or an error in strict
 * mode). */
static int object_field(loader *ld, const char *where, json_t *parent, const char *key, json_t **out)
{
    *out = json_object_get(parent, key);
    if (*out && !json_is_object(*out)) {
        *out = NULL;
        return bad_field(ld, where, key, "an object");
    }
    return RG_OK;
}

static int read_measurement(loader *ld, const char *where, json_t *j, rg_measurement *out)
{
    *out = RG_MEASURE_DEFAULT;
    if (!j)
        return RG_OK;
    const char *s = json_string_value(j);
    if (s && strcmp(s, "delta") == 0)
        *out = RG_MEASURE_DELTA;
    else if (s && strcmp(s, "absolute") == 0)
        *out = RG_MEASURE_ABSOLUTE;
    else
        return bad_field(ld, where, "measurement", "\"delta\" or \"absolute\"");
    return RG_OK;
}

static int read_op(loader *ld, const char *where, json_t *j, rg_op *out)
{
    *out = RG_OP_NOOP;
    if (!j)
        return RG_OK;
    const char *s = json_string_value(j);
    if (!s || rg_op_parse(s, out) != RG_OK)
        return bad_field(ld, where, "op", "a known operation");
    return RG_OK;
}

static int read_reference(loader *ld, const char *where, json_t *j, int64_t *out)
{
    *out = 0;
    if (j && rg__json_i64(j, out) != RG_OK)
        return bad_field(ld, where, "reference", "an integer");
    return RG_OK;
}

static int read_coef(loader *ld, const char *where, json_t *j, const char *field, float *out)
{
    *out = 0.0f;
    double d;
    if (!j)
        return RG_OK;
    if (rg__json_number(j, &d) != RG_OK)
        return bad_field(ld, where, field, "a number");
    if (!(d >= -FLT_MAX && d <= FLT_MAX)) /* rewards are 32-bit floats: this one would make them infinite or NaN */
        return rg__error(RG_ECORRUPT, "%s: \"%s\" is %g, outside the range of a 32-bit float (+-%g): rewards would be "
                                      "infinite or NaN",
                         where, field, d, (double)FLT_MAX);
    *out = (float)d;
    return RG_OK;
}

static int read_reward_spec(loader *ld, const char *where, json_t *j, rg_reward_spec *s)
{
    memset(s, 0, sizeof *s);
    if (!json_is_object(j))
        return bad_field(ld, where, "spec", "an object");
    int rc;
    if ((rc = read_measurement(ld, where, json_object_get(j, "measurement"), &s->measurement)) != RG_OK ||
        (rc = read_op(ld, where, json_object_get(j, "op"), &s->op)) != RG_OK ||
        (rc = read_reference(ld, where, json_object_get(j, "reference"), &s->reference)) != RG_OK ||
        (rc = read_coef(ld, where, json_object_get(j, "reward"), "reward", &s->reward)) != RG_OK ||
        (rc = read_coef(ld, where, json_object_get(j, "penalty"), "penalty", &s->penalty)) != RG_OK)
        return rc;
    return RG_OK;
}

static int read_script_ref(loader *ld, const char *where, json_t *j, char **out)
{
    if (!j)
        return RG_OK;
    if (!json_is_string(j))
        return bad_field(ld, where, "script", "a function name");
    char *fn;
    int rc = rg__script_function(json_string_value(j), &fn);
    if (rc != RG_OK)
        return rc;
    free(*out);
    *out = fn;
    return RG_OK;
}

/* One reward object for a player. Variables already defined for the player win (first definition). */
static int load_reward(loader *ld, unsigned player, json_t *j)
{
    char where[64];
    snprintf(where, sizeof where, "reward of player %u", player + 1);
    if (!json_is_object(j))
        return bad_field(ld, "scenario", player == 0 ? "reward" : "rewards", "an object");
    rg__player_rewards *pr = &ld->sc->players[player];
    pr->defined = 1;
    json_t *vars;
    int rc = object_field(ld, where, j, "variables", &vars);
    if (rc != RG_OK)
        return rc;
    const char *name;
    json_t *spec;
    size_t known = pr->n; /* terms of an earlier definition (sorted): they win */
    json_object_foreach(vars, name, spec) {
        if (rg__reward_find(pr->terms, known, name))
            continue;
        rg_reward_spec s;
        char w[256];
        snprintf(w, sizeof w, "%.100s, variable %.80s", where, name);
        if ((rc = read_reward_spec(ld, w, spec, &s)) != RG_OK ||
            (rc = rg__reward_append(pr, name, &s)) != RG_OK)
            return rc;
    }
    rg__reward_sort(pr);
    json_t *time = json_object_get(j, "time");
    if (time && !pr->has_time) {
        rg_reward_spec s;
        if ((rc = read_reward_spec(ld, where, time, &s)) != RG_OK ||
            (rc = rg_scenario_set_time_reward(ld->sc, player, &s)) != RG_OK)
            return rc;
    }
    return pr->script ? RG_OK : read_script_ref(ld, where, json_object_get(j, "script"), &pr->script);
}

static int load_done_node(loader *ld, rg__done_node *node, json_t *j, const char *where, int depth)
{
    if (depth > RG__DONE_MAX_DEPTH)
        return rg__error(RG_ECORRUPT, "done nodes are nested deeper than %d levels", RG__DONE_MAX_DEPTH);
    if (!json_is_object(j))
        return bad_field(ld, where, "node", "an object");
    json_t *cond = json_object_get(j, "condition");
    node->all = json_is_string(cond) && strcmp(json_string_value(cond), "all") == 0;
    json_t *vars, *nodes;
    int rc = object_field(ld, where, j, "variables", &vars);
    if (rc != RG_OK)
        return rc;
    const char *name;
    json_t *spec;
    json_object_foreach(vars, name, spec) {
        char w[256];
        snprintf(w, sizeof w, "%.100s, variable %.80s", where, name);
        rg_done_spec s = {0};
        if (!json_is_object(spec)) {
            if ((rc = bad_field(ld, w, "spec", "an object")) != RG_OK)
                return rc;
        } else if ((rc = read_measurement(ld, w, json_object_get(spec, "measurement"), &s.measurement)) != RG_OK ||
                   (rc = read_op(ld, w, json_object_get(spec, "op"), &s.op)) != RG_OK ||
                   (rc = read_reference(ld, w, json_object_get(spec, "reference"), &s.reference)) != RG_OK) {
            return rc;
        }
        if ((rc = rg__done_append(node, name, &s)) != RG_OK) /* names in one object are unique */
            return rc;
    }
    if ((rc = object_field(ld, where, j, "nodes", &nodes)) != RG_OK)
        return rc;
    json_t *child;
    json_object_foreach(nodes, name, child) {
        rg__done_node *n = realloc(node->nodes, (node->n_nodes + 1) * sizeof *n);
        if (!n)
            return rg__error(RG_ENOMEM, "out of memory");
        node->nodes = n;
        rg__done_node *c = &node->nodes[node->n_nodes];
        memset(c, 0, sizeof *c);
        if (!(c->name = rg__strdup(name, &rc)))
            return rc;
        node->n_nodes++;
        char w[256];
        snprintf(w, sizeof w, "done node %.80s", name);
        if ((rc = load_done_node(ld, c, child, w, depth + 1)) != RG_OK)
            return rc;
    }
    return RG_OK;
}

static int load_actions(loader *ld, json_t *j)
{
    if (!json_is_array(j))
        return rg__error(RG_ECORRUPT, "\"actions\" must be a list of groups of button combinations");
    rg_scenario *sc = ld->sc;
    size_t ng = json_array_size(j);
    if (ng == 0)
        return RG_OK;
    if (!(sc->groups = calloc(ng, sizeof *sc->groups)))
        return rg__error(RG_ENOMEM, "out of memory");
    sc->n_groups = ng;
    for (size_t g = 0; g < ng; g++) {
        json_t *group = json_array_get(j, g);
        if (!json_is_array(group))
            return rg__error(RG_ECORRUPT, "\"actions\" group %zu is not a list of combinations", g);
        size_t nc = json_array_size(group);
        if (nc && !(sc->groups[g].combos = calloc(nc, sizeof(rg__combo))))
            return rg__error(RG_ENOMEM, "out of memory");
        sc->groups[g].n = nc;
        for (size_t c = 0; c < nc; c++) {
            json_t *combo = json_array_get(group, c);
            if (!json_is_array(combo))
                return rg__error(RG_ECORRUPT, "\"actions\" group %zu, combination %zu is not a list of buttons", g, c);
            size_t nb = json_array_size(combo);
            rg__combo *cb = &sc->groups[g].combos[c];
            if (nb && !(cb->buttons = calloc(nb, sizeof *cb->buttons)))
                return rg__error(RG_ENOMEM, "out of memory");
            for (size_t b = 0; b < nb; b++) {
                const char *s = json_string_value(json_array_get(combo, b));
                if (!s)
                    return rg__error(RG_ECORRUPT, "\"actions\" group %zu, combination %zu: button %zu is not a name",
                                     g, c, b);
                int rc = RG_OK;
                if (!(cb->buttons[b] = rg__strdup(s, &rc)))
                    return rc;
                cb->n = b + 1;
            }
        }
    }
    return RG_OK;
}

static int read_crop(loader *ld, json_t *j, unsigned out[4], const char *field)
{
    if (!json_is_array(j) || json_array_size(j) != 4)
        return bad_field(ld, "scenario", field, "[x, y, w, h]");
    unsigned v[4];
    for (size_t i = 0; i < 4; i++) {
        uint64_t u;
        if (rg__json_u64(json_array_get(j, i), &u) != RG_OK || u > 65535)
            return bad_field(ld, "scenario", field, "[x, y, w, h] of integers 0-65535");
        v[i] = (unsigned)u;
    }
    memcpy(out, v, sizeof v);
    return RG_OK;
}

/* A script stays inside the scenario's folder (issue 16: integrations are strangers' files): no ".." component,
 * and a file that exists must still be under the folder once symbolic links are followed. */
static int confined_script_path(const char *base, const char *file, const char *entry, char **out)
{
    for (const char *c = file; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 2 && c[0] == '.' && c[1] == '.')
            return rg__error(RG_ECORRUPT, "script \"%.80s\": the path leaves the game folder (\"..\")", entry);
        for (c += n; *c == '/'; c++) {
        }
    }
    char *path = rg__asprintf("%s/%s", base, file);
    if (!path)
        return rg__error(RG_ENOMEM, "out of memory");
    char *real_base = realpath(base, NULL), *real = realpath(path, NULL);
    int inside = 1;
    if (real_base && real) {
        size_t n = strlen(real_base);
        inside = strncmp(real, real_base, n) == 0 && (real[n] == '/' || (n == 1 && real_base[0] == '/'));
    }
    free(real_base);
    free(real);
    if (!inside) {
        free(path);
        return rg__error(RG_ECORRUPT, "script \"%.80s\" is a link to a file outside the game folder", entry);
    }
    *out = path;
    return RG_OK;
}

/* "lua:file", or a file whose extension names the language. Paths are taken inside the scenario's folder. */
static int load_script_entry(loader *ld, json_t *j)
{
    const char *s = json_string_value(j);
    if (!s)
        return rg__error(RG_ECORRUPT, "\"scripts\" must list file names");
    const char *file = s, *colon = strchr(s, ':');
    if (colon) {
        if ((size_t)(colon - s) != 3 || strncmp(s, "lua", 3) != 0)
            return rg__error(RG_ECORRUPT, "script \"%.80s\": only Lua scripts are supported", s);
        file = colon + 1;
    } else {
        const char *dot = strrchr(s, '.');
        if (!dot || strcmp(dot, ".lua") != 0)
            return rg__error(RG_ECORRUPT, "script \"%.80s\": only Lua scripts (.lua) are supported", s);
    }
    while (*file == '/')
        file++;
    if (!*file)
        return rg__error(RG_ECORRUPT, "script \"%.80s\" has no file name", s);
    char *path = NULL;
    int rc = confined_script_path(ld->base_dir ? ld->base_dir : ".", file, s, &path);
    if (rc != RG_OK)
        return rc;
    rc = rg_scenario_add_script_file(ld->sc, path);
    free(path);
    return rc;
}

static int load_root(loader *ld, json_t *root)
{
    int rc;
    json_t *j;
    if ((j = json_object_get(root, "reward")) && (rc = load_reward(ld, 0, j)) != RG_OK)
        return rc;
    if ((j = json_object_get(root, "rewards"))) {
        if (!json_is_array(j)) {
            if ((rc = bad_field(ld, "scenario", "rewards", "a list")) != RG_OK)
                return rc;
        } else {
            for (size_t p = 0; p < json_array_size(j) && p < RG_SCENARIO_MAX_PLAYERS; p++)
                if ((rc = load_reward(ld, (unsigned)p, json_array_get(j, p))) != RG_OK)
                    return rc;
        }
    }
    if ((j = json_object_get(root, "done"))) {
        if ((rc = load_done_node(ld, &ld->sc->done, j, "done", 0)) != RG_OK)
            return rc;
        if (json_is_object(j) &&
            (rc = read_script_ref(ld, "done", json_object_get(j, "script"), &ld->sc->done_script)) != RG_OK)
            return rc;
    }
    if ((j = json_object_get(root, "actions")) && (rc = load_actions(ld, j)) != RG_OK)
        return rc;
    if ((j = json_object_get(root, "crop"))) {
        unsigned c[4] = {0};
        if ((rc = read_crop(ld, j, c, "crop")) != RG_OK)
            return rc;
        for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++)
            memcpy(ld->sc->crops[p], c, sizeof c);
    }
    if ((j = json_object_get(root, "crops"))) {
        if (!json_is_array(j)) {
            if ((rc = bad_field(ld, "scenario", "crops", "a list of [x, y, w, h]")) != RG_OK)
                return rc;
            j = NULL;
        }
        for (size_t p = 0; j && p < json_array_size(j) && p < RG_SCENARIO_MAX_PLAYERS; p++)
            if ((rc = read_crop(ld, json_array_get(j, p), ld->sc->crops[p], "crops")) != RG_OK)
                return rc;
    }
    if ((j = json_object_get(root, "scripts"))) {
        if (!json_is_array(j))
            return rg__error(RG_ECORRUPT, "\"scripts\" must be a list of file names");
        for (size_t i = 0; i < json_array_size(j); i++)
            if ((rc = load_script_entry(ld, json_array_get(j, i))) != RG_OK)
                return rc;
    }
    return RG_OK;
}

int rg_scenario_load_string(rg_scenario *sc, const char *json, size_t len, const char *base_dir, unsigned flags)
{
    if (!sc || (!json && len))
        return rg__error(RG_EINVAL, "rg_scenario_load_string: NULL argument");
    json_t *root;
    int rc = rg__json_parse(json, len, &root, "scenario.json");
    if (rc != RG_OK)
        return rc;
    rg_scenario *fresh;
    if ((rc = rg_scenario_create(&fresh)) != RG_OK) {
        json_decref(root);
        return rc;
    }
    fresh->limits = sc->limits;
    loader ld = {fresh, flags, base_dir};
    rc = load_root(&ld, root);
    json_decref(root);
    if (rc != RG_OK) {
        rg_scenario_free(fresh);
        return rc;
    }
    rg__scenario_clear(sc);
    *sc = *fresh;
    free(fresh);
    memset(sc->reward, 0, sizeof sc->reward);
    memset(sc->total, 0, sizeof sc->total);
    sc->done_flag = 0;
    sc->frame = 0;
    return RG_OK;
}

int rg_scenario_load_file(rg_scenario *sc, const char *path, unsigned flags)
{
    if (!sc || !path)
        return rg__error(RG_EINVAL, "rg_scenario_load_file: NULL argument");
    uint8_t *data;
    size_t size;
    int rc = rg__read_file(path, SCENARIO_JSON_MAX_SIZE, &data, &size);
    if (rc != RG_OK)
        return rc;
    char *dir = rg__asprintf("%s", path);
    if (!dir) {
        free(data);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    rc = rg_scenario_load_string(sc, (const char *)data, size, slash ? dir : ".", flags);
    free(dir);
    free(data);
    return rc == RG_OK ? RG_OK : rg__error_context(rc, "%s", path);
}
