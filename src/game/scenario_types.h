/* The scenario handle's layout, shared by the files of the scenario module. */
#ifndef RG_SRC_GAME_SCENARIO_TYPES_H
#define RG_SRC_GAME_SCENARIO_TYPES_H

#include "base/base.h"
#include "script_lua.h"

#include <retrogym/scenario.h>

#define RG__DONE_MAX_DEPTH 32

typedef struct rg__reward_term {
    char *name;
    rg_reward_spec spec;
    long idx; /* resolved index in the gamedata */
} rg__reward_term;

typedef struct rg__player_rewards {
    rg__reward_term *terms; /* ascending by name */
    size_t n, cap;
    int has_time;
    rg_reward_spec time;
    char *script; /* function name, NULL when none */
    int defined;  /* the scenario says something about this player */
} rg__player_rewards;

typedef struct rg__done_term {
    char *name;
    rg_done_spec spec;
    long idx;
} rg__done_term;

typedef struct rg__done_node {
    char *name;
    rg__done_term *terms;
    size_t n, cap;
    struct rg__done_node *nodes;
    size_t n_nodes, cap_nodes;
    int all;
} rg__done_node;

typedef struct rg__combo {
    char **buttons;
    size_t n;
} rg__combo;

typedef struct rg__group {
    rg__combo *combos;
    size_t n;
} rg__group;

typedef struct rg__script_src {
    char *name;   /* file path or chunk name */
    char *source; /* NULL: read the file */
} rg__script_src;

struct rg_scenario {
    rg__player_rewards players[RG_SCENARIO_MAX_PLAYERS];
    rg__done_node done;
    char *done_script;
    rg__group *groups;
    size_t n_groups;
    unsigned crops[RG_SCENARIO_MAX_PLAYERS][4];
    rg__script_src *scripts;
    size_t n_scripts;
    rg_script_limits limits;
    rg__messages warnings;
    /* evaluation */
    rg__lua *lua;
    float reward[RG_SCENARIO_MAX_PLAYERS], total[RG_SCENARIO_MAX_PLAYERS];
    int done_flag;
    uint64_t frame;
    uint64_t script_seed; /* the scripts' random generator: advanced at each reset, set by rg__scenario_seed */
    const rg_gamedata *resolved_gd;
    unsigned long resolved_gen;
};

/* Frees everything a scenario defines (not the handle); leaves it empty. */
void rg__scenario_clear(rg_scenario *sc);
int rg__scenario_warn(rg_scenario *sc, const char *fmt, ...) RG_PRINTF(2, 3);
int rg__done_add(rg__done_node *node, const char *name, const rg_done_spec *spec);
/* Appends without looking for the name (the caller knows it is new). */
int rg__done_append(rg__done_node *node, const char *name, const rg_done_spec *spec);
/* Reward terms: find in a sorted prefix, append unsorted, then sort. */
const rg__reward_term *rg__reward_find(const rg__reward_term *terms, size_t n, const char *name);
int rg__reward_append(rg__player_rewards *pr, const char *name, const rg_reward_spec *spec);
void rg__reward_sort(rg__player_rewards *pr);
/* A fresh interpreter with the scenario's scripts run (none when the scenario has no scripts). */
int rg__scenario_load_scripts(rg_scenario *sc, rg_gamedata *gd);
/* "lua:name" or "name" -> the function name; RG_ECORRUPT for another language. */
int rg__script_function(const char *ref, char **out);

#endif
