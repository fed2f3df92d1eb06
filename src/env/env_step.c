/* Episodes: reset and step (docs/formats.md, "Environment"), with frame skip, sticky actions, max-pooling and no-op
 * starts. */
#include "env_internal.h"
#include "env_maxpool.h"

#include "emu/emu_redraw.h"
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

/* Redraws. A core that does not draw frames run with video disabled (our own) is marked (its state kept,
 * emu/emu_redraw.h) every env->mark_every steps, before the step's first frame; the input of what runs after the mark
 * is logged in env->replay. When an episode ends on a frame that ran undrawn, the emulator goes back to the mark, runs
 * the logged frames again, the last one drawn, and returns to where it was: the picture is then that frame's, as a
 * core drawing every frame shows it. A change to the machine other than by running frames (a script writing a
 * variable, a state loaded, a reset) would make the frames run again differ, so a mark is taken again after one. */

/* Starts logging a part of a step (the frames it runs are counted in the loop). */
static void replay_begin(rg_env *env, const uint16_t want[RG_SCENARIO_MAX_PLAYERS])
{
    rg__env_replay_part *p = &env->replay[env->n_replay++];
    memcpy(p->want, want, sizeof p->want);
    memcpy(p->held, env->held, sizeof p->held);
    p->rng = env->rng;
    p->frames = 0;
}

static void mark(rg_env *env, const uint16_t want[RG_SCENARIO_MAX_PLAYERS])
{
    env->n_replay = 0;
    env->replay_frames = 0;
    env->mark_changes = rg__emu_changes(env->emu);
    env->mark_frames = rg_emu_frame_count(env->emu);
    env->mark_ok = rg__emu_mark(env->emu) == RG_OK; /* with the room reserved, it cannot fail */
    if (env->mark_ok)
        replay_begin(env, want);
}

/* Before frame f of a step that runs undrawn, at the step's start or after something changed the machine: the log
 * goes on from the mark held when running frames leads from it to here and it is not mark_every steps old; else a
 * new mark. */
static void mark_before(rg_env *env, unsigned f, const uint16_t want[RG_SCENARIO_MAX_PLAYERS])
{
    int leads = env->mark_ok && rg__emu_changes(env->emu) == env->mark_changes &&
                rg_emu_frame_count(env->emu) == env->mark_frames + env->replay_frames;
    if (f == 0 && leads && env->n_replay < env->mark_every)
        replay_begin(env, want);
    else
        mark(env, want);
}

/* The episode ended on the frame just run, undrawn: runs everything since the mark again, the last frame drawn. */
static int redraw(rg_env *env)
{
    uint64_t rng = env->rng;
    uint16_t held[RG_SCENARIO_MAX_PLAYERS];
    memcpy(held, env->held, sizeof held);
    int exact = rg__emu_changes(env->emu) == env->mark_changes; /* nothing changed the machine since the mark */
    int rc = rg__emu_rewind(env->emu);
    if (rc != RG_OK)
        return rc;
    for (unsigned i = 0; i < env->n_replay && rc == RG_OK; i++) {
        const rg__env_replay_part *p = &env->replay[i];
        env->rng = p->rng;
        memcpy(env->held, p->held, sizeof env->held);
        for (unsigned g = 0; g < p->frames && rc == RG_OK; g++) {
            press(env, p->want);
            rg_emu_set_av_enable(env->emu, i + 1 == env->n_replay && g + 1 == p->frames, 1);
            rc = rg_emu_run(env->emu);
        }
    }
    int end_rc = rg__emu_rewind_end(env->emu, exact && rc == RG_OK);
    env->rng = rng; /* as the first run left them (the same: it made the same draws) */
    memcpy(env->held, held, sizeof env->held);
    env->mark_ok = 0;
    return rc != RG_OK ? rc : end_rc;
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
    unsigned seen_from = env->frameskip - (env->max_pool && env->frameskip > 1 ? 2u : 1u);
    int marking = env->mark_every != 0 && seen_from > 0;
    for (unsigned f = 0; f < env->frameskip; f++) {
        /* Cores that honour GET_AUDIO_VIDEO_ENABLE skip rendering frames nobody looks at: all but the last of a
         * step (and the one before it when max-pooling). */
        int seen = f >= seen_from;
        if (marking && !seen && (f == 0 || rg__emu_changes(env->emu) != env->mark_changes))
            mark_before(env, f, want);
        press(env, want);
        rg_emu_set_av_enable(env->emu, seen, 1);
        if ((rc = rg_emu_run(env->emu)) != RG_OK || (rc = rg_scenario_update(env->sc, env->gd)) != RG_OK)
            return rc;
        if (marking && env->mark_ok) {
            env->replay[env->n_replay - 1].frames++;
            env->replay_frames++;
        }
        for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++)
            result->rewards[p] += rg_scenario_reward(env->sc, p);
        result->frames++;
        if (env->rec && (rc = rg__env_record_frame(env)) != RG_OK && rec_rc == RG_OK)
            rec_rc = rc; /* returned once the step is complete */
        if (rg_scenario_done(env->sc)) {
            /* A redraw failure is returned once the step is complete; the picture is then the last one drawn. */
            if (!seen && marking && env->mark_ok && (rc = redraw(env)) != RG_OK && rec_rc == RG_OK)
                rec_rc = rc;
            break;
        }
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
