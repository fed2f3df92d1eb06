/* A FIFO (or any file that is not a regular file) in place of an input file is refused at once with "X is not a
 * regular file", never waited on: data.json, scenario.json, a scenario's script, the ROM, a state (at creation and
 * by name afterwards), a movie, files and .zip names in an import folder (skipped), and validation. Each case runs
 * in a forked child with an alarm: a child that blocks is killed by SIGALRM and the case fails as a hang. */
#include "faults_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#define HANG_LIMIT_S 10

static char root[512];
static char dir[1024];

static int setup(void **state)
{
    (void)state;
    test_integration_dir("fifo", "Test-Atari2600", "test.a26", root, sizeof root, dir, sizeof dir);
    test_write_text(dir, "data.json", "{\"info\": {\"frame\": {\"address\": 128, \"type\": \"|u1\"}}}");
    test_write_text(dir, "scenario.json",
                    "{\"scripts\": [\"script.lua\"], \"reward\": {\"script\": \"lua:reward\"}, "
                    "\"done\": {\"variables\": {\"frame\": {\"op\": \"equal\", \"reference\": 300}}}}");
    test_write_text(dir, "script.lua", "function reward() return data.frame end\n");
    /* a start state saved by our own Atari core */
    char rom[1200];
    snprintf(rom, sizeof rom, "%s/rom.a26", dir);
    rg_emu *emu = test_open(rom, "atari2600");
    run_frames(emu, 3);
    size_t n;
    EXPECT_OK(rg_emu_state_size(emu, &n));
    uint8_t *buf = malloc(n);
    assert_non_null(buf);
    EXPECT_OK(rg_emu_state_save(emu, buf, n, &n));
    test_write_gz(dir, "Start.state", buf, n);
    test_write_gz(dir, "Other.state", buf, n);
    free(buf);
    rg_emu_free(emu);
    test_write_text(dir, "metadata.json", "{\"default_state\": \"Start\"}");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rg__remove_tree(root);
    return 0;
}

/* Replaces dir/name with a FIFO (the file is kept aside and put back by fifo_undo). */
static void fifo_in_place(const char *base, const char *name)
{
    char path[1400], aside[1500];
    snprintf(path, sizeof path, "%s/%s", base, name);
    snprintf(aside, sizeof aside, "%s.aside", path);
    struct stat st;
    if (lstat(path, &st) == 0)
        assert_int_equal(rename(path, aside), 0);
    assert_int_equal(mkfifo(path, 0600), 0);
}

static void fifo_undo(const char *base, const char *name)
{
    char path[1400], aside[1500];
    snprintf(path, sizeof path, "%s/%s", base, name);
    snprintf(aside, sizeof aside, "%s.aside", path);
    assert_int_equal(unlink(path), 0);
    struct stat st;
    if (lstat(aside, &st) == 0)
        assert_int_equal(rename(aside, path), 0);
}

typedef int (*fifo_case)(child_result *out);

static int with_alarm(void *arg, child_result *out)
{
    alarm(HANG_LIMIT_S);
    return ((fifo_case)arg)(out);
}

/* Runs fn in a child that must end by itself within the limit; returns its result. */
static child_result run_case(fifo_case fn, const char *what)
{
    time_t t0 = time(NULL);
    child_end end = run_in_child(with_alarm, (void *)fn, CHILD_PLAIN, 0);
    if (end.signaled && end.signal == SIGALRM)
        fail_msg("%s: hung on a FIFO (killed after %d s)", what, HANG_LIMIT_S);
    if (!end.exited || end.status != 0 || !end.got_result)
        fail_msg("%s: the child ended badly (exit %d, signal %d)", what, end.status, end.signal);
    assert_true(time(NULL) - t0 < HANG_LIMIT_S);
    return end.result;
}

/* The test game's env on our core (*dp and *env set, or NULL on failure; the caller frees both). */
static int open_env(rg_integration_paths **dp, rg_env **env)
{
    *env = NULL;
    int rc = rg_integration_paths_create(dp, root);
    if (rc != RG_OK) {
        *dp = NULL;
        return rc;
    }
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "Test-Atari2600";
    o.paths = *dp;
    o.core = "atari2600";
    o.log = test_quiet_log;
    return rg_env_create(env, &o);
}

static int create_env(child_result *out)
{
    rg_integration_paths *dp;
    rg_env *env;
    int rc = open_env(&dp, &env);
    if (rc == RG_OK) { /* and a first episode, with its reward script */
        size_t size = rg_env_obs_size(env);
        uint8_t *obs = malloc(size);
        rc = obs ? rg_env_reset(env, 1, 0, obs, size) : RG_ENOMEM;
        free(obs);
    }
    if (rc != RG_OK)
        snprintf(out->message, sizeof out->message, "%s", rg_error_last());
    rg_env_free(env);
    rg_integration_paths_free(dp);
    return rc;
}

/* An env creation with name replaced by a FIFO fails quickly naming the file as not regular. */
static void expect_create_refused(const char *name)
{
    fifo_in_place(dir, name);
    child_result r = run_case(create_env, name);
    fifo_undo(dir, name);
    if (r.rc == RG_OK)
        fail_msg("a FIFO in place of %s was accepted", name);
    if (!strstr(r.message, "not a regular file") || !strstr(r.message, name))
        fail_msg("a FIFO in place of %s: message \"%s\" does not say it is not a regular file", name, r.message);
}

static void env_inputs_refused(void **state)
{
    (void)state;
    /* the folder as set up works */
    child_result ok = run_case(create_env, "the intact folder");
    if (ok.rc != RG_OK)
        fail_msg("the intact folder: %s", ok.message);
    expect_create_refused("data.json");
    expect_create_refused("scenario.json");
    expect_create_refused("script.lua");
    expect_create_refused("rom.a26");
    expect_create_refused("Start.state");
    expect_create_refused("metadata.json");
}

static int state_by_name(child_result *out)
{
    rg_integration_paths *dp;
    rg_env *env;
    int rc = open_env(&dp, &env);
    if (rc == RG_OK) {
        fifo_in_place(dir, "Other.state");
        rc = rg_env_set_start_state(env, "Other");
        snprintf(out->message, sizeof out->message, "%s", rg_error_last());
        fifo_undo(dir, "Other.state");
    }
    rg_env_free(env);
    rg_integration_paths_free(dp);
    return rc;
}

static void state_after_creation_refused(void **state)
{
    (void)state;
    child_result r = run_case(state_by_name, "set_start_state");
    assert_int_not_equal(r.rc, RG_OK);
    if (!strstr(r.message, "not a regular file"))
        fail_msg("set_start_state on a FIFO: \"%s\"", r.message);
}

static char movie_path[1400];

static int open_movie(child_result *out)
{
    rg_movie *m = NULL;
    int rc = rg_movie_open_read(&m, movie_path);
    snprintf(out->message, sizeof out->message, "%s", rg_error_last());
    rg_movie_free(m);
    return rc;
}

static void movie_refused(void **state)
{
    (void)state;
    snprintf(movie_path, sizeof movie_path, "%s/run.bk2", root);
    assert_int_equal(mkfifo(movie_path, 0600), 0);
    child_result r = run_case(open_movie, "a .bk2");
    unlink(movie_path);
    assert_int_not_equal(r.rc, RG_OK);
    if (!strstr(r.message, "not a regular file"))
        fail_msg("a FIFO .bk2: \"%s\"", r.message);
}

static char import_dir[1400];

static int do_import(child_result *out)
{
    rg_integration_paths *dp;
    int rc = rg_integration_paths_create(&dp, root);
    if (rc != RG_OK)
        return rc;
    const char *paths[] = {import_dir};
    rg_integration_import_options o = RG_INTEGRATION_IMPORT_OPTIONS_INIT;
    rg_integration_import_report rep;
    rc = rg_integration_import(dp, paths, 1, &o, &rep);
    snprintf(out->extra, sizeof out->extra, "%zu %zu %zu", rep.files, rep.skipped, rep.imported);
    rg_integration_paths_free(dp);
    return rc;
}

static void import_skips_fifos(void **state)
{
    (void)state;
    snprintf(import_dir, sizeof import_dir, "%s/incoming", root);
    assert_int_equal(mkdir(import_dir, 0700), 0);
    char p[1600];
    snprintf(p, sizeof p, "%s/game.a26", import_dir);
    assert_int_equal(mkfifo(p, 0600), 0);
    snprintf(p, sizeof p, "%s/roms.zip", import_dir);
    assert_int_equal(mkfifo(p, 0600), 0);
    test_write_text(import_dir, "notes.txt", "not a ROM\n");
    child_result r = run_case(do_import, "an import folder");
    assert_int_equal(r.rc, RG_OK);
    size_t files, skipped, imported;
    assert_int_equal(sscanf(r.extra, "%zu %zu %zu", &files, &skipped, &imported), 3);
    assert_int_equal(skipped, 2); /* the two FIFOs */
    assert_int_equal(imported, 0);
    /* named directly, not through the walk: refused by the read, still skipped */
    snprintf(import_dir, sizeof import_dir, "%s/incoming/roms.zip", root);
    r = run_case(do_import, "a FIFO .zip named directly");
    assert_int_equal(r.rc, RG_OK);
    assert_int_equal(sscanf(r.extra, "%zu %zu %zu", &files, &skipped, &imported), 3);
    assert_int_equal(skipped, 1);
    snprintf(import_dir, sizeof import_dir, "%s/incoming/game.a26", root);
    r = run_case(do_import, "a FIFO ROM named directly");
    assert_int_equal(r.rc, RG_OK);
    assert_int_equal(sscanf(r.extra, "%zu %zu %zu", &files, &skipped, &imported), 3);
    assert_int_equal(skipped, 1);
}

static int validate(child_result *out)
{
    rg_integration_diags *d;
    int rc = rg_integration_diags_create(&d);
    if (rc != RG_OK)
        return rc;
    rc = rg_integration_validate_dir(dir, d);
    size_t len = 0;
    for (size_t i = 0; i < rg_integration_diags_count(d) && len < sizeof out->extra - 1; i++) {
        const rg_integration_diag *g = rg_integration_diags_at(d, i);
        len += (size_t)snprintf(out->extra + len, sizeof out->extra - len, "%s%s\n",
                                g->severity == RG_INTEGRATION_SEVERITY_ERROR ? "E " : "W ", g->message);
    }
    rg_integration_diags_free(d);
    return rc;
}

static void expect_validate_flags(const char *name)
{
    fifo_in_place(dir, name);
    child_result r = run_case(validate, name);
    fifo_undo(dir, name);
    assert_int_equal(r.rc, RG_OK);
    if (!strstr(r.extra, "E ") || !strstr(r.extra, "not a regular file"))
        fail_msg("validate with a FIFO %s: findings \"%s\"", name, r.extra);
}

static void validate_flags_fifos(void **state)
{
    (void)state;
    expect_validate_flags("data.json");
    expect_validate_flags("scenario.json");
    expect_validate_flags("rom.a26");
    expect_validate_flags("metadata.json");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(env_inputs_refused),
        cmocka_unit_test(state_after_creation_refused),
        cmocka_unit_test(movie_refused),
        cmocka_unit_test(import_skips_fifos),
        cmocka_unit_test(validate_flags_fifos),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
