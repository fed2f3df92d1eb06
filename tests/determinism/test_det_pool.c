/* Determinism of the pool on every system with a core (docs/determinism.md): four environments with sticky
 * actions, frame skip, no-op starts and a step limit, stepped with seeded random actions by 1, 2 and 4 worker
 * threads, give row for row what four single environments give (observations, RAM, rewards, terminated/truncated,
 * info), through the autoresets of NEXT_STEP and SAME_STEP (final observations and infos included). */
#define _GNU_SOURCE
#include "det.h"

#include <stdlib.h>
#include <string.h>

#define N 4
#define SEED 500
#ifdef RG_SANITIZED
#define STEPS 30
#else
#define STEPS 40
#endif

static det_stream single[N], pooled[N];

static det_config env_config(size_t i, rg_autoreset_mode mode)
{
    det_config c = det_default_config(STEPS);
    c.max_steps = 16; /* episodes end about 50 frames after the start state (with 0-8 no-op starts: 39-47
                         frames of steps), or are truncated after 16 steps (48 frames) */
    c.seed = SEED + i;
    c.action_seed = 7 + i;
    c.mode = mode;
    return c;
}

static uint64_t info_row_hash(const rg_pool *p, const int64_t *info, const uint8_t *valid)
{
    uint64_t h = 0;
    for (size_t j = 0; j < rg_pool_info_count(p); j++) {
        const char *name = rg_pool_info_name(p, j);
        assert_int_equal(valid[j], 1);
        h = test_hash(name, strlen(name) + 1, h);
        h = test_hash(&info[j], sizeof info[j], h);
    }
    return h;
}

static void take_rows(rg_pool *p, const rg_pool_batch *b, size_t k, rg_autoreset_mode mode)
{
    size_t size = rg_pool_obs_size(p), n_info = b->n_info;
    assert_int_equal(b->count, N);
    for (size_t r = 0; r < N; r++) {
        size_t i = (size_t)b->env_ids[r];
        assert_int_equal(i, r);
        det_row *row = &pooled[i].rows[k];
        memset(row, 0, sizeof *row);
        row->obs = test_hash(b->obs + r * size, size, 0);
        row->ram = det_env_ram_hash(rg_pool_env(p, i));
        row->info = info_row_hash(p, b->info + r * n_info, b->info_valid + r * n_info);
        row->reward = b->rewards[r * RG_SCENARIO_MAX_PLAYERS];
        row->terminated = b->terminated[r];
        row->truncated = b->truncated[r];
        if (k == 0) {
            row->reset = 1;
        } else if (mode == RG_AUTORESET_NEXT_STEP) {
            const det_row *prev = &pooled[i].rows[k - 1];
            row->reset = prev->terminated || prev->truncated;
        } else if (b->has_final[r]) {
            row->reset = 1;
            row->final_obs = test_hash(b->final_obs + r * size, size, 0);
            row->final_info = info_row_hash(p, b->final_info + r * n_info, b->final_info_valid + r * n_info);
        }
        pooled[i].n = k + 1;
    }
}

static void run_pool(const det_game *g, unsigned threads, rg_autoreset_mode mode)
{
    det_config c0 = env_config(0, mode);
    rg_env_options eo = det_env_options(g, &c0);
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.envs = &eo;
    po.n_env_options = 1;
    po.num_envs = N;
    po.num_threads = threads;
    po.autoreset = mode;
    po.seed = SEED;
    rg_pool *p;
    if (rg_pool_create(&p, &po) != RG_OK)
        fail_msg("%s pool: %s", g->system, rg_error_last());
    unsigned nb = rg_env_num_buttons(rg_pool_env(p, 0));
    int64_t *actions = calloc((size_t)N * nb, sizeof *actions);
    assert_non_null(actions);
    rg_pool_batch b;
    assert_int_equal(rg_pool_reset(p, NULL, 0, &b), RG_OK);
    take_rows(p, &b, 0, mode);
    for (unsigned s = 1; s <= STEPS; s++) {
        for (size_t i = 0; i < N; i++) {
            det_config ci = env_config(i, mode);
            det_action(&ci, s, nb, actions + i * nb);
        }
        if (rg_pool_step(p, actions, &b) != RG_OK)
            fail_msg("%s pool step %u: %s", g->system, s, rg_error_last());
        take_rows(p, &b, s, mode);
    }
    free(actions);
    rg_pool_free(p);
    for (size_t i = 0; i < N; i++) {
        char what[128];
        snprintf(what, sizeof what, "%s: env %zu of a %s pool on %u threads", g->system, i,
                 mode == RG_AUTORESET_NEXT_STEP ? "NEXT_STEP" : "SAME_STEP", threads);
        det_expect_equal(what, &single[i], &pooled[i], 0, 0);
    }
}

static void singles(const det_game *g, rg_autoreset_mode mode)
{
    unsigned terminated = 0, truncated = 0;
    for (size_t i = 0; i < N; i++) {
        det_config c = env_config(i, mode);
        rg_env *env = det_env(g, &c, 0);
        det_run(env, &c, &single[i]);
        rg_env_free(env);
        for (size_t k = 1; k < single[i].n; k++) {
            terminated += single[i].rows[k].terminated;
            truncated += single[i].rows[k].truncated;
        }
    }
    print_message("%s: %u episodes terminated, %u truncated\n", g->system, terminated, truncated);
    assert_true(terminated >= 1 && truncated >= 1); /* both kinds of autoreset happened */
}

static void pool_equals_single_envs(void **state)
{
    const det_game *g = det_game_of(*state);
    if (!g) {
        print_message("%s: no core, skipped\n", (const char *)*state);
        skip();
    }
    singles(g, RG_AUTORESET_NEXT_STEP);
    for (unsigned threads = 1; threads <= 4; threads *= 2)
        run_pool(g, threads, RG_AUTORESET_NEXT_STEP);
    singles(g, RG_AUTORESET_SAME_STEP);
    run_pool(g, 2, RG_AUTORESET_SAME_STEP);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        SYSTEM_TESTS(pool_equals_single_envs),
    };
    return cmocka_run_group_tests(tests, NULL, det_teardown);
}
