/* Playing a movie back through an environment (stable-retro's playback_movie, docs/formats.md, "Movies"): the game and
 * players the movie names, its Core.bin as start state, every frame a step of one frame with its buttons. */
#include "env_internal.h"

#include "emu/state_core.h"

#include <stdlib.h>
#include <string.h>

/* Uses the movie's Core.bin as the start state of every reset; refused when the core cannot load it. */
static int adopt_state(rg_env *env, const rg_movie *movie)
{
    const uint8_t *data;
    size_t size;
    rg_movie_state(movie, &data, &size);
    if (size == 0)
        return RG_OK; /* power-on start */
    int rc = rg_emu_state_load(env->emu, data, size);
    if (rc != RG_OK)
        return rg__error_context(rc, "the movie's start state (Core.bin, %zu bytes) does not load into core %s "
                                     "(recorded with another core?)",
                              size, rg_emu_core_name(env->emu));
    if (!(env->start_state = malloc(size)))
        return rg__error(RG_ENOMEM, "out of memory");
    memcpy(env->start_state, data, size);
    env->start_len = size;
    free(env->state_name);
    env->state_name = rg__strdup("Core.bin", &rc);
    return rc;
}

/* The environment of the movie's game on core o->core (NULL: as rg_env_create picks it), its Core.bin adopted. */
static int create_adopt(rg_env **out, const rg_movie *movie, const rg_env_options *o, unsigned flags)
{
    rg_env *env;
    int rc = rg__env_create(&env, o, (flags & RG_PLAYBACK_AUDIO) != 0);
    if (rc != RG_OK)
        return rc;
    const rg_system_info *sys = rg_movie_system(movie);
    if (sys != env->sys && strcmp(sys->name, env->sys->name) != 0)
        rc = rg__error(RG_EINVAL, "the movie is for %s, but game %s is a %s game", sys->name, env->game,
                       env->sys->name);
    if (rc == RG_OK)
        rc = adopt_state(env, movie);
    if (rc != RG_OK) {
        rg_env_free(env);
        return rc;
    }
    *out = env;
    return RG_OK;
}

int rg_env_create_playback(rg_env **out, const rg_movie *movie, const rg_env_options *opts, unsigned flags)
{
    if (!out || !movie)
        return rg__error(RG_EINVAL, "rg_env_create_playback: NULL argument");
    *out = NULL;
    if (rg_movie_is_writing(movie))
        return rg__error(RG_EINVAL, "a movie being recorded cannot be played back (close it and open it again)");
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    if (opts)
        o = *opts;
    if (!o.game || !*o.game)
        o.game = rg_movie_game(movie);
    if (!o.game || !*o.game)
        return rg__error(RG_EINVAL, "the movie names no game (an FM2 movie?): say which game it plays");
    unsigned players = rg_movie_players(movie);
    if (players > RG_SCENARIO_MAX_PLAYERS)
        return rg__error(RG_EUNSUPPORTED, "the movie has %u players; an environment has at most %d", players,
                         RG_SCENARIO_MAX_PLAYERS);
    o.players = players;
    o.state = RG_STATE_NONE;
    o.actions = RG_ACTIONS_ALL;
    o.frameskip = 1;
    o.sticky_prob = 0.0;
    o.max_pool = 0;
    o.noop_max = 0;
    o.max_episode_steps = 0;
    /* No core named: the core that reads the movie's Core.bin (its signature, as for start states: src/emu
     * state_core.c); when that core refuses it, the system's other installed cores in turn. */
    const rg_system_info *sys = rg_movie_system(movie);
    const uint8_t *data;
    size_t size;
    rg_movie_state(movie, &data, &size);
    int pick = !o.core && size && sys;
    if (pick)
        o.core = rg__core_for_state_data(data, size, sys);
    int rc = create_adopt(out, movie, &o, flags);
    if (rc != RG_ESTATE || !pick)
        return rc;
    char first_error[512];
    snprintf(first_error, sizeof first_error, "%s", rg_error_last());
    const char *tried = o.core;
    for (size_t i = 0; i < sys->n_cores; i++) {
        if ((tried && strcmp(sys->cores[i], tried) == 0) || !rg__core_available(sys->cores[i]))
            continue;
        o.core = sys->cores[i];
        if (create_adopt(out, movie, &o, flags) == RG_OK)
            return RG_OK;
    }
    return rg__error(RG_ESTATE, "%s", first_error);
}

int rg_env_playback_step(rg_env *env, const rg_movie *movie, uint64_t frame, uint8_t *obs, size_t cap,
                         rg_step_result *result)
{
    if (!env || !movie || !result)
        return rg__error(RG_EINVAL, "rg_env_playback_step: NULL argument");
    unsigned players = rg_movie_players(movie);
    if (env->actions != RG_ACTIONS_ALL || env->players != players)
        return rg__error(RG_EINVAL, "playing back needs an environment in RG_ACTIONS_ALL with the movie's %u "
                                    "players (see rg_env_create_playback)",
                         players);
    if (frame == 0 || frame >= rg_movie_frame_count(movie))
        return rg__error(RG_ERANGE, "the movie has no frame %llu to step (frames 1 .. %llu; frame 0 is the reset)",
                         (unsigned long long)frame, (unsigned long long)rg_movie_frame_count(movie));
    if (!env->started)
        return rg__error(RG_EMISUSE, "reset the environment before stepping it");
    unsigned cmds = 0;
    rg_movie_frame_commands(movie, frame, &cmds);
    int rc = RG_OK;
    if (cmds & RG_MOVIE_CMD_POWER)
        rc = rg_emu_reset(env->emu);
    else if (cmds & RG_MOVIE_CMD_RESET)
        rc = rg_emu_soft_reset(env->emu);
    if (rc != RG_OK)
        return rc;
    int64_t action[RG_SCENARIO_MAX_PLAYERS * RG_MAX_BUTTONS];
    size_t n = (size_t)players * env->n_buttons;
    for (unsigned p = 0; p < players; p++) {
        uint16_t mask = 0;
        rg_movie_frame_buttons(movie, frame, p, &mask);
        for (unsigned i = 0; i < env->n_buttons; i++)
            action[(size_t)p * env->n_buttons + i] = (mask >> i) & 1u;
    }
    return rg_env_step(env, action, n, obs, cap, result);
}
