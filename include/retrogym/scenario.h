/**
 * @file scenario.h
 * A scenario (`scenario.json`): how a game is scored and when an episode ends, the action groups and crop, and the
 * Lua scripts it loads (docs/formats.md, "Scenarios" and "Lua scripts"). Evaluated against an rg_gamedata once per
 * emulated frame, exactly in Gym Retro's order: remember the variables, compute done, then the reward of every player.
 * One handle per environment (each owns its own Lua interpreter); distinct handles are independent.
 */
#ifndef RETROGYM_SCENARIO_H
#define RETROGYM_SCENARIO_H

#include "export.h"
#include <retrogym/gamedata.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rg_scenario rg_scenario;

/** Players a scenario scores (Gym Retro scores 2; we keep per-player rewards up to this many). */
#define RG_SCENARIO_MAX_PLAYERS 4

/** How a variable is measured. */
typedef enum rg_measurement {
    RG_MEASURE_DEFAULT = 0, /**< delta for rewards, absolute for done */
    RG_MEASURE_DELTA = 1,
    RG_MEASURE_ABSOLUTE = 2
} rg_measurement;

/** The 13 operations of docs/formats.md, "Scenarios" (NOOP passes the value through). */
typedef enum rg_op {
    RG_OP_NOOP = 0,
    RG_OP_EQUAL,
    RG_OP_NEGATIVE_EQUAL,
    RG_OP_NOT_EQUAL,
    RG_OP_LESS_THAN,
    RG_OP_GREATER_THAN,
    RG_OP_LESS_OR_EQUAL,
    RG_OP_GREATER_OR_EQUAL,
    RG_OP_NONZERO,
    RG_OP_ZERO,
    RG_OP_POSITIVE,
    RG_OP_NEGATIVE,
    RG_OP_SIGN,
    RG_OP_COUNT
} rg_op;

/** Applies an operation: op(v, reference). */
RG_API int64_t rg_op_apply(rg_op op, int64_t v, int64_t reference);
/** The JSON name of an operation ("equal", ...; "" for NOOP). */
RG_API const char *rg_op_name(rg_op op);
/** Parses an operation name; unknown names give RG_OP_NOOP and RG_ENOTFOUND (Gym Retro passes them through). */
RG_API int rg_op_parse(const char *name, rg_op *out);

/** A reward term: m = op(measured value, reference); contribution m*reward when m > 0, m*penalty when m < 0. */
typedef struct rg_reward_spec {
    rg_measurement measurement;
    rg_op op;
    int64_t reference;
    float reward;
    float penalty;
} rg_reward_spec;

/** A done test: fires when op(measured value, reference) > 0. */
typedef struct rg_done_spec {
    rg_measurement measurement;
    rg_op op;
    int64_t reference;
} rg_done_spec;

/** Limits for each call into a scenario's Lua scripts (0 = default). */
typedef struct rg_script_limits {
    uint64_t instructions;  /**< Lua VM instructions per call; default 50 million */
    double seconds;         /**< wall-clock seconds per call; default 2 */
    size_t memory;          /**< bytes the interpreter may hold; default 64 MiB */
} rg_script_limits;

RG_API int rg_scenario_create(rg_scenario **out);
RG_API void rg_scenario_free(rg_scenario *sc);

/**
 * Replaces the scenario with a scenario.json file. Script paths are resolved against the file's folder. Fields of the
 * wrong kind fall back to their defaults with a warning (errors with RG_LOAD_STRICT); unknown op or measurement
 * names likewise. On error the previous scenario is kept.
 * @return RG_OK; RG_ENOTFOUND/RG_EIO (file); RG_ECORRUPT (not a JSON object, malformed "actions", a script name
 *         that is not a string or has a language other than Lua, nesting of done nodes deeper than 32)
 */
RG_API int rg_scenario_load_file(rg_scenario *sc, const char *path, unsigned flags);
/** The same from text; script paths are resolved against base_dir (NULL: the current folder). */
RG_API int rg_scenario_load_string(rg_scenario *sc, const char *json, size_t len, const char *base_dir, unsigned flags);
RG_API size_t rg_scenario_warning_count(const rg_scenario *sc);
RG_API const char *rg_scenario_warning(const rg_scenario *sc, size_t i);

/* ---- building a scenario by hand (the same effect as the JSON keys) ---- */
RG_API int rg_scenario_set_reward(rg_scenario *sc, unsigned player, const char *variable, const rg_reward_spec *spec);
RG_API int rg_scenario_set_time_reward(rg_scenario *sc, unsigned player, const rg_reward_spec *spec);
/** Adds a done test to the top-level done node. */
RG_API int rg_scenario_set_done(rg_scenario *sc, const char *variable, const rg_done_spec *spec);
/** 1: all tests must fire; 0: any (the default). */
RG_API int rg_scenario_set_done_condition(rg_scenario *sc, int all);
/** Lua function names ("lua:name" or "name"); NULL clears. */
RG_API int rg_scenario_set_reward_script(rg_scenario *sc, unsigned player, const char *function);
RG_API int rg_scenario_set_done_script(rg_scenario *sc, const char *function);
/** Adds a Lua file to load at each reset. */
RG_API int rg_scenario_add_script_file(rg_scenario *sc, const char *path);
/** Lua source to load at each reset, after the files (for tools and tests). */
RG_API int rg_scenario_add_script_source(rg_scenario *sc, const char *name, const char *source);
RG_API int rg_scenario_set_script_limits(rg_scenario *sc, const rg_script_limits *limits);

/* ---- reading the definition ---- */
/** The crop of a player's observation: x, y, w, h (w/h 0 = to the edge). */
RG_API void rg_scenario_crop(const rg_scenario *sc, unsigned player, unsigned out[4]);
/**
 * The scenario's "actions" override: groups of combos of button names. *n_groups is 0 when the scenario has none
 * (the system defaults apply). Names are borrowed until the next load.
 */
RG_API size_t rg_scenario_action_group_count(const rg_scenario *sc);
RG_API size_t rg_scenario_action_combo_count(const rg_scenario *sc, size_t group);
RG_API size_t rg_scenario_action_button_count(const rg_scenario *sc, size_t group, size_t combo);
RG_API const char *rg_scenario_action_button(const rg_scenario *sc, size_t group, size_t combo, size_t button);
/** Number of players with a reward definition (at least 1). */
RG_API unsigned rg_scenario_players(const rg_scenario *sc);

/* ---- evaluation ---- */
/**
 * Starts an episode: rewards, totals, done flag and frame counter to zero, the gamedata's custom variables cleared,
 * Lua interpreters recreated and their files executed again (top-level script state starts over).
 * @return RG_OK; RG_ECORRUPT/RG_EIO for a script that does not load; RG_ETIMEOUT when a script exceeds its
 *         instruction or time budget (RG_ENOMEM: its memory)
 */
RG_API int rg_scenario_reset(rg_scenario *sc, rg_gamedata *gd);
/**
 * One frame: rg_gamedata_update, then done, then the reward of every player (Lua functions in that order), totals
 * and frame counter. Allocates nothing unless a script does.
 * @return RG_OK; RG_ENOTFOUND (a variable the scenario uses is not in the gamedata); RG_ERANGE (its bytes are not
 *         mapped); RG_ETIMEOUT (a script exceeded its budget); RG_ECORRUPT (a script failed: message "Lua call
 *         failed: ...")
 */
RG_API int rg_scenario_update(rg_scenario *sc, rg_gamedata *gd);
/** Reward of the last update for a player (0 for players without a definition). */
RG_API float rg_scenario_reward(const rg_scenario *sc, unsigned player);
/** Sum of rewards since the last reset. */
RG_API float rg_scenario_total_reward(const rg_scenario *sc, unsigned player);
/** Done flag of the last update. */
RG_API int rg_scenario_done(const rg_scenario *sc);
/** Updates since the last reset. */
RG_API uint64_t rg_scenario_frame(const rg_scenario *sc);

#ifdef __cplusplus
}
#endif
#endif
