/* Creating an environment: find the game's files, open the emulator, load variables, scenario and start state
 * (docs/formats.md, "Environment", order of work). */
#include "env_internal.h"

#include "emu/emu_redraw.h"
#include "emu/state_core.h"
#include "emu/state_file.h"
#include "retrogym/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* data/scenario: NULL means the default name, whose absence is fine (Gym Retro skips it); a name ending in .json is
 * a path; another name is <name>.json in the game folder. *path NULL: nothing to load. */
static int resolve_json(const rg_integration_paths *dp, const char *game, unsigned flags, const char *given,
                        const char *fallback, char **path)
{
    *path = NULL;
    const char *name = given ? given : fallback;
    if (ends_with(name, ".json")) {
        int rc = RG_OK;
        *path = rg__strdup(name, &rc);
        return rc;
    }
    char *file = rg__asprintf("%s.json", name);
    if (!file)
        return rg__error(RG_ENOMEM, "out of memory");
    int rc = rg_integration_file_path(dp, game, file, flags, path);
    free(file);
    if (rc == RG_ENOTFOUND && !given)
        return RG_OK;
    if (rc == RG_ENOTFOUND)
        return rg__error(RG_ENOTFOUND, "game %s has no %s.json", game, name);
    return rc;
}

/* The start state's file: DEFAULT from metadata.json (*path NULL when it names none), NONE (NULL), a name in the
 * game folder or a path. *name is the name it was given by (NULL for a path). */
static int start_state_path(rg_env *env, const rg_integration_paths *dp, unsigned flags, const char *state, char **name_out,
                            char **path_out)
{
    char *name = NULL, *path = NULL;
    int rc = RG_OK;
    if (state == RG_STATE_DEFAULT) {
        rc = rg_integration_default_state(dp, env->game, env->players, flags, &name);
        if (rc == RG_ENOTFOUND)
            rc = RG_OK; /* no default: start from power-on */
        if (rc != RG_OK || !name)
            goto out;
    } else if (state[0] == '\0') {
        goto out;
    } else if (strchr(state, '/')) {
        path = rg__strdup(state, &rc);
    } else {
        name = rg__strdup(state, &rc);
    }
    if (rc != RG_OK)
        goto out;
    if (!path) {
        char *file = ends_with(name, ".state") ? rg__asprintf("%s", name) : rg__asprintf("%s.state", name);
        if (!file) {
            rc = rg__error(RG_ENOMEM, "out of memory");
            goto out;
        }
        if (dp) {
            rc = rg_integration_file_path(dp, env->game, file, flags, &path);
        } else { /* after creation: the folder the game was found in */
            path = rg__asprintf("%s/%s", env->game_dir, file);
            rc = !path ? rg__error(RG_ENOMEM, "out of memory") : rg__check_input(path); /* never waits on a FIFO */
        }
        free(file);
        if (rc == RG_ENOTFOUND)
            rc = rg__error(RG_ENOTFOUND, "game %s has no state \"%s\" (see retrogym states %s)", env->game, name,
                           env->game);
    }
out:
    if (rc != RG_OK) {
        free(name);
        free(path);
        name = path = NULL;
    }
    *name_out = name;
    *path_out = path;
    return rc;
}

/* The start state from its file (name: how it was named, NULL for a path): loaded into the emulator and kept
 * serialized for every reset. */
static int load_start_file(rg_env *env, const char *name, const char *path)
{
    uint8_t *raw;
    size_t raw_size;
    int gzipped;
    int rc = rg__emu_state_read_file(env->emu, path, &raw, &raw_size, &gzipped);
    if (rc != RG_OK)
        return rc;
    if ((rc = rg_emu_state_load(env->emu, raw, raw_size)) != RG_OK) {
        free(raw);
        return gzipped ? rg__error_context(rc, "state %s", path)
                       : rg__error_context(rc, "%s (read as an uncompressed state)", path);
    }
    if ((rc = rg_emu_state_size(env->emu, &env->start_len)) != RG_OK ||
        !(env->start_state = malloc(env->start_len ? env->start_len : 1)) ||
        (rc = rg_emu_state_save(env->emu, env->start_state, env->start_len, &env->start_len)) != RG_OK) {
        free(raw);
        return rc != RG_OK ? rc : rg__error(RG_ENOMEM, "out of memory");
    }
    /* The file's own bytes are kept when the core saves the state otherwise (our Atari core converts Stella's):
     * recordings store them as Core.bin and env.initial_state gives them, as stable-retro does. */
    if (raw_size != env->start_len || memcmp(raw, env->start_state, raw_size) != 0) {
        env->start_file = raw;
        env->start_file_len = raw_size;
    } else {
        free(raw);
    }
    const char *base = strrchr(name ? name : path, '/');
    free(env->state_name);
    env->state_name = rg__strdup(base ? base + 1 : (name ? name : path), &rc);
    return rc;
}

int rg__env_load_start_state(rg_env *env, const rg_integration_paths *dp, unsigned flags, const char *state)
{
    char *name = NULL, *path = NULL;
    int rc = start_state_path(env, dp, flags, state, &name, &path);
    if (rc == RG_OK && path)
        rc = load_start_file(env, name, path);
    free(name);
    free(path);
    return rc;
}

/* A console's start sequence from power-on (rg_env_options.reset_sequence, e.g. ALE's reset on the Atari 2600): run
 * once, unobserved, and kept as the start state, which every reset loads (the sequence is deterministic, so that is
 * the same as running it at every reset). */
static int run_reset_sequence(rg_env *env, const uint16_t *seq, size_t n)
{
    int rc = rg_emu_reset(env->emu);
    if (rc != RG_OK)
        return rc;
    for (unsigned p = 0; p < RG_MAX_PORTS; p++)
        rg_emu_set_buttons(env->emu, p, 0);
    rg_emu_set_av_enable(env->emu, 0, 0);
    for (size_t i = 0; i < n && rc == RG_OK; i++) {
        rg_emu_set_buttons(env->emu, 0, seq[i]);
        rc = rg_emu_run(env->emu);
    }
    rg_emu_set_buttons(env->emu, 0, 0);
    rg_emu_set_av_enable(env->emu, 1, 1);
    if (rc != RG_OK)
        return rg__error_context(rc, "the reset sequence (%zu frames)", n);
    if ((rc = rg_emu_state_size(env->emu, &env->start_len)) != RG_OK)
        return rc;
    if (!(env->start_state = malloc(env->start_len ? env->start_len : 1)))
        return rg__error(RG_ENOMEM, "out of memory");
    return rg_emu_state_save(env->emu, env->start_state, env->start_len, &env->start_len);
}

/* The ROM over every data root ("no ROM for game G: import yours ..." or "unknown game G", naming the roots searched,
 * from rg_integration_rom_path). */
static int find_rom(const rg_integration_paths *dp, const char *game, unsigned flags, char **rom)
{
    return rg_integration_rom_path(dp, game, flags, rom);
}

/* A mark copies the core's state (emu/emu_redraw.h); one every so many steps keeps that under this many bytes per
 * frame run (a memcpy of 2 KiB costs about 0.1 us, a frame of our cores 4 to 90 us undrawn). */
#define MARK_BYTES_PER_FRAME 2048u

/* Steps leave frames undrawn on a core that skips them: room for marks, reserved now so that steps allocate nothing,
 * and how often to take them (env_step.c). */
static int plan_redraws(rg_env *env)
{
    unsigned drawn = env->max_pool && env->frameskip > 1 ? 2u : 1u;
    env->mark_every = 0;
    if (env->frameskip <= drawn)
        return RG_OK;
    int rc = rg__emu_redraw_reserve(env->emu);
    size_t state;
    if (rc != RG_OK || !rg__emu_redraw_able(env->emu) || (rc = rg_emu_state_size(env->emu, &state)) != RG_OK)
        return rc;
    size_t per_step = (size_t)MARK_BYTES_PER_FRAME * env->frameskip, every = (state + per_step - 1) / per_step;
    env->mark_every = every < 1 ? 1u : every > RG__ENV_REPLAY_MAX ? RG__ENV_REPLAY_MAX : (unsigned)every;
    return RG_OK;
}

int rg__env_open(rg_env *env, const rg_env_options *o, const rg_integration_paths *dp)
{
    const unsigned flags = o->integrations;
    char *rom = NULL, *data = NULL, *scen = NULL, *state_name = NULL, *state_path = NULL;
    int rc = RG_OK;
    if (o->rom) { /* the caller's ROM; the game's folder, when it has one, still holds its states */
        rom = rg__strdup(o->rom, &rc);
        if (rc == RG_OK && rg_integration_file_path(dp, o->game, "rom.sha", flags, &env->game_dir) != RG_OK)
            env->game_dir = rg__strdup(o->rom, &rc);
    } else if ((rc = find_rom(dp, o->game, flags, &rom)) == RG_OK) {
        /* The integration's folder (its rom.sha), where its states are: an imported ROM may sit in the user root. */
        if (rg_integration_file_path(dp, o->game, "rom.sha", flags, &env->game_dir) != RG_OK)
            env->game_dir = rg__strdup(rom, &rc);
    }
    if (rc != RG_OK)
        goto out;
    if (strrchr(env->game_dir, '/'))
        *strrchr(env->game_dir, '/') = '\0';
    rg_emu_options eo = RG_EMU_OPTIONS_INIT;
    eo.core = o->core;
    /* The start state's file, found once: no core named, the core that saved it runs the game when its file says
     * so and that core is installed. */
    if ((rc = start_state_path(env, dp, flags, o->state, &state_name, &state_path)) != RG_OK)
        goto out;
    const rg_system_info *game_sys;
    if (!o->core && state_path && rg_integration_game_system(o->game, &game_sys) == RG_OK)
        eo.core = rg_core_for_state_file(state_path, game_sys);
    eo.core_options = o->core_options;
    eo.n_core_options = o->n_core_options;
    eo.log = o->log;
    eo.log_user = o->log_user;
    eo.log_level = o->log_level;
    eo.capture_audio = env->capture_audio;
    if ((rc = rg_emu_open(&env->emu, rom, &eo)) != RG_OK)
        goto out;
    if ((rc = plan_redraws(env)) != RG_OK)
        goto out;
    env->sys = rg_emu_system(env->emu);
    /* Stella does not clear all of itself when it loads a state, so a start state loaded into a core that has run
     * goes on otherwise than in a fresh one; stable-retro reloads Stella before loading a state (docs/formats.md, "Save
     * states and reload") and so does a reset here, for stable-retro's episodes from an integration's start state.
     * Restores (rg_env_restore, rg_emu_state_load) load into the running core, which replays exactly
     * (docs/determinism.md). */
    env->reload_for_start = strcmp(rg_emu_core_library(env->emu), "Stella") == 0;
    /* Gym Retro runs two frames while it builds the environment; the screen size is taken after them. */
    if ((rc = rg_emu_run(env->emu)) != RG_OK || (rc = rg_emu_run(env->emu)) != RG_OK)
        goto out;
    /* Whether those frames drew anything; a core reloaded before a state load (Stella) has no frame after it. */
    rg_frame f;
    if ((rc = rg_emu_frame(env->emu, &f)) != RG_OK)
        goto out;
    int pictured = f.data != NULL;
    if ((rc = rg_gamedata_create(&env->gd)) != RG_OK || (rc = rg_scenario_create(&env->sc)) != RG_OK ||
        (rc = rg_gamedata_bind_emu(env->gd, env->emu)) != RG_OK)
        goto out;
    if ((rc = resolve_json(dp, o->game, flags, o->info, "data", &data)) != RG_OK ||
        (data && (rc = rg_gamedata_load_file(env->gd, data, 0)) != RG_OK))
        goto out;
    if ((rc = resolve_json(dp, o->game, flags, o->scenario, "scenario", &scen)) != RG_OK ||
        (scen && (rc = rg_scenario_load_file(env->sc, scen, 0)) != RG_OK))
        goto out;
    if ((rc = rg_actionset_create(&env->as, env->sys, env->sc)) != RG_OK)
        goto out;
    env->n_buttons = env->sys->n_buttons;
    env->n_groups = (unsigned)rg_actionset_group_count(env->as);
    if (env->actions == RG_ACTIONS_DISCRETE && rg_env_discrete_count(env) == 0) {
        rc = rg__error(RG_EINVAL,
                       "DISCRETE actions: %u action groups for %u player%s make more combinations than the limit of "
                       "%llu (2^63-1, an int64 action id); use MULTI_DISCRETE, FILTERED or ALL actions",
                       env->n_groups, env->players, env->players == 1 ? "" : "s",
                       (unsigned long long)RG_ACTIONS_MAX_DISCRETE);
        goto out;
    }
    if (state_path && (rc = load_start_file(env, state_name, state_path)) != RG_OK)
        goto out;
    if (o->n_reset_sequence) {
        if (state_path) {
            rc = rg__error(RG_EINVAL, "a reset sequence runs from power-on: give state NONE (\"\"), not state %s",
                           state_name ? state_name : state_path);
            goto out;
        }
        if ((rc = run_reset_sequence(env, o->reset_sequence, o->n_reset_sequence)) != RG_OK)
            goto out;
    }
    /* Said here rather than as an unmapped address at the first reset. */
    const rg_mem_block *blocks;
    size_t n_blocks = 0, n_vars = rg_gamedata_variable_count(env->gd);
    if (n_vars && rg_emu_mem_blocks(env->emu, &blocks, &n_blocks) == RG_OK && n_blocks == 0) {
        rc = rg__error(RG_EUNSUPPORTED, "core %s exposes no memory, so the game's %zu variables cannot be read",
                       rg_emu_core_name(env->emu), n_vars);
        goto out;
    }
    /* The observation's shape. */
    if (env->obs == RG_OBS_RAM) {
        env->obs_size = rg_emu_ram_size(env->emu);
        if (env->obs_size == 0)
            rc = rg__error(RG_EUNSUPPORTED, "core %s exposes no memory for RAM observations",
                           rg_emu_core_name(env->emu));
        goto out;
    }
    /* The screen's size as stable-retro fixes it (rg_emu_screen_size), known once the start state is loaded; the
     * observation keeps it for the environment's life whatever mode the game switches to. */
    unsigned sw = 0, sh = 0;
    if ((rc = rg_emu_screen_size(env->emu, &sw, &sh)) != RG_OK)
        goto out;
    if (!pictured || sw == 0 || sh == 0) {
        rc = rg__error(RG_ECORE, "core %s sent no usable picture in the frames run at start (none, empty or "
                                 "malformed)", rg_emu_core_name(env->emu));
        goto out;
    }
    rg_scenario_crop(env->sc, 0, env->crop);
    rg__env_obs_geometry(env->crop, sw, sh, &env->obs_w, &env->obs_h);
    if (env->obs_w == 0 || env->obs_h == 0) {
        rc = rg__error(RG_EINVAL, "the scenario's crop leaves nothing of the %ux%u screen", sw, sh);
        goto out;
    }
    env->obs_size = (size_t)env->obs_w * env->obs_h * 3;
    env->frame_cap = (size_t)sw * sh * 3;
    if (!(env->frame = malloc(env->frame_cap)) || (env->max_pool && !(env->pool = malloc(env->obs_size))))
        rc = rg__error(RG_ENOMEM, "out of memory");
out:
    free(rom);
    free(data);
    free(scen);
    free(state_name);
    free(state_path);
    return rc;
}
