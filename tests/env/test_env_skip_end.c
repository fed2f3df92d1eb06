/* The step whose episode ends inside its frame skip, on our own cores (which skip drawing unobserved frames): what it
 * returns equals what stepping the same input one frame at a time gives (a core drawing every frame), on the frame
 * where the episode ended: observation bytes, RAM, reward, terminated, truncated, info, frame count. The test ROMs of
 * the Atari 2600, NES, SMS, Game Gear and Genesis run as integrations made here whose episode ends when the ROM's frame
 * counter reaches K, for K landing on every frame of a skip of 4 (env_step.c draws that frame again from a mark taken
 * before it). The input changes every step and the ROMs' colours follow the pad, so the frame drawn last before the
 * end differs from the end's. Variants: max-pooling (the last two frames drawn), sticky actions (the generator is
 * replayed), and a Lua script that writes RAM on some frames (the mark is taken again after such a write; the state
 * after the end is the first run's). The vector pool, with threads and with processes, gives the same rows. */
#include "test_support.h"

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>

#define SKIP 4

typedef struct skip_case {
    const char *system; /* the manifest of tests/roms (its "system") */
    const char *core;
    const char *rom;    /* under tests/roms/bin */
    const char *game;
    uint64_t scratch;   /* a RAM address the ROM leaves alone, for the script's writes */
} skip_case;

static const skip_case k_cases[] = {
    {"Atari2600", "atari2600", "test.a26", "Skip-Atari2600", 0xC0},
    {"Nes", "nes", "test.nes", "Skip-Nes", 0x300},
    {"Sms", "sms", "test.sms", "Skip-Sms", 0xC100},
    {"GameGear", "gamegear", "test.gg", "Skip-GameGear", 0xC100},
    {"Genesis", "genesis", "test.md", "Skip-Genesis", 0xFF0100},
    {"Genesis", "genesis", "md/modes.md", "Modes-Genesis", 0xFF0100},
};

enum { PLAIN, MAX_POOL, STICKY, SCRIPT, N_VARIANTS };
static const char *const k_variant[N_VARIANTS] = {"plain", "max-pool", "sticky", "script writing RAM"};

/* The integration: counter and scratch variables, reward = the counter's change, done at counter == k (JSON), or
 * by a script that also writes the scratch byte on every third counter value. */
static void write_integration(const char *dir, const test_rom *rom, const skip_case *c, unsigned k, int script)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"info\": {\"counter\": {\"address\": %llu, \"type\": \"|u1\"}, "
             "\"scratch\": {\"address\": %llu, \"type\": \"|u1\"}}}",
             (unsigned long long)rom->counter_addr, (unsigned long long)c->scratch);
    test_write_text(dir, "data.json", text);
    if (script) {
        test_write_text(dir, "scenario.json", "{\"scripts\": [\"script.lua\"], \"done\": {\"script\": \"lua:done\"}, "
                                              "\"reward\": {\"variables\": {\"counter\": {\"reward\": 1}}}}");
        snprintf(text, sizeof text,
                 "function done()\n"
                 "  if data.counter %% 3 == 0 then data.scratch = (data.scratch + 7) %% 256 end\n"
                 "  return data.counter == %u\n"
                 "end\n",
                 k);
        test_write_text(dir, "script.lua", text);
    } else {
        snprintf(text, sizeof text,
                 "{\"done\": {\"variables\": {\"counter\": {\"op\": \"equal\", \"reference\": %u}}}, "
                 "\"reward\": {\"variables\": {\"counter\": {\"reward\": 1}}}}",
                 k);
        test_write_text(dir, "scenario.json", text);
    }
}

static rg_env *open_env(const char *root, const skip_case *c, unsigned frameskip, int variant)
{
    rg_integration_paths *dp;
    EXPECT_OK(rg_integration_paths_create(&dp, root));
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = c->game;
    o.paths = dp;
    o.core = c->core;
    o.state = RG_STATE_NONE;
    o.actions = RG_ACTIONS_ALL;
    o.frameskip = frameskip;
    o.max_pool = variant == MAX_POOL && frameskip > 1;
    o.sticky_prob = variant == STICKY ? 0.5 : 0.0;
    o.log = test_quiet_log;
    rg_env *env = NULL;
    int rc = rg_env_create(&env, &o);
    rg_integration_paths_free(dp);
    if (rc != RG_OK)
        fail_msg("%s on %s: %s", c->game, c->core, rg_error_last());
    return env;
}

static void expect_same_info(const rg_env *a, const rg_env *b, const char *where)
{
    size_t n = rg_env_info_count(a);
    assert_int_equal(n, rg_env_info_count(b));
    for (size_t i = 0; i < n; i++) {
        const char *na, *nb;
        int64_t va, vb;
        EXPECT_OK(rg_env_info_at(a, i, &na, &va));
        EXPECT_OK(rg_env_info_at(b, i, &nb, &vb));
        if (strcmp(na, nb) != 0 || va != vb)
            fail_msg("%s: info %s=%lld, drawn every frame %s=%lld", where, na, (long long)va, nb, (long long)vb);
    }
}

static void expect_same_ram(rg_env *a, rg_env *b, const char *where)
{
    size_t n = rg_emu_ram_size(rg_env_emu(a));
    assert_int_equal(n, rg_emu_ram_size(rg_env_emu(b)));
    uint8_t *ra = malloc(n), *rb = malloc(n);
    assert_non_null(ra);
    assert_non_null(rb);
    EXPECT_OK(rg_emu_ram_copy(rg_env_emu(a), ra, n));
    EXPECT_OK(rg_emu_ram_copy(rg_env_emu(b), rb, n));
    for (size_t i = 0; i < n; i++)
        if (ra[i] != rb[i])
            fail_msg("%s: RAM byte %zu is %u, drawn every frame %u", where, i, ra[i], rb[i]);
    free(ra);
    free(rb);
}

/* One episode: env a steps SKIP frames at a time, env b one frame at a time with the same actions. Returns the
 * frame of its last step the episode ended on (0..SKIP-1). */
static unsigned episode(rg_env *a, rg_env *b, const char *what, uint64_t seed)
{
    size_t size = rg_env_obs_size(a), len = rg_env_action_length(a);
    assert_int_equal(size, rg_env_obs_size(b));
    uint8_t *oa = malloc(size), *ob = malloc(size);
    int64_t *act = calloc(len, sizeof *act);
    assert_non_null(oa);
    assert_non_null(ob);
    assert_non_null(act);
    EXPECT_OK(rg_env_reset(a, 1, seed, oa, size));
    EXPECT_OK(rg_env_reset(b, 1, seed, ob, size));
    uint64_t r = seed * 2654435761u + 1;
    unsigned end = SKIP;
    for (unsigned step = 0; step < 200 && end == SKIP; step++) {
        for (size_t i = 0; i < len; i++) { /* new buttons every step: the pad's colour changes */
            r = r * 6364136223846793005u + 1442695040888963407u;
            act[i] = (int64_t)((r >> 33) & 1u);
        }
        act[step % len] = !act[step % len];
        rg_step_result ra, rb;
        EXPECT_OK(rg_env_step(a, act, len, oa, size, &ra));
        double reward = 0.0;
        unsigned frames = 0;
        for (unsigned f = 0; f < SKIP; f++) {
            EXPECT_OK(rg_env_step(b, act, len, ob, size, &rb));
            reward += rb.rewards[0];
            frames++;
            if (rb.terminated || rb.truncated)
                break;
        }
        char where[256];
        snprintf(where, sizeof where, "%s, step %u", what, step);
        assert_int_equal(ra.frames, frames);
        if (ra.terminated != rb.terminated || ra.truncated != rb.truncated)
            fail_msg("%s: terminated %d truncated %d, drawn every frame %d %d", where, ra.terminated, ra.truncated,
                     rb.terminated, rb.truncated);
        if (ra.rewards[0] != reward)
            fail_msg("%s: reward %g, drawn every frame %g", where, ra.rewards[0], reward);
        /* a max-pooled step shows two frames (its last two); a step that ends the episode earlier shows the end's */
        int pooled = strstr(what, "max-pool") && frames == SKIP;
        if (!pooled && memcmp(oa, ob, size) != 0) {
            size_t i = 0;
            while (oa[i] == ob[i])
                i++;
            fail_msg("%s (frame %u of the step%s): observation byte %zu is %u, drawn every frame %u", where,
                     frames - 1, ra.terminated ? ", the episode's end" : "", i, oa[i], ob[i]);
        }
        expect_same_ram(a, b, where);
        expect_same_info(a, b, where);
        if (ra.terminated)
            end = frames - 1;
    }
    if (end == SKIP)
        fail_msg("%s: the episode did not end", what);
    /* the screen between steps (render) is the end's too */
    EXPECT_OK(rg_env_observe(a, oa, size));
    EXPECT_OK(rg_env_observe(b, ob, size));
    assert_memory_equal(oa, ob, size);
    free(oa);
    free(ob);
    free(act);
    return end;
}

static void end_inside_a_skip(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < sizeof k_cases / sizeof k_cases[0]; ci++) {
        const skip_case *c = &k_cases[ci];
        test_rom rom;
        test_rom_get(c->system, &rom);
        for (int v = 0; v < N_VARIANTS; v++) {
            unsigned seen = 0; /* the frames of a skip the episode ended on */
            for (unsigned k = 30; k < 30 + SKIP; k++) { /* consecutive ends: every frame of a skip */
                char root[512], dir[1024], what[256];
                test_integration_dir("skip", c->game, c->rom, root, sizeof root, dir, sizeof dir);
                write_integration(dir, &rom, c, k, v == SCRIPT);
                rg_env *a = open_env(root, c, SKIP, v), *b = open_env(root, c, 1, v);
                snprintf(what, sizeof what, "%s (%s), %s, ends at counter %u", c->game, c->core, k_variant[v], k);
                unsigned end = episode(a, b, what, 7 + k);
                seen |= 1u << end;
                /* a second episode after the end: the redraw left the emulator where it was */
                if (k % 2 == 0)
                    episode(a, b, what, 100 + k);
                rg_env_free(a);
                rg_env_free(b);
                rg__remove_tree(root);
            }
            if (seen != (1u << SKIP) - 1)
                fail_msg("%s, %s: the episodes ended on frames %#x of a skip, not on each", c->game, k_variant[v],
                         seen);
        }
    }
}

/* The vector pool steps its environments through rg_env_step: with worker threads and with worker processes, the
 * row of the step that ends the episode inside the skip holds the end's frame, reward and info, as one frame per step
 * gives (the Master System test ROM; both environments get the same input). */
static void pool_end_inside_a_skip(void **state)
{
    (void)state;
    const skip_case *c = &k_cases[2];
    test_rom rom;
    test_rom_get(c->system, &rom);
    for (int iso = 0; iso < 2; iso++) {
        for (unsigned k = 30; k < 30 + SKIP; k++) {
            char root[512], dir[1024], what[256];
            test_integration_dir("skip-pool", c->game, c->rom, root, sizeof root, dir, sizeof dir);
            write_integration(dir, &rom, c, k, 0);
            rg_integration_paths *dp;
            EXPECT_OK(rg_integration_paths_create(&dp, root));
            rg_env_options eo = RG_ENV_OPTIONS_INIT;
            eo.game = c->game;
            eo.paths = dp;
            eo.core = c->core;
            eo.state = RG_STATE_NONE;
            eo.actions = RG_ACTIONS_ALL;
            eo.frameskip = SKIP;
            eo.log = test_quiet_log;
            rg_pool_options po = RG_POOL_OPTIONS_INIT;
            po.envs = &eo;
            po.n_env_options = 1;
            po.num_envs = 2;
            po.num_threads = 2;
            po.isolation = iso ? RG_POOL_PROCESSES : RG_POOL_THREADS;
            rg_pool *pool;
            EXPECT_OK(rg_pool_create(&pool, &po));
            rg_integration_paths_free(dp);
            rg_env *b = open_env(root, c, 1, PLAIN);
            size_t size = rg_pool_obs_size(pool), len = rg_pool_action_length(pool);
            assert_int_equal(size, rg_env_obs_size(b));
            uint8_t *ob = malloc(size);
            int64_t *act = calloc(2 * len, sizeof *act);
            assert_non_null(ob);
            assert_non_null(act);
            rg_pool_batch batch;
            EXPECT_OK(rg_pool_reset(pool, NULL, 0, &batch));
            EXPECT_OK(rg_env_reset(b, 1, 0, ob, size));
            int ended = 0;
            for (unsigned step = 0; step < 200 && !ended; step++) {
                for (size_t i = 0; i < len; i++)
                    act[i] = act[len + i] = (int64_t)(((step * 7u + i * 3u) >> 1) & 1u);
                EXPECT_OK(rg_pool_step(pool, act, &batch));
                rg_step_result rb;
                double reward = 0.0;
                for (unsigned f = 0; f < SKIP; f++) {
                    EXPECT_OK(rg_env_step(b, act, len, ob, size, &rb));
                    reward += rb.rewards[0];
                    if (rb.terminated)
                        break;
                }
                snprintf(what, sizeof what, "pool (%s), ends at counter %u, step %u", iso ? "processes" : "threads", k,
                         step);
                for (size_t r = 0; r < batch.count; r++) {
                    if (batch.terminated[r] != rb.terminated || batch.rewards[r * RG_SCENARIO_MAX_PLAYERS] != reward)
                        fail_msg("%s, env %d: terminated %d reward %g, one frame per step %d %g", what,
                                 batch.env_ids[r], batch.terminated[r], batch.rewards[r * RG_SCENARIO_MAX_PLAYERS],
                                 rb.terminated, reward);
                    if (memcmp(batch.obs + r * size, ob, size) != 0)
                        fail_msg("%s, env %d: the observation differs from one frame per step's", what,
                                 batch.env_ids[r]);
                    for (size_t j = 0; j < batch.n_info; j++) {
                        int64_t v;
                        EXPECT_OK(rg_gamedata_get(rg_env_gamedata(b), rg_pool_info_name(pool, j), &v));
                        if (!batch.info_valid[r * batch.n_info + j] || batch.info[r * batch.n_info + j] != v)
                            fail_msg("%s, env %d: info %s differs", what, batch.env_ids[r], rg_pool_info_name(pool, j));
                    }
                }
                ended = rb.terminated;
            }
            assert_true(ended);
            free(ob);
            free(act);
            rg_env_free(b);
            rg_pool_free(pool);
            rg__remove_tree(root);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(end_inside_a_skip), cmocka_unit_test(pool_end_inside_a_skip)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
