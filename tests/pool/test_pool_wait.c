#define _POSIX_C_SOURCE 200809L
/* Waiting in slices (rg_pool_set_timeout, rg_pool_wait): results equal to a pool that waits until done; a core that
 * hangs in lane 0's environment (run by a worker once a limit is set, not by the caller) leaves the call pending
 * after the limit, refuses other calls, and rg_pool_free returns after its grace period instead of joining the stuck
 * thread (the pool is leaked on purpose, so that part runs in a forked child). Uses the fault cores
 * (tests/faults/fake_core.c: fault_good, fault_run_hang). */
#include "test_support.h"

#include <retrogym/pool.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N 3

static rg_integration_paths *dp;
static char core_good[1024], core_hang[1024], core_slow[1024];

/* Env 0 on core0, the others on `rest`. */
static rg_pool *make_pool_on(const char *core0, const char *rest, unsigned threads, size_t batch, unsigned frameskip)
{
    rg_env_options o[N];
    for (int i = 0; i < N; i++) {
        rg_env_options e = RG_ENV_OPTIONS_INIT;
        e.game = "StarCatcher-Nes";
        e.paths = dp;
        e.core = i == 0 ? core0 : rest;
        if (strcmp(e.core, "nes") == 0)
            e.state = RG_STATE_NONE; /* the game's state is another core's */
        e.log = test_quiet_log;
        e.frameskip = frameskip;
        o[i] = e;
    }
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.envs = o;
    po.n_env_options = N;
    po.num_envs = N;
    po.num_threads = threads;
    po.batch_size = batch;
    po.seed = 5;
    rg_pool *p = NULL;
    if (rg_pool_create(&p, &po) != RG_OK)
        fail_msg("rg_pool_create: %s", rg_error_last());
    return p;
}

static rg_pool *make_pool(const char *core0, unsigned threads, size_t batch, unsigned frameskip)
{
    return make_pool_on(core0, core_good, threads, batch, frameskip);
}

/* The call's result, waiting in 1 ms slices when it is left pending. */
static int finish(rg_pool *p, int rc, rg_pool_batch *b, int *pendings)
{
    while (rc == RG_POOL_PENDING) {
        ++*pendings;
        rc = rg_pool_wait(p, 1, b);
    }
    return rc;
}

static void same_batch(const rg_pool *p, const rg_pool_batch *a, const rg_pool_batch *b)
{
    size_t obs = rg_pool_obs_size(p);
    assert_int_equal(a->count, b->count);
    assert_memory_equal(a->env_ids, b->env_ids, a->count * sizeof *a->env_ids);
    assert_memory_equal(a->obs, b->obs, a->count * obs);
    assert_memory_equal(a->rewards, b->rewards, a->count * RG_SCENARIO_MAX_PLAYERS * sizeof(float));
    assert_memory_equal(a->terminated, b->terminated, a->count);
    assert_memory_equal(a->truncated, b->truncated, a->count);
    assert_int_equal(a->n_info, b->n_info);
    assert_memory_equal(a->info_valid, b->info_valid, a->count * a->n_info);
    assert_memory_equal(a->info, b->info, a->count * a->n_info * sizeof(int64_t));
}

/* Synchronous and asynchronous pools with a 1 ms limit give the results of pools without one, step by step; steps
 * of env 0 (a core that takes 2 ms a frame) take longer than the limit, so that calls are left pending and
 * finished by rg_pool_wait. */
static void results_unchanged(void **state)
{
    (void)state;
    for (int async = 0; async < 2; async++) {
        rg_pool *a = make_pool(core_slow, 2, async ? 1 : 0, 1), *b = make_pool(core_slow, 2, async ? 1 : 0, 1);
        EXPECT_OK(rg_pool_set_timeout(b, 1));
        size_t len = rg_pool_action_length(a);
        int64_t *act = calloc(N * len, sizeof *act);
        uint8_t *obs_a = malloc(N * rg_pool_obs_size(a)), *obs_b = malloc(N * rg_pool_obs_size(a));
        rg_pool_batch ba, bb;
        int pendings = 0;
        EXPECT_OK(rg_pool_reset(a, NULL, 0, &ba));
        EXPECT_OK(finish(b, rg_pool_reset(b, NULL, 0, &bb), &bb, &pendings));
        same_batch(a, &ba, &bb);
        int32_t ids[N] = {0, 1, 2};
        for (int s = 0; s < 20; s++) {
            for (size_t k = 0; k < N * len; k++)
                act[k] = (s * 7 + (int)k) % 3 == 0;
            if (!async) {
                EXPECT_OK(rg_pool_step_into(a, act, obs_a, &ba));
                EXPECT_OK(finish(b, rg_pool_step_into(b, act, obs_b, &bb), &bb, &pendings));
                assert_ptr_equal(bb.obs, obs_b);
                same_batch(a, &ba, &bb);
                continue;
            }
            /* one env at a time, so that the order of results is fixed; b's result first, while env 0's 2 ms step
             * is still running (after a's, it was mostly done and the call seldom pending: the clean-clone CI of
             * 2c1311c saw none) */
            for (int i = 0; i < N; i++) {
                EXPECT_OK(rg_pool_send(b, act + i * len, &ids[i], 1));
                EXPECT_OK(finish(b, rg_pool_recv(b, &bb), &bb, &pendings));
                EXPECT_OK(rg_pool_send(a, act + i * len, &ids[i], 1));
                EXPECT_OK(rg_pool_recv(a, &ba));
                same_batch(a, &ba, &bb);
            }
        }
        /* nothing pending: waiting is a misuse */
        assert_int_equal(rg_pool_wait(b, 1, &bb), RG_EMISUSE);
        printf("# %s pool: %d waits after a pending call\n", async ? "asynchronous" : "synchronous", pendings);
        assert_true(pendings > 0);
        free(act);
        free(obs_a);
        free(obs_b);
        rg_pool_free(a);
        rg_pool_free(b);
    }
}

#define HANG_FRAME 40

static int hung_child(void)
{
    alarm(30); /* a wait that never ends fails the test instead of hanging it */
    rg_pool *p = make_pool(core_hang, 2, 0, 1); /* env 0, lane 0: the hanging core */
    if (rg_pool_set_timeout(p, 20) != RG_OK)
        return 10;
    size_t len = rg_pool_action_length(p);
    int64_t act[N * 16] = {0};
    rg_pool_batch b;
    int rc = rg_pool_reset(p, NULL, 0, &b), steps = 0;
    while (rc == RG_OK && steps < 10 * HANG_FRAME) {
        steps++;
        rc = rg_pool_step(p, act, &b);
    }
    (void)len;
    if (rc != RG_POOL_PENDING) {
        fprintf(stderr, "step %d: %d (%s), not pending\n", steps, rc, rg_error_last());
        return 11;
    }
    for (int k = 0; k < 5; k++) { /* still stuck: each wait returns after its limit */
        double t0 = test_now_ms();
        rc = rg_pool_wait(p, 20, &b);
        double dt = test_now_ms() - t0;
        if (rc != RG_POOL_PENDING || dt < 15 || dt > 500) {
            fprintf(stderr, "wait %d: %d after %.1f ms\n", k, rc, dt);
            return 12;
        }
    }
    if (rg_pool_step(p, act, &b) != RG_EMISUSE || !strstr(rg_error_last(), "pending"))
        return 13;
    if (rg_pool_reset(p, NULL, 0, &b) != RG_EMISUSE || rg_pool_set_timeout(p, 0) != RG_EMISUSE)
        return 14;
    double t0 = test_now_ms();
    rg_pool_free(p); /* the stuck worker is detached, not joined */
    double dt = test_now_ms() - t0;
    if (dt < RG_POOL_FREE_GRACE_MS - 5 || dt > RG_POOL_FREE_GRACE_MS + 1000) {
        fprintf(stderr, "rg_pool_free took %.1f ms\n", dt);
        return 15;
    }
    printf("# hung at step %d; rg_pool_free returned after %.0f ms\n", steps, dt);
    fflush(stdout);
    return 0; /* the process ends with the stuck thread still sleeping in the core */
}

static void hung_core_leaves_call_pending(void **state)
{
    (void)state;
    char frame[16];
    snprintf(frame, sizeof frame, "%d", HANG_FRAME);
    setenv("FAULT_FRAME", frame, 1);
    fflush(NULL);
    double t0 = test_now_ms();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* _exit: LeakSanitizer would report the pool leaked on purpose */
        int code = hung_child();
        fflush(NULL);
        _exit(code);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    unsetenv("FAULT_FRAME");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("child: %s %d", WIFEXITED(status) ? "exit status" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    printf("# the child process with a stuck worker exited in %.0f ms\n", test_now_ms() - t0);
}

/* A limit on a pool whose caller runs no lane (asynchronous) starts no thread; bad arguments. */
static void arguments(void **state)
{
    (void)state;
    assert_int_equal(rg_pool_set_timeout(NULL, 1), RG_EINVAL);
    rg_pool_batch b;
    assert_int_equal(rg_pool_wait(NULL, 1, &b), RG_EINVAL);
    rg_pool *p = make_pool(core_good, 1, 0, 1); /* one lane: the caller's; the limit gives it a worker */
    EXPECT_OK(rg_pool_set_timeout(p, 50));
    EXPECT_OK(rg_pool_set_timeout(p, 0)); /* back to waiting until done; the worker stays */
    int64_t act[N * 16] = {0};
    EXPECT_OK(rg_pool_reset(p, NULL, 0, &b));
    EXPECT_OK(rg_pool_step(p, act, &b));
    assert_int_equal(b.count, N);
    rg_pool_free(p);
}

/* Threads of this process (/proc/self/task). */
static int count_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* A limit on a one-lane pool of our own cores (here the NES core) keeps its jobs on the caller (they cannot hang:
 * no worker thread, no hand-over per step), with the results of a pool without a limit; with an outside core (the
 * fault core) the same pool gets a worker thread for lane 0. */
static void one_lane_own_cores_stay_on_caller(void **state)
{
    (void)state;
    rg_pool *a = make_pool_on("nes", "nes", 1, 0, 4), *b = make_pool_on("nes", "nes", 1, 0, 4);
    int before = count_threads();
    EXPECT_OK(rg_pool_set_timeout(b, 1));
    assert_int_equal(count_threads(), before);
    int64_t act[N * 16];
    size_t len = rg_pool_action_length(a);
    assert_true(len * N <= sizeof act / sizeof *act);
    rg_pool_batch ba, bb;
    int pendings = 0;
    EXPECT_OK(rg_pool_reset(a, NULL, 0, &ba));
    EXPECT_OK(finish(b, rg_pool_reset(b, NULL, 0, &bb), &bb, &pendings));
    same_batch(a, &ba, &bb);
    for (int s = 0; s < 60; s++) {
        for (size_t k = 0; k < len * N; k++)
            act[k] = (int64_t)((s * 7 + k * 3) % 5 == 0);
        EXPECT_OK(rg_pool_step(a, act, &ba));
        EXPECT_OK(finish(b, rg_pool_step(b, act, &bb), &bb, &pendings));
        same_batch(a, &ba, &bb);
    }
    rg_pool_free(a);
    rg_pool_free(b);
    rg_pool *c = make_pool(core_good, 1, 0, 1);
    before = count_threads();
    EXPECT_OK(rg_pool_set_timeout(c, 1));
    assert_int_equal(count_threads(), before + 1);
    rg_pool_free(c);
}

static int setup(void **state)
{
    (void)state;
    char root[1024];
    if (rg_integration_paths_create(&dp, test_source_path("data", root, sizeof root)) != RG_OK)
        return -1;
    snprintf(core_good, sizeof core_good, "%s/fault_good_libretro.so", FAULT_CORE_DIR);
    snprintf(core_slow, sizeof core_slow, "%s/fault_run_slow_libretro.so", FAULT_CORE_DIR);
    snprintf(core_hang, sizeof core_hang, "%s/fault_run_hang_libretro.so", FAULT_CORE_DIR);
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
        cmocka_unit_test(one_lane_own_cores_stay_on_caller),
        cmocka_unit_test(results_unchanged),
        cmocka_unit_test(hung_core_leaves_call_pending),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
