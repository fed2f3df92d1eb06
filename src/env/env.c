/* The environment's life: create, free, accessors, the random generator. */
#include "env_internal.h"

#include "emu/state_core.h"

#include "retrogym/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t rg__env_random(rg_env *env)
{
    uint64_t z = (env->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double rg__env_uniform(rg_env *env)
{
    return (double)(rg__env_random(env) >> 11) * (1.0 / 9007199254740992.0);
}

static int check_options(const rg_env_options *o)
{
    if (o->version < RG_ENV_OPTIONS_VERSION_OLDEST || o->version > RG_ENV_OPTIONS_VERSION)
        return rg__error(RG_EINVAL, "rg_env_options.version is %u; this library accepts %d..%d (start from "
                         "RG_ENV_OPTIONS_INIT or rg_env_options_init)", o->version, RG_ENV_OPTIONS_VERSION_OLDEST,
                         RG_ENV_OPTIONS_VERSION);
    if (!o->game || !*o->game)
        return rg__error(RG_EINVAL, "no game given");
    if ((unsigned)o->actions > RG_ACTIONS_MULTI_DISCRETE)
        return rg__error(RG_EINVAL, "unknown action mode %d", (int)o->actions);
    if ((unsigned)o->obs > RG_OBS_RAM)
        return rg__error(RG_EINVAL, "unknown observation mode %d", (int)o->obs);
    if (o->players < 1 || o->players > RG_SCENARIO_MAX_PLAYERS)
        return rg__error(RG_EINVAL, "players must be 1..%d (RG_SCENARIO_MAX_PLAYERS), not %u",
                         RG_SCENARIO_MAX_PLAYERS, o->players);
    if (o->integrations & ~(unsigned)RG_INTEGRATIONS_ALL)
        return rg__error(RG_EINVAL, "integration flags 0x%x are not RG_INTEGRATIONS_* flags (at most 0x%x)",
                         o->integrations, (unsigned)RG_INTEGRATIONS_ALL);
    if ((unsigned)o->log_level > RG_LOG_NONE)
        return rg__error(RG_EINVAL, "log level %d is not in %d..%d", (int)o->log_level, RG_LOG_DEBUG, RG_LOG_NONE);
    if (!(o->sticky_prob >= 0.0 && o->sticky_prob <= 1.0))
        return rg__error(RG_EINVAL, "sticky action probability %g is not in [0, 1]", o->sticky_prob);
    if (o->frameskip > RG_ENV_MAX_FRAMESKIP)
        return rg__error(RG_EINVAL, "frameskip %u is not in 1..%d (RG_ENV_MAX_FRAMESKIP)", o->frameskip,
                         RG_ENV_MAX_FRAMESKIP);
    if (o->n_reset_sequence && !o->reset_sequence)
        return rg__error(RG_EINVAL, "reset_sequence is NULL but n_reset_sequence is %zu", o->n_reset_sequence);
    if (o->n_reset_sequence > RG_ENV_MAX_RESET_SEQUENCE)
        return rg__error(RG_EINVAL, "reset_sequence of %zu frames: at most %d (RG_ENV_MAX_RESET_SEQUENCE)",
                         o->n_reset_sequence, RG_ENV_MAX_RESET_SEQUENCE);
    return RG_OK;
}

int rg_env_create(rg_env **out, const rg_env_options *opts)
{
    return rg__env_create(out, opts, 0);
}

static int create_once(rg_env **out, const rg_env_options *opts, int capture_audio, char *tried, size_t cap);

/* After every installed core of the system refused the start state: the command that installs one that is not here
 * yet, or what else to do. */
static void refused_hint(const rg_system_info *sys, char *buf, size_t cap)
{
    const char *missing[16];
    size_t n = 0;
    for (size_t i = 0; i < sys->n_cores && n < sizeof missing / sizeof missing[0]; i++)
        if (!rg__core_available(sys->cores[i]))
            missing[n++] = sys->cores[i];
    char install[256];
    if (n && rg_core_install_hint(missing, n, install, sizeof install) == RG_OK)
        snprintf(buf, cap, "the state may have been saved by a core that is not installed: %s", install);
    else
        snprintf(buf, cap, "the state was saved by another core or version than those installed; name the core "
                           "that saved it");
}

int rg__env_create(rg_env **out, const rg_env_options *opts, int capture_audio)
{
    char tried[128] = "";
    int rc = create_once(out, opts, capture_audio, tried, sizeof tried);
    /* A start state the chosen core refuses (the state's file names no core we know, or a damaged one) is tried with
     * the other installed cores of the system's list, unless the caller named one. */
    /* So is a ROM the system's first core cannot run (RG_EUNSUPPORTED before any core opened: a built-in core
     * without the cartridge's mapper, e.g. our NES core and MMC5); when no other core runs it, that error stays. */
    const rg_system_info *sys;
    int rom_refused = rc == RG_EUNSUPPORTED && !tried[0];
    if ((rc != RG_ESTATE && !rom_refused) || !opts || opts->core || !opts->game ||
        rg_integration_game_system(opts->game, &sys) != RG_OK)
        return rc;
    char first_error[512];
    snprintf(first_error, sizeof first_error, "%s", rg_error_last());
    for (size_t i = 0; i < sys->n_cores; i++) {
        if (strcmp(sys->cores[i], tried) == 0 || !rg__core_available(sys->cores[i]))
            continue; /* the one that just failed, or not here */
        rg_env_options o = *opts;
        o.core = sys->cores[i];
        if (create_once(out, &o, capture_audio, NULL, 0) == RG_OK) {
            rg__logger lg = {opts->log, opts->log_user, opts->log_level};
            if (rom_refused)
                rg__log(&lg, RG_LOG_WARN, "%s: the system's first core cannot run the ROM, so core %s runs the game "
                        "instead (reason: %s)", opts->game, sys->cores[i], first_error);
            else
                rg__log(&lg, RG_LOG_WARN, "%s: the start state does not load in core %s, so core %s runs the game "
                        "instead (reason: %s)", opts->game, tried[0] ? tried : "(default)", sys->cores[i],
                        first_error);
            return RG_OK;
        }
    }
    if (rom_refused)
        return rg__error(RG_EUNSUPPORTED, "%s", first_error);
    char hint[512];
    refused_hint(sys, hint, sizeof hint);
    return rg__error(RG_ESTATE, "%s (no other installed core of %s loads it either; %s)", first_error, sys->name,
                     hint);
}

/* One try; on failure, tried (when given) names the core that was opened, or stays empty. */
static int create_once(rg_env **out, const rg_env_options *opts, int capture_audio, char *tried, size_t cap)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_env_create: NULL argument");
    *out = NULL;
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    if (opts)
        o = *opts;
    int rc = check_options(&o);
    if (rc != RG_OK)
        return rc;
    rg_env *env = calloc(1, sizeof *env);
    if (!env)
        return rg__error(RG_ENOMEM, "out of memory");
    env->actions = o.actions;
    env->obs = o.obs;
    env->players = o.players;
    env->frameskip = o.frameskip ? o.frameskip : 1;
    env->sticky_prob = o.sticky_prob;
    env->max_pool = o.max_pool && o.obs == RG_OBS_IMAGE;
    env->noop_max = o.noop_max;
    env->max_steps = o.max_episode_steps;
    env->capture_audio = capture_audio;
    if (!(env->game = rg__strdup(o.game, &rc)) || !(env->state_name = rg__strdup("", &rc))) {
        rg_env_free(env);
        return rc;
    }
    rg_integration_paths *own = NULL;
    if (!o.paths && (rc = rg_integration_paths_create(&own, NULL)) != RG_OK) {
        rg_env_free(env);
        return rc;
    }
    rc = rg__env_open(env, &o, o.paths ? o.paths : own);
    rg_integration_paths_free(own);
    if (rc != RG_OK) {
        if (tried && cap && env->emu)
            snprintf(tried, cap, "%s", rg_emu_core_name(env->emu));
        rg_env_free(env);
        return rc;
    }
    *out = env;
    return RG_OK;
}

void rg_env_free(rg_env *env)
{
    if (!env)
        return;
    rg__env_record_free(env);
    rg_actionset_free(env->as);
    rg_scenario_free(env->sc);
    rg_gamedata_free(env->gd);
    rg_emu_free(env->emu);
    free(env->start_state);
    free(env->start_file);
    free(env->frame);
    free(env->pool);
    free(env->restored_obs);
    free(env->game);
    free(env->game_dir);
    free(env->state_name);
    free(env);
}

rg_action_mode rg_env_action_mode(const rg_env *env)
{
    return env ? env->actions : RG_ACTIONS_FILTERED;
}

unsigned rg_env_players(const rg_env *env)
{
    return env ? env->players : 0;
}

unsigned rg_env_num_buttons(const rg_env *env)
{
    return env ? env->n_buttons : 0;
}

const char *rg_env_button_name(const rg_env *env, unsigned i)
{
    return env && i < env->n_buttons && i < RG_MAX_BUTTONS ? env->sys->buttons[i] : NULL;
}

const rg_actionset *rg_env_actionset(const rg_env *env)
{
    return env ? env->as : NULL;
}

uint64_t rg_env_discrete_count(const rg_env *env)
{
    if (!env)
        return 0;
    uint64_t per = rg_actionset_discrete_count(env->as), n = 1;
    for (unsigned p = 0; p < env->players; p++) {
        if (per == 0 || n > RG_ACTIONS_MAX_DISCRETE / per)
            return 0; /* over RG_ACTIONS_MAX_DISCRETE: refused at creation in DISCRETE mode */
        n *= per;
    }
    return n;
}

size_t rg_env_action_length(const rg_env *env)
{
    if (!env)
        return 0;
    switch (env->actions) {
    case RG_ACTIONS_DISCRETE: return 1;
    case RG_ACTIONS_MULTI_DISCRETE: return (size_t)env->players * env->n_groups;
    default: return (size_t)env->players * env->n_buttons;
    }
}

const rg_system_info *rg_env_system(const rg_env *env)
{
    return env ? env->sys : NULL;
}

const char *rg_env_game(const rg_env *env)
{
    return env ? env->game : NULL;
}

const char *rg_env_state_name(const rg_env *env)
{
    return env ? env->state_name : NULL;
}

uint64_t rg_env_episode_steps(const rg_env *env)
{
    return env ? env->steps : 0;
}

rg_gamedata *rg_env_gamedata(rg_env *env)
{
    return env ? env->gd : NULL;
}

rg_scenario *rg_env_scenario(rg_env *env)
{
    return env ? env->sc : NULL;
}

rg_emu *rg_env_emu(rg_env *env)
{
    return env ? env->emu : NULL;
}

size_t rg_env_info_count(const rg_env *env)
{
    return env ? rg_gamedata_variable_count(env->gd) + rg_gamedata_custom_count(env->gd) : 0;
}

int rg_env_info_at(const rg_env *env, size_t i, const char **name, int64_t *value)
{
    if (!env || !name || !value)
        return rg__error(RG_EINVAL, "rg_env_info_at: NULL argument");
    size_t nv = rg_gamedata_variable_count(env->gd);
    if (i < nv) {
        rg_variable v;
        int rc = rg_gamedata_variable_at(env->gd, i, &v);
        if (rc != RG_OK)
            return rc;
        *name = v.name;
        return rg_gamedata_get(env->gd, v.name, value);
    }
    rg_value cv;
    int rc = rg_gamedata_custom_at(env->gd, i - nv, name, &cv);
    if (rc != RG_OK)
        return rc;
    *value = rg__double_to_i64(cv.number);
    return RG_OK;
}

int rg_env_set_start_state(rg_env *env, const char *state)
{
    if (!env)
        return rg__error(RG_EINVAL, "rg_env_set_start_state: NULL argument");
    /* Load it through a scratch snapshot so a bad file changes nothing. */
    size_t size;
    int rc = rg_env_clone_size(env, &size);
    void *keep = rc == RG_OK ? malloc(size) : NULL;
    if (!keep)
        return rc != RG_OK ? rc : rg__error(RG_ENOMEM, "out of memory");
    if ((rc = rg_env_clone(env, keep, size, &size)) != RG_OK) {
        free(keep);
        return rc;
    }
    uint8_t *old = env->start_state, *old_file = env->start_file;
    size_t old_len = env->start_len, old_file_len = env->start_file_len;
    env->start_state = env->start_file = NULL;
    env->start_len = env->start_file_len = 0;
    if (state && state[0])
        rc = rg__env_load_start_state(env, NULL, 0, state);
    int back = rg_env_restore(env, keep, size);
    free(keep);
    if (rc != RG_OK) {
        free(env->start_state);
        free(env->start_file);
        env->start_state = old;
        env->start_len = old_len;
        env->start_file = old_file;
        env->start_file_len = old_file_len;
        return rc;
    }
    free(old);
    free(old_file);
    if (!env->start_state) {
        free(env->state_name);
        env->state_name = rg__strdup("", &rc);
    }
    return back;
}
