/* rg_outfile: a destination written through a temporary file beside it and renamed over it at the end (outfile.h).
 * rg__write_file_atomic (fileio.c) is one buffer written this way.
 *
 * The temporary file is <destination>.tmp-XXXXXX (six letters or digits, mkstemp's), in the destination's folder,
 * and its writer holds an flock on it until it commits or aborts. A writer killed in between (kill -9, a crash, a
 * power cut) leaves it behind: each later write into the same folder removes such orphans first (sweep_orphans):
 * only names of exactly that pattern, regular files of this user, unchanged for ORPHAN_MIN_AGE seconds and whose
 * lock nobody holds (a live writer holds it, whatever its age). */
#define _XOPEN_SOURCE 700 /* realpath, fdopen */
#include "base.h"

#include <retrogym/outfile.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ORPHAN_MIN_AGE 60 /* seconds */

struct rg_outfile {
    FILE *stream;
    char *path; /* the file replaced (a link's target) */
    char *tmp;  /* NULL: written in place (a device or FIFO) */
};

static void release(rg_outfile *f)
{
    free(f->path);
    free(f->tmp);
    free(f);
}

/* A device or FIFO: opened as it is, never replaced. */
static int open_in_place(rg_outfile *f)
{
    int fd = open(f->path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || !(f->stream = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return rg__error(RG_EIO, "cannot open %s: %s", f->path, strerror(e));
    }
    return RG_OK;
}

/* Whether name is <something>.tmp-XXXXXX, XXXXXX six ASCII letters or digits. */
static int orphan_name(const char *name)
{
    size_t n = strlen(name);
    if (n < 12 || memcmp(name + n - 11, ".tmp-", 5) != 0)
        return 0;
    for (size_t i = n - 6; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
            return 0;
    }
    return 1;
}

/* Removes dir/name when it is an orphaned temporary file of a writer that is gone (see the top of the file). */
static int sweep_one(int dfd, const char *name, time_t now)
{
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        now - st.st_mtime < ORPHAN_MIN_AGE)
        return 0;
    int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return 0;
    struct stat again;
    int gone = flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &again) == 0 && again.st_dev == st.st_dev &&
               again.st_ino == st.st_ino && S_ISREG(again.st_mode);
    /* locked by us now: no writer can be using it (a writer locks it right after making it, and mkstemp never
     * reuses the name of an existing file), so removing the name is safe */
    int removed = gone && unlinkat(dfd, name, 0) == 0;
    close(fd);
    return removed;
}

/* Removes the orphaned temporary files of dead writers in the folder of path. Best effort, silent. */
static void sweep_orphans(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? rg__asprintf("%.*s", (int)(slash == path ? 1 : slash - path), path) : rg__asprintf(".");
    DIR *d = dir ? opendir(dir) : NULL;
    free(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (orphan_name(e->d_name))
            sweep_one(dirfd(d), e->d_name, now);
    closedir(d);
}

static int open_temporary(rg_outfile *f)
{
    sweep_orphans(f->path);
    if (!(f->tmp = rg__asprintf("%s.tmp-XXXXXX", f->path)))
        return rg__error(RG_ENOMEM, "out of memory");
    int fd = mkstemp(f->tmp);
    if (fd < 0) {
        int e = errno;
        free(f->tmp);
        f->tmp = NULL;
        return rg__error(RG_EIO, "cannot create a file beside %s: %s", f->path, strerror(e));
    }
    (void)flock(fd, LOCK_EX | LOCK_NB); /* held until commit or abort: the file is ours while we live */
    (void)fchmod(fd, 0644); /* mkstemp makes 0600; a state, movie or CSV is an ordinary file. Best effort. */
    if (!(f->stream = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(f->tmp);
        return rg__error(RG_EIO, "cannot write %s: %s", f->path, strerror(e));
    }
    return RG_OK;
}

int rg_outfile_open(rg_outfile **out, const char *path)
{
    if (!out || !path)
        return rg__error(RG_EINVAL, "rg_outfile_open: NULL argument");
    *out = NULL;
    rg_outfile *f = calloc(1, sizeof *f);
    if (!f)
        return rg__error(RG_ENOMEM, "out of memory");
    int rc = RG_OK, in_place = 0;
    struct stat st, link;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        rc = rg__error(RG_EIO, "cannot write %s: it is a folder", path);
    } else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        in_place = 1;
        f->path = strdup(path);
    } else if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode) && stat(path, &st) == 0) {
        /* The new file replaces the link's target, so the link stays a link. */
        if (!(f->path = realpath(path, NULL)))
            rc = rg__error(RG_EIO, "cannot resolve %s: %s", path, strerror(errno));
    } else {
        f->path = strdup(path);
    }
    if (rc == RG_OK && !f->path)
        rc = rg__error(RG_ENOMEM, "out of memory");
    if (rc == RG_OK)
        rc = in_place ? open_in_place(f) : open_temporary(f);
    if (rc != RG_OK) {
        release(f);
        return rc;
    }
    *out = f;
    return RG_OK;
}

FILE *rg_outfile_stream(rg_outfile *f)
{
    return f ? f->stream : NULL;
}

int rg_outfile_commit(rg_outfile *f)
{
    if (!f)
        return rg__error(RG_EINVAL, "rg_outfile_commit: NULL argument");
    int ok = fflush(f->stream) == 0 && !ferror(f->stream) && (!f->tmp || fsync(fileno(f->stream)) == 0);
    int e = ok ? 0 : (errno ? errno : EIO);
    if (fclose(f->stream) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (ok && f->tmp && rename(f->tmp, f->path) != 0) {
        ok = 0;
        e = errno;
    }
    if (!ok && f->tmp)
        unlink(f->tmp);
    int rc = ok ? RG_OK : rg__error(RG_EIO, "cannot write %s: %s", f->path, strerror(e));
    release(f);
    return rc;
}

void rg_outfile_abort(rg_outfile *f)
{
    if (!f)
        return;
    fclose(f->stream);
    if (f->tmp)
        unlink(f->tmp);
    release(f);
}
