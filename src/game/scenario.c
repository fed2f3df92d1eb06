/* Scenario lifecycle, hand-built definitions and accessors. */
#include "scenario_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rg_scenario_create(rg_scenario **out)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_scenario_create: NULL argument");
    *out = calloc(1, sizeof **out);
    if (!*out)
        return rg__error(RG_ENOMEM, "out of memory");
    return RG_OK;
}

static void free_node(rg__done_node *node)
{
    for (size_t i = 0; i < node->n; i++)
        free(node->terms[i].name);
    free(node->terms);
    for (size_t i = 0; i < node->n_nodes; i++)
        free_node(&node->nodes[i]);
    free(node->nodes);
    free(node->name);
    memset(node, 0, sizeof *node);
}

void rg__scenario_clear(rg_scenario *sc)
{
    for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++) {
        rg__player_rewards *pr = &sc->players[p];
        for (size_t i = 0; i < pr->n; i++)
            free(pr->terms[i].name);
        free(pr->terms);
        free(pr->script);
        memset(pr, 0, sizeof *pr);
    }
    free_node(&sc->done);
    free(sc->done_script);
    sc->done_script = NULL;
    for (size_t g = 0; g < sc->n_groups; g++) {
        for (size_t c = 0; c < sc->groups[g].n; c++) {
            for (size_t b = 0; b < sc->groups[g].combos[c].n; b++)
                free(sc->groups[g].combos[c].buttons[b]);
            free(sc->groups[g].combos[c].buttons);
        }
        free(sc->groups[g].combos);
    }
    free(sc->groups);
    sc->groups = NULL;
    sc->n_groups = 0;
    memset(sc->crops, 0, sizeof sc->crops);
    for (size_t i = 0; i < sc->n_scripts; i++) {
        free(sc->scripts[i].name);
        free(sc->scripts[i].source);
    }
    free(sc->scripts);
    sc->scripts = NULL;
    sc->n_scripts = 0;
    rg__messages_clear(&sc->warnings);
    rg__lua_free(sc->lua);
    sc->lua = NULL;
    sc->resolved_gd = NULL;
}

void rg_scenario_free(rg_scenario *sc)
{
    if (!sc)
        return;
    rg__scenario_clear(sc);
    free(sc);
}

int rg__scenario_warn(rg_scenario *sc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = rg__messages_addv(&sc->warnings, fmt, ap);
    va_end(ap);
    return rc;
}

size_t rg_scenario_warning_count(const rg_scenario *sc)
{
    return sc ? sc->warnings.count : 0;
}

const char *rg_scenario_warning(const rg_scenario *sc, size_t i)
{
    return sc && i < sc->warnings.count ? sc->warnings.items[i] : NULL;
}

int rg__script_function(const char *ref, char **out)
{
    const char *colon = strchr(ref, ':');
    const char *fn = ref;
    if (colon) {
        if ((size_t)(colon - ref) != 3 || strncmp(ref, "lua", 3) != 0)
            return rg__error(RG_ECORRUPT, "script function \"%.60s\": only Lua scripts are supported", ref);
        fn = colon + 1;
    }
    if (!*fn)
        return rg__error(RG_ECORRUPT, "script function \"%.60s\" has no name", ref);
    int rc = RG_OK;
    *out = rg__strdup(fn, &rc);
    return rc;
}

/* ---- hand-built definitions ---- */

static int cmp_term_key(const void *key, const void *elem)
{
    return strcmp(key, ((const rg__reward_term *)elem)->name);
}

static int cmp_terms(const void *a, const void *b)
{
    return strcmp(((const rg__reward_term *)a)->name, ((const rg__reward_term *)b)->name);
}

const rg__reward_term *rg__reward_find(const rg__reward_term *terms, size_t n, const char *name)
{
    return n ? bsearch(name, terms, n, sizeof *terms, cmp_term_key) : NULL;
}

int rg__reward_append(rg__player_rewards *pr, const char *name, const rg_reward_spec *spec)
{
    int rc = rg__reserve(&pr->terms, &pr->cap, pr->n + 1, sizeof *pr->terms);
    char *copy = rc == RG_OK ? rg__strdup(name, &rc) : NULL;
    if (!copy)
        return rc;
    pr->terms[pr->n++] = (rg__reward_term){copy, *spec, -1};
    pr->defined = 1;
    return RG_OK;
}

void rg__reward_sort(rg__player_rewards *pr)
{
    if (pr->n > 1)
        qsort(pr->terms, pr->n, sizeof *pr->terms, cmp_terms);
}

int rg_scenario_set_reward(rg_scenario *sc, unsigned player, const char *variable, const rg_reward_spec *spec)
{
    if (!sc || !variable || !spec)
        return rg__error(RG_EINVAL, "rg_scenario_set_reward: NULL argument");
    if (player >= RG_SCENARIO_MAX_PLAYERS)
        return rg__error(RG_ERANGE, "player %u out of range (at most %d)", player, RG_SCENARIO_MAX_PLAYERS);
    rg__player_rewards *pr = &sc->players[player];
    sc->resolved_gd = NULL;
    rg__reward_term *t = (rg__reward_term *)rg__reward_find(pr->terms, pr->n, variable);
    if (t) {
        t->spec = *spec;
        pr->defined = 1;
        return RG_OK;
    }
    int rc = rg__reward_append(pr, variable, spec);
    if (rc == RG_OK)
        rg__reward_sort(pr);
    return rc;
}

int rg_scenario_set_time_reward(rg_scenario *sc, unsigned player, const rg_reward_spec *spec)
{
    if (!sc || !spec)
        return rg__error(RG_EINVAL, "rg_scenario_set_time_reward: NULL argument");
    if (player >= RG_SCENARIO_MAX_PLAYERS)
        return rg__error(RG_ERANGE, "player %u out of range (at most %d)", player, RG_SCENARIO_MAX_PLAYERS);
    sc->players[player].time = *spec;
    sc->players[player].has_time = 1;
    sc->players[player].defined = 1;
    return RG_OK;
}

int rg__done_append(rg__done_node *node, const char *name, const rg_done_spec *spec)
{
    int rc = rg__reserve(&node->terms, &node->cap, node->n + 1, sizeof *node->terms);
    char *copy = rc == RG_OK ? rg__strdup(name, &rc) : NULL;
    if (!copy)
        return rc;
    node->terms[node->n++] = (rg__done_term){copy, *spec, -1};
    return RG_OK;
}

int rg__done_add(rg__done_node *node, const char *name, const rg_done_spec *spec)
{
    for (size_t i = 0; i < node->n; i++)
        if (strcmp(node->terms[i].name, name) == 0) {
            node->terms[i].spec = *spec;
            return RG_OK;
        }
    return rg__done_append(node, name, spec);
}

int rg_scenario_set_done(rg_scenario *sc, const char *variable, const rg_done_spec *spec)
{
    if (!sc || !variable || !spec)
        return rg__error(RG_EINVAL, "rg_scenario_set_done: NULL argument");
    sc->resolved_gd = NULL;
    return rg__done_add(&sc->done, variable, spec);
}

int rg_scenario_set_done_condition(rg_scenario *sc, int all)
{
    if (!sc)
        return rg__error(RG_EINVAL, "rg_scenario_set_done_condition: NULL argument");
    sc->done.all = all != 0;
    return RG_OK;
}

static int set_function(char **slot, const char *function)
{
    char *fn = NULL;
    if (function) {
        int rc = rg__script_function(function, &fn);
        if (rc != RG_OK)
            return rc;
    }
    free(*slot);
    *slot = fn;
    return RG_OK;
}

int rg_scenario_set_reward_script(rg_scenario *sc, unsigned player, const char *function)
{
    if (!sc)
        return rg__error(RG_EINVAL, "rg_scenario_set_reward_script: NULL argument");
    if (player >= RG_SCENARIO_MAX_PLAYERS)
        return rg__error(RG_ERANGE, "player %u out of range (at most %d)", player, RG_SCENARIO_MAX_PLAYERS);
    int rc = set_function(&sc->players[player].script, function);
    if (rc == RG_OK && function)
        sc->players[player].defined = 1;
    sc->resolved_gd = NULL; /* terms skipped while a script was set must be resolved again */
    return rc;
}

int rg_scenario_set_done_script(rg_scenario *sc, const char *function)
{
    if (!sc)
        return rg__error(RG_EINVAL, "rg_scenario_set_done_script: NULL argument");
    sc->resolved_gd = NULL;
    return set_function(&sc->done_script, function);
}

static int add_script(rg_scenario *sc, const char *name, const char *source)
{
    rg__script_src *s = realloc(sc->scripts, (sc->n_scripts + 1) * sizeof *s);
    if (!s)
        return rg__error(RG_ENOMEM, "out of memory");
    sc->scripts = s;
    int rc = RG_OK;
    char *n = rg__strdup(name, &rc), *src = source ? rg__strdup(source, &rc) : NULL;
    if (rc != RG_OK) {
        free(n);
        free(src);
        return rc;
    }
    s[sc->n_scripts++] = (rg__script_src){n, src};
    return RG_OK;
}

int rg_scenario_add_script_file(rg_scenario *sc, const char *path)
{
    if (!sc || !path)
        return rg__error(RG_EINVAL, "rg_scenario_add_script_file: NULL argument");
    return add_script(sc, path, NULL);
}

int rg_scenario_add_script_source(rg_scenario *sc, const char *name, const char *source)
{
    if (!sc || !name || !source)
        return rg__error(RG_EINVAL, "rg_scenario_add_script_source: NULL argument");
    return add_script(sc, name, source);
}

int rg_scenario_set_script_limits(rg_scenario *sc, const rg_script_limits *limits)
{
    if (!sc || !limits)
        return rg__error(RG_EINVAL, "rg_scenario_set_script_limits: NULL argument");
    sc->limits = *limits;
    return RG_OK;
}

/* ---- reading ---- */

void rg_scenario_crop(const rg_scenario *sc, unsigned player, unsigned out[4])
{
    memset(out, 0, 4 * sizeof *out);
    if (sc && player < RG_SCENARIO_MAX_PLAYERS)
        memcpy(out, sc->crops[player], 4 * sizeof *out);
}

size_t rg_scenario_action_group_count(const rg_scenario *sc)
{
    return sc ? sc->n_groups : 0;
}

size_t rg_scenario_action_combo_count(const rg_scenario *sc, size_t group)
{
    return sc && group < sc->n_groups ? sc->groups[group].n : 0;
}

size_t rg_scenario_action_button_count(const rg_scenario *sc, size_t group, size_t combo)
{
    if (!sc || group >= sc->n_groups || combo >= sc->groups[group].n)
        return 0;
    return sc->groups[group].combos[combo].n;
}

const char *rg_scenario_action_button(const rg_scenario *sc, size_t group, size_t combo, size_t button)
{
    if (button >= rg_scenario_action_button_count(sc, group, combo))
        return NULL;
    return sc->groups[group].combos[combo].buttons[button];
}

unsigned rg_scenario_players(const rg_scenario *sc)
{
    unsigned n = 1;
    for (unsigned p = 0; sc && p < RG_SCENARIO_MAX_PLAYERS; p++)
        if (sc->players[p].defined)
            n = p + 1;
    return n;
}

float rg_scenario_reward(const rg_scenario *sc, unsigned player)
{
    return sc && player < RG_SCENARIO_MAX_PLAYERS ? sc->reward[player] : 0.0f;
}

float rg_scenario_total_reward(const rg_scenario *sc, unsigned player)
{
    return sc && player < RG_SCENARIO_MAX_PLAYERS ? sc->total[player] : 0.0f;
}

int rg_scenario_done(const rg_scenario *sc)
{
    return sc ? sc->done_flag : 0;
}

uint64_t rg_scenario_frame(const rg_scenario *sc)
{
    return sc ? sc->frame : 0;
}
