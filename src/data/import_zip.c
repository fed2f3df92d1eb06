/* Importing from zip archives: every member checked, zips inside zips followed, every read bounded. Member names
 * are used for messages and for the iNES rule only, never as paths. */
#define _POSIX_C_SOURCE 200809L
#include "import_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#define LABEL_NAME_MAX 160

/* Result of reading a member. */
enum { MEMBER_OK, MEMBER_SKIP, MEMBER_STOP };

/* Reads one member into memory: at most cap bytes, and no more than the archive's budget. A member that inflates
 * beyond cap (whatever its header claims) is refused after cap + 1 bytes. */
static int read_member(rg__import *im, zip_t *za, zip_uint64_t index, const char *label, size_t cap,
                       uint8_t **data, size_t *size, int *rc)
{
    *data = NULL;
    *size = 0;
    zip_file_t *zf = zip_fopen_index(za, index, 0);
    if (!zf) {
        rg__import_warn(im, "skipping %s: %s", label, zip_strerror(za));
        im->report->skipped++;
        return MEMBER_SKIP;
    }
    size_t alloc = cap < 64 * 1024 ? cap + 1 : 64 * 1024, used = 0;
    uint8_t *buf = malloc(alloc);
    int result = MEMBER_OK;
    while (buf) {
        if (used == alloc) {
            if (alloc > cap) { /* cap + 1 bytes came out: too big */
                rg__import_warn(im, "skipping %s: inflates to more than %zu bytes", label, cap);
                im->report->skipped++;
                result = MEMBER_SKIP;
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
        size_t want = alloc - used;
        if (im->budget < want) {
            if (im->budget == 0) {
                rg__import_warn(im, "stopping at %s: the archive inflates to more than its limit of %llu bytes",
                                label, (unsigned long long)im->opts.max_archive_bytes);
                im->report->skipped++;
                im->stopped = 1;
                result = MEMBER_STOP;
                break;
            }
            want = (size_t)im->budget;
        }
        zip_int64_t n = zip_fread(zf, buf + used, want);
        if (n < 0) {
            rg__import_warn(im, "skipping %s: %s", label, zip_file_strerror(zf));
            im->report->skipped++;
            result = MEMBER_SKIP;
            break;
        }
        if (n == 0)
            break;
        used += (size_t)n;
        im->budget -= (uint64_t)n;
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

/* A zip inside a zip: read into memory (bounded) and opened from there. Takes data. The source does not own the
 * bytes: libzip drops a zero-length buffer without freeing it, so they are freed here once the archive is gone. */
static int import_nested(rg__import *im, const char *label, uint8_t *data, size_t size, unsigned depth)
{
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t *src = zip_source_buffer_create(data, size, 0, &err);
    if (!src) {
        free(data);
        zip_error_fini(&err);
        return rg__error(RG_ENOMEM, "out of memory opening %s", label);
    }
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY, &err);
    if (!za) {
        rg__import_warn(im, "skipping %s: not a valid zip archive (%s)", label, zip_error_strerror(&err));
        im->report->skipped++;
        zip_source_free(src);
        free(data);
        zip_error_fini(&err);
        return RG_OK;
    }
    zip_error_fini(&err);
    int rc = import_archive(im, za, label, depth);
    zip_discard(za); /* frees the source */
    free(data);
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
    uint8_t *data;
    size_t size;
    int rc = RG_OK;
    int r = read_member(im, za, i, label, cap, &data, &size, &rc);
    if (r != MEMBER_OK)
        return rc != RG_OK ? rc : r;
    if (nested)
        return import_nested(im, label, data, size, depth + 1);
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
