/* A core file that goes away (deleted, replaced by junk) while an instance runs. The instance runs on its private
 * copy of the core (src/host/lr_api.c), so it keeps working; what needs the file again says so clearly: a power-on
 * reset (which loads a fresh copy, docs/compat.md) gives RG_ENOTFOUND or RG_ECORE and leaves the instance running as
 * it was; a new instance gives RG_ENOTFOUND. Nothing crashes and no temporary file is left. */
#include "faults_util.h"

static test_rom nes;
static char cores[1024];          /* $TMPDIR/cores: where the copies of the cores live */
static char *tmp_before;

static const char *copy_of(const char *src, const char *stem)
{
    static char path[1200];
    snprintf(path, sizeof path, "%s/%s_libretro.so", cores, stem);
    EXPECT_OK(rg__copy_file(src, path));
    return path;
}

static int open_core(rg_emu **emu, const char *core)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = core;
    o.log = test_quiet_log;
    *emu = NULL;
    return rg_emu_open(emu, nes.path, &o);
}

/* The retrogym-* folder created since `before` (exactly one). */
static void instance_dir(const char *before, char *out, size_t cap)
{
    char *now = tmp_instances();
    int found = 0;
    for (const char *p = now; *p; p = strchr(p, '\n') + 1) {
        char line[300];
        snprintf(line, sizeof line, "%.*s\n", (int)(strchr(p, '\n') - p), p);
        if (!strstr(before, line)) {
            const char *root = getenv("TMPDIR");
            snprintf(out, cap, "%s/%.*s", root && *root ? root : "/tmp", (int)(strlen(line) - 1), line);
            found++;
        }
    }
    free(now);
    assert_int_equal(found, 1);
}

/* The instance's private folder holds only its lock and the core's folders: no copy of a core that failed to
 * load. */
static void instance_dir_clean(const char *dir)
{
    char *inside = list_tree(dir);
    for (const char *q = inside; *q; q = strchr(q, '\n') + 1)
        if (strncmp(q, "save ", 5) != 0 && strncmp(q, "system ", 7) != 0 && strncmp(q, ".lock ", 6) != 0)
            fail_msg("the instance's folder %s holds more than .lock, save/ and system/:\n%s", dir, inside);
    free(inside);
}

static void deleted_while_running(void **state)
{
    (void)state;
    const char *path = copy_of(fault_core("good"), "gone");
    char *before = tmp_instances();
    rg_emu *emu;
    EXPECT_OK(open_core(&emu, path));
    char dir[2048];
    instance_dir(before, dir, sizeof dir);
    free(before);
    run_frames(emu, 10);

    assert_int_equal(unlink(path), 0);
    run_frames(emu, 10); /* the private copy runs on */
    assert_int_equal(counter(emu), 20);
    uint8_t st[4096];
    size_t size;
    EXPECT_OK(rg_emu_state_save(emu, st, sizeof st, &size));
    run_frames(emu, 3);
    EXPECT_OK(rg_emu_state_load(emu, st, size));
    assert_int_equal(counter(emu), 20);

    /* A power-on reset needs the file: a clear error, and the instance goes on as it was. */
    EXPECT(rg_emu_reset(emu), RG_ENOTFOUND, path);
    assert_non_null(strstr(rg_error_last(), "power-on reset"));
    assert_int_equal(rg_emu_frame_count(emu), 23);
    run_frames(emu, 1);
    assert_int_equal(counter(emu), 21);
    instance_dir_clean(dir);

    /* New instances: by path, and by name through $RETROGYM_CORE_PATH. */
    rg_emu *other;
    EXPECT(open_core(&other, path), RG_ENOTFOUND, "does not exist");
    setenv("RETROGYM_CORE_PATH", cores, 1);
    EXPECT(open_core(&other, "gone"), RG_ENOTFOUND, "not found");
    unsetenv("RETROGYM_CORE_PATH");

    /* Replaced by something that is not a core: RG_ECORE, still running. */
    spit(path, "not a shared object", 19);
    EXPECT(rg_emu_reset(emu), RG_ECORE, "cannot load core");
    run_frames(emu, 1);
    assert_int_equal(counter(emu), 22);
    /* Replaced by a core that refuses the game: the reset fails after the swap; the instance says so. */
    copy_of(fault_core("load_fail"), "gone");
    EXPECT(rg_emu_reset(emu), RG_ECORE, "refused the ROM");
    EXPECT(rg_emu_run(emu), RG_ECORE, "no game loaded");
    size_t n;
    EXPECT(rg_emu_state_size(emu, &n), RG_ECORE, "no game loaded");
    instance_dir_clean(dir);

    /* The file is back: resets work again. */
    copy_of(fault_core("good"), "gone");
    EXPECT_OK(rg_emu_reset(emu));
    run_frames(emu, 1);
    assert_int_equal(counter(emu), 1);
    instance_dir_clean(dir);
    rg_emu_free(emu);
    unlink(path);
    char *now = tmp_instances();
    assert_string_equal(now, tmp_before);
    free(now);
}

/* The same with a copy of a real Debian core. */
static void deleted_debian_core(void **state)
{
    (void)state;
    char real[4096];
    if (!nes.core[0] || rg_core_resolve(nes.core, real, sizeof real) != RG_OK)
        skip();
    const char *path = copy_of(real, "debiancopy");
    rg_emu *emu;
    EXPECT_OK(open_core(&emu, path));
    run_frames(emu, 60);
    assert_int_equal(unlink(path), 0);
    uint64_t ram = test_ram_hash(emu);
    size_t size;
    EXPECT_OK(rg_emu_state_size(emu, &size));
    uint8_t *st = malloc(size);
    EXPECT_OK(rg_emu_state_save(emu, st, size, &size));
    run_frames(emu, 60);
    EXPECT_OK(rg_emu_state_load(emu, st, size));
    assert_true(test_ram_hash(emu) == ram);
    EXPECT(rg_emu_reset(emu), RG_ENOTFOUND, path);
    assert_true(test_ram_hash(emu) == ram); /* untouched by the failed reset */
    run_frames(emu, 60);
    rg_emu *other;
    EXPECT(open_core(&other, path), RG_ENOTFOUND, "does not exist");
    free(st);
    rg_emu_free(emu);
    char *now = tmp_instances();
    assert_string_equal(now, tmp_before);
    free(now);
}

/* An environment whose core file is deleted: steps and resets from its start state go on; a reset without a start
 * state (a power-on) and new environments fail clearly. */
static void env_core_deleted(void **state)
{
    (void)state;
    const char *path = copy_of(fault_core("good"), "envgone");
    char root[1024];
    rg_integration_paths *dp;
    EXPECT_OK(rg_integration_paths_create(&dp, test_source_path("data", root, sizeof root)));
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "StarCatcher-Nes";
    o.paths = dp;
    o.core = path;
    o.log = test_quiet_log;
    rg_env *env;
    EXPECT_OK(rg_env_create(&env, &o));
    size_t cap = rg_env_obs_size(env);
    uint8_t *obs = malloc(cap);
    int64_t action[16] = {0};
    rg_step_result r;
    EXPECT_OK(rg_env_reset(env, 1, 7, obs, cap));
    for (int i = 0; i < 10; i++)
        EXPECT_OK(rg_env_step(env, action, rg_env_action_length(env), obs, cap, &r));

    assert_int_equal(unlink(path), 0);
    for (int i = 0; i < 10; i++)
        EXPECT_OK(rg_env_step(env, action, rg_env_action_length(env), obs, cap, &r));
    EXPECT_OK(rg_env_reset(env, 0, 0, obs, cap)); /* from the start state: no reload */
    EXPECT_OK(rg_env_step(env, action, rg_env_action_length(env), obs, cap, &r));
    rg_env *other;
    EXPECT(rg_env_create(&other, &o), RG_ENOTFOUND, "does not exist");

    /* Without a start state every reset is a power-on reset, which needs the file. */
    EXPECT_OK(rg_env_set_start_state(env, RG_STATE_NONE));
    EXPECT(rg_env_reset(env, 0, 0, obs, cap), RG_ENOTFOUND, path);
    rg_env_free(env);
    free(obs);
    rg_integration_paths_free(dp);
    char *now = tmp_instances();
    assert_string_equal(now, tmp_before);
    free(now);
}

int main(void)
{
    test_rom_get("Nes", &nes);
    const char *root = getenv("TMPDIR");
    snprintf(cores, sizeof cores, "%s/cores", root && *root ? root : "/tmp");
    mkdir(cores, 0700);
    test_tmp_clean();
    tmp_before = tmp_instances();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(deleted_while_running),
        cmocka_unit_test(deleted_debian_core),
        cmocka_unit_test(env_core_deleted),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(tmp_before);
    return rc;
}
