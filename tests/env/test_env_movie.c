/* Recording episodes as movies and playing them back (src/env/env_record.c, env_playback.c; the recorded rewards:
 * src/movie/movie_scores.c): on our game StarCatcher-Nes, a recorded episode replays with identical frames, RAM,
 * rewards and done at every step (frame skip, sticky actions and no-op starts included); recording changes
 * nothing; file names, when movies start and are written; round trips; stable-retro's reference movies of
 * tests/movie/data play back with the buttons reaching the test ROMs; every error path. */
#define _POSIX_C_SOURCE 200809L
#include "../movie/movie_test_util.h"

#include "env/env_internal.h"
#include "movie/movie_save.h"


#define GAME "StarCatcher-Nes"
#define MAX_STEPS 6000

static rg_integration_paths *paths;
static char *tmp;

static int setup(void **state)
{
    (void)state;
    return test_data_setup(&paths, &tmp);
}

static int teardown(void **state)
{
    (void)state;
    test_data_teardown(paths, tmp);
    return 0;
}

static rg_env_options opts(void)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = GAME;
    o.paths = paths;
    o.log = test_quiet_log;
    return o;
}

static rg_env *make(rg_env_options o)
{
    if (!test_core_installed("nestopia"))
        skip();
    rg_env *env;
    if (rg_env_create(&env, &o) != RG_OK)
        fail_msg("create: %s", rg_error_last());
    return env;
}

static char *fresh_dir(const char *name)
{
    char *dir = malloc(4096);
    assert_non_null(dir);
    snprintf(dir, 4096, "%s/%s", tmp, name);
    mt_rmtree(dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    return dir;
}

static int exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* What an episode showed at each step (index 0: the reset). */
typedef struct trace {
    uint64_t obs[MAX_STEPS + 1], ram[MAX_STEPS + 1];
    float reward[MAX_STEPS + 1];
    int done[MAX_STEPS + 1], term[MAX_STEPS + 1];
    unsigned frames[MAX_STEPS + 1];
    size_t steps;
    char core[64]; /* the core the environment ran (nestopia from StarCatcher's state, ours from power-on) */
} trace;

static uint64_t obs_hash(rg_env *env)
{
    uint8_t *obs = malloc(rg_env_obs_size(env));
    assert_non_null(obs);
    assert_int_equal(rg_env_observe(env, obs, rg_env_obs_size(env)), RG_OK);
    uint64_t h = test_hash(obs, rg_env_obs_size(env), 0);
    free(obs);
    return h;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random FILTERED actions (each button pressed with probability 1/4, RIGHT or LEFT often), until done, truncated
 * or `limit` steps. */
static void play_random(rg_env *env, uint64_t seed, size_t limit, trace *t)
{
    memset(t, 0, sizeof *t);
    assert_int_equal(rg_env_reset(env, 1, seed, NULL, 0), RG_OK);
    t->obs[0] = obs_hash(env);
    t->ram[0] = test_ram_hash(rg_env_emu(env));
    snprintf(t->core, sizeof t->core, "%s", rg_emu_core_name(rg_env_emu(env)));
    uint64_t rng = seed * 2654435761u + 1;
    int64_t a[RG_MAX_BUTTONS];
    size_t n = rg_env_action_length(env);
    for (size_t s = 1; s <= limit && s <= MAX_STEPS; s++) {
        if (s % 8 == 1)
            for (size_t i = 0; i < n; i++)
                a[i] = (xorshift(&rng) & 3) == 0;
        rg_step_result r;
        int rc = rg_env_step(env, a, n, NULL, 0, &r);
        if (rc != RG_OK)
            fail_msg("step %zu: %s", s, rg_error_last());
        t->obs[s] = obs_hash(env);
        t->ram[s] = test_ram_hash(rg_env_emu(env));
        t->reward[s] = r.rewards[0];
        t->done[s] = r.terminated || r.truncated;
        t->term[s] = r.terminated;
        t->frames[s] = r.frames;
        t->steps = s;
        if (r.terminated || r.truncated)
            break;
    }
}

static rg_movie *open_movie(const char *path)
{
    rg_movie *m;
    if (rg_movie_open_read(&m, path) != RG_OK)
        fail_msg("open %s: %s", path, rg_error_last());
    return m;
}

/* Plays the movie back and checks it against the trace at the end of every step (the movie has one line per
 * frame); also checks the rewards recorded in retrogym.txt frame by frame. */
static void check_playback(const char *path, const trace *t)
{
    rg_movie *m = open_movie(path);
    uint64_t step_frames = 0;
    for (size_t s = 1; s <= t->steps; s++)
        step_frames += t->frames[s];
    uint64_t total = rg_movie_frame_count(m);
    assert_true(total > step_frames);
    uint64_t reset_frames = total - step_frames;

    rg_movie_scores *sc;
    if (rg_movie_scores_read(&sc, path) != RG_OK)
        fail_msg("scores: %s", rg_error_last());
    assert_string_equal(rg_movie_scores_core(sc), t->core);
    assert_int_equal(rg_movie_scores_players(sc), 1);
    assert_int_equal(rg_movie_scores_frames(sc), total);

    rg_env_options o = opts();
    o.game = NULL; /* from the movie */
    rg_env *env;
    if (rg_env_create_playback(&env, m, &o, 0) != RG_OK)
        fail_msg("playback: %s", rg_error_last());
    assert_string_equal(rg_env_game(env), GAME);
    assert_string_equal(rg_emu_core_name(rg_env_emu(env)), t->core); /* the core that reads its Core.bin */
    assert_int_equal(rg_env_reset(env, 0, 0, NULL, 0), RG_OK);
    uint64_t f = 1;
    rg_step_result r;
    float rw[RG_SCENARIO_MAX_PLAYERS];
    int done;
    for (; f < reset_frames; f++) /* the no-op starts */
        assert_int_equal(rg_env_playback_step(env, m, f, NULL, 0, &r), RG_OK);
    assert_true(obs_hash(env) == t->obs[0]);
    assert_true(test_ram_hash(rg_env_emu(env)) == t->ram[0]);
    for (size_t s = 1; s <= t->steps; s++) {
        float sum = 0;
        int ended = 0;
        for (unsigned k = 0; k < t->frames[s]; k++, f++) {
            assert_int_equal(rg_env_playback_step(env, m, f, NULL, 0, &r), RG_OK);
            sum += r.rewards[0];
            ended = r.terminated;
            if (f >= rg_movie_scores_first(sc)) { /* the recorded reward and done of this very frame */
                assert_int_equal(rg_movie_scores_at(sc, f, rw, &done), RG_OK);
                assert_true(rw[0] == r.rewards[0]);
                assert_int_equal(done, r.terminated);
            }
        }
        if (obs_hash(env) != t->obs[s] || test_ram_hash(rg_env_emu(env)) != t->ram[s])
            fail_msg("step %zu: the playback shows another frame or RAM", s);
        assert_true(sum == t->reward[s]);
        assert_int_equal(ended, t->term[s]);
    }
    assert_int_equal(f, total);
    assert_int_equal(rg_env_playback_step(env, m, f, NULL, 0, &r), RG_ERANGE);
    rg_env_free(env);
    rg_movie_scores_free(sc);
    rg_movie_free(m);
}

static trace tr, tr2;

static void record_and_play_one_frame_steps(void **state)
{
    (void)state;
    char *dir = fresh_dir("plain");
    rg_env *env = make(opts());
    assert_int_equal(rg_env_record_dir(env, dir, 0), RG_OK);
    assert_string_equal(rg_env_record_folder(env), dir);
    assert_null(rg_env_movie(env)); /* waits for the reset */
    assert_null(rg_env_movie_path(env));
    play_random(env, 7, MAX_STEPS, &tr);
    assert_true(tr.steps > 100);
    float total = 0;
    for (size_t s = 1; s <= tr.steps; s++)
        total += tr.reward[s];
    assert_true(total > 0); /* the episode scored: rewards are compared, not only zeros */
    char path[4096];
    snprintf(path, sizeof path, "%s/" GAME "-Start-000000.bk2", dir);
    if (tr.done[tr.steps]) { /* written at the episode's end, waiting for the next reset */
        assert_true(exists(path));
        assert_null(rg_env_movie(env));
    }
    assert_int_equal(rg_env_movie_id(env), 1);
    assert_int_equal(rg_env_record_stop(env), RG_OK);
    assert_null(rg_env_record_folder(env));
    assert_int_equal(mt_count_entries(dir), 1);
    rg_env_free(env);

    rg_movie *m = open_movie(path);
    assert_int_equal(rg_movie_frame_count(m), 1 + tr.steps);
    assert_int_equal(rg_movie_players(m), 1);
    assert_string_equal(rg_movie_game(m), GAME);
    assert_string_equal(rg_movie_system(m)->name, "Nes");
    assert_int_equal(rg_movie_frame_buttons(m, 0, 0, &(uint16_t){0}), RG_OK);
    assert_int_equal(mt_frame(m, 0, 0), 0); /* the reset frame: no buttons */
    const uint8_t *state_data;
    size_t state_size;
    rg_movie_state(m, &state_data, &state_size);
    assert_true(state_size > 0);
    rg_movie_free(m);
    check_playback(path, &tr);
    free(dir);
}

/* Frame skip 3, sticky actions, no-op starts, a step limit; two episodes in a folder with a counter from 5. */
static void record_and_play_skip_sticky_noops(void **state)
{
    (void)state;
    char *dir = fresh_dir("skip");
    rg_env_options o = opts();
    o.frameskip = 3;
    o.sticky_prob = 0.25;
    o.noop_max = 30;
    o.max_episode_steps = 400;
    rg_env *env = make(o);
    assert_int_equal(rg_env_record_dir(env, dir, 5), RG_OK);
    play_random(env, 11, MAX_STEPS, &tr);
    assert_int_equal(tr.steps, 400); /* truncated: the movie is written then */
    char path[4096], path2[4096];
    snprintf(path, sizeof path, "%s/" GAME "-Start-000005.bk2", dir);
    snprintf(path2, sizeof path2, "%s/" GAME "-Start-000006.bk2", dir);
    assert_true(exists(path));
    play_random(env, 12, 50, &tr2); /* not ended: written by free */
    assert_non_null(rg_env_movie(env));
    assert_string_equal(rg_env_movie_path(env), path2);
    assert_false(exists(path2));
    rg_env_free(env);
    assert_true(exists(path2));
    check_playback(path, &tr);
    check_playback(path2, &tr2);
    rg_movie *m = open_movie(path);
    assert_true(rg_movie_frame_count(m) > 1 + 400 * 3 - 100); /* 3 lines a step (fewer only at done) */
    rg_movie_free(m);
    free(dir);
}

/* Recording leaves every result as it was: same observations, rewards and snapshot bytes. */
static void recording_changes_nothing(void **state)
{
    (void)state;
    char *dir = fresh_dir("same");
    rg_env_options o = opts();
    o.sticky_prob = 0.3;
    o.noop_max = 10;
    o.frameskip = 2;
    rg_env *a = make(o), *b = make(o);
    assert_int_equal(rg_env_record_dir(b, dir, 0), RG_OK);
    play_random(a, 5, 300, &tr);
    play_random(b, 5, 300, &tr2);
    assert_int_equal(tr.steps, tr2.steps);
    for (size_t s = 0; s <= tr.steps; s++) {
        assert_true(tr.obs[s] == tr2.obs[s] && tr.ram[s] == tr2.ram[s]);
        assert_true(tr.reward[s] == tr2.reward[s] && tr.done[s] == tr2.done[s]);
    }
    size_t na, nb;
    assert_int_equal(rg_env_clone_size(a, &na), RG_OK);
    assert_int_equal(rg_env_clone_size(b, &nb), RG_OK);
    assert_int_equal(na, nb);
    uint8_t *ca = malloc(na), *cb = malloc(nb);
    assert_int_equal(rg_env_clone(a, ca, na, &na), RG_OK);
    assert_int_equal(rg_env_clone(b, cb, nb, &nb), RG_OK);
    assert_memory_equal(ca, cb, na);
    free(ca);
    free(cb);
    rg_env_free(a);
    rg_env_free(b);
    free(dir);
}

/* rg_env_record_movie: before the first reset it waits; right after a reset it takes the episode whole (no-op
 * starts included); mid-episode it waits for the next reset; one movie, then recording stops. */
static void record_movie_one_file(void **state)
{
    (void)state;
    char *dir = fresh_dir("file");
    char p1[4096], p2[4096], p3[4096];
    snprintf(p1, sizeof p1, "%s/one.bk2", dir);
    snprintf(p2, sizeof p2, "%s/late.bk2", dir);
    snprintf(p3, sizeof p3, "%s/mid.bk2", dir);
    rg_env_options o = opts();
    o.noop_max = 20;
    o.max_episode_steps = 120;
    rg_env *env = make(o);
    assert_int_equal(rg_env_record_movie(env, p1), RG_OK);
    assert_string_equal(rg_env_movie_path(env), p1);
    assert_null(rg_env_movie(env));
    assert_null(rg_env_record_folder(env));
    assert_int_equal(rg_env_movie_id(env), 0);
    play_random(env, 3, MAX_STEPS, &tr);
    assert_true(exists(p1)); /* truncated at 120: written, recording over */
    assert_null(rg_env_movie_path(env));
    check_playback(p1, &tr);

    /* Right after a reset: the reset's frames are written with the episode. */
    assert_int_equal(rg_env_reset(env, 1, 99, NULL, 0), RG_OK);
    unsigned reset_frames = env->reset_frames;
    assert_true(reset_frames > 1); /* seed 99 draws some no-op starts */
    assert_int_equal(rg_env_record_movie(env, p2), RG_OK);
    assert_non_null(rg_env_movie(env));
    assert_int_equal(rg_movie_frame_count(rg_env_movie(env)), reset_frames);
    int64_t a[RG_MAX_BUTTONS] = {0};
    a[7] = 1; /* RIGHT */
    rg_step_result r;
    for (int s = 0; s < 10; s++)
        assert_int_equal(rg_env_step(env, a, rg_env_action_length(env), NULL, 0, &r), RG_OK);
    uint64_t last_obs = obs_hash(env);
    assert_int_equal(rg_env_record_stop(env), RG_OK);
    rg_movie *m = open_movie(p2);
    assert_int_equal(rg_movie_frame_count(m), reset_frames + 10);
    assert_int_equal(mt_frame(m, reset_frames, 0), 1u << 7);
    rg_movie_scores *sc;
    assert_int_equal(rg_movie_scores_read(&sc, p2), RG_OK);
    assert_int_equal(rg_movie_scores_first(sc), reset_frames - 1);
    float rw[RG_SCENARIO_MAX_PLAYERS];
    int done;
    assert_int_equal(rg_movie_scores_at(sc, 0, rw, &done), RG_ERANGE);
    rg_movie_scores_free(sc);
    rg_env *pb;
    assert_int_equal(rg_env_create_playback(&pb, m, &(rg_env_options){.version = RG_ENV_OPTIONS_VERSION,
                                                                        .paths = paths, .log = test_quiet_log},
                                            0),
                     RG_OK);
    assert_int_equal(rg_env_reset(pb, 0, 0, NULL, 0), RG_OK);
    for (uint64_t f = 1; f < rg_movie_frame_count(m); f++)
        assert_int_equal(rg_env_playback_step(pb, m, f, NULL, 0, &r), RG_OK);
    assert_true(obs_hash(pb) == last_obs);
    rg_env_free(pb);
    rg_movie_free(m);

    /* After a restore the episode's start is unknown: recording waits for the next reset, even at step 0. */
    size_t snap_size;
    assert_int_equal(rg_env_reset(env, 1, 5, NULL, 0), RG_OK);
    assert_int_equal(rg_env_clone_size(env, &snap_size), RG_OK);
    uint8_t *snap = malloc(snap_size);
    assert_int_equal(rg_env_clone(env, snap, snap_size, &snap_size), RG_OK);
    assert_int_equal(rg_env_restore(env, snap, snap_size), RG_OK);
    free(snap);
    assert_int_equal(rg_env_record_movie(env, p3), RG_OK);
    assert_null(rg_env_movie(env));
    assert_int_equal(rg_env_record_stop(env), RG_OK);
    assert_false(exists(p3));

    /* Mid-episode: waits for the next reset; that episode is recorded until the reset after it. */
    assert_int_equal(rg_env_record_movie(env, p3), RG_OK);
    assert_null(rg_env_movie(env));
    assert_int_equal(rg_env_step(env, a, rg_env_action_length(env), NULL, 0, &r), RG_OK);
    assert_false(exists(p3));
    assert_int_equal(rg_env_reset(env, 1, 1, NULL, 0), RG_OK);
    assert_non_null(rg_env_movie(env));
    for (int s = 0; s < 5; s++)
        assert_int_equal(rg_env_step(env, a, rg_env_action_length(env), NULL, 0, &r), RG_OK);
    assert_int_equal(rg_env_reset(env, 1, 1, NULL, 0), RG_OK);
    assert_true(exists(p3));
    assert_null(rg_env_movie_path(env)); /* one movie only */
    m = open_movie(p3);
    assert_int_equal(rg_movie_frame_count(m), env->reset_frames + 5);
    rg_movie_free(m);
    rg_env_free(env);
    free(dir);
}

/* A power-on start (State NONE) has no Core.bin and a "none" stem; it plays back from power-on. */
static void record_power_on(void **state)
{
    (void)state;
    char *dir = fresh_dir("poweron");
    rg_env_options o = opts();
    o.state = RG_STATE_NONE;
    rg_env *env = make(o);
    assert_int_equal(rg_env_record_dir(env, dir, 0), RG_OK);
    play_random(env, 4, 200, &tr);
    rg_env_free(env);
    char path[4096];
    snprintf(path, sizeof path, "%s/" GAME "-none-000000.bk2", dir);
    rg_movie *m = open_movie(path);
    const uint8_t *d;
    size_t n;
    rg_movie_state(m, &d, &n);
    assert_int_equal(n, 0);
    size_t size;
    char *core_bin = zip_entry_bytes(path, "Core.bin", &size);
    assert_null(core_bin);
    rg_movie_free(m);
    check_playback(path, &tr);
    free(dir);
}

/* Reading a recorded movie and saving it gives the same entries (retrogym.txt aside), again and again. */
static void round_trip(void **state)
{
    (void)state;
    char *dir = fresh_dir("trip");
    rg_env_options o = opts();
    o.frameskip = 4;
    rg_env *env = make(o);
    char p1[4096], p2[4096], p3[4096];
    snprintf(p1, sizeof p1, "%s/a.bk2", dir);
    snprintf(p2, sizeof p2, "%s/b.bk2", dir);
    snprintf(p3, sizeof p3, "%s/c.bk2", dir);
    assert_int_equal(rg_env_record_movie(env, p1), RG_OK);
    play_random(env, 21, 150, &tr);
    rg_env_free(env);
    rg_movie *m = open_movie(p1);
    assert_int_equal(rg_movie_save(m, p2), RG_OK);
    rg_movie *m2 = open_movie(p2);
    assert_int_equal(rg_movie_save(m2, p3), RG_OK);
    assert_int_equal(rg_movie_frame_count(m), rg_movie_frame_count(m2));
    for (uint64_t f = 0; f < rg_movie_frame_count(m); f++)
        assert_int_equal(mt_frame(m, f, 0), mt_frame(m2, f, 0));
    rg_movie_free(m);
    rg_movie_free(m2);
    const char *entries[] = {"Input Log.txt", "Header.txt", "Core.bin"};
    for (size_t e = 0; e < 3; e++) {
        size_t s1 = 0, s2 = 0, s3 = 0;
        char *b1 = zip_entry_bytes(p1, entries[e], &s1), *b2 = zip_entry_bytes(p2, entries[e], &s2),
             *b3 = zip_entry_bytes(p3, entries[e], &s3);
        assert_non_null(b1);
        assert_non_null(b2);
        assert_non_null(b3);
        assert_int_equal(s1, s2);
        assert_int_equal(s2, s3);
        assert_memory_equal(b1, b2, s1);
        assert_memory_equal(b2, b3, s2);
        free(b1);
        free(b2);
        free(b3);
    }
    size_t sz;
    char *extra = zip_entry_bytes(p1, "retrogym.txt", &sz);
    assert_non_null(extra);
    assert_true(strncmp(extra, "retrogym-scores 1\ncore nestopia\nplayers 1\nfirst 0\n", 48) == 0);
    free(extra);
    free(dir);
}

/* ---- stable-retro's reference movies ---- */

/* stable-retro's core for each system (the cores of its wheel), and our ROM's extension. */
static const struct {
    const char *system, *core, *ext;
} ref_systems[] = {
    {"Atari2600", "stella", "a26"},  {"GameBoy", "gambatte", "gb"}, {"GbColor", "gambatte", "gbc"},
    {"GbAdvance", "mgba", "gba"},    {"GameGear", "genesis_plus_gx", "gg"},
    {"Genesis", "genesis_plus_gx", "md"}, {"Nes", "fceumm", "nes"}, {"PCEngine", "mednafen_pce_fast", "pce"},
    {"Sms", "genesis_plus_gx", "sms"}, {"Snes", "snes9x", "sfc"},
};

/* stable-retro's own build of a core (in the project's .venv), or NULL. */
static int stable_retro_core(const char *core, char *out, size_t cap) { return test_wheel_core(core, out, cap); }

/* An integration MovieTest<System>-<System> around our test ROM (no data or scenario: none are needed). */
static void make_test_integration(const char *root, const char *system, const char *ext)
{
    test_rom rom;
    test_rom_get(system, &rom);
    char d[4096], file[4200];
    snprintf(d, sizeof d, "%s/MovieTest%s-%s", root, system, system);
    mkdir(d, 0700);
    snprintf(file, sizeof file, "%s/rom.%s", d, ext);
    size_t size;
    uint8_t *bytes = mt_read_file(rom.path, &size);
    mt_write_file(file, bytes, size);
    free(bytes);
}

static int pressed(const rg_system_info *sys, uint16_t mask, const char *button)
{
    int id = rg_system_button_id(sys, button);
    return id >= 0 && (mask >> id & 1);
}

/* The pad value the test ROM stores for a frame's buttons; *known: the bits that can be compared (some cores drop
 * opposite directions held together, so those are not compared then). */
static uint32_t expected_pad(const rg_system_info *sys, const test_rom *rom, uint16_t mask, uint32_t *known)
{
    uint32_t pad = 0;
    *known = 0;
    int ud = pressed(sys, mask, "UP") && pressed(sys, mask, "DOWN");
    int lr = pressed(sys, mask, "LEFT") && pressed(sys, mask, "RIGHT");
    for (size_t b = 0; b < rom->n_pad_bits; b++) {
        const char *name = rom->pad_bits[b].button;
        if ((ud && (!strcmp(name, "UP") || !strcmp(name, "DOWN"))) ||
            (lr && (!strcmp(name, "LEFT") || !strcmp(name, "RIGHT"))))
            continue;
        *known |= rom->pad_bits[b].bits;
        if (pressed(sys, mask, name))
            pad |= rom->pad_bits[b].bits;
    }
    return pad;
}

/* Every reference movie plays back on stable-retro's core for its system; each frame's buttons reach the test ROM
 * (its pad copy in RAM), so frames are neither lost nor shifted. Skipped per movie without the core. */
static void references_play_back(void **state)
{
    (void)state;
    char root[4096], data[2048];
    snprintf(root, sizeof root, "%s/refs", tmp);
    mt_rmtree(root);
    assert_int_equal(mkdir(root, 0700), 0);
    test_source_path("tests/movie/data", data, sizeof data);
    DIR *dirp = opendir(data);
    assert_non_null(dirp);
    struct dirent *e;
    int played = 0;
    while ((e = readdir(dirp))) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "sr-", 3) != 0 || len < 5 || strcmp(e->d_name + len - 4, ".bk2") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", data, e->d_name);
        rg_movie *m = open_movie(path);
        const char *system = rg_movie_system(m)->name;
        size_t k = 0;
        while (strcmp(ref_systems[k].system, system) != 0)
            k++;
        char core[4096];
        const uint8_t *st;
        size_t st_size;
        rg_movie_state(m, &st, &st_size);
        if (!stable_retro_core(ref_systems[k].core, core, sizeof core)) {
            /* Without stable-retro's core a power-on movie still plays on an installed core. */
            const rg_system_info *sys = rg_movie_system(m);
            core[0] = '\0';
            for (size_t c = 0; st_size == 0 && !core[0] && c < sys->n_cores; c++)
                if (test_core_installed(sys->cores[c]))
                    snprintf(core, sizeof core, "%s", sys->cores[c]);
            if (!core[0]) {
                print_message("skipped %s: no %s core from stable-retro\n", e->d_name, ref_systems[k].core);
                rg_movie_free(m);
                continue;
            }
        }
        char game_dir[4200];
        snprintf(game_dir, sizeof game_dir, "%s/MovieTest%s-%s", root, system, system);
        if (!exists(game_dir))
            make_test_integration(root, system, ref_systems[k].ext);
        rg_integration_paths *dp;
        assert_int_equal(rg_integration_paths_create(&dp, root), RG_OK);
        assert_int_equal(rg_integration_paths_add_custom_integration(dp, root), RG_OK);
        rg_env_options o = RG_ENV_OPTIONS_INIT;
        o.paths = dp;
        o.integrations = RG_INTEGRATIONS_CUSTOM_ONLY;
        o.core = core;
        o.log = test_quiet_log;
        rg_env *env;
        if (rg_env_create_playback(&env, m, &o, 0) != RG_OK)
            fail_msg("%s: %s", e->d_name, rg_error_last());
        test_rom rom;
        test_rom_get(system, &rom);
        assert_int_equal(rg_env_reset(env, 0, 0, NULL, 0), RG_OK);
        rg_step_result r;
        unsigned checked = 0;
        for (uint64_t f = 1; f < rg_movie_frame_count(m); f++) {
            assert_int_equal(rg_env_playback_step(env, m, f, NULL, 0, &r), RG_OK);
            if (f + 1 < rom.pad_lag || (st_size == 0 && f < rom.warmup + rom.pad_lag)) /* from power-on, the ROM
                                                                                          boots first */
                continue;
            uint32_t known;
            uint32_t want = expected_pad(rg_env_system(env), &rom, mt_frame(m, f + 1 - rom.pad_lag, 0), &known);
            uint32_t got = test_read_pad(rg_env_emu(env), &rom) & known;
            if (got != want)
                fail_msg("%s frame %llu: pad 0x%x, buttons of the movie give 0x%x", e->d_name, (unsigned long long)f,
                         got, want);
            checked++;
        }
        assert_true(checked > 30);
        played++;
        rg_env_free(env);
        rg_integration_paths_free(dp);
        rg_movie_free(m);
    }
    closedir(dirp);
    print_message("%d reference movies played back\n", played);
    if (played == 0)
        skip();
}

/* ---- errors ---- */

static void write_movie(const char *path, const char *system, const char *game, const void *state, size_t size,
                        unsigned frames)
{
    rg_movie *m;
    assert_int_equal(rg_movie_open_write(&m, path, system, game, 1), RG_OK);
    if (size)
        assert_int_equal(rg_movie_set_state(m, state, size), RG_OK);
    for (unsigned f = 0; f < frames; f++)
        assert_int_equal(rg_movie_step(m), 1);
    assert_int_equal(rg_movie_close(m), RG_OK);
    rg_movie_free(m);
}

static int playback_error(const char *path, const char *game)
{
    rg_movie *m = open_movie(path);
    rg_env_options o = opts();
    o.game = game;
    rg_env *env = (rg_env *)1;
    int rc = rg_env_create_playback(&env, m, &o, 0);
    assert_null(env);
    rg_movie_free(m);
    return rc;
}

/* Rewrites the movie at path with this retrogym.txt, as recording does. */
static int attach_scores(const char *path, const char *text)
{
    rg_movie *m;
    int rc = rg_movie_open_read(&m, path);
    if (rc == RG_OK) {
        rc = rg__movie_save_with(m, path, RG__SCORES_ENTRY, text);
        rg_movie_free(m);
    }
    return rc;
}

static void errors(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    char *dir = fresh_dir("errors");
    char path[4096], missing[4096];
    snprintf(missing, sizeof missing, "%s/no/such/folder", dir);
    rg_env *env = make(opts());
    assert_int_equal(rg_env_record_dir(env, missing, 0), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "no such folder"));
    snprintf(path, sizeof path, "%s/x.bk2", missing);
    assert_int_equal(rg_env_record_movie(env, path), RG_ENOTFOUND);
    assert_int_equal(rg_env_record_dir(env, NULL, 0), RG_EINVAL);
    assert_int_equal(rg_env_record_movie(env, ""), RG_EINVAL);
    assert_int_equal(rg_env_record_dir(NULL, dir, 0), RG_EINVAL);
    assert_int_equal(rg_env_record_stop(env), RG_OK); /* not recording: nothing to do */
    assert_null(rg_env_movie(NULL));
    assert_null(rg_env_movie_path(env));

    /* A folder that vanishes: the step that ends the episode completes and reports the failed write; the
     * recording stops and the environment goes on. */
    char *gone = fresh_dir("gone");
    rg_env_options o = opts();
    o.max_episode_steps = 20;
    rg_env *e2 = make(o);
    assert_int_equal(rg_env_record_dir(e2, gone, 0), RG_OK);
    assert_int_equal(rg_env_reset(e2, 1, 1, NULL, 0), RG_OK);
    int64_t a[RG_MAX_BUTTONS] = {0};
    rg_step_result r;
    uint8_t *obs = malloc(rg_env_obs_size(e2));
    for (int s = 0; s < 19; s++)
        assert_int_equal(rg_env_step(e2, a, rg_env_action_length(e2), obs, rg_env_obs_size(e2), &r), RG_OK);
    mt_rmtree(gone);
    memset(obs, 0, rg_env_obs_size(e2));
    assert_int_equal(rg_env_step(e2, a, rg_env_action_length(e2), obs, rg_env_obs_size(e2), &r), RG_EIO);
    assert_non_null(strstr(rg_error_last(), gone));
    assert_true(r.truncated && r.frames == 1);
    assert_true(test_hash(obs, rg_env_obs_size(e2), 0) == obs_hash(e2)); /* the observation was written */
    assert_null(rg_env_record_folder(e2));
    assert_int_equal(rg_env_reset(e2, 1, 1, NULL, 0), RG_OK);
    free(obs);
    rg_env_free(e2);
    free(gone);

    /* Playback: a game that does not exist, another system, a state the core refuses, no game name. */
    snprintf(path, sizeof path, "%s/nogame.bk2", dir);
    write_movie(path, "Nes", "NoSuchGame-Nes", NULL, 0, 3);
    assert_int_equal(playback_error(path, NULL), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "NoSuchGame-Nes"));
    snprintf(path, sizeof path, "%s/snes.bk2", dir);
    write_movie(path, "Snes", GAME, NULL, 0, 3);
    assert_int_equal(playback_error(path, NULL), RG_EINVAL);
    assert_non_null(strstr(rg_error_last(), "the movie is for Snes"));
    snprintf(path, sizeof path, "%s/badstate.bk2", dir);
    write_movie(path, "Nes", GAME, "not a nestopia state", 20, 3);
    assert_int_equal(playback_error(path, NULL), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "Core.bin"));
    snprintf(path, sizeof path, "%s/nameless.bk2", dir);
    write_movie(path, "Nes", NULL, NULL, 0, 3);
    assert_int_equal(playback_error(path, NULL), RG_EINVAL);
    assert_non_null(strstr(rg_error_last(), "names no game"));
    assert_int_equal(playback_error(path, "NoSuchGame-Nes"), RG_ENOTFOUND); /* the game given instead */

    /* A movie opened for writing, stepping out of range, an env of another action mode. */
    rg_movie *w;
    snprintf(path, sizeof path, "%s/w.bk2", dir);
    assert_int_equal(rg_movie_open_write(&w, path, "Nes", GAME, 1), RG_OK);
    rg_env *pb = (rg_env *)1;
    assert_int_equal(rg_env_create_playback(&pb, w, NULL, 0), RG_EINVAL);
    assert_null(pb);
    rg_movie_free(w);
    snprintf(path, sizeof path, "%s/ok.bk2", dir);
    write_movie(path, "Nes", GAME, NULL, 0, 3);
    rg_movie *m = open_movie(path);
    assert_int_equal(rg_env_playback_step(env, m, 1, NULL, 0, &r), RG_EINVAL); /* env is FILTERED */
    o = opts();
    assert_int_equal(rg_env_create_playback(&pb, m, &o, 0), RG_OK);
    assert_int_equal(rg_env_playback_step(pb, m, 1, NULL, 0, &r), RG_EMISUSE); /* no reset yet */
    assert_int_equal(rg_env_reset(pb, 0, 0, NULL, 0), RG_OK);
    assert_int_equal(rg_env_playback_step(pb, m, 0, NULL, 0, &r), RG_ERANGE);
    assert_int_equal(rg_env_playback_step(pb, m, 3, NULL, 0, &r), RG_ERANGE);
    assert_int_equal(rg_env_playback_step(pb, m, 2, NULL, 0, &r), RG_OK);
    rg_env_free(pb);
    rg_movie_free(m);

    /* Recorded rewards: missing file, not a zip, a movie without them, a damaged entry. */
    rg_movie_scores *sc = (rg_movie_scores *)1;
    snprintf(path, sizeof path, "%s/none.bk2", dir);
    assert_int_equal(rg_movie_scores_read(&sc, path), RG_ENOTFOUND);
    assert_null(sc);
    snprintf(path, sizeof path, "%s/junk.bk2", dir);
    mt_write_file(path, "junk", 4);
    assert_int_equal(rg_movie_scores_read(&sc, path), RG_ECORRUPT);
    char ref[2048];
    test_source_path("tests/movie/data/sr-Nes.bk2", ref, sizeof ref);
    assert_int_equal(rg_movie_scores_read(&sc, ref), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "no recorded rewards"));
    static const char *const bad[] = {
        "",                                                           /* empty */
        "retrogym-scores 2\nplayers 1\nframes 3\n",                   /* another version */
        "retrogym-scores 1\nplayers 1\n0 1 0\n",                      /* a frame before frames */
        "retrogym-scores 1\nplayers 1\nframes 3\n3 1 0\n",            /* frame out of range */
        "retrogym-scores 1\nplayers 1\nframes 3\n2 1 0\n1 1 0\n",     /* out of order */
        "retrogym-scores 1\nplayers 2\nframes 3\n1 1 0\n",            /* a reward missing */
        "retrogym-scores 1\nplayers 1\nframes 3\n1 x 0\n",            /* not a number */
        "retrogym-scores 1\nplayers 1\nframes 3\n1 1 2\n",            /* bad flag */
        "retrogym-scores 1\nplayers 9\nframes 3\n",                   /* players */
        "retrogym-scores 1\nplayers 1\nframes 3\nfirst 4\n",          /* first after the end */
        "retrogym-scores 1\nplayers 1\n",                             /* no frames line */
        "retrogym-scores 1\nplayers 1\nframes 3\ngarbage\n",          /* not key value */
    };
    snprintf(path, sizeof path, "%s/ok.bk2", dir);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(attach_scores(path, bad[i]), RG_OK);
        if (rg_movie_scores_read(&sc, path) != RG_ECORRUPT)
            fail_msg("bad retrogym.txt %zu was accepted", i);
        assert_non_null(strstr(rg_error_last(), "retrogym.txt"));
    }
    assert_int_equal(attach_scores(path, "retrogym-scores 1\ncore x\nplayers 2\nfirst 1\nframes 3\n"
                                             "future-key whatever\n2 1.5 -2 1\n"),
                     RG_OK);
    assert_int_equal(rg_movie_scores_read(&sc, path), RG_OK);
    float rw[RG_SCENARIO_MAX_PLAYERS];
    int done;
    assert_int_equal(rg_movie_scores_at(sc, 0, rw, &done), RG_ERANGE);
    assert_int_equal(rg_movie_scores_at(sc, 1, rw, &done), RG_OK);
    assert_true(rw[0] == 0 && rw[1] == 0 && !done);
    assert_int_equal(rg_movie_scores_at(sc, 2, rw, &done), RG_OK);
    assert_true(rw[0] == 1.5f && rw[1] == -2.0f && done);
    assert_int_equal(rg_movie_scores_at(sc, 3, rw, &done), RG_ERANGE);
    assert_string_equal(rg_movie_scores_core(sc), "x");
    rg_movie_scores_free(sc);
    m = open_movie(path); /* the extra entry leaves the movie readable */
    assert_int_equal(rg_movie_frame_count(m), 3);
    rg_movie_free(m);
    rg_env_free(env);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_and_play_one_frame_steps),
        cmocka_unit_test(record_and_play_skip_sticky_noops),
        cmocka_unit_test(recording_changes_nothing),
        cmocka_unit_test(record_movie_one_file),
        cmocka_unit_test(record_power_on),
        cmocka_unit_test(round_trip),
        cmocka_unit_test(references_play_back),
        cmocka_unit_test(errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
