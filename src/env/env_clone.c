/* Clone and restore the whole environment as flat bytes: emulator state, game-layer state, random generator,
 * sticky buttons, step count, and the image observation of the moment. */
#include "env_internal.h"

#include "game/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char magic[8] = {'R', 'G', 'E', 'N', 'V', 'S', '0', '3'};
/* Version 02 had no observation; still restored (the screen then stays as it was until the next frame). */
static const char magic_02[8] = {'R', 'G', 'E', 'N', 'V', 'S', '0', '2'};

/* What a snapshot must match: the game, the core, and the options that shape the state (players, action and
 * observation modes, frame skip, sticky probability). */
static void write_kind(const rg_env *env, rg__wbuf *w)
{
    rg__w_str(w, env->game);
    rg__w_str(w, rg_emu_core_name(env->emu));
    rg__w_u64(w, env->players);
    rg__w_u64(w, (uint64_t)env->actions);
    rg__w_u64(w, (uint64_t)env->obs);
    rg__w_u64(w, env->frameskip);
    uint64_t bits;
    memcpy(&bits, &env->sticky_prob, 8);
    rg__w_u64(w, bits);
}

/* The image observation as the env shows it now, written in place. A state load does not redraw the screen, so a
 * restore shows this until the next frame runs; RAM observations need nothing (the RAM is in the emulator state). */
static int write_obs(const rg_env *env, rg__wbuf *w)
{
    size_t n = env->obs == RG_OBS_IMAGE ? env->obs_size : 0;
    rg__w_u64(w, n);
    if (n && w->p && !w->overflow) {
        if (n > w->cap - w->len) {
            w->overflow = 1;
        } else {
            int rc = rg__env_write_obs(env, w->p + w->len);
            if (rc != RG_OK)
                return rc;
        }
    }
    w->len += n;
    return RG_OK;
}

/* Everything (the emulator bytes are given; their size heads them). */
static int write_all(rg_env *env, rg__wbuf *w, const void *emu, size_t emu_len)
{
    int limit_rc = rg__scenario_snapshot_check(env->sc); /* scripts' globals over the snapshot limit */
    if (limit_rc != RG_OK)
        return limit_rc;
    rg__w_bytes(w, magic, sizeof magic);
    write_kind(env, w);
    rg__w_u64(w, emu_len);
    rg__w_bytes(w, emu, emu_len);
    rg__w_u64(w, env->rng);
    rg__w_u64(w, env->steps);
    rg__w_u64(w, (uint64_t)env->started);
    for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++)
        rg__w_u64(w, env->held[p]);
    int rc = write_obs(env, w);
    rg__gamedata_snapshot(env->gd, w);
    rg__scenario_snapshot(env->sc, w);
    return rc;
}

int rg_env_clone_size(rg_env *env, size_t *size)
{
    if (!env || !size)
        return rg__error(RG_EINVAL, "rg_env_clone_size: NULL argument");
    size_t emu_len;
    int rc = rg_emu_state_size(env->emu, &emu_len);
    if (rc != RG_OK)
        return rc;
    rg__wbuf w = {NULL, 0, 0, 0}; /* counts only */
    rc = write_all(env, &w, NULL, emu_len);
    *size = w.len;
    return rc;
}

int rg_env_clone(rg_env *env, void *dst, size_t cap, size_t *written)
{
    if (!env || !dst)
        return rg__error(RG_EINVAL, "rg_env_clone: NULL argument");
    size_t emu_cap;
    int rc = rg_emu_state_size(env->emu, &emu_cap);
    if (rc != RG_OK)
        return rc;
    uint8_t *emu = malloc(emu_cap ? emu_cap : 1);
    size_t emu_len = 0;
    if (!emu)
        return rg__error(RG_ENOMEM, "out of memory");
    if ((rc = rg_emu_state_save(env->emu, emu, emu_cap, &emu_len)) != RG_OK) {
        free(emu);
        return rc;
    }
    rg__wbuf w = {dst, 0, cap, 0};
    rc = write_all(env, &w, emu, emu_len);
    free(emu);
    if (rc != RG_OK)
        return rc;
    if (w.overflow)
        return rg__error(RG_EBUFFER, "snapshot buffer of %zu bytes, %zu needed", cap, w.len);
    if (written)
        *written = w.len;
    return RG_OK;
}

int rg_env_restore(rg_env *env, const void *src, size_t len)
{
    if (!env || !src)
        return rg__error(RG_EINVAL, "rg_env_restore: NULL argument");
    rg__rbuf r = {src, len, 0, 0};
    const void *m = rg__r_bytes(&r, sizeof magic);
    char game[512];
    int has_obs = m && memcmp(m, magic, sizeof magic) == 0;
    if (!m || (!has_obs && memcmp(m, magic_02, sizeof magic_02) != 0) || rg__r_str(&r, game, sizeof game) != 0)
        return rg__error(RG_ECORRUPT, "not an environment snapshot");
    if (strcmp(game, env->game) != 0)
        return rg__error(RG_ECORRUPT, "a snapshot of %s cannot be restored into %s", game, env->game);
    /* the rest of the kind must match byte for byte */
    rg__wbuf kind = {NULL, 0, 0, 0};
    write_kind(env, &kind);
    uint8_t *mine = malloc(kind.len);
    if (!mine)
        return rg__error(RG_ENOMEM, "out of memory");
    rg__wbuf k = {mine, 0, kind.len, 0};
    write_kind(env, &k);
    size_t name_part = 8 + strlen(env->game);
    const void *theirs = rg__r_bytes(&r, kind.len - name_part);
    int same = theirs && memcmp(theirs, mine + name_part, kind.len - name_part) == 0;
    free(mine);
    if (!same)
        return rg__error(RG_ECORRUPT, "the snapshot was taken with another core or other options (players, action "
                                      "or observation mode, frame skip, sticky actions)");
    uint64_t emu_len = rg__r_u64(&r);
    const void *emu = rg__r_bytes(&r, (size_t)emu_len);
    uint64_t rng = rg__r_u64(&r), steps = rg__r_u64(&r), started = rg__r_u64(&r);
    uint64_t held[RG_SCENARIO_MAX_PLAYERS];
    for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++)
        held[p] = rg__r_u64(&r);
    uint64_t obs_len = has_obs ? rg__r_u64(&r) : 0;
    const void *obs = rg__r_bytes(&r, (size_t)obs_len);
    if (r.bad)
        return rg__error(RG_ECORRUPT, "the snapshot is truncated");
    if (env->obs == RG_OBS_IMAGE && !env->restored_obs && !(env->restored_obs = malloc(env->obs_size)))
        return rg__error(RG_ENOMEM, "out of memory");
    /* A refused snapshot leaves everything as it was: the game layer's state (small) is kept first and put back
     * when its part of the snapshot or the emulator refuses; the emulator rolls itself back when it refuses. The
     * game layer goes first so that no emulator state needs keeping. */
    rg__wbuf kept = {NULL, 0, 0, 0};
    rg__gamedata_snapshot(env->gd, &kept);
    rg__scenario_snapshot(env->sc, &kept);
    if (!(kept.p = malloc(kept.len ? kept.len : 1)))
        return rg__error(RG_ENOMEM, "out of memory");
    kept.cap = kept.len;
    kept.len = 0;
    rg__gamedata_snapshot(env->gd, &kept);
    rg__scenario_snapshot(env->sc, &kept);
    if (kept.overflow) { /* the game layer's state grew between counting and writing: cannot happen */
        free(kept.p);
        return rg__error(RG_ENOMEM, "cannot keep the environment's state");
    }
    int rc = rg__gamedata_restore(env->gd, &r);
    if (rc == RG_OK)
        rc = rg__scenario_restore(env->sc, env->gd, &r);
    if (rc == RG_OK)
        rc = rg_emu_state_load(env->emu, emu, (size_t)emu_len);
    if (rc != RG_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", rg_error_last());
        rg__rbuf back = {kept.p, kept.len, 0, 0};
        int back_rc = rg__gamedata_restore(env->gd, &back);
        if (back_rc == RG_OK)
            back_rc = rg__scenario_restore(env->sc, env->gd, &back);
        free(kept.p);
        if (back_rc != RG_OK) /* only out of memory: the Lua globals could not be put back */
            return rg__error(rc, "%s (and the scripts' state could not be put back: %s)", why, rg_error_last());
        return rg__error(rc, "%s", why);
    }
    free(kept.p);
    /* The screen of the snapshot, shown until the next frame runs (a snapshot of a differently cropped env of the
     * game has another size: then the screen stays as it is). */
    env->show_restored = obs_len && obs_len == env->obs_size && env->obs == RG_OBS_IMAGE;
    if (env->show_restored)
        memcpy(env->restored_obs, obs, env->obs_size);
    env->restored_frame = rg_emu_frame_count(env->emu);
    env->rng = rng;
    env->steps = steps;
    env->started = started != 0;
    env->reset_frames = 0; /* unknown: a recording cannot take this episode from its reset (env_record.c) */
    for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++) {
        env->held[p] = (uint16_t)held[p];
        if (p < env->players)
            rg_emu_set_buttons(env->emu, p, env->held[p]);
    }
    return RG_OK;
}
