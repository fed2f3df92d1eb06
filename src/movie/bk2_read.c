/* Reading a .bk2: the zip container (libzip, from memory) and Header.txt. Only the three entries we know are read,
 * each bounded by its declared size and by what it really inflates to; entry names are compared byte for byte and
 * never used as paths, so "../Input Log.txt" or "/Header.txt" are simply not our entries. */
#include "movie_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#define LOG_ENTRY "Input Log.txt"
#define HEADER_ENTRY "Header.txt"
#define STATE_ENTRY "Core.bin"

enum { E_LOG, E_HEADER, E_STATE, E_COUNT };
static const char *const entry_names[E_COUNT] = {LOG_ENTRY, HEADER_ENTRY, STATE_ENTRY};

static int zip_failure(const char *label, zip_error_t *err)
{
    int ze = zip_error_code_zip(err);
    const char *why = zip_error_strerror(err);
    switch (ze) {
    case ZIP_ER_NOZIP:
        return rg__error(RG_ECORRUPT, "%s is not a zip archive (%s)", label, why);
    case ZIP_ER_EXISTS:
        return rg__error(RG_ECORRUPT, "%s holds two entries with the same name", label);
    case ZIP_ER_MEMORY:
        return rg__error(RG_ENOMEM, "out of memory opening %s", label);
    default:
        return rg__error(RG_ECORRUPT, "%s is a damaged or truncated zip archive (%s)", label, why);
    }
}

/* Reads one entry into a fresh buffer (+1 byte for a terminating NUL): refused when it declares more than cap bytes
 * or inflates to more (the read stops at cap + 1 bytes whatever the header says). */
static int read_entry(zip_t *za, zip_uint64_t index, const char *label, const char *entry, size_t cap,
                      uint8_t **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(za, index, 0, &st) != 0)
        return rg__error(RG_ECORRUPT, "%s: cannot read the entry %s (%s)", label, entry, zip_strerror(za));
    if ((st.valid & ZIP_STAT_SIZE) && st.size > cap)
        return rg__error(RG_ETOOBIG, "%s: %s declares %llu bytes, over the limit of %zu", label, entry,
                         (unsigned long long)st.size, cap);
    if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
        return rg__error(RG_EUNSUPPORTED, "%s: %s is encrypted", label, entry);
    zip_file_t *zf = zip_fopen_index(za, index, 0);
    if (!zf) {
        int ze = zip_error_code_zip(zip_get_error(za));
        return rg__error(ze == ZIP_ER_COMPNOTSUPP || ze == ZIP_ER_ENCRNOTSUPP ? RG_EUNSUPPORTED : RG_ECORRUPT,
                         "%s: cannot open %s (%s)", label, entry, zip_strerror(za));
    }
    /* Trust the declared size for the first allocation only up to 16 MiB: a header may lie. */
    size_t alloc = (st.valid & ZIP_STAT_SIZE) ? (size_t)st.size + 2 : 4096, used = 0;
    if (alloc > ((size_t)16 << 20))
        alloc = (size_t)16 << 20;
    if (alloc > cap + 2)
        alloc = cap + 2;
    uint8_t *buf = malloc(alloc);
    int rc = buf ? RG_OK : rg__error(RG_ENOMEM, "out of memory reading %s", entry);
    while (rc == RG_OK) {
        if (used + 1 == alloc) { /* keep one byte for the NUL */
            if (used > cap) {
                rc = rg__error(RG_ETOOBIG, "%s: %s inflates to more than the limit of %zu bytes", label, entry,
                               cap);
                break;
            }
            size_t next = alloc * 2 < cap + 2 ? alloc * 2 : cap + 2;
            uint8_t *grown = realloc(buf, next);
            if (!grown) {
                rc = rg__error(RG_ENOMEM, "out of memory reading %s", entry);
                break;
            }
            buf = grown;
            alloc = next;
        }
        zip_int64_t n = zip_fread(zf, buf + used, alloc - 1 - used);
        if (n < 0) {
            rc = rg__error(RG_ECORRUPT, "%s: %s is damaged or truncated (%s)", label, entry, zip_file_strerror(zf));
            break;
        }
        if (n == 0)
            break;
        used += (size_t)n;
        if (used > cap)
            rc = rg__error(RG_ETOOBIG, "%s: %s inflates to more than the limit of %zu bytes", label, entry, cap);
    }
    zip_fclose(zf);
    if (rc == RG_OK && (st.valid & ZIP_STAT_SIZE) && used != st.size)
        rc = rg__error(RG_ECORRUPT, "%s: %s holds %zu bytes but declares %llu", label, entry, used,
                       (unsigned long long)st.size);
    if (rc != RG_OK) {
        free(buf);
        return rc;
    }
    buf[used] = '\0';
    *data = buf;
    *size = used;
    return RG_OK;
}

/* Parses the log entry as it inflates, 64 KiB at a time (rg__bk2_log): memory is the frames, not the text. Bounded
 * like read_entry: by the declared size, and by cap whatever the header says; the size must be the declared one. */
static int stream_log(rg_movie *m, zip_t *za, zip_uint64_t index, const char *label, size_t cap)
{
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(za, index, 0, &st) != 0)
        return rg__error(RG_ECORRUPT, "%s: cannot read the entry %s (%s)", label, LOG_ENTRY, zip_strerror(za));
    if ((st.valid & ZIP_STAT_SIZE) && st.size > cap)
        return rg__error(RG_ETOOBIG, "%s: %s declares %llu bytes, over the limit of %zu", label, LOG_ENTRY,
                         (unsigned long long)st.size, cap);
    if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
        return rg__error(RG_EUNSUPPORTED, "%s: %s is encrypted", label, LOG_ENTRY);
    zip_file_t *zf = zip_fopen_index(za, index, 0);
    if (!zf) {
        int ze = zip_error_code_zip(zip_get_error(za));
        return rg__error(ze == ZIP_ER_COMPNOTSUPP || ze == ZIP_ER_ENCRNOTSUPP ? RG_EUNSUPPORTED : RG_ECORRUPT,
                         "%s: cannot open %s (%s)", label, LOG_ENTRY, zip_strerror(za));
    }
    enum { CHUNK = 64 * 1024 };
    char *buf = malloc(CHUNK);
    rg__bk2_log log;
    int rc = buf ? rg__bk2_log_begin(&log) : rg__error(RG_ENOMEM, "out of memory reading %s", LOG_ENTRY);
    size_t used = 0;
    while (rc == RG_OK) {
        zip_int64_t n = zip_fread(zf, buf, CHUNK);
        if (n < 0) {
            rc = rg__error(RG_ECORRUPT, "%s: %s is damaged or truncated (%s)", label, LOG_ENTRY,
                           zip_file_strerror(zf));
            break;
        }
        if (n == 0)
            break;
        used += (size_t)n;
        if (used > cap) {
            rc = rg__error(RG_ETOOBIG, "%s: %s inflates to more than the limit of %zu bytes", label, LOG_ENTRY, cap);
            break;
        }
        if ((rc = rg__bk2_log_feed(m, &log, buf, (size_t)n)) != RG_OK)
            rc = rg__error_context(rc, "%s: Input Log.txt", label);
    }
    zip_fclose(zf);
    if (rc == RG_OK && (st.valid & ZIP_STAT_SIZE) && used != st.size)
        rc = rg__error(RG_ECORRUPT, "%s: %s holds %zu bytes but declares %llu", label, LOG_ENTRY, used,
                       (unsigned long long)st.size);
    if (rc == RG_OK && (rc = rg__bk2_log_end(m, &log)) != RG_OK)
        rc = rg__error_context(rc, "%s: Input Log.txt", label);
    if (buf)
        rg__bk2_log_free(&log);
    free(buf);
    return rc;
}

/* "Key Value" lines; the key ends at the first space. stable-retro reads the platform after "Platform ". */
static int parse_header(rg_movie *m, const char *text, size_t size, const char *label)
{
    int rc = rg__text_check(HEADER_ENTRY, text, size);
    if (rc != RG_OK)
        return rg__error_context(rc, "%s", label);
    rg__lines it = {text, text + size, 0};
    const char *line;
    size_t len;
    while (rg__lines_next(&it, &line, &len)) {
        if (len == 0)
            continue;
        const char *sp = memchr(line, ' ', len);
        size_t klen = sp ? (size_t)(sp - line) : len;
        const char *v = sp ? sp + 1 : line + len;
        if ((rc = rg__movie_header_set(m, line, klen, v, (size_t)(line + len - v), 0)) != RG_OK)
            return rc;
    }
    const char *platform = rg_movie_header(m, "Platform");
    if (!platform || !*platform)
        return rg__error(RG_ECORRUPT, "%s: Header.txt has no Platform line", label);
    if ((rc = rg__movie_platform_system(platform, &m->sys)) != RG_OK)
        return rg__error_context(rc, "%s", label);
    const char *game = rg_movie_header(m, "GameName");
    m->game = rg__strdup(game ? game : "", &rc);
    return rc;
}

/* Finds our three entries among all; a second entry with one of our names is refused (which one counts?). */
static int locate(zip_t *za, const char *label, zip_int64_t found[E_COUNT])
{
    for (int e = 0; e < E_COUNT; e++)
        found[e] = -1;
    zip_int64_t n = zip_get_num_entries(za, 0);
    for (zip_int64_t i = 0; i < n; i++) {
        const char *name = zip_get_name(za, (zip_uint64_t)i, ZIP_FL_ENC_RAW);
        if (!name)
            return rg__error(RG_ECORRUPT, "%s: entry %lld has no readable name (%s)", label, (long long)i,
                             zip_strerror(za));
        for (int e = 0; e < E_COUNT; e++) {
            if (strcmp(name, entry_names[e]) != 0)
                continue;
            if (found[e] >= 0)
                return rg__error(RG_ECORRUPT, "%s holds two entries named %s", label, entry_names[e]);
            found[e] = i;
        }
    }
    if (found[E_LOG] < 0)
        return rg__error(RG_ECORRUPT, "%s has no Input Log.txt entry: not a BK2 movie", label);
    if (found[E_HEADER] < 0)
        return rg__error(RG_ECORRUPT, "%s has no Header.txt entry: not a BK2 movie", label);
    return RG_OK;
}

int rg__bk2_read(rg_movie *m, const uint8_t *data, size_t size, const char *label, const rg__movie_caps *caps)
{
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t *src = zip_source_buffer_create(data, size, 0, &err);
    if (!src) {
        int rc = zip_failure(label, &err);
        zip_error_fini(&err);
        return rc;
    }
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
    if (!za) {
        int rc = zip_failure(label, &err);
        zip_source_free(src);
        zip_error_fini(&err);
        return rc;
    }
    zip_error_fini(&err);

    zip_int64_t found[E_COUNT];
    uint8_t *header = NULL;
    size_t header_size = 0;
    int rc = locate(za, label, found);
    if (rc == RG_OK)
        rc = read_entry(za, (zip_uint64_t)found[E_HEADER], label, HEADER_ENTRY, caps->header, &header,
                        &header_size);
    if (rc == RG_OK)
        rc = parse_header(m, (const char *)header, header_size, label);
    if (rc == RG_OK)
        rc = stream_log(m, za, (zip_uint64_t)found[E_LOG], label, caps->log);
    if (rc == RG_OK && found[E_STATE] >= 0) {
        rc = read_entry(za, (zip_uint64_t)found[E_STATE], label, STATE_ENTRY, caps->state, &m->state,
                        &m->state_size);
        if (rc == RG_OK && m->state_size == 0) {
            free(m->state);
            m->state = NULL;
        }
    }
    free(header);
    zip_discard(za); /* also frees src */
    return rc;
}

int rg__bk2_read_extra(const char *path, const char *entry, const char *what, size_t cap, char **text, size_t *size)
{
    *text = NULL;
    *size = 0;
    int err = 0, fd;
    int orc = rg__open_input(path, &fd, NULL); /* no wait on a FIFO, only a regular file */
    if (orc == RG_ENOTFOUND)
        return rg__error(RG_ENOTFOUND, "no movie %s", path);
    if (orc != RG_OK)
        return orc;
    zip_t *za = zip_fdopen(fd, 0, &err); /* takes fd on success; reads only the entries asked for */
    if (!za) {
        close(fd);
        if (err == ZIP_ER_NOENT || err == ZIP_ER_OPEN)
            return rg__error(RG_ENOTFOUND, "no movie %s", path);
        zip_error_t ze;
        zip_error_init_with_code(&ze, err);
        int rc = err == ZIP_ER_READ ? rg__error(RG_EIO, "%s: %s", path, zip_error_strerror(&ze))
                                    : zip_failure(path, &ze);
        zip_error_fini(&ze);
        return rc;
    }
    zip_int64_t index = zip_name_locate(za, entry, ZIP_FL_ENC_RAW);
    uint8_t *data = NULL;
    int rc = index < 0 ? rg__error(RG_ENOTFOUND, "%s holds no %s (%s)", path, what, entry)
                       : read_entry(za, (zip_uint64_t)index, path, entry, cap, &data, size);
    zip_discard(za);
    *text = (char *)data;
    return rc;
}
