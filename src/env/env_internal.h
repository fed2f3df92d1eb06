/* The environment handle's layout, shared by the files of src/env. */
#ifndef RG_SRC_ENV_ENV_INTERNAL_H
#define RG_SRC_ENV_ENV_INTERNAL_H

#include "base/base.h"
#include "movie/movie_save.h"

#include <retrogym/actions.h>
#include <retrogym/env.h>

/* Redrawing the frame an episode ends on when it ran undrawn (env_step.c): the input of a part of a step run since
 * the emulator's mark (emu/emu_redraw.h), to run it again. */
#define RG__ENV_REPLAY_MAX 64 /* steps between marks, at most */
typedef struct rg__env_replay_part {
    uint16_t want[RG_SCENARIO_MAX_PLAYERS];   /* the step's buttons */
    uint16_t held[RG_SCENARIO_MAX_PLAYERS];   /* the buttons held before its first frame ... */
    uint64_t rng;                             /* ... and the sticky actions' generator */
    unsigned frames;                          /* frames it ran */
} rg__env_replay_part;

struct rg_env {
    char *game;
    char *state_name;        /* "" when none */
    char *game_dir;          /* the folder the game's ROM was found in */
    const rg_system_info *sys;
    rg_emu *emu;
    rg_gamedata *gd;
    rg_scenario *sc;
    rg_actionset *as;
    uint8_t *start_state;    /* serialized start state, NULL: power-on reset */
    size_t start_len;
    uint8_t *start_file;     /* the start state's file as read (inflated), when the core saves it otherwise (our
                                Atari core converts Stella's states): what a recording stores as Core.bin and
                                env.initial_state gives, as stable-retro does; NULL when equal to start_state */
    size_t start_file_len;
    int reload_for_start;    /* a reset powers the core on before loading the start state (Stella, below) */
    /* settings */
    rg_action_mode actions;
    rg_obs_mode obs;
    unsigned players, n_buttons, n_groups;
    unsigned frameskip, noop_max;
    double sticky_prob;
    int max_pool;
    int obs_gray;            /* reset and step write gray observations (env_gray.c; set by a pool converting to gray) */
    uint64_t max_steps;
    /* observation */
    unsigned obs_h, obs_w;   /* fixed at creation: the emulator's screen size (rg_emu_screen_size), cropped */
    size_t obs_size;
    unsigned crop[4];        /* scenario crop of player 1: x, y, w, h (0 = to the edge) */
    uint8_t *frame;          /* the whole screen in RGB24, for cropping */
    size_t frame_cap;
    uint8_t *pool;           /* the previous frame's observation, for max-pooling */
    uint8_t *restored_obs;   /* the image observation a restored snapshot carried (obs_size bytes) ... */
    int show_restored;       /* ... shown instead of the emulator's frame until the next frame runs (a state load
                                does not redraw the screen, which would show whatever ran before) ... */
    uint64_t restored_frame; /* ... i.e. while the emulator's frame count is still this (rg_emu_run elsewhere) */
    /* episode */
    uint64_t rng;
    uint16_t held[RG_SCENARIO_MAX_PLAYERS];
    uint64_t steps;
    int started;
    unsigned reset_frames;   /* frames the last reset ran: 1 + the no-op starts; 0 after a restore */
    /* redraws (env_step.c) */
    unsigned mark_every;     /* steps between marks (1..RG__ENV_REPLAY_MAX); 0: the core draws every frame */
    int mark_ok;             /* a mark is held, taken where replay[0] starts */
    uint64_t mark_changes;   /* the emulator's change count (rg__emu_changes) and frame count when it was taken */
    uint64_t mark_frames;
    uint64_t replay_frames;  /* frames run since, in replay[0..n_replay) */
    unsigned n_replay;
    rg__env_replay_part replay[RG__ENV_REPLAY_MAX];
    /* movies (env_record.c, env_playback.c) */
    struct rg__recorder *rec; /* NULL when not recording */
    int capture_audio;       /* the emulator keeps audio (playback videos); read by rg__env_open */
};

/* Random numbers: splitmix64, deterministic under a seed. */
uint64_t rg__env_random(rg_env *env);
/* Uniform double in [0, 1). */
double rg__env_uniform(rg_env *env);
/* Writes the observation of the current frame (IMAGE: cropped RGB24, RAM: the blocks) into dst. */
int rg__env_write_obs(const rg_env *env, uint8_t *dst);
/* Observation width and height of a frame after the crop. */
void rg__env_obs_geometry(const unsigned crop[4], unsigned width, unsigned height, unsigned *w, unsigned *h);
/* Loads a start state (DEFAULT, NONE, name or path) and keeps it serialized; dp NULL: names are looked up in
 * game_dir. */
int rg__env_load_start_state(rg_env *env, const rg_integration_paths *dp, unsigned flags, const char *state);
/* Resolves the integration files and opens everything (env_create.c). */
int rg__env_open(rg_env *env, const rg_env_options *o, const rg_integration_paths *dp);
/* rg_env_create with the emulator's audio capture on or off (env.c). */
int rg__env_create(rg_env **out, const rg_env_options *opts, int capture_audio);

/* Recording hooks (env_record.c), called only while env->rec is set. A failure stops the recording (its message
 * set); the caller finishes its work and returns the first such code. */
int rg__env_record_reset(rg_env *env);   /* after the reset frame and its scenario update */
int rg__env_record_frame(rg_env *env);   /* after every later frame and its scenario update */
int rg__env_record_end(rg_env *env);     /* a step ended the episode (terminated or truncated) */
void rg__env_record_free(rg_env *env);   /* rg_env_free: the movie is written, errors dropped */

/* retrogym.txt, the rewards recorded beside a movie: rg__score, rg__scores_text and RG__SCORES_ENTRY are the movie
 * layer's (movie/movie_save.h, movie_scores.c). */

#endif
