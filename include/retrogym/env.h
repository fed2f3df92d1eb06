/**
 * @file env.h
 * The environment: an integrated game (ROM, start state, data.json, scenario.json) behind reset/step, the way Gym
 * Retro's RetroEnv runs it (docs/formats.md, "Environment"), plus frame skip, sticky actions, max-pooling, no-op
 * starts, episode step limits and clone/restore. Observations are written into caller buffers; a step after reset
 * allocates nothing (unless a Lua script does). One handle per thread at a time; distinct handles are independent.
 */
#ifndef RETROGYM_ENV_H
#define RETROGYM_ENV_H

#include "export.h"
#include <retrogym/actions.h>
#include <retrogym/emu.h>
#include <retrogym/gamedata.h>
#include <retrogym/integration.h>
#include <retrogym/movie.h>
#include <retrogym/scenario.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rg_env rg_env;

/** How actions are given (Gym Retro's `Actions`). */
typedef enum rg_action_mode {
    RG_ACTIONS_ALL = 0,           /**< players x n_buttons values, each 0 or 1 (MultiBinary); no filtering */
    RG_ACTIONS_FILTERED = 1,      /**< the same, then combinations outside the action groups dropped (default) */
    RG_ACTIONS_DISCRETE = 2,      /**< one integer for all players: Discrete(prod(group sizes)^players) */
    RG_ACTIONS_MULTI_DISCRETE = 3 /**< players x n_groups integers, a combination index per group */
} rg_action_mode;

/** What an observation is (Gym Retro's `Observations`). */
typedef enum rg_obs_mode {
    RG_OBS_IMAGE = 0, /**< height x width x 3 RGB24 of the screen, cropped by the scenario */
    RG_OBS_RAM = 1    /**< every memory block, concatenated */
} rg_obs_mode;

/** The start-state choice of rg_env_options.state (Gym Retro's `State.DEFAULT` / `State.NONE`). */
#define RG_STATE_DEFAULT NULL
#define RG_STATE_NONE ""

/** The options layout this header declares. rg_env_create accepts versions RG_ENV_OPTIONS_VERSION_OLDEST ..
 *  RG_ENV_OPTIONS_VERSION (a program built against an older header keeps working) and refuses others with RG_EINVAL. */
#define RG_ENV_OPTIONS_VERSION 1
#define RG_ENV_OPTIONS_VERSION_OLDEST 1

/* Limits of rg_env_options, checked by rg_env_create (RG_EINVAL, the message names the limit). */
#define RG_ENV_MAX_FRAMESKIP 1000        /**< frameskip: frames per step */
#define RG_ENV_MAX_RESET_SEQUENCE 100000 /**< n_reset_sequence: frames */

/** Options of rg_env_create. Start from RG_ENV_OPTIONS_INIT or rg_env_options_init(): fields not set keep their
 *  defaults, and fields a later version adds are defaulted the same way. */
typedef struct rg_env_options {
    unsigned version;           /**< RG_ENV_OPTIONS_VERSION */
    const char *game;           /**< integration name, e.g. "StarCatcher-Nes" (required) */
    const char *state;          /**< RG_STATE_DEFAULT (metadata.json), RG_STATE_NONE (power-on), a state name in
                                     the game folder (".state" optional) or a path to a .state file */
    const char *scenario;       /**< NULL: "scenario"; a name in the game folder or a path ending in .json */
    const char *info;           /**< NULL: "data"; the same rules */
    rg_action_mode actions;     /**< default RG_ACTIONS_FILTERED */
    rg_obs_mode obs;            /**< default RG_OBS_IMAGE */
    unsigned players;           /**< 1 (default) .. RG_SCENARIO_MAX_PLAYERS */
    const rg_integration_paths *paths;  /**< where games are found (borrowed during create); NULL: a default handle */
    unsigned integrations;      /**< RG_INTEGRATIONS_* flags; 0: the handle's default */
    const char *core;           /**< NULL: the system's preferred installed core */
    const rg_core_option *core_options;
    size_t n_core_options;
    unsigned frameskip;         /**< frames per step (at most RG_ENV_MAX_FRAMESKIP), 0 or 1: one (Gym Retro); rewards
                                     summed */
    double sticky_prob;         /**< per frame, the previous frame's buttons are kept with this probability */
    int max_pool;               /**< image observation = per-pixel max of the last two frames of a step */
    unsigned noop_max;          /**< reset runs a random number in [0, noop_max] of no-op steps */
    uint64_t max_episode_steps; /**< truncated after this many steps; 0: never */
    rg_log_fn log;              /**< core and library messages (NULL: dropped) */
    void *log_user;
    rg_log_level log_level;     /**< default RG_LOG_WARN */
    const char *rom;            /**< NULL: the game's rom.<ext> found over `paths`; else this ROM file, and `game`
                                     may then name no integration (its data files are still looked up by name) */
    /** A console's own start sequence from power-on, e.g. ALE's reset on the Atari 2600 (60 no-op frames, then the
     *  console's RESET switch held, docs/python.md "Atari (ALE conventions)"): player 1's buttons (bit i = button i
     *  of the system) for each of n_reset_sequence frames (at most RG_ENV_MAX_RESET_SEQUENCE), run after a power-on
     *  reset. Needs a power-on start (state RG_STATE_NONE). The sequence is deterministic, so it runs once at
     *  creation and its end becomes the start state every reset loads (rg_env_start_state gives it; setting another
     *  start state replaces it). NULL/0: none. Copied during create. */
    const uint16_t *reset_sequence;
    size_t n_reset_sequence;
} rg_env_options;

/** The defaults, as an initialiser: `rg_env_options o = RG_ENV_OPTIONS_INIT;` (fields not named are zero/NULL). */
#define RG_ENV_OPTIONS_INIT                                                                                        \
    {                                                                                                              \
        .version = RG_ENV_OPTIONS_VERSION, .state = RG_STATE_DEFAULT, .actions = RG_ACTIONS_FILTERED,              \
        .obs = RG_OBS_IMAGE, .players = 1, .frameskip = 1, .log_level = RG_LOG_WARN                                \
    }

/** The same defaults set on an existing struct (also from C++ and bindings, where the initialiser is not C). Inline:
 *  it writes the struct as this header declares it. */
static inline void rg_env_options_init(rg_env_options *o)
{
    o->version = RG_ENV_OPTIONS_VERSION;
    o->game = NULL;
    o->state = RG_STATE_DEFAULT;
    o->scenario = NULL;
    o->info = NULL;
    o->actions = RG_ACTIONS_FILTERED;
    o->obs = RG_OBS_IMAGE;
    o->players = 1;
    o->paths = NULL;
    o->integrations = 0;
    o->core = NULL;
    o->core_options = NULL;
    o->n_core_options = 0;
    o->frameskip = 1;
    o->sticky_prob = 0.0;
    o->max_pool = 0;
    o->noop_max = 0;
    o->max_episode_steps = 0;
    o->log = NULL;
    o->log_user = NULL;
    o->log_level = RG_LOG_WARN;
    o->rom = NULL;
    o->reset_sequence = NULL;
    o->n_reset_sequence = 0;
}

/** The result of a step. */
typedef struct rg_step_result {
    float rewards[RG_SCENARIO_MAX_PLAYERS]; /**< summed over the step's frames, per player */
    int terminated;                         /**< the scenario's done */
    int truncated;                          /**< max_episode_steps reached (and not terminated) */
    unsigned frames;                        /**< frames run (fewer than frameskip when done came first) */
} rg_step_result;

/**
 * Opens the game: ROM, data, scenario, start state, the emulator (two frames run, as Gym Retro does).
 * @return RG_OK; RG_ENOTFOUND (no such game, no ROM imported for it — the message says how to import —, a missing
 *         state or scenario file that was named explicitly, no core); RG_EINVAL (bad options); RG_ECORRUPT (bad
 *         data/scenario/state files); what rg_emu_open returns
 */
RG_API int rg_env_create(rg_env **out, const rg_env_options *opts);
RG_API void rg_env_free(rg_env *env);

/* ---- spaces ---- */
RG_API rg_action_mode rg_env_action_mode(const rg_env *env);
RG_API unsigned rg_env_players(const rg_env *env);
/** Buttons per player (the system's "buttons" length; MultiBinary size per player). */
RG_API unsigned rg_env_num_buttons(const rg_env *env);
/** Button name of index i, NULL for an unused index. */
RG_API const char *rg_env_button_name(const rg_env *env, unsigned i);
/** The action groups in force (scenario override or system default). Borrowed for the env's life. */
RG_API const rg_actionset *rg_env_actionset(const rg_env *env);
/** DISCRETE: the number of actions for all players together (prod(group sizes)^players); 0 when over
 *  RG_ACTIONS_MAX_DISCRETE (an env in DISCRETE mode is then refused at creation, naming the limit). */
RG_API uint64_t rg_env_discrete_count(const rg_env *env);
/** Observation shape: IMAGE height, width, 3; RAM bytes, 1, 1. */
RG_API void rg_env_obs_shape(const rg_env *env, unsigned *height, unsigned *width, unsigned *channels);
RG_API size_t rg_env_obs_size(const rg_env *env);
RG_API const rg_system_info *rg_env_system(const rg_env *env);
RG_API const char *rg_env_game(const rg_env *env);
/** Name of the start state in use ("" when none). */
RG_API const char *rg_env_state_name(const rg_env *env);

/* ---- episodes ---- */
/**
 * Starts an episode: reseeds the env's random generator when seeded (else continues it), loads the start state or
 * does a power-on reset, clears the buttons, runs one frame, resets the scenario, updates it once, then runs the
 * no-op starts. Writes the observation into obs (cap bytes, at least rg_env_obs_size; obs may be NULL).
 * @return RG_OK; RG_EBUFFER (obs given and cap under rg_env_obs_size); what the scenario reset returns (RG_ETIMEOUT:
 *         a Lua script ran past its budget)
 */
RG_API int rg_env_reset(rg_env *env, int seeded, uint64_t seed, uint8_t *obs, size_t cap);
/**
 * One step. `action` holds `n` integers as the action mode says (rg_env_action_length). Allocates nothing.
 * @return RG_OK; RG_EMISUSE (no reset yet); RG_EINVAL (wrong length); RG_ERANGE (an id out of range; a variable
 *         that is not mapped); RG_EBUFFER (obs given and cap under rg_env_obs_size); what the scenario update returns
 *         (RG_ETIMEOUT: a Lua script ran past its budget)
 */
RG_API int rg_env_step(rg_env *env, const int64_t *action, size_t n, uint8_t *obs, size_t cap, rg_step_result *result);
/** Number of integers a step's action has in this mode. */
RG_API size_t rg_env_action_length(const rg_env *env);
/** Buttons a step's action means for a player (decoded and filtered exactly as rg_env_step does). */
RG_API int rg_env_decode_action(const rg_env *env, const int64_t *action, size_t n,
                                uint16_t buttons[RG_SCENARIO_MAX_PLAYERS]);
/** The current observation again (no emulation). @return RG_OK; RG_EBUFFER (cap too small) */
RG_API int rg_env_observe(const rg_env *env, uint8_t *obs, size_t cap);
/** Steps since the last reset. */
RG_API uint64_t rg_env_episode_steps(const rg_env *env);

/* ---- info and data ---- */
/** The game's variables and scenario (borrowed; valid for the env's life). */
RG_API rg_gamedata *rg_env_gamedata(rg_env *env);
RG_API rg_scenario *rg_env_scenario(rg_env *env);
RG_API rg_emu *rg_env_emu(rg_env *env);
/**
 * `info` of the last step: every readable data.json variable (masked value) and every custom variable (truncated to
 * an integer, booleans 0/1, nil 0), in name order, data variables first.
 */
RG_API size_t rg_env_info_count(const rg_env *env);
RG_API int rg_env_info_at(const rg_env *env, size_t i, const char **name, int64_t *value);

/* ---- start state and clone/restore ---- */
/** Replaces the start state used by later resets (a name in the game folder or a path; RG_STATE_NONE clears it). */
RG_API int rg_env_set_start_state(rg_env *env, const char *state);
/** The start state later resets load, as the raw core state kept (*data NULL and *len 0: power-on). Borrowed until
 *  the start state changes or the env is freed. */
RG_API int rg_env_start_state(const rg_env *env, const void **data, size_t *len);
/**
 * Replaces the start state with a raw core state (stable-retro's `env.initial_state = movie.get_state()`); len 0:
 * power-on. The bytes are copied and kept as given once the core has accepted them (tried inside a snapshot of the
 * environment that is put back, so the running episode is not disturbed).
 * @return RG_OK; RG_EINVAL; RG_ESTATE (the core refuses them; the previous start state stays); RG_ENOMEM
 */
RG_API int rg_env_set_start_state_data(rg_env *env, const void *data, size_t len);
/**
 * Snapshot of the whole environment: emulator, scenario (totals, done, frame counter, remembered values, custom
 * variables, the Lua scripts' global numbers, strings and booleans), random generator, sticky buttons, step
 * count, and the image observation of the moment (a state load does not redraw the screen: after a restore,
 * rg_env_observe shows the snapshot's observation until the next step or reset). Flat bytes: they can be stored and restored into any env of the same game and core with the same players,
 * action and observation modes, frame skip and sticky probability (others are refused with RG_ECORRUPT).
 * @return RG_OK; RG_ETOOBIG when the scripts' globals would take more than 1 MiB of it (docs/reliability.md: large
 *         data belongs in locals or tables, which snapshots do not hold); RG_EBUFFER (rg_env_clone: cap too small)
 */
RG_API int rg_env_clone_size(rg_env *env, size_t *size);
RG_API int rg_env_clone(rg_env *env, void *dst, size_t cap, size_t *written);
/** @return RG_OK; RG_ECORRUPT (not a snapshot of this kind of env); RG_ESTATE (the emulator refused it) */
RG_API int rg_env_restore(rg_env *env, const void *src, size_t len);

/* ---- recording movies (docs/formats.md, "Movies"; the format is movie.h's) ---- */
/*
 * A recorded episode is a stable-retro `.bk2`: its start state as Core.bin (none after a power-on reset), line 1 the
 * reset frame with no buttons, then the no-op starts, then every frame of every step with the buttons held on it
 * (sticky actions and frame skip included: a step of K frames writes K lines). The rewards and done the scenario gave
 * on each frame go into an extra entry, `retrogym.txt`, that stable-retro ignores (docs/compat.md "Movies"); the
 * playback functions below check them. Recording changes nothing in what the environment returns; a step then costs
 * the movie's frame (amortized growth of its arrays) and nothing else unless a reward or done is recorded.
 *
 * An episode's movie is written when the episode ends (a step that is terminated or truncated), at the next reset,
 * at rg_env_record_stop and at rg_env_free, whichever comes first; frames run after a terminated step are not
 * recorded. Restoring a snapshot (rg_env_restore) does not rewind a movie: record whole episodes. A failure to write
 * (or to grow the movie) stops the recording; the reset or step that met it completes and then returns the error.
 */

/**
 * Records every episode from now on into its own movie in the folder `dir` (it must exist), named as stable-retro
 * names them: `<game>-<state stem>-<NNNNNN>.bk2` (`%06d` of a counter starting at first_id; state stem "none" after a
 * power-on start). The current episode is recorded too when nothing was taken since its reset (no step, no
 * rg_env_restore, no rg_env_set_start_state); otherwise recording starts at the next reset. A movie being recorded is
 * written first.
 * @return RG_OK; RG_EINVAL; RG_ENOTFOUND (no such folder); what writing the previous movie returns
 */
RG_API int rg_env_record_dir(rg_env *env, const char *dir, uint64_t first_id);
/**
 * Records one episode into the file `path` (its folder must exist): the current episode when nothing was taken since
 * its reset (as for rg_env_record_dir), else the next one. Recording stops when that movie is written.
 * @return as rg_env_record_dir
 */
RG_API int rg_env_record_movie(rg_env *env, const char *path);
/** Stops recording; a movie being recorded is written. @return RG_OK (also when not recording); RG_EIO; RG_ENOMEM */
RG_API int rg_env_record_stop(rg_env *env);
/** The movie being recorded (borrowed until the env's next reset, step, record call or free), or NULL. */
RG_API const rg_movie *rg_env_movie(const rg_env *env);
/** The file of the movie being recorded, or waiting for its episode to start; NULL when not recording. Borrowed. */
RG_API const char *rg_env_movie_path(const rg_env *env);
/** The folder of rg_env_record_dir, NULL otherwise. Borrowed. */
RG_API const char *rg_env_record_folder(const rg_env *env);
/** The number the folder's next movie will carry (stable-retro's movie_id); 0 when not recording into a folder. */
RG_API uint64_t rg_env_movie_id(const rg_env *env);

/* ---- playing movies back ---- */

/** rg_env_create_playback flag: the emulator keeps each frame's audio (rg_emu_audio on rg_env_emu), for videos. */
#define RG_PLAYBACK_AUDIO 1u

/**
 * Creates an environment that plays `movie` back (stable-retro's playback_movie): the game named by the movie's
 * GameName (opts->game overrides it, and must be given for a movie without one, e.g. FM2), the movie's players, its
 * Core.bin as start state (power-on without one), RG_ACTIONS_ALL, one frame per step, no sticky actions, no no-op
 * starts, no step limit. The other options (paths, integrations, scenario, info, observations, core, log) come from
 * opts (NULL: defaults). Then rg_env_reset runs frame 0 (stable-retro ignores that frame's buttons; so do we) and
 * rg_env_playback_step plays frames 1, 2, ... rg_movie_frame_count - 1.
 * @return RG_OK; what rg_env_create returns; RG_EINVAL (the movie names no game, is for another system than the
 *         game's, or is being written); RG_EUNSUPPORTED (more players than RG_SCENARIO_MAX_PLAYERS); RG_ESTATE
 *         (Core.bin does not load into the core: a movie of another core)
 */
RG_API int rg_env_create_playback(rg_env **out, const rg_movie *movie, const rg_env_options *opts, unsigned flags);
/**
 * Plays frame `frame` (>= 1) of the movie as one step of an env in RG_ACTIONS_ALL with the movie's players: its
 * console commands first (RG_MOVIE_CMD_POWER: power-on reset, RG_MOVIE_CMD_RESET: soft reset), then its buttons.
 * @return what rg_env_step returns; RG_ERANGE (no such frame); RG_EINVAL (an env of another action mode or players)
 */
RG_API int rg_env_playback_step(rg_env *env, const rg_movie *movie, uint64_t frame, uint8_t *obs, size_t cap,
                                rg_step_result *result);

/* The rewards recorded with a movie (rg_movie_scores_read, ...) are read by the movie layer: movie.h, included above. */

#ifdef __cplusplus
}
#endif
#endif
