/* Determinism of single environments on every system with a core (docs/determinism.md). With sticky actions, frame
 * skip, no-op starts and a seeded random action sequence (episodes end and are reset inside a stream), the stream of
 * image observations, RAM, rewards, terminated/truncated and info values, and the audio:
 *  - is identical in another fresh environment and in another process, audio included;
 *  - is identical when the same environment runs it again (audio only for cores whose audio is in their state);
 *  - power-on episodes (no start state) repeat boot exactly, in the same environment and in another process, audio
 *    included;
 *  - a snapshot taken mid-stream, restored into the same environment, into another used one or into a fresh one,
 *    replays the straight run's tail (audio as above), and the observation right after the restore is the
 *    snapshot's;
 *  - frame skip 3 gives what three one-frame steps give, though the skipped frames are not rendered. */
#define _GNU_SOURCE
#include "det.h"

#include <stdlib.h>
#include <string.h>

#ifdef RG_SANITIZED
#define STEPS 40
#define POWER_STEPS 30
#else
#define STEPS 90
#define POWER_STEPS 60
#endif

static det_stream c, d, e;

static det_config power_config(void)
{
    det_config cfg = det_default_config(POWER_STEPS);
    cfg.state = RG_STATE_NONE;
    cfg.noop_max = 0;
    cfg.max_steps = 25; /* truncated: the stream holds power-on resets */
    cfg.seed = 77;
    return cfg;
}

/* The straight run of each system's default configuration, from a fresh environment (made once). */
static struct {
    char system[32];
    det_stream s;
} straight[16];

static const det_stream *straight_run(const det_game *g)
{
    size_t i = 0;
    for (; i < 16 && straight[i].system[0]; i++)
        if (strcmp(straight[i].system, g->system) == 0)
            return &straight[i].s;
    assert_true(i < 16);
    det_config cfg = det_default_config(STEPS);
    rg_env *env = det_env(g, &cfg, 1);
    det_run(env, &cfg, &straight[i].s);
    rg_env_free(env);
    snprintf(straight[i].system, sizeof straight[i].system, "%s", g->system);
    return &straight[i].s;
}

/* Child: the two streams of a system from fresh environments, as hashes with audio. */
static int child_main(int argc, char **argv)
{
    if (argc != 3 || strcmp(argv[0], "stream") != 0)
        return 2;
    const det_game *g = det_game_of(argv[1]);
    if (!g)
        return 3;
    det_config pcfg = power_config();
    rg_env *env = det_env(g, &pcfg, 1);
    det_run(env, &pcfg, &d);
    rg_env_free(env);
    FILE *f = fopen(argv[2], "w");
    if (!f)
        return 4;
    fprintf(f, "%016llx %016llx\n", (unsigned long long)det_stream_hash(straight_run(g), 1),
            (unsigned long long)det_stream_hash(&d, 1));
    det_cleanup();
    return fclose(f) == 0 ? 0 : 5;
}

static const det_game *game_or_skip(void **state)
{
    const det_game *g = det_game_of(*state);
    if (!g) {
        print_message("%s: no core, skipped\n", (const char *)*state);
        skip();
    }
    return g;
}

static size_t count_resets(const det_stream *s)
{
    size_t n = 0;
    for (size_t i = 1; i < s->n; i++)
        n += s->rows[i].reset;
    return n;
}

static void runs_and_processes(void **state)
{
    const det_game *g = game_or_skip(state);
    const det_core_facts *facts = det_core_facts_of(g->core_name, g->system);
    det_config cfg = det_default_config(STEPS);
    const det_stream *a = straight_run(g);
    assert_true(count_resets(a) >= 2); /* episodes ended and were reset inside the stream */

    rg_env *env = det_env(g, &cfg, 1);
    det_run(env, &cfg, &c);
    det_expect_equal("two fresh environments", a, &c, 0, 1);
    det_run(env, &cfg, &c); /* the same env again: its start state is loaded after another history */
    det_expect_equal("a reused environment", a, &c, 0, facts->audio_in_state);
    size_t drift = det_audio_mismatches(a, &c, 0);
    rg_env_free(env);

    det_config pcfg = power_config();
    env = det_env(g, &pcfg, 1);
    det_run(env, &pcfg, &d);
    assert_true(count_resets(&d) >= 1);
    det_run(env, &pcfg, &e);
    det_expect_equal("power-on resets", &d, &e, 0, 1);
    rg_env_free(env);

    const char *args[] = {"stream", g->system};
    char *out = det_child(args, 2);
    unsigned long long h1, h2;
    assert_int_equal(sscanf(out, "%llx %llx", &h1, &h2), 2);
    free(out);
    if (h1 != det_stream_hash(a, 1) || h2 != det_stream_hash(&d, 1))
        fail_msg("%s: another process gives other streams (from the start state %d, power-on %d)", g->system,
                 h1 != det_stream_hash(a, 1), h2 != det_stream_hash(&d, 1));
    print_message("%-10s %-26s %zu rows, %zu resets; reused env: audio of %zu rows differs\n", g->system,
                  g->core_name, a->n, count_resets(a), drift);
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The snapshot as the previous format wrote it (RGENVS02: no observation after the sticky buttons). */
static size_t to_version_02(uint8_t *snap, size_t len)
{
    assert_memory_equal(snap, "RGENVS03", 8);
    size_t pos = 8;
    for (int s = 0; s < 2; s++) /* game and core names */
        pos += 8 + (size_t)le64(snap + pos);
    pos += 5 * 8;                             /* players, action and observation modes, frame skip, sticky */
    pos += 8 + (size_t)le64(snap + pos);      /* the emulator state */
    pos += (3 + RG_SCENARIO_MAX_PLAYERS) * 8; /* generator, steps, started, sticky buttons */
    size_t obs = 8 + (size_t)le64(snap + pos);
    memmove(snap + pos, snap + pos + obs, len - pos - obs);
    snap[7] = '2';
    return len - obs;
}

static void restore_then_replay(void **state)
{
    const det_game *g = game_or_skip(state);
    const det_core_facts *facts = det_core_facts_of(g->core_name, g->system);
    const det_stream *a = straight_run(g);
    det_config cfg = det_default_config(STEPS), head = cfg;
    size_t k = STEPS / 2;
    head.steps = (unsigned)k;
    rg_env *used = det_env(g, &cfg, 1), *x = det_env(g, &cfg, 1);
    det_run(used, &cfg, &c); /* some history */
    det_run(x, &head, &d);
    det_expect_prefix("the head of a run", a, &d, 1);
    size_t len, size = rg_env_obs_size(x);
    assert_int_equal(rg_env_clone_size(x, &len), RG_OK);
    uint8_t *snap = malloc(len), *obs_at_k = malloc(size), *obs = malloc(size);
    assert_true(snap && obs_at_k && obs);
    assert_int_equal(rg_env_clone(x, snap, len, &len), RG_OK);
    assert_int_equal(rg_env_observe(x, obs_at_k, size), RG_OK);

    rg_env *fresh = det_env(g, &cfg, 1);
    rg_env *into[3] = {x, used, fresh};
    const char *what[3] = {"restored into the same environment", "restored into another used environment",
                           "restored into a fresh environment"};
    size_t drift[3];
    for (int i = 0; i < 3; i++) {
        assert_int_equal(rg_env_restore(into[i], snap, len), RG_OK);
        /* before any frame runs, the env shows the snapshot's screen, whatever it showed before */
        assert_int_equal(rg_env_observe(into[i], obs, size), RG_OK);
        if (memcmp(obs, obs_at_k, size) != 0)
            fail_msg("%s: %s: the observation right after the restore is not the snapshot's", g->system, what[i]);
        memcpy(e.rows, d.rows, sizeof e.rows[0] * (k + 1));
        det_run_from(into[i], &cfg, &e, k);
        det_expect_equal(what[i], a, &e, k + 1, facts->audio_in_state);
        drift[i] = det_audio_mismatches(a, &e, k + 1);
    }
    print_message("%-10s %-26s restored at row %zu: audio of %zu/%zu/%zu rows differs (same/used/fresh env)\n",
                  g->system, g->core_name, k, drift[0], drift[1], drift[2]);
    /* A snapshot of the previous format restores too (its screen shows only after the next frame). */
    len = to_version_02(snap, len);
    assert_int_equal(rg_env_restore(used, snap, len), RG_OK);
    memcpy(e.rows, d.rows, sizeof e.rows[0] * (k + 1));
    det_run_from(used, &cfg, &e, k);
    det_expect_equal("a version 02 snapshot", a, &e, k + 1, 0);
    assert_int_equal(rg_env_restore(used, snap, len - 1), RG_ECORRUPT);
    free(obs);
    free(obs_at_k);
    free(snap);
    rg_env_free(x);
    rg_env_free(used);
    rg_env_free(fresh);
}

/* Frame skip 3 equals three one-frame steps with the same action (sticky draws are per frame either way), though
 * the skipped frames are not rendered: compares every third frame's picture and RAM and the summed rewards. */
static void frame_skip_equals_single_frames(void **state)
{
    const det_game *g = game_or_skip(state);
    det_config c3 = det_default_config(STEPS), c1 = c3;
    c1.frameskip = 1;
    rg_env *s3 = det_env(g, &c3, 0), *s1 = det_env(g, &c1, 0);
    size_t size = rg_env_obs_size(s3);
    uint8_t *o3 = malloc(size), *o1 = malloc(size);
    assert_true(o3 && o1);
    assert_int_equal(rg_env_reset(s3, 1, 5, o3, size), RG_OK);
    assert_int_equal(rg_env_reset(s1, 1, 5, o1, size), RG_OK);
    assert_memory_equal(o3, o1, size);
    int64_t action[RG_MAX_BUTTONS];
    unsigned nb = rg_env_num_buttons(s3), checked = 0;
    for (unsigned s = 1; s <= STEPS; s++) {
        det_action(&c3, s, nb, action);
        rg_step_result r3, r1;
        assert_int_equal(rg_env_step(s3, action, nb, o3, size, &r3), RG_OK);
        float sum = 0;
        for (unsigned f = 0; f < r3.frames; f++) {
            assert_int_equal(rg_env_step(s1, action, nb, o1, size, &r1), RG_OK);
            sum += r1.rewards[0];
        }
        if (memcmp(o3, o1, size) != 0 || det_env_ram_hash(s3) != det_env_ram_hash(s1))
            fail_msg("%s: step %u of frame skip 3 differs from its frames run one by one", g->system, s);
        assert_true(sum == r3.rewards[0]);
        assert_int_equal(r1.terminated, r3.terminated);
        checked++;
        if (r3.terminated)
            break;
    }
    assert_true(checked > 10);
    free(o3);
    free(o1);
    rg_env_free(s3);
    rg_env_free(s1);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child_main(argc - 2, argv + 2);
    const struct CMUnitTest tests[] = {
        SYSTEM_TESTS(runs_and_processes),
        SYSTEM_TESTS(restore_then_replay),
        SYSTEM_TESTS(frame_skip_equals_single_frames),
    };
    return cmocka_run_group_tests(tests, NULL, det_teardown);
}
