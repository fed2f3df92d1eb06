/* Importing from zip archives: every member checked, zips inside zips followed, every read bounded. Member names
 * are used for messages and for the iNES rule only, never as paths. A zip inside a zip goes to an unlinked
 * temporary file, not memory: what an import holds in memory is one ROM candidate (at most max_rom_size, grown as
 * it really inflates) plus libzip's directories, however deep and far the archives inflate. */
#define _POSIX_C_SOURCE 200809L
#include "import_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#define LABEL_NAME_MAX 160

/* Result of reading a member. */
enum { MEMBER_OK, MEMBER_SKIP, MEMBER_STOP };

/* Opens member index for reading; NULL (warned and counted as skipped) when libzip cannot. */
static zip_file_t *open_member(rg__import *im, zip_t *za, zip_uint64_t index, const char *label)
{
    zip_file_t *zf = zip_fopen_index(za, index, 0);
    if (!zf) {
        rg__import_warn(im, "skipping %s: %s", label, zip_strerror(za));
        im->report->skipped++;
    }
    return zf;
}

/* Inflates up to want bytes of a member into dst, no more than what is left of the archive's inflation budget, and
 * takes them from it: *got 0 at the member's end. MEMBER_SKIP on a read error, MEMBER_STOP (the import stopped) when
 * the budget is spent; both warned and counted. */
static int read_chunk(rg__import *im, zip_file_t *zf, const char *label, uint8_t *dst, size_t want, size_t *got)
{
    *got = 0;
    if (im->budget == 0) {
        rg__import_warn(im, "stopping at %s: the archive inflates to more than its limit of %llu bytes", label,
                        (unsigned long long)im->opts.max_archive_bytes);
        im->report->skipped++;
        im->stopped = 1;
        return MEMBER_STOP;
    }
    if (im->budget < want)
        want = (size_t)im->budget;
    zip_int64_t n = zip_fread(zf, dst, want);
    if (n < 0) {
        rg__import_warn(im, "skipping %s: %s", label, zip_file_strerror(zf));
        im->report->skipped++;
        return MEMBER_SKIP;
    }
    *got = (size_t)n;
    im->budget -= (uint64_t)n;
    return MEMBER_OK;
}

/* A member that inflated past cap: warned and counted. */
static int too_big(rg__import *im, const char *label, size_t cap)
{
    rg__import_warn(im, "skipping %s: inflates to more than %zu bytes", label, cap);
    im->report->skipped++;
    return MEMBER_SKIP;
}

/* Reads one member into memory: at most cap bytes, and no more than the archive's budget. A member that inflates
 * beyond cap (whatever its header claims) is refused after cap + 1 bytes. */
static int read_member(rg__import *im, zip_t *za, zip_uint64_t index, const char *label, size_t cap,
                       uint8_t **data, size_t *size, int *rc)
{
    *data = NULL;
    *size = 0;
    zip_file_t *zf = open_member(im, za, index, label);
    if (!zf)
        return MEMBER_SKIP;
    size_t alloc = cap < 64 * 1024 ? cap + 1 : 64 * 1024, used = 0;
    uint8_t *buf = malloc(alloc);
    int result = MEMBER_OK;
    while (buf) {
        if (used == alloc) {
            if (alloc > cap) { /* cap + 1 bytes came out: too big */
                result = too_big(im, label, cap);
                break;
            }
            size_t next = alloc * 2 > cap + 1 ? cap + 1 : alloc * 2;
            uint8_t *grown = realloc(buf, next);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            alloc = next;
        }
        size_t n;
        if ((result = read_chunk(im, zf, label, buf + used, alloc - used, &n)) != MEMBER_OK || n == 0)
            break;
        used += n;
    }
    zip_fclose(zf);
    if (!buf) {
        *rc = rg__error(RG_ENOMEM, "out of memory reading %s", label);
        return MEMBER_STOP;
    }
    if (result != MEMBER_OK) {
        free(buf);
        return result;
    }
    *data = buf;
    *size = used;
    return MEMBER_OK;
}

static int import_archive(rg__import *im, zip_t *za, const char *label, unsigned depth);

/* An unlinked temporary file under $TMPDIR (or /tmp) for a nested zip; -1 with the error set when none can be made. */
static int spill_file(void)
{
    const char *root = getenv("TMPDIR");
    char *name = rg__asprintf("%s/rg-nested-XXXXXX", root && *root ? root : "/tmp");
    if (!name)
        return rg__error(RG_ENOMEM, "out of memory"), -1;
    int fd = mkstemp(name);
    if (fd < 0)
        rg__error(RG_EIO, "cannot make a temporary file for a nested zip in %s: %s", root && *root ? root : "/tmp",
                  strerror(errno));
    else
        unlink(name); /* gone with the descriptor, however the process ends */
    free(name);
    return fd;
}

/* Inflates a member into fd through a fixed 64 KiB buffer: at most cap bytes and no more than the archive's
 * budget, as read_member. So a zip inside a zip costs disk, not memory, however far it inflates. */
static int spill_member(rg__import *im, zip_t *za, zip_uint64_t index, const char *label, size_t cap, int fd, int *rc)
{
    zip_file_t *zf = open_member(im, za, index, label);
    if (!zf)
        return MEMBER_SKIP;
    enum { CHUNK = 64 * 1024 };
    uint8_t *buf = malloc(CHUNK);
    size_t used = 0;
    int result = buf ? MEMBER_OK : MEMBER_STOP;
    if (!buf)
        *rc = rg__error(RG_ENOMEM, "out of memory reading %s", label);
    while (result == MEMBER_OK) {
        size_t n;
        if ((result = read_chunk(im, zf, label, buf, CHUNK, &n)) != MEMBER_OK || n == 0)
            break;
        used += n;
        if (used > cap) {
            result = too_big(im, label, cap);
            break;
        }
        for (size_t off = 0; off < n;) {
            ssize_t w = write(fd, buf + off, n - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                rg__import_warn(im, "skipping %s: cannot write its temporary copy: %s", label,
                                w < 0 ? strerror(errno) : "no space");
                im->report->skipped++;
                result = MEMBER_SKIP;
                break;
            }
            off += (size_t)w;
        }
    }
    free(buf);
    zip_fclose(zf);
    return result;
}

/* A zip inside a zip: inflated (bounded) into an unlinked temporary file and opened from there. */
static int import_nested(rg__import *im, zip_t *outer, zip_uint64_t index, const char *label, size_t cap,
                         unsigned depth)
{
    int fd = spill_file();
    if (fd < 0) {
        rg__import_warn(im, "skipping %s: %s", label, rg_error_last());
        im->report->skipped++;
        return RG_OK;
    }
    int rc = RG_OK;
    int r = spill_member(im, outer, index, label, cap, fd, &rc);
    if (r != MEMBER_OK || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return rc != RG_OK ? rc : r == MEMBER_OK ? RG_OK : r;
    }
    int zerr = 0;
    zip_t *za = zip_fdopen(fd, 0, &zerr); /* takes fd on success */
    if (!za) {
        close(fd);
        zip_error_t err;
        zip_error_init_with_code(&err, zerr);
        rg__import_warn(im, "skipping %s: not a valid zip archive (%s)", label, zip_error_strerror(&err));
        zip_error_fini(&err);
        im->report->skipped++;
        return RG_OK;
    }
    rc = import_archive(im, za, label, depth);
    zip_discard(za);
    return rc;
}

static int import_member(rg__import *im, zip_t *za, zip_uint64_t i, const char *label, const char *name,
                         const zip_stat_t *st, unsigned depth)
{
    int nested = rg__ends_with_ci(name, ".zip");
    size_t cap = nested ? im->opts.max_nested_zip_size : im->opts.max_rom_size;
    if (nested && depth + 1 >= im->opts.max_zip_depth) {
        rg__import_warn(im, "skipping %s: zips nested deeper than %u", label, im->opts.max_zip_depth);
        im->report->skipped++;
        return MEMBER_SKIP;
    }
    if ((st->valid & ZIP_STAT_SIZE) && st->size > cap) {
        rg__import_warn(im, "skipping %s: %s (%llu bytes, limit %zu)", label,
                        nested ? "archive is too big" : "ROM is too big", (unsigned long long)st->size, cap);
        im->report->skipped++;
        return MEMBER_SKIP;
    }
    if (nested)
        return import_nested(im, za, i, label, cap, depth + 1);
    uint8_t *data;
    size_t size;
    int rc = RG_OK;
    int r = read_member(im, za, i, label, cap, &data, &size, &rc);
    if (r != MEMBER_OK)
        return rc != RG_OK ? rc : r;
    rc = rg__import_candidate(im, name, data, size);
    free(data);
    return rc;
}

static int import_archive(rg__import *im, zip_t *za, const char *label, unsigned depth)
{
    zip_int64_t n = zip_get_num_entries(za, 0);
    int rc = RG_OK;
    for (zip_int64_t i = 0; rc == RG_OK && !im->stopped && i < n; i++) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(za, (zip_uint64_t)i, 0, &st) != 0) {
            rg__import_warn(im, "skipping member %lld of %s: %s", (long long)i, label, zip_strerror(za));
            im->report->skipped++;
            continue;
        }
        const char *name = (st.valid & ZIP_STAT_NAME) && st.name ? st.name : "";
        size_t len = strlen(name);
        if (len == 0 || name[len - 1] == '/')
            continue; /* folders */
        char *shown = rg__printable(name, LABEL_NAME_MAX);
        char *member_label = shown ? rg__asprintf("%s:%s", label, shown) : NULL;
        free(shown);
        if (!member_label)
            return rg__error(RG_ENOMEM, "out of memory");
        int r = import_member(im, za, (zip_uint64_t)i, member_label, name, &st, depth);
        free(member_label);
        if (r == MEMBER_STOP)
            break;
        if (r < 0)
            rc = r;
    }
    return rc;
}

int rg__import_zip_file(rg__import *im, const char *path)
{
    int zerr = 0, fd;
    if (rg__open_input(path, &fd, NULL) != RG_OK) { /* a FIFO or device named .zip: skipped, never waited on */
        rg__import_warn(im, "skipping a file: %s", rg_error_last());
        im->report->skipped++;
        return RG_OK;
    }
    zip_t *za = zip_fdopen(fd, 0, &zerr); /* takes fd on success */
    if (!za) {
        close(fd);
        zip_error_t err;
        zip_error_init_with_code(&err, zerr);
        rg__import_warn(im, "skipping %s: not a valid zip archive (%s)", path, zip_error_strerror(&err));
        zip_error_fini(&err);
        im->report->skipped++;
        return RG_OK;
    }
    im->budget = im->opts.max_archive_bytes;
    im->stopped = 0;
    char *label = rg__printable(path, 4096);
    int rc = label ? import_archive(im, za, label, 0) : rg__error(RG_ENOMEM, "out of memory");
    free(label);
    zip_discard(za);
    return rc;
}
