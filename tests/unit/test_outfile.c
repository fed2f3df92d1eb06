/* rg_outfile: a destination replaced whole at commit, untouched after an abort or a failed commit, links kept as
 * links, devices written in place, folders refused. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[512];

static int setup(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/outfile-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void expect_text(const char *path, const char *text)
{
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    assert_string_equal(buf, text);
}

/* Entries of the folder besides "." and "..". */
static int entries(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void commit_and_abort(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    put(path, "old");
    rg_outfile *f;
    assert_int_equal(rg_outfile_open(&f, path), RG_OK);
    fputs("new, longer", rg_outfile_stream(f));
    expect_text(path, "old"); /* nothing visible before the commit */
    assert_int_equal(entries(), 2); /* the destination and its temporary file */
    rg_outfile_abort(f);
    expect_text(path, "old");
    assert_int_equal(entries(), 1);
    assert_int_equal(rg_outfile_open(&f, path), RG_OK);
    fputs("new", rg_outfile_stream(f));
    assert_int_equal(rg_outfile_commit(f), RG_OK);
    expect_text(path, "new");
    assert_int_equal(entries(), 1);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    rg_outfile_abort(NULL);
    unlink(path);
}

static void failed_commit(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/out.json", dir);
    put(path, "old");
    rg_outfile *f;
    assert_int_equal(rg_outfile_open(&f, path), RG_OK);
    fputs("new", rg_outfile_stream(f));
    /* the folder goes away under the writer: the rename fails, the error names the destination */
    char moved[600];
    snprintf(moved, sizeof moved, "%s-moved", dir);
    assert_int_equal(rename(dir, moved), 0);
    int rc = rg_outfile_commit(f);
    assert_int_equal(rename(moved, dir), 0);
    assert_int_equal(rc, RG_EIO);
    assert_non_null(strstr(rg_error_last(), "out.json"));
    expect_text(path, "old");
    unlink(path);
}

static void special_destinations(void **state)
{
    (void)state;
    rg_outfile *f = (rg_outfile *)1;
    assert_int_equal(rg_outfile_open(&f, dir), RG_EIO); /* a folder */
    assert_null(f);
    assert_non_null(strstr(rg_error_last(), "is a folder"));
    assert_int_equal(rg_outfile_open(NULL, "x"), RG_EINVAL);
    assert_int_equal(rg_outfile_commit(NULL), RG_EINVAL);
    /* a link stays a link; its target is replaced */
    char target[600], link_path[600];
    snprintf(target, sizeof target, "%s/target", dir);
    snprintf(link_path, sizeof link_path, "%s/link", dir);
    put(target, "old");
    assert_int_equal(symlink("target", link_path), 0);
    assert_int_equal(rg_outfile_open(&f, link_path), RG_OK);
    fputs("new", rg_outfile_stream(f));
    assert_int_equal(rg_outfile_commit(f), RG_OK);
    struct stat st;
    assert_int_equal(lstat(link_path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    expect_text(target, "new");
    /* a device is written in place: /dev/null stays a device */
    assert_int_equal(rg_outfile_open(&f, "/dev/null"), RG_OK);
    fputs("gone", rg_outfile_stream(f));
    assert_int_equal(rg_outfile_commit(f), RG_OK);
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    /* a full device: the commit reports it */
    if (access("/dev/full", W_OK) == 0) {
        assert_int_equal(rg_outfile_open(&f, "/dev/full"), RG_OK);
        fputs("no room", rg_outfile_stream(f));
        assert_int_equal(rg_outfile_commit(f), RG_EIO);
        assert_non_null(strstr(rg_error_last(), "/dev/full"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commit_and_abort),
        cmocka_unit_test(failed_commit),
        cmocka_unit_test(special_destinations),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
