/* Movies across processes on every system with a core (docs/determinism.md): an episode recorded here (frame skip,
 * sticky actions, no-op starts; from the Start state and from power-on) plays back in another process (this binary
 * again) with the same picture, RAM, info, audio, rewards and done on every frame as in this process, and both equal
 * what the recording environment showed at the end of each of its steps, audio included; `retrogym playback` in
 * another process confirms the recorded rewards and gives the same info values. */
#define _GNU_SOURCE
#include "det.h"

#include "base/base.h"
#include "env/env_internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef RG_SANITIZED
#define MAX_STEPS 40
#else
#define MAX_STEPS 100
#endif

/* What the recording environment showed: row 0 after the reset (its no-op starts included), then each step. */
typedef struct trace {
    det_row rows[MAX_STEPS + 1];
    unsigned frames[MAX_STEPS + 1]; /* row 0: the reset's frames */
    size_t steps;
} trace;

static trace tr;

static void temp_path(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
}

static void record(const det_game *g, const det_config *c, const char *path)
{
    rg_env *env = det_env(g, c, 1);
    assert_int_equal(rg_env_record_movie(env, path), RG_OK);
    size_t size = rg_env_obs_size(env);
    uint8_t *obs = malloc(size);
    assert_non_null(obs);
    memset(&tr, 0, sizeof tr);
    assert_int_equal(rg_env_reset(env, 1, c->seed, obs, size), RG_OK);
    tr.rows[0].obs = test_hash(obs, size, 0);
    tr.rows[0].ram = det_env_ram_hash(env);
    tr.rows[0].info = det_info_hash(env);
    tr.rows[0].audio = det_audio_hash(env);
    tr.frames[0] = env->reset_frames;
    int64_t action[RG_MAX_BUTTONS];
    unsigned nb = rg_env_num_buttons(env);
    for (unsigned s = 1; s <= MAX_STEPS; s++) {
        det_action(c, s, nb, action);
        rg_step_result r;
        assert_int_equal(rg_env_step(env, action, nb, obs, size, &r), RG_OK);
        det_row *row = &tr.rows[s];
        row->obs = test_hash(obs, size, 0);
        row->ram = det_env_ram_hash(env);
        row->info = det_info_hash(env);
        row->audio = det_audio_hash(env);
        row->reward = r.rewards[0];
        row->terminated = (uint8_t)r.terminated;
        tr.frames[s] = r.frames;
        tr.steps = s;
        if (r.terminated)
            break;
    }
    assert_int_equal(rg_env_record_stop(env), RG_OK);
    free(obs);
    rg_env_free(env);
}

/* Plays a movie back with audio; one line per frame: obs, RAM, info, audio hashes, reward, done. */
static char *playback_lines(const char *path, const char *core)
{
    const rg_integration_paths *paths;
    const det_game *games;
    det_games(&games, &paths);
    rg_movie *m;
    if (rg_movie_open_read(&m, path) != RG_OK)
        fail_msg("%s: %s", path, rg_error_last());
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.paths = paths;
    o.integrations = RG_INTEGRATIONS_CUSTOM_ONLY;
    o.core = core;
    o.log = test_quiet_log;
    rg_env *env;
    if (rg_env_create_playback(&env, m, &o, RG_PLAYBACK_AUDIO) != RG_OK)
        fail_msg("playback of %s: %s", path, rg_error_last());
    size_t size = rg_env_obs_size(env), cap = 128 * rg_movie_frame_count(m) + 1, used = 0;
    uint8_t *obs = malloc(size);
    char *text = malloc(cap);
    assert_true(obs && text);
    assert_int_equal(rg_env_reset(env, 0, 0, obs, size), RG_OK);
    rg_step_result r;
    memset(&r, 0, sizeof r);
    for (uint64_t f = 0; f < rg_movie_frame_count(m); f++) {
        if (f > 0 && rg_env_playback_step(env, m, f, obs, size, &r) != RG_OK)
            fail_msg("playback of %s, frame %llu: %s", path, (unsigned long long)f, rg_error_last());
        used += (size_t)snprintf(text + used, cap - used, "%016llx %016llx %016llx %016llx %.9g %d\n",
                                 (unsigned long long)test_hash(obs, size, 0),
                                 (unsigned long long)det_env_ram_hash(env),
                                 (unsigned long long)det_info_hash(env), (unsigned long long)det_audio_hash(env),
                                 (double)r.rewards[0], r.terminated);
        assert_true(used < cap);
    }
    free(obs);
    rg_env_free(env);
    rg_movie_free(m);
    return text;
}

static int child_main(int argc, char **argv)
{
    if (argc != 4 || strcmp(argv[0], "playback") != 0)
        return 2;
    char *text = playback_lines(argv[1], argv[2]);
    int rc = rg__write_file_atomic(argv[3], text, strlen(text)) == RG_OK ? 0 : 3;
    free(text);
    det_cleanup();
    return rc;
}

/* The recording's steps against the frames played back: the frame ending each step shows what the step did. */
static void compare_with_recording(const char *what, const char *text)
{
    const char *line = text;
    uint64_t f = 0, end = tr.frames[0] - 1; /* the frame after which the reset's row was taken */
    float sum = 0;
    size_t compared = 0;
    for (size_t s = 0; s <= tr.steps; s++) {
        for (; f <= end; f++) {
            unsigned long long obs, ram, info, audio;
            float reward;
            int done;
            if (!line || sscanf(line, "%llx %llx %llx %llx %g %d", &obs, &ram, &info, &audio, &reward, &done) != 6)
                fail_msg("%s: the playback ends at frame %llu", what, (unsigned long long)f);
            line = strchr(line, '\n');
            line = line ? line + 1 : NULL;
            if (f >= tr.frames[0])
                sum += reward;
            if (f < end)
                continue;
            const det_row *row = &tr.rows[s];
            if (obs != row->obs || ram != row->ram || info != row->info || audio != row->audio)
                fail_msg("%s: step %zu (frame %llu) differs from the recording (obs %d, RAM %d, info %d, audio %d)",
                         what, s, (unsigned long long)f, obs != row->obs, ram != row->ram, info != row->info,
                         audio != row->audio);
            if (s > 0 && (sum != row->reward || done != row->terminated))
                fail_msg("%s: step %zu: reward %g, done %d; recorded %g, %d", what, s, (double)sum, done,
                         (double)row->reward, row->terminated);
            sum = 0;
            compared++;
        }
        if (s < tr.steps)
            end += tr.frames[s + 1];
    }
    if (line && *line)
        fail_msg("%s: the playback has more frames than the recording", what);
    assert_int_equal(compared, tr.steps + 1);
}

/* `retrogym playback` in another process: exit 0 (the recorded rewards and done agree) and the info values of its
 * CSV at the end of each step equal the recording's. */
static void cli_playback(const det_game *g, const char *movie)
{
    const char *root = getenv("RG_DET_ROOT");
    char csv[1024], log[1024];
    temp_path(csv, sizeof csv, "playback.csv");
    temp_path(log, sizeof log, "playback.log");
    const char *argv[] = {RG_CLI_PATH, "playback", movie, "--quiet", "--csv", csv, "--data-path", root,
                          "--custom-path", root, "--integrations", "custom-only", "--core", g->core, NULL};
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 1);
        dup2(fd, 2);
        execv(RG_CLI_PATH, (char *const *)argv);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        uint8_t *text = NULL;
        size_t n = 0;
        rg__read_file(log, 1 << 20, &text, &n);
        fail_msg("%s: retrogym playback failed (status 0x%x): %.*s", g->system, status, (int)n, text ? (char *)text : "");
    }
    uint8_t *bytes;
    size_t size;
    assert_int_equal(rg__read_file(csv, 64u << 20, &bytes, &size), RG_OK);
    char *text = malloc(size + 1);
    memcpy(text, bytes, size);
    text[size] = '\0';
    free(bytes);
    /* header: frame,reward,done,<variables> */
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    char names[8][64];
    size_t n_names = 0;
    char *cell_save = NULL;
    for (char *cell = strtok_r(line, ",", &cell_save); cell; cell = strtok_r(NULL, ",", &cell_save), n_names++)
        if (n_names >= 3 && n_names - 3 < 8)
            snprintf(names[n_names - 3], sizeof names[0], "%s", cell);
    n_names -= 3;
    uint64_t end = tr.frames[0] - 1;
    size_t s = 0, compared = 0;
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        unsigned long long frame = strtoull(line, NULL, 10);
        while (s < tr.steps && end < frame)
            end += tr.frames[++s];
        if (frame != end)
            continue;
        uint64_t h = 0;
        char *p = line;
        for (int skip_cells = 0; skip_cells < 3; skip_cells++)
            p = strchr(p, ',') + 1;
        for (size_t k = 0; k < n_names; k++) {
            int64_t v = strtoll(p, &p, 10);
            p += *p == ',';
            h = test_hash(names[k], strlen(names[k]) + 1, h);
            h = test_hash(&v, sizeof v, h);
        }
        if (h != tr.rows[s].info)
            fail_msg("%s: retrogym playback shows other info values at step %zu", g->system, s);
        compared++;
    }
    assert_true(compared + 1 >= tr.steps);
    free(text);
    unlink(csv);
    unlink(log);
}

static void one_movie(const det_game *g, const det_config *c, const char *name)
{
    char path[1024], what[256];
    temp_path(path, sizeof path, name);
    record(g, c, path);
    assert_true(tr.steps >= 5);
    char *mine = playback_lines(path, g->core);
    const char *args[] = {"playback", path, g->core};
    char *theirs = det_child(args, 3);
    if (strcmp(mine, theirs) != 0)
        fail_msg("%s: %s plays back differently in another process", g->system, name);
    snprintf(what, sizeof what, "%s: %s", g->system, name);
    compare_with_recording(what, theirs);
    cli_playback(g, path);
    free(mine);
    free(theirs);
    unlink(path);
}

static void movie_in_another_process(void **state)
{
    const det_game *g = det_game_of(*state);
    if (!g) {
        print_message("%s: no core, skipped\n", (const char *)*state);
        skip();
    }
    det_config c = det_default_config(MAX_STEPS);
    one_movie(g, &c, "start.bk2");
    c.state = RG_STATE_NONE;
    c.seed = 3;
    one_movie(g, &c, "power-on.bk2");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child_main(argc - 2, argv + 2);
    const struct CMUnitTest tests[] = {
        SYSTEM_TESTS(movie_in_another_process),
    };
    return cmocka_run_group_tests(tests, NULL, det_teardown);
}
