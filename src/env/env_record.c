/* Recording episodes as movies (docs/formats.md, "Movies"): one movie per episode into a folder, or one episode into a
 * file. The movie layer (src/movie) holds the frames; here are when movies start and end, the buttons of each frame,
 * and the scenario's rewards and done kept for retrogym.txt (movie/movie_scores.c). */
#include "env_internal.h"
#include "movie/movie_save.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct rg__recorder {
    char *dir;          /* folder mode: a movie per episode; NULL: one movie at `path`, then stop */
    char *path;         /* the movie being recorded, or (file mode) waiting for its episode */
    uint64_t next_id;   /* folder mode: the counter of the next file name */
    rg_movie *movie;    /* NULL while waiting for the next reset */
    uint64_t first;     /* first frame whose reward and done are recorded */
    rg__score *scores;  /* frames with a reward or done, ascending */
    size_t n_scores, cap_scores;
};

static void recorder_free(struct rg__recorder *r)
{
    if (!r)
        return;
    rg_movie_free(r->movie);
    free(r->dir);
    free(r->path);
    free(r->scores);
    free(r);
}

/* "<dir>/<game>-<state stem>-<NNNNNN>.bk2"; the stem drops a ".state" ending, as stable-retro's splitext does. */
static char *folder_movie_path(const rg_env *env, const char *dir, uint64_t id)
{
    const char *state = env->state_name && env->state_name[0] ? env->state_name : "none";
    size_t len = strlen(state);
    if (len > 6 && strcmp(state + len - 6, ".state") == 0)
        len -= 6;
    return rg__asprintf("%s/%s-%.*s-%06llu.bk2", dir, env->game, (int)len, state, (unsigned long long)id);
}

/* Appends the current frame's buttons (what the emulator was given) and the scenario's reward and done. */
static int push_frame(rg_env *env, int with_score)
{
    struct rg__recorder *r = env->rec;
    for (unsigned p = 0; p < env->players; p++)
        rg_movie_set_buttons(r->movie, p, env->held[p]);
    int rc = rg_movie_step(r->movie);
    if (rc < 0)
        return rc;
    if (!with_score)
        return RG_OK;
    rg__score s;
    memset(&s, 0, sizeof s);
    int any = 0;
    for (unsigned p = 0; p < env->players; p++) {
        s.rewards[p] = rg_scenario_reward(env->sc, p);
        any |= s.rewards[p] != 0.0f;
    }
    s.done = rg_scenario_done(env->sc) != 0;
    if (!any && !s.done)
        return RG_OK;
    if ((rc = rg__reserve(&r->scores, &r->cap_scores, r->n_scores + 1, sizeof *r->scores)) != RG_OK)
        return rc;
    s.frame = rg_movie_frame_count(r->movie) - 1;
    r->scores[r->n_scores++] = s;
    return RG_OK;
}

/* Opens the movie of the episode that has just been reset: start state, then frame 0 (the reset frame, no buttons).
 * `late`: the episode's reset (and its no-op starts) ran before recording began; their frames are written with no
 * buttons, and only the last one's reward is known. */
static int begin(rg_env *env, int late)
{
    struct rg__recorder *r = env->rec;
    if (r->dir) {
        free(r->path);
        if (!(r->path = folder_movie_path(env, r->dir, r->next_id)))
            return rg__error(RG_ENOMEM, "out of memory");
        r->next_id++;
    }
    int rc = rg_movie_open_write(&r->movie, r->path, env->sys->name, env->game, env->players);
    /* Core.bin: the start state's file as read, as stable-retro writes it (so its own core can replay a movie of a
     * game whose state our core converted), else the state as the core saved it */
    if (rc == RG_OK && env->start_file)
        rc = rg_movie_set_state(r->movie, env->start_file, env->start_file_len);
    else if (rc == RG_OK && env->start_state)
        rc = rg_movie_set_state(r->movie, env->start_state, env->start_len);
    r->n_scores = 0;
    uint16_t held[RG_SCENARIO_MAX_PLAYERS];
    memcpy(held, env->held, sizeof held);
    memset(env->held, 0, sizeof env->held); /* reset frames run with no buttons */
    unsigned frames = late ? env->reset_frames : 1;
    r->first = frames - 1;
    for (unsigned f = 0; rc == RG_OK && f < frames; f++)
        rc = push_frame(env, f + 1 == frames);
    memcpy(env->held, held, sizeof held);
    if (rc != RG_OK) {
        rg_movie_free(r->movie);
        r->movie = NULL;
    }
    return rc;
}

/* The movie with its retrogym.txt, written whole through the atomic writer: a full disk or a read-only folder
 * leaves no partial movie and keeps the file that was there. */
static int write_movie(rg_env *env)
{
    struct rg__recorder *r = env->rec;
    char *text = rg__scores_text(rg_emu_core_name(env->emu), env->players, r->first, rg_movie_frame_count(r->movie),
                                 r->scores, r->n_scores);
    if (!text)
        return rg__error(RG_ENOMEM, "out of memory");
    int rc = rg__movie_save_with(r->movie, r->path, RG__SCORES_ENTRY, text);
    free(text);
    return rc;
}

/* Writes the movie and its retrogym.txt; the movie is gone afterwards whatever happens. */
static int finish(rg_env *env)
{
    struct rg__recorder *r = env->rec;
    if (!r->movie)
        return RG_OK;
    int rc = write_movie(env);
    if (rc != RG_OK)
        rc = rg__error_context(rc, "recording %s", r->path);
    rg_movie_free(r->movie);
    r->movie = NULL;
    r->n_scores = 0;
    if (r->dir) { /* the next file is named at the next reset */
        free(r->path);
        r->path = NULL;
    }
    return rc;
}

/* Ends the recording after a failure or when its one movie is done. */
static void stop(rg_env *env)
{
    recorder_free(env->rec);
    env->rec = NULL;
}

static int fail(rg_env *env, int rc)
{
    stop(env);
    return rc;
}

int rg__env_record_reset(rg_env *env)
{
    struct rg__recorder *r = env->rec;
    if (r->movie) { /* the previous episode did not end: its movie ends here */
        int rc = finish(env);
        if (rc != RG_OK)
            return fail(env, rc);
        if (!r->dir) {
            stop(env);
            return RG_OK;
        }
    }
    int rc = begin(env, 0);
    return rc == RG_OK ? RG_OK : fail(env, rc);
}

int rg__env_record_frame(rg_env *env)
{
    if (!env->rec->movie)
        return RG_OK;
    int rc = push_frame(env, 1);
    return rc == RG_OK ? RG_OK : fail(env, rc);
}

int rg__env_record_end(rg_env *env)
{
    struct rg__recorder *r = env->rec;
    if (!r->movie)
        return RG_OK;
    int rc = finish(env);
    if (rc != RG_OK || !r->dir)
        stop(env);
    return rc;
}

void rg__env_record_free(rg_env *env)
{
    if (env->rec)
        finish(env);
    stop(env);
}

/* Starts a recorder (either mode) after writing the movie of the one before. */
static int start(rg_env *env, const char *dir, const char *path, uint64_t first_id)
{
    int rc = rg_env_record_stop(env);
    if (rc != RG_OK)
        return rc;
    struct rg__recorder *r = calloc(1, sizeof *r);
    if (!r)
        return rg__error(RG_ENOMEM, "out of memory");
    rc = RG_OK;
    if (dir)
        r->dir = rg__strdup(dir, &rc);
    else
        r->path = rg__strdup(path, &rc);
    r->next_id = first_id;
    if (rc != RG_OK) {
        recorder_free(r);
        return rc;
    }
    env->rec = r;
    /* Right after a reset the episode can still be recorded whole (not after a restore: reset_frames is 0 then). */
    if (env->started && env->steps == 0 && env->reset_frames > 0 && (rc = begin(env, 1)) != RG_OK)
        return fail(env, rc);
    return RG_OK;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int rg_env_record_dir(rg_env *env, const char *dir, uint64_t first_id)
{
    if (!env || !dir || !*dir)
        return rg__error(RG_EINVAL, "rg_env_record_dir: NULL argument");
    if (!is_dir(dir))
        return rg__error(RG_ENOTFOUND, "cannot record into %s: no such folder", dir);
    return start(env, dir, NULL, first_id);
}

int rg_env_record_movie(rg_env *env, const char *path)
{
    if (!env || !path || !*path)
        return rg__error(RG_EINVAL, "rg_env_record_movie: NULL argument");
    const char *slash = strrchr(path, '/');
    if (slash) {
        char *folder = rg__asprintf("%.*s", slash == path ? 1 : (int)(slash - path), path);
        int ok = folder && is_dir(folder);
        free(folder);
        if (!ok)
            return rg__error(RG_ENOTFOUND, "cannot record into %s: no such folder", path);
    }
    return start(env, NULL, path, 0);
}

int rg_env_record_stop(rg_env *env)
{
    if (!env)
        return rg__error(RG_EINVAL, "rg_env_record_stop: NULL argument");
    if (!env->rec)
        return RG_OK;
    int rc = finish(env);
    stop(env);
    return rc;
}

const rg_movie *rg_env_movie(const rg_env *env)
{
    return env && env->rec ? env->rec->movie : NULL;
}

const char *rg_env_movie_path(const rg_env *env)
{
    return env && env->rec ? env->rec->path : NULL;
}

const char *rg_env_record_folder(const rg_env *env)
{
    return env && env->rec ? env->rec->dir : NULL;
}

uint64_t rg_env_movie_id(const rg_env *env)
{
    return env && env->rec && env->rec->dir ? env->rec->next_id : 0;
}
