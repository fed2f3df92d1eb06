/* A step after reset allocates nothing: malloc, calloc and realloc are counted around 2,000 steps of our game in
 * every observation and action mode (the core, nestopia, allocates nothing per frame either), and at frame skip 4 on
 * our own NES core (which is marked for redraws, src/env/env_step.c). Not built with the sanitizers, which own
 * malloc. */
#define _GNU_SOURCE
#include "test_support.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static volatile int counting;
static volatile unsigned long calls;

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);

/* dlsym itself may call calloc: serve those from a small static arena. */
static char arena[4096];
static size_t arena_used;

void *malloc(size_t n)
{
    if (!real_malloc)
        real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    if (counting)
        calls++;
    return real_malloc(n);
}

void *calloc(size_t n, size_t k)
{
    if (!real_calloc) {
        if (arena_used + n * k <= sizeof arena) {
            void *p = arena + arena_used;
            arena_used += (n * k + 15) & ~(size_t)15;
            return p;
        }
        real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    }
    if (counting)
        calls++;
    return real_calloc(n, k);
}

void *realloc(void *p, size_t n)
{
    if (!real_realloc)
        real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    if (counting)
        calls++;
    return real_realloc(p, n);
}

void free(void *p)
{
    static void (*real_free)(void *);
    if ((char *)p >= arena && (char *)p < arena + sizeof arena)
        return;
    if (!real_free)
        real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    real_free(p);
}

static void steps_allocate_nothing(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    /* resolve the real calloc before the arena could be freed by anyone */
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    /* the counter works */
    calls = 0;
    counting = 1;
    void *probe = malloc(16);
    counting = 0;
    free(probe);
    assert_int_equal(calls, 1);
    char root[1024];
    rg_integration_paths *dp;
    assert_int_equal(rg_integration_paths_create(&dp, test_source_path("data", root, sizeof root)), RG_OK);
    for (int mode = 0; mode < 5; mode++) {
        rg_env_options o = RG_ENV_OPTIONS_INIT;
        o.game = "StarCatcher-Nes";
        o.paths = dp;
        o.log = test_quiet_log;
        if (mode == 4) { /* our NES core at frame skip 4: the marks for redraws (env_step.c) allocate nothing */
            o.core = "nes";
            o.state = RG_STATE_NONE;
        }
        o.actions = mode == 3 ? RG_ACTIONS_DISCRETE : RG_ACTIONS_FILTERED;
        o.obs = mode == 1 ? RG_OBS_RAM : RG_OBS_IMAGE;
        o.frameskip = mode == 2 || mode == 4 ? 4 : 1;
        o.max_pool = mode == 2;
        o.sticky_prob = mode == 2 ? 0.25 : 0.0;
        rg_env *env;
        assert_int_equal(rg_env_create(&env, &o), RG_OK);
        size_t size = rg_env_obs_size(env);
        uint8_t *obs = malloc(size);
        assert_int_equal(rg_env_reset(env, 1, 1, obs, size), RG_OK);
        int64_t a[9] = {0};
        rg_step_result r;
        calls = 0;
        counting = 1;
        for (unsigned s = 0; s < 2000; s++) {
            if (mode == 3)
                a[0] = s % 36;
            else
                a[s % 9] = !a[s % 9];
            int rc = rg_env_step(env, a, rg_env_action_length(env), obs, size, &r);
            if (rc != RG_OK) {
                counting = 0;
                fail_msg("step: %s", rg_error_last());
            }
            if (r.terminated) /* counted too: the end's frame drawn again (a state load of our core) allocates
                                * nothing either (docs/architecture.md, "Frame skip and the frame that ends an episode") */
                break;
        }
        counting = 0;
        if (calls)
            fail_msg("mode %d: %lu allocations in the steps", mode, calls);
        free(obs);
        rg_env_free(env);
    }
    rg_integration_paths_free(dp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(steps_allocate_nothing)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
