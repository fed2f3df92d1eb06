/* The options structs of env.h, pool.h, emu.h and movie.h: the designated-initialiser macros and the inline init
 * functions give the same defaults; `version` is accepted from the oldest supported to the current one and refused
 * outside with RG_EINVAL and a message naming the range; every named limit (RG_ENV_MAX_*, RG_POOL_MAX_*) accepts
 * its maximum and refuses one more with RG_EINVAL and a message naming it. The real components: our game
 * StarCatcher-Nes on an installed NES core, and the library's own checks. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAME "StarCatcher-Nes"

static rg_integration_paths *paths;

static int setup(void **state)
{
    (void)state;
    char root[1024];
    return rg_integration_paths_create(&paths, test_source_path("data", root, sizeof root)) == RG_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rg_integration_paths_free(paths);
    return 0;
}

static rg_env_options env_opts(void)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = GAME;
    o.paths = paths;
    o.log = test_quiet_log;
    return o;
}

static void need_core(void)
{
    if (!test_core_installed("nestopia"))
        skip();
}

/* rc is RG_EINVAL and the message holds `want`. */
static void expect_refused(int rc, const char *want)
{
    if (rc != RG_EINVAL || !strstr(rg_error_last(), want))
        fail_msg("expected RG_EINVAL naming \"%s\", got %s: %s", want, rg_error_name(rc), rg_error_last());
}

/* ---- the two ways to start from the defaults agree ---- */

static void init_functions_equal_the_initialisers(void **state)
{
    (void)state;
    rg_env_options ea = RG_ENV_OPTIONS_INIT, eb;
    memset(&eb, 0xA5, sizeof eb);
    rg_env_options_init(&eb);
    assert_int_equal(ea.version, RG_ENV_OPTIONS_VERSION);
    assert_int_equal(eb.version, ea.version);
    assert_ptr_equal(eb.game, ea.game);
    assert_ptr_equal(eb.state, RG_STATE_DEFAULT);
    assert_ptr_equal(eb.scenario, ea.scenario);
    assert_ptr_equal(eb.info, ea.info);
    assert_int_equal(eb.actions, RG_ACTIONS_FILTERED);
    assert_int_equal(ea.actions, RG_ACTIONS_FILTERED);
    assert_int_equal(eb.obs, ea.obs);
    assert_int_equal(ea.players, 1);
    assert_int_equal(eb.players, 1);
    assert_ptr_equal(eb.paths, ea.paths);
    assert_int_equal(eb.integrations, ea.integrations);
    assert_ptr_equal(eb.core, ea.core);
    assert_ptr_equal(eb.core_options, ea.core_options);
    assert_int_equal(eb.n_core_options, ea.n_core_options);
    assert_int_equal(ea.frameskip, 1);
    assert_int_equal(eb.frameskip, 1);
    assert_true(eb.sticky_prob == 0.0 && ea.sticky_prob == 0.0);
    assert_int_equal(eb.max_pool, ea.max_pool);
    assert_int_equal(eb.noop_max, ea.noop_max);
    assert_int_equal(eb.max_episode_steps, ea.max_episode_steps);
    assert_ptr_equal(eb.log, ea.log);
    assert_ptr_equal(eb.log_user, ea.log_user);
    assert_int_equal(ea.log_level, RG_LOG_WARN);
    assert_int_equal(eb.log_level, RG_LOG_WARN);
    assert_ptr_equal(eb.rom, ea.rom);
    assert_ptr_equal(eb.reset_sequence, ea.reset_sequence);
    assert_int_equal(eb.n_reset_sequence, ea.n_reset_sequence);

    rg_pool_options pa = RG_POOL_OPTIONS_INIT, pb;
    memset(&pb, 0xA5, sizeof pb);
    rg_pool_options_init(&pb);
    assert_int_equal(pa.version, RG_POOL_OPTIONS_VERSION);
    assert_int_equal(pb.version, pa.version);
    assert_ptr_equal(pb.envs, pa.envs);
    assert_int_equal(pb.n_env_options, pa.n_env_options);
    assert_int_equal(pb.num_envs, pa.num_envs);
    assert_int_equal(pb.num_threads, pa.num_threads);
    assert_int_equal(pb.batch_size, pa.batch_size);
    assert_int_equal(pb.autoreset, RG_AUTORESET_NEXT_STEP);
    assert_int_equal(pa.autoreset, RG_AUTORESET_NEXT_STEP);
    assert_int_equal(pb.seed, pa.seed);
    assert_int_equal(pb.grayscale, pa.grayscale);
    assert_int_equal(pb.resize_width, pa.resize_width);
    assert_int_equal(pb.resize_height, pa.resize_height);
    assert_int_equal(pb.frame_stack, pa.frame_stack);
    assert_true(pb.reward_clip == 0.0f && pa.reward_clip == 0.0f);
    assert_int_equal(pb.isolation, RG_POOL_THREADS);
    assert_int_equal(pa.isolation, RG_POOL_THREADS);
    assert_int_equal(pb.worker_timeout_ms, pa.worker_timeout_ms);

    rg_emu_options ma = RG_EMU_OPTIONS_INIT, mb;
    memset(&mb, 0xA5, sizeof mb);
    rg_emu_options_init(&mb);
    assert_int_equal(ma.version, RG_EMU_OPTIONS_VERSION);
    assert_int_equal(mb.version, ma.version);
    assert_ptr_equal(mb.core, ma.core);
    assert_ptr_equal(mb.system, ma.system);
    assert_ptr_equal(mb.system_dir, ma.system_dir);
    assert_ptr_equal(mb.save_dir, ma.save_dir);
    assert_ptr_equal(mb.core_options, ma.core_options);
    assert_int_equal(mb.n_core_options, ma.n_core_options);
    assert_ptr_equal(mb.log, ma.log);
    assert_ptr_equal(mb.log_user, ma.log_user);
    assert_int_equal(ma.log_level, RG_LOG_WARN);
    assert_int_equal(mb.log_level, RG_LOG_WARN);
    assert_int_equal(mb.capture_audio, ma.capture_audio);
    assert_int_equal(mb.max_rom_size, ma.max_rom_size);

    rg_movie_limits la = RG_MOVIE_LIMITS_INIT, lb;
    memset(&lb, 0xA5, sizeof lb);
    rg_movie_limits_init(&lb);
    assert_int_equal(la.version, RG_MOVIE_LIMITS_VERSION);
    assert_int_equal(lb.version, la.version);
    assert_int_equal(lb.max_file_size, la.max_file_size);
    assert_int_equal(lb.max_log_size, la.max_log_size);
    assert_int_equal(lb.max_header_size, la.max_header_size);
    assert_int_equal(lb.max_state_size, la.max_state_size);
    assert_int_equal(lb.max_frames, la.max_frames);
}

/* ---- versions: a range ---- */

static void env_versions(void **state)
{
    (void)state;
    need_core();
    rg_env *env = (rg_env *)1;
    rg_env_options o = env_opts();
    o.version = RG_ENV_OPTIONS_VERSION_OLDEST - 1;
    expect_refused(rg_env_create(&env, &o), "rg_env_options.version is 0");
    assert_null(env);
    assert_non_null(strstr(rg_error_last(), "accepts 1..")); /* the range, not one number */
    o.version = RG_ENV_OPTIONS_VERSION + 1;
    expect_refused(rg_env_create(&env, &o), "rg_env_options.version");
    for (unsigned v = RG_ENV_OPTIONS_VERSION_OLDEST; v <= RG_ENV_OPTIONS_VERSION; v++) {
        o.version = v;
        if (rg_env_create(&env, &o) != RG_OK)
            fail_msg("version %u: %s", v, rg_error_last());
        rg_env_free(env);
    }
    /* rg_env_options_init's struct is accepted as it is, with the game named */
    rg_env_options_init(&o);
    o.game = GAME;
    o.paths = paths;
    o.log = test_quiet_log;
    if (rg_env_create(&env, &o) != RG_OK)
        fail_msg("rg_env_options_init: %s", rg_error_last());
    rg_env_free(env);
}

static void pool_versions(void **state)
{
    (void)state;
    need_core();
    rg_env_options eo = env_opts();
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.envs = &eo;
    po.n_env_options = 1;
    po.num_envs = 1;
    rg_pool *p = NULL;
    po.version = RG_POOL_OPTIONS_VERSION_OLDEST - 1;
    expect_refused(rg_pool_create(&p, &po), "rg_pool_options.version is 0");
    po.version = RG_POOL_OPTIONS_VERSION + 1;
    expect_refused(rg_pool_create(&p, &po), "rg_pool_options.version");
    assert_non_null(strstr(rg_error_last(), "accepts 1..2"));
    for (unsigned v = RG_POOL_OPTIONS_VERSION_OLDEST; v <= RG_POOL_OPTIONS_VERSION; v++) {
        po.version = v;
        if (rg_pool_create(&p, &po) != RG_OK)
            fail_msg("version %u: %s", v, rg_error_last());
        rg_pool_free(p);
    }
}

static void emu_and_movie_versions(void **state)
{
    (void)state;
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    rg_emu *emu = NULL;
    o.version = RG_EMU_OPTIONS_VERSION_OLDEST - 1;
    expect_refused(rg_emu_open(&emu, "no-such-rom.nes", &o), "rg_emu_options.version is 0");
    o.version = RG_EMU_OPTIONS_VERSION + 1;
    expect_refused(rg_emu_open(&emu, "no-such-rom.nes", &o), "rg_emu_options.version");
    for (unsigned v = RG_EMU_OPTIONS_VERSION_OLDEST; v <= RG_EMU_OPTIONS_VERSION; v++) {
        o.version = v; /* accepted: what fails is the missing ROM */
        assert_int_equal(rg_emu_open(&emu, "no-such-rom.nes", &o), RG_ENOTFOUND);
    }
    static const char not_a_movie[] = "not a movie";
    rg_movie_limits lim = RG_MOVIE_LIMITS_INIT;
    rg_movie *m = NULL;
    lim.version = RG_MOVIE_LIMITS_VERSION_OLDEST - 1;
    expect_refused(rg_movie_open_memory(&m, not_a_movie, sizeof not_a_movie, "x.bk2", &lim),
                   "rg_movie_limits.version is 0");
    lim.version = RG_MOVIE_LIMITS_VERSION + 1;
    expect_refused(rg_movie_open_memory(&m, not_a_movie, sizeof not_a_movie, "x.bk2", &lim),
                   "rg_movie_limits.version");
    for (unsigned v = RG_MOVIE_LIMITS_VERSION_OLDEST; v <= RG_MOVIE_LIMITS_VERSION; v++) {
        lim.version = v; /* accepted: what fails is the content */
        assert_int_equal(rg_movie_open_memory(&m, not_a_movie, sizeof not_a_movie, "x.bk2", &lim), RG_ECORRUPT);
    }
}

/* ---- the named limits ---- */

static void env_limits(void **state)
{
    (void)state;
    need_core();
    rg_env *env;
    rg_env_options o = env_opts();
    o.frameskip = RG_ENV_MAX_FRAMESKIP;
    if (rg_env_create(&env, &o) != RG_OK)
        fail_msg("frameskip at its limit: %s", rg_error_last());
    rg_env_free(env);
    o.frameskip = RG_ENV_MAX_FRAMESKIP + 1;
    expect_refused(rg_env_create(&env, &o), "RG_ENV_MAX_FRAMESKIP");

    o = env_opts();
    o.players = RG_SCENARIO_MAX_PLAYERS + 1;
    expect_refused(rg_env_create(&env, &o), "RG_SCENARIO_MAX_PLAYERS");

    /* RG_ENV_MAX_RESET_SEQUENCE frames pass the check (the sequence is then refused for the game's start state,
     * which is not a power-on: running 100000 frames is not needed to see the limit's edge); one more does not */
    uint16_t *seq = calloc(RG_ENV_MAX_RESET_SEQUENCE + 1, sizeof *seq);
    assert_non_null(seq);
    o = env_opts();
    o.reset_sequence = seq;
    o.n_reset_sequence = RG_ENV_MAX_RESET_SEQUENCE;
    int rc = rg_env_create(&env, &o);
    if (rc == RG_OK)
        rg_env_free(env);
    else if (strstr(rg_error_last(), "RG_ENV_MAX_RESET_SEQUENCE"))
        fail_msg("a reset sequence at its limit was refused by it: %s", rg_error_last());
    o.n_reset_sequence = RG_ENV_MAX_RESET_SEQUENCE + 1;
    expect_refused(rg_env_create(&env, &o), "RG_ENV_MAX_RESET_SEQUENCE");
    o.state = RG_STATE_NONE;
    expect_refused(rg_env_create(&env, &o), "RG_ENV_MAX_RESET_SEQUENCE");
    free(seq);

    /* checked in C now (the Python extension passes them through) */
    o = env_opts();
    o.integrations = RG_INTEGRATIONS_ALL + 1u;
    expect_refused(rg_env_create(&env, &o), "integration flags");
    o = env_opts();
    o.log_level = (rg_log_level)(RG_LOG_NONE + 1);
    expect_refused(rg_env_create(&env, &o), "log level");
}

/* The pool's limits are checked before any environment is made: a value at its limit passes that check, which the
 * error that follows shows (n_env_options set to 2 for 1 environment: refused after every limit). */
static void pool_limit(rg_pool_options po, const char *limit, int at_max)
{
    rg_pool *p = NULL;
    int rc = rg_pool_create(&p, &po);
    if (at_max) {
        if (rc == RG_OK)
            rg_pool_free(p);
        else if (strstr(rg_error_last(), limit))
            fail_msg("%s: the maximum was refused: %s", limit, rg_error_last());
    } else {
        expect_refused(rc, limit);
        assert_null(p);
    }
}

static void pool_limits(void **state)
{
    (void)state;
    need_core();
    rg_env_options eo[2] = {env_opts(), env_opts()};
    rg_pool_options base = RG_POOL_OPTIONS_INIT;
    base.envs = eo;
    base.n_env_options = 2; /* for num_envs 1: refused after the limits */
    base.num_envs = 1;
    rg_pool_options po = base;
    po.num_envs = RG_POOL_MAX_NUM_ENVS;
    pool_limit(po, "RG_POOL_MAX_NUM_ENVS", 1);
    po.num_envs = RG_POOL_MAX_NUM_ENVS + 1;
    pool_limit(po, "RG_POOL_MAX_NUM_ENVS", 0);
    po = base;
    po.num_threads = RG_POOL_MAX_THREADS;
    pool_limit(po, "RG_POOL_MAX_THREADS", 1);
    po.num_threads = RG_POOL_MAX_THREADS + 1;
    pool_limit(po, "RG_POOL_MAX_THREADS", 0);
    po = base;
    po.frame_stack = RG_POOL_MAX_FRAME_STACK;
    pool_limit(po, "RG_POOL_MAX_FRAME_STACK", 1);
    po.frame_stack = RG_POOL_MAX_FRAME_STACK + 1;
    pool_limit(po, "RG_POOL_MAX_FRAME_STACK", 0);
    po = base;
    po.resize_width = po.resize_height = RG_POOL_MAX_RESIZE;
    pool_limit(po, "RG_POOL_MAX_RESIZE", 1);
    po.resize_width = RG_POOL_MAX_RESIZE + 1;
    pool_limit(po, "RG_POOL_MAX_RESIZE", 0);
    po.resize_width = RG_POOL_MAX_RESIZE;
    po.resize_height = RG_POOL_MAX_RESIZE + 1;
    pool_limit(po, "RG_POOL_MAX_RESIZE", 0);
    po = base;
    po.isolation = RG_POOL_PROCESSES;
    po.worker_timeout_ms = RG_POOL_MAX_WORKER_TIMEOUT_MS;
    pool_limit(po, "RG_POOL_MAX_WORKER_TIMEOUT_MS", 1);
    po.worker_timeout_ms = RG_POOL_MAX_WORKER_TIMEOUT_MS + 1;
    pool_limit(po, "RG_POOL_MAX_WORKER_TIMEOUT_MS", 0);
    po.version = 1; /* a version-1 struct has no worker_timeout_ms: not read */
    pool_limit(po, "RG_POOL_MAX_WORKER_TIMEOUT_MS", 1);

    /* real pools at the limits a single environment can have cheaply */
    po = base;
    po.n_env_options = 1;
    po.num_threads = RG_POOL_MAX_THREADS; /* capped at num_envs */
    po.frame_stack = RG_POOL_MAX_FRAME_STACK;
    rg_pool *p;
    if (rg_pool_create(&p, &po) != RG_OK)
        fail_msg("a pool at its thread and frame-stack limits: %s", rg_error_last());
    unsigned stack, h, w, c;
    rg_pool_obs_shape(p, &stack, &h, &w, &c);
    assert_int_equal(stack, RG_POOL_MAX_FRAME_STACK);
    rg_pool_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(init_functions_equal_the_initialisers),
        cmocka_unit_test(env_versions),
        cmocka_unit_test(pool_versions),
        cmocka_unit_test(emu_and_movie_versions),
        cmocka_unit_test(env_limits),
        cmocka_unit_test(pool_limits),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
