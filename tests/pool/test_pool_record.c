/* Recording a pool's episodes (src/pool/pool_record.c) on our game: one subfolder per environment, one movie per
 * episode across the workers' autoresets (NEXT_STEP and SAME_STEP), each movie the very one an independent
 * environment with the same seed and actions records (entry by entry) and playing back to the rewards the pool
 * returned; rg_pool_record_stop writes the open movies; refusals while steps are in flight; folders that cannot be
 * made or written. */
#define _POSIX_C_SOURCE 200809L
#include "../movie/movie_test_util.h"

#include <math.h>

#define N 3
#define THREADS 2
#define SEED 100
#define MAX_STEPS 40   /* episodes of the async and error tests */
#define LONG_STEPS 200 /* env i's episodes in the comparisons: LONG_STEPS - 30 i steps (the game scores late) */
#define STEPS 460
#define MAX_EPISODES 16

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

static rg_env_options env_opts(uint64_t max_steps)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "StarCatcher-Nes";
    o.paths = paths;
    o.log = test_quiet_log;
    o.actions = RG_ACTIONS_DISCRETE;
    o.frameskip = 2;
    o.sticky_prob = 0.25; /* each env's generator: a movie holds the buttons really held */
    o.noop_max = 6;       /* no-op starts are lines of the reset */
    o.max_episode_steps = max_steps;
    return o;
}

static rg_pool *make_pool(const rg_env_options *eo, size_t n_opts, rg_autoreset_mode mode)
{
    if (!test_core_installed("nestopia"))
        skip();
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.envs = eo;
    po.n_env_options = n_opts;
    po.num_envs = N;
    po.num_threads = THREADS;
    po.autoreset = mode;
    po.seed = SEED;
    rg_pool *p;
    if (rg_pool_create(&p, &po) != RG_OK)
        fail_msg("pool: %s", rg_error_last());
    return p;
}

/* Env i's action at a step: changes every few steps, moves often (the game scores). */
static int64_t action_of(size_t env, unsigned step)
{
    return (int64_t)((env * 7 + step / 4 * 11) % 36);
}

static char *path_of(const char *a, const char *b)
{
    char *p = malloc(4096);
    assert_non_null(p);
    snprintf(p, 4096, "%s/%s", a, b);
    return p;
}

static char *fresh_dir(const char *name)
{
    char *dir = path_of(tmp, name);
    mt_rmtree(dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    return dir;
}

static char *env_dir(const char *dir, size_t i)
{
    char name[32];
    snprintf(name, sizeof name, "env-%03zu", i);
    return path_of(dir, name);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder's entry names, sorted (at most `cap`); returns their number. */
static size_t list_dir(const char *dir, char **names, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        assert_true(n < cap);
        names[n] = strdup(e->d_name);
        assert_non_null(names[n]);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    return n;
}

static void free_names(char **names, size_t n)
{
    for (size_t k = 0; k < n; k++)
        free(names[k]);
}

/* An archive's entries (names and bytes) equal another's: the same movie, whatever the files' zip timestamps. */
static void same_entries(const char *a, const char *b)
{
    int err;
    zip_t *za = zip_open(a, ZIP_RDONLY, &err), *zb = zip_open(b, ZIP_RDONLY, &err);
    assert_non_null(za);
    assert_non_null(zb);
    zip_int64_t n = zip_get_num_entries(za, 0);
    assert_true(n >= 2); /* Input Log.txt, Header.txt (and Core.bin, retrogym.txt) */
    assert_int_equal(n, zip_get_num_entries(zb, 0));
    for (zip_int64_t k = 0; k < n; k++) {
        const char *name = zip_get_name(za, (zip_uint64_t)k, 0);
        assert_non_null(name);
        assert_string_equal(name, zip_get_name(zb, (zip_uint64_t)k, 0));
        zip_stat_t sa, sb;
        assert_int_equal(zip_stat_index(za, (zip_uint64_t)k, 0, &sa), 0);
        assert_int_equal(zip_stat_index(zb, (zip_uint64_t)k, 0, &sb), 0);
        if (sa.size != sb.size)
            fail_msg("%s: entry %s has %llu bytes, %llu in %s", a, name, (unsigned long long)sa.size,
                     (unsigned long long)sb.size, b);
        uint8_t *da = malloc(sa.size + 1), *db = malloc(sb.size + 1);
        zip_file_t *fa = zip_fopen_index(za, (zip_uint64_t)k, 0), *fb = zip_fopen_index(zb, (zip_uint64_t)k, 0);
        assert_true(da && db && fa && fb);
        assert_int_equal(zip_fread(fa, da, sa.size), (zip_int64_t)sa.size);
        assert_int_equal(zip_fread(fb, db, sb.size), (zip_int64_t)sb.size);
        if (memcmp(da, db, sa.size) != 0)
            fail_msg("%s: entry %s differs from %s's", a, name, b);
        zip_fclose(fa);
        zip_fclose(fb);
        free(da);
        free(db);
    }
    zip_close(za);
    zip_close(zb);
}

/* The movie's frames and buttons equal the other's (what the entry comparison says, through the movie API). */
static void same_frames(const char *a, const char *b)
{
    rg_movie *ma, *mb;
    assert_int_equal(rg_movie_open_read(&ma, a), RG_OK);
    assert_int_equal(rg_movie_open_read(&mb, b), RG_OK);
    uint64_t frames = rg_movie_frame_count(ma);
    assert_true(frames > 1);
    assert_int_equal(frames, rg_movie_frame_count(mb));
    for (uint64_t f = 0; f < frames; f++) {
        uint16_t x, y;
        assert_int_equal(rg_movie_frame_buttons(ma, f, 0, &x), RG_OK);
        assert_int_equal(rg_movie_frame_buttons(mb, f, 0, &y), RG_OK);
        assert_int_equal(x, y);
    }
    rg_movie_free(ma);
    rg_movie_free(mb);
}

/* Plays a movie back frame by frame; returns player 1's total reward and its number of frames. */
static float play_back(const char *path, uint64_t *frames)
{
    rg_movie *m;
    if (rg_movie_open_read(&m, path) != RG_OK)
        fail_msg("open %s: %s", path, rg_error_last());
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.paths = paths;
    o.log = test_quiet_log;
    rg_env *env;
    if (rg_env_create_playback(&env, m, &o, 0) != RG_OK)
        fail_msg("playback %s: %s", path, rg_error_last());
    assert_int_equal(rg_env_reset(env, 0, 0, NULL, 0), RG_OK);
    float sum = 0;
    uint64_t total = rg_movie_frame_count(m);
    for (uint64_t f = 1; f < total; f++) {
        rg_step_result r;
        assert_int_equal(rg_env_playback_step(env, m, f, NULL, 0, &r), RG_OK);
        sum += r.rewards[0];
    }
    *frames = total;
    rg_env_free(env);
    rg_movie_free(m);
    return sum;
}

/* What the pool returned for each environment's episodes (episode k: its movie number k). */
typedef struct episodes {
    float reward[N][MAX_EPISODES];
    size_t count[N];   /* episodes begun */
} episodes;

/* Runs STEPS steps of the pool recording into `dir` (from its creation on). */
static void run_pool(rg_autoreset_mode mode, const char *dir, episodes *ep)
{
    rg_env_options eo[N];
    for (size_t i = 0; i < N; i++)
        eo[i] = env_opts(LONG_STEPS - 30 * i);
    rg_pool *p = make_pool(eo, N, mode);
    assert_int_equal(rg_pool_record_dir(p, dir), RG_OK);
    for (size_t i = 0; i < N; i++) {
        char *sub = env_dir(dir, i);
        assert_string_equal(rg_env_record_folder(rg_pool_env(p, i)), sub); /* made, waiting for the first reset */
        assert_null(rg_env_movie_path(rg_pool_env(p, i)));
        free(sub);
    }
    memset(ep, 0, sizeof *ep);
    rg_pool_batch b;
    assert_int_equal(rg_pool_reset(p, NULL, 0, &b), RG_OK);
    for (size_t i = 0; i < N; i++)
        ep->count[i] = 1;
    int ended[N] = {0};
    int64_t actions[N];
    for (unsigned s = 0; s < STEPS; s++) {
        for (size_t i = 0; i < N; i++)
            actions[i] = action_of(i, s);
        if (rg_pool_step(p, actions, &b) != RG_OK)
            fail_msg("step %u: %s", s, rg_error_last());
        for (size_t k = 0; k < b.count; k++) {
            size_t i = (size_t)b.env_ids[k];
            if (mode == RG_AUTORESET_NEXT_STEP && ended[i]) { /* this step was the reset */
                assert_true(ep->count[i] < MAX_EPISODES);
                ep->count[i]++;
                ended[i] = 0;
                continue;
            }
            ep->reward[i][ep->count[i] - 1] += b.rewards[k * RG_SCENARIO_MAX_PLAYERS];
            if (b.terminated[k] || b.truncated[k]) {
                if (mode == RG_AUTORESET_NEXT_STEP) {
                    ended[i] = 1;
                } else {
                    assert_true(b.has_final[k]);
                    assert_true(ep->count[i] < MAX_EPISODES);
                    ep->count[i]++;
                }
            }
        }
    }
    for (size_t i = 0; i < N; i++) /* the episode going on is being recorded */
        assert_non_null(rg_env_movie_path(rg_pool_env(p, i)));
    assert_int_equal(rg_pool_record_stop(p), RG_OK);
    for (size_t i = 0; i < N; i++) {
        assert_null(rg_env_record_folder(rg_pool_env(p, i)));
        assert_null(rg_env_movie_path(rg_pool_env(p, i)));
    }
    assert_int_equal(rg_pool_record_stop(p), RG_OK); /* not recording: nothing to do */
    assert_int_equal(rg_pool_step(p, actions, &b), RG_OK); /* steps go on without recording */
    rg_pool_free(p);
}

/* The same episodes from independent environments recording alike (the pool's seeds, actions and autoresets). */
static void run_single(rg_autoreset_mode mode, const char *dir)
{
    for (size_t i = 0; i < N; i++) {
        rg_env_options eo = env_opts(LONG_STEPS - 30 * i);
        rg_env *env;
        assert_int_equal(rg_env_create(&env, &eo), RG_OK);
        char *sub = env_dir(dir, i);
        assert_int_equal(mkdir(sub, 0700), 0);
        assert_int_equal(rg_env_record_dir(env, sub, 0), RG_OK);
        assert_int_equal(rg_env_reset(env, 1, SEED + i, NULL, 0), RG_OK);
        int ended = 0;
        for (unsigned s = 0; s < STEPS; s++) {
            if (ended) {
                assert_int_equal(rg_env_reset(env, 0, 0, NULL, 0), RG_OK);
                ended = 0;
                continue;
            }
            int64_t a = action_of(i, s);
            rg_step_result r;
            assert_int_equal(rg_env_step(env, &a, 1, NULL, 0, &r), RG_OK);
            if (r.terminated || r.truncated) {
                if (mode == RG_AUTORESET_NEXT_STEP)
                    ended = 1;
                else
                    assert_int_equal(rg_env_reset(env, 0, 0, NULL, 0), RG_OK);
            }
        }
        assert_int_equal(rg_env_record_stop(env), RG_OK);
        rg_env_free(env);
        free(sub);
    }
}

static void check_mode(rg_autoreset_mode mode, const char *name)
{
    char pname[64], sname[64];
    snprintf(pname, sizeof pname, "pool-%s", name);
    snprintf(sname, sizeof sname, "single-%s", name);
    char *pdir = fresh_dir(pname), *sdir = fresh_dir(sname);
    episodes ep;
    run_pool(mode, pdir, &ep);
    run_single(mode, sdir);
    char *top[8];
    size_t ntop = list_dir(pdir, top, 8);
    assert_int_equal(ntop, N);
    for (size_t i = 0; i < N; i++) {
        char want[32];
        snprintf(want, sizeof want, "env-%03zu", i);
        assert_string_equal(top[i], want);
    }
    free_names(top, ntop);
    int scored = 0;
    for (size_t i = 0; i < N; i++) {
        char *pd = env_dir(pdir, i), *sd = env_dir(sdir, i);
        char *pn[MAX_EPISODES + 1], *sn[MAX_EPISODES + 1];
        size_t np = list_dir(pd, pn, MAX_EPISODES + 1), ns = list_dir(sd, sn, MAX_EPISODES + 1);
        assert_true(ep.count[i] >= 3); /* several autoresets */
        assert_int_equal(np, ep.count[i]);
        assert_int_equal(np, ns);
        for (size_t k = 0; k < np; k++) {
            char want[64];
            snprintf(want, sizeof want, "StarCatcher-Nes-Start-%06zu.bk2", k);
            assert_string_equal(pn[k], want);
            assert_string_equal(sn[k], want);
            char *pf = path_of(pd, pn[k]), *sf = path_of(sd, sn[k]);
            same_entries(pf, sf);
            same_frames(pf, sf);
            uint64_t frames;
            float got = play_back(pf, &frames);
            if (fabsf(got - ep.reward[i][k]) > 1e-3f)
                fail_msg("%s plays back to %g, the pool returned %g", pf, (double)got, (double)ep.reward[i][k]);
            scored |= got != 0.0f;
            free(pf);
            free(sf);
        }
        free_names(pn, np);
        free_names(sn, ns);
        free(pd);
        free(sd);
    }
    assert_true(scored); /* rewards were compared, not only zeros */
    free(pdir);
    free(sdir);
}

static void records_like_independent_envs_next_step(void **state)
{
    (void)state;
    check_mode(RG_AUTORESET_NEXT_STEP, "next");
}

static void records_like_independent_envs_same_step(void **state)
{
    (void)state;
    check_mode(RG_AUTORESET_SAME_STEP, "same");
}

/* Async steps: the record calls refuse while steps are in flight (changing nothing), movies follow send/recv; a
 * recording started right after a reset holds the current episodes; a new folder ends the movies of the old one. */
static void async_and_in_flight(void **state)
{
    (void)state;
    rg_env_options eo = env_opts(MAX_STEPS);
    rg_pool *p = make_pool(&eo, 1, RG_AUTORESET_NEXT_STEP);
    char *dir = fresh_dir("async"), *dir2 = fresh_dir("async2");
    rg_pool_batch b;
    assert_int_equal(rg_pool_reset(p, NULL, 0, &b), RG_OK);
    assert_int_equal(rg_pool_record_dir(p, dir), RG_OK);
    for (size_t i = 0; i < N; i++) /* right after the reset: this episode is recorded */
        assert_non_null(rg_env_movie_path(rg_pool_env(p, i)));
    int32_t ids[N] = {0, 1, 2};
    int64_t actions[N] = {3, 14, 25};
    assert_int_equal(rg_pool_send(p, actions, ids, N), RG_OK);
    assert_int_equal(rg_pool_record_dir(p, dir2), RG_EMISUSE);
    assert_non_null(strstr(rg_error_last(), "in flight"));
    assert_int_equal(rg_pool_record_stop(p), RG_EMISUSE);
    assert_int_equal(rg_pool_recv(p, &b), RG_OK);
    for (size_t i = 0; i < N; i++) /* the refusals changed nothing */
        assert_non_null(rg_env_movie_path(rg_pool_env(p, i)));
    for (unsigned s = 0; s < 2 * MAX_STEPS + 5; s++) {
        assert_int_equal(rg_pool_send(p, actions, ids, N), RG_OK);
        assert_int_equal(rg_pool_recv(p, &b), RG_OK);
        for (size_t k = 0; k < b.count; k++)
            ids[k] = b.env_ids[k];
    }
    assert_int_equal(rg_pool_record_dir(p, dir2), RG_OK); /* writes the movies open in dir */
    for (size_t i = 0; i < N; i++) /* mid-episode: recording into dir2 starts at the next reset */
        assert_null(rg_env_movie_path(rg_pool_env(p, i)));
    for (unsigned s = 0; s < MAX_STEPS; s++) {
        assert_int_equal(rg_pool_send(p, actions, ids, N), RG_OK);
        assert_int_equal(rg_pool_recv(p, &b), RG_OK);
        for (size_t k = 0; k < b.count; k++)
            ids[k] = b.env_ids[k];
    }
    for (size_t i = 0; i < N; i++)
        assert_non_null(rg_env_movie_path(rg_pool_env(p, i)));
    rg_pool_free(p); /* writes the movies open in dir2 */
    for (size_t i = 0; i < N; i++) {
        char *a = env_dir(dir, i), *c = env_dir(dir2, i);
        assert_int_equal(mt_count_entries(a), 3); /* two whole episodes and the third's start */
        assert_int_equal(mt_count_entries(c), 1);
        free(a);
        free(c);
    }
    free(dir);
    free(dir2);
}

/* Folders that are missing, cannot be made or cannot be written: clear errors, and the pool goes on. */
static void unwritable_folders(void **state)
{
    (void)state;
    rg_env_options eo = env_opts(MAX_STEPS);
    rg_pool *p = make_pool(&eo, 1, RG_AUTORESET_NEXT_STEP);
    char *missing = path_of(tmp, "no-such-folder");
    assert_int_equal(rg_pool_record_dir(p, missing), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "no such folder"));
    assert_int_equal(rg_pool_record_dir(p, NULL), RG_EINVAL);
    assert_int_equal(rg_pool_record_dir(NULL, missing), RG_EINVAL);
    assert_int_equal(rg_pool_record_stop(NULL), RG_EINVAL);

    /* env-001 is a file: nothing starts recording */
    char *blocked = fresh_dir("blocked");
    char *file = env_dir(blocked, 1);
    mt_write_file(file, "x", 1);
    assert_int_equal(rg_pool_record_dir(p, blocked), RG_EIO);
    assert_non_null(strstr(rg_error_last(), "env-001"));
    for (size_t i = 0; i < N; i++)
        assert_null(rg_env_record_folder(rg_pool_env(p, i)));
    if (geteuid() != 0) { /* root writes into read-only folders */
        char *ro = fresh_dir("read-only");
        assert_int_equal(chmod(ro, 0500), 0);
        assert_int_equal(rg_pool_record_dir(p, ro), RG_EIO);
        assert_non_null(strstr(rg_error_last(), "env-000"));
        chmod(ro, 0700);
        free(ro);
    }

    /* env-001 vanishes (a file takes its place) while recording: its movie cannot be written at its episode's end */
    char *dir = fresh_dir("vanish");
    assert_int_equal(rg_pool_record_dir(p, dir), RG_OK);
    rg_pool_batch b;
    assert_int_equal(rg_pool_reset(p, NULL, 0, &b), RG_OK);
    char *sub1 = env_dir(dir, 1);
    assert_int_equal(rmdir(sub1), 0);
    mt_write_file(sub1, "x", 1);
    int64_t actions[N] = {1, 2, 3};
    int failed = 0;
    unsigned s = 0;
    for (; s < MAX_STEPS && !failed; s++) {
        int rc = rg_pool_step(p, actions, &b);
        if (rc != RG_OK) {
            failed = 1;
            assert_int_equal(rc, RG_EIO);
            const char *msg = rg_error_last();
            if (!strstr(msg, "environment 1") || !strstr(msg, "env-001"))
                fail_msg("unclear error: %s", msg);
        }
    }
    assert_true(failed);
    assert_int_equal(s, MAX_STEPS); /* at the truncation, when the movie is written */
    assert_null(rg_env_record_folder(rg_pool_env(p, 1))); /* env 1 stopped recording, the others go on */
    assert_non_null(rg_env_record_folder(rg_pool_env(p, 0)));
    assert_non_null(rg_env_record_folder(rg_pool_env(p, 2)));
    for (unsigned k = 0; k < MAX_STEPS + 3; k++) /* the pool goes on; env 1 starts a new episode */
        if (rg_pool_step(p, actions, &b) != RG_OK)
            fail_msg("step after the failure: %s", rg_error_last());
    assert_int_equal(rg_pool_record_stop(p), RG_OK);
    char *sub0 = env_dir(dir, 0), *sub2 = env_dir(dir, 2);
    assert_int_equal(mt_count_entries(sub0), 3);
    assert_int_equal(mt_count_entries(sub2), 3);
    /* recording again after the folder is back */
    assert_int_equal(unlink(sub1), 0);
    assert_int_equal(rg_pool_record_dir(p, dir), RG_OK);
    assert_int_equal(rg_pool_step(p, actions, &b), RG_OK);
    assert_int_equal(rg_pool_record_stop(p), RG_OK);
    assert_int_equal(mt_count_entries(sub1), 0); /* recording starts at the next reset */
    rg_pool_free(p);
    free(sub0);
    free(sub1);
    free(sub2);
    free(dir);
    free(file);
    free(blocked);
    free(missing);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(records_like_independent_envs_next_step),
        cmocka_unit_test(records_like_independent_envs_same_step),
        cmocka_unit_test(async_and_in_flight),
        cmocka_unit_test(unwritable_folders),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
