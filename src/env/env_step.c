/* Episodes: reset and step (docs/formats.md, "Environment"), with frame skip, sticky actions, max-pooling and no-op
 * starts. */
#include "env_internal.h"
#include "env_maxpool.h"

#include "game/snapshot.h"

#include <string.h>

int rg_env_decode_action(const rg_env *env, const int64_t *action, size_t n, uint16_t buttons[RG_SCENARIO_MAX_PLAYERS])
{
    if (!env || (!action && n) || !buttons)
        return rg__error(RG_EINVAL, "rg_env_decode_action: NULL argument");
    size_t want = rg_env_action_length(env);
    if (n != want)
        return rg__error(RG_EINVAL, "an action of %zu values given, %zu expected", n, want);
    memset(buttons, 0, RG_SCENARIO_MAX_PLAYERS * sizeof *buttons);
    switch (env->actions) {
    case RG_ACTIONS_DISCRETE: {
        if (action[0] < 0 || (uint64_t)action[0] >= rg_env_discrete_count(env))
            return rg__error(RG_ERANGE, "action %lld is not in [0, %llu)", (long long)action[0],
                             (unsigned long long)rg_env_discrete_count(env));
        uint64_t rest = (uint64_t)action[0];
        for (unsigned p = 0; p < env->players; p++) /* player 2 goes on consuming the same number */
            buttons[p] = (uint16_t)rg_actionset_discrete(env->as, &rest);
        return RG_OK;
    }
    case RG_ACTIONS_MULTI_DISCRETE:
        for (unsigned p = 0; p < env->players; p++) { /* player p's slice starts at p * groups (reference bug fixed) */
            uint32_t b;
            int rc = rg_actionset_multi_discrete(env->as, action + (size_t)p * env->n_groups, env->n_groups, &b);
            if (rc != RG_OK)
                return rc;
            buttons[p] = (uint16_t)b;
        }
        return RG_OK;
    default:
        for (unsigned p = 0; p < env->players; p++) {
            uint32_t b = 0;
            for (unsigned i = 0; i < env->n_buttons; i++)
                if (action[(size_t)p * env->n_buttons + i] != 0) /* any non-zero value presses (reference: int << i) */
                    b |= 1u << i;
            buttons[p] = (uint16_t)(env->actions == RG_ACTIONS_FILTERED ? rg_actionset_filter(env->as, b) : b);
        }
        return RG_OK;
    }
}

static void press(rg_env *env, const uint16_t want[RG_SCENARIO_MAX_PLAYERS])
{
    for (unsigned p = 0; p < env->players; p++) {
        if (env->sticky_prob <= 0.0 || rg__env_uniform(env) >= env->sticky_prob)
            env->held[p] = want[p];
        rg_emu_set_buttons(env->emu, p, env->held[p]);
    }
}

static int check_obs(const rg_env *env, const uint8_t *obs, size_t cap)
{
    if (obs && cap < env->obs_size)
        return rg__error(RG_EBUFFER, "observation buffer of %zu bytes, %zu needed", cap, env->obs_size);
    return RG_OK;
}

int rg_env_reset(rg_env *env, int seeded, uint64_t seed, uint8_t *obs, size_t cap)
{
    if (!env)
        return rg__error(RG_EINVAL, "rg_env_reset: NULL argument");
    int rc = check_obs(env, obs, cap);
    if (rc != RG_OK)
        return rc;
    if (seeded) {
        env->rng = seed;
        rg__scenario_seed(env->sc, seed); /* the scripts' math.random (game/snapshot.h) */
    }
    env->show_restored = 0; /* frames run from here on */
    if (env->start_state && env->reload_for_start && (rc = rg_emu_reset(env->emu)) != RG_OK)
        return rc;
    rc = env->start_state ? rg_emu_state_load(env->emu, env->start_state, env->start_len) : rg_emu_reset(env->emu);
    if (rc != RG_OK)
        return rc;
    memset(env->held, 0, sizeof env->held);
    for (unsigned p = 0; p < RG_MAX_PORTS; p++)
        rg_emu_set_buttons(env->emu, p, 0);
    if ((rc = rg_emu_run(env->emu)) != RG_OK || (rc = rg_scenario_reset(env->sc, env->gd)) != RG_OK ||
        (rc = rg_scenario_update(env->sc, env->gd)) != RG_OK)
        return rc;
    /* A recording failure does not stop the reset; it is returned once the reset is complete. */
    int rec_rc = env->rec ? rg__env_record_reset(env) : RG_OK;
    env->reset_frames = 1;
    unsigned noops = env->noop_max ? (unsigned)(rg__env_random(env) % ((uint64_t)env->noop_max + 1)) : 0;
    for (unsigned i = 0; i < noops && !rg_scenario_done(env->sc); i++) {
        if ((rc = rg_emu_run(env->emu)) != RG_OK || (rc = rg_scenario_update(env->sc, env->gd)) != RG_OK)
            return rc;
        env->reset_frames++;
        if (env->rec && (rc = rg__env_record_frame(env)) != RG_OK && rec_rc == RG_OK)
            rec_rc = rc;
    }
    env->steps = 0;
    env->started = 1;
    rg_emu_set_av_enable(env->emu, 1, 1);
    rc = obs ? rg__env_write_step_obs(env, obs) : RG_OK; /* env_gray.c */
    return rc != RG_OK ? rc : rec_rc;
}

int rg_env_step(rg_env *env, const int64_t *action, size_t n, uint8_t *obs, size_t cap, rg_step_result *result)
{
    if (!env || !result)
        return rg__error(RG_EINVAL, "rg_env_step: NULL argument");
    if (!env->started)
        return rg__error(RG_EMISUSE, "reset the environment before stepping it");
    int rc = check_obs(env, obs, cap);
    uint16_t want[RG_SCENARIO_MAX_PLAYERS];
    if (rc != RG_OK || (rc = rg_env_decode_action(env, action, n, want)) != RG_OK)
        return rc;
    memset(result, 0, sizeof *result);
    env->show_restored = 0; /* frames run from here on */
    int pooled = 0, rec_rc = RG_OK;
    for (unsigned f = 0; f < env->frameskip; f++) {
        press(env, want);
        /* Cores that honour GET_AUDIO_VIDEO_ENABLE skip rendering frames nobody looks at: all but the last of a
         * step (and the one before it when max-pooling). */
        int seen = f + 1 == env->frameskip || (env->max_pool && f + 2 == env->frameskip);
        rg_emu_set_av_enable(env->emu, seen, 1);
        if ((rc = rg_emu_run(env->emu)) != RG_OK || (rc = rg_scenario_update(env->sc, env->gd)) != RG_OK)
            return rc;
        for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++)
            result->rewards[p] += rg_scenario_reward(env->sc, p);
        result->frames++;
        if (env->rec && (rc = rg__env_record_frame(env)) != RG_OK && rec_rc == RG_OK)
            rec_rc = rc; /* returned once the step is complete */
        if (rg_scenario_done(env->sc))
            break;
        /* The second-to-last frame of the step, for the max-pool with the last one. */
        if (obs && env->max_pool && f + 2 == env->frameskip) {
            if ((rc = rg__env_write_step_obs(env, env->pool)) != RG_OK)
                return rc;
            pooled = 1;
        }
    }
    rg_emu_set_av_enable(env->emu, 1, 1); /* observe, render and clone calls between steps see a rendered frame */
    env->steps++;
    result->terminated = rg_scenario_done(env->sc);
    result->truncated = !result->terminated && env->max_steps && env->steps >= env->max_steps;
    if (env->rec && (result->terminated || result->truncated) && (rc = rg__env_record_end(env)) != RG_OK &&
        rec_rc == RG_OK)
        rec_rc = rc;
    if (!obs)
        return rec_rc;
    if ((rc = rg__env_write_step_obs(env, obs)) != RG_OK)
        return rc;
    if (pooled && result->frames == env->frameskip)
        rg__env_max_pool(env, obs, env->pool, env->obs_size); /* env_maxpool.c */
    return rec_rc;
}
