/* Recording a pool's episodes as movies: every environment records through its own rg_env recorder
 * (src/env/env_record.c) into its own subfolder, so the workers never share a file or a counter and the movies are
 * those an independent environment would write. Called only between steps (nothing in flight), on the caller's
 * thread: the workers are idle and the pool's lock has ordered their last writes to the envs before these calls. */
#define _POSIX_C_SOURCE 200809L
#include "pool_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "<dir>/env-<i>", at least three digits (env-000, env-001, ..., env-1000). */
static char *env_folder(const char *dir, size_t i)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') /* "movies/" and "movies" name the same subfolders */
        len--;
    return rg__asprintf("%.*s/env-%03zu", (int)len, dir, i);
}

/* Makes env i's subfolder (an existing folder is fine, as a later recording into the same dir reuses it). */
static int make_env_folder(const char *path)
{
    if (mkdir(path, 0777) == 0 || (errno == EEXIST && is_dir(path)))
        return RG_OK;
    int e = errno;
    if (e == EEXIST)
        return rg__error(RG_EIO, "cannot record into %s: it exists and is not a folder", path);
    return rg__error(RG_EIO, "cannot create the folder %s: %s", path, strerror(e));
}

static int check_idle(const rg_pool *p, const char *what)
{
    if (p->pending)
        return rg__pool_check_pending(p);
    if (p->in_flight)
        return rg__error(RG_EMISUSE, "%s: %zu asynchronous steps are in flight: rg_pool_recv them first", what,
                         p->in_flight);
    return RG_OK;
}

/* Stops every env's recording; the first error (with its env) is the result, the others are stopped all the same. */
static int stop_all(rg_pool *p)
{
    int first = RG_OK;
    char msg[512] = "";
    for (size_t i = 0; i < p->n; i++) {
        int rc = rg_env_record_stop(p->envs[i]);
        if (rc != RG_OK && first == RG_OK) {
            first = rc;
            snprintf(msg, sizeof msg, "environment %zu: %s", i, rg_error_last());
        }
    }
    return first == RG_OK ? RG_OK : rg__error(first, "%s", msg);
}

int rg_pool_record_dir(rg_pool *p, const char *dir)
{
    if (!p || !dir || !*dir)
        return rg__error(RG_EINVAL, "rg_pool_record_dir: NULL argument");
    if (p->isolated)
        return rg__error(RG_EINVAL, "a pool of worker processes (RG_POOL_PROCESSES) does not record movies: record "
                                    "with worker threads, or with single environments");
    int rc = check_idle(p, "rg_pool_record_dir");
    if (rc != RG_OK)
        return rc;
    if (!is_dir(dir))
        return rg__error(RG_ENOTFOUND, "cannot record into %s: no such folder", dir);
    char **folders = calloc(p->n, sizeof *folders);
    if (!folders)
        return rg__error(RG_ENOMEM, "out of memory");
    /* Every subfolder first: a folder that cannot be made leaves the recording as it was. */
    for (size_t i = 0; i < p->n && rc == RG_OK; i++) {
        if (!(folders[i] = env_folder(dir, i)))
            rc = rg__error(RG_ENOMEM, "out of memory");
        else
            rc = make_env_folder(folders[i]);
    }
    for (size_t i = 0; i < p->n && rc == RG_OK; i++) {
        rc = rg_env_record_dir(p->envs[i], folders[i], 0);
        if (rc != RG_OK) {
            /* All or nothing: the ones already started stop again (their movies so far are written). */
            char msg[512];
            snprintf(msg, sizeof msg, "environment %zu: %s", i, rg_error_last());
            stop_all(p);
            rc = rg__error(rc, "%s", msg);
        }
    }
    for (size_t i = 0; i < p->n; i++)
        free(folders[i]);
    free(folders);
    return rc;
}

int rg_pool_record_stop(rg_pool *p)
{
    if (!p)
        return rg__error(RG_EINVAL, "rg_pool_record_stop: NULL argument");
    if (p->isolated)
        return RG_OK; /* never records */
    int rc = check_idle(p, "rg_pool_record_stop");
    return rc == RG_OK ? stop_all(p) : rc;
}
