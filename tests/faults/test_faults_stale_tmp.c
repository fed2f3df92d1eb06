/* The private folders of instances whose process ended without removing them (killed, crashed) are removed by the
 * first instance of a later process: their lock is free and they are over a minute old. Folders in use, new ones,
 * folders without a lock and other names are left alone.
 * The same for the temporary files of the atomic writer (<destination>.tmp-XXXXXX, src/base/outfile.c) left by a
 * writer killed before its commit: the next write into that folder removes them once they are a minute old and
 * their lock is free; live writers' files, young ones, other names, links and other folders stay. */
#include "faults_util.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>

static test_rom nes;
static char root[1024]; /* this test's $TMPDIR */

/* root/name with a lock file made `age` seconds ago (no lock file when age < 0); returns the folder's path. */
static const char *folder(const char *name, long age)
{
    static char path[8][1200];
    static unsigned next;
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "%s/%s", root, name);
    assert_int_equal(mkdir(p, 0700), 0);
    char file[1300];
    snprintf(file, sizeof file, "%s/save", p);
    int fd = open(file, O_WRONLY | O_CREAT, 0600);
    assert_true(fd >= 0);
    close(fd);
    if (age >= 0) {
        snprintf(file, sizeof file, "%s/.lock", p);
        fd = open(file, O_WRONLY | O_CREAT, 0600);
        assert_true(fd >= 0);
        close(fd);
        struct timespec t[2] = {{time(NULL) - age, 0}, {time(NULL) - age, 0}};
        assert_int_equal(utimensat(AT_FDCWD, file, t, 0), 0);
    }
    return p;
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static rg_emu *open_good(void)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = fault_core("good");
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    EXPECT_OK(rg_emu_open(&emu, nes.path, &o));
    return emu;
}

static void stale_folders(void **state)
{
    (void)state;
    const char *stale = folder("retrogym-deadbeef", 120);
    const char *fresh = folder("retrogym-fresh1", 0);
    const char *live = folder("retrogym-live01", 120);
    const char *no_lock = folder("retrogym-nolock", -1);
    const char *other = folder("retrogymother-x", 120);
    /* "live" is held by another open file description, as an instance of another process holds its own */
    char lock[1300];
    snprintf(lock, sizeof lock, "%s/.lock", live);
    int held = open(lock, O_RDONLY);
    assert_true(held >= 0);
    assert_int_equal(flock(held, LOCK_EX | LOCK_NB), 0);

    rg_emu *emu = open_good(); /* the process's first instance sweeps */
    assert_false(exists(stale));
    assert_true(exists(fresh) && exists(live) && exists(no_lock) && exists(other));

    /* A process killed with its instance open leaves its folder, lock free: swept once old enough. */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        rg_emu *mine;
        rg_emu_options o = RG_EMU_OPTIONS_INIT;
        o.core = fault_core("good");
        _exit(rg_emu_open(&mine, nes.path, &o) == RG_OK ? 0 : 1); /* never freed */
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(rg__tempdir_sweep("retrogym", 60), 0); /* the child's is young, live01 held: kept */
    close(held);
    assert_int_equal(rg__tempdir_sweep("retrogym", 60), 1); /* live01, free now and old */
    assert_false(exists(live));
    /* age every lock of a retrogym-* folder but this process's own instance's, whose lock is held */
    DIR *d = opendir(root);
    assert_non_null(d);
    struct dirent *e;
    int aged = 0;
    while ((e = readdir(d))) {
        char file[1300];
        snprintf(file, sizeof file, "%s/%s/.lock", root, e->d_name);
        struct timespec t[2] = {{time(NULL) - 300, 0}, {time(NULL) - 300, 0}};
        if (strncmp(e->d_name, "retrogym-", 9) == 0 && utimensat(AT_FDCWD, file, t, 0) == 0)
            aged++;
    }
    closedir(d);
    assert_int_equal(aged, 3); /* the child's, this process's instance's and fresh1's */
    /* The child's folder and fresh1 go; this process's instance's stays (its lock is held) */
    assert_int_equal(rg__tempdir_sweep("retrogym", 60), 2);
    assert_false(exists(fresh));
    assert_true(exists(no_lock) && exists(other));
    EXPECT_OK(rg_emu_run(emu)); /* its folder is still there */
    rg_emu_free(emu);
    assert_int_equal(test_tmp_entries(), 1); /* retrogym-nolock (retrogymother-x is not a retrogym- name) */
}

/* Makes dir/name (a regular file) last changed `age` seconds ago. */
static void aged_file(const char *dir, const char *name, long age)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "partial", 7), 7);
    close(fd);
    struct timespec t[2] = {{time(NULL) - age, 0}, {time(NULL) - age, 0}};
    assert_int_equal(utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW), 0);
}

static int in(const char *dir, const char *name)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return exists(path);
}

/* The one name in dir starting with prefix, into out; 0 when none or several. */
static int find_prefixed(const char *dir, const char *prefix, char *out, size_t cap)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && n++ == 0)
            snprintf(out, cap, "%s", e->d_name);
    closedir(d);
    return n == 1;
}

static void age(const char *dir, const char *name, long seconds)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct timespec t[2] = {{time(NULL) - seconds, 0}, {time(NULL) - seconds, 0}};
    assert_int_equal(utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW), 0);
}

static void orphaned_temp_files(void **state)
{
    (void)state;
    char dir[1200], other[1200];
    snprintf(dir, sizeof dir, "%s/writes", root);
    snprintf(other, sizeof other, "%s/elsewhere", root);
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(mkdir(other, 0700), 0);
    aged_file(dir, "a.state.tmp-AbC123", 120);   /* an orphan: goes */
    aged_file(dir, "young.bk2.tmp-Qw3Er5", 5);   /* too young: stays */
    aged_file(dir, "b.state.tmp-abc", 120);      /* not our pattern: stays */
    aged_file(dir, "c.state.tmp-ABCDEFG", 120);  /* seven characters: stays */
    aged_file(dir, "d.state.tmp-AB_DEF", 120);   /* not a letter or digit: stays */
    aged_file(dir, "notes.tmp", 120);
    aged_file(other, "e.state.tmp-Zz9Zz9", 120); /* another folder: stays */
    char link[1400];
    snprintf(link, sizeof link, "%s/f.state.tmp-Ln1Ln1", dir);
    assert_int_equal(symlink("notes.tmp", link), 0); /* a link: stays, its target too */
    age(dir, "f.state.tmp-Ln1Ln1", 120);
    snprintf(link, sizeof link, "%s/g.state.tmp-Dr1Dr1", dir);
    assert_int_equal(mkdir(link, 0700), 0); /* a folder: stays */
    age(dir, "g.state.tmp-Dr1Dr1", 120);

    /* A writer killed (SIGKILL) between open and commit leaves its temporary file. */
    char dest[1400];
    snprintf(dest, sizeof dest, "%s/killed.state", dir);
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        rg_outfile *f;
        if (rg_outfile_open(&f, dest) != RG_OK)
            _exit(1);
        fputs("half a state", rg_outfile_stream(f));
        fflush(rg_outfile_stream(f));
        char c = 'r';
        (void)!write(ready[1], &c, 1);
        for (;;)
            pause();
    }
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    close(ready[0]);
    close(ready[1]);
    char killed[256];
    assert_true(find_prefixed(dir, "killed.state.tmp-", killed, sizeof killed));
    /* while it lives, even old, its file is kept */
    age(dir, killed, 300);
    EXPECT_OK(rg__write_file_atomic(dest, "x", 1));
    assert_true(in(dir, killed));
    assert_int_equal(kill(pid, SIGKILL), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));

    /* A live writer of this process, old too: kept through the sweep, and its commit still works. */
    char live_dest[1400], live[256];
    snprintf(live_dest, sizeof live_dest, "%s/live.state", dir);
    rg_outfile *f;
    EXPECT_OK(rg_outfile_open(&f, live_dest));
    fputs("live", rg_outfile_stream(f));
    assert_true(find_prefixed(dir, "live.state.tmp-", live, sizeof live));
    age(dir, live, 300);

    /* the next write into the folder sweeps */
    snprintf(dest, sizeof dest, "%s/next.state", dir);
    EXPECT_OK(rg__write_file_atomic(dest, "new", 3));
    assert_false(in(dir, "a.state.tmp-AbC123"));
    assert_false(in(dir, killed));
    assert_true(in(dir, "young.bk2.tmp-Qw3Er5") && in(dir, "b.state.tmp-abc") && in(dir, "c.state.tmp-ABCDEFG") &&
                in(dir, "d.state.tmp-AB_DEF") && in(dir, "notes.tmp") && in(dir, "f.state.tmp-Ln1Ln1") &&
                in(dir, "g.state.tmp-Dr1Dr1") && in(dir, live) && in(other, "e.state.tmp-Zz9Zz9"));
    assert_true(in(dir, "killed.state") && in(dir, "next.state"));
    EXPECT_OK(rg_outfile_commit(f));
    size_t n;
    uint8_t *bytes = slurp(live_dest, &n);
    assert_non_null(bytes);
    assert_int_equal(n, 4);
    assert_memory_equal(bytes, "live", 4);
    free(bytes);
    assert_false(in(dir, live));
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    assert_non_null(t);
    snprintf(root, sizeof root, "%s", t);
    DIR *d = opendir(root); /* what an earlier run left */
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            char path[1300];
            snprintf(path, sizeof path, "%s/%s", root, e->d_name);
            rg__remove_tree(path);
            unlink(path);
        }
    if (d)
        closedir(d);
    test_rom_get("Nes", &nes);
    const struct CMUnitTest tests[] = {cmocka_unit_test(stale_folders), cmocka_unit_test(orphaned_temp_files)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
