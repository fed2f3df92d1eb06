#define _XOPEN_SOURCE 700 /* realpath */
#include "base.h"

#include <retrogym/outfile.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rg__open_input(const char *path, int *fd_out, struct stat *st_out)
{
    *fd_out = -1;
    /* O_NONBLOCK: opening a FIFO (or a device) for reading must not wait for a writer; cleared once the file is
     * known to be regular (where it changes nothing anyway). */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        int e = errno;
        return rg__error(e == ENOENT || e == ENOTDIR ? RG_ENOTFOUND : RG_EIO, "cannot open %s: %s", path,
                         strerror(e));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return rg__error(RG_EIO, "cannot stat %s: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return rg__error(RG_EIO, "%s is not a regular file", path);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        return rg__error(RG_EIO, "cannot open %s: %s", path, strerror(e));
    }
    if (st_out)
        *st_out = st;
    *fd_out = fd;
    return RG_OK;
}

int rg__fopen_input(const char *path, FILE **f_out)
{
    *f_out = NULL;
    int fd;
    int rc = rg__open_input(path, &fd, NULL);
    if (rc != RG_OK)
        return rc;
    if (!(*f_out = fdopen(fd, "rb"))) {
        int e = errno;
        close(fd);
        return rg__error(RG_ENOMEM, "cannot open %s: %s", path, strerror(e));
    }
    return RG_OK;
}

int rg__check_input(const char *path)
{
    int fd;
    int rc = rg__open_input(path, &fd, NULL);
    if (rc == RG_OK)
        close(fd);
    return rc;
}

int rg__read_file(const char *path, size_t max_size, uint8_t **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    struct stat st;
    int fd;
    int rc = rg__open_input(path, &fd, &st);
    if (rc != RG_OK)
        return rc;
    if ((uint64_t)st.st_size > max_size) {
        close(fd);
        return rg__error(RG_ETOOBIG, "%s is %lld bytes, over the limit of %zu", path, (long long)st.st_size,
                         max_size);
    }
    size_t want = (size_t)st.st_size;
    uint8_t *buf = malloc(want ? want : 1);
    if (!buf) {
        close(fd);
        return rg__error(RG_ENOMEM, "out of memory reading %s (%zu bytes)", path, want);
    }
    size_t got = 0;
    while (got < want) {
        ssize_t n = read(fd, buf + got, want - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            free(buf);
            close(fd);
            return rg__error(RG_EIO, "cannot read %s: %s", path, n < 0 ? strerror(e) : "file shrank while reading");
        }
        got += (size_t)n;
    }
    close(fd);
    *data = buf;
    *size = got;
    return RG_OK;
}

int rg__write_file_atomic(const char *path, const void *data, size_t size)
{
    rg_outfile *f;
    int rc = rg_outfile_open(&f, path);
    if (rc != RG_OK)
        return rc;
    size_t wrote = size ? fwrite(data, 1, size, rg_outfile_stream(f)) : 0;
    (void)wrote; /* a short write sets the stream's error flag: the commit reports it, with its cause */
    return rg_outfile_commit(f);
}

static int write_all(int fd, const void *data, size_t size)
{
    const uint8_t *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

int rg__copy_file(const char *src, const char *dst)
{
    int in;
    int rc = rg__open_input(src, &in, NULL);
    if (rc != RG_OK)
        return rc;
    int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
    if (out < 0) {
        int e = errno;
        close(in);
        return rg__error(RG_EIO, "cannot create %s: %s", dst, strerror(e));
    }
    char buf[1 << 16];
    for (;;) {
        ssize_t n = read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = rg__error(RG_EIO, "cannot read %s: %s", src, strerror(errno));
            break;
        }
        if (n == 0)
            break;
        if (write_all(out, buf, (size_t)n) != 0) {
            rc = rg__error(RG_EIO, "cannot write %s: %s", dst, strerror(errno));
            break;
        }
    }
    close(in);
    if (close(out) != 0 && rc == RG_OK)
        rc = rg__error(RG_EIO, "cannot write %s: %s", dst, strerror(errno));
    if (rc != RG_OK)
        unlink(dst);
    return rc;
}
