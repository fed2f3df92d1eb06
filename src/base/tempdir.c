#define _XOPEN_SOURCE 700
#include "base.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int rg__tempdir_create(char **path, const char *prefix)
{
    const char *root = getenv("TMPDIR");
    if (!root || !*root)
        root = "/tmp";
    char *p = rg__asprintf("%s/%s-XXXXXX", root, prefix);
    if (!p)
        return rg__error(RG_ENOMEM, "out of memory");
    if (!mkdtemp(p)) {
        int e = errno;
        free(p);
        return rg__error(RG_EIO, "cannot create a temporary folder in %s: %s", root, strerror(e));
    }
    *path = p;
    return RG_OK;
}

/* The lock file of a private folder: held (flock) by the instance for as long as it lives, and released by the
 * kernel when its process ends, however it ends. */
#define LOCK_NAME ".lock"

int rg__tempdir_create_locked(char **path, int *lock_fd, const char *prefix)
{
    *lock_fd = -1;
    int rc = rg__tempdir_create(path, prefix);
    if (rc != RG_OK)
        return rc;
    char *lock = rg__asprintf("%s/" LOCK_NAME, *path);
    int fd = lock ? open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) : -1;
    int e = errno;
    free(lock);
    if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (fd >= 0) {
            e = errno;
            close(fd);
        }
        rg__remove_tree(*path);
        rc = rg__error(RG_EIO, "cannot lock the temporary folder %s: %s", *path, strerror(e));
        free(*path);
        *path = NULL;
        return rc;
    }
    *lock_fd = fd;
    return RG_OK;
}

/* Whether root/name is a private folder of ours whose process has gone: our own, with a lock file nobody holds,
 * made at least min_age seconds ago (a folder being made has no lock file yet, or a new one). */
static int stale(const char *dir, long min_age)
{
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
        return 0;
    char *lock = rg__asprintf("%s/" LOCK_NAME, dir);
    if (!lock)
        return 0;
    int fd = open(lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    free(lock);
    if (fd < 0)
        return 0;
    int gone = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && time(NULL) - st.st_mtime >= min_age &&
               flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd);
    return gone;
}

size_t rg__tempdir_sweep(const char *prefix, long min_age)
{
    const char *root = getenv("TMPDIR");
    if (!root || !*root)
        root = "/tmp";
    DIR *d = opendir(root);
    if (!d)
        return 0;
    size_t n = strlen(prefix), removed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, n) != 0 || e->d_name[n] != '-')
            continue;
        char *dir = rg__asprintf("%s/%s", root, e->d_name);
        if (dir && stale(dir, min_age)) {
            rg__remove_tree(dir);
            removed++;
        }
        free(dir);
    }
    closedir(d);
    return removed;
}

void rg__remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char *child = rg__asprintf("%s/%s", path, e->d_name);
            if (!child)
                continue;
            struct stat st;
            if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
                rg__remove_tree(child);
            else
                unlink(child);
            free(child);
        }
        closedir(d);
    }
    rmdir(path);
}
