/* The private folders of instances whose process ended without removing them (killed, crashed) are removed by the
 * first instance of a later process: their lock is free and they are over a minute old. Folders in use, new ones,
 * folders without a lock and other names are left alone. */
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
    const struct CMUnitTest tests[] = {cmocka_unit_test(stale_folders)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
