#define _POSIX_C_SOURCE 200809L
/* Process isolation (RG_POOL_PROCESSES, src/pool/pool_proc.c): the same results as worker threads, every column, in
 * every autoreset mode, synchronous and asynchronous; a core that crashes, aborts, exits or hangs in a worker process
 * loses only that worker's environments (a failed row that says why, then a reset) while the others go on with the
 * results they would have had; freeing a pool whose worker hangs returns and leaves no process behind. The game is
 * StarCatcher-Nes on nestopia (skipped without it) and on the fault cores (tests/faults/fake_core.c). */
#include "test_support.h"

#include <retrogym/pool.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N 4

static rg_integration_paths *dp;
static char core_dir[1024];

static char *fault_core(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/fault_%s_libretro.so", core_dir, name);
    return buf;
}

static rg_env_options game_opts(const char *core, uint64_t max_steps)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "StarCatcher-Nes";
    o.paths = dp;
    o.core = core;
    o.log = test_quiet_log;
    o.actions = RG_ACTIONS_DISCRETE;
    o.sticky_prob = 0.2; /* each env's generator: its seed must reach the right process */
    o.max_episode_steps = max_steps;
    return o;
}

static rg_pool *open_pool(const rg_env_options *eo, size_t n_opts, size_t n, unsigned workers, size_t batch,
                          rg_autoreset_mode mode, rg_pool_isolation iso, unsigned timeout_ms, unsigned stack)
{
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.envs = eo;
    po.n_env_options = n_opts;
    po.num_envs = n;
    po.num_threads = workers;
    po.batch_size = batch;
    po.autoreset = mode;
    po.seed = 100;
    po.isolation = iso;
    po.worker_timeout_ms = timeout_ms;
    po.frame_stack = stack;
    rg_pool *p = NULL;
    if (rg_pool_create(&p, &po) != RG_OK)
        fail_msg("rg_pool_create: %s", rg_error_last());
    assert_int_equal(rg_pool_isolation_mode(p), iso);
    return p;
}

static int64_t action_of(size_t env, unsigned step)
{
    return (int64_t)((env * 7 + step / 5 * 11) % 36);
}

/* Every column of two batches of the same pool shape. */
static void same_rows(const rg_pool *p, const rg_pool_batch *a, const rg_pool_batch *b, unsigned step)
{
    size_t obs = rg_pool_obs_size(p), c = a->count;
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->n_info, b->n_info);
    assert_memory_equal(a->env_ids, b->env_ids, c * sizeof *a->env_ids);
    if (memcmp(a->obs, b->obs, c * obs) != 0)
        fail_msg("step %u: observations differ", step);
    assert_memory_equal(a->rewards, b->rewards, c * RG_SCENARIO_MAX_PLAYERS * sizeof(float));
    assert_memory_equal(a->terminated, b->terminated, c);
    assert_memory_equal(a->truncated, b->truncated, c);
    assert_memory_equal(a->has_final, b->has_final, c);
    assert_memory_equal(a->info, b->info, c * a->n_info * sizeof(int64_t));
    assert_memory_equal(a->info_valid, b->info_valid, c * a->n_info);
    for (size_t k = 0; k < c; k++) {
        assert_int_equal(b->failed[k], 0);
        if (a->has_final[k]) {
            assert_memory_equal(a->final_obs + k * obs, b->final_obs + k * obs, obs);
            assert_memory_equal(a->final_info + k * a->n_info, b->final_info + k * a->n_info,
                                a->n_info * sizeof(int64_t));
        }
    }
}

/* Synchronous steps: threads and processes give the same batches in each autoreset mode (with frame stacking, so
 * the workers' preprocessing rings are exercised too); step_into writes the caller's array. */
static void sync_streams_equal(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    rg_env_options eo = game_opts(NULL, 50);
    for (int mode = RG_AUTORESET_NEXT_STEP; mode <= RG_AUTORESET_DISABLED; mode++) {
        rg_pool *t = open_pool(&eo, 1, N, 2, 0, (rg_autoreset_mode)mode, RG_POOL_THREADS, 0, 2);
        rg_pool *q = open_pool(&eo, 1, N, 3, 0, (rg_autoreset_mode)mode, RG_POOL_PROCESSES, 0, 2);
        size_t obs = rg_pool_obs_size(q);
        uint8_t *mine = malloc(N * obs);
        rg_pool_batch a, b;
        EXPECT_OK(rg_pool_reset(t, NULL, 0, &a));
        EXPECT_OK(rg_pool_reset(q, NULL, 0, &b));
        same_rows(q, &a, &b, 0);
        unsigned ends = 0;
        for (unsigned s = 1; s <= 130; s++) {
            int64_t act[N];
            for (size_t i = 0; i < N; i++)
                act[i] = action_of(i, s);
            EXPECT_OK(rg_pool_step(t, act, &a));
            EXPECT_OK(s % 2 ? rg_pool_step_into(q, act, mine, &b) : rg_pool_step(q, act, &b));
            if (s % 2)
                assert_ptr_equal(b.obs, mine);
            same_rows(q, &a, &b, s);
            int32_t ended[N];
            size_t n_ended = 0;
            for (size_t i = 0; i < N; i++) {
                assert_int_equal(rg_pool_episode_steps(t, i), rg_pool_episode_steps(q, i));
                if (a.terminated[i] || a.truncated[i])
                    ended[n_ended++] = (int32_t)i;
            }
            ends += (unsigned)n_ended;
            if (mode == RG_AUTORESET_DISABLED && n_ended) {
                EXPECT_OK(rg_pool_reset(t, ended, n_ended, &a));
                EXPECT_OK(rg_pool_reset(q, ended, n_ended, &b));
                same_rows(q, &a, &b, s);
            }
        }
        assert_true(ends >= N); /* episodes of 50 steps ended and restarted */
        assert_int_equal(rg_pool_respawns(q), 0);
        EXPECT_OK(rg_pool_seed(t, 7)); /* a new seed reaches the workers */
        EXPECT_OK(rg_pool_seed(q, 7));
        EXPECT_OK(rg_pool_reset(t, NULL, 0, &a));
        EXPECT_OK(rg_pool_reset(q, NULL, 0, &b));
        same_rows(q, &a, &b, 999);
        for (unsigned s = 1; s <= 30; s++) { /* sticky actions draw from the reseeded generators */
            int64_t act[N];
            for (size_t i = 0; i < N; i++)
                act[i] = action_of(i, s + 3);
            EXPECT_OK(rg_pool_step(t, act, &a));
            EXPECT_OK(rg_pool_step(q, act, &b));
            same_rows(q, &a, &b, 1000 + s);
        }
        free(mine);
        rg_pool_free(t);
        rg_pool_free(q);
    }
}

/* send/recv: each environment's stream of results is the threaded pool's (rows come in finishing order). */
static void async_streams_equal(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    rg_env_options eo = game_opts(NULL, 40);
    enum { ROUNDS = 60 };
    uint64_t sums[2][N][ROUNDS];
    unsigned counts[2][N];
    for (int iso = 0; iso < 2; iso++) {
        rg_pool *p = open_pool(&eo, 1, N, 2, 2, RG_AUTORESET_SAME_STEP, iso ? RG_POOL_PROCESSES : RG_POOL_THREADS,
                               0, 1);
        size_t obs = rg_pool_obs_size(p);
        memset(counts[iso], 0, sizeof counts[iso]);
        rg_pool_batch b;
        EXPECT_OK(rg_pool_reset(p, NULL, 0, &b));
        int32_t ids[N] = {0, 1, 2, 3};
        int64_t act[N] = {0};
        EXPECT_OK(rg_pool_send(p, act, ids, N));
        for (unsigned r = 0; r < ROUNDS * 2; r++) {
            EXPECT_OK(rg_pool_recv(p, &b));
            assert_int_equal(b.count, 2);
            for (size_t k = 0; k < b.count; k++) {
                int32_t id = b.env_ids[k];
                uint64_t h = 1469598103934665603ull;
                for (size_t j = 0; j < obs; j++)
                    h = (h ^ b.obs[k * obs + j]) * 1099511628211ull;
                h ^= (uint64_t)(b.rewards[k * RG_SCENARIO_MAX_PLAYERS] * 1000) ^ (uint64_t)b.terminated[k] << 60 ^
                     (uint64_t)b.truncated[k] << 61 ^ (uint64_t)b.has_final[k] << 62;
                assert_int_equal(b.failed[k], 0);
                if (counts[iso][id] < ROUNDS)
                    sums[iso][id][counts[iso][id]++] = h;
                act[k] = action_of((size_t)id, counts[iso][id]);
            }
            EXPECT_OK(rg_pool_send(p, act, b.env_ids, b.count));
        }
        while (rg_pool_recv(p, &b) == RG_OK) /* drain what is in flight */
            ;
        rg_pool_free(p);
    }
    for (size_t i = 0; i < N; i++) {
        unsigned c = counts[0][i] < counts[1][i] ? counts[0][i] : counts[1][i];
        assert_true(c >= 10);
        for (unsigned r = 0; r < c; r++)
            if (sums[0][i][r] != sums[1][i][r])
                fail_msg("environment %zu, its result %u: threads and processes differ", i, r);
    }
}

/* The first step in which env 0 gives a failed row, after stepping everyone with zeros; rows of the others are
 * compared with a reference pool of good cores throughout. */
static void faulty_worker(const char *fault, const char *reason, unsigned timeout_ms, rg_autoreset_mode mode)
{
    char bad[1200], good[1200];
    fault_core(fault, bad, sizeof bad);
    fault_core("good", good, sizeof good);
    setenv("FAULT_FRAME", "30", 1);
    rg_env_options eo[3] = {game_opts(bad, 0), game_opts(good, 0), game_opts(good, 0)};
    rg_env_options ref_eo[3] = {game_opts(good, 0), game_opts(good, 0), game_opts(good, 0)};
    for (int i = 0; i < 3; i++)
        eo[i].sticky_prob = ref_eo[i].sticky_prob = 0;
    rg_pool *p = open_pool(eo, 3, 3, 3, 0, mode, RG_POOL_PROCESSES, timeout_ms, 1);
    rg_pool *ref = open_pool(ref_eo, 3, 3, 1, 0, mode, RG_POOL_THREADS, 0, 1);
    unsetenv("FAULT_FRAME");
    size_t obs = rg_pool_obs_size(p);
    rg_pool_batch a, b;
    EXPECT_OK(rg_pool_reset(p, NULL, 0, &b));
    EXPECT_OK(rg_pool_reset(ref, NULL, 0, &a));
    int64_t act[3] = {0, 0, 0};
    unsigned failures = 0, after = 0;
    int last_failed = 0;
    double worst_ms = 0;
    for (unsigned s = 1; s <= 80; s++) {
        double t0 = test_now_ms();
        EXPECT_OK(rg_pool_step(p, act, &b));
        double ms = test_now_ms() - t0;
        EXPECT_OK(rg_pool_step(ref, act, &a));
        for (size_t i = 1; i < 3; i++) { /* the other workers' envs go on as if nothing happened */
            assert_int_equal(b.failed[i], 0);
            assert_memory_equal(a.obs + i * obs, b.obs + i * obs, obs);
            assert_int_equal(a.truncated[i], b.truncated[i]);
        }
        if (b.failed[0]) {
            failures++;
            if (ms > worst_ms)
                worst_ms = ms;
            assert_int_equal(b.truncated[0], 1);
            assert_int_equal(b.terminated[0], 0);
            assert_true(b.rewards[0] == 0.0f);
            if (mode == RG_AUTORESET_SAME_STEP) {
                assert_int_equal(b.has_final[0], 1);
                int any = 0;
                for (size_t j = 0; j < obs && !any; j++)
                    any = b.obs[j] != 0;
                assert_true(any);
            } else {
                for (size_t j = 0; j < obs; j++)
                    assert_int_equal(b.obs[j], 0);
            }
            const char *why = rg_pool_failure(p, 0);
            assert_non_null(why);
            if (!strstr(why, reason))
                fail_msg("failure reason \"%s\" lacks \"%s\"", why, reason);
            assert_null(rg_pool_failure(p, 1));
        } else if (last_failed) {
            after++; /* the row after a failed one: the env runs again (NEXT_STEP: a reset row) */
        }
        last_failed = b.failed[0];
    }
    assert_true(failures >= 1);
    assert_true(after >= 1);
    assert_true(rg_pool_respawns(p) >= failures);
    if (timeout_ms)
        assert_true(worst_ms < timeout_ms + 2000.0);
    printf("# %s: %u failed rows of env 0 in 80 steps, %llu workers forked again, slowest such step %.0f ms\n",
           fault, failures, (unsigned long long)rg_pool_respawns(p), worst_ms);
    rg_pool_free(p);
    rg_pool_free(ref);
}

static void crash_contained(void **state)
{
    (void)state;
    faulty_worker("run_segv", "signal 11", 0, RG_AUTORESET_NEXT_STEP);
}

static void abort_contained(void **state)
{
    (void)state;
    faulty_worker("run_abort", "signal 6", 0, RG_AUTORESET_SAME_STEP);
}

static void exit_contained(void **state)
{
    (void)state;
    faulty_worker("run_exit", "exited with status 3", 0, RG_AUTORESET_DISABLED);
}

static void hang_killed(void **state)
{
    (void)state;
    faulty_worker("run_hang", "longer than 300 ms", 300, RG_AUTORESET_NEXT_STEP);
}

/* No watchdog: a hung worker leaves the call pending (slices), rg_pool_free kills it, and no process is left. */
static void free_with_hung_worker(void **state)
{
    (void)state;
    char bad[1200], good[1200];
    fault_core("run_hang", bad, sizeof bad);
    fault_core("good", good, sizeof good);
    setenv("FAULT_FRAME", "5", 1);
    rg_env_options eo[2] = {game_opts(bad, 0), game_opts(good, 0)};
    rg_pool *p = open_pool(eo, 2, 2, 2, 0, RG_AUTORESET_NEXT_STEP, RG_POOL_PROCESSES, 0, 1);
    unsetenv("FAULT_FRAME");
    EXPECT_OK(rg_pool_set_timeout(p, 20));
    rg_pool_batch b;
    int64_t act[2] = {0, 0};
    int rc = rg_pool_reset(p, NULL, 0, &b);
    while (rc == RG_POOL_PENDING)
        rc = rg_pool_wait(p, 20, &b);
    EXPECT_OK(rc);
    int pending = 0;
    for (unsigned s = 0; s < 50 && !pending; s++) {
        rc = rg_pool_step(p, act, &b);
        pending = rc == RG_POOL_PENDING;
        if (!pending)
            EXPECT_OK(rc);
    }
    assert_true(pending);
    assert_int_equal(rg_pool_wait(p, 50, &b), RG_POOL_PENDING);
    assert_int_equal(rg_pool_step(p, act, &b), RG_EMISUSE);
    double t0 = test_now_ms();
    rg_pool_free(p);
    double ms = test_now_ms() - t0;
    assert_true(ms < RG_POOL_FREE_GRACE_MS + 1000.0);
    int status;
    assert_int_equal(waitpid(-1, &status, WNOHANG), -1); /* every worker was reaped */
    assert_int_equal(errno, ECHILD);
    printf("# freed with a hung worker in %.0f ms\n", ms);
}

/* Options and what this mode does not do. */
static void arguments(void **state)
{
    (void)state;
    char good[1200];
    fault_core("good", good, sizeof good);
    rg_env_options eo = game_opts(good, 0);
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.envs = &eo;
    po.n_env_options = 1;
    po.num_envs = 2;
    po.isolation = (rg_pool_isolation)7;
    rg_pool *p = NULL;
    assert_int_equal(rg_pool_create(&p, &po), RG_EINVAL);
    assert_non_null(strstr(rg_error_last(), "isolation"));
    po.isolation = RG_POOL_THREADS;
    po.version = 1; /* a version-1 caller has neither field: threads */
    EXPECT_OK(rg_pool_create(&p, &po));
    assert_int_equal(rg_pool_isolation_mode(p), RG_POOL_THREADS);
    assert_null(rg_pool_failure(p, 0));
    rg_pool_free(p);
    p = open_pool(&eo, 1, 2, 0, 0, RG_AUTORESET_NEXT_STEP, RG_POOL_PROCESSES, 0, 1);
    char dir[] = "/tmp/rg-proc-XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(rg_pool_record_dir(p, dir), RG_EINVAL);
    assert_non_null(strstr(rg_error_last(), "does not record"));
    EXPECT_OK(rg_pool_record_stop(p));
    rmdir(dir);
    rg_pool_batch b;
    EXPECT_OK(rg_pool_reset(p, NULL, 0, &b));
    int64_t act[2] = {0, 0};
    EXPECT_OK(rg_pool_step(p, act, &b));
    assert_int_equal(rg_pool_episode_steps(p, 0), 1);
    assert_int_equal(rg_env_episode_steps(rg_pool_env(p, 0)), 0); /* the caller's copy, as created */
    rg_pool_free(p);
}

static int setup(void **state)
{
    (void)state;
    char root[1024];
    if (rg_integration_paths_create(&dp, test_source_path("data", root, sizeof root)) != RG_OK)
        return -1;
    snprintf(core_dir, sizeof core_dir, "%s", FAULT_CORE_DIR);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rg_integration_paths_free(dp);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arguments),
        cmocka_unit_test(sync_streams_equal),
        cmocka_unit_test(async_streams_equal),
        cmocka_unit_test(crash_contained),
        cmocka_unit_test(abort_contained),
        cmocka_unit_test(exit_contained),
        cmocka_unit_test(hang_killed),
        cmocka_unit_test(free_with_hung_worker),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
