/* Helpers of the fault tests: the fault cores' paths, expectations on error codes and messages, running a piece of
 * a test in a forked child and collecting its result, and listings of folders (hidden files included). */
#ifndef RG_TESTS_FAULTS_UTIL_H
#define RG_TESTS_FAULTS_UTIL_H

#define _GNU_SOURCE
#include "test_support.h"

#include "base/base.h"

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef FAULT_CORE_DIR
#error "FAULT_CORE_DIR must name the folder of the fault cores (tests/faults/tests.cmake)"
#endif

/* The path of the fault core built for a fault ("good", "run_segv", ...). */
static inline const char *fault_core(const char *fault)
{
    static char path[8][1024];
    static unsigned next;
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "%s/fault_%s_libretro.so", FAULT_CORE_DIR, fault);
    return p;
}

#define EXPECT(call, code, text) TEST_EXPECT_ERROR(call, code, text)

/* The fake machine's frame counter (RAM bytes 4..7 of its first block). */
static inline uint32_t counter(rg_emu *emu)
{
    const rg_mem_block *b;
    size_t n;
    EXPECT_OK(rg_emu_mem_blocks(emu, &b, &n));
    assert_true(n >= 1);
    uint8_t v[4];
    EXPECT_OK(rg_emu_mem_read(emu, b[0].base + 4, v, 4));
    return (uint32_t)v[0] | (uint32_t)v[1] << 8 | (uint32_t)v[2] << 16 | (uint32_t)v[3] << 24;
}

static inline void run_frames(rg_emu *emu, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        EXPECT_OK(rg_emu_run(emu));
}

/* ---- a piece of a test in a forked child ---- */

/* What the child reports: its return code, the library's message and whatever else it collected. */
typedef struct child_result {
    int rc;
    char message[1024];
    char extra[2048];
} child_result;

/* How the child ended. */
typedef struct child_end {
    int exited, status, signaled, signal;
    child_result result;
    int got_result; /* the child wrote its result before ending */
} child_end;

typedef int (*child_fn)(void *arg, child_result *out);

/* Ways to prepare the child before fn runs. */
typedef enum {
    CHILD_PLAIN = 0,
    CHILD_FSIZE = 1,    /* files can grow to at most `limit` bytes; SIGXFSZ ignored, so writes fail with EFBIG */
    CHILD_NOBODY = 2,   /* runs as uid/gid 65534 (so that permissions apply to a test running as root) */
    CHILD_CRASHY = 4    /* default handlers for SIGSEGV/SIGABRT (sanitizers install theirs), no core dump */
} child_setup;

/* Prepares a forked child as `setup` asks; a child that cannot exits with 77 (the test then skips that case). */
static inline void child_prepare(unsigned setup, rlim_t limit)
{
    if (setup & CHILD_CRASHY) {
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        signal(SIGABRT, SIG_DFL);
    }
    if (setup & CHILD_NOBODY) {
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
            _exit(77);
        if (geteuid() == 0)
            _exit(77);
    }
    if (setup & CHILD_FSIZE) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = {limit, limit};
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(77);
    }
}

/* Runs fn in a forked child. Returns how the child ended. A child that cannot prepare itself exits with 77. */
static inline child_end run_in_child(child_fn fn, void *arg, unsigned setup, rlim_t limit)
{
    int fds[2];
    if (pipe(fds) != 0)
        fail_msg("pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        fail_msg("fork: %s", strerror(errno));
    if (pid == 0) {
        close(fds[0]);
        child_prepare(setup, limit);
        child_result r;
        memset(&r, 0, sizeof r);
        r.rc = fn(arg, &r);
        if (r.rc != RG_OK && !r.message[0])
            snprintf(r.message, sizeof r.message, "%s", rg_error_last());
        ssize_t n = write(fds[1], &r, sizeof r);
        _exit(n == (ssize_t)sizeof r ? 0 : 3);
    }
    close(fds[1]);
    child_end end;
    memset(&end, 0, sizeof end);
    size_t got = 0;
    while (got < sizeof end.result) {
        ssize_t n = read(fds[0], (char *)&end.result + got, sizeof end.result - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fds[0]);
    end.got_result = got == sizeof end.result;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            fail_msg("waitpid: %s", strerror(errno));
    end.exited = WIFEXITED(status);
    end.status = end.exited ? WEXITSTATUS(status) : -1;
    end.signaled = WIFSIGNALED(status);
    end.signal = end.signaled ? WTERMSIG(status) : 0;
    return end;
}

/* ---- listings ---- */

/* Every entry under dir (recursively, hidden ones included) as "relative/path size\n" lines, sorted. */
typedef struct listing {
    char *text;
    size_t len, cap;
} listing;

static inline void listing_add(listing *l, const char *line)
{
    size_t n = strlen(line);
    if (l->len + n + 1 > l->cap) {
        l->cap = (l->len + n + 1) * 2;
        l->text = realloc(l->text, l->cap);
        assert_non_null(l->text);
    }
    memcpy(l->text + l->len, line, n + 1);
    l->len += n;
}

static inline int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline void listing_walk(listing *l, const char *root, const char *rel)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", root, rel[0] ? "/" : "", rel);
    DIR *d = opendir(path);
    if (!d)
        fail_msg("cannot list %s: %s", path, strerror(errno));
    char *names[1024];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && n < 1024)
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        char child_rel[4096], child[8192], line[8400];
        snprintf(child_rel, sizeof child_rel, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
        snprintf(child, sizeof child, "%s/%s", root, child_rel);
        struct stat st;
        if (lstat(child, &st) != 0)
            fail_msg("cannot stat %s: %s", child, strerror(errno));
        snprintf(line, sizeof line, "%s %lld%s\n", child_rel, (long long)st.st_size, S_ISDIR(st.st_mode) ? "/" : "");
        listing_add(l, line);
        if (S_ISDIR(st.st_mode))
            listing_walk(l, root, child_rel);
        free(names[i]);
    }
}

/* The listing of a folder tree; free() the result. */
static inline char *list_tree(const char *root)
{
    listing l = {0};
    listing_add(&l, "");
    listing_walk(&l, root, "");
    return l.text;
}

/* Fails when the tree differs from the listing taken before. */
static inline void expect_same_tree(const char *root, const char *before, const char *what)
{
    char *after = list_tree(root);
    if (strcmp(before, after) != 0)
        fail_msg("%s left %s changed:\n--- before\n%s--- after\n%s", what, root, before, after);
    free(after);
}

/* The bytes of a file (NULL when it cannot be read); *size receives their count. */
static inline uint8_t *slurp(const char *path, size_t *size)
{
    uint8_t *data;
    if (rg__read_file(path, (size_t)1 << 30, &data, size) != RG_OK)
        return NULL;
    return data;
}

static inline void spit(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s: %s", path, strerror(errno));
    if (size)
        assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* Names of the entries retrogym-* of $TMPDIR, one per line, sorted. free() the result. */
static inline char *tmp_instances(void)
{
    const char *root = getenv("TMPDIR");
    root = root && *root ? root : "/tmp";
    DIR *d = opendir(root);
    assert_non_null(d);
    char *names[4096];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "retrogym-", 9) == 0 && n < 4096)
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);
    listing l = {0};
    listing_add(&l, "");
    for (size_t i = 0; i < n; i++) {
        listing_add(&l, names[i]);
        listing_add(&l, "\n");
        free(names[i]);
    }
    return l.text;
}

#endif
