/* The vectorized engine on our game: batched results equal independent environments stepped alike, whatever
 * the number of threads; autoreset modes; async send/recv ids; worker errors reported; shutdown while busy. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4

static rg_integration_paths *paths;

static int setup(void **state)
{
    (void)state;
    return test_data_setup(&paths, NULL);
}

static int teardown(void **state)
{
    (void)state;
    test_data_teardown(paths, NULL);
    return 0;
}

static rg_env_options env_opts(uint64_t max_steps)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "StarCatcher-Nes";
    o.paths = paths;
    o.log = test_quiet_log;
    o.actions = RG_ACTIONS_DISCRETE;
    o.sticky_prob = 0.2; /* uses each env's generator: seeds must reach the right env */
    o.max_episode_steps = max_steps;
    return o;
}

static rg_pool *make_pool(const rg_env_options *eo, unsigned threads, size_t batch, rg_autoreset_mode mode)
{
    if (!test_core_installed("nestopia"))
        skip();
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.envs = eo;
    po.n_env_options = 1;
    po.num_envs = N;
    po.num_threads = threads;
    po.batch_size = batch;
    po.autoreset = mode;
    po.seed = 100;
    rg_pool *p;
    if (rg_pool_create(&p, &po) != RG_OK)
        fail_msg("pool: %s", rg_error_last());
    return p;
}

static int64_t action_of(size_t env, unsigned step)
{
    return (int64_t)((env * 7 + step / 5 * 11) % 36);
}

/* Independent environments stepped as a NEXT_STEP pool would step them. */
typedef struct single {
    rg_env *env;
    uint8_t *obs;
    int ended;
} single;

static void single_step(single *s, unsigned step, size_t i, float *reward, int *term, int *trunc)
{
    size_t size = rg_env_obs_size(s->env);
    *reward = 0;
    *term = *trunc = 0;
    if (s->ended) {
        assert_int_equal(rg_env_reset(s->env, 0, 0, s->obs, size), RG_OK);
        s->ended = 0;
        return;
    }
    int64_t a = action_of(i, step);
    rg_step_result r;
    assert_int_equal(rg_env_step(s->env, &a, 1, s->obs, size, &r), RG_OK);
    *reward = r.rewards[0];
    *term = r.terminated;
    *trunc = r.truncated;
    s->ended = *term || *trunc;
}

/* Row k's info columns hold exactly what the env reports (every StarCatcher variable is readable). */
static void info_equals_env(const rg_pool *p, const rg_pool_batch *b, size_t k, const rg_env *env)
{
    assert_int_equal(b->n_info, rg_env_info_count(env));
    for (size_t j = 0; j < b->n_info; j++) {
        const char *name;
        int64_t value;
        assert_int_equal(rg_env_info_at(env, j, &name, &value), RG_OK);
        assert_string_equal(rg_pool_info_name(p, j), name); /* both in name order */
        assert_int_equal(b->info_valid[k * b->n_info + j], 1);
        if (b->info[k * b->n_info + j] != value)
            fail_msg("row %zu: info %s is %lld, the env says %lld", k, name, (long long)b->info[k * b->n_info + j],
                     (long long)value);
    }
}

static void batched_equals_independent(void **state)
{
    (void)state;
    rg_env_options eo = env_opts(120);
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        rg_pool *p = make_pool(&eo, threads, 0, RG_AUTORESET_NEXT_STEP);
        single s[N];
        size_t size = rg_pool_obs_size(p);
        for (size_t i = 0; i < N; i++) {
            assert_int_equal(rg_env_create(&s[i].env, &eo), RG_OK);
            s[i].obs = malloc(size);
            s[i].ended = 0;
            assert_int_equal(rg_env_reset(s[i].env, 1, 100 + i, s[i].obs, size), RG_OK);
        }
        rg_pool_batch b;
        assert_int_equal(rg_pool_reset(p, NULL, 0, &b), RG_OK);
        assert_int_equal(b.count, N);
        for (size_t i = 0; i < N; i++) {
            assert_int_equal(b.env_ids[i], (int32_t)i);
            assert_memory_equal(b.obs + i * size, s[i].obs, size);
        }
        unsigned resets = 0;
        uint8_t *mine = malloc(N * size);
        for (unsigned step = 0; step < 300; step++) {
            int64_t acts[N];
            for (size_t i = 0; i < N; i++)
                acts[i] = action_of(i, step);
            if (step % 2) { /* odd steps: observations straight into the caller's array */
                assert_int_equal(rg_pool_step_into(p, acts, mine, &b), RG_OK);
                assert_ptr_equal(b.obs, mine);
            } else {
                assert_int_equal(rg_pool_step(p, acts, &b), RG_OK);
                assert_ptr_not_equal(b.obs, mine);
            }
            for (size_t i = 0; i < N; i++) {
                float r;
                int term, trunc;
                int was_ended = s[i].ended;
                single_step(&s[i], step, i, &r, &term, &trunc);
                resets += was_ended;
                assert_int_equal(b.env_ids[i], (int32_t)i);
                if (memcmp(b.obs + i * size, s[i].obs, size) != 0)
                    fail_msg("threads %u step %u env %zu: observation differs", threads, step, i);
                assert_true(b.rewards[i * RG_SCENARIO_MAX_PLAYERS] == r);
                assert_int_equal(b.terminated[i], term);
                assert_int_equal(b.truncated[i], trunc);
                info_equals_env(p, &b, i, s[i].env);
            }
        }
        assert_true(resets >= N * 2); /* episodes of 120 steps ended and restarted */
        free(mine);
        for (size_t i = 0; i < N; i++) {
            free(s[i].obs);
            rg_env_free(s[i].env);
        }
        rg_pool_free(p);
    }
}

static void autoreset_modes(void **state)
{
    (void)state;
    rg_env_options eo = env_opts(10);
    int64_t acts[N] = {3, 3, 3, 3}; /* the ship moves: the last screen of an episode is not the start screen */
    rg_pool_batch b;
    /* reference: the observation right after a reset (seeded) and after the continued (unseeded) one */
    rg_env *ref;
    assert_int_equal(rg_env_create(&ref, &eo), RG_OK);
    size_t size = rg_env_obs_size(ref);
    uint8_t *obs = malloc(size), *last = malloc(size);
    rg_env_free(ref);
    for (int mode = 0; mode < 3; mode++) {
        rg_pool *p = make_pool(&eo, 2, 0, (rg_autoreset_mode)mode);
        assert_int_equal(rg_pool_reset(p, NULL, 0, &b), RG_OK);
        for (unsigned step = 1; step <= 10; step++) {
            assert_int_equal(rg_pool_step(p, acts, &b), RG_OK);
            assert_int_equal(b.truncated[0], step == 10 || mode == 2 ? step == 10 : 0);
        }
        memcpy(last, b.obs, size);
        if (mode == RG_AUTORESET_SAME_STEP) {
            assert_int_equal(b.has_final[0], 1);
            assert_int_equal(rg_env_episode_steps(rg_pool_env(p, 0)), 0); /* already reset */
            assert_memory_not_equal(b.final_obs, b.obs, size);
            /* the final info is the ended episode's (the ship moved, the frame counter ran); info is the new start's */
            size_t nx = SIZE_MAX, nf = SIZE_MAX;
            for (size_t j = 0; j < b.n_info; j++) {
                if (strcmp(rg_pool_info_name(p, j), "player_x") == 0)
                    nx = j;
                if (strcmp(rg_pool_info_name(p, j), "play_frames") == 0)
                    nf = j;
            }
            assert_true(nx != SIZE_MAX && nf != SIZE_MAX);
            assert_int_equal(b.final_info_valid[nx], 1);
            assert_true(b.final_info[nx] != b.info[nx]);
            assert_true(b.final_info[nf] > b.info[nf]);
            info_equals_env(p, &b, 0, rg_pool_env(p, 0));
        } else {
            assert_int_equal(b.has_final[0], 0);
        }
        assert_int_equal(rg_pool_step(p, acts, &b), RG_OK);
        if (mode == RG_AUTORESET_NEXT_STEP) { /* this step was the reset: no reward, flags clear, steps 0 */
            assert_int_equal(rg_env_episode_steps(rg_pool_env(p, 0)), 0);
            assert_int_equal(b.truncated[0], 0);
            assert_true(b.rewards[0] == 0.0f);
        } else if (mode == RG_AUTORESET_SAME_STEP) {
            assert_int_equal(rg_env_episode_steps(rg_pool_env(p, 0)), 1);
        } else { /* disabled: the episode goes on and stays truncated */
            assert_int_equal(rg_env_episode_steps(rg_pool_env(p, 0)), 11);
            assert_int_equal(b.truncated[0], 1);
        }
        rg_pool_free(p);
    }
    free(obs);
    free(last);
}

static void async_send_recv(void **state)
{
    (void)state;
    rg_env_options eo = env_opts(0);
    rg_pool *sync = make_pool(&eo, 1, 0, RG_AUTORESET_NEXT_STEP);
    rg_pool *p = make_pool(&eo, 2, 2, RG_AUTORESET_NEXT_STEP);
    size_t size = rg_pool_obs_size(p);
    rg_pool_batch b, s;
    assert_int_equal(rg_pool_reset(p, NULL, 0, &b), RG_OK);
    assert_int_equal(rg_pool_reset(sync, NULL, 0, &s), RG_OK);
    assert_int_equal(rg_pool_recv(p, &b), RG_EMISUSE);
    /* every env runs 50 steps through send/recv; each env's stream must equal the synchronous pool's */
    uint64_t hash_async[N] = {0}, hash_sync[N] = {0};
    unsigned done_steps[N] = {0};
    int32_t ids[N] = {0, 1, 2, 3};
    int64_t acts[N];
    for (size_t k = 0; k < N; k++)
        acts[k] = action_of(k, 0);
    assert_int_equal(rg_pool_send(p, acts, ids, N), RG_OK);
    int32_t bad = 9;
    assert_int_equal(rg_pool_send(p, acts, &bad, 1), RG_ERANGE);
    assert_int_equal(rg_pool_step(p, acts, &b), RG_EMISUSE);
    unsigned received = 0;
    while (received < N * 50) {
        assert_int_equal(rg_pool_recv(p, &b), RG_OK);
        assert_int_equal(b.count, 2);
        assert_true(b.env_ids[0] != b.env_ids[1]);
        int32_t again[2];
        int64_t next[2];
        size_t n_again = 0;
        for (size_t k = 0; k < b.count; k++) {
            int32_t id = b.env_ids[k];
            hash_async[id] = test_hash(b.obs + k * size, size, hash_async[id] ^ (uint64_t)b.rewards[k * 4]);
            done_steps[id]++;
            received++;
            if (done_steps[id] < 50) {
                again[n_again] = id;
                next[n_again++] = action_of((size_t)id, done_steps[id]);
            }
        }
        if (n_again)
            assert_int_equal(rg_pool_send(p, next, again, n_again), RG_OK);
        /* at the end an odd env may be left alone in flight: give it a partner so batches stay full */
        if (received < N * 50 && p && n_again < 2) {
            size_t in_flight = 0;
            for (size_t i = 0; i < N; i++)
                in_flight += done_steps[i] < 50;
            if (in_flight < 2)
                break;
        }
    }
    for (unsigned step = 0; step < 50; step++) {
        for (size_t i = 0; i < N; i++)
            acts[i] = action_of(i, step);
        assert_int_equal(rg_pool_step(sync, acts, &s), RG_OK);
        for (size_t i = 0; i < N; i++)
            if (done_steps[i] > step)
                hash_sync[i] = test_hash(s.obs + i * size, size, hash_sync[i] ^ (uint64_t)s.rewards[i * 4]);
    }
    for (size_t i = 0; i < N; i++)
        if (done_steps[i] == 50)
            assert_true(hash_async[i] == hash_sync[i]);
    rg_pool_free(sync);
    rg_pool_free(p); /* possibly with a step in flight: must not hang */
}

static void worker_errors_and_shutdown(void **state)
{
    (void)state;
    rg_env_options eo = env_opts(0);
    rg_pool *p = make_pool(&eo, 2, 0, RG_AUTORESET_NEXT_STEP);
    rg_pool_batch b;
    assert_int_equal(rg_pool_reset(p, NULL, 0, &b), RG_OK);
    int64_t acts[N] = {1, 2, 99, 3}; /* env 2's action is out of range */
    assert_int_equal(rg_pool_step(p, acts, &b), RG_ERANGE);
    assert_non_null(strstr(rg_error_last(), "environment 2"));
    acts[2] = 4;
    assert_int_equal(rg_pool_step(p, acts, &b), RG_OK); /* env 2 starts over, the others go on */
    assert_int_equal(rg_env_episode_steps(rg_pool_env(p, 2)), 0);
    assert_int_equal(rg_env_episode_steps(rg_pool_env(p, 1)), 2);
    int32_t bad = -1;
    assert_int_equal(rg_pool_reset(p, &bad, 1, &b), RG_ERANGE);
    int32_t twice[2] = {1, 1};
    assert_int_equal(rg_pool_reset(p, twice, 2, &b), RG_EINVAL);
    assert_int_equal(rg_pool_send(p, acts, twice, 2), RG_EINVAL);
    int32_t one = 1;
    assert_int_equal(rg_pool_send(p, acts, &one, 1), RG_OK);
    assert_int_equal(rg_pool_send(p, acts, &one, 1), RG_EMISUSE); /* still in flight */
    assert_int_equal(rg_pool_seed(p, 5), RG_EMISUSE);
    int32_t rest[3] = {0, 2, 3};
    assert_int_equal(rg_pool_send(p, acts, rest, 3), RG_OK);
    assert_int_equal(rg_pool_recv(p, &b), RG_OK); /* batch = 4: all back */
    /* reseeding: the next reset of env i is seeded again, so it repeats the first one's observations */
    rg_pool_batch first;
    assert_int_equal(rg_pool_seed(p, 100), RG_OK);
    assert_int_equal(rg_pool_reset(p, NULL, 0, &first), RG_OK);
    size_t size = rg_pool_obs_size(p);
    uint8_t *keep = malloc(N * size);
    memcpy(keep, first.obs, N * size);
    for (int k = 0; k < 5; k++)
        assert_int_equal(rg_pool_step(p, acts, &b), RG_OK);
    assert_int_equal(rg_pool_seed(p, 100), RG_OK);
    assert_int_equal(rg_pool_reset(p, NULL, 0, &b), RG_OK);
    assert_memory_equal(keep, b.obs, N * size);
    free(keep);
    /* in SAME_STEP mode too, a failed env starts over with its next step */
    rg_pool *same = make_pool(&eo, 2, 0, RG_AUTORESET_SAME_STEP);
    assert_int_equal(rg_pool_reset(same, NULL, 0, &b), RG_OK);
    int64_t bad_acts[N] = {1, 99, 2, 3};
    assert_int_equal(rg_pool_step(same, bad_acts, &b), RG_ERANGE);
    bad_acts[1] = 1;
    assert_int_equal(rg_pool_step(same, bad_acts, &b), RG_OK);
    assert_int_equal(rg_env_episode_steps(rg_pool_env(same, 1)), 0);
    assert_int_equal(rg_env_episode_steps(rg_pool_env(same, 0)), 2);
    rg_pool_free(same);
    /* shut down with steps queued */
    int32_t ids[N] = {0, 1, 2, 3};
    assert_int_equal(rg_pool_send(p, acts, ids, N), RG_OK);
    rg_pool_free(p);
    /* bad options */
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    rg_pool *q;
    assert_int_equal(rg_pool_create(&q, &po), RG_EINVAL);
    po.envs = &eo;
    po.n_env_options = 1;
    po.num_envs = 2;
    po.batch_size = 3;
    assert_int_equal(rg_pool_create(&q, &po), RG_EINVAL);
    rg_env_options two[2] = {eo, eo};
    two[1].obs = RG_OBS_RAM;
    po.envs = two;
    po.n_env_options = 2;
    po.batch_size = 0;
    assert_int_equal(rg_pool_create(&q, &po), RG_EINVAL);
    assert_non_null(strstr(rg_error_last(), "equal"));
    rg_pool_free(NULL);
}

/* Grayscale + resize + frame stack + reward clip, against the same computation on an unprocessed pool. */
static void preprocessing(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    rg_env_options eo = env_opts(0);
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.envs = &eo;
    po.n_env_options = 1;
    po.num_envs = 2;
    po.num_threads = 2;
    po.seed = 5;
    rg_pool *plain, *pre;
    assert_int_equal(rg_pool_create(&plain, &po), RG_OK);
    po.grayscale = 1;
    po.resize_width = 84;
    po.resize_height = 84;
    po.frame_stack = 4;
    po.reward_clip = 1.0f;
    assert_int_equal(rg_pool_create(&pre, &po), RG_OK);
    unsigned k, h, w, c, H, W, C;
    rg_pool_obs_shape(pre, &k, &h, &w, &c);
    assert_int_equal(k, 4);
    assert_int_equal(h, 84);
    assert_int_equal(w, 84);
    assert_int_equal(c, 1);
    assert_int_equal(rg_pool_obs_size(pre), 4 * 84 * 84);
    rg_pool_obs_shape(plain, NULL, &H, &W, &C);
    assert_int_equal(C, 3);
    assert_int_equal(rg_pool_obs_size(plain), (size_t)H * W * 3);
    size_t frame = 84 * 84;
    uint8_t *expect = malloc(frame), *history = calloc(8, frame);
    rg_pool_batch a, b;
    assert_int_equal(rg_pool_reset(plain, NULL, 0, &a), RG_OK);
    assert_int_equal(rg_pool_reset(pre, NULL, 0, &b), RG_OK);
    int clipped = 0;
    for (unsigned step = 0; step <= 600; step++) {
        if (step > 0) {
            int64_t acts[2] = {action_of(0, step), action_of(1, step)};
            assert_int_equal(rg_pool_step(plain, acts, &a), RG_OK);
            assert_int_equal(rg_pool_step(pre, acts, &b), RG_OK);
        }
        /* the newest frame of env 0: the area average (each source pixel weighted by the part of it the output
         * pixel covers) of the pixels' grays, computed here independently (tests/pool/test_preproc.c checks the
         * kernels further; python/tests/test_atari_preprocessing.py their bytes against OpenCV's) */
        double sy = H / 84.0, sx = W / 84.0;
        for (unsigned y = 0; y < 84; y++)
            for (unsigned x = 0; x < 84; x++) {
                double sum = 0;
                for (unsigned yy = (unsigned)(y * sy); yy < H && yy < (y + 1) * sy; yy++)
                    for (unsigned xx = (unsigned)(x * sx); xx < W && xx < (x + 1) * sx; xx++) {
                        const uint8_t *px = a.obs + ((size_t)yy * W + xx) * 3;
                        double oy = (yy + 1 < (y + 1) * sy ? yy + 1 : (y + 1) * sy) - (yy > y * sy ? yy : y * sy);
                        double ox = (xx + 1 < (x + 1) * sx ? xx + 1 : (x + 1) * sx) - (xx > x * sx ? xx : x * sx);
                        sum += ox * oy * ((299 * px[0] + 587 * px[1] + 114 * px[2] + 500) / 1000);
                    }
                double avg = sum / (sx * sy);
                expect[y * 84 + x] = (uint8_t)(avg + 0.5 > 255 ? 255 : avg + 0.5);
            }
        const uint8_t *newest = b.obs + 3 * frame;
        for (size_t i = 0; i < frame; i++)
            if (abs((int)newest[i] - (int)expect[i]) > 1) /* float weights and sums, rounding */
                fail_msg("step %u pixel %zu: %u, expected %u", step, i, newest[i], expect[i]);
        /* the stack: oldest first; right after the reset every slot holds the first frame */
        memmove(history, history + frame, 3 * frame);
        memcpy(history + 3 * frame, newest, frame);
        if (step == 0)
            for (unsigned j = 0; j < 3; j++)
                memcpy(history + j * frame, newest, frame);
        assert_memory_equal(b.obs, history, 4 * frame);
        /* rewards clipped to [-1, 1] */
        float r0 = a.rewards[0], c0 = b.rewards[0];
        assert_true(c0 == (r0 > 1 ? 1 : r0 < -1 ? -1 : r0));
        clipped |= r0 > 1;
    }
    assert_true(clipped); /* a star (10 points) was caught and clipped */
    free(expect);
    free(history);
    rg_pool_free(plain);
    rg_pool_free(pre);
    /* preprocessing needs images */
    eo.obs = RG_OBS_RAM;
    po.envs = &eo;
    assert_int_equal(rg_pool_create(&pre, &po), RG_EINVAL);
    po.grayscale = 0;
    po.resize_width = po.resize_height = 0;
    assert_int_equal(rg_pool_create(&pre, &po), RG_OK); /* a RAM frame stack is fine */
    rg_pool_obs_shape(pre, &k, NULL, NULL, NULL);
    assert_int_equal(k, 4);
    rg_pool_free(pre);
}

/* 24,000 environment steps through the pool (RAM observations, frame skip 2, frequent autoresets, async and
 * sync calls mixed): run under the sanitizer build, this is the leak and race soak. */
static void soak(void **state)
{
    (void)state;
    rg_env_options eo = env_opts(301); /* odd: episodes end in async and in sync calls alike */
    eo.obs = RG_OBS_RAM;
    eo.frameskip = 2;
    rg_pool *p = make_pool(&eo, 2, 2, RG_AUTORESET_SAME_STEP);
    rg_pool_batch b;
    assert_int_equal(rg_pool_reset(p, NULL, 0, &b), RG_OK);
    int64_t acts[N];
    int32_t ids[N] = {0, 1, 2, 3};
    unsigned long steps = 0, finals = 0;
    for (unsigned round = 0; steps < 24000; round++) {
        for (size_t i = 0; i < N; i++)
            acts[i] = action_of(i, round);
        if (round % 2) {
            assert_int_equal(rg_pool_step(p, acts, &b), RG_OK);
            steps += N;
        } else {
            assert_int_equal(rg_pool_send(p, acts, ids, N), RG_OK);
            for (int k = 0; k < 2; k++) {
                assert_int_equal(rg_pool_recv(p, &b), RG_OK);
                for (size_t j = 0; j < b.count; j++)
                    finals += b.has_final[j];
                steps += b.count;
            }
        }
    }
    assert_true(finals > 0);
    rg_pool_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batched_equals_independent), cmocka_unit_test(autoreset_modes),
        cmocka_unit_test(async_send_recv), cmocka_unit_test(worker_errors_and_shutdown),
        cmocka_unit_test(preprocessing), cmocka_unit_test(soak),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
