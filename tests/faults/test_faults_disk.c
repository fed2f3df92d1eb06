/* A full disk and read-only folders while importing ROMs, recording episodes, writing movies, state files and
 * variable files, and (through the CLI) NumPy and PNG outputs.
 *
 * A full disk is simulated in a forked child with RLIMIT_FSIZE (SIGXFSZ ignored, so a write past the limit fails
 * with EFBIG), at 0 bytes and at a limit that lets part of the file through; a read-only folder with chmod 0555, the
 * child running as uid/gid 65534 so that the permission applies when the test runs as root (the fixture is given to
 * that user first). /dev/full is not used: every library writer writes a temporary file beside the destination and
 * renames it, so the destination itself is never opened for writing (see docs/reliability.md).
 *
 * Each case checks: a clear error code and message, the fixture tree exactly as before (names and sizes, hidden
 * files included: no partial file, no temporary file), the previous file at the destination intact. */
#include "faults_util.h"

#include <zip.h>

#define GAME "FaultGame-Nes"

static char base[1024];      /* everything the cases may write into, listed before and after */
static char scratch[1024];   /* files made by the parent to learn sizes; not listed */
static char data_root[1200]; /* base/data: a data root with GAME */
static char game_dir[1400];
static char rom_src[1200];   /* base/src: the ROM to import */
static char out_dir[1200];   /* base/out: destination of the writers */
static uint8_t rom[16 + 8192];
static char rom_sha[RG_INTEGRATION_SHA1_HEX + 1];
static int as_root;
static rg_integration_paths *source_data; /* the source tree's data root (StarCatcher-Nes) */

/* ---- fixture ---- */

static void write_text(const char *dir, const char *name, const char *text)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    spit(path, text, strlen(text));
}

/* chown -R to the unprivileged user, so that only the chmod of a case stops it. */
static void give_away(const char *path)
{
    if (!as_root)
        return;
    if (lchown(path, 65534, 65534) != 0)
        fail_msg("chown %s: %s", path, strerror(errno));
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return;
    DIR *d = opendir(path);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        give_away(child);
    }
    closedir(d);
}

static int setup(void **state)
{
    (void)state;
    as_root = geteuid() == 0;
    const char *t = getenv("TMPDIR");
    snprintf(base, sizeof base, "%s/disk-XXXXXX", t && *t ? t : "/tmp");
    assert_non_null(mkdtemp(base));
    chmod(base, 0755);
    snprintf(scratch, sizeof scratch, "%s/scratch", t && *t ? t : "/tmp");
    rg__remove_tree(scratch);
    test_mkdirs(scratch);
    snprintf(data_root, sizeof data_root, "%s/data", base);
    snprintf(game_dir, sizeof game_dir, "%s/stable/" GAME, data_root);
    snprintf(rom_src, sizeof rom_src, "%s/src", base);
    snprintf(out_dir, sizeof out_dir, "%s/out", base);
    test_mkdirs(game_dir);
    char p[1400];
    snprintf(p, sizeof p, "%s/contrib", data_root);
    test_mkdirs(p);
    snprintf(p, sizeof p, "%s/experimental", data_root);
    test_mkdirs(p);
    test_mkdirs(rom_src);
    test_mkdirs(out_dir);
    memcpy(rom, "NES\x1a\x01\x00", 6);
    for (size_t i = 16; i < sizeof rom; i++)
        rom[i] = (uint8_t)(i * 31 + (i >> 8));
    EXPECT_OK(rg_integration_rom_sha1(rom, sizeof rom, "x.nes", rom_sha));
    char line[64];
    snprintf(line, sizeof line, "%s\n", rom_sha);
    write_text(game_dir, "rom.sha", line);
    write_text(game_dir, "data.json", "{\"info\": {\"score\": {\"address\": 16, \"type\": \">u2\"}}}");
    write_text(game_dir, "scenario.json", "{\"reward\": {\"variables\": {\"score\": {\"reward\": 1}}}}");
    write_text(game_dir, "metadata.json", "{}");
    snprintf(p, sizeof p, "%s/game.nes", rom_src);
    spit(p, rom, sizeof rom);
    give_away(base);
    char root[1024];
    EXPECT_OK(rg_integration_paths_create(&source_data, test_source_path("data", root, sizeof root)));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rg_integration_paths_free(source_data);
    rg__remove_tree(base);
    rg__remove_tree(scratch);
    return 0;
}

/* ---- running a case ---- */

typedef enum { FULL_AT_ZERO, FULL_PART_WAY, READ_ONLY } fault_mode;

static const char *mode_name(fault_mode m)
{
    return m == FULL_AT_ZERO ? "disk full (0 bytes)" : m == FULL_PART_WAY ? "disk full (part way)" : "read-only";
}

typedef struct fault_case {
    const char *what;
    child_fn fn;
    void *arg;
    const char *dir;        /* the folder made read-only */
    const char *dest;       /* the destination file, or NULL */
    int code;               /* the error expected */
    rlim_t part_way;        /* the size limit for FULL_PART_WAY */
    const char *where;      /* "message" or "extra": where the system's reason must appear */
} fault_case;

/* Runs one case in one mode, with or without a previous file at the destination. Returns 0 when skipped. */
static int run_case(const fault_case *c, fault_mode mode, int previous)
{
    static const char old[] = "the previous file, which must survive";
    if (c->dest) {
        unlink(c->dest);
        if (previous) {
            spit(c->dest, old, sizeof old);
            if (as_root)
                assert_int_equal(lchown(c->dest, 65534, 65534), 0);
        }
    }
    char *before = list_tree(base);
    unsigned setup = CHILD_PLAIN;
    rlim_t limit = 0;
    if (mode == READ_ONLY) {
        assert_int_equal(chmod(c->dir, 0555), 0);
        setup = CHILD_NOBODY;
    } else {
        setup = CHILD_FSIZE;
        limit = mode == FULL_AT_ZERO ? 0 : c->part_way;
    }
    child_end end = run_in_child(c->fn, c->arg, setup, limit);
    if (mode == READ_ONLY)
        chmod(c->dir, 0755);
    if (end.exited && end.status == 77) {
        print_message("%s, %s: skipped: cannot run a child as uid 65534\n", c->what, mode_name(mode));
        free(before);
        return 0;
    }
    if (!end.exited || end.status != 0 || !end.got_result)
        fail_msg("%s, %s: the child ended badly (exit %d, signal %d)", c->what, mode_name(mode), end.status,
                 end.signal);
    const child_result *r = &end.result;
    if (r->rc != c->code)
        fail_msg("%s, %s: gave %s (%s), expected %s", c->what, mode_name(mode), rg_error_name(r->rc), r->message,
                 rg_error_name(c->code));
    const char *reason = mode == READ_ONLY ? strerror(EACCES) : strerror(EFBIG);
    const char *text = strcmp(c->where, "extra") == 0 ? r->extra : r->message;
    if (!strstr(text, reason))
        fail_msg("%s, %s: \"%s\" does not say \"%s\"", c->what, mode_name(mode), text, reason);
    char what[256];
    snprintf(what, sizeof what, "%s, %s%s", c->what, mode_name(mode), previous ? ", over a previous file" : "");
    expect_same_tree(base, before, what);
    print_message("%s: %s: %s\n", what, rg_error_name(r->rc), r->message);
    if (c->dest && previous) {
        size_t size;
        uint8_t *now = slurp(c->dest, &size);
        if (!now || size != sizeof old || memcmp(now, old, size) != 0)
            fail_msg("%s: the previous file was not kept", what);
        free(now);
    }
    free(before);
    return 1;
}

static void run_all_modes(const fault_case *c)
{
    for (int previous = 0; previous <= (c->dest ? 1 : 0); previous++)
        for (fault_mode m = FULL_AT_ZERO; m <= READ_ONLY; m++)
            run_case(c, m, previous);
    if (c->dest)
        unlink(c->dest);
}

/* ---- import ---- */

static void collect_warning(const char *message, void *user)
{
    child_result *r = user;
    size_t used = strlen(r->extra);
    snprintf(r->extra + used, sizeof r->extra - used, "%s\n", message);
}

static int do_import(void *arg, child_result *out)
{
    (void)arg;
    rg_integration_paths *dp;
    int rc = rg_integration_paths_create(&dp, data_root);
    if (rc != RG_OK)
        return rc;
    rg_integration_import_options o = RG_INTEGRATION_IMPORT_OPTIONS_INIT;
    o.warning = collect_warning;
    o.user = out;
    rg_integration_import_report report;
    const char *paths[] = {rom_src};
    rc = rg_integration_import(dp, paths, 1, &o, &report);
    return rc;
}

static void import_rom(void **state)
{
    (void)state;
    char dest[1500];
    snprintf(dest, sizeof dest, "%s/rom.nes", game_dir);
    fault_case c = {"import", do_import, NULL, game_dir, dest, RG_EIO, 1000, "message"};
    run_all_modes(&c);
    /* And the import works when nothing stops it. */
    child_end end = run_in_child(do_import, NULL, CHILD_PLAIN, 0);
    assert_int_equal(end.result.rc, RG_OK);
    size_t size;
    uint8_t *got = slurp(dest, &size);
    assert_non_null(got);
    assert_int_equal(size, sizeof rom);
    free(got);
    unlink(dest);
}

/* ---- files written by the library ---- */

typedef struct write_arg {
    rg_emu *emu;
    rg_env *env;
    const char *dest;
    const char *dir;
} write_arg;

static int do_movie(void *arg, child_result *out)
{
    (void)out;
    const write_arg *a = arg;
    rg_movie *m;
    int rc = rg_movie_open_write(&m, a->dest, "Nes", GAME, 1);
    if (rc != RG_OK)
        return rc;
    for (unsigned f = 0; rc >= 0 && f < 3000; f++) {
        rg_movie_set_buttons(m, 0, (uint16_t)(f * 2654435761u >> 7));
        rc = rg_movie_step(m);
    }
    rc = rg_movie_close(m);
    rg_movie_free(m);
    return rc;
}

static int do_state(void *arg, child_result *out)
{
    (void)out;
    const write_arg *a = arg;
    return rg_emu_state_save_file(a->emu, a->dest);
}

static int do_gamedata(void *arg, child_result *out)
{
    (void)out;
    const write_arg *a = arg;
    rg_gamedata *gd;
    int rc = rg_gamedata_create(&gd);
    for (unsigned i = 0; rc == RG_OK && i < 64; i++) {
        char name[32];
        snprintf(name, sizeof name, "variable_%u", i);
        rc = rg_gamedata_set_variable(gd, name, i * 2, "|u1", RG_MASK_ALL);
    }
    if (rc == RG_OK)
        rc = rg_gamedata_save_file(gd, a->dest);
    rg_gamedata_free(gd);
    return rc;
}

static rg_emu *open_fake(void)
{
    test_rom nes;
    test_rom_get("Nes", &nes);
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = fault_core("good");
    o.log = test_quiet_log;
    rg_emu *emu;
    EXPECT_OK(rg_emu_open(&emu, nes.path, &o));
    return emu;
}

static void library_files(void **state)
{
    (void)state;
    char dest[1500];
    write_arg a = {NULL, NULL, dest, out_dir};

    snprintf(dest, sizeof dest, "%s/run.bk2", out_dir);
    fault_case movie = {"movie", do_movie, &a, out_dir, dest, RG_EIO, 1000, "message"};
    run_all_modes(&movie);

    a.emu = open_fake();
    for (int i = 0; i < 30; i++)
        EXPECT_OK(rg_emu_run(a.emu));
    snprintf(dest, sizeof dest, "%s/save.state", out_dir);
    fault_case st = {"state file", do_state, &a, out_dir, dest, RG_EIO, 40, "message"};
    run_all_modes(&st);

    snprintf(dest, sizeof dest, "%s/data.json", out_dir);
    fault_case gd = {"variables file", do_gamedata, &a, out_dir, dest, RG_EIO, 500, "message"};
    run_all_modes(&gd);

    /* The same calls succeed when nothing stops them (so the cases above failed for the fault alone). */
    snprintf(dest, sizeof dest, "%s/run.bk2", out_dir);
    assert_int_equal(run_in_child(do_movie, &a, CHILD_PLAIN, 0).result.rc, RG_OK);
    snprintf(dest, sizeof dest, "%s/save.state", out_dir);
    assert_int_equal(run_in_child(do_state, &a, CHILD_PLAIN, 0).result.rc, RG_OK);
    snprintf(dest, sizeof dest, "%s/data.json", out_dir);
    assert_int_equal(run_in_child(do_gamedata, &a, CHILD_PLAIN, 0).result.rc, RG_OK);
    rg_emu_free(a.emu);
    rg__remove_tree(out_dir);
    test_mkdirs(out_dir);
    give_away(out_dir);
}

/* ---- recording ---- */

static rg_env *open_env(void)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "StarCatcher-Nes";
    o.paths = source_data;
    o.core = fault_core("good");
    o.log = test_quiet_log;
    rg_env *env;
    EXPECT_OK(rg_env_create(&env, &o));
    return env;
}

/* An episode of 120 steps; the rc of the call that writes the movie (the next reset, or the stop). */
static int episode(rg_env *env, int stop)
{
    int64_t action[16] = {0};
    size_t n = rg_env_action_length(env);
    rg_step_result r;
    int rc = rg_env_reset(env, 1, 5, NULL, 0);
    for (int i = 0; rc == RG_OK && i < 120; i++) {
        action[0] = i % 3;
        rc = rg_env_step(env, action, n, NULL, 0, &r);
    }
    if (rc != RG_OK)
        return rc;
    return stop ? rg_env_record_stop(env) : rg_env_reset(env, 1, 5, NULL, 0);
}

static int do_record_dir(void *arg, child_result *out)
{
    (void)out;
    const write_arg *a = arg;
    int rc = rg_env_record_dir(a->env, a->dir, 0);
    if (rc != RG_OK)
        return rc;
    rc = episode(a->env, 0);
    if (rc == RG_OK)
        snprintf(out->extra, sizeof out->extra, "the movie was written");
    /* The recording has stopped: the next episodes write nothing and succeed. */
    int rc2 = episode(a->env, 0);
    if (rc2 != RG_OK || rg_env_movie_path(a->env) != NULL)
        snprintf(out->extra, sizeof out->extra, "recording went on after the failure (%d)", rc2);
    return rc;
}

static int do_record_movie(void *arg, child_result *out)
{
    (void)out;
    const write_arg *a = arg;
    int rc = rg_env_record_movie(a->env, a->dest);
    return rc == RG_OK ? episode(a->env, 1) : rc;
}

static void recording(void **state)
{
    (void)state;
    write_arg a = {NULL, open_env(), NULL, out_dir};
    /* The size of the finished movie, to find a limit that stops its second write (retrogym.txt added). */
    char learn[1200];
    snprintf(learn, sizeof learn, "%s/learn.bk2", scratch);
    a.dest = learn;
    assert_int_equal(run_in_child(do_record_movie, &a, CHILD_PLAIN, 0).result.rc, RG_OK);
    size_t total;
    uint8_t *bytes = slurp(learn, &total);
    assert_non_null(bytes);
    free(bytes);

    fault_case dir = {"recording into a folder", do_record_dir, &a, out_dir, NULL, RG_EIO, total / 2, "message"};
    run_all_modes(&dir);
    dir.part_way = total - 1; /* the movie fits, the movie with its retrogym.txt does not */
    run_case(&dir, FULL_PART_WAY, 0);

    char dest[1500];
    snprintf(dest, sizeof dest, "%s/episode.bk2", out_dir);
    a.dest = dest;
    fault_case file = {"recording a movie file", do_record_movie, &a, out_dir, dest, RG_EIO, total / 2, "message"};
    run_all_modes(&file);
    file.part_way = total - 1;
    run_case(&file, FULL_PART_WAY, 1);
    run_case(&file, FULL_PART_WAY, 0);
    rg_env_free(a.env);
}

/* ---- the CLI's NumPy and PNG outputs ---- */

#ifdef RG_CLI
typedef struct cli_run {
    int exited, status, signal;
    char output[8192];
} cli_run;

/* Runs `retrogym playback MOVIE ... extra` with TMPDIR inside the fixture, in a child set up as given. */
static cli_run playback(const char *movie, const char *const *extra, unsigned setup, rlim_t limit)
{
    char tmpdir[1300], data[1024];
    snprintf(tmpdir, sizeof tmpdir, "%s/clitmp", base);
    test_source_path("data", data, sizeof data);
    const char *argv[32] = {"retrogym", "playback", movie, "--core", fault_core("good"), "--data-path", data,
                            "--quiet"};
    size_t argc = 8;
    for (size_t i = 0; extra[i] && argc < 31; i++)
        argv[argc++] = extra[i];
    argv[argc] = NULL;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        child_prepare(setup, limit);
        setenv("TMPDIR", tmpdir, 1);
        execv(RG_CLI, (char *const *)argv);
        _exit(126);
    }
    close(fds[1]);
    cli_run r;
    memset(&r, 0, sizeof r);
    size_t got = 0;
    ssize_t n;
    while ((n = read(fds[0], r.output + got, sizeof r.output - 1 - got)) > 0 || (n < 0 && errno == EINTR))
        got += n > 0 ? (size_t)n : 0;
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        assert_int_equal(errno, EINTR);
    r.exited = WIFEXITED(status);
    r.status = r.exited ? WEXITSTATUS(status) : -1;
    r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return r;
}

/* The CLI fails, says `text` (and `reason` when given), and leaves the fixture as it was. */
static void cli_fails(const char *what, const char *movie, const char *const *extra, unsigned setup, rlim_t limit,
                      const char *dir_ro, const char *text, const char *reason)
{
    char *before = list_tree(base);
    if (dir_ro)
        assert_int_equal(chmod(dir_ro, 0555), 0);
    cli_run r = playback(movie, extra, setup, limit);
    if (dir_ro)
        chmod(dir_ro, 0755);
    if (r.exited && r.status == 77) {
        print_message("%s: skipped: cannot run a child as uid 65534\n", what);
        free(before);
        return;
    }
    if (!r.exited || r.status == 0)
        fail_msg("%s: the CLI should fail; exit %d, signal %d:\n%s", what, r.status, r.signal, r.output);
    if (!strstr(r.output, text) || (reason && !strstr(r.output, reason)))
        fail_msg("%s: the CLI's message does not say \"%s\" (%s):\n%s", what, text, reason ? reason : "", r.output);
    expect_same_tree(base, before, what);
    print_message("%s: %s", what, r.output);
    free(before);
}

static void cli_outputs(void **state)
{
    (void)state;
    char movie[1200], tmpdir[1300], learn[1300], npz[1300], png_dir[1300];
    snprintf(movie, sizeof movie, "%s/cli.bk2", scratch);
    snprintf(tmpdir, sizeof tmpdir, "%s/clitmp", base);
    snprintf(learn, sizeof learn, "%s/learn.npz", scratch);
    snprintf(npz, sizeof npz, "%s/obs.npz", out_dir);
    snprintf(png_dir, sizeof png_dir, "%s/png", out_dir);
    test_mkdirs(tmpdir);
    test_mkdirs(png_dir);
    give_away(tmpdir);
    give_away(png_dir);
    /* A movie of 300 frames (a recorded episode on the fake core ends at once: its RAM says "game over"). */
    rg_movie *m;
    EXPECT_OK(rg_movie_open_write(&m, movie, "Nes", "StarCatcher-Nes", 1));
    for (unsigned f = 0; f < 300; f++) {
        EXPECT_OK(rg_movie_set_buttons(m, 0, (uint16_t)(f & 0xF0)));
        assert_true(rg_movie_step(m) >= 0);
    }
    EXPECT_OK(rg_movie_close(m));
    rg_movie_free(m);

    /* Once without faults, to learn the size of the largest array. */
    const char *learn_args[] = {"--npz", learn, NULL};
    cli_run ok = playback(movie, learn_args, CHILD_PLAIN, 0);
    if (!ok.exited || ok.status != 0)
        fail_msg("the CLI fails without faults: exit %d:\n%s", ok.status, ok.output);
    int err;
    zip_t *za = zip_open(learn, ZIP_RDONLY, &err);
    assert_non_null(za);
    zip_stat_t st;
    assert_int_equal(zip_stat(za, "obs.npy", 0, &st), 0);
    zip_discard(za);
    size_t core_size;
    uint8_t *core = slurp(fault_core("good"), &core_size);
    free(core);
    if (st.size <= core_size + 4096)
        fail_msg("obs.npy is %llu bytes, the core %zu", (unsigned long long)st.size, core_size);
    /* so a limit can let the core's copy through and stop the arrays */

    const char *npz_args[] = {"--npz", npz, NULL};
    /* The arrays' temporary files fill the disk; then the archive does, after the arrays fit. */
    cli_fails("--npz, disk full in the arrays", movie, npz_args, CHILD_FSIZE, core_size + 4096, NULL, "--npz",
              strerror(EFBIG));
    cli_fails("--npz, disk full in the archive", movie, npz_args, CHILD_FSIZE, st.size + 64, NULL, "--npz",
              strerror(EFBIG));
    cli_fails("--npz, read-only folder", movie, npz_args, CHILD_NOBODY, 0, out_dir, "--npz", strerror(EACCES));
    /* Over a previous file: kept. */
    static const char old[] = "previous npz";
    spit(npz, old, sizeof old);
    if (as_root)
        assert_int_equal(lchown(npz, 65534, 65534), 0);
    cli_fails("--npz over a file, disk full", movie, npz_args, CHILD_FSIZE, st.size + 64, NULL, "--npz",
              strerror(EFBIG));
    cli_fails("--npz over a file, read-only folder", movie, npz_args, CHILD_NOBODY, 0, out_dir, "--npz",
              strerror(EACCES));
    size_t size;
    uint8_t *now = slurp(npz, &size);
    assert_non_null(now);
    assert_true(size == sizeof old && memcmp(now, old, size) == 0);
    free(now);
    unlink(npz);

    /* PNGs into a read-only folder (a 64x48 PNG is smaller than the core's copy: no size limit can stop one
     * without stopping the CLI before). */
    const char *png_args[] = {"--png-every", "10", "--png-dir", png_dir, NULL};
    cli_fails("--png-dir read-only", movie, png_args, CHILD_NOBODY, 0, png_dir, "cannot create a file beside",
              strerror(EACCES));

    /* CSV and JSON go through temporary files too: a failure leaves the previous file whole, a success replaces
     * it whole. */
    static const char *const text_opts[] = {"--csv", "--info-json"}, *const starts[] = {"frame,", "["};
    for (size_t i = 0; i < 2; i++) {
        char out[1400], what[64];
        snprintf(out, sizeof out, "%s/previous.out", out_dir);
        static const char prev[] = "previous output";
        spit(out, prev, sizeof prev);
        if (as_root)
            assert_int_equal(lchown(out, 65534, 65534), 0);
        const char *args[] = {text_opts[i], out, NULL};
        snprintf(what, sizeof what, "%s over a file, read-only folder", text_opts[i]);
        cli_fails(what, movie, args, CHILD_NOBODY, 0, out_dir, text_opts[i], strerror(EACCES));
        uint8_t *kept = slurp(out, &size);
        assert_non_null(kept);
        assert_true(size == sizeof prev && memcmp(kept, prev, size) == 0);
        free(kept);
        cli_run r = playback(movie, args, CHILD_PLAIN, 0);
        if (!r.exited || r.status != 0)
            fail_msg("%s over a file: exit %d:\n%s", text_opts[i], r.status, r.output);
        char *after = list_tree(base);
        if (strstr(after, ".tmp-"))
            fail_msg("%s left a temporary file:\n%s", text_opts[i], after);
        free(after);
        kept = slurp(out, &size);
        assert_non_null(kept);
        assert_true(size > sizeof prev && memcmp(kept, starts[i], strlen(starts[i])) == 0);
        free(kept);
        unlink(out);
    }
}
#endif

/* ---- destinations that are not regular files ---- */

/* A symbolic link keeps being a link (its target gets the new file), a FIFO is written in place (not replaced by a
 * regular file), a folder is refused. Run as the test's own user: nothing here depends on permissions. */
static void special_destinations(void **state)
{
    (void)state;
    char dir[1500], target[1600], link_path[1600], fifo[1600];
    snprintf(dir, sizeof dir, "%s/special", scratch);
    test_mkdirs(dir);
    rg_emu *emu = open_fake();
    for (int i = 0; i < 10; i++)
        EXPECT_OK(rg_emu_run(emu));

    snprintf(target, sizeof target, "%s/target.state", dir);
    snprintf(link_path, sizeof link_path, "%s/link.state", dir);
    write_text(dir, "target.state", "old");
    assert_int_equal(symlink("target.state", link_path), 0);
    EXPECT_OK(rg_emu_state_save_file(emu, link_path));
    struct stat st;
    assert_int_equal(lstat(link_path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat(target, &st), 0);
    assert_true(st.st_size > 3); /* the gzip state, not "old" */
    EXPECT_OK(rg_emu_state_load_file(emu, link_path));

    snprintf(fifo, sizeof fifo, "%s/pipe", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* the reader: counts the bytes, exits with 0 when some arrived */
        FILE *f = fopen(fifo, "rb");
        size_t n = 0;
        while (f && fgetc(f) != EOF)
            n++;
        _exit(n > 0 ? 0 : 1);
    }
    EXPECT_OK(rg_emu_state_save_file(emu, fifo));
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));

    assert_int_equal(rg_emu_state_save_file(emu, dir), RG_EIO);
    assert_non_null(strstr(rg_error_last(), "folder"));

    /* Nothing else appeared: no temporary file beside any of them. */
    DIR *d = opendir(dir);
    assert_non_null(d);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            entries++;
    closedir(d);
    assert_int_equal(entries, 3);
    rg_emu_free(emu);
    rg__remove_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(import_rom),
        cmocka_unit_test(library_files),
        cmocka_unit_test(recording),
#ifdef RG_CLI
        cmocka_unit_test(cli_outputs),
        cmocka_unit_test(special_destinations),
#endif
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
