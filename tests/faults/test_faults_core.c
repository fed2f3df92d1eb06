/* Misbehaving libretro cores (tests/faults/fake_core.c, one build per fault): each gives a clear error code and
 * message and leaves the process, and any other instance in it, working. A core that crashes (SIGSEGV, abort) cannot
 * be contained inside the process that hosts it (cores run in-process, for speed): that is tested in a forked child,
 * which dies by the signal while the parent's instance goes on. */
#include "faults_util.h"

static test_rom nes;
static char *tmp_before; /* the retrogym-* folders of $TMPDIR when the test started */

typedef struct log_sink {
    unsigned errors, warnings;
    char last[512], last_warning[512];
} log_sink;

static void count_log(rg_log_level level, const char *message, void *user)
{
    log_sink *s = user;
    if (level >= RG_LOG_ERROR) {
        s->errors++;
        snprintf(s->last, sizeof s->last, "%s", message);
    } else if (level == RG_LOG_WARN) {
        s->warnings++;
        snprintf(s->last_warning, sizeof s->last_warning, "%s", message);
    }
}

static int open_fault(rg_emu **emu, const char *fault, log_sink *sink)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = fault_core(fault);
    o.log = sink ? count_log : test_quiet_log;
    o.log_user = sink;
    o.log_level = RG_LOG_DEBUG;
    *emu = NULL;
    int rc = rg_emu_open(emu, nes.path, &o);
    if (rc != RG_OK)
        assert_null(*emu);
    return rc;
}

static rg_emu *must_open(const char *fault, log_sink *sink)
{
    rg_emu *emu;
    if (open_fault(&emu, fault, sink) != RG_OK)
        fail_msg("cannot open the %s fault core: %s", fault, rg_error_last());
    return emu;
}

static uint64_t picture_hash(rg_emu *emu)
{
    uint8_t px[64 * 48 * 3];
    EXPECT_OK(rg_emu_frame_rgb24(emu, px, sizeof px));
    return test_hash(px, sizeof px, 0);
}

static void no_tmp_left(void)
{
    char *now = tmp_instances();
    if (strcmp(now, tmp_before) != 0)
        fail_msg("temporary folders differ:\n--- at start\n%s--- now\n%s", tmp_before, now);
    free(now);
}

/* The reference: everything works, so the faults below are the cores', not the fixture's. */
static void good_core(void **state)
{
    (void)state;
    rg_emu *emu = must_open("good", NULL);
    run_frames(emu, 10);
    assert_int_equal(counter(emu), 10);
    rg_frame f;
    EXPECT_OK(rg_emu_frame(emu, &f));
    assert_int_equal(f.width, 64);
    assert_int_equal(f.height, 48);
    assert_int_equal(rg_emu_ram_size(emu), 2048);
    size_t size;
    EXPECT_OK(rg_emu_state_size(emu, &size));
    uint8_t *st = malloc(size);
    EXPECT_OK(rg_emu_state_save(emu, st, size, &size));
    run_frames(emu, 5);
    EXPECT_OK(rg_emu_state_load(emu, st, size));
    assert_int_equal(counter(emu), 10);
    EXPECT_OK(rg_emu_reset(emu));
    run_frames(emu, 1);
    assert_int_equal(counter(emu), 1);
    free(st);
    rg_emu_free(emu);
    no_tmp_left();
}

/* ---- crashes: in a forked child ---- */

static int crash_child(void *arg, child_result *out)
{
    rg_emu *emu;
    int rc = open_fault(&emu, arg, NULL);
    if (rc != RG_OK)
        return rc;
    rc = rg_emu_run(emu); /* does not return */
    snprintf(out->extra, sizeof out->extra, "rg_emu_run returned %d", rc);
    return rc;
}

static void crash_contained_in_child(const char *fault, int signo)
{
    /* The parent's instance, mid-run, of the same fixture. */
    rg_emu *emu = must_open("good", NULL);
    run_frames(emu, 5);
    uint64_t before = picture_hash(emu);
    char *tmp_start = tmp_instances();

    child_end end = run_in_child(crash_child, (void *)fault, CHILD_CRASHY, 0);
    if (!end.signaled || end.signal != signo)
        fail_msg("%s: the child should die by signal %d; it %s %d (%s %s)", fault, signo,
                 end.signaled ? "died by signal" : "exited with", end.signaled ? end.signal : end.status,
                 end.result.message, end.result.extra);
    assert_false(end.got_result);

    /* The parent goes on exactly where it was. */
    assert_int_equal(counter(emu), 5);
    assert_true(picture_hash(emu) == before);
    run_frames(emu, 5);
    assert_int_equal(counter(emu), 10);
    rg_emu *again = must_open("good", NULL); /* and can open new instances */
    run_frames(again, 10);
    assert_true(picture_hash(again) == picture_hash(emu));
    rg_emu_free(again);
    rg_emu_free(emu);

    /* Not contained: the dead child's private folder stays behind (its copy of the core is already unlinked,
     * so only its lock file and the empty system/ and save/ folders remain) until a later process sweeps it
     * (faults_stale_tmp). Removed here so the count at the end holds. */
    char *now = tmp_instances();
    const char *p = now;
    int leftovers = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(nl - p), p);
        char line[300];
        snprintf(line, sizeof line, "%s\n", name);
        if (!strstr(tmp_start, line)) {
            char dir[4096];
            const char *root = getenv("TMPDIR");
            snprintf(dir, sizeof dir, "%s/%s", root && *root ? root : "/tmp", name);
            char *inside = list_tree(dir);
            for (const char *q = inside; *q; q = strchr(q, '\n') + 1)
                if (strncmp(q, "save ", 5) != 0 && strncmp(q, "system ", 7) != 0 && strncmp(q, ".lock ", 6) != 0)
                    fail_msg("the crashed child's folder %s holds more than .lock, save/ and system/:\n%s", dir,
                             inside);
            free(inside);
            rg__remove_tree(dir);
            leftovers++;
        }
        p = nl + 1;
    }
    assert_int_equal(leftovers, 1);
    free(now);
    free(tmp_start);
    no_tmp_left();
}

static void run_segv(void **state)
{
    (void)state;
    crash_contained_in_child("run_segv", SIGSEGV);
}

static void run_abort(void **state)
{
    (void)state;
    crash_contained_in_child("run_abort", SIGABRT);
}

/* ---- loading ---- */

static void load_failures(void **state)
{
    (void)state;
    rg_emu *emu;
    EXPECT(open_fault(&emu, "load_fail", NULL), RG_ECORE, "refused the ROM");
    EXPECT(open_fault(&emu, "api_version", NULL), RG_ECORE, "API version 2");
    EXPECT(open_fault(&emu, "missing_symbol", NULL), RG_ECORE, "lacks the symbol retro_unserialize");

    /* Files that are not (whole) shared objects. */
    const char *root = getenv("TMPDIR");
    char dir[1024], path[1200];
    snprintf(dir, sizeof dir, "%s/files", root && *root ? root : "/tmp");
    mkdir(dir, 0700);
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.log = test_quiet_log;
    o.core = path;
    snprintf(path, sizeof path, "%s/text_libretro.so", dir);
    spit(path, "#!/bin/sh\necho this is not an ELF file\n", 38);
    EXPECT(rg_emu_open(&emu, nes.path, &o), RG_ECORE, "cannot load core");
    snprintf(path, sizeof path, "%s/empty_libretro.so", dir);
    spit(path, "", 0);
    EXPECT(rg_emu_open(&emu, nes.path, &o), RG_ECORE, "cannot load core");
    size_t size;
    uint8_t *elf = slurp(fault_core("good"), &size);
    assert_non_null(elf);
    snprintf(path, sizeof path, "%s/truncated_libretro.so", dir);
    spit(path, elf, 300); /* the ELF header and part of the program headers */
    EXPECT(rg_emu_open(&emu, nes.path, &o), RG_ECORE, "cannot load core");
    free(elf);
    snprintf(path, sizeof path, "%s/folder_libretro.so", dir);
    mkdir(path, 0700);
    EXPECT(rg_emu_open(&emu, nes.path, &o), RG_ENOTFOUND, "does not exist");
    no_tmp_left();
}

/* ---- save states ---- */

static const char *files_dir(void)
{
    static char dir[1024];
    const char *root = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/files", root && *root ? root : "/tmp");
    mkdir(dir, 0700);
    return dir;
}

static const char *state_file(const char *fault)
{
    static char file[1200];
    snprintf(file, sizeof file, "%s/%s.state", files_dir(), fault);
    unlink(file);
    return file;
}

static void state_size_zero(void **state)
{
    (void)state;
    rg_emu *emu = must_open("sersize_zero", NULL);
    run_frames(emu, 3);
    const char *file = state_file("sersize_zero");
    char *before = list_tree(files_dir());
    uint8_t buf[4096] = {0};
    size_t size = 1;
    EXPECT(rg_emu_state_size(emu, &size), RG_EUNSUPPORTED, "cannot make save states");
    EXPECT(rg_emu_state_save(emu, buf, sizeof buf, &size), RG_EUNSUPPORTED, "cannot make save states");
    assert_int_equal(size, 0);
    EXPECT(rg_emu_state_load(emu, buf, 100), RG_EUNSUPPORTED, "cannot make save states");
    EXPECT(rg_emu_state_save_file(emu, file), RG_EUNSUPPORTED, "cannot make save states");
    EXPECT(rg_emu_state_load_file(emu, file), RG_EUNSUPPORTED, "cannot make save states");
    expect_same_tree(files_dir(), before, "a state of a core that has none");
    run_frames(emu, 3);
    assert_int_equal(counter(emu), 6);
    free(before);
    rg_emu_free(emu);
}

static void state_size_huge(void **state)
{
    (void)state;
    rg_emu *emu = must_open("sersize_huge", NULL);
    run_frames(emu, 3);
    const char *file = state_file("sersize_huge");
    char *before = list_tree(files_dir());
    uint8_t buf[4096] = {0};
    size_t size = 1;
    /* Refused before anything of that size is allocated (a sanitizer build would stop on the allocation). */
    EXPECT(rg_emu_state_size(emu, &size), RG_ECORE, "over the limit");
    EXPECT(rg_emu_state_save(emu, buf, sizeof buf, &size), RG_ECORE, "over the limit");
    EXPECT(rg_emu_state_load(emu, buf, sizeof buf), RG_ECORE, "over the limit");
    EXPECT(rg_emu_state_save_file(emu, file), RG_ECORE, "over the limit");
    EXPECT(rg_emu_state_load_file(emu, file), RG_ECORE, "over the limit");
    expect_same_tree(files_dir(), before, "a state of absurd size");
    run_frames(emu, 3);
    assert_int_equal(counter(emu), 6);
    free(before);
    rg_emu_free(emu);
}

static void state_size_changes(void **state)
{
    (void)state;
    rg_emu *emu = must_open("sersize_changes", NULL);
    run_frames(emu, 3);
    const char *file = state_file("sersize_changes");
    char *before = list_tree(files_dir());
    uint8_t buf[8192] = {0};
    size_t size;
    EXPECT_OK(rg_emu_state_size(emu, &size)); /* one answer alone is fine */
    EXPECT(rg_emu_state_save(emu, buf, sizeof buf, &size), RG_ECORE, "changed its state size");
    assert_int_equal(size, 0);
    EXPECT(rg_emu_state_save_file(emu, file), RG_ECORE, "changed its state size");
    /* A load first keeps the current state, which needs a save. */
    EXPECT(rg_emu_state_load(emu, buf, 2056), RG_ESTATE, "changed its state size");
    expect_same_tree(files_dir(), before, "a state of a core whose state size changes");
    run_frames(emu, 3);
    assert_int_equal(counter(emu), 6);
    free(before);
    rg_emu_free(emu);
}

static void serialize_fails(void **state)
{
    (void)state;
    rg_emu *emu = must_open("serialize_false", NULL);
    run_frames(emu, 3);
    const char *file = state_file("serialize_false");
    char *before = list_tree(files_dir());
    uint8_t buf[4096] = {0};
    size_t size;
    EXPECT_OK(rg_emu_state_size(emu, &size));
    assert_int_equal(size, 2056);
    EXPECT(rg_emu_state_save(emu, buf, sizeof buf, &size), RG_ECORE, "failed to serialize");
    EXPECT(rg_emu_state_save_file(emu, file), RG_ECORE, "failed to serialize");
    EXPECT(rg_emu_state_load(emu, buf, 2056), RG_ESTATE, "failed to serialize");
    expect_same_tree(files_dir(), before, "a state of a core that cannot serialize");
    run_frames(emu, 3);
    assert_int_equal(counter(emu), 6);
    free(before);
    rg_emu_free(emu);
}

static void unserialize_fails(void **state)
{
    (void)state;
    rg_emu *emu = must_open("unserialize_false", NULL);
    run_frames(emu, 3);
    uint8_t buf[4096] = {0};
    size_t size;
    EXPECT_OK(rg_emu_state_save(emu, buf, sizeof buf, &size));
    /* The load and the rollback to the state before are both refused: RG_ECORE says the instance may be mixed. */
    EXPECT(rg_emu_state_load(emu, buf, size), RG_ECORE, "refused the state");
    const char *file = state_file("unserialize_false");
    EXPECT_OK(rg_emu_state_save_file(emu, file));
    EXPECT(rg_emu_state_load_file(emu, file), RG_ECORE, "refused the state");
    unlink(file);
    run_frames(emu, 3);
    assert_int_equal(counter(emu), 6);
    rg_emu_free(emu);
}

/* ---- memory ---- */

static void memory_missing(void **state)
{
    (void)state;
    const char *faults[] = {"mem_null", "mem_size0"};
    for (size_t i = 0; i < 2; i++) {
        rg_emu *emu = must_open(faults[i], NULL);
        run_frames(emu, 3);
        assert_int_equal(rg_emu_ram_size(emu), 0);
        const rg_mem_block *b;
        size_t n = 99;
        EXPECT_OK(rg_emu_mem_blocks(emu, &b, &n));
        assert_int_equal(n, 0);
        uint8_t v[4];
        EXPECT(rg_emu_mem_read(emu, 0, v, 1), RG_ERANGE, "not mapped (the core exposes no memory)");
        EXPECT(rg_emu_mem_write(emu, 0, v, 1), RG_ERANGE, "not mapped (the core exposes no memory)");
        EXPECT_OK(rg_emu_ram_copy(emu, v, 0));
        run_frames(emu, 3);
        rg_emu_free(emu);
    }
}

/* A core claiming more system and backup RAM than it mapped (three pages; the second is inaccessible): only the
 * readable first page is used, with a warning for each, and reading all of it does not fault. */
static void memory_oversize(void **state)
{
    (void)state;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    log_sink sink = {0};
    rg_emu *emu = must_open("mem_oversize", &sink);
    run_frames(emu, 7);
    assert_int_equal(rg_emu_ram_size(emu), page);
    assert_int_equal(counter(emu), 7);
    uint8_t *all = malloc(page);
    assert_non_null(all);
    EXPECT_OK(rg_emu_ram_copy(emu, all, page));
    assert_int_equal(all[4], 7);
    uint8_t v[4];
    EXPECT(rg_emu_mem_read(emu, page, v, 1), RG_ERANGE, "not mapped");
    uint8_t *save = NULL;
    size_t n = 0;
    EXPECT_OK(rg_emu_save_ram(emu, &save, &n));
    assert_int_equal(n, page);
    assert_int_equal(save[4], 7);
    assert_int_equal(sink.errors, 0);
    assert_int_equal(sink.warnings, 2);
    assert_non_null(strstr(sink.last_warning, "readable memory"));
    free(all);
    rg_emu_free(emu);
}

/* A memory map whose descriptor at 0 claims three pages of a mapping of one (the second inaccessible), beside a
 * well-behaved one at $10000: the first block cut to its readable page with a warning, the second whole. */
static void memory_map_oversize(void **state)
{
    (void)state;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    log_sink sink = {0};
    rg_emu *emu = must_open("map_oversize", &sink);
    run_frames(emu, 5);
    const rg_mem_block *b;
    size_t n = 0;
    EXPECT_OK(rg_emu_mem_blocks(emu, &b, &n));
    assert_int_equal(n, 2);
    assert_int_equal(b[0].base, 0);
    assert_int_equal(b[0].size, page);
    assert_int_equal(b[1].base, 0x10000);
    assert_int_equal(b[1].size, 2048);
    assert_int_equal(rg_emu_ram_size(emu), page + 2048);
    uint8_t v[4];
    EXPECT_OK(rg_emu_mem_read(emu, 0x10004, v, 1));
    assert_int_equal(v[0], 5);
    EXPECT(rg_emu_mem_read(emu, page, v, 1), RG_ERANGE, "not mapped");
    assert_int_equal(sink.warnings, 1);
    assert_non_null(strstr(sink.last_warning, "at 0x0 claims"));
    rg_emu_free(emu);
}

/* stable-retro's build of mGBA (its wheel; skipped without it) reports 256 KiB of system RAM for a Game Boy game,
 * whose work RAM is a 32 KiB mapping: the Game Boy's 32 KiB (systems/GameBoy.json "ram_max") are used, with a
 * warning, and the RAM reads the same in two instances (reading past the mapping faulted now and then, and read
 * whatever lay after it). */
static void memory_more_than_the_console_has(void **state)
{
    (void)state;
    char core[1024], rom[1024];
    if (!test_wheel_core("mgba", core, sizeof core))
        skip();
    test_source_path("tests/roms/bin/test.gb", rom, sizeof rom);
    uint8_t *ram[2];
    for (int k = 0; k < 2; k++) {
        log_sink sink = {0};
        rg_emu_options o = RG_EMU_OPTIONS_INIT;
        o.core = core;
        o.log = count_log;
        o.log_user = &sink;
        rg_emu *emu;
        EXPECT_OK(rg_emu_open(&emu, rom, &o));
        run_frames(emu, 30);
        assert_int_equal(rg_emu_ram_size(emu), 32768);
        assert_int_equal(sink.warnings, 1);
        assert_non_null(strstr(sink.last_warning, "more than the Game Boy has"));
        ram[k] = malloc(32768);
        assert_non_null(ram[k]);
        EXPECT_OK(rg_emu_ram_copy(emu, ram[k], 32768));
        rg_emu_free(emu);
    }
    assert_memory_equal(ram[0], ram[1], 32768);
    free(ram[0]);
    free(ram[1]);
}

/* ---- video ---- */

static void video_dupes(void **state)
{
    (void)state;
    rg_emu *emu = must_open("video_dupe", NULL);
    run_frames(emu, 1);
    uint64_t first = picture_hash(emu);
    run_frames(emu, 10); /* dupes only: the first frame stands */
    assert_true(picture_hash(emu) == first);
    rg_frame f;
    EXPECT_OK(rg_emu_frame(emu, &f));
    assert_int_equal(f.width, 64);
    assert_int_equal(f.height, 48);
    rg_emu_free(emu);
}

static void video_malformed(void **state)
{
    (void)state;
    const char *faults[] = {"video_short_pitch", "video_empty", "video_none"};
    for (size_t i = 0; i < 3; i++) {
        log_sink sink = {0};
        rg_emu *emu = must_open(faults[i], &sink);
        run_frames(emu, 10);
        rg_frame f;
        EXPECT_OK(rg_emu_frame(emu, &f));
        assert_null(f.data);
        uint8_t px[64 * 48 * 3];
        EXPECT(rg_emu_frame_rgb24(emu, px, sizeof px), RG_EMISUSE, "no frame yet");
        if (i < 2) { /* the malformed frames are reported, once */
            assert_int_equal(sink.errors, 1);
            assert_non_null(strstr(sink.last, "ignored"));
        } else {
            assert_int_equal(sink.errors, 0);
        }
        assert_int_equal(counter(emu), 10);
        rg_emu_free(emu);
    }
}

/* ---- the environment callback ---- */

static void environment_oddities(void **state)
{
    (void)state;
    rg_emu *emu = must_open("env_unknown", NULL);
    run_frames(emu, 3);
    const rg_mem_block *b;
    size_t n;
    EXPECT_OK(rg_emu_mem_blocks(emu, &b, &n));
    uint8_t accepted = 0xFF;
    EXPECT_OK(rg_emu_mem_read(emu, b[0].base + 16, &accepted, 1));
    assert_int_equal(accepted, 0); /* unknown commands and NULL data: all refused, nothing dereferenced */
    assert_int_equal(counter(emu), 3);
    rg_emu_free(emu);
}

static void shutdown_request(void **state)
{
    (void)state;
    setenv("FAULT_FRAME", "2", 1);
    rg_emu *emu = must_open("shutdown", NULL);
    run_frames(emu, 2);
    EXPECT(rg_emu_run(emu), RG_ECORE, "shut down"); /* the frame that asked */
    assert_int_equal(counter(emu), 3);
    EXPECT(rg_emu_run(emu), RG_ECORE, "shut down"); /* not run again */
    assert_int_equal(counter(emu), 3);
    assert_int_equal(rg_emu_frame_count(emu), 2);
    size_t size;
    EXPECT(rg_emu_state_size(emu, &size), RG_ECORE, "shut down");
    EXPECT(rg_emu_soft_reset(emu), RG_ECORE, "shut down");
    /* A power-on reset loads a fresh copy, which runs until it asks again. */
    EXPECT_OK(rg_emu_reset(emu));
    run_frames(emu, 2);
    assert_int_equal(counter(emu), 2);
    EXPECT(rg_emu_run(emu), RG_ECORE, "shut down");
    rg_emu_free(emu);
    unsetenv("FAULT_FRAME");
}

/* ---- environments over the fault cores: creation fails with the core's error, or works ---- */

static void environments(void **state)
{
    (void)state;
    /* The game's start state is another core's (nestopia's), which the fake machine takes in part. */
    static const struct {
        const char *fault;
        int code;          /* of rg_env_create */
        const char *text;
    } cases[] = {
        {"good", RG_OK, ""},
        {"env_unknown", RG_OK, ""},
        {"video_dupe", RG_OK, ""},
        {"mem_oversize", RG_OK, ""}, /* its RAM cut to what is readable: the game's variables read from it */
        {"load_fail", RG_ECORE, "refused the ROM"},
        {"shutdown", RG_ECORE, "shut down"},
        {"sersize_zero", RG_EUNSUPPORTED, "cannot make save states"},
        {"sersize_huge", RG_ECORE, "over the limit"},
        {"sersize_changes", RG_ESTATE, "changed its state size"},
        {"serialize_false", RG_ESTATE, "failed to serialize"},
        {"unserialize_false", RG_ECORE, "refused the state"},
        /* No memory for the game's variables: said at creation, naming the core. */
        {"mem_null", RG_EUNSUPPORTED, "exposes no memory, so the game's"},
        {"mem_size0", RG_EUNSUPPORTED, "exposes no memory, so the game's"},
        /* No usable frame at creation: the observation would be empty. */
        {"video_none", RG_ECORE, "sent no usable picture"},
        {"video_empty", RG_ECORE, "sent no usable picture"},
        {"video_short_pitch", RG_ECORE, "sent no usable picture"},
    };
    char root[1024];
    rg_integration_paths *dp;
    EXPECT_OK(rg_integration_paths_create(&dp, test_source_path("data", root, sizeof root)));
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rg_env_options o = RG_ENV_OPTIONS_INIT;
        o.game = "StarCatcher-Nes";
        o.paths = dp;
        o.core = fault_core(cases[i].fault);
        o.log = test_quiet_log;
        rg_env *env = NULL;
        int rc = rg_env_create(&env, &o);
        if (rc != cases[i].code || !strstr(rg_error_last(), cases[i].text))
            fail_msg("an environment on the %s core: %s (%s), expected %s mentioning \"%s\"", cases[i].fault,
                     rg_error_name(rc), rg_error_last(), rg_error_name(cases[i].code), cases[i].text);
        if (rc == RG_OK) {
            int64_t action[16] = {0};
            rg_step_result r;
            EXPECT_OK(rg_env_reset(env, 1, 1, NULL, 0));
            for (int k = 0; k < 20; k++)
                EXPECT_OK(rg_env_step(env, action, rg_env_action_length(env), NULL, 0, &r));
        } else {
            assert_null(env);
        }
        rg_env_free(env);
    }
    rg_integration_paths_free(dp);
    no_tmp_left();
}

/* ---- every non-crashing fault beside a healthy instance ---- */

static void bystander_unaffected(void **state)
{
    (void)state;
    rg_emu *good = must_open("good", NULL);
    const char *faults[] = {"load_fail", "sersize_zero", "sersize_huge", "sersize_changes", "serialize_false",
                            "unserialize_false", "mem_null", "mem_size0", "mem_oversize", "map_oversize", "video_dupe", "video_short_pitch",
                            "video_empty", "video_none", "env_unknown", "shutdown", "api_version",
                            "missing_symbol"};
    uint8_t buf[8192];
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++) {
        rg_emu *bad;
        run_frames(good, 1);
        if (open_fault(&bad, faults[i], NULL) != RG_OK)
            continue;
        for (int k = 0; k < 5; k++)
            (void)rg_emu_run(bad);
        size_t size;
        (void)rg_emu_state_save(bad, buf, sizeof buf, &size);
        (void)rg_emu_state_load(bad, buf, 2056);
        (void)rg_emu_reset(bad);
        (void)rg_emu_run(bad);
        rg_emu_free(bad);
    }
    size_t n = sizeof faults / sizeof *faults;
    assert_int_equal(counter(good), n);
    rg_emu *fresh = must_open("good", NULL);
    run_frames(fresh, (unsigned)n);
    assert_true(picture_hash(fresh) == picture_hash(good));
    assert_true(test_ram_hash(fresh) == test_ram_hash(good));
    rg_emu_free(fresh);
    rg_emu_free(good);
    no_tmp_left();
}

int main(void)
{
    test_rom_get("Nes", &nes);
    unsetenv("FAULT_FRAME");
    test_tmp_clean();
    tmp_before = tmp_instances();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_core),
        cmocka_unit_test(run_segv),
        cmocka_unit_test(run_abort),
        cmocka_unit_test(load_failures),
        cmocka_unit_test(state_size_zero),
        cmocka_unit_test(state_size_huge),
        cmocka_unit_test(state_size_changes),
        cmocka_unit_test(serialize_fails),
        cmocka_unit_test(unserialize_fails),
        cmocka_unit_test(memory_missing),
        cmocka_unit_test(memory_oversize),
        cmocka_unit_test(memory_map_oversize),
        cmocka_unit_test(memory_more_than_the_console_has),
        cmocka_unit_test(video_dupes),
        cmocka_unit_test(video_malformed),
        cmocka_unit_test(environment_oddities),
        cmocka_unit_test(shutdown_request),
        cmocka_unit_test(environments),
        cmocka_unit_test(bystander_unaffected),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(tmp_before);
    return rc;
}
